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

use crate::common::pairs::{build3, draw2, draw3, real, resolved, spec3, Placement};
use crate::common::{rng, uniform, unit3, unit_quat, Space2, Space3};
use gjk::math::{DVec2, DVec3, Iso, Real, Vector};
use gjk::shape::SupportMap;
use gjk::{distance_with, intersection, DistanceOptions, Intersection, Status};
use rand::rngs::SmallRng;
use rand::Rng;
use std::cell::Cell;

/// Gaps between the shapes, as fractions of their size.
const GAPS: [f64; 8] = [1e-6, 1e-5, 1e-4, 1e-3, 0.03, 0.3, 1.0, 10.0];

/// Offsets of the pair from the origin.
const OFFSETS: [f64; 4] = [0.0, 10.0, 1e3, 1e4];

/// Fewer pairs decided at the start than this (of 3000, about 1000–1300 are) means the early rule has stopped firing.
const TALLY_MIN: usize = 800;

/// A random placement: touching (a quarter), apart along a random direction or along the centre line by one of
/// the gaps (× `size`), or overlapping.
fn any_placement(rng: &mut SmallRng, size: f64) -> Placement {
    let gap = GAPS[rng.gen_range(0..GAPS.len())] * size;
    match rng.gen_range(0..8) {
        0 | 1 => Placement::Apart(0.0),
        2 | 3 => Placement::Apart(gap),
        4 | 5 => Placement::CentreLine(gap),
        _ => Placement::Overlap(uniform(rng, 0.0, 0.999)),
    }
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

/// Random pairs of random families in 3D, placed by [`any_placement`]: every boolean answer agrees with the
/// distance query and with the placement; returns how many were decided at the start.
fn run3<V: Space3>(seed: u64, n: usize) -> Tally {
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for case in 0..n {
        let pair = draw3::<V>(&mut rng, case, &OFFSETS, any_placement);
        tally.add(pair.agree(), pair.placement, pair.size, pair.offset, &pair.what);
    }
    tally
}

/// The 2D counterpart of [`run3`].
fn run2<V: Space2>(seed: u64, n: usize) -> Tally {
    let mut rng = rng(seed);
    let mut tally = Tally::default();
    for case in 0..n {
        let pair = draw2::<V>(&mut rng, case, &OFFSETS, any_placement);
        tally.add(pair.agree(), pair.placement, pair.size, pair.offset, &pair.what);
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
