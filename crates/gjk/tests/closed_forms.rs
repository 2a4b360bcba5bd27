//! Exact answers across thousands of random poses (fixed seeds): sphere–sphere, circle–circle, capsule–capsule
//! (against an independent segment–segment routine), point–box in 2D and 3D, boxes separated along an axis,
//! sphere–box and point–cylinder. Each case checks the distance, the intersecting flag, that the witness points lie
//! on their shapes, that the normal is unit and that point_b − point_a = distance · normal.
//!
//! Tolerances:
//! * f64: relative error ≤ 1e-9 of max(distance, shape size). The queries run in the pair's frame (translations
//!   subtracted first, exactly), so the distance keeps this accuracy even at offset 1e6: the references are
//!   computed from the inputs as the query received them (after rounding the offset poses), not from the
//!   scenario before rounding.
//! * World coordinates (witness points) are rounded to ulp(|offset|): at 1e6 that is 1.2e-10 per coordinate, so
//!   point checks allow 1e-9 · size + 4 · eps · |offset| (≈ 8.9e-10 at 1e6, under 8 ulps of the offset).
//! * f32: 1e-4 relative. The stopping rule allows a relative duality gap of 64 · eps ≈ 7.6e-6, and the relative
//!   pose is formed in f32 (eps · |Δt| ≈ 1e-6 for centres up to 7 apart), which against sizes down to 0.1 is
//!   1e-5 relative; 1e-4 leaves a margin of 7 over the worst case seen (1.4e-5, circles).

use crate::common::*;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2, Rotation};
use gjk::shape::{Ball, Capsule, Cuboid, Cylinder, Point};
use rand::rngs::SmallRng;
use rand::Rng;

/// f64 relative tolerance (see the module docs).
const REL64: f64 = 1e-9;
/// f32 relative tolerance (see the module docs).
const REL32: f64 = 1e-4;
/// Offsets applied to both shapes: none, and far from the origin.
const OFFSETS: [f64; 3] = [0.0, 1e4, 1e6];
/// Random cases per offset.
const CASES: usize = 2000;

/// A query's answer in f64, 2D answers embedded in 3D (z = 0), oriented so that A is the first shape named by
/// the test (answers of swapped queries are turned around).
#[derive(Clone, Copy, Debug)]
struct Got {
    intersecting: bool,
    distance: f64,
    point_a: DVec3,
    point_b: DVec3,
    normal: DVec3,
}

impl Got {
    fn from3<V: Space3>(d: &gjk::Distance<V>) -> Self {
        Got {
            intersecting: d.intersecting,
            distance: d.distance.to_f64(),
            point_a: d.point_a.to64(),
            point_b: d.point_b.to64(),
            normal: d.normal.to64(),
        }
    }
    fn from2<V: Space2>(d: &gjk::Distance<V>) -> Self {
        Got {
            intersecting: d.intersecting,
            distance: d.distance.to_f64(),
            point_a: d.point_a.to64().extend(0.0),
            point_b: d.point_b.to64().extend(0.0),
            normal: d.normal.to64().extend(0.0),
        }
    }
    /// The answer of the query (B, A) seen as the answer of (A, B).
    fn swapped(self) -> Self {
        Got { point_a: self.point_b, point_b: self.point_a, normal: -self.normal, ..self }
    }
}

/// Tolerances of one precision at one offset.
#[derive(Clone, Copy)]
struct Tol {
    /// Relative tolerance on the distance (and on the normal's direction).
    rel: f64,
    /// Absolute tolerance on world coordinates (witness points).
    coord: f64,
    /// Tolerance on |normal| − 1: the normal is v/|v|, a few roundings.
    unit: f64,
}

impl Tol {
    fn new(rel: f64, eps: f64, size: f64, offset: f64) -> Self {
        Tol { rel, coord: rel * size + 4.0 * eps * offset, unit: 64.0 * eps }
    }
}

/// Checks what every answer must satisfy against the exact signed distance `signed` (negative: the shapes
/// overlap by that depth); returns the relative error of the distance.
fn check_answer(g: &Got, signed: f64, size: f64, tol: Tol, ctx: &dyn Fn() -> String) -> f64 {
    let want = signed.max(0.0);
    assert!(g.distance.is_finite() && g.distance >= 0.0, "distance {} not finite or negative: {}", g.distance, ctx());
    let err = rel_err(g.distance, want, size);
    assert!(err <= tol.rel, "distance {:e} want {want:e} (rel err {err:e} > {:e}): {}", g.distance, tol.rel, ctx());
    assert!(!g.intersecting || g.distance == 0.0, "intersecting with distance {}: {}", g.distance, ctx());
    if signed > tol.coord {
        assert!(!g.intersecting, "separated by {want:e} but reported intersecting: {}", ctx());
        assert!((g.normal.length() - 1.0).abs() <= tol.unit, "normal {:?} not unit: {}", g.normal, ctx());
        let gap = (g.point_b - g.point_a) - g.normal * g.distance;
        assert!(gap.length() <= tol.coord, "point_b - point_a - distance*normal = {gap:?}: {}", ctx());
    }
    if signed < -tol.coord {
        assert!(g.intersecting, "overlapping by {:e} but reported separated: {}", -signed, ctx());
    }
    err
}

