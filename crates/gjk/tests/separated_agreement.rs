//! The boolean queries agree with the distance query on every pair, touching ones included: `intersects`,
//! `intersection` cold and warm, and `distance` with a `max_distance` of zero all answer
//! `distance(..).intersecting` — for every shape family, 2D and 3D, f32 and f64, gaps from 1e-9 to 10 times the
//! shapes' size and exact touching, near the origin and at 1e5 — and match an independent reference where the
//! precision resolves the gap: B is placed so that the supporting planes of A along a unit n and of B along −n are
//! `g` apart and their support points differ by g·n, which makes the distance exactly g (the slab between the
//! planes separates the shapes, and the two points are g apart). The boolean queries stop at the first separating
//! plane; one found within rounding of touching is re-decided by the distance query's run, which is what makes
//! them agree on the boundary (they parted on 3D f64 hulls touching at offset 10, 3D f32 cylinder–cone pairs
//! touching, 2D f32 polygons 4.4e-10 apart).

use crate::common::{log_uniform, rng, uniform, unit2, unit3, unit_quat, Space2, Space3};
use gjk::math::{DVec2, DVec3, Iso, Real, Rot2, Vector};
use gjk::shape::{support_full, Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, SupportMap};
use gjk::{distance, distance_with, intersection, intersects, DistanceOptions, Status, WarmStart};
use rand::rngs::SmallRng;
use rand::Rng;

/// Gaps between the shapes, as fractions of their size.
const GAPS: [f64; 8] = [1e-9, 1e-7, 1e-5, 1e-3, 0.03, 0.3, 1.0, 10.0];

/// Offsets of the pair from the origin.
const OFFSETS: [f64; 4] = [0.0, 10.0, 1e3, 1e5];

/// A shape family and its parameters (f64; built in the precision under test).
#[derive(Clone, Debug)]
enum Spec<M> {
    Ball(f64),
    Box(M),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Ellipsoid(M),
    Hull(Vec<M>),
}

/// A random 3D shape of about `size`.
fn spec3(rng: &mut SmallRng, size: f64) -> Spec<DVec3> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y, z) = (len(), len(), len());
    match rng.gen_range(0..7) {
        0 => Spec::Ball(x),
        1 => Spec::Box(DVec3::new(x, y, z)),
        2 => Spec::Capsule(x, y),
        3 => Spec::Cylinder(x, y),
        4 => Spec::Cone(x, y),
        5 => Spec::Ellipsoid(DVec3::new(x, y, z)),
        _ => Spec::Hull((0..rng.gen_range(4..24)).map(|_| unit3(rng) * size).collect()),
    }
}

/// A random 2D shape of about `size`.
fn spec2(rng: &mut SmallRng, size: f64) -> Spec<DVec2> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y) = (len(), len());
    match rng.gen_range(0..5) {
        0 => Spec::Ball(x),
        1 => Spec::Box(DVec2::new(x, y)),
        2 => Spec::Capsule(x, y),
        3 => Spec::Ellipsoid(DVec2::new(x, y)),
        _ => Spec::Hull((0..rng.gen_range(3..24)).map(|_| unit2(rng) * size).collect()),
    }
}

fn real<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

fn build3<V: Space3>(spec: &Spec<DVec3>) -> Box<dyn SupportMap<V>> {
    match spec {
        Spec::Ball(r) => Box::new(Ball::new(real::<V::Real>(*r)).unwrap()),
        Spec::Box(h) => Box::new(Cuboid::new(V::from64(*h)).unwrap()),
        Spec::Capsule(h, r) => Box::new(Capsule::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Cylinder(h, r) => Box::new(Cylinder::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Cone(h, r) => Box::new(Cone::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Ellipsoid(r) => Box::new(Ellipsoid::new(V::from64(*r)).unwrap()),
        Spec::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| V::from64(q)).collect::<Vec<_>>()).unwrap()),
    }
}

fn build2<V: Space2>(spec: &Spec<DVec2>) -> Box<dyn SupportMap<V>> {
    match spec {
        Spec::Ball(r) => Box::new(Ball::new(real::<V::Real>(*r)).unwrap()),
        Spec::Box(h) => Box::new(Cuboid::new(V::from64(*h)).unwrap()),
        Spec::Capsule(h, r) => Box::new(Capsule::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Ellipsoid(r) => Box::new(Ellipsoid::new(V::from64(*r)).unwrap()),
        Spec::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| V::from64(q)).collect::<Vec<_>>()).unwrap()),
        Spec::Cylinder(..) | Spec::Cone(..) => unreachable!("3D only"),
    }
}

