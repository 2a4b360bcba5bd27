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

use crate::common::pairs::{draw2, draw3, Placement};
use crate::common::{rng, Space2, Space3};
use gjk::math::{DVec2, DVec3};
use rand::rngs::SmallRng;
use rand::Rng;

/// Gaps between the shapes, as fractions of their size.
const GAPS: [f64; 8] = [1e-9, 1e-7, 1e-5, 1e-3, 0.03, 0.3, 1.0, 10.0];

/// Offsets of the pair from the origin.
const OFFSETS: [f64; 4] = [0.0, 10.0, 1e3, 1e5];

/// Touching (a quarter), or apart by one of the gaps (× `size`): along the centre line (a quarter) or along a
/// random direction.
fn apart_or_touching(rng: &mut SmallRng, size: f64) -> Placement {
    match rng.gen_range(0..4) {
        0 => Placement::Apart(0.0),
        1 => Placement::CentreLine(GAPS[rng.gen_range(0..GAPS.len())] * size),
        _ => Placement::Apart(GAPS[rng.gen_range(0..GAPS.len())] * size),
    }
}

/// Random pairs of random families in 3D, apart or touching: every boolean answer agrees with the distance query
/// and with the placement.
fn run3<V: Space3>(seed: u64, n: usize) {
    let mut rng = rng(seed);
    for case in 0..n {
        draw3::<V>(&mut rng, case, &OFFSETS, apart_or_touching).agree();
    }
}

/// The 2D counterpart of [`run3`].
fn run2<V: Space2>(seed: u64, n: usize) {
    let mut rng = rng(seed);
    for case in 0..n {
        draw2::<V>(&mut rng, case, &OFFSETS, apart_or_touching).agree();
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
