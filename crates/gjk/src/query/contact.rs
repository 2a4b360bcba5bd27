//! Contact manifolds for every pair of kinds.
//!
//! Against a composite, each leaf near the other shape gives its own manifold (EPA's normal, the supporting
//! features clipped, as [`crate::manifold`] does for two convex shapes; a box or a capsule on a mesh triangle by
//! the same rules without asking the shapes for their features, `manifold/triangle.rs`). A mesh first checks the normal: when it
//! comes from an inactive ridge (an interior edge of a flat region) or a corner with no active ridge, it is a
//! ghost, and the face's normal replaces it, with the separation measured along it. Manifolds whose normals agree
//! (within [`MERGE_COS`]) are merged and reduced to four points (two in 2D): the deepest, the farthest from it, then
//! the widest area — chosen among all the merged leaves' contacts at once (queued, and reduced when the query ends
//! or, past 128 waiting, when the queue is full), not leaf by leaf. Each point keeps the leaves it came from and the id the convex manifold gave it, so
//! `(part_a, part_b, id)` names a contact stably from frame to frame.

use super::dispatch::{pair, PairQuery, Shape};
use super::penetration::leaf_penetration_within;
use super::{box_above_plane, box_in, leaf_world, plane_in, positive, worse};
use crate::analytic::triangle::TriangleProbe;
use crate::bvh::RelativeBoxes;
use crate::composite::{Composite, HalfSpace};
use crate::epa;
use crate::gjk::Status;
use crate::manifold::{manifold_from_penetration_in, reduce, Scratch, MAX_CONTACTS};
use crate::math::{Iso, Real, Vector};
use crate::shape::{Feature, SupportMap};
use alloc::vec::Vec;
use arrayvec::ArrayVec;

/// Two manifolds whose unit normals have a dot product above this are merged into one (about 0.8°).
pub const MERGE_COS: f64 = 0.9999;

/// One contact point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactPoint<V> {
    /// The point on A (world).
    pub point_a: V,
    /// The point on B (world).
    pub point_b: V,
    /// Depth along the manifold's normal (negative: a gap, within the prediction distance).
    pub depth: f64,
    /// The convex manifold's id of the point (stable while the same features touch).
    pub id: u64,
    /// A's leaf, `None` for a convex shape or a half-space.
    pub part_a: Option<u32>,
    /// B's leaf.
    pub part_b: Option<u32>,
}

/// Up to four contacts sharing a normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Manifold<V: Vector> {
    /// Unit normal from A toward B.
    pub normal: V,
    /// The contacts (the first `len`).
    pub points: [ContactPoint<V>; MAX_CONTACTS],
    /// How many.
    pub len: usize,
    /// The worst status of the leaf queries that made it.
    pub status: Status,
}

impl<V: Vector> Manifold<V> {
    /// The contacts.
    pub fn points(&self) -> &[ContactPoint<V>] {
        &self.points[..self.len]
    }
    /// The deepest contact's depth.
    pub fn max_depth(&self) -> f64 {
        self.points().iter().fold(f64::NEG_INFINITY, |m, c| m.max(c.depth))
    }
}

/// Every contact between two shapes within `prediction`, as manifolds written into `out` (cleared first; its
/// capacity is kept, so a caller reusing it does not allocate once it has grown).
///
/// ```
/// use gjk::composite::TriMesh;
/// use gjk::math::{DVec3, Iso};
/// use gjk::query::contacts;
/// use gjk::shape::Cuboid;
/// // A floor tessellated into a 4 × 4 grid, a crate resting 0.01 deep on it across several triangles.
/// let mut vertices = Vec::new();
/// let mut triangles = Vec::new();
/// for i in 0..5 {
///     for j in 0..5 {
///         vertices.push(DVec3::new(i as f64 - 2.0, 0.0, j as f64 - 2.0));
///     }
/// }
/// for i in 0..4 {
///     for j in 0..4 {
///         let k = i * 5 + j;
///         triangles.push([k, k + 1, k + 6]);
///         triangles.push([k, k + 6, k + 5]);
///     }
/// }
/// let floor = TriMesh::new(vertices, triangles).unwrap();
/// let crate_ = Cuboid::new(DVec3::splat(0.5)).unwrap();
/// let mut manifolds = Vec::new();
/// contacts(&floor, &Iso::identity(), &crate_, &Iso::from_translation(DVec3::new(0.3, 0.49, 0.2)), 0.0, &mut manifolds);
/// assert_eq!(manifolds.len(), 1); // one face normal: no ghost normal from the interior edges
/// assert_eq!(manifolds[0].normal, DVec3::Y);
/// assert_eq!(manifolds[0].len, 4);
/// for c in manifolds[0].points() {
///     assert!((c.depth - 0.01).abs() < 1e-12);
/// }
/// ```
pub fn contacts<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    prediction: V::Real,
    out: &mut Vec<Manifold<V>>,
) where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    out.clear();
    // Built here and lent to the query, never moved: an `ArrayVec` is not zeroed, and a move would copy it whole.
    let mut pending = ArrayVec::new();
    let mut query = ContactQuery { prediction, out, scratch: None, pending: &mut pending };
    pair(&mut query, a, pose_a, b, pose_b);
    query.merge();
}

