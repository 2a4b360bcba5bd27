//! The support vertex of a large convex polygon in O(log n): a binary search over its edge normals' angles.
//!
//! Around a counter-clockwise convex polygon the outward edge normals turn monotonically through one full turn,
//! and vertex i supports exactly the directions between the normals of the edges that meet there (edge i − 1,
//! from vertex i − 1 to i, and edge i). So the support vertex of a direction is the start of the first edge whose
//! normal comes at or after the direction: a binary search over the normals' angles, sorted once at construction.
//!
//! The angles are *pseudo-angles* (a monotone function of the true angle, one division and no trigonometry),
//! computed in f64. Where two normals are within rounding of each other the search may land one vertex off; a
//! short walk to the better neighbour ends it, and on a convex polygon a vertex neither of whose neighbours is
//! farther along the direction is the farthest of all, so the answer is exact. The walk strictly increases the dot
//! product, so it cannot cycle, and it is bounded by the vertex count.

use crate::math::{Real, Vector};
use alloc::vec::Vec;

/// Vertex count from which a polygon's support searches instead of scanning (the scan is vectorised and beats
/// the search's dependent loads on small polygons; see `bench/RESULTS.md`, support crossover).
pub const POLYGON_SEARCH_MIN_VERTICES: usize = 64;

/// The edge normals' pseudo-angles of a convex polygon, rotated to start at the smallest so they increase, and a
/// table that narrows the search to one slice of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct AngleIndex {
    /// `angles[j]` is the pseudo-angle of the normal of edge `(first + j) mod n`, non-decreasing in `j`.
    angles: Vec<f64>,
    /// The edge whose normal has the smallest pseudo-angle.
    first: usize,
    /// `buckets[k]` is the number of angles below `k / scale`, for k = 0 ..= 4 · scale: the angles of bucket k,
    /// [k / scale, (k + 1) / scale), are `angles[buckets[k]..buckets[k + 1]]`. A search is one read here and a
    /// few inside the slice, instead of log₂ n dependent reads across the whole array — which, with the vertices,
    /// no longer fits the first-level cache at a few thousand vertices.
    buckets: Vec<u32>,
    /// Buckets per unit of pseudo-angle: a power of two, so that `phi · scale` and `k / scale` are exact.
    scale: f64,
}

/// Most buckets per unit of pseudo-angle (the table is then 4 · 1024 + 1 indices, 16 KiB).
const MAX_BUCKET_SCALE: usize = 1024;

/// A monotone stand-in for the angle of (x, y) in [0, 4): 0 along +x, 1 along +y, 2 along −x, 3 along −y. NaN
/// for the zero vector (and non-finite input).
#[inline(always)]
fn pseudo_angle(x: f64, y: f64) -> f64 {
    let p = x / (x.abs() + y.abs());
    if y >= 0.0 {
        1.0 - p
    } else {
        3.0 + p
    }
}

impl AngleIndex {
    /// The index of a counter-clockwise convex polygon's `vertices`, or an empty one (the polygon then scans) when
    /// it has fewer than [`POLYGON_SEARCH_MIN_VERTICES`] or its normals do not turn monotonically once around (a
    /// polygon that is not strictly convex in f64, which the hull never gives but a caller's points could).
    pub fn new<V: Vector>(vertices: &[V]) -> Self {
        let n = vertices.len();
        if V::DIM != 2 || n < POLYGON_SEARCH_MIN_VERTICES {
            return Self::default();
        }
        let xy = |i: usize| {
            let v = vertices[i % n];
            (v.get(0).to_f64(), v.get(1).to_f64())
        };
        let normal = |i: usize| {
            let ((x0, y0), (x1, y1)) = (xy(i), xy(i + 1));
            // The outward normal of a counter-clockwise edge: the edge turned clockwise.
            pseudo_angle(y1 - y0, x0 - x1)
        };
        let raw: Vec<f64> = (0..n).map(normal).collect();
        if raw.iter().any(|a| !a.is_finite()) {
            return Self::default();
        }
        let first = (0..n).fold(0, |m, i| if raw[i] < raw[m] { i } else { m });
        let angles: Vec<f64> = (0..n).map(|j| raw[(first + j) % n]).collect();
        if angles.windows(2).any(|w| w[1] < w[0]) {
            return Self::default();
        }
        // About two angles per bucket on a regular polygon.
        let per_unit = (n / 8).next_power_of_two().clamp(1, MAX_BUCKET_SCALE);
        let scale = per_unit as f64;
        let buckets = (0..=4 * per_unit).map(|k| angles.partition_point(|&a| a < k as f64 / scale) as u32).collect();
        Self { angles, first, buckets, scale }
    }

