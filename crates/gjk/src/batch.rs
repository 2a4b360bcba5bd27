//! Many queries at once, on every core (feature `rayon`, on by default; without it the same calls run on the
//! calling thread). Each query is independent and deterministic, so the answers are the same bits whatever the
//! number of threads, in the order of the input.

use crate::epa::{penetration, Penetration};
use crate::gjk::{distance, intersects, Distance};
use crate::math::{Iso, Vector};
use crate::shape::SupportMap;
use alloc::vec::Vec;

/// One pair to query: two shapes and their poses.
pub struct Pair<'s, V: Vector> {
    /// Shape A.
    pub a: &'s (dyn SupportMap<V> + Sync),
    /// Pose of A.
    pub pose_a: Iso<V>,
    /// Shape B.
    pub b: &'s (dyn SupportMap<V> + Sync),
    /// Pose of B.
    pub pose_b: Iso<V>,
}

/// Runs `f` on every item, in parallel when the `rayon` feature is on, writing answers in input order into `out`
/// (no allocation).
#[cfg(feature = "rayon")]
pub fn map_into<T: Sync, R: Send>(items: &[T], out: &mut [R], f: impl Fn(&T) -> R + Sync + Send) {
    use rayon::prelude::*;
    assert_eq!(items.len(), out.len(), "one output slot per item");
    out.par_iter_mut().zip(items.par_iter()).for_each(|(o, i)| *o = f(i));
}

/// Runs `f` on every item, writing answers in input order into `out` (no allocation).
#[cfg(not(feature = "rayon"))]
pub fn map_into<T: Sync, R: Send>(items: &[T], out: &mut [R], f: impl Fn(&T) -> R + Sync + Send) {
    assert_eq!(items.len(), out.len(), "one output slot per item");
    for (o, i) in out.iter_mut().zip(items) {
        *o = f(i);
    }
}

/// [`distance`] for every pair.
///
/// ```
/// use gjk::batch::{distances, Pair};
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::Ball;
/// let ball = Ball::new(0.5).unwrap();
/// let pairs: Vec<Pair<DVec3>> = (0..100)
///     .map(|i| Pair { a: &ball, pose_a: Iso::identity(), b: &ball, pose_b: Iso::from_translation(DVec3::new(2.0 + i as f64, 0.0, 0.0)) })
///     .collect();
/// let d = distances(&pairs);
/// assert!((d[7].distance - 8.0).abs() < 1e-12);
/// ```
pub fn distances<V: Vector>(pairs: &[Pair<'_, V>]) -> Vec<Distance<V>> {
    collect(pairs, |p| distance(p.a, &p.pose_a, p.b, &p.pose_b))
}

/// [`intersects`] for every pair.
pub fn intersections<V: Vector>(pairs: &[Pair<'_, V>]) -> Vec<bool> {
    collect(pairs, |p| intersects(p.a, &p.pose_a, p.b, &p.pose_b))
}

/// [`penetration`] for every pair.
pub fn penetrations<V: Vector>(pairs: &[Pair<'_, V>]) -> Vec<Penetration<V>> {
    collect(pairs, |p| penetration(p.a, &p.pose_a, p.b, &p.pose_b))
}

#[cfg(feature = "rayon")]
fn collect<V: Vector, R: Send>(pairs: &[Pair<'_, V>], f: impl Fn(&Pair<'_, V>) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    pairs.par_iter().map(f).collect()
}

#[cfg(not(feature = "rayon"))]
fn collect<V: Vector, R: Send>(pairs: &[Pair<'_, V>], f: impl Fn(&Pair<'_, V>) -> R + Sync + Send) -> Vec<R> {
    pairs.iter().map(f).collect()
}
