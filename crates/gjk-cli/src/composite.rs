//! The shapes of a query line that are not one convex support map (docs/cli.md, SHAPE): triangle meshes
//! (`trimesh`, and `mesh` read `as` a trimesh or a compound), compounds of convex parts, height fields and
//! half-spaces. Their models check what a line says (indices in range, sizes within [the limits](MAX_VERTICES))
//! as they are read, so an error names the shape (`a: indices[3][1] = 9 is out of range (4 vertices)`); a
//! [`Built`] shape is any of them, or a convex one, ready for `gjk::query`.

use std::cell::RefCell;
use std::marker::PhantomData;
use std::rc::Rc;

use gjk::composite::{Compound, HalfSpace, HeightField, TriMesh};
use gjk::math::{Iso, Vector};
use gjk::query::{Kind, Shape};
use gjk::shape::ConvexPolytope;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::mesh::{MeshData, MeshFolder};
use crate::model::{DynShape, ShapeModel, Space};

/// Most vertices of one mesh (a `trimesh` line or file, a `mesh` read as a trimesh): 1,048,576.
pub const MAX_VERTICES: usize = 1 << 20;
/// Most triangles (segments in 2D) of one mesh: 2,097,152.
pub const MAX_FACETS: usize = 1 << 21;
/// Most samples of one height field: 1,048,576 (a 1024 × 1024 grid).
pub const MAX_HEIGHTS: usize = 1 << 20;
/// Most parts of one compound: 65,536.
pub const MAX_PARTS: usize = 1 << 16;
/// Most mesh files one line reads (a path named again is read once): 64.
pub const MAX_MESH_FILES: usize = 64;

/// `trimesh`: `{"vertices": [[..], ..], "indices": [[i, j, k], ..]}` (2D: `[i, j]` segments), or `{"path": FILE}`
/// (an OBJ or STL file of the mesh folder; 3D).
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Space", try_from = "TriMeshFields<V>")]
pub struct TriMeshModel<V: Space> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<Vec<V>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indices: Option<Vec<Vec<u32>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct TriMeshFields<V: Space> {
    vertices: Option<Vec<V>>,
    indices: Option<Vec<Vec<u32>>>,
    path: Option<String>,
}

impl<V: Space> TryFrom<TriMeshFields<V>> for TriMeshModel<V> {
    type Error = String;
    fn try_from(f: TriMeshFields<V>) -> Result<Self, String> {
        match (f.vertices, f.indices, f.path) {
            (None, None, Some(path)) => {
                if V::DIM != 3 {
                    return Err("a trimesh read from a file is 3D (in 2D give `vertices` and `indices`)".into());
                }
                Ok(Self { vertices: None, indices: None, path: Some(path) })
            }
            (Some(vertices), Some(indices), None) => {
                check_indices::<V>(vertices.len(), &indices)?;
                Ok(Self { vertices: Some(vertices), indices: Some(indices), path: None })
            }
            (_, _, Some(_)) => Err("a trimesh takes `vertices` and `indices`, or a `path`, not both".into()),
            (None, _, None) => Err("missing field `vertices` (or a `path`)".into()),
            (Some(_), None, None) => Err("missing field `indices`".into()),
        }
    }
}

/// The name of one facet in dimension `dim`.
fn facet_name(dim: usize) -> &'static str {
    if dim == 2 {
        "segment"
    } else {
        "triangle"
    }
}

/// A mesh's counts within the limits, each facet `DIM` indices, each index naming a vertex.
fn check_indices<V: Vector>(vertices: usize, indices: &[Vec<u32>]) -> Result<(), String> {
    check_counts::<V>(vertices, indices.len())?;
    for (k, f) in indices.iter().enumerate() {
        if f.len() != V::DIM {
            return Err(format!(
                "indices[{k}] has {} indices; a {}D trimesh's {}s have {}",
                f.len(),
                V::DIM,
                facet_name(V::DIM),
                V::DIM
            ));
        }
        if let Some((j, &i)) = f.iter().enumerate().find(|(_, &i)| i as usize >= vertices) {
            return Err(format!("indices[{k}][{j}] = {i} is out of range ({vertices} vertices)"));
        }
    }
    Ok(())
}

