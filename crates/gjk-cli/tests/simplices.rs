//! `"simplices": true` on 2D and 3D `distance` lines (docs/cli.md, "Witness simplices"): each answer's
//! `simplex_a` and `simplex_b` must reproduce the cores' closest points (to 1e-12 of the numbers in play), with
//! positive weights summing to one, at most DIM + 1 points, and indices naming input points (a convex shape's
//! `points`, a box's corners by their bits, a segment's ends, a triangle's vertices) equal to the listed points
//! placed by the pose. Lines without the flag keep their fields; the flag elsewhere is an error line.

mod support;

use serde_json::{json, Value};
use support::{nums, run, run_with};

/// A small deterministic generator (no dependency): numbers in [−1, 1).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64) / ((1u64 << 53) as f64) * 2.0 - 1.0
    }
    fn point(&mut self, dim: usize, s: f64) -> Vec<f64> {
        (0..dim).map(|_| s * self.next()).collect()
    }
}

/// A rotation (a quaternion in 3D, an angle in 2D) and a translation, as the line gives them.
fn pose(r: &mut Lcg, dim: usize, spread: f64) -> Value {
    if dim == 2 {
        json!({"rotation": 3.0 * r.next(), "translation": r.point(2, spread)})
    } else {
        let q: Vec<f64> = r.point(4, 1.0);
        let n = q.iter().map(|x| x * x).sum::<f64>().sqrt();
        json!({"rotation": q.iter().map(|x| x / n).collect::<Vec<_>>(), "translation": r.point(3, spread)})
    }
}

/// Applies a line's pose to a point (the same formulas as the library: q v q* + t, or the 2D rotation).
fn place(pose: &Value, p: &[f64]) -> Vec<f64> {
    let t = nums(&pose["translation"]);
    if pose["rotation"].is_null() {
        return p.iter().zip(&t).map(|(x, y)| x + y).collect();
    }
    if p.len() == 2 {
        let a = pose["rotation"].as_f64().unwrap();
        let (s, c) = a.sin_cos();
        vec![c * p[0] - s * p[1] + t[0], s * p[0] + c * p[1] + t[1]]
    } else {
        let q = nums(&pose["rotation"]);
        let (x, y, z, w) = (q[0], q[1], q[2], q[3]);
        // v + 2w (u × v) + 2 u × (u × v), u = (x, y, z).
        let u = [x, y, z];
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        };
        let v = [p[0], p[1], p[2]];
        let uv = cross(u, v);
        let uuv = cross(u, uv);
        (0..3).map(|k| v[k] + 2.0 * (w * uv[k] + uuv[k]) + t[k]).collect()
    }
}

/// The input points an index names: a convex shape's points, a box's corners (bit k set: +half_extents[k]), a
/// segment's ends, a triangle's vertices, a sphere's centre, a capsule's segment ends along y.
fn vertices(shape: &Value) -> Option<Vec<Vec<f64>>> {
    match shape["type"].as_str().unwrap() {
        "convex" | "polygon" | "polyhedron" => Some(shape["points"].as_array().unwrap().iter().map(nums).collect()),
        "box" | "rectangle" => {
            let h = nums(&shape["half_extents"]);
            Some(
                (0..1 << h.len())
                    .map(|i| (0..h.len()).map(|k| if i & (1 << k) != 0 { h[k] } else { -h[k] }).collect())
                    .collect(),
            )
        }
        "segment" => Some(vec![nums(&shape["a"]), nums(&shape["b"])]),
        "triangle" => Some(vec![nums(&shape["a"]), nums(&shape["b"]), nums(&shape["c"])]),
        "sphere" | "circle" => None,
        "capsule" => {
            let h = shape["half_height"].as_f64().unwrap();
            Some(vec![vec![0.0, -h, 0.0], vec![0.0, h, 0.0]])
        }
        _ => None,
    }
}

/// The radius a shape's core is rounded by (a cylinder's `radius` is not one: its core is itself).
fn radius(shape: &Value) -> f64 {
    match shape["type"].as_str().unwrap() {
        "sphere" | "circle" | "capsule" => shape["radius"].as_f64().unwrap(),
        _ => 0.0,
    }
}

