//! The tree's node and the box measures its decisions rest on.

use crate::math::{Real, Vector};
use crate::shape::Aabb;

/// "No node": the root's parent, a leaf's second child, the end of the free list.
pub(super) const NULL: u32 = u32::MAX;
/// The height of a node on the free list.
pub(super) const FREE: u32 = u32::MAX;

/// One node of the flat node array. An internal node's box is the union of its two children's; a leaf's box is
/// its proxy's fattened box, and its first child field holds the proxy's id.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<V: Vector> {
    pub aabb: Aabb<V>,
    /// The parent node (NULL for the root); on the free list, the next free node.
    pub parent: u32,
    /// Internal: the children. Leaf: `child1` is the proxy id, `child2` is NULL.
    pub child1: u32,
    pub child2: u32,
    /// 0 for a leaf, 1 + the taller child's height for an internal node, FREE on the free list.
    pub height: u32,
}

impl<V: Vector> Node<V> {
    pub fn is_leaf(&self) -> bool {
        self.height == 0
    }
}

/// True when `inner` lies inside `outer` (boundaries included).
#[inline]
pub(super) fn contains<V: Vector>(outer: &Aabb<V>, inner: &Aabb<V>) -> bool {
    (0..V::DIM).all(|i| outer.min.get(i) <= inner.min.get(i) && inner.max.get(i) <= outer.max.get(i))
}

/// The surface-area heuristic's measure of a box: half its boundary measure, Σᵢ Πⱼ≠ᵢ eⱼ over the extents e —
/// half the perimeter in 2D, half the surface area in 3D. A random line (ray, or another small box's sweep)
/// meets a convex region with probability proportional to it, so a tree whose nodes have a small total measure
/// is visited less by queries. +∞ for an infinite box (0 · ∞ included: a flat box infinite along another axis
/// is hit by every line through its plane).
#[inline]
pub(super) fn cost<V: Vector>(b: &Aabb<V>) -> V::Real {
    let e = b.max - b.min;
    let c = (0..V::DIM)
        .fold(V::Real::ZERO, |s, i| s + (0..V::DIM).filter(|&j| j != i).fold(V::Real::ONE, |p, j| p * e.get(j)));
    if c.partial_cmp(&c).is_none() {
        V::Real::INFINITY
    } else {
        c
    }
}

/// The centre of a box, with 0 where the box spans the whole axis (−∞ + ∞): only used to order boxes and
/// break ties, where any fixed answer will do but NaN would not compare.
#[inline]
pub(super) fn center<V: Vector>(b: &Aabb<V>) -> V {
    V::from_fn(|i| {
        let c = (b.min.get(i) + b.max.get(i)) * V::Real::HALF;
        if c.partial_cmp(&c).is_none() {
            V::Real::ZERO
        } else {
            c
        }
    })
}

/// Squared distance between two points, for tie-breaks; +∞ when a coordinate is infinite.
#[inline]
pub(super) fn distance_squared<V: Vector>(a: V, b: V) -> V::Real {
    let d = (a - b).length_squared();
    if d.partial_cmp(&d).is_none() {
        V::Real::INFINITY
    } else {
        d
    }
}