/// Largest relative error seen by a test, printed at its end (`cargo test -- --nocapture`).
struct MaxErr(&'static str, f64, usize);

impl MaxErr {
    fn new(name: &'static str) -> Self {
        MaxErr(name, 0.0, 0)
    }
    fn add(&mut self, e: f64) {
        self.1 = self.1.max(e);
        self.2 += 1;
    }
}

impl Drop for MaxErr {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            println!("{}: {} cases, max relative error {:.3e}", self.0, self.2, self.1);
        }
    }
}

/// A signed gap from the mix the suites use: 15 % overlapping (up to `max_depth`), 25 % nearly touching
/// (1e-6 … 1e-3, log-uniform), the rest ordinary (1e-3 … 3).
fn draw_gap(rng: &mut SmallRng, max_depth: f64) -> f64 {
    let u: f64 = rng.gen();
    if u < 0.15 {
        -uniform(rng, 0.0, max_depth)
    } else if u < 0.40 {
        log_uniform(rng, 1e-6, 1e-3)
    } else {
        uniform(rng, 1e-3, 3.0)
    }
}

/// Point `p` of `from`'s local frame seen in `to`'s local frame, translations subtracted first (exact for nearby
/// poses far from the origin), as the queries themselves do: the reference sees the input, not its world rounding.
fn local_in3(to: &Iso<DVec3>, from: &Iso<DVec3>, p: DVec3) -> DVec3 {
    to.rotation.inverse() * (from.rotation * p + (from.translation - to.translation))
}

/// [`local_in3`] in 2D.
fn local_in2(to: &Iso<DVec2>, from: &Iso<DVec2>, p: DVec2) -> DVec2 {
    to.rotation.inverse_rotate(from.rotation.rotate(p) + (from.translation - to.translation))
}

/// How far GJK's closest point v may be from the exact one, relative to the distance, when it stops on the default
/// relative duality gap tol = 64·eps: v and the exact v* both lie in A − B and (v − v*)·v* ≥ 0, so
/// |v − v*|² ≤ |v|² − |v*|² ≤ 2·tol·|v|². The distance is then within tol, but a witness point on a face may slide
/// along it by up to √(2·tol)·d (the stop can come at a vertex next to the exact foot). Doubled for rounding.
fn witness_slack(eps: f64) -> f64 {
    2.0 * (2.0 * 64.0 * eps).sqrt()
}

/// Tolerance on the normal's direction (= v's): `rel`, the stopping slack above, or the rounding of v (a few ulps
/// of the shapes' size) over the distance when the shapes nearly touch and the direction is that ill-conditioned.
fn normal_tol(rel: f64, eps: f64, size: f64, dist: f64) -> f64 {
    rel.max(witness_slack(eps)).max(64.0 * eps * size / dist)
}

// -------------------------------------------------------------------------------------------------------------
// Spheres and circles.

fn sphere_sphere<V: Space3>(seed: u64, rel: f64, offsets: &[f64], name: &'static str) {
    let mut rng = rng(seed);
    let eps = V::Real::EPSILON.to_f64();
    let mut stats = MaxErr::new(name);
    for &offset in offsets {
        for case in 0..CASES {
            let (r1, r2) = (uniform(&mut rng, 0.1, 2.0), uniform(&mut rng, 0.1, 2.0));
            let gap = draw_gap(&mut rng, r1.min(r2));
            let c1 = in_cube3(&mut rng, 2.0);
            let c2 = c1 + unit3(&mut rng) * (r1 + r2 + gap);
            let shift = unit3(&mut rng) * offset;
            let pa = V::pose_from64(&Iso::new(unit_quat(&mut rng), c1 + shift));
            let pb = V::pose_from64(&Iso::new(unit_quat(&mut rng), c2 + shift));
            let (ra, rb) = (V::Real::from_f64(r1), V::Real::from_f64(r2));
            let d = gjk::distance(&Ball::new(ra).unwrap(), &pa, &Ball::new(rb).unwrap(), &pb);
            let g = Got::from3(&d);
            // Reference from the inputs as given.
            let (c1, c2, r1, r2) =
                (V::pose_to64(&pa).translation, V::pose_to64(&pb).translation, ra.to_f64(), rb.to_f64());
            let sep = c2 - c1;
            let signed = sep.length() - r1 - r2;
            let size = r1.max(r2);
            let tol = Tol::new(rel, eps, size, offset);
            let ctx = || format!("{} case {case} offset {offset:e}: r {r1} {r2} c1 {c1:?} c2 {c2:?} -> {d:?}", V::NAME);
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let n = sep / sep.length();
                assert!((g.normal - n).length() <= rel, "normal {:?} want {n:?}: {}", g.normal, ctx());
                assert!((g.point_a - (c1 + n * r1)).length() <= tol.coord, "point_a off sphere A: {}", ctx());
                assert!((g.point_b - (c2 - n * r2)).length() <= tol.coord, "point_b off sphere B: {}", ctx());
            }
        }
    }
}

#[test]
fn sphere_sphere_random_poses_f64() {
    sphere_sphere::<DVec3>(1, REL64, &OFFSETS, "sphere_sphere f64");
}

#[test]
fn sphere_sphere_random_poses_f32() {
    sphere_sphere::<gjk::math::Vec3>(2, REL32, &[0.0], "sphere_sphere f32");
}

