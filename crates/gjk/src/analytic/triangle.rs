//! Penetration of a capsule (a segment core with a radius) or a box into one triangle of a mesh (3D), in closed
//! form: what GJK and EPA find on the pair, without their loops. A mesh's contact and penetration queries run it
//! on every triangle near the shape (callgrind, a box resting on the monastery: EPA on the touching triangles was
//! 46 % of the contact query, GJK on the candidates 18 %).
//!
//! Everything is computed in the shape's frame (small numbers even when the mesh sits 1e4 away; a box's faces are
//! the coordinate planes there).
//!
//! Capsule, two cases:
//! - **Cores apart.** The closest points of a segment and a triangle that do not meet are either an end of the
//!   segment and its foot inside the triangle, or the closest points of the segment and one of the triangle's
//!   edges: the least of those five candidates is the exact distance, its direction the normal.
//! - **Core crossing the triangle.** The cores' Minkowski difference is a prism: the triangle swept along the
//!   segment. Its faces are the two caps (the triangle's normal) and three sides (each edge crossed with the
//!   segment), so the least overlap over those four axes is the exact penetration depth of the cores (a
//!   separating-axis test), and the capsule's is that plus its radius, along the same axis. The triangle's normal
//!   is tried first and kept on ties, as EPA keeps the face. The witness points are where the segment, moved out
//!   along the normal by the depth, touches the triangle (the cores-apart closest points, at distance zero).
//!
//! Box: the separating-axis test over thirteen axes (see [`cuboid`]). Overlapping, the least overlap is the exact
//! depth; an axis separating them by more than the bound rejects the triangle at once; apart within the bound (the
//! exact distance needs closest points, which the test does not give) the general path decides.
//!
//! Configurations where the normal is not defined by these formulas go to the general path: a degenerate
//! triangle, capsule cores touching (distance zero to rounding, so no direction), a segment lying in the
//! triangle's plane and meeting it.

use crate::epa::Penetration;
use crate::manifold::{box_triangle, finish, segment_triangle, Contact, Manifold, TRIANGLE_CLIP};
use crate::math::{Iso, Real, Vector};
use crate::shape::SupportMap;

/// What the closed form decided for one triangle.
pub(crate) enum TriangleContact<V: Vector> {
    /// The penetration answer, as EPA gives it: signed distance, normal from the triangle toward the shape, the
    /// triangle's point and the shape's point with `point_b − point_a = distance · normal`.
    Answer(Penetration<V>),
    /// The shape lies farther from the triangle than the bound.
    Farther,
    /// No closed form here: the general path (GJK, EPA) decides.
    General,
}

/// A box or a capsule (`b`, posed by `pb`) seen from a composite's frame (posed by `pc`), prepared once per query so
/// that each triangle costs three differences and nine products to bring into the shape's frame (subtracted before
/// rotating, so a mesh far from the origin keeps its digits), and its answer is turned back into the world.
pub(crate) struct TriangleProbe<V: Vector> {
    core: Core<V>,
    /// The shape's origin in the composite's frame.
    origin: V,
    /// The rotation from the composite's frame into the shape's, by rows.
    rows: [V; 3],
    /// The shape's rotation into the world, by columns (the shape's axes in the world): an answer's three vectors
    /// are carried out by nine products each rather than the quaternion's.
    columns: [V; 3],
    /// The shape's pose (world).
    pb: Iso<V>,
}

/// What the probe's shape is, in its own frame.
#[derive(Clone, Copy)]
enum Core<V: Vector> {
    /// A segment core with a radius (a capsule), and the box of the core grown by the radius (which holds the
    /// capsule) as its lowest and highest corners.
    Segment(V, V, V::Real, (V, V)),
    /// A box of these half-extents.
    Cuboid(V),
}

impl<V: Vector> TriangleProbe<V> {
    /// The probe for `b` against a composite posed by `pc`; `None` when `b` is neither a box nor has a segment core,
    /// or outside 3D.
    #[inline]
    pub(crate) fn new<B: SupportMap<V> + ?Sized>(b: &B, pb: &Iso<V>, pc: &Iso<V>) -> Option<Self> {
        if V::DIM != 3 {
            return None;
        }
        let core = if let Some((p0, p1)) = b.segment_core() {
            let r = b.radius();
            let grow = V::from_fn(|_| r);
            Core::Segment(p0, p1, r, (p0.min_elem(p1) - grow, p0.max_elem(p1) + grow))
        } else {
            Core::Cuboid(b.cuboid_half_extents()?)
        };
        let origin = pc.inverse_transform_point(pb.translation);
        // Row i of the inverse rotation is the shape's axis i seen from the composite.
        let rows = [0, 1, 2].map(|i| pc.inverse_transform_vector(pb.transform_vector(V::axis(i))));
        let columns = [0, 1, 2].map(|i| pb.transform_vector(V::axis(i)));
        Some(Self { core, origin, rows, columns, pb: *pb })
    }

