//! Rotating casts (`time_of_impact`) against a certified reference, in 2D and 3D, f32 and f64.
//!
//! The reference knows nothing of the cast's bounds: it walks the time interval by conservative advancement of its
//! own, with the crudest valid speed bound (the relative linear speed plus each spin times the farthest corner of
//! the shape's whole bounding box, rounding included) and the exact signed distance (a distance query, and the
//! penetration depth when the shapes overlap, in the cast's precision) at every sample, with no iteration cap.
//! "Contact" means an overlap deeper than the cast's tolerance (a cast stops within its tolerance of contact, and
//! in f32 the distance query's own touching band is about as wide): a sample at signed distance d certifies that
//! no such overlap happens for (d + tolerance) / bound after it, so the walk either reaches the end ("clear") or
//! stops at a sample that overlaps that deep ("contact"). Where the bound only allows steps below a floor (1e-9 of
//! the interval in f64, 1e-6 in f32) it steps by that much anyway and counts the case as uncertified.
//!
//! Checked on every cast: toi in [0, max_toi] and finite when reported; a hit is real (distance at toi within the
//! cast's tolerance) and nothing touches before it; a miss means nothing touches in [0, max_toi]; an undecided
//! answer (`MaxIterations`) is a miss whose toi is the time reached, with nothing touching before it; normals are
//! unit; witness points lie on their shapes; no NaN anywhere.

// `!(x > 0.0)` is meant: unlike `x <= 0.0` it is also true for NaN, so a NaN answer fails the check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::common;

