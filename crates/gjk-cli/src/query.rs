//! One JSON query line in, one JSON answer line out. The format is documented in docs/cli.md.

use gjk::cast::{ray_cast, shape_cast, time_of_impact, CastOptions, Motion};
use gjk::manifold::contact_manifold;
use gjk::math::{DVec2, DVec3, Rotation, Vector};
use gjk::{distance_with, intersection, penetration_with, Distance, DistanceOptions, Intersection, Penetration};
use serde_json::{json, Map, Value};

use crate::parse::{dimension, number, pose, shape, vector, Space};

/// Answers one input line. Never fails: a line that cannot be answered gets `{"id", "error"}`.
pub fn answer_line(line: &str) -> String {
    let parsed: Result<Value, _> = serde_json::from_str(line);
    let (id, result) = match parsed {
        Err(e) => (Value::Null, Err(format!("invalid JSON: {e}"))),
        Ok(v) => {
            let id = v.get("id").cloned().unwrap_or(Value::Null);
            let result = match v.as_object() {
                Some(o) => answer(o),
                None => Err("a query line must be a JSON object".to_string()),
            };
            (id, result)
        }
    };
    let mut out = Map::new();
    out.insert("id".into(), id);
    match result {
        Ok(fields) => out.extend(fields),
        Err(e) => {
            out.insert("error".into(), Value::String(e));
        }
    }
    Value::Object(out).to_string()
}

fn answer(line: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    match dimension(line)? {
        2 => answer_in::<DVec2>(line),
        _ => answer_in::<DVec3>(line),
    }
}

