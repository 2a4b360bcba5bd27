//! Casts (ray casts, linear shape casts, rotating time of impact) against closed forms, against themselves
//! (both sides of the time of impact, invariances), under a tunnelling stress test, and against parry.
//!
//! Every random suite has a fixed seed and prints its statistics (run with `--nocapture`). Closed forms are
//! written here, independently of the library, in f64. Parts: 1 ray casts (sphere, box, capsule, cylinder; fast
//! and GJK paths; solid/hollow, cut-offs, directions, rays from the surface), 2 sweeps with closed forms, 3 random
//! hull pairs (Minkowski-difference reference, both sides of toi, rotating bodies sampled), 4 invariances
//! (velocity scaling, translation by 1e4 and 1e6), 5 tunnelling, 6 initial overlap, 7 parry differential.
//!
//! Tolerances (f64, eps = 2.2e-16):
//! * Times of impact: 1e-9 relative, measured as a length, |Δtoi|·|dir| ≤ 1e-9 · max(toi·|dir|, size). The casts
//!   stop within 16·eps·size of contact (≈ 3.6e-15 · size), so 1e-9 is met unless the ray grazes the surface at
//!   a cosine below ~1e-6, where the time itself is ill-conditioned. Those cases are accepted only when the answer
//!   is the exact one for the shape grown or shrunk by 1e-9 · size (a backward error of 1e-9), and are counted.
//! * Hit / miss: must agree with the closed form, except where growing or shrinking the shape (or max_toi) by
//!   1e-9 · size changes the closed form's own answer (counted as "ambiguous" and printed).
//! * Normals: unit length to 1e-12 (one normalisation's rounding is a few eps); within 1e-7 of the exact normal,
//!   except on a cylinder's curved side (1e-4, see `CYLINDER_NORMAL_TOL`).
//! * Other tolerances are stated where they are used, with their reason.

// `!(x > 0.0)` is meant: unlike `x <= 0.0` it is also true for NaN, so a NaN answer fails the check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use gjk::cast::{ray_cast, shape_cast, time_of_impact, Cast, CastOptions, Motion, RayCast};
use gjk::math::{DQuat, DVec3, Iso};
use gjk::shape::{Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Point, Rounded, SupportFn, SupportMap};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const INF: f64 = f64::INFINITY;

/// A shape behind a pointer, where the tests mix kinds.
type AnyShape = Box<dyn SupportMap<DVec3>>;

// ---------------------------------------------------------------------------------------------------------------
// Random inputs.

fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

fn uniform(r: &mut SmallRng, lo: f64, hi: f64) -> f64 {
    lo + (hi - lo) * r.gen::<f64>()
}

fn log_uniform(r: &mut SmallRng, lo: f64, hi: f64) -> f64 {
    (lo.ln() + (hi.ln() - lo.ln()) * r.gen::<f64>()).exp()
}

fn unit3(r: &mut SmallRng) -> DVec3 {
    let z = uniform(r, -1.0, 1.0);
    let phi = uniform(r, -std::f64::consts::PI, std::f64::consts::PI);
    let s = (1.0 - z * z).max(0.0).sqrt();
    DVec3::new(s * phi.cos(), s * phi.sin(), z)
}

/// Uniform random rotation (Shoemake).
fn unit_quat(r: &mut SmallRng) -> DQuat {
    let (u1, u2, u3): (f64, f64, f64) = (r.gen(), r.gen(), r.gen());
    let tau = std::f64::consts::TAU;
    let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
    DQuat::from_xyzw(a * (tau * u2).sin(), a * (tau * u2).cos(), b * (tau * u3).sin(), b * (tau * u3).cos())
}

fn in_cube(r: &mut SmallRng, s: f64) -> DVec3 {
    DVec3::new(uniform(r, -s, s), uniform(r, -s, s), uniform(r, -s, s))
}

fn random_pose(r: &mut SmallRng, spread: f64) -> Iso<DVec3> {
    Iso::new(unit_quat(r), in_cube(r, spread))
}

fn opts(max_toi: f64) -> CastOptions<f64> {
    CastOptions { max_toi, ..CastOptions::default() }
}

/// Unit length to 1e-12.
fn is_unit(n: DVec3) -> bool {
    (n.length() - 1.0).abs() <= 1e-12
}

/// Collects failures so that a suite reports all of its statistics (and a tally of failures by kind) before
/// failing.
#[derive(Default)]
struct Failures(Vec<String>, std::collections::BTreeMap<String, usize>);

impl Failures {
    fn push(&mut self, kind: String, details: String) {
        let count = self.1.entry(kind.clone()).or_default();
        *count += 1;
        // The first three of each kind.
        if *count <= 3 {
            eprintln!("FAIL: {kind}: {details}");
        }
        self.0.push(format!("{kind}: {details}"));
    }
    fn check(&self, what: &str) {
        for (kind, n) in &self.1 {
            println!("{what}: {n} x {kind}");
        }
        assert!(self.0.is_empty(), "{what}: {} failures, first: {}", self.0.len(), self.0[0]);
    }
}

// ---------------------------------------------------------------------------------------------------------------
// Closed forms for a line o + t·d against convex shapes: the span of t where the line is inside the shape, with
// the outward normals where it enters and leaves.

#[derive(Clone, Copy, Debug)]
struct Span {
    t_in: f64,
    t_out: f64,
    n_in: DVec3,
    n_out: DVec3,
}

/// The whole line (a constraint that does not depend on t).
const EVERYWHERE: Span = Span { t_in: -INF, t_out: INF, n_in: DVec3::ZERO, n_out: DVec3::ZERO };

/// Where the line is inside both (intersection of convex sets).
fn intersect(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    let (a, b) = (a?, b?);
    let (t_in, n_in) = if b.t_in > a.t_in { (b.t_in, b.n_in) } else { (a.t_in, a.n_in) };
    let (t_out, n_out) = if b.t_out < a.t_out { (b.t_out, b.n_out) } else { (a.t_out, a.n_out) };
    (t_in <= t_out).then_some(Span { t_in, t_out, n_in, n_out })
}

/// Where the line is inside either, for pieces whose union is convex (so the spans overlap); ties keep `a`.
fn union(a: Option<Span>, b: Option<Span>) -> Option<Span> {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => {
            let (t_in, n_in) = if b.t_in < a.t_in { (b.t_in, b.n_in) } else { (a.t_in, a.n_in) };
            let (t_out, n_out) = if b.t_out > a.t_out { (b.t_out, b.n_out) } else { (a.t_out, a.n_out) };
            Some(Span { t_in, t_out, n_in, n_out })
        }
    }
}

/// The roots of a·t² + 2b·t + c = 0 given disc = b² − a·c ≥ 0 (computed by the caller without cancellation), in
/// the forms that do not cancel: q = −(b + sign(b)·√disc), roots q/a and c/q.
fn roots(a: f64, b: f64, c: f64, disc: f64) -> (f64, f64) {
    let q = -(b + b.signum() * disc.sqrt());
    if q == 0.0 {
        return (0.0, 0.0);
    }
    let (t1, t2) = (q / a, c / q);
    (t1.min(t2), t1.max(t2))
}

/// Sphere of radius r at c. disc = |d|²r² − |p × d|² (p = o − c) and c = (|p| − r)(|p| + r) avoid cancellation.
fn sphere_span(center: DVec3, r: f64, o: DVec3, d: DVec3) -> Option<Span> {
    let p = o - center;
    let a = d.length_squared();
    let disc = a * r * r - p.cross(d).length_squared();
    if disc < 0.0 || a == 0.0 {
        return None;
    }
    let c = (p.length() - r) * (p.length() + r);
    let (t1, t2) = roots(a, p.dot(d), c, disc);
    let n = |t: f64| (p + d * t).normalize();
    Some(Span { t_in: t1, t_out: t2, n_in: n(t1), n_out: n(t2) })
}

/// Infinite cylinder x² + z² ≤ r² about the y axis (local frame).
fn tube_span(o: DVec3, d: DVec3, r: f64) -> Option<Span> {
    let a = d.x * d.x + d.z * d.z;
    let rho = o.x.hypot(o.z);
    let c = (rho - r) * (rho + r);
    if a == 0.0 {
        return (c <= 0.0).then_some(EVERYWHERE);
    }
    let w = o.x * d.z - o.z * d.x;
    let disc = a * r * r - w * w;
    if disc < 0.0 {
        return None;
    }
    let (t1, t2) = roots(a, o.x * d.x + o.z * d.z, c, disc);
    let n = |t: f64| {
        let p = o + d * t;
        DVec3::new(p.x, 0.0, p.z).normalize()
    };
    Some(Span { t_in: t1, t_out: t2, n_in: n(t1), n_out: n(t2) })
}

/// Slab |coordinate| ≤ h along `axis` (o, d: the line's coordinate and rate along it).
fn slab_span(o: f64, d: f64, h: f64, axis: DVec3) -> Option<Span> {
    if d == 0.0 {
        return (o.abs() <= h).then_some(EVERYWHERE);
    }
    let s = d.signum();
    Some(Span { t_in: (-s * h - o) / d, t_out: (s * h - o) / d, n_in: axis * -s, n_out: axis * s })
}

/// Box |xᵢ| ≤ hᵢ (local frame): the intersection of three slabs.
fn box_span(o: DVec3, d: DVec3, h: DVec3) -> Option<Span> {
    let x = slab_span(o.x, d.x, h.x, DVec3::X);
    let y = slab_span(o.y, d.y, h.y, DVec3::Y);
    let z = slab_span(o.z, d.z, h.z, DVec3::Z);
    intersect(intersect(x, y), z)
}

/// Capsule along y (local frame): the finite cylinder and the two end spheres. The cylinder goes last so that a
/// tie with a sphere (the cap's rim) keeps the sphere's normal; its caps never decide (the spheres contain them).
fn capsule_span(o: DVec3, d: DVec3, half_height: f64, r: f64) -> Option<Span> {
    let top = sphere_span(DVec3::Y * half_height, r, o, d);
    let bottom = sphere_span(-DVec3::Y * half_height, r, o, d);
    let side = intersect(tube_span(o, d, r), slab_span(o.y, d.y, half_height, DVec3::Y));
    union(union(top, bottom), side)
}

/// Cylinder along y (local frame): infinite cylinder ∩ slab.
fn cylinder_span(o: DVec3, d: DVec3, half_height: f64, r: f64) -> Option<Span> {
    intersect(tube_span(o, d, r), slab_span(o.y, d.y, half_height, DVec3::Y))
}

/// A local-frame span for a posed shape: the line moved into the shape's frame, the normals moved back.
fn posed_span(pose: &Iso<DVec3>, o: DVec3, d: DVec3, f: impl Fn(DVec3, DVec3) -> Option<Span>) -> Option<Span> {
    let inv = pose.rotation.inverse();
    let s = f(inv * (o - pose.translation), inv * d)?;
    Some(Span { n_in: pose.rotation * s.n_in, n_out: pose.rotation * s.n_out, ..s })
}

/// Which surface a ray cast answer is on.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Where the ray enters.
    Entry,
    /// A solid shape hit from inside at t = 0 (no normal).
    Inside,
    /// Where a ray from inside leaves a hollow shape.
    Exit,
}

