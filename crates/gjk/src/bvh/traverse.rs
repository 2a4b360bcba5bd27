//! The traversals. Each keeps its pending work on a fixed array on the call stack: a depth-first walk holds at most
//! one pending sibling per level ([`MAX_DEPTH`]), a walk of two trees at most one pending pair per level of
//! either.

use super::{box_distance_squared, Bvh, Node, MAX_DEPTH};
use crate::math::{Iso, Real, Vector};
use crate::shape::Aabb;

/// A ray `origin + t · direction` with the reciprocal direction kept for the slab test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray<V: Vector> {
    /// Where it starts.
    pub origin: V,
    /// Where it goes (any length: times are in its units).
    pub direction: V,
    inverse: V,
    /// Half-extents of a box swept along the ray (zero for a plain ray): boxes are grown by it before the test.
    margin: V,
}

impl<V: Vector> Ray<V> {
    /// The ray from `origin` along `direction`.
    pub fn new(origin: V, direction: V) -> Self {
        Self::with_margin(origin, direction, V::zero())
    }

    /// A box of half-extents `margin` centred at `origin`, swept along `direction`: it meets a box exactly when the
    /// ray meets that box grown by `margin` (Minkowski sum of two boxes).
    pub fn with_margin(origin: V, direction: V, margin: V) -> Self {
        // A zero component gives ±∞, which the slab test handles (see `entry`).
        Self { origin, direction, inverse: V::from_fn(|i| V::Real::ONE / direction.get(i)), margin }
    }

    /// The time the ray enters the box, if it meets it within [0, max_t]. Slabs: per axis the ray is between the
    /// box's two planes for t in [t1, t2]; the box is met where every interval overlaps. A zero direction component
    /// gives t1, t2 = ±∞ (origin strictly between the planes: the axis never excludes; outside: it always does) or
    /// one NaN (origin on a plane, 0 · ∞): the comparisons below then pass the NaN on, and `Real::min`/`max`, which
    /// drop a NaN, leave the interval as it was — a ray lying in a face's plane counts as meeting the box.
    #[inline]
    pub fn entry(&self, b: &Aabb<V>, max_t: V::Real) -> Option<V::Real> {
        let mut t_in = V::Real::ZERO;
        let mut t_out = max_t;
        for i in 0..V::DIM {
            let (o, inv) = (self.origin.get(i), self.inverse.get(i));
            let m = self.margin.get(i);
            let t1 = (b.min.get(i) - m - o) * inv;
            let t2 = (b.max.get(i) + m - o) * inv;
            let (near, far) = if t1 > t2 { (t2, t1) } else { (t1, t2) };
            t_in = t_in.max(near);
            t_out = t_out.min(far);
        }
        (t_in <= t_out).then_some(t_in)
    }
}

/// Boxes of another tree moved into this tree's frame: for a pose `x ↦ R x + t`, the box of centre `c` and
/// half-extents `h` becomes the box of centre `R c + t` and half-extents `|R| h` (the rotated box's support along
/// each axis), with `|R|` computed once.
#[derive(Clone, Copy, Debug)]
pub struct RelativeBoxes<V: Vector> {
    pose: Iso<V>,
    /// Column j of |R|: the absolute values of the rotated axis j.
    abs_columns: [V; 3],
}

impl<V: Vector> RelativeBoxes<V> {
    /// For boxes given in a frame posed at `pose` in this tree's frame.
    pub fn new(pose: Iso<V>) -> Self {
        let mut abs_columns = [V::zero(); 3];
        for (j, c) in abs_columns.iter_mut().enumerate().take(V::DIM) {
            *c = pose.transform_vector(V::axis(j)).abs_elem();
        }
        Self { pose, abs_columns }
    }

    /// The box around `b` after the motion.
    #[inline]
    pub fn transform(&self, b: &Aabb<V>) -> Aabb<V> {
        let c = self.pose.transform_point(b.center());
        let h = b.half_extents();
        let mut e = V::zero();
        for j in 0..V::DIM {
            e += self.abs_columns[j] * h.get(j);
        }
        Aabb::new(c - e, c + e)
    }
}

