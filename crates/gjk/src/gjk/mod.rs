//! GJK queries: distance (with closest points, normal and witness simplex) and boolean intersection.
//!
//! Every query works in the *pair-local frame*: B's pose relative to A's is formed first (translations
//! subtracted before any rotation), so two shapes a metre apart at 1e6 from the origin are as accurate as at the
//! origin. Shapes with a radius (balls, capsules, rounded shapes) run on their cores; the radii are added at the
//! end, which is exact. Two balls are the exception: their centres are the poses' translations, subtracted in the
//! world as accurately as in the pair frame, and no rotation enters their answer (`analytic`).

pub(crate) mod boxes;
mod cache;
pub(crate) mod newton;
mod pair;
pub(crate) mod run;
mod sat;
mod simplex;
mod walk;

pub use cache::WarmStart;
pub use pair::DiffVertex;
pub(crate) use pair::Pair;

use crate::analytic::Closest;
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;
use crate::trace::Observer;
use run::{initial_simplex, run, CoreResult, Outcome, Params};

/// How a query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Status {
    /// The answer meets the tolerance (or intersection was decided).
    Converged,
    /// The iteration cap was reached first; the answer is the best found and
    /// [`Distance::error_bound`] says how far off it may be.
    MaxIterations,
    /// No further progress is possible in this precision; the answer is the best found, within
    /// [`Distance::error_bound`].
    Stalled,
    /// The shapes are farther apart than [`DistanceOptions::max_distance`]; the distance reported is a lower
    /// bound, not the distance.
    AboveBound,
}

impl Status {
    /// The name used by the CLI: `converged`, `max_iterations`, `stalled`, `above_bound`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Converged => "converged",
            Status::MaxIterations => "max_iterations",
            Status::Stalled => "stalled",
            Status::AboveBound => "above_bound",
        }
    }
}

/// Options of the distance and intersection queries.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceOptions<R> {
    /// Cap on GJK iterations (each one support call per shape).
    pub max_iterations: u32,
    /// Relative duality-gap tolerance: stop when |v|² − v·w ≤ tolerance·|v|², which bounds the relative error of
    /// the distance by the same amount.
    pub tolerance: R,
    /// Stop as soon as the shapes are known to be farther apart than this ([`Status::AboveBound`]).
    pub max_distance: Option<R>,
}

impl<R: Real> Default for DistanceOptions<R> {
    fn default() -> Self {
        Self { max_iterations: 256, tolerance: R::EPSILON * R::from_f64(64.0), max_distance: None }
    }
}

/// The answer of [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Distance<V: Vector> {
    /// True when the shapes overlap or touch (distance within rounding of zero).
    pub intersecting: bool,
    /// The distance between the shapes; 0 when intersecting; a lower bound with [`Status::AboveBound`].
    pub distance: V::Real,
    /// The closest point of A (world). When intersecting: a point common to both cores, or A's deepest point
    /// along `normal` for shapes that overlap only through their radii.
    pub point_a: V,
    /// The closest point of B (world); `point_b − point_a = distance · normal` when separated.
    pub point_b: V,
    /// Unit vector from A toward B along which the distance is measured; zero when the shapes' cores overlap
    /// and no direction is defined (see the penetration query for that case).
    pub normal: V,
    /// The points of the cores' Minkowski difference A − B (world orientation) whose convex combination is the
    /// closest point, and their weights.
    pub simplex: WitnessSimplex<V>,
    /// GJK iterations run.
    pub iterations: u32,
    /// How the query ended.
    pub status: Status,
    /// Upper minus lower bound on the distance proven by the run (0 when exact up to rounding). Apart, the
    /// distance is the upper bound: the true one lies in [distance − error_bound, distance]. Intersecting, it lies
    /// in [0, error_bound]: a bound above zero is a run that met the shapes only to within it, proving no gap.
    pub error_bound: V::Real,
}

