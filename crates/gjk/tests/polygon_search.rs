//! Large polygons find their support vertex by a binary search over edge normals (`POLYGON_SEARCH_MIN_VERTICES`
//! and up). Checked against brute force on random and degenerate polygons: points on a circle, a needle 1e-9
//! thick, a square with long collinear runs and duplicated points, a thin ellipse far from the origin, f32 and
//! f64; every direction's answer must reach the largest dot product over the hull's vertices exactly (from
//! `support`, and from `support_hinted` with any hint) and over the input points within the hull's rounding.

use crate::common::{rng, uniform};
use gjk::math::{DVec2, Real, Vec2, Vector};
use gjk::shape::{ConvexPolytope, SupportMap, POLYGON_SEARCH_MIN_VERTICES};

fn check<V: Vector>(points: &[V], dirs: &[V], what: &str) {
    let hull = ConvexPolytope::new(points).expect("a valid cloud");
    let verts = hull.vertices();
    let mut hint = 0u32;
    for (k, &d) in dirs.iter().enumerate() {
        let best = verts.iter().map(|v| v.dot(d).to_f64()).fold(f64::NEG_INFINITY, f64::max);
        let got = hull.support(d).dot(d).to_f64();
        assert_eq!(got, best, "{what}: support along {d:?} ({} vertices)", verts.len());
        let hinted = hull.support_hinted(d, &mut hint).dot(d).to_f64();
        assert_eq!(hinted, best, "{what}: hinted support along {d:?}");
        let mut far_hint = (k * 7919) as u32;
        assert_eq!(hull.support_hinted(d, &mut far_hint).dot(d).to_f64(), best, "{what}: from hint {k}");
        // The hull drops points within its rounding of an edge: the input's best is no farther than that (1e-9 of
        // the size, or 64 ulps of the precision: f32 dot products along short edge normals differ by ~40 ulps).
        let input = points.iter().map(|p| p.dot(d).to_f64()).fold(f64::NEG_INFINITY, f64::max);
        let scale = points.iter().map(|p| p.max_abs().to_f64()).fold(0.0, f64::max) * d.max_abs().to_f64();
        let rel = (64.0 * V::Real::EPSILON.to_f64()).max(1e-9);
        assert!(input - got <= rel * scale.max(f64::MIN_POSITIVE), "{what}: input {input} vs {got}");
    }
}

fn directions(n: usize, seed: u64) -> Vec<DVec2> {
    let mut r = rng(seed);
    let mut dirs: Vec<DVec2> = (0..n).map(|_| DVec2::from_angle(uniform(&mut r, -4.0, 4.0))).collect();
    dirs.extend([DVec2::X, -DVec2::X, DVec2::Y, -DVec2::Y, DVec2::new(1.0, 1e-300), DVec2::new(-1e-17, 1.0)]);
    dirs
}

fn both_precisions(points: &[DVec2], dirs: &[DVec2], what: &str) {
    check(points, dirs, what);
    let p32: Vec<Vec2> = points.iter().map(|p| p.as_vec2()).collect();
    let d32: Vec<Vec2> = dirs.iter().map(|d| d.as_vec2()).collect();
    check(&p32, &d32, &format!("{what} (f32)"));
}

/// Random points on a circle, 64 to 4096 of them, and their edge normals as directions (two vertices tie there).
#[test]
fn random_circles_match_brute_force() {
    let mut r = rng(0x9019_0001);
    for n in [POLYGON_SEARCH_MIN_VERTICES, 100, 512, 2048, 4096] {
        let points: Vec<DVec2> = (0..n).map(|_| DVec2::from_angle(uniform(&mut r, 0.0, 7.0))).collect();
        let mut dirs = directions(2000, n as u64);
        let hull = ConvexPolytope::new(&points).unwrap();
        let v = hull.vertices();
        dirs.extend((0..v.len()).map(|i| (v[(i + 1) % v.len()] - v[i]).perp()));
        both_precisions(&points, &dirs, &format!("circle of {n}"));
    }
}

/// Degenerate clouds: a needle 1e-9 thick (two long flat sides), a square with 500 collinear points per side and
/// every point twice, a thin ellipse at 1e5, and a polygon of many vertices within 1e-12 of a circle's arc.
#[test]
fn degenerate_polygons_match_brute_force() {
    let mut r = rng(0x9019_0002);
    let dirs = directions(3000, 7);
    let needle: Vec<DVec2> =
        (0..300).map(|i| DVec2::new(i as f64 / 299.0 * 2.0 - 1.0, if i % 2 == 0 { 1e-9 } else { -1e-9 })).collect();
    both_precisions(&needle, &dirs, "needle");
    let mut square = Vec::new();
    for i in 0..500 {
        let t = i as f64 / 500.0 * 2.0 - 1.0;
        square.extend([DVec2::new(t, -1.0), DVec2::new(1.0, t), DVec2::new(-t, 1.0), DVec2::new(-1.0, -t)]);
    }
    square.extend(square.clone());
    both_precisions(&square, &dirs, "square with collinear runs, duplicated");
    let ellipse: Vec<DVec2> = (0..3000)
        .map(|_| {
            let t = uniform(&mut r, 0.0, 7.0);
            DVec2::new(1e5 + t.cos(), -1e5 + 1e-3 * t.sin())
        })
        .collect();
    both_precisions(&ellipse, &dirs, "thin ellipse at 1e5");
    let arc: Vec<DVec2> = (0..2048).map(|i| DVec2::from_angle(i as f64 * 1e-7)).chain([DVec2::ZERO]).collect();
    both_precisions(&arc, &dirs, "fine arc");
}
