//! Penetration depth: how far, and along which direction, B must move to stop overlapping A.
//!
//! One query answers both cases with a signed distance. GJK runs first on the shapes' cores: if the cores are
//! apart, the answer is exact from GJK (the radii subtracted — sphere–sphere and capsule–capsule overlaps never
//! reach EPA). Only when the cores themselves overlap does the Expanding Polytope Algorithm run, on the cores, and
//! the radii are added to its depth, which is exact because (A ⊕ ball r) − B = (A − B) ⊕ ball r.

mod descent;
pub mod dim2;
pub mod dim3;
mod dimension;
mod refine;
mod relation;
mod supporting;

pub use relation::Relation;

use crate::gjk::run::{stall_rounding, CoreResult, Outcome, Params};
use crate::gjk::{DiffVertex, DistanceOptions, Pair, Status};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;
use crate::trace::{Decision, EpaStep, Observer};

/// What EPA found on the cores (pair frame).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Expansion<V: Vector> {
    /// Outward unit normal of A − B at its boundary point nearest the origin (points from A toward B).
    pub normal: V,
    /// Depth of the cores' overlap.
    pub depth: V::Real,
    /// A's core point.
    pub witness_a: V,
    /// B's core point.
    pub witness_b: V,
    /// EPA iterations.
    pub iterations: u32,
    /// How EPA ended.
    pub status: Status,
    /// Upper minus lower bound on the depth.
    pub error_bound: V::Real,
    /// The lower bound on the depth (the nearest face's distance).
    pub lower: V::Real,
    /// The largest coordinate of A − B's points met: the scale of the rounding.
    pub scale: V::Real,
}

/// A − B has no volume around the origin (flat or needle-like shapes touching): zero depth along `normal`.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Flat<V> {
    /// A normal of the flat difference (either sign is a valid answer; the query orients it from A to B).
    pub normal: V,
    /// The witness points (w = a − b ≈ 0).
    pub witness: DiffVertex<V>,
}

/// One EPA iteration as the expansion sees it (pair frame), for the observer; see [`EpaStep`].
#[doc(hidden)]
pub struct Progress<'a, V: Vector> {
    pub iteration: u32,
    pub vertices: &'a [DiffVertex<V>],
    /// `V::DIM` indices per face.
    pub faces: &'a [u16],
    pub nearest: usize,
    pub normal: V,
    pub lower: V::Real,
    pub support: V,
    pub upper: V::Real,
    pub decision: Decision,
}

impl<'a, V: Vector> Progress<'a, V> {
    /// What an iteration decided: `end` is how the expansion ends there, `None` when it goes on.
    pub(crate) fn decision(end: Option<Status>) -> Decision {
        match end {
            None => Decision::Continue,
            Some(Status::Converged) => Decision::Converged,
            Some(Status::Stalled) => Decision::Stalled,
            Some(Status::MaxIterations) => Decision::MaxIterations,
            // EPA has no distance bound to pass.
            Some(Status::AboveBound) => Decision::Separated,
        }
    }
}

/// Where the expansion reports its iterations: `None` when nobody observes, so an unobserved query builds nothing.
#[doc(hidden)]
pub type Report<'r, V> = Option<&'r mut dyn FnMut(&Progress<'_, V>)>;

/// The answer of [`penetration`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Penetration<V: Vector> {
    /// True when the shapes overlap or touch.
    pub intersecting: bool,
    /// Signed distance: the gap when apart, minus the depth when overlapping.
    pub distance: V::Real,
    /// Penetration depth, `max(0, −distance)`.
    pub depth: V::Real,
    /// Unit vector from A toward B: moving B by `depth · normal` separates the shapes; when apart, the direction
    /// of the gap.
    pub normal: V,
    /// A's point deepest into B (world); the closest point when apart.
    pub point_a: V,
    /// B's point deepest into A (world); `point_b − point_a = distance · normal`.
    pub point_b: V,
    /// GJK plus EPA iterations.
    pub iterations: u32,
    /// How the query ended (the worse of GJK's and EPA's).
    pub status: Status,
    /// Upper minus lower bound on the distance proven by the run.
    pub error_bound: V::Real,
}

