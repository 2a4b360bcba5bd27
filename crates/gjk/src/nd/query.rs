//! The queries of ℝᴺ and their answers.

use super::run::{run, Outcome, Pair, Run};
use super::shape::SupportN;
use super::slots::Slots;
use crate::gjk::{DistanceOptions, Intersection, Status};
use crate::math::VecN;

/// One vertex of the witness simplex: a point of A and a point of B (world), their indices in their shapes
/// (see [`SupportN::support`]) and the weight of their difference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Witness<const N: usize> {
    /// Index of A's point (its vertex index for a [`PointSet`](super::PointSet)).
    pub index_a: usize,
    /// Index of B's point.
    pub index_b: usize,
    /// A's point (world; a ball's centre, not its surface).
    pub point_a: VecN<N>,
    /// B's point (world).
    pub point_b: VecN<N>,
    /// Barycentric weight, positive; the weights sum to one.
    pub weight: f64,
}

/// The final simplex of a query: up to N + 1 witnesses whose weighted points are the cores' closest points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WitnessSimplex<const N: usize> {
    entries: Slots<Witness<N>, N>,
}

impl<const N: usize> WitnessSimplex<N> {
    /// How many vertices (1 … N + 1).
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Never true for an answer of a query (kept for the `len` convention).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// The vertices.
    pub fn iter(&self) -> impl Iterator<Item = &Witness<N>> + '_ {
        self.entries.iter()
    }
    /// Σ weight · point of A and of B: the cores' closest points (a ball's centre, not its surface).
    pub fn reproduce(&self) -> (VecN<N>, VecN<N>) {
        let (mut a, mut b) = (VecN::ZERO, VecN::ZERO);
        for w in self.iter() {
            a = a.add_scaled(w.point_a, w.weight);
            b = b.add_scaled(w.point_b, w.weight);
        }
        (a, b)
    }
}

/// The answer of [`distance`] (the fields of [`crate::Distance`], with both witness simplices).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Distance<const N: usize> {
    /// True when the shapes overlap or touch (distance within rounding of zero).
    pub intersecting: bool,
    /// The distance; 0 when intersecting; a lower bound with [`Status::AboveBound`].
    pub distance: f64,
    /// The closest point of A (world); a point common to both cores when they intersect.
    pub point_a: VecN<N>,
    /// The closest point of B (world); `point_b − point_a = distance · normal` when separated.
    pub point_b: VecN<N>,
    /// Unit vector from A toward B; zero when the cores overlap.
    pub normal: VecN<N>,
    /// The vertices of A and of B whose weighted sums are the cores' closest points.
    pub simplex: WitnessSimplex<N>,
    /// GJK iterations run.
    pub iterations: u32,
    /// How the query ended.
    pub status: Status,
    /// Upper minus lower bound on the distance proven by the run.
    pub error_bound: f64,
}

/// Distance between `a` moved by `ta` and `b` moved by `tb`, with closest points, normal and witness simplex.
///
/// ```
/// use gjk::math::VecN;
/// use gjk::nd::{distance, Ball, Segment};
/// let seg = Segment::new(VecN([-1.0, 0.0, 0.0, 0.0, 0.0]), VecN([1.0, 0.0, 0.0, 0.0, 0.0])).unwrap();
/// let ball = Ball::new(VecN::ZERO, 0.5).unwrap();
/// let d = distance(&seg, &VecN::ZERO, &ball, &VecN([0.3, 0.0, 0.0, 0.0, 2.0]));
/// assert!((d.distance - 1.5).abs() < 1e-12);
/// assert!((d.point_a - VecN([0.3, 0.0, 0.0, 0.0, 0.0])).length() < 1e-12);
/// ```
pub fn distance<A, B, const N: usize>(a: &A, ta: &VecN<N>, b: &B, tb: &VecN<N>) -> Distance<N>
where
    A: SupportN<N> + ?Sized,
    B: SupportN<N> + ?Sized,
{
    distance_with(a, ta, b, tb, &DistanceOptions::default())
}

