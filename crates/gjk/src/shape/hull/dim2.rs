//! 2D convex hull.
//!
//! The set is first classified with the tolerance (point, segment, or something with area). A polygon is then
//! built in two steps: Andrew's monotone chain with exact orientation tests on a fine integer grid, which gives
//! the exact hull with every duplicate and exactly collinear point dropped; then the removal of vertices that are
//! within the tolerance of the chord joining their neighbours, checked so that no point is ever left more than
//! the tolerance outside the result.

use super::{argmax, bounding_box, distinct, normalise, snap, Hull2, HullKind};
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use alloc::{vec, vec::Vec};

/// Snapped coordinates are integers in `[-2^50, 2^50]`: differences stay below 2^51, so cross products stay
/// below 2^103 (exact in `i128`) and every snapped coordinate converts to `f64` exactly. The step, 2^-50 of the
/// cloud's half-size, is far below the tolerance, so snapping moves no point measurably.
const GRID_BITS: i32 = 50;

/// Convex hull of a 2D point set: the indices of its vertices, counter-clockwise, without duplicates or
/// collinear vertices. Degenerate sets give a [`HullKind::Segment`] (the two ends) or a [`HullKind::Point`].
/// Never panics; `points` should be non-empty and finite (an empty slice gives a `Point` with no vertex).
#[must_use]
pub fn hull2(points: &[[f64; 2]]) -> Hull2 {
    let frame = normalise(points);
    hull2_in_frame(&frame.points, frame.tol)
}

/// Hull of points already in a centred frame, with the distance tolerance `tol` in that frame. The 3D hull uses
/// it for coplanar sets, on the points projected onto their plane.
pub(super) fn hull2_in_frame(pts: &[[f64; 2]], tol: f64) -> Hull2 {
    if pts.is_empty() {
        return Hull2 { kind: HullKind::Point, vertices: Vec::new() };
    }
    let (lo, hi) = bounding_box(pts);
    let extent = [hi[0] - lo[0], hi[1] - lo[1]];
    // Every point within `tol` of every other: any one of them stands for the set.
    if extent[0].hypot(extent[1]) <= tol {
        return Hull2 { kind: HullKind::Point, vertices: vec![0] };
    }
    // The extremes along the longer side of the bounding box are at least diagonal/√2 apart, so the direction
    // between them is well conditioned: if no point is farther than tol/2 from that line, the set is a segment.
    // (Half, because the segment's own ends, the extreme projections, are off that line too: every point is then
    // within `tol` of the segment between them.)
    let axis = usize::from(extent[1] > extent[0]);
    let a = argmax(pts, |p| -p[axis]);
    let b = argmax(pts, |p| p[axis]);
    let dir = unit(sub(pts[b], pts[a]));
    let off_line = pts.iter().fold(0.0, |m: f64, &p| m.max(cross(dir, sub(p, pts[a])).abs()));
    if off_line <= 0.5 * tol {
        return segment(pts, dir);
    }
    // Only reachable if the exact hull collapses, which the test above rules out; kept as the safe answer.
    polygon(pts, tol).unwrap_or_else(|| segment(pts, dir))
}

/// The set seen as a segment along `dir`: its ends are the extreme projections.
fn segment(pts: &[[f64; 2]], dir: [f64; 2]) -> Hull2 {
    let lo = argmax(pts, |&p| -dot(dir, p));
    let hi = argmax(pts, |&p| dot(dir, p));
    if lo == hi {
        return Hull2 { kind: HullKind::Point, vertices: vec![lo] };
    }
    Hull2 { kind: HullKind::Segment, vertices: vec![lo, hi] }
}

/// The exact hull of the snapped points, then simplified with `tol`. `None` if fewer than three vertices remain.
fn polygon(pts: &[[f64; 2]], tol: f64) -> Option<Hull2> {
    let (grid, step) = snap(pts, GRID_BITS);
    let uniq = distinct(&grid);
    // `distinct` lists the points in lexicographic order, which is the order the monotone chain needs.
    let sorted: Vec<[i64; 2]> = uniq.reps.iter().map(|&i| grid[i]).collect();
    let ring = monotone_chain(&sorted);
    if ring.len() < 3 {
        return None;
    }
    // Snapping moved each point by at most 0.71 grid steps, so a point within `tol` − 2 steps of an edge on the
    // grid is within `tol` of it in the frame.
    let kept = drop_flat_vertices(&sorted, &ring, (tol / step - 2.0).max(0.0));
    if kept.len() < 3 {
        return None;
    }
    Some(Hull2 { kind: HullKind::Polygon, vertices: kept.iter().map(|&k| uniq.reps[k]).collect() })
}