/// How far the weighted sum of a simplex's points is from `want`, relative to the size of the numbers in play
/// (at least 1), and that size.
fn reproduction_error(points: &[Value], weights: &[f64], want: &[f64]) -> (f64, f64) {
    let mut sum = vec![0.0; want.len()];
    let mut size: f64 = 1.0;
    for (p, w) in points.iter().zip(weights) {
        for (k, x) in nums(p).iter().enumerate() {
            sum[k] += w * x;
            size = size.max(x.abs());
        }
    }
    (sum.iter().zip(want).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt() / size, size)
}

/// Checks one answer's simplices against its line; returns the largest error of the reproduced points relative
/// to the size of the numbers in play.
fn check(line: &Value, answer: &Value) -> f64 {
    let ctx = format!("{line} -> {answer}");
    assert!(answer["error"].is_null(), "{ctx}");
    let dim = nums(&answer["point_a"]).len();
    let normal = nums(&answer["normal"]);
    let mut worst: f64 = 0.0;
    for (side, point, shape, pose, sign) in
        [("simplex_a", "point_a", "a", "pose_a", -1.0), ("simplex_b", "point_b", "b", "pose_b", 1.0)]
    {
        let s = &answer[side];
        let (indices, points, weights) =
            (s["indices"].as_array().unwrap(), s["points"].as_array().unwrap(), nums(&s["weights"]));
        assert!(!weights.is_empty() && weights.len() <= dim + 1, "{ctx}: {} points", weights.len());
        assert!(indices.len() == weights.len() && points.len() == weights.len(), "{ctx}");
        assert!(weights.iter().all(|&w| w > 0.0), "{ctx}: weights {weights:?}");
        assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-14, "{ctx}: weights sum");
        // The core's closest point: the answer's point moved back by the radius along the normal.
        let r = radius(&line[shape]);
        let want: Vec<f64> = nums(&answer[point]).iter().zip(&normal).map(|(p, n)| p + sign * r * n).collect();
        let (err, size) = reproduction_error(points, &weights, &want);
        assert!(err <= 1e-12, "{ctx}: {side} reproduces {point} to {err:e}");
        worst = worst.max(err);
        let (Some(verts), pose) = (vertices(&line[shape]), &line[pose]) else { continue };
        for (i, p) in indices.iter().zip(points) {
            let i = i.as_u64().unwrap_or_else(|| panic!("{ctx}: an index for every point of {shape}")) as usize;
            let placed = if pose.is_null() { verts[i].clone() } else { place(pose, &verts[i]) };
            let d = placed.iter().zip(nums(p)).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
            assert!(d <= 1e-12 * size, "{ctx}: {side} point {i} is {d:e} from its input point");
        }
    }
    worst
}

fn distance(a: Value, pose_a: Value, b: Value, pose_b: Value, id: usize) -> Value {
    json!({"id": id, "query": "distance", "a": a, "pose_a": pose_a, "b": b, "pose_b": pose_b, "simplices": true})
}

