//! Shapes and poses as plain f64 data, independent of the precision and dimension they are built in: the
//! generator writes them, [`crate::space`] builds them into the library's shapes, and a failure prints them back
//! as a CLI line (when the CLI can express them) and as a Rust-ish literal (always).

use serde_json::{json, Value};

/// A shape description. Coordinates have 2 or 3 numbers, as the case's dimension.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Ball {
        radius: f64,
    },
    Cuboid {
        half_extents: Vec<f64>,
    },
    Capsule {
        half_height: f64,
        radius: f64,
    },
    /// 3D only.
    Cylinder {
        half_height: f64,
        radius: f64,
    },
    /// 3D only.
    Cone {
        half_height: f64,
        radius: f64,
    },
    Ellipsoid {
        radii: Vec<f64>,
    },
    Polytope {
        points: Vec<Vec<f64>>,
    },
    /// 3D only: the hull of eight corners (`Frustum::from_corners`).
    Frustum {
        corners: Vec<Vec<f64>>,
    },
    Segment {
        a: Vec<f64>,
        b: Vec<f64>,
    },
    Triangle {
        a: Vec<f64>,
        b: Vec<f64>,
        c: Vec<f64>,
    },
    Point {
        at: Vec<f64>,
    },
    Rounded {
        shape: Box<Shape>,
        radius: f64,
    },
    Scaled {
        shape: Box<Shape>,
        scale: Vec<f64>,
    },
    Posed {
        shape: Box<Shape>,
        pose: Pose,
    },
    Minkowski {
        a: Box<Shape>,
        b: Box<Shape>,
    },
    /// The inner shape behind a user closure (`SupportFn::rounded(|d| inner.support(d), inner.radius())`).
    SupportFn {
        shape: Box<Shape>,
    },
}

/// A rotation: an angle in 2D, a quaternion [x, y, z, w] in 3D (as the CLI writes them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rot {
    Angle(f64),
    Quat([f64; 4]),
}

/// A pose: rotation, then translation.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    pub translation: Vec<f64>,
    pub rotation: Rot,
}

impl Pose {
    /// The identity pose in `dim` dimensions.
    pub fn identity(dim: usize) -> Self {
        Self { translation: vec![0.0; dim], rotation: if dim == 2 { Rot::Angle(0.0) } else { Rot::Quat(IDENTITY) } }
    }

    /// The pose as the CLI writes it.
    pub fn to_json(&self) -> Value {
        let rotation = match self.rotation {
            Rot::Angle(a) => json!(a),
            Rot::Quat(q) => json!(q),
        };
        json!({"translation": self.translation, "rotation": rotation})
    }
}

/// The identity quaternion.
pub const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

impl Shape {
    /// The family name used in statistics and failure classes: the outer type, with the innermost kind for
    /// wrappers (`rounded(cone)`).
    pub fn family(&self) -> String {
        match self {
            Shape::Ball { .. } => "ball".into(),
            Shape::Cuboid { .. } => "cuboid".into(),
            Shape::Capsule { .. } => "capsule".into(),
            Shape::Cylinder { .. } => "cylinder".into(),
            Shape::Cone { .. } => "cone".into(),
            Shape::Ellipsoid { .. } => "ellipsoid".into(),
            Shape::Polytope { .. } => "polytope".into(),
            Shape::Frustum { .. } => "frustum".into(),
            Shape::Segment { .. } => "segment".into(),
            Shape::Triangle { .. } => "triangle".into(),
            Shape::Point { .. } => "point".into(),
            Shape::Rounded { shape, .. } => format!("rounded({})", shape.family()),
            Shape::Scaled { shape, .. } => format!("scaled({})", shape.family()),
            Shape::Posed { shape, .. } => format!("posed({})", shape.family()),
            Shape::Minkowski { a, b } => format!("minkowski({},{})", a.family(), b.family()),
            Shape::SupportFn { shape } => format!("support_fn({})", shape.family()),
        }
    }

