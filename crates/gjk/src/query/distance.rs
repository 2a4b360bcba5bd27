//! Distance and intersection for every pair of kinds. Composites by branch and bound: tree nodes in increasing
//! order of the distance between their box and the other shape's (or the other tree's node box), GJK on the
//! leaves with the best distance so far as its `max_distance` (a leaf farther than that stops after a few steps),
//! nodes no nearer than the best skipped.

use super::dispatch::{pair, PairQuery, Shape};
use super::observe::{LeafRun, Shared, Side, WalkObserver};
use super::{box_above_plane, box_in, leaf_world, plane_in, positive, worse};
use crate::bvh::{box_distance_squared, RelativeBoxes};
use crate::composite::{Composite, HalfSpace};
use crate::gjk::{self, DistanceOptions, Status};
use crate::math::{Iso, Real, Vector};
use crate::shape::{support_full, Point, SupportMap};

/// The answer of [`distance`]: [`gjk::Distance`]'s fields, the leaves that realise it, and how many leaves ran.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<V: Vector> {
    /// True when the shapes overlap or touch (for a solid composite: also when the other shape is inside it).
    pub intersecting: bool,
    /// The distance; 0 when intersecting; a lower bound with [`Status::AboveBound`].
    pub distance: V::Real,
    /// Closest point of A (world); when intersecting, a point of the overlap.
    pub point_a: V,
    /// Closest point of B (world).
    pub point_b: V,
    /// Unit vector from A toward B (zero when the shapes overlap and no direction is defined).
    pub normal: V,
    /// A's leaf (triangle, part, cell triangle) holding `point_a`; `None` for a convex shape or a half-space.
    pub part_a: Option<u32>,
    /// B's leaf holding `point_b`.
    pub part_b: Option<u32>,
    /// The worst status among the leaf queries that could have decided the answer.
    pub status: Status,
    /// Upper minus lower bound on the distance, over every leaf that could have decided it.
    pub error_bound: V::Real,
    /// Leaf-pair queries run (1 for two convex shapes).
    pub leaves: u32,
}

impl<V: Vector> Distance<V> {
    fn from_gjk(d: &gjk::Distance<V>) -> Self {
        Self {
            intersecting: d.intersecting,
            distance: d.distance,
            point_a: d.point_a,
            point_b: d.point_b,
            normal: d.normal,
            part_a: None,
            part_b: None,
            status: d.status,
            error_bound: d.error_bound,
            leaves: 1,
        }
    }

    /// Nothing within `bound`: a lower bound.
    fn above(bound: V::Real, leaves: u32) -> Self {
        Self {
            intersecting: false,
            distance: bound,
            point_a: V::zero(),
            point_b: V::zero(),
            normal: V::zero(),
            part_a: None,
            part_b: None,
            status: Status::AboveBound,
            error_bound: V::Real::ZERO,
            leaves,
        }
    }

    /// The lower bound this answer proves.
    fn lower(&self) -> V::Real {
        if self.status == Status::AboveBound {
            self.distance
        } else {
            positive(self.distance - self.error_bound)
        }
    }

    /// A and B exchanged.
    fn flipped(self) -> Self {
        Self {
            point_a: self.point_b,
            point_b: self.point_a,
            normal: -self.normal,
            part_a: self.part_b,
            part_b: self.part_a,
            ..self
        }
    }
}

/// Distance between any two shapes ([`Shape`]: convex, half-space, composite), with closest points, normal and
/// the leaves that realise it.
pub fn distance<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> Distance<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    distance_with(a, pose_a, b, pose_b, None)
}

/// [`distance`] that stops as soon as the shapes are known to be farther apart than `max_distance`
/// ([`Status::AboveBound`], the distance then a lower bound).
///
/// ```
/// use gjk::composite::TriMesh;
/// use gjk::gjk::Status;
/// use gjk::math::{DVec2, Iso};
/// use gjk::query;
/// use gjk::shape::Ball;
/// let zigzag = TriMesh::polyline(vec![DVec2::new(0.0, 0.0), DVec2::new(1.0, 1.0), DVec2::new(2.0, 0.0)], false).unwrap();
/// let ball = Ball::new(0.25).unwrap();
/// let far = Iso::from_translation(DVec2::new(1.0, 5.0));
/// let d = query::distance_with(&zigzag, &Iso::identity(), &ball, &far, Some(1.0));
/// assert_eq!(d.status, Status::AboveBound);
/// let d = query::distance_with(&zigzag, &Iso::identity(), &ball, &far, None);
/// assert!((d.distance - 3.75).abs() < 1e-12);
/// ```
pub fn distance_with<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    max_distance: Option<V::Real>,
) -> Distance<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    distance_observed(a, pose_a, b, pose_b, max_distance, &mut ())
}

