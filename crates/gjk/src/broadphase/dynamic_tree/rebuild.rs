//! A full rebuild: every internal node freed, the leaves split top-down at the median of their centres along
//! the axis where the centres spread most. The result has the least possible height, ⌈log₂ n⌉. Used when
//! incremental updates let the tree grow too tall (never seen in the tests, but no input sequence is excluded)
//! and on request, after a bulk load.

use super::node::{center, FREE, NULL};
use super::DynamicTree;
use crate::math::{Real, Vector};

impl<V: Vector> DynamicTree<V> {
    /// Rebuilds the tree from its leaves into a balanced tree (height ⌈log₂ n⌉). The stored boxes, and so the
    /// candidate pairs, are unchanged. Deterministic: the same leaves give the same tree.
    pub fn rebuild(&mut self) {
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
        self.rebuilds += 1;
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
