//! Penetration for every pair of kinds: the signed distance, deepest over the overlapping leaves.
//!
//! Each overlapping leaf runs EPA (through [`crate::epa`], so each keeps its exactness); a mesh leaf's normal is
//! then checked: a ghost normal (from an inactive ridge) is replaced by the face's, a normal into a solid by the
//! facet's outward normal, and the separation is measured again along it. When no leaf overlaps, the answer is the
//! distance query's, signed; a convex shape wholly inside a solid touches no leaf and is pushed out (see
//! [`penetration`]).

use super::dispatch::{pair, PairQuery, Shape};
use super::distance::{half_space_half_space, Distance, DistanceQuery};
use super::observe::{LeafRun, Shared, Side, WalkObserver};
use super::{box_above_plane, box_in, leaf_world, plane_in, positive, worse};
use crate::analytic::triangle::{TriangleContact, TriangleProbe};
use crate::bvh::RelativeBoxes;
use crate::composite::{Composite, HalfSpace};
use crate::epa;
use crate::gjk::{self, Status};
use crate::math::{Iso, Real, Vector};
use crate::shape::{support_full, SupportMap};

/// The answer of [`penetration`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penetration<V: Vector> {
    /// True when the shapes overlap or touch.
    pub intersecting: bool,
    /// Signed distance: the gap when apart, minus the depth when overlapping.
    pub distance: V::Real,
    /// Unit normal from A toward B: moving B by `−distance · normal` separates them (when overlapping).
    pub normal: V,
    /// A's deepest point (closest when apart), world.
    pub point_a: V,
    /// B's deepest point (closest when apart), world.
    pub point_b: V,
    /// A's leaf.
    pub part_a: Option<u32>,
    /// B's leaf.
    pub part_b: Option<u32>,
    /// The worst status among the leaf queries.
    pub status: Status,
}

/// The signed distance of two shapes: for composites, the deepest over the overlapping leaves (each by EPA, with a
/// mesh's ghost normals replaced by the face's), or the distance when no leaf overlaps. A convex shape wholly
/// inside a solid mesh is pushed out through the nearest face: depth = how far it must move along that face's
/// outward direction to clear its plane.
pub fn penetration<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> Penetration<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    penetration_observed(a, pose_a, b, pose_b, &mut ())
}

/// [`penetration`] reporting the walk to an observer ([`WalkObserver`]): the tree nodes entered and every leaf
/// pair EPA (or GJK) ran on. The answer is the same.
pub fn penetration_observed<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    observer: &mut O,
) -> Penetration<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    O: WalkObserver<V>,
{
    pair(&mut PenetrationQuery { obs: observer }, a, pose_a, b, pose_b)
}

pub(crate) fn from_epa<V: Vector>(p: &epa::Penetration<V>) -> Penetration<V> {
    Penetration {
        intersecting: p.intersecting,
        distance: p.distance,
        normal: p.normal,
        point_a: p.point_a,
        point_b: p.point_b,
        part_a: None,
        part_b: None,
        status: p.status,
    }
}

/// EPA on leaf `id` of `c` against `b`, with the mesh's normal checks: a ghost normal is replaced by the face's, a
/// normal into a solid by the outward face normal, and the signed distance is then measured along it (B's lowest
/// point along it above the leaf's highest).
pub(crate) fn leaf_penetration<V, C, B>(c: &C, pc: &Iso<V>, id: u32, b: &B, pb: &Iso<V>) -> epa::Penetration<V>
where
    V: Vector,
    C: Composite<V>,
    B: SupportMap<V> + ?Sized,
{
    let probe = TriangleProbe::new(b, pb, pc);
    let closed_form = probe.as_ref().and_then(|probe| Some((probe, c.leaf_triangle(id)?)));
    leaf_penetration_within(c, pc, id, b, pb, None, closed_form).expect("no bound, no early stop")
}

