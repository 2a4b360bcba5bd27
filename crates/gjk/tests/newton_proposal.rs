//! GJK's Newton proposal on curved pairs (`gjk/newton.rs`): once a pair with a curved part is proven apart and
//! GJK's duality gap is within a tenth of |v|², Newton's method on the sphere of directions proposes the nearest
//! point, and the run ends there when the point and its own supporting plane meet to GJK's tolerance. The answers
//! must be those of the plain loop — the exact gap of an independent placement (B put so that the supporting planes
//! of A along n and of B along −n are `gap` apart and their support points differ by gap·n: the distance is exactly
//! the gap), the plain loop's distance within both error bounds, witness points on their shapes and paired along
//! the normal — for every 3D family against a curved one, gaps from 1e-6 to 10 times the size, at offsets up to
//! 1e4, f64 and f32; and on smooth pairs the proposal must pay: a few steps where the plain loop takes about 20.

use crate::common::pairs::{build3, resolved, Placement, Spec};
use crate::common::{log_uniform, rng, uniform, unit3, unit_quat, Space3};
use gjk::math::{DVec3, Iso, Real, Vector};
use gjk::shape::SupportMap;
use gjk::{distance, Distance, Status};
use rand::Rng;

/// The shape seen as a polytope: GJK makes no proposal for a pair of these (the plain loop); everything else as the
/// shape's own.
struct Plain<'s, V: Vector>(&'s dyn SupportMap<V>);

impl<V: Vector> SupportMap<V> for Plain<'_, V> {
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn radius(&self) -> V::Real {
        self.0.radius()
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn polyhedral(&self) -> bool {
        true
    }
}

/// A curved shape of about `size` (cylinder, cone or ellipsoid, radii 0.2–1 of it).
fn curved(rng: &mut rand::rngs::SmallRng, size: f64) -> Spec<DVec3> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y, z) = (len(), len(), len());
    match rng.gen_range(0..3) {
        0 => Spec::Cylinder(x, y),
        1 => Spec::Cone(x, y),
        _ => Spec::Ellipsoid(DVec3::new(x, y, z)),
    }
}

/// The support value of `shape` at `pose` along the world direction `d` (its whole shape, radius included).
fn h<V: Vector>(shape: &dyn SupportMap<V>, pose: &Iso<V>, d: V) -> f64 {
    let core = pose.transform_point(shape.support(pose.inverse_transform_vector(d)));
    (core.dot(d) + shape.radius()).to_f64()
}

/// Every answer of a curved pair apart by an exact gap, against the placement and the plain loop.
fn agrees_with_the_plain_loop<V: Space3>(seed: u64, tolerance: f64, proposes: bool) {
    let mut rng = rng(seed);
    let (mut checked, mut proposed) = (0, 0);
    for case in 0..1500 {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let sa = curved(&mut rng, size);
        // B: another curved shape, or any family (a box, a hull, a ball: the proposal is made for the pair).
        let sb = if rng.gen_bool(0.5) { curved(&mut rng, size) } else { crate::common::pairs::spec3(&mut rng, size) };
        let (sa, sb) = if rng.gen_bool(0.5) { (sa, sb) } else { (sb, sa) };
        let offset = [0.0, 10.0, 1e3, 1e4][rng.gen_range(0..4)];
        let gap = size * [1e-6, 1e-4, 1e-2, 0.3, 1.0, 10.0][rng.gen_range(0..6)];
        if !resolved::<V::Real>(gap, size, offset) {
            continue;
        }
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * offset);
        let rot_b = unit_quat(&mut rng);
        let (a64, b64) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a64, &pa, &*b64, rot_b, unit3(&mut rng)));
        let (a, b) = (build3::<V>(&sa), build3::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, gap {gap:e}, offset {offset:e}", V::NAME);
        let d: Distance<V> = distance(&*a, &pa, &*b, &pb);
        let plain: Distance<V> = distance(&Plain(&*a), &pa, &Plain(&*b), &pb);
        assert!(!d.intersecting, "{what}: {d:?}");
        // The placement's own rounding: its points at `offset`, rounded to the precision.
        let placed = 1024.0 * V::Real::EPSILON.to_f64() * (size + offset);
        let (dist, bound) = (d.distance.to_f64(), d.error_bound.to_f64());
        assert!((dist - gap).abs() <= bound + placed + tolerance * size, "{what}: distance {dist:e}; {d:?}");
        let both = bound + plain.error_bound.to_f64() + placed;
        assert!((dist - plain.distance.to_f64()).abs() <= both, "{what}: {d:?}\nplain loop {plain:?}");
        if d.status == Status::Converged && plain.status == Status::Converged {
            checked += 1;
            proposed += usize::from(d.iterations < plain.iterations);
        }
        // The witness points: on their shapes (each on its supporting plane along the normal, to the tolerance of
        // the distance), and apart by the distance along the normal.
        let n = d.normal;
        let slack = bound + placed + tolerance * size;
        let on_a = h(&*a, &pa, n) - d.point_a.dot(n).to_f64();
        let on_b = h(&*b, &pb, -n) + d.point_b.dot(n).to_f64();
        assert!(on_a.abs() <= slack && on_b.abs() <= slack, "{what}: witnesses {on_a:e} {on_b:e} off; {d:?}");
        let apart = (d.point_b - d.point_a).to64() - n.to64() * dist;
        assert!(apart.length() <= slack, "{what}: points not paired along the normal by {:e}; {d:?}", apart.length());
    }
    println!("{}: {checked} converged pairs, {proposed} in fewer steps than the plain loop", V::NAME);
    assert!(checked >= 500, "too few pairs checked: {checked}");
    if proposes {
        assert!(proposed * 4 >= checked, "the proposal must shorten many runs: {proposed} of {checked}");
    } else {
        assert_eq!(proposed, 0, "no proposal at this tolerance: every run is the plain loop's");
    }
}

