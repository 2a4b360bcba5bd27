//! Exact ray casts by intervals. A convex shape meets the line o + t·d in one interval [t_in, t_out]; the pieces
//! here (a round region, a slab, a quadratic's sign) give theirs, a shape intersects them (box, cylinder, cone,
//! ellipsoid) or unites them (capsule), and [`decide`] turns the interval into the ray's answer. Used by the
//! shapes' `ray_cast_local` fast paths; polytopes clip in f64 ([`super::ray64`]).

use crate::math::{Real, Vector};

/// Where the line enters and leaves a shape, with the outward normals there.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<V: Vector> {
    pub t_in: V::Real,
    pub n_in: V,
    pub t_out: V::Real,
    pub n_out: V,
}

/// Where the line q + t·e meets the ball |p| ≤ r: the interval of t and the two points there (relative to the
/// centre), `None` when the line misses; the whole line when e = 0 and q is inside.
///
/// Solved about the line's closest point to the centre, the foot f = q + t_c e with t_c = −(q·e)/(e·e): the
/// line is inside while |f|² + (t − t_c)² e·e ≤ r², so t = t_c ± w with w² = (r − |f|)(r + |f|) / e·e. The foot is
/// a vector computed directly (and once more made perpendicular to e), so a grazing line — |f| near r — keeps
/// its digits, where the discriminant (q·e)² − e·e (q·q − r²) of the textbook quadratic cancels them away; the
/// points f ∓ w e carry them on to the normals.
///
/// Sizes whose squares would overflow or underflow (a ball of radius 1e308, a ray 1e-200 long) are first
/// brought near 1: q and r are divided by the larger of |q| and r, e by its own size, and t and the points
/// scaled back.
pub(crate) fn round<V: Vector>(q: V, e: V, r: V::Real) -> Option<RoundSpan<V>> {
    // The squares themselves say whether they are in range (they are needed anyway).
    let a = e.length_squared();
    // (A zero square is fine only for a zero vector: a tiny one underflows to it.)
    let fine = |v2: V::Real, zero: bool| zero || square_in_range(v2);
    if fine(a, e == V::zero()) && fine(q.length_squared(), q == V::zero()) && fine(r * r, r == V::Real::ZERO) {
        return round_in_range(q, e, r, a);
    }
    let (size, speed) = (q.max_abs().max(r), e.max_abs());
    if !(size > V::Real::ZERO) || !(speed > V::Real::ZERO) {
        return round_in_range(q, e, r, a);
    }
    let (q, r, e) = (q * (V::Real::ONE / size), r / size, e * (V::Real::ONE / speed));
    let s = round_in_range(q, e, r, e.length_squared())?;
    // t = t' · size / speed, as the unit of q + t e changed from (size, speed) to (1, 1); points by size.
    let back = |t: V::Real| t * (size / speed);
    Some(RoundSpan { t: (back(s.t.0), back(s.t.1)), p: (s.p.0 * size, s.p.1 * size) })
}

/// The answer of [`round`]: entry and exit times, and the points there relative to the centre.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RoundSpan<V: Vector> {
    pub t: (V::Real, V::Real),
    pub p: (V, V),
}

/// The unit vector along v (zero for v = 0), also where |v|² would overflow or underflow.
pub(crate) fn direction<V: Vector>(v: V) -> V {
    let n = v.normalize_or_zero();
    if n != V::zero() || v == V::zero() {
        return n;
    }
    let m = v.max_abs();
    if !(m > V::Real::ZERO) || !m.is_finite() {
        return V::zero();
    }
    (v * (V::Real::ONE / m)).normalize_or_zero()
}

/// The range of magnitudes x for which x and x² are far from overflow and underflow in this precision.
fn comfortable_range<R: Real>() -> (R, R) {
    if R::EPSILON.to_f64() < 1e-10 {
        (R::from_f64(1e-100), R::from_f64(1e100))
    } else {
        (R::from_f64(1e-15), R::from_f64(1e15))
    }
}

/// True when x and its square are far from overflow and underflow in this precision (or x is zero).
pub(crate) fn comfortable<R: Real>(x: R) -> bool {
    let (small, big) = comfortable_range::<R>();
    x == R::ZERO || (x >= small && x <= big)
}

/// [`comfortable`] for a number other than zero, given by its square (a zero square is an underflow).
pub(crate) fn square_in_range<R: Real>(x2: R) -> bool {
    let (small, big) = comfortable_range::<R>();
    x2 >= small * small && x2 <= big * big
}

