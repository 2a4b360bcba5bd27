//! Separated pairs decided "apart" from the first support of A − B, before the GJK loop's first step (MPR's first
//! test): the support along the direction from A − B's centre toward the origin bounds the distance from below, and
//! a bound past the radii by more than the rounding of the shapes' points decides the boolean query (and a
//! `max_distance` stop) at once. The answer must be exactly `distance(..).intersecting`, observed or not, cold or
//! warm — for every shape family, 2D and 3D, f32 and f64, gaps from 1e-6 to 10 times the shapes' size, touching and
//! overlapping, near the origin and at 1e4 — and must match an independent reference: B is placed so that the
//! supporting planes of A along a unit n and of B along −n are `g` apart and their support points differ by g·n,
//! which makes the distance exactly g (the slab between the planes separates the shapes, and the two points are g
//! apart); an overlapping B has its centre (a point of its core) on the segment from A's centre to A's support
//! point, a point of A. Pairs apart along their centre line are decided with one support call per shape (the loop
//! made two); touching pairs are never decided by the early rule.

use crate::common::{log_uniform, rng, uniform, unit2, unit3, unit_quat, Space2, Space3};
use gjk::math::{DVec2, DVec3, Iso, Real, Rot2, Vector};
use gjk::shape::{support_full, Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, SupportMap};
use gjk::trace::Recorder;
use gjk::{distance, distance_with, intersection, intersects, DistanceOptions, Intersection, Status, WarmStart};
use rand::rngs::SmallRng;
use rand::Rng;
use std::cell::Cell;

/// Gaps between the shapes, as fractions of their size.
const GAPS: [f64; 8] = [1e-6, 1e-5, 1e-4, 1e-3, 0.03, 0.3, 1.0, 10.0];

/// Offsets of the pair from the origin.
const OFFSETS: [f64; 4] = [0.0, 10.0, 1e3, 1e4];

/// Fewer pairs decided at the start than this (of 3000, about 1000–1300 are) means the early rule has stopped firing.
const TALLY_MIN: usize = 800;

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

/// Where B goes relative to A, along a unit direction n.
#[derive(Clone, Copy, Debug)]
enum Placement {
    /// The whole shapes this far apart along n: A's support point along n and B's along −n differ by gap·n.
    Apart(f64),
    /// B's centre on the line from A's centre along n, as far as makes the supporting planes across that line this
    /// far apart (the distance is then at least that).
    CentreLine(f64),
    /// B's centre at this fraction (in [0, 1)) of the way from A's centre to A's support point along n: a point of
    /// both shapes' cores, so they overlap.
    Overlap(f64),
}

impl Placement {
    /// A random placement: touching (a quarter), apart along a random direction or along the centre line by one
    /// of the gaps (× `size`), or overlapping.
    fn random(rng: &mut SmallRng, size: f64) -> Self {
        let gap = GAPS[rng.gen_range(0..GAPS.len())] * size;
        match rng.gen_range(0..8) {
            0 | 1 => Placement::Apart(0.0),
            2 | 3 => Placement::Apart(gap),
            4 | 5 => Placement::CentreLine(gap),
            _ => Placement::Overlap(uniform(rng, 0.0, 0.999)),
        }
    }

    /// The reference answer where the precision resolves it: apart by a gap larger than the rounding of placing
    /// shapes of `size` at `offset` (1024 ulps of both), overlapping always, touching never (either answer stands).
    fn reference<R: Real>(self, size: f64, offset: f64) -> Option<bool> {
        match self {
            Placement::Apart(g) | Placement::CentreLine(g) => {
                (g > 1024.0 * R::EPSILON.to_f64() * (size + offset)).then_some(false)
            }
            Placement::Overlap(_) => Some(true),
        }
    }

    /// B's translation (f64, world) for A at `pa`, B rotated by `rot_b`.
    fn place<V: Vector<Real = f64>>(
        self,
        a: &dyn SupportMap<V>,
        pa: &Iso<V>,
        b: &dyn SupportMap<V>,
        rot_b: V::Rotation,
        n: V,
    ) -> V {
        let rb = Iso::new(rot_b, V::zero());
        let on_a = pa.transform_point(support_full(a, pa.inverse_transform_vector(n)));
        let on_b = rb.transform_point(support_full(b, rb.inverse_transform_vector(-n)));
        let (centre_a, centre_b) = (pa.transform_point(a.center()), rb.transform_point(b.center()));
        match self {
            Placement::Apart(gap) => on_a + n * gap - on_b,
            Placement::CentreLine(gap) => {
                let reach = n.dot(on_a - centre_a) + n.dot(centre_b - on_b);
                centre_a + n * (reach + gap) - centre_b
            }
            Placement::Overlap(t) => centre_a + (on_a - centre_a) * t - centre_b,
        }
    }
}

