//! Vertex lists from mesh files: Wavefront OBJ (`v x y z` lines) and STL (ASCII or binary). Only the vertices
//! matter: the shape is their convex hull.

use std::path::Path;

/// The vertices of an OBJ or STL file, chosen by extension (`.obj`, `.stl`; STL may be ASCII or binary).
pub fn load_vertices(path: &Path) -> Result<Vec<[f64; 3]>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read mesh {}: {e}", path.display()))?;
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let verts = match ext.as_deref() {
        Some("obj") => parse_obj(&String::from_utf8_lossy(&bytes))?,
        Some("stl") => parse_stl(&bytes)?,
        _ => return Err(format!("mesh {}: unknown extension (expected .obj or .stl)", path.display())),
    };
    if verts.is_empty() {
        return Err(format!("mesh {} has no vertices", path.display()));
    }
    Ok(verts)
}

fn parse_floats(fields: &[&str], what: &str) -> Result<[f64; 3], String> {
    if fields.len() < 3 {
        return Err(format!("{what}: expected 3 coordinates"));
    }
    let mut p = [0.0; 3];
    for (o, f) in p.iter_mut().zip(fields) {
        *o = f.parse::<f64>().map_err(|_| format!("{what}: bad number {f:?}"))?;
    }
    Ok(p)
}

/// OBJ: every `v x y z [w]` line is a vertex (faces and everything else are ignored).
pub fn parse_obj(text: &str) -> Result<Vec<[f64; 3]>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        if fields.next() == Some("v") {
            let rest: Vec<&str> = fields.collect();
            out.push(parse_floats(&rest, &format!("OBJ line {}", n + 1))?);
        }
    }
    Ok(out)
}

/// STL: binary when the size matches 84 + 50 × (triangle count), ASCII (`vertex x y z` lines) otherwise.
pub fn parse_stl(bytes: &[u8]) -> Result<Vec<[f64; 3]>, String> {
    if bytes.len() >= 84 {
        let count = u32::from_le_bytes([bytes[80], bytes[81], bytes[82], bytes[83]]) as usize;
        if count.checked_mul(50).and_then(|n| n.checked_add(84)) == Some(bytes.len()) {
            let mut out = Vec::with_capacity(count * 3);
            for t in 0..count {
                let base = 84 + 50 * t + 12; // skip the facet normal
                for k in 0..3 {
                    let mut p = [0.0; 3];
                    for (c, o) in p.iter_mut().enumerate() {
                        let at = base + 12 * k + 4 * c;
                        *o = f32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as f64;
                    }
                    out.push(p);
                }
            }
            return Ok(out);
        }
    }
    let text = String::from_utf8_lossy(bytes);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        if fields.next() == Some("vertex") {
            let rest: Vec<&str> = fields.collect();
            out.push(parse_floats(&rest, &format!("STL line {}", n + 1))?);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obj_vertices_are_read_and_faces_ignored() {
        let v = parse_obj("# cube\nv 0 0 0\nv 1 0 0\nvn 0 0 1\nv 0 1 0 1.0\nf 1 2 3\n").unwrap();
        assert_eq!(v, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    }

    #[test]
    fn obj_bad_number_is_an_error() {
        assert!(parse_obj("v 0 zero 0\n").is_err());
    }

    #[test]
    fn ascii_stl_vertices_are_read() {
        let s = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
        assert_eq!(parse_stl(s.as_bytes()).unwrap().len(), 3);
    }

    #[test]
    fn binary_stl_vertices_are_read() {
        let mut b = vec![0u8; 80];
        b.extend_from_slice(&1u32.to_le_bytes());
        b.extend_from_slice(&[0u8; 12]);
        for p in [[0f32, 0., 0.], [2., 0., 0.], [0., 3., 0.]] {
            for c in p {
                b.extend_from_slice(&c.to_le_bytes());
            }
        }
        b.extend_from_slice(&[0u8; 2]);
        assert_eq!(parse_stl(&b).unwrap(), vec![[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 3.0, 0.0]]);
    }
}
