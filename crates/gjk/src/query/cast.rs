//! Casts against composites: the first time two shapes in motion touch.
//!
//! A linear [`shape_cast`] against a composite walks its tree like a ray: the moving shape's box, seen in the
//! composite's frame, sweeps along the relative velocity, so the nodes are visited in the order that swept box
//! enters them (a ray from the box's centre against node boxes grown by its half-extents), each leaf is cast with
//! [`crate::cast::shape_cast`] limited to the earliest hit so far, and nodes entered later are skipped. A rotating
//! [`time_of_impact`] takes the leaves whose boxes meet a ball that provably holds the moving shape over the whole
//! interval, and runs [`crate::cast::time_of_impact`] on each, keeping the earliest.

use super::dispatch::{pair, PairQuery, Shape};
use super::{box_above_plane, box_in, leaf_world, plane_in, positive};
use crate::bvh::{Ray, RelativeBoxes};
use crate::cast::{self, Cast, CastOptions, Motion};
use crate::composite::{Composite, HalfSpace};
use crate::gjk::Status;
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::{support_full, Aabb, Posed, SupportMap};

/// A cast's answer with the leaves that meet first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompositeCast<V: Vector> {
    /// The convex cast's fields (hit, time, normal from A toward B, witness points at the time, status).
    pub cast: Cast<V>,
    /// A's leaf that B meets first, `None` for a convex shape or a half-space.
    pub part_a: Option<u32>,
    /// B's leaf.
    pub part_b: Option<u32>,
}

impl<V: Vector> CompositeCast<V> {
    fn of(cast: Cast<V>) -> Self {
        Self { cast, part_a: None, part_b: None }
    }
    fn miss(max_toi: V::Real) -> Self {
        Self::of(Cast::miss(max_toi, 0))
    }
    fn flipped(self) -> Self {
        let c = self.cast;
        Self {
            cast: Cast { normal: -c.normal, point_a: c.point_b, point_b: c.point_a, ..c },
            part_a: self.part_b,
            part_b: self.part_a,
        }
    }
    /// Keeps the earlier of two hits.
    fn earliest(self, other: Self) -> Self {
        match (self.cast.hit, other.cast.hit) {
            (true, true) if other.cast.toi < self.cast.toi => other,
            (false, true) => other,
            _ => self,
        }
    }
}

/// First time in [0, max_toi] at which `a` (at `pose_a`, moving at `velocity_a`) and `b` come within
/// `options.target_distance`, for any pair of shapes (convex, half-space, composite); the leaves met are named.
///
/// ```
/// use gjk::cast::CastOptions;
/// use gjk::composite::TriMesh;
/// use gjk::math::{DVec3, Iso};
/// use gjk::query::shape_cast;
/// use gjk::shape::Ball;
/// let floor = TriMesh::new(
///     vec![DVec3::new(-5.0, 0.0, -5.0), DVec3::new(5.0, 0.0, -5.0), DVec3::new(5.0, 0.0, 5.0), DVec3::new(-5.0, 0.0, 5.0)],
///     vec![[0, 2, 1], [0, 3, 2]],
/// ).unwrap();
/// let ball = Ball::new(0.5).unwrap();
/// // Dropped from 3 m at 10 m/s: touches after 0.25 s.
/// let hit = shape_cast(&floor, &Iso::identity(), DVec3::ZERO, &ball, &Iso::from_translation(DVec3::new(0.0, 3.0, 0.0)),
///     DVec3::new(0.0, -10.0, 0.0), &CastOptions::default());
/// assert!(hit.cast.hit && (hit.cast.toi - 0.25).abs() < 1e-12 && hit.part_a.is_some());
/// ```
pub fn shape_cast<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    velocity_a: V,
    b: &B,
    pose_b: &Iso<V>,
    velocity_b: V,
    options: &CastOptions<V::Real>,
) -> CompositeCast<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let mut q = LinearCast { pose_a, va: velocity_a, vb: velocity_b, options: *options };
    pair(&mut q, a, pose_a, b, pose_b)
}

/// First time in [0, max_toi] at which two shapes under rigid motions (with rotation) come within the target
/// distance, by conservative advancement on each candidate leaf pair (no tunnelling). The poses in the motions are
/// the shapes' poses at t = 0 (a composite's leaves turn with it, about its origin).
pub fn time_of_impact<V, A, B>(
    a: &A,
    motion_a: &Motion<V>,
    b: &B,
    motion_b: &Motion<V>,
    options: &CastOptions<V::Real>,
) -> CompositeCast<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    let mut q = RotatingCast { ma: motion_a, mb: motion_b, options: *options };
    pair(&mut q, a, &motion_a.pose, b, &motion_b.pose)
}

