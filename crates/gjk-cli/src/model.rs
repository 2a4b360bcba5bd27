//! The typed model of a query line (docs/cli.md, "Input"). Its parts are the library's own serde types — a
//! `sphere` is a [`Ball`], a pose an [`Iso`] — so field names, defaults and validation (a negative radius, an empty
//! hull, a zero quaternion) are defined once, in the library; this module only names the shapes and the queries.
//!
//! Adding a shape type is one variant of [`ShapeModel`] (its `"type"` name and the library type it reads as) and
//! one arm of [`ShapeModel::build_convex`] (how it becomes a shape of the line's dimension), or of
//! [`ShapeModel::build_any`] for a shape that is not convex (the composites of [`crate::composite`]); a name that
//! exists in one dimension only also gets a line in [`name_dimension`], which the dimension rules read.

use gjk::cast::Angular;
use gjk::composite::{HalfSpace, HeightField, TriMesh};
use gjk::math::{Iso, Vector};
use gjk::shape::{
    AlongZ, Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Rounded, Segment,
    SupportMap, Triangle,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::composite::{
    compound_of_file, mesh_of_file, Built, CompoundModel, HeightFieldModel, Loader, MeshAs, TriMeshModel,
};
use crate::mesh::MeshFolder;

/// A shape chosen at run time.
pub type DynShape<V> = Box<dyn SupportMap<V>>;

/// What the model needs of a dimension: f64 vectors and rotations that serde reads (arrays of 2 or 3 numbers; a
/// quaternion or an angle), and the shapes that exist in that dimension only.
pub trait Space:
    Vector<Real = f64, Rotation: Serialize + DeserializeOwned + gjk::math::Rotation<Self, Angular: DeserializeOwned>>
    + Serialize
    + DeserializeOwned
{
    /// Cylinders, cones and meshes (3D only): the shape, or why not in this dimension.
    fn solid(shape: Solid) -> Result<DynShape<Self>, String>;

    /// A mesh of facets: triangles in 3D, segments in 2D (`DIM` indices each, checked by the caller).
    fn mesh(vertices: Vec<Self>, facets: &[Vec<u32>]) -> Result<TriMesh<Self>, String>;

    /// A height field from its rows of samples (one row in 2D) and its cell size (dx, dz; dz unused in 2D).
    fn height_field(rows: Vec<Vec<f64>>, cell: (f64, f64)) -> Result<HeightField<Self>, String>;
}

/// The shapes that exist only in 3D, built by [`Space::solid`].
pub enum Solid {
    Cylinder(Cylinder<f64>),
    Cone(Cone<f64>),
    Hull(Vec<[f64; 3]>),
    /// A capsule, cylinder or cone along z (`"axis": "z"`).
    AlongZ(Axial3),
}

/// The shapes that take an axis, when it is z.
pub enum Axial3 {
    Capsule(Capsule<f64>),
    Cylinder(Cylinder<f64>),
    Cone(Cone<f64>),
}

impl Solid {
    fn name(&self) -> &'static str {
        match self {
            Solid::Cylinder(_) => "cylinder",
            Solid::Cone(_) => "cone",
            Solid::Hull(_) => "mesh",
            Solid::AlongZ(_) => "axis",
        }
    }
}

/// A capsule, cylinder or cone with its `"axis"`: `"y"` (the default, and the library's shape) or `"z"` (the
/// robotics formats' convention: the same shape turned a quarter about x, [`gjk::shape::AlongZ`]). Any other axis
/// is an error line.
#[derive(Serialize, Deserialize)]
pub struct Axial<S> {
    #[serde(flatten)]
    pub shape: S,
    #[serde(default, skip_serializing_if = "Axis::is_y")]
    pub axis: Axis,
}

/// The axis of a capsule, cylinder or cone.
#[derive(Serialize, Deserialize, Default, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    #[default]
    Y,
    Z,
}

impl Axis {
    fn is_y(&self) -> bool {
        *self == Axis::Y
    }
}

impl Space for gjk::math::DVec2 {
    fn solid(shape: Solid) -> Result<DynShape<Self>, String> {
        match shape {
            Solid::AlongZ(_) => Err("\"axis\": \"z\" exists only in 3D (a 2D capsule lies along y)".into()),
            _ => Err(format!("shape type {:?} exists only in 3D", shape.name())),
        }
    }

    fn mesh(vertices: Vec<Self>, facets: &[Vec<u32>]) -> Result<TriMesh<Self>, String> {
        let segments: Vec<[u32; 2]> = facets.iter().map(|f| [f[0], f[1]]).collect();
        TriMesh::from_segments(vertices, &segments).map_err(|e| e.to_string())
    }

    fn height_field(rows: Vec<Vec<f64>>, cell: (f64, f64)) -> Result<HeightField<Self>, String> {
        HeightField::line(rows.into_iter().flatten().collect(), cell.0).map_err(|e| e.to_string())
    }
}

