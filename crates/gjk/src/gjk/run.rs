//! The GJK loop, shared by the distance and intersection queries.
//!
//! Each step asks A − B for its support point w along d = −v, where v is the point of the current simplex
//! nearest the origin. The plane through w perpendicular to v has all of A − B behind it, so v·w / |v| is a lower
//! bound on the distance and |v| an upper bound; their difference, the duality gap, is what termination
//! measures.

use super::newton;
use super::pair::{DiffVertex, Pair};
use super::simplex::Simplex;
use super::walk::{self, Walk};
use super::Status;
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;
use crate::trace::{Decision, Observer, Step};

/// The largest ratio of the scale of A − B's points to |v| at which GJK asks for an edge proposal (see `run_steps`).
const EDGE_SCALE: f64 = 1e6;

/// Multiple of machine epsilon × the scale of A − B's points under which |v| counts as zero (touching). The
/// rounding error of v = Σ λᵢ wᵢ is a few ulps of the largest |wᵢ|; 64 leaves room for the solver's own rounding
/// (tests `touching_*` in tests/regressions.rs pin it).
const TOUCH_ULPS: f64 = 64.0;

/// Multiple of machine epsilon × |v| × max|w| allowed in the duality gap on top of the relative tolerance: below
/// it the gap is rounding noise of the dot product v·w and can't shrink further.
const GAP_ULPS: f64 = 8.0;

/// Multiple of machine epsilon × the scale of A − B's points within which the upper and lower bounds of a run that
/// can make no more progress count as met: the answer is then as exact as the precision allows.
const STALL_ULPS: f64 = 1024.0;

/// The distance under which cores whose points are of magnitude `scale` count as touching (TOUCH_ULPS).
pub(crate) fn touch_distance<R: Real>(scale: R) -> R {
    R::from_f64(TOUCH_ULPS) * R::EPSILON * scale
}

/// The rounding noise of v·w (GAP_ULPS) for |v| = `vlen` and points of magnitude `scale`.
pub(crate) fn gap_noise<R: Real>(vlen: R, scale: R) -> R {
    R::from_f64(GAP_ULPS) * R::EPSILON * vlen * scale
}

/// How far apart the bounds of a run that can make no more progress may be and still count as met (STALL_ULPS).
pub(crate) fn stall_rounding<R: Real>(scale: R) -> R {
    R::from_f64(STALL_ULPS) * R::EPSILON * scale
}

/// Whether the segment from v (a point of the simplex, so of A − B) to the new support w (a point of A − B) comes
/// within `touch` of the origin: the Frank–Wolfe step of GJK, v + t (w − v) with t = (|v|² − v·w) / |w − v|² in
/// [0, 1], is then a point of A − B at touching distance, and the cores touch — the loop's first rule, applied to
/// a point the simplex solver could not reach.
///
/// Asked only when that solver made no progress. It happens where the simplex has a face through the origin to
/// within the rounding of a sliver: a flat cone 3000 wide with a point at its centre, 0.12 deep, stalled at
/// |v| = 5e-11 (gjk-fuzz seed 41 case 8524) on the triangle of two opposite rim points and the apex; the next
/// support, 1570 beyond the origin almost straight along −v, made a tetrahedron whose signed volumes (of
/// 1e-9 against their rounding of 1e-3) could not place the origin inside, and the run called the pair apart.
/// The segment to w passes within 1e-15 of the origin, computed from v and w alone.
fn touches_on_the_way<V: Vector>(v: V, w: V, touch: V::Real) -> bool {
    let e = w - v;
    let ee = e.length_squared();
    let t = -v.dot(e);
    if !(ee > V::Real::ZERO) || !(t > V::Real::ZERO) {
        return false;
    }
    let nearest = if t >= ee { w } else { v + e * (t / ee) };
    nearest.length() <= touch
}

/// What the loop is asked to do.
pub(crate) struct Params<R> {
    pub max_iterations: u32,
    /// Stop when the duality gap is at most `rel_tol · |v|²`.
    pub rel_tol: R,
    /// Stop as intersecting when the core distance is known to be at most this (the sum of the radii).
    pub stop_below: R,
    /// Stop as separated when the core distance is known to exceed this.
    pub stop_above: Option<R>,
    /// Polish a converged answer's direction on a curved pair (see [`newton::polish`]): for queries that report
    /// witness points and a normal, not for those that need only the verdict or the distance.
    pub polish: bool,
}

impl<R: Real> Params<R> {
    /// The caller's cap and tolerance with the query's own stopping distances; no polish.
    pub fn new(options: &super::DistanceOptions<R>, stop_below: R, stop_above: Option<R>) -> Self {
        let (max_iterations, rel_tol) = (options.max_iterations, options.tolerance);
        Self { max_iterations, rel_tol, stop_below, stop_above, polish: false }
    }

    /// The same, polishing the answer's direction on curved pairs (see [`newton::polish`]).
    pub fn polished(self) -> Self {
        Self { polish: true, ..self }
    }
}

/// How the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The cores are within `stop_below` of each other (or overlap).
    Intersecting,
    /// The cores are farther apart than `stop_above`.
    Separated,
    /// `v` is the closest point of A − B (to the tolerance given by `status`).
    Closest,
}