use crate::cast_shapes::{build2, build3, random_desc, random_wrapped_desc, Desc, Shape};
use crate::common::{rng, uniform, unit3, Space2, Space3};
use gjk::cast::{time_of_impact, Cast, CastOptions, Motion};
use gjk::math::{DVec2, DVec3, Iso, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::{Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Rounded, SupportMap};
use gjk::Status;
use rand::rngs::SmallRng;
use rand::Rng;

/// Farthest corner of the whole shape's local bounding box from its local origin: a bound on how far any point
/// of the shape (rounding included) is from the centre it turns about, independent of the library's own bound.
fn crude_radius<V: Vector>(s: &dyn SupportMap<V>) -> f64 {
    let b = s.local_aabb();
    (0..V::DIM)
        .map(|i| {
            let m = b.min.get(i).to_f64().abs().max(b.max.get(i).to_f64().abs());
            m * m
        })
        .sum::<f64>()
        .sqrt()
}

// ---------------------------------------------------------------------------------------------------------------
// The reference.

enum Reference {
    /// Nothing touches in the interval (`uncertified` when some step fell to the floor).
    Clear { uncertified: bool },
    /// The shapes touch at this sample time.
    Contact(f64),
}

/// Walks [t0, t1] by certified steps of dist / bound, `dist` being the signed distance plus the tolerance (see the
/// module's documentation).
fn reference(dist: &dyn Fn(f64) -> f64, bound: f64, t0: f64, t1: f64, floor: f64) -> (Reference, u32) {
    let floor = floor * (t1 - t0).max(1e-12);
    let (mut t, mut uncertified, mut samples) = (t0, false, 0u32);
    loop {
        let d = dist(t);
        samples += 1;
        if !(d > 0.0) {
            return (Reference::Contact(t), samples);
        }
        if t >= t1 {
            return (Reference::Clear { uncertified }, samples);
        }
        let mut step = d / bound;
        if !(step >= floor) {
            step = floor;
            uncertified = true;
        }
        t = (t + step).min(t1);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// One cast, checked.

/// What a suite learns from its casts.
#[derive(Default, Debug)]
struct Stats {
    casts: u32,
    hits: u32,
    misses: u32,
    capped: u32,
    capped_claiming_hit: u32,
    iterations: u64,
    max_iterations: u32,
    uncertified_misses: u32,
    reference_samples: u64,
    slowest: String,
    failures: Vec<String>,
    kinds: std::collections::BTreeMap<String, u32>,
}

impl Stats {
    fn fail(&mut self, kind: &str, what: String) {
        if self.failures.len() < 5 {
            eprintln!("FAIL: {kind}: {what}");
        }
        *self.kinds.entry(kind.to_string()).or_default() += 1;
        self.failures.push(format!("{kind}: {what}"));
    }
    fn print(&self, name: &str) {
        println!(
            "{name}: {} casts, {} hits, {} misses, {} at the iteration cap ({} of them claiming a hit); \
             iterations mean {:.1}, max {}; {} misses whose reference walk grazed (a step below 1e-9), {} reference \
             samples; slowest: {}",
            self.casts,
            self.hits,
            self.misses,
            self.capped,
            self.capped_claiming_hit,
            self.iterations as f64 / self.casts.max(1) as f64,
            self.max_iterations,
            self.uncertified_misses,
            self.reference_samples,
            self.slowest,
        );
        for (kind, n) in &self.kinds {
            println!("  {n} x {kind}");
        }
    }
}

/// The answer of a cast in f64, whatever its precision.
struct Answer {
    hit: bool,
    toi: f64,
    normal_length: f64,
    status: Status,
    iterations: u32,
    finite: bool,
}

fn answer<V: Vector>(c: &Cast<V>) -> Answer {
    let finite = c.toi.is_finite() && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite();
    Answer {
        hit: c.hit,
        toi: c.toi.to_f64(),
        normal_length: c.normal.length().to_f64(),
        status: c.status,
        iterations: c.iterations,
        finite,
    }
}

/// The checks of the module's documentation. `dist(t)` is the exact distance at t (0 when touching),
/// `dist_bounds(t)` the distance with its proven error bound, `on_shapes`
/// the larger distance of the two witness points from their shapes at toi, `tol` the cast's touching tolerance,
/// `unit_tol` how far from 1 a normal's length may be in this precision and `floor` the reference's smallest step
/// (relative to the interval).
#[allow(clippy::too_many_arguments)]
fn check(
    stats: &mut Stats,
    what: &str,
    a: &Answer,
    dist: &dyn Fn(f64) -> f64,
    dist_bounds: &dyn Fn(f64) -> (f64, f64),
    bound: f64,
    max_toi: f64,
    tol: f64,
    on_shapes: f64,
    unit_tol: f64,
    floor: f64,
) {
    stats.casts += 1;
    stats.iterations += a.iterations as u64;
    if a.iterations > stats.max_iterations {
        stats.max_iterations = a.iterations;
        stats.slowest = format!("{what}: hit {} toi {} {:?}", a.hit, a.toi, a.status);
    }
    if a.status == Status::MaxIterations {
        stats.capped += 1;
        if a.hit {
            stats.capped_claiming_hit += 1;
        }
    }
    let mut walk = |t1: f64| {
        let (r, n) = reference(dist, bound, 0.0, t1, floor);
        stats.reference_samples += n as u64;
        if let Reference::Clear { uncertified: true } = r {
            if !a.hit {
                stats.uncertified_misses += 1;
            }
        }
        r
    };
    if a.hit {
        stats.hits += 1;
        if !(a.toi >= 0.0 && a.toi <= max_toi && a.finite) {
            return stats.fail(
                "hit outside [0, max_toi] or not finite",
                format!("{what}: hit outside [0, max_toi] or not finite: toi {}", a.toi),
            );
        }
        if a.status == Status::MaxIterations {
            return stats.fail(
                "a hit claimed at the iteration cap",
                format!("{what}: a hit claimed at the iteration cap (toi {})", a.toi),
            );
        }
        // The cast decides on its own warm-started query; a fresh one may differ by its error bound (on curved
        // shapes GJK's distance is proven only to that), so the distance's lower bound must be within tolerance.
        let (at, error) = dist_bounds(a.toi);
        if at - error > tol * 1.01 + 1e-300 {
            let truth = match walk(max_toi) {
                Reference::Clear { .. } => "they never touch".to_string(),
                Reference::Contact(t) => format!("first touching sample at {t}"),
            };
            return stats.fail("false hit", format!("{what}: false hit: distance {at:e} at toi {} ({truth})", a.toi));
        }
        if let Reference::Contact(t) = walk(a.toi) {
            if t < a.toi {
                return stats.fail(
                    "touching before the reported toi",
                    format!("{what}: touching at {t}, before the reported toi {}", a.toi),
                );
            }
        }
        if (a.normal_length - 1.0).abs() > unit_tol {
            stats.fail("normal not unit", format!("{what}: normal of length {}", a.normal_length));
        }
        if on_shapes > tol * 4.0 + 1e-300 {
            stats.fail(
                "witness points off their shapes",
                format!("{what}: witness points {on_shapes:e} off their shapes"),
            );
        }
        return;
    }
    stats.misses += 1;
    // A miss: decided (nothing in [0, max_toi]) or undecided (nothing before the time reached).
    let end = match a.status {
        Status::Converged => max_toi,
        Status::MaxIterations | Status::Stalled => {
            if !(a.toi >= 0.0 && a.toi <= max_toi) {
                return stats.fail(
                    "undecided miss without the time reached",
                    format!("{what}: undecided miss without the time reached: toi {}", a.toi),
                );
            }
            a.toi
        }
        Status::AboveBound => return stats.fail("a cast ended AboveBound", format!("{what}: a cast ended AboveBound")),
    };
    if let Reference::Contact(t) = walk(end) {
        stats.fail("false miss", format!("{what}: false miss ({:?}): the shapes touch at {t}", a.status));
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Random rotating casts.

/// A random rotating cast: two shapes, poses within 1.5 of the origin, linear velocities up to 1.5 per axis,
/// spins up to `max_spin` rad/s about random axes (a quarter of the bodies do not spin), max_toi 1.
struct Scene {
    a: Desc,
    b: Desc,
    pose_a: Iso<DVec3>,
    pose_b: Iso<DVec3>,
    va: DVec3,
    vb: DVec3,
    wa: DVec3,
    wb: DVec3,
}

fn random_scene(r: &mut SmallRng, dim: usize, max_spin: f64) -> Scene {
    scene_of(r, dim, max_spin, random_desc)
}

/// A random scene whose shapes are drawn by `desc`.
fn scene_of(r: &mut SmallRng, dim: usize, max_spin: f64, desc: fn(&mut SmallRng, usize) -> Desc) -> Scene {
    let spin = |r: &mut SmallRng| {
        if r.gen_bool(0.25) {
            DVec3::ZERO
        } else {
            let axis = if dim == 3 { unit3(r) } else { DVec3::Z * if r.gen() { 1.0 } else { -1.0 } };
            axis * uniform(r, 0.0, max_spin)
        }
    };
    let vel = |r: &mut SmallRng| {
        let v = DVec3::new(uniform(r, -1.5, 1.5), uniform(r, -1.5, 1.5), uniform(r, -1.5, 1.5));
        if dim == 3 {
            v
        } else {
            DVec3::new(v.x, v.y, 0.0)
        }
    };
    let pose = |r: &mut SmallRng| {
        if dim == 3 {
            common::pose3(r, 1.5)
        } else {
            let p = common::pose2(r, 1.5);
            // Carried as a 3D pose about z; the 2D suites read the angle back.
            let angle = p.rotation.sin.atan2(p.rotation.cos);
            Iso::new(gjk::math::DQuat::from_rotation_z(angle), DVec3::new(p.translation.x, p.translation.y, 0.0))
        }
    };
    let (a, b) = (desc(r, dim), desc(r, dim));
    let (pose_a, pose_b) = (pose(r), pose(r));
    let (va, vb) = (vel(r), vel(r));
    let (wa, wb) = (spin(r), spin(r));
    Scene { a, b, pose_a, pose_b, va, vb, wa, wb }
}

fn opts<R: Real>(max_toi: f64) -> CastOptions<R> {
    CastOptions { max_toi: R::from_f64(max_toi), ..CastOptions::default() }
}

/// The cast's automatic tolerance (documented on `time_of_impact`): 1e-10 of the pair's size in f64, 64 ulps in f32.
fn cast_tolerance<V: Vector>(a: &dyn SupportMap<V>, b: &dyn SupportMap<V>) -> f64 {
    let size = |s: &dyn SupportMap<V>| s.local_aabb().diameter().to_f64();
    let rel = 1e-10f64.max(64.0 * V::Real::EPSILON.to_f64());
    rel * size(a).max(size(b))
}

/// How far a point is proven to be from a shape at a pose: the distance query's lower bound (its distance less
/// its error bound — on curved shapes GJK proves the distance only to that).
fn off_shape<V: Vector>(s: &dyn SupportMap<V>, pose: &Iso<V>, p: V) -> f64 {
    let point = gjk::shape::Point { at: V::zero() };
    let d = gjk::distance(&point, &Iso::from_translation(p), s, pose);
    (d.distance - d.error_bound).to_f64().max(0.0)
}

/// Checks one rotating cast in its own precision: the reference walks the same motions with the same shapes and
/// the distance query of that precision (its floor is 1e-9 of the interval in f64, 1e-6 in f32, near the
/// resolution of t there).
fn check_cast<V: Vector>(
    stats: &mut Stats,
    what: &str,
    (a, ma): (&dyn SupportMap<V>, &Motion<V>),
    (b, mb): (&dyn SupportMap<V>, &Motion<V>),
    c: &Cast<V>,
    max_toi: f64,
) {
    let real = |t: f64| V::Real::from_f64(t);
    // Signed distance (minus the penetration depth when overlapping) plus the cast's tolerance: the reference
    // looks for overlaps deeper than the tolerance, which a cast that stops within it of contact never passes.
    // (In f32 the distance query's own touching band is as wide as the tolerance, so a bare "touching" would
    // also catch answers that are within tolerance.)
    let tol = cast_tolerance(a, b);
    let dist = |t: f64| {
        let (pa, pb) = (ma.at(real(t)), mb.at(real(t)));
        let d = gjk::distance(a, &pa, b, &pb);
        let signed = if d.intersecting { -gjk::penetration(a, &pa, b, &pb).depth } else { d.distance };
        signed.to_f64() + tol
    };
    let dist_bounds = |t: f64| {
        let d = gjk::distance(a, &ma.at(real(t)), b, &mb.at(real(t)));
        (d.distance.to_f64(), d.error_bound.to_f64())
    };
    let speed = |m: &Motion<V>| V::Rotation::angular_speed(m.angular).to_f64();
    let bound = (ma.linear - mb.linear).length().to_f64() + speed(ma) * crude_radius(a) + speed(mb) * crude_radius(b);
    let on_shapes =
        if c.hit { off_shape(a, &ma.at(c.toi), c.point_a).max(off_shape(b, &mb.at(c.toi), c.point_b)) } else { 0.0 };
    let f64_precision = V::Real::EPSILON.to_f64() < 1e-10;
    let (unit_tol, floor) = if f64_precision { (1e-12, 1e-9) } else { (1e-5, 1e-6) };
    check(stats, what, &answer(c), &dist, &dist_bounds, bound.max(1e-300), max_toi, tol, on_shapes, unit_tol, floor);
}

fn run3<V: Space3>(scene: &Scene, stats: &mut Stats, what: &str)
where
    V::Rotation: Rotation<V, Angular = V>,
{
    let (a, b) = (build3::<V>(&scene.a), build3::<V>(&scene.b));
    let ma = Motion::new(V::pose_from64(&scene.pose_a), V::from64(scene.va), V::from64(scene.wa));
    let mb = Motion::new(V::pose_from64(&scene.pose_b), V::from64(scene.vb), V::from64(scene.wb));
    let c = time_of_impact(&*a, &ma, &*b, &mb, &opts(1.0));
    check_cast(stats, what, (&*a, &ma), (&*b, &mb), &c, 1.0);
}

fn run2<V: Space2>(scene: &Scene, stats: &mut Stats, what: &str)
where
    V::Rotation: Rotation<V, Angular = V::Real>,
{
    let (a, b) = (build2::<V>(&scene.a), build2::<V>(&scene.b));
    // The scene carries a 2D pose as a turn about z.
    let pose2 = |p: &Iso<DVec3>| {
        let angle = 2.0 * p.rotation.z.atan2(p.rotation.w);
        Iso::new(Rot2::from_angle(angle), DVec2::new(p.translation.x, p.translation.y))
    };
    let flat = |v: DVec3| DVec2::new(v.x, v.y);
    let real = |x: f64| V::Real::from_f64(x);
    let ma = Motion::new(V::pose_from64(&pose2(&scene.pose_a)), V::from64(flat(scene.va)), real(scene.wa.z));
    let mb = Motion::new(V::pose_from64(&pose2(&scene.pose_b)), V::from64(flat(scene.vb)), real(scene.wb.z));
    let c = time_of_impact(&*a, &ma, &*b, &mb, &opts(1.0));
    check_cast(stats, what, (&*a, &ma), (&*b, &mb), &c, 1.0);
}

/// Runs `n` random scenes in one space and precision, prints the suite's figures and checks them: no failure, no
/// cast at the iteration cap, and on average few steps.
fn suite(name: &str, seed: u64, n: usize, dim: usize, run: impl Fn(&Scene, &mut Stats, &str)) -> Stats {
    let mut r = rng(seed);
    let mut stats = Stats::default();
    for i in 0..n {
        let scene = random_scene(&mut r, dim, 50.0);
        run(&scene, &mut stats, &format!("{name} #{i} {:?} vs {:?}", scene.a, scene.b));
    }
    stats.print(name);
    assert!(stats.failures.is_empty(), "{} failures, first: {}", stats.failures.len(), stats.failures[0]);
    stats
}

/// The issue's measure: 1,200 random rotating casts, spins up to 50 rad/s, max_toi 1, 3D f64. Before the certified
/// steps (first order with the bounding box's farthest corner as the lever) this generator's casts took 41.7 steps
/// on average and 28 reached the cap of 256, each claiming a hit; now none does.
#[test]
fn random_rotating_casts_3d_f64_converge_without_false_hits() {
    let stats = suite("rotating casts 3D f64", 0x5eed_0c01, 1200, 3, run3::<DVec3>);
    assert_eq!(stats.capped, 0);
    assert!(stats.iterations as f64 / (stats.casts as f64) < 10.0);
}

/// Shapes placed inside other frames, scaled and summed (3D f64): every bound of the step sees the wrapper's
/// reach (`Posed` measures from the placed frame, non-uniform scaling and sums give bounds).
#[test]
fn random_rotating_casts_of_wrapped_shapes() {
    let mut r = rng(0x5eed_0c05);
    let mut stats = Stats::default();
    for i in 0..400 {
        let scene = scene_of(&mut r, 3, 50.0, random_wrapped_desc);
        run3::<DVec3>(&scene, &mut stats, &format!("wrapped #{i} {:?} vs {:?}", scene.a, scene.b));
    }
    for i in 0..200 {
        let scene = scene_of(&mut r, 2, 50.0, random_wrapped_desc);
        run2::<DVec2>(&scene, &mut stats, &format!("wrapped 2D #{i} {:?} vs {:?}", scene.a, scene.b));
    }
    stats.print("rotating casts of wrapped shapes");
    assert!(stats.failures.is_empty(), "{} failures, first: {}", stats.failures.len(), stats.failures[0]);
    assert_eq!(stats.capped, 0);
}

#[test]
fn random_rotating_casts_3d_f32() {
    let stats = suite("rotating casts 3D f32", 0x5eed_0c02, 600, 3, run3::<Vec3>);
    assert!(stats.capped <= 6, "{} at the cap", stats.capped);
}

#[test]
fn random_rotating_casts_2d_f64() {
    let stats = suite("rotating casts 2D f64", 0x5eed_0c03, 600, 2, run2::<DVec2>);
    assert_eq!(stats.capped, 0);
    assert!(stats.iterations as f64 / (stats.casts as f64) < 10.0);
}

#[test]
fn random_rotating_casts_2d_f32() {
    let stats = suite("rotating casts 2D f32", 0x5eed_0c04, 600, 2, run2::<Vec2>);
    assert!(stats.capped <= 6, "{} at the cap", stats.capped);
}

// ---------------------------------------------------------------------------------------------------------------
// Regressions.

/// Issue 11: two spheres moving together 0.0946 apart, spinning (which cannot matter: a ball turns about its
/// centre), reached the iteration cap and claimed `hit: true, toi: 0.7066`. A ball's core reaches nowhere from its
/// centre, so no step bound sees a spin, and the separation along the normal never shrinks: a decided miss, at once.
#[test]
fn issue_11_spheres_moving_together_never_meet() {
    let q = |x: f64, y: f64, z: f64, w: f64| gjk::math::DQuat::from_xyzw(x, y, z, w).normalize();
    let a = Ball::new(0.49734175685869314).unwrap();
    let b = Ball::new(0.6684907678134634).unwrap();
    let v = DVec3::new(-0.265367750102249, -0.06633025855097062, 0.7564223158970442);
    let pose_a = Iso::new(
        q(-0.6805686132206756, -0.3844728912320936, 0.6220458318019542, -0.04545263187469182),
        DVec3::new(-1.246670841432821, 0.055060151048928946, -1.165088685924432),
    );
    let pose_b = Iso::new(
        q(-0.29806478303308714, 0.8051749560025406, -0.5058401639907009, 0.08352486956354019),
        DVec3::new(-1.124648358437566, 0.30552846436176007, -2.394330806001526),
    );
    let ma = Motion::new(pose_a, v, DVec3::new(-3.4280940058082243, 2.5796116739068284, 1.2198076505506799));
    let mb = Motion::new(pose_b, v, DVec3::new(-1.8358517800204683, 25.800461872435005, 4.6284153468365155));
    let c = time_of_impact(&a, &ma, &b, &mb, &opts(1.0));
    assert!(!c.hit && c.status == Status::Converged && c.toi == 1.0, "{c:?}");
    assert_eq!(c.iterations, 1, "{c:?}");
    let gap = (pose_b.translation - pose_a.translation).length() - a.radius - b.radius;
    assert!((gap - 0.0946).abs() < 1e-4, "the issue's gap: {gap}");
}

/// Issue 11: a box spinning at 1e6 rad/s "hit" a box 50 away at the iteration cap. The bounding balls (reach about
/// the centre) never meet: a decided miss in one step, in f64 and f32, 3D and 2D.
#[test]
fn issue_11_box_spinning_at_1e6_rad_s_never_reaches_a_box_50_away() {
    let a = Cuboid::new(DVec3::splat(1.0)).unwrap();
    let spin = Motion::new(Iso::identity(), DVec3::ZERO, DVec3::new(0.0, 0.0, 1e6));
    let far = Motion::new(Iso::from_translation(DVec3::new(50.0, 0.0, 0.0)), DVec3::ZERO, DVec3::ZERO);
    let c = time_of_impact(&a, &spin, &a, &far, &opts(1.0));
    assert!(!c.hit && c.status == Status::Converged && c.iterations == 1, "{c:?}");
    let a32 = Cuboid::new(Vec3::splat(1.0)).unwrap();
    let spin32 = Motion::new(Iso::identity(), Vec3::ZERO, Vec3::new(0.0, 0.0, 1e6));
    let far32 = Motion::new(Iso::from_translation(Vec3::new(50.0, 0.0, 0.0)), Vec3::ZERO, Vec3::ZERO);
    let c = time_of_impact(&a32, &spin32, &a32, &far32, &opts(1.0));
    assert!(!c.hit && c.status == Status::Converged && c.iterations == 1, "{c:?}");
    let a2 = Cuboid::new(DVec2::splat(1.0)).unwrap();
    let spin2 = Motion::new(Iso::identity(), DVec2::ZERO, 1e6);
    let far2 = Motion::new(Iso::from_translation(DVec2::new(50.0, 0.0)), DVec2::ZERO, 0.0);
    let c = time_of_impact(&a2, &spin2, &a2, &far2, &opts(1.0));
    assert!(!c.hit && c.status == Status::Converged && c.iterations == 1, "{c:?}");
    // The same spinning box 0.3 from the other: its corners, √2 from the axis, sweep 0.11 past the other's face
    // and hit it after a turn of 0.381 rad: a hit, real, in a few steps.
    let near = Motion::new(Iso::from_translation(DVec3::new(2.3, 0.0, 0.0)), DVec3::ZERO, DVec3::ZERO);
    let c = time_of_impact(&a, &spin, &a, &near, &opts(1.0));
    let mut stats = Stats::default();
    check_cast(&mut stats, "spinning box near a box", (&a, &spin), (&a, &near), &c, 1.0);
    // The corner (1, −1) turned by θ is at x = cos θ + sin θ = √2 sin(θ + π/4).
    let exact = ((1.3 / 2f64.sqrt()).asin() - std::f64::consts::FRAC_PI_4) / 1e6;
    assert!(stats.failures.is_empty() && c.hit && (c.toi - exact).abs() < 1e-9 * exact, "{c:?} vs {exact}");
    // 0.5 from it, the corners sweep 0.086 short of its face: they never touch, but no bound of conservative
    // advancement sees a whole turn at once, and a million turns take more steps than the cap. The answer is
    // undecided, with the time reached — not a hit.
    let apart = Motion::new(Iso::from_translation(DVec3::new(2.5, 0.0, 0.0)), DVec3::ZERO, DVec3::ZERO);
    let c = time_of_impact(&a, &spin, &a, &apart, &opts(1.0));
    assert!(!c.hit && c.status == Status::MaxIterations && c.toi > 0.0, "{c:?}");
    let mut stats = Stats::default();
    check_cast(&mut stats, "spinning box apart from a box", (&a, &spin), (&a, &apart), &c, 1.0);
    assert!(stats.failures.is_empty());
}

/// At its cap a rotating cast is undecided: no hit, status `MaxIterations`, `toi` the time reached (nothing
/// touches before it) and the closest pair there. Here a cap of 2 steps stops a cast that needs more.
#[test]
fn undecided_rotating_cast_reports_the_time_reached() {
    let plank = Cuboid::new(DVec2::new(1.0, 0.05)).unwrap();
    let square = Cuboid::new(DVec2::splat(0.1)).unwrap();
    let spin = Motion::new(Iso::new(Rot2::from_angle(std::f64::consts::FRAC_PI_2), DVec2::ZERO), DVec2::ZERO, 1.0);
    let still = Motion::new(Iso::from_translation(DVec2::new(0.5, 0.0)), DVec2::ZERO, 0.0);
    let full = time_of_impact(&plank, &spin, &square, &still, &opts(3.0));
    assert!(full.hit && full.status == Status::Converged, "{full:?}");
    let capped = time_of_impact(&plank, &spin, &square, &still, &CastOptions { max_iterations: 2, ..opts(3.0) });
    assert!(!capped.hit && capped.status == Status::MaxIterations && capped.iterations == 2, "{capped:?}");
    assert!(capped.toi > 0.0 && capped.toi < full.toi, "{capped:?} vs {full:?}");
    // The closest pair at the time reached, and nothing touching before it.
    let d = gjk::distance(&plank, &spin.at(capped.toi), &square, &still.at(capped.toi));
    assert!((capped.point_b - capped.point_a).length() - d.distance < 1e-12 && d.distance > 0.0, "{capped:?}");
    assert!((capped.normal.length() - 1.0).abs() < 1e-12);
    let mut stats = Stats::default();
    check_cast(&mut stats, "capped plank", (&plank, &spin), (&square, &still), &capped, 3.0);
    assert!(stats.failures.is_empty());
}

/// parry #317: `cast_shapes_nonlinear` missed an obvious collision of two large boxes (half extents 235 × 105 ×
/// 110 and 650 × 330 × 275) 6,000 from the origin, the moving one turning about a point off its centre at 1.77
/// rad/s. The turning centre is the local origin of our motion, so the box is the `Posed` box shifted by minus that
/// point. In f64 and f32: a hit, nothing touching before it, within tolerance at it.
#[test]
fn parry_317_large_turning_boxes_collide() {
    fn case<V: Space3>()
    where
        V::Rotation: Rotation<V, Angular = V>,
    {
        let q = |x: f64, y: f64, z: f64, w: f64| gjk::math::DQuat::from_xyzw(x, y, z, w).normalize();
        // parry's quaternions are (w, i, j, k).
        let start = Iso::new(
            q(5.3359954e-20, 9.459897e-20, -0.84035015, -0.542044),
            DVec3::new(6458.7905, -209.1331, 1014.52124),
        );
        let centre = DVec3::new(99.97085, -2.2888184e-5, -35.0);
        let moving = gjk::shape::Posed::new(
            Cuboid::new(V::from64(DVec3::new(235.0, 105.0, 110.0))).unwrap(),
            Iso::from_translation(V::from64(-centre)),
        );
        let pose = Iso::new(start.rotation, start.transform_point(centre));
        let motion = Motion::new(
            V::pose_from64(&pose),
            V::from64(DVec3::new(588.2583, -553.06335, 471.54688)),
            V::from64(DVec3::new(0.0, 0.0, -1.770823)),
        );
        let fixed = Cuboid::new(V::from64(DVec3::new(650.0, 330.0, 275.0))).unwrap();
        let at = Iso::new(
            q(0.002524775, -0.00026210435, -0.0012064485, 0.99999607),
            DVec3::new(6079.4917, -849.3108, 853.8756),
        );
        let still = Motion::new(V::pose_from64(&at), V::zero(), V::zero());
        let c = time_of_impact(&moving, &motion, &fixed, &still, &opts(1.0));
        let mut stats = Stats::default();
        check_cast(&mut stats, &format!("parry #317 {}", V::NAME), (&moving, &motion), (&fixed, &still), &c, 1.0);
        assert!(stats.failures.is_empty() && c.hit, "{}: {c:?}", V::NAME);
    }
    case::<DVec3>();
    case::<Vec3>();
}

// ---------------------------------------------------------------------------------------------------------------
// The reach of a core (`SupportMap::farthest_core_distance`), against support sampling.

/// The farthest support point from `from` over many directions: a lower bound on the true farthest distance (the
/// farthest point of a convex set from a point is a support point), close to it for dense directions.
fn sampled_reach(s: &dyn SupportMap<DVec3>, from: DVec3, r: &mut SmallRng) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..20_000 {
        best = best.max((s.support(unit3(r)) - from).length());
    }
    // The farthest point from `from` is supported along its own direction from `from`: refine from the best.
    for _ in 0..50 {
        let mut d = unit3(r);
        for _ in 0..20 {
            let p = s.support(d);
            best = best.max((p - from).length());
            d = (p - from).normalize_or_zero();
            if d == DVec3::ZERO {
                break;
            }
        }
    }
    best
}

/// Exact overrides equal the sampled reach (to sampling accuracy) and are never below it; bounds are never below
/// it and within √3 of it. From the origin and from random points, for every shape of the crate, wrapped too.
#[test]
fn farthest_core_distance_is_exact_or_a_bound() {
    use gjk::shape::{Frustum, MinkowskiSum, Point, Posed, Scaled, Segment, SupportFn, Triangle};
    let mut r = rng(0x5eed_0c10);
    let hull_points: Vec<DVec3> = (0..30).map(|_| common::in_cube3(&mut r, 1.0) + DVec3::new(0.3, 0.0, 0.0)).collect();
    let hull = ConvexPolytope::new(&hull_points).unwrap();
    let pose = common::pose3(&mut r, 1.0);
    let shapes: Vec<(&str, Shape<DVec3>, bool)> = vec![
        ("ball", Box::new(Ball::new(0.7).unwrap()), true),
        ("point", Box::new(Point::new(DVec3::new(0.3, -0.2, 0.5)).unwrap()), true),
        ("segment", Box::new(Segment::new(DVec3::new(0.3, -0.2, 0.5), DVec3::new(-1.0, 0.4, 0.1)).unwrap()), true),
        (
            "triangle",
            Box::new(Triangle::new(DVec3::X, DVec3::new(0.0, 2.0, 0.3), DVec3::new(-0.5, 0.2, 1.0)).unwrap()),
            true,
        ),
        ("capsule", Box::new(Capsule::new(0.8, 0.3).unwrap()), true),
        ("box", Box::new(Cuboid::new(DVec3::new(0.5, 1.0, 0.25)).unwrap()), true),
        ("cylinder", Box::new(Cylinder::new(0.6, 0.9).unwrap()), true),
        ("cone", Box::new(Cone::new(0.9, 0.5).unwrap()), true),
        ("hull", Box::new(hull.clone()), true),
        ("frustum", Box::new(Frustum::perspective(1.0, 1.5, 0.1, 2.0).unwrap()), true),
        ("posed box", Box::new(Posed::new(Cuboid::new(DVec3::new(0.5, 1.0, 0.25)).unwrap(), pose)), true),
        ("posed cylinder", Box::new(Posed::new(Cylinder::new(0.6, 0.9).unwrap(), pose)), true),
        ("rounded hull", Box::new(Rounded::new(hull.clone(), 0.2).unwrap()), true),
        (
            "uniformly scaled cone",
            Box::new(Scaled::new(Cone::new(0.9, 0.5).unwrap(), DVec3::new(-2.0, 2.0, 2.0)).unwrap()),
            true,
        ),
        ("ellipsoid", Box::new(Ellipsoid::new(DVec3::new(0.3, 1.2, 0.6)).unwrap()), false),
        (
            "minkowski",
            Box::new(MinkowskiSum::new(Cuboid::new(DVec3::splat(0.5)).unwrap(), Cylinder::new(0.3, 0.4).unwrap())),
            false,
        ),
        (
            "scaled capsule",
            Box::new(Scaled::new(Capsule::new(0.8, 0.3).unwrap(), DVec3::new(1.0, 0.5, 3.0)).unwrap()),
            false,
        ),
        (
            "flattened box",
            Box::new(Scaled::new(Cuboid::new(DVec3::splat(1.0)).unwrap(), DVec3::new(1.0, 0.0, 2.0)).unwrap()),
            false,
        ),
        ("support function", Box::new(SupportFn::new(|d: DVec3| d.normalize_or_zero() * 0.8 + DVec3::X)), false),
    ];
    for (name, s, exact) in &shapes {
        for k in 0..4 {
            let from = if k == 0 { DVec3::ZERO } else { common::in_cube3(&mut r, 1.5) };
            let got = s.farthest_core_distance(from);
            let sampled = sampled_reach(&**s, from, &mut r);
            assert!(got >= sampled * (1.0 - 1e-12), "{name} from {from}: {got} below the sampled {sampled}");
            // The ellipsoid is exact from its centre.
            let exact = *exact || (*name == "ellipsoid" && k == 0);
            let allowed = if exact { sampled * (1.0 + 1e-6) + 1e-12 } else { sampled * 3f64.sqrt() + 1e-12 };
            assert!(got <= allowed, "{name} from {from}: {got} against the sampled {sampled} (exact: {exact})");
        }
    }
    // The polytope's answer from the origin is kept at construction: it is the largest |vertex| (to the rounding
    // of one length).
    let largest = hull.vertices().iter().map(|v| v.length()).fold(0.0, f64::max);
    assert!((hull.farthest_core_distance(DVec3::ZERO) - largest).abs() <= 4.0 * f64::EPSILON * largest);
    // A ball's core does not reach anywhere from its centre, whatever its radius; the radius is not the core's.
    assert_eq!(SupportMap::<DVec3>::farthest_core_distance(&Ball::new(5.0).unwrap(), DVec3::ZERO), 0.0);
    assert_eq!(Capsule::new(0.8, 5.0).unwrap().farthest_core_distance(DVec3::ZERO), 0.8);
    // 2D shapes, and huge and tiny sizes (no overflow in the squares).
    let square = Cuboid::new(DVec2::new(1e300, 1e300)).unwrap();
    assert!((square.farthest_core_distance(DVec2::ZERO) / (2f64.sqrt() * 1e300) - 1.0).abs() < 1e-15);
    let tiny = Cuboid::new(DVec3::splat(1e-300)).unwrap();
    assert!((tiny.farthest_core_distance(DVec3::ZERO) / (3f64.sqrt() * 1e-300) - 1.0).abs() < 1e-15);
}

/// Two bodies moving together fast, closing slowly: the cast works in a frame that moves with A, so the centres
/// keep their digits (in world coordinates two bodies at 2e8 per unit time stood at 3e18 by t = 1.3e10, whose
/// rounding of hundreds swamped their 6e4 gap: gjk-fuzz seed 41 case 5828). Spinning balls of radius 1 whose
/// centres are 10 apart and close at speed s on top of a common velocity of 1e6 … 1e9 meet at exactly 8 / s, and
/// the contact points are where the balls are then, in world coordinates.
#[test]
fn bodies_moving_together_fast_keep_their_gap_fuzz_41_5828() {
    let mut r = rng(5828);
    let ball = Ball::new(1.0).unwrap();
    for case in 0..200 {
        let common = unit3(&mut r) * common::log_uniform(&mut r, 1e6, 1e9);
        let n = unit3(&mut r);
        let s = uniform(&mut r, 0.5, 2.0);
        let start_a = common::in_cube3(&mut r, 1e3);
        let ma = Motion::new(Iso::from_translation(start_a), common, unit3(&mut r) * 3.0);
        let mb = Motion::new(Iso::from_translation(start_a + n * 10.0), common - n * s, unit3(&mut r) * 5.0);
        let c = time_of_impact(&ball, &ma, &ball, &mb, &CastOptions { max_toi: 100.0, ..CastOptions::default() });
        // The velocities as given: common − n·s rounds at common's ulps (up to 1e-7), and so does the relative
        // velocity both the cast and this reference take, exactly, as their difference (Sterbenz). The first time
        // |c + dv·t| = 2, with c the centres' offset, solved without cancellation.
        let (c0, dv) = (mb.pose.translation - ma.pose.translation, mb.linear - ma.linear);
        let (qa, qb, qc) = (dv.length_squared(), c0.dot(dv), c0.length_squared() - 4.0);
        let exact = qc / (-qb + (qb * qb - qa * qc).sqrt());
        let n = (c0 + dv * exact).normalize();
        let what = format!("case {case}: common velocity {common:?}, closing {s}: {c:?}");
        assert!(c.hit && c.status == Status::Converged, "{what}");
        // The cast stops within its tolerance (1e-10 of the pair's size, 10) of contact, at closing speed s.
        assert!((c.toi - exact).abs() <= 2e-9 / s, "{what}: toi {} vs {exact}", c.toi);
        assert!((c.normal - n).length() <= 1e-9, "{what}");
        // World points: A's centre has moved by common·toi; their rounding is that of the world position.
        let centre_a = start_a + common * c.toi;
        let rounding = 4.0 * f64::EPSILON * centre_a.abs().max_element() + 1e-8;
        assert!((c.point_a - (centre_a + n)).length() <= rounding, "{what}: point_a");
        assert!((c.point_b - (centre_a + n)).length() <= rounding, "{what}: point_b");
    }
}