/// The final simplex of a query: points of A − B (world orientation) and their barycentric weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WitnessSimplex<V: Vector> {
    /// Vertices (the first `len`).
    pub points: [V; 4],
    /// Weights (the first `len`), summing to one.
    pub weights: [V::Real; 4],
    /// How many vertices.
    pub len: usize,
}

/// The points of A's and B's cores behind each vertex of a distance answer's [`WitnessSimplex`] (world frame),
/// given by [`distance_with_witnesses`]: with the simplex's weights, Σ `weights[i]` · `points_a[i]` is A's core's
/// closest point (a ball's centre, a capsule's point on its segment) and the same sum over `points_b` is B's; when
/// the cores intersect both sums are the common point. A support point of a polytope, box, segment or triangle is
/// one of its vertices, so for those shapes the points are vertices placed by the pose (except the one closest
/// point of the closed forms, a point core against a box or a segment core, and the one pair of points of two boxes
/// in 3D answered from their separating axes: the closest points, or a point common to both).
///
/// ```
/// use gjk::math::{DVec2, Iso};
/// use gjk::shape::{ConvexPolytope, Segment};
/// let square = ConvexPolytope::new(&[
///     DVec2::new(-1.0, -1.0), DVec2::new(1.0, -1.0), DVec2::new(1.0, 1.0), DVec2::new(-1.0, 1.0),
/// ]).unwrap();
/// let stick = Segment::new(DVec2::new(0.0, -5.0), DVec2::new(0.0, 5.0)).unwrap();
/// let (pose_a, pose_b) = (Iso::identity(), Iso::from_translation(DVec2::new(3.0, 0.0)));
/// let (d, w) = gjk::distance_with_witnesses(&square, &pose_a, &stick, &pose_b, &Default::default());
/// assert!((d.distance - 2.0).abs() < 1e-12);
/// let (mut a, mut b) = (DVec2::ZERO, DVec2::ZERO);
/// for i in 0..w.len {
///     a += w.points_a[i] * d.simplex.weights[i];
///     b += w.points_b[i] * d.simplex.weights[i];
/// }
/// assert!((a - d.point_a).length() < 1e-12 && (b - d.point_b).length() < 1e-12);
/// // The square's points are two of its corners (x = 1), the stick's its two ends.
/// assert!((0..w.len).all(|i| w.points_a[i].x == 1.0 && w.points_b[i].y.abs() == 5.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Witnesses<V: Vector> {
    /// The point of A's core behind each vertex (the first `len`).
    pub points_a: [V; 4],
    /// The point of B's core behind each vertex (the first `len`).
    pub points_b: [V; 4],
    /// How many vertices: the witness simplex's `len`.
    pub len: usize,
}

impl<V: Vector> Witnesses<V> {
    /// The points of the vertices `verts` (pair frame) placed in the world by A's pose.
    fn new(verts: &[DiffVertex<V>], pose_a: &Iso<V>) -> Self {
        let mut out = Self { points_a: [V::zero(); 4], points_b: [V::zero(); 4], len: verts.len() };
        for (i, v) in verts.iter().enumerate() {
            out.points_a[i] = pose_a.transform_point(v.a);
            out.points_b[i] = pose_a.transform_point(v.b);
        }
        out
    }
}

/// The answer of [`intersection`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Intersection {
    /// True when the shapes overlap or touch.
    pub intersecting: bool,
    /// GJK iterations run.
    pub iterations: u32,
    /// [`Status::Converged`] when decided; otherwise the answer is the best guess (see [`Status`]).
    pub status: Status,
}

/// Distance between `a` at `pose_a` and `b` at `pose_b`, with closest points and normal.
///
/// ```
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::{Ball, Cuboid};
/// let ball = Ball::new(0.5).unwrap();
/// let cube = Cuboid::new(DVec3::splat(1.0)).unwrap();
/// let d = gjk::distance(&cube, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(3.0, 0.0, 0.0)));
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// assert_eq!(d.normal, DVec3::X);
/// assert!((d.point_a - DVec3::new(1.0, 0.0, 0.0)).length() < 1e-12);
/// ```
pub fn distance<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    distance_with(a, pose_a, b, pose_b, &DistanceOptions::default(), None, &mut ())
}