/// [`distance_with`] reporting the walk to an observer: the tree nodes entered and every leaf pair GJK ran on
/// ([`WalkObserver`]; `()` observes nothing and costs nothing). The answer is the same.
pub fn distance_observed<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    max_distance: Option<V::Real>,
    observer: &mut O,
) -> Distance<V>
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    O: WalkObserver<V>,
{
    pair(&mut DistanceQuery { max_distance, obs: observer }, a, pose_a, b, pose_b)
}

/// Whether two shapes overlap or touch (`distance(..).intersecting`, decided without measuring: a composite stops
/// at its first intersecting leaf).
pub fn intersects<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> bool
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    intersects_observed(a, pose_a, b, pose_b, &mut ())
}

/// [`intersects`] reporting the walk to an observer (each leaf run a verdict, with the GJK iterations the leaf
/// test takes). The answer is the same.
pub fn intersects_observed<V, A, B, O>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>, observer: &mut O) -> bool
where
    V: Vector,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
    O: WalkObserver<V>,
{
    pair(&mut IntersectsQuery { obs: observer }, a, pose_a, b, pose_b)
}

pub(crate) struct DistanceQuery<R, O> {
    pub(crate) max_distance: Option<R>,
    pub(crate) obs: O,
}

/// GJK on two convex shapes, stopping beyond `limit`.
/// GJK on two convex shapes, stopping beyond `limit`; the run is reported to `obs` as the leaves `parts`.
fn convex_pair<V, A, B, O>(
    a: &A,
    pa: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    limit: Option<V::Real>,
    parts: (Option<u32>, Option<u32>),
    obs: &Shared<'_, O>,
) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: WalkObserver<V>,
{
    let options = DistanceOptions { max_distance: limit, ..DistanceOptions::default() };
    let g = gjk::distance_with(a, pa, b, pb, &options, None, &mut ());
    obs.leaf(|| LeafRun {
        part_a: parts.0,
        part_b: parts.1,
        intersecting: g.intersecting,
        distance: g.distance,
        point_a: g.point_a,
        point_b: g.point_b,
        iterations: g.iterations,
        status: g.status,
    });
    Distance { part_a: parts.0, part_b: parts.1, ..Distance::from_gjk(&g) }
}

/// The run of a closed form (a half-space against a convex shape), reported as one leaf run.
fn closed_form_run<V: Vector>(d: &Distance<V>) -> LeafRun<V> {
    LeafRun {
        part_a: d.part_a,
        part_b: d.part_b,
        intersecting: d.intersecting,
        distance: d.distance,
        point_a: d.point_a,
        point_b: d.point_b,
        iterations: 0,
        status: d.status,
    }
}

/// The running answer of a branch and bound: the best leaf, the least lower bound over the leaves that ran, and
/// the worst status among the leaves whose lower bound was below the best when they ran.
struct Best<V: Vector> {
    best: Option<Distance<V>>,
    lower: V::Real,
    status: Status,
    leaves: u32,
}

impl<V: Vector> Best<V> {
    fn new() -> Self {
        Self { best: None, lower: V::Real::INFINITY, status: Status::Converged, leaves: 0 }
    }

    /// Takes a leaf's answer; returns its distance when it is the new best.
    fn offer(&mut self, d: Distance<V>) -> Option<V::Real> {
        self.leaves += 1;
        let current = self.best.as_ref().map_or(V::Real::INFINITY, |b| b.distance);
        let lower = d.lower();
        if lower < current && d.status != Status::AboveBound && d.status != Status::Converged {
            self.status = worse(self.status, d.status);
        }
        if d.status == Status::AboveBound {
            self.lower = self.lower.min(lower);
            return None;
        }
        self.lower = self.lower.min(lower);
        (d.distance < current || self.best.is_none()).then(|| {
            let out = d.distance;
            self.best = Some(d);
            out
        })
    }