fn circle_circle<V: Space2>(seed: u64, rel: f64, offsets: &[f64], name: &'static str) {
    let mut rng = rng(seed);
    let eps = V::Real::EPSILON.to_f64();
    let mut stats = MaxErr::new(name);
    for &offset in offsets {
        for case in 0..CASES {
            let (r1, r2) = (uniform(&mut rng, 0.1, 2.0), uniform(&mut rng, 0.1, 2.0));
            let gap = draw_gap(&mut rng, r1.min(r2));
            let c1 = in_square2(&mut rng, 2.0);
            let c2 = c1 + unit2(&mut rng) * (r1 + r2 + gap);
            let shift = unit2(&mut rng) * offset;
            let pa = V::pose_from64(&Iso::new(Rot2::from_angle(angle(&mut rng)), c1 + shift));
            let pb = V::pose_from64(&Iso::new(Rot2::from_angle(angle(&mut rng)), c2 + shift));
            let (ra, rb) = (V::Real::from_f64(r1), V::Real::from_f64(r2));
            let d = gjk::distance(&Ball::new(ra).unwrap(), &pa, &Ball::new(rb).unwrap(), &pb);
            let g = Got::from2(&d);
            let (c1, c2, r1, r2) =
                (V::pose_to64(&pa).translation, V::pose_to64(&pb).translation, ra.to_f64(), rb.to_f64());
            let sep = c2 - c1;
            let signed = sep.length() - r1 - r2;
            let size = r1.max(r2);
            let tol = Tol::new(rel, eps, size, offset);
            let ctx = || format!("{} case {case} offset {offset:e}: r {r1} {r2} c1 {c1:?} c2 {c2:?} -> {d:?}", V::NAME);
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let n = (sep / sep.length()).extend(0.0);
                assert!((g.normal - n).length() <= rel, "normal {:?} want {n:?}: {}", g.normal, ctx());
                assert!((g.point_a - (c1.extend(0.0) + n * r1)).length() <= tol.coord, "point_a off A: {}", ctx());
                assert!((g.point_b - (c2.extend(0.0) - n * r2)).length() <= tol.coord, "point_b off B: {}", ctx());
            }
        }
    }
}

#[test]
fn circle_circle_random_poses_f64() {
    circle_circle::<DVec2>(3, REL64, &OFFSETS, "circle_circle f64");
}

#[test]
fn circle_circle_random_poses_f32() {
    circle_circle::<gjk::math::Vec2>(4, REL32, &[0.0], "circle_circle f32");
}

// -------------------------------------------------------------------------------------------------------------
// Capsules (stadiums in 2D) against the segment–segment routine.

/// World end points of a capsule's core segment.
fn core3(pose: &Iso<DVec3>, hh: f64) -> (DVec3, DVec3) {
    (pose.transform_point(DVec3::new(0.0, -hh, 0.0)), pose.transform_point(DVec3::new(0.0, hh, 0.0)))
}

/// A capsule for the checks: pose, half height, radius.
type Cap3 = (Iso<DVec3>, f64, f64);

/// Checks a capsule–capsule answer against the segment–segment reference (computed in A's frame from the poses as
/// given); returns the relative error. The witness points are checked against the world cores.
fn check_capsules(g: &Got, (pa, h1, r1): Cap3, (pb, h2, r2): Cap3, tol: Tol, ctx: &dyn Fn() -> String) -> f64 {
    let (y1, y2) = (DVec3::new(0.0, h1, 0.0), DVec3::new(0.0, h2, 0.0));
    let (b0, b1) = (local_in3(&pa, &pb, -y2), local_in3(&pa, &pb, y2));
    let (ca, cb) = segment_segment(-y1, y1, b0, b1);
    let signed = (cb - ca).length() - r1 - r2;
    let size = (h1 + r1).max(h2 + r2);
    let err = check_answer(g, signed, size, tol, ctx);
    if signed > tol.coord {
        // On the surfaces: at distance `radius` from the own core segment.
        let ((a0, a1), (b0, b1)) = (core3(&pa, h1), core3(&pb, h2));
        let on_a = (g.point_a - point_segment(g.point_a, a0, a1)).length() - r1;
        let on_b = (g.point_b - point_segment(g.point_b, b0, b1)).length() - r2;
        assert!(on_a.abs() <= tol.coord, "point_a {:e} off capsule A's surface: {}", on_a, ctx());
        assert!(on_b.abs() <= tol.coord, "point_b {:e} off capsule B's surface: {}", on_b, ctx());
    }
    err
}

#[test]
fn capsule_capsule_random_poses() {
    let mut rng = rng(5);
    let mut stats = MaxErr::new("capsule_capsule random poses");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let (h1, r1) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let (h2, r2) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let pa = pose3(&mut rng, 2.0);
            let mut pb = Iso::new(unit_quat(&mut rng), pa.translation + unit3(&mut rng) * uniform(&mut rng, 0.0, 5.0));
            if rng.gen_bool(0.5) {
                // Place B at a chosen gap: moving B along the segments' closest direction changes their distance
                // by exactly the move.
                let ((a0, a1), (b0, b1)) = (core3(&pa, h1), core3(&pb, h2));
                let (ca, cb) = segment_segment(a0, a1, b0, b1);
                let s = (cb - ca).length();
                if s > 1e-3 {
                    let gap = draw_gap(&mut rng, r1.min(r2));
                    pb.translation += (cb - ca) / s * (r1 + r2 + gap - s);
                }
            }
            let shift = unit3(&mut rng) * offset;
            let (pa, pb) = (shifted(&pa, shift), shifted(&pb, shift));
            let (ca, cb) = (Capsule::new(h1, r1).unwrap(), Capsule::new(h2, r2).unwrap());
            let g = Got::from3(&gjk::distance(&ca, &pa, &cb, &pb));
            let tol = Tol::new(REL64, f64::EPSILON, (h1 + r1).max(h2 + r2), offset);
            let ctx = || format!("case {case} offset {offset:e}: A {h1} {r1} {pa:?} B {h2} {r2} {pb:?} -> {g:?}");
            stats.add(check_capsules(&g, (pa, h1, r1), (pb, h2, r2), tol, &ctx));
        }
    }
}