/// [`distance`] with options, an optional warm start kept by the caller between frames, and an observer that
/// sees every step (`&mut ()` for none).
pub fn distance_with<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    options: &DistanceOptions<V::Real>,
    cache: Option<&mut WarmStart<V>>,
    observer: &mut O,
) -> Distance<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    let (ra, rb) = (a.radius(), b.radius());
    let params = Params::new(options, ra + rb, options.max_distance.map(|m| m + ra + rb)).polished();
    // Two balls, or a point core against a box or a segment core, observed or not: the closed form's one vertex
    // in world coordinates, no GJK step (see `analytic`).
    let closed = Closest::of(a, pose_a, b, pose_b);
    if let Some(d) = closed.and_then(|c| c.distance((ra, rb), &params)) {
        if let (Some(cache), Some(c)) = (cache, closed) {
            c.store(cache, pose_a);
        }
        return d;
    }
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    // Other point cores (a point off its shape's origin) with nobody observing: the answer straight from the one
    // vertex (see `solve`).
    if !O::ENABLED {
        if let Some(run) = run::run_points(&pair, &params) {
            if let Some(cache) = cache {
                cache.store(&simplex::Simplex::new(run.vertex), cache.hint_a, cache.hint_b);
            }
            return finish_points(&run, ra, rb, pose_a);
        }
    }
    // Two boxes whose separating axes prove the answer, observed or not (no GJK step runs, as for the closed
    // forms above: an observed query answers what an unobserved one does).
    let core = match (boxes_closed(&pair, &params, true), cache) {
        (Some(core), cache) => {
            if let Some(cache) = cache {
                cache.store(&core.simplex, cache.hint_a, cache.hint_b);
            }
            core
        }
        (None, cache) => solve(&mut pair, cache, &params, observer, pose_a),
    };
    // Above the bound by no more than rounding: measured in full, as `intersection` re-decides there.
    let again = params.stop_above.and_then(|above| rerun_near_touching(&core, &pair, above, options, ra + rb, pose_a));
    finish_distance(again.as_ref().unwrap_or(&core), ra, rb, pose_a)
}

/// [`distance_with`] (without warm start or observer) that also gives the points of A and B behind each vertex of
/// the answer's witness simplex. The answer is the same, bit for bit; the points are kept apart from [`Distance`]
/// so that the plain query does not pay for placing them (see [`Witnesses`]).
pub fn distance_with_witnesses<V, A, B>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    options: &DistanceOptions<V::Real>,
) -> (Distance<V>, Witnesses<V>)
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let params = Params::new(options, ra + rb, options.max_distance.map(|m| m + ra + rb)).polished();
    // The paths of `distance_with` with nobody observing and no warm start, in the same order.
    if let Some(c) = Closest::of(a, pose_a, b, pose_b) {
        if let Some(d) = c.distance((ra, rb), &params) {
            return (d, c.witnesses());
        }
    }
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    if let Some(run) = run::run_points(&pair, &params) {
        return (finish_points(&run, ra, rb, pose_a), Witnesses::new(&[run.vertex], pose_a));
    }
    let core = boxes_closed(&pair, &params, true).unwrap_or_else(|| solve(&mut pair, None, &params, &mut (), pose_a));
    (finish_distance(&core, ra, rb, pose_a), Witnesses::new(core.simplex.vertices(), pose_a))
}