/// Signed distance, normal and deepest points of two shapes.
///
/// ```
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::Cuboid;
/// let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
/// // Two unit cubes overlapping by 0.1 along y.
/// let p = gjk::penetration(&cube, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(0.2, 0.9, 0.1)));
/// assert!(p.intersecting);
/// assert!((p.depth - 0.1).abs() < 1e-12);
/// assert!((p.normal - DVec3::Y).length() < 1e-12);
/// assert!(((p.point_b - p.point_a) - p.normal * p.distance).length() < 1e-12);
/// ```
pub fn penetration<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> Penetration<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    penetration_with(a, pose_a, b, pose_b, &DistanceOptions::default(), &mut ())
}

/// [`penetration`] with options (iteration caps and tolerance apply to GJK and to EPA) and an observer of the GJK
/// steps and the EPA iterations.
pub fn penetration_with<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    options: &DistanceOptions<V::Real>,
    observer: &mut O,
) -> Penetration<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    // The penetration query has no distance bound (its options' `max_distance` is not read).
    let unbounded = DistanceOptions { max_distance: None, ..*options };
    penetration_within(a, pose_a, b, pose_b, &unbounded, true, observer).expect("no bound, no early stop")
}

/// [`penetration_with`] that gives up (`None`) as soon as GJK proves the shapes farther apart than
/// `options.max_distance` (when given): a composite's contact query asks this of every leaf under the other shape's box, most of them
/// apart, and the one GJK run serves both the rejection and the answer. Any other answer is `penetration_with`'s,
/// bit for bit: the bound only adds a stopping rule that did not fire.
///
/// With `expand` false, overlapping cores are not expanded: the answer is then only `intersecting` (true), with a
/// zero normal, distance and points, for a caller that knows the normal it will use (a facet of a flat region).
#[inline]
pub(crate) fn penetration_within<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    options: &DistanceOptions<V::Real>,
    expand: bool,
    observer: &mut O,
) -> Option<Penetration<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    let (ra, rb) = (a.radius(), b.radius());
    // Two balls, or a point core against a box or segment core: the closed form, observed or not (no GJK or EPA
    // step runs, so the observer sees none; see `analytic`). Concentric balls, and a point on a segment core, go
    // on to EPA.
    if options.max_iterations > 0 {
        if let Some(answer) = crate::analytic::penetration(a, pose_a, b, pose_b, (ra, rb), options.max_distance) {
            return answer;
        }
    }
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    // The exact core distance is needed (not just "within the radii"), so GJK stops only at touching (or, given a
    // bound, at a proven gap beyond it).
    let params = Params::new(options, V::Real::ZERO, options.max_distance.map(|m| m + ra + rb)).polished();
    // Two boxes whose separating axes prove the answer, observed or not: no GJK or EPA step runs (see
    // `gjk::boxes`), as for the closed forms above.
    if let Some(answer) = boxes(&pair, &params) {
        return answer.map(|p| p.in_world(pose_a));
    }
    let core = crate::gjk::solve(&mut pair, None, &params, observer, pose_a);
    if core.outcome == Outcome::Separated {
        return None;
    }
    // A run whose lower bound does not prove a gap may be overlapping shapes thinner than rounding can resolve by
    // GJK alone (a 1e-9 slab against itself), or deeply overlapping ones whose simplex passes within rounding of
    // the origin: a capsule's core down the middle of a box 15,587 long at 1e4, where the segment of two opposite
    // support points misses the origin by 2e-10 (above the touching distance, below the stall rounding), so the
    // direction of v is 1 % off along the segment and the support along it is the segment's own end — GJK stops,
    // "converged" on a distance between 0 and 2e-10, which says nothing of the 1.4 of overlap. Whatever the
    // run's status, EPA decides (test `capsule_core_inside_a_long_box_far_off_is_as_deep_as_the_box_allows`).
    let unproven = core.outcome != Outcome::Intersecting && core.lower <= core.touch;
    let local = if (core.outcome == Outcome::Intersecting || unproven) && !expand {
        let zero = V::Real::ZERO;
        Penetration {
            intersecting: true,
            distance: zero,
            depth: zero,
            normal: V::zero(),
            point_a: V::zero(),
            point_b: V::zero(),
            iterations: core.iterations,
            status: core.status,
            error_bound: zero,
        }
    } else if core.outcome == Outcome::Intersecting || unproven {
        cores_overlap(&mut pair, &core, options, (ra, rb), observer, &pose_a.rotation)
    } else {
        // Cores apart: the signed distance is the core distance minus the radii, exactly.
        let vlen = core.v.length();
        let n = -core.v * (V::Real::ONE / vlen);
        let (ca, cb) = core.simplex.witnesses();
        let distance = vlen - ra - rb;
        Penetration {
            intersecting: distance <= core.touch,
            distance,
            depth: (-distance).max(V::Real::ZERO),
            normal: n,
            point_a: ca + n * ra,
            point_b: cb - n * rb,
            iterations: core.iterations,
            status: core.status,
            error_bound: (vlen - core.lower).max(V::Real::ZERO),
        }
    };
    Some(local.in_world(pose_a))
}

