//! `gjk query` lines with composite shapes (docs/cli.md, "Composite shapes"), checked against brute force: a
//! composite's answer is the minimum over its parts, each part asked as a convex line of its own (a compound's part
//! at its world pose, a mesh's triangle as a `triangle`, a height field's cell triangles). Then the same answers
//! through the library directly, mesh files read `as` a trimesh or a compound, hostile lines (each answered with an
//! error line carrying its id) and the stream's one-line-per-line rule.

use std::path::PathBuf;

use gjk::composite::Compound;
use gjk::math::{DQuat, DVec3, Iso};
use gjk::query;
use gjk::shape::{Ball, Cuboid};
use gjk_cli::mesh::MeshFolder;
use gjk_cli::query::{answer_line, write_answer, Settings};
use gjk_cli::stream::{answer_stream, Limits};
use serde_json::{json, Value};

/// Agreement asked of two answers about shapes of size ~1: far below any real difference, far above rounding.
const TOL: f64 = 1e-9;

fn ask(line: &Value) -> Value {
    let text = answer_line(&line.to_string());
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(v["id"], line["id"], "{text}");
    assert!(v.get("error").is_none(), "{line}\n→ {text}");
    v
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} of {v}"))
}

/// A small deterministic generator (the tests need reproducible scenes, not a random crate).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
    fn vec(&mut self, dim: usize, h: f64) -> Vec<f64> {
        (0..dim).map(|_| self.range(-h, h)).collect()
    }
    fn rotation(&mut self, dim: usize) -> Value {
        if dim == 2 {
            json!(self.range(-3.0, 3.0))
        } else {
            let q = self.vec(4, 1.0);
            let n = q.iter().map(|x| x * x).sum::<f64>().sqrt().max(1e-3);
            json!(q.iter().map(|x| x / n).collect::<Vec<_>>())
        }
    }
    fn convex(&mut self, dim: usize) -> Value {
        match (self.next() * 3.0) as u32 {
            0 => json!({"type": "box", "half_extents": (0..dim).map(|_| self.range(0.1, 1.0)).collect::<Vec<_>>()}),
            1 => json!({"type": "sphere", "radius": self.range(0.1, 0.8)}),
            _ => json!({"type": "capsule", "half_height": self.range(0.0, 0.8), "radius": self.range(0.05, 0.5)}),
        }
    }
    fn pose(&mut self, dim: usize, h: f64) -> Value {
        json!({"translation": self.vec(dim, h), "rotation": self.rotation(dim)})
    }
}

/// A compound of 2–6 posed parts, moved by a translation (so a part's world pose is the part's pose moved by it),
/// and the parts alone at their world poses.
fn compound(rng: &mut Lcg, dim: usize) -> (Value, Value, Vec<(Value, Value)>) {
    let n = 2 + (rng.next() * 5.0) as usize;
    let shift = rng.vec(dim, 1.0);
    let mut parts = Vec::new();
    let mut alone = Vec::new();
    for _ in 0..n {
        let (shape, pose) = (rng.convex(dim), rng.pose(dim, 2.0));
        let t: Vec<f64> =
            pose["translation"].as_array().unwrap().iter().zip(&shift).map(|(x, s)| x.as_f64().unwrap() + s).collect();
        alone.push((shape.clone(), json!({"translation": t, "rotation": pose["rotation"]})));
        parts.push(json!({"shape": shape, "pose": pose}));
    }
    (json!({"type": "compound", "parts": parts}), json!({"translation": shift}), alone)
}

/// `f` over the parts, each asked as a convex line with `part` as `a` at `pose`.
fn per_part(parts: &[(Value, Value)], line: &Value, f: impl Fn(&Value) -> f64) -> Vec<f64> {
    parts
        .iter()
        .map(|(shape, pose)| {
            let mut l = line.clone();
            l["a"] = shape.clone();
            l["pose_a"] = pose.clone();
            f(&ask(&l))
        })
        .collect()
}

