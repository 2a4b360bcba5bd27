//! Queries: which proxies a box overlaps, and which a ray meets, nearest first.
//!
//! Both descend from the root through the nodes whose (stored, fattened) boxes pass the test, and test a leaf's
//! proxy against its own box as given, so the answers are exact for the boxes the caller gave. Neither
//! allocates: the region query keeps its stack on the call stack, the ray cast keeps its queue in a
//! [`RayScratch`] the caller passes in (grown once, then reused).

use alloc::collections::BinaryHeap;
use core::cmp::Ordering;

use super::node::NULL;
use super::{DynamicTree, STACK};
use crate::broadphase::ProxyId;
use crate::math::{Real, Vector};
use crate::shape::Aabb;

impl<V: Vector> DynamicTree<V> {
    /// Calls `f(proxy, user_data)` for every live proxy whose box overlaps or touches `region`
    /// ([`Aabb::intersects`]); stops when `f` returns false. The order is the tree's, a function of the
    /// sequence of operations that built it. A region with a NaN coordinate overlaps nothing.
    pub fn query(&self, region: &Aabb<V>, mut f: impl FnMut(ProxyId, u64) -> bool) {
        self.visit_leaves(region, |proxy| {
            let p = self.proxies.live(proxy);
            !p.aabb.intersects(region) || f(ProxyId(proxy), p.user_data)
        });
    }

    /// Depth-first over the nodes whose stored boxes overlap `region`: calls `leaf(proxy)` at each leaf reached,
    /// and stops when it returns false. The stack holds at most height + 1 nodes (one pending sibling per
    /// level), and the height is kept below the stack's depth.
    pub(super) fn visit_leaves(&self, region: &Aabb<V>, mut leaf: impl FnMut(u32) -> bool) {
        if self.root == NULL {
            return;
        }
        let mut stack = [0u32; STACK];
        stack[0] = self.root;
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let node = &self.nodes[stack[top] as usize];
            if !node.aabb.intersects(region) {
                continue;
            }
            if node.is_leaf() {
                if !leaf(node.child1) {
                    return;
                }
            } else if top + 2 <= STACK {
                stack[top] = node.child2;
                stack[top + 1] = node.child1;
                top += 2;
            } else {
                debug_assert!(false, "traversal stack overflow: the height bound was broken");
            }
        }
    }

    /// Casts the ray `origin + t · direction`, `0 ≤ t ≤ max_t`, calling `f(proxy, user_data, t)` for each live
    /// proxy whose box it meets, in increasing order of `t`, the parameter where the ray enters that box (0 when
    /// it starts inside; ties in a fixed order). `f` says how to go on ([`RayControl`]): clipping the ray at a
    /// hit (the nearest hit on the proxy's shape, say) ends the cast as soon as no box can be entered before
    /// it. Returns the final `max_t`. A non-finite origin or direction, or a NaN or negative `max_t`, meets
    /// nothing.
    pub fn ray_cast(
        &self,
        origin: V,
        direction: V,
        max_t: V::Real,
        scratch: &mut RayScratch,
        mut f: impl FnMut(ProxyId, u64, V::Real) -> RayControl<V::Real>,
    ) -> V::Real {
        let mut max_t = max_t;
        let heap = &mut scratch.heap;
        heap.clear();
        if self.root == NULL || !origin.is_finite() || !direction.is_finite() || !(max_t >= V::Real::ZERO) {
            return max_t;
        }
        // Leaves are queued with their proxy's own box, internal nodes with their stored box, which holds every
        // box below: no node can be entered before its parent, so popping in order of entry is closest-first.
        let push = |heap: &mut BinaryHeap<Entry>, node: u32, max_t: V::Real| {
            let n = &self.nodes[node as usize];
            let aabb = if n.is_leaf() { &self.proxies.live(n.child1).aabb } else { &n.aabb };
            if let Some(t) = ray_enters(aabb, origin, direction, max_t) {
                heap.push(Entry { t: t.to_f64(), node });
            }
        };
        push(heap, self.root, max_t);
        while let Some(Entry { t, node }) = heap.pop() {
            if t > max_t.to_f64() {
                break;
            }
            let n = self.nodes[node as usize];
            if n.is_leaf() {
                let user = self.proxies.live(n.child1).user_data;
                match f(ProxyId(n.child1), user, V::Real::from_f64(t)) {
                    RayControl::Continue => {}
                    RayControl::Clip(c) => {
                        if c < max_t {
                            max_t = c;
                        }
                    }
                    RayControl::Stop => break,
                }
            } else {
                push(heap, n.child1, max_t);
                push(heap, n.child2, max_t);
            }
        }
        heap.clear();
        max_t
    }
}

/// What a ray cast does after reporting a proxy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RayControl<R> {
    /// Go on with the ray as it is.
    Continue,
    /// Shorten the ray to end at this parameter (ignored unless below the current end; a NaN is ignored).
    Clip(R),
    /// End the cast.
    Stop,
}

/// The ray cast's queue of nodes by entry parameter, kept by the caller between casts so no cast allocates
/// once it has grown. One per thread.
#[derive(Clone, Debug, Default)]
pub struct RayScratch {
    heap: BinaryHeap<Entry>,
}

/// A queued node: the ray's entry parameter into its box (exact in f64 for f32 too), then the node index —
/// the heap is a max-heap, so the order is reversed to pop the nearest (and, at equal entry, the lowest index).
#[derive(Clone, Copy, Debug)]
struct Entry {
    t: f64,
    node: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.t.total_cmp(&self.t).then(other.node.cmp(&self.node))
    }
}

/// Where the segment `origin + t · direction`, `0 ≤ t ≤ max_t`, enters the box: the slab test, each axis
/// narrowing the interval of `t` inside the box. An axis the ray runs parallel to either holds the whole ray
/// (its origin between the planes) or none of it. `None` when the interval is empty.
fn ray_enters<V: Vector>(aabb: &Aabb<V>, origin: V, direction: V, max_t: V::Real) -> Option<V::Real> {
    let (mut t0, mut t1) = (V::Real::ZERO, max_t);
    for i in 0..V::DIM {
        let (lo, hi, o, d) = (aabb.min.get(i), aabb.max.get(i), origin.get(i), direction.get(i));
        if d == V::Real::ZERO {
            if o < lo || hi < o {
                return None;
            }
            continue;
        }
        // Infinite box sides give ±∞ here, never NaN (the origin is finite).
        let (a, b) = ((lo - o) / d, (hi - o) / d);
        let (near, far) = if a <= b { (a, b) } else { (b, a) };
        t0 = t0.max(near);
        t1 = t1.min(far);
        if t0 > t1 {
            return None;
        }
    }
    Some(t0)
}
