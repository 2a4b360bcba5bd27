//! What the checks measure against: tolerances tied to the shapes' scale and the precision, support-function
//! bounds that certify a distance or a witness point without trusting GJK, and the closed forms of the pairs that
//! have one (balls, points and boxes).

use gjk::math::Vector;

use crate::gen::Case;
use crate::rng::Rng;
use crate::space::{axpy, dot, norm, scale, sub, Placed};
use crate::spec::{Pose, Rot, Shape};

/// Tolerances of one case, from its precision and sizes.
///
/// * `round` — what rounding alone can do to a world-space identity: 64 ulps of the largest world coordinate
///   involved. A world point carries an ulp of its coordinates from the final pose transform alone; 64 is the
///   library's own touching band (TOUCH_ULPS in gjk/run.rs), which covers the pair-frame arithmetic chains
///   (support, simplex weights, radius offsets) before it.
/// * `acc` — the accuracy the project promises (its standards: exact answers to 1e-9 of the shapes' size in
///   f64), plus `round`. f32 cannot reach 1e-9; there the target is 1024 ulps of the size (2⁻¹³ ≈ 1.2e-4), the
///   slack the library itself allows a run that can make no more progress (STALL_ULPS), so a failure in f32
///   means an error larger than f32 rounding explains.
/// * `unit` — how far a unit normal's length may be from 1: a normalisation rounds to a few ulps; 256 leaves room
///   for the rotation into the world after it.
#[derive(Clone, Copy, Debug)]
pub struct Tol {
    pub eps: f64,
    /// Largest extent of the two shapes (bounding radius about their local origins, radius included).
    pub size: f64,
    /// Magnitude of pair-frame coordinates: both extents plus the distance between the origins.
    pub pair: f64,
    /// Magnitude of world coordinates.
    pub world: f64,
    pub round: f64,
    pub acc: f64,
    pub unit: f64,
}

impl Tol {
    /// The tolerances of a pair (extents `ea`, `eb` about translations `ta`, `tb`).
    pub fn new(eps: f64, ea: f64, eb: f64, ta: &[f64], tb: &[f64]) -> Self {
        let size = ea.max(eb);
        let pair = ea + eb + norm(&sub(tb, ta));
        let world = pair + norm(ta).max(norm(tb));
        let round = 64.0 * eps * world;
        let rel = if eps > 1e-10 { 1024.0 * eps } else { 1e-9 };
        Self { eps, size, pair, world, round, acc: rel * size + round, unit: 256.0 * eps }
    }
}

/// Directions the support-function checks sample: the axes both ways and random unit vectors (fixed per case).
pub fn sample_directions(dim: usize, seed: u64, index: u64) -> Vec<Vec<f64>> {
    let mut rng = Rng::for_case(seed ^ 0x5EED_D1EC, index);
    let mut dirs = Vec::new();
    for i in 0..dim {
        for s in [1.0, -1.0] {
            let mut e = vec![0.0; dim];
            e[i] = s;
            dirs.push(e);
        }
    }
    dirs.extend((0..24).map(|_| rng.unit_vector(dim)));
    dirs
}

/// How far `p` lies outside the shape, as far as the directions can tell: max over n of n·p − h(n) (a lower
/// bound on the distance from p to the shape; ≤ 0 for a point of the shape).
pub fn outside_by<V: Vector>(s: &Placed<'_, V>, p: &[f64], dirs: &[Vec<f64>], extra: &[&[f64]]) -> f64 {
    let mut worst = f64::NEG_INFINITY;
    let mut consider = |n: &[f64]| {
        let len = norm(n);
        if len > 0.0 && len.is_finite() {
            let n = scale(n, 1.0 / len);
            worst = worst.max(dot(&n, p) - s.support_value(&n));
        }
    };
    dirs.iter().for_each(|n| consider(n));
    extra.iter().for_each(|n| consider(n));
    worst
}

/// The separation of A's and B's supporting planes along the unit direction n (from A toward B):
/// min over B of n·b − max over A of n·a. The distance is at least this for every n (a separating-axis bound),
/// and the penetration depth is at most −this.
pub fn gap_along<V: Vector>(a: &Placed<'_, V>, b: &Placed<'_, V>, n: &[f64]) -> f64 {
    -a.support_value(n) - b.support_value(&scale(n, -1.0))
}

