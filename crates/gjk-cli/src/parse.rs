//! A query line's JSON → its typed model ([`crate::model`]): the dimension is decided first, from the sizes of the
//! line's vectors and the form of its rotations (docs/cli.md, "Dimension"), then the line is read as a query of
//! that dimension.

use serde_json::{Map, Value};

use serde::de::DeserializeOwned;

use crate::model::{name_dimension, NameDimension, Query, QueryKind, Space};

/// Reads a parsed line (an object) as a query of dimension `V`.
pub fn query<V: Space>(line: &Value) -> Result<Query<V>, String> {
    let kind: QueryKind = match line.get("query") {
        None => return Err("missing field `query`".into()),
        Some(name) => fields(name).map_err(|e| format!("query: {e}"))?,
    };
    Ok(match kind {
        QueryKind::Intersect => Query::Intersect(fields(line)?),
        QueryKind::Distance => Query::Distance(fields(line)?),
        QueryKind::Penetration => Query::Penetration(fields(line)?),
        QueryKind::Contact => Query::Contact(fields(line)?),
        QueryKind::RayCast => Query::RayCast(fields(line)?),
        QueryKind::ShapeCast => Query::ShapeCast(fields(line)?),
    })
}

/// A typed value read from JSON; an error names where it is (`pose_b.translation[1]: invalid type ...`; inside a
/// shape, the shape: `a: radius is negative`).
fn fields<T: DeserializeOwned>(v: &Value) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(v).map_err(|e| match e.path().to_string().as_str() {
        "." => e.inner().to_string(),
        path => format!("{path}: {}", e.inner()),
    })
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
        if let Some(p) = line.get(key) {
            pose_hints(p, &mut strong);
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

/// A pose's translation size and rotation form.
fn pose_hints(p: &Value, strong: &mut Vec<usize>) {
    let Some(p) = p.as_object() else { return };
    if let Some(t) = p.get("translation").and_then(Value::as_array) {
        strong.push(t.len());
    }
    match p.get("rotation") {
        Some(Value::Number(_)) => strong.push(2),
        Some(Value::Array(_)) => strong.push(3),
        _ => {}
    }
}

/// What the fields of a shape that is not convex say: a trimesh's vertices and index arrays (2 or 3), a
/// half-space's normal, a height field's heights (numbers in 2D, rows in 3D), a compound's parts and their poses.
fn composite_hints(name: &str, o: &Map<String, Value>, strong: &mut Vec<usize>, weak: &mut Vec<usize>) {
    let arrays = |key: &str| o.get(key).and_then(Value::as_array).into_iter().flatten();
    match name {
        "trimesh" => {
            strong.extend(arrays("vertices").chain(arrays("indices")).filter_map(Value::as_array).map(Vec::len));
        }
        "halfspace" => strong.extend(o.get("normal").and_then(Value::as_array).map(Vec::len)),
        "heightfield" => {
            if let Some(first) = arrays("heights").next() {
                strong.push(if first.is_array() { 3 } else { 2 });
            }
        }
        "compound" => {
            for part in arrays("parts") {
                if let Some(shape) = part.get("shape") {
                    shape_hints(shape, strong, weak);
                }
                if let Some(pose) = part.get("pose") {
                    pose_hints(pose, strong);
                }
            }
        }
        _ => {}
    }
}

fn shape_hints(v: &Value, strong: &mut Vec<usize>, weak: &mut Vec<usize>) {
    let Some(o) = v.as_object() else { return };
    if let Some(name) = o.get("type").and_then(Value::as_str) {
        composite_hints(name, o, strong, weak);
    }
    for key in ["half_extents", "radii", "a", "b", "c", "at"] {
        if let Some(a) = o.get(key).and_then(Value::as_array) {
            strong.push(a.len());
        }
    }
    if let Some(p) = o.get("points").and_then(Value::as_array) {
        strong.extend(p.iter().filter_map(Value::as_array).map(Vec::len));
    }
    match o.get("type").and_then(Value::as_str).and_then(name_dimension) {
        Some(NameDimension::Strict(d) | NameDimension::Hint(d)) => weak.push(d),
        None => {}
    }
    for key in ["shape", "a", "b"] {
        if let Some(inner) = o.get(key).filter(|x| x.is_object()) {
            shape_hints(inner, strong, weak);
        }
    }
}