    /// A point of the composite's frame in the shape's.
    #[inline(always)]
    fn local(&self, q: V) -> V {
        let d = q - self.origin;
        V::from_fn(|i| self.rows[i].dot(d))
    }

    /// The penetration of the shape into the triangle with corners `tri` (composite frame); `max_distance` as for
    /// the general query (a pair farther apart is [`TriangleContact::Farther`]).
    pub(crate) fn penetration(&self, tri: [V; 3], max_distance: Option<V::Real>) -> TriangleContact<V> {
        let t = [self.local(tri[0]), self.local(tri[1]), self.local(tri[2])];
        let local = match self.core {
            Core::Segment(p0, p1, r, reach) => capsule(t, (p0, p1), r, reach, max_distance),
            Core::Cuboid(h) => cuboid(t, h, max_distance),
        };
        let local = match local {
            Ok(Some(local)) => local,
            Ok(None) => return TriangleContact::General,
            Err(farther) => return farther,
        };
        if max_distance.is_some_and(|m| local.distance > m) {
            return TriangleContact::Farther;
        }
        let world = |v: V| self.columns[0] * v.get(0) + self.columns[1] * v.get(1) + self.columns[2] * v.get(2);
        let normal = world(local.normal);
        let point_a = world(local.on_triangle) + self.pb.translation;
        let point_b = point_a + normal * local.distance;
        TriangleContact::Answer(Penetration::closed_form(local.distance, V::Real::ZERO, normal, point_a, point_b))
    }
}

impl<V: Vector> TriangleProbe<V> {
    /// The contact manifold of the shape on the triangle `tri` (composite frame) for the penetration answer `p`
    /// (world, whichever path found it, its normal perhaps a mesh's face normal put in place of a ghost), with the
    /// contacts within `prediction`: the general clipper's rules on features known without asking the shape (see
    /// `crate::manifold::box_triangle`), in the shape's frame.
    pub(crate) fn manifold(&self, tri: [V; 3], p: &Penetration<V>, prediction: V::Real) -> Manifold<V> {
        let t = [self.local(tri[0]), self.local(tri[1]), self.local(tri[2])];
        let n = self.pb.inverse_transform_vector(p.normal);
        let mut found = [Contact::default(); TRIANGLE_CLIP];
        let (count, tol) = match self.core {
            Core::Cuboid(h) => box_triangle(t, h, n, prediction, &mut found),
            Core::Segment(p0, p1, r, _) => segment_triangle(t, (p0, p1), r, n, prediction, &mut found),
        };
        finish(&self.pb, p, &mut found, count, tol)
    }
}

/// Whether the triangle `t` (shape frame) lies farther than `m` from the box `lo..hi` along one of its axes: a
/// lower bound on the distance to anything inside the box, checked before any normal is formed.
#[inline(always)]
fn beyond_box<V: Vector>(t: &[V; 3], lo: V, hi: V, m: V::Real) -> bool {
    (0..3).any(|i| {
        let (t_lo, t_hi) = span([t[0].get(i), t[1].get(i), t[2].get(i)]);
        t_lo - hi.get(i) > m || lo.get(i) - t_hi > m
    })
}

/// The smaller of two numbers by one comparison (`Real::min` also orders NaN, which costs a few instructions more on
/// every use; the numbers here are finite, or a NaN's answer is the general path's or `Farther` either way).
#[inline(always)]
fn lesser<R: Real>(a: R, b: R) -> R {
    if b < a {
        b
    } else {
        a
    }
}

/// The larger of two numbers by one comparison (see [`lesser`]).
#[inline(always)]
fn greater<R: Real>(a: R, b: R) -> R {
    if b > a {
        b
    } else {
        a
    }
}

/// The least and the greatest of three numbers.
#[inline(always)]
fn span<R: Real>(x: [R; 3]) -> (R, R) {
    (lesser(lesser(x[0], x[1]), x[2]), greater(greater(x[0], x[1]), x[2]))
}

/// The largest absolute coordinate over the points (at least `floor`), as `max_abs` folds it.
#[inline(always)]
fn largest_abs<V: Vector>(floor: V::Real, points: &[V]) -> V::Real {
    points.iter().fold(floor, |m, p| (0..3).fold(m, |m, i| greater(m, p.get(i).abs())))
}

