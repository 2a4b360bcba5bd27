//! The case generator. It favours what breaks collision code (issue 11, docs/PEER-FAILURES): flat, collinear and
//! duplicated point sets, needles and 1e-9 slabs, zero sizes, touching features, one shape inside another, gaps of
//! 1e-6, offsets of 1e4–1e5 and far beyond, tiny (1e-6) and huge (1e6) shapes, extreme aspect ratios, exactly
//! coincident poses, quaternions near ±identity — and plain random pairs between them.

use gjk::math::{DVec2, DVec3};

use crate::rng::Rng;
use crate::space::{axpy, build, dot, norm, pose as build_pose, scale, Placed, Space};
use crate::spec::{Pose, Rot, Shape, IDENTITY};

/// One generated case: a pair of shapes, their poses, and the parameters of every query run on them.
#[derive(Clone, Debug)]
pub struct Case {
    pub dim: usize,
    /// Built in f32 (else f64).
    pub f32: bool,
    /// How the poses were chosen (statistics and reproducers).
    pub scenario: &'static str,
    pub a: Shape,
    pub pose_a: Pose,
    pub b: Shape,
    pub pose_b: Pose,
    /// `contact_manifold`'s prediction distance.
    pub prediction: f64,
    /// `DistanceOptions::max_distance` for the bounded distance query.
    pub max_distance: f64,
    pub velocity_a: Vec<f64>,
    pub velocity_b: Vec<f64>,
    /// 1 number in 2D, 3 in 3D.
    pub angular_a: Vec<f64>,
    pub angular_b: Vec<f64>,
    pub max_toi: f64,
    pub target_distance: f64,
    pub ignore_initial_overlap: bool,
    /// The ray cast against A.
    pub ray_origin: Vec<f64>,
    pub ray_direction: Vec<f64>,
    pub ray_max_toi: f64,
}

/// Generates case `index` of the run seeded `seed`.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = Rng::for_case(seed, index);
    let dim = if rng.chance(0.5) { 3 } else { 2 };
    let f32 = rng.chance(0.3);
    if dim == 2 {
        case_in::<DVec2>(&mut rng, f32)
    } else {
        case_in::<DVec3>(&mut rng, f32)
    }
}

fn case_in<V: Space>(rng: &mut Rng, f32: bool) -> Case {
    let dim = V::DIM;
    let s = size_class(rng);
    let a = shape(rng, dim, s, 0);
    let b = if rng.chance(0.06) {
        a.clone()
    } else {
        let sb = if rng.chance(0.7) { s } else { size_class(rng) };
        shape(rng, dim, sb, 0)
    };
    let (scenario, pose_a, pose_b) = place::<V>(rng, &a, &b);
    let ext = extent_of::<V>(&a, &pose_a).max(extent_of::<V>(&b, &pose_b)).max(1e-300);
    let speed = ext * rng.log_range(1e-3, 1e3);
    let towards = axpy(&pose_a.translation, -1.0, &pose_b.translation);
    let towards = unit_or(&towards, dim, rng);
    let lateral = scale(&rng.unit_vector(dim), rng.range(0.0, 0.5) * speed);
    let velocity_b =
        if rng.chance(0.8) { axpy(&lateral, speed, &towards) } else { scale(&rng.unit_vector(dim), speed) };
    let velocity_a = if rng.chance(0.5) { vec![0.0; dim] } else { scale(&rng.unit_vector(dim), speed * rng.unit()) };
    if rng.chance(0.1) {
        // Moving together: the relative motion is zero (the spheres of issue 11 §3).
        return Case {
            velocity_b: velocity_a.clone(),
            velocity_a,
            ..finish(rng, dim, f32, scenario, a, pose_a, b, pose_b, ext)
        };
    }
    Case { velocity_a, velocity_b, ..finish(rng, dim, f32, scenario, a, pose_a, b, pose_b, ext) }
}