/// The dispatch passes the caller's pose references through (swapping them when it swaps the shapes), so a pose's
/// address tells whose it is, and so whose velocity (or motion) goes with it.
struct LinearCast<'p, V: Vector> {
    pose_a: &'p Iso<V>,
    va: V,
    vb: V,
    options: CastOptions<V::Real>,
}

impl<V: Vector> LinearCast<'_, V> {
    /// The velocity of the shape at `pose` (one of the two the caller gave).
    fn vel(&self, pose: &Iso<V>) -> V {
        if core::ptr::eq(pose, self.pose_a) {
            self.va
        } else {
            self.vb
        }
    }

    /// Half-space (at `ph`, moving at `vh`) against a convex shape moving at `vb`: B's lowest point along the
    /// normal closes on the plane at the normal component of the relative velocity, which is constant.
    fn half_space_at<B: SupportMap<V> + ?Sized>(
        &self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        vh: V,
        b: &B,
        pb: &Iso<V>,
        vb: V,
    ) -> CompositeCast<V> {
        let zero = V::Real::ZERO;
        let n = ph.transform_vector(h.normal());
        let low = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
        let gap = n.dot(low - ph.translation) - self.options.target_distance;
        let closing = -n.dot(vb - vh);
        let t = if gap <= zero {
            if self.options.ignore_initial_overlap_when_separating && closing <= zero {
                return CompositeCast::miss(self.options.max_toi);
            }
            zero
        } else if closing > zero && gap / closing <= self.options.max_toi {
            gap / closing
        } else {
            return CompositeCast::miss(self.options.max_toi);
        };
        let point_b = low + vb * t;
        CompositeCast::of(Cast {
            hit: true,
            toi: t,
            normal: n,
            point_a: point_b - n * (positive(gap - closing * t) + self.options.target_distance),
            point_b,
            iterations: 1,
            status: Status::Converged,
        })
    }
}

impl<V: Vector> PairQuery<V> for LinearCast<'_, V> {
    type Output = CompositeCast<V>;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> CompositeCast<V>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        CompositeCast::of(cast::shape_cast(a, pa, self.vel(pa), b, pb, self.vel(pb), &self.options))
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        self.half_space_at(h, ph, self.vel(ph), b, pb, self.vel(pb))
    }

    fn half_space_half_space(
        &mut self,
        a: &HalfSpace<V>,
        pa: &Iso<V>,
        b: &HalfSpace<V>,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        let (va, vb) = (self.vel(pa), self.vel(pb));
        let d = super::distance(a, pa, b, pb);
        let closing = d.normal.dot(va - vb);
        let gap = d.distance - self.options.target_distance;
        let t = if gap <= V::Real::ZERO {
            V::Real::ZERO
        } else if closing > V::Real::ZERO && gap / closing <= self.options.max_toi {
            gap / closing
        } else {
            return CompositeCast::miss(self.options.max_toi);
        };
        CompositeCast::of(Cast {
            hit: true,
            toi: t,
            normal: d.normal,
            point_a: d.point_a + va * t,
            point_b: d.point_b + vb * t,
            iterations: 1,
            status: Status::Converged,
        })
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        let (vc, vb) = (self.vel(pc), self.vel(pb));
        let bbox = box_in(b, pb, pc);
        let v = pc.inverse_transform_vector(vb - vc);
        let ray = Ray::with_margin(
            bbox.center(),
            v,
            bbox.half_extents() + V::from_fn(|_| positive(self.options.target_distance)),
        );
        let mut best = CompositeCast::miss(self.options.max_toi);
        let mut opts = self.options;
        c.bvh().cast_ray(&ray, self.options.max_toi, false, |id, max_t| {
            opts.max_toi = max_t;
            let hit = cast::shape_cast(&c.leaf(id), &leaf_world(c, pc, id), vc, b, pb, vb, &opts);
            if !hit.hit {
                return None;
            }
            best = best.earliest(CompositeCast { cast: hit, part_a: Some(id), part_b: None });
            Some(hit.toi)
        });
        best
    }

    fn composite_half_space<C: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
    ) -> CompositeCast<V> {
        let (vc, vh) = (self.vel(pc), self.vel(ph));
        let (n, o) = plane_in(h, ph, pc);
        // Leaves that can reach the plane in time: their box's lowest point, less what the motion closes.
        let closing = positive(-pc.inverse_transform_vector(vc - vh).dot(n));
        let reach = closing * self.options.max_toi + self.options.target_distance;
        let mut best = CompositeCast::miss(self.options.max_toi);
        c.bvh().for_each_where(
            |node| box_above_plane(node, n, o) <= reach,
            |id| {
                let hit = self.half_space_at(h, ph, vh, &c.leaf(id), &leaf_world(c, pc, id), vc);
                best = best.earliest(CompositeCast { part_b: Some(id), ..hit }.flipped());
                true
            },
        );
        best
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> CompositeCast<V> {
        // Leaf pairs whose boxes come within the relative displacement over the interval (all of them when the
        // interval is unbounded).
        let (vc, vd) = (self.vel(pc), self.vel(pd));
        let rel = RelativeBoxes::new(pc.relative(pd));
        let sweep = (vd - vc).length() * self.options.max_toi + positive(self.options.target_distance);
        let mut best = CompositeCast::miss(self.options.max_toi);
        c.bvh().for_each_pair(d.bvh(), &rel, sweep, |i, j| {
            let mut opts = self.options;
            if best.cast.hit {
                opts.max_toi = best.cast.toi;
            }
            let hit =
                cast::shape_cast(&c.leaf(i), &leaf_world(c, pc, i), vc, &d.leaf(j), &leaf_world(d, pd, j), vd, &opts);
            best = best.earliest(CompositeCast { cast: hit, part_a: Some(i), part_b: Some(j) });
            true
        });
        best
    }

    fn flip(&mut self, out: CompositeCast<V>) -> CompositeCast<V> {
        out.flipped()
    }
}

