//! Mixed pairs: a sphere against a box or a capsule, the pairs the distance query answers in closed form
//! (`gjk`'s `analytic` room), each with its GJK shadow (the same poses with the closed form hidden); and in 3D a box
//! or a capsule against the hull of 32 points. They are families ([`Kind::Mixed`](crate::workload::Kind)) like
//! the others: same workload generation, regimes, queries, runners and accuracy; criterion ids like
//! `3D-f64/sphere-box/separated/distance/ours`.

use gjk::math::{Real, Vector};
use gjk::shape::SupportMap;

use crate::space::Spec;
use crate::workload::Kind;

/// A mixed pair: A is the unit sphere, B the benchmark's box or capsule; or (3D) A the box or the capsule, B the
/// first cloud of the hull32 family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mixed {
    /// Sphere r = 1 against the box of half-extents (0.9, 0.6, 0.4) (2D: (0.9, 0.6)).
    SphereBox,
    /// Sphere r = 1 against the capsule of half-height 0.5, radius 0.5.
    SphereCapsule,
    /// [`Mixed::SphereBox`] with the box behind a wrapper that hides its core hook: the GJK loop's time on the
    /// same poses (what the pair cost before its closed form).
    SphereBoxGjk,
    /// [`Mixed::SphereCapsule`] through the GJK loop, likewise.
    SphereCapsuleGjk,
    /// The box of half-extents (0.9, 0.6, 0.4) against the hull of 32 points (3D only).
    BoxHull,
    /// The capsule of half-height 0.5, radius 0.5 against the hull of 32 points (3D only).
    CapsuleHull,
}

/// The mixed pairs of both dimensions, each closed form with its GJK shadow.
pub const MIXED: [Mixed; 4] = [Mixed::SphereBox, Mixed::SphereBoxGjk, Mixed::SphereCapsule, Mixed::SphereCapsuleGjk];

/// The mixed pairs of 3D only.
pub const MIXED_3D: [Mixed; 2] = [Mixed::BoxHull, Mixed::CapsuleHull];

impl Mixed {
    /// `sphere-box`, `sphere-box-gjk`, `sphere-capsule`, `sphere-capsule-gjk`.
    pub fn name(self) -> &'static str {
        match self {
            Mixed::SphereBox => "sphere-box",
            Mixed::SphereCapsule => "sphere-capsule",
            Mixed::SphereBoxGjk => "sphere-box-gjk",
            Mixed::SphereCapsuleGjk => "sphere-capsule-gjk",
            Mixed::BoxHull => "box-hull32",
            Mixed::CapsuleHull => "capsule-hull32",
        }
    }

    /// The closed-form pair this one shadows (itself for a closed-form pair): the poses are that pair's.
    pub fn base(self) -> Mixed {
        match self {
            Mixed::SphereBoxGjk => Mixed::SphereBox,
            Mixed::SphereCapsuleGjk => Mixed::SphereCapsule,
            m => m,
        }
    }

    /// A's and B's shapes in the dimension of `M`.
    pub fn specs<M: Vector>(self) -> (Spec<M>, Spec<M>) {
        let cuboid = || Spec::Cuboid(M::from_fn(|i| M::Real::from_f64([0.9, 0.6, 0.4][i])));
        let capsule = || Spec::Capsule(0.5, 0.5);
        let hull32 = || match Kind::Hull(32).specs3().0 {
            Spec::Hull(pts) => Spec::Hull(pts.iter().map(|p| M::from_f64_slice(&p.to_array()[..M::DIM])).collect()),
            _ => unreachable!("a hull family's spec is a hull"),
        };
        match self {
            Mixed::SphereBox => (Spec::Ball(1.0), cuboid()),
            Mixed::SphereCapsule => (Spec::Ball(1.0), capsule()),
            Mixed::SphereBoxGjk => (Spec::Ball(1.0), Spec::Hidden(Box::new(cuboid()))),
            Mixed::SphereCapsuleGjk => (Spec::Ball(1.0), Spec::Hidden(Box::new(capsule()))),
            Mixed::BoxHull => (cuboid(), hull32()),
            Mixed::CapsuleHull => (capsule(), hull32()),
        }
    }
}

/// A shape seen only through its support function, radius and centre: the core hooks (`cuboid_half_extents`,
/// `segment_core`) keep their `None` defaults, so the queries run the GJK loop on it.
pub struct Hidden<S>(pub S);

impl<V: Vector, S: SupportMap<V>> SupportMap<V> for Hidden<S> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    #[inline]
    fn radius(&self) -> V::Real {
        self.0.radius()
    }
    #[inline]
    fn center(&self) -> V {
        self.0.center()
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        self.0.polyhedral()
    }
    fn support_feature(&self, dir: V, out: &mut gjk::shape::Feature<V>) {
        self.0.support_feature(dir, out)
    }
}
