use super::{check_point, ShapeError, SupportMap};
use crate::math::{Real, Vector};

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
    fn center(&self) -> V {
        let [a, b, c] = self.vertices;
        (a + b + c) * V::Real::from_f64(1.0 / 3.0)
    }
}
