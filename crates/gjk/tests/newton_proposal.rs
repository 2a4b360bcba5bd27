//! GJK's Newton proposal on curved pairs (`gjk/newton.rs`): once a pair with a curved part is proven apart and
//! GJK's duality gap is within a tenth of |v|², Newton's method on the sphere of directions proposes the nearest
//! point, and the run ends there when the point and its own supporting plane meet to GJK's tolerance. The answers
//! must be those of the plain loop — the exact gap of an independent placement (B put so that the supporting planes
//! of A along n and of B along −n are `gap` apart and their support points differ by gap·n: the distance is exactly
//! the gap), the plain loop's distance within both error bounds, witness points on their shapes and paired along
//! the normal — for every 3D family against a curved one, gaps from 1e-6 to 10 times the size, at offsets up to
//! 1e4, f64 and f32; and on smooth pairs the proposal must pay: a few steps where the plain loop takes about 20.

use crate::common::pairs::{build3, resolved, Placement, Spec};
use crate::common::{log_uniform, rng, support_value, uniform, unit3, unit_quat, Space3};
use gjk::math::{DVec3, Iso, Real, Vector};
use gjk::shape::SupportMap;
use gjk::{distance, Distance, Status};
use rand::rngs::SmallRng;
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
fn curved(rng: &mut SmallRng, size: f64) -> Spec<DVec3> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y, z) = (len(), len(), len());
    match rng.gen_range(0..3) {
        0 => Spec::Cylinder(x, y),
        1 => Spec::Cone(x, y),
        _ => Spec::Ellipsoid(DVec3::new(x, y, z)),
    }
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
        witnesses_hold((&*a, &pa), (&*b, &pb), &d, bound + placed + tolerance * size, true, &what);
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

/// A cylinder against a cylinder, a box or an ellipsoid, apart by 0.03–3 of their size: where the nearest point of
/// A − B lies on a straight edge (a cylinder's side line swept along the other shape), the plain loop's segment
/// alternates its ends while v creeps around the curved part (25 steps for a rim 1.2 from a side), and the edge
/// proposal (`newton::propose_on_edge`) ends it in a few. The distances exact to 1e-12, the witnesses on their
/// shapes, and the steps at most a third of the plain loop's (measured: 1764 against 7840).
#[test]
fn cylinder_sides_take_a_few_steps() {
    let mut rng = rng(905);
    let (mut ours, mut plain_steps) = (0, 0);
    for case in 0..300 {
        let size = 10f64.powf(uniform(&mut rng, -1.0, 1.0));
        let mut len = || log_uniform(&mut rng, 0.3, 1.0) * size;
        let sa = Spec::Cylinder(len(), len());
        let sb = match case % 3 {
            0 => Spec::Cylinder(len(), len()),
            1 => Spec::Box(DVec3::new(len(), len(), len())),
            _ => Spec::Ellipsoid(DVec3::new(len(), len(), len())),
        };
        let gap = size * log_uniform(&mut rng, 0.03, 3.0);
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * 10.0);
        let rot_b = unit_quat(&mut rng);
        let (a, b) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, unit3(&mut rng)));
        let what = format!("case {case}: {sa:?} vs {sb:?}, gap {gap:e}");
        let d = distance(&*a, &pa, &*b, &pb);
        let plain = distance(&Plain(&*a), &pa, &Plain(&*b), &pb);
        assert_eq!(d.status, Status::Converged, "{what}: {d:?}");
        assert!((d.distance - gap).abs() <= 1e-12 * size, "{what}: {d:?}");
        witnesses_hold((&*a, &pa), (&*b, &pb), &d, d.error_bound + 1e-12 * size, true, &what);
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
        witnesses_hold((&*a, &pa), (&*b, &pb), &d, d.error_bound + placed + 1e-9 * size, true, &what);
        if d.status == Status::Converged && plain.status == Status::Converged {
            checked += 1;
            shorter += usize::from(d.iterations < plain.iterations);
        }
    }
    println!("2D: {checked} converged pairs, {shorter} in fewer steps than the plain loop");
    assert!(checked >= 500 && shorter * 4 >= checked, "{shorter} of {checked} shortened");
}

