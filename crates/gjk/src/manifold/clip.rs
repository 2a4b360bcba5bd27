//! Sutherland–Hodgman clipping of an incident feature against the side planes of a reference feature. Written
//! once for 2D and 3D: the side plane through an edge contains the edge and the direction along which clipped
//! points are carried onto the reference (the contact normal), and its normal is the part of (edge start − face
//! centre) perpendicular to both, found by Gram–Schmidt without a cross product. A point inside every side plane
//! lands inside the face when carried along that direction.

use crate::math::{Real, Vector};
use crate::shape::{Feature, MAX_FEATURE_POINTS};

/// Room for the clipped polygon: each side plane adds at most one point.
pub const MAX_CLIP: usize = 2 * MAX_FEATURE_POINTS + 2;

#[derive(Clone, Copy, Debug, Default)]
pub struct ClipPoint<V> {
    pub p: V,
    /// Low 47 bits of a contact id: the clipping plane (0 for an incident vertex) and the incident vertex ids.
    pub id: u64,
}

/// The clipped polygon, the clipper's second buffer, and the points already kept (see [`super::Scratch`]).
pub struct ClipBuffers<V> {
    pub out: [ClipPoint<V>; MAX_CLIP],
    scratch: [ClipPoint<V>; MAX_CLIP],
    pub seen: [V; MAX_CLIP],
}

impl<V: Vector> Default for ClipBuffers<V> {
    #[inline(always)]
    fn default() -> Self {
        Self {
            out: [ClipPoint::default(); MAX_CLIP],
            scratch: [ClipPoint::default(); MAX_CLIP],
            seen: [V::zero(); MAX_CLIP],
        }
    }
}

pub(super) fn vertex_id(id: u32) -> u64 {
    (u64::from(id) & 0xf_ffff) << 19 | (u64::from(id) & 0x7_ffff)
}

fn crossing_id(plane: usize, a: u64, b: u64) -> u64 {
    ((plane as u64 + 1) & 0xff) << 39 | (a >> 19 & 0xf_ffff) << 19 | (b >> 19 & 0x7_ffff)
}

/// Clips `incident` to the prism over `reference` along the unit direction `along` (its side planes); writes the
/// result to `bufs.out` and returns its length. A two-point reference clips along its own direction only.
pub fn clip_to_reference<V: Vector>(
    reference: &Feature<V>,
    incident: &Feature<V>,
    along: V,
    bufs: &mut ClipBuffers<V>,
) -> usize {
    let ClipBuffers { out, scratch, .. } = bufs;
    let mut len = incident.len;
    for (o, (p, id)) in out.iter_mut().zip(incident.points().iter().zip(&incident.ids)) {
        *o = ClipPoint { p: *p, id: vertex_id(*id) };
    }
    let closed = incident.len >= 3;
    let r = reference.points();
    let scale = r.iter().fold(V::Real::ZERO, |m, p| m.max(p.max_abs()));
    let slack = V::Real::from_f64(1e-12) * scale;
    // The polygon goes back and forth between the two buffers (`src` holds it), copied once at the end if it
    // ended in the second.
    let (mut src, mut dst) = (&mut *out, &mut *scratch);
    let mut in_scratch = false;
    if r.len() == 2 {
        for (k, (a, s)) in [(r[0], r[0] - r[1]), (r[1], r[1] - r[0])].into_iter().enumerate() {
            let s = s - along * s.dot(along);
            len = clip_plane(&src[..len], closed, a, s.normalize_or_zero(), slack, k, dst);
            core::mem::swap(&mut src, &mut dst);
            in_scratch = !in_scratch;
        }
        if in_scratch {
            dst[..len].copy_from_slice(&src[..len]);
        }
        return len;
    }
    let c = r.iter().fold(V::zero(), |s, p| s + *p) * (V::Real::ONE / V::Real::from_f64(r.len() as f64));
    for k in 0..r.len() {
        let (a, b) = (r[k], r[(k + 1) % r.len()]);
        let e = b - a;
        let ee = e.length_squared();
        if !(ee > V::Real::ZERO) {
            continue;
        }
        // The part of `along` across the edge, then (a − c) without its parts along the edge and along that.
        let across = (along - e * (along.dot(e) / ee)).normalize_or_zero();
        let out_dir = side_normal(a - c, e, ee, across);
        len = clip_plane(&src[..len], closed, a, out_dir.normalize_or_zero(), slack, k, dst);
        core::mem::swap(&mut src, &mut dst);
        in_scratch = !in_scratch;
        if len == 0 {
            break;
        }
    }
    // A sharp corner (a sliver triangle's tip, 1e-9 rad) is where two side planes meet almost face to face: along
    // the corner's axis their crossing is known only to rounding / angle (1e-16 / 1e-9), so points well beyond the
    // tip passed both (tests/sliver_manifolds.rs, random slab 179: 1.5e-8 beyond in f64, 0.27 in f32). A cap plane
    // through the corner, across its bisector, cuts them off. It contains `along` (taken out of the bisector), and
    // it still supports the face: within the face's plane it turns the bisector by at most 76° (`along` leans at
    // most 60° from the face's normal), while at a corner under 26° the directions that support the face span 154°
    // or more.
    let k_len = r.len();
    for k in 0..k_len {
        if len == 0 {
            break;
        }
        let Some(cap) = sharp_corner_cap(r, k, along) else { continue };
        len = clip_plane(&src[..len], closed, r[k], cap, slack, k_len + k, dst);
        core::mem::swap(&mut src, &mut dst);
        in_scratch = !in_scratch;
    }
    if in_scratch {
        dst[..len].copy_from_slice(&src[..len]);
    }
    len
}