/// B's translation (f64, world) that puts the whole shapes `gap` apart along the unit `n`: A's support point along
/// n and B's along −n then differ by exactly gap·n. With `centre_line`, B's centre goes on the line from A's centre
/// along n instead, as far as makes the supporting planes across that line `gap` apart (the distance is then at
/// least `gap`).
fn place<V: Vector<Real = f64>>(
    a: &dyn SupportMap<V>,
    pa: &Iso<V>,
    b: &dyn SupportMap<V>,
    rot_b: V::Rotation,
    n: V,
    gap: f64,
    centre_line: bool,
) -> V {
    let rb = Iso::new(rot_b, V::zero());
    let on_a = pa.transform_point(support_full(a, pa.inverse_transform_vector(n)));
    let on_b = rb.transform_point(support_full(b, rb.inverse_transform_vector(-n)));
    if !centre_line {
        return on_a + n * gap - on_b;
    }
    let (centre_a, centre_b) = (pa.transform_point(a.center()), rb.transform_point(b.center()));
    let reach = n.dot(on_a - centre_a) + n.dot(centre_b - on_b);
    centre_a + n * (reach + gap) - centre_b
}

/// Asserts that every boolean answer of the pair is `distance(..).intersecting` — `intersects`, `intersection`
/// cold and warm, `distance` with a `max_distance` of zero — and, when `reference` is given, that it is that
/// answer.
fn agree<V: Vector>(
    a: &dyn SupportMap<V>,
    pa: &Iso<V>,
    b: &dyn SupportMap<V>,
    pb: &Iso<V>,
    reference: Option<bool>,
    what: &str,
) {
    let want = distance(a, pa, b, pb).intersecting;
    assert_eq!(intersects(a, pa, b, pb), want, "intersects: {what}");
    let cold = intersection(a, pa, b, pb, &DistanceOptions::default(), None, &mut ());
    assert_eq!(cold.intersecting, want, "intersection: {what}");
    let mut cache = WarmStart::default();
    for frame in 0..2 {
        let warm = intersection(a, pa, b, pb, &DistanceOptions::default(), Some(&mut cache), &mut ());
        assert_eq!(warm.intersecting, want, "warm intersection, frame {frame}: {what}");
    }
    let bounded = DistanceOptions { max_distance: Some(V::Real::ZERO), ..DistanceOptions::default() };
    let d = distance_with(a, pa, b, pb, &bounded, None, &mut ());
    assert_eq!(d.intersecting, want, "distance with max_distance 0: {what}");
    if want {
        assert_ne!(d.status, Status::AboveBound, "{what}");
    }
    if let Some(reference) = reference {
        assert_eq!(want, reference, "reference: {what}");
    }
}

/// A gap of `gap` (world) is resolved by the precision when it exceeds the rounding of placing shapes of `size`
/// at `offset` (1024 ulps of both).
fn resolved<R: Real>(gap: f64, size: f64, offset: f64) -> bool {
    gap > 1024.0 * R::EPSILON.to_f64() * (size + offset)
}

/// Random pairs of random families in 3D: apart by every gap (along random directions and along the centre line)
/// and touching.
fn run3<V: Space3>(seed: u64, n: usize) {
    let mut rng = rng(seed);
    for case in 0..n {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let (sa, sb) = (spec3(&mut rng, size), spec3(&mut rng, size));
        let offset = OFFSETS[rng.gen_range(0..OFFSETS.len())];
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * offset);
        let rot_b = unit_quat(&mut rng);
        let dir = unit3(&mut rng);
        let (gap, centre_line) = match rng.gen_range(0..4) {
            0 => (0.0, false),
            k => (GAPS[rng.gen_range(0..GAPS.len())] * size, k == 1),
        };
        let (a64, b64) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, place(&*a64, &pa, &*b64, rot_b, dir, gap, centre_line));
        let (a, b) = (build3::<V>(&sa), build3::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let reference = resolved::<V::Real>(gap, size, offset).then_some(false);
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, gap {gap:e}, offset {offset:e}", V::NAME);
        agree(&*a, &pa, &*b, &pb, reference, &what);
    }
}

/// The 2D counterpart of [`run3`].
fn run2<V: Space2>(seed: u64, n: usize) {
    let mut rng = rng(seed);
    for case in 0..n {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let (sa, sb) = (spec2(&mut rng, size), spec2(&mut rng, size));
        let offset = OFFSETS[rng.gen_range(0..OFFSETS.len())];
        let pa = Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), unit2(&mut rng) * offset);
        let rot_b = Rot2::from_angle(uniform(&mut rng, -3.2, 3.2));
        let dir = unit2(&mut rng);
        let (gap, centre_line) = match rng.gen_range(0..4) {
            0 => (0.0, false),
            k => (GAPS[rng.gen_range(0..GAPS.len())] * size, k == 1),
        };
        let (a64, b64) = (build2::<DVec2>(&sa), build2::<DVec2>(&sb));
        let pb = Iso::new(rot_b, place(&*a64, &pa, &*b64, rot_b, dir, gap, centre_line));
        let (a, b) = (build2::<V>(&sa), build2::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let reference = resolved::<V::Real>(gap, size, offset).then_some(false);
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, gap {gap:e}, offset {offset:e}", V::NAME);
        agree(&*a, &pa, &*b, &pb, reference, &what);
    }
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_3d_f64() {
    run3::<DVec3>(141, 3000);
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_3d_f32() {
    run3::<gjk::math::Vec3>(142, 3000);
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_2d_f64() {
    run2::<DVec2>(143, 3000);
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_2d_f32() {
    run2::<gjk::math::Vec2>(144, 3000);
}