/// Parallel and antiparallel cores: the closest pair of the segments is not unique. The distance has its own
/// closed form here: the perpendicular offset, combined with how far the axial projections miss each other.
#[test]
fn capsule_capsule_parallel_cores() {
    let mut rng = rng(6);
    let mut stats = MaxErr::new("capsule_capsule parallel cores");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let (h1, r1) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let (h2, r2) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let q = unit_quat(&mut rng);
            // Same axis (up to a flip about the local x axis), offset across and along it.
            let flip = if rng.gen_bool(0.5) { DQuat::from_rotation_x(std::f64::consts::PI) } else { DQuat::IDENTITY };
            let perp_dir = DVec3::new(angle(&mut rng).cos(), 0.0, 0.0);
            let perp_dir = DVec3::new(perp_dir.x, 0.0, (1.0 - perp_dir.x * perp_dir.x).sqrt());
            let perp =
                if rng.gen_bool(0.3) { r1 + r2 + draw_gap(&mut rng, r1.min(r2)) } else { uniform(&mut rng, 0.0, 3.0) };
            let along = uniform(&mut rng, -(h1 + h2 + 2.0), h1 + h2 + 2.0);
            let local = perp_dir * perp + DVec3::Y * along;
            let shift = unit3(&mut rng) * offset;
            let c = in_cube3(&mut rng, 2.0);
            let pa = Iso::new(q, c + shift);
            let pb = Iso::new(q * flip, c + q * local + shift);
            let (ca, cb) = (Capsule::new(h1, r1).unwrap(), Capsule::new(h2, r2).unwrap());
            let g = Got::from3(&gjk::distance(&ca, &pa, &cb, &pb));
            // The closed form, from B's centre as the query sees it in A's frame.
            let rel_t = pa.rotation.inverse() * (pb.translation - pa.translation);
            let radial = DVec2::new(rel_t.x, rel_t.z).length();
            let axial_miss = (rel_t.y.abs() - h1 - h2).max(0.0);
            let signed = radial.hypot(axial_miss) - r1 - r2;
            let size = (h1 + r1).max(h2 + r2);
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e}: A {h1} {r1} {pa:?} B {h2} {r2} {pb:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            // And the segment–segment routine agrees, witnesses included.
            check_capsules(&g, (pa, h1, r1), (pb, h2, r2), tol, &ctx);
        }
    }
}

#[test]
fn stadium_stadium_random_poses_2d() {
    let mut rng = rng(7);
    let mut stats = MaxErr::new("stadium_stadium 2d");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let (h1, r1) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let (h2, r2) = (uniform(&mut rng, 0.0, 2.0), uniform(&mut rng, 0.05, 1.0));
            let pa = pose2(&mut rng, 2.0);
            let mut pb = Iso::new(
                Rot2::from_angle(angle(&mut rng)),
                pa.translation + unit2(&mut rng) * uniform(&mut rng, 0.0, 5.0),
            );
            let core = |p: &Iso<DVec2>, h: f64| {
                (p.transform_point(DVec2::new(0.0, -h)).extend(0.0), p.transform_point(DVec2::new(0.0, h)).extend(0.0))
            };
            if rng.gen_bool(0.5) {
                let ((a0, a1), (b0, b1)) = (core(&pa, h1), core(&pb, h2));
                let (ca, cb) = segment_segment(a0, a1, b0, b1);
                let s = (cb - ca).length();
                if s > 1e-3 {
                    let gap = draw_gap(&mut rng, r1.min(r2));
                    pb.translation += ((cb - ca) / s * (r1 + r2 + gap - s)).truncate();
                }
            }
            let shift = unit2(&mut rng) * offset;
            let (pa, pb) = (shifted(&pa, shift), shifted(&pb, shift));
            let (ca, cb) = (Capsule::new(h1, r1).unwrap(), Capsule::new(h2, r2).unwrap());
            let g = Got::from2(&gjk::distance(&ca, &pa, &cb, &pb));
            let (y1, y2) = (DVec2::new(0.0, h1), DVec2::new(0.0, h2));
            let (b0, b1) = (local_in2(&pa, &pb, -y2).extend(0.0), local_in2(&pa, &pb, y2).extend(0.0));
            let (ca, cb) = segment_segment(-y1.extend(0.0), y1.extend(0.0), b0, b1);
            let signed = (cb - ca).length() - r1 - r2;
            let size = (h1 + r1).max(h2 + r2);
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e}: A {h1} {r1} {pa:?} B {h2} {r2} {pb:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let ((a0, a1), (b0, b1)) = (core(&pa, h1), core(&pb, h2));
                let on_a = (g.point_a - point_segment(g.point_a, a0, a1)).length() - r1;
                let on_b = (g.point_b - point_segment(g.point_b, b0, b1)).length() - r2;
                assert!(
                    on_a.abs() <= tol.coord && on_b.abs() <= tol.coord,
                    "witness off surface {on_a:e} {on_b:e}: {}",
                    ctx()
                );
            }
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// Point–box.

