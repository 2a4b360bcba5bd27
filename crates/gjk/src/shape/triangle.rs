use super::{check_point, length_unscaled, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};
use crate::simplex::facet_normal;

/// A triangle (possibly degenerate: collinear or repeated corners are valid).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Triangle<V> {
    /// Corners.
    pub vertices: [V; 3],
}

impl<V: Vector> Triangle<V> {
    /// The triangle `abc`; errors on non-finite coordinates.
    pub fn new(a: V, b: V, c: V) -> Result<Self, ShapeError> {
        Ok(Self {
            vertices: [
                check_point("triangle corner a", a)?,
                check_point("triangle corner b", b)?,
                check_point("triangle corner c", c)?,
            ],
        })
    }
}

impl<V: Vector> SupportMap<V> for Triangle<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        let [a, b, c] = self.vertices;
        let (da, db, dc) = (a.dot(dir), b.dot(dir), c.dot(dir));
        if da >= db && da >= dc {
            a
        } else if db >= dc {
            b
        } else {
            c
        }
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        if V::DIM == 3 {
            // In 3D the triangle is its own face, either side.
            out.reset(0);
            for (i, p) in self.vertices.iter().enumerate() {
                out.push(*p, i as u32);
            }
            return;
        }
        // In 2D, the edge whose outward normal is closest to dir.
        let c = self.center();
        let mut best = (0, V::Real::from_f64(-2.0));
        for i in 0..3 {
            let e = [self.vertices[i], self.vertices[(i + 1) % 3]];
            if let Some(n) = facet_normal(&e) {
                let n = if (e[0] - c).dot(n) < V::Real::ZERO { -n } else { n };
                let s = n.dot(dir.normalize_or_zero());
                if s > best.1 {
                    best = (i, s);
                }
            }
        }
        let (i, j) = (best.0, (best.0 + 1) % 3);
        out.reset(i as u32);
        out.push(self.vertices[i], i as u32);
        out.push(self.vertices[j], j as u32);
    }
    fn center(&self) -> V {
        let [a, b, c] = self.vertices;
        (a + b + c) * V::Real::from_f64(1.0 / 3.0)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // A convex function is largest at a corner.
        self.vertices.iter().fold(V::Real::ZERO, |m, &p| m.max(length_unscaled(p - from)))
    }
}
