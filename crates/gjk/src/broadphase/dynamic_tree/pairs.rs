//! Pair finding.
//!
//! The candidate pairs are kept as the pairs whose *stored* (fattened) boxes overlap. A stored box changes only
//! when its proxy is inserted or leaves it (the move buffer), so a pair can appear or disappear only if one of
//! its proxies is in the move buffer or was removed: each pair update queries the tree with the stored box of
//! each buffered proxy (Box2D's `b2UpdateBroadPhasePairs`), and re-checks only the old pairs of buffered or
//! removed proxies. Since every stored box holds its proxy's box, every overlapping pair is a candidate.

use super::DynamicTree;
use crate::broadphase::{PairChanges, ProxyId, ProxyPair};
use crate::math::Vector;

impl<V: Vector> DynamicTree<V> {
    /// Brings the candidate pairs up to date with the inserts, moves and removes since the last call, writing
    /// into `changes` (cleared first) the pairs that appeared and those that went (every pair of a removed
    /// proxy among them). Costs a tree query per proxy that was inserted or left its stored box, plus a pass
    /// over the candidate list when anything changed.
    pub fn update_pairs(&mut self, changes: &mut PairChanges) {
        changes.clear();
        if self.move_buffer.is_empty() && !self.proxies.any_removed() {
            return;
        }
        self.find_new_pairs();
        self.mark_touched();
        self.merge(changes);
        self.clear_touched();
        for &i in &self.move_buffer {
            if let Some(p) = self.proxies.get_mut(ProxyId(i)) {
                p.moved = false;
            }
        }
        self.move_buffer.clear();
        self.proxies.release_removed();
    }

    /// The candidate pairs as of the last [`DynamicTree::update_pairs`]: every pair whose stored boxes overlap
    /// (so every pair whose boxes overlap), sorted with the lower id first.
    pub fn candidate_pairs(&self) -> &[ProxyPair] {
        &self.candidates
    }

    /// Writes into `out` (cleared first) every pair of live proxies whose boxes, as last given, overlap or
    /// touch, sorted: the same list as sweep and prune gives for the same boxes. When the candidates are up to
    /// date it filters them; otherwise it queries the tree once per proxy.
    pub fn overlapping_pairs(&self, out: &mut Vec<ProxyPair>) {
        out.clear();
        if self.move_buffer.is_empty() && !self.proxies.any_removed() {
            // Every proxy's box lies in its stored box, which has not changed since the last update.
            out.extend(
                self.candidates
                    .iter()
                    .copied()
                    .filter(|&(a, b)| self.proxies.live(a.0).aabb.intersects(&self.proxies.live(b.0).aabb)),
            );
            return;
        }
        for (id, p) in self.proxies.iter() {
            let start = out.len();
            self.visit_leaves(&p.aabb, |other| {
                if other > id.0 && self.proxies.live(other).aabb.intersects(&p.aabb) {
                    out.push((id, ProxyId(other)));
                }
                true
            });
            out[start..].sort_unstable();
        }
    }

    /// Queries the tree with the stored box of each buffered proxy; collects into `found` every pair it makes
    /// with a proxy whose stored box overlaps, once (a pair of two buffered proxies from the lower id's query),
    /// sorted.
    fn find_new_pairs(&mut self) {
        let mut found = core::mem::take(&mut self.found);
        found.clear();
        for &m in &self.move_buffer {
            let Some(proxy) = self.proxies.get(ProxyId(m)) else {
                continue; // removed after it moved
            };
            if !proxy.moved {
                continue; // buffered twice (removed, its slot reused, moved again): queried once
            }
            let fat = self.nodes[proxy.leaf as usize].aabb;
            self.visit_leaves(&fat, |other| {
                if other != m && !(other < m && self.proxies.live(other).moved) {
                    found.push((ProxyId(m.min(other)), ProxyId(m.max(other))));
                }
                true
            });
        }
        found.sort_unstable();
        self.found = found;
    }

    /// Sets the bit of every buffered and every removed proxy.
    fn mark_touched(&mut self) {
        let words = self.proxies.capacity().div_ceil(64);
        if self.touched.len() < words {
            self.touched.resize(words, 0);
        }
        for &i in self.move_buffer.iter().chain(self.proxies.removed()) {
            self.touched[(i / 64) as usize] |= 1 << (i % 64);
        }
    }

    fn clear_touched(&mut self) {
        self.touched.iter_mut().for_each(|w| *w = 0);
    }

    /// Merges the old candidates with the pairs found: an old pair of an untouched proxy pair stays; an old pair
    /// with a touched proxy stays only if found again (else it is removed); a found pair not in the old list is
    /// added.
    fn merge(&mut self, changes: &mut PairChanges) {
        let touched = |(a, b): ProxyPair, bits: &[u64]| {
            let bit = |i: u32| bits[(i / 64) as usize] >> (i % 64) & 1 == 1;
            bit(a.0) || bit(b.0)
        };
        let (old, found, bits) = (&self.candidates, &self.found, &self.touched);
        let next = &mut self.next;
        next.clear();
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < found.len() {
            let order = match (old.get(i), found.get(j)) {
                (Some(o), Some(f)) => o.cmp(f),
                (Some(_), None) => core::cmp::Ordering::Less,
                _ => core::cmp::Ordering::Greater,
            };
            match order {
                core::cmp::Ordering::Less => {
                    if touched(old[i], bits) {
                        changes.removed.push(old[i]);
                    } else {
                        next.push(old[i]);
                    }
                    i += 1;
                }
                core::cmp::Ordering::Greater => {
                    next.push(found[j]);
                    changes.added.push(found[j]);
                    j += 1;
                }
                core::cmp::Ordering::Equal => {
                    next.push(found[j]);
                    i += 1;
                    j += 1;
                }
            }
        }
        core::mem::swap(&mut self.candidates, &mut self.next);
    }
}