pub(crate) struct CoreResult<V: Vector> {
    pub simplex: Simplex<V>,
    pub v: V,
    /// Best lower bound found on the core distance.
    pub lower: V::Real,
    pub outcome: Outcome,
    pub status: Status,
    pub iterations: u32,
    /// The distance under which the run counted the cores as touching.
    pub touch: V::Real,
}

/// The first simplex: from the warm-start directions if any, else the support point toward the origin from
/// A − B's centre.
///
/// Always inlined into the query, like the pair it reads first: the relative pose just formed is then read from
/// registers, not through memory, where f64 quaternions stall on store forwarding (3D f64 box separated
/// intersection −36 % time).
#[inline(always)]
pub(crate) fn initial_simplex<V, A, B>(pair: &mut Pair<'_, V, A, B>, warm: &[V]) -> Simplex<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let mut dirs = warm.iter().copied().filter(|d| d.is_finite() && d.length_squared() > V::Real::ZERO);
    let Some(first) = dirs.next() else {
        return Simplex::new(first_support(pair));
    };
    let mut simplex = Simplex::new(pair.support(first));
    for d in dirs.take(V::DIM) {
        let p = pair.support(d);
        if !simplex.contains(p.w) {
            simplex.push(p);
        }
    }
    simplex
}

/// The cold start's vertex: the support point of A − B toward the origin from A − B's centre (along the first
/// axis when the centre is at the origin or not finite).
#[inline(always)]
pub(crate) fn first_support<V, A, B>(pair: &mut Pair<'_, V, A, B>) -> DiffVertex<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let c = pair.center();
    let d = if c.length_squared() > V::Real::ZERO && c.is_finite() { -c } else { V::axis(0) };
    pair.support(d)
}

/// Runs GJK from `simplex` until one of the stopping rules fires. `to_world` (A's pose) is used only to report
/// steps to the observer in world coordinates. With a `stop_above`, the start simplex's own planes are tested first
/// ([`separated_at_start`]): a pair they prove apart stops with no step.
pub(crate) fn run<V, A, B, O>(
    pair: &mut Pair<'_, V, A, B>,
    mut simplex: Simplex<V>,
    params: &Params<V::Real>,
    observer: &mut O,
    to_world: &Iso<V>,
) -> CoreResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    // Read before the reduction below, which may drop vertices whose planes prove the most.
    let start_lower = params.stop_above.map(|_| start_lower(&simplex));
    // A single vertex (every cold start) is already reduced: it is its own nearest point, with weight 1.
    let v = if simplex.len == 1 { simplex.verts[0].w } else { simplex.reduce() };
    if let (Some(above), Some(start)) = (params.stop_above, start_lower) {
        if separated_at_start(v, start, above, params.stop_below, simplex.scale()) {
            let touch = touch_distance(simplex.scale());
            let (outcome, status) = (Outcome::Separated, Status::Converged);
            return CoreResult { simplex, v, lower: start, outcome, status, iterations: 0, touch };
        }
    }
    run_steps(pair, simplex, v, params, observer, to_world)
}