/// True when the shapes overlap or touch (the same answer as [`distance`]'s `intersecting`). Stops at the first
/// separating direction found; two [`Cuboid`](crate::shape::Cuboid)s are decided by separating axes, two balls
/// (or points) by the distance of their centres.
///
/// ```
/// use gjk::math::{DVec2, Iso, Rot2};
/// use gjk::shape::{Cuboid, Ball};
/// let square = Cuboid::new(DVec2::splat(1.0)).unwrap();
/// let disc = Ball::new(0.5).unwrap();
/// assert!(gjk::intersects(&square, &Iso::identity(), &disc, &Iso::from_translation(DVec2::new(1.4, 0.0))));
/// assert!(!gjk::intersects(&square, &Iso::identity(), &disc, &Iso::from_translation(DVec2::new(1.6, 0.0))));
/// ```
pub fn intersects<V, A, B>(a: &A, pose_a: &Iso<V>, b: &B, pose_b: &Iso<V>) -> bool
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if let (Some(ha), Some(hb)) = (a.cuboid_half_extents(), b.cuboid_half_extents()) {
        let mut pair = Pair::new(a, pose_a, b, pose_b);
        if let Some(answer) = sat::boxes(ha, hb, &pair.rel) {
            return answer;
        }
        // Touching to within rounding: the distance query's own run (no radii, no early stop) decides, so the two
        // queries agree exactly on the boundary.
        let params = Params::new(&DistanceOptions::default(), V::Real::ZERO, None);
        return solve(&mut pair, None, &params, &mut (), pose_a).outcome == Outcome::Intersecting;
    }
    if let (Some(ca), Some(cb)) = (a.point_core(), b.point_core()) {
        let radii = a.radius() + b.radius();
        if ca == V::zero() && cb == V::zero() {
            // Two balls about their origins: the closed form the distance query answers with (the centres'
            // distance against the radii and its touching threshold), asked directly — one root, as the margin
            // test below takes, and no second pass for pairs near touching (which that test leaves to
            // `intersection`, to reach this same closed form: f32 spheres 1e-4 apart took 2.2× parry's time).
            let params = Params::new(&DistanceOptions::default(), radii, Some(radii));
            if let Some(outcome) = Closest::of(a, pose_a, b, pose_b).and_then(|c| c.outcome(&params)) {
                return outcome == Outcome::Intersecting;
            }
        }
        if let Some(answer) = sat::points(ca, pose_a, cb, pose_b, radii) {
            return answer;
        }
    }
    intersection(a, pose_a, b, pose_b, &DistanceOptions::default(), None, &mut ()).intersecting
}

/// [`intersects`] with options, warm start and observer, reporting iterations and status.
pub fn intersection<V, A, B, O>(
    a: &A,
    pose_a: &Iso<V>,
    b: &B,
    pose_b: &Iso<V>,
    options: &DistanceOptions<V::Real>,
    cache: Option<&mut WarmStart<V>>,
    observer: &mut O,
) -> Intersection
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    let (ra, rb) = (a.radius(), b.radius());
    let params = Params::new(options, ra + rb, Some(ra + rb));
    // Two segment cores apart across their midpoints' line, with nothing to keep: decided without their closest
    // points, which would say the same (see `analytic::apart_along_centres`).
    if cache.is_none() && a.point_core().is_none() && b.point_core().is_none() {
        if let (Some(sa), Some(sb)) = (a.segment_core(), b.segment_core()) {
            if crate::analytic::apart_along_centres(sa, pose_a, sb, pose_b, ra + rb) {
                return Intersection::new(Outcome::Separated, 0, Status::Converged);
            }
        }
    }
    // Two balls, or a point core against a box or a segment core, observed or not: the closed form in world
    // coordinates, no GJK step (see `analytic`), its one direction kept for a warm start.
    if let Some(c) = Closest::of(a, pose_a, b, pose_b) {
        if let Some(outcome) = c.outcome(&params) {
            if let Some(cache) = cache {
                c.store(cache, pose_a);
            }
            return Intersection::new(outcome, 0, Status::Converged);
        }
    }
    let mut pair = Pair::new(a, pose_a, b, pose_b);
    let core = if !O::ENABLED && cache.is_none() {
        // Other point cores with nothing to keep or observe: the answer needs no simplex.
        if let Some(run) = run::run_points(&pair, &params) {
            return Intersection::new(run.outcome, run.iterations, run.status);
        }
        // The cold start's first vertex, and MPR's test on it: a pair apart along the line of the centres is
        // decided by this one support per shape. The run from that vertex makes the same test first and would
        // stop as separated, with no re-decision below: what it would answer, without building its simplex.
        // Otherwise its steps, the test not made twice.
        pair.frame();
        let first = run::first_support(&mut pair);
        match apart_at_first_support(&first, pair.rel.translation.max_abs(), &params) {
            Some(true) => return Intersection::new(Outcome::Separated, 0, Status::Converged),
            Some(false) => run::run_steps(&mut pair, simplex::Simplex::new(first), first.w, &params, observer, pose_a),
            None => run(&mut pair, simplex::Simplex::new(first), &params, observer, pose_a),
        }
    } else {
        solve(&mut pair, cache, &params, observer, pose_a)
    };
    // A separating plane within rounding of touching: decided as the distance query decides it, as for two boxes
    // in `intersects`.
    match rerun_near_touching(&core, &pair, ra + rb, options, ra + rb, pose_a) {
        Some(again) => Intersection::new(again.outcome, core.iterations + again.iterations, again.status),
        None => Intersection::new(core.outcome, core.iterations, core.status),
    }
}

