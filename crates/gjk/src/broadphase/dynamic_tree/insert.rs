//! Putting a leaf into the tree and taking it out: the node pool, the choice of a sibling by the surface-area
//! heuristic, and the rotations that keep the tree shallow and tight. Follows Box2D v3's `dynamic_tree.c`
//! (itself after Bittner et al. 2015, "Incremental BVH construction for ray tracing").

use super::node::{cost, distance_squared, Node, FREE, NULL};
use super::DynamicTree;
use crate::math::{Real, Vector};
use crate::shape::Aabb;

impl<V: Vector> DynamicTree<V> {
    /// A node from the free list, or a new one at the end of the array.
    pub(super) fn allocate_node(&mut self) -> u32 {
        let blank = Node { aabb: Aabb::new(V::zero(), V::zero()), parent: NULL, child1: NULL, child2: NULL, height: 0 };
        if self.free_node != NULL {
            let i = self.free_node;
            self.free_node = self.nodes[i as usize].parent;
            self.nodes[i as usize] = blank;
            i
        } else {
            // The caller checked that the array has room below NULL.
            self.nodes.push(blank);
            (self.nodes.len() - 1) as u32
        }
    }

    /// Returns a node to the free list.
    pub(super) fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.parent = self.free_node;
        n.height = FREE;
        n.child1 = NULL;
        n.child2 = NULL;
        self.free_node = i;
    }

    /// Links the detached leaf `leaf` (its box already set) into the tree: a new internal node becomes the parent
    /// of the leaf and of the sibling the surface-area heuristic picks, then the boxes and heights of the
    /// ancestors are refitted on the way up, rotating where a rotation lowers the total cost.
    pub(super) fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = self.find_best_sibling(&leaf_box);

        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.allocate_node();
        let sibling_node = self.nodes[sibling as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: leaf_box.merged(&sibling_node.aabb),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: sibling_node.height + 1,
        };
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            self.replace_child(old_parent, sibling, new_parent);
        }

        // Refit the ancestors: each one's box grows to hold the new leaf, its height is recomputed, and a rotation
        // is tried at each, bottom up.
        let mut index = self.nodes[leaf as usize].parent;
        while index != NULL {
            self.refit(index);
            self.rotate(index);
            index = self.nodes[index as usize].parent;
        }
    }

    /// Unlinks leaf `leaf` from the tree (the leaf node itself stays allocated): its parent is freed, its sibling
    /// takes the parent's place, and the ancestors' boxes and heights are refitted.
    pub(super) fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        let grandparent = p.parent;
        self.nodes[sibling as usize].parent = grandparent;
        self.free_node(parent);
        if grandparent == NULL {
            self.root = sibling;
            return;
        }
        self.replace_child(grandparent, parent, sibling);
        let mut index = grandparent;
        while index != NULL {
            self.refit(index);
            index = self.nodes[index as usize].parent;
        }
    }

    /// After leaf `leaf`'s box changed in place: each ancestor's box becomes the union of its children's again,
    /// bottom up, until one comes out unchanged (then so would all above it). Boxes shrink as well as grow, so
    /// every internal box stays the tight union of its leaves; the tree's shape is untouched. The change in the
    /// ancestors' total measure is added to `refit_growth`, which tells when the tree has loosened enough to be
    /// rebuilt.
    pub(super) fn refit_ancestors(&mut self, leaf: u32) {
        let mut index = self.nodes[leaf as usize].parent;
        let mut growth = V::Real::ZERO;
        while index != NULL {
            let n = &self.nodes[index as usize];
            let merged = self.nodes[n.child1 as usize].aabb.merged(&self.nodes[n.child2 as usize].aabb);
            if merged == n.aabb {
                break;
            }
            // Infinite boxes give ∞ − ∞: they take no part in the measure of looseness.
            let g = cost(&merged) - cost(&n.aabb);
            if g.is_finite() {
                growth += g;
            }
            let n = &mut self.nodes[index as usize];
            n.aabb = merged;
            index = n.parent;
        }
        self.refit_growth += growth.to_f64();
    }

    /// In `parent`, the child `old` becomes `new`.
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        let p = &mut self.nodes[parent as usize];
        if p.child1 == old {
            p.child1 = new;
        } else {
            p.child2 = new;
        }
    }

    /// An internal node's box and height from its children's.
    pub(super) fn refit(&mut self, index: u32) {
        let n = self.nodes[index as usize];
        let (c1, c2) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
        let (aabb, height) = (c1.aabb.merged(&c2.aabb), 1 + c1.height.max(c2.height));
        let n = &mut self.nodes[index as usize];
        n.aabb = aabb;
        n.height = height;
    }

    /// The node that should become the new leaf's sibling: the one minimising the cost the insertion adds, that
    /// is the measure of the new parent (the sibling's box merged with the leaf's) plus the growth of every
    /// ancestor's box. A greedy descent (Box2D's): at each internal node the cost of making it the sibling is
    /// known exactly; the best any descendant of a child could do is bounded below by the inherited growth plus
    /// the leaf's own measure; the descent follows the child with the lower bound and stops when neither bound
    /// can beat the best found. At most one step per level.
    fn find_best_sibling(&self, leaf: &Aabb<V>) -> u32 {
        let zero = V::Real::ZERO;
        let leaf_cost = cost(leaf);
        let leaf_center = super::node::center(leaf);
        let nodes = &self.nodes;

        let mut index = self.root;
        let mut area = cost(&nodes[index as usize].aabb);
        let mut direct = cost(&nodes[index as usize].aabb.merged(leaf));
        // Growth of the ancestors above `index` if the leaf goes anywhere below it.
        let mut inherited = zero;
        let (mut best, mut best_cost) = (index, direct);

        while !nodes[index as usize].is_leaf() {
            let node = &nodes[index as usize];
            // Making `index` itself the sibling: its merged box plus the ancestors' growth.
            let here = direct + inherited;
            if here < best_cost {
                best = index;
                best_cost = here;
            }
            // Going below `index`, its own box grows too (∞ − ∞ from an infinite box: say ∞, not NaN).
            inherited += direct - area;
            if inherited.partial_cmp(&inherited).is_none() {
                inherited = V::Real::INFINITY;
            }

            let mut bound = [V::Real::INFINITY; 2];
            let mut areas = [zero; 2];
            let mut directs = [zero; 2];
            let children = [node.child1, node.child2];
            for k in 0..2 {
                let child = &nodes[children[k] as usize];
                directs[k] = cost(&child.aabb.merged(leaf));
                if child.is_leaf() {
                    // A leaf can only be the sibling itself: its cost is exact.
                    let c = directs[k] + inherited;
                    if c < best_cost {
                        best = children[k];
                        best_cost = c;
                    }
                } else {
                    // Below an internal child: at least its own growth, plus a new parent at least as large as
                    // the leaf (or the child itself as sibling, when that is cheaper).
                    areas[k] = cost(&child.aabb);
                    bound[k] = inherited + directs[k] + (leaf_cost - areas[k]).min(zero);
                }
            }
            let (leaf1, leaf2) = (nodes[children[0] as usize].is_leaf(), nodes[children[1] as usize].is_leaf());
            if (leaf1 && leaf2) || (best_cost <= bound[0] && best_cost <= bound[1]) {
                break;
            }
            if bound[0] == bound[1] && !leaf1 {
                // No clear choice (both children contain the leaf, say): take the nearer one.
                bound[0] = distance_squared(super::node::center(&nodes[children[0] as usize].aabb), leaf_center);
                bound[1] = distance_squared(super::node::center(&nodes[children[1] as usize].aabb), leaf_center);
            }
            let k = if bound[0] < bound[1] && !leaf1 { 0 } else { 1 };
            if nodes[children[k] as usize].is_leaf() {
                // Both bounds said "maybe below", but the chosen side is a leaf already counted.
                break;
            }
            index = children[k];
            area = areas[k];
            direct = directs[k];
        }
        best
    }

    /// Tries the four rotations at internal node `a` (children `b`, `c`): swapping one child with a grandchild
    /// under the other child. A swap of `b` with `f` (a child of `c`, whose other child is `g`) leaves `a`'s box
    /// as it was and changes only `c`'s, to `b ∪ g`; it is made when that box measures less than `c`'s did (the
    /// best of the four, strictly better than no rotation). Then `a`'s height is recomputed.
    fn rotate(&mut self, a: u32) {
        let na = self.nodes[a as usize];
        if na.height < 2 {
            return;
        }
        let (b, c) = (na.child1, na.child2);
        // (child to move up from below `low`, `low`, the child of `a` going down, the other child of `low`,
        // cost after, cost before)
        let mut best: Option<(u32, u32, u32, u32, Aabb<V>)> = None;
        let mut best_gain = V::Real::ZERO;
        for (high, low) in [(b, c), (c, b)] {
            let nl = self.nodes[low as usize];
            if nl.is_leaf() {
                continue;
            }
            let before = cost(&nl.aabb);
            let high_box = self.nodes[high as usize].aabb;
            for (up, stay) in [(nl.child1, nl.child2), (nl.child2, nl.child1)] {
                let merged = high_box.merged(&self.nodes[stay as usize].aabb);
                let gain = before - cost(&merged);
                if gain > best_gain {
                    best_gain = gain;
                    best = Some((up, low, high, stay, merged));
                }
            }
        }
        let Some((up, low, high, stay, merged)) = best else {
            return;
        };
        // `up` takes `high`'s place under `a`; `high` takes `up`'s place under `low`.
        self.replace_child(a, high, up);
        self.replace_child(low, up, high);
        self.nodes[up as usize].parent = a;
        self.nodes[high as usize].parent = low;
        let h_low = 1 + self.nodes[high as usize].height.max(self.nodes[stay as usize].height);
        let nl = &mut self.nodes[low as usize];
        nl.aabb = merged;
        nl.height = h_low;
        self.nodes[a as usize].height = 1 + h_low.max(self.nodes[up as usize].height);
    }
}