/// The loop of [`run`] from a reduced `simplex` whose point nearest the origin is `v`, its start already tested.
pub(crate) fn run_steps<V, A, B, O>(
    pair: &mut Pair<'_, V, A, B>,
    mut simplex: Simplex<V>,
    mut v: V,
    params: &Params<V::Real>,
    observer: &mut O,
    to_world: &Iso<V>,
) -> CoreResult<V>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
    O: Observer<V>,
{
    let mut lower = V::Real::ZERO;
    let mut iterations = 0;
    // Two polygons: A − B's boundary can be walked by index (see `walk`).
    let polygons = pair.polygons();
    // The direction of the step before (zero: none yet).
    let mut last_dir = V::zero();
    // Newton's method may propose the nearest point of a pair with a curved part, once, after an edge proposal
    // once (see `newton`).
    let mut may_propose = true;
    let mut may_edge = true;
    // Secant proposals left to two polygons before their walk can start (see `secant_walk`).
    let mut secants = SECANTS;
    // A step may keep a larger face no nearer than v, once (see below).
    let mut may_widen = true;
    let finish = |simplex: Simplex<V>, v, lower, outcome, status, iterations| CoreResult {
        simplex,
        v,
        lower,
        outcome,
        status,
        iterations,
        touch: touch_distance(simplex.scale()),
    };
    loop {
        let v2 = v.length_squared();
        let vlen = v2.sqrt();
        // The simplex does not change until the push below: its scale serves every test of this step.
        let scale = simplex.scale();
        // |v| is an upper bound on the core distance: within the radii (or at rounding level) the shapes touch.
        if vlen <= params.stop_below + touch_distance(scale) {
            return finish(simplex, v, lower, Outcome::Intersecting, Status::Converged, iterations);
        }
        if iterations >= params.max_iterations {
            return finish(simplex, v, lower, Outcome::Closest, Status::MaxIterations, iterations);
        }
        iterations += 1;
        let w = pair.support(-v);
        let vw = v.dot(w.w);
        if vw > V::Real::ZERO {
            lower = lower.max(vw / vlen);
        }
        let report = |observer: &mut O, s: &Simplex<V>, closest: V, decision| {
            if O::ENABLED {
                observer.step(&world_step(to_world, iterations, &w, s, closest, decision));
            }
        };
        if params.stop_above.is_some_and(|above| lower > above) {
            report(observer, &simplex, v, Decision::Separated);
            return finish(simplex, v, lower, Outcome::Separated, Status::Converged, iterations);
        }
        // Duality gap |v|² − v·w: how much closer to the origin A − B might still reach beyond v.
        let gap = v2 - vw;
        let scale = scale.max(w.w.max_abs());
        let noise = gap_noise(vlen, scale);
        let converged = gap <= params.rel_tol * v2 + noise;
        // Only a pair proven apart beyond the touching band, and with a curved part: its verdict is settled, and the
        // proposal changes nothing but how soon the distance is found.
        if may_propose
            && !converged
            && newton::worth_proposing(params.rel_tol, gap, v2, lower, params.stop_below + touch_distance(scale))
        {
            let curved = !(pair.a.polyhedral() && pair.b.polyhedral());
            // Along a straight edge of A − B first (a cylinder's side), where h's kink stops the proposal below;
            // once, and the proposal below may still follow it (the edge found may not be the nearest feature:
            // a rim against a rim). Only where |v| is at least 1e-6 of the points' scale: below, the points'
            // rounding tilts every plane by ε·scale / |v| and the loop's probes (see `probe_across`) pin the bounds
            // better than a shortcut (a triangle 3e-8 from a cylinder's side at coordinates of 1.6e5 got bounds
            // 7.5e-10 apart through the proposal, 2e-10 without: test `..._cylinder_1e5_wide_is_apart_fuzz_72_951`).
            let edges = may_edge
                && curved
                && (pair.a.fixed_edges() || pair.b.fixed_edges())
                && scale <= vlen * V::Real::from_f64(EDGE_SCALE);
            may_edge = false;
            let edge = if edges {
                newton::straight_edge(&simplex).and_then(|(_, e)| propose_edge(pair, v, v2, e))
            } else {
                None
            };
            may_propose = edge.is_some();
            if let Some((segment, next_v, plane)) = edge {
                (simplex, v, lower) = (segment, next_v, lower.max(plane));
                if params.stop_above.is_some_and(|above| lower > above) {
                    report(observer, &simplex, v, Decision::Separated);
                    return finish(simplex, v, lower, Outcome::Separated, Status::Converged, iterations);
                }
                report(observer, &simplex, v, Decision::Continue);
                continue;
            }
            let proposal =
                if curved { newton::propose(pair, -v * (V::Real::ONE / vlen), params.rel_tol, noise) } else { None };
            if let Some((point, plane)) = proposal {
                // The point and its own plane meet to the tolerance: the plane is a lower bound, and the point, when
                // nearer than v, GJK's next v. The next step then proves it by GJK's own test, along the point's own
                // direction: the plane's normal proves the distance but not v's direction, which is off by up to
                // √(2·(tolerance + noise/|v|²)) — tenths of a radian near touching a long flat side (a hexagon 6e-10
                // from an ellipse 6619 × 0.06 got a normal along which the planes were 2.67 apart, gjk-fuzz seed 1
                // case 3627) — where GJK's step along it goes on to the flat side's nearest point.
                lower = lower.max(plane);
                if params.stop_above.is_some_and(|above| lower > above) {
                    report(observer, &simplex, v, Decision::Separated);
                    return finish(simplex, v, lower, Outcome::Separated, Status::Converged, iterations);
                }
                if point.w.length_squared() < v2 {
                    (simplex, v) = (Simplex::new(point), point.w);
                    report(observer, &simplex, v, Decision::Continue);
                    continue;
                }
            }
        }
        // A repeated vertex (or convergence) ends the run; else the step below, unless it makes no progress.
        let repeated = converged || simplex.contains(w.w);
        if !repeated {
            // Two polygons, and w faces the origin: walk A − B's boundary from w to the nearest feature and go on
            // from it when it is nearer than v (GJK's next step then proves it, or goes on). Before w faces the
            // origin (the directions still turning towards a near contact), first walk to an edge whose line
            // separates, once the direction turns by only a few of A − B's edges a step (see `walk::close_to`).
            let facing = vw > V::Real::ZERO;
            let turn = core::mem::replace(&mut last_dir, v);
            if facing || polygons.is_some_and(|p| walk::close_to(p, turn, v)) {
                if let Some(walked) = polygons.and_then(|p| walk_to_nearest(pair, p, &w, v2, facing)) {
                    (simplex, v) = walked;
                    report(observer, &simplex, v, Decision::Continue);
                    continue;
                }
            } else if let Some((p, u)) =
                polygons.filter(|_| secants > 0).and_then(|p| Some((p, secant_direction(&simplex, &w)?)))
            {
                secants -= 1;
                if let Some(walked) = secant_walk(pair, p, u, v2) {
                    (simplex, v) = walked;
                    report(observer, &simplex, v, Decision::Continue);
                    continue;
                }
            }
            // The candidate simplex is solved in place; it is kept only if it brings v closer (or, once, widens it).
            let before = simplex.len;
            simplex.push(w);
            let (face, next_v) = simplex.solve();
            // A larger face as near as v to the rounding of |v|² (4 ulps) is kept too, once a run: its nearest point
            // is v's to rounding, and what it brings is v's direction, from the face's geometry. A point 1.1e-9 below
            // the top of a needle cylinder's side got the rim point as v; the segment down the side was 1.2e-18
            // nearer, which f64 rounds to the same |v|² or an ulp more (the order decides), and the normal stayed
            // tilted by 2.4e-9 rad, the planes along it 2e-9 nearer than the distance (gjk-fuzz seed 58 case 8208).
            // Once, so that faces no nearer cannot take turns.
            let next2 = next_v.length_squared();
            let widen =
                may_widen && face.len() > before && next2 <= v2 + v2 * V::Real::from_f64(4.0) * V::Real::EPSILON;
            may_widen &= !widen;
            if next2 < v2 || widen || face.len() == V::DIM + 1 {
                simplex.keep(&face);
                v = next_v;
                if simplex.len == V::DIM + 1 {
                    // The solver keeps all DIM + 1 vertices only when the origin is strictly inside them.
                    report(observer, &simplex, v, Decision::Intersecting);
                    return finish(simplex, v, lower, Outcome::Intersecting, Status::Converged, iterations);
                }
                report(observer, &simplex, v, Decision::Continue);
                continue;
            }
            // No progress in this precision (or a NaN from a user's support function): keep the better simplex.
            simplex.pop();
        }
        // The run stops here. A repeated vertex or a step without progress, with a real gap left, means v itself is
        // off by rounding: unless the Frank–Wolfe step touches, or a probe across the simplex gets it going again,
        // say so — unless the bounds already meet to within the rounding of the numbers in play (convergence).
        let rounding = stall_rounding(scale);
        if !converged && touches_on_the_way(v, w.w, params.stop_below + touch_distance(scale)) {
            report(observer, &simplex, v, Decision::Intersecting);
            return finish(simplex, v, lower, Outcome::Intersecting, Status::Converged, iterations);
        }
        if !converged && vlen - lower > rounding && iterations < params.max_iterations {
            if let Some((next_v, probe)) = probe_across(pair, &mut simplex, &mut v, &mut lower) {
                iterations += 1;
                v = next_v;
                if O::ENABLED {
                    observer.step(&world_step(to_world, iterations, &probe, &simplex, v, Decision::Continue));
                }
                continue;
            }
        }
        let status = if converged || vlen - lower <= rounding { Status::Converged } else { Status::Stalled };
        // Stopped short of convergence, and nothing proves the cores apart beyond touching: the run cannot tell the
        // two verdicts apart, and a verdict that depends on the order of the shapes is worse than either. It says
        // intersecting, the error bound the gap |v| it did not close, the status whether the bounds met to
        // rounding. A needle cone 1e-10 wide 1.5e-9 into a needle ellipsoid stalled 1.1e-11 "apart" one way and
        // intersecting the other (gjk-fuzz seed 55 case 2758); a hull 1e-6 wide inside a needle hull 2e6 long
        // stopped 3.7e-7 "apart", below the rounding of 2e6 (4.5e-7), where the other order found 1.245 of overlap
        // (seed 52 case 5468).
        if !converged && lower <= params.stop_below + touch_distance(scale) && vlen.is_finite() {
            report(observer, &simplex, v, Decision::Intersecting);
            return finish(simplex, v, lower, Outcome::Intersecting, status, iterations);
        }
        // Proven apart, and the witnesses are asked for: on a curved pair, the direction polished (see
        // `newton::polish`; a Newton proposal's point too, which stopped at GJK's tolerance, as √ε-good in direction),
        // or, where h has a kink at the nearest point, finished along the straight edge there (`finish_on_edge`).
        // Only where |v| is at least 1e-6 of the points' scale, as for the edge proposal: below, the points' rounding
        // tilts every direction by ε·scale / |v|, and a step that shrinks h's gradient can turn the normal off the
        // supporting planes (a hexagon 6e-10 from an ellipse 6619 × 0.06: the planes along the polished normal were
        // 4.3e-5 apart, test `hexagon_near_a_long_ellipse_gets_a_certified_normal_fuzz_1_3627`).
        let touching = params.stop_below + touch_distance(scale);
        if params.polish
            && params.rel_tol <= V::Real::from_f64(newton::PROPOSE_TOLERANCE)
            && lower > touching + touching
            && scale <= vlen * V::Real::from_f64(EDGE_SCALE)
            && !(pair.a.polyhedral() && pair.b.polyhedral())
        {
            let start = -v * (V::Real::ONE / vlen);
            let polished = newton::polish(pair, start, w, params.rel_tol, noise)
                .map(|(point, plane)| (Simplex::new(point), point.w, plane))
                .or_else(|| finish_on_edge(pair, (&simplex, status), start, (vlen, scale), params.rel_tol, noise));
            if let Some((simplex, v, plane)) = polished {
                let lower = lower.max(plane);
                // The polished plane may prove the pair beyond a caller's bound: the loop's own verdict then.
                if params.stop_above.is_some_and(|above| lower > above) {
                    report(observer, &simplex, v, Decision::Separated);
                    return finish(simplex, v, lower, Outcome::Separated, Status::Converged, iterations);
                }
                report(observer, &simplex, v, Decision::Converged);
                return finish(simplex, v, lower, Outcome::Closest, Status::Converged, iterations);
            }
        }
        report(observer, &simplex, v, if repeated { Decision::Converged } else { Decision::Stalled });
        return finish(simplex, v, lower, Outcome::Closest, status, iterations);
    }
}