/// [`leaf_penetration`], `None` as soon as GJK (or the closed form) proves the leaf farther from B than
/// `max_distance` (when given). `closed_form` is B prepared for the closed form on triangles
/// ([`TriangleProbe::new`], once per query) with the leaf's triangle, `None` when B has none or the leaf is no
/// triangle (the caller reads the triangle, as it needs it again for the manifold).
pub(crate) fn leaf_penetration_within<V, C, B>(
    c: &C,
    pc: &Iso<V>,
    id: u32,
    b: &B,
    pb: &Iso<V>,
    max_distance: Option<V::Real>,
    closed_form: Option<(&TriangleProbe<V>, [V; 3])>,
) -> Option<epa::Penetration<V>>
where
    V: Vector,
    C: Composite<V>,
    B: SupportMap<V> + ?Sized,
{
    // A box or a capsule on a mesh triangle: the closed form (see `analytic::triangle`) gives what GJK and EPA
    // would, without their loops.
    let closed = match closed_form {
        Some((probe, t)) => probe.penetration(t, max_distance),
        None => TriangleContact::General,
    };
    if let TriangleContact::Farther = closed {
        return None;
    }
    // A facet inside a flat region: whatever normal EPA found, the checks below end on the face's normal (a
    // contact on the facet's interior has it already; on a ridge or corner, all inactive, it is replaced), so EPA
    // is not run. Callgrind, a box resting on the monastery: EPA was 46 % of the contact query.
    let flat = c.flat_leaf(id);
    let mut p = match closed {
        TriangleContact::Answer(p) => p,
        _ => {
            let options = crate::gjk::DistanceOptions { max_distance, ..crate::gjk::DistanceOptions::default() };
            epa::penetration_within(&c.leaf(id), &leaf_world(c, pc, id), b, pb, &options, flat.is_none(), &mut ())?
        }
    };
    // Only an overlap can be a ghost: a shape apart from the leaf has its true closest-point normal, and measuring
    // along the face instead would invent a depth (a shape resting on the neighbouring coplanar triangle is
    // "below" this one's plane).
    if !p.intersecting {
        return Some(p);
    }
    // Signed distance along a normal `n` (world): B's lowest point along n above the leaf's highest.
    // (The leaf is built here only: the closed form's answer on an interior facet never needs it.)
    let along = |n: V| {
        let (leaf, lw) = (c.leaf(id), leaf_world(c, pc, id));
        let on_leaf = lw.transform_point(support_full(&leaf, lw.inverse_transform_vector(n)));
        let on_b = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
        (n.dot(on_b - on_leaf), on_b)
    };
    let local_n = pc.inverse_transform_vector(p.normal);
    let mut corrected = match flat {
        // EPA would have found the side of least depth, up to ties: a one-sided facet's outward side is taken
        // below anyway.
        Some(face) if c.outward(id).is_none() => {
            let n = pc.transform_vector(face);
            if along(-n).0 > along(n).0 {
                -face
            } else {
                face
            }
        }
        Some(face) => face,
        None => c.correct_normal(id, pc.inverse_transform_point(p.point_a), local_n),
    };
    // A one-sided facet (of a solid) pushes only outward: a normal into the solid becomes the outward face normal.
    if let Some(out) = c.outward(id) {
        if corrected.dot(out) < V::Real::ZERO {
            corrected = out;
        }
    }
    if corrected != local_n {
        let n = pc.transform_vector(corrected);
        let (s, on_b) = along(n);
        p = epa::Penetration {
            intersecting: s <= V::Real::ZERO,
            distance: s,
            depth: positive(-s),
            normal: n,
            point_a: on_b - n * s,
            point_b: on_b,
            ..p
        };
    }
    Some(p)
}

struct PenetrationQuery<O> {
    obs: O,
}

/// Keeps the deeper of two answers (the worse status of both).
fn deepest<V: Vector>(best: &mut Option<Penetration<V>>, p: Penetration<V>) {
    match best {
        Some(b) if b.distance <= p.distance => {
            b.status = worse(b.status, p.status);
        }
        _ => {
            let status = best.map_or(p.status, |b| worse(b.status, p.status));
            *best = Some(Penetration { status, ..p });
        }
    }
}

