//! JSON → shapes and poses. One generic builder serves 2D and 3D; the few things that differ (how a rotation is
//! written, which shapes exist only in 3D) go through the [`Space`] trait.

use std::path::Path;

use gjk::cast::Angular;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Rotation, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Rounded, Segment,
    SupportMap, Triangle,
};
use serde_json::{Map, Value};

/// A shape chosen at run time.
pub type DynShape<V> = Box<dyn SupportMap<V>>;

/// What parsing needs to know about a dimension.
pub trait Space: Vector<Real = f64> {
    /// Parses a rotation: an angle in radians in 2D, a quaternion `[x, y, z, w]` in 3D.
    fn parse_rotation(v: &Value) -> Result<Self::Rotation, String>;
    /// Parses an angular velocity: radians per unit time, a number in 2D, a vector in 3D.
    fn parse_angular(v: &Value) -> Result<Angular<Self>, String>;
    /// Shapes that exist only in this dimension (cylinder, cone, mesh in 3D); `None` if `kind` is not one.
    fn special_shape(kind: &str, o: &Map<String, Value>) -> Option<Result<DynShape<Self>, String>>;
}

impl Space for DVec2 {
    fn parse_rotation(v: &Value) -> Result<Rot2<f64>, String> {
        let angle = number(v, "rotation")?;
        Ok(Rot2::from_angle(angle))
    }
    fn parse_angular(v: &Value) -> Result<f64, String> {
        number(v, "angular velocity (a number in 2D)")
    }
    fn special_shape(kind: &str, _o: &Map<String, Value>) -> Option<Result<DynShape<Self>, String>> {
        matches!(kind, "cylinder" | "cone" | "mesh").then(|| Err(format!("shape type {kind:?} exists only in 3D")))
    }
}

impl Space for DVec3 {
    fn parse_rotation(v: &Value) -> Result<DQuat, String> {
        let q = numbers(v, "rotation")?;
        if q.len() != 4 {
            return Err(format!("rotation must be a quaternion [x, y, z, w] in 3D, got {} numbers", q.len()));
        }
        // Quaternions are normalised: inputs rounded to a few digits stay usable.
        DQuat::from_xyzw(q[0], q[1], q[2], q[3]).normalized().ok_or_else(|| "rotation quaternion is zero".to_string())
    }
    fn parse_angular(v: &Value) -> Result<DVec3, String> {
        vector::<DVec3>(v, "angular velocity")
    }
    fn special_shape(kind: &str, o: &Map<String, Value>) -> Option<Result<DynShape<Self>, String>> {
        let shape = || -> Result<DynShape<Self>, String> {
            match kind {
                "cylinder" => Ok(Box::new(
                    Cylinder::new(field_number(o, "half_height")?, field_number(o, "radius")?).map_err(err)?,
                )),
                "cone" => {
                    Ok(Box::new(Cone::new(field_number(o, "half_height")?, field_number(o, "radius")?).map_err(err)?))
                }
                _ => {
                    let path = o.get("path").and_then(Value::as_str).ok_or("mesh needs a \"path\" string")?;
                    let pts: Vec<DVec3> =
                        crate::mesh::load_vertices(Path::new(path))?.iter().map(|p| DVec3::from_array(*p)).collect();
                    Ok(Box::new(ConvexPolytope::new(&pts).map_err(err)?))
                }
            }
        };
        matches!(kind, "cylinder" | "cone" | "mesh").then(shape)
    }
}

fn err(e: gjk::shape::ShapeError) -> String {
    e.to_string()
}

/// A finite number.
pub fn number(v: &Value, what: &str) -> Result<f64, String> {
    let x = v.as_f64().ok_or_else(|| format!("{what} must be a number"))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{what} is not finite"))
    }
}

/// An array of finite numbers.
pub fn numbers(v: &Value, what: &str) -> Result<Vec<f64>, String> {
    let arr = v.as_array().ok_or_else(|| format!("{what} must be an array of numbers"))?;
    arr.iter().map(|x| number(x, what)).collect()
}

/// A required numeric field.
pub fn field_number(o: &Map<String, Value>, key: &str) -> Result<f64, String> {
    number(o.get(key).ok_or_else(|| format!("missing field {key:?}"))?, key)
}

/// A vector of exactly `V::DIM` numbers.
pub fn vector<V: Vector<Real = f64>>(v: &Value, what: &str) -> Result<V, String> {
    let c = numbers(v, what)?;
    if c.len() != V::DIM {
        return Err(format!("{what} must have {} numbers, got {}", V::DIM, c.len()));
    }
    Ok(V::from_f64_slice(&c))
}

/// A required vector field.
pub fn field_vector<V: Vector<Real = f64>>(o: &Map<String, Value>, key: &str) -> Result<V, String> {
    vector(o.get(key).ok_or_else(|| format!("missing field {key:?}"))?, key)
}