/// Room for the contacts waiting to be merged into their manifolds: a box resting on the monastery brings 84 a
/// query on average (one query in ten more than 155), a capsule 45.
const PENDING: usize = 128;

// A queued contact is named by a byte while merging (and so is a count of them).
const _: () = assert!(PENDING <= 255);

/// A contact waiting to be merged into the manifold `out[join]`.
#[derive(Clone, Copy)]
struct Queued<V: Vector> {
    join: u32,
    point: ContactPoint<V>,
}

struct ContactQuery<'o, V: Vector> {
    prediction: V::Real,
    out: &'o mut Vec<Manifold<V>>,
    /// The convex manifold's buffers, zeroed once per query rather than once per leaf (see [`Scratch`]), and only
    /// when a leaf needs them: a box or a capsule on a mesh's triangles never does (its manifolds are built in closed
    /// form), and zeroing them was about 2 % of its instructions.
    scratch: Option<Scratch<V>>,
    /// The contacts found since the last merge. They are merged — each manifold's points, old and new, reduced
    /// once — when the buffer is full and when the query ends, not at every leaf: a box resting on a mesh touches
    /// dozens of triangles, most with one normal, and reducing after each one cost a tenth of the query (callgrind,
    /// the monastery).
    pending: &'o mut ArrayVec<Queued<V>, PENDING>,
}