/// `Some(true)` when the run from the single vertex `first` would stop as separated before its first step
/// ([`run::separated_at_start`]) and [`intersection`] would let that stand: the plane of `first` clears the radii
/// by more than [`near_touching`] (the touching distance the run also asks for is smaller than that, but both are
/// tested, so the two paths agree whatever the numbers). `Some(false)` when the run would take a step (its start
/// test fails too), `None` when this test cannot tell (a plane past the touching distance but within the margin:
/// the run stops there and [`intersection`] re-decides).
#[inline(always)]
fn apart_at_first_support<V: Vector>(first: &DiffVertex<V>, offset: V::Real, params: &Params<V::Real>) -> Option<bool> {
    let above = params.stop_above?;
    let gap = run::proven_gap(first);
    // Most pairs that are not apart stop here, before any root (the gap is 0 when the plane proves nothing).
    if !(gap > above) {
        return Some(false);
    }
    let at_start = run::separated_at_start(first.w, gap, above, params.stop_below, first.w.max_abs());
    match (at_start, gap > above + near_touching(core::slice::from_ref(first), offset)) {
        (true, true) => Some(true),
        (false, _) => Some(false),
        (true, false) => None,
    }
}

/// How far beyond the bound a separating plane must be for an early stop to stand (else the distance query's own
/// run decides): the rounding of the support points themselves, 1024 ulps of the largest coordinate of the shapes'
/// points in the run's simplex `verts` and of `offset`, the distance between the shapes' origins. Not the simplex's
/// scale (its points of A − B), which shrinks with the gap: near touching it is the size of the gap, and a plane
/// 2.7e-18 beyond touching, between shapes of 0.07, stood. The offset stands for the points a longer run would
/// reach: a cone 1.3e5 wide whose first support was a rim point near a small cone (f32) stopped apart past the
/// margin of that point, while the distance run, its simplex across the whole rim, counted the pair as touching
/// at 64 ulps of 6.5e4 (gjk-fuzz seed 3 case 14343).
#[inline(always)]
fn near_touching<V: Vector>(verts: &[DiffVertex<V>], offset: V::Real) -> V::Real {
    let scale = verts.iter().fold(offset, |m, p| m.max(p.a.max_abs()).max(p.b.max_abs()));
    run::stall_rounding(scale)
}

/// The run again in full (fresh hints, no early stop, nobody observing) when it stopped on a separating plane no
/// more than [`near_touching`] beyond `above`: the distance query's own run then decides, so that `intersects` is
/// `distance(..).intersecting` and a `max_distance` query agrees with the unbounded one on the boundary too (a
/// support 2.4e-18 from the origin gave a plane 1.9e-18 beyond touching, where the distance run counts the pair as
/// touching). `None` when the early stop stands.
fn rerun_near_touching<V, A, B>(
    core: &CoreResult<V>,
    pair: &Pair<'_, V, A, B>,
    above: V::Real,
    options: &DistanceOptions<V::Real>,
    radii: V::Real,
    pose_a: &Iso<V>,
) -> Option<CoreResult<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let margin = near_touching(core.simplex.vertices(), pair.rel.translation.max_abs());
    if core.outcome != Outcome::Separated || core.lower > above + margin {
        return None;
    }
    let full = Params::new(options, radii, None).polished();
    Some(solve(&mut pair.fresh(), None, &full, &mut (), pose_a))
}