/// A point of the box [−h, h] on its boundary (a face, edge or corner, each axis independently at −h, +h or
/// inside with at least one at a side) and a unit direction in that feature's outward normal cone: every point
/// q + t·u (t ≥ 0) has q as its closest box point.
fn boundary_point3(rng: &mut SmallRng, h: DVec3) -> (DVec3, DVec3) {
    loop {
        let mut q = DVec3::ZERO;
        let mut u = DVec3::ZERO;
        for i in 0..3 {
            match rng.gen_range(0..3) {
                0 => q[i] = uniform(rng, -h[i], h[i]),
                s => {
                    let sign = if s == 1 { -1.0 } else { 1.0 };
                    q[i] = sign * h[i];
                    u[i] = sign * uniform(rng, 0.05, 1.0);
                }
            }
        }
        if u != DVec3::ZERO {
            return (q, u.normalize());
        }
    }
}

/// [`boundary_point3`] in 2D.
fn boundary_point2(rng: &mut SmallRng, h: DVec2) -> (DVec2, DVec2) {
    let (q, u) = boundary_point3(rng, h.extend(0.0));
    if u.truncate() == DVec2::ZERO {
        return boundary_point2(rng, h);
    }
    (q.truncate(), u.truncate().normalize())
}

/// A point in the box's frame: near the boundary at a drawn gap (half the cases) or anywhere around it.
fn box_neighbour3(rng: &mut SmallRng, h: DVec3) -> DVec3 {
    if rng.gen_bool(0.5) {
        let (q, u) = boundary_point3(rng, h);
        let gap = draw_gap(rng, h.min_element());
        if gap >= 0.0 {
            q + u * gap
        } else {
            // Inside: push the boundary point inward along every axis.
            q * (1.0 + gap / h.max_element())
        }
    } else {
        in_cube3(rng, 1.0) * (h + DVec3::splat(2.0))
    }
}

/// [`box_neighbour3`] in 2D.
fn box_neighbour2(rng: &mut SmallRng, h: DVec2) -> DVec2 {
    if rng.gen_bool(0.5) {
        let (q, u) = boundary_point2(rng, h);
        let gap = draw_gap(rng, h.min_element());
        if gap >= 0.0 {
            q + u * gap
        } else {
            q * (1.0 + gap / h.max_element())
        }
    } else {
        in_square2(rng, 1.0) * (h + DVec2::splat(2.0))
    }
}

/// Signed distance of `p` (box frame) to the box [−h, h]: outside, the distance to the clamped point; inside,
/// minus the depth below the nearest side.
fn signed_box3(p: DVec3, h: DVec3) -> f64 {
    let (_, d) = point_box3(p, h);
    if d > 0.0 {
        d
    } else {
        -(h - p.abs()).min_element()
    }
}

fn signed_box2(p: DVec2, h: DVec2) -> f64 {
    let (_, d) = point_box2(p, h);
    if d > 0.0 {
        d
    } else {
        -(h - p.abs()).min_element()
    }
}

fn point_box_3d<V: Space3>(seed: u64, rel: f64, offsets: &[f64], name: &'static str) {
    let mut rng = rng(seed);
    let eps = V::Real::EPSILON.to_f64();
    let mut stats = MaxErr::new(name);
    for &offset in offsets {
        for case in 0..CASES {
            let h =
                DVec3::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let box_pose64 = pose3(&mut rng, 2.0);
            let p_world = box_pose64.transform_point(box_neighbour3(&mut rng, h));
            // The point shape sits at a local offset inside its own random pose.
            let point_pose64 = pose3(&mut rng, 1.0);
            let local = point_pose64.inverse_transform_point(p_world);
            let shift = unit3(&mut rng) * offset;
            let (bp, pp) =
                (V::pose_from64(&shifted(&box_pose64, shift)), V::pose_from64(&shifted(&point_pose64, shift)));
            let cube = Cuboid::new(V::from64(h)).unwrap();
            let point = Point::new(V::from64(local)).unwrap();
            let swap = rng.gen_bool(0.5);
            let g = if swap {
                Got::from3(&gjk::distance(&point, &pp, &cube, &bp)).swapped()
            } else {
                Got::from3(&gjk::distance(&cube, &bp, &point, &pp))
            };
            // Reference: the point as given, in the box's frame as given.
            let (bp64, pp64) = (V::pose_to64(&bp), V::pose_to64(&pp));
            let (h, p) = (cube.half_extents.to64(), pp64.transform_point(point.at.to64()));
            let pl = local_in3(&bp64, &pp64, point.at.to64());
            let signed = signed_box3(pl, h);
            let size = h.length();
            let tol = Tol::new(rel, eps, size, offset);
            let ctx =
                || format!("{} case {case} offset {offset:e} swap {swap}: h {h:?} p_local {pl:?} -> {g:?}", V::NAME);
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let (q, _) = point_box3(pl, h);
                let want_a = bp64.transform_point(q);
                let on_box = signed_box3(local_in3(&bp64, &Iso::identity(), g.point_a), h);
                assert!(on_box.abs() <= tol.coord, "point_a {on_box:e} off the box's surface: {}", ctx());
                assert!(
                    (g.point_a - want_a).length() <= tol.coord + witness_slack(eps) * signed,
                    "point_a {:?} want {want_a:?}: {}",
                    g.point_a,
                    ctx()
                );
                assert!((g.point_b - p).length() <= tol.coord, "point_b {:?} want {p:?}: {}", g.point_b, ctx());
                let n = bp64.transform_vector((pl - q).normalize());
                assert!(
                    (g.normal - n).length() <= normal_tol(rel, eps, size, signed),
                    "normal {:?} want {n:?}: {}",
                    g.normal,
                    ctx()
                );
            }
        }
    }
}

