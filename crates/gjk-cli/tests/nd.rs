//! Lines in ℝᵏ (k > 3): `convex` / `point` / `segment` / `sphere` with k coordinates, translations, `distance`
//! and `intersect`, `"simplices": true`. Answers against the library's `gjk::nd` run at exactly k (the CLI runs
//! in the next built size with zero coordinates: the answers must agree), against closed forms, and errors for
//! everything ℝᵏ does not support — one output line per input line, same ids.

mod support;

use gjk::math::VecN;
use gjk::nd::PointSet;
use serde_json::json;
use support::{nums, run};

/// A deterministic cloud: `m` points of ℝᵏ (a small LCG, so the test needs no generator).
fn cloud(seed: u64, m: usize, k: usize, shift: f64) -> Vec<Vec<f64>> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    (0..m).map(|_| (0..k).map(|i| next() + if i == 0 { shift } else { 0.0 }).collect()).collect()
}

/// The library at exactly N = k on the same clouds.
fn library<const N: usize>(a: &[Vec<f64>], b: &[Vec<f64>]) -> gjk::nd::Distance<N> {
    let set = |p: &[Vec<f64>]| PointSet::new(p.iter().map(|c| VecN::<N>::from_slice(c).unwrap()).collect()).unwrap();
    gjk::nd::distance(&set(a), &VecN::ZERO, &set(b), &VecN::ZERO)
}

fn check_against_library<const N: usize>(seed: u64) {
    let mut lines = Vec::new();
    let mut cases = Vec::new();
    for i in 0..6 {
        let a = cloud(seed + i, 2 * N, N, 0.0);
        let b = cloud(seed + 100 + i, N + 3, N, [0.5, 2.0, 3.0][i as usize % 3]);
        lines.push(json!({"id": i, "query": "distance", "a": {"type": "convex", "points": a},
                          "b": {"type": "convex", "points": b}, "simplices": true}));
        lines.push(json!({"id": format!("i{i}"), "query": "intersect", "a": {"type": "convex", "points": a},
                          "b": {"type": "convex", "points": b}}));
        cases.push((a, b));
    }
    let answers = run(&lines);
    for (i, (a, b)) in cases.iter().enumerate() {
        let (d, x) = (&answers[2 * i], &answers[2 * i + 1]);
        let lib = library::<N>(a, b);
        assert_eq!(d["intersecting"], lib.intersecting);
        assert_eq!(x["intersecting"], lib.intersecting, "intersect agrees with distance");
        assert!((d["distance"].as_f64().unwrap() - lib.distance).abs() < 1e-12, "k={N}: {d} vs {}", lib.distance);
        let pa = nums(&d["point_a"]);
        assert_eq!(pa.len(), N);
        // simplex_a: A's points with weights summing to one, reproducing point_a; indices name A's points.
        let s = &d["simplex_a"];
        let (idx, pts, w) = (s["indices"].as_array().unwrap(), s["points"].as_array().unwrap(), nums(&s["weights"]));
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-12 && w.iter().all(|&x| x > 0.0));
        let mut rebuilt = vec![0.0; N];
        for ((i, p), wt) in idx.iter().zip(pts).zip(&w) {
            let p = nums(p);
            assert_eq!(p, a[i.as_u64().unwrap() as usize]);
            for k in 0..N {
                rebuilt[k] += wt * p[k];
            }
        }
        for k in 0..N {
            assert!((rebuilt[k] - pa[k]).abs() < 1e-12);
        }
        assert!(nums(&d["simplex_b"]["weights"]).iter().sum::<f64>() - 1.0 < 1e-12);
    }
}

#[test]
fn convex_lines_agree_with_the_library_at_k() {
    check_against_library::<4>(1);
    check_against_library::<7>(2);
    check_against_library::<16>(3);
    check_against_library::<33>(4);
}