fn min(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// A composite's distance, penetration, intersection, ray and cast answers against the minimum over its parts.
fn check_against_parts(
    composite: &Value,
    pose: &Value,
    parts: &[(Value, Value)],
    rng: &mut Lcg,
    dim: usize,
    what: &str,
) -> [usize; 3] {
    let mut seen = [0; 3]; // [apart, overlapping, ray hits]
    let b = rng.convex(dim);
    // Spread so that both outcomes are common: a 3D scene is emptier than a 2D one of the same size.
    let pose_b = rng.pose(dim, if dim == 2 { 3.0 } else { 1.8 });
    let line = |q: &str| json!({"id": q, "query": q, "a": composite, "pose_a": pose, "b": b, "pose_b": pose_b});

    // distance: the minimum over the parts, and the part named is one at that distance.
    let d = ask(&line("distance"));
    let each = per_part(parts, &line("distance"), |v| num(v, "distance"));
    let best = min(&each);
    assert!((num(&d, "distance") - best).abs() <= TOL, "{what}: {d} vs parts {each:?}");
    let named = d["part_a"].as_u64().unwrap_or_else(|| panic!("{what}: {d}")) as usize;
    assert!((each[named] - best).abs() <= TOL, "{what}: part {named} at {} vs {best}", each[named]);
    assert!(d["part_b"].is_null(), "{what}: {d}");
    assert!(num(&d, "leaves") >= 1.0 && num(&d, "leaves") <= parts.len() as f64, "{what}: {d}");

    // intersect: any part.
    let i = ask(&line("intersect"));
    let any = per_part(parts, &line("intersect"), |v| v["intersecting"].as_bool().unwrap() as u8 as f64);
    let intersecting = i["intersecting"].as_bool().unwrap();
    assert_eq!(intersecting, any.contains(&1.0), "{what}: {i} vs {any:?}");
    assert_eq!(intersecting, d["intersecting"].as_bool().unwrap(), "{what}: {i} vs {d}");
    if intersecting {
        let k = i["part_a"].as_u64().unwrap() as usize;
        assert_eq!(any[k], 1.0, "{what}: part {k} named by {i}");
    }
    seen[intersecting as usize] += 1;

    // penetration: the signed distance is the minimum of the parts' signed distances (the deepest overlap, or the
    // gap when none overlaps).
    let p = ask(&line("penetration"));
    let each = per_part(parts, &line("penetration"), |v| num(v, "distance"));
    assert!((num(&p, "distance") - min(&each)).abs() <= TOL, "{what}: {p} vs parts {each:?}");
    assert_eq!(p["intersecting"], i["intersecting"], "{what}: {p}");
    assert!((num(&p, "depth") - (-num(&p, "distance")).max(0.0)).abs() == 0.0, "{what}: {p}");

    // contact: contacts exactly when some part touches.
    let c = ask(&line("contact"));
    assert_eq!(!c["contacts"].as_array().unwrap().is_empty(), intersecting, "{what}: {c}");
    assert_eq!(c["manifolds"].as_array().unwrap().is_empty(), !intersecting, "{what}: {c}");

    // ray_cast: the first part hit.
    let (origin, target) = (rng.vec(dim, 4.0), rng.vec(dim, 1.0));
    let dir: Vec<f64> = target.iter().zip(&origin).map(|(t, o)| t - o).collect();
    let ray = json!({"id": "ray", "query": "ray_cast", "a": composite, "pose_a": pose, "origin": origin, "direction": dir, "max_toi": 2});
    let r = ask(&ray);
    let each = per_part(parts, &ray, |v| v["toi"].as_f64().unwrap_or(f64::INFINITY));
    assert_eq!(r["hit"].as_bool().unwrap(), min(&each).is_finite(), "{what}: {r} vs {each:?}");
    if r["hit"].as_bool().unwrap() {
        assert!((num(&r, "toi") - min(&each)).abs() <= TOL, "{what}: {r} vs {each:?}");
        seen[2] += 1;
    }

    // shape_cast: b thrown at the compound's centre; the first part met.
    let to: Vec<f64> = pose_b["translation"].as_array().unwrap().iter().map(|x| -x.as_f64().unwrap()).collect();
    let mut cast = line("shape_cast");
    cast["velocity_b"] = json!(to);
    cast["max_toi"] = json!(1.5);
    let s = ask(&cast);
    let each = per_part(parts, &cast, |v| v["toi"].as_f64().unwrap_or(f64::INFINITY));
    assert_eq!(s["hit"].as_bool().unwrap(), min(&each).is_finite(), "{what}: {s} vs {each:?}");
    if s["hit"].as_bool().unwrap() {
        // Casts stop within their tolerance (1e-10 of the shapes' size) of the contact, on either side.
        assert!((num(&s, "toi") - min(&each)).abs() <= 1e-8, "{what}: {s} vs {each:?}");
    }
    seen
}

#[test]
fn compound_answers_are_the_minimum_over_its_parts_2d_and_3d() {
    for dim in [2, 3] {
        let mut rng = Lcg(dim as u64 * 977);
        let mut seen = [0; 3];
        for k in 0..60 {
            let (c, pose, parts) = compound(&mut rng, dim);
            let s = check_against_parts(&c, &pose, &parts, &mut rng, dim, &format!("{dim}D compound {k}"));
            (0..3).for_each(|i| seen[i] += s[i]);
        }
        // Both outcomes occur often enough for the comparisons to mean something.
        assert!(seen.iter().all(|&n| n >= 8), "{dim}D: apart, overlapping, ray hits = {seen:?}");
    }
}

/// A soup of triangles (segments in 2D) as a `trimesh`, and each facet alone as a `triangle` (`segment`).
fn soup(rng: &mut Lcg, dim: usize, n: usize) -> (Value, Vec<(Value, Value)>) {
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    let mut facets = Vec::new();
    for k in 0..n {
        // Denser in 3D, where a random triangle is a smaller target.
        let centre = rng.vec(dim, if dim == 3 { 1.2 } else { 2.0 });
        let corners: Vec<Vec<f64>> =
            (0..dim).map(|_| centre.iter().zip(rng.vec(dim, 0.8)).map(|(c, d)| c + d).collect()).collect();
        let first = (dim * k) as u32;
        indices.push((first..first + dim as u32).collect::<Vec<_>>());
        facets.push(if dim == 2 {
            json!({"type": "segment", "a": corners[0], "b": corners[1]})
        } else {
            json!({"type": "triangle", "a": corners[0], "b": corners[1], "c": corners[2]})
        });
        vertices.extend(corners);
    }
    (
        json!({"type": "trimesh", "vertices": vertices, "indices": indices}),
        facets.into_iter().map(|f| (f, Value::Null)).collect(),
    )
}

/// An open mesh is a surface: its answers are the minimum over its facets (its pose is each facet's pose).
#[test]
fn trimesh_answers_are_the_minimum_over_its_facets_2d_and_3d() {
    for dim in [2, 3] {
        let mut rng = Lcg(31 + dim as u64);
        let mut seen = [0; 3];
        for k in 0..40 {
            let (mesh, mut facets) = soup(&mut rng, dim, 4 + k % 8);
            let pose = rng.pose(dim, 1.0);
            facets.iter_mut().for_each(|f| f.1 = pose.clone());
            let s = check_against_parts(&mesh, &pose, &facets, &mut rng, dim, &format!("{dim}D soup {k}"));
            (0..3).for_each(|i| seen[i] += s[i]);
        }
        // A random ray seldom meets a thin triangle in 3D: fewer hits are asked of it.
        assert!(seen[0] >= 8 && seen[1] >= 8 && seen[2] >= 3, "{dim}D: apart, overlapping, ray hits = {seen:?}");
    }
}

/// A 3D height field's distance is the minimum over its cell triangles (cell (r, c): (00, 11, 01) and
/// (00, 10, 11), docs/cli.md), and the triangle named is that one; a ball wholly below the ground intersects it.
#[test]
fn heightfield_distance_is_the_minimum_over_its_cell_triangles() {
    let mut rng = Lcg(7);
    let (rows, cols, dx, dz) = (4, 5, 0.7, 1.1);
    for k in 0..30 {
        let heights: Vec<Vec<f64>> = (0..rows).map(|_| (0..cols).map(|_| rng.range(-0.5, 0.5)).collect()).collect();
        let at = |r: usize, c: usize| vec![c as f64 * dx, heights[r][c], r as f64 * dz];
        let mut tris = Vec::new();
        for r in 0..rows - 1 {
            for c in 0..cols - 1 {
                tris.push([at(r, c), at(r + 1, c + 1), at(r, c + 1)]);
                tris.push([at(r, c), at(r + 1, c), at(r + 1, c + 1)]);
            }
        }
        let field = json!({"type": "heightfield", "heights": heights, "cell_size": [dx, dz]});
        let ball = json!({"type": "sphere", "radius": rng.range(0.05, 0.3)});
        let centre = vec![rng.range(0.0, 2.8), rng.range(0.6, 2.0), rng.range(0.0, 3.3)];
        let line = json!({"id": k, "query": "distance", "a": field, "b": ball, "pose_b": {"translation": centre}});
        let d = ask(&line);
        let each: Vec<f64> = tris
            .iter()
            .map(|t| {
                let mut l = line.clone();
                l["a"] = json!({"type": "triangle", "a": t[0], "b": t[1], "c": t[2]});
                num(&ask(&l), "distance")
            })
            .collect();
        assert!((num(&d, "distance") - min(&each)).abs() <= TOL, "{k}: {d} vs {each:?}");
        let named = d["part_a"].as_u64().unwrap() as usize;
        assert!((each[named] - min(&each)).abs() <= TOL, "{k}: {d}");
        // Deep below the ground: intersecting, though no triangle is touched.
        let mut below = line.clone();
        below["query"] = json!("intersect");
        below["pose_b"] = json!({"translation": [1.4, -5, 1.6]});
        assert_eq!(ask(&below)["intersecting"], json!(true), "{k}");
    }
}

/// A half-space against a ball: the closed form n · c − r, whatever the plane's pose.
#[test]
fn halfspace_distance_and_penetration_are_closed_forms() {
    let mut rng = Lcg(11);
    for k in 0..50 {
        let n = rng.vec(3, 1.0);
        let len = n.iter().map(|x| x * x).sum::<f64>().sqrt();
        let (c, r) = (rng.vec(3, 2.0), rng.range(0.1, 1.0));
        let gap = n.iter().zip(&c).map(|(n, c)| n * c).sum::<f64>() / len - r;
        let line = json!({"id": k, "query": "penetration", "a": {"type": "halfspace", "normal": n}, "b": {"type": "sphere", "radius": r}, "pose_b": {"translation": c}});
        let p = ask(&line);
        assert!((num(&p, "distance") - gap).abs() <= TOL, "{k}: {p} vs {gap}");
        assert_eq!(p["intersecting"].as_bool().unwrap(), gap <= 0.0, "{k}: {p}");
        let normal: Vec<f64> = p["normal"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!(normal.iter().zip(&n).all(|(a, b)| (a - b / len).abs() <= TOL), "{k}: normal {normal:?} vs {n:?}");
        let mut l = line.clone();
        l["query"] = json!("distance");
        let d = ask(&l);
        assert!((num(&d, "distance") - gap.max(0.0)).abs() <= TOL, "{k}: {d} vs {gap}");
        assert!(d["part_a"].is_null() && d["part_b"].is_null(), "{k}: {d}");
    }
}

/// The CLI's answer is the library's: the same compound built with `gjk` directly gives the same distance,
/// points and part.
#[test]
fn compound_answers_are_the_library_answers() {
    let mut rng = Lcg(5);
    for k in 0..40 {
        let mut parts = Vec::new();
        let mut json_parts = Vec::new();
        for _ in 0..4 {
            let (h, t) = ([rng.range(0.1, 1.0), rng.range(0.1, 1.0), rng.range(0.1, 1.0)], rng.vec(3, 2.0));
            parts.push((
                Cuboid::new(DVec3::from_array(h)).unwrap(),
                Iso::from_translation(DVec3::new(t[0], t[1], t[2])),
            ));
            json_parts.push(json!({"shape": {"type": "box", "half_extents": h}, "pose": {"translation": t}}));
        }
        let (r, c) = (rng.range(0.1, 0.8), rng.vec(3, 3.5));
        let lib = query::distance(
            &Compound::new(parts).unwrap(),
            &Iso::from_translation(DVec3::ZERO),
            &Ball::new(r).unwrap(),
            &Iso::new(DQuat::IDENTITY, DVec3::new(c[0], c[1], c[2])),
        );
        let line = json!({"id": k, "query": "distance", "a": {"type": "compound", "parts": json_parts}, "b": {"type": "sphere", "radius": r}, "pose_b": {"translation": c}});
        let d = ask(&line);
        assert!((num(&d, "distance") - lib.distance).abs() <= 1e-12, "{k}: {d} vs {lib:?}");
        assert_eq!(d["part_a"].as_u64().map(|x| x as u32), lib.part_a, "{k}: {d} vs {lib:?}");
        assert_eq!(d["intersecting"].as_bool().unwrap(), lib.intersecting, "{k}");
        let pa: Vec<f64> = d["point_a"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert!((DVec3::new(pa[0], pa[1], pa[2]) - lib.point_a).length() <= 1e-12, "{k}: {d} vs {lib:?}");
    }
}

/// A fresh folder under the system's temporary directory.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gjk-cli-composite-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ask_in(line: &Value, meshes: &MeshFolder) -> Value {
    let mut out = Vec::new();
    write_answer(line.to_string().as_bytes(), &Settings { meshes: meshes.clone() }, &mut out);
    let v: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["id"], line["id"]);
    v
}

/// Two tetrahedra as two OBJ objects: read `as` a compound they are two parts (each its object's hull), `as` a
/// trimesh eight triangles, and as the default hull one convex shape that fills the space between them.
#[test]
fn mesh_files_read_as_trimesh_compound_or_hull() {
    let dir = folder("mesh");
    let obj = "o left\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n\
               o right\nv 4 0 0\nv 5 0 0\nv 4 1 0\nv 4 0 1\nf 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n";
    std::fs::write(dir.join("two.obj"), obj).unwrap();
    let meshes = MeshFolder { root: Some(dir.clone()), ..MeshFolder::default() };
    // A small ball between the two, nearer the right one: 0.6 from the left's face x + y + z = 1, 0.5 from x = 4.
    let ball = json!({"type": "sphere", "radius": 0.1});
    let centre = [3.4, 0.2, 0.2];
    let line = |read_as: Option<&str>| {
        let mut a = json!({"type": "mesh", "path": "two.obj"});
        if let Some(r) = read_as {
            a["as"] = json!(r);
        }
        json!({"id": read_as, "query": "distance", "a": a, "b": ball, "pose_b": {"translation": centre}})
    };
    let compound = ask_in(&line(Some("compound")), &meshes);
    assert!((num(&compound, "distance") - 0.5).abs() <= TOL, "{compound}");
    assert_eq!(compound["part_a"], json!(1), "{compound}");
    let trimesh = ask_in(&line(Some("trimesh")), &meshes);
    assert!((num(&trimesh, "distance") - 0.5).abs() <= TOL, "{trimesh}");
    // The facet of x = 4 is the right tetrahedron's `f 5 8 7`: the 7th face, triangle 6.
    assert_eq!(trimesh["part_a"], json!(6), "{trimesh}");
    let hull = ask_in(&line(None), &meshes);
    assert_eq!(hull["intersecting"], json!(true), "{hull}");
    assert!(hull.get("part_a").is_none(), "a hull answers as a convex shape: {hull}");
    let mut explicit = ask_in(&line(Some("hull")), &meshes);
    explicit["id"] = Value::Null;
    let mut default = hull.clone();
    default["id"] = Value::Null;
    assert_eq!(explicit, default);
    // A closed mesh read as a trimesh is solid: a ball inside the left tetrahedron intersects it.
    let mut inside = line(Some("trimesh"));
    inside["query"] = json!("intersect");
    inside["pose_b"] = json!({"translation": [0.2, 0.2, 0.2]});
    inside["b"] = json!({"type": "sphere", "radius": 0.01});
    assert_eq!(ask_in(&inside, &meshes)["intersecting"], json!(true));
    // `trimesh` with a path is the same as `mesh` read as one.
    let mut by_path = line(Some("trimesh"));
    by_path["a"] = json!({"type": "trimesh", "path": "two.obj"});
    assert_eq!(ask_in(&by_path, &meshes)["distance"], trimesh["distance"]);

    // Confinement and size: a path leading out of the folder, and a file over the size limit, are error lines.
    let mut out = line(Some("trimesh"));
    out["a"]["path"] = json!("../two.obj");
    let e = ask_in(&out, &meshes);
    assert!(e["error"].as_str().is_some_and(|m| m.contains("../two.obj")), "{e}");
    let small = MeshFolder { root: Some(dir.clone()), max_bytes: 16 };
    for r in ["trimesh", "compound"] {
        let e = ask_in(&line(Some(r)), &small);
        assert!(e["error"].as_str().is_some_and(|m| m.contains("two.obj")), "{r}: {e}");
    }
    // A face naming a vertex that does not exist: an error naming the line, never quoting the file.
    std::fs::write(dir.join("bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n").unwrap();
    let mut bad = line(Some("compound"));
    bad["a"]["path"] = json!("bad.obj");
    assert_eq!(
        ask_in(&bad, &meshes)["error"],
        json!("mesh \"bad.obj\": OBJ line 4: corner 3 of the face names a vertex out of range")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Hostile composite lines: each is answered with an error line carrying its id, never a panic, never a null.
/// (`"cell_size": [1]` in 3D once panicked: the grid read `cell_size[1]` before the count was checked.)
#[test]
fn bad_composite_lines_are_error_lines() {
    let ball = json!({"type": "sphere", "radius": 1});
    let tri = |vertices: Value, indices: Value| json!({"type": "trimesh", "vertices": vertices, "indices": indices});
    let cases: Vec<(Value, &str)> = vec![
        (
            tri(json!([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), json!([[0, 1, 3]])),
            "a: indices[0][2] = 3 is out of range (3 vertices)",
        ),
        (tri(json!([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), json!([[0, 1]])), "disagree on the dimension"),
        (tri(json!([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), json!([])), "a: a trimesh needs at least one triangle"),
        (
            tri(json!([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), json!([[0, -1, 2]])),
            "a: invalid value: integer `-1`, expected u32",
        ),
        (tri(json!([[0, 0, 0], [1, 0, 0], [0, 1, 0]]), json!([[0, 1.5, 2]])), "expected u32"),
        (json!({"type": "trimesh", "vertices": [[0, 0, 0]]}), "a: missing field `indices`"),
        (
            json!({"type": "trimesh", "vertices": [[0, 0, 0]], "indices": [[0, 0, 0]], "path": "x.obj"}),
            "a: a trimesh takes",
        ),
        (json!({"type": "compound", "parts": []}), "a: a compound needs at least one part"),
        (
            json!({"type": "compound", "parts": [{"shape": {"type": "compound", "parts": [{"shape": ball}]}}]}),
            "a: parts[0]: a compound's parts are convex shapes, not a compound",
        ),
        (
            json!({"type": "compound", "parts": [{"shape": {"type": "halfspace", "normal": [0, 1, 0]}}]}),
            "a: parts[0]: a compound's parts are convex shapes, not a halfspace",
        ),
        (json!({"type": "compound", "parts": [{"shape": {"type": "sphere", "radius": -1}}]}), "a: radius is negative"),
        (
            json!({"type": "rounded", "radius": 1, "shape": {"type": "heightfield", "heights": [[0, 0], [0, 0]]}}),
            "is not convex",
        ),
        (json!({"type": "halfspace", "normal": [0, 0, 0]}), "a: invalid shape: a half-space normal must not be zero"),
        (
            json!({"type": "heightfield", "heights": [[0, 0], [0]]}),
            "a: heights[1] has 1 heights, and heights[0] has 2: rows must be alike",
        ),
        (
            json!({"type": "heightfield", "heights": [[0, 0, 0]]}),
            "a: a 3D height field needs at least 2 rows of at least 2 heights",
        ),
        (json!({"type": "heightfield", "heights": [[0, 0], [0, 0]], "cell_size": 0}), "a: cell_size must be positive"),
        (
            json!({"type": "heightfield", "heights": [[0, 0], [0, 0]], "cell_size": [1]}),
            "a: cell_size is a number or [dx, dz] (got 1 numbers)",
        ),
        (json!({"type": "mesh", "path": "x.obj", "as": "soup"}), "a: unknown variant `soup`"),
        (json!({"type": "mesh", "path": "/etc/passwd.obj", "as": "trimesh"}), "/etc/passwd.obj"),
    ];
    for (k, (a, want)) in cases.iter().enumerate() {
        let line = json!({"id": k, "query": "distance", "a": a, "b": ball});
        let text = answer_line(&line.to_string());
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["id"], json!(k), "{text}");
        let e = v["error"].as_str().unwrap_or_else(|| panic!("case {k}: {text}"));
        assert!(e.contains(want), "case {k}: {e:?} does not say {want:?}");
    }
    // 2D: a segment index out of range, a file path (files are 3D), heights given as rows.
    let circle = json!({"type": "circle", "radius": 1});
    for (k, a) in [
        json!({"type": "trimesh", "vertices": [[0, 0], [1, 0]], "indices": [[0, 2]]}),
        json!({"type": "trimesh", "path": "x.obj", "indices": [[0, 1]]}),
        json!({"type": "heightfield", "heights": [0, [0, 1]]}),
    ]
    .into_iter()
    .enumerate()
    {
        let line = json!({"id": k, "query": "distance", "a": a, "b": circle});
        let v: Value = serde_json::from_str(&answer_line(&line.to_string())).unwrap();
        assert!(v["error"].is_string() && v["id"] == json!(k), "{v}");
    }
}

/// A stream of composite lines, good and bad, gets one answer per line, in order, with the same ids.
#[test]
fn one_answer_per_composite_line_in_order() {
    let mut rng = Lcg(99);
    let mut input = String::new();
    let mut ids = Vec::new();
    for k in 0..30 {
        let (c, pose, _) = compound(&mut rng, 2 + k % 2);
        let q = ["intersect", "distance", "penetration", "contact", "shape_cast"][k % 5];
        let b = rng.convex(2 + k % 2);
        let mut line = json!({"id": format!("q{k}"), "query": q, "a": c, "pose_a": pose, "b": b});
        if k % 7 == 3 {
            line["a"]["parts"] = json!([]);
        }
        input.push_str(&line.to_string());
        input.push('\n');
        ids.push(line["id"].clone());
    }
    let mut out = Vec::new();
    answer_stream(input.as_bytes(), &mut out, &Settings::default(), Limits::default()).unwrap();
    let answers: Vec<Value> =
        String::from_utf8(out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(answers.len(), ids.len());
    for (k, (a, id)) in answers.iter().zip(&ids).enumerate() {
        assert_eq!(&a["id"], id);
        assert_eq!(a.get("error").is_some(), k % 7 == 3, "{a}");
    }
}