/// Andrew's monotone chain over distinct points sorted lexicographically: indices of the strictly convex hull,
/// counter-clockwise from the lowest-leftmost point. A chain vertex is popped unless the turn through it is
/// strictly to the left (exact test), which drops collinear points.
fn monotone_chain(p: &[[i64; 2]]) -> Vec<usize> {
    let n = p.len();
    if n < 3 {
        return (0..n).collect();
    }
    let mut hull: Vec<usize> = Vec::with_capacity(n + 1);
    // Lower chain, left to right, then upper chain, right to left; each keeps only left turns.
    let passes = [(0..n).collect::<Vec<_>>(), (0..n - 1).rev().collect()];
    for (pass, order) in passes.iter().enumerate() {
        // The upper chain may not pop into the finished lower chain (whose last point it starts from).
        let floor = if pass == 0 { 2 } else { hull.len() + 1 };
        for &i in order {
            while hull.len() >= floor && turn(p[hull[hull.len() - 2]], p[hull[hull.len() - 1]], p[i]) <= 0 {
                hull.pop();
            }
            hull.push(i);
        }
    }
    // The upper chain ends on the starting point.
    hull.pop();
    hull
}

/// Twice the signed area of (o, a, b): positive when o → a → b turns left. Exact for snapped coordinates.
fn turn(o: [i64; 2], a: [i64; 2], b: [i64; 2]) -> i128 {
    let (ax, ay) = (i128::from(a[0]) - i128::from(o[0]), i128::from(a[1]) - i128::from(o[1]));
    let (bx, by) = (i128::from(b[0]) - i128::from(o[0]), i128::from(b[1]) - i128::from(o[1]));
    ax * by - ay * bx
}

/// Removes vertices of the exact convex polygon `ring` (indices into `p`, counter-clockwise) that lie within `tol`
/// (grid units) of the chord joining their neighbours: near-duplicates and nearly collinear points.
///
/// Dropping vertices one at a time with only a local test would let the error accumulate: on a very flat arc each
/// vertex is within `tol` of its neighbours' chord, yet the final chord can pass far inside the arc. So every
/// edge remembers the vertices dropped under it, and a vertex is only dropped if all of those, and itself, are
/// within `tol` of the new, longer edge. Every input point lies in the exact hull, whose part cut off by an edge is
/// the convex polygon spanned by the dropped vertices, so every input point ends within `tol` of the result.
/// The result is a subset of a strictly convex polygon, hence strictly convex itself.
fn drop_flat_vertices(p: &[[i64; 2]], ring: &[usize], tol: f64) -> Vec<usize> {
    let m = ring.len();
    let at = |k: usize| p[ring[k]].map(|x| x as f64);
    let mut prev: Vec<usize> = (0..m).map(|k| (k + m - 1) % m).collect();
    let mut next: Vec<usize> = (0..m).map(|k| (k + 1) % m).collect();
    let mut alive = vec![true; m];
    // under[k]: the vertices dropped between vertex k and its current successor.
    let mut under: Vec<Vec<usize>> = vec![Vec::new(); m];
    let mut live = m;
    // Each successful drop queues two vertices, so the loop runs at most 3m times.
    let mut work: Vec<usize> = (0..m).rev().collect();
    while let Some(v) = work.pop() {
        if live <= 3 {
            break;
        }
        if !alive[v] {
            continue;
        }
        let (a, b) = (prev[v], next[v]);
        let mut candidates = under[a].iter().chain(core::iter::once(&v)).chain(under[v].iter());
        if !candidates.all(|&k| distance_to_segment(at(a), at(b), at(k)) <= tol) {
            continue;
        }
        let mut merged = core::mem::take(&mut under[a]);
        merged.push(v);
        merged.append(&mut under[v]);
        under[a] = merged;
        alive[v] = false;
        next[a] = b;
        prev[b] = a;
        live -= 1;
        work.push(b);
        work.push(a);
    }
    let start = (0..m).find(|&k| alive[k]).unwrap_or(0);
    let mut out = Vec::with_capacity(live);
    let mut k = start;
    for _ in 0..live {
        out.push(ring[k]);
        k = next[k];
    }
    out
}

/// Euclidean distance from `x` to the segment [a, b]. (Not to the line: a dropped vertex that projects beyond an
/// end of the new edge would otherwise be accepted while lying far from the polygon.)
fn distance_to_segment(a: [f64; 2], b: [f64; 2], x: [f64; 2]) -> f64 {
    let ab = sub(b, a);
    let ax = sub(x, a);
    let len2 = dot(ab, ab);
    let t = if len2 > 0.0 { (dot(ax, ab) / len2).clamp(0.0, 1.0) } else { 0.0 };
    let foot = [a[0] + t * ab[0], a[1] + t * ab[1]];
    let d = sub(x, foot);
    d[0].hypot(d[1])
}

