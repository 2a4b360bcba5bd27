//! Two large convex polygons: GJK walks the boundary of A − B by the vertices' indices (`gjk::walk`). Checked
//! against brute force over every vertex–edge pair (the distance) and every edge (the separating axes, so the
//! overlap and its depth), and against the same query with the walk hidden behind a wrapper, on random convex
//! polygons of 64 to 4096 vertices (points on circles and ellipses, with duplicated and collinear points), f32 and
//! f64: separated, touching, nearly touching (gaps of 1e-6), penetrating, and offsets of 1e4.

use crate::common::{angle, rng, uniform, Opaque};
use gjk::math::{DVec2, Iso, Real, Rot2, Vec2, Vector};
use gjk::shape::ConvexPolytope;
use gjk::{distance, intersects, penetration};

/// Signed separation of two convex polygons (world vertices, counter-clockwise) by their edges' axes: the largest
/// over every edge of either of the gap between its line and the other polygon (positive: apart by at least this).
fn sat(a: &[DVec2], b: &[DVec2]) -> f64 {
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        // Edges of zero length (vertices equal once in f32) have no axis.
        (0..p.len())
            .filter(|&i| p[(i + 1) % p.len()] != p[i])
            .map(|i| {
                let e = p[(i + 1) % p.len()] - p[i];
                let n = DVec2::new(e.y, -e.x).normalize();
                q.iter().map(|x| n.dot(*x - p[i])).fold(f64::INFINITY, f64::min)
            })
            .fold(f64::NEG_INFINITY, f64::max)
    };
    one_way(a, b).max(one_way(b, a))
}

/// The distance between two disjoint convex polygons: the least over every vertex of one and edge of the other.
fn brute_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
    let point_edge = |x: DVec2, p: DVec2, q: DVec2| {
        let e = q - p;
        let t = ((x - p).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        (p + e * t - x).length()
    };
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        q.iter()
            .flat_map(|x| (0..p.len()).map(move |i| (x, i)))
            .map(|(x, i)| point_edge(*x, p[i], p[(i + 1) % p.len()]))
            .fold(f64::INFINITY, f64::min)
    };
    one_way(a, b).min(one_way(b, a))
}

/// A polygon's vertices in the world, computed in f64 from the values the query is given (its vertices and pose
/// in its own precision), so the reference describes exactly the configuration the query sees.
fn world<V: Vector>(hull: &ConvexPolytope<V>, pose: &Iso<DVec2>) -> Vec<DVec2> {
    hull.vertices().iter().map(|v| pose.transform_point(DVec2::new(v.get(0).to_f64(), v.get(1).to_f64()))).collect()
}

/// One configuration, checked in V's precision. `tol` is the rounding allowed on top of the answers' bounds.
fn check<V: Vector>(
    (a, pa, pa64): (&ConvexPolytope<V>, &Iso<V>, &Iso<DVec2>),
    (b, pb, pb64): (&ConvexPolytope<V>, &Iso<V>, &Iso<DVec2>),
    tol: f64,
    what: &str,
) {
    let (wa, wb) = (world(a, pa64), world(b, pb64));
    let gap = sat(&wa, &wb);
    let d = distance(a, pa, b, pb);
    let hidden = distance(&Opaque(a), pa, &Opaque(b), pb);
    let (got, bound) = (d.distance.to_f64(), d.error_bound.to_f64());
    let (reference, ref_bound) = (hidden.distance.to_f64(), hidden.error_bound.to_f64());
    assert!((got - reference).abs() <= bound + ref_bound + tol, "{what}: {got} ± {bound} vs unwalked {reference}");
    if gap > tol {
        let exact = brute_distance(&wa, &wb);
        assert!(!d.intersecting, "{what}: apart by {gap}, called intersecting");
        assert!((got - exact).abs() <= bound + tol, "{what}: distance {got} ± {bound} vs brute force {exact}");
        assert!(!intersects(a, pa, b, pb), "{what}: apart by {gap}, intersects");
    } else if gap < -tol {
        assert!(d.intersecting, "{what}: overlapping by {gap}, called apart at {got}");
        assert!(intersects(a, pa, b, pb), "{what}: overlapping by {gap}, does not intersect");
        let p = penetration(a, pa, b, pb);
        let (depth, pbound) = (p.depth.to_f64(), p.error_bound.to_f64());
        assert!((depth + gap).abs() <= pbound + tol, "{what}: depth {depth} ± {pbound} vs brute force {}", -gap);
    }
}

/// `n` points on an ellipse of semi-axes (1, `flat`), every fifth repeated and, with `collinear`, runs of points
/// along a chord (inside, so the hull drops them, or on it).
fn cloud(r: &mut impl FnMut() -> f64, n: usize, flat: f64, collinear: bool) -> Vec<DVec2> {
    let mut pts: Vec<DVec2> = (0..n)
        .map(|_| {
            let t = r() * 7.0;
            DVec2::new(t.cos(), flat * t.sin())
        })
        .collect();
    for i in (0..n).step_by(5) {
        pts.push(pts[i]);
    }
    if collinear {
        let (p, q) = (pts[0], pts[1]);
        pts.extend((1..40).map(|k| p + (q - p) * (k as f64 / 40.0)));
    }
    pts
}