/// Asserts that every boolean answer of the pair is `distance(..).intersecting` — `intersects`, `intersection`
/// cold and warm (its whole answer, iterations included, the same observed or not), `distance` with a
/// `max_distance` of zero — and, when `reference` is given, that it is that answer; returns the cold
/// `intersection`.
fn agree<V: Vector>(
    a: &dyn SupportMap<V>,
    pa: &Iso<V>,
    b: &dyn SupportMap<V>,
    pb: &Iso<V>,
    reference: Option<bool>,
    what: &str,
) -> Intersection {
    let want = distance(a, pa, b, pb).intersecting;
    let opts = DistanceOptions::default();
    assert_eq!(intersects(a, pa, b, pb), want, "intersects: {what}");
    let cold = intersection(a, pa, b, pb, &opts, None, &mut ());
    assert_eq!(cold.intersecting, want, "intersection: {what}");
    let observed = intersection(a, pa, b, pb, &opts, None, &mut Recorder::default());
    assert_eq!(observed, cold, "observed intersection: {what}");
    let (mut cache, mut observed_cache) = (WarmStart::default(), WarmStart::default());
    for frame in 0..2 {
        let warm = intersection(a, pa, b, pb, &opts, Some(&mut cache), &mut ());
        assert_eq!(warm.intersecting, want, "warm intersection, frame {frame}: {what}");
        let observed = intersection(a, pa, b, pb, &opts, Some(&mut observed_cache), &mut Recorder::default());
        assert_eq!(observed, warm, "observed warm intersection, frame {frame}: {what}");
    }
    let bounded = DistanceOptions { max_distance: Some(V::Real::ZERO), ..opts };
    let d = distance_with(a, pa, b, pb, &bounded, None, &mut ());
    assert_eq!(d.intersecting, want, "distance with max_distance 0: {what}");
    if want {
        assert_ne!(d.status, Status::AboveBound, "{what}");
    }
    if let Some(reference) = reference {
        assert_eq!(want, reference, "reference: {what}");
    }
    cold
}

/// A gap of `gap` (world) is resolved by the precision when it exceeds the rounding of placing shapes of `size`
/// at `offset` (1024 ulps of both).
fn resolved<R: Real>(gap: f64, size: f64, offset: f64) -> bool {
    Placement::Apart(gap).reference::<R>(size, offset).is_some()
}

/// What a run of random pairs found: pairs decided apart at the start (no loop step), and pairs apart.
#[derive(Debug, Default)]
struct Tally {
    early: usize,
    apart: usize,
}

impl Tally {
    /// Counts `r`, and checks that a touching pair near the origin is never decided at the start.
    fn add(&mut self, r: Intersection, placement: Placement, size: f64, offset: f64, what: &str) {
        self.early += usize::from(r.iterations == 0 && !r.intersecting);
        self.apart += usize::from(!r.intersecting);
        if matches!(placement, Placement::Apart(g) if g == 0.0) && offset <= size {
            assert!(r.iterations > 0 || r.intersecting, "a touching pair decided apart at the start: {what}");
        }
    }
}

/// Random pairs of random families in 3D, placed by [`Placement::random`].
fn run3<V: Space3>(seed: u64, n: usize) -> Tally {
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for case in 0..n {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let (sa, sb) = (spec3(&mut rng, size), spec3(&mut rng, size));
        let offset = OFFSETS[rng.gen_range(0..OFFSETS.len())];
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * offset);
        let rot_b = unit_quat(&mut rng);
        let placement = Placement::random(&mut rng, size);
        let (a64, b64) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, placement.place(&*a64, &pa, &*b64, rot_b, unit3(&mut rng)));
        let (a, b) = (build3::<V>(&sa), build3::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let reference = placement.reference::<V::Real>(size, offset);
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, {placement:?}, offset {offset:e}", V::NAME);
        let r = agree(&*a, &pa, &*b, &pb, reference, &what);
        tally.add(r, placement, size, offset, &what);
    }
    tally
}

