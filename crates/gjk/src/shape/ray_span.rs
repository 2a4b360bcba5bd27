//! Exact ray casts by intervals. A convex shape meets the line o + t·d in one interval [t_in, t_out]; the pieces
//! here (a round region, a slab, a set of half-spaces) give theirs, a shape intersects them (box, cylinder, convex
//! polytope) or unites them (capsule), and [`decide`] turns the interval into the ray's answer. Used by the shapes'
//! `ray_cast_local` fast paths.

use crate::math::{Real, Vector};

/// Where the line enters and leaves a shape, with the outward normals there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<V: Vector> {
    pub t_in: V::Real,
    pub n_in: V,
    pub t_out: V::Real,
    pub n_out: V,
}

/// The t for which |q + t·e|² ≤ r², by the quadratic e·e t² + 2 (q·e) t + (q·q − r²) ≤ 0 with its roots taken
/// in the forms that do not cancel. `None` when the line misses; the whole line when e = 0 and q is inside.
pub(crate) fn round<V: Vector>(q: V, e: V, r: V::Real) -> Option<(V::Real, V::Real)> {
    let zero = V::Real::ZERO;
    let (a, b, c) = (e.length_squared(), q.dot(e), q.length_squared() - r * r);
    if !(a > zero) {
        return (c <= zero).then_some((-V::Real::INFINITY, V::Real::INFINITY));
    }
    let disc = b * b - a * c;
    if disc < zero {
        return None;
    }
    // k = −(b + sign(b)·√disc) has no cancellation; the roots are k / a and c / k.
    let k = if b >= zero { -(b + disc.sqrt()) } else { -b + disc.sqrt() };
    let (t0, t1) = (k / a, if k != zero { c / k } else { zero });
    Some((t0.min(t1), t0.max(t1)))
}

/// The t for which lo ≤ o + t·d ≤ hi (one coordinate).
pub(crate) fn slab<R: Real>(o: R, d: R, lo: R, hi: R) -> Option<(R, R)> {
    if d == R::ZERO {
        return (lo <= o && o <= hi).then_some((-R::INFINITY, R::INFINITY));
    }
    let (t1, t2) = ((lo - o) / d, (hi - o) / d);
    Some((t1.min(t2), t1.max(t2)))
}

/// The t for which o + t·d lies in every half-space n·x ≤ h (outward unit normals n): a convex polytope's interval,
/// with the normal of the plane crossed last on the way in and first on the way out.
pub(crate) fn halfspaces<V: Vector>(planes: impl Iterator<Item = (V, V::Real)>, o: V, d: V) -> Option<Span<V>> {
    let zero = V::Real::ZERO;
    let mut s = Span { t_in: -V::Real::INFINITY, n_in: V::zero(), t_out: V::Real::INFINITY, n_out: V::zero() };
    for (n, h) in planes {
        // Inside this half-space while t·(n·d) ≤ h − n·o.
        let (gap, rate) = (h - n.dot(o), n.dot(d));
        if rate == zero {
            // Parallel to the plane: inside it for every t, or for none.
            if gap < zero {
                return None;
            }
            continue;
        }
        let t = gap / rate;
        if rate < zero {
            // Heading in: inside from t on.
            if t > s.t_in {
                (s.t_in, s.n_in) = (t, n);
            }
        } else if t < s.t_out {
            (s.t_out, s.n_out) = (t, n);
        }
    }
    Some(s)
}

/// The ray's answer: the entry if it lies ahead, else (starting inside) t = 0 for a solid shape — with the exit
/// normal when the start is on the surface heading out, none when strictly inside — or the exit for a hollow one.
pub(crate) fn decide<V: Vector>(span: Option<Span<V>>, max_toi: V::Real, solid: bool) -> Option<(V::Real, V)> {
    let zero = V::Real::ZERO;
    let s = span.filter(|s| s.t_in <= s.t_out && s.t_out >= zero)?;
    if s.t_in >= zero {
        return (s.t_in <= max_toi).then_some((s.t_in + zero, s.n_in));
    }
    if solid {
        return Some((zero, if s.t_out == zero { s.n_out } else { V::zero() }));
    }
    (s.t_out <= max_toi).then_some((s.t_out, s.n_out))
}

/// `v` with coordinate `axis` zeroed.
pub(crate) fn without<V: Vector>(v: V, axis: usize) -> V {
    V::from_fn(|i| if i == axis { V::Real::ZERO } else { v.get(i) })
}