/// The tilt from which an edge proposal in the loop starts: a tenth of a radian, as close as GJK's direction is when
/// a proposal is asked for.
const EDGE_TILT: f64 = 0.1;

/// The tilt from which the finish on an edge starts: GJK's direction has converged by then (to √ε near a smooth
/// minimum, 1e-5 rad where it stalled at a side line's end), and this spans the kink with room.
const FINISH_TILT: f64 = 1e-3;

/// How far inside a straight edge (as a fraction of it) the finish takes v's foot to be on the edge's inside, not at
/// its end: the stalls at a side line's end leave v up to 1e-5 of the size from it.
const INSIDE_AN_EDGE: f64 = 1e-3;

/// A run on a curved pair proven apart whose polish declined: where the nearest point of A − B is on or at the end of
/// a straight edge (a cylinder's side line swept along the other shape), h has a kink there and Newton's method on
/// the sphere cannot step across it. GJK's stop leaves the direction √ε-good at best, and at the end of a side line —
/// where the line meets the rim, a contact placed along a normal square to the axis — the simplex of two rim points
/// and the line's far end stalls with the witnesses up to 1e-5 of the size off the true pair (307 of 3000 such pairs
/// off by more than 1e-9 of the size before this finish, 1 after, at 1.7e-9). The edge is the final simplex's
/// longest edge when it is one (longer than 1e-4 of the points' `scale`, not two supports of the curved part a
/// rounding apart), else the jump of the support across v's direction (see [`newton::edge_across`]); the edge
/// proposal from v's direction then finds the nearest point along it, whose segment is the answer when its plane
/// meets it to GJK's test and it is no farther than v (`vlen`) to rounding: the segment, its nearest point and its
/// plane's lower bound.
fn finish_on_edge<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    (simplex, status): (&Simplex<V>, Status),
    start: V,
    (vlen, scale): (V::Real, V::Real),
    rel_tol: V::Real,
    noise: V::Real,
) -> Option<(Simplex<V>, V, V::Real)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    if !(pair.a.fixed_edges() || pair.b.fixed_edges()) {
        return None;
    }
    let tilt = V::Real::from_f64(FINISH_TILT);
    let held = newton::straight_edge(simplex).filter(|(_, e)| e.length() > scale * V::Real::from_f64(1e-4));
    if let Some((from, e)) = held.filter(|_| status == Status::Converged) {
        // A converged run whose v's foot is well inside the simplex's edge (as a fraction t of the edge from `from`;
        // a side line of a cylinder facing a curved part, the ruled face between them): the loop has solved the edge
        // already, and the finish would find it again (2529 finishes, none taken, in a call of the bench's cylinder
        // pairs). A stalled run is finished still: a chord of a rim 1e-4 of the size long held v inside it, 1.3e-9
        // short of its plane (test `cylinder_side_line_ending_at_the_rim_gets_the_true_pair`, 3000 cases, case 2095).
        let t = (-start * vlen - from).dot(e) / e.length_squared();
        let margin = V::Real::from_f64(INSIDE_AN_EDGE);
        if t > margin && t < V::Real::ONE - margin {
            return None;
        }
    }
    let edge = held.map(|(_, e)| e).or_else(|| newton::edge_across(pair, start, tilt))?;
    let (p, q, plane) = newton::propose_on_edge(pair, start, edge, tilt)?;
    let (segment, v) = solved_segment(p, q);
    let len = v.length();
    let as_near = len <= vlen + vlen * V::Real::from_f64(4.0) * V::Real::EPSILON;
    (as_near && len * (len - plane) <= rel_tol * len * len + noise).then_some((segment, v, plane))
}

