//! Convex hulls of finite point clouds in 2D ([`hull2`]) and 3D ([`hull3`]), in plain `f64`, built to survive
//! degenerate input: duplicates, collinear or coplanar sets, slivers, near-duplicates, clouds far from the origin.
//!
//! # How the robustness is obtained
//!
//! 1. **Normalised frame.** The points are scaled by a power of two (exact) so that the largest coordinate
//!    magnitude is about 1, then the bounding-box centre is subtracted. No decision depends on the absolute scale,
//!    and floating-point geometry done in the centred frame keeps the significant digits of a small cloud far
//!    from the origin.
//! 2. **One distance tolerance**, `tol = 1e-11 × bounding-box diagonal + 8 ulp × largest coordinate magnitude`.
//!    The first term is the relative flatness threshold; the second absorbs the rounding the caller made when
//!    computing the coordinates (a point meant to lie on a plane at offset 1e5 is off it by about 1e-11).
//!    `tol` decides what is flat: whether the set is a point, a segment, a polygon or a polyhedron, which hull
//!    vertices are too close to collinear to be kept (2D) and which hull triangles are close enough to coplanar
//!    to be merged into one face (3D).
//! 3. **Exact combinatorics.** The hull itself is built with exact orientation tests, on integer coordinates:
//!    in 2D the centred points on a grid of 2^-50 of their extent, in 3D the input's own coordinates (see
//!    `dim3`). Exact tests cannot contradict each other, so (in 3D) the region a new point sees is always a disk
//!    bounded by one simple horizon cycle, and the construction can neither corrupt its topology nor loop.
//! 4. **Tolerant clean-up.** The exact hull is then simplified with `tol`, checking that no input point ends
//!    up more than `tol` outside the result.
//!
//! Everything is deterministic: no randomness, no hash maps, ties broken by input index.

#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use alloc::{vec, vec::Vec};
mod dim2;
mod dim3;

pub use dim2::hull2;
pub use dim3::hull3;

/// What the hull of a point set turned out to be. Degenerate sets are valid shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HullKind {
    /// Every point coincides with the others (within tolerance).
    Point,
    /// Every point lies on one line (within tolerance).
    Segment,
    /// Every point lies in one plane (within tolerance); the general case in 2D.
    Polygon,
    /// A 3D set with volume.
    Polyhedron,
}

/// 2D hull: indices into the input of the hull's vertices in counter-clockwise order, with no duplicates and no
/// collinear vertices (for [`HullKind::Segment`]: the two ends; [`HullKind::Point`]: one index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hull2 {
    /// What the hull is.
    pub kind: HullKind,
    /// Indices into the input of the hull's vertices, counter-clockwise.
    pub vertices: Vec<usize>,
}

/// 3D hull.
///
/// Every input point is inside the hull or within the tolerance of its surface (see the module documentation),
/// every hull vertex is an input point, and every vertex lies behind every face's plane within the tolerance.
///
/// Faces of a polyhedron are convex polygons: hull triangles coplanar within the tolerance are merged, vertices
/// in the middle of an edge are dropped and near-duplicate vertices (closer than tol/8) are merged. A face that
/// could not be merged soundly stays a triangle of the exact hull, so coplanar triangles can occur (on slivers
/// and needle-thin hulls, whose planes only the exact triangles pin down). Each face cycle starts at a wide
/// corner, so a normal taken from its first three vertices is sound; Newell's method is sounder still.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hull3 {
    /// What the hull is.
    pub kind: HullKind,
    /// Indices into the input of the hull's vertices (each distinct point once).
    pub vertices: Vec<usize>,
    /// For each entry of `vertices`, the positions (indices into `vertices`, not into the input) of its neighbours
    /// along hull edges. Polyhedron: the edge graph of the hull. Polygon: the polygon's cycle (previous, next).
    /// Segment: each end neighbours the other. Point: one empty list.
    pub neighbors: Vec<Vec<u32>>,
    /// Faces as cycles of positions into `vertices`, counter-clockwise seen from outside (outward normal by the
    /// right-hand rule). Polyhedron: every face. Polygon: two faces, the polygon and its reverse. Segment, Point:
    /// none.
    pub faces: Vec<Vec<u32>>,
}