#[test]
fn curved_pairs_apart_match_the_exact_gap_and_the_plain_loop_f64() {
    agrees_with_the_plain_loop::<DVec3>(901, 1e-9, true);
}

/// f32: the distance to f32's own tolerance (GJK's default relative tolerance there is ~1e-5 of the distance, and
/// the witnesses carry f32 rounding of the size). At that tolerance no proposal is made (Frank–Wolfe's tail is short
/// there: see `PROPOSE_TOLERANCE`), so every run is the plain loop's.
#[test]
fn curved_pairs_apart_match_the_exact_gap_and_the_plain_loop_f32() {
    agrees_with_the_plain_loop::<gjk::math::Vec3>(902, 1e-4, false);
}

/// Two ellipsoids apart by 0.03–3 of their size: the proposal ends the run in a few steps (the plain loop, Frank–
/// Wolfe on a smooth surface, halves its gap a step: about 20 at f64's tolerance).
#[test]
fn smooth_pairs_take_a_few_steps() {
    let mut rng = rng(903);
    let (mut ours, mut plain_steps) = (0, 0);
    for _ in 0..200 {
        let size = 10f64.powf(uniform(&mut rng, -1.0, 1.0));
        let mut axes = || DVec3::new(1.0, 1.0, 1.0).map(|_| log_uniform(&mut rng, 0.3, 1.0) * size);
        let (sa, sb) = (Spec::Ellipsoid(axes()), Spec::Ellipsoid(axes()));
        let gap = size * log_uniform(&mut rng, 0.03, 3.0);
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * 10.0);
        let rot_b = unit_quat(&mut rng);
        let (a, b) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, unit3(&mut rng)));
        let d = distance(&*a, &pa, &*b, &pb);
        let plain = distance(&Plain(&*a), &pa, &Plain(&*b), &pb);
        assert_eq!(d.status, Status::Converged, "{sa:?} vs {sb:?}: {d:?}");
        assert!((d.distance - gap).abs() <= 1e-12 * size, "{sa:?} vs {sb:?}, gap {gap:e}: {d:?}");
        ours += d.iterations;
        plain_steps += plain.iterations;
    }
    println!("iterations: proposed {ours}, plain loop {plain_steps}");
    assert!(ours * 3 <= plain_steps, "proposed runs took {ours} steps, the plain loop {plain_steps}");
}

/// 2D, f64: an ellipse against any 2D family (one tangent direction: Newton's step is a division), apart by an exact
/// gap; the same checks as in 3D.
#[test]
fn ellipses_apart_match_the_exact_gap_and_the_plain_loop_2d() {
    use crate::common::pairs::{build2, spec2};
    use crate::common::unit2;
    use gjk::math::{DVec2, Rot2};
    let mut rng = rng(904);
    let (mut checked, mut shorter) = (0, 0);
    for case in 0..1500 {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let ellipse =
            Spec::Ellipsoid(DVec2::new(log_uniform(&mut rng, 0.2, 1.0), log_uniform(&mut rng, 0.2, 1.0)) * size);
        let other = spec2(&mut rng, size);
        let (sa, sb) = if rng.gen_bool(0.5) { (ellipse, other) } else { (other, ellipse) };
        let offset = [0.0, 10.0, 1e3, 1e4][rng.gen_range(0..4)];
        let gap = size * [1e-6, 1e-4, 1e-2, 0.3, 1.0, 10.0][rng.gen_range(0..6)];
        if !resolved::<f64>(gap, size, offset) {
            continue;
        }
        let pa = Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), unit2(&mut rng) * offset);
        let rot_b = Rot2::from_angle(uniform(&mut rng, -3.2, 3.2));
        let (a, b) = (build2::<DVec2>(&sa), build2::<DVec2>(&sb));
        let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, unit2(&mut rng)));
        let what = format!("case {case}: {sa:?} vs {sb:?}, gap {gap:e}, offset {offset:e}");
        let d = distance(&*a, &pa, &*b, &pb);
        let plain = distance(&Plain(&*a), &pa, &Plain(&*b), &pb);
        let placed = 1024.0 * f64::EPSILON * (size + offset);
        assert!(!d.intersecting, "{what}: {d:?}");
        assert!((d.distance - gap).abs() <= d.error_bound + placed + 1e-9 * size, "{what}: {d:?}");
        let both = d.error_bound + plain.error_bound + placed;
        assert!((d.distance - plain.distance).abs() <= both, "{what}: {d:?}\nplain loop {plain:?}");
        let slack = d.error_bound + placed + 1e-9 * size;
        let (on_a, on_b) =
            (h(&*a, &pa, d.normal) - d.point_a.dot(d.normal), h(&*b, &pb, -d.normal) + d.point_b.dot(d.normal));
        assert!(on_a.abs() <= slack && on_b.abs() <= slack, "{what}: witnesses {on_a:e} {on_b:e} off; {d:?}");
        if d.status == Status::Converged && plain.status == Status::Converged {
            checked += 1;
            shorter += usize::from(d.iterations < plain.iterations);
        }
    }
    println!("2D: {checked} converged pairs, {shorter} in fewer steps than the plain loop");
    assert!(checked >= 500 && shorter * 4 >= checked, "{shorter} of {checked} shortened");
}