/// The segment [`newton::propose_on_edge`] finds along `edge` from v's direction, solved, when its nearest point is
/// nearer the origin than v (|v|² = `v2`), with the lower bound its planes prove.
fn propose_edge<V, A, B>(pair: &mut Pair<'_, V, A, B>, v: V, v2: V::Real, edge: V) -> Option<(Simplex<V>, V, V::Real)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (p, q, plane) =
        newton::propose_on_edge(pair, -v * (V::Real::ONE / v2.sqrt()), edge, V::Real::from_f64(EDGE_TILT))?;
    let (segment, next_v) = solved_segment(p, q);
    (next_v.length_squared() < v2).then_some((segment, next_v, plane))
}

/// The segment [p, q] of A − B reduced to the face that holds its nearest point to the origin, and that point.
fn solved_segment<V: Vector>(p: DiffVertex<V>, q: DiffVertex<V>) -> (Simplex<V>, V) {
    let mut segment = Simplex::new(p);
    segment.push(q);
    let (face, v) = segment.solve();
    segment.keep(&face);
    (segment, v)
}

/// A run that stalls on a segment of A − B (in 3D and up) with a real gap left between its bounds: v, the segment's
/// nearest point, is off by rounding where A − B has a flat face that the segment's two support points do not pin
/// down. Two opposite rim points of a cylinder's cap 2e5 wide make a segment through the middle of the cap, v's
/// direction is 2e-8 rad (f64) or 1e-3 rad (f32) off the cap's axis by rounding, the support along it is a rim point
/// the segment already holds, and along v the rim reaches 5e-3 (f64) or the whole gap (f32) past the cap: the run
/// stopped "stalled" with no lower bound (gjk-fuzz seed 3 cases 12040 and 5222, a ball and a hull before such caps,
/// the hull's verdict depending on the order). The supports a little to either side of −v, across the segment, are
/// points of that face on either side of it: with them the simplex is a triangle holding the face's nearest point,
/// whose plane the solver takes from its edges. Each is kept only if it brings v no farther; its supporting plane
/// tightens the lower bound as any support does. `None` when neither helps (then the stall
/// stands), in 2D (a segment there is an edge of A − B and v is its exact foot), or on any other simplex.
///
/// When the segment stays, a probe's triangle still spans the face: its plane's normal, exact from the edges, turns
/// `v` (its length kept) when the plane proves more than any plane before it, so that the answer's normal is the
/// face's and not v's direction, off by ε·width / |v|: a point 3.2e-6 before a cap 8e5 wide got a normal along
/// which the planes were 9.2 apart (gjk-fuzz seed 57 case 1717).
fn probe_across<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    simplex: &mut Simplex<V>,
    v: &mut V,
    lower: &mut V::Real,
) -> Option<(V, DiffVertex<V>)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let (zero, one) = (V::Real::ZERO, V::Real::ONE);
    if simplex.len != 2 || V::DIM < 3 {
        return None;
    }
    let vlen = v.length();
    let toward = -*v * (one / vlen);
    let across = across_segment(simplex.verts[1].w - simplex.verts[0].w, toward)?;
    // 1/16 rad to the side: far beyond the rounding of v's direction, close enough to −v to stay on the face.
    let tilt = V::Real::from_f64(1.0 / 16.0);
    let v2 = v.length_squared();
    for side in [tilt, -tilt] {
        let d = toward + across * side;
        let w = pair.support(d);
        let reach = -d.dot(w.w);
        if reach > zero {
            *lower = lower.max(reach / d.length());
        }
        if simplex.contains(w.w) {
            continue;
        }
        // A triangle no farther than the segment is kept even without progress in |v|: the segment's nearest
        // point was already the face's to rounding, and what the triangle brings is v's direction.
        if let Some(next_v) = with_vertex(simplex, w, v2, true) {
            return Some((next_v, w));
        }
        // The solver kept the segment: the face's foot is within rounding of it (a cap 2e5 wide whose segment
        // passes 1e-11 from the foot). The triangle's plane is still the face's, its normal exact to a few ulps
        // from the edges: the supporting plane along it bounds the distance from below as tightly as rounding
        // allows (gjk-fuzz seed 3 case 12040).
        let (w0, w1) = (simplex.verts[0].w, simplex.verts[1].w);
        if let Some(n) = plane_normal(w1 - w0, w.w - w0, toward) {
            let wn = pair.support(n);
            let reach = -n.dot(wn.w);
            // Along the face's exact normal the support may reach past v where v's own direction, off by rounding,
            // found only the face again: a point 1.75e-10 inside a cone 8e-10 thick and 0.47 wide, whose apex wins
            // over the base's rim only within 1.7e-9 rad of the axis (v's direction was 8e-8 off; the run stalled
            // on the base's plane "6.4e-10 apart", gjk-fuzz seed 60 case 8135). That point is a vertex like any
            // other: kept when it brings v nearer.
            if let Some(step) = beyond_v(simplex, wn, n, *v, v2) {
                return Some(step);
            }
            // Turned only where v's foot is on that plane to v's own rounding (64 ulps of the points): then the
            // witnesses, Σ λᵢ of the segment, stay paired along the new normal. A triangle across a curved part is
            // no face, and its plane, though it may prove more than a stalled run had, tilts v beyond that (an f32
            // cylinder 700 wide, 764 from a needle: 0.15 off the witnesses, gjk-fuzz seed 57 case 7568).
            let turned = -n * vlen;
            if reach > *lower && (*v - turned).length() <= touch_distance(simplex.scale().max(w.w.max_abs())) {
                *v = turned;
            }
            *lower = lower.max(reach);
        }
    }
    None
}

