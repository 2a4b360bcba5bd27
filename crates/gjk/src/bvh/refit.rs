use super::Bvh;
use crate::math::Vector;
use crate::shape::Aabb;

impl<V: Vector> Bvh<V> {
    /// Recomputes every node's box from new primitive boxes (`boxes[i]` for primitive `i`, the same count as at
    /// build), keeping the tree's shape: the update for a deforming mesh or a height field whose heights changed.
    /// Children come after their parent in the node array, so one backward pass sees every child before its parent.
    /// The tree stays correct whatever the motion; only its quality degrades when primitives travel far (rebuild
    /// then).
    ///
    /// ```
    /// use gjk::bvh::Bvh;
    /// use gjk::math::DVec3;
    /// use gjk::shape::Aabb;
    /// let mut boxes = vec![Aabb::new(DVec3::ZERO, DVec3::ONE), Aabb::new(DVec3::splat(2.0), DVec3::splat(3.0))];
    /// let mut bvh = Bvh::new(&boxes);
    /// boxes[1] = Aabb::new(DVec3::splat(5.0), DVec3::splat(6.0));
    /// bvh.refit(&boxes);
    /// assert_eq!(bvh.root_aabb().unwrap().max, DVec3::splat(6.0));
    /// ```
    ///
    /// # Panics
    /// If `boxes` has fewer entries than the tree has primitives.
    pub fn refit(&mut self, boxes: &[Aabb<V>]) {
        assert!(boxes.len() >= self.primitives.len(), "one box per primitive");
        for index in (0..self.nodes.len()).rev() {
            let node = self.nodes[index];
            let aabb = if node.is_leaf() {
                let prims = self.leaf_primitives(&node);
                let first = boxes[prims[0] as usize];
                prims[1..].iter().fold(first, |b, &i| b.merged(&boxes[i as usize]))
            } else {
                let (l, r) = self.children(index as u32);
                self.nodes[l as usize].aabb.merged(&self.nodes[r as usize].aabb)
            };
            self.nodes[index].aabb = aabb;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::DVec3;
    use std::vec::Vec;

    /// After a refit every node's box is exactly the union of its children's (or its primitives').
    #[test]
    fn refit_boxes_are_tight() {
        let mut boxes: Vec<Aabb<DVec3>> = (0..200)
            .map(|i| {
                let c = DVec3::new((i * 7 % 13) as f64, (i * 5 % 11) as f64, (i % 17) as f64);
                Aabb::new(c, c + DVec3::splat(0.5))
            })
            .collect();
        let mut bvh = Bvh::new(&boxes);
        for (i, b) in boxes.iter_mut().enumerate() {
            let shift = DVec3::new((i % 3) as f64, -(i as f64).sin(), 0.25);
            *b = Aabb::new(b.min + shift, b.max + shift * 2.0);
        }
        bvh.refit(&boxes);
        let fresh = Bvh::new(&boxes);
        assert_eq!(bvh.root_aabb(), fresh.root_aabb());
        crate::bvh::build::tests::check_tight(&bvh, &boxes);
    }
}
