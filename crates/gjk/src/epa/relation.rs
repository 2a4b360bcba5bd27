//! How two shapes stand with each other, read off a penetration answer with its error bound, so that "touching"
//! is a verdict of its own rather than a sign test on a number that rounding can flip.

use super::Penetration;
use crate::math::{Real, Vector};

/// Separated, touching or penetrating, as far as a query proved it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// Apart by more than the answer's error bound.
    Separated,
    /// Within the error bound of touching (the signed distance could be zero).
    Touching,
    /// Overlapping by more than the answer's error bound.
    Penetrating,
}

impl<V: Vector> Penetration<V> {
    /// Separated, touching or penetrating: the signed distance compared with zero within the error bound (and the
    /// rounding of the witness points' coordinates).
    ///
    /// ```
    /// use gjk::epa::Relation;
    /// use gjk::math::{DVec3, Iso};
    /// use gjk::shape::Cuboid;
    /// let cube = Cuboid::new(DVec3::splat(1.0)).unwrap();
    /// let at = |x: f64| Iso::from_translation(DVec3::new(x, 0.0, 0.0));
    /// assert_eq!(gjk::penetration(&cube, &at(0.0), &cube, &at(3.0)).relation(), Relation::Separated);
    /// assert_eq!(gjk::penetration(&cube, &at(0.0), &cube, &at(2.0)).relation(), Relation::Touching);
    /// assert_eq!(gjk::penetration(&cube, &at(0.0), &cube, &at(1.5)).relation(), Relation::Penetrating);
    /// ```
    pub fn relation(&self) -> Relation {
        let scale = self.point_a.max_abs().max(self.point_b.max_abs()).max(V::Real::ONE);
        let slack = self.error_bound.max(V::Real::EPSILON * V::Real::from_f64(16.0) * scale);
        if self.distance > slack {
            Relation::Separated
        } else if self.distance < -slack {
            Relation::Penetrating
        } else {
            Relation::Touching
        }
    }
    /// True when the shapes are apart by more than the error bound.
    pub fn is_separated(&self) -> bool {
        self.relation() == Relation::Separated
    }
    /// True when the shapes are within the error bound of touching.
    pub fn is_touching(&self) -> bool {
        self.relation() == Relation::Touching
    }
    /// True when the shapes overlap by more than the error bound.
    pub fn is_penetrating(&self) -> bool {
        self.relation() == Relation::Penetrating
    }
}
