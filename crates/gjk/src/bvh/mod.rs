//! A static bounding volume hierarchy over axis-aligned boxes, generic over [`Vector`] (2D and 3D, f32 and f64).
//!
//! The tree is built once by a binned surface-area heuristic (Wald 2007, "On fast construction of SAH-based
//! bounding volume hierarchies") and stored as a flat array: a node names its two children, stored side by side
//! after it (one contiguous read when a traversal tests both), and a leaf names a run of the primitive list. [`Bvh::refit`] recomputes
//! the boxes bottom-up when primitives move (a deforming mesh) without changing the topology.
//!
//! The traversals take closures for what happens at the primitives, so the same tree serves triangle meshes,
//! compounds and height fields:
//! * [`Bvh::closest_first`] — branch and bound: nodes in increasing order of a caller's lower bound (the distance
//!   from a point or a shape's box to the node's box), pruned against the best answer so far;
//! * [`Bvh::cast_ray`] — nodes in the order the ray enters them, pruned at the nearest hit (or stopped at the first
//!   for an any-hit query);
//! * [`Bvh::for_each_overlap`] — every primitive whose box overlaps a box;
//! * [`Bvh::for_each_pair`] — tree against tree (two composites), with the other tree's boxes moved into this one's
//!   frame.
//!
//! Every traversal keeps its pending nodes on a fixed-size stack on the call stack (no allocation): the build
//! bounds the depth by [`MAX_DEPTH`], and a depth-first traversal never holds more than one pending node per level.
//!
//! ```
//! use gjk::bvh::Bvh;
//! use gjk::math::DVec2;
//! use gjk::shape::Aabb;
//! let boxes: Vec<Aabb<DVec2>> =
//!     (0..100).map(|i| Aabb::new(DVec2::new(i as f64, 0.0), DVec2::new(i as f64 + 0.5, 1.0))).collect();
//! let bvh = Bvh::new(&boxes);
//! let mut hits = Vec::new();
//! bvh.for_each_overlap(&Aabb::new(DVec2::new(10.2, 0.5), DVec2::new(12.1, 0.6)), |i| {
//!     hits.push(i);
//!     true // keep going
//! });
//! hits.sort();
//! assert_eq!(hits, [10, 11, 12]);
//! ```

use alloc::vec::Vec;
mod build;
mod refit;
mod traverse;

pub use traverse::{Ray, RelativeBoxes};

use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// Deepest a tree is built: below this the builder makes a leaf of what is left. With median splits from depth
/// `MEDIAN_DEPTH` (40) on, this depth holds 2^32 primitive groups, so it is never reached by a real input; it sizes the
/// traversal stacks.
pub const MAX_DEPTH: usize = 64;

/// From this depth the builder splits at the median instead of by the heuristic, so that adversarial inputs (boxes
/// nested in each other, a long thin chain) still give a tree of logarithmic depth.
const MEDIAN_DEPTH: usize = 40;

/// Most primitives in a leaf built by the heuristic (a leaf at [`MAX_DEPTH`] may hold more).
pub const MAX_LEAF: usize = 4;

/// One node of the flattened tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<V: Vector> {
    /// The box around everything below.
    pub aabb: Aabb<V>,
    /// Internal node: index of the first child (the second is next to it). Leaf: first index into
    /// [`Bvh::primitives`].
    link: u32,
    /// Number of primitives of a leaf; 0 for an internal node.
    count: u32,
}

impl<V: Vector> Node<V> {
    /// True for a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

/// A bounding volume hierarchy over primitives known by their index (`0..n`) and box.
#[derive(Clone, Debug, PartialEq)]
pub struct Bvh<V: Vector> {
    nodes: Vec<Node<V>>,
    /// Primitive indices, leaf by leaf.
    primitives: Vec<u32>,
    depth: usize,
}

impl<V: Vector> Bvh<V> {
    /// Builds the tree over `boxes` (primitive `i` has box `boxes[i]`). Boxes must be finite; an empty list gives an
    /// empty tree that every traversal answers with nothing. The result depends on the boxes alone (deterministic).
    pub fn new(boxes: &[Aabb<V>]) -> Self {
        build::build(boxes)
    }

    /// The nodes, root first (empty for an empty tree).
    pub fn nodes(&self) -> &[Node<V>] {
        &self.nodes
    }

    /// The primitive indices in leaf order.
    pub fn primitives(&self) -> &[u32] {
        &self.primitives
    }

    /// The box around everything (`None` for an empty tree).
    pub fn root_aabb(&self) -> Option<Aabb<V>> {
        self.nodes.first().map(|n| n.aabb)
    }

    /// Levels of the tree (0 when empty, 1 for a single leaf).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Bytes of heap the tree holds (nodes and primitive list).
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Node<V>>() + self.primitives.capacity() * 4
    }

    /// The primitives of a leaf node (empty for an internal node).
    #[inline]
    pub fn node_primitives(&self, node: &Node<V>) -> &[u32] {
        if node.is_leaf() {
            self.leaf_primitives(node)
        } else {
            &[]
        }
    }

    #[inline]
    pub(crate) fn leaf_primitives(&self, node: &Node<V>) -> &[u32] {
        &self.primitives[node.link as usize..(node.link + node.count) as usize]
    }

    /// The two children of an internal node.
    #[inline]
    pub(crate) fn children(&self, index: u32) -> (u32, u32) {
        let first = self.nodes[index as usize].link;
        (first, first + 1)
    }
}

/// Half the surface area of a box in 3D (its perimeter's half in 2D): the cost measure of the heuristic, up to a
/// constant factor. Never ∞ − ∞: the boxes are finite.
#[inline]
pub(crate) fn half_area<V: Vector>(b: &Aabb<V>) -> V::Real {
    let e = b.max - b.min;
    if V::DIM == 2 {
        e.get(0) + e.get(1)
    } else {
        e.get(0) * e.get(1) + e.get(1) * e.get(2) + e.get(2) * e.get(0)
    }
}

/// Squared distance between two boxes (0 when they overlap): a lower bound for anything inside them. Per axis the
/// gap is `max(0, a.min − b.max, b.min − a.max)`; with infinite bounds the differences are ±∞, never ∞ − ∞.
#[inline]
pub fn box_distance_squared<V: Vector>(a: &Aabb<V>, b: &Aabb<V>) -> V::Real {
    let mut s = V::Real::ZERO;
    for i in 0..V::DIM {
        let gap = (a.min.get(i) - b.max.get(i)).max(b.min.get(i) - a.max.get(i)).max(V::Real::ZERO);
        s += gap * gap;
    }
    s
}

/// Squared distance from a point to a box (0 inside).
#[inline]
pub fn point_box_distance_squared<V: Vector>(p: V, b: &Aabb<V>) -> V::Real {
    let mut s = V::Real::ZERO;
    for i in 0..V::DIM {
        let x = p.get(i);
        let gap = (b.min.get(i) - x).max(x - b.max.get(i)).max(V::Real::ZERO);
        s += gap * gap;
    }
    s
}