#[test]
fn point_box_random_poses_3d_f64() {
    point_box_3d::<DVec3>(8, REL64, &OFFSETS, "point_box 3d f64");
}

#[test]
fn point_box_random_poses_3d_f32() {
    point_box_3d::<gjk::math::Vec3>(9, REL32, &[0.0], "point_box 3d f32");
}

fn point_box_2d<V: Space2>(seed: u64, rel: f64, offsets: &[f64], name: &'static str) {
    let mut rng = rng(seed);
    let eps = V::Real::EPSILON.to_f64();
    let mut stats = MaxErr::new(name);
    for &offset in offsets {
        for case in 0..CASES {
            let h = DVec2::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let box_pose64 = pose2(&mut rng, 2.0);
            let p_world = box_pose64.transform_point(box_neighbour2(&mut rng, h));
            let point_pose64 = pose2(&mut rng, 1.0);
            let local = point_pose64.inverse_transform_point(p_world);
            let shift = unit2(&mut rng) * offset;
            let (bp, pp) =
                (V::pose_from64(&shifted(&box_pose64, shift)), V::pose_from64(&shifted(&point_pose64, shift)));
            let rect = Cuboid::new(V::from64(h)).unwrap();
            let point = Point::new(V::from64(local)).unwrap();
            let swap = rng.gen_bool(0.5);
            let g = if swap {
                Got::from2(&gjk::distance(&point, &pp, &rect, &bp)).swapped()
            } else {
                Got::from2(&gjk::distance(&rect, &bp, &point, &pp))
            };
            let (bp64, pp64) = (V::pose_to64(&bp), V::pose_to64(&pp));
            let (h, p) = (rect.half_extents.to64(), pp64.transform_point(point.at.to64()));
            let pl = local_in2(&bp64, &pp64, point.at.to64());
            let signed = signed_box2(pl, h);
            let size = h.length();
            let tol = Tol::new(rel, eps, size, offset);
            let ctx =
                || format!("{} case {case} offset {offset:e} swap {swap}: h {h:?} p_local {pl:?} -> {g:?}", V::NAME);
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let (q, _) = point_box2(pl, h);
                let want_a = bp64.transform_point(q).extend(0.0);
                let on_box = signed_box2(local_in2(&bp64, &Iso::identity(), g.point_a.truncate()), h);
                assert!(on_box.abs() <= tol.coord, "point_a {on_box:e} off the rectangle's surface: {}", ctx());
                assert!(
                    (g.point_a - want_a).length() <= tol.coord + witness_slack(eps) * signed,
                    "point_a {:?} want {want_a:?}: {}",
                    g.point_a,
                    ctx()
                );
                assert!(
                    (g.point_b - p.extend(0.0)).length() <= tol.coord,
                    "point_b {:?} want {p:?}: {}",
                    g.point_b,
                    ctx()
                );
            }
        }
    }
}

#[test]
fn point_box_random_poses_2d_f64() {
    point_box_2d::<DVec2>(10, REL64, &OFFSETS, "point_box 2d f64");
}

#[test]
fn point_box_random_poses_2d_f32() {
    point_box_2d::<gjk::math::Vec2>(11, REL32, &[0.0], "point_box 2d f32");
}

// -------------------------------------------------------------------------------------------------------------
// Boxes separated along an axis.

/// Two boxes with the same orientation (B optionally twisted about the shared x axis), B beyond A along x by a
/// drawn gap, with lateral offsets that keep B's facing face centre over A's face: the distance is the gap, and
/// the closest points lie on the facing faces.
fn box_box_along_x(seed: u64, twist: bool, name: &'static str) {
    let mut rng = rng(seed);
    let mut stats = MaxErr::new(name);
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let ha =
                DVec3::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let hb =
                DVec3::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let gap = draw_gap(&mut rng, ha.x.min(hb.x));
            // Without a twist the faces overlap while |dy| < ha.y + hb.y; with one, B's face centre stays on A's.
            let (ly, lz) = if twist { (ha.y, ha.z) } else { (ha.y + hb.y, ha.z + hb.z) };
            let (dy, dz) = (uniform(&mut rng, -0.98, 0.98) * ly, uniform(&mut rng, -0.98, 0.98) * lz);
            let q = unit_quat(&mut rng);
            let qb = if twist { q * DQuat::from_rotation_x(angle(&mut rng)) } else { q };
            let c = in_cube3(&mut rng, 2.0) + unit3(&mut rng) * offset;
            let pa = Iso::new(q, c);
            let pb = Iso::new(qb, c + q * DVec3::new(ha.x + hb.x + gap, dy, dz));
            let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
            let g = Got::from3(&gjk::distance(&a, &pa, &b, &pb));
            // The gap as the query sees it: B's centre in A's frame (the subtraction of the translations is
            // exact; the rotation rounds at the 1e-16 level).
            let rel_t = pa.inverse_transform_point(pb.translation);
            let signed = rel_t.x - ha.x - hb.x;
            let size = ha.length().max(hb.length());
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e}: ha {ha:?} hb {hb:?} {pa:?} {pb:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                assert!((g.normal - q * DVec3::X).length() <= REL64, "normal {:?}: {}", g.normal, ctx());
                let la = pa.inverse_transform_point(g.point_a);
                let lb = pb.inverse_transform_point(g.point_b);
                let slack = DVec3::splat(tol.coord);
                assert!((la.x - ha.x).abs() <= tol.coord, "point_a not on A's +x face: {la:?}: {}", ctx());
                assert!(la.abs().cmple(ha + slack).all(), "point_a outside A: {la:?}: {}", ctx());
                assert!((lb.x + hb.x).abs() <= tol.coord, "point_b not on B's -x face: {lb:?}: {}", ctx());
                assert!(lb.abs().cmple(hb + slack).all(), "point_b outside B: {lb:?}: {}", ctx());
            }
        }
    }
}