#[allow(clippy::too_many_arguments)]
fn finish(
    rng: &mut Rng,
    dim: usize,
    f32: bool,
    scenario: &'static str,
    a: Shape,
    pose_a: Pose,
    b: Shape,
    pose_b: Pose,
    ext: f64,
) -> Case {
    let angular = |rng: &mut Rng| -> Vec<f64> {
        let w = match rng.weighted(&[0.3, 0.5, 0.15, 0.05]) {
            0 => 0.0,
            1 => rng.range(0.0, 50.0),
            2 => rng.log_range(1e-9, 1e-3),
            _ => rng.log_range(1e3, 1e6),
        };
        if dim == 2 {
            vec![w * rng.sign()]
        } else {
            scale(&rng.unit_vector(3), w)
        }
    };
    let (angular_a, angular_b) = (angular(rng), angular(rng));
    let max_toi = match rng.weighted(&[0.3, 0.4, 0.1, 0.1, 0.1]) {
        0 => f64::INFINITY,
        1 => rng.range(0.1, 10.0),
        2 => 0.0,
        3 => rng.log_range(1e-9, 1e-3),
        _ => rng.log_range(1e3, 1e9),
    };
    let target_distance = match rng.weighted(&[0.65, 0.2, 0.15]) {
        0 => 0.0,
        1 => ext * rng.range(0.0, 0.2),
        _ => ext * rng.log_range(1e-12, 1e-6),
    };
    let prediction = if rng.chance(0.6) { 0.0 } else { ext * rng.range(0.0, 0.2) };
    let max_distance = match rng.weighted(&[0.5, 0.5]) {
        0 => ext * rng.range(0.0, 2.0),
        _ => ext * rng.log_range(1e-12, 1e-3),
    };
    let (ray_origin, ray_direction) = ray(rng, dim, &a, &pose_a, ext);
    let ray_max_toi = match rng.weighted(&[0.4, 0.4, 0.1, 0.1]) {
        0 => f64::INFINITY,
        1 => rng.log_range(1e-3, 1e3),
        2 => 0.0,
        _ => rng.log_range(1e6, 1e12),
    };
    Case {
        dim,
        f32,
        scenario,
        a,
        pose_a,
        b,
        pose_b,
        prediction,
        max_distance,
        velocity_a: vec![0.0; dim],
        velocity_b: vec![0.0; dim],
        angular_a,
        angular_b,
        max_toi,
        target_distance,
        ignore_initial_overlap: rng.chance(0.3),
        ray_origin,
        ray_direction,
        ray_max_toi,
    }
}

/// A ray aimed at A: from outside toward it (through its centre or grazing), from its centre, from a support
/// point (on the surface), tangent to it; directions of any length, zero included.
fn ray(rng: &mut Rng, dim: usize, a: &Shape, pose_a: &Pose, ext: f64) -> (Vec<f64>, Vec<f64>) {
    let u = rng.unit_vector(dim);
    let centre = pose_a.translation.clone();
    let len = match rng.weighted(&[0.8, 0.1, 0.07, 0.03]) {
        0 => rng.log_range(1e-2, 1e2),
        1 => rng.log_range(1e-9, 1e-3),
        2 => rng.log_range(1e3, 1e9),
        _ => 0.0,
    };
    let on_surface = |rng: &mut Rng| -> Vec<f64> {
        let n = rng.unit_vector(dim);
        if dim == 2 {
            on_support::<DVec2>(a, pose_a, &n)
        } else {
            on_support::<DVec3>(a, pose_a, &n)
        }
    };
    let (origin, dir) = match rng.weighted(&[0.45, 0.2, 0.2, 0.15]) {
        0 => {
            let offset = scale(&rng.unit_vector(dim), ext * rng.range(0.0, 1.2));
            let aim = axpy(&centre, 1.0, &offset);
            (axpy(&centre, -3.0 * ext - 1e-300, &u), axpy(&aim, -1.0, &axpy(&centre, -3.0 * ext, &u)))
        }
        1 => (centre, u.clone()),
        2 => (on_surface(rng), u.clone()),
        _ => {
            // Along the support plane at a support point: a tangent ray.
            let p = on_surface(rng);
            let t = rng.unit_vector(dim);
            (p, t)
        }
    };
    let n = norm(&dir);
    let dir = if n > 0.0 { scale(&dir, len / n) } else { scale(&u, len) };
    (origin, dir)
}

fn on_support<V: Space>(s: &Shape, p: &Pose, n: &[f64]) -> Vec<f64> {
    match build::<V>(s) {
        Ok(shape) => Placed { shape: &*shape, pose: build_pose::<V>(p) }.support_point(n),
        Err(_) => p.translation.clone(),
    }
}

fn extent_of<V: Space>(s: &Shape, p: &Pose) -> f64 {
    match build::<V>(s) {
        Ok(shape) => Placed { shape: &*shape, pose: build_pose::<V>(p) }.extent(),
        Err(_) => 1.0,
    }
}

