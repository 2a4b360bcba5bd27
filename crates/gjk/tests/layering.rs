//! The module layering the library keeps (ARCHITECTURE.md, "math/"): `math` is the ground floor. The algorithms
//! are written against its `Vector`, and their 2D and 3D versions live beside them (simplex/dim2.rs, epa/dim3.rs…)
//! reached through `Vector::by_dimension`; nothing in math names a module above it. These tests read the sources,
//! so an import that reaches up fails here rather than in a review.

use std::path::{Path, PathBuf};

/// The library's modules other than `math`: none may be named from inside math/.
const ABOVE_MATH: &[&str] = &[
    "analytic",
    "batch",
    "broadphase",
    "bvh",
    "cast",
    "composite",
    "epa",
    "gjk",
    "manifold",
    "nd",
    "query",
    "serde_impls",
    "shape",
    "simplex",
    "trace",
    "witness",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `crate::NAME` in the code of `text` whose NAME is in `above`, as "line: text". Comments are skipped: a
/// doc link to a module above (math's docs point readers to `crate::nd`) is no dependency.
fn upward_paths(text: &str, above: &[&str]) -> Vec<String> {
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line.split("//").next().unwrap_or("");
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `crate::{a, b}` groups: every name in the braces counts.
            let names: Vec<String> = if rest.starts_with('{') {
                let group = &rest[1..rest.find('}').unwrap_or(rest.len())];
                group.split(',').map(|s| s.trim().split("::").next().unwrap_or("").to_string()).collect()
            } else {
                vec![name]
            };
            if names.iter().any(|m| above.contains(&m.as_str())) {
                hits.push(format!("{}: {}", n + 1, line.trim()));
            }
        }
    }
    hits
}

#[test]
fn math_names_no_module_above_it() {
    let math = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/math");
    let mut files = Vec::new();
    rust_files(&math, &mut files);
    assert!(files.len() >= 5, "src/math has its files ({})", files.len());
    let mut bad = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("a source file");
        // `super::super` would climb out of math/ just the same.
        for (n, line) in text.lines().enumerate() {
            if line.contains("super::super") {
                bad.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
        bad.extend(upward_paths(&text, ABOVE_MATH).into_iter().map(|h| format!("{}:{h}", file.display())));
    }
    assert!(bad.is_empty(), "math/ reaches above the ground floor:\n{}", bad.join("\n"));
}

/// The scan itself catches the forms an upward import takes (so the test above could fail).
#[test]
fn the_layering_scan_sees_plain_grouped_and_inline_paths() {
    assert_eq!(upward_paths("use crate::epa::{Expansion, Flat};", ABOVE_MATH).len(), 1);
    assert_eq!(upward_paths("use crate::{math::Real, simplex::Barycentric};", ABOVE_MATH).len(), 1);
    assert_eq!(upward_paths("    crate::gjk::DiffVertex::new(a, b)", ABOVE_MATH).len(), 1);
    assert!(upward_paths("use crate::math::Real; // crate::mathematics", ABOVE_MATH).is_empty());
    assert!(upward_paths("//! See [`crate::nd`].", ABOVE_MATH).is_empty());
}

/// The list of modules above math is the crate's list: a new top-level module must be added to it.
#[test]
fn the_layering_list_names_every_top_level_module() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).expect("lib.rs");
    for line in lib.lines() {
        let decl = line.trim().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
        let Some(name) = decl.strip_prefix("mod ").and_then(|r| r.strip_suffix(';')) else { continue };
        assert!(name == "math" || ABOVE_MATH.contains(&name), "module `{name}` is missing from ABOVE_MATH");
    }
}
