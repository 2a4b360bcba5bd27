//! The library behind the `gjk` command line: JSON query lines in, answers and pictures out. The binary
//! (`src/bin/gjk`) and the WebAssembly page (`crates/gjk-web`) both run through it, so the page, the pictures and
//! `gjk query` answer a query line with the same code.
//!
//! * [`parse`] — JSON → shapes and poses (2D and 3D through one generic builder).
//! * [`query`] — one query line → one answer line (the format of `docs/cli.md`).
//! * [`mesh`] — vertices of OBJ and STL files.
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

pub mod draw;
pub mod mesh;
pub mod parse;
pub mod query;
