//! Properties of linear shape casts and ray casts on random shapes of every family (plain, placed, scaled and
//! summed), in 2D and 3D, f32 and f64, against a reference that uses convexity: under translation the signed
//! distance of two convex shapes (the distance, or minus the penetration depth) is a convex function of time, and
//! so is a moving point's signed distance to a convex shape. Its minimum over an interval is then found by golden
//! section, and decides whether anything touched there.
//!
//! Checked on every cast: toi in [0, max_toi]; no NaN; on a hit, every field finite, the normal unit, the
//! distance at toi within the target plus the tolerance, nothing closer than the target before it, witness
//! points on their shapes; on a decided miss, nothing within the target in [0, max_toi]; on an undecided one,
//! nothing before the time reached. Rays: on a hit ahead, the point on the surface and nothing of the shape before
//! it (solid), the normal unit and facing the ray (entry) or along it (exit); at 0, the origin in the shape; on a
//! miss, the ray clear of a solid shape up to max_toi.

// `!(x > 0.0)` is meant: unlike `x <= 0.0` it is also true for NaN, so a NaN answer fails the check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::common;

use crate::cast_shapes::{build2, build3, random_desc, random_wrapped_desc, Desc, Shape};
use crate::common::{rng, uniform, Space2, Space3};
use gjk::cast::{ray_cast, shape_cast, CastOptions};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2, Vec2, Vec3, Vector};
use gjk::shape::{Point, SupportMap};
use gjk::Status;
use rand::rngs::SmallRng;
use rand::Rng;