/// The best separating-axis bound over the sampled directions and the extra ones: a lower bound on the signed
/// distance (when positive, a proof that the shapes are apart).
pub fn best_gap<V: Vector>(a: &Placed<'_, V>, b: &Placed<'_, V>, dirs: &[Vec<f64>], extra: &[&[f64]]) -> f64 {
    let mut best = f64::NEG_INFINITY;
    for n in dirs.iter().map(|d| d.as_slice()).chain(extra.iter().copied()) {
        let len = norm(n);
        if len > 0.0 && len.is_finite() {
            best = best.max(gap_along(a, b, &scale(n, 1.0 / len)));
        }
    }
    best
}

/// A lower bound on the penetration depth, independent of EPA: the hull of many support points of A − B lies
/// inside A − B, so the distance from the origin to the hull's nearest face bounds the depth (the distance from
/// the origin to A − B's boundary) from below. Directions: a uniform set (512 in 3D, 720 in 2D) plus 128 around
/// each of `around` (the reported normal, the best sampled one). `None` when the hull does not hold the origin.
pub fn depth_lower_bound<V: Vector>(a: &Placed<'_, V>, b: &Placed<'_, V>, around: &[&[f64]], seed: u64) -> Option<f64> {
    let dim = V::DIM;
    let mut dirs: Vec<Vec<f64>> = Vec::new();
    if dim == 2 {
        dirs.extend((0..720).map(|k| {
            let t = std::f64::consts::TAU * k as f64 / 720.0;
            vec![t.cos(), t.sin()]
        }));
    } else {
        // Fibonacci sphere.
        let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
        dirs.extend((0..512).map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / 512.0;
            let r = (1.0 - z * z).sqrt();
            let t = golden * k as f64;
            vec![r * t.cos(), r * t.sin(), z]
        }));
    }
    let mut rng = Rng::new(seed);
    for c in around {
        let len = norm(c);
        if !(len > 0.0) || !len.is_finite() {
            continue;
        }
        for _ in 0..128 {
            let spread = 0.2 * rng.unit() * rng.unit();
            let d = axpy(&scale(c, 1.0 / len), spread, &rng.unit_vector(dim));
            dirs.push(d);
        }
    }
    let points: Vec<Vec<f64>> = dirs
        .iter()
        .filter(|d| norm(d) > 0.0)
        .map(|d| sub(&a.support_point(d), &b.support_point(&scale(d, -1.0))))
        .collect();
    if points.iter().any(|p| p.iter().any(|x| !x.is_finite())) {
        return None;
    }
    let mut nearest = f64::INFINITY;
    if dim == 2 {
        let pts: Vec<[f64; 2]> = points.iter().map(|p| [p[0], p[1]]).collect();
        let h = gjk::shape::hull::hull2(&pts);
        if h.kind != gjk::shape::hull::HullKind::Polygon {
            return None;
        }
        let n = h.vertices.len();
        for i in 0..n {
            let (p, q) = (pts[h.vertices[i]], pts[h.vertices[(i + 1) % n]]);
            let e = [q[0] - p[0], q[1] - p[1]];
            let l = (e[0] * e[0] + e[1] * e[1]).sqrt();
            if l > 0.0 {
                nearest = nearest.min((e[1] * p[0] - e[0] * p[1]) / l);
            }
        }
    } else {
        let pts: Vec<[f64; 3]> = points.iter().map(|p| [p[0], p[1], p[2]]).collect();
        let h = gjk::shape::hull::hull3(&pts);
        if h.kind != gjk::shape::hull::HullKind::Polyhedron {
            return None;
        }
        for f in &h.faces {
            let corner = |k: usize| pts[h.vertices[f[k % f.len()] as usize]];
            // Newell's normal of the face cycle (outward: counter-clockwise seen from outside).
            let mut n = [0.0f64; 3];
            for k in 0..f.len() {
                let (p, q) = (corner(k), corner(k + 1));
                n[0] += (p[1] - q[1]) * (p[2] + q[2]);
                n[1] += (p[2] - q[2]) * (p[0] + q[0]);
                n[2] += (p[0] - q[0]) * (p[1] + q[1]);
            }
            let l = norm(&n);
            if l > 0.0 {
                nearest = nearest.min(dot(&n, &corner(0)) / l);
            }
        }
    }
    (nearest > 0.0 && nearest.is_finite()).then_some(nearest)
}