/// A mesh's vertex and facet counts: at least one facet, at most the limits.
fn check_counts<V: Vector>(vertices: usize, facets: usize) -> Result<(), String> {
    let name = facet_name(V::DIM);
    if vertices > MAX_VERTICES {
        return Err(format!("a trimesh has at most {MAX_VERTICES} vertices (this one has {vertices})"));
    }
    if facets > MAX_FACETS {
        return Err(format!("a trimesh has at most {MAX_FACETS} {name}s (this one has {facets})"));
    }
    if facets == 0 {
        return Err(format!("a trimesh needs at least one {name}"));
    }
    Ok(())
}

/// `compound`: `{"parts": [{"shape": SHAPE, "pose": POSE}, ..]}`, convex parts posed in the compound's frame.
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Space", try_from = "CompoundFields<V>")]
pub struct CompoundModel<V: Space> {
    pub parts: Vec<PartModel<V>>,
}

/// One part of a compound: a convex shape and its pose in the compound's frame (identity when absent).
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Space")]
pub struct PartModel<V: Space> {
    pub shape: ShapeModel<V>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pose: Option<Iso<V>>,
}

#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct CompoundFields<V: Space> {
    parts: Vec<PartModel<V>>,
}

impl<V: Space> TryFrom<CompoundFields<V>> for CompoundModel<V> {
    type Error = String;
    fn try_from(f: CompoundFields<V>) -> Result<Self, String> {
        if f.parts.is_empty() {
            return Err("a compound needs at least one part".into());
        }
        if f.parts.len() > MAX_PARTS {
            return Err(format!("a compound has at most {MAX_PARTS} parts (this one has {})", f.parts.len()));
        }
        if let Some((k, name)) = f.parts.iter().enumerate().find_map(|(k, p)| p.shape.composite_name().map(|n| (k, n)))
        {
            return Err(format!("parts[{k}]: a compound's parts are convex shapes, not a {name}"));
        }
        Ok(Self { parts: f.parts })
    }
}

/// A height, or a row of heights: `heightfield`'s `heights` holds numbers in 2D, rows in 3D. Also a cell size (a
/// number, or `[dx, dz]` in 3D).
#[derive(Clone, Debug, PartialEq)]
pub enum Row {
    One(f64),
    Many(Vec<f64>),
}

impl Serialize for Row {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Row::One(x) => s.serialize_f64(*x),
            Row::Many(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RowVisitor;
        impl<'de> Visitor<'de> for RowVisitor {
            type Value = Row;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number or an array of numbers")
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Row, E> {
                Ok(Row::One(x))
            }
            fn visit_i64<E: de::Error>(self, x: i64) -> Result<Row, E> {
                Ok(Row::One(x as f64))
            }
            fn visit_u64<E: de::Error>(self, x: u64) -> Result<Row, E> {
                Ok(Row::One(x as f64))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Row, A::Error> {
                let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(x) = seq.next_element::<f64>()? {
                    v.push(x);
                }
                Ok(Row::Many(v))
            }
        }
        d.deserialize_any(RowVisitor)
    }
}

/// `heightfield`: `{"heights": [h0, h1, ..], "cell_size": dx}` in 2D (sample `i` at `x = i·dx`), `{"heights":
/// [[h00, h01, ..], [h10, ..], ..], "cell_size": [dx, dz]}` in 3D (row `r`, column `c` at `x = c·dx`, `z = r·dz`);
/// heights along local y, solid below. `cell_size` is 1 when absent; in 3D a number means square cells.
#[derive(Serialize, Deserialize)]
#[serde(bound = "V: Space", try_from = "HeightFieldFields")]
pub struct HeightFieldModel<V: Space> {
    pub heights: Vec<Row>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell_size: Option<Row>,
    #[serde(skip)]
    dim: PhantomData<V>,
}

#[derive(Deserialize)]
pub struct HeightFieldFields {
    heights: Vec<Row>,
    cell_size: Option<Row>,
}

impl<V: Space> HeightFieldModel<V> {
    /// The samples as points of the field's frame, row by row: sample `r · columns + c` (2D: sample `i`).
    pub(crate) fn samples(&self) -> Vec<V> {
        let (rows, (dx, dz)) = self.grid();
        let mut out = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, &h) in row.iter().enumerate() {
                out.push(V::from_fn(|k| match k {
                    0 => c as f64 * dx,
                    1 => h,
                    _ => r as f64 * dz,
                }));
            }
        }
        out
    }

    /// The grid: rows of samples (one row in 2D) and the cell size (dx, dz).
    fn grid(&self) -> (Vec<Vec<f64>>, (f64, f64)) {
        let rows = if V::DIM == 2 {
            vec![self.heights.iter().map(|r| if let Row::One(x) = r { *x } else { 0.0 }).collect()]
        } else {
            self.heights.iter().map(|r| if let Row::Many(v) = r { v.clone() } else { Vec::new() }).collect()
        };
        let cell = match &self.cell_size {
            None => (1.0, 1.0),
            Some(Row::One(x)) => (*x, *x),
            // A wrong count is refused by the checks; read as no cell (size 0) meanwhile, never out of bounds.
            Some(Row::Many(v)) => (v.first().copied().unwrap_or(0.0), v.get(1).copied().unwrap_or(0.0)),
        };
        (rows, cell)
    }
}