impl Intersection {
    fn new(outcome: Outcome, iterations: u32, status: Status) -> Self {
        // Stopping on a separating plane is a decided answer, not a bound on a distance nobody asked for.
        let status = if status == Status::AboveBound { Status::Converged } else { status };
        Self { intersecting: outcome == Outcome::Intersecting, iterations, status }
    }
}

/// Runs GJK on the pair, from and back into the warm-start cache (two point cores without the loop when nobody
/// observes). Always inlined, as [`run::run_points`], so that the pair just formed is read from registers (see
/// [`Iso::relative`]): 3D f64 sphere distance 82 → 63 ns.
#[inline(always)]
pub(crate) fn solve<V, A, B, O>(
    pair: &mut Pair<'_, V, A, B>,
    cache: Option<&mut WarmStart<V>>,
    params: &Params<V::Real>,
    observer: &mut O,
    pose_a: &Iso<V>,
) -> CoreResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    // Before any support call: EPA asks the pair for supports after this returns, whichever way it returned.
    pair.frame();
    if !O::ENABLED {
        if let Some(core) = run::run_points(pair, params).map(run::PointRun::core) {
            if let Some(cache) = cache {
                cache.store(&core.simplex, cache.hint_a, cache.hint_b);
            }
            return core;
        }
    }
    match cache {
        Some(cache) => {
            pair.hint_a = cache.hint_a;
            pair.hint_b = cache.hint_b;
            let start = initial_simplex(pair, cache.directions());
            let core = run(pair, start, params, observer, pose_a);
            cache.store(&core.simplex, pair.hint_a, pair.hint_b);
            core
        }
        None => {
            let start = initial_simplex(pair, &[]);
            run(pair, start, params, observer, pose_a)
        }
    }
}

/// Two boxes in 3D whose separating axes prove the answer (see `boxes`): the run's result as the loop would end
/// it, without the loop (no iteration, one vertex of A − B, weight 1). Apart, converged on the closest points, or
/// past `stop_above` the loop's "separated" on the best axis's plane; overlapping by more than rounding (only when
/// `overlap` is asked: EPA needs the loop's simplex), intersecting at a point common to both. `None` for other
/// pairs, for boxes touching to within rounding, and whenever the axes prove nothing (GJK runs).
#[inline(always)]
pub(crate) fn boxes_closed<V, A, B>(
    pair: &Pair<'_, V, A, B>,
    params: &Params<V::Real>,
    overlap: bool,
) -> Option<CoreResult<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let boxes = boxes::Boxes::of_pair(pair, params)?;
    let core = |vertex: DiffVertex<V>, lower, outcome| CoreResult {
        simplex: simplex::Simplex::new(vertex),
        v: vertex.w,
        lower,
        outcome,
        status: Status::Converged,
        iterations: 0,
        touch: run::touch_distance(vertex.w.max_abs()),
    };
    if let Some(found) = boxes.apart::<V>(params.rel_tol) {
        let w = found.v;
        // The direction that finds this vertex as a support point of A − B: from A toward B.
        let vertex = DiffVertex { w, a: found.a, b: found.b, dir: -w };
        let above = params.stop_above.is_some_and(|above| found.lower > above);
        return Some(core(vertex, found.lower, if above { Outcome::Separated } else { Outcome::Closest }));
    }
    if !overlap {
        return None;
    }
    let p = boxes.common::<V>()?;
    // w = p − p = 0; its direction for a warm start: from A's centre toward B's.
    let vertex = DiffVertex { w: V::zero(), a: p, b: p, dir: pair.rel.translation };
    Some(core(vertex, V::Real::ZERO, Outcome::Intersecting))
}

