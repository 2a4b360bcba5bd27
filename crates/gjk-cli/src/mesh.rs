//! Mesh files: Wavefront OBJ and STL (ASCII or binary). A `mesh` shape read as its hull needs only the vertices
//! ([`MeshFolder::load_vertices`]); read as a triangle mesh or a compound it needs the triangles and, in an OBJ,
//! the objects (`o`/`g` blocks) they belong to ([`MeshFolder::load_mesh`]).
//!
//! A query line names its mesh by a path, and a line is input that may come from anyone, so a path is read only
//! when it is safe to: its extension is checked first (`.obj`, `.stl`), it is resolved under one folder (the
//! working directory unless `--mesh-dir` says otherwise; symbolic links and `..` are followed first and must end
//! inside it), only a regular file is opened (never a device, a FIFO or `/dev/stdin`, which would block or swallow
//! the input), opened without blocking, and no larger than a cap. Error messages name the path and the problem,
//! never the file's contents.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest mesh file read by default: 64 MiB (a binary STL of 1.3 million triangles).
pub const DEFAULT_MAX_MESH_BYTES: u64 = 64 << 20;

/// Where mesh files may be read from, and how large they may be.
#[derive(Clone, Debug)]
pub struct MeshFolder {
    /// The folder every mesh path is resolved under; `None`: the working directory.
    pub root: Option<PathBuf>,
    /// The largest file read, in bytes.
    pub max_bytes: u64,
}

impl Default for MeshFolder {
    fn default() -> Self {
        Self { root: None, max_bytes: DEFAULT_MAX_MESH_BYTES }
    }
}

/// The mesh formats, by extension.
#[derive(Clone, Copy)]
enum Format {
    Obj,
    Stl,
}

impl MeshFolder {
    /// The vertices of the OBJ or STL file at `path` (relative to the folder), chosen by extension.
    pub fn load_vertices(&self, path: &str) -> Result<Vec<[f64; 3]>, String> {
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let format = match ext.as_deref() {
            Some("obj") => Format::Obj,
            Some("stl") => Format::Stl,
            _ => return Err(format!("mesh {path:?}: unknown extension (expected .obj or .stl)")),
        };
        let bytes = self.read(path)?;
        let verts = match format {
            Format::Obj => parse_obj(&String::from_utf8_lossy(&bytes)),
            Format::Stl => parse_stl(&bytes),
        }
        .map_err(|e| format!("mesh {path:?}: {e}"))?;
        if verts.is_empty() {
            return Err(format!("mesh {path:?} has no vertices"));
        }
        Ok(verts)
    }

    /// The triangles of the OBJ or STL file at `path`, with the OBJ's objects (an STL file is one object). OBJ
    /// faces are fan-triangulated in order, so triangle `k` is the `k`-th of the file; STL corners with the same
    /// coordinates are made one vertex, so that neighbouring triangles share their edges.
    pub fn load_mesh(&self, path: &str) -> Result<MeshData, String> {
        let ext = Path::new(path).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let format = match ext.as_deref() {
            Some("obj") => Format::Obj,
            Some("stl") => Format::Stl,
            _ => return Err(format!("mesh {path:?}: unknown extension (expected .obj or .stl)")),
        };
        let bytes = self.read(path)?;
        let mesh = match format {
            Format::Obj => parse_obj_mesh(&String::from_utf8_lossy(&bytes)),
            Format::Stl => parse_stl(&bytes).map(weld),
        }
        .map_err(|e| format!("mesh {path:?}: {e}"))?;
        if mesh.triangles.is_empty() {
            return Err(format!("mesh {path:?} has no triangles"));
        }
        Ok(mesh)
    }