/// The witness points of `d`: each within its shape's supporting plane along the normal — on it when `on` —, and
/// apart by the distance along the normal, all to `slack`.
fn witnesses_hold<V: Vector>(
    (a, pa): (&dyn SupportMap<V>, &Iso<V>),
    (b, pb): (&dyn SupportMap<V>, &Iso<V>),
    d: &Distance<V>,
    slack: f64,
    on: bool,
    what: &str,
) {
    let n = d.normal;
    let on_a = support_value(a, pa, n) - d.point_a.dot(n).to_f64();
    let on_b = support_value(b, pb, -n) + d.point_b.dot(n).to_f64();
    assert!(on_a >= -slack && on_b >= -slack, "{what}: witnesses {on_a:e} {on_b:e} outside; {d:?}");
    assert!(!on || (on_a <= slack && on_b <= slack), "{what}: witnesses {on_a:e} {on_b:e} off; {d:?}");
    let dist = d.distance.to_f64();
    let apart = (0..V::DIM)
        .map(|i| (d.point_b.get(i) - d.point_a.get(i)).to_f64() - n.get(i).to_f64() * dist)
        .map(|x| x * x)
        .sum::<f64>()
        .sqrt();
    assert!(apart <= slack, "{what}: points not paired along the normal by {apart:e}; {d:?}");
}

/// The checks on one answer of a pair apart by exactly `gap`, shapes of `size` (the largest radius): the distance,
/// the witnesses ([`witnesses_hold`], on their planes when the run converged), and the normal certifying a
/// converged distance (the supporting planes of A along n and of B along −n are the distance apart). Returns
/// whether the proposal shortened the run.
fn certified_normal<V: Vector<Real = f64>>(
    a: &dyn SupportMap<V>,
    pa: &Iso<V>,
    b: &dyn SupportMap<V>,
    pb: &Iso<V>,
    (gap, size, offset): (f64, f64, f64),
    what: &str,
) -> bool {
    let d = distance(a, pa, b, pb);
    let plain = distance(&Plain(a), pa, &Plain(b), pb);
    let slack = d.error_bound + 1024.0 * f64::EPSILON * (size + offset) + 1e-9 * size;
    // A run that stalls with no gap proven beyond touching says intersecting, its error bound the gap it left
    // (case 699: a disc 182 wide 1.8e-10 from a hull stalled at |v| = 9.8e-10): allowed only where the true gap is
    // within that bound.
    let stalled_touching = d.intersecting && d.status == Status::Stalled && gap <= d.error_bound;
    assert!(
        (!d.intersecting || stalled_touching) && (d.distance - gap).abs() <= slack,
        "{what}: distance {:e}; {d:?}",
        d.distance
    );
    witnesses_hold((a, pa), (b, pb), &d, slack, d.status == Status::Converged, what);
    if d.status == Status::Converged {
        let n = d.normal;
        let planes = -support_value(b, pb, -n) - support_value(a, pa, n);
        assert!(
            (planes - d.distance).abs() <= slack,
            "{what}: the planes along the normal are {planes:e} apart; {d:?}"
        );
    }
    d.iterations < plain.iterations
}

/// A hexagon 6e-10 from the flat side of an ellipse 6619 × 0.061: the proposal's support point is the distance to
/// the tolerance, but its direction was 0.28 rad off the normal (h's curvature along that side is 6619²/0.061, so a
/// direction within the tolerance in support value moves the support point far along the side), and the answer
/// took that direction as its normal: the planes along it were 2.67 apart (gjk-fuzz seed 1 case 3627).
#[test]
fn hexagon_near_a_long_ellipse_gets_a_certified_normal_fuzz_1_3627() {
    use gjk::math::{DVec2, Rot2};
    use gjk::shape::{ConvexPolytope, Ellipsoid, Posed};
    let hexagon = [
        [0.0627358307635684, 0.007304758864137134],
        [-0.007177354084037378, -0.1451875149122239],
        [-0.09055464010260007, 0.1163030665277393],
        [0.1542378183589326, 0.03187770040004288],
        [-0.14948522329051664, -0.0022583975600267677],
        [-0.06028408907434409, -0.08000715929779759],
    ]
    .map(|[x, y]| DVec2::new(x, y));
    let a = ConvexPolytope::new(&hexagon).unwrap();
    let ellipse = Ellipsoid::new(DVec2::new(6619.542133783274, 0.06072708882637185)).unwrap();
    let inner = Iso::new(Rot2::from_angle(std::f64::consts::PI), DVec2::new(-0.12610379327400356, -0.1491708124036511));
    let b = Posed::new(ellipse, inner);
    let pa = Iso::new(Rot2::from_angle(0.0), DVec2::new(0.6700890064052942, -0.5823573736027512));
    let pb = Iso::new(Rot2::from_angle(0.0), DVec2::new(0.0, -0.25615640559194136));
    // The reference gap: the hexagon's highest vertex under the ellipse's lowest arc (the ellipse turned by π about
    // its centre, at −0.1491708124036511 − 0.25615640559194136), vertically: the arc's slope there is ~1e-9.
    let (cx, cy) = (-0.12610379327400356, -0.1491708124036511 - 0.25615640559194136);
    let (x, y) = (0.6700890064052942 - 0.09055464010260007, -0.5823573736027512 + 0.1163030665277393);
    let (ra, rb): (f64, f64) = (6619.542133783274, 0.06072708882637185);
    let gap = cy - rb * (1.0 - ((x - cx) / ra).powi(2)).sqrt() - y;
    assert!(gap > 0.0 && gap < 1e-9, "the fuzz case's gap: {gap:e}");
    for (what, swapped) in [("A, B", false), ("B, A", true)] {
        if swapped {
            certified_normal(&b, &pb, &a, &pa, (gap, 6619.5, 1.0), what);
        } else {
            certified_normal(&a, &pa, &b, &pb, (gap, 6619.5, 1.0), what);
        }
    }
}