/// `w`, the support along the unit `n`, as the simplex's next vertex, when it lies beyond v along n (by more than
/// the touching distance) and the simplex with it comes nearer the origin or encloses it: then the new v and `w`.
/// Otherwise the simplex is left as it was.
fn beyond_v<V: Vector>(
    simplex: &mut Simplex<V>,
    w: DiffVertex<V>,
    n: V,
    v: V,
    v2: V::Real,
) -> Option<(V, DiffVertex<V>)> {
    if simplex.contains(w.w) || !(n.dot(w.w - v) > touch_distance(simplex.scale().max(w.w.max_abs()))) {
        return None;
    }
    with_vertex(simplex, w, v2, false).map(|next_v| (next_v, w))
}

/// The simplex with `w` added, solved and reduced to the face holding its nearest point, when that brings v nearer
/// than `v2` (its squared length), encloses the origin, or (with `equal_triangle`) is a triangle no farther: then the
/// new v. Otherwise the simplex is left as it was.
fn with_vertex<V: Vector>(simplex: &mut Simplex<V>, w: DiffVertex<V>, v2: V::Real, equal_triangle: bool) -> Option<V> {
    simplex.push(w);
    let (face, next_v) = simplex.solve();
    let next2 = next_v.length_squared();
    if next2 < v2 || (equal_triangle && next2 <= v2 && face.len() == 3) || face.len() == V::DIM + 1 {
        simplex.keep(&face);
        return Some(next_v);
    }
    simplex.pop();
    None
}