fn unit_or(v: &[f64], dim: usize, rng: &mut Rng) -> Vec<f64> {
    let n = norm(v);
    if n > 0.0 && n.is_finite() {
        scale(v, 1.0 / n)
    } else {
        rng.unit_vector(dim)
    }
}

/// A characteristic size: mostly around 1, sometimes tiny or huge.
fn size_class(rng: &mut Rng) -> f64 {
    match rng.weighted(&[0.75, 0.1, 0.1, 0.05]) {
        0 => rng.log_range(0.1, 3.0),
        1 => rng.log_range(1e-7, 1e-5),
        2 => rng.log_range(1e5, 1e7),
        _ => rng.log_range(1e-3, 1e3),
    }
}

/// A thin size: zero, a 1e-9 slab, a 1e-6 sliver.
fn thin(rng: &mut Rng, s: f64) -> f64 {
    match rng.below(3) {
        0 => 0.0,
        1 => s * rng.log_range(1e-10, 1e-8),
        _ => s * rng.log_range(1e-7, 1e-5),
    }
}

/// Half sizes along each axis: mostly comparable, sometimes with one or more axes collapsed (slabs, needles,
/// zero), sometimes of extreme aspect.
fn extents(rng: &mut Rng, dim: usize, s: f64) -> Vec<f64> {
    let mut e: Vec<f64> = (0..dim).map(|_| s * rng.range(0.3, 1.0)).collect();
    match rng.weighted(&[0.62, 0.15, 0.08, 0.05, 0.1]) {
        0 => {}
        1 => {
            let i = rng.below(dim);
            e[i] = thin(rng, s);
        }
        2 => {
            let keep = rng.below(dim);
            for (i, x) in e.iter_mut().enumerate() {
                if i != keep {
                    *x = thin(rng, s);
                }
            }
        }
        3 => e.iter_mut().for_each(|x| *x = 0.0),
        _ => {
            let i = rng.below(dim);
            e[i] *= rng.log_range(1e3, 1e5);
        }
    }
    e
}

/// A small-or-zero size for a scalar parameter.
fn scalar(rng: &mut Rng, s: f64) -> f64 {
    match rng.weighted(&[0.8, 0.1, 0.1]) {
        0 => s * rng.range(0.2, 1.0),
        1 => 0.0,
        _ => thin(rng, s),
    }
}

fn point(rng: &mut Rng, dim: usize, s: f64) -> Vec<f64> {
    (0..dim).map(|_| s * rng.range(-1.0, 1.0)).collect()
}

/// A random shape of `dim` dimensions and size about `s`; `depth` limits nesting of combinators.
pub fn shape(rng: &mut Rng, dim: usize, s: f64, depth: u32) -> Shape {
    let composite = if depth < 2 { 0.18 } else { 0.0 };
    let three = if dim == 3 { 1.0 } else { 0.0 };
    // ball, cuboid, capsule, cylinder, cone, ellipsoid, polytope, frustum, segment, triangle, point, composite
    let w = [0.9, 1.2, 0.8, 0.8 * three, 0.8 * three, 0.8, 2.0, 0.3 * three, 0.4, 0.5, 0.2, composite * 9.0];
    match rng.weighted(&w) {
        0 => Shape::Ball { radius: scalar(rng, s) },
        1 => Shape::Cuboid { half_extents: extents(rng, dim, s) },
        2 => Shape::Capsule { half_height: scalar(rng, s), radius: scalar(rng, s) },
        3 => {
            let e = extents(rng, 2, s);
            Shape::Cylinder { half_height: e[0], radius: e[1] }
        }
        4 => {
            let e = extents(rng, 2, s);
            Shape::Cone { half_height: e[0], radius: e[1] }
        }
        5 => Shape::Ellipsoid { radii: extents(rng, dim, s) },
        6 => Shape::Polytope { points: point_set(rng, dim, s) },
        7 => Shape::Frustum { corners: frustum(rng, s) },
        8 => {
            let a = point(rng, dim, s);
            let b = if rng.chance(0.15) { a.clone() } else { point(rng, dim, s) };
            Shape::Segment { a, b }
        }
        9 => {
            let pts = degenerate_or_random(rng, dim, s, 3);
            Shape::Triangle { a: pts[0].clone(), b: pts[1].clone(), c: pts[2].clone() }
        }
        10 => Shape::Point { at: if rng.chance(0.5) { vec![0.0; dim] } else { point(rng, dim, s) } },
        _ => combinator(rng, dim, s, depth),
    }
}