/// No leaf overlaps: the distance query's answer as a signed distance.
fn apart<V: Vector>(d: Distance<V>) -> Penetration<V> {
    Penetration {
        intersecting: d.intersecting,
        distance: d.distance,
        normal: d.normal,
        point_a: d.point_a,
        point_b: d.point_b,
        part_a: d.part_a,
        part_b: d.part_b,
        status: d.status,
    }
}

/// A leaf run of EPA (the signed distance it found).
fn epa_run<V: Vector>(p: &epa::Penetration<V>, parts: (Option<u32>, Option<u32>)) -> LeafRun<V> {
    LeafRun {
        part_a: parts.0,
        part_b: parts.1,
        intersecting: p.intersecting,
        distance: p.distance,
        point_a: p.point_a,
        point_b: p.point_b,
        iterations: p.iterations,
        status: p.status,
    }
}

/// A leaf run of a closed form (a half-space).
fn closed_run<V: Vector>(p: &Penetration<V>) -> LeafRun<V> {
    LeafRun {
        part_a: p.part_a,
        part_b: p.part_b,
        intersecting: p.intersecting,
        distance: p.distance,
        point_a: p.point_a,
        point_b: p.point_b,
        iterations: 0,
        status: p.status,
    }
}

/// A half-space against a convex shape: B's point deepest along −n, exactly.
fn half_space_convex<V: Vector, B: SupportMap<V> + ?Sized>(
    h: &HalfSpace<V>,
    ph: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
) -> Penetration<V> {
    let n = ph.transform_vector(h.normal());
    let p = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
    let s = n.dot(p - ph.translation);
    Penetration {
        intersecting: s <= V::Real::ZERO,
        distance: s,
        normal: n,
        point_a: p - n * s,
        point_b: p,
        part_a: None,
        part_b: None,
        status: Status::Converged,
    }
}

impl<V: Vector, O: WalkObserver<V>> PairQuery<V> for PenetrationQuery<O> {
    type Output = Penetration<V>;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> Penetration<V>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let p = epa::penetration(a, pa, b, pb);
        Shared::new(&mut self.obs).leaf(|| epa_run(&p, (None, None)));
        from_epa(&p)
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Penetration<V> {
        let p = half_space_convex(h, ph, b, pb);
        Shared::new(&mut self.obs).leaf(|| closed_run(&p));
        p
    }