/// The unit normal of the plane spanned by the edges `e1`, `e2` on the side of `toward` (Gram–Schmidt in any
/// dimension: `toward` with its components along the edges taken out). `None` for degenerate edges.
fn plane_normal<V: Vector>(e1: V, e2: V, toward: V) -> Option<V> {
    let zero = V::Real::ZERO;
    let unit = |x: V| {
        let len = x.length();
        (len > zero).then(|| x * (V::Real::ONE / len))
    };
    let u1 = unit(e1)?;
    let u2 = unit(e2 - u1 * e2.dot(u1))?;
    unit(toward - u1 * toward.dot(u1) - u2 * toward.dot(u2))
}

/// A unit vector perpendicular to both `e` and the unit `u`: the coordinate axis farthest from their plane, with
/// its components along them taken out (Gram–Schmidt, in any dimension). `None` when `e` is zero or along `u`.
fn across_segment<V: Vector>(e: V, u: V) -> Option<V> {
    let zero = V::Real::ZERO;
    let e = e - u * e.dot(u);
    let elen = e.length();
    if !(elen > zero) {
        return None;
    }
    let e = e * (V::Real::ONE / elen);
    let mut best = V::zero();
    for i in 0..V::DIM {
        let a = V::axis(i);
        let r = a - u * a.dot(u) - e * a.dot(e);
        if r.length_squared() > best.length_squared() {
            best = r;
        }
    }
    let len = best.length();
    (len > zero).then(|| best * (V::Real::ONE / len))
}

/// The lower bound on the core distance that the start simplex proves before any step: each vertex w was found as
/// the support point along its direction d, so every point x of A − B has x·d ≤ w·d, and when w·d < 0 the plane
/// keeps the origin out by |x| ≥ −(w·d)/|d|. On a cold start d points from A − B's centre c toward the origin and
/// the bound is the gap between the two shapes' supporting planes across the centre line, w·c/|c|: positive for
/// every pair clearly apart along it, which is what MPR tests with its first support.
fn start_lower<V: Vector>(simplex: &Simplex<V>) -> V::Real {
    simplex.vertices().iter().fold(V::Real::ZERO, |lower, p| lower.max(proven_gap(p)))
}

/// The distance by which the supporting plane of A − B at `p` (normal `p.dir`) keeps the origin out: −(w·d)/|d|
/// when positive, else 0 (the plane proves nothing).
#[inline(always)]
pub(crate) fn proven_gap<V: Vector>(p: &DiffVertex<V>) -> V::Real {
    let zero = V::Real::ZERO;
    let reach = -p.w.dot(p.dir);
    // Overlapping pairs (reach ≤ 0 along the centre line) pay one dot product and no root.
    if !(reach > zero) {
        return zero;
    }
    let dlen = p.dir.length();
    if dlen > zero {
        reach / dlen
    } else {
        zero
    }
}

/// True when the start simplex alone decides "farther apart than `above`" (before any step, so with zero
/// iterations and no step for an observer, as the loop's own decision on the start simplex "within
/// `below`"). The loop's two tests in the loop's order: the start's nearest point `v` must not already count as
/// touching (|v| ≤ below + touch), and the start's lower bound must exceed `above` — by the touching distance
/// too, so that a pair this close to `above` is left to the loop and the distance query, which count a pair
/// within it as touching, cannot answer otherwise (`intersects` equals `distance(..).intersecting`).
#[inline(always)]
pub(crate) fn separated_at_start<V: Vector>(
    v: V,
    start: V::Real,
    above: V::Real,
    below: V::Real,
    scale: V::Real,
) -> bool {
    let touch = touch_distance(scale);
    start > above + touch && v.length() > below + touch
}

/// Secant proposals a run makes at most (see [`secant_walk`]).
const SECANTS: u32 = 2;

/// The secant direction of w and a vertex of GJK's segment (see [`walk::secant`]): `None` unless the simplex is a
/// segment (whose vertices and w bracket the least support value between two of their directions) and the three do
/// not enclose the origin (GJK's own step then ends the run: the shapes overlap, and there is nothing to walk to).
fn secant_direction<V: Vector>(simplex: &Simplex<V>, w: &DiffVertex<V>) -> Option<V> {
    if simplex.len != 2 || walk::encloses_origin(simplex.verts[0].w, simplex.verts[1].w, w.w) {
        return None;
    }
    simplex.vertices().iter().find_map(|p| walk::secant(w, p))
}

/// Two polygons whose nearest edge GJK is still closing in on (w, the support along −v, does not yet face the
/// origin, and the directions still turn by many of A − B's edges a step): the support along the secant direction
/// `u` (see [`secant_direction`]), walked from to A − B's nearest feature. Kept, as a walk's, only when nearer than
/// v; `None` when the walk does not arrive.
fn secant_walk<V, A, B>(
    pair: &mut Pair<'_, V, A, B>,
    polygons: (&[V], &[V]),
    u: V,
    v2: V::Real,
) -> Option<(Simplex<V>, V)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let s = pair.support(u);
    walk_to_nearest(pair, polygons, &s, v2, u.dot(s.w) < V::Real::ZERO)
}

