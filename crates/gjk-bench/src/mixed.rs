//! Mixed pairs: a sphere against a box or a capsule, the pairs the distance query answers in closed form
//! (`gjk`'s `analytic` room). Same regimes, queries and parry runners as the one-family cells ([`crate::cells`]),
//! with poses drawn the same way (B along a random direction from A, bisected on our f64 answer to the regime's
//! gap or depth, kept when parry agrees); criterion ids like `3D-f64/sphere-box/separated/distance/ours`.

use std::sync::Arc;

use gjk::math::{Iso, Real, Vector};
use gjk::shape::{Ball, Capsule, Cuboid, SupportMap};

use crate::cells::{our_runner, parry_runner, Contender, Who, QUERIES};
use crate::rng::{seed, Rng};
use crate::space::{Master, Space, Spec};
use crate::workload::{bisect_crossing, Regime, AGREE, CONTACT_PREDICTION, PAIRS, REGIMES};

/// A mixed pair: A is the unit sphere, B the benchmark's box or capsule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

/// The mixed pairs, each closed form with its GJK shadow.
pub const MIXED: [Mixed; 4] = [Mixed::SphereBox, Mixed::SphereBoxGjk, Mixed::SphereCapsule, Mixed::SphereCapsuleGjk];

impl Mixed {
    /// `sphere-box`, `sphere-box-gjk`, `sphere-capsule`, `sphere-capsule-gjk`.
    pub fn name(self) -> &'static str {
        match self {
            Mixed::SphereBox => "sphere-box",
            Mixed::SphereCapsule => "sphere-capsule",
            Mixed::SphereBoxGjk => "sphere-box-gjk",
            Mixed::SphereCapsuleGjk => "sphere-capsule-gjk",
        }
    }

    /// The closed-form pair this one shadows (itself for a closed-form pair): the poses are that pair's.
    fn base(self) -> Mixed {
        match self {
            Mixed::SphereBoxGjk => Mixed::SphereBox,
            Mixed::SphereCapsuleGjk => Mixed::SphereCapsule,
            m => m,
        }
    }

    fn specs<M: Vector>(self) -> (Spec<M>, Spec<M>) {
        let b = match self.base() {
            Mixed::SphereCapsule => Spec::Capsule(0.5, 0.5),
            _ => Spec::Cuboid(M::from_fn(|i| M::Real::from_f64([0.9, 0.6, 0.4][i]))),
        };
        (Spec::Ball(1.0), b)
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

/// A mixed cell: its id and its contenders (ours, parry).
pub struct MixedCell {
    /// `3D-f64/sphere-box/separated/distance`.
    pub id: String,
    /// Configurations per runner call.
    pub pairs: usize,
    /// The runners.
    pub contenders: Vec<Contender>,
}

/// Our shape of a spec in space `V` (only the specs of [`Mixed`]).
enum Other<V: Vector> {
    Cuboid(Cuboid<V>),
    Capsule(Capsule<V::Real>),
}

fn other<V: Space>(spec: &Spec<V::Master>) -> Other<V> {
    match spec {
        Spec::Cuboid(h) => Other::Cuboid(Cuboid::new(V::point(*h)).expect("box")),
        Spec::Capsule(hh, r) => {
            Other::Capsule(Capsule::new(V::Real::from_f64(*hh), V::Real::from_f64(*r)).expect("capsule"))
        }
        _ => panic!("a mixed pair's B is a box or a capsule"),
    }
}

/// Every mixed cell in space `V`: each pair, regime and query.
pub fn mixed_cells<V: Space>() -> Vec<MixedCell> {
    let mut out = Vec::new();
    for pair in MIXED {
        let (sa, sb) = pair.specs::<V::Master>();
        let ball = Ball::new(V::Real::ONE).expect("ball");
        let parry = (V::parry_shape(&sa).expect("parry ball"), V::parry_shape(&sb).expect("parry shape"));
        for regime in REGIMES {
            let master = poses::<V::Master>(pair.base(), &sa, &sb, regime);
            let ours: Arc<[(Iso<V>, Iso<V>)]> = master.iter().map(|(a, b)| (V::pose(a), V::pose(b))).collect();
            let theirs: Arc<[(V::PPose, V::PPose)]> =
                master.iter().map(|(a, b)| (V::parry_pose(a), V::parry_pose(b))).collect();
            for q in QUERIES {
                let hide = pair != pair.base();
                let run = match (other::<V>(&sb), hide) {
                    (Other::Cuboid(c), false) => our_runner(Arc::new((ball, c)), ours.clone(), q),
                    (Other::Capsule(c), false) => our_runner(Arc::new((ball, c)), ours.clone(), q),
                    (Other::Cuboid(c), true) => our_runner(Arc::new((ball, Hidden(c))), ours.clone(), q),
                    (Other::Capsule(c), true) => our_runner(Arc::new((ball, Hidden(c))), ours.clone(), q),
                };
                let contenders = vec![
                    Contender { who: Who::Ours, run },
                    Contender { who: Who::Parry, run: parry_runner::<V>(parry.clone(), theirs.clone(), q) },
                ];
                let id = format!(
                    "{}/{}/{}/{}",
                    V::NAME.replace(' ', "-"),
                    pair.name(),
                    regime.name().replace(' ', "-"),
                    q.name()
                );
                out.push(MixedCell { id, pairs: master.len(), contenders });
            }
        }
    }
    out
}

/// Our f64 signed distance (penetration query when `signed`, else the distance).
fn signed<M: Master, B: SupportMap<M>>(a: &Ball<M::Real>, pa: &Iso<M>, b: &B, pb: &Iso<M>, signed: bool) -> f64 {
    if signed {
        gjk::penetration(a, pa, b, pb).distance.to_f64()
    } else {
        gjk::distance(a, pa, b, pb).distance.to_f64()
    }
}

/// [`PAIRS`] configurations of the pair in the regime, from a fixed seed.
fn poses<M: Master>(pair: Mixed, sa: &Spec<M>, sb: &Spec<M>, regime: Regime) -> Vec<(Iso<M>, Iso<M>)> {
    let ball = Ball::new(M::Real::ONE).expect("ball");
    let b = other::<M>(sb);
    let ours = |pa: &Iso<M>, pb: &Iso<M>, s: bool| match &b {
        Other::Cuboid(c) => signed(&ball, pa, c, pb, s),
        Other::Capsule(c) => signed(&ball, pa, c, pb, s),
    };
    let (pa_shape, pb_shape) = (M::parry_shape(sa).expect("parry"), M::parry_shape(sb).expect("parry"));
    let is_signed = regime == Regime::Penetrating;
    let (lo, hi) = regime.range();
    let mut rng = Rng::new(seed(&[0x4D49_5845, pair as u64, regime as u64, M::DIM as u64]));
    let mut out = Vec::with_capacity(PAIRS);
    let mut draws = 0;
    while out.len() < PAIRS {
        draws += 1;
        assert!(draws < 100 * PAIRS, "{}: too many rejected draws", pair.name());
        let want = rng.range(lo, hi);
        let (ra, rb) = (M::random_rotation(&mut rng), M::random_rotation(&mut rng));
        let ta = M::random_in_cube(&mut rng);
        let u = M::random_unit(&mut rng);
        let pose_a = Iso::new(ra, ta);
        let at = |t: f64| Iso::new(rb, ta + u * <M::Real as Real>::from_f64(t));
        let f = |t: f64| ours(&pose_a, &at(t), is_signed) - want;
        let Some(t) = bisect_crossing(f, 0.0, 8.0) else { continue };
        let pose_b = at(t);
        let mine = ours(&pose_a, &pose_b, is_signed);
        let theirs = M::parry_contact(
            &M::parry_pose(&pose_a),
            &*pa_shape,
            &M::parry_pose(&pose_b),
            &*pb_shape,
            CONTACT_PREDICTION,
        );
        if theirs.is_some_and(|p| (p - mine).abs() <= AGREE * (1.0 + mine.abs())) && (mine - want).abs() <= AGREE {
            out.push((pose_a, pose_b));
        }
    }
    out
}

/// The mixed cells of the space named as in a cell id (`3D-f64`, …); empty for another name.
pub fn space_mixed_cells(space: &str) -> Vec<MixedCell> {
    let named = |n: &str| n.replace(' ', "-") == space;
    if named(<gjk::math::Vec3 as Space>::NAME) {
        mixed_cells::<gjk::math::Vec3>()
    } else if named(<gjk::math::DVec3 as Space>::NAME) {
        mixed_cells::<gjk::math::DVec3>()
    } else if named(<gjk::math::Vec2 as Space>::NAME) {
        mixed_cells::<gjk::math::Vec2>()
    } else if named(<gjk::math::DVec2 as Space>::NAME) {
        mixed_cells::<gjk::math::DVec2>()
    } else {
        Vec::new()
    }
}

/// The mixed cells of the four spaces.
pub fn all_mixed_cells() -> Vec<MixedCell> {
    let mut out = mixed_cells::<gjk::math::Vec3>();
    out.extend(mixed_cells::<gjk::math::DVec3>());
    out.extend(mixed_cells::<gjk::math::Vec2>());
    out.extend(mixed_cells::<gjk::math::DVec2>());
    out
}
