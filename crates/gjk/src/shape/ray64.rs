//! Exact ray casts of convex polytopes, computed in f64 whatever the shape's precision.
//!
//! A polytope's facets are planes through its vertices; in f32 a plane's normal is only good to ~1e-7 rad, which
//! at 1e6 from its vertices moves it by 0.1 — more than a needle's thickness. The vertices themselves are exact
//! in f64, so the planes are built there and the ray is clipped there, and only the answer is rounded to the
//! shape's precision. Shapes without an inside (a 2D segment, a flat 3D polygon) are met where the ray crosses
//! them; points and 3D segments, which a ray meets only within rounding, are left to the GJK cast.

#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
/// A point or vector in f64 (2D ones have z = 0).
pub(crate) type P = [f64; 3];

pub(crate) fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: P, b: P) -> P {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

pub(crate) fn scale(a: P, s: f64) -> P {
    [a[0] * s, a[1] * s, a[2] * s]
}

pub(crate) fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a` divided by its length (computed without overflow), or `None` for a zero vector.
pub(crate) fn unit(a: P) -> Option<P> {
    let m = a[0].abs().max(a[1].abs()).max(a[2].abs());
    if !(m > 0.0) || !m.is_finite() {
        return None;
    }
    let s = scale(a, 1.0 / m);
    Some(scale(s, 1.0 / dot(s, s).sqrt()))
}

/// Where the line o + t·d enters and leaves a convex set, with the outward normals there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span64 {
    pub t_in: f64,
    pub n_in: P,
    pub t_out: f64,
    pub n_out: P,
}

/// The t for which o + t·d lies in every half-space n·x ≤ h (outward unit normals): the interval, with the
/// normal of the plane crossed last on the way in and first on the way out; `None` if empty.
pub(crate) fn halfspaces(planes: &[(P, f64)], o: P, d: P) -> Option<Span64> {
    let mut s = Span64 { t_in: f64::NEG_INFINITY, n_in: [0.0; 3], t_out: f64::INFINITY, n_out: [0.0; 3] };
    for &(n, h) in planes {
        // Inside this half-space while t·(n·d) ≤ h − n·o.
        let (gap, rate) = (h - dot(n, o), dot(n, d));
        if rate == 0.0 {
            if gap < 0.0 {
                return None;
            }
            continue;
        }
        let t = gap / rate;
        if rate < 0.0 {
            if t > s.t_in {
                (s.t_in, s.n_in) = (t, n);
            }
        } else if t < s.t_out {
            (s.t_out, s.n_out) = (t, n);
        }
    }
    (s.t_in <= s.t_out).then_some(s)
}

/// The ray o + t·d (2D, z = 0) against the segment ab: where it crosses it, as a span of one time with the
/// segment's normal facing the ray. `Some(None)` for a miss, `None` when the ray runs along the segment's line
/// (then only rounding decides: the GJK cast answers).
pub(crate) fn crossing_segment(a: P, b: P, o: P, d: P) -> Option<Option<Span64>> {
    let e = sub(b, a);
    let perp = |u: P, v: P| u[0] * v[1] - u[1] * v[0];
    let denom = perp(d, e);
    let ao = sub(a, o);
    if denom == 0.0 {
        return if perp(ao, e) == 0.0 { None } else { Some(None) };
    }
    // o + t d = a + s e: t = (ao × e) / (d × e), s = (ao × d) / (d × e).
    let (t, s) = (perp(ao, e) / denom, perp(ao, d) / denom);
    if !(0.0..=1.0).contains(&s) {
        return Some(None);
    }
    let n = unit([-e[1], e[0], 0.0])?;
    let n = if dot(n, d) > 0.0 { scale(n, -1.0) } else { n };
    Some(Some(Span64 { t_in: t, n_in: n, t_out: t, n_out: scale(n, -1.0) }))
}

/// The ray o + t·d against the flat convex polygon of `len` vertices `at(0..len)` (3D, in cyclic order): where it
/// crosses the polygon's plane inside the polygon, with the plane's normal facing the ray. `Some(None)` for a
/// miss, `None` when the ray runs in the plane (the GJK cast answers).
pub(crate) fn crossing_polygon(len: usize, at: impl Fn(usize) -> P, o: P, d: P) -> Option<Option<Span64>> {
    // Newell's normal: the polygon's area vector, summed over its edges (no three points chosen, no cancellation
    // from a thin triangle).
    let mut area = [0.0; 3];
    let mut centre = [0.0; 3];
    for i in 0..len {
        area = add(area, cross(at(i), at((i + 1) % len)));
        centre = add(centre, at(i));
    }
    let n = unit(area)?;
    let centre = scale(centre, 1.0 / len as f64);
    let rate = dot(n, d);
    let gap = dot(n, sub(centre, o));
    if rate == 0.0 {
        return if gap == 0.0 { None } else { Some(None) };
    }
    let t = gap / rate;
    let p = add(o, scale(d, t));
    // Inside every edge: the edge's in-plane outward normal (e × n for a counter-clockwise ring about n) must not
    // point at p, to within the rounding of the coordinates.
    let size = (0..len).fold(0.0f64, |m, i| {
        let q = at(i);
        m.max(q[0].abs()).max(q[1].abs()).max(q[2].abs())
    });
    let slack = 16.0 * f64::EPSILON * (size + p[0].abs().max(p[1].abs()).max(p[2].abs()));
    for i in 0..len {
        let q = at(i);
        let e = sub(at((i + 1) % len), q);
        let Some(m) = unit(cross(e, n)) else { continue };
        if dot(m, sub(p, q)) > slack {
            return Some(None);
        }
    }
    let n = if rate > 0.0 { scale(n, -1.0) } else { n };
    Some(Some(Span64 { t_in: t, n_in: n, t_out: t, n_out: scale(n, -1.0) }))
}
