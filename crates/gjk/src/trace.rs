//! The observer hook: every query reports each GJK step to an [`Observer`], and a penetration query each EPA
//! iteration too. The unit type `()` is the observer that does nothing; its empty, inlined methods and its
//! `ENABLED = false` let the compiler remove the reporting entirely, so a query without an observer costs the same
//! as one with no hook at all. [`Recorder`] keeps every step, for the demo, the pictures and debugging.

use crate::math::Vector;
use alloc::vec::Vec;

/// What the algorithm decided after a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The simplex moved closer to the origin; another step follows.
    Continue,
    /// The simplex encloses (or touches) the origin: the shapes intersect.
    Intersecting,
    /// The new support point brings the simplex no closer than the tolerance: `closest` is the answer.
    Converged,
    /// The shapes are known to be farther apart than the caller's bound (or, for a boolean query, apart).
    Separated,
    /// The next simplex would not be closer in this precision: the previous one is the answer.
    Stalled,
    /// The iteration cap was reached.
    MaxIterations,
}

/// One GJK step, in world coordinates.
///
/// The Minkowski difference of the world shapes is A − B; the points here are on it, rotated into the world
/// (translation plays no part in a difference), so they can be drawn directly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step<V: Vector> {
    /// 1 for the first step.
    pub iteration: u32,
    /// The search direction d (the support point of A − B farthest along d is asked for).
    pub direction: V,
    /// The support point w = s_A(d) − s_B(−d).
    pub support: V,
    /// s_A(d), a world point of A's core.
    pub support_a: V,
    /// s_B(−d), a world point of B's core.
    pub support_b: V,
    /// The simplex after this step (the sub-simplex nearest the origin), points of A − B.
    pub simplex: [V; 4],
    /// How many entries of `simplex` are used.
    pub simplex_len: usize,
    /// The point of the simplex closest to the origin after this step.
    pub closest: V,
    /// What was decided.
    pub decision: Decision,
}

impl<V: Vector> Step<V> {
    /// The used part of the simplex.
    pub fn simplex(&self) -> &[V] {
        &self.simplex[..self.simplex_len]
    }
}

/// One iteration of EPA (the expanding polytope of a penetration query), in world coordinates like [`Step`].
///
/// The polytope lies inside A − B and holds the origin; its face nearest the origin bounds the depth from below
/// (`lower`), and the support value of A − B along that face's normal bounds it from above (`upper`). Unless the
/// bounds meet, the support point is added and the faces it sees are replaced by a fan to it.
#[derive(Clone, Debug, PartialEq)]
pub struct EpaStep<V: Vector> {
    /// 1 for the first EPA iteration (GJK's steps are counted apart).
    pub iteration: u32,
    /// The polytope's vertices before this iteration, points of A − B.
    pub vertices: Vec<V>,
    /// Its faces, `V::DIM` indices into `vertices` each, wound so the normal points out: edges in 2D (the polygon
    /// counter-clockwise), triangles in 3D. See [`EpaStep::faces`].
    pub face_indices: Vec<u16>,
    /// Which face (in the order of [`EpaStep::faces`]) is nearest the origin.
    pub nearest: usize,
    /// The outward unit normal of the nearest face: the candidate penetration direction.
    pub normal: V,
    /// The distance from the origin to the nearest face's plane: a lower bound on the depth.
    pub lower: V::Real,
    /// The support point of A − B along `normal`.
    pub support: V,
    /// The smallest support value seen so far: an upper bound on the depth.
    pub upper: V::Real,
    /// [`Decision::Continue`] when the support point is added; else how EPA ended.
    pub decision: Decision,
}

impl<V: Vector> EpaStep<V> {
    /// The faces, each as `V::DIM` vertex indices.
    pub fn faces(&self) -> impl Iterator<Item = &[u16]> {
        self.face_indices.chunks(V::DIM)
    }
}

/// Receives each step of a query.
pub trait Observer<V: Vector> {
    /// False for an observer that ignores everything: the queries then skip building the step records at
    /// compile time (they are not free to build: points are rotated into the world).
    const ENABLED: bool = true;
    /// Called once per GJK step, in order.
    fn step(&mut self, step: &Step<V>);
    /// Called once per EPA iteration of a penetration query, in order, after the GJK steps. Ignored unless
    /// implemented.
    fn epa_step(&mut self, _step: &EpaStep<V>) {}
}

/// The observer that ignores everything: zero cost.
impl<V: Vector> Observer<V> for () {
    const ENABLED: bool = false;
    #[inline(always)]
    fn step(&mut self, _step: &Step<V>) {}
}

/// An observer that keeps every step.
#[derive(Clone, Debug, Default)]
pub struct Recorder<V: Vector> {
    /// The GJK steps, in order.
    pub steps: Vec<Step<V>>,
    /// The EPA iterations of a penetration query, in order (empty when EPA did not run).
    pub epa_steps: Vec<EpaStep<V>>,
}

impl<V: Vector> Observer<V> for Recorder<V> {
    fn step(&mut self, step: &Step<V>) {
        self.steps.push(*step);
    }
    fn epa_step(&mut self, step: &EpaStep<V>) {
        self.epa_steps.push(step.clone());
    }
}

impl<V: Vector, F: FnMut(&Step<V>)> Observer<V> for F {
    fn step(&mut self, step: &Step<V>) {
        self(step)
    }
}
