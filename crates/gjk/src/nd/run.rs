//! The GJK loop in ℝᴺ: the same stopping rules as the 2D/3D loop (`gjk::run`), on the simplex of
//! [`super::simplex`].

use super::shape::SupportN;
use super::simplex::{Simplex, Vertex};
use crate::gjk::run::{gap_noise, stall_rounding, touch_distance};
use crate::gjk::{DistanceOptions, Status};
use crate::math::VecN;

/// A − B in A's frame (poses are translations: B's relative to A's is subtracted first, so far-off pairs keep
/// their digits).
pub(crate) struct Pair<'a, A: ?Sized, B: ?Sized, const N: usize> {
    pub a: &'a A,
    pub b: &'a B,
    pub rel: VecN<N>,
}

impl<A: SupportN<N> + ?Sized, B: SupportN<N> + ?Sized, const N: usize> Pair<'_, A, B, N> {
    fn support(&self, d: VecN<N>) -> Vertex<N> {
        let (index_a, a) = self.a.support(d);
        let (index_b, b) = self.b.support(-d);
        let b = b + self.rel;
        Vertex { w: a - b, a, b, index_a, index_b }
    }
}

/// How the loop ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The cores are within the radii of each other (or overlap).
    Intersecting,
    /// The cores are farther apart than asked about.
    Separated,
    /// `v` is the nearest point of A − B (to the tolerance `status` gives).
    Closest,
}

pub(crate) struct Run<const N: usize> {
    pub simplex: Simplex<N>,
    pub v: VecN<N>,
    pub lower: f64,
    pub outcome: Outcome,
    pub status: Status,
    pub iterations: u32,
}

/// Runs GJK on the pair's cores: stop as intersecting within `stop_below`, as separated past `stop_above`.
pub(crate) fn run<A, B, const N: usize>(
    pair: &Pair<'_, A, B, N>,
    options: &DistanceOptions<f64>,
    stop_below: f64,
    stop_above: Option<f64>,
) -> Run<N>
where
    A: SupportN<N> + ?Sized,
    B: SupportN<N> + ?Sized,
{
    // The first direction: from A − B's centre toward the origin.
    let c = pair.a.center() - (pair.b.center() + pair.rel);
    let d = if c.length_squared() > 0.0 && c.is_finite() { -c } else { VecN::axis(0) };
    let mut simplex = Simplex::new(pair.support(d));
    let mut v = simplex.point();
    let mut lower = 0.0f64;
    let mut iterations = 0;
    let finish =
        |simplex, v, lower, outcome, status, iterations| Run { simplex, v, lower, outcome, status, iterations };
    loop {
        let v2 = v.length_squared();
        let vlen = crate::math::Real::sqrt(v2);
        if vlen <= stop_below + touch_distance(simplex.scale()) {
            return finish(simplex, v, lower, Outcome::Intersecting, Status::Converged, iterations);
        }
        if iterations >= options.max_iterations {
            return finish(simplex, v, lower, Outcome::Closest, Status::MaxIterations, iterations);
        }
        iterations += 1;
        let w = pair.support(-v);
        let vw = v.dot(w.w);
        if vw > 0.0 {
            lower = lower.max(vw / vlen);
        }
        // Separated only past the touching threshold too: a lower bound at rounding level above zero must not
        // call separated what the distance query calls touching.
        let scale = simplex.scale().max(w.w.max_abs());
        if stop_above.is_some_and(|above| lower > above + touch_distance(scale)) {
            return finish(simplex, v, lower, Outcome::Separated, Status::Converged, iterations);
        }
        // Duality gap |v|² − v·w: how much nearer the origin A − B may still reach beyond v.
        let converged = v2 - vw <= options.tolerance * v2 + gap_noise(vlen, scale);
        let settled =
            |lower: f64| if vlen - lower <= stall_rounding(scale) { Status::Converged } else { Status::Stalled };
        if converged || simplex.contains(w.w) {
            let status = if converged { Status::Converged } else { settled(lower) };
            return finish(simplex, v, lower, Outcome::Closest, status, iterations);
        }
        let before = simplex;
        match simplex.add(w) {
            Some(next) if simplex.len() == N + 1 => {
                // All N + 1 vertices keep positive weights only when the origin is inside them.
                return finish(simplex, next, lower, Outcome::Intersecting, Status::Converged, iterations);
            }
            Some(next) if next.length_squared() < v2 => v = next,
            // No progress in this precision (or a NaN from a support function): keep the better simplex.
            _ => return finish(before, v, lower, Outcome::Closest, settled(lower), iterations),
        }
    }
}