/// The unit outward normal of the cap plane at corner `k` of the face `r` when its interior angle is under 26°
/// (see [`clip_to_reference`]): across the corner's bisector, with `along` taken out of it. `None` at a wider
/// corner.
pub(super) fn sharp_corner_cap<V: Vector>(r: &[V], k: usize, along: V) -> Option<V> {
    let k_len = r.len();
    let v = r[k];
    let (d1, d2) = (r[(k + k_len - 1) % k_len] - v, r[(k + 1) % k_len] - v);
    let (dd, l1, l2) = (d1.dot(d2), d1.length_squared(), d2.length_squared());
    // Interior angle under 26° (cos > 0.9), judged without roots.
    if !(dd > V::Real::ZERO && dd * dd > V::Real::from_f64(0.81) * l1 * l2) {
        return None;
    }
    let bisector = -(d1.normalize_or_zero() + d2.normalize_or_zero());
    Some((bisector - along * bisector.dot(along)).normalize_or_zero())
}

/// `w` (a corner less the face's centre) without its parts along the edge `e` (|e|² = `ee`) and along the unit
/// `across` (perpendicular to `e`): the outward normal of the side plane through `e`, unnormalised. Projected out
/// twice: one pass leaves rounding of |w|'s size along the edge, nothing beside what remains when the face is a
/// sliver — on a box face 1.9 long and 1e-9 wide, w's part across the face is 1e-9 of w, so one pass tilts the side
/// plane by 1e-7 rad and, along the 1.9-long edge, moves it 100 times the face's width: clipped points were carried
/// to the reference plane 2.7e-7 off the face and 5.9e-8 deeper than the penetration (gjk-fuzz seed 41 case
/// 8166). The second pass works on what is left, so its rounding is of the part wanted; it is needed only when
/// the first left less than a tenth of w (a square face keeps 71 % of it).
fn side_normal<V: Vector>(w: V, e: V, ee: V::Real, across: V) -> V {
    let once = |w: V| {
        let w = w - e * (w.dot(e) / ee);
        w - across * w.dot(across)
    };
    let left = once(w);
    if left.length_squared() < V::Real::from_f64(0.01) * w.length_squared() {
        once(left)
    } else {
        left
    }
}

/// Keeps the part of the polygon (closed) or polyline (open) on the inner side of the plane through `a` with
/// outward unit normal `s` (points up to `slack` outside count as inside), into `out` (points beyond its length are
/// dropped; callers size it for the most points their planes can make).
pub(super) fn clip_plane<V: Vector>(
    pts: &[ClipPoint<V>],
    closed: bool,
    a: V,
    s: V,
    slack: V::Real,
    plane: usize,
    out: &mut [ClipPoint<V>],
) -> usize {
    let mut n = 0;
    let mut push = |q: ClipPoint<V>, n: &mut usize| {
        if *n < out.len() {
            out[*n] = q;
            *n += 1;
        }
    };
    // Points up to `slack` outside count as inside (so a corner exactly on a side plane survives rounding), but
    // crossings are placed on the plane itself.
    let height = |q: &ClipPoint<V>| s.dot(q.p - a);
    let dist = |q: &ClipPoint<V>| height(q) - slack;
    // The point where the edge p q (heights hp, hq) meets the plane.
    let cut = |p: &ClipPoint<V>, hp: V::Real, q: &ClipPoint<V>, hq: V::Real| {
        let t = (hp / (hp - hq)).max(V::Real::ZERO).min(V::Real::ONE);
        ClipPoint { p: p.p + (q.p - p.p) * t, id: crossing_id(plane, p.id, q.id) }
    };
    let crossing = |p: &ClipPoint<V>, q: &ClipPoint<V>| cut(p, height(p), q, height(q));
    if !closed {
        // A segment (or point): keep the inside part.
        for (i, p) in pts.iter().enumerate() {
            if dist(p) <= V::Real::ZERO {
                push(*p, &mut n);
            } else if let Some(q) = pts.get(if i == 0 { 1 } else { i - 1 }) {
                if dist(q) <= V::Real::ZERO && pts.len() == 2 {
                    push(crossing(q, p), &mut n);
                }
            }
        }
        return n;
    }
    // Each edge from the previous point to the current one, starting with the closing edge; each point's height is
    // found once and carried to the next edge.
    let Some(last) = pts.last() else { return 0 };
    let (mut prev, mut h_prev) = (last, height(last));
    for cur in pts {
        let h_cur = height(cur);
        let (in_prev, in_cur) = (h_prev - slack <= V::Real::ZERO, h_cur - slack <= V::Real::ZERO);
        if in_cur {
            if !in_prev {
                push(cut(prev, h_prev, cur, h_cur), &mut n);
            }
            push(*cur, &mut n);
        } else if in_prev {
            push(cut(prev, h_prev, cur, h_cur), &mut n);
        }
        (prev, h_prev) = (cur, h_cur);
    }
    n
}
