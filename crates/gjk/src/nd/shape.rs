//! Shapes of ℝᴺ given by their support function: point sets (hull-free: GJK needs only the support), points,
//! segments, balls and user closures.

use crate::math::VecN;
use crate::shape::ShapeError;
use alloc::vec::Vec;

/// A convex shape of ℝᴺ, known through its support function: the point farthest along a direction, with an index
/// naming it (the vertex's index in a point set; 0 or 1 for a segment's ends; 0 for a single point).
pub trait SupportN<const N: usize> {
    /// The farthest point of the core along `d`, and its index. Ties go to the lowest index; a direction that is
    /// zero or not finite still returns a point of the shape.
    fn support(&self, d: VecN<N>) -> (usize, VecN<N>);
    /// The radius added around the core (a ball's; 0 otherwise).
    fn radius(&self) -> f64 {
        0.0
    }
    /// A point inside the core, from which the first search direction is taken.
    fn center(&self) -> VecN<N>;
}

/// The convex hull of a finite point set (no hull is built: the support scans the points).
///
/// ```
/// use gjk::math::VecN;
/// use gjk::nd::PointSet;
/// let simplex = PointSet::new(vec![VecN([0.0; 5]), VecN::axis(0), VecN::axis(4)]).unwrap();
/// assert_eq!(simplex.points().len(), 3);
/// assert!(PointSet::<5>::new(vec![]).is_err());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PointSet<const N: usize> {
    points: Vec<VecN<N>>,
    center: VecN<N>,
}

impl<const N: usize> PointSet<N> {
    /// The hull of `points` (at least one, every coordinate finite). Repeated points and points in a lower
    /// flat are valid.
    pub fn new(points: Vec<VecN<N>>) -> Result<Self, ShapeError> {
        if points.is_empty() {
            return Err(ShapeError::Empty);
        }
        if !points.iter().all(|p| p.is_finite()) {
            return Err(ShapeError::NonFinite("points"));
        }
        let mut center = VecN::ZERO;
        for p in &points {
            center = center.add_scaled(*p, 1.0 / points.len() as f64);
        }
        Ok(Self { points, center })
    }

    /// The points, in the order given (support indices refer to it).
    pub fn points(&self) -> &[VecN<N>] {
        &self.points
    }
}

impl<const N: usize> SupportN<N> for PointSet<N> {
    fn support(&self, d: VecN<N>) -> (usize, VecN<N>) {
        let mut best = 0;
        let mut best_dot = self.points[0].dot(d);
        for (i, p) in self.points.iter().enumerate().skip(1) {
            let x = p.dot(d);
            if x > best_dot {
                best = i;
                best_dot = x;
            }
        }
        (best, self.points[best])
    }
    fn center(&self) -> VecN<N> {
        self.center
    }
}

/// A single point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point<const N: usize>(VecN<N>);

impl<const N: usize> Point<N> {
    /// The point `p` (finite).
    pub fn new(p: VecN<N>) -> Result<Self, ShapeError> {
        if p.is_finite() {
            Ok(Self(p))
        } else {
            Err(ShapeError::NonFinite("point"))
        }
    }
}

impl<const N: usize> SupportN<N> for Point<N> {
    fn support(&self, _d: VecN<N>) -> (usize, VecN<N>) {
        (0, self.0)
    }
    fn center(&self) -> VecN<N> {
        self.0
    }
}

/// The segment between two points (index 0 for `a`, 1 for `b`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment<const N: usize> {
    a: VecN<N>,
    b: VecN<N>,
}

impl<const N: usize> Segment<N> {
    /// The segment `ab` (finite ends; equal ends are a point).
    pub fn new(a: VecN<N>, b: VecN<N>) -> Result<Self, ShapeError> {
        if a.is_finite() && b.is_finite() {
            Ok(Self { a, b })
        } else {
            Err(ShapeError::NonFinite("segment"))
        }
    }
}

impl<const N: usize> SupportN<N> for Segment<N> {
    fn support(&self, d: VecN<N>) -> (usize, VecN<N>) {
        if self.b.dot(d) > self.a.dot(d) {
            (1, self.b)
        } else {
            (0, self.a)
        }
    }
    fn center(&self) -> VecN<N> {
        (self.a + self.b) * 0.5
    }
}

/// A ball: its centre is the core, its radius is added at the end (exact).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball<const N: usize> {
    center: VecN<N>,
    radius: f64,
}

impl<const N: usize> Ball<N> {
    /// The ball of `radius ≥ 0` about `center`.
    pub fn new(center: VecN<N>, radius: f64) -> Result<Self, ShapeError> {
        if !center.is_finite() || !radius.is_finite() {
            return Err(ShapeError::NonFinite("ball"));
        }
        if radius < 0.0 {
            return Err(ShapeError::Negative("radius"));
        }
        Ok(Self { center, radius })
    }
}

impl<const N: usize> SupportN<N> for Ball<N> {
    fn support(&self, _d: VecN<N>) -> (usize, VecN<N>) {
        (0, self.center)
    }
    fn radius(&self) -> f64 {
        self.radius
    }
    fn center(&self) -> VecN<N> {
        self.center
    }
}

/// A convex shape given by a closure returning its support point (index 0) and a point inside it.
pub struct SupportFn<F, const N: usize> {
    f: F,
    center: VecN<N>,
}

impl<F: Fn(VecN<N>) -> VecN<N>, const N: usize> SupportFn<F, N> {
    /// The shape whose support along `d` is `f(d)`, with `center` inside it.
    pub fn new(f: F, center: VecN<N>) -> Self {
        Self { f, center }
    }
}

impl<F: Fn(VecN<N>) -> VecN<N>, const N: usize> SupportN<N> for SupportFn<F, N> {
    fn support(&self, d: VecN<N>) -> (usize, VecN<N>) {
        (0, (self.f)(d))
    }
    fn center(&self) -> VecN<N> {
        self.center
    }
}