impl<V: Vector> ContactQuery<'_, V> {
    /// The index in `out` of the manifold whose normal agrees with `normal` (a new one if none), its status made
    /// the worse of its own and `status`.
    fn manifold_for(&mut self, normal: V, status: Status) -> u32 {
        let cos = V::Real::from_f64(MERGE_COS);
        let slot = self.out.iter().position(|m| m.normal.dot(normal) > cos);
        let i = slot.unwrap_or_else(|| {
            self.out.push(Manifold {
                normal,
                points: [ContactPoint::default(); MAX_CONTACTS],
                len: 0,
                status: Status::Converged,
            });
            self.out.len() - 1
        });
        let m = &mut self.out[i];
        m.status = worse(m.status, status);
        i as u32
    }

    /// Queues the contact `point` for the manifold `out[join]`, merging first when the buffer is full.
    #[inline]
    fn push(&mut self, join: u32, point: ContactPoint<V>) {
        if self.pending.is_full() {
            self.merge();
        }
        self.pending.push(Queued { join, point });
    }

    /// Adds contacts with `normal`: to a manifold of this query whose normal agrees, else a new one.
    fn add(&mut self, normal: V, points: &[ContactPoint<V>], status: Status) {
        if points.is_empty() {
            return;
        }
        let join = self.manifold_for(normal, status);
        for c in points {
            self.push(join, *c);
        }
    }

    /// Merges the queued contacts into their manifolds: each manifold's points so far, then its queued ones in the
    /// order they came, reduced to four (two in 2D) by [`reduce`] — the deepest, the farthest from it, then the
    /// widest area. Until the buffer first fills, that is every contact of the manifold reduced at once.
    fn merge(&mut self) {
        let max = if V::DIM == 2 { 2 } else { MAX_CONTACTS };
        let queued = &mut self.pending[..];
        let Some(first) = queued.first().map(|q| q.join) else { return };
        if self.out[first as usize].len == 0 && queued.iter().all(|q| q.join == first) {
            // The common case, a manifold new since the last merge and alone in the buffer: reduced where it lies.
            let kept = reduce(queued, max, |q| q.point.depth, |q| q.point.point_a);
            let m = &mut self.out[first as usize];
            for (slot, q) in m.points.iter_mut().zip(&queued[..kept]) {
                *slot = q.point;
            }
            m.len = kept;
            self.pending.clear();
            return;
        }
        // The queued contacts by manifold, in the order they came (a counting sort on the manifold's index; a scan
        // of the queue per manifold was 1.7 % (box) and 2.9 % (capsule) more instructions on the monastery).
        let (lo, hi) = queued.iter().fold((first, first), |(lo, hi), q| (lo.min(q.join), hi.max(q.join)));
        let span = (hi - lo) as usize + 1;
        let mut order = [0u8; PENDING];
        let mut starts = [0u8; PENDING + 1];
        if span <= PENDING {
            for q in queued.iter() {
                starts[(q.join - lo) as usize + 1] += 1;
            }
            for k in 0..span {
                starts[k + 1] += starts[k];
            }
            let mut next = starts;
            for (i, q) in queued.iter().enumerate() {
                let slot = &mut next[(q.join - lo) as usize];
                order[*slot as usize] = i as u8;
                *slot += 1;
            }
        }
        let queued = &self.pending[..];
        for join in lo..=hi {
            let m = &mut self.out[join as usize];
            // The manifold's points so far, then its queued ones, side by side (not zeroed: an `ArrayVec`).
            let mut all = ArrayVec::<ContactPoint<V>, { MAX_CONTACTS + PENDING }>::new();
            all.extend(m.points[..m.len].iter().copied());
            if span <= PENDING {
                let g = (join - lo) as usize;
                all.extend(order[starts[g] as usize..starts[g + 1] as usize].iter().map(|&i| queued[i as usize].point));
            } else {
                // Manifolds far apart in `out` (after many merges): found by a scan.
                all.extend(queued.iter().filter(|q| q.join == join).map(|q| q.point));
            }
            if all.len() == m.len {
                continue;
            }
            let kept = reduce(&mut all, max, |c| c.depth, |c| c.point_a);
            m.points[..kept].copy_from_slice(&all[..kept]);
            m.len = kept;
        }
        self.pending.clear();
    }

    /// The manifold of two convex leaves, with a mesh's normal check on the composite side(s) when given.
    fn convex_manifold<A, B>(
        &mut self,
        a: &A,
        pa: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
        parts: (Option<u32>, Option<u32>),
        p: Option<&epa::Penetration<V>>,
    ) where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let scratch = self.scratch.get_or_insert_with(Scratch::default);
        let m = match p {
            Some(p) => manifold_from_penetration_in(a, pa, b, pb, p, self.prediction, scratch),
            None => {
                let p = epa::penetration(a, pa, b, pb);
                manifold_from_penetration_in(a, pa, b, pb, &p, self.prediction, scratch)
            }
        };
        self.add_manifold(&m, parts);
    }

    /// Adds a convex pair's manifold, its contacts naming the leaves `parts` they came from.
    fn add_manifold(&mut self, m: &crate::manifold::Manifold<V>, parts: (Option<u32>, Option<u32>)) {
        if m.len == 0 {
            return;
        }
        let join = self.manifold_for(m.normal, m.status);
        for c in m.contacts() {
            let (point_a, point_b, depth, id) = (c.point_a, c.point_b, c.depth, c.id);
            self.push(join, ContactPoint { point_a, point_b, depth, id, part_a: parts.0, part_b: parts.1 });
        }
    }

    /// Contacts of B (convex) on the half-space, from B's feature supporting −n.
    fn on_half_space<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
        part_b: Option<u32>,
    ) {
        let n = ph.transform_vector(h.normal());
        let (o, rb) = (ph.translation, b.radius());
        let mut f = Feature::default();
        b.support_feature(pb.inverse_transform_vector(-n), &mut f);
        if f.len == 0 {
            f.single(b.support(pb.inverse_transform_vector(-n)), 0);
        }
        let mut points = [ContactPoint::default(); crate::shape::MAX_FEATURE_POINTS];
        let mut count = 0;
        for (q, &id) in f.points().iter().zip(&f.ids) {
            let on_b = pb.transform_point(*q) - n * rb;
            let s = n.dot(on_b - o);
            if s <= self.prediction {
                points[count] = ContactPoint {
                    point_a: on_b - n * s,
                    point_b: on_b,
                    depth: (-s).to_f64(),
                    id: u64::from(id),
                    part_a: None,
                    part_b,
                };
                count += 1;
            }
        }
        self.add(n, &points[..count], Status::Converged);
    }
}

