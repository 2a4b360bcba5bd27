//! Pictures of every GJK step of one query (`gjk draw`, and the live page): [`model`] works out what a picture
//! shows from the library's own record of the steps ([`gjk::trace::Recorder`]); [`render`] lays it out as an SVG
//! sheet of small multiples, which carries in its `<desc id="gjk-answer">` the answer line `gjk query` prints for
//! the same query, so a picture can be checked against it.
//!
//! A 2D query on a mesh, compound, height field or half-space is pictured as its tree walk instead: [`walk`] takes
//! the library's record of the walk ([`gjk::query::WalkRecorder`]: the nodes entered, the leaf pairs run) and
//! [`walk_render`] draws it.

pub mod model;
pub mod render;
pub mod walk;
pub mod walk_render;

use serde_json::Value;

use model::P3;

/// A built-in example: its name, a title, what it shows (instead of the shapes' JSON), the query line, and the
/// first search directions (warm start).
pub struct Example {
    /// The name `--example` takes.
    pub name: &'static str,
    /// The picture's title.
    pub title: &'static str,
    /// What it shows, in place of the shapes' JSON.
    pub about: &'static [&'static str],
    /// The query line.
    pub line: &'static str,
    /// First search directions (A's frame), handed to the query as a warm start.
    pub warm: &'static [P3],
}

/// The built-in examples.
pub const EXAMPLES: &[Example] = &[
    Example {
        name: "textbook",
        title: "GJK step by step: the textbook example",
        about: &[
            "A = triangle (0, 1) (1, −1) (−1, −1);  B = triangle (0, −1) (1, 1) (−1, 1);  distance query",
            "first search direction d₀ = (1, 0), given as a warm start (as in gjk demo)",
        ],
        line: r#"{"id": "textbook", "query": "distance", "a": {"type": "polygon", "points": [[0, 1], [1, -1], [-1, -1]]}, "b": {"type": "polygon", "points": [[0, -1], [1, 1], [-1, 1]]}}"#,
        warm: &[[1.0, 0.0, 0.0]],
    },
    Example {
        name: "circle-box",
        title: "GJK distance: a turned box and a circle, apart",
        about: &[],
        line: r#"{"id": "circle-box", "query": "distance", "a": {"type": "box", "half_extents": [1, 0.5]}, "pose_a": {"rotation": 0.4}, "b": {"type": "circle", "radius": 0.5}, "pose_b": {"translation": [2.5, 1.5]}}"#,
        warm: &[],
    },
    Example {
        name: "boxes-penetrating",
        title: "Penetration: two overlapping boxes (GJK steps drawn; EPA then finds the depth)",
        about: &[],
        line: r#"{"id": "boxes-penetrating", "query": "penetration", "a": {"type": "box", "half_extents": [1, 0.6]}, "b": {"type": "box", "half_extents": [0.7, 0.7]}, "pose_b": {"translation": [1.2, 0.9], "rotation": 0.5}}"#,
        warm: &[],
    },
    Example {
        name: "capsule-box-3d",
        title: "GJK distance in 3D: a capsule and a turned box, three orthographic views",
        about: &[],
        line: r#"{"id": "capsule-box-3d", "query": "distance", "a": {"type": "capsule", "half_height": 0.6, "radius": 0.3}, "pose_a": {"rotation": [0.2, 0, 0, 0.98]}, "b": {"type": "box", "half_extents": [0.5, 0.4, 0.3]}, "pose_b": {"translation": [1.6, 0.8, 0.4], "rotation": [0, 0, 0.38, 0.92]}}"#,
        warm: &[],
    },
];

/// The SVG of one query line (with an example's warm start and words).
pub fn draw_line(line: &str, ex: Option<&Example>) -> Result<String, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("invalid JSON: {e}"))?;
    // A mesh, compound, height field or half-space: the picture of the tree walk, not of GJK's steps.
    if let Some(walk) = walk::build(&v)? {
        if ex.is_some_and(|e| !e.warm.is_empty()) {
            return Err("a composite query takes no warm start".into());
        }
        return Ok(walk_render::svg(&walk));
    }
    let mut drawing = model::build(&v, ex.map_or(&[], |e| e.warm))?;
    if let Some(ex) = ex {
        drawing.title = ex.title.to_string();
        if !ex.about.is_empty() {
            drawing.about = ex.about.iter().map(|s| s.to_string()).collect();
        }
    }
    Ok(render::svg(&drawing))
}
