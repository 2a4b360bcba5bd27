//! Separating axes for two boxes, and the line of centres for two point cores: the exact fast paths of
//! [`super::intersects`] for a pair of [`Cuboid`]s and for a pair of balls (or points).
//!
//! Two convex polytopes are disjoint exactly when some axis separates their projections, and for two boxes it
//! suffices to try the normals of the faces of their Minkowski difference: the DIM face normals of each box and,
//! in 3D, the 9 cross products of an edge direction of A with one of B. GJK needs ~5 support rounds to decide a
//! nearly touching pair; these axes decide it in a few dozen multiplications.
//!
//! The answer must be the one [`super::distance`] gives, which counts cores within
//! `touch_distance(scale)` (run.rs) of each other as touching. So an axis only *decides* when it is clear of
//! that threshold by a margin that also covers the rounding of both computations; a pair that is neither
//! separated nor overlapping by more than the margin (boxes touching to within rounding) is left to the
//! distance query's own GJK run.
//!
//! [`Cuboid`]: crate::shape::Cuboid

use super::run::touch_distance;
use crate::math::{Iso, Real, Rotation, Vector};

/// Decides whether the box of half-extents `ha` at the identity and the box of half-extents `hb` at `rel` (B's
/// pose in A's frame, the pair-local frame of every query) overlap or touch: `Some(answer)` when every axis is
/// clear of the touching threshold, `None` when the pair touches to within rounding and GJK must decide.
///
/// Each candidate axis n (not normalised) gives the separation of the projections,
/// `f(n) = |n·t| − Σᵢ haᵢ |nᵢ| − Σₖ hbₖ |n·cₖ|`, where t is B's centre and cₖ the columns of B's rotation: the
/// half-widths of A and B along n are their support functions. `f(n) / |n|` is a lower bound on the distance
/// when positive, and the least of `−f(n) / |n|` over the axes is the penetration depth when all are negative.
/// Both are compared with the margin scaled by |n|₁ ≥ |n|₂, which needs no square root and keeps axes of any
/// length (a near-parallel edge pair gives a short cross product) on the same footing.
#[inline]
pub(crate) fn boxes<V: Vector>(ha: V, hb: V, rel: &Iso<V>) -> Option<bool> {
    let zero = V::Real::ZERO;
    // Components as arrays, read with the loop indices below (the third is unused in 2D).
    let coords = |v: V| {
        let mut out = [zero; 3];
        for (i, o) in out.iter_mut().enumerate().take(V::DIM) {
            *o = v.get(i);
        }
        out
    };
    let (t, ha, hb) = (coords(rel.translation), coords(ha), coords(hb));
    // B's rotation as columns c[k] (c[k][i] its i-th component), from the same rotation GJK's support calls
    // apply, so that both see the same box B.
    let mut c = [[zero; 3]; 3];
    for (k, ck) in c.iter_mut().enumerate().take(V::DIM) {
        *ck = coords(rel.rotation.rotate(V::axis(k)));
    }
    let dim = V::DIM;
    let max_abs = |v: &[V::Real; 3]| v[..dim].iter().fold(zero, |m, x| m.max(x.abs()));
    // A bound on the coordinates of the points of A − B: |a|∞ ≤ max haᵢ, |b − t|∞ ≤ Σₖ hbₖ |cₖ|∞. GJK's touching
    // threshold is touch_distance of its simplex's largest coordinate, so at most touch_distance(scale). Twice
    // that leaves the other half for rounding: the axes here and GJK's support points and |v| each err by a few
    // ulps of `scale`, ~10 at most, against the 64 of the threshold.
    let scale = (0..dim).fold(max_abs(&ha) + max_abs(&t), |s, k| s + hb[k] * max_abs(&c[k]));
    let margin = touch_distance(scale) * V::Real::from_f64(2.0);
    let mut deep = true;
    // One axis: `true` to stop with "separated"; otherwise records whether it overlaps by more than the margin.
    let mut separates = |f: V::Real, norm1: V::Real| {
        let m = margin * norm1;
        deep &= f < -m;
        f > m
    };
    // A's face normals eᵢ: |n·t| = |tᵢ|, A's half-width haᵢ, B's Σₖ hbₖ |cₖᵢ|.
    for i in 0..dim {
        let wb = (0..dim).fold(zero, |s, k| s + hb[k] * c[k][i].abs());
        if separates(t[i].abs() - ha[i] - wb, V::Real::ONE) {
            return Some(false);
        }
    }
    // B's face normals cₗ, with B's half-width from all its columns (cₗ·cₖ is δₗₖ up to rounding, and not assumed).
    let dot = |u: &[V::Real; 3], v: &[V::Real; 3]| (0..dim).fold(zero, |s, i| s + u[i] * v[i]);
    for cl in &c[..dim] {
        let wa = (0..dim).fold(zero, |s, i| s + ha[i] * cl[i].abs());
        let wb = (0..dim).fold(zero, |s, k| s + hb[k] * dot(cl, &c[k]).abs());
        let norm1 = cl[..dim].iter().fold(zero, |s, x| s + x.abs());
        if separates(dot(cl, &t).abs() - wa - wb, norm1) {
            return Some(false);
        }
    }
    if dim == 3 {
        // Edge pairs: n = eᵢ × cⱼ = (0 at i, −cⱼ[i₂] at i₁, cⱼ[i₁] at i₂), with i₁, i₂ the next axes cyclically.
        // These components are cⱼ's own, so n is exact however short it is, and every term below errs relative
        // to |n|. n·cⱼ = 0 (B's edge j projects to a point), and for the other two columns
        // n·cₖ = cⱼ[i₁]cₖ[i₂] − cⱼ[i₂]cₖ[i₁].
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (k1, k2) = ((j + 1) % 3, (j + 2) % 3);
                let (p, q) = (c[j][i1], c[j][i2]);
                let norm1 = p.abs() + q.abs();
                if norm1 == zero {
                    // Exactly parallel edges span no face of A − B: the face normals already cover this axis.
                    continue;
                }
                let nt = p * t[i2] - q * t[i1];
                let wa = ha[i1] * q.abs() + ha[i2] * p.abs();
                let wb =
                    hb[k1] * (p * c[k1][i2] - q * c[k1][i1]).abs() + hb[k2] * (p * c[k2][i2] - q * c[k2][i1]).abs();
                if separates(nt.abs() - wa - wb, norm1) {
                    return Some(false);
                }
            }
        }
    }
    deep.then_some(true)
}