/// A closed-form answer in the shape's frame.
struct Local<V: Vector> {
    /// Signed distance (negative: overlap).
    distance: V::Real,
    /// Unit normal from the triangle toward the shape.
    normal: V,
    /// The triangle's witness point; the shape's is `on_triangle + normal · distance`.
    on_triangle: V,
}

/// Capsule core `(p0, p1)` with radius `r` against the triangle `t` (same frame; `(lo, hi)` the box of the core
/// grown by the radius): `Ok(None)` when the general path must decide, `Err(Farther)` when the triangle's plane
/// alone puts them farther apart than `max_distance`.
fn capsule<V: Vector>(
    t: [V; 3],
    (p0, p1): (V, V),
    r: V::Real,
    (lo, hi): (V, V),
    max_distance: Option<V::Real>,
) -> Result<Option<Local<V>>, TriangleContact<V>> {
    // The capsule lies in the box of its core grown by the radius: most triangles under its world box are beyond it.
    if max_distance.is_some_and(|m| beyond_box(&t, lo, hi, m)) {
        return Err(TriangleContact::Farther);
    }
    let n = cross(t[1] - t[0], t[2] - t[0]).normalize_or_zero();
    if n == V::zero() {
        return Ok(None);
    }
    let (h0, h1) = (n.dot(p0 - t[0]), n.dot(p1 - t[0]));
    let zero = V::Real::ZERO;
    // Both ends on one side of the plane: the plane's gap is a lower bound on the distance (most triangles under
    // a capsule's box stop here).
    let plane_gap = if h0 > zero && h1 > zero { lesser(h0, h1) } else { lesser(-h0, -h1) } - r;
    if max_distance.is_some_and(|m| plane_gap > m) {
        return Err(TriangleContact::Farther);
    }
    let scale = largest_abs(r, &[t[0], t[1], t[2], p0, p1]);
    // Below this the cores touch to rounding and their closest points give no direction.
    let touching = V::Real::EPSILON.sqrt() * scale;
    let crosses_plane = ((h0 <= zero && h1 >= zero) || (h0 >= zero && h1 <= zero)) && h0 != h1;
    if crosses_plane && inside(t, n, p0 + (p1 - p0) * (h0 / (h0 - h1))) {
        return Ok(Some(crossing(t, n, (p0, p1), r)));
    }
    let (d2, on_triangle, on_segment) = closest_apart(t, n, (p0, p1), (h0, h1), scale);
    let d = d2.sqrt();
    if !(d > touching) {
        return Ok(None);
    }
    Ok(Some(Local { distance: d - r, normal: (on_segment - on_triangle) * (V::Real::ONE / d), on_triangle }))
}

/// The segment crosses the triangle: the least overlap over the prism's face normals (the triangle's first).
fn crossing<V: Vector>(t: [V; 3], n: V, (p0, p1): (V, V), r: V::Real) -> Local<V> {
    let u = p1 - p0;
    // Overlap along +a (moving the segment along a separates it) and along −a; the smaller, with its sign.
    let overlap = |a: V| {
        let ta = [a.dot(t[0]), a.dot(t[1]), a.dot(t[2])];
        let (t_lo, t_hi) = (ta[0].min(ta[1]).min(ta[2]), ta[0].max(ta[1]).max(ta[2]));
        let (s0, s1) = (a.dot(p0), a.dot(p1));
        let (s_lo, s_hi) = (s0.min(s1), s0.max(s1));
        let (up, down) = (t_hi - s_lo, s_hi - t_lo);
        if down < up {
            (down, -a)
        } else {
            (up, a)
        }
    };
    let (mut depth, mut normal) = overlap(n);
    for k in 0..3 {
        let a = cross(t[(k + 1) % 3] - t[k], u).normalize_or_zero();
        if a == V::zero() {
            continue;
        }
        let (d, m) = overlap(a);
        if d < depth {
            (depth, normal) = (d, m);
        }
    }
    let depth = depth.max(V::Real::ZERO);
    // Moved out by the depth, the segment touches the triangle: there are the witness points.
    let moved = normal * depth;
    let (_, on_triangle, _) = closest(t, n, (p0 + moved, p1 + moved));
    Local { distance: -depth - r, normal, on_triangle }
}