/// Turns the core result into the user's answer: adds the radii, moves everything to the world.
fn finish_distance<V: Vector>(core: &CoreResult<V>, ra: V::Real, rb: V::Real, pose_a: &Iso<V>) -> Distance<V> {
    let simplex = &core.simplex;
    let mut w = [V::zero(); 4];
    for (o, v) in w.iter_mut().zip(simplex.vertices()) {
        *o = v.w;
    }
    let run =
        Run { v: core.v, lower: core.lower, outcome: core.outcome, status: core.status, iterations: core.iterations };
    answer(&run, simplex.witnesses(), &w[..simplex.len], &simplex.lambda[..simplex.len], ra, rb, pose_a)
}

/// [`finish_distance`] for a run of two point cores, straight from its one vertex instead of a simplex built to
/// hold it: the same operations on the same numbers (the witnesses are Σ λᵢ aᵢ with the one weight 1, summed from
/// zero as [`Simplex::witnesses`](simplex::Simplex::witnesses) does), so the same bits (test
/// `point_answer_is_the_simplex_answer`).
#[inline(always)]
fn finish_points<V: Vector>(p: &run::PointRun<V>, ra: V::Real, rb: V::Real, pose_a: &Iso<V>) -> Distance<V> {
    let one = V::Real::ONE;
    let witnesses = (V::zero() + p.vertex.a * one, V::zero() + p.vertex.b * one);
    let run = Run { v: p.vertex.w, lower: p.lower, outcome: p.outcome, status: p.status, iterations: p.iterations };
    answer(&run, witnesses, &[p.vertex.w], &[one], ra, rb, pose_a)
}

/// What [`answer`] needs of a run besides its simplex.
struct Run<V: Vector> {
    v: V,
    lower: V::Real,
    outcome: Outcome,
    status: Status,
    iterations: u32,
}

/// The user's answer from a run, its cores' closest points `(core_a, core_b)` and its simplex (points `w` of
/// A − B, weights `lambda`), all in the pair frame.
#[inline(always)]
fn answer<V: Vector>(
    run: &Run<V>,
    (core_a, core_b): (V, V),
    w: &[V],
    lambda: &[V::Real],
    ra: V::Real,
    rb: V::Real,
    pose_a: &Iso<V>,
) -> Distance<V> {
    let radii = ra + rb;
    let zero = V::Real::ZERO;
    let vlen = run.v.length();
    // v = a − b points from B to A; the normal points from A to B.
    let normal_local = if vlen > zero { -run.v * (V::Real::ONE / vlen) } else { V::zero() };
    let point_a = core_a + normal_local * ra;
    let point_b = core_b - normal_local * rb;
    let gap = vlen - radii;
    let intersecting = run.outcome == Outcome::Intersecting;
    let (distance, status) = match run.outcome {
        Outcome::Intersecting => (zero, run.status),
        Outcome::Separated => ((run.lower - radii).max(zero), Status::AboveBound),
        Outcome::Closest => (gap.max(zero), run.status),
    };
    let mut points = [V::zero(); 4];
    let mut weights = [zero; 4];
    for (i, (&p, &l)) in w.iter().zip(lambda).enumerate() {
        points[i] = pose_a.rotation.rotate(p);
        weights[i] = l;
    }
    Distance {
        intersecting,
        distance,
        point_a: pose_a.transform_point(point_a),
        point_b: pose_a.transform_point(point_b),
        normal: pose_a.rotation.rotate(normal_local),
        simplex: WitnessSimplex { points, weights, len: w.len() },
        iterations: run.iterations,
        status,
        // An intersecting run may leave |v| − radii above zero: within touching, or a run that could not prove the
        // cores apart (see `run`). Its distance, 0, is off by at most that much.
        error_bound: if intersecting { gap.max(zero) } else { (vlen - run.lower).max(zero) },
    }
}