fn combinator(rng: &mut Rng, dim: usize, s: f64, depth: u32) -> Shape {
    let inner = |rng: &mut Rng, s: f64| Box::new(shape(rng, dim, s, depth + 1));
    match rng.below(5) {
        0 => {
            let r = scalar(rng, s * 0.5);
            Shape::Rounded { shape: inner(rng, s), radius: r }
        }
        1 => {
            let scale = match rng.below(4) {
                0 => vec![rng.range(0.1, 3.0); dim],
                1 => (0..dim).map(|_| rng.range(-3.0, 3.0)).collect(),
                2 => {
                    let mut f: Vec<f64> = (0..dim).map(|_| rng.range(0.5, 2.0)).collect();
                    f[rng.below(dim)] = if rng.chance(0.5) { 0.0 } else { rng.log_range(1e-9, 1e-6) };
                    f
                }
                _ => {
                    let mut f = vec![1.0; dim];
                    f[rng.below(dim)] = rng.log_range(1e3, 1e5);
                    f
                }
            };
            Shape::Scaled { shape: inner(rng, s), scale }
        }
        2 => {
            let pose = Pose { translation: point(rng, dim, s), rotation: rotation(rng, dim) };
            Shape::Posed { shape: inner(rng, s), pose }
        }
        3 => {
            let sb = s * rng.log_range(1e-3, 1.0);
            Shape::Minkowski { a: inner(rng, s), b: inner(rng, sb) }
        }
        _ => Shape::SupportFn { shape: inner(rng, s) },
    }
}

/// Points whose hull is a polytope: random clouds, points on a sphere (large sets reach the hill-climbing
/// support), and every degenerate kind.
fn point_set(rng: &mut Rng, dim: usize, s: f64) -> Vec<Vec<f64>> {
    let mut pts = match rng.weighted(&[0.3, 0.15, 0.05, 0.5]) {
        0 => {
            let n = 4 + rng.below(20);
            (0..n).map(|_| point(rng, dim, s)).collect()
        }
        1 => {
            let n = 8 + rng.below(60);
            (0..n).map(|_| scale(&rng.unit_vector(dim), s)).collect()
        }
        2 => {
            let n = 100 + rng.below(900);
            (0..n).map(|_| scale(&rng.unit_vector(dim), s)).collect()
        }
        _ => {
            let n = 2 + rng.below(12);
            degenerate_or_random(rng, dim, s, n)
        }
    };
    if rng.chance(0.1) {
        // The hull away from its local origin: the bounding radius about the rotation centre grows.
        let off = point(rng, dim, 5.0 * s);
        pts.iter_mut().for_each(|p| *p = axpy(p, 1.0, &off));
    }
    pts
}

/// `n` points, most often degenerate: all equal, collinear (exactly or to 1e-12), coplanar (exactly or to
/// 1e-12), duplicated, a needle (3.2 long, 2e-6 thick), box corners.
fn degenerate_or_random(rng: &mut Rng, dim: usize, s: f64, n: usize) -> Vec<Vec<f64>> {
    let base = point(rng, dim, s);
    let u = rng.unit_vector(dim);
    let v = rng.unit_vector(dim);
    let noise = |rng: &mut Rng| if rng.chance(0.5) { 0.0 } else { s * 1e-12 * rng.range(-1.0, 1.0) };
    match rng.below(8) {
        0 => vec![base; n],
        1 => (0..n)
            .map(|_| {
                let t = s * rng.range(-1.0, 1.0);
                let e = noise(rng);
                axpy(&axpy(&base, t, &u), e, &v)
            })
            .collect(),
        2 => {
            // Coplanar in 3D (a flat polygon); a thin sliver in 2D.
            let w = rng.unit_vector(dim);
            (0..n)
                .map(|_| {
                    let (a, b, e) = (s * rng.range(-1.0, 1.0), s * rng.range(-1.0, 1.0), noise(rng));
                    let p = axpy(&axpy(&base, a, &u), b, &v);
                    axpy(&p, e, &w)
                })
                .collect()
        }
        3 => {
            let mut pts: Vec<Vec<f64>> = (0..n.div_ceil(2)).map(|_| point(rng, dim, s)).collect();
            let copy = pts.clone();
            pts.extend(copy);
            pts.truncate(n.max(1));
            pts
        }
        4 => {
            // The needle hull of issue 11 §1 (witness points off by 3.6e-7).
            let mut pts = Vec::new();
            for end in [-1.6, 1.6] {
                for k in 0..(1 << (dim - 1)) {
                    let mut p = vec![end * s / 1.6; dim];
                    p[0] = end * s;
                    for (j, x) in p.iter_mut().enumerate().skip(1) {
                        *x = if k >> (j - 1) & 1 == 1 { 1e-6 * s } else { -1e-6 * s };
                    }
                    pts.push(p);
                }
            }
            pts
        }
        5 => {
            // Box corners, exactly: flat faces meet flat faces.
            let h: Vec<f64> = (0..dim).map(|_| s * rng.range(0.3, 1.0)).collect();
            (0..(1 << dim)).map(|k| (0..dim).map(|i| if k >> i & 1 == 1 { h[i] } else { -h[i] }).collect()).collect()
        }
        _ => (0..n).map(|_| point(rng, dim, s)).collect(),
    }
}