/// Relative part of the tolerance, as a fraction of the bounding-box diagonal. A slab 1e-9 thick (relative) is
/// still a polyhedron; one thinner than half the tolerance (about 5e-12) is treated as flat.
const REL_TOL: f64 = 1e-11;

/// Input-rounding part of the tolerance, in ulps of the largest coordinate magnitude: coordinates computed by the
/// caller far from the origin carry that much rounding, which no relative threshold on the extent can see.
const INPUT_ULPS: f64 = 8.0;

/// The distance tolerance for a cloud with this bounding-box diagonal and largest coordinate magnitude.
fn tolerance(diagonal: f64, max_abs: f64) -> f64 {
    REL_TOL * diagonal + INPUT_ULPS * f64::EPSILON * max_abs
}

/// The input in the normalised frame, with the distance tolerance expressed in that frame. Indices are those of
/// the input.
struct Frame<const D: usize> {
    /// Scaled by a power of two into [-1, 1] (exactly), bounding box centred on the origin: for floating-point
    /// geometry.
    points: Vec<[f64; D]>,
    /// Scaled the same way but not centred, so still exactly the input (a power-of-two scaling is exact): for
    /// exact predicates, which need no centring and must not suffer its rounding.
    scaled: Vec<[f64; D]>,
    tol: f64,
}

fn normalise<const D: usize>(input: &[[f64; D]]) -> Frame<D> {
    let (s1, s2) = power_of_two_scale(max_abs(input));
    let scaled: Vec<[f64; D]> = input.iter().map(|p| p.map(|x| x * s1 * s2)).collect();
    let (lo, hi) = bounding_box(&scaled);
    let centre: [f64; D] = core::array::from_fn(|k| 0.5 * (lo[k] + hi[k]));
    let points = scaled.iter().map(|p| core::array::from_fn(|k| p[k] - centre[k])).collect();
    let diagonal = (0..D).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
    let tol = tolerance(diagonal, max_abs(&scaled));
    Frame { points, scaled, tol }
}

fn max_abs<const D: usize>(points: &[[f64; D]]) -> f64 {
    points.iter().flatten().fold(0.0, |m: f64, x| m.max(x.abs()))
}

/// Two powers of two whose product brings `max_abs` into (0.5, 1]. Two factors because a single one could
/// overflow or underflow for magnitudes near the ends of the `f64` range; powers of two make the scaling exact.
fn power_of_two_scale(max_abs: f64) -> (f64, f64) {
    if max_abs == 0.0 || !max_abs.is_finite() {
        return (1.0, 1.0);
    }
    let factors = |e: i32| (2f64.powi(-e / 2), 2f64.powi(-e - (-e / 2)));
    let mut e = max_abs.log2().ceil() as i32;
    // log2 rounds: correct by one if the scaled maximum landed just outside (0.5, 1].
    let (s1, s2) = factors(e);
    let m = max_abs * s1 * s2;
    if m > 1.0 {
        e += 1;
    } else if m <= 0.5 {
        e -= 1;
    }
    factors(e)
}

