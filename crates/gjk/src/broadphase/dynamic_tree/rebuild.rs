//! A full rebuild: every internal node freed, the leaves split top-down at the median of their centres along
//! the axis where the centres spread most. The result has the least possible height, ⌈log₂ n⌉. Used when
//! in-place refits of moving leaves have loosened the tree (`keep_quality`), when insertions let it grow too tall
//! (never seen in the tests, but no input sequence is excluded), and on request, after a bulk load.

use super::node::{center, cost, FREE, NULL};

/// How much in-place refits may grow the internal nodes' total measure, as a share of its value after the last
/// rebuild, before the tree is rebuilt (see [`DynamicTree::keep_quality`]).
const LOOSENESS: f64 = 0.25;
use super::DynamicTree;
use crate::math::{Real, Vector};
use alloc::vec::Vec;

impl<V: Vector> DynamicTree<V> {
    /// Rebuilds the tree from its leaves into a balanced tree (height ⌈log₂ n⌉). The stored boxes, and so the
    /// candidate pairs, are unchanged. Deterministic: the same leaves give the same tree.
    pub fn rebuild(&mut self) {
        self.rebuild_balanced();
        self.rebuilds += 1;
    }

    /// [`DynamicTree::rebuild`], uncounted.
    fn rebuild_balanced(&mut self) {
        if self.root == NULL {
            return;
        }
        let mut leaves = core::mem::take(&mut self.leaves);
        leaves.clear();
        leaves.extend(self.proxies.iter().map(|(_, p)| p.leaf));
        for i in 0..self.nodes.len() as u32 {
            let h = self.nodes[i as usize].height;
            if h != FREE && h > 0 {
                self.free_node(i);
            }
        }
        let root = self.build(&mut leaves);
        self.root = root;
        self.nodes[root as usize].parent = NULL;
        self.leaves = leaves;
        self.reorder_depth_first();
        self.inserted_since_reorder = 0;
        self.baseline_cost = Some(self.internal_cost());
        self.refit_growth = 0.0;
    }

    /// Moving leaves are refitted in place (their ancestors' boxes follow them, the tree's shape stays), which is
    /// cheap but lets the tree loosen as bodies drift away from the neighbours they were grouped with. Once the
    /// refits have grown the internal nodes' total measure by [`LOOSENESS`] of what it was after the last
    /// rebuild, the tree is rebuilt. Called once per pair update, so a rebuild never lands inside a move.
    pub(super) fn keep_quality(&mut self) {
        match self.baseline_cost {
            None => {
                self.baseline_cost = Some(self.internal_cost());
                self.refit_growth = 0.0;
            }
            Some(base) if self.refit_growth > LOOSENESS * base => {
                self.rebuild_balanced();
                self.loosened_rebuilds += 1;
            }
            Some(_) => {}
        }
    }

    /// Σ of the internal nodes' measures (the finite ones), in f64.
    pub(super) fn internal_cost(&self) -> f64 {
        self.nodes
            .iter()
            .filter(|n| n.height != FREE && n.height > 0)
            .map(|n| cost(&n.aabb).to_f64())
            .filter(|c| c.is_finite())
            .sum()
    }

    /// Builds the subtree over `leaves` (at least one) and returns its root. Recursion depth ⌈log₂ n⌉ ≤ 32.
    fn build(&mut self, leaves: &mut [u32]) -> u32 {
        if leaves.len() == 1 {
            return leaves[0];
        }
        let c = |s: &Self, leaf: u32| center(&s.nodes[leaf as usize].aabb);
        let first = c(self, leaves[0]);
        let (lo, hi) = leaves.iter().fold((first, first), |(lo, hi), &l| {
            let p = c(self, l);
            (lo.min_elem(p), hi.max_elem(p))
        });
        let spread = hi - lo;
        // The first axis of largest spread (a NaN spread, from centres at infinity, never wins).
        let axis = (1..V::DIM).fold(0, |best, k| if spread.get(k) > spread.get(best) { k } else { best });
        let key = |s: &Self, leaf: u32| c(s, leaf).get(axis).to_f64();
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |&a, &b| key(self, a).total_cmp(&key(self, b)).then(a.cmp(&b)));
        let (left, right) = leaves.split_at_mut(mid);
        let child1 = self.build(left);
        let child2 = self.build(right);
        let node = self.allocate_node();
        let n = &mut self.nodes[node as usize];
        n.child1 = child1;
        n.child2 = child2;
        self.nodes[child1 as usize].parent = node;
        self.nodes[child2 as usize].parent = node;
        self.refit(node);
        node
    }
}

impl<V: Vector> DynamicTree<V> {
    /// Lays the nodes out again in depth-first order (each node followed by its first child's subtree), with no
    /// free slot: a traversal then walks mostly forward through memory, and spatially near subtrees sit near
    /// each other. Re-insertions reuse the slots they free (the free list is last-in first-out), so a body that
    /// moves a little keeps its place; the order decays only as bodies travel. The tree itself is unchanged.
    pub(super) fn reorder_depth_first(&mut self) {
        let mut out = core::mem::take(&mut self.spare_nodes);
        out.clear();
        if self.root != NULL {
            let mut stack = core::mem::take(&mut self.leaves);
            stack.clear();
            // Old index; the new parent is the last node written whose second child is still unknown.
            stack.push(self.root);
            let mut pending: Vec<u32> = core::mem::take(&mut self.pending);
            pending.clear();
            while let Some(old) = stack.pop() {
                let new = out.len() as u32;
                let mut node = self.nodes[old as usize];
                node.parent = NULL;
                // The parent is the node this one follows (its first child) or the pending node whose first
                // subtree just ended (its second child).
                if let Some(&p) = pending.last() {
                    node.parent = p;
                    if out[p as usize].child1 == NULL {
                        out[p as usize].child1 = new;
                    } else {
                        out[p as usize].child2 = new;
                        pending.pop();
                    }
                }
                if node.is_leaf() {
                    self.proxies.live_mut(node.child1).leaf = new;
                    out.push(node);
                } else {
                    stack.push(node.child2);
                    stack.push(node.child1);
                    node.child1 = NULL;
                    node.child2 = NULL;
                    out.push(node);
                    pending.push(new);
                }
            }
            self.root = 0;
            self.leaves = stack;
            self.pending = pending;
        }
        self.spare_nodes = core::mem::replace(&mut self.nodes, out);
        self.free_node = NULL;
    }
}