#[test]
fn point_segment_sphere_closed_forms_in_r6() {
    let answers = run(&[
        json!({"id": 1, "query": "distance", "a": {"type": "segment", "a": [0,0,0,0,0,0], "b": [2,0,0,0,0,0]},
               "b": {"type": "sphere", "radius": 0.5}, "pose_b": {"translation": [1,0,0,0,0,3]}, "simplices": true}),
        json!({"id": 2, "query": "distance", "a": {"type": "point", "at": [1,1,1,1,1,1]},
               "b": {"type": "point", "at": [0,0,0,0,0,0]}, "pose_a": {"translation": [-1,-1,-1,-1,-1,-1]}}),
        json!({"id": 3, "query": "intersect", "a": {"type": "sphere", "radius": 1},
               "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [0,0,0,0,0,2]}}),
        json!({"id": 4, "query": "intersect", "a": {"type": "ball", "radius": 1},
               "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [0,0,0,0,0,2.000001]}}),
    ]);
    assert!((answers[0]["distance"].as_f64().unwrap() - 2.5).abs() < 1e-15);
    assert_eq!(nums(&answers[0]["point_a"]), vec![1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    // The segment's closest point is the middle of its two ends: both, weight ½ each.
    assert_eq!(nums(&answers[0]["simplex_a"]["weights"]), vec![0.5, 0.5]);
    assert_eq!(answers[1]["distance"], 0.0);
    assert_eq!(answers[1]["intersecting"], true);
    assert_eq!(answers[2]["intersecting"], true, "touching spheres");
    assert_eq!(answers[3]["intersecting"], false);
}

#[test]
fn what_rk_does_not_support_is_an_error_line() {
    let sphere = json!({"type": "sphere", "radius": 1});
    let p4 = json!({"type": "point", "at": [1, 2, 3, 4]});
    let answers = run(&[
        json!({"id": "mixed", "query": "distance", "a": p4, "b": sphere, "pose_b": {"translation": [1, 2, 3]}}),
        json!({"id": "rot", "query": "distance", "a": p4, "b": sphere, "pose_b": {"rotation": [0, 0, 0, 1]}}),
        json!({"id": "pen", "query": "penetration", "a": p4, "b": sphere}),
        json!({"id": "box", "query": "distance", "a": {"type": "box", "half_extents": [1, 1, 1, 1]}, "b": sphere}),
        json!({"id": "big", "query": "distance", "a": {"type": "point", "at": vec![0.0; 65]}, "b": sphere}),
        json!({"id": "empty", "query": "distance", "a": {"type": "convex", "points": []}, "b": p4}),
        json!({"id": "neg", "query": "distance", "a": p4, "b": {"type": "sphere", "radius": -1}}),
        json!({"id": "flag", "query": "distance", "a": p4, "b": sphere, "simplices": 1}),
        json!({"id": "3d", "query": "distance", "a": sphere, "b": sphere, "simplices": true}),
        json!({"id": "ok", "query": "distance", "a": p4, "b": sphere}),
    ]);
    for a in &answers[..8] {
        assert!(a["error"].is_string(), "{a}");
    }
    // A 3D line with simplices is answered (docs/cli.md, "Witness simplices"): each sphere by its centre.
    assert_eq!(answers[8]["simplex_a"], json!({"indices": [0], "points": [[0.0, 0.0, 0.0]], "weights": [1.0]}));
    assert_eq!(answers[8]["simplex_b"]["indices"], json!([0]));
    assert!(answers[0]["error"].as_str().unwrap().contains("must all have k numbers"));
    assert!(answers[1]["error"].as_str().unwrap().contains("rotations are not supported"));
    assert!(answers[2]["error"].as_str().unwrap().contains("not supported in ℝᵏ"));
    assert!(answers[3]["error"].as_str().unwrap().contains("`box` is not supported"));
    assert!((answers[9]["distance"].as_f64().unwrap() - (30f64.sqrt() - 1.0)).abs() < 1e-14);
}