#[test]
fn box_box_separated_along_x_aligned() {
    box_box_along_x(12, false, "box_box along x, aligned");
}

#[test]
fn box_box_separated_along_x_twisted_about_x() {
    box_box_along_x(13, true, "box_box along x, twisted");
}

#[test]
fn rectangle_rectangle_separated_along_x_2d() {
    let mut rng = rng(14);
    let mut stats = MaxErr::new("rectangle_rectangle along x");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let ha = DVec2::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let hb = DVec2::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let gap = draw_gap(&mut rng, ha.x.min(hb.x));
            let dy = uniform(&mut rng, -0.98, 0.98) * (ha.y + hb.y);
            let rot = Rot2::from_angle(angle(&mut rng));
            // B may be turned by a half turn: still aligned.
            let rot_b = if rng.gen_bool(0.5) { rot } else { rot.compose(&Rot2::from_angle(std::f64::consts::PI)) };
            let c = in_square2(&mut rng, 2.0) + unit2(&mut rng) * offset;
            let pa = Iso::new(rot, c);
            let pb = Iso::new(rot_b, c + Rotation::rotate(&rot, DVec2::new(ha.x + hb.x + gap, dy)));
            let (a, b) = (Cuboid::new(ha).unwrap(), Cuboid::new(hb).unwrap());
            let g = Got::from2(&gjk::distance(&a, &pa, &b, &pb));
            let rel_t = pa.inverse_transform_point(pb.translation);
            let signed = rel_t.x - ha.x - hb.x;
            let size = ha.length().max(hb.length());
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e}: ha {ha:?} hb {hb:?} {pa:?} {pb:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let la = pa.inverse_transform_point(g.point_a.truncate());
                assert!(
                    (la.x - ha.x).abs() <= tol.coord && la.y.abs() <= ha.y + tol.coord,
                    "point_a {la:?}: {}",
                    ctx()
                );
                let lb = pb.inverse_transform_point(g.point_b.truncate());
                assert!(
                    (lb.x.abs() - hb.x).abs() <= tol.coord && lb.y.abs() <= hb.y + tol.coord,
                    "point_b {lb:?}: {}",
                    ctx()
                );
            }
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// Sphere–box.

#[test]
fn sphere_box_random_poses() {
    let mut rng = rng(15);
    let mut stats = MaxErr::new("sphere_box");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let h =
                DVec3::new(uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let r = uniform(&mut rng, 0.05, 1.5);
            let box_pose = pose3(&mut rng, 2.0);
            let centre_local = if rng.gen_bool(0.5) {
                let (q, u) = boundary_point3(&mut rng, h);
                q + u * (r + draw_gap(&mut rng, r))
            } else {
                in_cube3(&mut rng, 1.0) * (h + DVec3::splat(r + 2.0))
            };
            let shift = unit3(&mut rng) * offset;
            let bp = shifted(&box_pose, shift);
            let sp = Iso::new(unit_quat(&mut rng), box_pose.transform_point(centre_local) + shift);
            let (cube, ball) = (Cuboid::new(h).unwrap(), Ball::new(r).unwrap());
            let swap = rng.gen_bool(0.5);
            let g = if swap {
                Got::from3(&gjk::distance(&ball, &sp, &cube, &bp)).swapped()
            } else {
                Got::from3(&gjk::distance(&cube, &bp, &ball, &sp))
            };
            let cl = bp.inverse_transform_point(sp.translation);
            let signed = signed_box3(cl, h) - r;
            let size = h.length().max(r);
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e} swap {swap}: h {h:?} r {r} centre {cl:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let (q, _) = point_box3(cl, h);
                let n = bp.transform_vector((cl - q).normalize());
                assert!(
                    (g.normal - n).length() <= normal_tol(REL64, f64::EPSILON, size, signed + r),
                    "normal {:?} want {n:?}: {}",
                    g.normal,
                    ctx()
                );
                let on_box = signed_box3(local_in3(&bp, &Iso::identity(), g.point_a), h);
                assert!(on_box.abs() <= tol.coord, "point_a {on_box:e} off the box's surface: {}", ctx());
                let slack = tol.coord + witness_slack(f64::EPSILON) * (signed + r);
                assert!((g.point_a - bp.transform_point(q)).length() <= slack, "point_a not the closest: {}", ctx());
                let on_ball = (g.point_b - sp.translation).length() - r;
                assert!(on_ball.abs() <= tol.coord, "point_b {on_ball:e} off the sphere: {}", ctx());
            }
        }
    }
}