/// The minimum of a convex function on [lo, hi] by golden section (to 1e-12 of the interval).
fn convex_min(f: &dyn Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-12 * (hi - lo).max(1e-300) {
        if fc < fd {
            (b, d, fd) = (d, c, fc);
            c = b - g * (b - a);
            fc = f(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    f(lo).min(f(hi)).min(fc).min(fd)
}

/// Signed distance of two shapes at poses: the distance, or minus the penetration depth.
fn signed<V: Vector>(a: &dyn SupportMap<V>, pa: &Iso<V>, b: &dyn SupportMap<V>, pb: &Iso<V>) -> f64 {
    let d = gjk::distance(a, pa, b, pb);
    if d.intersecting {
        -gjk::penetration(a, pa, b, pb).depth.to_f64()
    } else {
        d.distance.to_f64()
    }
}

/// How far a point is proven to be from a shape (the distance query's lower bound).
fn off_shape<V: Vector>(s: &dyn SupportMap<V>, pose: &Iso<V>, p: V) -> f64 {
    let d = gjk::distance(&Point { at: V::zero() }, &Iso::from_translation(p), s, pose);
    (d.distance - d.error_bound).to_f64().max(0.0)
}

/// Failures and figures of a suite.
#[derive(Default)]
struct Tally {
    cases: u32,
    hits: u32,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, what: String) {
        if self.failures.len() < 5 {
            eprintln!("FAIL: {what}");
        }
        self.failures.push(what);
    }
    fn finish(&self, name: &str) {
        println!("{name}: {} cases, {} hits, {} failures", self.cases, self.hits, self.failures.len());
        assert!(self.failures.is_empty(), "{name}: {} failures, first: {}", self.failures.len(), self.failures[0]);
    }
}

/// The tolerance the checks allow in a precision, relative to the pair's size: 1e-9 in f64 (the casts stop within
/// 16 ulps), 64 ulps in f32 (the distance query's own rounding there is about that).
fn tolerance<V: Vector>(size: f64) -> f64 {
    if V::Real::EPSILON.to_f64() < 1e-10 {
        1e-9 * size
    } else {
        2e-5 * size
    }
}

fn size_of<V: Vector>(s: &dyn SupportMap<V>) -> f64 {
    s.local_aabb().diameter().to_f64()
}

/// One linear cast, checked (see the module's documentation).
fn check_linear<V: Vector>(
    t: &mut Tally,
    what: &str,
    (a, pa, va): (&dyn SupportMap<V>, Iso<V>, V),
    (b, pb, vb): (&dyn SupportMap<V>, Iso<V>, V),
    options: &CastOptions<V::Real>,
) {
    t.cases += 1;
    let c = shape_cast(a, &pa, va, b, &pb, vb, options);
    let at = |s: f64| {
        let s = V::Real::from_f64(s);
        (Iso::new(pa.rotation, pa.translation + va * s), Iso::new(pb.rotation, pb.translation + vb * s))
    };
    let f = |s: f64| {
        let (x, y) = at(s);
        signed(a, &x, b, &y)
    };
    let (target, max_toi) = (options.target_distance.to_f64(), options.max_toi.to_f64());
    let tol = tolerance::<V>(size_of(a).max(size_of(b)));
    let toi = c.toi.to_f64();
    if !(toi >= 0.0 && toi <= max_toi) {
        return t.fail(format!("{what}: toi {toi} outside [0, {max_toi}]: {c:?}"));
    }
    if c.hit {
        t.hits += 1;
        let finite = c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite() && c.toi.is_finite();
        if !finite || (c.normal.length().to_f64() - 1.0).abs() > tol.min(1e-6) {
            return t.fail(format!("{what}: a hit with a field not finite or a normal not unit: {c:?}"));
        }
        let d = f(toi);
        if d > target + tol {
            return t.fail(format!("{what}: distance {d:e} at toi {toi}, target {target}: {c:?}"));
        }
        if toi > 0.0 && convex_min(&f, 0.0, toi) < target - tol {
            return t.fail(format!("{what}: closer than the target before toi {toi}: {c:?}"));
        }
        let (x, y) = at(toi);
        let off = off_shape(a, &x, c.point_a).max(off_shape(b, &y, c.point_b));
        if off > tol {
            t.fail(format!("{what}: witness points {off:e} off their shapes: {c:?}"));
        }
        return;
    }
    if c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite() && c.status == Status::AboveBound {
        return t.fail(format!("{what}: AboveBound: {c:?}"));
    }
    // A decided miss covers [0, max_toi] (an endless cast: as far as the shapes can still approach), an undecided
    // one the time reached.
    let end = if c.status == Status::Converged { max_toi.min(50.0) } else { toi };
    if end > 0.0 && convex_min(&f, 0.0, end) < target - tol {
        t.fail(format!("{what}: a miss ({:?}) but within the target before {end}: {c:?}", c.status));
    }
}

/// One ray cast, checked (see the module's documentation).
fn check_ray<V: Vector>(t: &mut Tally, what: &str, s: &dyn SupportMap<V>, pose: Iso<V>, ray: (V, V, f64, bool)) {
    t.cases += 1;
    let (o, d, max_toi, solid) = ray;
    let r = ray_cast(s, &pose, o, d, V::Real::from_f64(max_toi), solid);
    let f = |u: f64| {
        let p = o + d * V::Real::from_f64(u);
        signed(&Point { at: V::zero() }, &Iso::from_translation(p), s, &pose)
    };
    let tol = tolerance::<V>(size_of(s).max((o - pose.translation).length().to_f64()));
    let toi = r.toi.to_f64();
    if !(toi >= 0.0 && toi <= max_toi) {
        return t.fail(format!("{what}: toi {toi} outside [0, {max_toi}]: {r:?}"));
    }
    if !r.hit {
        if solid && convex_min(&f, 0.0, max_toi) < -tol {
            t.fail(format!("{what}: a miss through the shape: {r:?}"));
        }
        return;
    }
    t.hits += 1;
    if !(r.normal.is_finite() && r.point.is_finite()) {
        return t.fail(format!("{what}: a hit with a field not finite: {r:?}"));
    }
    if toi == 0.0 && f(0.0) <= tol && (solid || r.normal == V::zero()) {
        // Starting in (or on) a solid shape.
        if solid && r.normal != V::zero() && (r.normal.length().to_f64() - 1.0).abs() > 1e-6 {
            t.fail(format!("{what}: normal not unit: {r:?}"));
        }
        return;
    }
    if f(toi).abs() > tol {
        return t.fail(format!("{what}: hit point {:e} from the surface: {r:?}", f(toi)));
    }
    if (r.normal.length().to_f64() - 1.0).abs() > 1e-6 {
        return t.fail(format!("{what}: normal not unit: {r:?}"));
    }
    let entering = f(0.0) > 0.0;
    if entering && toi > 0.0 && convex_min(&f, 0.0, toi) < -tol {
        return t.fail(format!("{what} at {pose:?}: the ray {o:?} + t {d:?} was inside before toi {toi}: {r:?}"));
    }
    // The outward normal faces an entering ray and follows a leaving one.
    let along = r.normal.dot(d).to_f64() / d.length().to_f64();
    if (entering && along > 1e-6) || (!entering && along < -1e-6) {
        t.fail(format!("{what}: normal {along} along the ray (entering: {entering}): {r:?}"));
    }
}

fn draw(r: &mut SmallRng, dim: usize) -> Desc {
    if r.gen_bool(0.5) {
        random_desc(r, dim)
    } else {
        random_wrapped_desc(r, dim)
    }
}

fn random_options<R: Real>(r: &mut SmallRng) -> CastOptions<R> {
    let max_toi = [0.5, 2.0, f64::INFINITY][r.gen_range(0..3)];
    let target = if r.gen_bool(0.3) { uniform(r, 0.0, 0.2) } else { 0.0 };
    CastOptions { max_toi: R::from_f64(max_toi), target_distance: R::from_f64(target), ..CastOptions::default() }
}

fn linear_3d<V: Space3>(seed: u64, n: usize) {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for i in 0..n {
        let (da, db) = (draw(&mut r, 3), draw(&mut r, 3));
        let (a, b): (Shape<V>, Shape<V>) = (build3(&da), build3(&db));
        let (pa, pb) = (V::pose_from64(&common::pose3(&mut r, 2.0)), V::pose_from64(&common::pose3(&mut r, 2.0)));
        let (va, vb) = (V::from64(common::in_cube3(&mut r, 2.0)), V::from64(common::in_cube3(&mut r, 2.0)));
        let o = random_options(&mut r);
        check_linear(&mut t, &format!("#{i} {da:?} vs {db:?}"), (&*a, pa, va), (&*b, pb, vb), &o);
    }
    t.finish(&format!("linear casts 3D {}", V::NAME));
}

fn linear_2d<V: Space2>(seed: u64, n: usize) {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for i in 0..n {
        let (da, db) = (draw(&mut r, 2), draw(&mut r, 2));
        let (a, b): (Shape<V>, Shape<V>) = (build2(&da), build2(&db));
        let (pa, pb) = (V::pose_from64(&common::pose2(&mut r, 2.0)), V::pose_from64(&common::pose2(&mut r, 2.0)));
        let (va, vb) = (V::from64(common::in_square2(&mut r, 2.0)), V::from64(common::in_square2(&mut r, 2.0)));
        let o = random_options(&mut r);
        check_linear(&mut t, &format!("#{i} {da:?} vs {db:?}"), (&*a, pa, va), (&*b, pb, vb), &o);
    }
    t.finish(&format!("linear casts 2D {}", V::NAME));
}

fn rays_3d<V: Space3>(seed: u64, n: usize) {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for i in 0..n {
        let d = draw(&mut r, 3);
        let s: Shape<V> = build3(&d);
        let pose = common::pose3(&mut r, 1.0);
        // Half the rays aim at a point inside the bounding box, from outside or inside, at various lengths.
        let o = common::in_cube3(&mut r, 3.0);
        let aim = pose.translation + common::in_cube3(&mut r, 0.5);
        let dir = if r.gen_bool(0.7) { (aim - o) * uniform(&mut r, 0.2, 3.0) } else { common::unit3(&mut r) };
        let (max_toi, solid) = ([1.0, 5.0, f64::INFINITY][r.gen_range(0..3)], r.gen_bool(0.5));
        let pose = V::pose_from64(&pose);
        check_ray(&mut t, &format!("#{i} {d:?}"), &*s, pose, (V::from64(o), V::from64(dir), max_toi, solid));
    }
    t.finish(&format!("rays 3D {}", V::NAME));
}

fn rays_2d<V: Space2>(seed: u64, n: usize) {
    let mut r = rng(seed);
    let mut t = Tally::default();
    for i in 0..n {
        let d = draw(&mut r, 2);
        let s: Shape<V> = build2(&d);
        let pose = common::pose2(&mut r, 1.0);
        let o = common::in_square2(&mut r, 3.0);
        let aim = pose.translation + common::in_square2(&mut r, 0.5);
        let dir = if r.gen_bool(0.7) { (aim - o) * uniform(&mut r, 0.2, 3.0) } else { common::unit2(&mut r) };
        let (max_toi, solid) = ([1.0, 5.0, f64::INFINITY][r.gen_range(0..3)], r.gen_bool(0.5));
        let pose = V::pose_from64(&pose);
        check_ray(&mut t, &format!("#{i} {d:?}"), &*s, pose, (V::from64(o), V::from64(dir), max_toi, solid));
    }
    t.finish(&format!("rays 2D {}", V::NAME));
}

#[test]
fn linear_casts_3d_f64() {
    linear_3d::<DVec3>(0x5eed_0c40, 600);
}

#[test]
fn linear_casts_3d_f32() {
    linear_3d::<Vec3>(0x5eed_0c41, 400);
}

#[test]
fn linear_casts_2d_f64() {
    linear_2d::<DVec2>(0x5eed_0c42, 600);
}

#[test]
fn linear_casts_2d_f32() {
    linear_2d::<Vec2>(0x5eed_0c43, 400);
}

#[test]
fn rays_3d_f64() {
    rays_3d::<DVec3>(0x5eed_0c44, 1500);
}

#[test]
fn rays_3d_f32() {
    rays_3d::<Vec3>(0x5eed_0c45, 800);
}

#[test]
fn rays_2d_f64() {
    rays_2d::<DVec2>(0x5eed_0c46, 1500);
}

#[test]
fn rays_2d_f32() {
    rays_2d::<Vec2>(0x5eed_0c47, 800);
}

/// A proptest over the same families (3D f64): shrinks a failing case to its simplest shapes and motion.
mod prop {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    /// A fixed seed (a failure reproduces) and no persistence file.
    fn config(seed: u64) -> Config {
        Config { cases: 200, failure_persistence: None, rng_seed: RngSeed::Fixed(seed), ..Config::default() }
    }

    proptest! {
        #![proptest_config(config(0x5eed_0c48))]
        #[test]
        fn linear_cast_invariants(seed in any::<u64>(), dx in -3.0f64..3.0, speed in 0.1f64..4.0) {
            let mut r = rng(seed);
            let (da, db) = (draw(&mut r, 3), draw(&mut r, 3));
            let (a, b): (Shape<DVec3>, Shape<DVec3>) = (build3(&da), build3(&db));
            let pb = Iso::new(DQuat::from_rotation_y(dx), DVec3::new(dx, 0.3, -0.2));
            let mut t = Tally::default();
            let o = CastOptions { max_toi: 4.0, ..CastOptions::default() };
            check_linear(&mut t, "prop", (&*a, Iso::identity(), DVec3::new(speed, 0.0, 0.0)), (&*b, pb, DVec3::ZERO), &o);
            prop_assert!(t.failures.is_empty(), "{:?}", t.failures);
        }

        #[test]
        fn ray_invariants_2d(seed in any::<u64>(), angle in -3.2f64..3.2, solid in any::<bool>()) {
            let mut r = rng(seed);
            let d = draw(&mut r, 2);
            let s: Shape<DVec2> = build2(&d);
            let pose = Iso::new(Rot2::from_angle(angle), DVec2::new(0.2, -0.1));
            let o = DVec2::new(-2.5, 0.4);
            let mut t = Tally::default();
            check_ray(&mut t, "prop", &*s, pose, (o, DVec2::new(angle.cos() + 2.0, angle.sin()), 3.0, solid));
            prop_assert!(t.failures.is_empty(), "{:?}", t.failures);
        }
    }
}