/// Decides whether two point cores `ca` (at `pose_a`) and `cb` (at `pose_b`), rounded by radii summing to `radii`,
/// overlap or touch, in world coordinates: the line of centres is the one separating axis two balls have.
/// `Some(answer)` when the centres' distance is clear of `radii` by a margin covering GJK's touching threshold
/// (`touch_distance` of the pair's difference) and the rounding of both computations (the world coordinates may
/// be far larger than the gap); `None` otherwise, for the distance query's own run to decide, so that
/// `intersects` and `distance(..).intersecting` always agree.
///
/// Ball cores sit at their shape's origin, whose world position is the pose's translation with no rotation to
/// apply: that is most of what this saves over the pair frame (3D f64: two quaternion products).
#[inline]
pub(crate) fn points<V: Vector>(ca: V, pose_a: &Iso<V>, cb: V, pose_b: &Iso<V>, radii: V::Real) -> Option<bool> {
    let world = |c: V, pose: &Iso<V>| if c == V::zero() { pose.translation } else { pose.transform_point(c) };
    let (a, b) = (world(ca, pose_a), world(cb, pose_b));
    let d2 = (a - b).length_squared();
    // GJK's threshold is 64 ε of the difference's largest coordinate, at most |a − b| + the rounding of forming
    // it; the margin takes 16 times that, of the world coordinates, the radii and the centres' distance.
    let scale = a.max_abs().max(b.max_abs()).max(radii).max(d2.sqrt());
    let margin = touch_distance(scale) * V::Real::from_f64(16.0);
    let (outer, inner) = (radii + margin, radii - margin);
    if !d2.is_finite() || !scale.is_finite() {
        None
    } else if d2 > outer * outer {
        Some(false)
    } else if inner > V::Real::ZERO && d2 < inner * inner {
        Some(true)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::boxes;
    use crate::math::{DQuat, DVec2, DVec3, Iso, Rot2};

    /// The axes decide (no GJK fallback) as soon as the pair is clear of the touching threshold by a hair: a gap
    /// or an overlap of 1e-9 of the size in f64, a corner on a face, for turned boxes in 3D and 2D.
    #[test]
    fn decided_away_from_touching() {
        let (ha, hb) = (DVec3::new(0.9, 0.6, 0.4), DVec3::new(0.5, 0.7, 0.3));
        let q = DQuat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0);
        // B's corner deepest along −x, put at the centre of A's face x = 0.9 (then moved by the gap).
        let l = q.inverse() * -DVec3::X;
        let corner = q * DVec3::new(hb.x.copysign(l.x), hb.y.copysign(l.y), hb.z.copysign(l.z));
        for (g, want) in [(1e-9, false), (-1e-9, true), (1e-3, false), (-0.3, true)] {
            let rel = Iso::new(q, DVec3::new(ha.x + g, 0.0, 0.0) - corner);
            assert_eq!(boxes(ha, hb, &rel), Some(want), "3D gap {g}");
        }
        assert_eq!(boxes(ha, hb, &Iso::new(q, DVec3::ZERO)), Some(true));
        let r = Rot2::<f64>::from_angle(0.7);
        let (ha, hb) = (DVec2::new(0.9, 0.6), DVec2::new(0.5, 0.7));
        let wb = hb.x * r.cos.abs() + hb.y * r.sin.abs();
        for (g, want) in [(1e-9, false), (-1e-9, true)] {
            assert_eq!(boxes(ha, hb, &Iso::new(r, DVec2::new(ha.x + wb + g, 0.0))), Some(want), "2D gap {g}");
        }
    }

    /// Exactly touching or non-finite: left to GJK.
    #[test]
    fn undecided_when_touching_or_not_finite() {
        let h = DVec3::splat(0.5);
        assert_eq!(boxes(h, h, &Iso::from_translation(DVec3::new(1.0, 0.3, 0.0))), None);
        assert_eq!(boxes(h, h, &Iso::from_translation(DVec3::new(f64::NAN, 0.0, 0.0))), None);
    }
}