impl<V: Space> TryFrom<HeightFieldFields> for HeightFieldModel<V> {
    type Error = String;
    fn try_from(f: HeightFieldFields) -> Result<Self, String> {
        let model = Self { heights: f.heights, cell_size: f.cell_size, dim: PhantomData };
        if V::DIM == 2 {
            if let Some(k) = model.heights.iter().position(|r| matches!(r, Row::Many(_))) {
                return Err(format!("heights[{k}]: a 2D height field's heights are numbers, not rows"));
            }
            if model.heights.len() < 2 {
                return Err("a 2D height field needs at least 2 heights".into());
            }
        } else {
            if let Some(k) = model.heights.iter().position(|r| matches!(r, Row::One(_))) {
                return Err(format!("heights[{k}]: a 3D height field's heights are rows (arrays of numbers)"));
            }
            let (rows, _) = model.grid();
            let cols = rows.first().map_or(0, Vec::len);
            if rows.len() < 2 || cols < 2 {
                return Err("a 3D height field needs at least 2 rows of at least 2 heights".into());
            }
            if let Some(k) = rows.iter().position(|r| r.len() != cols) {
                return Err(format!(
                    "heights[{k}] has {} heights, and heights[0] has {cols}: rows must be alike",
                    rows[k].len()
                ));
            }
        }
        let samples: usize = model.heights.iter().map(|r| if let Row::Many(v) = r { v.len() } else { 1 }).sum();
        if samples > MAX_HEIGHTS {
            return Err(format!("a height field has at most {MAX_HEIGHTS} heights (this one has {samples})"));
        }
        match &model.cell_size {
            Some(Row::Many(v)) if V::DIM == 2 || v.len() != 2 => {
                return Err(format!(
                    "cell_size is a number{} (got {} numbers)",
                    if V::DIM == 3 { " or [dx, dz]" } else { " in 2D" },
                    v.len()
                ))
            }
            _ => {}
        }
        let (_, (dx, dz)) = model.grid();
        if !(dx > 0.0 && dz > 0.0 && dx.is_finite() && dz.is_finite()) {
            return Err("cell_size must be positive".into());
        }
        Ok(model)
    }
}

/// How a `mesh` file is read: its hull (the default), a triangle mesh, or a compound of one part per object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MeshAs {
    Hull,
    Trimesh,
    Compound,
}

/// A shape of a query line, built: convex, a half-space, or a composite.
pub enum Built<V: Space> {
    Convex(DynShape<V>),
    HalfSpace(HalfSpace<V>),
    TriMesh(TriMesh<V>),
    Compound(Compound<V, DynShape<V>>),
    HeightField(HeightField<V>),
}

impl<V: Space> Built<V> {
    /// The convex shape, if it is one.
    pub fn convex(&self) -> Option<&DynShape<V>> {
        match self {
            Built::Convex(s) => Some(s),
            _ => None,
        }
    }
}

impl<V: Space> Shape<V> for Built<V> {
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        match self {
            Built::Convex(s) => k.convex(&**s),
            Built::HalfSpace(h) => k.half_space(h),
            Built::TriMesh(m) => k.composite(m),
            Built::Compound(c) => k.composite(c),
            Built::HeightField(h) => k.composite(h),
        }
    }
}

/// Files already read by one line, by path.
type Cache<T> = RefCell<Vec<(String, Rc<T>)>>;

/// Mesh files read for one line: each path read once, at most [`MAX_MESH_FILES`] of them.
pub struct Loader<'a> {
    pub folder: &'a MeshFolder,
    hulls: Cache<Vec<[f64; 3]>>,
    meshes: Cache<MeshData>,
}