fn bounding_box<const D: usize>(points: &[[f64; D]]) -> ([f64; D], [f64; D]) {
    let mut lo = [f64::INFINITY; D];
    let mut hi = [f64::NEG_INFINITY; D];
    for p in points {
        for k in 0..D {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo, hi)
}

/// Snaps centred coordinates onto an integer grid spanning `[-2^bits, 2^bits]` over the cloud's largest
/// coordinate magnitude. Returns the integer points and the grid step (in the frame's units).
fn snap<const D: usize>(points: &[[f64; D]], bits: i32) -> (Vec<[i64; D]>, f64) {
    let m = max_abs(points);
    if m == 0.0 || !m.is_finite() {
        return (vec![[0; D]; points.len()], 1.0);
    }
    let limit = 2f64.powi(bits);
    let step = m / limit;
    // The clamp only matters for a last-bit rounding up; it keeps the i128 overflow bounds of the callers true.
    let grid = points.iter().map(|p| p.map(|x| (x / step).round().clamp(-limit, limit) as i64)).collect();
    (grid, step)
}

/// Distinct grid points: `reps[k]` is the smallest input index of the k-th distinct point (in lexicographic order
/// of the grid coordinates), and `of[i]` is the distinct point input `i` landed on.
struct Distinct {
    reps: Vec<usize>,
    of: Vec<usize>,
}

fn distinct<T: Ord + Copy>(grid: &[T]) -> Distinct {
    let mut order: Vec<usize> = (0..grid.len()).collect();
    order.sort_unstable_by_key(|&i| (grid[i], i));
    let mut reps: Vec<usize> = Vec::new();
    let mut of = vec![0; grid.len()];
    for &i in &order {
        if reps.last().map(|&r| grid[r]) != Some(grid[i]) {
            reps.push(i);
        }
        of[i] = reps.len() - 1;
    }
    Distinct { reps, of }
}

/// Index of the first item with the largest key (0 if there is none or every key is NaN).
fn argmax<T>(items: &[T], key: impl Fn(&T) -> f64) -> usize {
    let mut best = 0;
    let mut best_key = f64::NEG_INFINITY;
    for (i, item) in items.iter().enumerate() {
        let k = key(item);
        if k > best_key {
            best = i;
            best_key = k;
        }
    }
    best
}

#[cfg(test)]
mod testutil {
    /// Xorshift64: a tiny deterministic generator for test clouds.
    pub struct Rng(u64);

    impl Rng {
        pub fn new(seed: u64) -> Self {
            Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
        }

        pub fn next_u64(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        /// Uniform in [lo, hi).
        pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
            let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * unit
        }

        /// Uniform integer in [0, n).
        pub fn below(&mut self, n: u64) -> u64 {
            self.next_u64() % n
        }
    }

    /// The tolerance the hull uses, expressed in the input's units (what a test may allow as error).
    pub fn input_tolerance<const D: usize>(points: &[[f64; D]]) -> f64 {
        let (lo, hi) = super::bounding_box(points);
        let diagonal = (0..D).map(|k| (hi[k] - lo[k]).powi(2)).sum::<f64>().sqrt();
        super::tolerance(diagonal, super::max_abs(points))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalised_frame_is_centred_and_scale_free() {
        let pts = [[1e5 + 1.0, -3.0], [1e5 - 1.0, 5.0]];
        let f = normalise(&pts);
        let (lo, hi) = bounding_box(&f.points);
        assert_eq!(lo[0], -hi[0]);
        assert_eq!(lo[1], -hi[1]);
        // Scaling the input by a power of two scales nothing in the frame.
        let g = normalise(&pts.map(|p| p.map(|x| x * 0.125)));
        assert_eq!(f.points, g.points);
        assert_eq!(f.tol, g.tol);
    }

    #[test]
    fn extreme_magnitudes_scale_without_overflow() {
        for m in [1e-310, 1e-300, 1e300, f64::MAX] {
            let f = normalise(&[[m, -m], [-m, m]]);
            assert!(f.points.iter().flatten().all(|x| x.is_finite() && x.abs() <= 1.0), "{m}");
            assert!(f.tol > 0.0 && f.tol < 1e-9, "{m}");
        }
    }

    #[test]
    fn snapping_keeps_duplicates_together_and_orders_lexicographically() {
        let pts = [[0.5, 0.0], [-0.5, 0.25], [0.5, 0.0], [-0.5, -0.25]];
        let (grid, step) = snap(&pts, 40);
        assert_eq!(step, 0.5 / 2f64.powi(40));
        let d = distinct(&grid);
        assert_eq!(d.reps, vec![3, 1, 0]);
        assert_eq!(d.of, vec![2, 1, 2, 0]);
    }
}