/// The 2D counterpart of [`run3`].
fn run2<V: Space2>(seed: u64, n: usize) -> Tally {
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for case in 0..n {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let (sa, sb) = (spec2(&mut rng, size), spec2(&mut rng, size));
        let offset = OFFSETS[rng.gen_range(0..OFFSETS.len())];
        let pa = Iso::new(Rot2::from_angle(uniform(&mut rng, -3.2, 3.2)), unit2(&mut rng) * offset);
        let rot_b = Rot2::from_angle(uniform(&mut rng, -3.2, 3.2));
        let placement = Placement::random(&mut rng, size);
        let (a64, b64) = (build2::<DVec2>(&sa), build2::<DVec2>(&sb));
        let pb = Iso::new(rot_b, placement.place(&*a64, &pa, &*b64, rot_b, unit2(&mut rng)));
        let (a, b) = (build2::<V>(&sa), build2::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let reference = placement.reference::<V::Real>(size, offset);
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, {placement:?}, offset {offset:e}", V::NAME);
        let r = agree(&*a, &pa, &*b, &pb, reference, &what);
        tally.add(r, placement, size, offset, &what);
    }
    tally
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_3d_f64() {
    let tally = run3::<DVec3>(141, 3000);
    println!("3d_f64: {tally:?}");
    assert!(tally.early >= TALLY_MIN, "the early rule must be exercised: {tally:?}");
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_3d_f32() {
    let tally = run3::<gjk::math::Vec3>(142, 3000);
    println!("3d_f32: {tally:?}");
    assert!(tally.early >= TALLY_MIN, "the early rule must be exercised: {tally:?}");
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_2d_f64() {
    let tally = run2::<DVec2>(143, 3000);
    println!("2d_f64: {tally:?}");
    assert!(tally.early >= TALLY_MIN, "the early rule must be exercised: {tally:?}");
}

#[test]
fn separated_pairs_agree_with_distance_and_the_placement_2d_f32() {
    let tally = run2::<gjk::math::Vec2>(144, 3000);
    println!("2d_f32: {tally:?}");
    assert!(tally.early >= TALLY_MIN, "the early rule must be exercised: {tally:?}");
}

/// A shape that counts its support calls.
struct Counted<'s, V: Vector> {
    inner: &'s dyn SupportMap<V>,
    calls: Cell<u32>,
}

impl<V: Vector> SupportMap<V> for Counted<'_, V> {
    fn support(&self, dir: V) -> V {
        self.calls.set(self.calls.get() + 1);
        self.inner.support(dir)
    }
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        self.calls.set(self.calls.get() + 1);
        self.inner.support_hinted(dir, hint)
    }
    fn radius(&self) -> V::Real {
        self.inner.radius()
    }
    fn center(&self) -> V {
        self.inner.center()
    }
    fn polyhedral(&self) -> bool {
        self.inner.polyhedral()
    }
}

/// Pairs apart along their centre line by at least 1e-3 of their size: `intersection` decides them from the first
/// support of each shape, with no loop step (zero iterations, one support call per shape), and `distance` with a
/// `max_distance` below the gap stops there too, with the placement's gap as its lower bound; f64 and f32. Shapes
/// wrapped so that no closed form answers instead.
fn centre_line_one_support<V: Space3>(seed: u64) {
    let mut rng = rng(seed);
    for case in 0..500 {
        let size = 10f64.powf(uniform(&mut rng, -2.0, 1.0));
        let (sa, sb) = (spec3(&mut rng, size), spec3(&mut rng, size));
        let offset = OFFSETS[rng.gen_range(0..OFFSETS.len())];
        let gap = GAPS[rng.gen_range(3..GAPS.len())] * size;
        if !resolved::<V::Real>(gap, size, offset) {
            continue;
        }
        let pa = Iso::new(unit_quat(&mut rng), unit3(&mut rng) * offset);
        let rot_b = unit_quat(&mut rng);
        let (a64, b64) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
        let pb = Iso::new(rot_b, Placement::CentreLine(gap).place(&*a64, &pa, &*b64, rot_b, unit3(&mut rng)));
        let (a, b) = (build3::<V>(&sa), build3::<V>(&sb));
        let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
        let what = format!("{} case {case}: {sa:?} vs {sb:?}, gap {gap:e}, offset {offset:e}", V::NAME);
        let ca = Counted { inner: &*a, calls: Cell::new(0) };
        let cb = Counted { inner: &*b, calls: Cell::new(0) };
        let r = intersection(&ca, &pa, &cb, &pb, &DistanceOptions::default(), None, &mut ());
        assert!(!r.intersecting && r.status == Status::Converged, "{what}: {r:?}");
        assert_eq!((r.iterations, ca.calls.get(), cb.calls.get()), (0, 1, 1), "{what}");
        let bounded = DistanceOptions { max_distance: Some(real(gap * 0.5)), ..DistanceOptions::default() };
        // Through the counting wrappers, which hide the shapes' closed-form hooks (a ball against a capsule would
        // answer the exact distance, which the centre line only bounds): the general path's start.
        let d = distance_with(&ca, &pa, &cb, &pb, &bounded, None, &mut ());
        assert_eq!((d.status, d.iterations, ca.calls.get(), cb.calls.get()), (Status::AboveBound, 0, 2, 2), "{what}");
        // The lower bound is the gap between the supporting planes across the centre line: the placement's gap.
        // 1 %: the placement is rounded by a few ulps of the offset, which `resolved` keeps under 1/1024 of the gap.
        let err = (d.distance.to_f64() - gap).abs();
        assert!(err <= 1e-2 * gap, "{what}: lower bound {:e}", d.distance.to_f64());
    }
}

#[test]
fn pairs_apart_along_the_centre_line_take_one_support_per_shape_f64() {
    centre_line_one_support::<DVec3>(145);
}

#[test]
fn pairs_apart_along_the_centre_line_take_one_support_per_shape_f32() {
    centre_line_one_support::<gjk::math::Vec3>(146);
}