fn sub(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn unit(a: [f64; 2]) -> [f64; 2] {
    let len = a[0].hypot(a[1]);
    [a[0] / len, a[1] / len]
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{input_tolerance, Rng};
    use super::*;

    /// Checks everything a polygon hull promises: valid distinct indices, strict convexity counter-clockwise,
    /// and every input point inside or within `slack` × tolerance of the boundary.
    fn check_polygon(points: &[[f64; 2]], hull: &Hull2, slack: f64) {
        assert_eq!(hull.kind, HullKind::Polygon);
        let v = &hull.vertices;
        assert!(v.len() >= 3, "{v:?}");
        let mut sorted = v.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), v.len(), "duplicate vertex index");
        assert!(v.iter().all(|&i| i < points.len()));
        // Scaled by a power of two like the hull does (exactly), so that clouds of size 1e-300 do not underflow.
        let frame = normalise(points);
        let (points, tol) = (&frame.scaled[..], slack * frame.tol);
        // Work relative to the first vertex so clouds far from the origin keep their digits.
        let origin = points[v[0]];
        let rel = |i: usize| sub(points[i], origin);
        let m = v.len();
        for k in 0..m {
            let (a, b, c) = (rel(v[k]), rel(v[(k + 1) % m]), rel(v[(k + 2) % m]));
            assert!(cross(sub(b, a), sub(c, b)) > 0.0, "not strictly convex at {k}: {v:?}");
            let edge = unit(sub(b, a));
            for i in 0..points.len() {
                let outside = cross(sub(rel(i), a), edge);
                assert!(outside <= tol, "point {i} is {outside:e} outside edge {k} (tol {tol:e})");
            }
        }
    }

    fn random_cloud(rng: &mut Rng, n: usize, size: f64) -> Vec<[f64; 2]> {
        (0..n).map(|_| [rng.range(-size, size), rng.range(-size, size)]).collect()
    }

    #[test]
    fn random_clouds_in_a_square() {
        let mut rng = Rng::new(1);
        for n in [3, 4, 5, 10, 100, 1000] {
            for _ in 0..20 {
                let pts = random_cloud(&mut rng, n, 1.0);
                let hull = hull2(&pts);
                check_polygon(&pts, &hull, 1.0);
            }
        }
    }

    #[test]
    fn random_points_on_a_circle_are_all_vertices() {
        let mut rng = Rng::new(2);
        let pts: Vec<[f64; 2]> = (0..500)
            .map(|_| {
                let t = rng.range(0.0, core::f64::consts::TAU);
                [t.cos(), t.sin()]
            })
            .collect();
        let hull = hull2(&pts);
        check_polygon(&pts, &hull, 1.0);
        assert_eq!(hull.vertices.len(), 500);
    }

    #[test]
    fn square_with_duplicates_edge_midpoints_and_interior_keeps_the_corners() {
        let corners = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let mut pts = vec![[0.5, 0.5], [0.5, 0.0], [1.0, 0.5], [0.5, 1.0], [0.0, 0.5], [0.25, 0.0]];
        for _ in 0..3 {
            pts.extend_from_slice(&corners);
        }
        let hull = hull2(&pts);
        check_polygon(&pts, &hull, 1.0);
        // The first copy of each corner, counter-clockwise from (0, 0).
        assert_eq!(hull.vertices, vec![6, 7, 8, 9]);
    }

    #[test]
    fn rotated_square_with_edge_points_keeps_only_the_corners() {
        let (s, c) = 0.3f64.sin_cos();
        let rot = |p: [f64; 2]| [c * p[0] - s * p[1], s * p[0] + c * p[1]];
        let mut pts: Vec<[f64; 2]> = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]].map(rot).to_vec();
        for k in 1..10 {
            let t = k as f64 / 10.0;
            pts.extend([[t, 0.0], [1.0, t], [t, 1.0], [0.0, t]].map(rot));
        }
        let hull = hull2(&pts);
        check_polygon(&pts, &hull, 1.0);
        let mut v = hull.vertices.clone();
        v.sort_unstable();
        assert_eq!(v, vec![0, 1, 2, 3]);
    }

    #[test]
    fn collinear_points_give_a_segment_with_the_extreme_ends() {
        let mut rng = Rng::new(3);
        let mut pts: Vec<[f64; 2]> = (0..50).map(|_| rng.range(0.1, 0.9)).map(|t| [1.0 + 2.0 * t, 3.0 - t]).collect();
        pts.insert(17, [3.0, 2.0]);
        pts.insert(5, [1.0, 3.0]);
        let hull = hull2(&pts);
        assert_eq!(hull.kind, HullKind::Segment);
        assert_eq!(hull.vertices, vec![5, 18]);
    }

    #[test]
    fn single_and_repeated_point_give_a_point() {
        assert_eq!(hull2(&[[1.5, -2.0]]), Hull2 { kind: HullKind::Point, vertices: vec![0] });
        let hull = hull2(&[[1e5, 7.0]; 9]);
        assert_eq!(hull, Hull2 { kind: HullKind::Point, vertices: vec![0] });
    }

    #[test]
    fn two_points_give_a_segment() {
        let hull = hull2(&[[1.0, 1.0], [0.0, 0.0]]);
        assert_eq!(hull, Hull2 { kind: HullKind::Segment, vertices: vec![1, 0] });
    }

    #[test]
    fn needle_thinner_than_tolerance_is_a_segment_thicker_is_a_polygon() {
        let mut rng = Rng::new(4);
        for (width, kind) in [(1e-14, HullKind::Segment), (1e-9, HullKind::Polygon)] {
            let pts: Vec<[f64; 2]> = (0..200).map(|_| [rng.range(-1.0, 1.0), rng.range(-width, width)]).collect();
            let hull = hull2(&pts);
            assert_eq!(hull.kind, kind, "width {width:e}");
            if kind == HullKind::Polygon {
                check_polygon(&pts, &hull, 1.0);
            }
        }
    }

    #[test]
    fn cloud_offset_by_1e5_matches_the_cloud_at_the_origin() {
        let mut rng = Rng::new(5);
        let pts: Vec<[f64; 2]> = (0..300)
            .map(|_| {
                let (r, t) = (rng.range(0.0, 1.0).sqrt(), rng.range(0.0, core::f64::consts::TAU));
                [r * t.cos(), r * t.sin()]
            })
            .collect();
        let far: Vec<[f64; 2]> = pts.iter().map(|p| [p[0] + 1e5, p[1] - 1e5]).collect();
        let (near_hull, far_hull) = (hull2(&pts), hull2(&far));
        check_polygon(&pts, &near_hull, 1.0);
        check_polygon(&far, &far_hull, 1.0);
        // Shifting rounds the coordinates by ~1e-11, far less than the gaps between these hull vertices.
        assert_eq!(near_hull.vertices, far_hull.vertices);
    }

    #[test]
    fn tiny_cloud_of_size_1e_3_matches_unit_size() {
        let mut rng = Rng::new(6);
        for _ in 0..20 {
            let pts = random_cloud(&mut rng, 200, 1.0);
            let tiny: Vec<[f64; 2]> = pts.iter().map(|p| p.map(|x| x * 1e-3)).collect();
            let (a, b) = (hull2(&pts), hull2(&tiny));
            check_polygon(&tiny, &b, 1.0);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn flat_arc_does_not_let_dropped_points_accumulate_outside() {
        // A parabola sagging 1e-9 over its width, sampled so densely that each point is far within tolerance of
        // its neighbours' chord: dropping by a local test alone would cut 1e-9 into the arc.
        let n = 2001;
        let mut pts: Vec<[f64; 2]> = (0..n)
            .map(|k| {
                let x = 2.0 * k as f64 / (n - 1) as f64 - 1.0;
                [x, -1e-9 * (1.0 - x * x)]
            })
            .collect();
        pts.push([0.0, 1.0]);
        let hull = hull2(&pts);
        check_polygon(&pts, &hull, 1.01);
        assert!(hull.vertices.len() > 4, "the sag is far beyond tolerance and must keep vertices");
    }

    #[test]
    fn integer_lattice_subsets_with_many_collinear_points() {
        let mut rng = Rng::new(7);
        for _ in 0..500 {
            let n = 1 + rng.below(12) as usize;
            let pts: Vec<[f64; 2]> = (0..n).map(|_| [rng.below(4) as f64, rng.below(4) as f64]).collect();
            let hull = hull2(&pts);
            match hull.kind {
                HullKind::Polygon => check_polygon(&pts, &hull, 1.0),
                HullKind::Segment => {
                    let [a, b] = [pts[hull.vertices[0]], pts[hull.vertices[1]]];
                    let dir = sub(b, a);
                    for &p in &pts {
                        assert_eq!(cross(dir, sub(p, a)), 0.0);
                        let t = dot(dir, sub(p, a)) / dot(dir, dir);
                        assert!((0.0..=1.0).contains(&t));
                    }
                }
                _ => assert!(pts.iter().all(|&p| p == pts[0])),
            }
        }
    }

    fn check_any(pts: &[[f64; 2]], hull: &Hull2, slack: f64) {
        let tol = slack * input_tolerance(pts);
        match hull.kind {
            HullKind::Polygon => check_polygon(pts, hull, slack),
            HullKind::Segment => {
                let (a, b) = (pts[hull.vertices[0]], pts[hull.vertices[1]]);
                let dir = unit(sub(b, a));
                let len = dot(dir, sub(b, a));
                for &p in pts {
                    assert!(cross(dir, sub(p, a)).abs() <= tol, "off the segment's line");
                    let t = dot(dir, sub(p, a));
                    assert!(t >= -tol && t <= len + tol, "beyond the segment's ends");
                }
            }
            _ => {
                let a = pts[hull.vertices[0]];
                assert!(pts.iter().all(|&p| sub(p, a)[0].hypot(sub(p, a)[1]) <= tol));
            }
        }
    }

    /// Thousands of small clouds built to be nasty: values differing in the last bit, exact and rotated lattices,
    /// near-duplicate clusters at the tolerance's scale, needles, lenses, tiny clouds far from the origin.
    #[test]
    fn adversarial_near_degenerate_clouds() {
        // FUZZ (iterations), FUZZ_SEED and FUZZ_N (largest cloud) tune a longer run.
        let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
        let mut rng = Rng::new(env("FUZZ_SEED", 778));
        let (iters, max_n) = (env("FUZZ", 2000), env("FUZZ_N", 60));
        let (s, c) = 0.7f64.sin_cos();
        let rot = |p: [f64; 2]| [c * p[0] - s * p[1], s * p[0] + c * p[1]];
        for it in 0..iters {
            let kind = rng.below(6);
            let n = 1 + rng.below(max_n) as usize;
            let mut pts: Vec<[f64; 2]> = match kind {
                0 => {
                    let vals = [0.0, 1.0, 1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0, 0.5, 1e-300, -1.0];
                    (0..n).map(|_| [0; 2].map(|_| vals[rng.below(vals.len() as u64) as usize])).collect()
                }
                1 => (0..n).map(|_| rot([rng.below(3) as f64, rng.below(3) as f64])).collect(),
                2 => {
                    let base = random_cloud(&mut rng, 4, 1.0);
                    (0..n)
                        .map(|_| {
                            let b = base[rng.below(4) as usize];
                            let s = [1e-13, 1e-12, 1e-11, 1e-10][rng.below(4) as usize];
                            b.map(|x| x + rng.range(-s, s))
                        })
                        .collect()
                }
                3 => (0..n).map(|_| [0; 2].map(|_| 1e5 + rng.range(-1e-3, 1e-3))).collect(),
                4 => {
                    let s = [0.0, 1e-14, 1e-12, 1e-11, 3e-11, 1e-10][rng.below(6) as usize];
                    (0..n).map(|_| rot([rng.range(-1.0, 1.0), rng.range(-s, s)])).collect()
                }
                _ => {
                    // dense flat arcs
                    let sag = [1e-12, 1e-11, 1e-10, 1e-9][rng.below(4) as usize];
                    (0..n)
                        .map(|_| {
                            let x = rng.range(-1.0, 1.0);
                            rot([x, sag * (1.0 - x * x)])
                        })
                        .collect()
                }
            };
            if rng.below(4) == 0 {
                let k = pts.len();
                for i in 0..k {
                    if rng.below(3) == 0 {
                        pts.push(pts[i]);
                    }
                }
            }
            let hull = hull2(&pts);
            // Checked on the points scaled by a power of two (exact), so sets of size 1e-300 do not underflow.
            let scaled = normalise(&pts).scaled;
            if std::panic::catch_unwind(|| check_any(&scaled, &hull, 1.0)).is_err() {
                println!("FAIL it {it} kind {kind}\nPTS {pts:?}\nHULL {hull:?}");
                panic!("adversarial cloud {it} (kind {kind}) failed");
            }
        }
    }

    #[test]
    fn non_finite_input_does_not_panic() {
        // Outside the contract (the caller checks finiteness), but must still return.
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let _ = hull2(&[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [bad, 0.5]]);
            let _ = hull2(&[[bad, bad]]);
        }
        assert_eq!(hull2(&[]).vertices, Vec::<usize>::new());
    }

    #[test]
    fn same_input_gives_same_output() {
        let mut rng = Rng::new(8);
        let pts = random_cloud(&mut rng, 400, 3.0);
        assert_eq!(hull2(&pts), hull2(&pts));
    }
}