struct RotatingCast<'m, V: Vector> {
    ma: &'m Motion<V>,
    mb: &'m Motion<V>,
    options: CastOptions<V::Real>,
}

/// A leaf in its composite's frame, so the composite's motion moves it.
fn in_frame<'a, V: Vector, C: Composite<V>>(c: &'a C, id: u32) -> Posed<C::Leaf<'a>, V> {
    Posed::new(c.leaf(id), c.leaf_pose(id).copied().unwrap_or_default())
}

/// Largest distance of a point of the shape's box from its local origin.
fn reach<V: Vector>(b: &Aabb<V>) -> V::Real {
    b.min.abs_elem().max_elem(b.max.abs_elem()).length()
}

impl<V: Vector> RotatingCast<'_, V> {
    /// The motion of the shape at `pose` (see [`LinearCast`]).
    fn motion(&self, pose: &Iso<V>) -> Motion<V> {
        if core::ptr::eq(pose, &self.ma.pose) {
            *self.ma
        } else {
            *self.mb
        }
    }

    /// A box in `c`'s frame (at its motion's start) holding every position of a shape of local box `local` under
    /// `mb` while `c` moves by `mc`, over [0, max_toi]: the shape stays within its reach of its origin, and its
    /// origin, seen from `c`, drifts at most `T·(|v_b − v_c| + |ω_c|·|x_b − x_c|)` plus the drift of that distance.
    fn swept_box(mc: &Motion<V>, mb: &Motion<V>, local: &Aabb<V>, max_toi: V::Real) -> Aabb<V> {
        let centre = mc.pose.inverse_transform_point(mb.pose.translation);
        let v = (mb.linear - mc.linear).length();
        let w = V::Rotation::angular_speed(mc.angular);
        let far = (mb.pose.translation - mc.pose.translation).length() + v * max_toi;
        let drift = max_toi * (v + w * far);
        let r = reach(local) + if drift.is_finite() { drift } else { V::Real::INFINITY };
        Aabb::new(centre - V::from_fn(|_| r), centre + V::from_fn(|_| r))
    }

    fn hit_of(&self, hit: Cast<V>, parts: (Option<u32>, Option<u32>)) -> CompositeCast<V> {
        CompositeCast { cast: hit, part_a: parts.0, part_b: parts.1 }
    }
}