/// The ray cast's answer from the line's span: first entry at t ≥ 0; from inside, 0 for a solid shape (no
/// normal) and the exit for a hollow one; nothing beyond max_toi.
fn ray_answer(span: Option<Span>, max_toi: f64, solid: bool) -> Option<(f64, DVec3, Kind)> {
    let s = span?;
    if s.t_out < 0.0 {
        return None;
    }
    let hit = if s.t_in >= 0.0 {
        (s.t_in, s.n_in, Kind::Entry)
    } else if solid {
        (0.0, DVec3::ZERO, Kind::Inside)
    } else {
        (s.t_out, s.n_out, Kind::Exit)
    };
    (hit.0 <= max_toi).then_some(hit)
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1: ray casts against closed forms.

/// One random ray against a shape of size `size` centred near `center`.
struct Ray {
    o: DVec3,
    d: DVec3,
    max_toi: f64,
    solid: bool,
}

/// A mix of rays: aimed near the shape from outside (70%), from inside (15%), from a point `on_surface` gives
/// (15%); directions of length 1e-2 to 1e2; max_toi infinite (65%) or a random cut-off around the shape.
fn random_ray(
    r: &mut SmallRng,
    center: DVec3,
    size: f64,
    inside: impl Fn(&mut SmallRng) -> DVec3,
    on_surface: impl Fn(&mut SmallRng) -> DVec3,
) -> Ray {
    let k = log_uniform(r, 1e-2, 1e2);
    let kind = r.gen::<f64>();
    let (o, d) = if kind < 0.7 {
        let o = center + in_cube(r, 4.0 * size);
        let target = center + in_cube(r, 1.2 * size);
        (o, (target - o) * k)
    } else if kind < 0.85 {
        (inside(r), unit3(r) * size * k)
    } else {
        (on_surface(r), unit3(r) * size * k)
    };
    let max_toi = if r.gen::<f64>() < 0.65 { INF } else { uniform(r, 0.0, 2.0) / k };
    Ray { o, d, max_toi, solid: r.gen() }
}

/// Accumulated results of one path (fast or GJK) against one closed form.
#[derive(Default, Debug)]
struct RayStats {
    cases: usize,
    hits: usize,
    /// Largest |Δtoi|·|d| / max(toi·|d|, size) over hits within 1e-9 of the exact time.
    max_toi_err: f64,
    /// Largest |n − n_exact| over those hits with a defined exact normal.
    max_normal_err: f64,
    /// Hit/miss decided differently from the exact closed form but like the closed form of the shape grown or
    /// shrunk by at most 1e-9 · size (rays grazing the shape or starting on its surface).
    ambiguous: usize,
    /// Times off by more than 1e-9 but exact for the shape grown or shrunk by at most 1e-9 · size.
    ill_conditioned: usize,
    /// Solid hits from inside reported with a nonzero normal (the documentation says zero; see
    /// `solid_ray_from_inside_has_no_normal`).
    inside_with_normal: usize,
    /// Hits at t = 0 of rays starting within δ of the surface whose normal is neither zero nor the outward normal
    /// (see `ray_from_the_surface_has_the_outward_normal`).
    surface_start_bad_normal: usize,
}

/// The closed form of a ray against a shape whose sizes are grown by `delta` (negative: shrunk).
type SpanOf<'a> = &'a dyn Fn(f64) -> Option<Span>;

/// Normal check hook: (got normal, exact normal, hit point) → error to record, or None to reject.
type NormalCheck<'a> = &'a dyn Fn(DVec3, DVec3, DVec3) -> Option<f64>;

/// Checks one ray cast against the closed form (see the module docs for the tolerances).
///
/// An answer that is not within 1e-9 of the exact one is still accepted (and counted) when its backward error is
/// at most 1e-9 · size, judged with the closed forms of the shape grown (G) and shrunk (S) by δ = 1e-9 · size:
/// the hit point is within δ of the surface (inside G's span, not inside S's), and either nothing of S is met
/// before it (a first entry), or the shape is hollow and the origin is inside G (an exit), or the shape is solid,
/// the time 0 and the origin inside G. A miss is accepted when G or S (with max_toi moved by δ/|d|) is missed.
#[allow(clippy::too_many_arguments)]
fn check_ray(
    label: &str,
    scene: &str,
    got: &RayCast<DVec3>,
    ray: &Ray,
    size: f64,
    rel: f64,
    span_of: SpanOf,
    normal_check: NormalCheck,
    stats: &mut RayStats,
    fails: &mut Failures,
) {
    let Ray { o, d, max_toi, solid } = *ray;
    stats.cases += 1;
    let dl = d.length();
    let delta = rel * size;
    let (span, grown_span, shrunk_span) = (span_of(0.0), span_of(delta), span_of(-delta));
    let exact = ray_answer(span, max_toi, solid);
    let grown = ray_answer(grown_span, max_toi + delta / dl, solid);
    let shrunk = ray_answer(shrunk_span, (max_toi - delta / dl).max(0.0), solid);
    let ctx = || format!("{scene} o={o:?} d={d:?} max_toi={max_toi} solid={solid} got={got:?} exact={exact:?}");
    // Time tolerance (in units of t) around a reference time.
    let tol_t = |t: f64| rel * (t * dl).max(size) / dl;
    let near = |t: f64| (got.toi - t).abs() <= tol_t(t);
    if got.hit {
        if !is_unit(got.normal) && got.normal != DVec3::ZERO {
            fails.push(format!("{label}: normal not unit"), format!("|n| = {}: {}", got.normal.length(), ctx()));
        }
        let want = o + d * got.toi;
        if (got.point - want).length() > 1e-14 * (o.length() + (d * got.toi).length()) {
            fails.push(format!("{label}: point is not origin + toi·dir"), ctx());
        }
        if !(got.toi >= 0.0 && got.toi <= max_toi) {
            fails.push(format!("{label}: toi outside [0, max_toi]"), ctx());
        }
    }
    let backward_ok = || {
        let t = got.toi;
        let tol = tol_t(t);
        let Some(g) = grown_span else { return false };
        let in_grown = t >= g.t_in - tol && t <= g.t_out + tol;
        let origin_in_grown = g.t_in <= tol_t(0.0) && g.t_out >= -tol_t(0.0);
        let inside_shrunk = shrunk_span.is_some_and(|s| t > s.t_in + tol && t < s.t_out - tol);
        let shrunk_met_before = shrunk_span.is_some_and(|s| s.t_out >= 0.0 && s.t_in < t - tol);
        let on_surface = in_grown && !inside_shrunk;
        (on_surface && (!shrunk_met_before || (!solid && origin_in_grown))) || (solid && t == 0.0 && origin_in_grown)
    };
    match (exact, got.hit) {
        (Some((t, n, kind)), true) if near(t) => {
            stats.hits += 1;
            stats.max_toi_err = stats.max_toi_err.max((got.toi - t).abs() * dl / (t * dl).max(size));
            if kind == Kind::Inside {
                if got.normal != DVec3::ZERO {
                    stats.inside_with_normal += 1;
                }
                return;
            }
            // The origin within δ of the surface: a solid hit at 0 may be "inside" (zero normal) or on the surface.
            let surface_start = [grown, shrunk].iter().flatten().any(|s| s.2 == Kind::Inside);
            if got.normal == DVec3::ZERO {
                if !surface_start {
                    fails.push(format!("{label}: zero normal"), ctx());
                }
                return;
            }
            match normal_check(got.normal, n, got.point) {
                Some(e) => stats.max_normal_err = stats.max_normal_err.max(e),
                None => {
                    // On a perturbed shape the answer may be on another surface (a hollow ray from the surface).
                    let other = [grown, shrunk]
                        .iter()
                        .flatten()
                        .any(|s| near(s.0) && s.2 != kind && normal_check(got.normal, s.1, got.point).is_some());
                    if surface_start && !other {
                        stats.surface_start_bad_normal += 1;
                    } else if !other {
                        let e = (got.normal - n).length();
                        fails.push(format!("{label}: normal off"), format!("by {e:e}: {}", ctx()));
                    }
                }
            }
        }
        (Some((t, _, _)), true) => {
            stats.hits += 1;
            if backward_ok() {
                stats.ill_conditioned += 1;
            } else {
                let e = (got.toi - t).abs() * dl / (t * dl).max(size);
                fails.push(format!("{label}: toi off"), format!("by {e:e}: {}", ctx()));
            }
        }
        (None, true) => {
            if backward_ok() {
                stats.ambiguous += 1;
            } else {
                fails.push(format!("{label}: hit where the closed form misses"), ctx());
            }
        }
        (Some(_), false) => {
            if grown.is_none() || shrunk.is_none() {
                stats.ambiguous += 1;
            } else {
                fails.push(format!("{label}: miss where the closed form hits"), ctx());
            }
        }
        (None, false) => {}
    }
}

/// Plain normal check: within `tol` of the exact normal.
fn normal_within(tol: f64) -> impl Fn(DVec3, DVec3, DVec3) -> Option<f64> {
    move |got, want, _| {
        let e = (got - want).length();
        (e <= tol).then_some(e)
    }
}

/// Box normal check: within 1e-7 of the exact face normal, or, for a hit within 1e-9 · size of an edge, any unit
/// vector of the normal cone there: (corner − p)·n ≤ 1e-9 · size for every corner.
fn box_normal(pose: Iso<DVec3>, h: DVec3, tol: f64) -> impl Fn(DVec3, DVec3, DVec3) -> Option<f64> {
    move |got, want, p| {
        let e = (got - want).length();
        if e <= tol {
            return Some(e);
        }
        let size = h.max_element();
        let local = pose.rotation.inverse() * (p - pose.translation);
        let on_faces = (0..3).filter(|&i| (local[i].abs() - h[i]).abs() <= 1e-9 * size).count();
        let in_cone = corners(h).iter().all(|c| (pose.transform_point(*c) - p).dot(got) <= 1e-9 * size);
        (on_faces >= 2 && in_cone).then_some(0.0)
    }
}

fn corners(h: DVec3) -> [DVec3; 8] {
    std::array::from_fn(|i| {
        DVec3::new(
            if i & 1 == 0 { -h.x } else { h.x },
            if i & 2 == 0 { -h.y } else { h.y },
            if i & 4 == 0 { -h.z } else { h.z },
        )
    })
}

const RAY_CASES: usize = 5000;

/// Normal tolerance of the fast paths, of polytopes (facet normals are exact) and of rounded shapes through the
/// GJK path (the cores stay apart at contact, so the direction between them is exact): 1e-7. Measured: 4.6e-13
/// (ball fast path), 4.4e-15 (box as a hull), 9.9e-14 (sphere as a rounded point), 5.3e-13 (capsule).
const NORMAL_TOL: f64 = 1e-7;
/// Normal tolerance of cylinder casts, looser: a cylinder has no radius, so at contact on its curved side the
/// normal comes from a facet of three nearby support points or from the previous iteration. Measured: 3.8e-5 on
/// the side over 5000 rays (1e-15 on the caps).
const CYLINDER_NORMAL_TOL: f64 = 1e-4;

fn report(name: &str, s: &RayStats) {
    println!(
        "{name}: {} rays, {} hits, max toi err {:.2e}, max normal err {:.2e}, ambiguous {}, ill-conditioned {}, \
         solid-inside hits with a normal {}, bad normals from the surface {}",
        s.cases,
        s.hits,
        s.max_toi_err,
        s.max_normal_err,
        s.ambiguous,
        s.ill_conditioned,
        s.inside_with_normal,
        s.surface_start_bad_normal
    );
}

/// Fast path against GJK path: they must agree (same hit/miss, times within 2e-9 relative as both are within
/// 1e-9 of the exact one), except where the closed form itself is sensitive: its answer for the shape grown or
/// shrunk by 1e-9 · size differs (origin on the surface, grazing rays). Returns whether they disagree.
fn fast_vs_gjk(fast: &RayCast<DVec3>, gjk: &RayCast<DVec3>, ray: &Ray, size: f64, span_of: SpanOf) -> Option<bool> {
    let dl = ray.d.length();
    let tol = |t: f64| 2e-9 * (t * dl).max(size) / dl;
    let agree = fast.hit == gjk.hit && (!fast.hit || (fast.toi - gjk.toi).abs() <= tol(fast.toi));
    if agree {
        return Some(false);
    }
    let delta = 1e-9 * size;
    let exact = ray_answer(span_of(0.0), ray.max_toi, ray.solid);
    let sensitive = [delta, -delta].iter().any(|&dd| {
        let other = ray_answer(span_of(dd), (ray.max_toi + dd / dl).max(0.0), ray.solid);
        match (exact, other) {
            (Some(a), Some(b)) => a.2 != b.2 || (a.0 - b.0).abs() > tol(a.0),
            (None, None) => false,
            _ => true,
        }
    });
    // Disagreeing where the closed form is not sensitive: no excuse.
    sensitive.then_some(true)
}

#[test]
fn ray_vs_sphere_closed_form_fast_and_gjk_paths() {
    let mut r = rng(0x5eed_0001);
    let mut fails = Failures::default();
    let (mut fast, mut gjk_point, mut gjk_fn) = (RayStats::default(), RayStats::default(), RayStats::default());
    let mut fast_gjk_differ = 0;
    for _ in 0..RAY_CASES {
        let radius = log_uniform(&mut r, 0.1, 10.0);
        let pose = random_pose(&mut r, 5.0);
        let c = pose.translation;
        let ray = random_ray(
            &mut r,
            c,
            radius,
            |r| c + unit3(r) * radius * 0.9 * r.gen::<f64>().cbrt(),
            |r| c + unit3(r) * radius,
        );
        let span_of = |delta: f64| sphere_span(c, radius + delta, ray.o, ray.d);
        let scene = format!("radius={radius:?} pose={pose:?}");
        let ball = Ball::new(radius).unwrap();
        // The same sphere through the GJK path: a rounded point, and a user support function with a radius.
        let rounded = Rounded::new(Point::new(DVec3::ZERO).unwrap(), radius).unwrap();
        let user = SupportFn::rounded(|_: DVec3| DVec3::ZERO, radius);
        let a = ray_cast(&ball, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let b = ray_cast(&rounded, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let u = ray_cast(&user, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        assert_eq!(a.iterations, 0, "the ball must take its fast path");
        let normal = normal_within(NORMAL_TOL);
        check_ray("ball fast path", &scene, &a, &ray, radius, 1e-9, &span_of, &normal, &mut fast, &mut fails);
        check_ray("rounded point", &scene, &b, &ray, radius, 1e-9, &span_of, &normal, &mut gjk_point, &mut fails);
        check_ray("support fn", &scene, &u, &ray, radius, 1e-9, &span_of, &normal, &mut gjk_fn, &mut fails);
        match fast_vs_gjk(&a, &b, &ray, radius, &span_of) {
            Some(differ) => fast_gjk_differ += usize::from(differ),
            None => fails.push("sphere: fast and GJK paths disagree".into(), format!("{scene} {a:?} {b:?}")),
        }
    }
    println!("sphere: fast and GJK paths differ in {fast_gjk_differ} rays, all where the closed form is sensitive");
    report("sphere, fast path", &fast);
    report("sphere, GJK path (Rounded<Point>)", &gjk_point);
    report("sphere, GJK path (SupportFn)", &gjk_fn);
    fails.check("ray vs sphere");
}

#[test]
fn ray_vs_box_closed_form_fast_and_gjk_paths() {
    let mut r = rng(0x5eed_0002);
    let mut fails = Failures::default();
    let (mut fast, mut planes, mut gjk_fn) = (RayStats::default(), RayStats::default(), RayStats::default());
    let mut fast_gjk_differ = 0;
    for _ in 0..RAY_CASES {
        let h =
            DVec3::new(log_uniform(&mut r, 0.05, 5.0), log_uniform(&mut r, 0.05, 5.0), log_uniform(&mut r, 0.05, 5.0));
        let size = h.max_element();
        let pose = random_pose(&mut r, 5.0);
        let inside = |r: &mut SmallRng| {
            let l = DVec3::new(uniform(r, -0.9, 0.9), uniform(r, -0.9, 0.9), uniform(r, -0.9, 0.9)) * h;
            pose.transform_point(l)
        };
        let on_surface = |r: &mut SmallRng| {
            let mut l = DVec3::new(uniform(r, -1.0, 1.0), uniform(r, -1.0, 1.0), uniform(r, -1.0, 1.0)) * h;
            let i = r.gen_range(0..3);
            l[i] = if r.gen() { h[i] } else { -h[i] };
            pose.transform_point(l)
        };
        let ray = random_ray(&mut r, pose.translation, size, inside, on_surface);
        let span_of = |delta: f64| posed_span(&pose, ray.o, ray.d, |o, d| box_span(o, d, h + DVec3::splat(delta)));
        let scene = format!("h={h:?} pose={pose:?}");
        let cuboid = Cuboid::new(h).unwrap();
        // The same box as the hull of its corners (exact through its face planes) and through the GJK path (its
        // support function as a closure).
        let hull = ConvexPolytope::new(&corners(h)).unwrap();
        let user = SupportFn::new(move |dir: DVec3| cuboid.support(dir));
        let a = ray_cast(&cuboid, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let b = ray_cast(&hull, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let u = ray_cast(&user, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        assert_eq!(a.iterations, 0, "the cuboid must take its fast path");
        assert_eq!(b.iterations, 0, "the hull must take its face planes' path");
        let normal = box_normal(pose, h, NORMAL_TOL);
        check_ray("cuboid fast path", &scene, &a, &ray, size, 1e-9, &span_of, &normal, &mut fast, &mut fails);
        check_ray("hull of corners", &scene, &b, &ray, size, 1e-9, &span_of, &normal, &mut planes, &mut fails);
        check_ray("support fn", &scene, &u, &ray, size, 1e-9, &span_of, &normal, &mut gjk_fn, &mut fails);
        match fast_vs_gjk(&a, &b, &ray, size, &span_of) {
            Some(differ) => fast_gjk_differ += usize::from(differ),
            None => fails.push("box: fast and GJK paths disagree".into(), format!("{scene} {a:?} {b:?}")),
        }
    }
    println!("box: fast and GJK paths differ in {fast_gjk_differ} rays, all where the closed form is sensitive");
    report("box, fast path", &fast);
    report("box, face planes (ConvexPolytope)", &planes);
    report("box, GJK path (SupportFn)", &gjk_fn);
    fails.check("ray vs box");
}

/// Random hulls (Part 3's generator, posed anywhere) against random rays: the hull's own path (its facets'
/// half-spaces) and the GJK path (the same hull behind a user support function), each against the reference span
/// of the world hull's planes with Newell normals (Part 3), and against each other.
#[test]
fn ray_vs_random_hulls_face_planes_and_gjk_paths() {
    let mut r = rng(0x5eed_00b1);
    let mut fails = Failures::default();
    let (mut own, mut gjk_fn) = (RayStats::default(), RayStats::default());
    let mut differ = 0;
    for _ in 0..RAY_CASES {
        let s = log_uniform(&mut r, 0.05, 5.0);
        let hull = random_hull(&mut r, s);
        let pose = random_pose(&mut r, 5.0);
        let world: Vec<DVec3> = hull.vertices().iter().map(|v| pose.transform_point(*v)).collect();
        let planes = hull_planes(&world, &mut fails);
        let centre = world.iter().sum::<DVec3>() / world.len() as f64;
        let size = world.iter().fold(0.0f64, |m, v| m.max((*v - centre).length()));
        // Inside: between the centre and a vertex; on the surface: a point of a face.
        let inside = |r: &mut SmallRng| centre + (world[r.gen_range(0..world.len())] - centre) * 0.9 * r.gen::<f64>();
        let faces: Vec<Vec<u32>> = hull.faces().map(|f| f.to_vec()).collect();
        let on_surface = |r: &mut SmallRng| {
            let f = &faces[r.gen_range(0..faces.len())];
            let (u, v) = (r.gen::<f64>(), r.gen::<f64>());
            let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
            let [a, b, c] = [0, 1, 2].map(|k| world[f[k] as usize]);
            a + (b - a) * u + (c - a) * v
        };
        let ray = random_ray(&mut r, centre, size, inside, on_surface);
        let span_of = |delta: f64| planes_span(&planes, ray.o, ray.d, delta);
        let scene = format!("hull {:?} pose={pose:?}", hull.vertices());
        let behind_fn = hull.clone();
        let user = SupportFn::new(move |dir: DVec3| behind_fn.support(dir));
        let a = ray_cast(&hull, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let u = ray_cast(&user, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        assert_eq!(a.iterations, 0, "a hull with volume takes its face planes' path");
        let normal = polytope_normal(&planes, &world, size, NORMAL_TOL);
        check_ray("hull, face planes", &scene, &a, &ray, size, 1e-9, &span_of, &normal, &mut own, &mut fails);
        check_ray("hull, GJK path", &scene, &u, &ray, size, 1e-9, &span_of, &normal, &mut gjk_fn, &mut fails);
        match fast_vs_gjk(&a, &u, &ray, size, &span_of) {
            Some(d) => differ += usize::from(d),
            None => fails.push("hull: face planes and GJK paths disagree".into(), format!("{scene} {a:?} {u:?}")),
        }
    }
    println!("hull: face planes and GJK paths differ in {differ} rays, all where the exact answer is sensitive");
    report("hull, face planes", &own);
    report("hull, GJK path (SupportFn)", &gjk_fn);
    fails.check("ray vs random hulls");
}

/// Random convex polygons (2D) against random rays: the polygon's edge half-planes path against a brute-force
/// reference (every pair of input points with all the others on one side is an edge line) and against the GJK
/// path (the polygon behind a user support function). Hit or miss must agree with the reference unless the
/// reference itself changes when the polygon grows or shrinks by 1e-9 · size; times within 1e-9 · size.
#[test]
fn ray_vs_random_polygons_edge_planes_and_gjk_paths() {
    use gjk::math::{DVec2, Rot2};
    let mut r = rng(0x5eed_00b2);
    let (mut hits, mut sensitive, mut max_err) = (0, 0, 0.0f64);
    for case in 0..RAY_CASES {
        let s = log_uniform(&mut r, 0.05, 5.0);
        let n = r.gen_range(3..=12);
        let pts: Vec<DVec2> = (0..n).map(|_| DVec2::new(uniform(&mut r, -s, s), uniform(&mut r, -s, s))).collect();
        let poly = ConvexPolytope::new(&pts).unwrap();
        let pose = Iso::new(Rot2::from_angle(uniform(&mut r, -3.2, 3.2)), DVec2::new(uniform(&mut r, -5.0, 5.0), 0.3));
        let world: Vec<DVec2> = pts.iter().map(|p| pose.transform_point(*p)).collect();
        // Reference edge lines: n·x ≤ h for every point, with two points on the line.
        let mut lines: Vec<(DVec2, f64)> = Vec::new();
        for i in 0..n {
            for j in 0..n {
                let e = world[j] - world[i];
                if e.length() <= 1e-12 * s {
                    continue;
                }
                let nrm = DVec2::new(e.y, -e.x).normalize();
                let h = nrm.dot(world[i]);
                if world.iter().all(|p| nrm.dot(*p) <= h + 1e-12 * s) {
                    lines.push((nrm, h));
                }
            }
        }
        let o = pose.translation + DVec2::new(uniform(&mut r, -3.0 * s, 3.0 * s), uniform(&mut r, -3.0 * s, 3.0 * s));
        let target = pose.translation + DVec2::new(uniform(&mut r, -s, s), uniform(&mut r, -s, s));
        let d = (target - o) * log_uniform(&mut r, 1e-2, 1e2);
        let solid: bool = r.gen();
        // First entry (or 0 from inside for a solid ray) of the line o + t·d into the lines' intersection grown by δ.
        let reference = |delta: f64| -> Option<f64> {
            let (mut t_in, mut t_out) = (-INF, INF);
            for (nrm, h) in &lines {
                let (gap, rate) = (h + delta - nrm.dot(o), nrm.dot(d));
                if rate == 0.0 {
                    if gap < 0.0 {
                        return None;
                    }
                } else if rate < 0.0 {
                    t_in = t_in.max(gap / rate);
                } else {
                    t_out = t_out.min(gap / rate);
                }
            }
            if t_in > t_out || t_out < 0.0 {
                return None;
            }
            Some(if t_in >= 0.0 {
                t_in
            } else if solid {
                0.0
            } else {
                t_out
            })
        };
        let behind_fn = poly.clone();
        let user = SupportFn::new(move |dir: DVec2| behind_fn.support(dir));
        let a = ray_cast(&poly, &pose, o, d, INF, solid);
        let u = ray_cast(&user, &pose, o, d, INF, solid);
        assert_eq!(a.iterations, 0, "a polygon takes its edges' path");
        let delta = 1e-9 * s;
        let (exact, grown, shrunk) = (reference(0.0), reference(delta), reference(-delta));
        let tol = 1e-9 * s / d.length();
        let near = |got: f64, want: Option<f64>| want.is_some_and(|w| (got - w).abs() <= tol);
        for (label, got) in [("edge planes", &a), ("GJK path", &u)] {
            let ok = match exact {
                Some(t) if got.hit => {
                    if label == "edge planes" {
                        max_err = max_err.max((got.toi - t).abs() / tol * 1e-9);
                    }
                    (got.toi - t).abs() <= tol || near(got.toi, grown) || near(got.toi, shrunk)
                }
                Some(_) => shrunk.is_none(),
                None if got.hit => grown.is_some(),
                None => true,
            };
            assert!(ok, "case {case}, {label}: {got:?} vs exact {exact:?} (grown {grown:?}, shrunk {shrunk:?})");
        }
        hits += usize::from(a.hit);
        sensitive += usize::from(a.hit != u.hit);
        if a.hit && a.toi > 0.0 && exact.is_some_and(|t| t > tol) {
            // The normal of an entry through an edge's interior is that edge's outward normal.
            let p = o + d * a.toi;
            let on: Vec<&(DVec2, f64)> = lines.iter().filter(|(m, h)| (m.dot(p) - h).abs() <= 1e-9 * s).collect();
            if on.len() == 1 {
                assert!((a.normal - on[0].0).length() <= 1e-9, "case {case}: normal {:?} vs {:?}", a.normal, on[0].0);
            }
        }
    }
    println!("polygons: {RAY_CASES} rays, {hits} hits, hit/miss differing from the GJK path in {sensitive} grazing rays, max toi err {max_err:.2e} (of size)");
    assert!(hits > RAY_CASES / 5 && hits < RAY_CASES * 4 / 5, "the rays exercise both outcomes: {hits} hits");
}

#[test]
fn ray_vs_capsule_closed_form() {
    let mut r = rng(0x5eed_0003);
    let mut fails = Failures::default();
    let mut stats = RayStats::default();
    for _ in 0..RAY_CASES {
        let (hh, radius) = (log_uniform(&mut r, 0.05, 5.0), log_uniform(&mut r, 0.05, 5.0));
        let size = hh + radius;
        let pose = random_pose(&mut r, 5.0);
        let axis_point = |r: &mut SmallRng| DVec3::Y * uniform(r, -hh, hh);
        let inside = |r: &mut SmallRng| pose.transform_point(axis_point(r) + unit3(r) * radius * 0.9 * r.gen::<f64>());
        let on_surface = |r: &mut SmallRng| {
            let u = unit3(r);
            let end = if u.y > 0.0 { DVec3::Y * hh } else { -DVec3::Y * hh };
            let l =
                if r.gen() { end + u * radius } else { axis_point(r) + DVec3::new(u.x, 0.0, u.z).normalize() * radius };
            pose.transform_point(l)
        };
        let ray = random_ray(&mut r, pose.translation, size, inside, on_surface);
        let span_of = |delta: f64| posed_span(&pose, ray.o, ray.d, |o, d| capsule_span(o, d, hh, radius + delta));
        let scene = format!("half_height={hh:?} radius={radius:?} pose={pose:?}");
        let capsule = Capsule::new(hh, radius).unwrap();
        let got = ray_cast(&capsule, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let normal = normal_within(NORMAL_TOL);
        check_ray("capsule", &scene, &got, &ray, size, 1e-9, &span_of, &normal, &mut stats, &mut fails);
    }
    report("capsule (GJK path)", &stats);
    fails.check("ray vs capsule");
}

/// Cylinder normal check: `tol` from the exact normal, or, within δ of the rim, a unit vector in the rim's cone of
/// normals (between the radial direction and the cap's axis direction).
fn cylinder_normal(pose: Iso<DVec3>, hh: f64, radius: f64, tol: f64) -> impl Fn(DVec3, DVec3, DVec3) -> Option<f64> {
    move |n, want, p| {
        let e = (n - want).length();
        if e <= tol {
            return Some(e);
        }
        let size = hh.max(radius);
        let l = pose.rotation.inverse() * (p - pose.translation);
        let rho = l.x.hypot(l.z);
        let on_rim = (rho - radius).abs() <= 1e-6 * size && (l.y.abs() - hh).abs() <= 1e-6 * size;
        let nl = pose.rotation.inverse() * n;
        let radial = DVec3::new(l.x, 0.0, l.z) / rho;
        let axial = DVec3::Y * l.y.signum();
        // n = α·radial + β·axial with α, β ≥ 0 and nothing off that plane.
        let (alpha, beta) = (nl.dot(radial), nl.dot(axial));
        let in_cone = alpha >= -tol && beta >= -tol && (nl - radial * alpha - axial * beta).length() <= tol;
        (on_rim && in_cone).then_some(0.0)
    }
}

#[test]
fn ray_vs_cylinder_closed_form() {
    let mut r = rng(0x5eed_0004);
    let mut fails = Failures::default();
    let mut stats = RayStats::default();
    for _ in 0..RAY_CASES {
        let (hh, radius) = (log_uniform(&mut r, 0.05, 5.0), log_uniform(&mut r, 0.05, 5.0));
        let size = hh.max(radius);
        let pose = random_pose(&mut r, 5.0);
        let inside = |r: &mut SmallRng| {
            let u = unit3(r);
            let l = DVec3::new(u.x, 0.0, u.z) * radius * 0.9 + DVec3::Y * hh * uniform(r, -0.9, 0.9);
            pose.transform_point(l)
        };
        let on_surface = |r: &mut SmallRng| {
            let phi = uniform(r, 0.0, std::f64::consts::TAU);
            let l = if r.gen() {
                DVec3::new(phi.cos() * radius, uniform(r, -hh, hh), phi.sin() * radius)
            } else {
                let s = radius * r.gen::<f64>().sqrt();
                DVec3::new(phi.cos() * s, if r.gen() { hh } else { -hh }, phi.sin() * s)
            };
            pose.transform_point(l)
        };
        let ray = random_ray(&mut r, pose.translation, size, inside, on_surface);
        let span_of =
            |delta: f64| posed_span(&pose, ray.o, ray.d, |o, d| cylinder_span(o, d, hh + delta, radius + delta));
        let scene = format!("half_height={hh:?} radius={radius:?} pose={pose:?}");
        let cylinder = Cylinder::new(hh, radius).unwrap();
        let got = ray_cast(&cylinder, &pose, ray.o, ray.d, ray.max_toi, ray.solid);
        let normal = cylinder_normal(pose, hh, radius, CYLINDER_NORMAL_TOL);
        check_ray("cylinder", &scene, &got, &ray, size, 1e-9, &span_of, &normal, &mut stats, &mut fails);
    }
    report("cylinder (GJK path)", &stats);
    fails.check("ray vs cylinder");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 1, deterministic: solid and hollow from inside, max_toi cut-offs, non-unit directions, rays from the
// surface. Every shape is the same size so that one closed form serves all: centred at the origin, reaching
// x = −1 along the ray y = z = 0 (ball of radius 1; unit cube; capsule and cylinder of radius 1 along y).

/// The test shapes, each under its name: (fast path or GJK path, shape).
fn unit_shapes() -> Vec<(&'static str, AnyShape)> {
    let cube = corners(DVec3::ONE);
    vec![
        ("ball (fast path)", Box::new(Ball::new(1.0).unwrap())),
        ("rounded point", Box::new(Rounded::new(Point::new(DVec3::ZERO).unwrap(), 1.0).unwrap())),
        ("cuboid (fast path)", Box::new(Cuboid::new(DVec3::ONE).unwrap())),
        ("hull of cube corners", Box::new(ConvexPolytope::new(&cube).unwrap())),
        ("capsule", Box::new(Capsule::new(1.0, 1.0).unwrap())),
        ("cylinder", Box::new(Cylinder::new(1.0, 1.0).unwrap())),
    ]
}

/// The closed-form span of a ray (world) against the shape of `unit_shapes` with this name at `pose`.
fn unit_span(name: &str, pose: &Iso<DVec3>, o: DVec3, d: DVec3) -> Option<Span> {
    posed_span(pose, o, d, |o, d| match name {
        "ball (fast path)" | "rounded point" => sphere_span(DVec3::ZERO, 1.0, o, d),
        "cuboid (fast path)" | "hull of cube corners" => box_span(o, d, DVec3::ONE),
        "capsule" => capsule_span(o, d, 1.0, 1.0),
        "cylinder" => cylinder_span(o, d, 1.0, 1.0),
        _ => unreachable!(),
    })
}

#[test]
fn ray_from_inside_solid_hits_at_zero_hollow_exits() {
    let mut r = rng(0x5eed_0010);
    for _ in 0..200 {
        let pose = random_pose(&mut r, 3.0);
        let o = pose.transform_point(in_cube(&mut r, 0.5));
        let d = unit3(&mut r) * log_uniform(&mut r, 1e-2, 1e2);
        for (name, shape) in unit_shapes() {
            let solid = ray_cast(&*shape, &pose, o, d, INF, true);
            assert!(solid.hit && solid.toi == 0.0 && solid.point == o, "{name}: solid from inside: {solid:?}");
            let hollow = ray_cast(&*shape, &pose, o, d, INF, false);
            let (t, n, _) = ray_answer(unit_span(name, &pose, o, d), INF, false).unwrap();
            let rel = 1e-9;
            let tol_n = if name == "cylinder" { CYLINDER_NORMAL_TOL } else { NORMAL_TOL };
            assert!(hollow.hit, "{name}: hollow from inside must hit the exit");
            assert!(
                (hollow.toi - t).abs() * d.length() <= rel * (t * d.length()),
                "{name}: exit {hollow:?}, exact {t}"
            );
            // The exit may be on a cylinder's rim, where the normal is not unique.
            let n_ok = (hollow.normal - n).length() <= tol_n
                || cylinder_normal(pose, 1.0, 1.0, tol_n)(hollow.normal, n, hollow.point).is_some()
                    && name == "cylinder";
            assert!(n_ok, "{name}: exit normal {:?}, exact {n:?}", hollow.normal);
        }
    }
}

#[test]
fn ray_max_toi_cut_off() {
    // Every unit shape is entered at x = −1: from (−3, 0, 0) along (2, 0, 0) at t = 1.
    let (o, d) = (DVec3::new(-3.0, 0.0, 0.0), DVec3::new(2.0, 0.0, 0.0));
    let pose = Iso::identity();
    for (name, shape) in unit_shapes() {
        for solid in [true, false] {
            let hit = ray_cast(&*shape, &pose, o, d, 1.0 + 1e-12, solid);
            assert!(hit.hit && (hit.toi - 1.0).abs() <= 1e-12, "{name}: {hit:?}");
            assert_eq!(hit.point.x, o.x + d.x * hit.toi, "{name}");
            assert!((hit.normal + DVec3::X).length() <= 1e-9, "{name}: normal {:?}", hit.normal);
            for max_toi in [1.0 - 1e-9, 0.5, 0.0] {
                let miss = ray_cast(&*shape, &pose, o, d, max_toi, solid);
                assert!(!miss.hit, "{name}: max_toi {max_toi} must cut the hit at 1 off: {miss:?}");
            }
            // A hollow ray from inside, (−0.5, 0, 0), exits at x = 1, t = 0.75.
            let inside = DVec3::new(-0.5, 0.0, 0.0);
            let exit = ray_cast(&*shape, &pose, inside, d, 0.75 + 1e-12, false);
            assert!(exit.hit && (exit.toi - 0.75).abs() <= 1e-12, "{name}: {exit:?}");
            let cut = ray_cast(&*shape, &pose, inside, d, 0.75 - 1e-9, false);
            assert!(!cut.hit, "{name}: the exit at 0.75 is beyond max_toi: {cut:?}");
        }
    }
}

#[test]
fn ray_toi_is_in_units_of_the_direction() {
    let mut r = rng(0x5eed_0011);
    for _ in 0..200 {
        let pose = random_pose(&mut r, 2.0);
        let o = pose.translation + unit3(&mut r) * 4.0;
        let d = (pose.translation + in_cube(&mut r, 0.5) - o).normalize();
        for (name, shape) in unit_shapes() {
            let base = ray_cast(&*shape, &pose, o, d, INF, true);
            assert!(base.hit, "{name}: aimed at the shape's core");
            for k in [1e-3, 0.5, 3.0, 1e3] {
                let scaled = ray_cast(&*shape, &pose, o, d * k, INF, true);
                // Same line, same point: toi scales by 1/k; the rounding of d·k and of the cast's stopping rule
                // (16 eps · size) leave 1e-12 relative; a cylinder's GJK distance near contact is accurate to
                // ~1e-10 · size only (measured toi error 6e-11), so 1e-9 there.
                let rel = if name == "cylinder" { 1e-9 } else { 1e-12 };
                assert!(scaled.hit, "{name}: k = {k}");
                let (a, b) = (scaled.toi * k, base.toi);
                assert!((a - b).abs() <= rel * b.max(1.0), "{name}: k = {k}: {a} vs {b}");
                assert!((scaled.point - base.point).length() <= rel * 8.0, "{name}: k = {k}");
            }
        }
    }
}

/// Hits at t = 0 from an origin on the surface, moving in: the normal is the outward normal there (or zero, the
/// documented "no surface" answer). Seen: the GJK path (a ConvexPolytope cube) returns the inward normal under some
/// rotations, e.g. the pose below, with the origin on the face x = 1 up to the pose's rounding.
#[test]
fn ray_from_the_surface_has_the_outward_normal() {
    let (o, d) = (DVec3::new(1.0, 0.3, 0.2), DVec3::new(-1.0, 0.1, 0.2));
    for (name, shape) in unit_shapes() {
        if name.contains("capsule") || name.contains("cylinder") || name.contains("ball") || name.contains("rounded") {
            continue; // (1, 0.3, 0.2) is not on their surface.
        }
        let hit = ray_cast(&*shape, &Iso::identity(), o, d, INF, true);
        assert!(hit.hit && hit.toi == 0.0, "{name}: {hit:?}");
        assert!(hit.normal == DVec3::X || hit.normal == DVec3::ZERO, "{name}: from the face x = 1 inward: {hit:?}");
    }
    // The minimal case: the cube's hull under one rotation, the ray from (1, 0.3, 0.2) along (−1, 0.1, 0.2)
    // in the cube's frame. Seen: normal = rotation · (−1, 0, 0).
    let hull = ConvexPolytope::new(&corners(DVec3::ONE)).unwrap();
    let q = DQuat::from_xyzw(-0.0006895012808011344, -0.9472481506990932, 0.250388995487161, 0.20006453089956353);
    let pose = Iso::new(q, DVec3::new(0.3, -0.2, 0.7));
    let hit = ray_cast(&hull, &pose, pose.transform_point(o), q * d, INF, true);
    let n = q.inverse() * hit.normal;
    let minimal_ok = hit.hit && hit.toi == 0.0 && (n == DVec3::ZERO || (n - DVec3::X).length() <= 1e-9);
    let mut r = rng(0x5eed_0012);
    let mut bad = Vec::new();
    if !minimal_ok {
        bad.push(format!("minimal case: local normal {n:?}: {hit:?}"));
    }
    for i in 0..200 {
        let pose = random_pose(&mut r, 3.0);
        for (name, shape) in unit_shapes() {
            // A point of the surface (exact in the local frame, rounded once by the pose) and an inward ray.
            let (local, outward) = match name {
                "ball (fast path)" | "rounded point" => {
                    let u = unit3(&mut r);
                    (u, u)
                }
                "capsule" | "cylinder" => {
                    let u = unit3(&mut r);
                    let radial = DVec3::new(u.x, 0.0, u.z).normalize();
                    (radial + DVec3::Y * 0.5 * u.y, radial)
                }
                _ => (DVec3::new(1.0, uniform(&mut r, -0.9, 0.9), uniform(&mut r, -0.9, 0.9)), DVec3::X),
            };
            let inward = -outward + in_cube(&mut r, 0.5);
            let hit = ray_cast(&*shape, &pose, pose.transform_point(local), pose.rotation * inward, INF, true);
            let n = pose.rotation.inverse() * hit.normal;
            let ok =
                hit.hit && hit.toi * inward.length() <= 1e-9 && (n == DVec3::ZERO || (n - outward).length() <= 1e-5);
            if !ok {
                bad.push(format!("{name} #{i}: local normal {n:?}, outward {outward:?}, toi {}", hit.toi));
            }
        }
    }
    for b in bad.iter().take(10) {
        eprintln!("{b}");
    }
    assert!(bad.is_empty(), "{} rays from the surface with a wrong normal, first: {}", bad.len(), bad[0]);
}

/// The documentation of `RayCast::normal`: zero for a solid hit from inside. The fast paths do this; the GJK path
/// (every other shape) returns a unit vector.
#[test]
fn solid_ray_from_inside_has_no_normal() {
    let mut bad = Vec::new();
    for (name, shape) in unit_shapes() {
        let hit = ray_cast(&*shape, &Iso::identity(), DVec3::new(0.1, 0.2, 0.3), DVec3::X, INF, true);
        assert!(hit.hit && hit.toi == 0.0, "{name}: {hit:?}");
        if hit.normal != DVec3::ZERO {
            bad.push(format!("{name}: normal {:?}", hit.normal));
        }
    }
    assert!(bad.is_empty(), "solid hits from inside with a normal: {bad:?}");
}

/// Shapes with a radius (ball, capsule, rounded shapes) run GJK on their cores, which stay apart at contact, so
/// the exact normal (the direction between the cores' closest points) is available at the time of impact. (While
/// these tests were written the cast returned its previous iteration's normal there, off by 1e-7 to 3e-6.)
#[test]
fn rounded_shape_normals_are_exact() {
    // Two balls of radius 0.5, B at rest at the origin, A from (−5, 0.95, 0) along +x: at contact the centres
    // are 1 apart, A at (−√(1 − 0.95²), 0.95, 0).
    let ball = Ball::new(0.5).unwrap();
    let c = shape_cast(
        &ball,
        &Iso::from_translation(DVec3::new(-5.0, 0.95, 0.0)),
        DVec3::X,
        &ball,
        &Iso::identity(),
        DVec3::ZERO,
        &opts(INF),
    );
    let x = (1.0f64 - 0.95 * 0.95).sqrt();
    let exact = DVec3::new(x, -0.95, 0.0);
    assert!(c.hit && (c.toi - (5.0 - x)).abs() <= 1e-12, "{c:?}");
    let ball_err = (c.normal - exact).length();
    // A capsule (radius 1, half height 1) hit on its side by the ray y = 0.3, z = 0.6 along +x.
    let capsule = Capsule::new(1.0, 1.0).unwrap();
    let h = ray_cast(&capsule, &Iso::identity(), DVec3::new(-5.0, 0.3, 0.6), DVec3::X, INF, true);
    let exact = DVec3::new(-0.8, 0.0, 0.6);
    assert!(h.hit && (h.toi - 4.2).abs() <= 1e-12, "{h:?}");
    let capsule_err = (h.normal - exact).length();
    // Random sphere–sphere sweeps.
    let mut r = rng(0x5eed_0013);
    let mut worst: (f64, String) = (0.0, String::new());
    for _ in 0..500 {
        let (ra, rb) = (log_uniform(&mut r, 0.1, 2.0), log_uniform(&mut r, 0.1, 2.0));
        let (ca, cb) = (in_cube(&mut r, 5.0), in_cube(&mut r, 5.0));
        let v = (cb + in_cube(&mut r, ra + rb) - ca) * log_uniform(&mut r, 0.1, 10.0);
        let (a, b) = (Ball::new(ra).unwrap(), Ball::new(rb).unwrap());
        let c = shape_cast(&a, &Iso::from_translation(ca), v, &b, &Iso::from_translation(cb), DVec3::ZERO, &opts(INF));
        if !c.hit || c.toi == 0.0 {
            continue;
        }
        let exact = (cb - (ca + v * c.toi)).normalize();
        let e = (c.normal - exact).length();
        if e > worst.0 {
            worst = (e, format!("ra={ra:?} rb={rb:?} ca={ca:?} cb={cb:?} v={v:?} got {:?}", c.normal));
        }
    }
    println!("rounded normals: two balls {ball_err:.2e}, capsule {capsule_err:.2e}, random sweeps {:.2e}", worst.0);
    assert!(ball_err <= NORMAL_TOL, "ball–ball sweep normal off by {ball_err:e}");
    assert!(capsule_err <= NORMAL_TOL, "capsule ray normal off by {capsule_err:e}");
    assert!(worst.0 <= NORMAL_TOL, "sphere sweep normal off by {:e}: {}", worst.0, worst.1);
}

/// The module documentation: Newton's step "never passes the first contact". A cylinder is a curved surface
/// without a radius, where the GJK distance near contact is the least accurate. (While these tests were written
/// the cast ended 1e-8 inside the cylinder in the minimal case below, up to 1e-7 · size in random cases.)
#[test]
fn cylinder_cast_never_passes_the_surface() {
    let cylinder = Cylinder::new(1.0, 1.0).unwrap();
    let point = Point::new(DVec3::ZERO).unwrap();
    // Minimal case: a unit ray in the plane y = 0.3 hitting the side.
    let o = DVec3::new(-2.8177022236449503, 0.3, -1.2974116064895604);
    let d = DVec3::new(0.7720562388426495, 0.0, 0.6355542180366218);
    let (t_exact, _, _) = ray_answer(cylinder_span(o, d, 1.0, 1.0), INF, true).unwrap();
    let hit = ray_cast(&cylinder, &Iso::identity(), o, d, INF, true);
    let overshoot = hit.toi - t_exact;
    let depth = 1.0 - hit.point.x.hypot(hit.point.z);
    println!("cylinder: toi {} exact {t_exact}: overshoot {overshoot:e}, hit point {depth:e} inside", hit.toi);
    // Random side and cap hits: the hit is never later than the exact entry (16 eps · size is the cast's own
    // touching tolerance; 1e-12 leaves room for the closed form's rounding).
    let mut r = rng(0x5eed_0014);
    let (mut late, mut worst) = (0, 0.0f64);
    for _ in 0..2000 {
        let o = unit3(&mut r) * 4.0;
        let d = (in_cube(&mut r, 1.0) - o) * log_uniform(&mut r, 0.1, 10.0);
        let Some((t, _, Kind::Entry)) = ray_answer(cylinder_span(o, d, 1.0, 1.0), INF, true) else { continue };
        let c = shape_cast(&point, &Iso::from_translation(o), d, &cylinder, &Iso::identity(), DVec3::ZERO, &opts(INF));
        let over = (c.toi - t) * d.length();
        worst = worst.max(over);
        if over > 1e-12 {
            late += 1;
        }
    }
    println!("cylinder: {late} of the random casts end past the surface, worst by {worst:e} (length)");
    assert!(overshoot <= 1e-12, "the cast passed the surface by {overshoot:e} (the hit point is {depth:e} deep)");
    assert_eq!(late, 0, "casts ending past the surface (worst {worst:e})");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 2: sweeps with closed forms, both shapes moving.

/// Checks what every hit must satisfy: unit normal (or zero at t = 0), toi in [0, max_toi], the witness points
/// within `tol` of each other (they touch at the time of impact; `tol` allows a target distance).
fn check_cast_hit(what: &str, c: &Cast<DVec3>, max_toi: f64, gap: f64, tol: f64, fails: &mut Failures) {
    if !c.hit {
        return;
    }
    if !(is_unit(c.normal) || (c.normal == DVec3::ZERO && c.toi == 0.0)) {
        fails.push(format!("{what}: normal not unit"), format!("{c:?}"));
    }
    if !(c.toi >= 0.0 && c.toi <= max_toi) {
        fails.push(format!("{what}: toi outside [0, max_toi]"), format!("max_toi {max_toi}: {c:?}"));
    }
    if c.toi > 0.0 && ((c.point_b - c.point_a).length() - gap).abs() > tol {
        fails.push(format!("{what}: witness points not at the target distance"), format!("{c:?}"));
    }
}

#[test]
fn sweep_sphere_vs_sphere_closed_form() {
    let mut r = rng(0x5eed_0020);
    let mut fails = Failures::default();
    let (mut balls, mut rounded) = (RayStats::default(), RayStats::default());
    let mut max_point_err = 0.0f64;
    for _ in 0..3000 {
        let (ra, rb) = (log_uniform(&mut r, 0.05, 3.0), log_uniform(&mut r, 0.05, 3.0));
        let (ca, cb) = (in_cube(&mut r, 5.0), in_cube(&mut r, 5.0));
        let k = log_uniform(&mut r, 0.1, 10.0);
        let v_rel = (ca + in_cube(&mut r, 1.5 * (ra + rb)) - cb) * k;
        let va = in_cube(&mut r, 3.0);
        let vb = va + v_rel;
        let max_toi = if r.gen::<f64>() < 0.7 { INF } else { uniform(&mut r, 0.0, 2.0) / k };
        // Seen from A, B's centre moves along the ray cb − ca + t·v_rel into the ball of radius ra + rb.
        let ray = Ray { o: cb - ca, d: v_rel, max_toi, solid: true };
        let span_of = |delta: f64| sphere_span(DVec3::ZERO, ra + rb + delta, ray.o, ray.d);
        let scene = format!("ra={ra:?} rb={rb:?} ca={ca:?} cb={cb:?} va={va:?} vb={vb:?}");
        let (pa, pb) = (Iso::from_translation(ca), Iso::from_translation(cb));
        let a = Ball::new(ra).unwrap();
        let b = Ball::new(rb).unwrap();
        let a_rounded = Rounded::new(Point::new(DVec3::ZERO).unwrap(), ra).unwrap();
        let size = ra + rb;
        let normal = normal_within(NORMAL_TOL);
        for (label, c, stats) in [
            ("ball–ball", shape_cast(&a, &pa, va, &b, &pb, vb, &opts(max_toi)), &mut balls),
            ("rounded point–ball", shape_cast(&a_rounded, &pa, va, &b, &pb, vb, &opts(max_toi)), &mut rounded),
        ] {
            // The cast's normal (A toward B) is the outward normal of the ball of radius ra + rb at B's centre.
            let as_ray = RayCast {
                hit: c.hit,
                toi: c.toi,
                normal: c.normal,
                point: ray.o + ray.d * c.toi,
                iterations: c.iterations,
                status: c.status,
            };
            check_ray(label, &scene, &as_ray, &ray, size, 1e-9, &span_of, &normal, stats, &mut fails);
            check_cast_hit(label, &c, max_toi, 0.0, 1e-9 * size, &mut fails);
            if c.hit && c.toi > 0.0 {
                // The witnesses are on the balls at their positions at toi.
                let ea = ((c.point_a - (ca + va * c.toi)).length() - ra).abs();
                let eb = ((c.point_b - (cb + vb * c.toi)).length() - rb).abs();
                max_point_err = max_point_err.max(ea.max(eb) / size);
                if ea.max(eb) > 1e-9 * size {
                    fails.push(format!("{label}: witness not on its ball"), format!("{scene} {c:?}"));
                }
            }
        }
    }
    report("sphere sweep, Ball", &balls);
    report("sphere sweep, Rounded<Point>", &rounded);
    println!("sphere sweep: largest witness-point error {max_point_err:.2e} (relative)");
    fails.check("sphere vs sphere sweeps");
}

/// A rotated box falling on a wide thin box (the ground, top face at y = y0) that rises: the lowest corner of the
/// box is extent = Σ |uᵢ·y| hᵢ below its centre, so toi = (centre − extent − y0) / (fall speed + rise speed).
/// The casts touch within 16 eps · scale, with scale the ground's diameter (141), so toi may differ by
/// 64 eps · 141 / closing speed (including rounding of the extent and positions).
#[test]
fn sweep_box_falling_on_a_plane_closed_form() {
    let mut r = rng(0x5eed_0021);
    let mut fails = Failures::default();
    let ground = Cuboid::new(DVec3::new(50.0, 0.5, 50.0)).unwrap();
    let scale = 2.0 * ground.half_extents.length();
    let (mut max_err, mut max_normal_err, mut max_point_err) = (0.0f64, 0.0f64, 0.0f64);
    for i in 0..1000 {
        let h =
            DVec3::new(log_uniform(&mut r, 0.05, 2.0), log_uniform(&mut r, 0.05, 2.0), log_uniform(&mut r, 0.05, 2.0));
        let q = unit_quat(&mut r);
        let u = [q * DVec3::X, q * DVec3::Y, q * DVec3::Z];
        let extent = u[0].y.abs() * h.x + u[1].y.abs() * h.y + u[2].y.abs() * h.z;
        let y0 = uniform(&mut r, -2.0, 2.0);
        let gap = log_uniform(&mut r, 1e-3, 5.0);
        let centre = DVec3::new(uniform(&mut r, -3.0, 3.0), y0 + extent + gap, uniform(&mut r, -3.0, 3.0));
        let (fall, rise) = (uniform(&mut r, 0.5, 10.0), uniform(&mut r, 0.0, 5.0));
        let v_box = DVec3::new(uniform(&mut r, -3.0, 3.0), -fall, uniform(&mut r, -3.0, 3.0));
        let v_ground = DVec3::new(uniform(&mut r, -1.0, 1.0), rise, uniform(&mut r, -1.0, 1.0));
        let box_pose = Iso::new(q, centre);
        let ground_pose = Iso::from_translation(DVec3::new(uniform(&mut r, -1.0, 1.0), y0 - 0.5, 0.0));
        let exact = gap / (fall + rise);
        let tol_t = 64.0 * f64::EPSILON * scale / (fall + rise);
        let b = Cuboid::new(h).unwrap();
        // Ground as A (normal +y toward the box) and as B (normal −y).
        for (swap, c) in [
            (false, shape_cast(&ground, &ground_pose, v_ground, &b, &box_pose, v_box, &opts(INF))),
            (true, shape_cast(&b, &box_pose, v_box, &ground, &ground_pose, v_ground, &opts(INF))),
        ] {
            let what = format!("box on plane #{i} (box is {})", if swap { "A" } else { "B" });
            check_cast_hit(&what, &c, INF, 0.0, 1e-9 * scale, &mut fails);
            let err = (c.toi - exact).abs();
            max_err = max_err.max(err * (fall + rise) / gap.max(1.0));
            if !c.hit || err > tol_t {
                fails.push("box on plane: toi off".into(), format!("{what}: {} vs {exact}: {c:?}", c.toi));
                continue;
            }
            let up = if swap { -DVec3::Y } else { DVec3::Y };
            max_normal_err = max_normal_err.max((c.normal - up).length());
            if (c.normal - up).length() > 1e-9 {
                fails.push("box on plane: normal off".into(), format!("{what}: {c:?}"));
            }
            // The lowest corner, where the box lands (unique unless an axis is nearly horizontal).
            let corner = centre + v_box * c.toi
                - u.iter().zip([h.x, h.y, h.z]).map(|(u, h)| *u * (h * u.y.signum())).sum::<DVec3>();
            let on_box = if swap { c.point_a } else { c.point_b };
            if u.iter().all(|u| u.y.abs() > 1e-3) {
                let e = (on_box - corner).length();
                max_point_err = max_point_err.max(e);
                if e > 1e-9 * scale {
                    fails.push(
                        "box on plane: witness not the lowest corner".into(),
                        format!("{what}: {corner:?} {c:?}"),
                    );
                }
            }
        }
    }
    println!("box on plane: largest toi error {max_err:.2e} (relative to the gap), normal {max_normal_err:.2e}, lowest corner {max_point_err:.2e}");
    fails.check("box falling on a plane");
}

/// A rotated capsule falling on a face of a rotated box, both moving: when the capsule's lowest point at contact
/// lies inside the face, toi = (distance of that point from the face plane at t = 0) / (closing speed along the
/// face normal) exactly (before it the capsule is strictly on the outer side of the face's plane).
#[test]
fn sweep_capsule_onto_box_face_closed_form() {
    let mut r = rng(0x5eed_0022);
    let mut fails = Failures::default();
    let (mut cases, mut max_err, mut max_normal_err) = (0, 0.0f64, 0.0f64);
    while cases < 1000 {
        let h = DVec3::new(log_uniform(&mut r, 0.3, 3.0), log_uniform(&mut r, 0.3, 3.0), log_uniform(&mut r, 0.3, 3.0));
        let box_pose = random_pose(&mut r, 3.0);
        let axis = r.gen_range(0..3);
        let sign = if r.gen() { 1.0 } else { -1.0 };
        let n_local = DVec3::AXES[axis] * sign;
        let n = box_pose.rotation * n_local;
        let (hh, radius) = (log_uniform(&mut r, 0.02, 1.0), log_uniform(&mut r, 0.02, 0.5));
        let q = unit_quat(&mut r);
        let cap_axis = q * DVec3::Y;
        // The capsule's lowest point along −n, relative to its centre (the lower core end, or the middle when
        // the axis is parallel to the face).
        let lowest_core = -cap_axis * (hh * cap_axis.dot(n).signum());
        // Place the lowest point above a random point of the face, at a height `gap` above it.
        let in_face = DVec3::from_array(std::array::from_fn(|i| {
            if i == axis {
                h[i] * sign
            } else {
                uniform(&mut r, -0.9, 0.9) * h[i]
            }
        }));
        let gap = log_uniform(&mut r, 1e-3, 3.0);
        let closing = uniform(&mut r, 0.2, 5.0);
        let drift = in_cube(&mut r, 1.0);
        let drift = drift - n * drift.dot(n);
        let v_box = in_cube(&mut r, 2.0);
        let v_cap = v_box - n * closing + drift;
        let exact = gap / closing;
        // Where the lowest point lands: inside the face (margin 5% of the face) or the case is not this closed form.
        let landing_local = in_face + box_pose.rotation.inverse() * (drift * exact);
        if (0..3).any(|i| i != axis && landing_local[i].abs() > 0.95 * h[i]) {
            continue;
        }
        cases += 1;
        let centre = box_pose.transform_point(in_face) + n * (gap + radius) - lowest_core;
        let cap_pose = Iso::new(q, centre);
        let capsule = Capsule::new(hh, radius).unwrap();
        let b = Cuboid::new(h).unwrap();
        let c = shape_cast(&capsule, &cap_pose, v_cap, &b, &box_pose, v_box, &opts(INF));
        let size = h.max_element().max(hh + radius);
        let what = format!(
            "capsule hh={hh:?} r={radius:?} at {cap_pose:?} v={v_cap:?} onto box h={h:?} at {box_pose:?} v={v_box:?}"
        );
        check_cast_hit("capsule onto box", &c, INF, 0.0, 1e-9 * size, &mut fails);
        let err = (c.toi - exact).abs() * closing / size.max(gap);
        max_err = max_err.max(err);
        if !c.hit || err > 1e-9 {
            fails.push("capsule onto box: toi off".into(), format!("{} vs {exact}: {what}: {c:?}", c.toi));
            continue;
        }
        // Normal from the capsule (A) toward the box (B): into the face.
        let e = (c.normal + n).length();
        max_normal_err = max_normal_err.max(e);
        if e > NORMAL_TOL {
            fails.push("capsule onto box: normal off".into(), format!("{what}: {c:?}"));
        }
        // The box's witness is on the face's plane at toi.
        let plane_err = (c.point_b - (box_pose.translation + v_box * c.toi)).dot(n) - h[axis];
        if plane_err.abs() > 1e-9 * size {
            fails.push("capsule onto box: witness off the face".into(), format!("{what}: {c:?}"));
        }
    }
    println!("capsule onto box face: {cases} cases, largest toi error {max_err:.2e}, normal {max_normal_err:.2e}");
    fails.check("capsule onto a box face");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 3: random convex hull pairs. Reference: the shapes meet when t·(v_b − v_a) enters the Minkowski difference
// A − B (the hull of all differences of their world vertices), a ray against the half-spaces of that hull's faces.

/// Outward unit normals n and offsets h of the faces of the hull of `points` (n·x ≤ h inside), from the library's
/// hull (`ConvexPolytope::faces`) with normals by Newell's method; checked against every point.
fn hull_planes(points: &[DVec3], fails: &mut Failures) -> Vec<(DVec3, f64)> {
    let hull = ConvexPolytope::new(points).unwrap();
    let v = hull.vertices();
    let scale = points.iter().fold(0.0f64, |m, p| m.max(p.length()));
    let planes: Vec<(DVec3, f64)> = hull
        .faces()
        .map(|f| {
            let n = (0..f.len())
                .map(|i| v[f[i] as usize].cross(v[f[(i + 1) % f.len()] as usize]))
                .sum::<DVec3>()
                .normalize();
            (n, f.iter().map(|&i| n.dot(v[i as usize])).fold(-INF, f64::max))
        })
        .collect();
    let violation = planes.iter().flat_map(|(n, h)| points.iter().map(move |p| n.dot(*p) - h)).fold(0.0, f64::max);
    if violation > 1e-9 * scale || planes.len() < 4 {
        fails.push("hull planes: points outside".into(), format!("by {violation:e}, {} planes", planes.len()));
    }
    planes
}

/// The line o + t·d against the half-spaces n·x ≤ h + delta.
fn planes_span(planes: &[(DVec3, f64)], o: DVec3, d: DVec3, delta: f64) -> Option<Span> {
    planes.iter().try_fold(EVERYWHERE, |span, (n, h)| {
        let (nd, gap) = (n.dot(d), h + delta - n.dot(o));
        let face = if nd == 0.0 {
            (gap >= 0.0).then_some(EVERYWHERE)
        } else if nd > 0.0 {
            Some(Span { t_in: -INF, t_out: gap / nd, n_in: DVec3::ZERO, n_out: *n })
        } else {
            Some(Span { t_in: gap / nd, t_out: INF, n_in: *n, n_out: DVec3::ZERO })
        };
        intersect(Some(span), face)
    })
}

/// Polytope normal check: within `tol` of the exact face normal, or, for a point within 1e-9 · size of two or
/// more faces (an edge or a vertex), in the normal cone there: (v − p)·n ≤ 1e-9 · size for every vertex v.
fn polytope_normal<'a>(
    planes: &'a [(DVec3, f64)],
    points: &'a [DVec3],
    size: f64,
    tol: f64,
) -> impl Fn(DVec3, DVec3, DVec3) -> Option<f64> + 'a {
    move |got, want, p| {
        let e = (got - want).length();
        if e <= tol {
            return Some(e);
        }
        let on_faces = planes.iter().filter(|(n, h)| (n.dot(p) - h).abs() <= 1e-9 * size).count();
        let in_cone = points.iter().all(|v| (*v - p).dot(got) <= 1e-9 * size);
        (on_faces >= 2 && in_cone).then_some(0.0)
    }
}

/// A random hull: 4 to 14 points in a ball of radius `s` around a random offset (its local origin is not its
/// centre, so rotations also move it).
fn random_hull(r: &mut SmallRng, s: f64) -> ConvexPolytope<DVec3> {
    let offset = in_cube(r, 0.3 * s);
    let n = r.gen_range(4..=14);
    let pts: Vec<DVec3> = (0..n).map(|_| offset + unit3(r) * s * r.gen::<f64>().cbrt()).collect();
    ConvexPolytope::new(&pts).unwrap()
}

/// A random pair of hulls moving toward each other (most of the time), as in Parts 3 and 4.
struct HullPair {
    a: ConvexPolytope<DVec3>,
    b: ConvexPolytope<DVec3>,
    pose_a: Iso<DVec3>,
    pose_b: Iso<DVec3>,
    va: DVec3,
    vb: DVec3,
    max_toi: f64,
}

fn random_hull_pair(r: &mut SmallRng) -> HullPair {
    let (sa, sb) = (log_uniform(r, 0.2, 2.0), log_uniform(r, 0.2, 2.0));
    let (a, b) = (random_hull(r, sa), random_hull(r, sb));
    let pose_a = random_pose(r, 3.0);
    let pose_b = Iso::new(unit_quat(r), pose_a.translation + unit3(r) * uniform(r, 1.5, 6.0) * (sa + sb));
    let k = log_uniform(r, 0.1, 10.0);
    let v_rel = (pose_a.translation + in_cube(r, 0.6 * (sa + sb)) - pose_b.translation) * k;
    let va = in_cube(r, 2.0);
    let max_toi = if r.gen::<f64>() < 0.7 { INF } else { uniform(r, 0.0, 2.0) / k };
    HullPair { a, b, pose_a, pose_b, va, vb: va + v_rel, max_toi }
}

impl HullPair {
    fn world(&self) -> (Vec<DVec3>, Vec<DVec3>) {
        let wa = self.a.vertices().iter().map(|v| self.pose_a.transform_point(*v)).collect();
        let wb = self.b.vertices().iter().map(|v| self.pose_b.transform_point(*v)).collect();
        (wa, wb)
    }
    /// Vertices of A − B (world orientation).
    fn differences(&self) -> Vec<DVec3> {
        let (wa, wb) = self.world();
        wa.iter().flat_map(|a| wb.iter().map(move |b| *a - *b)).collect()
    }
    fn cast(&self, k: f64, offset: DVec3) -> Cast<DVec3> {
        let pa = Iso::new(self.pose_a.rotation, self.pose_a.translation + offset);
        let pb = Iso::new(self.pose_b.rotation, self.pose_b.translation + offset);
        shape_cast(&self.a, &pa, self.va * k, &self.b, &pb, self.vb * k, &opts(self.max_toi / k))
    }
    /// Distance at time t of the linear motion.
    fn distance_at(&self, t: f64) -> gjk::Distance<DVec3> {
        let pa = Iso::new(self.pose_a.rotation, self.pose_a.translation + self.va * t);
        let pb = Iso::new(self.pose_b.rotation, self.pose_b.translation + self.vb * t);
        gjk::distance(&self.a, &pa, &self.b, &pb)
    }
    fn scene(&self) -> String {
        format!(
            "A {:?} at {:?} v {:?}; B {:?} at {:?} v {:?}; max_toi {}",
            self.a.vertices(),
            self.pose_a,
            self.va,
            self.b.vertices(),
            self.pose_b,
            self.vb,
            self.max_toi
        )
    }
}

const HULL_PAIRS: usize = 1500;

/// Linear casts of hull pairs against the Minkowski-difference reference, and from both sides: at toi − ε the
/// distance is positive, at toi + ε the shapes intersect (ε = 1e-7 · toi + 1e-12; skipped when the overlap
/// ε · closing speed is below GJK's resolution, 1e3 · eps · size).
#[test]
fn hull_pairs_linear_cast_reference_and_both_sides() {
    let mut r = rng(0x5eed_0030);
    let mut fails = Failures::default();
    let mut stats = RayStats::default();
    let (mut bracketed, mut too_grazing) = (0, 0);
    for _ in 0..HULL_PAIRS {
        let p = random_hull_pair(&mut r);
        let diffs = p.differences();
        let planes = hull_planes(&diffs, &mut fails);
        let size = diffs.iter().fold(0.0f64, |m, d| m.max(d.length()));
        let v_rel = p.vb - p.va;
        let ray = Ray { o: DVec3::ZERO, d: v_rel, max_toi: p.max_toi, solid: true };
        let c = p.cast(1.0, DVec3::ZERO);
        let scene = p.scene();
        let as_ray = RayCast {
            hit: c.hit,
            toi: c.toi,
            normal: c.normal,
            point: v_rel * c.toi,
            iterations: c.iterations,
            status: c.status,
        };
        let span_of = |delta: f64| planes_span(&planes, DVec3::ZERO, v_rel, delta);
        let normal = polytope_normal(&planes, &diffs, size, NORMAL_TOL);
        check_ray("hull pair", &scene, &as_ray, &ray, size, 1e-9, &span_of, &normal, &mut stats, &mut fails);
        check_cast_hit("hull pair", &c, p.max_toi, 0.0, 1e-9 * size, &mut fails);
        if c.hit && c.toi > 0.0 {
            let eps = 1e-7 * c.toi + 1e-12;
            let before = p.distance_at(c.toi - eps);
            if before.intersecting || !(before.distance > 0.0) {
                fails.push("hull pair: touching before toi".into(), format!("{scene}: {c:?}"));
            }
            let closing = -c.normal.dot(v_rel);
            if eps * closing > 1e3 * f64::EPSILON * size {
                bracketed += 1;
                let after = p.distance_at(c.toi + eps);
                if !(after.intersecting || after.distance <= 0.0) {
                    fails.push("hull pair: apart after toi".into(), format!("{scene}: {c:?}: {after:?}"));
                }
            } else {
                too_grazing += 1;
            }
        }
    }
    report("hull pairs vs Minkowski reference", &stats);
    println!("hull pairs: {bracketed} hits checked on both sides, {too_grazing} too grazing for the after-side check");
    fails.check("hull pairs, linear casts");
}

/// Rotating hulls with `time_of_impact`: the distance at toi is within the cast's tolerance (1e-10 · size, plus
/// rounding), positive at toi − ε, and positive at 200 samples of [0, toi) (no earlier contact); a miss has no
/// contact at 200 samples of [0, max_toi]. Without spin it agrees with `shape_cast` within the tolerance divided
/// by the closing speed.
#[test]
fn hull_pairs_rotating_time_of_impact_sampled() {
    let mut r = rng(0x5eed_0031);
    let mut fails = Failures::default();
    let (mut hits, mut misses, mut capped, mut max_gap_at_toi, mut max_vs_linear) = (0, 0, 0, 0.0f64, 0.0f64);
    for i in 0..400 {
        let p = random_hull_pair(&mut r);
        let spin = i % 4 != 0;
        let (wa, wb) = if spin {
            (unit3(&mut r) * uniform(&mut r, 0.0, 3.0), unit3(&mut r) * uniform(&mut r, 0.0, 3.0))
        } else {
            (DVec3::ZERO, DVec3::ZERO)
        };
        let ma = Motion::new(p.pose_a, p.va, wa);
        let mb = Motion::new(p.pose_b, p.vb, wb);
        let max_toi = if p.max_toi.is_finite() { p.max_toi } else { 3.0 / (p.vb - p.va).length() * 6.0 };
        let c = time_of_impact(&p.a, &ma, &p.b, &mb, &opts(max_toi));
        let la = p.a.local_aabb();
        let lb = p.b.local_aabb();
        let size = (la.max - la.min).length().max((lb.max - lb.min).length());
        let tol = 1e-10 * size;
        let what = format!("{} spin {wa:?} {wb:?}", p.scene());
        let dist = |t: f64| gjk::distance(&p.a, &ma.at(t), &p.b, &mb.at(t));
        let end = if c.hit { c.toi } else { max_toi };
        for s in 0..200 {
            let t = end * s as f64 / 200.0;
            let d = dist(t);
            if d.intersecting || (c.hit && c.toi > 0.0 && !(d.distance > 0.0)) {
                fails.push("rotating: contact before toi".into(), format!("at {t} (toi {}): {what}: {c:?}", c.toi));
                break;
            }
        }
        if !c.hit {
            misses += 1;
            continue;
        }
        hits += 1;
        if c.status != gjk::Status::Converged {
            capped += 1;
        }
        check_cast_hit("rotating", &c, max_toi, 0.0, INF, &mut fails);
        let at = dist(c.toi);
        if c.toi > 0.0 {
            max_gap_at_toi = max_gap_at_toi.max(at.distance / size);
            if c.status == gjk::Status::Converged && at.distance > tol * 1.01 + 1e-14 {
                fails.push(
                    "rotating: not in contact at toi".into(),
                    format!("distance {:e}: {what}: {c:?}", at.distance),
                );
            }
            let before = dist(c.toi * (1.0 - 1e-7) - 1e-12);
            if before.intersecting || !(before.distance > 0.0) {
                fails.push("rotating: touching before toi".into(), format!("{what}: {c:?}"));
            }
        }
        if !spin && c.toi > 0.0 {
            let lin = p.cast(1.0, DVec3::ZERO);
            let closing = -lin.normal.dot(p.vb - p.va);
            let e = (lin.toi - c.toi).abs() * closing;
            max_vs_linear = max_vs_linear.max(e / size);
            if !lin.hit || e > 2.0 * tol {
                fails.push(
                    "rotating without spin differs from shape_cast".into(),
                    format!("{} vs {}: {what}", c.toi, lin.toi),
                );
            }
        }
    }
    println!(
        "rotating hulls: {hits} hits ({capped} at the iteration cap), {misses} misses; largest distance at toi \
         {max_gap_at_toi:.2e} · size; without spin vs shape_cast {max_vs_linear:.2e} · size"
    );
    fails.check("rotating hull pairs");
}

/// 2D closed form for a rotating body: a plank (half extents L × w) spinning counter-clockwise at ω about its
/// centre, and a disc of radius r (or a point, r = 0) at polar (ρ, φ) ahead of its top face; both drift at the same
/// velocity, which changes nothing. The face reaches the disc when ρ·sin(φ − θ) = w + r, θ = ω·t, as long as
/// the contact, at √(ρ² − (w + r)²) along the plank, is on the face (≤ L). Conservative advancement stops within
/// its tolerance, 1e-10 · size, of contact, and never after it: exact − (1e-10 · size) / (ω · lever) · 2 ≤ toi ≤
/// exact + 1e-12 · exact (rounding of the closed form and of the rotation).
#[test]
fn rotating_plank_2d_closed_form() {
    use gjk::math::{DVec2, Rot2};
    let mut r = rng(0x5eed_0032);
    let (mut cases, mut capped, mut worst_early, mut worst_late) = (0, 0, 0.0f64, 0.0f64);
    while cases < 1000 {
        let (l, w) = (uniform(&mut r, 0.5, 3.0), uniform(&mut r, 0.01, 0.3));
        let radius = if r.gen() { 0.0 } else { uniform(&mut r, 0.0, 0.3) };
        let rho = uniform(&mut r, 1.2 * (w + radius), l);
        let lever = (rho * rho - (w + radius).powi(2)).sqrt();
        let phi0 = ((w + radius) / rho).asin();
        let phi = uniform(&mut r, phi0 + 0.01, std::f64::consts::FRAC_PI_2);
        if lever > l || lever < 0.05 * l {
            continue;
        }
        cases += 1;
        let omega = log_uniform(&mut r, 0.1, 10.0);
        let drift = DVec2::new(uniform(&mut r, -5.0, 5.0), uniform(&mut r, -5.0, 5.0));
        let centre = DVec2::new(uniform(&mut r, -10.0, 10.0), uniform(&mut r, -10.0, 10.0));
        let plank = Cuboid::new(DVec2::new(l, w)).unwrap();
        let disc = Ball::new(radius).unwrap();
        let spin = Motion::new(Iso::new(Rot2::from_angle(0.0), centre), drift, omega);
        let at = Motion::new(Iso::from_translation(centre + DVec2::new(phi.cos(), phi.sin()) * rho), drift, 0.0);
        let exact = (phi - phi0) / omega;
        let c = time_of_impact(&plank, &spin, &disc, &at, &opts(10.0 / omega));
        let size = 2.0 * DVec2::new(l, w).length();
        let what = format!("plank {l} × {w}, ω {omega}, disc r {radius} at ρ {rho} φ {phi}: {c:?}, exact {exact}");
        let late = c.toi - exact;
        worst_late = worst_late.max(late / exact);
        assert!(late <= 1e-12 * exact, "after the contact: {what}");
        // At the iteration cap the cast is undecided: no hit, and the time reached, which is never late.
        if c.status == gjk::Status::MaxIterations {
            assert!(!c.hit, "{what}");
            capped += 1;
            continue;
        }
        assert!(c.hit && c.status == gjk::Status::Converged, "{what}");
        let early_allowed = 2.0 * 1e-10 * size / (omega * lever) + 1e-12 * exact;
        worst_early = worst_early.max(-late / early_allowed);
        assert!(-late <= early_allowed, "too early: {what}");
        assert!((c.normal.length() - 1.0).abs() <= 1e-12, "{what}");
    }
    println!(
        "rotating plank (2D): {cases} cases ({capped} at the iteration cap); earliest answer at {worst_early:.2} of \
         the allowed margin, latest {worst_late:.1e} · toi after the contact"
    );
    // The cap is reached when the contact's lever is short against the plank's bounding radius (slow, linear
    // advancement); with levers of 5% to 100% of L, most cases must converge.
    assert!(capped < cases / 10, "{capped} of {cases} cases at the iteration cap");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 4: invariances.

/// Scaling both velocities by k divides toi by k (and max_toi with it). The iterates of the cast are the same
/// points in scaled time, so the answers differ by rounding only: |k · toi_k − toi| · closing ≤ 64 eps · size.
/// Hit/miss must agree except where the reference itself is ambiguous (1e-9 · size).
#[test]
fn linear_cast_velocity_scaling() {
    let mut r = rng(0x5eed_0040);
    let mut fails = Failures::default();
    let mut worst = 0.0f64;
    for _ in 0..600 {
        let p = random_hull_pair(&mut r);
        let diffs = p.differences();
        let size = diffs.iter().fold(0.0f64, |m, d| m.max(d.length()));
        let base = p.cast(1.0, DVec3::ZERO);
        let v_rel = p.vb - p.va;
        for k in [2.0, 0.5, 3.0, 1e-3, 1e3] {
            let c = p.cast(k, DVec3::ZERO);
            if c.hit != base.hit {
                let planes = hull_planes(&diffs, &mut fails);
                let grown =
                    ray_answer(planes_span(&planes, DVec3::ZERO, v_rel, 1e-9 * size), p.max_toi * (1.0 + 1e-9), true);
                let shrunk =
                    ray_answer(planes_span(&planes, DVec3::ZERO, v_rel, -1e-9 * size), p.max_toi * (1.0 - 1e-9), true);
                if grown.is_some() == shrunk.is_some() {
                    fails.push("scaling: hit/miss changed".into(), format!("k {k}: {base:?} vs {c:?}: {}", p.scene()));
                }
                continue;
            }
            if !c.hit || base.toi == 0.0 {
                continue;
            }
            let closing = -base.normal.dot(v_rel);
            let e = (c.toi * k - base.toi).abs() * closing;
            worst = worst.max(e / size);
            if e > 64.0 * f64::EPSILON * size + 1e-12 * base.toi * closing {
                fails.push(
                    "scaling: toi not divided by k".into(),
                    format!("k {k}: {} vs {}: {}", c.toi * k, base.toi, p.scene()),
                );
            }
        }
    }
    println!("velocity scaling: largest |k·toi_k − toi|·closing = {worst:.2e} · size");
    fails.check("velocity scaling");
}

/// Moving the whole scene by 1e4 and 1e6: the poses are rounded to ulp(offset) (1.5e-12 and 1.2e-10 per
/// coordinate), which moves B relative to A by up to δ = 2·√3·ulp; the contact time moves by δ / closing speed,
/// plus the cast's own tolerance (64 eps · size / closing). Normals (unique contacts) move by δ / size.
#[test]
fn linear_cast_translation_invariance() {
    let mut r = rng(0x5eed_0041);
    let mut fails = Failures::default();
    let mut worst = [0.0f64; 2];
    let dir = DVec3::new(1.0, -2.0, 3.0).normalize();
    for _ in 0..600 {
        let p = random_hull_pair(&mut r);
        let diffs = p.differences();
        let size = diffs.iter().fold(0.0f64, |m, d| m.max(d.length()));
        let base = p.cast(1.0, DVec3::ZERO);
        let v_rel = p.vb - p.va;
        for (j, offset) in [1e4, 1e6].into_iter().enumerate() {
            let c = p.cast(1.0, dir * offset);
            let ulp = f64::EPSILON * (offset + 10.0);
            let delta = 2.0 * 3f64.sqrt() * ulp;
            if c.hit != base.hit {
                let planes = hull_planes(&diffs, &mut fails);
                let grown = ray_answer(
                    planes_span(&planes, DVec3::ZERO, v_rel, delta + 1e-9 * size),
                    p.max_toi * (1.0 + 1e-9),
                    true,
                );
                let shrunk = ray_answer(
                    planes_span(&planes, DVec3::ZERO, v_rel, -delta - 1e-9 * size),
                    p.max_toi * (1.0 - 1e-9),
                    true,
                );
                if grown.is_some() == shrunk.is_some() {
                    fails.push(
                        "translation: hit/miss changed".into(),
                        format!("offset {offset}: {base:?} vs {c:?}: {}", p.scene()),
                    );
                }
                continue;
            }
            if !c.hit || base.toi == 0.0 || c.toi == 0.0 {
                continue;
            }
            let closing = -base.normal.dot(v_rel);
            let e = (c.toi - base.toi).abs() * closing;
            worst[j] = worst[j].max(e / delta);
            if e > 2.0 * delta + 64.0 * f64::EPSILON * size {
                fails.push(
                    "translation: toi moved".into(),
                    format!("offset {offset}: {} vs {}, closing {closing}: {}", c.toi, base.toi, p.scene()),
                );
            }
            let shift = (c.point_a - dir * offset) - base.point_a;
            if shift.length() > 2.0 * delta + 1e-9 * size + (c.toi - base.toi).abs() * p.va.length() {
                fails.push("translation: witness moved".into(), format!("offset {offset}: {base:?} vs {c:?}"));
            }
            if !is_unit(c.normal) {
                fails.push("translation: normal not unit".into(), format!("{c:?}"));
            }
        }
    }
    println!(
        "translation: largest toi change · closing = {:.2} δ at 1e4, {:.2} δ at 1e6 (δ = 2√3·ulp(offset))",
        worst[0], worst[1]
    );
    fails.check("translation invariance");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 5: tunnelling. Fast bullets against thin walls over one 1/60 s step.
//
// Closed form (Minkowski view): the bullet's centre moves along a segment; a ball of radius r hits the wall iff the
// segment meets the wall grown by r (a rounded box). That rounded box contains each of the three boxes grown by r
// along one axis only, and is contained in the box grown by r along all three; so the segment must hit when it
// meets any single-axis box (its entry time is then an upper bound on toi), and must miss when it misses the
// all-axes box (whose entry time is a lower bound). A cube bullet of half-size s turning at any rate contains the
// ball of radius s and is contained in the ball of radius s·√3: the same test with those two radii.

const STEP: f64 = 1.0 / 60.0;
const BULLETS: usize = 10_000;

struct Shot {
    wall: Cuboid<DVec3>,
    wall_pose: Iso<DVec3>,
    start: DVec3,
    velocity: DVec3,
}

/// A wall 1e-3 to 1e-2 thick (local x), 0.2 to 2 wide, randomly oriented; a bullet at 100 to 1000 units per
/// second (half of the shots) or 100 to 1000 units per step (6e3 to 6e4 units per second, the other half),
/// starting between 10% and 90% of one step's travel away and aimed within 1.5 wall sizes of the centre.
fn random_shot(r: &mut SmallRng, keep_out: f64) -> Shot {
    loop {
        let h = DVec3::new(uniform(r, 0.5e-3, 0.5e-2), uniform(r, 0.2, 2.0), uniform(r, 0.2, 2.0));
        let wall_pose = random_pose(r, 10.0);
        let speed = uniform(r, 100.0, 1000.0) * if r.gen() { 1.0 } else { 1.0 / STEP };
        let dir = unit3(r);
        let aim = wall_pose.transform_point(DVec3::new(0.0, uniform(r, -1.5, 1.5) * h.y, uniform(r, -1.5, 1.5) * h.z));
        let start = aim - dir * speed * STEP * uniform(r, 0.1, 0.9);
        // Start outside the wall grown by the bullet's largest radius (no initial contact).
        let local = wall_pose.rotation.inverse() * (start - wall_pose.translation);
        if (0..3).any(|i| local[i].abs() > h[i] + keep_out) {
            return Shot { wall: Cuboid::new(h).unwrap(), wall_pose, start, velocity: dir * speed };
        }
    }
}

/// (must hit with an entry no later than `upper`, must miss, entry no earlier than `lower`) for a bullet whose
/// shape contains the ball of radius r_in and is inside the ball of radius r_out.
fn shot_bounds(s: &Shot, r_in: f64, r_out: f64) -> (Option<f64>, bool, f64) {
    let h = s.wall.half_extents;
    let entry = |grow: DVec3| {
        ray_answer(posed_span(&s.wall_pose, s.start, s.velocity, |o, d| box_span(o, d, h + grow)), STEP, true)
            .map(|a| a.0)
    };
    let upper = (0..3)
        .filter_map(|i| entry(DVec3::AXES[i] * r_in))
        .fold(None, |m: Option<f64>, t| Some(m.map_or(t, |m| m.min(t))));
    let lower = entry(DVec3::splat(r_out));
    (upper, lower.is_none(), lower.unwrap_or(INF))
}

#[derive(Default)]
struct Tunnelling {
    must_hit: usize,
    missed: usize,
    must_miss: usize,
    false_hits: usize,
    undecided: usize,
    outside_bounds: usize,
}

impl Tunnelling {
    /// Tallies one cast against the bounds; times within 1e-9 relative (plus 1e-12 s) count as inside them.
    fn add(
        &mut self,
        c: &Cast<DVec3>,
        (upper, must_miss, lower): (Option<f64>, bool, f64),
        fails: &mut Failures,
        what: &dyn Fn() -> String,
    ) {
        match (upper, must_miss) {
            (Some(upper), _) => {
                self.must_hit += 1;
                if !c.hit {
                    self.missed += 1;
                    fails.push("tunnelling: missed a hit".into(), what());
                } else if c.toi > upper * (1.0 + 1e-9) + 1e-12 || c.toi < lower * (1.0 - 1e-9) - 1e-12 {
                    self.outside_bounds += 1;
                    fails.push(
                        "tunnelling: toi outside the bounds".into(),
                        format!("{} not in [{lower}, {upper}]: {}", c.toi, what()),
                    );
                }
            }
            (None, true) => {
                self.must_miss += 1;
                if c.hit {
                    self.false_hits += 1;
                    fails.push("tunnelling: hit where it must miss".into(), what());
                }
            }
            (None, false) => self.undecided += 1,
        }
    }
    fn print(&self, name: &str) {
        println!(
            "{name}: {BULLETS} bullets: {} must hit, {} missed (tunnelled); {} must miss, {} hit anyway; {} toi outside \
             the bounds; {} grazing a rounded edge (undecided)",
            self.must_hit, self.missed, self.must_miss, self.false_hits, self.outside_bounds, self.undecided
        );
    }
}

#[test]
fn tunnelling_shape_cast_fast_balls_thin_walls() {
    let mut r = rng(0x5eed_0050);
    let mut fails = Failures::default();
    let mut t = Tunnelling::default();
    for i in 0..BULLETS {
        // A third are points (radius 0), the rest balls of radius 1e-4 to 0.05.
        let radius = if i % 3 == 0 { 0.0 } else { log_uniform(&mut r, 1e-4, 0.05) };
        let s = random_shot(&mut r, radius);
        let bullet = Ball::new(radius).unwrap();
        let c = shape_cast(
            &bullet,
            &Iso::from_translation(s.start),
            s.velocity,
            &s.wall,
            &s.wall_pose,
            DVec3::ZERO,
            &opts(STEP),
        );
        let what = || {
            format!(
                "radius {radius:?} from {:?} at {:?}, wall {:?} at {:?}: {c:?}",
                s.start, s.velocity, s.wall, s.wall_pose
            )
        };
        t.add(&c, shot_bounds(&s, radius, radius), &mut fails, &what);
    }
    t.print("shape_cast");
    assert!(t.must_hit > BULLETS / 3, "the setup must produce many hits");
    assert_eq!(t.missed, 0, "tunnelled bullets");
    fails.check("tunnelling (shape_cast)");
}

#[test]
fn tunnelling_time_of_impact_spinning_bullets() {
    let mut r = rng(0x5eed_0051);
    let mut fails = Failures::default();
    let mut t = Tunnelling::default();
    for i in 0..BULLETS {
        // Spinning at up to 100 rad/s: half are balls, half small cubes.
        let spin = unit3(&mut r) * uniform(&mut r, 0.0, 100.0);
        let cube = i % 2 == 0;
        let size = log_uniform(&mut r, 1e-3, 0.02);
        let (r_in, r_out) = if cube { (size, size * 3f64.sqrt()) } else { (size, size) };
        let s = random_shot(&mut r, r_out);
        let bullet: AnyShape =
            if cube { Box::new(Cuboid::new(DVec3::splat(size)).unwrap()) } else { Box::new(Ball::new(size).unwrap()) };
        let motion = Motion::new(Iso::new(unit_quat(&mut r), s.start), s.velocity, spin);
        let wall = Motion::new(s.wall_pose, DVec3::ZERO, DVec3::ZERO);
        let c = time_of_impact(&*bullet, &motion, &s.wall, &wall, &opts(STEP));
        let what = || {
            format!(
                "{} {size:?} spin {spin:?} from {:?} at {:?}, wall {:?} at {:?}: {c:?}",
                if cube { "cube" } else { "ball" },
                s.start,
                s.velocity,
                s.wall,
                s.wall_pose
            )
        };
        // Conservative advancement stops within its tolerance, 1e-10 · (the larger shape's diameter), before
        // contact: the lower bound is taken for the bullet grown by that much.
        let tol = 1e-10 * 2.0 * s.wall.half_extents.length().max(r_out * 2.0);
        let (upper, must_miss, _) = shot_bounds(&s, r_in, r_out);
        let (_, _, lower) = shot_bounds(&s, r_in, r_out + tol);
        t.add(&c, (upper, must_miss, lower), &mut fails, &what);
    }
    t.print("time_of_impact");
    assert!(t.must_hit > BULLETS / 3, "the setup must produce many hits");
    assert_eq!(t.missed, 0, "tunnelled bullets");
    fails.check("tunnelling (time_of_impact)");
}

// ---------------------------------------------------------------------------------------------------------------
// Part 6: initial overlap.

fn ignoring(max_toi: f64) -> CastOptions<f64> {
    CastOptions { max_toi, ignore_initial_overlap_when_separating: true, ..CastOptions::default() }
}

fn still(pose: Iso<DVec3>) -> Motion<DVec3> {
    Motion::new(pose, DVec3::ZERO, DVec3::ZERO)
}

/// Pairs of overlapping shapes (B's centre 1.0 from A's), cores overlapping or not.
fn overlapping_pairs() -> Vec<(String, AnyShape, AnyShape)> {
    let make = |i: usize| -> AnyShape {
        match i {
            0 => Box::new(Cuboid::new(DVec3::ONE).unwrap()),
            1 => Box::new(Ball::new(0.7).unwrap()),
            2 => Box::new(Capsule::new(0.5, 0.6).unwrap()),
            _ => Box::new(ConvexPolytope::new(&corners(DVec3::new(1.0, 0.5, 0.8))).unwrap()),
        }
    };
    let names = ["cube", "ball", "capsule", "hull"];
    (0..4)
        .flat_map(|i| (0..4).map(move |j| (i, j)))
        .map(|(i, j)| (format!("{} vs {}", names[i], names[j]), make(i), make(j)))
        .collect()
}

const OVERLAP_A: Iso<DVec3> = Iso { rotation: DQuat::IDENTITY, translation: DVec3::new(0.1, -0.2, 0.3) };

fn overlap_b() -> Iso<DVec3> {
    Iso::new(DQuat::from_rotation_y(0.2), OVERLAP_A.translation + DVec3::new(1.0, 0.05, -0.1))
}

/// Seen: with the option, a ball or capsule overlapping a box (or hull) and moving straight into it is reported as
/// no hit when the overlap is deep enough that the distance query stops early (as soon as the cores are within
/// the sum of the radii, or overlap): its normal is then the search direction of that moment, not the contact
/// normal, and `separating` trusts it. Minimal case: cube of half-size 1 at the origin, ball of radius 0.5 at
/// (0.9, 0.05, 0) moving (−2, 0, 0): no hit.
#[test]
fn initial_overlap_shape_cast() {
    let (pa, pb) = (OVERLAP_A, overlap_b());
    let mut bad = Vec::new();
    for (what, a, b) in overlapping_pairs() {
        let (a, b) = (&*a, &*b);
        let pen = gjk::penetration(a, &pa, b, &pb);
        assert!(pen.intersecting, "{what}: the setup must overlap");
        let n = pen.normal;
        for (v, label) in
            [(n * 2.0, "apart"), (-n * 2.0, "in"), (DVec3::ZERO, "at rest"), (n.any_orthonormal_vector(), "sideways")]
        {
            // Without the option: always a hit at 0, whichever way they move.
            let c = shape_cast(a, &pa, DVec3::ZERO, b, &pb, v, &opts(10.0));
            assert!(c.hit && c.toi == 0.0, "{what}, {label}: {c:?}");
        }
        // With it: moving apart along the penetration normal is no hit; moving in is a hit at 0; both moving: A
        // catching up with B is a hit, both moving apart is not.
        for (va, vb, hit, label) in [
            (DVec3::ZERO, n * 2.0, false, "B moving apart"),
            (DVec3::ZERO, -n * 2.0, true, "B moving in"),
            (n * 3.0, n * 1.0, true, "A catching up with B"),
            (-n * 1.0, n * 1.0, false, "both moving apart"),
        ] {
            let c = shape_cast(a, &pa, va, b, &pb, vb, &ignoring(10.0));
            if c.hit != hit || (hit && c.toi != 0.0) || c.status != gjk::Status::Converged {
                bad.push(format!("{what}: {label}: {c:?}"));
            }
        }
    }
    // The minimal case.
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let ball = Ball::new(0.5).unwrap();
    let c = shape_cast(
        &cube,
        &Iso::identity(),
        DVec3::ZERO,
        &ball,
        &Iso::from_translation(DVec3::new(0.9, 0.05, 0.0)),
        DVec3::new(-2.0, 0.0, 0.0),
        &ignoring(10.0),
    );
    if !c.hit {
        bad.push(format!("minimal case: ball at (0.9, 0.05, 0) moving −x into the cube: {c:?}"));
    }
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(
        bad.is_empty(),
        "{} wrong answers with ignore_initial_overlap_when_separating, first: {}",
        bad.len(),
        bad[0]
    );
}

/// Random rounded shapes (balls, capsules, rounded hulls) overlapping boxes and hulls, from barely to deeply:
/// moving in within 45° of the penetration normal must be a hit at 0 with the option, moving out within 45° must
/// not (see `initial_overlap_shape_cast` for what goes wrong).
#[test]
fn initial_overlap_rounded_shapes_random() {
    let mut r = rng(0x5eed_0061);
    let (mut tested, mut wrong_in, mut wrong_out) = (0, 0, 0);
    let mut first = None;
    while tested < 1000 {
        let a: AnyShape = if r.gen() {
            Box::new(
                Cuboid::new(DVec3::new(
                    uniform(&mut r, 0.3, 2.0),
                    uniform(&mut r, 0.3, 2.0),
                    uniform(&mut r, 0.3, 2.0),
                ))
                .unwrap(),
            )
        } else {
            Box::new(random_hull(&mut r, 1.0))
        };
        let radius = uniform(&mut r, 0.1, 1.0);
        let b: AnyShape = match r.gen_range(0..3) {
            0 => Box::new(Ball::new(radius).unwrap()),
            1 => Box::new(Capsule::new(uniform(&mut r, 0.1, 1.0), radius).unwrap()),
            _ => Box::new(Rounded::new(random_hull(&mut r, 0.5), radius).unwrap()),
        };
        let pa = random_pose(&mut r, 2.0);
        let pb = Iso::new(unit_quat(&mut r), pa.translation + in_cube(&mut r, 2.0));
        let pen = gjk::penetration(&*a, &pa, &*b, &pb);
        if !pen.intersecting || pen.depth < 1e-3 {
            continue;
        }
        tested += 1;
        let n = pen.normal;
        let tilt = n.any_orthonormal_vector() * uniform(&mut r, -1.0, 1.0);
        let speed = uniform(&mut r, 0.1, 10.0);
        let into = shape_cast(&*a, &pa, DVec3::ZERO, &*b, &pb, (tilt - n) * speed, &ignoring(INF));
        let out = shape_cast(&*a, &pa, DVec3::ZERO, &*b, &pb, (n + tilt) * speed, &ignoring(INF));
        if !(into.hit && into.toi == 0.0) {
            wrong_in += 1;
            first.get_or_insert_with(|| format!("moving in, depth {}: {into:?}", pen.depth));
        }
        if out.hit {
            wrong_out += 1;
            first.get_or_insert_with(|| format!("moving out, depth {}: {out:?}", pen.depth));
        }
    }
    println!("rounded overlaps: {tested} cases, {wrong_in} moving in without a hit, {wrong_out} moving out with a hit");
    assert!(wrong_in == 0 && wrong_out == 0, "first: {}", first.unwrap_or_default());
}

/// The same with `time_of_impact`. Seen: with the option, shapes whose cores overlap (cube, hull) report no hit
/// even when moving into each other: the distance query's normal is zero there, so the closing-speed bound is 0
/// and "not approaching" is concluded (`shape_cast` falls back to the penetration normal instead).
#[test]
fn initial_overlap_time_of_impact() {
    let (pa, pb) = (OVERLAP_A, overlap_b());
    let mut bad = Vec::new();
    for (what, a, b) in overlapping_pairs() {
        let (a, b) = (&*a, &*b);
        let n = gjk::penetration(a, &pa, b, &pb).normal;
        for (v, label) in [(n * 2.0, "apart"), (-n * 2.0, "in"), (DVec3::ZERO, "at rest")] {
            let m = time_of_impact(a, &still(pa), b, &Motion::new(pb, v, DVec3::ZERO), &opts(10.0));
            assert!(m.hit && m.toi == 0.0, "{what}, {label}: {m:?}");
        }
        let apart = time_of_impact(a, &still(pa), b, &Motion::new(pb, n * 2.0, DVec3::ZERO), &ignoring(10.0));
        if apart.hit {
            bad.push(format!("{what}: moving apart: {apart:?}"));
        }
        let into = time_of_impact(a, &still(pa), b, &Motion::new(pb, -n * 2.0, DVec3::ZERO), &ignoring(10.0));
        if !(into.hit && into.toi == 0.0) {
            bad.push(format!("{what}: moving in: {into:?}"));
        }
    }
    for b in &bad {
        eprintln!("{b}");
    }
    assert!(
        bad.is_empty(),
        "{} wrong answers with ignore_initial_overlap_when_separating, first: {}",
        bad.len(),
        bad[0]
    );
}

/// Random overlapping hull pairs: moving apart along the penetration normal (and within 60° of it) is no hit with
/// the option; moving in is a hit at 0.
#[test]
fn initial_overlap_random_hulls() {
    let mut r = rng(0x5eed_0060);
    let mut tested = 0;
    while tested < 500 {
        let (a, b) = (random_hull(&mut r, 1.0), random_hull(&mut r, 1.0));
        let pa = random_pose(&mut r, 2.0);
        let pb = Iso::new(unit_quat(&mut r), pa.translation + in_cube(&mut r, 0.5));
        let pen = gjk::penetration(&a, &pa, &b, &pb);
        if !pen.intersecting || pen.depth < 1e-3 {
            continue;
        }
        tested += 1;
        let n = pen.normal;
        let tilt = n.any_orthonormal_vector() * uniform(&mut r, -1.7, 1.7);
        let apart = (n + tilt) * uniform(&mut r, 0.1, 10.0);
        let c = shape_cast(&a, &pa, DVec3::ZERO, &b, &pb, apart, &ignoring(INF));
        assert!(!c.hit, "moving apart: {c:?}");
        let c = shape_cast(&a, &pa, -apart * 0.5, &b, &pb, apart * 0.5, &ignoring(INF));
        assert!(!c.hit, "both moving apart: {c:?}");
        let c = shape_cast(&a, &pa, DVec3::ZERO, &b, &pb, -apart, &ignoring(INF));
        assert!(c.hit && c.toi == 0.0, "moving in: {c:?}");
        let c = shape_cast(&a, &pa, DVec3::ZERO, &b, &pb, apart, &opts(INF));
        assert!(c.hit && c.toi == 0.0, "without the option: {c:?}");
    }
}

/// Exactly touching (distance 0, exact in floating point) and sliding along the contact face: with the option it
/// is no hit (the bodies may slide), and it returns at once; without it, a hit at 0. Also at a target distance
/// (a character's skin): resting exactly at the skin and sliding is no hit with the option.
#[test]
fn touching_and_sliding_along_a_face() {
    let cube = Cuboid::new(DVec3::ONE).unwrap();
    let hull = ConvexPolytope::new(&corners(DVec3::ONE)).unwrap();
    let capsule = Capsule::new(0.5, 0.25).unwrap();
    let floor = Cuboid::new(DVec3::new(10.0, 1.0, 10.0)).unwrap();
    // Cube on cube, face x = 1 against face x = 1; hull on hull; capsule standing on the floor (top at y = 0).
    type Case<'a> = (&'a str, &'a dyn SupportMap<DVec3>, Iso<DVec3>, &'a dyn SupportMap<DVec3>, Iso<DVec3>, DVec3);
    let cases: [Case; 4] = [
        (
            "cube|cube",
            &cube,
            Iso::identity(),
            &cube,
            Iso::from_translation(DVec3::new(2.0, 0.25, -0.5)),
            DVec3::new(0.0, 1.0, 0.5),
        ),
        (
            "hull|hull",
            &hull,
            Iso::identity(),
            &hull,
            Iso::from_translation(DVec3::new(2.0, 0.25, -0.5)),
            DVec3::new(0.0, -3.0, 2.0),
        ),
        (
            "floor|capsule",
            &floor,
            Iso::from_translation(DVec3::new(0.0, -1.0, 0.0)),
            &capsule,
            Iso::from_translation(DVec3::new(0.5, 0.75, 0.25)),
            DVec3::new(2.0, 0.0, -1.0),
        ),
        (
            "capsule|floor",
            &capsule,
            Iso::from_translation(DVec3::new(0.5, 0.75, 0.25)),
            &floor,
            Iso::from_translation(DVec3::new(0.0, -1.0, 0.0)),
            DVec3::new(2.0, 0.0, -1.0),
        ),
    ];
    for (what, a, pa, b, pb, slide) in cases {
        let d = gjk::distance(a, &pa, b, &pb);
        assert!(d.distance == 0.0, "{what}: the setup must touch: {d:?}");
        for (va, vb) in [(DVec3::ZERO, slide), (slide, DVec3::ZERO), (slide * 0.5, -slide * 0.5)] {
            let c = shape_cast(a, &pa, va, b, &pb, vb, &ignoring(10.0));
            assert!(!c.hit, "{what}: sliding with the option must not hit: {c:?}");
            assert!(c.iterations <= 4 && c.status == gjk::Status::Converged, "{what}: must not loop: {c:?}");
            let c = shape_cast(a, &pa, va, b, &pb, vb, &opts(10.0));
            assert!(c.hit && c.toi == 0.0, "{what}: without the option, touching is a hit at 0: {c:?}");
            let m = time_of_impact(
                a,
                &Motion::new(pa, va, DVec3::ZERO),
                b,
                &Motion::new(pb, vb, DVec3::ZERO),
                &ignoring(10.0),
            );
            assert!(!m.hit && m.iterations <= 4, "{what}: sliding (time_of_impact): {m:?}");
        }
    }
    // The capsule resting at the skin distance 0.01 above the floor (0.75 + 0.01 is not exact in binary: the
    // skin is measured, not assumed) and sliding.
    let pose = Iso::from_translation(DVec3::new(0.0, 0.76, 0.0));
    let floor_pose = Iso::from_translation(DVec3::new(0.0, -1.0, 0.0));
    let gap = gjk::distance(&capsule, &pose, &floor, &floor_pose).distance;
    let skin = CastOptions { target_distance: gap, ..ignoring(10.0) };
    let c = shape_cast(&capsule, &pose, DVec3::new(1.0, 0.0, 0.3), &floor, &floor_pose, DVec3::ZERO, &skin);
    assert!(!c.hit && c.iterations <= 4, "sliding at the skin: {c:?}");
    let c = shape_cast(&capsule, &pose, DVec3::new(1.0, 0.1, 0.3), &floor, &floor_pose, DVec3::ZERO, &skin);
    assert!(!c.hit, "lifting off at the skin: {c:?}");
    let c = shape_cast(&capsule, &pose, DVec3::new(1.0, -0.1, 0.3), &floor, &floor_pose, DVec3::ZERO, &skin);
    assert!(c.hit && c.toi == 0.0, "pressing into the skin: {c:?}");
    // Moving down from above the skin: stops at the skin.
    let high = Iso::from_translation(DVec3::new(0.0, 2.0, 0.0));
    let skin = CastOptions { target_distance: 0.01, ..ignoring(10.0) };
    let c = shape_cast(&capsule, &high, DVec3::new(0.5, -2.0, 0.0), &floor, &floor_pose, DVec3::ZERO, &skin);
    assert!(c.hit && (c.toi - (1.25 - 0.01) / 2.0).abs() <= 1e-12, "down to the skin: {c:?}");
    assert!(
        ((c.point_b - c.point_a).length() - 0.01).abs() <= 1e-12 && (c.normal + DVec3::Y).length() <= 1e-12,
        "{c:?}"
    );
}

// ---------------------------------------------------------------------------------------------------------------
// Part 7: differential against parry3d-f64 (its types are glam 0.33 through glamx: converted by components).
//
// Agreement: hit/miss equal and times within 1e-6 relative (|Δt|·|v| ≤ 1e-6 · max(t·|v|, size)). Each
// disagreement is decided by a reference: the closed forms of Part 1 (rays vs ball, box, capsule, cylinder, hull;
// sweeps of two balls; sweeps of two polytopes through the Minkowski difference), else by bracketing with both
// libraries' distance queries (a time is right when both say apart at t − ε and overlapping at t + ε, ε = 1e-7
// relative; wrong when both say overlapping at t − ε, or apart at t + ε). We fail when we are wrong against a
// reference, or when nothing decides a disagreement.

mod parry {
    pub use parry3d_f64::math::{Pose, Rotation, Vector};
    pub use parry3d_f64::query::{cast_shapes, intersection_test, Ray, ShapeCastOptions};
    pub use parry3d_f64::shape::{Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, Shape};
}

fn pv(v: DVec3) -> parry::Vector {
    parry::Vector::new(v.x, v.y, v.z)
}

fn ppose(p: &Iso<DVec3>) -> parry::Pose {
    let q = p.rotation;
    parry::Pose::from_parts(pv(p.translation), parry::Rotation::from_xyzw(q.x, q.y, q.z, q.w))
}

#[derive(Clone, Debug)]
enum Shared {
    Ball(f64),
    Cuboid(DVec3),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Hull(Vec<DVec3>),
}

impl Shared {
    fn random(r: &mut SmallRng) -> Self {
        let s = |r: &mut SmallRng| log_uniform(r, 0.2, 2.0);
        match r.gen_range(0..6) {
            0 => Shared::Ball(s(r)),
            1 => Shared::Cuboid(DVec3::new(s(r), s(r), s(r))),
            2 => Shared::Capsule(s(r), s(r) * 0.5),
            3 => Shared::Cylinder(s(r), s(r)),
            4 => Shared::Cone(s(r), s(r)),
            _ => {
                let size = s(r);
                Shared::Hull(random_hull(r, size).vertices().to_vec())
            }
        }
    }
    fn ours(&self) -> AnyShape {
        match self {
            Shared::Ball(r) => Box::new(Ball::new(*r).unwrap()),
            Shared::Cuboid(h) => Box::new(Cuboid::new(*h).unwrap()),
            Shared::Capsule(hh, r) => Box::new(Capsule::new(*hh, *r).unwrap()),
            Shared::Cylinder(hh, r) => Box::new(Cylinder::new(*hh, *r).unwrap()),
            Shared::Cone(hh, r) => Box::new(Cone::new(*hh, *r).unwrap()),
            Shared::Hull(p) => Box::new(ConvexPolytope::new(p).unwrap()),
        }
    }
    fn parry(&self) -> Box<dyn parry::Shape> {
        match self {
            Shared::Ball(r) => Box::new(parry::Ball::new(*r)),
            Shared::Cuboid(h) => Box::new(parry::Cuboid::new(pv(*h))),
            Shared::Capsule(hh, r) => Box::new(parry::Capsule::new_y(*hh, *r)),
            Shared::Cylinder(hh, r) => Box::new(parry::Cylinder::new(*hh, *r)),
            Shared::Cone(hh, r) => Box::new(parry::Cone::new(*hh, *r)),
            Shared::Hull(p) => {
                let pts: Vec<parry::Vector> = p.iter().map(|v| pv(*v)).collect();
                Box::new(parry::ConvexPolyhedron::from_convex_hull(&pts).unwrap())
            }
        }
    }
    /// Vertices when the shape is a polytope.
    fn vertices(&self) -> Option<Vec<DVec3>> {
        match self {
            Shared::Cuboid(h) => Some(corners(*h).to_vec()),
            Shared::Hull(p) => Some(p.clone()),
            _ => None,
        }
    }
    fn size(&self) -> f64 {
        match self {
            Shared::Ball(r) => *r,
            Shared::Cuboid(h) => h.length(),
            Shared::Capsule(hh, r) => hh + r,
            Shared::Cylinder(hh, r) | Shared::Cone(hh, r) => hh.hypot(*r),
            Shared::Hull(p) => p.iter().fold(0.0f64, |m, v| m.max(v.length())),
        }
    }
    /// The closed-form span of a ray (world) against the shape at `pose`, sizes grown by delta; None when there is
    /// no closed form (cone).
    fn ray_span(&self, pose: &Iso<DVec3>, o: DVec3, d: DVec3, delta: f64) -> Option<Option<Span>> {
        Some(match self {
            Shared::Ball(r) => sphere_span(pose.translation, r + delta, o, d),
            Shared::Cuboid(h) => posed_span(pose, o, d, |o, d| box_span(o, d, *h + DVec3::splat(delta))),
            Shared::Capsule(hh, r) => posed_span(pose, o, d, |o, d| capsule_span(o, d, *hh, r + delta)),
            Shared::Cylinder(hh, r) => posed_span(pose, o, d, |o, d| cylinder_span(o, d, hh + delta, r + delta)),
            Shared::Cone(..) => return None,
            Shared::Hull(p) => {
                let mut ignore = Failures::default();
                let planes = hull_planes(p, &mut ignore);
                posed_span(pose, o, d, |o, d| planes_span(&planes, o, d, delta))
            }
        })
    }
}

/// Whether a (hit, toi) answer is right for the line o + t·d against a reference span, within `rel` (forward, or
/// backward: exact for the reference grown or shrunk by rel · size, as in `check_ray`).
fn matches_reference(hit: bool, toi: f64, ray: &Ray, size: f64, rel: f64, span_of: SpanOf) -> bool {
    let dl = ray.d.length();
    let delta = rel * size;
    let exact = ray_answer(span_of(0.0), ray.max_toi, ray.solid);
    let grown = ray_answer(span_of(delta), ray.max_toi + delta / dl, ray.solid);
    let shrunk = ray_answer(span_of(-delta), (ray.max_toi - delta / dl).max(0.0), ray.solid);
    let tol_t = |t: f64| rel * (t * dl).max(size) / dl;
    if !hit {
        return exact.is_none() || grown.is_none() || shrunk.is_none();
    }
    let near = |a: Option<(f64, DVec3, Kind)>| a.is_some_and(|(t, _, _)| (toi - t).abs() <= tol_t(t));
    if near(exact) || near(grown) || near(shrunk) {
        return true;
    }
    // Between the grown and shrunk answers on the same surface (continuity).
    match (grown, shrunk) {
        (Some(g), Some(s)) if g.2 == s.2 => toi >= g.0.min(s.0) - tol_t(toi) && toi <= g.0.max(s.0) + tol_t(toi),
        _ => false,
    }
}

#[derive(Default)]
struct Differential {
    cases: usize,
    hits: usize,
    /// Parry's wrong answers by situation.
    parry_wrong_by: std::collections::BTreeMap<String, usize>,
    disagreements: usize,
    parry_wrong: usize,
    both_acceptable: usize,
    decided_by_bracketing: usize,
}

impl Differential {
    fn parry_wrong(&mut self, situation: String, details: String) {
        self.parry_wrong += 1;
        let n = self.parry_wrong_by.entry(situation.clone()).or_default();
        *n += 1;
        if *n == 1 {
            println!("parry wrong ({situation}), first case: {details}");
        }
    }
    fn print(&self, name: &str) {
        println!(
            "parry {name}: {} cases ({} hits), {} disagreements beyond 1e-6: parry wrong {}, both acceptable \
             (ill-conditioned) {}; {} of them decided by bracketing with both libraries",
            self.cases,
            self.hits,
            self.disagreements,
            self.parry_wrong,
            self.both_acceptable,
            self.decided_by_bracketing
        );
        for (situation, n) in &self.parry_wrong_by {
            println!("parry {name}: parry wrong {n} x {situation}");
        }
    }
}

#[test]
fn parry_differential_ray_casts() {
    let mut r = rng(0x5eed_0070);
    let mut fails = Failures::default();
    let mut stats = Differential::default();
    let mut normal_disagreements = 0;
    for _ in 0..3000 {
        let shape = Shared::random(&mut r);
        let size = shape.size();
        let pose = random_pose(&mut r, 3.0);
        let inside = r.gen::<f64>() < 0.15;
        let o = if inside {
            pose.translation + in_cube(&mut r, 0.1 * size)
        } else {
            pose.translation + unit3(&mut r) * 4.0 * size
        };
        let d = (pose.translation + in_cube(&mut r, size) - o).normalize_or(DVec3::X) * log_uniform(&mut r, 0.1, 10.0);
        let max_toi = if r.gen::<f64>() < 0.7 { INF } else { uniform(&mut r, 0.0, 8.0 * size / d.length()) };
        let solid = r.gen();
        let ours = ray_cast(&*shape.ours(), &pose, o, d, max_toi, solid);
        let kind = format!("{shape:?}");
        let situation = format!(
            "{}, {}, {}",
            &kind[..kind.find('(').unwrap_or(kind.len())],
            if solid { "solid" } else { "hollow" },
            if inside { "from inside" } else { "from outside" }
        );
        let theirs = shape.parry().cast_ray_and_get_normal(
            &ppose(&pose),
            &parry::Ray::new(pv(o), pv(d)),
            if max_toi.is_finite() { max_toi } else { f64::MAX },
            solid,
        );
        stats.cases += 1;
        stats.hits += usize::from(ours.hit);
        let what = || {
            format!("{shape:?} at {pose:?}, o {o:?} d {d:?} max_toi {max_toi} solid {solid}: ours {ours:?}, parry {theirs:?}")
        };
        let (p_hit, p_toi) = theirs.map_or((false, INF), |h| (true, h.time_of_impact));
        let dl = d.length();
        let agree = ours.hit == p_hit && (!p_hit || (ours.toi - p_toi).abs() * dl <= 1e-6 * (ours.toi * dl).max(size));
        if agree && ours.hit && ours.toi > 0.0 {
            let pn = theirs.unwrap().normal;
            if (ours.normal - DVec3::new(pn.x, pn.y, pn.z)).length() > 1e-6 {
                normal_disagreements += 1;
            }
        }
        let ray = Ray { o, d, max_toi, solid };
        let ours_rel = 1e-9;
        match shape.ray_span(&pose, o, d, 0.0) {
            Some(_) => {
                let span_of = |delta: f64| shape.ray_span(&pose, o, d, delta).unwrap();
                if !matches_reference(ours.hit, ours.toi, &ray, size, ours_rel, &span_of) {
                    fails.push("parry rays: ours wrong against the closed form".into(), what());
                    continue;
                }
                if agree {
                    continue;
                }
                stats.disagreements += 1;
                if matches_reference(p_hit, p_toi, &ray, size, 1e-6, &span_of) {
                    stats.both_acceptable += 1;
                } else {
                    stats.parry_wrong(situation, what());
                }
            }
            None => {
                if agree {
                    continue;
                }
                // Cone: decide by point containment at t ± ε in both libraries.
                stats.disagreements += 1;
                let (our_shape, their_shape) = (shape.ours(), shape.parry());
                let inside_at = |t: f64| {
                    let p = o + d * t;
                    let a = gjk::intersects(&*our_shape, &pose, &Point::new(p).unwrap(), &Iso::identity());
                    let b = their_shape.contains_point(&ppose(&pose), pv(p));
                    (a == b).then_some(a)
                };
                // Entering from outside: outside at t − ε, inside at t + ε. From inside: t = 0 when solid; the
                // exit when hollow (inside at t − ε, outside at t + ε).
                let origin_inside = inside_at(0.0);
                let right = |hit: bool, t: f64| -> Option<bool> {
                    if !hit {
                        return None;
                    }
                    let eps = 1e-7 * (t + size / dl);
                    let (before, after) = (inside_at((t - eps).max(0.0)), inside_at(t + eps));
                    match (origin_inside?, solid) {
                        (true, true) => Some(t == 0.0),
                        (true, false) => match (before, after) {
                            (Some(true), Some(false)) => Some(true),
                            (Some(false), _) | (_, Some(true)) => Some(false),
                            _ => None,
                        },
                        (false, _) => match (before, after) {
                            (Some(false), Some(true)) => Some(true),
                            (Some(true), _) if t - eps > 0.0 => Some(false),
                            _ => None,
                        },
                    }
                };
                match (right(ours.hit, ours.toi), right(p_hit, p_toi)) {
                    (Some(true), _) | (None, Some(false)) => {
                        stats.decided_by_bracketing += 1;
                        stats.parry_wrong(situation, what());
                    }
                    (Some(false), _) => fails.push("parry rays: ours wrong by bracketing".into(), what()),
                    _ => fails.push("parry rays: undecided disagreement".into(), what()),
                }
            }
        }
    }
    stats.print("ray casts");
    println!("parry ray casts: {normal_disagreements} agreeing hits with normals more than 1e-6 apart");
    fails.check("parry ray casts");
}

#[test]
fn parry_differential_shape_casts() {
    let mut r = rng(0x5eed_0071);
    let mut fails = Failures::default();
    let mut stats = Differential::default();
    for _ in 0..2000 {
        let (sa, sb) = (Shared::random(&mut r), Shared::random(&mut r));
        let size = sa.size() + sb.size();
        let pa = random_pose(&mut r, 3.0);
        let pb = Iso::new(unit_quat(&mut r), pa.translation + unit3(&mut r) * uniform(&mut r, 1.0, 4.0) * size);
        let k = log_uniform(&mut r, 0.1, 10.0);
        let v_rel = (pa.translation + in_cube(&mut r, 0.5 * size) - pb.translation) * k;
        let va = in_cube(&mut r, 2.0);
        let vb = va + v_rel;
        let max_toi = if r.gen::<f64>() < 0.7 { INF } else { uniform(&mut r, 0.0, 2.0) / k };
        let (a, b) = (sa.ours(), sb.ours());
        let (pa_, pb_) = (sa.parry(), sb.parry());
        let ours = shape_cast(&*a, &pa, va, &*b, &pb, vb, &opts(max_toi));
        let options = parry::ShapeCastOptions {
            max_time_of_impact: if max_toi.is_finite() { max_toi } else { f64::MAX },
            ..parry::ShapeCastOptions::default()
        };
        let theirs = parry::cast_shapes(&ppose(&pa), pv(va), &*pa_, &ppose(&pb), pv(vb), &*pb_, options).unwrap();
        stats.cases += 1;
        stats.hits += usize::from(ours.hit);
        let name = |s: &Shared| {
            let k = format!("{s:?}");
            k[..k.find('(').unwrap_or(k.len())].to_string()
        };
        let situation = format!("{} vs {}", name(&sa), name(&sb));
        let what = || {
            format!("{sa:?} at {pa:?} v {va:?}; {sb:?} at {pb:?} v {vb:?}; max_toi {max_toi}: ours {ours:?}, parry {theirs:?}")
        };
        let (p_hit, p_toi) = theirs.map_or((false, INF), |h| (true, h.time_of_impact));
        let vl = v_rel.length();
        let agree = ours.hit == p_hit && (!p_hit || (ours.toi - p_toi).abs() * vl <= 1e-6 * (ours.toi * vl).max(size));
        // References: two balls, or two polytopes (a ray from the origin along v_rel into A − B).
        let ray = Ray { o: DVec3::ZERO, d: v_rel, max_toi, solid: true };
        let reference: Option<Box<dyn Fn(f64) -> Option<Span>>> = match (&sa, &sb, sa.vertices(), sb.vertices()) {
            (Shared::Ball(ra), Shared::Ball(rb), _, _) => {
                let (ra, rb, o) = (*ra, *rb, pb.translation - pa.translation);
                Some(Box::new(move |delta| sphere_span(DVec3::ZERO, ra + rb + delta, o, v_rel)))
            }
            (_, _, Some(va_), Some(vb_)) => {
                let wa: Vec<DVec3> = va_.iter().map(|v| pa.transform_point(*v)).collect();
                let wb: Vec<DVec3> = vb_.iter().map(|v| pb.transform_point(*v)).collect();
                let diffs: Vec<DVec3> = wa.iter().flat_map(|a| wb.iter().map(move |b| *a - *b)).collect();
                let planes = hull_planes(&diffs, &mut fails);
                Some(Box::new(move |delta| planes_span(&planes, DVec3::ZERO, v_rel, delta)))
            }
            _ => None,
        };
        let ours_rel = 1e-9;
        if let Some(span_of) = &reference {
            if !matches_reference(ours.hit, ours.toi, &ray, size, ours_rel, &**span_of) {
                fails.push("parry casts: ours wrong against the reference".into(), what());
                continue;
            }
            if agree {
                continue;
            }
            stats.disagreements += 1;
            if matches_reference(p_hit, p_toi, &ray, size, 1e-6, &**span_of) {
                stats.both_acceptable += 1;
            } else {
                stats.parry_wrong(situation, what());
            }
            continue;
        }
        if agree {
            continue;
        }
        stats.disagreements += 1;
        // Bracketing with both libraries' distance queries.
        let overlap_at = |t: f64| {
            let (qa, qb) =
                (Iso::new(pa.rotation, pa.translation + va * t), Iso::new(pb.rotation, pb.translation + vb * t));
            let ours = gjk::intersects(&*a, &qa, &*b, &qb);
            let theirs = parry::intersection_test(&ppose(&qa), &*pa_, &ppose(&qb), &*pb_).unwrap().intersecting;
            (ours == theirs).then_some(ours)
        };
        let right = |hit: bool, t: f64| -> Option<bool> {
            if !hit {
                return None;
            }
            let eps = 1e-7 * (t + size / vl);
            match (overlap_at((t - eps).max(0.0)), overlap_at(t + eps)) {
                (Some(false), Some(true)) => Some(true),
                (Some(true), _) if t - eps > 0.0 => Some(false),
                (_, Some(false)) => Some(false),
                _ => None,
            }
        };
        stats.decided_by_bracketing += 1;
        if ours.hit {
            match (right(true, ours.toi), right(p_hit, p_toi)) {
                (Some(true), _) => stats.parry_wrong(situation, what()),
                (Some(false), _) | (None, Some(true)) => {
                    fails.push("parry casts: ours wrong by bracketing".into(), what())
                }
                _ => fails.push("parry casts: undecided disagreement".into(), what()),
            }
        } else {
            // We miss, parry hits: a contact near parry's time (both libraries agreeing) means we missed it.
            let eps = 1e-7 * (p_toi + size / vl);
            match (overlap_at((p_toi - eps).max(0.0)), overlap_at(p_toi + eps)) {
                (Some(true), _) | (_, Some(true)) => fails.push("parry casts: we miss a contact".into(), what()),
                (Some(false), Some(false)) => stats.parry_wrong(situation, what()),
                _ => fails.push("parry casts: undecided disagreement".into(), what()),
            }
        }
    }
    stats.print("shape casts");
    fails.check("parry shape casts");
}