/// Two boxes in 3D (pair frame) whose separating axes prove the answer: apart, the closest points GJK would
/// converge to (`Some(None)` past `max_distance`, as GJK's give-up); overlapping by more than rounding, the axis of
/// least overlap with the deepest points on it, exact (error bound 0, as a closed form). `None` otherwise.
#[inline(always)]
fn boxes<V, A, B>(pair: &Pair<'_, V, A, B>, params: &Params<V::Real>) -> Option<Option<Penetration<V>>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let boxes = crate::gjk::boxes::Boxes::of_pair(pair, params)?;
    if let Some(found) = boxes.apart::<V>(params.rel_tol) {
        if params.stop_above.is_some_and(|above| found.lower > above) {
            return Some(None);
        }
        // As the general path builds it from a converged run on these points (no radii: boxes have none).
        let v = found.v;
        let vlen = v.length();
        let zero = V::Real::ZERO;
        return Some(Some(Penetration {
            intersecting: false,
            distance: vlen,
            depth: zero,
            normal: -v * (V::Real::ONE / vlen),
            point_a: found.a,
            point_b: found.b,
            iterations: 0,
            status: Status::Converged,
            error_bound: (vlen - found.lower).max(zero),
        }));
    }
    let d = boxes.depth::<V>()?;
    Some(Some(Penetration::closed_form(d.distance, V::Real::ZERO, d.normal, d.a, d.b)))
}

impl<V: Vector> Penetration<V> {
    /// An answer a closed form gives exactly (no iterations, error bound 0): the signed distance, the normal from A
    /// toward B and the points of A and B it joins. `touch` is the distance up to which the pair counts as touching.
    #[inline(always)]
    pub(crate) fn closed_form(distance: V::Real, touch: V::Real, normal: V, point_a: V, point_b: V) -> Self {
        let zero = V::Real::ZERO;
        Penetration {
            intersecting: distance <= touch,
            distance,
            depth: (-distance).max(zero),
            normal,
            point_a,
            point_b,
            iterations: 0,
            status: Status::Converged,
            error_bound: zero,
        }
    }

    /// The answer in the pair frame carried into the world by A's pose.
    #[inline(always)]
    fn in_world(self, pose_a: &Iso<V>) -> Self {
        Penetration {
            normal: pose_a.rotation.rotate(self.normal),
            point_a: pose_a.transform_point(self.point_a),
            point_b: pose_a.transform_point(self.point_b),
            ..self
        }
    }
}

