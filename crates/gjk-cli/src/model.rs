//! The typed model of a query line (docs/cli.md, "Input"). Its parts are the library's own serde types — a
//! `sphere` is a [`Ball`], a pose an [`Iso`] — so field names, defaults and validation (a negative radius, an empty
//! hull, a zero quaternion) are defined once, in the library; this module only names the shapes and the queries.
//!
//! Adding a shape type is one variant of [`ShapeModel`] (its `"type"` name and the library type it reads as) and
//! one arm of [`ShapeModel::build`] (how it becomes a shape of the line's dimension); a name that exists in one
//! dimension only also gets a line in [`name_dimension`], which the dimension rules read.

use gjk::cast::Angular;
use gjk::math::{Iso, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Rounded, Segment,
    SupportMap, Triangle,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

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
}

/// The shapes that exist only in 3D, built by [`Space::solid`].
pub enum Solid {
    Cylinder(Cylinder<f64>),
    Cone(Cone<f64>),
    Hull(Vec<[f64; 3]>),
}

impl Solid {
    fn name(&self) -> &'static str {
        match self {
            Solid::Cylinder(_) => "cylinder",
            Solid::Cone(_) => "cone",
            Solid::Hull(_) => "mesh",
        }
    }
}

impl Space for gjk::math::DVec2 {
    fn solid(shape: Solid) -> Result<DynShape<Self>, String> {
        Err(format!("shape type {:?} exists only in 3D", shape.name()))
    }
}

impl Space for gjk::math::DVec3 {
    fn solid(shape: Solid) -> Result<DynShape<Self>, String> {
        Ok(match shape {
            Solid::Cylinder(c) => Box::new(c),
            Solid::Cone(c) => Box::new(c),
            Solid::Hull(points) => {
                let points: Vec<Self> = points.into_iter().map(Self::from_array).collect();
                Box::new(ConvexPolytope::new(&points).map_err(|e| e.to_string())?)
            }
        })
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
    Capsule(Capsule<f64>),
    Cylinder(Cylinder<f64>),
    Cone(Cone<f64>),
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
    /// The convex hull of an OBJ or STL file's vertices, read from the mesh folder.
    Mesh {
        path: String,
    },
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
    /// The shape, in the line's dimension.
    pub fn build(self, meshes: &MeshFolder) -> Result<DynShape<V>, String> {
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
            ShapeModel::Capsule(s) => Box::new(s),
            ShapeModel::Cylinder(s) => V::solid(Solid::Cylinder(s))?,
            ShapeModel::Cone(s) => V::solid(Solid::Cone(s))?,
            ShapeModel::Ellipsoid(s) => Box::new(s),
            ShapeModel::Ellipse(s) => only_2d("ellipse").map(|_| Box::new(s))?,
            ShapeModel::Convex(s) => Box::new(s),
            ShapeModel::Polygon(s) => only_2d("polygon").map(|_| Box::new(s))?,
            ShapeModel::Segment(s) => Box::new(s),
            ShapeModel::Triangle(s) => Box::new(s),
            ShapeModel::Point(s) => Box::new(s),
            ShapeModel::Rounded(r) => {
                Box::new(Rounded::new(r.shape.build(meshes)?, r.radius).map_err(|e| e.to_string())?)
            }
            ShapeModel::MinkowskiSum(m) => Box::new(MinkowskiSum::new(m.a.build(meshes)?, m.b.build(meshes)?)),
            ShapeModel::Mesh { path } => {
                if V::DIM != 3 {
                    return V::solid(Solid::Hull(Vec::new()));
                }
                V::solid(Solid::Hull(meshes.load_vertices(&path)?))?
            }
        })
    }
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

impl<V: Space> Pair<V> {
    /// The two shapes, built, and their poses.
    pub fn build(self, meshes: &MeshFolder) -> Result<BuiltPair<V>, String> {
        let a = self.a.build(meshes)?;
        let b = self.b.build(meshes)?;
        Ok((a, self.pose_a.unwrap_or_default(), b, self.pose_b.unwrap_or_default()))
    }
}