#[test]
fn random_polytopes_boxes_segments_and_triangles_in_2d_and_3d() {
    let mut r = Lcg(15);
    let mut lines = Vec::new();
    for case in 0..120 {
        let dim = 2 + case % 2;
        let offset = [0.0, 1e4][case / 60];
        let spread = |r: &mut Lcg| {
            let mut p = pose(r, dim, 2.0);
            let t: Vec<f64> = nums(&p["translation"]).iter().map(|x| x + offset).collect();
            p["translation"] = json!(t);
            p
        };
        let convex = |r: &mut Lcg, n: usize| json!({"type": "convex", "points": (0..n).map(|_| r.point(dim, 1.0)).collect::<Vec<_>>()});
        let bx = |r: &mut Lcg| json!({"type": "box", "half_extents": (0..dim).map(|_| 0.2 + r.next().abs()).collect::<Vec<_>>()});
        let seg = |r: &mut Lcg| json!({"type": "segment", "a": r.point(dim, 1.0), "b": r.point(dim, 1.0)});
        let shapes: Vec<Value> = match case % 4 {
            0 => vec![convex(&mut r, 4 + case % 9), convex(&mut r, 3 + case % 5)],
            1 => vec![bx(&mut r), seg(&mut r)],
            2 => vec![seg(&mut r), convex(&mut r, 6)],
            _ if dim == 3 => {
                vec![
                    json!({"type": "triangle", "a": r.point(3, 1.0), "b": r.point(3, 1.0), "c": r.point(3, 1.0)}),
                    bx(&mut r),
                ]
            }
            _ => vec![bx(&mut r), bx(&mut r)],
        };
        let (pa, pb) = (spread(&mut r), spread(&mut r));
        lines.push(distance(shapes[0].clone(), pa, shapes[1].clone(), pb, case));
    }
    let answers = run(&lines);
    let mut worst: f64 = 0.0;
    let (mut apart, mut overlapping) = (0, 0);
    for (l, a) in lines.iter().zip(&answers) {
        worst = worst.max(check(l, a));
        if a["intersecting"] == true {
            overlapping += 1
        } else {
            apart += 1
        }
    }
    assert!(apart > 10 && overlapping > 10, "{apart} apart, {overlapping} overlapping");
    eprintln!("largest relative error of a reproduced point: {worst:e}");
}