/// The box of half-extents `h` (centred on the origin, axis-aligned) against the triangle `t`: `Ok(None)` when the
/// general path must decide (apart within the bound: the exact distance needs closest points; a degenerate
/// triangle), `Err(Farther)` when an axis separates them by more than `max_distance`.
///
/// Overlapping, the cores' Minkowski difference is a polytope whose face normals are among the thirteen axes: the
/// triangle's normal, the box's three face normals and the nine cross products of a box edge with a triangle
/// edge. The least overlap over them is the exact penetration depth (any direction's overlap bounds the depth from
/// above, so extra or noisy axes, from nearly parallel edges, cannot undercut it). The triangle's normal is tried
/// first, then the box's faces, and an axis replaces the best only when strictly smaller, so a box lying flat on
/// the triangle gets the triangle's normal, as EPA gives.
fn cuboid<V: Vector>(t: [V; 3], h: V, max_distance: Option<V::Real>) -> Result<Option<Local<V>>, TriangleContact<V>> {
    separating_axes(t, h, max_distance, true)
}

/// [`cuboid`], the edge axes first bounded cheaply ([`EdgeAxes`]) when `cheap_bounds` (always, but in the test that
/// checks that they change no bit).
#[inline(always)]
fn separating_axes<V: Vector>(
    t: [V; 3],
    h: V,
    max_distance: Option<V::Real>,
    cheap_bounds: bool,
) -> Result<Option<Local<V>>, TriangleContact<V>> {
    let zero = V::Real::ZERO;
    // The box's own face axes first, before any normal is formed: most triangles under the box's world box lie
    // beyond one of them.
    if max_distance.is_some_and(|m| beyond_box(&t, -h, h, m)) {
        return Err(TriangleContact::Farther);
    }
    let n = cross(t[1] - t[0], t[2] - t[0]).normalize_or_zero();
    if n == V::zero() {
        return Ok(None);
    }
    // Overlap along +a (moving the box along a separates it) and along −a; the smaller, with its sign.
    let overlap = |a: V| {
        let ra = a.abs_elem().dot(h);
        let (lo, hi) = span([a.dot(t[0]), a.dot(t[1]), a.dot(t[2])]);
        let (up, down) = (hi + ra, ra - lo);
        if down < up {
            (down, -a)
        } else {
            (up, a)
        }
    };
    // An axis separating them by more than the bound ends the test at once (the least overlap is then below minus
    // the bound, and the answer `Farther`).
    let farther = |d: V::Real| max_distance.is_some_and(|m| -d > m);
    let (depth, normal) = overlap(n);
    if farther(depth) {
        return Err(TriangleContact::Farther);
    }
    let mut best = (depth, normal, Axis::Face);
    let consider = |best: &mut (V::Real, V, Axis), a: V, what: Axis| {
        if a == V::zero() {
            return false;
        }
        let (d, m) = overlap(a);
        if d < best.0 {
            *best = (d, m, what);
        }
        farther(d)
    };
    // The box's faces: `overlap` along axis i without its products by zero (the box reaches ±hᵢ, the triangle
    // spans its corners' coordinates i; the same numbers, the triangle being finite once its normal is).
    for i in 0..3 {
        let (lo, hi) = span([t[0].get(i), t[1].get(i), t[2].get(i)]);
        let (up, down) = (hi + h.get(i), h.get(i) - lo);
        let (d, m) = if down < up { (down, -V::axis(i)) } else { (up, V::axis(i)) };
        if d < best.0 {
            best = (d, m, Axis::BoxFace);
        }
        if farther(d) {
            return Err(TriangleContact::Farther);
        }
    }
    let scale = largest_abs(zero, &[h, t[0], t[1], t[2]]);
    let margin = edge_axis_margin::<V>(scale).filter(|_| cheap_bounds);
    for k in 0..3 {
        let e = t[(k + 1) % 3] - t[k];
        let bounds = EdgeAxes::new(e, t[k], t[(k + 2) % 3], h);
        for i in 0..3 {
            // Most edge axes are plainly no better than the best so far: only the others are normalised and
            // measured (the same expressions as ever, so the answer keeps its bits).
            if margin.is_some_and(|margin| bounds.no_better(i, best.0 + margin)) {
                continue;
            }
            if consider(&mut best, cross(V::axis(i), e).normalize_or_zero(), Axis::Edges(i, k)) {
                return Err(TriangleContact::Farther);
            }
        }
    }
    let (depth, normal, kind) = best;
    if depth < zero {
        // The least overlap is minus the largest separation found, a lower bound on the distance.
        return match max_distance {
            Some(m) if -depth > m => Err(TriangleContact::Farther),
            _ => Ok(None),
        };
    }
    let on_triangle =
        box_witness(t, n, h, depth, normal, kind, scale).unwrap_or_else(|| touching_by_gjk(t, h, depth, normal, scale));
    Ok(Some(Local { distance: -depth, normal, on_triangle }))
}