/// Both precisions: B moved along the brute-force normal to the wanted signed gap (apart, touching, 1e-6,
/// overlapping), A and B far from the origin or near it.
#[test]
fn walked_polygon_pairs_match_brute_force() {
    let mut g = rng(0x9019_0014);
    let mut checked = 0;
    for (k, &n) in [64usize, 65, 100, 257, 1000, 2048, 4096].iter().enumerate() {
        for case in 0..if n >= 2048 { 3 } else { 8 } {
            let mut r = || uniform(&mut g, 0.0, 1.0);
            let flat = if case % 3 == 2 { 0.3 } else { 1.0 };
            let (ca, cb) = (cloud(&mut r, n, flat, case % 2 == 1), cloud(&mut r, n, 1.0, false));
            let a = ConvexPolytope::new(&ca).unwrap();
            let b = ConvexPolytope::new(&cb).unwrap();
            let offset = if case % 4 == 3 { 1e4 } else { 0.0 };
            let pa = Iso::new(Rot2::from_angle(angle(&mut g)), DVec2::new(offset, -offset));
            let dir = DVec2::from_angle(angle(&mut g));
            let pb0 = Iso::new(Rot2::from_angle(angle(&mut g)), pa.translation + dir * 3.0);
            // Move B along the normal so that the gap becomes `want`.
            let (wa, wb) = (world(&a, &pa), world(&b, &pb0));
            let d0 = brute_distance(&wa, &wb);
            let want = [0.5, 1e-6, 0.0, -1e-6, -0.2, 1e-3][(case + k) % 6];
            let pb = Iso::new(pb0.rotation, pb0.translation - dir * (d0 - want));
            let size = 1.0 + offset;
            check((&a, &pa, &pa), (&b, &pb, &pb), 1e-12 * size, &format!("f64 n {n} case {case} gap {want}"));
            let (a32, b32) = (to32(&ca), to32(&cb));
            let (pa32, pb32) = (iso32(&pa), iso32(&pb));
            let (pa64, pb64) = (iso64(&pa32), iso64(&pb32));
            let what = format!("f32 n {n} case {case} gap {want}");
            check((&a32, &pa32, &pa64), (&b32, &pb32, &pb64), 1e-5 * size, &what);
            checked += 1;
        }
    }
    assert_eq!(checked, 46);
}

fn to32(points: &[DVec2]) -> ConvexPolytope<Vec2> {
    ConvexPolytope::new(&points.iter().map(|p| p.as_vec2()).collect::<Vec<_>>()).unwrap()
}

fn iso32(p: &Iso<DVec2>) -> Iso<Vec2> {
    let r = p.rotation;
    Iso::new(Rot2::from_angle(r.sin.atan2(r.cos) as f32), p.translation.as_vec2())
}

/// The f32 pose's values, exactly, in f64.
fn iso64(p: &Iso<Vec2>) -> Iso<DVec2> {
    Iso::new(Rot2 { cos: p.rotation.cos as f64, sin: p.rotation.sin as f64 }, p.translation.as_dvec2())
}

/// Two polygons of 2048 and 4096 vertices on circles, nearly touching (gaps 1e-4 to 1e-3, the benchmark's regime)
/// and apart: GJK alone halves the angle to A − B's nearest edge a step (8 iterations at 2048 vertices, a curved
/// shape's pace) before the walk can start; the support along the secant of the first two directions lands within
/// a walk of the nearest edge (`walk::secant`). Every answer must match brute force, nearly touching in at most 3
/// iterations (3 are seen; 8 or 9 without the secant).
#[test]
fn nearly_touching_circle_polygons_are_walked_after_one_secant() {
    let mut g = rng(0x5ECA_2048);
    for &n in &[2048usize, 4096] {
        for case in 0..6 {
            let mut r = || uniform(&mut g, 0.0, 1.0);
            let circle =
                |r: &mut dyn FnMut() -> f64| -> Vec<DVec2> { (0..n).map(|_| DVec2::from_angle(r() * 7.0)).collect() };
            let (ca, cb) = (circle(&mut r), circle(&mut r));
            let (a, b) = (ConvexPolytope::new(&ca).unwrap(), ConvexPolytope::new(&cb).unwrap());
            let pa = Iso::new(Rot2::from_angle(angle(&mut g)), DVec2::new(0.3, -0.2));
            let dir = DVec2::from_angle(angle(&mut g));
            let pb0 = Iso::new(Rot2::from_angle(angle(&mut g)), pa.translation + dir * 3.0);
            let d0 = brute_distance(&world(&a, &pa), &world(&b, &pb0));
            let want = if case == 5 { 0.5 } else { 1e-4 + 2e-4 * case as f64 };
            let pb = Iso::new(pb0.rotation, pb0.translation - dir * (d0 - want));
            let exact = brute_distance(&world(&a, &pa), &world(&b, &pb));
            let d = distance(&a, &pa, &b, &pb);
            let what = format!("n {n} case {case} gap {want}");
            assert!(
                (d.distance - exact).abs() <= d.error_bound + 1e-12,
                "{what}: {} vs brute force {exact}",
                d.distance
            );
            // Apart by 0.5, the first support points may face the origin before the secant's turn: the walk then
            // starts from them, one iteration later (4 at 4096 vertices).
            let most = if case == 5 { 4 } else { 3 };
            assert!(d.iterations <= most, "{what}: {} iterations", d.iterations);
        }
    }
}
