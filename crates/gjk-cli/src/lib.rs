//! The library behind the `gjk` command line: JSON query lines in, answers and pictures out. The binary
//! (`src/bin/gjk`) and the WebAssembly page (`crates/gjk-web`) both run through it, so the page, the pictures and
//! `gjk query` answer a query line with the same code.
//!
//! * [`model`] — the typed model of a query line, built on the library's serde types (feature `serde` of `gjk`).
//! * [`parse`] — JSON → that model: the line's dimension first (2D or 3D), then its query.
//! * [`query`] — one query line → one answer line (the format of `docs/cli.md`); [`query_composite`] answers the
//!   lines with a shape that is not convex.
//! * [`stream`] — the `gjk query` stream: lines of any ending, limits, answers flushed when the input waits.
//! * [`recover`] — the `id` of a line the JSON parser rejected.
//! * [`composite`] — the shapes that are not convex (trimesh, compound, heightfield, halfspace) and their limits.
//! * [`mesh`] — vertices and triangles of OBJ and STL files, read only from one folder.
//! * [`query_nd`] — lines in ℝᵏ, k > 3 (convex, point, segment, sphere; distance, intersect).
//! * [`simplices`] — the witness simplices of a 2D or 3D distance line, named by the shapes' vertex indices.
//! * [`draw`] — what a picture of a query shows ([`draw::model`]), and its SVG ([`draw::render`]).
//!
//! ```
//! let line = r#"{"id": 7, "query": "distance", "a": {"type": "circle", "radius": 1},
//!                "b": {"type": "circle", "radius": 1}, "pose_b": {"translation": [3, 0]}}"#;
//! let answer: serde_json::Value = serde_json::from_str(&gjk_cli::query::answer_line(line)).unwrap();
//! assert_eq!(answer["id"], 7);
//! assert_eq!(answer["distance"], 1.0);
//! assert_eq!(answer["normal"], serde_json::json!([1.0, 0.0]));
//! ```

pub mod composite;
pub mod draw;
pub mod mesh;
pub mod model;
pub mod parse;
pub mod query;
pub mod query_composite;
pub mod query_nd;
pub mod recover;
pub mod simplices;
pub mod stream;