/// How far the cheap overlap of [`EdgeAxes`] may lie from the one measured along the normalised axis, for a box and a
/// triangle whose coordinates are at most `scale`: a rounding bound (about 90 ε·scale, see [`EdgeAxes`]) with room
/// to spare, plus an absolute term for products that fall below the normal range. `None` (no cheap bounds) when
/// the products of two coordinates could overflow (scale past 2⁻⁶ of 1/√(smallest normal), ~1e17 in f32, ~1e152 in
/// f64), so that the bounds are finite whenever the inputs are.
#[inline(always)]
fn edge_axis_margin<V: Vector>(scale: V::Real) -> Option<V::Real> {
    let tiny = V::Real::MIN_POSITIVE.sqrt();
    (scale * tiny < V::Real::from_f64(1.0 / 64.0)).then(|| V::Real::from_f64(1024.0) * V::Real::EPSILON * scale + tiny)
}

/// The overlaps along the three axes `a = xᵢ × e` (box edge direction i crossed with the triangle's edge `e`, from
/// corner `from`, the third corner `apex`), unnormalised, from shared products: `a·p = (e × p)ᵢ`, `|a|·h` is two
/// products of e's other coordinates, and the edge's two corners project alike (a ⟂ e), so the triangle spans
/// `(e × from)ᵢ` to `(e × apex)ᵢ` along a.
///
/// Rounding (ε the precision's, s the largest coordinate of the box and the triangle): the overlap measured along
/// the normalised axis (the separating-axis test's own) is within about 53 ε·s of the exact one (the normalisation
/// 4.5 ε relative, the dot products 3 ε, the sums), and this one, divided by |a|, within about 37 ε·s (the products 2
/// ε, the edge's corners projecting alike only up to e's own rounding, the length and the comparison's products), so
/// an axis whose cheap overlap exceeds the best so far by [`edge_axis_margin`] cannot replace it, nor separate the
/// pair by more than the bound (the best so far did not).
struct EdgeAxes<V: Vector> {
    /// Triangle's extent along each unnormalised axis: (e × from)ᵢ and (e × apex)ᵢ.
    at_edge: V,
    at_apex: V,
    /// The box's support radius |a|·h along each.
    radius: V,
    /// |a|² = |e|² − eᵢ², summed from the other two squares.
    len2: V,
}

impl<V: Vector> EdgeAxes<V> {
    #[inline(always)]
    fn new(e: V, from: V, apex: V, h: V) -> Self {
        let (ea, sq) = (e.abs_elem(), e.mul_elem(e));
        let other = |i: usize| ((i + 1) % 3, (i + 2) % 3);
        Self {
            at_edge: cross(e, from),
            at_apex: cross(e, apex),
            radius: V::from_fn(|i| {
                let (j, l) = other(i);
                ea.get(l) * h.get(j) + ea.get(j) * h.get(l)
            }),
            len2: V::from_fn(|i| {
                let (j, l) = other(i);
                sq.get(j) + sq.get(l)
            }),
        }
    }

    /// Whether axis i's least overlap, normalised, is surely at least `floor` (an axis of a length squared below
    /// the normal range is left to the exact test, as is any NaN; nothing overflows below `edge_axis_margin`'s
    /// scale).
    #[inline(always)]
    fn no_better(&self, i: usize, floor: V::Real) -> bool {
        let (p, q, r, len2) = (self.at_edge.get(i), self.at_apex.get(i), self.radius.get(i), self.len2.get(i));
        let (lo, hi) = if p < q { (p, q) } else { (q, p) };
        let (up, down) = (hi + r, r - lo);
        let least = if down < up { down } else { up };
        len2 >= V::Real::MIN_POSITIVE && least >= floor * len2.sqrt()
    }
}

/// The witness when the features tie (a box edge or face lying against the triangle): the triangle moved away
/// along −normal by `depth` plus a gap lies exactly the gap apart from the box (the separation along the normal is
/// the gap, and the touching points reach it), so GJK's closest point on it, moved back, is a touching point.
#[cold]
fn touching_by_gjk<V: Vector>(t: [V; 3], h: V, depth: V::Real, normal: V, scale: V::Real) -> V {
    let away = normal * (depth + scale);
    let moved = crate::composite::Facet::new(t.map(|p| p - away));
    let cuboid = crate::shape::Cuboid { half_extents: h };
    let id = Iso::identity();
    crate::gjk::distance(&moved, &id, &cuboid, &id).point_a + away
}

/// Which of the thirteen axes gave the least overlap.
#[derive(Clone, Copy)]
enum Axis {
    /// The triangle's normal.
    Face,
    /// A face of the box.
    BoxFace,
    /// Box edge along axis `i` crossed with triangle edge `k`.
    Edges(usize, usize),
}