/// Touching boxes (faces, edges, corners), one inside the other, and shapes with radii: a sphere's centre and a
/// box's face point against it (the closed form, written as the box corners it is a combination of), a capsule's
/// segment ends.
#[test]
fn touching_inside_and_rounded_cases() {
    let cube = json!({"type": "box", "half_extents": [0.5, 0.5, 0.5]});
    let at = |t: [f64; 3]| json!({"translation": t});
    let lines = vec![
        distance(cube.clone(), Value::Null, cube.clone(), at([1.0, 0.2, -0.1]), 0),
        distance(cube.clone(), Value::Null, cube.clone(), at([1.0, 1.0, 0.3]), 1),
        distance(cube.clone(), Value::Null, cube.clone(), at([1.0, 1.0, 1.0]), 2),
        distance(json!({"type": "box", "half_extents": [2, 2, 2]}), Value::Null, cube.clone(), at([0.1, 0.2, 0.3]), 3),
        distance(json!({"type": "sphere", "radius": 0.5}), Value::Null, cube.clone(), at([2.0, 0.1, 0.2]), 4),
        distance(
            json!({"type": "capsule", "half_height": 1, "radius": 0.25}),
            Value::Null,
            cube.clone(),
            at([2.0, 3.0, 0.0]),
            5,
        ),
        distance(
            json!({"type": "rectangle", "half_extents": [1, 2]}),
            Value::Null,
            json!({"type": "circle", "radius": 0.5}),
            at2([0.5, 4.0]),
            6,
        ),
        distance(
            json!({"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]}),
            Value::Null,
            json!({"type": "polygon", "points": [[0, 0], [1, 0], [0, 1]]}),
            at2([1.0, 0.0]),
            7,
        ),
    ];
    let answers = run(&lines);
    for (l, a) in lines.iter().zip(&answers) {
        check(l, a);
    }
    for i in [0, 1, 2, 3, 7] {
        assert_eq!(answers[i]["intersecting"], true, "{}", answers[i]);
    }
    // Face to face: the common point is on both boxes' faces, so on at most 3 corners of each (a 2D face's
    // triangle); the sphere's core is its centre, index 0.
    assert_eq!(answers[4]["simplex_a"], json!({"indices": [0], "points": [[0.0, 0.0, 0.0]], "weights": [1.0]}));
    // The box's nearest point to the sphere is on its −x face: its corners there have bit 0 clear.
    for i in answers[4]["simplex_b"]["indices"].as_array().unwrap() {
        assert_eq!(i.as_u64().unwrap() & 1, 0, "{}", answers[4]);
    }
}

fn at2(t: [f64; 2]) -> Value {
    json!({"translation": t})
}

/// Lines without the flag answer as before; curved cores get `null` indices; a mesh's leaf names its vertex; the
/// flag on another query (a composite's too), or with a value other than true / false / null, is an error line.
#[test]
fn the_flag_extends_distance_lines_only() {
    let ball = json!({"type": "sphere", "radius": 1});
    let mesh = json!({"type": "trimesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "indices": [[0, 1, 2]]});
    let far = json!({"translation": [3, 0, 0]});
    let lines = vec![
        json!({"id": 0, "query": "distance", "a": ball, "b": ball, "pose_b": far}),
        json!({"id": 1, "query": "distance", "a": ball, "b": ball, "pose_b": far, "simplices": false}),
        json!({"id": 2, "query": "distance", "a": {"type": "cylinder", "radius": 1, "half_height": 1}, "b": ball, "pose_b": far, "simplices": true}),
        json!({"id": 3, "query": "penetration", "a": ball, "b": ball, "simplices": true}),
        json!({"id": 4, "query": "distance", "a": mesh, "b": ball, "pose_b": far, "simplices": true}),
        json!({"id": 5, "query": "distance", "a": ball, "b": ball, "simplices": "yes"}),
        json!({"id": 6, "query": "penetration", "a": mesh, "b": ball, "simplices": true}),
    ];
    let answers = run(&lines);
    let keys = |a: &Value| a.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let plain = ["id", "intersecting", "distance", "point_a", "point_b", "normal", "iterations", "status"];
    assert_eq!(keys(&answers[0]), plain, "{}", answers[0]);
    assert_eq!(keys(&answers[1]), plain, "{}", answers[1]);
    check(&lines[2], &answers[2]);
    assert_eq!(answers[2]["simplex_a"]["indices"][0], Value::Null, "{}", answers[2]);
    // The mesh's one triangle is nearest the ball by its corner (1, 0, 0): vertex 1; the ball by its centre.
    assert_eq!(answers[4]["simplex_a"]["indices"], json!([1]), "{}", answers[4]);
    assert_eq!(answers[4]["simplex_b"]["points"], json!([[3.0, 0.0, 0.0]]), "{}", answers[4]);
    for a in [&answers[3], &answers[5], &answers[6]] {
        assert!(a["error"].is_string(), "{a}");
    }
}

/// A `mesh` file's hull names its points by their place in the file: an OBJ's `v` lines (random points, some inside
/// the hull, one listed twice), an ASCII STL's triangle corners (each shared corner repeated). Every index must be
/// given, be the first place of that point in the file, and the point listed must be the file's point placed by
/// the pose: checked as for a `convex` shape whose `points` are the file's vertices in file order.
#[test]
fn mesh_file_hulls_name_the_files_vertices() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("simplices-meshes");
    std::fs::create_dir_all(&dir).unwrap();
    let mut r = Lcg(11);
    let mut obj_points: Vec<Vec<f64>> = (0..40).map(|_| r.point(3, 1.0)).collect();
    obj_points.push(obj_points[5].clone());
    let obj: String = obj_points.iter().map(|p| format!("v {} {} {}\n", p[0], p[1], p[2])).collect();
    std::fs::write(dir.join("cloud.obj"), obj).unwrap();
    // A tetrahedron in binary-exact f32 numbers (STL stores f32): four facets, each corner listed three times.
    let tet = [[0.0, 0.0, 0.0], [1.5, 0.0, 0.0], [0.0, 1.25, 0.0], [0.0, 0.0, 0.75]];
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut stl = String::from("solid tet\n");
    let mut stl_points: Vec<Vec<f64>> = Vec::new();
    for f in faces {
        stl.push_str("facet normal 0 0 0\nouter loop\n");
        for k in f {
            stl.push_str(&format!("vertex {} {} {}\n", tet[k][0], tet[k][1], tet[k][2]));
            stl_points.push(tet[k].to_vec());
        }
        stl.push_str("endloop\nendfacet\n");
    }
    stl.push_str("endsolid tet\n");
    std::fs::write(dir.join("tet.stl"), stl).unwrap();

    let mut lines = Vec::new();
    let mut twins = Vec::new();
    for (path, points) in [("cloud.obj", &obj_points), ("tet.stl", &stl_points)] {
        for k in 0..40 {
            let other = match k % 3 {
                0 => {
                    json!({"type": "box", "half_extents": r.point(3, 1.0).iter().map(|x| x.abs() + 0.1).collect::<Vec<_>>()})
                }
                1 => json!({"type": "sphere", "radius": 0.3}),
                _ => json!({"type": "convex", "points": (0..6).map(|_| r.point(3, 0.8)).collect::<Vec<_>>()}),
            };
            let (pa, pb) = (pose(&mut r, 3, 4.0), pose(&mut r, 3, 4.0));
            let mesh = json!({"type": "mesh", "path": path});
            lines.push(distance(mesh, pa.clone(), other.clone(), pb.clone(), lines.len()));
            twins.push(distance(json!({"type": "convex", "points": points}), pa, other, pb, twins.len()));
        }
    }
    let answers = run_with(&["--mesh-dir", dir.to_str().unwrap()], &lines);
    std::fs::remove_dir_all(&dir).ok();
    let mut named = 0;
    for ((line, twin), answer) in lines.iter().zip(&twins).zip(&answers) {
        check(twin, answer);
        let points: Vec<Vec<f64>> = twin["a"]["points"].as_array().unwrap().iter().map(nums).collect();
        for i in answer["simplex_a"]["indices"].as_array().unwrap() {
            let i = i.as_u64().unwrap_or_else(|| panic!("{line}: every point of a mesh hull has an index")) as usize;
            assert!(!points[..i].contains(&points[i]), "{line}: index {i} is not the point's first place");
            named += 1;
        }
    }
    assert!(named >= lines.len(), "{named} points named");
}

/// A composite side's points as the indices name them (its frame): a trimesh's `vertices`, a height field's
/// samples row by row, a compound part's own points moved by the part's translation (these parts are not turned).
fn composite_points(shape: &Value, part: Option<u64>, dim: usize) -> Option<Vec<Vec<f64>>> {
    match shape["type"].as_str().unwrap() {
        "trimesh" => Some(shape["vertices"].as_array().unwrap().iter().map(nums).collect()),
        "heightfield" => {
            let cell = shape["cell_size"].as_f64().unwrap();
            let heights = shape["heights"].as_array().unwrap();
            if heights[0].is_number() {
                return Some(
                    nums(&shape["heights"]).iter().enumerate().map(|(i, &h)| vec![i as f64 * cell, h]).collect(),
                );
            }
            let rows: Vec<Vec<f64>> = heights.iter().map(nums).collect();
            let mut out = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, &h) in row.iter().enumerate() {
                    out.push(vec![c as f64 * cell, h, r as f64 * cell]);
                }
            }
            Some(out)
        }
        "compound" => {
            let p = &shape["parts"][part? as usize];
            let t = nums(&p["pose"]["translation"]);
            let own = vertices(&p["shape"]).unwrap_or_else(|| vec![vec![0.0; dim]]);
            Some(own.iter().map(|v| v.iter().zip(&t).map(|(x, y)| x + y).collect()).collect())
        }
        "halfspace" => None,
        _ => vertices(shape).or_else(|| Some(vec![vec![0.0; dim]])),
    }
}

/// The radius of the leaf a composite side's answer came from (a compound's part's; a mesh, a height field and a
/// half-space have none).
fn leaf_radius(shape: &Value, part: Option<u64>) -> f64 {
    match shape["type"].as_str().unwrap() {
        "compound" => part.map_or(0.0, |i| radius(&shape["parts"][i as usize]["shape"])),
        "trimesh" | "heightfield" | "halfspace" => 0.0,
        _ => radius(shape),
    }
}

/// `"simplices": true` on lines with a trimesh, a compound, a height field or a half-space: the simplices of the
/// leaf pair that gave the answer. On random 2D and 3D scenes apart and overlapping: weights positive and summing
/// to one, the weighted points reproduce the answer's core points to 1e-12 of the numbers in play, and every index
/// names the composite's point it lists (a mesh's vertex, a height field's sample, a part's point). Apart, every
/// point is named (the support points of triangles, cells and polytope parts are their corners).
#[test]
fn composite_lines_give_the_simplices_of_their_leaves() {
    let mut r = Lcg(23);
    let mut lines = Vec::new();
    for k in 0..240 {
        let dim = if k % 2 == 0 { 3 } else { 2 };
        let composite = match (k / 2) % 4 {
            0 => {
                let vertices: Vec<Vec<f64>> = (0..12).map(|_| r.point(dim, 2.0)).collect();
                let indices: Vec<Vec<usize>> = (0..6)
                    .map(|i| if dim == 3 { vec![2 * i, 2 * i + 1, (2 * i + 5) % 12] } else { vec![2 * i, 2 * i + 1] })
                    .collect();
                json!({"type": "trimesh", "vertices": vertices, "indices": indices})
            }
            1 => {
                let parts: Vec<Value> = (0..4)
                    .map(|i| {
                        let shape = match i {
                            0 => json!({"type": "box", "half_extents": r.point(dim, 0.5).iter().map(|x| x.abs() + 0.1).collect::<Vec<_>>()}),
                            1 => json!({"type": "convex", "points": (0..5).map(|_| r.point(dim, 0.6)).collect::<Vec<_>>()}),
                            2 => json!({"type": "sphere", "radius": 0.3}),
                            _ => json!({"type": "segment", "a": r.point(dim, 0.5), "b": r.point(dim, 0.5)}),
                        };
                        json!({"shape": shape, "pose": {"translation": r.point(dim, 2.0)}})
                    })
                    .collect();
                json!({"type": "compound", "parts": parts})
            }
            2 if dim == 2 => json!({"type": "heightfield", "heights": r.point(9, 1.0), "cell_size": 0.5}),
            2 => {
                json!({"type": "heightfield", "heights": (0..5).map(|_| r.point(5, 1.0)).collect::<Vec<_>>(), "cell_size": 0.5})
            }
            _ => {
                let mut n = r.point(dim, 1.0);
                n[1] = 1.0;
                json!({"type": "halfspace", "normal": n})
            }
        };
        let other = match k % 3 {
            0 => {
                json!({"type": "box", "half_extents": r.point(dim, 0.5).iter().map(|x| x.abs() + 0.1).collect::<Vec<_>>()})
            }
            1 => json!({"type": "sphere", "radius": 0.4}),
            _ => json!({"type": "convex", "points": (0..6).map(|_| r.point(dim, 0.7)).collect::<Vec<_>>()}),
        };
        let offset = [0.0, 1e4][k % 5 / 4];
        let mut pa = pose(&mut r, dim, 1.0);
        let mut pb = pose(&mut r, dim, 3.0);
        for p in [&mut pa, &mut pb] {
            let t: Vec<f64> = nums(&p["translation"]).iter().map(|x| x + offset).collect();
            p["translation"] = json!(t);
        }
        // Both orders: the composite as A and as B.
        if k % 4 < 2 {
            lines.push(distance(composite, pa, other, pb, k));
        } else {
            lines.push(distance(other, pb, composite, pa, k));
        }
    }
    let answers = run(&lines);
    let (mut apart_meshes, mut worst) = (0, 0.0f64);
    for (line, answer) in lines.iter().zip(&answers) {
        let ctx = format!("{line} -> {answer}");
        assert!(answer["error"].is_null(), "{ctx}");
        let dim = nums(&answer["point_a"]).len();
        let normal = nums(&answer["normal"]);
        for (side, point, shape, pose, part, sign) in [
            ("simplex_a", "point_a", "a", "pose_a", "part_a", -1.0),
            ("simplex_b", "point_b", "b", "pose_b", "part_b", 1.0),
        ] {
            let s = &answer[side];
            let (indices, points, weights) =
                (s["indices"].as_array().unwrap(), s["points"].as_array().unwrap(), nums(&s["weights"]));
            assert!(!weights.is_empty() && weights.len() <= dim + 1, "{ctx}");
            assert!(weights.iter().all(|&w| w > 0.0), "{ctx}: weights {weights:?}");
            assert!((weights.iter().sum::<f64>() - 1.0).abs() < 1e-14, "{ctx}: weights sum");
            let part = answer[part].as_u64();
            let r = leaf_radius(&line[shape], part);
            let want: Vec<f64> = nums(&answer[point]).iter().zip(&normal).map(|(p, n)| p + sign * r * n).collect();
            let (err, size) = reproduction_error(points, &weights, &want);
            assert!(err <= 1e-12, "{ctx}: {side} reproduces {point} to {err:e}");
            worst = worst.max(err);
            // Apart, every point is a vertex (a support point of a polytope, a triangle, a segment, a grid cell)
            // or a ball's centre: all are named, but on a half-space's plane.
            let ty = line[shape]["type"].as_str().unwrap();
            if ty != "halfspace" && answer["intersecting"] == false {
                apart_meshes += usize::from(ty == "trimesh");
                assert!(indices.iter().all(|i| i.is_u64()), "{ctx}: {side} names all its points");
            }
            let Some(verts) = composite_points(&line[shape], part, dim) else { continue };
            for (i, p) in indices.iter().zip(points) {
                let Some(i) = i.as_u64() else { continue };
                let local = &verts[i as usize];
                let placed = if line[pose].is_null() { local.clone() } else { place(&line[pose], local) };
                let d = placed.iter().zip(nums(p)).map(|(a, b)| (a - b).powi(2)).sum::<f64>().sqrt();
                assert!(d <= 1e-12 * size, "{ctx}: {side} point {i} is {d:e} from the point it names");
            }
        }
    }
    assert!(apart_meshes >= 20, "{apart_meshes} meshes apart");
    assert!(worst <= 1e-12);
}

/// The convex line of leaf `i` of a trimesh or compound `shape` at `pose`, for the brute force: a mesh's triangle
/// (segment in 2D) at the mesh's pose, or a compound's part at the part's translation placed by the pose.
fn leaf_line(shape: &Value, pose: &Value, i: usize) -> (Value, Value) {
    match shape["type"].as_str().unwrap() {
        "trimesh" => {
            let v = |k: usize| shape["vertices"][shape["indices"][i][k].as_u64().unwrap() as usize].clone();
            let leaf = if shape["indices"][i].as_array().unwrap().len() == 3 {
                json!({"type": "triangle", "a": v(0), "b": v(1), "c": v(2)})
            } else {
                json!({"type": "segment", "a": v(0), "b": v(1)})
            };
            (leaf, pose.clone())
        }
        _ => {
            let part = &shape["parts"][i];
            let at = place(pose, &nums(&part["pose"]["translation"]));
            (part["shape"].clone(), json!({"rotation": pose["rotation"], "translation": at}))
        }
    }
}

/// Composite lines against brute force: a trimesh's or compound's distance is the minimum over its leaves, each run
/// as a convex line of its own; the leaf the answer names (`part_a` / `part_b`) is one that realises it, and its
/// simplex names points of that leaf — a mesh's leaf, the mesh vertices of its triangle (segment), a compound's,
/// its part's own points — with the closest point the leaf's own line gives, to 1e-12 of the numbers in play.
#[test]
fn composite_simplices_come_from_the_leaf_that_realises_the_minimum_over_leaves() {
    let mut r = Lcg(91);
    let mut scenes = Vec::new();
    for k in 0..120 {
        let dim = if k % 2 == 0 { 3 } else { 2 };
        let composite = if k % 4 < 2 {
            let vertices: Vec<Vec<f64>> = (0..10).map(|_| r.point(dim, 2.0)).collect();
            let indices: Vec<Vec<usize>> = (0..8)
                .map(|i| if dim == 3 { vec![i, (i + 1) % 10, (i + 4) % 10] } else { vec![i, (i + 3) % 10] })
                .collect();
            json!({"type": "trimesh", "vertices": vertices, "indices": indices})
        } else {
            let parts: Vec<Value> = (0..5)
                .map(|i| {
                    let shape = match i % 3 {
                        0 => json!({"type": "convex", "points": (0..5).map(|_| r.point(dim, 0.6)).collect::<Vec<_>>()}),
                        1 => json!({"type": "box", "half_extents": r.point(dim, 0.5).iter().map(|x| x.abs() + 0.1).collect::<Vec<_>>()}),
                        _ => json!({"type": "segment", "a": r.point(dim, 0.5), "b": r.point(dim, 0.5)}),
                    };
                    json!({"shape": shape, "pose": {"translation": r.point(dim, 2.0)}})
                })
                .collect();
            json!({"type": "compound", "parts": parts})
        };
        let other = if k % 3 == 0 {
            json!({"type": "sphere", "radius": 0.3})
        } else {
            json!({"type": "convex", "points": (0..6).map(|_| r.point(dim, 0.7)).collect::<Vec<_>>()})
        };
        let offset = [0.0, 1e4][usize::from(k % 5 == 4)];
        let mut pc = pose(&mut r, dim, 1.0);
        let mut po = pose(&mut r, dim, 4.0);
        for p in [&mut pc, &mut po] {
            let t: Vec<f64> = nums(&p["translation"]).iter().map(|x| x + offset).collect();
            p["translation"] = json!(t);
        }
        scenes.push((composite, pc, other, po, k % 4 == 1 || k % 4 == 3));
    }
    // Each scene's composite line, then one convex line per leaf, the composite's side kept (A or B).
    let mut lines = Vec::new();
    for (composite, pc, other, po, swap) in &scenes {
        let leaves = composite.get("indices").or_else(|| composite.get("parts")).unwrap().as_array().unwrap().len();
        let pair = |c: Value, pcv: Value, id: usize| {
            if *swap {
                distance(other.clone(), po.clone(), c, pcv, id)
            } else {
                distance(c, pcv, other.clone(), po.clone(), id)
            }
        };
        lines.push(pair(composite.clone(), pc.clone(), lines.len()));
        for i in 0..leaves {
            let (leaf, at) = leaf_line(composite, pc, i);
            lines.push(pair(leaf, at, lines.len()));
        }
    }
    let answers = run(&lines);
    let (mut at, mut apart) = (0, 0);
    for (composite, _, _, _, swap) in &scenes {
        let leaves = composite.get("indices").or_else(|| composite.get("parts")).unwrap().as_array().unwrap().len();
        let (line, answer) = (&lines[at], &answers[at]);
        let brute = &answers[at + 1..at + 1 + leaves];
        at += 1 + leaves;
        let ctx = format!("{line} -> {answer}");
        assert!(answer["error"].is_null() && brute.iter().all(|b| b["error"].is_null()), "{ctx}");
        let size = 1.0 + nums(&answer["point_a"]).iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let dist = |a: &Value| a["distance"].as_f64().unwrap();
        let min = brute.iter().map(dist).fold(f64::INFINITY, f64::min);
        assert!((dist(answer) - min).abs() <= 1e-12 * size, "{ctx}: minimum over leaves {min}");
        let (side, part) = if *swap { ("simplex_b", "part_b") } else { ("simplex_a", "part_a") };
        let i = answer[part].as_u64().unwrap_or_else(|| panic!("{ctx}: the leaf is named")) as usize;
        let leaf = &brute[i];
        assert!((dist(leaf) - min).abs() <= 1e-12 * size, "{ctx}: leaf {i} is at {} not {min}", dist(leaf));
        if answer["intersecting"] == true {
            continue;
        }
        apart += 1;
        // The named leaf's simplex is the leaf's own: the same closest points, its points named in the composite.
        for point in ["point_a", "point_b"] {
            let d = nums(&answer[point]).iter().zip(nums(&leaf[point])).map(|(a, b)| (a - b).powi(2)).sum::<f64>();
            assert!(d.sqrt() <= 1e-12 * size, "{ctx}: {point} differs from leaf {i}'s line {leaf}");
        }
        let allowed: Vec<u64> = match composite["type"].as_str().unwrap() {
            "trimesh" => composite["indices"][i].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect(),
            _ => leaf[side]["indices"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).collect(),
        };
        for index in answer[side]["indices"].as_array().unwrap() {
            let index = index.as_u64().unwrap_or_else(|| panic!("{ctx}: {side} names its points"));
            assert!(allowed.contains(&index), "{ctx}: {side} index {index} is not a point of leaf {i} ({allowed:?})");
        }
    }
    assert!(apart >= 60, "{apart} scenes apart");
}