    /// The bytes of a regular file inside the folder, at most `max_bytes` of them.
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let root = match &self.root {
            Some(r) => r.canonicalize(),
            None => std::env::current_dir().and_then(|d| d.canonicalize()),
        }
        .map_err(|e| format!("mesh folder: {e}"))?;
        let outside = || format!("mesh {path:?} is outside the mesh folder (see gjk query --mesh-dir)");
        // First by the path's own words (`..`, an absolute path), before the file system is asked anything, so
        // the answer says nothing about files outside; then with every symbolic link followed.
        if !lexically_inside(&root, Path::new(path)) {
            return Err(outside());
        }
        let file = root.join(path).canonicalize().map_err(|e| format!("cannot read mesh {path:?}: {e}"))?;
        if !file.starts_with(&root) {
            return Err(outside());
        }
        let too_large =
            || format!("mesh {path:?} is larger than the limit of {} bytes (--max-mesh-bytes)", self.max_bytes);
        let not_regular = || format!("mesh {path:?} is not a regular file");
        // Checked before opening, so a FIFO or a device is never opened; checked again on the open file, in case
        // the path changed in between.
        let meta = std::fs::metadata(&file).map_err(|e| format!("cannot read mesh {path:?}: {e}"))?;
        if !meta.is_file() {
            return Err(not_regular());
        }
        if meta.len() > self.max_bytes {
            return Err(too_large());
        }
        let handle = open_without_blocking(&file).map_err(|e| format!("cannot read mesh {path:?}: {e}"))?;
        let meta = handle.metadata().map_err(|e| format!("cannot read mesh {path:?}: {e}"))?;
        if !meta.is_file() {
            return Err(not_regular());
        }
        let mut bytes = Vec::with_capacity(meta.len().min(self.max_bytes) as usize);
        handle
            .take(self.max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| format!("cannot read mesh {path:?}: {e}"))?;
        if bytes.len() as u64 > self.max_bytes {
            return Err(too_large());
        }
        Ok(bytes)
    }
}

/// Whether `path`, taken under `root` with `.` and `..` resolved as words, stays inside `root` (checked before the
/// file system is asked, so `parts/../../secret` is refused whatever the links on the way are).
pub fn lexically_inside(root: &Path, path: &Path) -> bool {
    use std::path::Component;
    let mut depth = 0usize;
    for c in root.join(path).strip_prefix(root).map(Path::components).into_iter().flatten() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return false,
        }
    }
    root.join(path).starts_with(root)
}

/// Opens a file for reading without waiting for a writer (a FIFO swapped in after the check must not block).
#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

fn parse_floats(fields: &[&str], what: &str) -> Result<[f64; 3], String> {
    if fields.len() < 3 {
        return Err(format!("{what}: expected 3 coordinates"));
    }
    let mut p = [0.0; 3];
    for (i, (o, f)) in p.iter_mut().zip(fields).enumerate() {
        // The token itself is not quoted: a file's contents never reach an error message.
        *o = f.parse::<f64>().map_err(|_| format!("{what}: coordinate {} is not a number", i + 1))?;
    }
    Ok(p)
}

/// OBJ: every `v x y z [w]` line is a vertex (faces and everything else are ignored).
pub fn parse_obj(text: &str) -> Result<Vec<[f64; 3]>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut fields = line.split_whitespace();
        if fields.next() == Some("v") {
            let rest: Vec<&str> = fields.take(3).collect();
            out.push(parse_floats(&rest, &format!("OBJ line {}", n + 1))?);
        }
    }
    Ok(out)
}

/// A mesh file's triangles, grouped by object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// The vertices.
    pub vertices: Vec<[f64; 3]>,
    /// The triangles, indices into `vertices`, in the file's order.
    pub triangles: Vec<[u32; 3]>,
    /// The objects (an OBJ's `o`/`g` blocks that hold faces or vertices; the whole file for an STL), in order.
    pub objects: Vec<MeshObject>,
}

/// One object of a mesh file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshObject {
    /// Its triangles: a range of [`MeshData::triangles`].
    pub triangles: core::ops::Range<usize>,
    /// The vertices declared inside its block (for an object that lists points but no faces).
    pub declared: core::ops::Range<u32>,
}