/// The triangle's witness point: where the box, moved out along `normal` by `depth`, touches the triangle. Read
/// from the features the axis came from (the box's deepest corner over the triangle, the triangle's top corner in
/// the box's face, the closest points of the two edges), each checked to touch; `None` when the check fails (a
/// tie between features: a box edge or face lying flat against the triangle off its deepest corner), and the
/// general path decides.
fn box_witness<V: Vector>(t: [V; 3], n: V, h: V, depth: V::Real, normal: V, kind: Axis, scale: V::Real) -> Option<V> {
    let zero = V::Real::ZERO;
    let tol = V::Real::from_f64(1e-10) * scale + V::Real::from_f64(64.0) * V::Real::EPSILON * scale;
    // The box's corner deepest along −normal (ties to the negative side).
    let corner = |m: V| V::from_fn(|j| if m.get(j) > zero { -h.get(j) } else { h.get(j) });
    let in_box = |p: V| (0..V::DIM).all(|j| p.get(j).abs() <= h.get(j) + tol);
    match kind {
        Axis::Face => {
            // The deepest corner, carried out to the triangle's plane, lies in the triangle.
            let v = corner(normal);
            let on = v + normal * depth;
            let slack = |k: usize| {
                let e = t[(k + 1) % 3] - t[k];
                n.dot(cross(e, on - t[k])) / e.length().max(V::Real::EPSILON)
            };
            (0..3).all(|k| slack(k) >= -tol).then_some(on)
        }
        Axis::BoxFace => {
            // The triangle's corner farthest along the normal, carried into the box, lies in its face.
            let top = t.iter().copied().fold(t[0], |b, p| if p.dot(normal) > b.dot(normal) { p } else { b });
            in_box(top - normal * depth).then_some(top)
        }
        Axis::Edges(i, k) => {
            // The box's edge along axis i through its deepest corner.
            let c = corner(normal);
            let end = |s: V::Real| V::from_fn(|j| if j == i { s * h.get(i) } else { c.get(j) });
            let (p, q) = (end(-V::Real::ONE), end(V::Real::ONE));
            let (on_box, on_triangle) = segment_segment(p, q, t[k], t[(k + 1) % 3]);
            ((on_triangle - normal * depth - on_box).length() <= tol).then_some(on_triangle)
        }
    }
}

/// Whether `x` (in the triangle's plane) lies inside the triangle `t` of unit normal `n` (boundary included).
fn inside<V: Vector>(t: [V; 3], n: V, x: V) -> bool {
    (0..3).all(|k| n.dot(cross(t[(k + 1) % 3] - t[k], x - t[k])) >= V::Real::ZERO)
}

/// Squared distance and closest points (triangle, segment) of a segment and a triangle that do not cross: the
/// least of an end's foot inside the triangle and the segment's closest points to each edge.
fn closest<V: Vector>(t: [V; 3], n: V, (p0, p1): (V, V)) -> (V::Real, V, V) {
    let mut best = (V::Real::INFINITY, t[0], p0);
    let mut consider = |on_t: V, on_s: V| {
        let d2 = (on_s - on_t).length_squared();
        if d2 < best.0 {
            best = (d2, on_t, on_s);
        }
    };
    for p in [p0, p1] {
        let foot = p - n * n.dot(p - t[0]);
        if inside(t, n, foot) {
            consider(foot, p);
        }
    }
    for k in 0..3 {
        let (on_s, on_t) = segment_segment(p0, p1, t[k], t[(k + 1) % 3]);
        consider(on_t, on_s);
    }
    best
}