    /// True when the polygon scans instead.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.angles.is_empty()
    }

    /// The index of the vertex farthest along `dir` (vertex 0 for a zero or non-finite direction). Requires a
    /// non-empty index built from `vertices`.
    #[inline]
    pub fn support<V: Vector>(&self, vertices: &[V], dir: V) -> usize {
        let phi = pseudo_angle(dir.get(0).to_f64(), dir.get(1).to_f64());
        if !phi.is_finite() {
            return 0;
        }
        let n = self.angles.len();
        // The first edge whose normal is at or after `dir`; past the last one the turn wraps to the first. Every
        // angle before bucket k's slice is below phi and every one after it above, so the search stays inside.
        let k = ((phi * self.scale) as usize).min(self.buckets.len() - 2);
        let (lo, hi) = (self.buckets[k] as usize, self.buckets[k + 1] as usize);
        let j = lo + self.angles[lo..hi].partition_point(|&a| a < phi);
        let start = self.first + if j == n { 0 } else { j };
        climb(vertices, dir, if start >= n { start - n } else { start })
    }

    /// [`support`](Self::support) from a hint: the search's vertex, or the hint when it is strictly farther along
    /// `dir`. The hint alone is not trusted even when both its neighbours are behind it: in f32 a vertex of a
    /// 4096-gon can beat its neighbours by rounding only, a local maximum far from the true one.
    #[inline]
    pub fn support_hinted<V: Vector>(&self, vertices: &[V], dir: V, hint: u32) -> usize {
        let found = self.support(vertices, dir);
        let h = hint as usize;
        if h < vertices.len() && vertices[h].dot(dir) > vertices[found].dot(dir) {
            return h;
        }
        found
    }
}