// -------------------------------------------------------------------------------------------------------------
// Point–cylinder: a solid of revolution, so the distance is the point's distance to the rectangle [0, r] × [−h, h]
// in its meridian half-plane (ρ, y).

/// Signed distance from `p` (cylinder frame) to the cylinder of half height `hh` and radius `r`.
fn signed_cylinder(p: DVec3, hh: f64, r: f64) -> f64 {
    let (rho, y) = (p.x.hypot(p.z), p.y.abs());
    let (dr, dy) = (rho - r, y - hh);
    if dr <= 0.0 && dy <= 0.0 {
        dr.max(dy)
    } else {
        dr.max(0.0).hypot(dy.max(0.0))
    }
}

/// A point at signed distance `gap` from the cylinder's lateral surface, cap or rim, in the cylinder's frame.
fn near_cylinder(rng: &mut SmallRng, hh: f64, r: f64, gap: f64) -> DVec3 {
    let phi = angle(rng);
    let (c, s) = (phi.cos(), phi.sin());
    match rng.gen_range(0..3) {
        // Side: ρ = r + gap.
        0 => DVec3::new((r + gap) * c, uniform(rng, -0.98, 0.98) * hh, (r + gap) * s),
        // Cap: y = ±(hh + gap).
        1 => {
            let rho = r * uniform(rng, 0.0, 0.98);
            let y = if rng.gen_bool(0.5) { hh + gap } else { -hh - gap };
            DVec3::new(rho * c, y, rho * s)
        }
        // Outside the rim, along a direction in its normal cone (only for gaps ≥ 0).
        _ => {
            let t = uniform(rng, 0.05, std::f64::consts::FRAC_PI_2 - 0.05);
            let (dr, dy) = (gap.max(0.0) * t.cos(), gap.max(0.0) * t.sin());
            DVec3::new((r + dr) * c, hh + dy, (r + dr) * s)
        }
    }
}

#[test]
fn point_cylinder_random_poses() {
    let mut rng = rng(16);
    let mut stats = MaxErr::new("point_cylinder");
    for &offset in &OFFSETS {
        for case in 0..CASES {
            let (hh, r) = (uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
            let gap = draw_gap(&mut rng, hh.min(r));
            let local = near_cylinder(&mut rng, hh, r, gap);
            let shift = unit3(&mut rng) * offset;
            let cp = shifted(&pose3(&mut rng, 2.0), shift);
            let pp = shifted(&pose3(&mut rng, 1.0), shift);
            // The point shape's local position that puts it at `local` in the cylinder's frame.
            let at = pp.rotation.inverse() * (cp.rotation * local + (cp.translation - pp.translation));
            let (cyl, point) = (Cylinder::new(hh, r).unwrap(), Point::new(at).unwrap());
            let g = Got::from3(&gjk::distance(&cyl, &cp, &point, &pp));
            let pl = local_in3(&cp, &pp, at);
            let signed = signed_cylinder(pl, hh, r);
            let size = hh.hypot(r);
            let tol = Tol::new(REL64, f64::EPSILON, size, offset);
            let ctx = || format!("case {case} offset {offset:e}: cylinder {hh} {r} point {pl:?} -> {g:?}");
            stats.add(check_answer(&g, signed, size, tol, &ctx));
            if signed > tol.coord {
                let la = local_in3(&cp, &Iso::identity(), g.point_a);
                let on = signed_cylinder(la, hh, r);
                assert!(on.abs() <= tol.coord, "point_a {on:e} off the cylinder's surface: {}", ctx());
            }
        }
    }
}

/// A point exactly on a cylinder's lateral surface touches it: the distance must be zero to within the suite's
/// 1e-9 relative tolerance. Minimal case: the point (1, 0, 0) on the unit cylinder turned 0.5 rad about x.
#[test]
fn point_on_cylinder_side_is_touching() {
    let cyl = Cylinder::new(1.0, 1.0).unwrap();
    let pose = Iso::new(DQuat::from_rotation_x(0.5), DVec3::ZERO);
    let point = Point::new(DVec3::new(1.0, 0.0, 0.0)).unwrap();
    let d = gjk::distance(&point, &Iso::identity(), &cyl, &pose);
    assert!(d.distance <= REL64, "point on the side reported at {:e} ({:?}): {d:?}", d.distance, d.status);
    let mut rng = rng(17);
    let mut worst = (0.0f64, 0usize);
    for case in 0..CASES {
        let (hh, r) = (uniform(&mut rng, 0.05, 2.0), uniform(&mut rng, 0.05, 2.0));
        let phi = angle(&mut rng);
        let local = DVec3::new(r * phi.cos(), uniform(&mut rng, -0.98, 0.98) * hh, r * phi.sin());
        let cp = pose3(&mut rng, 2.0);
        let d = gjk::distance(
            &Point::new(cp.transform_point(local)).unwrap(),
            &Iso::identity(),
            &Cylinder::new(hh, r).unwrap(),
            &cp,
        );
        // The point as rounded in world coordinates is within a few ulps of the surface.
        let rel = d.distance / hh.hypot(r);
        if rel > worst.0 {
            worst = (rel, case);
        }
    }
    assert!(worst.0 <= REL64, "points on cylinder sides: worst relative distance {:e} (case {})", worst.0, worst.1);
}
