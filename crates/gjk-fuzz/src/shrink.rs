//! Shrinking a failing case to a small reproducer: simpler shapes (a combinator replaced by its part, fewer hull
//! points), rounder numbers, identity rotations, no common offset, no motion — each change kept only when the same
//! check still fails.

use std::time::{Duration, Instant};

use gjk::math::{DVec2, DVec3, Vec2, Vec3};

use crate::gen::Case;
use crate::queries::check_case;
use crate::report::Report;
use crate::spec::{Pose, Rot, Shape};

/// Runs the library checks on a case as it is (not regenerated).
pub fn check(case: &Case, seed: u64, index: u64) -> Report {
    let mut report = Report::default();
    let _ = crate::ctx::guarded(|| match (case.dim, case.f32) {
        (2, true) => check_case::<Vec2>(&mut report, case, seed, index),
        (2, false) => check_case::<DVec2>(&mut report, case, seed, index),
        (_, true) => check_case::<Vec3>(&mut report, case, seed, index),
        (_, false) => check_case::<DVec3>(&mut report, case, seed, index),
    });
    report
}

/// True when `check` fails on the case.
pub fn fails(case: &Case, seed: u64, index: u64, name: &str) -> bool {
    check(case, seed, index).failures.iter().any(|f| f.check == name)
}

/// The smallest case found within `budget` on which `name` still fails.
pub fn shrink(mut case: Case, seed: u64, index: u64, name: &str, budget: Duration) -> Case {
    let start = Instant::now();
    loop {
        let mut improved = false;
        for candidate in candidates(&case) {
            if start.elapsed() > budget {
                return case;
            }
            if weight(&candidate) < weight(&case) && fails(&candidate, seed, index, name) {
                case = candidate;
                improved = true;
                break;
            }
        }
        if !improved {
            return case;
        }
    }
}

/// How complicated a case is: shapes' nodes and points, significant digits, non-identity rotations, motion.
fn weight(c: &Case) -> u64 {
    let mut w = shape_weight(&c.a) + shape_weight(&c.b) + pose_weight(&c.pose_a) + pose_weight(&c.pose_b);
    for v in [&c.velocity_a, &c.velocity_b, &c.angular_a, &c.angular_b, &c.ray_origin, &c.ray_direction] {
        w += v.iter().map(|&x| digits(x)).sum::<u64>();
    }
    w + digits(c.prediction) + digits(c.target_distance) + digits(c.max_distance) + u64::from(c.f32) * 5
}

fn digits(x: f64) -> u64 {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    (1..=17).find(|&k| round_to(x, k) == x).unwrap_or(17) as u64
}

fn round_to(x: f64, k: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    format!("{:.*e}", (k - 1).max(0) as usize, x).parse().unwrap_or(x)
}

fn shape_weight(s: &Shape) -> u64 {
    let mut w = 10;
    map_shape(s, &mut |x| {
        w += digits(x);
        x
    });
    w + match s {
        Shape::Rounded { shape, .. }
        | Shape::Scaled { shape, .. }
        | Shape::Posed { shape, .. }
        | Shape::SupportFn { shape } => 20 + shape_weight(shape),
        Shape::Minkowski { a, b } => 20 + shape_weight(a) + shape_weight(b),
        Shape::Polytope { points } | Shape::Frustum { corners: points } => 5 * points.len() as u64,
        _ => 0,
    }
}

fn pose_weight(p: &Pose) -> u64 {
    let t: u64 = p.translation.iter().map(|&x| digits(x)).sum();
    t + match p.rotation {
        Rot::Angle(a) => digits(a),
        Rot::Quat(q) => {
            if q == crate::spec::IDENTITY {
                0
            } else {
                4 + q.iter().map(|&x| digits(x)).sum::<u64>()
            }
        }
    }
}