    /// The composite's answer; `bound` is what the walk was limited to.
    fn finish(self, bound: V::Real) -> Distance<V> {
        match self.best {
            None => Distance::above(bound.min(self.lower), self.leaves),
            Some(mut d) => {
                d.status = worse(d.status, self.status);
                d.error_bound = positive(d.distance - self.lower.min(d.lower()));
                d.leaves = self.leaves;
                d
            }
        }
    }
}

/// A solid composite `c` whose leaves the other shape does not touch may still hold it: one point of the other
/// shape (`inside_point`, world) decides, since a connected shape not crossing the surface is all in or all out.
fn inside_solid<V: Vector, C: Composite<V>>(d: &mut Distance<V>, c: &C, pc: &Iso<V>, inside_point: V) {
    if !d.intersecting
        && d.status != Status::AboveBound
        && c.is_solid()
        && c.contains_local(pc.inverse_transform_point(inside_point))
    {
        *d = Distance {
            intersecting: true,
            distance: V::Real::ZERO,
            point_a: inside_point,
            point_b: inside_point,
            normal: V::zero(),
            status: Status::Converged,
            error_bound: V::Real::ZERO,
            ..*d
        };
    }
}

impl<V: Vector, O: WalkObserver<V>> PairQuery<V> for DistanceQuery<V::Real, O> {
    type Output = Distance<V>;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> Distance<V>
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        convex_pair(a, pa, b, pb, self.max_distance, (None, None), &Shared::new(&mut self.obs))
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Distance<V> {
        let d = half_space_convex(h, ph, b, pb, self.max_distance);
        Shared::new(&mut self.obs).leaf(|| closed_form_run(&d));
        d
    }