fn frustum(rng: &mut Rng, s: f64) -> Vec<Vec<f64>> {
    let near = match rng.below(3) {
        0 => 0.0,
        _ => s * rng.range(0.01, 0.5),
    };
    let far = if rng.chance(0.1) { near } else { near + s * rng.range(0.1, 2.0) };
    let tan = rng.range(0.05, 2.0);
    let aspect = if rng.chance(0.1) { rng.log_range(1e-4, 1e4) } else { rng.range(0.5, 2.0) };
    let mut corners = Vec::new();
    for d in [near, far] {
        let (h, w) = (d * tan, d * tan * aspect);
        for (x, y) in [(-w, -h), (w, -h), (w, h), (-w, h)] {
            corners.push(vec![x, y, -d]);
        }
    }
    corners
}

/// A rotation favouring the special ones: identity, near identity, −identity and near it, exact quarter and half
/// turns about an axis.
pub fn rotation(rng: &mut Rng, dim: usize) -> Rot {
    let pick = rng.weighted(&[0.5, 0.15, 0.1, 0.05, 0.05, 0.1, 0.05]);
    if dim == 2 {
        let pi = std::f64::consts::PI;
        return Rot::Angle(match pick {
            0 => rng.range(-pi, pi),
            1 => 0.0,
            2 => rng.sign() * rng.log_range(1e-12, 1e-6),
            3 => pi,
            4 => -pi + rng.log_range(1e-12, 1e-6),
            5 => rng.sign() * pi / 2.0,
            _ => rng.sign() * 2.0 * pi,
        });
    }
    let axis_angle = |rng: &mut Rng, angle: f64, negate: bool| {
        let a = rng.unit_vector(3);
        let (s, c) = (angle / 2.0).sin_cos();
        let q = [a[0] * s, a[1] * s, a[2] * s, c];
        if negate {
            q.map(|x| -x)
        } else {
            q
        }
    };
    Rot::Quat(match pick {
        0 => rng.quaternion(),
        1 => IDENTITY,
        2 => {
            let angle = rng.log_range(1e-12, 1e-6);
            axis_angle(rng, angle, false)
        }
        3 => [0.0, 0.0, 0.0, -1.0],
        4 => {
            let angle = rng.log_range(1e-12, 1e-6);
            axis_angle(rng, angle, true)
        }
        5 => {
            let h = std::f64::consts::FRAC_1_SQRT_2;
            let mut q = [0.0, 0.0, 0.0, h];
            q[rng.below(3)] = h * rng.sign();
            q
        }
        _ => {
            let mut q = [0.0; 4];
            q[rng.below(3)] = 1.0;
            q
        }
    })
}