/// The nearest feature of A − B walked to from the support point `w` of two polygons (`polygons`), as a solved
/// simplex and its nearest point, when that point is nearer the origin than |v|² = `v2`. Unless w is `facing`
/// the origin (v·w > 0), the walk first looks for an edge whose line separates.
#[inline(never)]
fn walk_to_nearest<V, A, B>(
    pair: &Pair<'_, V, A, B>,
    polygons: (&[V], &[V]),
    w: &DiffVertex<V>,
    v2: V::Real,
    facing: bool,
) -> Option<(Simplex<V>, V)>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    let walk = Walk::new(pair, polygons);
    let start = walk.corner(w, (pair.hint_a, pair.hint_b))?;
    let start = if facing { start } else { walk.separating(start)? };
    let (p, q) = walk.nearest(start)?;
    let mut simplex = Simplex::new(p);
    if let Some(q) = q {
        simplex.push(q);
    }
    let (face, v) = simplex.solve();
    (v.length_squared() < v2).then(|| {
        simplex.keep(&face);
        (simplex, v)
    })
}

/// The result of [`run_points`]: a [`CoreResult`] whose simplex is the one vertex, kept unpacked until a caller
/// needs the simplex (a boolean query does not).
pub(crate) struct PointRun<V: Vector> {
    pub vertex: DiffVertex<V>,
    pub lower: V::Real,
    pub outcome: Outcome,
    pub status: Status,
    pub iterations: u32,
    pub touch: V::Real,
}

impl<V: Vector> PointRun<V> {
    /// The run as the loop returns it.
    #[inline]
    pub fn core(self) -> CoreResult<V> {
        let PointRun { vertex, lower, outcome, status, iterations, touch } = self;
        CoreResult { simplex: Simplex::new(vertex), v: vertex.w, lower, outcome, status, iterations, touch }
    }
}

/// GJK on two cores that are single points a and b (balls, points), without the loop: A − B is the one point
/// w = a − b, which the loop would take as its first simplex; its first step asks the support along −w, gets w
/// again and stops, with |w| as both bounds (or, past `stop_above`, stops before that step on the plane the vertex
/// was found with, as the loop does: [`separated_at_start`]). The same numbers are computed here in the same order, so the answer
/// is bit for bit the loop's, but no step is reported: callers take this path only when nobody observes. `None`
/// when a core is not a point, or the loop would do something else (no iteration allowed, non-finite poses).
///
/// Always inlined: called through memory, the pair's f64 pose stalls on store forwarding (3D f64 sphere
/// intersection 35 → 13 ns).
#[inline(always)]
pub(crate) fn run_points<V, A, B>(pair: &Pair<'_, V, A, B>, params: &Params<V::Real>) -> Option<PointRun<V>>
where
    V: Vector,
    A: SupportMap<V> + ?Sized,
    B: SupportMap<V> + ?Sized,
{
    // B's point placed as the loop's support places it (bit for bit the loop's answer).
    let (a, b) = (pair.a.point_core()?, pair.place_b_unframed(pair.b.point_core()?));
    let w = a - b;
    if params.max_iterations == 0 || !w.is_finite() {
        return None;
    }
    let zero = V::Real::ZERO;
    // The first direction: from A − B's centre (the point itself) toward the origin.
    let dir = if w.length_squared() > zero { -w } else { V::axis(0) };
    let (v2, scale) = (w.length_squared(), w.max_abs());
    let vlen = v2.sqrt();
    let touch = touch_distance(scale);
    let core = |lower, outcome, status, iterations| PointRun {
        vertex: DiffVertex { w, a, b, dir },
        lower,
        outcome,
        status,
        iterations,
        touch,
    };
    if vlen <= params.stop_below + touch {
        return Some(core(zero, Outcome::Intersecting, Status::Converged, 0));
    }
    // The loop's test before its first step: the plane of the one vertex, found along −w, proves |w| (bit for bit
    // the loop's number, from the same vertex).
    if let Some(above) = params.stop_above {
        let start = proven_gap(&DiffVertex { w, a, b, dir });
        if separated_at_start(w, start, above, params.stop_below, scale) {
            return Some(core(start, Outcome::Separated, Status::Converged, 0));
        }
    }
    // The step: v·w = |w|², so the lower bound is |w|²/|w| and the duality gap is zero.
    let lower = if v2 > zero { zero.max(v2 / vlen) } else { zero };
    if params.stop_above.is_some_and(|above| lower > above) {
        return Some(core(lower, Outcome::Separated, Status::Converged, 1));
    }
    let converged = zero <= params.rel_tol * v2 + gap_noise(vlen, scale);
    let status = if converged || vlen - lower <= stall_rounding(scale) { Status::Converged } else { Status::Stalled };
    Some(core(lower, Outcome::Closest, status, 1))
}

/// A step in world coordinates: points of A − B rotate with A (translations cancel in a difference); the
/// shapes' own points move with A's whole pose.
fn world_step<V: Vector>(
    to_world: &Iso<V>,
    iteration: u32,
    w: &DiffVertex<V>,
    simplex: &Simplex<V>,
    closest: V,
    decision: Decision,
) -> Step<V> {
    let rot = |p: V| to_world.rotation.rotate(p);
    let mut pts = [V::zero(); 4];
    for (o, s) in pts.iter_mut().zip(simplex.vertices()) {
        *o = rot(s.w);
    }
    Step {
        iteration,
        direction: rot(w.dir),
        support: rot(w.w),
        support_a: to_world.transform_point(w.a),
        support_b: to_world.transform_point(w.b),
        simplex: pts,
        simplex_len: simplex.len,
        closest: rot(closest),
        decision,
    }
}