    fn half_space_half_space(
        &mut self,
        a: &HalfSpace<V>,
        pa: &Iso<V>,
        b: &HalfSpace<V>,
        pb: &Iso<V>,
    ) -> Penetration<V> {
        let p = apart(half_space_half_space(a, pa, b, pb));
        Shared::new(&mut self.obs).leaf(|| closed_run(&p));
        p
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Penetration<V> {
        let bbox = box_in(b, pb, pc);
        let mut best = None;
        let obs = Shared::new(&mut self.obs);
        c.bvh().for_each_where_visit(
            |node| node.intersects(&bbox),
            |id| {
                if !gjk::intersects(&c.leaf(id), &leaf_world(c, pc, id), b, pb) {
                    obs.leaf(|| LeafRun::verdict((Some(id), None), false, 0));
                    return true;
                }
                let p = leaf_penetration(c, pc, id, b, pb);
                obs.leaf(|| epa_run(&p, (Some(id), None)));
                if p.intersecting {
                    deepest(&mut best, Penetration { part_a: Some(id), ..from_epa(&p) });
                }
                true
            },
            |node| obs.node(Side::A, node),
        );
        if let Some(p) = best {
            return p;
        }
        let d = apart(DistanceQuery { max_distance: None, obs: &mut self.obs }.composite_convex(c, pc, b, pb));
        if !d.intersecting || !c.is_solid() {
            return d;
        }
        inside_solid(c, pc, b, pb, d)
    }

    fn composite_half_space<C: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
    ) -> Penetration<V> {
        let (n, o) = plane_in(h, ph, pc);
        let mut best = None;
        let obs = Shared::new(&mut self.obs);
        c.bvh().for_each_where_visit(
            |node| box_above_plane(node, n, o) <= V::Real::ZERO,
            |id| {
                let p = flip(half_space_convex(h, ph, &c.leaf(id), &leaf_world(c, pc, id)));
                let p = Penetration { part_a: Some(id), ..p };
                obs.leaf(|| closed_run(&p));
                if p.intersecting {
                    deepest(&mut best, p);
                }
                true
            },
            |node| obs.node(Side::A, node),
        );
        best.unwrap_or_else(|| {
            apart(DistanceQuery { max_distance: None, obs: &mut self.obs }.composite_half_space(c, pc, h, ph))
        })
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> Penetration<V> {
        let rel = RelativeBoxes::new(pc.relative(pd));
        let mut best = None;
        let obs = Shared::new(&mut self.obs);
        c.bvh().for_each_pair_visit(
            d.bvh(),
            &rel,
            V::Real::ZERO,
            |i, j| {
                let p = epa::penetration(&c.leaf(i), &leaf_world(c, pc, i), &d.leaf(j), &leaf_world(d, pd, j));
                obs.leaf(|| epa_run(&p, (Some(i), Some(j))));
                if p.intersecting {
                    deepest(&mut best, Penetration { part_a: Some(i), part_b: Some(j), ..from_epa(&p) });
                }
                true
            },
            |a, b| obs.node_pair(a, b),
        );
        best.unwrap_or_else(|| {
            apart(DistanceQuery { max_distance: None, obs: &mut self.obs }.composite_composite(c, pc, d, pd))
        })
    }

    fn flip(&mut self, out: Penetration<V>) -> Penetration<V> {
        if O::ENABLED {
            self.obs.swap();
        }
        flip(out)
    }
}

fn flip<V: Vector>(p: Penetration<V>) -> Penetration<V> {
    Penetration { normal: -p.normal, point_a: p.point_b, point_b: p.point_a, part_a: p.part_b, part_b: p.part_a, ..p }
}

/// `b` is inside the solid composite `c` without touching a leaf: out through the nearest leaf. The closest points
/// (`q` on the surface, `r` on B) give the outward direction `n = (q − r)/|q − r|`; B clears the plane through `q`
/// across `n` after moving by `n · (q − lowest point of B along n)`.
fn inside_solid<V, C, B>(c: &C, pc: &Iso<V>, b: &B, pb: &Iso<V>, fallback: Penetration<V>) -> Penetration<V>
where
    V: Vector,
    C: Composite<V>,
    B: SupportMap<V> + ?Sized,
{
    // The distance to the surface alone (the solid's interior ignored): the leaves' branch and bound.
    let bbox = box_in(b, pb, pc);
    let mut best: Option<(V, V, u32, V::Real)> = None;
    c.bvh().closest_first(
        V::Real::INFINITY,
        |node| crate::bvh::box_distance_squared(node, &bbox),
        |id, bound| {
            let d = crate::gjk::distance(&c.leaf(id), &leaf_world(c, pc, id), b, pb);
            let d2 = d.distance * d.distance;
            (d2 <= bound).then(|| {
                best = Some((d.point_a, d.point_b, id, d.distance));
                d2
            })
        },
    );
    let Some((q, r, id, gap)) = best else { return fallback };
    let n = if gap > V::Real::ZERO { (q - r) * (V::Real::ONE / gap) } else { V::zero() };
    let low = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
    let depth = n.dot(q - low);
    Penetration {
        intersecting: true,
        distance: -depth,
        normal: n,
        point_a: q,
        point_b: low,
        part_a: Some(id),
        part_b: None,
        status: Status::Converged,
    }
}