/// Applies `f` to every number of a shape (its own parameters; the parts of combinators too).
fn map_shape(s: &Shape, f: &mut dyn FnMut(f64) -> f64) -> Shape {
    let v = |xs: &Vec<f64>, f: &mut dyn FnMut(f64) -> f64| xs.iter().map(|&x| f(x)).collect::<Vec<f64>>();
    match s {
        Shape::Ball { radius } => Shape::Ball { radius: f(*radius) },
        Shape::Cuboid { half_extents } => Shape::Cuboid { half_extents: v(half_extents, f) },
        Shape::Capsule { half_height, radius } => Shape::Capsule { half_height: f(*half_height), radius: f(*radius) },
        Shape::Cylinder { half_height, radius } => Shape::Cylinder { half_height: f(*half_height), radius: f(*radius) },
        Shape::Cone { half_height, radius } => Shape::Cone { half_height: f(*half_height), radius: f(*radius) },
        Shape::Ellipsoid { radii } => Shape::Ellipsoid { radii: v(radii, f) },
        Shape::Polytope { points } => Shape::Polytope { points: points.iter().map(|p| v(p, f)).collect() },
        Shape::Frustum { corners } => Shape::Frustum { corners: corners.iter().map(|p| v(p, f)).collect() },
        Shape::Segment { a, b } => Shape::Segment { a: v(a, f), b: v(b, f) },
        Shape::Triangle { a, b, c } => Shape::Triangle { a: v(a, f), b: v(b, f), c: v(c, f) },
        Shape::Point { at } => Shape::Point { at: v(at, f) },
        Shape::Rounded { shape, radius } => Shape::Rounded { shape: Box::new(map_shape(shape, f)), radius: f(*radius) },
        Shape::Scaled { shape, scale } => Shape::Scaled { shape: Box::new(map_shape(shape, f)), scale: v(scale, f) },
        Shape::Posed { shape, pose } => {
            Shape::Posed { shape: Box::new(map_shape(shape, f)), pose: map_pose(pose, f, false) }
        }
        Shape::Minkowski { a, b } => Shape::Minkowski { a: Box::new(map_shape(a, f)), b: Box::new(map_shape(b, f)) },
        Shape::SupportFn { shape } => Shape::SupportFn { shape: Box::new(map_shape(shape, f)) },
    }
}

fn map_pose(p: &Pose, f: &mut dyn FnMut(f64) -> f64, rotation: bool) -> Pose {
    let translation = p.translation.iter().map(|&x| f(x)).collect();
    let rotation = if !rotation {
        p.rotation
    } else {
        match p.rotation {
            Rot::Angle(a) => Rot::Angle(f(a)),
            Rot::Quat(q) => Rot::Quat(q.map(&mut *f)),
        }
    };
    Pose { translation, rotation }
}

/// Simpler shapes than `s`: its parts, fewer points.
fn simpler_shapes(s: &Shape) -> Vec<Shape> {
    let mut out = Vec::new();
    match s {
        Shape::Rounded { shape, .. }
        | Shape::Scaled { shape, .. }
        | Shape::Posed { shape, .. }
        | Shape::SupportFn { shape } => {
            out.push((**shape).clone());
            for inner in simpler_shapes(shape) {
                out.push(match s {
                    Shape::Rounded { radius, .. } => Shape::Rounded { shape: Box::new(inner), radius: *radius },
                    Shape::Scaled { scale, .. } => Shape::Scaled { shape: Box::new(inner), scale: scale.clone() },
                    Shape::Posed { pose, .. } => Shape::Posed { shape: Box::new(inner), pose: pose.clone() },
                    _ => Shape::SupportFn { shape: Box::new(inner) },
                });
            }
        }
        Shape::Minkowski { a, b } => {
            out.push((**a).clone());
            out.push((**b).clone());
        }
        Shape::Polytope { points } if points.len() > 1 => {
            // Halves first (delta debugging), then single points.
            let n = points.len();
            out.push(Shape::Polytope { points: points[..n / 2].to_vec() });
            out.push(Shape::Polytope { points: points[n / 2..].to_vec() });
            for i in 0..n {
                let mut p = points.clone();
                p.remove(i);
                out.push(Shape::Polytope { points: p });
            }
        }
        Shape::Frustum { corners } => out.push(Shape::Polytope { points: corners.clone() }),
        _ => {}
    }
    out
}