/// The cores overlap (or touch): EPA on the cores from GJK's run `core`, radii added (pair frame). `rotation` turns
/// the pair frame into the world's, for the observer.
fn cores_overlap<V, A, B, O>(
    pair: &mut Pair<'_, V, A, B>,
    core: &CoreResult<V>,
    options: &DistanceOptions<V::Real>,
    (ra, rb): (V::Real, V::Real),
    observer: &mut O,
    rotation: &V::Rotation,
) -> Penetration<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    let center = pair.center();
    let curved = !(pair.a.polyhedral() && pair.b.polyhedral());
    let mut support = |d: V| pair.support(d);
    let mut relay = |p: &Progress<'_, V>| {
        observer.epa_step(&EpaStep {
            iteration: p.iteration,
            vertices: p.vertices.iter().map(|v| rotation.rotate(v.w)).collect(),
            face_indices: p.faces.to_vec(),
            nearest: p.nearest,
            normal: rotation.rotate(p.normal),
            lower: p.lower,
            support: rotation.rotate(p.support),
            upper: p.upper,
            decision: p.decision,
        })
    };
    let report: Report<'_, V> = if O::ENABLED { Some(&mut relay) } else { None };
    let expansion = dimension::expand(
        core.simplex.vertices(),
        &mut support,
        options.max_iterations,
        options.tolerance,
        report,
        curved,
    );
    let flat = expansion.is_err();
    let (mut normal, depth, wa, wb, iterations, mut status, mut error_bound, lower, scale) = match expansion {
        Ok(e) => (e.normal, e.depth, e.witness_a, e.witness_b, e.iterations, e.status, e.error_bound, e.lower, e.scale),
        Err(flat) => {
            // A − B is flat here: zero depth, and either normal is valid; take the one from A toward B.
            let n = if flat.normal.dot(center) > V::Real::ZERO { -flat.normal } else { flat.normal };
            let zero = V::Real::ZERO;
            // That normal is the plane of three support points, good to their rounding over the flat's width: on
            // an ellipse 0.38 long and 8e-10 wide it was 4e-9 rad off, A − B's support value along it 7e-10 (gjk-fuzz
            // seed 72 case 2393). That value bounds the depth from above, zero from below (the origin is in A − B):
            // it is the error bound, and the touching step below brings it down where it is above rounding.
            let h = n.dot(pair.support(n).w).max(zero);
            let scale = core.simplex.vertices().iter().fold(zero, |m, v| m.max(v.w.max_abs()));
            let status = if h <= stall_rounding(scale) { Status::Converged } else { Status::Stalled };
            // The points: the flat's three support points' nearest to the origin, or GJK's if nearer (the origin
            // in A − B need not be in that triangle: it missed it by 2e-10 there).
            let (wa, wb) = if core.v.length_squared() < flat.witness.w.length_squared() {
                core.simplex.witnesses()
            } else {
                (flat.witness.a, flat.witness.b)
            };
            (n, zero, wa, wb, 0, status, h, zero, scale)
        }
    };
    // EPA's depth is at least zero when the origin is inside its polytope; a negative one (shapes overlapping by
    // less than rounding) is reported as touching, with the two witnesses met in the middle.
    let (mut depth, mut wa, mut wb) = if depth < V::Real::ZERO {
        let mid = (wa + wb) * V::Real::HALF;
        (V::Real::ZERO, mid, mid)
    } else {
        (depth, wa, wb)
    };
    let rounding = stall_rounding(scale);
    if curved || flat {
        (normal, depth, wa, wb, status, error_bound) =
            descend_if_doubtful(pair, (normal, depth, wa, wb, status, error_bound), (lower, scale, flat));
    }
    // A GJK run that did not prove the origin inside (stalled, or ended within touching of it) leaves −v, along
    // which A − B's support value h bounds the depth from above. Where h is below EPA's depth and within √ε of the
    // size, EPA's polytope missed the origin on the boundary: the pair touches, and the answer is that direction,
    // its bound as the depth, GJK's closest points (|v| apart) as the points. A point 1e-12 outside a cone's side
    // (GJK stalled after 2 iterations, h = 1e-12) got EPA's depth of 0.045 along a normal 0.5 rad off, status
    // stalled, error bound 0.118: the ray reference of tests/cast_properties.rs (rays 3D f64, cases 616 and 1494)
    // asks for that depth since such stalls say intersecting (see `gjk::run`).
    let vlen = core.v.length();
    // Proven inside: the simplex encloses the origin or passes within touching of it (an intersecting run that could
    // not prove the cores apart leaves |v| above that, see `gjk::run`).
    let proven = core.outcome == Outcome::Intersecting && core.status == Status::Converged && vlen <= core.touch;
    if !proven && depth > rounding && vlen > V::Real::ZERO && vlen.is_finite() {
        let n = -core.v * (V::Real::ONE / vlen);
        let h = n.dot(pair.support(n).w);
        if h < depth && h <= V::Real::EPSILON.sqrt() * scale {
            // v's direction is good only to ε·scale / |v|: 4e-13 off a cone's side, h along it was 1.4e-8. A
            // proximal normal from just outside (see `supporting`) brings h down to the side's rounding.
            let (n, h) = if h > rounding {
                let params = Params::new(options, V::Real::ZERO, None);
                supporting::normal(pair, (n, h), rounding, scale, &params)
            } else {
                (n, h)
            };
            let (ca, cb) = core.simplex.witnesses();
            let zero = V::Real::ZERO;
            (normal, depth, wa, wb, error_bound) = (n, h.max(zero), ca, cb, h.max(zero));
            if vlen.max(h) <= rounding {
                status = Status::Converged;
            }
        }
    }
    // Touching, with a normal EPA could not prove supporting (the origin on a kink of A − B): a proximal normal
    // (see `supporting`).
    if depth <= rounding && error_bound > rounding {
        let h = normal.dot(pair.support(normal).w);
        let params = Params::new(options, V::Real::ZERO, None);
        let (n, h) = supporting::normal(pair, (normal, h), lower + rounding, scale, &params);
        let bound = (h.max(depth) - lower).max(V::Real::ZERO);
        if bound < error_bound {
            (normal, error_bound) = (n, bound);
            if bound <= rounding {
                status = Status::Converged;
            }
        }
    }
    let depth = depth + ra + rb;
    Penetration {
        intersecting: true,
        distance: -depth,
        depth,
        normal,
        point_a: wa + normal * ra,
        point_b: wb - normal * rb,
        iterations: core.iterations + iterations,
        status: if core.status == Status::Converged { status } else { core.status },
        error_bound,
    }
}

