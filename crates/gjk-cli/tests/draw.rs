//! End-to-end tests of `gjk draw`: the textbook picture against its snapshot, one panel per GJK step and per EPA
//! iteration (a long expansion elided in the middle), the same answer as `gjk query`, the PNG, and the errors.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test -p gjk-cli --test draw` rewrites tests/snapshots/textbook.svg and the README's
//! docs/images/textbook.svg and .png from the current code.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The textbook triangles as a query line; without a warm start it begins from the shapes' centres, not (1, 0).
const TEXTBOOK_LINE: &str = r#"{"id": "textbook", "query": "distance", "a": {"type": "polygon", "points": [[0, 1], [1, -1], [-1, -1]]}, "b": {"type": "polygon", "points": [[0, -1], [1, 1], [-1, 1]]}}"#;

/// Query lines covering the three drawable queries, 2D and 3D, apart, touching through radii, overlapping, a
/// run of many steps, a run of no step, and shapes far from the origin.
const LINES: &[&str] = &[
    TEXTBOOK_LINE,
    r#"{"id": 1, "query": "distance", "a": {"type": "sphere", "radius": 1}, "b": {"type": "sphere", "radius": 0.5}, "pose_b": {"translation": [3, 0, 0]}}"#,
    r#"{"id": "boxes", "query": "intersect", "a": {"type": "box", "half_extents": [1, 1, 1]}, "b": {"type": "box", "half_extents": [1, 1, 1]}, "pose_b": {"translation": [1.5, 0.5, 0], "rotation": [0, 0, 0.3826834323650898, 0.9238795325112867]}}"#,
    r#"{"id": 3, "query": "distance", "a": {"type": "box", "half_extents": [1, 0.5]}, "pose_a": {"rotation": 1.5707963267948966}, "b": {"type": "circle", "radius": 0.25}, "pose_b": {"translation": [0, 3]}}"#,
    r#"{"id": 5, "query": "distance", "a": {"type": "rounded", "shape": {"type": "segment", "a": [0, 0, 0], "b": [0, 2, 0]}, "radius": 0.1}, "b": {"type": "minkowski_sum", "a": {"type": "point", "at": [3, 0, 0]}, "b": {"type": "ellipsoid", "radii": [1, 2, 3]}}}"#,
    r#"{"id": "far", "query": "distance", "a": {"type": "ellipse", "radii": [1, 0.5]}, "pose_a": {"translation": [100, 50], "rotation": 0.3}, "b": {"type": "triangle", "a": [0, 0], "b": [1, 0], "c": [0, 1]}, "pose_b": {"translation": [103, 52]}}"#,
    r#"{"id": "apart", "query": "intersect", "a": {"type": "polygon", "points": [[0, 0], [2, 0], [1, 2]]}, "b": {"type": "circle", "radius": 0.5}, "pose_b": {"translation": [3, 3]}}"#,
    r#"{"id": 8, "query": "intersect", "a": {"type": "point", "at": [0, 0]}, "b": {"type": "point", "at": [0, 0]}}"#,
    r#"{"id": "overlap", "query": "penetration", "a": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "b": {"type": "box", "half_extents": [0.5, 0.5, 0.5]}, "pose_b": {"translation": [0.2, 0.9, 0.1]}}"#,
    r#"{"id": "touch", "query": "penetration", "a": {"type": "box", "half_extents": [1, 1]}, "b": {"type": "box", "half_extents": [1, 1]}, "pose_b": {"translation": [2, 0.5]}}"#,
    r#"{"id": "p2", "query": "penetration", "a": {"type": "box", "half_extents": [1, 0.6]}, "b": {"type": "capsule", "half_height": 0.5, "radius": 0.3}, "pose_b": {"translation": [1.2, 0.5], "rotation": 0.7}}"#,
    // A curved core without a radius: EPA needs many iterations (more than the sheet draws).
    r#"{"id": "long-epa", "query": "penetration", "a": {"type": "ellipse", "radii": [1, 0.6]}, "b": {"type": "box", "half_extents": [0.5, 0.5]}, "pose_b": {"translation": [0.9, 0.3], "rotation": 0.4}}"#,
];

fn gjk(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gjk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gjk runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write");
    child.wait_with_output().expect("gjk ends")
}

