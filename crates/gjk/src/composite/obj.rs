//! A minimal Wavefront OBJ reader: vertices (`v`), faces (`f`, fan-triangulated; `i`, `i/t`, `i//n`, `i/t/n` and
//! negative indices; faces of fewer than three corners hold no triangle and are skipped), objects and groups (`o`, `g`). Everything else (normals, texture coordinates, materials,
//! smoothing groups) is skipped. Enough for meshes and for convex decompositions, which V-HACD and CoACD write as
//! one `o` object per part.

use alloc::{format, string::String, vec, vec::Vec};
use core::fmt;

/// One object (`o` or `g` block) of an OBJ file: its name and its triangles, indexing the file's vertex list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjObject {
    /// The name after `o`/`g` (empty for faces before any).
    pub name: String,
    /// Triangles (0-based indices into the file's vertices).
    pub triangles: Vec<[u32; 3]>,
    /// Vertices declared inside the block (0-based), for objects that list points but no faces.
    pub declared: core::ops::Range<u32>,
}

/// Why an OBJ text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ObjError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OBJ line {}: {}", self.line, self.message)
    }
}

impl core::error::Error for ObjError {}

/// Reads an OBJ text: every vertex, and the objects with their triangles. Faces before the first `o`/`g` go to an
/// unnamed object; empty objects (a `g` immediately followed by an `o`, say) are dropped unless they declare
/// vertices.
///
/// ```
/// use gjk::composite::parse_obj;
/// let (vertices, objects) = parse_obj("o a\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 4 3\n").unwrap();
/// assert_eq!(vertices.len(), 4);
/// assert_eq!(objects[0].name, "a");
/// assert_eq!(objects[0].triangles, [[0, 1, 3], [0, 3, 2]]);
/// ```
pub fn parse_obj(text: &str) -> Result<(Vec<[f64; 3]>, Vec<ObjObject>), ObjError> {
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut objects = vec![ObjObject::default()];
    let mut corners: Vec<u32> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let err = |message: String| ObjError { line, message };
        let mut words = raw.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut p = [0.0; 3];
                for c in &mut p {
                    let w = words.next().ok_or_else(|| err("a vertex needs three coordinates".into()))?;
                    *c = w.parse().map_err(|_| err(format!("`{w}` is not a number")))?;
                    if !f64::is_finite(*c) {
                        return Err(err(format!("`{w}` is not finite")));
                    }
                }
                vertices.push(p);
                let last = objects.last_mut().expect("always one object");
                last.declared.end = vertices.len() as u32;
            }
            Some("f") => {
                corners.clear();
                for w in words {
                    let index = w.split('/').next().unwrap_or("");
                    let i: i64 = index.parse().map_err(|_| err(format!("`{w}` is not a vertex index")))?;
                    // 1-based, or negative: counted back from the last vertex read.
                    let resolved = if i > 0 { i - 1 } else { vertices.len() as i64 + i };
                    if i == 0 || resolved < 0 || resolved >= vertices.len() as i64 {
                        return Err(err(format!("vertex index {i} is out of range")));
                    }
                    corners.push(resolved as u32);
                }
                // A "face" of one or two corners is a point or a line (real files have them, the monastery
                // among them): it holds no triangle.
                let last = objects.last_mut().expect("always one object");
                for k in 1..corners.len().saturating_sub(1) {
                    last.triangles.push([corners[0], corners[k], corners[k + 1]]);
                }
            }
            Some("o") | Some("g") => {
                let name = words.collect::<Vec<_>>().join(" ");
                let start = vertices.len() as u32;
                objects.push(ObjObject { name, triangles: Vec::new(), declared: start..start });
            }
            _ => {}
        }
    }
    objects.retain(|o| !o.triangles.is_empty() || !o.declared.is_empty());
    Ok((vertices, objects))
}