/// The world centre of a ball or a point (and its radius), when the shape is one at the top level.
fn round_thing(s: &Shape, p: &Pose) -> Option<(Vec<f64>, f64)> {
    match s {
        Shape::Ball { radius } => Some((p.translation.clone(), *radius)),
        Shape::Point { at } => Some((transform(p, at), 0.0)),
        _ => None,
    }
}

/// The exact signed distance of the pairs that have a closed form: ball or point against ball, point or box.
/// Computed in f64 from the description (an f32 case differs from it by its rounding, inside `acc`).
pub fn closed_form(case: &Case) -> Option<f64> {
    let (a, b) = (round_thing(&case.a, &case.pose_a), round_thing(&case.b, &case.pose_b));
    if let (Some((ca, ra)), Some((cb, rb))) = (&a, &b) {
        return Some(norm(&sub(cb, ca)) - ra - rb);
    }
    let (ball, half, pose) = match (&a, &case.b, &b, &case.a) {
        (Some(ball), Shape::Cuboid { half_extents }, _, _) => (ball, half_extents, &case.pose_b),
        (_, _, Some(ball), Shape::Cuboid { half_extents }) => (ball, half_extents, &case.pose_a),
        _ => return None,
    };
    let q = inverse_transform(pose, &ball.0);
    let outside: Vec<f64> = q.iter().zip(half).map(|(x, h)| (x.abs() - h).max(0.0)).collect();
    let d = norm(&outside);
    let signed = if d > 0.0 { d } else { -q.iter().zip(half).map(|(x, h)| h - x.abs()).fold(f64::INFINITY, f64::min) };
    Some(signed - ball.1)
}

/// Rotates a vector by a pose's rotation (f64, the quaternion normalised as the library does).
pub fn rotate(r: &Rot, v: &[f64], inverse: bool) -> Vec<f64> {
    match *r {
        Rot::Angle(a) => {
            let a = if inverse { -a } else { a };
            let (s, c) = a.sin_cos();
            vec![c * v[0] - s * v[1], s * v[0] + c * v[1]]
        }
        Rot::Quat(q) => {
            let n = (q.iter().map(|x| x * x).sum::<f64>()).sqrt();
            let (x, y, z, w) = (q[0] / n, q[1] / n, q[2] / n, q[3] / n);
            let (x, y, z) = if inverse { (-x, -y, -z) } else { (x, y, z) };
            // v' = v + 2w (u × v) + 2 u × (u × v), u = (x, y, z).
            let u = [x, y, z];
            let cross = |a: &[f64], b: &[f64]| {
                vec![a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
            };
            let t = scale(&cross(&u, v), 2.0);
            axpy(&axpy(v, w, &t), 1.0, &cross(&u, &t))
        }
    }
}

/// A local point to the world.
pub fn transform(p: &Pose, local: &[f64]) -> Vec<f64> {
    axpy(&rotate(&p.rotation, local, false), 1.0, &p.translation)
}

/// A world point to the pose's frame.
pub fn inverse_transform(p: &Pose, world: &[f64]) -> Vec<f64> {
    rotate(&p.rotation, &sub(world, &p.translation), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rotation used by the closed forms agrees with a quarter turn done by hand.
    #[test]
    fn quaternion_rotation_is_right_handed() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let r = rotate(&Rot::Quat([0.0, 0.0, h, h]), &[1.0, 0.0, 0.0], false);
        assert!(norm(&sub(&r, &[0.0, 1.0, 0.0])) < 1e-15);
        let back = rotate(&Rot::Quat([0.0, 0.0, h, h]), &r, true);
        assert!(norm(&sub(&back, &[1.0, 0.0, 0.0])) < 1e-15);
        let r2 = rotate(&Rot::Angle(std::f64::consts::FRAC_PI_2), &[1.0, 0.0], false);
        assert!(norm(&sub(&r2, &[0.0, 1.0])) < 1e-15);
    }
}
