//! The observer of a composite walk: which tree nodes a query entered and which leaf pairs it ran the convex
//! algorithms on, with what they found. It is what `gjk draw` pictures and what the CLI counts.
//!
//! Like [`crate::trace::Observer`], the hook costs nothing when unused: `()` is an observer whose methods are
//! empty and whose [`WalkObserver::ENABLED`] is false, so the plain queries ([`distance`](super::distance),
//! [`intersects`](super::intersects), [`penetration`](super::penetration)) are the observed ones with `()`,
//! compiled to the same code.
//!
//! ```
//! use gjk::composite::TriMesh;
//! use gjk::math::{DVec2, Iso};
//! use gjk::query::{self, WalkRecorder};
//! use gjk::shape::Ball;
//! // A zigzag of 20 segments and a ball above its far end: the walk enters few of the tree's nodes.
//! let points: Vec<DVec2> = (0..21).map(|i| DVec2::new(i as f64, (i % 2) as f64)).collect();
//! let zigzag = TriMesh::polyline(points, false).unwrap();
//! let ball = Ball::new(0.25).unwrap();
//! let mut walk = WalkRecorder::default();
//! let at = Iso::from_translation(DVec2::new(19.5, 3.0));
//! let d = query::distance_observed(&zigzag, &Iso::identity(), &ball, &at, None, &mut walk);
//! assert_eq!(d, query::distance(&zigzag, &Iso::identity(), &ball, &at));
//! assert!(walk.nodes_a.len() < zigzag.bvh().nodes().len());
//! assert_eq!(walk.leaves.len() as u32, d.leaves);
//! // The leaf that decided is among those run.
//! assert!(walk.leaves.iter().any(|run| run.part_a == d.part_a && run.distance == d.distance));
//! ```

use crate::gjk::Status;
use crate::math::{Real, Vector};
use alloc::vec::Vec;

/// Which shape of the pair a tree belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The query's first shape.
    A,
    /// The query's second shape.
    B,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Self {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// One convex query a walk ran on a pair of leaves (or on two convex shapes, or on a shape and a half-space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafRun<V: Vector> {
    /// A's leaf (`None`: A is convex or a half-space).
    pub part_a: Option<u32>,
    /// B's leaf.
    pub part_b: Option<u32>,
    /// Whether the two leaves overlap or touch.
    pub intersecting: bool,
    /// Their distance: the gap (0 when intersecting) for distance and intersection runs, signed (negative when
    /// overlapping) for penetration runs; a lower bound when `status` is [`Status::AboveBound`] (the walk's bound
    /// stopped the run early). Zero for intersection runs, which measure nothing.
    pub distance: V::Real,
    /// A's closest (or deepest) point, world; zero for intersection runs.
    pub point_a: V,
    /// B's closest (or deepest) point, world.
    pub point_b: V,
    /// GJK (or EPA) iterations of the run; 0 for a closed form (a half-space).
    pub iterations: u32,
    /// How the run ended.
    pub status: Status,
}

impl<V: Vector> LeafRun<V> {
    /// The run with A and B exchanged.
    pub fn flipped(self) -> Self {
        Self { part_a: self.part_b, part_b: self.part_a, point_a: self.point_b, point_b: self.point_a, ..self }
    }

    /// A run that only decided whether the leaves meet.
    pub(crate) fn verdict(parts: (Option<u32>, Option<u32>), intersecting: bool, iterations: u32) -> Self {
        Self {
            part_a: parts.0,
            part_b: parts.1,
            intersecting,
            distance: V::Real::ZERO,
            point_a: V::zero(),
            point_b: V::zero(),
            iterations,
            status: Status::Converged,
        }
    }
}

/// What a composite walk reports. Every method has an empty default; `()` implements it with
/// [`ENABLED`](WalkObserver::ENABLED) false, which the queries read to skip work only an observer needs.
pub trait WalkObserver<V: Vector> {
    /// False only for observers that record nothing (`()`).
    const ENABLED: bool = true;

    /// A node of one side's tree was entered (its children tested, or its leaves run), in the order entered.
    fn node(&mut self, side: Side, node: u32) {
        let _ = (side, node);
    }

    /// A pair of nodes (A's tree, B's tree) was entered by a walk of both trees.
    fn node_pair(&mut self, a: u32, b: u32) {
        let _ = (a, b);
    }

    /// A convex query ran on a pair of leaves.
    fn leaf(&mut self, run: &LeafRun<V>) {
        let _ = run;
    }