/// From `start`, step to the neighbour farther along `dir` while there is one (at most `n` steps).
#[inline]
fn climb<V: Vector>(vertices: &[V], dir: V, start: usize) -> usize {
    let n = vertices.len();
    let mut cur = start;
    let mut best = vertices[cur].dot(dir);
    for _ in 0..n {
        let next = if cur + 1 == n { 0 } else { cur + 1 };
        let prev = if cur == 0 { n - 1 } else { cur - 1 };
        let (dn, dp) = (vertices[next].dot(dir), vertices[prev].dot(dir));
        if dn > best && dn >= dp {
            (cur, best) = (next, dn);
        } else if dp > best {
            (cur, best) = (prev, dp);
        } else {
            break;
        }
    }
    cur
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{DVec2, Vec2};

    /// The farthest dot product along `dir` (the reference the search must reach).
    fn best<V: Vector>(vertices: &[V], dir: V) -> V::Real {
        vertices.iter().map(|v| v.dot(dir)).fold(V::Real::from_f64(f64::NEG_INFINITY), |m, d| m.max(d))
    }

    /// Pseudo-angles increase with the true angle over a full turn.
    #[test]
    fn pseudo_angle_is_monotone() {
        let mut prev = -1.0;
        for k in 0..10_000 {
            let t = k as f64 / 10_000.0 * core::f64::consts::TAU;
            let a = pseudo_angle(t.cos(), t.sin());
            assert!(a >= prev, "{k}: {a} < {prev}");
            assert!((0.0..4.0).contains(&a));
            prev = a;
        }
        assert!(pseudo_angle(0.0, 0.0).is_nan());
    }

    /// Regular polygons of every size and phase, f64 and f32: the search reaches the largest dot product for
    /// thousands of directions, including the edge normals themselves (two vertices tie) and the axes.
    #[test]
    fn search_reaches_the_maximum_on_regular_polygons() {
        for n in [64, 65, 100, 257, 2048] {
            for phase in [0.0, 0.1, -1.0] {
                let pts: Vec<DVec2> = (0..n)
                    .map(|i| {
                        let t = phase + i as f64 / n as f64 * core::f64::consts::TAU;
                        DVec2::new(t.cos(), t.sin())
                    })
                    .collect();
                let index = AngleIndex::new(&pts);
                assert!(!index.is_empty());
                let pts32: Vec<Vec2> = pts.iter().map(|p| p.as_vec2()).collect();
                let index32 = AngleIndex::new(&pts32);
                for k in 0..4 * n + 7 {
                    let t = k as f64 / (4 * n + 7) as f64 * core::f64::consts::TAU;
                    for dir in [DVec2::new(t.cos(), t.sin()), pts[k % n] - pts[(k + 1) % n], DVec2::X, -DVec2::Y] {
                        let i = index.support(&pts, dir);
                        assert_eq!(pts[i].dot(dir), best(&pts, dir), "n {n} dir {dir}");
                        let d32 = dir.as_vec2();
                        if !index32.is_empty() {
                            let j = index32.support(&pts32, d32);
                            assert_eq!(pts32[j].dot(d32), best(&pts32, d32), "f32 n {n} dir {dir}");
                        }
                        for hint in [0, (k * 7) as u32 % n as u32, i as u32] {
                            let h = index.support_hinted(&pts, dir, hint);
                            assert_eq!(pts[h].dot(dir), best(&pts, dir));
                        }
                    }
                }
            }
        }
    }

    /// Not strictly convex in f64 (clockwise, or a repeated vertex): no index, the polygon scans.
    /// The unit-L1 direction whose pseudo-angle is `phi` (exact for dyadic `phi`).
    fn direction_at(phi: f64) -> DVec2 {
        match phi {
            p if p <= 2.0 => DVec2::new(1.0 - p, 1.0 - (1.0 - p).abs()),
            p => DVec2::new(p - 3.0, -(1.0 - (p - 3.0).abs())),
        }
    }

    /// Directions exactly on the bucket table's edges (k / scale), just either side of them, and just below a full
    /// turn, on a regular polygon and on a flat one whose normals crowd into a few buckets near ±y: the bucketed
    /// search reaches the maximum.
    #[test]
    fn bucket_edges_find_the_maximum() {
        for (n, flat) in [(2048, 1.0), (64, 1.0), (3000, 1e-4), (100, 1e-6)] {
            let pts: Vec<DVec2> = (0..n)
                .map(|i| {
                    let t = i as f64 / n as f64 * core::f64::consts::TAU;
                    DVec2::new(t.cos(), flat * t.sin())
                })
                .collect();
            let index = AngleIndex::new(&pts);
            assert!(!index.is_empty());
            let buckets = (index.buckets.len() - 1) as f64;
            for k in 0..=(buckets as usize) {
                let edge = k as f64 / index.scale;
                for phi in [edge, edge - 1e-12, edge + 1e-12, 4.0 - 1e-15] {
                    if !(0.0..4.0).contains(&phi) {
                        continue;
                    }
                    let dir = direction_at(phi);
                    let i = index.support(&pts, dir);
                    assert_eq!(pts[i].dot(dir), best(&pts, dir), "n {n} flat {flat} phi {phi}");
                }
            }
        }
    }

    #[test]
    fn no_index_for_a_clockwise_or_degenerate_cycle() {
        let ccw: Vec<DVec2> = (0..80).map(|i| DVec2::from_angle(i as f64 * 0.0785)).collect();
        assert!(!AngleIndex::new(&ccw).is_empty());
        let cw: Vec<DVec2> = ccw.iter().rev().copied().collect();
        assert!(AngleIndex::new(&cw).is_empty());
        let mut repeated = ccw.clone();
        repeated[5] = repeated[4];
        assert!(AngleIndex::new(&repeated).is_empty());
        assert!(AngleIndex::new(&ccw[..63]).is_empty());
    }
}
