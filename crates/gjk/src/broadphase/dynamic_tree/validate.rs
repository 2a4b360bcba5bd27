//! The tree's invariants, checked (for tests and debugging), and figures of its quality.

use super::node::{contains, cost, FREE, NULL};
use super::{height_limit, DynamicTree, Proxy};
use crate::broadphase::{valid_box, ProxyId, ProxyPair};
use crate::math::{Real, Vector};
use alloc::{format, string::String, vec};

/// Figures describing a [`DynamicTree`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeStats {
    /// Live proxies (leaves).
    pub proxies: usize,
    /// Nodes in use (leaves and internal nodes: 2 · proxies − 1 for a non-empty tree).
    pub nodes: usize,
    /// The tree's height (edges on the longest root-to-leaf path).
    pub height: u32,
    /// The least possible height for this many leaves, ⌈log₂ proxies⌉.
    pub balanced_height: u32,
    /// Σ of the internal nodes' measures (half perimeter in 2D, half area in 3D) over the root's: Box2D's
    /// quality figure. Lower is better: it is about the number of internal nodes a random line meets.
    pub area_ratio: f64,
    /// Candidate pairs as of the last pair update.
    pub candidate_pairs: usize,
    /// Bytes held on the heap (every buffer's capacity).
    pub heap_bytes: usize,
    /// Full rebuilds so far (on request, or because the tree grew too tall).
    pub rebuilds: u64,
    /// Full rebuilds because moving bodies had loosened the tree (see [`DynamicTree::move_proxy`]).
    pub loosened_rebuilds: u64,
}

impl<V: Vector> DynamicTree<V> {
    /// Figures describing the tree.
    pub fn stats(&self) -> TreeStats {
        let n = self.proxies.len();
        let mut internal = 0.0;
        let mut used = 0;
        for (i, node) in self.nodes.iter().enumerate() {
            if node.height != FREE {
                used += 1;
                if node.height > 0 && i as u32 != self.root {
                    internal += cost(&node.aabb).to_f64();
                }
            }
        }
        let root_cost = if self.root == NULL { 0.0 } else { cost(&self.nodes[self.root as usize].aabb).to_f64() };
        TreeStats {
            proxies: n,
            nodes: used,
            height: self.height(),
            balanced_height: usize::BITS - n.saturating_sub(1).leading_zeros(),
            area_ratio: if root_cost > 0.0 { internal / root_cost } else { 0.0 },
            candidate_pairs: self.candidates.len(),
            heap_bytes: self.heap_bytes(),
            rebuilds: self.rebuilds,
            loosened_rebuilds: self.loosened_rebuilds,
        }
    }

    /// Bytes held on the heap by the tree (every buffer's capacity).
    pub fn heap_bytes(&self) -> usize {
        (self.nodes.capacity() + self.spare_nodes.capacity()) * core::mem::size_of::<super::node::Node<V>>()
            + self.proxies.heap_bytes()
            + (self.move_buffer.capacity() + self.leaves.capacity()) * 4
            + (self.candidates.capacity() + self.next.capacity() + self.found.capacity())
                * core::mem::size_of::<ProxyPair>()
            + self.touched.capacity() * 8
            + self.pending.capacity() * 4
    }