/// [`closest`] for a segment that does not meet the triangle, `(h0, h1)` its ends' heights over the triangle's plane
/// (`n·(p − t₀)`) and `scale` the largest coordinate, with fewer candidates:
/// - both ends on one side, the lower one's foot inside: that is the answer (every point of the segment is at least
///   the lower end's height from the plane);
/// - an edge whose side plane has both ends strictly on the triangle's side is no candidate: were the closest points
///   on it, the segment's point would lie straight above it (the normal cone there is spanned by ±n and the edge's
///   outward normal, which points away from that point), and over the stretch of the segment whose feet lie in
///   the triangle the distance is the height, linear and one-signed (the segment does not meet the triangle), so
///   least at a stretch's end: an end of the segment (its foot a candidate) or a point above another edge (that edge
///   a candidate at the same distance). "Strictly" by a rounding margin (the side-plane values are products of
///   two lengths up to 2√3·scale, within about 200 ε·scale² of exact), so that the argument holds exactly.
///
/// Otherwise the candidates, and the order that breaks ties, are [`closest`]'s.
fn closest_apart<V: Vector>(
    t: [V; 3],
    n: V,
    (p0, p1): (V, V),
    (h0, h1): (V::Real, V::Real),
    scale: V::Real,
) -> (V::Real, V, V) {
    let zero = V::Real::ZERO;
    // Side-plane values: (n × e_k)·(p − t_k) = n·(e_k × (p − t_k)), non-negative on the triangle's side of edge k;
    // an end's foot p − n·h has the end's values (n·(e_k × n) = 0), so it lies in the triangle when all three are.
    let e = [0, 1, 2].map(|k| t[(k + 1) % 3] - t[k]);
    let w = e.map(|e| cross(n, e));
    let from0 = [0, 1, 2].map(|k| p0 - t[k]);
    let s0 = [0, 1, 2].map(|k| w[k].dot(from0[k]));
    let s1 = [0, 1, 2].map(|k| w[k].dot(p1 - t[k]));
    let inward = |s: [V::Real; 3]| s.iter().all(|&v| v >= zero);
    let mut best = (V::Real::INFINITY, t[0], p0);
    let mut consider = |on_t: V, on_s: V| {
        let d2 = (on_s - on_t).length_squared();
        if d2 < best.0 {
            best = (d2, on_t, on_s);
        }
    };
    let (in0, in1) = (inward(s0), inward(s1));
    if in0 {
        consider(p0 - n * h0, p0);
    }
    if in1 {
        consider(p1 - n * h1, p1);
    }
    let same_side = (h0 > zero && h1 > zero) || (h0 < zero && h1 < zero);
    if same_side && (if h0.abs() <= h1.abs() { in0 } else { in1 }) {
        return best;
    }
    let margin = V::Real::from_f64(1024.0) * V::Real::EPSILON * scale * scale;
    let u = p1 - p0;
    let segment = (p0, u, u.length_squared());
    for k in 0..3 {
        if s0[k] > margin && s1[k] > margin {
            continue;
        }
        // `segment_segment(p0, p1, t[k], t[k + 1])`, its differences shared.
        let (on_s, on_t) = segment_segment_from(segment, (t[k], e[k], e[k].length_squared()), from0[k]);
        consider(on_t, on_s);
    }
    best
}

/// Closest points of segments `p1q1` and `p2q2` (Ericson, Real-Time Collision Detection §5.1.9): the unclamped
/// parameters of the lines' closest points, each clamped to its segment and the other recomputed from it. Either
/// segment may be a point.
pub(crate) fn segment_segment<V: Vector>(p1: V, q1: V, p2: V, q2: V) -> (V, V) {
    let (d1, d2) = (q1 - p1, q2 - p2);
    segment_segment_from((p1, d1, d1.length_squared()), (p2, d2, d2.length_squared()), p1 - p2)
}

/// [`segment_segment`] from each segment's start, direction and squared length, and the starts' difference
/// `r = p1 − p2` (shared when one segment meets several).
#[inline(always)]
fn segment_segment_from<V: Vector>((p1, d1, a): (V, V, V::Real), (p2, d2, e): (V, V, V::Real), r: V) -> (V, V) {
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    let f = d2.dot(r);
    let clamp = |x: V::Real| x.max(zero).min(one);
    let (s, t) = if a == zero && e == zero {
        (zero, zero)
    } else if a == zero {
        (zero, clamp(f / e))
    } else {
        let c = d1.dot(r);
        if e == zero {
            (clamp(-c / a), zero)
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            // Parallel lines (denom 0): any s will do; 0, then t follows.
            let s = if denom > zero { clamp((b * f - c * e) / denom) } else { zero };
            let t = (b * s + f) / e;
            if t < zero {
                (clamp(-c / a), zero)
            } else if t > one {
                (clamp((b - c) / a), one)
            } else {
                (s, t)
            }
        }
    };
    (p1 + d1 * s, p2 + d2 * t)
}