fn draw(args: &[&str]) -> String {
    let mut all = vec!["draw"];
    all.extend_from_slice(args);
    let out = gjk(&all, "");
    assert!(out.status.success(), "gjk {all:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// What `gjk query` answers for one line.
fn query(line: &str) -> String {
    let out = gjk(&["query"], line);
    assert!(out.status.success());
    String::from_utf8(out.stdout).expect("utf-8").trim_end().to_string()
}

/// The answer line a drawing carries in `<desc id="gjk-answer">`.
fn answer_of(svg: &str) -> String {
    let start = svg.find(r#"<desc id="gjk-answer">"#).expect("answer in the SVG") + r#"<desc id="gjk-answer">"#.len();
    let end = start + svg[start..].find("</desc>").expect("end of desc");
    svg[start..end].replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The numbers of the panels of one kind (`step` for GJK, `epa` for EPA), in order.
fn panels(svg: &str, kind: &str) -> Vec<u32> {
    svg.match_indices(&format!(r#"data-panel="{kind}" data-step=""#))
        .map(|(i, m)| {
            let rest = &svg[i + m.len()..];
            rest[..rest.find('"').expect("closing quote")].parse().expect("step number")
        })
        .collect()
}

fn json(s: &str) -> serde_json::Value {
    serde_json::from_str(s).unwrap_or_else(|e| panic!("not JSON ({e}): {s}"))
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn first_difference(got: &str, want: &str) -> String {
    for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        if g != w {
            return format!("line {}:\n  got  {g}\n  want {w}", n + 1);
        }
    }
    format!("lengths differ: {} vs {} lines", got.lines().count(), want.lines().count())
}

fn check_snapshot(got: &str, path: &Path) {
    let want = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with UPDATE_SNAPSHOTS=1 to create it)", path.display()));
    if got != want {
        let actual = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("textbook.actual.svg");
        std::fs::write(&actual, got).expect("write the actual SVG");
        panic!(
            "{} is out of date ({}); the new picture is in {}; if the change is intended, run \
             UPDATE_SNAPSHOTS=1 cargo test -p gjk-cli --test draw",
            path.display(),
            first_difference(got, &want),
            actual.display()
        );
    }
}

#[test]
fn textbook_snapshot() {
    let svg = draw(&["--example", "textbook"]);
    let snapshot = manifest().join("tests/snapshots/textbook.svg");
    let docs = manifest().join("../../docs/images/textbook.svg");
    if std::env::var("UPDATE_SNAPSHOTS").as_deref() == Ok("1") {
        std::fs::create_dir_all(snapshot.parent().unwrap()).expect("snapshot folder");
        std::fs::create_dir_all(docs.parent().unwrap()).expect("docs/images");
        std::fs::write(&snapshot, &svg).expect("write the snapshot");
        std::fs::write(&docs, &svg).expect("write docs/images/textbook.svg");
        // The README's PNG needs a build with the `png` feature: UPDATE_SNAPSHOTS=1 cargo test -p gjk-cli
        // --features png --test draw.
        if cfg!(feature = "png") {
            let png = docs.with_extension("png");
            draw(&["--example", "textbook", "--out", "-", "--png", png.to_str().expect("utf-8 path")]);
        }
    }
    check_snapshot(&svg, &snapshot);
    check_snapshot(&svg, &docs);
}

#[test]
fn textbook_shows_the_simplex_growing_to_enclose_the_origin() {
    let svg = draw(&["--example", "textbook"]);
    // The example starts from the direction (1, 0), as `gjk demo` does; a query line has no warm start (it
    // would start from the shapes' centres), so the answer is checked here rather than against `gjk query`.
    let answer = json(&answer_of(&svg));
    assert_eq!(answer["intersecting"], true);
    assert_eq!(answer["iterations"], 2);
    assert_eq!(answer["status"], "converged");
    assert_eq!(panels(&svg, "step"), [1, 2]);
    assert!(svg.contains(r#"data-step="1" data-decision="closer""#), "step 1 moves closer");
    assert!(svg.contains(r#"data-step="2" data-decision="intersecting""#), "step 2 encloses the origin");
    // (Captions join coordinates with no-break spaces.)
    assert!(svg.contains("w₀ = s_A(d₀) − s_B(−d₀) = (2.000,\u{a0}−2.000)"), "the first support point");
    assert!(svg.contains("simplex {w₀,\u{a0}w₁,\u{a0}w₂}"), "the last simplex is a triangle");
}

#[test]
fn drawing_is_deterministic() {
    for args in [["--example", "circle-box"], ["--example", "capsule-box-3d"]] {
        assert_eq!(draw(&args), draw(&args), "{args:?}");
    }
    let a = draw(&[LINES[5]]);
    assert_eq!(a, draw(&[LINES[5]]));
    for bad in [r#"="-0""#, r#"="NaN"#, r#"="inf"#, r#"="-inf"#, ",NaN", ",inf"] {
        assert!(!a.contains(bad), "{bad} in the SVG");
    }
}

#[test]
fn one_step_panel_per_iteration() {
    for line in LINES {
        let answer = json(&query(line));
        let svg = draw(&[line]);
        let steps = panels(&svg, "step");
        let iterations = answer["iterations"].as_u64().expect("iterations") as u32;
        let expected: Vec<u32> = (1..=steps.len() as u32).collect();
        assert_eq!(steps, expected, "{line}: steps are numbered from 1");
        // Penetration: EPA's iterations follow GJK's, all of them up to 8, else the first five and the last three.
        let epa = iterations - steps.len() as u32;
        let expected: Vec<u32> = if epa <= 8 { (1..=epa).collect() } else { (1..=5).chain(epa - 2..=epa).collect() };
        assert_eq!(panels(&svg, "epa"), expected, "{line}: {iterations} iterations");
        if epa > 8 {
            assert!(svg.contains(&format!("(EPA iterations 6–{} are not drawn)", epa - 3)), "{line}: the gap is said");
        }
        assert_eq!(svg.matches(r#"data-panel="start""#).count(), 1, "{line}");
        assert_eq!(svg.matches(r#"data-panel="answer""#).count(), 1, "{line}");
    }
}

#[test]
fn drawing_does_not_change_the_answer() {
    for line in LINES {
        assert_eq!(answer_of(&draw(&[line])), query(line), "{line}");
    }
    // The line can also come on stdin.
    let out = gjk(&["draw", "-"], &format!("\n{}\n", LINES[1]));
    assert!(out.status.success());
    assert_eq!(answer_of(&String::from_utf8(out.stdout).unwrap()), query(LINES[1]));
    // And every built-in example is a query `gjk query` answers the same way.
    for name in ["circle-box", "boxes-penetrating", "capsule-box-3d"] {
        let svg = draw(&["--example", name]);
        let answer = json(&answer_of(&svg));
        assert_eq!(answer["id"], name);
        assert!(answer.get("error").is_none(), "{name}: {answer}");
    }
}

/// The PNG renderer is opt-in (feature `png`), so the first build stays short; without it `--png` must say how to
/// get it rather than fail obscurely, and write nothing.
#[cfg(not(feature = "png"))]
#[test]
fn png_without_the_feature_says_how_to_get_it() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("draw-no-png");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png_path = dir.join("circle-box.png");
    let out = gjk(&["draw", "--example", "circle-box", "--png", png_path.to_str().unwrap()], "");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--features png"), "{err}");
    assert!(out.stdout.is_empty() && !png_path.exists());
}

/// The PNG of the huge-hull sheet is made in bounded time and size (see `a_picture_of_huge_hulls_stays_small`).
#[cfg(feature = "png")]
#[test]
fn a_png_of_huge_hulls_is_bounded() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("draw-huge-png");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let png_path = dir.join("hulls.png");
    let start = std::time::Instant::now();
    let out = gjk(&["draw", "-", "--out", "-", "--png", png_path.to_str().unwrap()], &hulls_line(20_000));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(start.elapsed() < std::time::Duration::from_secs(120), "took {:?}", start.elapsed());
    let png = std::fs::read(&png_path).expect("PNG written");
    let (w, h) =
        (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert!((w as u64) * (h as u64) <= 32 << 20, "{w} × {h}");
}

#[cfg(feature = "png")]
#[test]
fn writes_svg_and_png_files() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("draw-files");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let svg_path = dir.join("circle-box.svg");
    let png_path = dir.join("circle-box.png");
    let stdout =
        draw(&["--example", "circle-box", "--out", svg_path.to_str().unwrap(), "--png", png_path.to_str().unwrap()]);
    assert!(stdout.is_empty(), "with --out nothing goes to stdout");
    let svg = std::fs::read_to_string(&svg_path).expect("SVG written");
    assert_eq!(svg, draw(&["--example", "circle-box"]));
    let png = std::fs::read(&png_path).expect("PNG written");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG signature");
    assert_eq!(&png[12..16], b"IHDR");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    let attr = |name: &str| -> f64 {
        let at = svg.find(&format!(r#" {name}=""#)).expect(name) + name.len() + 3;
        svg[at..at + svg[at..].find('"').unwrap()].parse().unwrap()
    };
    assert_eq!(width as f64, (2.0 * attr("width")).floor(), "rendered at twice the SVG's size");
    assert_eq!(height as f64, (2.0 * attr("height")).floor());
}

/// Two hulls of `n` points on spheres, 3 apart, as a distance query line.
fn hulls_line(n: usize) -> String {
    let points = |dx: f64| -> String {
        let p: Vec<String> = (0..n)
            .map(|i| {
                let z = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
                let (r, t) = ((1.0 - z * z).sqrt(), i as f64 * 2.399_963_229_728_653);
                format!("[{}, {}, {}]", r * t.cos() + dx, r * t.sin(), z)
            })
            .collect();
        p.join(", ")
    };
    format!(
        r#"{{"id": "hulls", "query": "distance", "a": {{"type": "convex", "points": [{}]}}, "b": {{"type": "convex", "points": [{}]}}, "pose_b": {{"translation": [3, 0.5, 0]}}}}"#,
        points(0.0),
        points(0.0)
    )
}

/// Two 100,000-point hulls once made a 6 MB SVG (the whole query was printed in it) and a PNG that had not
/// finished after 10 minutes at 2 GB. Shapes are drawn as outlines and long descriptions are cut, so the picture's
/// size does not grow with the point count (20,000 points here, to keep the test quick).
#[test]
fn a_picture_of_huge_hulls_stays_small() {
    let small = gjk(&["draw", "-"], &hulls_line(200));
    let large = gjk(&["draw", "-"], &hulls_line(20_000));
    assert!(small.status.success() && large.status.success(), "{}", String::from_utf8_lossy(&large.stderr));
    let svg = String::from_utf8(large.stdout).unwrap();
    assert!(svg.contains("characters in all)"), "the description says it was cut");
    assert!(svg.len() < 200_000, "SVG of {} bytes", svg.len());
    let ratio = svg.len() as f64 / small.stdout.len() as f64;
    assert!(ratio < 1.2, "the SVG grew {ratio:.2}× with 100× the points");
    assert!(answer_of(&svg).contains("\"distance\""));
}

#[test]
fn refuses_what_it_cannot_draw() {
    let cases: &[&[&str]] = &[
        &[
            "draw",
            r#"{"query": "ray_cast", "a": {"type": "sphere", "radius": 1}, "origin": [0, 0, 0], "direction": [1, 0, 0]}"#,
        ],
        &[
            "draw",
            r#"{"query": "distance", "a": {"type": "sphere", "radius": -1}, "b": {"type": "sphere", "radius": 1}}"#,
        ],
        &["draw", "not json"],
        &["draw", "--example", "nope"],
        &["draw"],
        &["draw", "--example", "textbook", TEXTBOOK_LINE],
        // 1e300 overflows the support differences: nothing is drawn from NaN or infinite coordinates.
        &[
            "draw",
            r#"{"query": "distance", "a": {"type": "box", "half_extents": [1e300, 1e300]}, "b": {"type": "box", "half_extents": [1e300, 1e300]}, "pose_b": {"translation": [-1.7e308, 1.7e308]}}"#,
        ],
    ];
    let messages = [
        "draws distance, intersect and penetration queries",
        "radius is negative",
        "invalid JSON",
        "unknown example \"nope\"",
        "no query given",
        "not both",
        "non-finite",
    ];
    for (args, message) in cases.iter().zip(messages) {
        let out = gjk(args, "");
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?}: no partial SVG");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
}

/// The 3D picture's labels once sat on one another (capsule-box-3d: "v", "O" and "w₀" in one spot, "a − b" over
/// "a"): every plot's point labels are now placed clear of each other and inside the plot, in every built-in
/// example and every line above.
#[test]
fn point_labels_never_overlap() {
    use gjk_cli::draw::{model, render, EXAMPLES};
    let mut sheets: Vec<(String, model::Drawing)> = EXAMPLES
        .iter()
        .map(|e| (e.name.to_string(), model::build(&json(e.line), e.warm).expect("an example draws")))
        .collect();
    sheets.extend(LINES.iter().map(|l| (l.to_string(), model::build(&json(l), &[]).expect("the line draws"))));
    let mut labels = 0;
    for (name, drawing) in &sheets {
        let svg = render::svg(drawing);
        for plot in render::label_boxes(drawing) {
            for (i, a) in plot.iter().enumerate() {
                labels += 1;
                // Inside the plot (the 3D sheets' plots are 190 pixels square, the 2D ones 230 or 260).
                assert!(a.x0 >= 0.0 && a.y0 >= 0.0 && a.x1 <= 262.0 && a.y1 <= 262.0, "{name}: {a:?} leaves the plot");
                // Written where it was placed.
                let x = format!(r#"x="{}""#, trim(a.x));
                assert!(svg.contains(&x), "{name}: {a:?} is not in the SVG");
                for b in &plot[i + 1..] {
                    assert_eq!(a.overlap(b), 0.0, "{name}: {:?} and {:?} overlap\n{a:?}\n{b:?}", a.text, b.text);
                }
            }
        }
    }
    assert!(labels > 100, "{labels} labels checked");
}

/// A pixel coordinate as the SVG writes it (two decimals, no trailing zeros).
fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// 2D queries on composites, one per kind of composite and of query: a polyline and a ball (distance), a height
/// field and a turned box (penetration), two compounds (distance), a half-space and an open polyline (intersect),
/// two polylines crossing (intersect), a closed mesh around a ball (penetration).
const WALK_LINES: &[&str] = &[
    r#"{"id": "zigzag", "query": "distance", "a": {"type": "trimesh", "vertices": [[0, 0], [1, 1], [2, 0], [3, 1], [4, 0], [5, 1], [6, 0], [7, 1], [8, 0]], "indices": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8]]}, "b": {"type": "circle", "radius": 0.3}, "pose_b": {"translation": [6.5, 2]}}"#,
    r#"{"id": "terrain", "query": "penetration", "a": {"type": "heightfield", "heights": [0, 0.5, 0.2, 1, 0.4, 0.1, 0.6, 0.3]}, "b": {"type": "box", "half_extents": [0.6, 0.3]}, "pose_b": {"translation": [3.2, 0.9], "rotation": 0.3}}"#,
    r#"{"id": "parts", "query": "distance", "a": {"type": "compound", "parts": [{"shape": {"type": "box", "half_extents": [1, 0.2]}}, {"shape": {"type": "circle", "radius": 0.5}, "pose": {"translation": [2, 1]}}, {"shape": {"type": "polygon", "points": [[0, 0], [1, 0], [0.5, 1]]}, "pose": {"translation": [-2, 1], "rotation": 0.5}}]}, "b": {"type": "compound", "parts": [{"shape": {"type": "capsule", "half_height": 0.5, "radius": 0.2}}, {"shape": {"type": "box", "half_extents": [0.3, 0.3]}, "pose": {"translation": [1, 0]}}]}, "pose_b": {"translation": [3, 3], "rotation": 0.4}}"#,
    r#"{"id": "ground", "query": "intersect", "a": {"type": "halfspace", "normal": [0, 1]}, "pose_a": {"rotation": 0.2}, "b": {"type": "trimesh", "vertices": [[0, 0], [1, 1], [2, 0.5]], "indices": [[0, 1], [1, 2]]}, "pose_b": {"translation": [0, 0.1]}}"#,
    r#"{"id": "cross", "query": "intersect", "a": {"type": "trimesh", "vertices": [[0, 0], [1, 1], [2, 0]], "indices": [[0, 1], [1, 2]]}, "b": {"type": "trimesh", "vertices": [[0, 1], [1, 0], [2, 1]], "indices": [[0, 1], [1, 2]]}, "pose_b": {"translation": [0.5, 0]}}"#,
    r#"{"id": "inside", "query": "penetration", "a": {"type": "trimesh", "vertices": [[0, 0], [4, 0], [4, 3], [0, 3]], "indices": [[0, 1], [1, 2], [2, 3], [3, 0]]}, "b": {"type": "circle", "radius": 0.5}, "pose_b": {"translation": [3, 1]}}"#,
];

/// How many times `needle` occurs in `svg`.
fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

/// A 2D query on a composite is drawn as its tree walk: the picture carries `gjk query`'s answer line, one
/// `data-run` per leaf pair the answer counts (`leaves`), each leaf of the shapes, the leaf that gave the answer
/// drawn as used, and fewer node boxes than the tree has where the walk could skip some.
#[test]
fn composite_queries_are_drawn_as_their_tree_walk() {
    for line in WALK_LINES {
        let svg = draw(&[line]);
        let answer = query(line);
        assert_eq!(answer_of(&svg), answer, "{line}");
        let a = json(&answer);
        let leaves = a["leaves"].as_u64().expect("leaves") as usize;
        assert!(svg.contains(&format!(r#"data-runs="{leaves}""#)), "{line}: runs");
        if a.get("distance").is_some() {
            // Distance and penetration runs measure: one segment between closest points per run.
            assert_eq!(count(&svg, "<g data-run="), leaves, "{line}");
            assert!(svg.contains("data-answer"), "{line}: the answer's points");
        }
        for (key, side) in [("part_a", "a"), ("part_b", "b")] {
            if let Some(i) = a[key].as_u64() {
                assert!(svg.contains(&format!(r#"data-leaf="{side}:{i}" data-ran="true""#)), "{line}: {key}");
            }
        }
        let shapes = json(line);
        for (key, side) in [("a", "a"), ("b", "b")] {
            let n = match shapes[key]["type"].as_str().expect("type") {
                "trimesh" => shapes[key]["indices"].as_array().expect("indices").len(),
                "compound" => shapes[key]["parts"].as_array().expect("parts").len(),
                "heightfield" => shapes[key]["heights"].as_array().expect("heights").len() - 1,
                "halfspace" => {
                    assert!(svg.contains(&format!(r#"data-halfspace="{side}""#)), "{line}");
                    0
                }
                _ => 1,
            };
            assert_eq!(count(&svg, &format!(r#"data-leaf="{side}:"#)), n, "{line}: {side}'s leaves");
        }
        assert_eq!(draw(&[line]), svg, "{line}: the same bytes each time");
    }
    // The zigzag's ball sits over its far end: the walk skips the near half of the tree.
    let zigzag = draw(&[WALK_LINES[0]]);
    let nodes = count(&zigzag, r#"data-node="a:"#);
    assert!((1..2 * 8 - 1).contains(&nodes), "{nodes} of the tree's nodes entered");
    assert!(count(&zigzag, r#"data-ran="true""#) < 8, "some segments never ran");
}

/// A terrain of 20,000 samples outlines at most 4096 leaves (plus any a run used) and says so; a composite in a
/// 3D line is refused with a message that names what draws it.
#[test]
fn huge_composites_are_cut_and_3d_composites_refused() {
    let heights: Vec<String> = (0..20_000).map(|i| format!("{}", (i as f64 * 0.37).sin())).collect();
    let line = format!(
        r#"{{"query": "distance", "a": {{"type": "heightfield", "heights": [{}], "cell_size": 0.01}}, "b": {{"type": "circle", "radius": 0.2}}, "pose_b": {{"translation": [150, 3]}}}}"#,
        heights.join(", ")
    );
    // Too long for one argument of a command line: the line comes on stdin.
    let out = gjk(&["draw", "-"], &line);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = String::from_utf8(out.stdout).expect("utf-8");
    let leaves = count(&svg, r#"data-leaf="a:"#);
    assert!((4096..=4096 + 8).contains(&leaves), "{leaves} leaves outlined");
    assert!(svg.contains(&format!("({leaves} leaves outlined")));
    assert_eq!(answer_of(&svg), query(&line));

    let line_3d = r#"{"query": "distance", "a": {"type": "trimesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], "indices": [[0, 1, 2]]}, "b": {"type": "sphere", "radius": 1}, "pose_b": {"translation": [0, 0, 3]}}"#;
    let out = gjk(&["draw", line_3d], "");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("in 2D lines only"));
}
