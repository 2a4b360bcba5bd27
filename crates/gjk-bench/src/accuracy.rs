//! The accuracy of every answer a cell times, against a reference signed distance computed once per configuration
//! (at setup, untimed), so speeds are compared at a known accuracy.
//!
//! **The reference.** For unit `n`, g(n) = min over B of n·b − max over A of n·a (support functions, in the world)
//! is the gap of the slab between the two shapes along `n`: a lower bound of the signed distance for every `n`,
//! and the signed distance itself at the best `n` (the separating axis when apart, minus the penetration depth when
//! overlapping: the depth is the least overlap of the supports over all directions). So the reference is the
//! largest g found: from the normal of our f64 query run with its tolerance at zero and a raised iteration cap (the
//! distance query when apart, the penetration query when overlapping), refined by a pattern search over the sphere
//! (steps 1e-2 down to 1e-14 rad, kept only where g grows). Every value of g is a certified lower bound computed
//! from the support functions alone; when apart, the tight run's closest points (points of the shapes) give an upper
//! bound, and [`Reference::bracket`] is upper − lower. The reference is computed on the geometry the cell's space
//! really answers: its shapes and poses rounded to the space's precision, then evaluated in f64.

use gjk::math::{Iso, Real, Vector};
use gjk::shape::{support_full, SupportMap};
use gjk::DistanceOptions;

use crate::space::{Space, Spec, Visitor};

/// A configuration's reference signed distance (negative: a depth).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// The signed distance: the largest certified lower bound found.
    pub value: f64,
    /// Certified upper minus lower bound when the shapes are apart (closest points of the shapes against the
    /// slab); `None` when they overlap (no upper bound is computed).
    pub bracket: Option<f64>,
}

/// The tightened options of the reference run: no tolerance (it stops when no step makes progress) and a high cap.
fn tight<R: Real>() -> DistanceOptions<R> {
    DistanceOptions { max_iterations: 4096, tolerance: R::ZERO, max_distance: None }
}

/// A's and B's support points (world, relative to A's position: the poses' translations are subtracted first, as
/// the library's queries do) along the unit world direction `n` and against it.
fn supports<M: Vector, A: SupportMap<M> + ?Sized, B: SupportMap<M> + ?Sized>(
    a: &A,
    pa: &Iso<M>,
    b: &B,
    pb: &Iso<M>,
    n: M,
) -> (M, M) {
    let sa = pa.transform_vector(support_full(a, pa.inverse_transform_vector(n)));
    let sb = pb.transform_vector(support_full(b, pb.inverse_transform_vector(-n)));
    (sa, (pb.translation - pa.translation) + sb)
}

/// g(n): the signed gap of the slab between A and B along the unit world direction `n` (a lower bound of the
/// signed distance).
pub fn slab_gap<M: Vector, A: SupportMap<M> + ?Sized, B: SupportMap<M> + ?Sized>(
    a: &A,
    pa: &Iso<M>,
    b: &B,
    pb: &Iso<M>,
    n: M,
) -> f64 {
    let (sa, sb) = supports(a, pa, b, pb, n);
    (n.dot(sb) - n.dot(sa)).to_f64()
}

/// Unit tangents of the sphere at `n` (one in 2D, two in 3D), as f64 triples.
fn tangents(n: [f64; 3], dim: usize) -> Vec<[f64; 3]> {
    if dim == 2 {
        return vec![[-n[1], n[0], 0.0]];
    }
    // The axis least aligned with n, crossed with n, then n crossed with that.
    let k = (0..3).min_by(|&i, &j| n[i].abs().total_cmp(&n[j].abs())).unwrap_or(0);
    let mut e = [0.0; 3];
    e[k] = 1.0;
    let cross =
        |u: [f64; 3], v: [f64; 3]| [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    let unit = |u: [f64; 3]| {
        let l = (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]).sqrt();
        [u[0] / l, u[1] / l, u[2] / l]
    };
    let t1 = unit(cross(n, e));
    vec![t1, unit(cross(n, t1))]
}

/// The largest g over the sphere found by a pattern search from `n0` (unit): its value and direction.
fn refine<M: Vector>(g: impl Fn(M) -> f64, n0: M) -> (f64, M) {
    let to3 = |v: M| {
        let a = v.to_f64_array();
        [a[0], a[1], if M::DIM == 3 { a[2] } else { 0.0 }]
    };
    let from3 = |a: [f64; 3]| {
        let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        M::from_f64_slice(&[a[0] / l, a[1] / l, a[2] / l][..M::DIM])
    };
    let (mut n, mut best) = (n0, g(n0));
    let mut step = 1e-2;
    // Each step size is tried until no neighbour improves (at most 64 moves), then quartered: bounded.
    while step > 1e-14 {
        for _ in 0..64 {
            let c = to3(n);
            let mut moved = false;
            for t in tangents(c, M::DIM) {
                for s in [step, -step] {
                    let m = from3([c[0] + s * t[0], c[1] + s * t[1], c[2] + s * t[2]]);
                    let v = g(m);
                    if v > best {
                        (n, best, moved) = (m, v, true);
                    }
                }
            }
            if !moved {
                break;
            }
        }
        step *= 0.25;
    }
    (best, n)
}