/// Every one-step simplification of a case.
fn candidates(c: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    if c.f32 {
        out.push(Case { f32: false, ..c.clone() });
    }
    for a in simpler_shapes(&c.a) {
        out.push(Case { a, ..c.clone() });
    }
    for b in simpler_shapes(&c.b) {
        out.push(Case { b, ..c.clone() });
    }
    // No common offset: A at the origin, B where it was relative to A.
    if c.pose_a.translation.iter().any(|&x| x != 0.0) {
        let t = c.pose_a.translation.clone();
        let shift = |v: &Vec<f64>| v.iter().zip(&t).map(|(x, y)| x - y).collect::<Vec<f64>>();
        let mut d = c.clone();
        d.pose_a.translation = vec![0.0; c.dim];
        d.pose_b.translation = shift(&c.pose_b.translation);
        d.ray_origin = shift(&c.ray_origin);
        out.push(d);
    }
    let identity = if c.dim == 2 { Rot::Angle(0.0) } else { Rot::Quat(crate::spec::IDENTITY) };
    for which in 0..2 {
        let mut d = c.clone();
        let p = if which == 0 { &mut d.pose_a } else { &mut d.pose_b };
        if p.rotation != identity {
            p.rotation = identity;
            out.push(d);
        }
    }
    for v in 0..4 {
        let mut d = c.clone();
        let field = match v {
            0 => &mut d.velocity_a,
            1 => &mut d.velocity_b,
            2 => &mut d.angular_a,
            _ => &mut d.angular_b,
        };
        if field.iter().any(|&x| x != 0.0) {
            field.iter_mut().for_each(|x| *x = 0.0);
            out.push(d);
        }
    }
    // Rounder numbers, everywhere at once then one part at a time.
    for k in [1, 2, 3, 4, 6, 9, 12] {
        let mut r = |x: f64| round_to(x, k);
        let mut d = c.clone();
        d.a = map_shape(&c.a, &mut r);
        d.b = map_shape(&c.b, &mut r);
        out.push(d.clone());
        d.pose_a = map_pose(&c.pose_a, &mut r, false);
        d.pose_b = map_pose(&c.pose_b, &mut r, false);
        out.push(d.clone());
        d.pose_a = map_pose(&c.pose_a, &mut r, true);
        d.pose_b = map_pose(&c.pose_b, &mut r, true);
        out.push(d.clone());
        for v in [
            &mut d.velocity_a,
            &mut d.velocity_b,
            &mut d.angular_a,
            &mut d.angular_b,
            &mut d.ray_origin,
            &mut d.ray_direction,
        ] {
            v.iter_mut().for_each(|x| *x = round_to(*x, k));
        }
        d.prediction = round_to(c.prediction, k);
        d.target_distance = round_to(c.target_distance, k);
        d.max_distance = round_to(c.max_distance, k);
        out.push(d);
        out.push(Case { a: map_shape(&c.a, &mut r), ..c.clone() });
        out.push(Case { b: map_shape(&c.b, &mut r), ..c.clone() });
        out.push(Case { pose_a: map_pose(&c.pose_a, &mut r, true), ..c.clone() });
        out.push(Case { pose_b: map_pose(&c.pose_b, &mut r, true), ..c.clone() });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{digits, round_to};

    /// Rounding to k significant digits and counting them agree.
    #[test]
    fn digits_of_rounded_numbers() {
        assert_eq!(digits(0.0), 0);
        assert_eq!(digits(1.5), 2);
        assert_eq!(round_to(0.123456, 2), 0.12);
        assert_eq!(digits(round_to(std::f64::consts::PI, 3)), 3);
    }
}