/// A fixed-capacity stack (no allocation). Pushing past capacity cannot happen by construction of the traversals
/// (see the module comment); a debug build checks it.
struct Stack<T: Copy, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy, const N: usize> Stack<T, N> {
    fn new(fill: T) -> Self {
        Self { items: [fill; N], len: 0 }
    }
    #[inline]
    fn push(&mut self, x: T) {
        debug_assert!(self.len < N, "traversal stack overflow");
        if self.len < N {
            self.items[self.len] = x;
            self.len += 1;
        }
    }
    #[inline]
    fn pop(&mut self) -> Option<T> {
        self.len = self.len.checked_sub(1)?;
        Some(self.items[self.len])
    }
}

impl<V: Vector> Bvh<V> {
    /// Branch and bound. `bound(node box)` is a lower bound of the cost of any primitive in the box (a squared
    /// distance, say); `leaf(primitive, best)` computes a primitive's cost and returns it when it beats `best`. Nodes
    /// are visited nearest first and skipped when their bound exceeds the best cost so far (or equals it, once a
    /// primitive has reached it: a tie cannot improve). Starting from `best = limit` finds only primitives within
    /// the limit (a `max_distance`). Returns the best cost found, or `limit` if none beat it.
    pub fn closest_first(
        &self,
        limit: V::Real,
        bound: impl FnMut(&Aabb<V>) -> V::Real,
        leaf: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> V::Real {
        self.closest_first_visit(limit, bound, leaf, |_| {})
    }

    /// [`Bvh::closest_first`] that also calls `visit(node)` on every node it enters (a node whose children it
    /// tests, or a leaf whose primitives it runs), in the order entered: what a picture of the walk shows. With a
    /// closure that does nothing this is `closest_first` itself.
    pub fn closest_first_visit(
        &self,
        limit: V::Real,
        mut bound: impl FnMut(&Aabb<V>) -> V::Real,
        mut leaf: impl FnMut(u32, V::Real) -> Option<V::Real>,
        mut visit: impl FnMut(u32),
    ) -> V::Real {
        let mut best = limit;
        let mut found = false;
        let Some(root) = self.nodes.first() else { return best };
        // A NaN bound is never ≤ best: such a node is skipped.
        let prune = |b: V::Real, best: V::Real, found: bool| !(b <= best) || (found && b >= best);
        let mut stack: Stack<(u32, V::Real), { MAX_DEPTH + 1 }> = Stack::new((0, V::Real::ZERO));
        let first = bound(&root.aabb);
        if prune(first, best, found) {
            return best;
        }
        stack.push((0, first));
        while let Some((mut index, b)) = stack.pop() {
            if prune(b, best, found) {
                continue;
            }
            loop {
                let node = &self.nodes[index as usize];
                visit(index);
                if node.is_leaf() {
                    for &p in self.leaf_primitives(node) {
                        if let Some(cost) = leaf(p, best) {
                            if cost < best || !found {
                                best = cost.min(best);
                                found = true;
                            }
                        }
                    }
                    break;
                }
                let (l, r) = self.children(index);
                let (bl, br) = (bound(&self.nodes[l as usize].aabb), bound(&self.nodes[r as usize].aabb));
                let ((near, bn), (far, bf)) = if br < bl { ((r, br), (l, bl)) } else { ((l, bl), (r, br)) };
                if !prune(bf, best, found) {
                    stack.push((far, bf));
                }
                if prune(bn, best, found) {
                    break;
                }
                index = near;
            }
        }
        best
    }

    /// Ray traversal: nodes in the order the ray enters them. `leaf(primitive, max_t)` tests a primitive and
    /// returns its hit time when it is within `max_t`. Nodes entered after the nearest hit so far are skipped; with
    /// `any_hit` the walk stops at the first hit. Returns the nearest (or first) hit time, `None` for a miss.
    pub fn cast_ray(
        &self,
        ray: &Ray<V>,
        max_t: V::Real,
        any_hit: bool,
        mut leaf: impl FnMut(u32, V::Real) -> Option<V::Real>,
    ) -> Option<V::Real> {
        let mut max_t = max_t;
        let mut hit = None;
        let root = self.nodes.first()?;
        let first = ray.entry(&root.aabb, max_t)?;
        let mut stack: Stack<(u32, V::Real), { MAX_DEPTH + 1 }> = Stack::new((0, V::Real::ZERO));
        stack.push((0, first));
        while let Some((mut index, t)) = stack.pop() {
            if t > max_t {
                continue;
            }
            loop {
                let node = &self.nodes[index as usize];
                if node.is_leaf() {
                    for &p in self.leaf_primitives(node) {
                        if let Some(t) = leaf(p, max_t) {
                            if t <= max_t {
                                max_t = t;
                                hit = Some(t);
                                if any_hit {
                                    return hit;
                                }
                            }
                        }
                    }
                    break;
                }
                let (l, r) = self.children(index);
                let tl = ray.entry(&self.nodes[l as usize].aabb, max_t);
                let tr = ray.entry(&self.nodes[r as usize].aabb, max_t);
                index = match (tl, tr) {
                    (None, None) => break,
                    (Some(_), None) => l,
                    (None, Some(_)) => r,
                    (Some(a), Some(b)) if b < a => {
                        stack.push((l, a));
                        r
                    }
                    (Some(_), Some(b)) => {
                        stack.push((r, b));
                        l
                    }
                };
            }
        }
        hit
    }

    /// Calls `f` on every primitive in a leaf whose box passes `test` along with all its ancestors' boxes (a
    /// conservative region query: `test` must hold for a box whenever it holds for a box inside it). `f` returns
    /// `false` to stop the walk; the function returns `false` when it was stopped.
    pub fn for_each_where(&self, test: impl Fn(&Aabb<V>) -> bool, f: impl FnMut(u32) -> bool) -> bool {
        self.for_each_where_visit(test, f, |_| {})
    }

    /// [`Bvh::for_each_where`] that also calls `visit(node)` on every node it enters.
    pub fn for_each_where_visit(
        &self,
        test: impl Fn(&Aabb<V>) -> bool,
        mut f: impl FnMut(u32) -> bool,
        mut visit: impl FnMut(u32),
    ) -> bool {
        let Some(root) = self.nodes.first() else { return true };
        if !test(&root.aabb) {
            return true;
        }
        let mut stack: Stack<u32, { MAX_DEPTH + 1 }> = Stack::new(0);
        stack.push(0);
        while let Some(mut index) = stack.pop() {
            loop {
                let node: &Node<V> = &self.nodes[index as usize];
                visit(index);
                if node.is_leaf() {
                    for &p in self.leaf_primitives(node) {
                        if !f(p) {
                            return false;
                        }
                    }
                    break;
                }
                let (l, r) = self.children(index);
                let (gl, gr) = (test(&self.nodes[l as usize].aabb), test(&self.nodes[r as usize].aabb));
                index = match (gl, gr) {
                    (false, false) => break,
                    (true, false) => l,
                    (false, true) => r,
                    (true, true) => {
                        stack.push(r);
                        l
                    }
                };
            }
        }
        true
    }

    /// Calls `f` on every primitive whose leaf's box overlaps (or touches) `aabb`; see [`Bvh::for_each_where`].
    pub fn for_each_overlap(&self, aabb: &Aabb<V>, f: impl FnMut(u32) -> bool) -> bool {
        self.for_each_where(|b| b.intersects(aabb), f)
    }

    /// Every pair (primitive of `self`, primitive of `other`) whose leaves' boxes overlap (or come within `margin`),
    /// with `other`'s boxes moved into `self`'s frame by `rel`. `f` returns `false` to stop; the function returns `false` when it was stopped.
    pub fn for_each_pair(
        &self,
        other: &Bvh<V>,
        rel: &RelativeBoxes<V>,
        margin: V::Real,
        f: impl FnMut(u32, u32) -> bool,
    ) -> bool {
        self.for_each_pair_visit(other, rel, margin, f, |_, _| {})
    }

    /// [`Bvh::for_each_pair`] that also calls `visit(node of self, node of other)` on every pair of nodes it enters.
    pub fn for_each_pair_visit(
        &self,
        other: &Bvh<V>,
        rel: &RelativeBoxes<V>,
        margin: V::Real,
        mut f: impl FnMut(u32, u32) -> bool,
        visit: impl FnMut(u32, u32),
    ) -> bool {
        let mut go_on = true;
        let overlap = |a: &Aabb<V>, b: &Aabb<V>| a.loosened(margin).intersects(b).then_some(V::Real::ZERO);
        let leaf = |a, b, _| {
            go_on = f(a, b);
            // A negative cost stops the walk.
            (!go_on).then_some(-V::Real::ONE)
        };
        self.closest_pair_first_by(other, rel, V::Real::ZERO, overlap, leaf, visit);
        go_on
    }

    /// Branch and bound over pairs of primitives, one from each tree: [`Bvh::closest_first`] for two trees, with
    /// the bound on squared box distance (other's boxes moved by `rel`). `leaf(a, b, best)` returns a pair's cost
    /// when it beats `best`.
    pub fn closest_pair_first(
        &self,
        other: &Bvh<V>,
        rel: &RelativeBoxes<V>,
        limit: V::Real,
        leaf: impl FnMut(u32, u32, V::Real) -> Option<V::Real>,
    ) -> V::Real {
        self.closest_pair_first_visit(other, rel, limit, leaf, |_, _| {})
    }

    /// [`Bvh::closest_pair_first`] that also calls `visit(node of self, node of other)` on every pair of nodes it
    /// enters.
    pub fn closest_pair_first_visit(
        &self,
        other: &Bvh<V>,
        rel: &RelativeBoxes<V>,
        limit: V::Real,
        leaf: impl FnMut(u32, u32, V::Real) -> Option<V::Real>,
        visit: impl FnMut(u32, u32),
    ) -> V::Real {
        self.closest_pair_first_by(other, rel, limit, |a, b| Some(box_distance_squared(a, b)), leaf, visit)
    }

    /// The walk of two trees, by any bound. `bound(box of self, box of other in self's frame)` gives a pair of
    /// nodes' lower bound on the cost of any pair of primitives under them (`None`: skip the pair); pairs are
    /// visited in increasing order of it and pruned as in [`Bvh::closest_first`]; `leaf(a, b, best)` returns a pair
    /// of primitives' cost when it beats `best`, and a negative cost stops the walk. `visit(a, b)` is called on
    /// every pair of nodes entered. `bound` must not decrease from a pair of nodes to a pair of their descendants
    /// (a box inside another is no farther, no later): then no pair that could beat the best is ever skipped.
    pub fn closest_pair_first_by(
        &self,
        other: &Bvh<V>,
        rel: &RelativeBoxes<V>,
        limit: V::Real,
        bound: impl Fn(&Aabb<V>, &Aabb<V>) -> Option<V::Real>,
        mut leaf: impl FnMut(u32, u32, V::Real) -> Option<V::Real>,
        mut visit: impl FnMut(u32, u32),
    ) -> V::Real {
        let mut best = limit;
        let mut found = false;
        let (Some(ra), Some(rb)) = (self.nodes.first(), other.nodes.first()) else { return best };
        let prune = |b: V::Real, best: V::Real, found: bool| !(b <= best) || (found && b >= best);
        let moved = |i: u32| rel.transform(&other.nodes[i as usize].aabb);
        let Some(first) = bound(&ra.aabb, &rel.transform(&rb.aabb)) else { return best };
        let mut stack: Stack<(u32, u32, V::Real), { 2 * MAX_DEPTH + 2 }> = Stack::new((0, 0, V::Real::ZERO));
        stack.push((0, 0, first));
        while let Some((a, b, bnd)) = stack.pop() {
            if prune(bnd, best, found) {
                continue;
            }
            visit(a, b);
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            if na.is_leaf() && nb.is_leaf() {
                for &pa in self.leaf_primitives(na) {
                    for &pb in other.leaf_primitives(nb) {
                        if let Some(cost) = leaf(pa, pb, best) {
                            if cost < V::Real::ZERO {
                                return best;
                            }
                            if cost < best || !found {
                                best = cost.min(best);
                                found = true;
                            }
                        }
                    }
                }
                continue;
            }
            // Descend the node that is not a leaf, the larger one when both can be split.
            let split_a = nb.is_leaf() || (!na.is_leaf() && super::half_area(&na.aabb) >= super::half_area(&moved(b)));
            let children: [(u32, u32); 2] = if split_a {
                let (l, r) = self.children(a);
                [(l, b), (r, b)]
            } else {
                let (l, r) = other.children(b);
                [(a, l), (a, r)]
            };
            let mut next = [(0, 0, V::Real::ZERO); 2];
            let mut count = 0;
            for (x, y) in children {
                if let Some(bb) = bound(&self.nodes[x as usize].aabb, &moved(y)) {
                    if !prune(bb, best, found) {
                        next[count] = (x, y, bb);
                        count += 1;
                    }
                }
            }
            // The nearer pair is pushed last, so it is popped first.
            if count == 2 && next[1].2 > next[0].2 {
                next.swap(0, 1);
            }
            for item in &next[..count] {
                stack.push(*item);
            }
        }
        best
    }
}