    /// The outer kind alone (`rounded`, `cone`): failure classes group by it.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Ball { .. } => "ball",
            Shape::Cuboid { .. } => "cuboid",
            Shape::Capsule { .. } => "capsule",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Cone { .. } => "cone",
            Shape::Ellipsoid { .. } => "ellipsoid",
            Shape::Polytope { .. } => "polytope",
            Shape::Frustum { .. } => "frustum",
            Shape::Segment { .. } => "segment",
            Shape::Triangle { .. } => "triangle",
            Shape::Point { .. } => "point",
            Shape::Rounded { .. } => "rounded",
            Shape::Scaled { .. } => "scaled",
            Shape::Posed { .. } => "posed",
            Shape::Minkowski { .. } => "minkowski",
            Shape::SupportFn { .. } => "support_fn",
        }
    }

    /// True when the shape has a curved part that is not a ball's radius (EPA then sees a polytope of support
    /// points, not the shape: issue 11 §1).
    pub fn curved_core(&self) -> bool {
        match self {
            Shape::Cylinder { .. } | Shape::Cone { .. } | Shape::Ellipsoid { .. } => true,
            Shape::Rounded { shape, .. } | Shape::Posed { shape, .. } | Shape::SupportFn { shape } => {
                shape.curved_core()
            }
            // A non-uniform scale of a rounded shape is a curved whole (the library folds the radius in).
            Shape::Scaled { shape, .. } => shape.curved_core() || shape.has_radius(),
            // A sum with a rounded part rounds the other part's core: curved unless the rounded part is a ball.
            Shape::Minkowski { a, b } => a.curved_core() || b.curved_core() || a.has_radius() || b.has_radius(),
            _ => false,
        }
    }

    /// True when the shape (at its top level) carries a radius.
    pub fn has_radius(&self) -> bool {
        match self {
            Shape::Ball { radius } | Shape::Capsule { radius, .. } | Shape::Rounded { radius, .. } => *radius > 0.0,
            Shape::Posed { shape, .. } | Shape::SupportFn { shape } => shape.has_radius(),
            _ => false,
        }
    }

    /// The shape as a CLI `SHAPE` object, or `None` when the CLI has no way to write it (scaled, posed).
    /// `SupportFn` is written as its inner shape (the same geometry, another code path) and a frustum as the
    /// convex hull of its corners (what it is).
    pub fn to_json(&self) -> Option<Value> {
        let dim2 = |v: &[f64]| v.len() == 2;
        Some(match self {
            Shape::Ball { radius } => json!({"type": "sphere", "radius": radius}),
            Shape::Cuboid { half_extents } => json!({"type": "box", "half_extents": half_extents}),
            Shape::Capsule { half_height, radius } => {
                json!({"type": "capsule", "half_height": half_height, "radius": radius})
            }
            Shape::Cylinder { half_height, radius } => {
                json!({"type": "cylinder", "half_height": half_height, "radius": radius})
            }
            Shape::Cone { half_height, radius } => {
                json!({"type": "cone", "half_height": half_height, "radius": radius})
            }
            Shape::Ellipsoid { radii } => json!({"type": "ellipsoid", "radii": radii}),
            Shape::Polytope { points } | Shape::Frustum { corners: points } => {
                let kind = if points.first().is_some_and(|p| dim2(p)) { "polygon" } else { "convex" };
                json!({"type": kind, "points": points})
            }
            Shape::Segment { a, b } => json!({"type": "segment", "a": a, "b": b}),
            Shape::Triangle { a, b, c } => json!({"type": "triangle", "a": a, "b": b, "c": c}),
            Shape::Point { at } => json!({"type": "point", "at": at}),
            Shape::Rounded { shape, radius } => json!({"type": "rounded", "shape": shape.to_json()?, "radius": radius}),
            Shape::Minkowski { a, b } => json!({"type": "minkowski_sum", "a": a.to_json()?, "b": b.to_json()?}),
            Shape::SupportFn { shape } => shape.to_json()?,
            Shape::Scaled { .. } | Shape::Posed { .. } => return None,
        })
    }
}