/// [`distance`] with options (iteration cap, tolerance, `max_distance`).
pub fn distance_with<A, B, const N: usize>(
    a: &A,
    ta: &VecN<N>,
    b: &B,
    tb: &VecN<N>,
    options: &DistanceOptions<f64>,
) -> Distance<N>
where
    A: SupportN<N> + ?Sized,
    B: SupportN<N> + ?Sized,
{
    let (ra, rb) = (a.radius(), b.radius());
    let pair = Pair { a, b, rel: *tb - *ta };
    let run = run(&pair, options, ra + rb, options.max_distance.map(|m| m + ra + rb));
    answer(&run, ra, rb, ta)
}

/// True when the shapes overlap or touch (the same answer as [`distance`]'s `intersecting`).
///
/// ```
/// use gjk::math::VecN;
/// use gjk::nd::{intersects, Ball, PointSet};
/// let cube_corners = PointSet::new((0..64).map(|m| VecN::<6>(core::array::from_fn(|i| ((m >> i) & 1) as f64))).collect()).unwrap();
/// let ball = Ball::new(VecN::ZERO, 0.5).unwrap();
/// assert!(intersects(&cube_corners, &VecN::ZERO, &ball, &VecN::splat(1.2)));
/// assert!(!intersects(&cube_corners, &VecN::ZERO, &ball, &VecN::splat(1.3)));
/// ```
pub fn intersects<A, B, const N: usize>(a: &A, ta: &VecN<N>, b: &B, tb: &VecN<N>) -> bool
where
    A: SupportN<N> + ?Sized,
    B: SupportN<N> + ?Sized,
{
    intersection(a, ta, b, tb, &DistanceOptions::default()).intersecting
}

/// [`intersects`] with options, reporting iterations and status.
pub fn intersection<A, B, const N: usize>(
    a: &A,
    ta: &VecN<N>,
    b: &B,
    tb: &VecN<N>,
    options: &DistanceOptions<f64>,
) -> Intersection
where
    A: SupportN<N> + ?Sized,
    B: SupportN<N> + ?Sized,
{
    let radii = a.radius() + b.radius();
    let pair = Pair { a, b, rel: *tb - *ta };
    let run = run(&pair, options, radii, Some(radii));
    // Stopping on a separating plane is a decided answer, not a bound on a distance nobody asked for.
    let status = if run.status == Status::AboveBound { Status::Converged } else { run.status };
    Intersection { intersecting: run.outcome == Outcome::Intersecting, iterations: run.iterations, status }
}

/// The user's answer from a run: radii added, points moved to the world by A's translation.
fn answer<const N: usize>(run: &Run<N>, ra: f64, rb: f64, ta: &VecN<N>) -> Distance<N> {
    let vlen = run.v.length();
    // v = a − b points from B to A; the normal points from A to B.
    let normal = if vlen > 0.0 { run.v * (-1.0 / vlen) } else { VecN::ZERO };
    let (core_a, core_b) = run.simplex.witnesses();
    let intersecting = run.outcome == Outcome::Intersecting;
    let (distance, status) = match run.outcome {
        Outcome::Intersecting => (0.0, run.status),
        Outcome::Separated => ((run.lower - ra - rb).max(0.0), Status::AboveBound),
        Outcome::Closest => ((vlen - ra - rb).max(0.0), run.status),
    };
    let mut entries =
        Slots::new(Witness { index_a: 0, index_b: 0, point_a: VecN::ZERO, point_b: VecN::ZERO, weight: 0.0 });
    for i in 0..run.simplex.len() {
        let v = &run.simplex.verts[i];
        entries.push(Witness {
            index_a: v.index_a,
            index_b: v.index_b,
            point_a: *ta + v.a,
            point_b: *ta + v.b,
            weight: run.simplex.lambda[i],
        });
    }
    Distance {
        intersecting,
        distance,
        point_a: *ta + core_a.add_scaled(normal, ra),
        point_b: *ta + core_b.add_scaled(normal, -rb),
        normal,
        simplex: WitnessSimplex { entries },
        iterations: run.iterations,
        status,
        error_bound: if intersecting { 0.0 } else { (vlen - run.lower).max(0.0) },
    }
}