impl MeshData {
    /// The vertices of object `k`: those its triangles use, or those declared in its block when it has none;
    /// each once, in index order.
    pub fn object_vertices(&self, k: usize) -> Vec<[f64; 3]> {
        let o = &self.objects[k];
        let mut used: Vec<u32> = self.triangles[o.triangles.clone()].iter().flatten().copied().collect();
        if used.is_empty() {
            used.extend(o.declared.clone());
        }
        used.sort_unstable();
        used.dedup();
        used.iter().map(|&i| self.vertices[i as usize]).collect()
    }
}

/// OBJ with its faces: `v` vertices; `f` faces of corners `i`, `i/t`, `i//n` or `i/t/n` (1-based, or negative:
/// counted back from the last vertex read), fan-triangulated; `o` and `g` start an object. Faces of fewer than three
/// corners hold no triangle. Everything else is skipped. Errors name the line and the problem, never its text.
pub fn parse_obj_mesh(text: &str) -> Result<MeshData, String> {
    let mut mesh = MeshData { objects: vec![MeshObject::default()], ..MeshData::default() };
    let mut corners: Vec<u32> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let what = format!("OBJ line {}", n + 1);
        let mut fields = line.split_whitespace();
        match fields.next() {
            Some("v") => {
                let rest: Vec<&str> = fields.take(3).collect();
                mesh.vertices.push(parse_floats(&rest, &what)?);
                let count = u32::try_from(mesh.vertices.len()).map_err(|_| format!("{what}: too many vertices"))?;
                mesh.objects.last_mut().expect("always one object").declared.end = count;
            }
            Some("f") => {
                corners.clear();
                for (k, word) in fields.enumerate() {
                    let index = word.split('/').next().unwrap_or("");
                    let bad = || format!("{what}: corner {} of the face is not a vertex index", k + 1);
                    let i: i64 = index.parse().map_err(|_| bad())?;
                    let count = mesh.vertices.len() as i64;
                    let resolved = if i > 0 { i - 1 } else { count + i };
                    if i == 0 || resolved < 0 || resolved >= count {
                        return Err(format!("{what}: corner {} of the face names a vertex out of range", k + 1));
                    }
                    corners.push(resolved as u32);
                }
                for k in 1..corners.len().saturating_sub(1) {
                    mesh.triangles.push([corners[0], corners[k], corners[k + 1]]);
                }
                mesh.objects.last_mut().expect("always one object").triangles.end = mesh.triangles.len();
            }
            Some("o") | Some("g") => {
                let (t, v) = (mesh.triangles.len(), mesh.vertices.len() as u32);
                mesh.objects.push(MeshObject { triangles: t..t, declared: v..v });
            }
            _ => {}
        }
    }
    mesh.objects.retain(|o| !o.triangles.is_empty() || !o.declared.is_empty());
    Ok(mesh)
}

/// An STL's corners (three per triangle, in order) made into one indexed object: corners with the same coordinates
/// (−0 and 0 alike) become one vertex.
pub fn weld(corners: Vec<[f64; 3]>) -> MeshData {
    let mut index: std::collections::HashMap<[u64; 3], u32> = std::collections::HashMap::new();
    let mut vertices = Vec::new();
    let ids: Vec<u32> = corners
        .iter()
        .map(|p| {
            let key = p.map(|x| (x + 0.0).to_bits());
            *index.entry(key).or_insert_with(|| {
                vertices.push(*p);
                (vertices.len() - 1) as u32
            })
        })
        .collect();
    let triangles: Vec<[u32; 3]> = ids.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let objects = vec![MeshObject { triangles: 0..triangles.len(), declared: 0..vertices.len() as u32 }];
    MeshData { vertices, triangles, objects }
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
            let rest: Vec<&str> = fields.take(3).collect();
            out.push(parse_floats(&rest, &format!("STL line {}", n + 1))?);
        }
    }
    Ok(out)
}