fn answer_in<V: Space>(line: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let query = line.get("query").and_then(Value::as_str).ok_or("missing \"query\" string")?;
    let a = shape::<V>(line.get("a").ok_or("missing shape \"a\"")?)?;
    // Shape b is parsed only by the queries that take one (a ray cast has none).
    let pose_a = pose::<V>(line.get("pose_a"))?;
    let b = || shape::<V>(line.get("b").ok_or("missing shape \"b\"")?);
    let pose_b = || pose::<V>(line.get("pose_b"));
    let options = DistanceOptions::default();
    let out = match query {
        "intersect" => intersection_json(&intersection(&*a, &pose_a, &*b()?, &pose_b()?, &options, None, &mut ())),
        "distance" => distance_json(&distance_with(&*a, &pose_a, &*b()?, &pose_b()?, &options, None, &mut ())),
        "penetration" => penetration_json(&penetration_with(&*a, &pose_a, &*b()?, &pose_b()?, &options, &mut ())),
        "contact" => {
            let prediction = optional_number(line, "prediction")?.unwrap_or(0.0);
            if prediction < 0.0 {
                return Err("prediction must not be negative".into());
            }
            let m = contact_manifold(&*a, &pose_a, &*b()?, &pose_b()?, prediction);
            let contacts: Vec<Value> = m
                .contacts()
                .iter()
                .map(|c| {
                    json!({
                        "point_a": vec_json(c.point_a),
                        "point_b": vec_json(c.point_b),
                        "depth": c.depth + 0.0,
                        "id": c.id,
                    })
                })
                .collect();
            json!({"normal": vec_json(m.normal), "contacts": contacts, "status": m.status.as_str()})
        }
        "ray_cast" => {
            let origin = vector::<V>(line.get("origin").ok_or("ray_cast needs \"origin\"")?, "origin")?;
            let direction = vector::<V>(line.get("direction").ok_or("ray_cast needs \"direction\"")?, "direction")?;
            let max_toi = optional_number(line, "max_toi")?.unwrap_or(f64::INFINITY);
            let solid = match line.get("solid") {
                None | Some(Value::Null) => true,
                Some(v) => v.as_bool().ok_or("solid must be true or false")?,
            };
            let r = ray_cast(&*a, &pose_a, origin, direction, max_toi, solid);
            let hit = |v: Value| if r.hit { v } else { Value::Null };
            json!({
                "hit": r.hit,
                "toi": hit(json!(r.toi + 0.0)),
                "normal": hit(vec_json(r.normal)),
                "point": hit(vec_json(r.point)),
                "status": r.status.as_str(),
            })
        }
        "shape_cast" => {
            let b = b()?;
            let pose_b = pose_b()?;
            let velocity = |k: &str| match line.get(k) {
                None | Some(Value::Null) => Ok(V::zero()),
                Some(v) => vector::<V>(v, k),
            };
            let angular = |k: &str| match line.get(k) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => V::parse_angular(v).map(Some),
            };
            let options = CastOptions {
                max_toi: optional_number(line, "max_toi")?.unwrap_or(f64::INFINITY),
                target_distance: optional_number(line, "target_distance")?.unwrap_or(0.0),
                ignore_initial_overlap_when_separating: line
                    .get("ignore_initial_overlap")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                ..CastOptions::default()
            };
            if options.max_toi < 0.0 || options.target_distance < 0.0 {
                return Err("max_toi and target_distance must not be negative".into());
            }
            let (va, vb) = (velocity("velocity_a")?, velocity("velocity_b")?);
            let (wa, wb) = (angular("angular_velocity_a")?, angular("angular_velocity_b")?);
            let spinning = |w: Option<_>| w.is_some_and(|w| V::Rotation::angular_speed(w) != 0.0);
            let c = if spinning(wa) || spinning(wb) {
                let ma = Motion::new(pose_a, va, wa.unwrap_or_default());
                let mb = Motion::new(pose_b, vb, wb.unwrap_or_default());
                time_of_impact(&*a, &ma, &*b, &mb, &options)
            } else {
                shape_cast(&*a, &pose_a, va, &*b, &pose_b, vb, &options)
            };
            let hit = |v: Value| if c.hit { v } else { Value::Null };
            json!({
                "hit": c.hit,
                "toi": hit(json!(c.toi + 0.0)),
                "normal": hit(vec_json(c.normal)),
                "point_a": hit(vec_json(c.point_a)),
                "point_b": hit(vec_json(c.point_b)),
                "status": c.status.as_str(),
            })
        }
        other => {
            return Err(format!(
                "unknown query {other:?} (expected intersect, distance, penetration, contact, ray_cast or shape_cast)"
            ))
        }
    };
    match out {
        Value::Object(m) => Ok(m),
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// The answer fields of an `intersect` query (shared with `gjk draw`, which must report the same answer).
pub fn intersection_json(r: &Intersection) -> Value {
    json!({"intersecting": r.intersecting, "iterations": r.iterations, "status": r.status.as_str()})
}

/// The answer fields of a `distance` query.
pub fn distance_json<V: Vector<Real = f64>>(d: &Distance<V>) -> Value {
    json!({
        "intersecting": d.intersecting,
        "distance": d.distance + 0.0,
        "point_a": vec_json(d.point_a),
        "point_b": vec_json(d.point_b),
        "normal": vec_json(d.normal),
        "iterations": d.iterations,
        "status": d.status.as_str(),
    })
}

/// The answer fields of a `penetration` query.
pub fn penetration_json<V: Vector<Real = f64>>(p: &Penetration<V>) -> Value {
    json!({
        "intersecting": p.intersecting,
        "distance": p.distance + 0.0,
        "depth": p.depth + 0.0,
        "normal": vec_json(p.normal),
        "point_a": vec_json(p.point_a),
        "point_b": vec_json(p.point_b),
        "iterations": p.iterations,
        "status": p.status.as_str(),
    })
}

/// An optional numeric field (absent or null: `None`).
fn optional_number(line: &Map<String, Value>, key: &str) -> Result<Option<f64>, String> {
    match line.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => number(v, key).map(Some),
    }
}

/// A vector as a JSON array of its coordinates (negative zeros written as 0).
pub fn vec_json<V: Vector<Real = f64>>(v: V) -> Value {
    Value::Array((0..V::DIM).map(|i| json!(v.get(i) + 0.0)).collect())
}
