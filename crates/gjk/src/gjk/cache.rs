use super::simplex::Simplex;
use crate::math::Vector;

/// What a caller keeps between frames to restart a query where the last one ended.
///
/// It holds the search directions that produced the last simplex (in the pair's frame) and the hill-climbing
/// hints of both shapes. Under small motions the same directions give nearly the same support points, so the
/// next query starts next to its answer and usually ends in one or two steps. A cache from a different pair is
/// harmless: any directions give a valid starting simplex.
///
/// ```
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::Cuboid;
/// use gjk::{distance_with, DistanceOptions, WarmStart};
/// let a = Cuboid::new(DVec3::splat(1.0)).unwrap();
/// let mut cache = WarmStart::default();
/// let opts = DistanceOptions::default();
/// let mut iterations = Vec::new();
/// for frame in 0..3 {
///     let pose_b = Iso::from_translation(DVec3::new(3.0 + 0.01 * frame as f64, 0.5, 0.2));
///     let d = distance_with(&a, &Iso::identity(), &a, &pose_b, &opts, Some(&mut cache), &mut ());
///     assert!((d.distance - (1.0 + 0.01 * frame as f64)).abs() < 1e-12);
///     iterations.push(d.iterations);
/// }
/// assert!(iterations[2] <= iterations[0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WarmStart<V> {
    dirs: [V; 4],
    len: usize,
    pub(crate) hint_a: u32,
    pub(crate) hint_b: u32,
}

impl<V: Vector> WarmStart<V> {
    /// A cache that starts the next query from these search directions (at most DIM + 1 are used).
    pub fn from_directions(directions: &[V]) -> Self {
        let mut c = Self { dirs: [V::zero(); 4], len: 0, hint_a: 0, hint_b: 0 };
        for (d, s) in c.dirs.iter_mut().zip(directions.iter().take(V::DIM + 1)) {
            *d = *s;
            c.len += 1;
        }
        c
    }

    /// The stored directions.
    pub fn directions(&self) -> &[V] {
        &self.dirs[..self.len]
    }

    /// Forgets everything (the next query starts cold).
    pub fn clear(&mut self) {
        *self = Self { dirs: [V::zero(); 4], len: 0, hint_a: 0, hint_b: 0 };
    }

    /// Keeps one search direction (a closed form's, whose simplex is one vertex), the hints as they were.
    pub(crate) fn store_direction(&mut self, dir: V) {
        self.dirs[0] = dir;
        self.len = 1;
    }

    pub(crate) fn store(&mut self, simplex: &Simplex<V>, hint_a: u32, hint_b: u32) {
        self.len = simplex.len;
        for (d, v) in self.dirs.iter_mut().zip(simplex.vertices()) {
            *d = v.dir;
        }
        self.hint_a = hint_a;
        self.hint_b = hint_b;
    }
}