    /// Checks every invariant: links both ways between parents and children, each internal node's box equal to
    /// the union of its children's and its height one more than the taller child's, each leaf's stored box
    /// valid and holding its proxy's box, every live proxy reached exactly once, the free list and the nodes in
    /// use adding up to the array, the height within its bound, the candidate pairs sorted, distinct and between
    /// distinct proxies, and the move buffer agreeing with the proxies' flags. Says what broke.
    pub fn validate(&self) -> Result<(), String> {
        let mut reached = vec![false; self.nodes.len()];
        let mut leaves = 0;
        if self.root != NULL {
            if self.nodes[self.root as usize].parent != NULL {
                return Err("the root has a parent".into());
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                let Some(seen) = reached.get_mut(i as usize) else {
                    return Err(format!("node {i} is outside the array"));
                };
                if *seen {
                    return Err(format!("node {i} is reached twice"));
                }
                *seen = true;
                let node = &self.nodes[i as usize];
                if node.height == FREE {
                    return Err(format!("node {i} is in the tree and on the free list"));
                }
                if node.is_leaf() {
                    leaves += 1;
                    self.check_leaf(i)?;
                    continue;
                }
                for c in [node.child1, node.child2] {
                    match self.nodes.get(c as usize) {
                        Some(child) if child.parent == i => stack.push(c),
                        Some(_) => return Err(format!("node {c}'s parent is not {i}")),
                        None => return Err(format!("node {i} has child {c} outside the array")),
                    }
                }
                let (c1, c2) = (&self.nodes[node.child1 as usize], &self.nodes[node.child2 as usize]);
                if node.height != 1 + c1.height.max(c2.height) {
                    return Err(format!("node {i} has height {}", node.height));
                }
                if node.aabb != c1.aabb.merged(&c2.aabb) {
                    return Err(format!("node {i}'s box is not the union of its children's"));
                }
            }
        }
        if leaves != self.proxies.len() {
            return Err(format!("{leaves} leaves for {} live proxies", self.proxies.len()));
        }
        self.check_free_list(&reached)?;
        if self.height() > height_limit(self.proxies.len()) {
            return Err(format!("height {} above the limit {}", self.height(), height_limit(self.proxies.len())));
        }
        self.check_pairs()
    }

    fn check_leaf(&self, i: u32) -> Result<(), String> {
        let node = &self.nodes[i as usize];
        let proxy: &Proxy<V> = self.proxies.get(ProxyId(node.child1)).ok_or(format!("leaf {i} holds no live proxy"))?;
        if proxy.leaf != i || node.child2 != NULL {
            return Err(format!("leaf {i} and proxy {} do not point at each other", node.child1));
        }
        if node.aabb != proxy.fat {
            return Err(format!("leaf {i}'s stored box differs from proxy {}'s copy", node.child1));
        }
        if !valid_box(&node.aabb) || !contains(&node.aabb, &proxy.aabb) {
            return Err(format!("leaf {i}'s stored box does not hold proxy {}'s box", node.child1));
        }
        Ok(())
    }

    fn check_free_list(&self, reached: &[bool]) -> Result<(), String> {
        let mut free = 0;
        let mut i = self.free_node;
        while i != NULL {
            if free >= self.nodes.len() {
                return Err("the free list loops".into());
            }
            let node = self.nodes.get(i as usize).ok_or(format!("free node {i} outside the array"))?;
            if node.height != FREE || reached[i as usize] {
                return Err(format!("node {i} is on the free list but in use"));
            }
            free += 1;
            i = node.parent;
        }
        let used = reached.iter().filter(|&&r| r).count();
        if used + free != self.nodes.len() {
            return Err(format!("{used} nodes in use and {free} free in an array of {}", self.nodes.len()));
        }
        Ok(())
    }

    fn check_pairs(&self) -> Result<(), String> {
        for w in self.candidates.windows(2) {
            if w[0] >= w[1] {
                return Err(format!("candidate pairs out of order: {:?} then {:?}", w[0], w[1]));
            }
        }
        let mut removed = vec![false; self.proxies.capacity()];
        for &i in self.proxies.removed() {
            removed[i as usize] = true;
        }
        let named = |id: ProxyId| self.proxies.get(id).is_some() || removed[id.0 as usize];
        if let Some(p) = self.candidates.iter().find(|&&(a, b)| a >= b || !named(a) || !named(b)) {
            return Err(format!("candidate pair {p:?} does not name two distinct proxies"));
        }
        let mut buffered = vec![false; self.proxies.capacity()];
        for &i in &self.move_buffer {
            buffered[i as usize] = true;
        }
        for (id, p) in self.proxies.iter() {
            if p.moved != buffered[id.0 as usize] {
                return Err(format!("proxy {} moved flag disagrees with the move buffer", id.0));
            }
        }
        Ok(())
    }
}