impl<'a> Loader<'a> {
    pub fn new(folder: &'a MeshFolder) -> Self {
        Self { folder, hulls: RefCell::default(), meshes: RefCell::default() }
    }

    fn reads(&self) -> usize {
        self.hulls.borrow().len() + self.meshes.borrow().len()
    }

    fn budget(&self, path: &str) -> Result<(), String> {
        if self.reads() >= MAX_MESH_FILES {
            return Err(format!("mesh {path:?}: a line reads at most {MAX_MESH_FILES} mesh files"));
        }
        Ok(())
    }

    /// The vertices of a mesh file (for its hull).
    pub fn vertices(&self, path: &str) -> Result<Rc<Vec<[f64; 3]>>, String> {
        if let Some((_, v)) = self.hulls.borrow().iter().find(|(p, _)| p == path) {
            return Ok(v.clone());
        }
        self.budget(path)?;
        let v = Rc::new(self.folder.load_vertices(path)?);
        self.hulls.borrow_mut().push((path.to_string(), v.clone()));
        Ok(v)
    }

    /// The triangles and objects of a mesh file, within the mesh limits.
    pub fn mesh(&self, path: &str) -> Result<Rc<MeshData>, String> {
        if let Some((_, m)) = self.meshes.borrow().iter().find(|(p, _)| p == path) {
            return Ok(m.clone());
        }
        self.budget(path)?;
        let m = self.folder.load_mesh(path)?;
        check_counts::<gjk::math::DVec3>(m.vertices.len(), m.triangles.len())
            .map_err(|e| format!("mesh {path:?}: {e}"))?;
        if m.objects.len() > MAX_PARTS {
            return Err(format!("mesh {path:?}: more than {MAX_PARTS} objects"));
        }
        let m = Rc::new(m);
        self.meshes.borrow_mut().push((path.to_string(), m.clone()));
        Ok(m)
    }
}

impl<V: Space> TriMeshModel<V> {
    pub(crate) fn build(self, loader: &Loader<'_>) -> Result<TriMesh<V>, String> {
        match (self.vertices, self.indices, self.path) {
            (Some(vertices), Some(indices), _) => V::mesh(vertices, &indices),
            (_, _, Some(path)) => mesh_of_file(&path, loader),
            _ => Err("a trimesh needs `vertices` and `indices`, or a `path`".into()),
        }
    }
}

/// The triangle mesh of a file (3D).
pub(crate) fn mesh_of_file<V: Space>(path: &str, loader: &Loader<'_>) -> Result<TriMesh<V>, String> {
    let m = loader.mesh(path)?;
    let vertices = m.vertices.iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect();
    let triangles: Vec<Vec<u32>> = m.triangles.iter().map(|t| t.to_vec()).collect();
    V::mesh(vertices, &triangles).map_err(|e| format!("mesh {path:?}: {e}"))
}

/// The compound of one part per object of a file: each the hull of its object's vertices.
pub(crate) fn compound_of_file<V: Space>(path: &str, loader: &Loader<'_>) -> Result<Compound<V, DynShape<V>>, String> {
    let m = loader.mesh(path)?;
    let mut parts: Vec<(DynShape<V>, Iso<V>)> = Vec::with_capacity(m.objects.len());
    for k in 0..m.objects.len() {
        let points: Vec<V> = m.object_vertices(k).iter().map(|p| V::from_f64_slice(&p[..V::DIM])).collect();
        let hull = ConvexPolytope::new(&points).map_err(|e| format!("mesh {path:?}: object {k}: {e}"))?;
        parts.push((Box::new(hull), Iso::identity()));
    }
    Compound::new(parts).map_err(|e| format!("mesh {path:?}: {e}"))
}

impl<V: Space> CompoundModel<V> {
    pub(crate) fn build(self, loader: &Loader<'_>) -> Result<Compound<V, DynShape<V>>, String> {
        let mut parts = Vec::with_capacity(self.parts.len());
        for (k, p) in self.parts.into_iter().enumerate() {
            let shape = p.shape.build_convex(loader).map_err(|e| format!("parts[{k}]: {e}"))?;
            parts.push((shape, p.pose.unwrap_or_default()));
        }
        Compound::new(parts).map_err(|e| e.to_string())
    }
}

impl<V: Space> HeightFieldModel<V> {
    pub(crate) fn build(self) -> Result<HeightField<V>, String> {
        let (rows, cell) = self.grid();
        V::height_field(rows, cell)
    }
}