impl Space for gjk::math::DVec3 {
    fn solid(shape: Solid) -> Result<DynShape<Self>, String> {
        Ok(match shape {
            Solid::Cylinder(c) => Box::new(c),
            Solid::Cone(c) => Box::new(c),
            Solid::AlongZ(Axial3::Capsule(c)) => Box::new(c.along_z()),
            Solid::AlongZ(Axial3::Cylinder(c)) => Box::new(c.along_z()),
            Solid::AlongZ(Axial3::Cone(c)) => Box::new(c.along_z()),
            Solid::Hull(points) => {
                let points: Vec<Self> = points.into_iter().map(Self::from_array).collect();
                Box::new(ConvexPolytope::new(&points).map_err(|e| e.to_string())?)
            }
        })
    }

    fn mesh(vertices: Vec<Self>, facets: &[Vec<u32>]) -> Result<TriMesh<Self>, String> {
        let triangles: Vec<[u32; 3]> = facets.iter().map(|f| [f[0], f[1], f[2]]).collect();
        TriMesh::new(vertices, triangles).map_err(|e| e.to_string())
    }

    fn height_field(rows: Vec<Vec<f64>>, cell: (f64, f64)) -> Result<HeightField<Self>, String> {
        let (r, c) = (rows.len(), rows.first().map_or(0, Vec::len));
        HeightField::grid(rows.into_iter().flatten().collect(), r, c, cell.0, cell.1).map_err(|e| e.to_string())
    }
}

/// SHAPE: `{"type": NAME, ...its parameters}`. Names that say a dimension (`circle`, `rectangle`, `ellipse`,
/// `polygon` are 2D; `cylinder`, `cone`, `mesh` 3D) are errors in a line of the other dimension.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", bound = "V: Space")]
pub enum ShapeModel<V: Space> {
    #[serde(alias = "ball")]
    Sphere(Ball<f64>),
    Circle(Ball<f64>),
    #[serde(alias = "cuboid")]
    Box(Cuboid<V>),
    Rectangle(Cuboid<V>),
    Capsule(Axial<Capsule<f64>>),
    Cylinder(Axial<Cylinder<f64>>),
    Cone(Axial<Cone<f64>>),
    Ellipsoid(Ellipsoid<V>),
    Ellipse(Ellipsoid<V>),
    #[serde(alias = "polyhedron")]
    Convex(ConvexPolytope<V>),
    Polygon(ConvexPolytope<V>),
    Segment(Segment<V>),
    Triangle(Triangle<V>),
    Point(Point<V>),
    Rounded(Rounded<Box<ShapeModel<V>>, f64>),
    MinkowskiSum(MinkowskiSum<Box<ShapeModel<V>>, Box<ShapeModel<V>>>),
    /// An OBJ or STL file of the mesh folder: the convex hull of its vertices, or (`"as"`) its triangles or one
    /// convex part per object.
    Mesh {
        path: String,
        #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
        read_as: Option<MeshAs>,
    },
    /// A triangle mesh (segments in 2D): a solid when closed and consistently oriented, else a surface.
    Trimesh(TriMeshModel<V>),
    /// Convex parts, each posed in the compound's frame.
    Compound(CompoundModel<V>),
    /// A grid of heights, solid below.
    Heightfield(HeightFieldModel<V>),
    /// Everything behind a plane through the local origin, `normal` pointing out.
    Halfspace(HalfSpace<V>),
}

/// What a shape's name says about the line's dimension (docs/cli.md, "Dimension"): `Strict(d)` names exist in
/// dimension `d` only, `Hint(d)` names lean to `d` when nothing else decides but serve both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameDimension {
    Strict(usize),
    Hint(usize),
}

/// The dimension a shape type's name implies, if any. The dimension rules read it, and [`ShapeModel::build`]
/// refuses a strict name in the other dimension.
pub fn name_dimension(name: &str) -> Option<NameDimension> {
    match name {
        "circle" | "ellipse" | "rectangle" | "polygon" => Some(NameDimension::Strict(2)),
        "cylinder" | "cone" | "mesh" => Some(NameDimension::Strict(3)),
        "sphere" | "ellipsoid" | "polyhedron" | "cuboid" => Some(NameDimension::Hint(3)),
        _ => None,
    }
}

impl<V: Space> ShapeModel<V> {
    /// The convex shape, in the line's dimension; a shape that is not convex (a trimesh, a compound, a height
    /// field, a half-space) is an error here (see [`ShapeModel::build_any`]).
    pub fn build(self, meshes: &MeshFolder) -> Result<DynShape<V>, String> {
        self.build_convex(&Loader::new(meshes))
    }