/// An answer of EPA on curved cores, or of a flat A − B, as it stands: normal, depth, A's and B's core points,
/// status and error bound.
type Answer<V> = (V, <V as Vector>::Real, V, V, Status, <V as Vector>::Real);

/// The answer `(normal, depth, a, b, status, bound)` taken over by a descent of h on the true support function
/// (see `descent`) where it is in doubt: A − B's support value along the answer's own normal, or its points,
/// disagree with its depth by more than rounding; or A − B was called flat (so zero deep) while its support value
/// along the flat's normal is above rounding — a needle or a slab thinner than the tests of three support points
/// resolve (an ellipsoid 4e-10 × 0.3 round a ball's centre, 4e-10 deep, was called 0 deep). `lower` is EPA's lower
/// bound on the depth (0 for a flat A − B), `scale` the size of A − B's points met. The descent's h is attained, so
/// it is the depth and its point the witness. The error bound spans from the lower bound that still holds to the
/// depth, and the status is `converged` where they meet within rounding, else `stalled` where the descent went
/// below EPA's lower bound by more than rounding (that bound was not one) or A − B was called flat, else EPA's.
fn descend_if_doubtful<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    answer: Answer<V>,
    (lower, scale, flat): (V::Real, V::Real, bool),
) -> Answer<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (normal, depth, wa, wb, status, _) = answer;
    let rounding = stall_rounding(scale);
    let mut eval = |n: V| {
        let s = pair.support(n);
        (n.dot(s.w), s)
    };
    let (h, _) = eval(normal);
    let off = ((wa - wb) - normal * depth).length();
    // An answer whose support value along its normal is its depth, and whose points are paired along it, is
    // attained and stationary (its support point lies along its normal): EPA's, even where it ran out of
    // iterations before its lower bound met it (an ellipsoid's, on half the bench's penetrating pairs).
    let doubtful = flat || h - depth > rounding || off > rounding;
    if !doubtful || !(h > rounding) || !(depth > rounding || flat) {
        return answer;
    }
    let mut found = descent::descend(&mut eval, normal, scale);
    if flat {
        let other = descent::descend(&mut eval, -normal, scale);
        if other.h < found.h {
            found = other;
        }
    }
    // Taken only where it is attained and its point is paired along its normal to √ε of the size, or better than
    // the answer's: on a cone's side the exposed edge turns with the direction, the crease it gives is a small
    // circle, not the great circle square to one edge, and a descent that left it had lowered h (0.7676218 to
    // 0.7676061, a point inside a cone 5.2 tall) with its point the rim's end of the side, 2.97 off the foot
    // (gjk-fuzz seed 85 case 3162).
    let lateral = (found.point.w - found.direction * found.h).length();
    let paired = lateral <= off.max(V::Real::EPSILON.sqrt() * scale);
    if !(found.h <= h) || !found.h.is_finite() || !paired {
        return answer;
    }
    let zero = V::Real::ZERO;
    // The lower bound that still holds: EPA's, unless the descent went below it (then it was not one), or 0 for a
    // flat A − B (the origin is in it).
    let broken = flat || found.h < lower - rounding;
    let lower = if broken { zero } else { lower };
    let bound = (found.h - lower).max(zero);
    let status = if bound <= rounding {
        Status::Converged
    } else if broken {
        Status::Stalled
    } else {
        status
    };
    (found.direction, found.h.max(zero), found.point.a, found.point.b, status, bound)
}