/// [`round`] when the squares are in range; `a` = e·e.
fn round_in_range<V: Vector>(q: V, e: V, r: V::Real, a: V::Real) -> Option<RoundSpan<V>> {
    let zero = V::Real::ZERO;
    if !(a > zero) {
        let inf = V::Real::INFINITY;
        return (q.length_squared() <= r * r).then_some(RoundSpan { t: (-inf, inf), p: (q, q) });
    }
    let (foot, tc) = foot(q, e, a);
    let m = foot.length();
    if m > r {
        return None;
    }
    let w = ((r - m) * (r + m) / a).sqrt();
    Some(RoundSpan { t: (tc - w, tc + w), p: (foot - e * w, foot + e * w) })
}

/// The closest point to the origin of the line q + t·e (e·e = a > 0), and its t. The vector is formed directly:
/// its length is then good to the rounding of q's coordinates, however close the line passes to a sphere's edge.
///
/// When the origin is far from the line's start (|q| ≫ |foot|), q + e·t_c cancels: each coordinate keeps an
/// error of a few ulps of |q|, and along a nearly axis-aligned e that error lies mostly along the line. One more
/// projection removes the part along e, leaving only what is across it, where the foot is measured — an f32 ray
/// from 5.8e6 away crossing a 0.46-thick, 1.9e6-long ellipse (1.3e7 radii away in its unit-ball frame) had its
/// foot 0.6 off and missed it (gjk-fuzz seed 3 case 2846).
pub(crate) fn foot<V: Vector>(q: V, e: V, a: V::Real) -> (V, V::Real) {
    let tc = -q.dot(e) / a;
    let f = q + e * tc;
    let fix = -f.dot(e) / a;
    (f + e * fix, tc + fix)
}

/// Where a t² + 2 b t + c ≤ 0, the roots taken without cancellation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Quadratic<R> {
    /// Nowhere.
    Empty,
    /// Between the two values.
    Between(R, R),
    /// Up to the first value and from the second on (a < 0).
    Outside(R, R),
    /// Everywhere.
    All,
}

pub(crate) fn quadratic<R: Real>(a: R, b: R, c: R) -> Quadratic<R> {
    let zero = R::ZERO;
    if a == zero {
        // 2 b t + c ≤ 0.
        return if b > zero {
            Quadratic::Outside(-c / (R::TWO * b), R::INFINITY)
        } else if b < zero {
            Quadratic::Outside(-R::INFINITY, -c / (R::TWO * b))
        } else if c <= zero {
            Quadratic::All
        } else {
            Quadratic::Empty
        };
    }
    let disc = b * b - a * c;
    if !(disc >= zero) {
        return if a > zero { Quadratic::Empty } else { Quadratic::All };
    }
    let k = if b >= zero { -(b + disc.sqrt()) } else { -b + disc.sqrt() };
    let (t0, t1) = if k != zero { (k / a, c / k) } else { (zero, zero) };
    let (lo, hi) = (t0.min(t1), t0.max(t1));
    if a > zero {
        Quadratic::Between(lo, hi)
    } else {
        Quadratic::Outside(lo, hi)
    }
}

/// The t for which lo ≤ o + t·d ≤ hi (one coordinate).
pub(crate) fn slab<R: Real>(o: R, d: R, lo: R, hi: R) -> Option<(R, R)> {
    if d == R::ZERO {
        return (lo <= o && o <= hi).then_some((-R::INFINITY, R::INFINITY));
    }
    let (t1, t2) = ((lo - o) / d, (hi - o) / d);
    Some((t1.min(t2), t1.max(t2)))
}

/// Where the line o + t·d meets the box |pᵢ| ≤ hᵢ, by slabs: the line is inside slab i between its two crossings;
/// the last entry and the first exit bound the stretch inside the box, and the slab crossed there gives the
/// normal. `None` when the line misses.
pub(crate) fn box_span<V: Vector>(h: V, o: V, d: V) -> Option<Span<V>> {
    let mut s = Span { t_in: -V::Real::INFINITY, n_in: V::zero(), t_out: V::Real::INFINITY, n_out: V::zero() };
    for i in 0..V::DIM {
        let (enter, leave) = slab(o.get(i), d.get(i), -h.get(i), h.get(i))?;
        // Entering through the face the ray faces (the −sign(d) side), leaving through the other.
        let side = if d.get(i) > V::Real::ZERO { V::axis(i) } else { -V::axis(i) };
        if enter > s.t_in {
            (s.t_in, s.n_in) = (enter, -side);
        }
        if leave < s.t_out {
            (s.t_out, s.n_out) = (leave, side);
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