impl<V: Vector> PairQuery<V> for ContactQuery<'_, V> {
    /// The manifolds this call added start at this index of `out`.
    type Output = usize;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> usize
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        let start = self.out.len();
        self.convex_manifold(a, pa, b, pb, (None, None), None);
        start
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> usize {
        let start = self.out.len();
        self.on_half_space(h, ph, b, pb, None);
        start
    }

    fn half_space_half_space(&mut self, _a: &HalfSpace<V>, _pa: &Iso<V>, _b: &HalfSpace<V>, _pb: &Iso<V>) -> usize {
        // Two half-spaces overlap over an unbounded region or not at all: no finite set of contact points.
        self.out.len()
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> usize {
        let start = self.out.len();
        let bbox = box_in(b, pb, pc).loosened(positive(self.prediction));
        let bound = Some(positive(self.prediction));
        let probe = TriangleProbe::new(b, pb, pc);
        c.bvh().for_each_overlap(&bbox, |id| {
            // Many leaves under the box are apart: the penetration query's GJK, bounded by the prediction, drops
            // them after a step or two, before the exact distance and EPA; the leaves it keeps go on from the same
            // run (callgrind, box resting on the monastery: a separate bounded GJK before the query cost 17 % of
            // the instructions).
            // A box or a capsule on a triangle: the closed forms (penetration and manifold) on the triangle read once.
            let closed_form = probe.as_ref().and_then(|probe| Some((probe, c.leaf_triangle(id)?)));
            let Some(p) = leaf_penetration_within(c, pc, id, b, pb, bound, closed_form) else { return true };
            if p.distance > self.prediction {
                return true;
            }
            let parts = (Some(id), None);
            match closed_form {
                // A box or a capsule on a triangle: the manifold without the shapes' features (see
                // `manifold::box_triangle`).
                Some((probe, t)) => self.add_manifold(&probe.manifold(t, &p, self.prediction), parts),
                None => self.convex_manifold(&c.leaf(id), &leaf_world(c, pc, id), b, pb, parts, Some(&p)),
            }
            true
        });
        start
    }

    fn composite_half_space<C: Composite<V>>(&mut self, c: &C, pc: &Iso<V>, h: &HalfSpace<V>, ph: &Iso<V>) -> usize {
        // Built as B (the composite's leaves) on A (the half-space), then flipped by the dispatch's caller: here the
        // composite is A, so build on the half-space and flip in place.
        let start = self.out.len();
        let (n, o) = plane_in(h, ph, pc);
        let prediction = self.prediction;
        c.bvh().for_each_where(
            |node| box_above_plane(node, n, o) <= prediction,
            |id| {
                self.on_half_space(h, ph, &c.leaf(id), &leaf_world(c, pc, id), Some(id));
                true
            },
        );
        self.flip(start)
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> usize {
        let start = self.out.len();
        let rel = RelativeBoxes::new(pc.relative(pd));
        c.bvh().for_each_pair(d.bvh(), &rel, positive(self.prediction), |i, j| {
            let (li, lj) = (c.leaf(i), d.leaf(j));
            let (wi, wj) = (leaf_world(c, pc, i), leaf_world(d, pd, j));
            let p = epa::penetration(&li, &wi, &lj, &wj);
            if p.distance <= self.prediction {
                self.convex_manifold(&li, &wi, &lj, &wj, (Some(i), Some(j)), Some(&p));
            }
            true
        });
        start
    }

    fn flip(&mut self, start: usize) -> usize {
        // The manifolds are complete before they are turned.
        self.merge();
        for m in &mut self.out[start..] {
            m.normal = -m.normal;
            for c in &mut m.points[..m.len] {
                core::mem::swap(&mut c.point_a, &mut c.point_b);
                core::mem::swap(&mut c.part_a, &mut c.part_b);
            }
        }
        start
    }
}