impl<V: Vector> PairQuery<V> for RotatingCast<'_, V> {
    type Output = CompositeCast<V>;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> CompositeCast<V>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        CompositeCast::of(cast::time_of_impact(a, &self.motion(pa), b, &self.motion(pb), &self.options))
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        // Conservative advancement on the exact signed distance: no point of B approaches the plane faster than
        // B's linear speed plus its spin times its reach, plus the plane's spin times how far B can be from the
        // plane's origin.
        let (ma, mb, opts) = (self.motion(ph), self.motion(pb), self.options);
        let rb = reach(&b.local_aabb());
        let spin_b = V::Rotation::angular_speed(mb.angular) * rb;
        let wa = V::Rotation::angular_speed(ma.angular);
        let mut t = V::Real::ZERO;
        let mut lin = LinearCast { pose_a: ph, va: V::zero(), vb: V::zero(), options: opts };
        for iteration in 1..=opts.max_iterations {
            let (pa, pb) = (ma.at(t), mb.at(t));
            let d = lin.half_space_convex(h, &pa, b, &pb);
            let n = pa.transform_vector(h.normal());
            let low = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
            let gap = n.dot(low - pa.translation) - opts.target_distance;
            let tol = V::Real::from_f64(1e-10).max(V::Real::from_f64(64.0) * V::Real::EPSILON) * (rb + V::Real::ONE);
            if gap <= tol {
                let mut hit = d.cast;
                hit.toi = t;
                hit.iterations = iteration;
                return CompositeCast::of(hit);
            }
            let far = (pb.translation - pa.translation).length() + rb;
            let bound = (mb.linear - ma.linear).length() + spin_b + wa * far;
            if !(bound > V::Real::ZERO) {
                return CompositeCast::miss(self.options.max_toi);
            }
            t += gap / bound;
            if t > opts.max_toi || !t.is_finite() {
                return CompositeCast::miss(self.options.max_toi);
            }
        }
        CompositeCast::of(Cast { toi: t, ..Cast::undecided(t, opts.max_iterations, Status::MaxIterations) })
    }

    fn half_space_half_space(
        &mut self,
        a: &HalfSpace<V>,
        pa: &Iso<V>,
        b: &HalfSpace<V>,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        // Two planes: only their linear motion is considered (a turning half-space sweeps all of space).
        let (va, vb) = (self.motion(pa).linear, self.motion(pb).linear);
        LinearCast { pose_a: pa, va, vb, options: self.options }.half_space_half_space(a, pa, b, pb)
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> CompositeCast<V> {
        let (mc, mb) = (self.motion(pc), self.motion(pb));
        let region = Self::swept_box(&mc, &mb, &b.local_aabb(), self.options.max_toi);
        let mut best = CompositeCast::miss(self.options.max_toi);
        c.bvh().for_each_overlap(&region, |id| {
            let mut opts = self.options;
            if best.cast.hit {
                opts.max_toi = best.cast.toi;
            }
            let hit = cast::time_of_impact(&in_frame(c, id), &mc, b, &mb, &opts);
            best = best.earliest(self.hit_of(hit, (Some(id), None)));
            true
        });
        best
    }

    fn composite_half_space<C: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
    ) -> CompositeCast<V> {
        let mut best = CompositeCast::miss(self.options.max_toi);
        let max_toi = self.options.max_toi;
        for id in 0..c.bvh().primitives().len() as u32 {
            let leaf = in_frame(c, id);
            self.options.max_toi = if best.cast.hit { best.cast.toi } else { max_toi };
            // `pc` is the caller's pose reference: the leaf, posed in the composite's frame, moves with it.
            let hit = self.half_space_convex(h, ph, &leaf, pc);
            best = best.earliest(CompositeCast { part_b: Some(id), ..hit }.flipped());
        }
        self.options.max_toi = max_toi;
        best
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> CompositeCast<V> {
        let (mc, md) = (self.motion(pc), self.motion(pd));
        let mut best = CompositeCast::miss(self.options.max_toi);
        let Some(dbox) = d.bvh().root_aabb() else { return best };
        let region = Self::swept_box(&mc, &md, &dbox, self.options.max_toi);
        c.bvh().for_each_overlap(&region, |i| {
            for j in 0..d.bvh().primitives().len() as u32 {
                let mut opts = self.options;
                if best.cast.hit {
                    opts.max_toi = best.cast.toi;
                }
                let hit = cast::time_of_impact(&in_frame(c, i), &mc, &in_frame(d, j), &md, &opts);
                best = best.earliest(self.hit_of(hit, (Some(i), Some(j))));
            }
            true
        });
        best
    }

    fn flip(&mut self, out: CompositeCast<V>) -> CompositeCast<V> {
        out.flipped()
    }
}