    /// The name of the shape (or of the shape inside it) that is not convex, if any.
    pub fn composite_name(&self) -> Option<&'static str> {
        match self {
            ShapeModel::Trimesh(_) => Some("trimesh"),
            ShapeModel::Compound(_) => Some("compound"),
            ShapeModel::Heightfield(_) => Some("heightfield"),
            ShapeModel::Halfspace(_) => Some("halfspace"),
            ShapeModel::Mesh { read_as: Some(MeshAs::Trimesh), .. } => Some("mesh read as a trimesh"),
            ShapeModel::Mesh { read_as: Some(MeshAs::Compound), .. } => Some("mesh read as a compound"),
            ShapeModel::Rounded(r) => r.shape.composite_name(),
            ShapeModel::MinkowskiSum(m) => m.a.composite_name().or(m.b.composite_name()),
            _ => None,
        }
    }

    /// The shape of any kind, in the line's dimension: convex, a half-space, or a composite.
    pub fn build_any(self, loader: &Loader<'_>) -> Result<Built<V>, String> {
        Ok(match self {
            ShapeModel::Trimesh(m) => Built::TriMesh(m.build(loader)?),
            ShapeModel::Compound(c) => Built::Compound(c.build(loader)?),
            ShapeModel::Heightfield(h) => Built::HeightField(h.build()?),
            ShapeModel::Halfspace(h) => Built::HalfSpace(h),
            ShapeModel::Mesh { path, read_as: Some(MeshAs::Trimesh) } if V::DIM == 3 => {
                Built::TriMesh(mesh_of_file(&path, loader)?)
            }
            ShapeModel::Mesh { path, read_as: Some(MeshAs::Compound) } if V::DIM == 3 => {
                Built::Compound(compound_of_file(&path, loader)?)
            }
            convex => Built::Convex(convex.build_convex(loader)?),
        })
    }

    /// The convex shape (mesh files read through `loader`).
    pub fn build_convex(self, loader: &Loader<'_>) -> Result<DynShape<V>, String> {
        let only_2d = |name: &str| match name_dimension(name) {
            Some(NameDimension::Strict(d)) if d != V::DIM => {
                Err(format!("shape type {name:?} is 2D, and this line is 3D (see \"Dimension\" in docs/cli.md)"))
            }
            _ => Ok(()),
        };
        Ok(match self {
            ShapeModel::Sphere(s) => Box::new(s),
            ShapeModel::Circle(s) => only_2d("circle").map(|_| Box::new(s))?,
            ShapeModel::Box(s) => Box::new(s),
            ShapeModel::Rectangle(s) => only_2d("rectangle").map(|_| Box::new(s))?,
            ShapeModel::Capsule(Axial { shape, axis: Axis::Y }) => Box::new(shape),
            ShapeModel::Capsule(Axial { shape, axis: Axis::Z }) => V::solid(Solid::AlongZ(Axial3::Capsule(shape)))?,
            ShapeModel::Cylinder(Axial { shape, axis: Axis::Y }) => V::solid(Solid::Cylinder(shape))?,
            ShapeModel::Cylinder(Axial { shape, axis: Axis::Z }) => V::solid(Solid::AlongZ(Axial3::Cylinder(shape)))?,
            ShapeModel::Cone(Axial { shape, axis: Axis::Y }) => V::solid(Solid::Cone(shape))?,
            ShapeModel::Cone(Axial { shape, axis: Axis::Z }) => V::solid(Solid::AlongZ(Axial3::Cone(shape)))?,
            ShapeModel::Ellipsoid(s) => Box::new(s),
            ShapeModel::Ellipse(s) => only_2d("ellipse").map(|_| Box::new(s))?,
            ShapeModel::Convex(s) => Box::new(s),
            ShapeModel::Polygon(s) => only_2d("polygon").map(|_| Box::new(s))?,
            ShapeModel::Segment(s) => Box::new(s),
            ShapeModel::Triangle(s) => Box::new(s),
            ShapeModel::Point(s) => Box::new(s),
            ShapeModel::Rounded(r) => {
                Box::new(Rounded::new(r.shape.build_convex(loader)?, r.radius).map_err(|e| e.to_string())?)
            }
            ShapeModel::MinkowskiSum(m) => {
                Box::new(MinkowskiSum::new(m.a.build_convex(loader)?, m.b.build_convex(loader)?))
            }
            ShapeModel::Mesh { path, read_as } => {
                if V::DIM != 3 {
                    return V::solid(Solid::Hull(Vec::new()));
                }
                if let Some(MeshAs::Trimesh | MeshAs::Compound) = read_as {
                    return Err(not_convex("mesh", read_as));
                }
                V::solid(Solid::Hull(loader.vertices(&path)?.to_vec()))?
            }
            ShapeModel::Trimesh(_) => return Err(not_convex("trimesh", None)),
            ShapeModel::Compound(_) => return Err(not_convex("compound", None)),
            ShapeModel::Heightfield(_) => return Err(not_convex("heightfield", None)),
            ShapeModel::Halfspace(_) => return Err(not_convex("halfspace", None)),
        })
    }
}