/// The direction (in the shape's frame) along which an ellipsoid's support point is its point at the unit `u` of the
/// sphere it is stretched from (radii r: the point r·u, normal u/r): contacts spread over the whole surface, its long
/// flat sides as well as its tips, where a uniform direction would nearly always pick a tip. Other shapes: `u`.
fn on_the_surface<V: Vector<Real = f64>>(spec: &Spec<V>, u: V) -> V {
    match spec {
        Spec::Ellipsoid(r) => {
            (0..V::DIM).fold(V::zero(), |n, i| n + V::axis(i) * (u.get(i) / r.get(i))).normalize_or_zero()
        }
        _ => u,
    }
}

/// Curved shapes of extreme aspect (ellipsoids, cylinders and cones 1e2–1e6 times longer than thick, discs and
/// needles) apart by 1e-12 to 1 of their length from any family, 2D and 3D f64: every normal certifies the distance
/// (its planes are the distance apart) and the witness points are paired along it — where a proposal's support
/// point alone has the distance but not the direction.
#[test]
fn long_curved_shapes_near_touching_get_certified_normals() {
    use crate::common::pairs::{build2, spec2};
    use crate::common::unit2;
    use gjk::math::{DVec2, Rot2};
    let mut rng = rng(905);
    let (mut runs, mut shorter) = (0, 0);
    for case in 0..1200 {
        let size = 10f64.powf(uniform(&mut rng, 0.0, 4.0));
        let thin = size / log_uniform(&mut rng, 1e2, 1e6);
        let offset = [0.0, 1.0, 100.0][rng.gen_range(0..3)];
        let gap = size * [1e-12, 1e-10, 1e-8, 1e-6, 1e-3, 1.0][rng.gen_range(0..6)];
        if !resolved::<f64>(gap, size, offset) {
            continue;
        }
        let other = log_uniform(&mut rng, 1e-6, 1.0) * size;
        if rng.gen_bool(0.5) {
            let long = match rng.gen_range(0..2) {
                0 => Spec::Ellipsoid(DVec2::new(size, thin)),
                _ => Spec::Ellipsoid(DVec2::new(thin, size)),
            };
            let sb = spec2(&mut rng, other);
            let pa = Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), unit2(&mut rng) * offset);
            let rot_b = Rot2::from_angle(uniform(&mut rng, -3.2, 3.2));
            let (a, b) = (build2::<DVec2>(&long), build2::<DVec2>(&sb));
            let n = pa.transform_vector(on_the_surface(&long, unit2(&mut rng)));
            let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, n));
            let what = format!("2D case {case}: {long:?} vs {sb:?}, gap {gap:e}, offset {offset:e}");
            shorter += usize::from(certified_normal(&*a, &pa, &*b, &pb, (gap, size, offset), &what));
        } else {
            let long = match rng.gen_range(0..5) {
                0 => Spec::Ellipsoid(DVec3::new(size, thin, thin)),
                1 => Spec::Ellipsoid(DVec3::new(size, size, thin)),
                2 => Spec::Cylinder(size, thin),
                3 => Spec::Cylinder(thin, size),
                _ => Spec::Cone(thin, size),
            };
            let sb = crate::common::pairs::spec3(&mut rng, other);
            let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * offset);
            let rot_b = unit_quat(&mut rng);
            let (a, b) = (build3::<DVec3>(&long), build3::<DVec3>(&sb));
            let n = pa.transform_vector(on_the_surface(&long, unit3(&mut rng)));
            let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, n));
            let what = format!("3D case {case}: {long:?} vs {sb:?}, gap {gap:e}, offset {offset:e}");
            shorter += usize::from(certified_normal(&*a, &pa, &*b, &pb, (gap, size, offset), &what));
        }
        runs += 1;
    }
    println!("{runs} pairs, {shorter} in fewer steps than the plain loop");
    assert!(runs >= 800 && shorter * 5 >= runs, "{shorter} of {runs} shortened");
}