    fn half_space_half_space(&mut self, a: &HalfSpace<V>, pa: &Iso<V>, b: &HalfSpace<V>, pb: &Iso<V>) -> Distance<V> {
        let d = half_space_half_space(a, pa, b, pb);
        Shared::new(&mut self.obs).leaf(|| closed_form_run(&d));
        d
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Distance<V> {
        let bbox = box_in(b, pb, pc);
        // A negative bound admits only touching leaves (its square must not turn it positive).
        let limit = positive(self.max_distance.unwrap_or(V::Real::INFINITY));
        let mut best = Best::new();
        let obs = Shared::new(&mut self.obs);
        c.bvh().closest_first_visit(
            limit * limit,
            |node| box_distance_squared(node, &bbox),
            |id, bound_sq| {
                let leaf = c.leaf(id);
                let d =
                    convex_pair(&leaf, &leaf_world(c, pc, id), b, pb, Some(bound_sq.sqrt()), (Some(id), None), &obs);
                best.offer(d).map(|x| x * x)
            },
            |node| obs.node(Side::A, node),
        );
        let mut d = best.finish(limit);
        inside_solid(&mut d, c, pc, pb.transform_point(b.center()));
        d
    }

    fn composite_half_space<C: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
    ) -> Distance<V> {
        let (n, o) = plane_in(h, ph, pc);
        // A negative bound admits only touching leaves (its square must not turn it positive).
        let limit = positive(self.max_distance.unwrap_or(V::Real::INFINITY));
        let mut best = Best::new();
        let obs = Shared::new(&mut self.obs);
        c.bvh().closest_first_visit(
            limit,
            |node| positive(box_above_plane(node, n, o)),
            |id, bound| {
                let leaf = c.leaf(id);
                let mut d = half_space_convex(h, ph, &leaf, &leaf_world(c, pc, id), Some(bound)).flipped();
                d.part_a = Some(id);
                obs.leaf(|| closed_form_run(&d));
                best.offer(d)
            },
            |node| obs.node(Side::A, node),
        );
        best.finish(limit)
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> Distance<V> {
        let rel = RelativeBoxes::new(pc.relative(pd));
        // A negative bound admits only touching leaves (its square must not turn it positive).
        let limit = positive(self.max_distance.unwrap_or(V::Real::INFINITY));
        let mut best = Best::new();
        let obs = Shared::new(&mut self.obs);
        c.bvh().closest_pair_first_visit(
            d.bvh(),
            &rel,
            limit * limit,
            |i, j, bound_sq| {
                let (li, lj) = (c.leaf(i), d.leaf(j));
                let (wi, wj) = (leaf_world(c, pc, i), leaf_world(d, pd, j));
                let x = convex_pair(&li, &wi, &lj, &wj, Some(bound_sq.sqrt()), (Some(i), Some(j)), &obs);
                best.offer(x).map(|x| x * x)
            },
            |a, b| obs.node_pair(a, b),
        );
        let mut out = best.finish(limit);
        // Either may hold the other whole: one point of each decides.
        if let Some(&j) = d.bvh().primitives().first() {
            inside_solid(&mut out, c, pc, leaf_world(d, pd, j).transform_point(d.leaf(j).center()));
        }
        if let Some(&i) = c.bvh().primitives().first() {
            let mut flipped = out.flipped();
            inside_solid(&mut flipped, d, pd, leaf_world(c, pc, i).transform_point(c.leaf(i).center()));
            out = flipped.flipped();
        }
        out
    }

    fn flip(&mut self, out: Distance<V>) -> Distance<V> {
        if O::ENABLED {
            self.obs.swap();
        }
        out.flipped()
    }
}

/// A half-space against a convex shape, exact: B's point deepest along −n is the closest to (or deepest into) the
/// half-space.
pub(crate) fn half_space_convex<V: Vector, B: SupportMap<V> + ?Sized>(
    h: &HalfSpace<V>,
    ph: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    max_distance: Option<V::Real>,
) -> Distance<V> {
    let n = ph.transform_vector(h.normal());
    let p = pb.transform_point(support_full(b, pb.inverse_transform_vector(-n)));
    let s = n.dot(p - ph.translation);
    let d = Distance {
        intersecting: s <= V::Real::ZERO,
        distance: positive(s),
        point_a: p - n * s,
        point_b: p,
        normal: n,
        part_a: None,
        part_b: None,
        status: Status::Converged,
        error_bound: V::Real::ZERO,
        leaves: 1,
    };
    match max_distance {
        Some(m) if d.distance > m => Distance::above(d.distance, 1),
        _ => d,
    }
}

/// Two half-spaces: apart only when their normals are exactly opposite and B's plane lies beyond A's.
pub(crate) fn half_space_half_space<V: Vector>(
    a: &HalfSpace<V>,
    pa: &Iso<V>,
    b: &HalfSpace<V>,
    pb: &Iso<V>,
) -> Distance<V> {
    let (na, nb) = (pa.transform_vector(a.normal()), pb.transform_vector(b.normal()));
    let (oa, ob) = (pa.translation, pb.translation);
    let gap = na.dot(ob - oa);
    let parallel = na == -nb;
    let (intersecting, distance, point_b) = if parallel && gap > V::Real::ZERO {
        (false, gap, ob)
    } else {
        // A point in both: on A's plane, moved into B along B's plane's inward direction when needed.
        let inward = -(nb - na * na.dot(nb));
        let len = inward.length();
        let p = if len > V::Real::ZERO {
            let s = positive(nb.dot(oa - ob));
            oa + inward * (s / (len * len))
        } else {
            // Same direction: the deeper of the two planes is inside both.
            if nb.dot(oa - ob) <= V::Real::ZERO {
                oa
            } else {
                oa - na * positive(na.dot(oa - ob) + nb.dot(oa - ob))
            }
        };
        (true, V::Real::ZERO, p)
    };
    Distance {
        intersecting,
        distance,
        point_a: if intersecting { point_b } else { ob - na * gap },
        point_b,
        normal: if intersecting { V::zero() } else { na },
        part_a: None,
        part_b: None,
        status: Status::Converged,
        error_bound: V::Real::ZERO,
        leaves: 1,
    }
}

struct IntersectsQuery<O> {
    obs: O,
}

/// Whether two convex leaves meet, reported as a verdict run (with the GJK iterations the test takes, counted by
/// a second, reporting run only when someone observes: the verdict is always `gjk::intersects`').
fn leaf_meets<V, A, B, O>(
    a: &A,
    pa: &Iso<V>,
    b: &B,
    pb: &Iso<V>,
    parts: (Option<u32>, Option<u32>),
    obs: &Shared<'_, O>,
) -> bool
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: WalkObserver<V>,
{
    let meets = gjk::intersects(a, pa, b, pb);
    obs.leaf(|| {
        let counted = gjk::intersection(a, pa, b, pb, &DistanceOptions::default(), None, &mut ());
        LeafRun::verdict(parts, meets, counted.iterations)
    });
    meets
}

impl<V: Vector, O: WalkObserver<V>> PairQuery<V> for IntersectsQuery<O> {
    type Output = bool;

    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> bool
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        leaf_meets(a, pa, b, pb, (None, None), &Shared::new(&mut self.obs))
    }

    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> bool {
        let d = half_space_convex(h, ph, b, pb, None);
        Shared::new(&mut self.obs).leaf(|| LeafRun::verdict((None, None), d.intersecting, 0));
        d.intersecting
    }