/// The error of a shape that is not convex where only a convex one can be: inside `rounded`, `minkowski_sum` or a
/// compound's part.
fn not_convex(name: &str, read_as: Option<MeshAs>) -> String {
    let what = match read_as {
        Some(MeshAs::Trimesh) => "a mesh read as a trimesh".to_string(),
        Some(MeshAs::Compound) => "a mesh read as a compound".to_string(),
        _ => format!("shape type {name:?}"),
    };
    format!("{what} is not convex: it can be a query's shape, not part of a rounded, minkowski_sum or compound")
}

/// Which query a line asks (its `"query"` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    Intersect,
    Distance,
    Penetration,
    Contact,
    RayCast,
    ShapeCast,
}

/// A line of any query, with its fields (docs/cli.md, "Input"). The `id` is read apart, so that an error anywhere
/// else still answers with it. (Each query's fields are a plain struct, read after the `"query"` name, rather than
/// an enum tagged by it: serde reads a tagged enum from a buffered copy, and an error inside it could no longer say
/// which field it is in.)
pub enum Query<V: Space> {
    Intersect(Pair<V>),
    Distance(Pair<V>),
    Penetration(Pair<V>),
    Contact(ContactQuery<V>),
    RayCast(RayQuery<V>),
    ShapeCast(CastQuery<V>),
}

/// Two shapes at their poses (an absent or null pose is the identity).
#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct Pair<V: Space> {
    pub a: ShapeModel<V>,
    pub pose_a: Option<Iso<V>>,
    pub b: ShapeModel<V>,
    pub pose_b: Option<Iso<V>>,
}

/// `contact`: a pair and how far apart contacts still count.
#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct ContactQuery<V: Space> {
    pub a: ShapeModel<V>,
    pub pose_a: Option<Iso<V>>,
    pub b: ShapeModel<V>,
    pub pose_b: Option<Iso<V>>,
    pub prediction: Option<f64>,
}

/// `ray_cast`: one shape and a ray.
#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct RayQuery<V: Space> {
    pub a: ShapeModel<V>,
    pub pose_a: Option<Iso<V>>,
    pub origin: V,
    pub direction: V,
    pub max_toi: Option<f64>,
    pub solid: Option<bool>,
}

/// `shape_cast`: a pair in motion.
#[derive(Deserialize)]
#[serde(bound = "V: Space")]
pub struct CastQuery<V: Space> {
    pub a: ShapeModel<V>,
    pub pose_a: Option<Iso<V>>,
    pub b: ShapeModel<V>,
    pub pose_b: Option<Iso<V>>,
    pub velocity_a: Option<V>,
    pub velocity_b: Option<V>,
    pub angular_velocity_a: Option<Angular<V>>,
    pub angular_velocity_b: Option<Angular<V>>,
    pub max_toi: Option<f64>,
    pub target_distance: Option<f64>,
    pub ignore_initial_overlap: Option<bool>,
}

/// An optional length or time: absent (or null) is `default`; given, it must not be negative. Every query reads
/// `max_toi`, `prediction` and `target_distance` through here, so they are checked alike.
pub fn non_negative(value: Option<f64>, name: &str, default: f64) -> Result<f64, String> {
    match value {
        None => Ok(default),
        Some(x) if x >= 0.0 => Ok(x),
        Some(_) => Err(format!("{name} must not be negative")),
    }
}

/// Two shapes built, each with its pose.
pub type BuiltPair<V> = (DynShape<V>, Iso<V>, DynShape<V>, Iso<V>);

/// Two shapes of any kind built, each with its pose.
pub type AnyPair<V> = (Built<V>, Iso<V>, Built<V>, Iso<V>);

impl<V: Space> Pair<V> {
    /// The two shapes, built, and their poses (both convex).
    pub fn build(self, meshes: &MeshFolder) -> Result<BuiltPair<V>, String> {
        let loader = Loader::new(meshes);
        let a = self.a.build_convex(&loader)?;
        let b = self.b.build_convex(&loader)?;
        Ok((a, self.pose_a.unwrap_or_default(), b, self.pose_b.unwrap_or_default()))
    }

    /// The two shapes of any kind, built, and their poses.
    pub fn build_any(self, meshes: &MeshFolder) -> Result<AnyPair<V>, String> {
        let loader = Loader::new(meshes);
        let a = self.a.build_any(&loader)?;
        let b = self.b.build_any(&loader)?;
        Ok((a, self.pose_a.unwrap_or_default(), b, self.pose_b.unwrap_or_default()))
    }
}