/// A shape object.
pub fn shape<V: Space>(v: &Value) -> Result<DynShape<V>, String> {
    let o = v.as_object().ok_or("a shape must be an object")?;
    let kind = o.get("type").and_then(Value::as_str).ok_or("a shape needs a \"type\" string")?;
    if let Some(special) = V::special_shape(kind, o) {
        return special;
    }
    let num = |k: &str| field_number(o, k);
    let vec = |k: &str| field_vector::<V>(o, k);
    let shape: DynShape<V> = match kind {
        "sphere" | "circle" | "ball" => Box::new(Ball::new(num("radius")?).map_err(err)?),
        "box" | "rectangle" | "cuboid" => Box::new(Cuboid::new(vec("half_extents")?).map_err(err)?),
        "capsule" => Box::new(Capsule::new(num("half_height")?, num("radius")?).map_err(err)?),
        "ellipsoid" | "ellipse" => Box::new(Ellipsoid::new(vec("radii")?).map_err(err)?),
        "convex" | "polygon" | "polyhedron" => {
            let pts = o.get("points").and_then(Value::as_array).ok_or("convex needs a \"points\" array")?;
            let pts = pts.iter().map(|p| vector::<V>(p, "each point")).collect::<Result<Vec<V>, _>>()?;
            Box::new(ConvexPolytope::new(&pts).map_err(err)?)
        }
        "segment" => Box::new(Segment::new(vec("a")?, vec("b")?).map_err(err)?),
        "triangle" => Box::new(Triangle::new(vec("a")?, vec("b")?, vec("c")?).map_err(err)?),
        "point" => Box::new(Point::new(vec("at")?).map_err(err)?),
        "rounded" => {
            let inner = shape::<V>(o.get("shape").ok_or("rounded needs a \"shape\"")?)?;
            Box::new(Rounded::new(inner, num("radius")?).map_err(err)?)
        }
        "minkowski_sum" => {
            let a = shape::<V>(o.get("a").ok_or("minkowski_sum needs \"a\"")?)?;
            let b = shape::<V>(o.get("b").ok_or("minkowski_sum needs \"b\"")?)?;
            Box::new(MinkowskiSum::new(a, b))
        }
        other => return Err(format!("unknown shape type {other:?}")),
    };
    Ok(shape)
}

/// A pose object; absent (or null) means the identity.
pub fn pose<V: Space>(v: Option<&Value>) -> Result<Iso<V>, String> {
    let Some(v) = v.filter(|v| !v.is_null()) else {
        return Ok(Iso::identity());
    };
    let o = v.as_object().ok_or("a pose must be an object {\"translation\", \"rotation\"}")?;
    let translation = match o.get("translation") {
        Some(t) => vector::<V>(t, "translation")?,
        None => V::zero(),
    };
    let rotation = match o.get("rotation") {
        Some(r) => V::parse_rotation(r)?,
        None => V::Rotation::identity(),
    };
    Ok(Iso::new(rotation, translation))
}

/// Decides whether a query line is 2D or 3D from the sizes of its vectors and the form of its rotations, which
/// must all agree; shape names that exist in one dimension only decide when nothing else does (3D by default).
pub fn dimension(line: &Map<String, Value>) -> Result<usize, String> {
    let mut strong = Vec::new();
    let mut weak = Vec::new();
    for key in ["a", "b"] {
        if let Some(s) = line.get(key) {
            shape_hints(s, &mut strong, &mut weak);
        }
    }
    for key in ["pose_a", "pose_b"] {
        if let Some(p) = line.get(key).and_then(Value::as_object) {
            if let Some(t) = p.get("translation").and_then(Value::as_array) {
                strong.push(t.len());
            }
            match p.get("rotation") {
                Some(Value::Number(_)) => strong.push(2),
                Some(Value::Array(_)) => strong.push(3),
                _ => {}
            }
        }
    }
    for key in ["origin", "direction", "velocity_a", "velocity_b"] {
        if let Some(t) = line.get(key).and_then(Value::as_array) {
            strong.push(t.len());
        }
    }
    let pick = |hints: &[usize]| -> Result<Option<usize>, String> {
        match hints.first() {
            None => Ok(None),
            Some(&d) if hints.iter().all(|&h| h == d) && (d == 2 || d == 3) => Ok(Some(d)),
            Some(_) => {
                Err(format!("vectors and rotations disagree on the dimension (sizes {hints:?}; need all 2 or all 3)"))
            }
        }
    };
    Ok(pick(&strong)?.or(pick(&weak).ok().flatten()).unwrap_or(3))
}

fn shape_hints(v: &Value, strong: &mut Vec<usize>, weak: &mut Vec<usize>) {
    let Some(o) = v.as_object() else { return };
    for key in ["half_extents", "radii", "a", "b", "c", "at"] {
        if let Some(a) = o.get(key).and_then(Value::as_array) {
            strong.push(a.len());
        }
    }
    if let Some(p) = o.get("points").and_then(Value::as_array) {
        strong.extend(p.iter().filter_map(Value::as_array).map(Vec::len));
    }
    match o.get("type").and_then(Value::as_str) {
        Some("circle" | "ellipse" | "rectangle" | "polygon") => weak.push(2),
        Some("sphere" | "cylinder" | "cone" | "mesh" | "ellipsoid" | "polyhedron" | "cuboid") => weak.push(3),
        _ => {}
    }
    for key in ["shape", "a", "b"] {
        if let Some(inner) = o.get(key).filter(|x| x.is_object()) {
            shape_hints(inner, strong, weak);
        }
    }
}