/// Chooses the poses: how far apart and how the shapes face each other.
fn place<V: Space>(rng: &mut Rng, a: &Shape, b: &Shape) -> (&'static str, Pose, Pose) {
    let dim = V::DIM;
    let pose_a = Pose { translation: point(rng, dim, 1.0), rotation: rotation(rng, dim) };
    let rot_b = if rng.chance(0.2) { pose_a.rotation } else { rotation(rng, dim) };
    let (Ok(sa), Ok(sb)) = (build::<V>(a), build::<V>(b)) else {
        return ("unbuildable", pose_a.clone(), pose_a);
    };
    let ea = Placed { shape: &*sa, pose: build_pose::<V>(&pose_a) }.extent();
    let (scenario, mut pose_b) = match rng.weighted(&[0.3, 0.45, 0.15, 0.1]) {
        0 => {
            // Random: B's origin within a few sizes of A's.
            let eb = Placed { shape: &*sb, pose: build_pose::<V>(&Pose::identity(dim)) }.extent();
            let r = (ea + eb) * rng.range(0.0, 1.5);
            ("random", Pose { translation: axpy(&pose_a.translation, r, &rng.unit_vector(dim)), rotation: rot_b })
        }
        1 => ("gap", gap_pose::<V>(rng, &*sa, &pose_a, &*sb, rot_b, ea)),
        2 => {
            // One inside the other: the same origin, exactly or nearly.
            let mut t = pose_a.translation.clone();
            if rng.chance(0.5) {
                t = axpy(&t, ea * rng.log_range(1e-12, 1e-2), &rng.unit_vector(dim));
            }
            ("inside", Pose { translation: t, rotation: rot_b })
        }
        _ => ("coincident", pose_a.clone()),
    };
    let mut pose_a = pose_a;
    if rng.chance(0.2) {
        // Far from the origin, both moved by the same offset: the pair-local frame must keep the digits.
        let big = match rng.weighted(&[0.6, 0.3, 0.1]) {
            0 => rng.log_range(1e4, 1e5),
            1 => rng.log_range(1e6, 1e8),
            _ => rng.log_range(1e10, 1e12),
        };
        let off = scale(&rng.unit_vector(dim), big);
        pose_a.translation = axpy(&pose_a.translation, 1.0, &off);
        pose_b.translation = axpy(&pose_b.translation, 1.0, &off);
        return (far(scenario), pose_a, pose_b);
    }
    (scenario, pose_a, pose_b)
}

fn far(scenario: &'static str) -> &'static str {
    match scenario {
        "random" => "far-random",
        "gap" => "far-gap",
        "inside" => "far-inside",
        _ => "far-coincident",
    }
}

/// B placed so that the gap between the two shapes along a direction n is a chosen value: zero (touching),
/// ±1e-12 … ±1e-6 of the size, small or large gaps, overlaps. The gap along n is the separation of the two
/// supporting planes, a lower bound on the distance (equal to it when the supports face each other).
fn gap_pose<V: Space>(
    rng: &mut Rng,
    sa: &(dyn gjk::shape::SupportMap<V> + Send + Sync),
    pose_a: &Pose,
    sb: &(dyn gjk::shape::SupportMap<V> + Send + Sync),
    rot_b: Rot,
    ea: f64,
) -> Pose {
    let dim = V::DIM;
    let n = if rng.chance(0.3) {
        // An axis of the world: faces of axis-aligned boxes meet exactly.
        let mut e = vec![0.0; dim];
        e[rng.below(dim)] = rng.sign();
        e
    } else {
        rng.unit_vector(dim)
    };
    let size = ea.max(1e-300);
    let g = match rng.weighted(&[0.2, 0.15, 0.15, 0.1, 0.15, 0.15, 0.1]) {
        0 => 0.0,
        1 => rng.sign() * size * rng.log_range(1e-13, 1e-11),
        2 => rng.sign() * size * rng.log_range(1e-10, 1e-8),
        3 => rng.sign() * 1e-6,
        4 => rng.sign() * size * rng.log_range(1e-7, 1e-5),
        5 => size * rng.range(1e-3, 1.0),
        _ => -size * rng.range(1e-3, 0.5),
    };
    let placed_a = Placed { shape: sa, pose: build_pose::<V>(pose_a) };
    let pose_b0 = Pose { translation: vec![0.0; dim], rotation: rot_b };
    let placed_b = Placed { shape: sb, pose: build_pose::<V>(&pose_b0) };
    // min over B of n·b with B at the origin is −h_B(−n); move B along n so it sits g beyond max over A of n·a.
    let ha = placed_a.support_value(&n);
    let hb = placed_b.support_value(&scale(&n, -1.0));
    let along = ha + hb + g;
    // Slide sideways a little so that faces overlap partly, not always centre on centre.
    let side = rng.unit_vector(dim);
    let side = axpy(&side, -dot(&side, &n), &n);
    let slide = if rng.chance(0.5) { 0.0 } else { size * rng.range(0.0, 0.5) };
    let t = axpy(&scale(&n, along), slide, &side);
    Pose { translation: t, rotation: rot_b }
}