/// 3D cross product through coordinates (this module is generic; only 3D calls it).
#[inline]
pub(crate) fn cross<V: Vector>(u: V, v: V) -> V {
    V::from_fn(|i| {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        u.get(j) * v.get(k) - u.get(k) * v.get(j)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;
    use rand::{rngs::SmallRng, Rng, SeedableRng};

    /// A random point: in general position, or on a coarse grid of quarters (exact ties: edges parallel to the box's
    /// axes and to each other, faces flat on the box's, segments parallel to the triangle's plane or edges).
    fn point(rng: &mut SmallRng, grid: bool) -> DVec3 {
        if grid {
            DVec3::new(rng.gen_range(-3..4) as f64, rng.gen_range(-3..4) as f64, rng.gen_range(-3..4) as f64) * 0.25
        } else {
            DVec3::new(rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5), rng.gen_range(-1.5..1.5))
        }
    }

    fn triangle(rng: &mut SmallRng, i: usize) -> [DVec3; 3] {
        let mut t = [0; 3].map(|_| point(rng, i.is_multiple_of(3)));
        if i % 5 == 1 {
            // Flat in the box's frame.
            (t[1].z, t[2].z) = (t[0].z, t[0].z);
        }
        t
    }

    fn bits(r: &Result<Option<Local<DVec3>>, TriangleContact<DVec3>>) -> Option<Option<[u64; 7]>> {
        match r {
            Ok(Some(l)) => {
                let v =
                    [l.distance, l.normal.x, l.normal.y, l.normal.z, l.on_triangle.x, l.on_triangle.y, l.on_triangle.z];
                Some(Some(v.map(f64::to_bits)))
            }
            Ok(None) => Some(None),
            Err(TriangleContact::Farther) => None,
            Err(_) => unreachable!("only Farther is an error"),
        }
    }

    #[test]
    fn cheap_edge_bounds_change_no_bit_of_the_box_answer() {
        let mut rng = SmallRng::seed_from_u64(13);
        let mut kinds = [0; 3];
        for i in 0..100_000usize {
            let h = if i.is_multiple_of(3) {
                DVec3::new(0.5, 0.25, 1.0)
            } else {
                DVec3::new(rng.gen_range(0.1..1.0), rng.gen_range(0.1..1.0), rng.gen_range(0.1..1.0))
            };
            let t = triangle(&mut rng, i);
            let bound = [None, Some(0.0), Some(0.1), Some(-0.05)][i % 4];
            let (fast, plain) = (separating_axes(t, h, bound, true), separating_axes(t, h, bound, false));
            assert_eq!(bits(&fast), bits(&plain), "{t:?} {h:?} {bound:?}");
            kinds[match bits(&fast) {
                Some(Some(_)) => 0,
                Some(None) => 1,
                None => 2,
            }] += 1;
        }
        // Answers, general-path cases and rejections all occurred.
        assert!(kinds.iter().all(|&k| k > 5_000), "{kinds:?}");
    }

    #[test]
    fn capsule_apart_candidates_give_the_five_candidates_distance() {
        let mut rng = SmallRng::seed_from_u64(17);
        let mut compared = 0;
        for i in 0..100_000usize {
            let t = triangle(&mut rng, i);
            let (p0, mut p1) = (point(&mut rng, i.is_multiple_of(3)), point(&mut rng, i.is_multiple_of(3)));
            if i % 7 == 2 {
                // Parallel to a flat triangle's plane.
                p1.z = p0.z;
            }
            let n = cross(t[1] - t[0], t[2] - t[0]).normalize_or_zero();
            if n == DVec3::ZERO {
                continue;
            }
            let (h0, h1) = (n.dot(p0 - t[0]), n.dot(p1 - t[0]));
            // The segment crossing the triangle is `capsule`'s other case.
            let crosses_plane = ((h0 <= 0.0 && h1 >= 0.0) || (h0 >= 0.0 && h1 <= 0.0)) && h0 != h1;
            if crosses_plane && inside(t, n, p0 + (p1 - p0) * (h0 / (h0 - h1))) {
                continue;
            }
            let (all, _, _) = closest(t, n, (p0, p1));
            let scale = [t[0], t[1], t[2], p0, p1].iter().fold(0.0, |m: f64, p| m.max(p.abs().max_element()));
            let (d2, on_t, on_s) = closest_apart(t, n, (p0, p1), (h0, h1), scale);
            let ctx = || format!("{t:?} {p0:?} {p1:?}: {d2} vs {all}");
            assert!((d2.sqrt() - all.sqrt()).abs() <= 1e-12, "{}", ctx());
            assert!(((on_s - on_t).length_squared() - d2).abs() <= 1e-12, "{}", ctx());
            // The points lie on their features: the segment's on the segment, the triangle's in the triangle.
            let u = p1 - p0;
            let along = if u == DVec3::ZERO { 0.0 } else { (on_s - p0).dot(u) / u.length_squared() };
            assert!((p0 + u * along - on_s).length() <= 1e-12 && (-1e-12..=1.0 + 1e-12).contains(&along), "{}", ctx());
            assert!(n.dot(on_t - t[0]).abs() <= 1e-12, "{}", ctx());
            let slack = (0..3).map(|k| n.dot(cross(t[(k + 1) % 3] - t[k], on_t - t[k]))).fold(f64::INFINITY, f64::min);
            assert!(slack >= -1e-12, "{}", ctx());
            compared += 1;
        }
        assert!(compared > 50_000, "{compared}");
    }
}