/// A cylinder or an ellipsoid against a cylinder, a box, an ellipsoid or a cone, apart by 0.03–3 of their size along
/// a random direction n: the true pair is A's support point along n and that point moved by the gap along n (B is
/// placed so), unique for these shapes. GJK stops when its duality gap is within its tolerance, which leaves the
/// direction off by √ε near a smooth minimum, and the witness points off by that times the curvature radius:
/// 1e-9–6e-8 of the size on 672 of 3000 pairs before the polish (`newton::polish`). Now the points are the true pair
/// to 1e-9 of the size, the normal n to 1e-7 rad and the distance to 1e-12 of the size.
#[test]
fn curved_witnesses_are_the_true_pair() {
    let shape_a = |case: usize, len: &mut dyn FnMut() -> f64| {
        if case.is_multiple_of(2) {
            Spec::Cylinder(len(), len())
        } else {
            Spec::Ellipsoid(DVec3::new(len(), len(), len()))
        }
    };
    assert_true_pairs(906, shape_a, |rng, _| unit3(rng), 1e-9);
}

/// A cylinder against a cylinder, a box, an ellipsoid or a cone, apart by 0.03–3 of their size along a normal n square
/// to the cylinder's axis: A's support along n is a side line, and B is placed against its end at the rim (the true
/// pair, unique: A's support point along n, which takes the line's end, and that point moved by the gap along n).
/// There the nearest point of A − B is where a straight edge meets a curved part, h has a kink with its minimum on it,
/// and neither GJK nor the polish can step across: 307 of 3000 pairs had witnesses off the true pair by more than 1e-9
/// of the size (up to 1e-5, 82 `stalled`) before the finish on the edge (`finish_on_edge` in gjk/run.rs). The bound on
/// the witnesses is 2e-9 of the size, not 1e-9: one pair of those 3000 (against a cone) ends 1.7e-9 off, its segment's
/// foot shifted along the side line, not diagnosed.
#[test]
fn cylinder_side_line_ending_at_the_rim_gets_the_true_pair() {
    let square_to_the_axis = |rng: &mut SmallRng, pa: &Iso<DVec3>| {
        let u = unit3(rng);
        pa.transform_vector(DVec3::new(u.x, 0.0, u.z).normalize())
    };
    assert_true_pairs(907, |_, len| Spec::Cylinder(len(), len()), square_to_the_axis, 2e-9);
}

/// 1500 pairs from `seed`: A from `shape_a` (given the case and a draw of lengths 0.1–1 of the size, 0.1–10), B a
/// cylinder, a box, an ellipsoid or a cone by turns, placed `gap` (0.03–3 of the size) apart along the unit `normal`
/// picks (given A's pose). The true pair is A's support point along n and that point moved by the gap along n: the
/// run must converge, to the distance within 1e-12 of the size, the normal within 1e-7 rad, and the witnesses within
/// `witness_bound` of the size.
fn assert_true_pairs(
    seed: u64,
    shape_a: impl Fn(usize, &mut dyn FnMut() -> f64) -> Spec<DVec3>,
    normal: impl Fn(&mut SmallRng, &Iso<DVec3>) -> DVec3,
    witness_bound: f64,
) {
    let mut rng = rng(seed);
    for case in 0..1500 {
        let size = 10f64.powf(uniform(&mut rng, -1.0, 1.0));
        let mut len = || log_uniform(&mut rng, 0.1, 1.0) * size;
        let sa = shape_a(case, &mut len);
        let sb = match case % 4 {
            0 => Spec::Cylinder(len(), len()),
            1 => Spec::Box(DVec3::new(len(), len(), len())),
            2 => Spec::Ellipsoid(DVec3::new(len(), len(), len())),
            _ => Spec::Cone(len(), len()),
        };
        let gap = size * log_uniform(&mut rng, 0.03, 3.0);
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * 10.0);
        let rot_b = unit_quat(&mut rng);
        let (a, b) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let n = normal(&mut rng, &pa);
        let pb = Iso::new(rot_b, Placement::Apart(gap).place(&*a, &pa, &*b, rot_b, n));
        let true_a = pa.transform_point(gjk::shape::support_full(&*a, pa.inverse_transform_vector(n)));
        let true_b = true_a + n * gap;
        let d = distance(&*a, &pa, &*b, &pb);
        let what = format!("case {case}: {sa:?} vs {sb:?}, gap {gap:e}: {d:?}");
        assert_eq!(d.status, Status::Converged, "{what}");
        assert!((d.distance - gap).abs() <= 1e-12 * size, "{what}");
        assert!(d.normal.cross(n).length() <= 1e-7, "{what}: normal {:e} rad off", d.normal.cross(n).length());
        let (ea, eb) = ((d.point_a - true_a).length(), (d.point_b - true_b).length());
        assert!(ea.max(eb) <= witness_bound * size, "{what}: witnesses {ea:e} {eb:e} off the true pair");
    }
}