/// The reference signed distance of A at `pa` and B at `pb` (f64 shapes and poses).
pub fn reference<M, A, B>(a: &A, pa: &Iso<M>, b: &B, pb: &Iso<M>) -> Reference
where
    M: Vector,
    A: SupportMap<M> + ?Sized,
    B: SupportMap<M> + ?Sized,
{
    let g = |n: M| slab_gap(a, pa, b, pb, n);
    let d = gjk::distance_with(a, pa, b, pb, &tight(), None, &mut ());
    if !d.intersecting && d.normal.length() > M::Real::ZERO {
        let (lower, n) = refine(g, d.normal);
        // Two upper bounds, distances between points of the shapes: the tight run's closest points, and the
        // support points along the best direction (the closest points themselves on strictly convex shapes).
        let (sa, sb) = supports(a, pa, b, pb, n);
        let upper = (d.point_b - d.point_a).length().to_f64().min((sb - sa).length().to_f64());
        return Reference { value: lower, bracket: Some(upper - lower) };
    }
    let p = gjk::penetration_with(a, pa, b, pb, &tight(), &mut ());
    Reference { value: refine(g, p.normal).0, bracket: None }
}

/// The references of every configuration of a pair in space `V`: on the specs and poses rounded to `V`.
pub fn references<V: Space>(
    spec_a: &Spec<V::Master>,
    spec_b: &Spec<V::Master>,
    poses: &[PosePair<V>],
) -> Vec<Reference> {
    let rounded: Vec<_> = poses.iter().map(|(a, b)| (V::pose_rounded(a), V::pose_rounded(b))).collect();
    V::Master::visit(&spec_a.rounded::<V>(), &spec_b.rounded::<V>(), Refs(rounded))
}

/// A's and B's master poses of a configuration of space `V`.
pub type PosePair<V> = (Iso<<V as Space>::Master>, Iso<<V as Space>::Master>);

struct Refs<M: Vector>(Vec<(Iso<M>, Iso<M>)>);

impl<M: Space> Visitor<M> for Refs<M> {
    type Out = Vec<Reference>;
    fn visit<A, B>(self, a: A, b: B) -> Vec<Reference>
    where
        A: SupportMap<M> + Send + Sync + 'static,
        B: SupportMap<M> + Send + Sync + 'static,
    {
        self.0.iter().map(|(pa, pb)| reference(&a, pa, &b, pb)).collect()
    }
}

/// How accurate one library was over a cell's configurations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accuracy {
    /// Distance and contact: the largest |answer − reference| / |reference| (for a distance query on overlapping
    /// shapes, whose answer is 0, |answer|).
    Relative(f64),
    /// Intersection: verdicts that disagree with the reference's sign, of so many.
    Wrong(usize, usize),
}

impl Accuracy {
    /// Contact answers (signed distances) against the references.
    pub fn relative(answers: &[f64], refs: &[Reference]) -> Self {
        Self::worst(answers.iter().zip(refs).map(|(x, r)| (*x, r.value)))
    }

    /// Distance answers against the references: the distance is the signed distance clamped at zero (overlapping
    /// shapes are at distance 0, and there the error is the answer itself, absolute, for unit-size shapes).
    pub fn distances(answers: &[f64], refs: &[Reference]) -> Self {
        Self::worst(answers.iter().zip(refs).map(|(x, r)| (*x, r.value.max(0.0))))
    }

    /// The largest |answer − reference| / |reference| (absolute where the reference is 0).
    fn worst(pairs: impl Iterator<Item = (f64, f64)>) -> Self {
        let err = |(x, r): (f64, f64)| if r == 0.0 { x.abs() } else { (x - r).abs() / r.abs() };
        Accuracy::Relative(pairs.map(err).fold(0.0, f64::max))
    }

    /// Intersection verdicts (true: intersecting) against the references (negative: overlapping).
    pub fn verdicts(answers: &[bool], refs: &[Reference]) -> Self {
        let wrong = answers.iter().zip(refs).filter(|(&x, r)| x != (r.value <= 0.0)).count();
        Accuracy::Wrong(wrong, answers.len())
    }

    /// As shown in the report: `3e-15`, `0/64`.
    pub fn show(self) -> String {
        match self {
            Accuracy::Relative(0.0) => "0".into(),
            Accuracy::Relative(x) => format!("{x:.0e}"),
            Accuracy::Wrong(w, n) => format!("{w}/{n}"),
        }
    }
}