    fn half_space_half_space(&mut self, a: &HalfSpace<V>, pa: &Iso<V>, b: &HalfSpace<V>, pb: &Iso<V>) -> bool {
        let d = half_space_half_space(a, pa, b, pb);
        Shared::new(&mut self.obs).leaf(|| LeafRun::verdict((None, None), d.intersecting, 0));
        d.intersecting
    }

    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> bool {
        let bbox = box_in(b, pb, pc);
        let obs = Shared::new(&mut self.obs);
        let touching = !c.bvh().for_each_where_visit(
            |node| node.intersects(&bbox),
            |id| !leaf_meets(&c.leaf(id), &leaf_world(c, pc, id), b, pb, (Some(id), None), &obs),
            |node| obs.node(Side::A, node),
        );
        touching || (c.is_solid() && c.contains_local(pc.inverse_transform_point(pb.transform_point(b.center()))))
    }

    fn composite_half_space<C: Composite<V>>(&mut self, c: &C, pc: &Iso<V>, h: &HalfSpace<V>, ph: &Iso<V>) -> bool {
        let (n, o) = plane_in(h, ph, pc);
        let obs = Shared::new(&mut self.obs);
        !c.bvh().for_each_where_visit(
            |node| box_above_plane(node, n, o) <= V::Real::ZERO,
            |id| {
                let meets = half_space_convex(h, ph, &c.leaf(id), &leaf_world(c, pc, id), None).intersecting;
                obs.leaf(|| LeafRun::verdict((Some(id), None), meets, 0));
                !meets
            },
            |node| obs.node(Side::A, node),
        )
    }

    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> bool {
        let rel = RelativeBoxes::new(pc.relative(pd));
        let obs = Shared::new(&mut self.obs);
        let touching = !c.bvh().for_each_pair_visit(
            d.bvh(),
            &rel,
            V::Real::ZERO,
            |i, j| {
                let (li, lj) = (c.leaf(i), d.leaf(j));
                !leaf_meets(&li, &leaf_world(c, pc, i), &lj, &leaf_world(d, pd, j), (Some(i), Some(j)), &obs)
            },
            |a, b| obs.node_pair(a, b),
        );
        if touching {
            return true;
        }
        let inside = |outer_solid: bool, contains: &dyn Fn(V) -> bool, point: Option<V>| {
            outer_solid && point.is_some_and(contains)
        };
        let point_of_d =
            d.bvh().primitives().first().map(|&j| leaf_world(d, pd, j).transform_point(d.leaf(j).center()));
        let point_of_c =
            c.bvh().primitives().first().map(|&i| leaf_world(c, pc, i).transform_point(c.leaf(i).center()));
        inside(c.is_solid(), &|p| c.contains_local(pc.inverse_transform_point(p)), point_of_d)
            || inside(d.is_solid(), &|p| d.contains_local(pd.inverse_transform_point(p)), point_of_c)
    }

    fn flip(&mut self, out: bool) -> bool {
        if O::ENABLED {
            self.obs.swap();
        }
        out
    }
}

/// A point as a shape, for the point queries.
pub(crate) fn point_shape<V: Vector>() -> Point<V> {
    Point { at: V::zero() }
}