    /// The query ran with A and B exchanged (the dispatch puts the composite first): everything reported so far
    /// has its sides the other way round.
    fn swap(&mut self) {}
}

impl<V: Vector> WalkObserver<V> for () {
    const ENABLED: bool = false;
}

impl<V: Vector, O: WalkObserver<V> + ?Sized> WalkObserver<V> for &mut O {
    const ENABLED: bool = O::ENABLED;
    #[inline]
    fn node(&mut self, side: Side, node: u32) {
        (**self).node(side, node)
    }
    #[inline]
    fn node_pair(&mut self, a: u32, b: u32) {
        (**self).node_pair(a, b)
    }
    #[inline]
    fn leaf(&mut self, run: &LeafRun<V>) {
        (**self).leaf(run)
    }
    #[inline]
    fn swap(&mut self) {
        (**self).swap()
    }
}

/// An observer that keeps everything: the nodes entered in A's and B's trees, the node pairs of a two-tree walk,
/// and the leaf runs, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WalkRecorder<V: Vector> {
    /// Nodes of A's tree entered (indices into its [`Bvh::nodes`](crate::bvh::Bvh::nodes)), in order; a node
    /// entered twice (by two walks of one query) is listed twice.
    pub nodes_a: Vec<u32>,
    /// Nodes of B's tree entered.
    pub nodes_b: Vec<u32>,
    /// Pairs of nodes (A's, B's) entered by a walk of both trees.
    pub node_pairs: Vec<(u32, u32)>,
    /// The leaf runs.
    pub leaves: Vec<LeafRun<V>>,
}

impl<V: Vector> WalkObserver<V> for WalkRecorder<V> {
    fn node(&mut self, side: Side, node: u32) {
        match side {
            Side::A => self.nodes_a.push(node),
            Side::B => self.nodes_b.push(node),
        }
    }
    fn node_pair(&mut self, a: u32, b: u32) {
        self.node_pairs.push((a, b));
    }
    fn leaf(&mut self, run: &LeafRun<V>) {
        self.leaves.push(*run);
    }
    fn swap(&mut self) {
        core::mem::swap(&mut self.nodes_a, &mut self.nodes_b);
        for p in &mut self.node_pairs {
            *p = (p.1, p.0);
        }
        for run in &mut self.leaves {
            *run = run.flipped();
        }
    }
}

/// Leaf runs and iterations, counted: what `gjk query` reports for a line with a composite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkCount {
    /// Leaf runs.
    pub leaves: u32,
    /// GJK (or EPA) iterations summed over the runs.
    pub iterations: u32,
    /// The first run found intersecting (its leaves), for an intersection query: the pair that decided it.
    pub first_hit: Option<(Option<u32>, Option<u32>)>,
}

impl<V: Vector> WalkObserver<V> for WalkCount {
    fn leaf(&mut self, run: &LeafRun<V>) {
        self.leaves += 1;
        self.iterations = self.iterations.saturating_add(run.iterations);
        if run.intersecting && self.first_hit.is_none() {
            self.first_hit = Some((run.part_a, run.part_b));
        }
    }
    fn swap(&mut self) {
        self.first_hit = self.first_hit.map(|(a, b)| (b, a));
    }
}

/// An observer shared by the closures of one walk (the leaf callback and the node callback both report to it).
/// With `()` nothing is ever borrowed: every method checks [`WalkObserver::ENABLED`] first, so the cell is dead
/// code and the walk compiles as if unobserved.
pub(crate) struct Shared<'o, O>(core::cell::RefCell<&'o mut O>);

impl<'o, O> Shared<'o, O> {
    pub(crate) fn new(obs: &'o mut O) -> Self {
        Self(core::cell::RefCell::new(obs))
    }

    #[inline]
    pub(crate) fn node<V: Vector>(&self, side: Side, node: u32)
    where
        O: WalkObserver<V>,
    {
        if O::ENABLED {
            self.0.borrow_mut().node(side, node);
        }
    }

    #[inline]
    pub(crate) fn node_pair<V: Vector>(&self, a: u32, b: u32)
    where
        O: WalkObserver<V>,
    {
        if O::ENABLED {
            self.0.borrow_mut().node_pair(a, b);
        }
    }

    /// Reports the run `run()` builds (built only when someone observes).
    #[inline]
    pub(crate) fn leaf<V: Vector>(&self, run: impl FnOnce() -> LeafRun<V>)
    where
        O: WalkObserver<V>,
    {
        if O::ENABLED {
            let r = run();
            self.0.borrow_mut().leaf(&r);
        }
    }
}
