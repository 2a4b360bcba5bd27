//! The workload: shape pairs of about unit size in random poses, from a fixed seed, in three regimes.
//!
//! A pair is two shapes of one family (for hulls, two different point clouds). Each pair gets [`PAIRS`] random
//! configurations: random rotations, A at a random point of the unit cube, B at A's position plus `t · u` for a
//! random unit `u`, with `t` found by bisection so that *our* f64 answer is the wanted one: a gap of 0.5–1.5
//! (separated) or 1e-4–1e-3 (nearly touching) by our `distance`, a depth of 0.05–0.3 (penetrating) by our
//! `penetration`. parry (f64, `contact`) then measures the same configuration: a draw on which the two libraries
//! disagree by more than [`AGREE`] (or on which the bisection could not reach the wanted value: our answer jumps
//! there) is rejected and redrawn, and counted, so every library is timed on configurations whose answer is
//! settled.

use std::sync::Arc;

use gjk::math::{DVec2, DVec3, Iso, Real, Vector};
use gjk::shape::SupportMap;
use gjk::Status;

use crate::mixed::Mixed;
use crate::rng::{seed, Rng};
use crate::space::{Master, Spec, Visitor};

/// Configurations per pair and regime: every cell iterates over all of them, so its median is over varied inputs.
pub const PAIRS: usize = 64;

/// Largest disagreement between our and parry's signed distance (absolute, plus the same relative to the
/// distance) for a configuration to be kept.
pub const AGREE: f64 = 1e-5;

/// The prediction distance given to parry's `contact`, larger than every gap of the workload, so that parry, like
/// our `penetration`, computes the signed distance of every configuration (not just "farther than the
/// prediction").
pub const CONTACT_PREDICTION: f64 = 2.0;

/// A family of shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Sphere of radius 1.
    Sphere,
    /// Box of half-extents (0.9, 0.6, 0.4).
    Box,
    /// Capsule of half-height 0.5 and radius 0.5.
    Capsule,
    /// Cylinder of half-height 0.6 and radius 0.6.
    Cylinder,
    /// Cone of half-height 0.6 and base radius 0.6.
    Cone,
    /// Ellipsoid of semi-axes (0.9, 0.6, 0.4) (parry has no ellipsoid: ours alone).
    Ellipsoid,
    /// Elongated box of half-extents (4, 0.25, 0.1).
    LongBox,
    /// Convex hull of this many random points on the unit sphere.
    Hull(usize),
    /// 2D: convex hull of this many random points on the unit circle.
    Polygon(usize),
    /// Two shapes of different families (see [`crate::mixed`]).
    Mixed(Mixed),
}

/// The 3D pairs.
pub const KINDS_3D: [Kind; 17] = [
    Kind::Sphere,
    Kind::Box,
    Kind::LongBox,
    Kind::Capsule,
    Kind::Cylinder,
    Kind::Cone,
    Kind::Ellipsoid,
    Kind::Hull(32),
    Kind::Hull(256),
    Kind::Hull(2048),
    Kind::Hull(8192),
    Kind::Mixed(Mixed::SphereBox),
    Kind::Mixed(Mixed::SphereBoxGjk),
    Kind::Mixed(Mixed::SphereCapsule),
    Kind::Mixed(Mixed::SphereCapsuleGjk),
    Kind::Mixed(Mixed::BoxHull),
    Kind::Mixed(Mixed::CapsuleHull),
];

/// The 2D pairs.
pub const KINDS_2D: [Kind; 8] = [
    Kind::Polygon(8),
    Kind::Polygon(64),
    Kind::Polygon(512),
    Kind::Polygon(2048),
    Kind::Mixed(Mixed::SphereBox),
    Kind::Mixed(Mixed::SphereBoxGjk),
    Kind::Mixed(Mixed::SphereCapsule),
    Kind::Mixed(Mixed::SphereCapsuleGjk),
];

impl Kind {
    /// Short name: `sphere`, `box`, `hull256`, `polygon8`, …
    pub fn name(self) -> String {
        match self {
            Kind::Sphere => "sphere".into(),
            Kind::Box => "box".into(),
            Kind::Capsule => "capsule".into(),
            Kind::Cylinder => "cylinder".into(),
            Kind::Cone => "cone".into(),
            Kind::Ellipsoid => "ellipsoid".into(),
            Kind::LongBox => "longbox".into(),
            Kind::Hull(n) => format!("hull{n}"),
            Kind::Polygon(n) => format!("polygon{n}"),
            Kind::Mixed(m) => m.name().into(),
        }
    }

    fn code(self) -> u64 {
        match self {
            Kind::Sphere => 1,
            Kind::Box => 2,
            Kind::Capsule => 3,
            Kind::Cylinder => 4,
            Kind::Cone => 5,
            Kind::Ellipsoid => 6,
            Kind::LongBox => 7,
            Kind::Hull(n) => 0x100 + n as u64,
            Kind::Polygon(n) => 0x10_0000 + n as u64,
            // A GJK shadow draws its base pair's poses.
            Kind::Mixed(m) => 0x4D49_5845_0000 + m.base() as u64,
        }
    }

    /// A's and B's shapes (3D families).
    pub fn specs3(self) -> (Spec<DVec3>, Spec<DVec3>) {
        let one = match self {
            Kind::Sphere => Spec::Ball(1.0),
            Kind::Box => Spec::Cuboid(DVec3::new(0.9, 0.6, 0.4)),
            Kind::Capsule => Spec::Capsule(0.5, 0.5),
            Kind::Cylinder => Spec::Cylinder(0.6, 0.6),
            Kind::Cone => Spec::Cone(0.6, 0.6),
            Kind::Ellipsoid => Spec::Ellipsoid(DVec3::new(0.9, 0.6, 0.4)),
            Kind::LongBox => Spec::Cuboid(DVec3::new(4.0, 0.25, 0.1)),
            Kind::Hull(n) => {
                let mut rng = Rng::new(seed(&[self.code(), 0xC10D]));
                let mut cloud = || Spec::Hull((0..n).map(|_| rng.on_sphere()).collect());
                return (cloud(), cloud());
            }
            Kind::Polygon(_) => panic!("{} is a 2D family", self.name()),
            Kind::Mixed(m) => return m.specs(),
        };
        (one.clone(), one)
    }

    /// A's and B's shapes (2D families).
    pub fn specs2(self) -> (Spec<DVec2>, Spec<DVec2>) {
        match self {
            Kind::Polygon(n) => {
                let mut rng = Rng::new(seed(&[self.code(), 0xC10D]));
                let mut cloud = || Spec::Hull((0..n).map(|_| rng.on_circle()).collect());
                (cloud(), cloud())
            }
            Kind::Mixed(m) => m.specs(),
            _ => panic!("{} is a 3D family", self.name()),
        }
    }
}

/// How the shapes of a configuration sit relative to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Regime {
    /// Gap 0.5–1.5.
    Separated,
    /// Gap 1e-4–1e-3.
    Touching,
    /// Depth 0.05–0.3.
    Penetrating,
}

/// The three regimes.
pub const REGIMES: [Regime; 3] = [Regime::Separated, Regime::Touching, Regime::Penetrating];

impl Regime {
    /// Name used in the report.
    pub fn name(self) -> &'static str {
        match self {
            Regime::Separated => "separated",
            Regime::Touching => "nearly touching",
            Regime::Penetrating => "penetrating",
        }
    }

    /// The range of signed distances of the regime (negative: a depth).
    pub fn range(self) -> (f64, f64) {
        match self {
            Regime::Separated => (0.5, 1.5),
            Regime::Touching => (1e-4, 1e-3),
            Regime::Penetrating => (-0.3, -0.05),
        }
    }

    fn code(self) -> u64 {
        self as u64 + 1
    }
}

/// The configurations of one pair in one regime (master precision, f64).
#[derive(Clone, Debug)]
pub struct Workload<M: Vector> {
    /// The family.
    pub kind: Kind,
    /// The regime.
    pub regime: Regime,
    /// A's shape.
    pub spec_a: Spec<M>,
    /// B's shape.
    pub spec_b: Spec<M>,
    /// A's and B's poses, one per configuration.
    pub poses: Vec<(Iso<M>, Iso<M>)>,
    /// The signed distance asked of each configuration.
    pub wanted: Vec<f64>,
    /// Our f64 signed distance there (from the bisection).
    pub ours: Vec<f64>,
    /// parry's f64 signed distance there (`contact` with a large prediction), `None` when parry gave no contact.
    pub parry: Vec<Option<f64>>,
    /// Whether parry has these shapes (no ellipsoid): without them the draws are checked by ours alone.
    pub parry_checked: bool,
    /// Draws rejected because the bisection missed the wanted value or parry disagreed.
    pub rejected: Vec<Rejected<M>>,
    /// Our query's status at each kept configuration.
    pub statuses: Vec<Status>,
}

/// A rejected draw (kept for the report: a disagreement between the libraries).
#[derive(Clone, Copy, Debug)]
pub struct Rejected<M: Vector> {
    /// A's and B's poses.
    pub poses: (Iso<M>, Iso<M>),
    /// The signed distance asked.
    pub wanted: f64,
    /// Ours at the bisected pose.
    pub ours: f64,
    /// Our query's status there.
    pub status: Status,
    /// parry's there.
    pub parry: Option<f64>,
}

/// Our f64 answer as a function of the two poses (built from concrete shapes): the distance, or with `signed` the
/// penetration query's signed distance; and whether the query converged.
struct Ours;

type OursFn<M> = Box<dyn Fn(&Iso<M>, &Iso<M>, bool) -> (f64, Status)>;

impl<M: Master> Visitor<M> for Ours {
    type Out = OursFn<M>;
    fn visit<A, B>(self, a: A, b: B) -> OursFn<M>
    where
        A: SupportMap<M> + Send + Sync + 'static,
        B: SupportMap<M> + Send + Sync + 'static,
    {
        Box::new(move |pa, pb, signed| {
            if signed {
                let p = gjk::penetration(&a, pa, &b, pb);
                (p.distance.to_f64(), p.status)
            } else {
                let d = gjk::distance(&a, pa, &b, pb);
                (d.distance.to_f64(), d.status)
            }
        })
    }
}

/// Generates the workload of a pair in a regime: `pairs` configurations (the benchmarks use [`PAIRS`]).
/// The least `t` in [`lo`, `hi`] (to the last bit the bisection can split) where `f` is no longer negative, for `f`
/// negative at `lo` and positive at `hi`; `None` when it is not (the draw is rejected).
pub(crate) fn bisect_crossing(f: impl Fn(f64) -> f64, lo: f64, hi: f64) -> Option<f64> {
    let (mut t0, mut t1) = (lo, hi);
    if !(f(t0) < 0.0 && f(t1) > 0.0) {
        return None;
    }
    for _ in 0..200 {
        let mid = 0.5 * (t0 + t1);
        if mid <= t0 || mid >= t1 {
            break;
        }
        if f(mid) < 0.0 {
            t0 = mid;
        } else {
            t1 = mid;
        }
    }
    Some(t1)
}

pub fn generate<M: Master>(kind: Kind, regime: Regime, spec_a: Spec<M>, spec_b: Spec<M>, pairs: usize) -> Workload<M> {
    let ours = M::visit(&spec_a, &spec_b, Ours);
    let signed = regime == Regime::Penetrating;
    let parry = (M::parry_shape(&spec_a), M::parry_shape(&spec_b));
    let mut rng = Rng::new(seed(&[kind.code(), regime.code()]));
    let (lo, hi) = regime.range();
    let far = far_apart(&spec_a, &spec_b);
    let mut w = Workload {
        kind,
        regime,
        spec_a,
        spec_b,
        poses: Vec::with_capacity(pairs),
        wanted: Vec::new(),
        ours: Vec::new(),
        parry: Vec::new(),
        parry_checked: parry.0.is_some() && parry.1.is_some(),
        rejected: Vec::new(),
        statuses: Vec::new(),
    };
    while w.poses.len() < pairs {
        assert!(w.rejected.len() <= 10 * pairs + 100, "{} {}: too many rejected draws", kind.name(), regime.name());
        let want = rng.range(lo, hi);
        let (ra, rb) = (M::random_rotation(&mut rng), M::random_rotation(&mut rng));
        let ta = M::random_in_cube(&mut rng);
        let u = M::random_unit(&mut rng);
        let pose_a = Iso::new(ra, ta);
        let at = |t: f64| Iso::new(rb, ta + u * <M::Real as Real>::from_f64(t));
        let f = |t: f64| ours(&pose_a, &at(t), signed).0 - want;
        // t = 0 puts the shapes' origins together (deep overlap); t = `far` is far apart.
        let Some(t) = bisect_crossing(f, 0.0, far) else { continue };
        let pose_b = at(t);
        let (mine, status) = ours(&pose_a, &pose_b, signed);
        let theirs = match &parry {
            (Some(a), Some(b)) => {
                M::parry_contact(&M::parry_pose(&pose_a), &**a, &M::parry_pose(&pose_b), &**b, CONTACT_PREDICTION)
            }
            _ => None,
        };
        let agree = !w.parry_checked || theirs.is_some_and(|p| (p - mine).abs() <= AGREE * (1.0 + mine.abs()));
        // Not converging is no reason to reject: `Stalled` with the right value is a valid answer (curved shapes in
        // f64 often end so), and rejecting it would bias the workload towards configurations that are easy for us.
        if !agree || (mine - want).abs() > AGREE {
            w.rejected.push(Rejected { poses: (pose_a, pose_b), wanted: want, ours: mine, status, parry: theirs });
            continue;
        }
        w.poses.push((pose_a, pose_b));
        w.wanted.push(want);
        w.ours.push(mine);
        w.parry.push(theirs);
        w.statuses.push(status);
    }
    w
}

/// A distance along which B, moved from A's position, is surely apart from A by more than every regime's gap:
/// 8 for the unit-size shapes, more for long ones.
fn far_apart<M: Vector>(a: &Spec<M>, b: &Spec<M>) -> f64 {
    8f64.max(2.0 * (a.reach() + b.reach()) + 2.0)
}

/// The 3D workload of a family in a regime.
pub fn workload3(kind: Kind, regime: Regime, pairs: usize) -> Workload<DVec3> {
    workload(kind, regime, pairs)
}

/// The 2D workload of a family in a regime.
pub fn workload2(kind: Kind, regime: Regime, pairs: usize) -> Workload<DVec2> {
    workload(kind, regime, pairs)
}

/// The workload of a family in a regime, in the dimension of `M`. A GJK shadow of a mixed pair gets its base
/// pair's configurations, exactly (generated on the base pair), with its own shapes.
pub fn workload<M: Master>(kind: Kind, regime: Regime, pairs: usize) -> Workload<M> {
    if let Kind::Mixed(m) = kind {
        if m.base() != m {
            let (a, b) = M::specs(kind);
            return Workload { kind, spec_a: a, spec_b: b, ..workload::<M>(Kind::Mixed(m.base()), regime, pairs) };
        }
    }
    let (a, b) = M::specs(kind);
    generate(kind, regime, a, b, pairs)
}

/// Every workload of a dimension: each family in each regime.
pub fn all<M: Master>(
    kinds: &[Kind],
    pairs: usize,
    make: fn(Kind, Regime, usize) -> Workload<M>,
) -> Vec<Arc<Workload<M>>> {
    kinds.iter().flat_map(|&k| REGIMES.iter().map(move |&r| Arc::new(make(k, r, pairs)))).collect()
}

/// How well a workload hit its regime, as measured by both libraries.
#[derive(Clone, Copy, Debug, Default)]
pub struct Check {
    /// Largest |ours − wanted|.
    pub ours_off: f64,
    /// Largest |parry − ours|.
    pub parry_off: f64,
    /// Configurations parry places outside the regime's range (nearly touching: not apart), or gives no contact
    /// for.
    pub parry_outside: usize,
    /// Configurations.
    pub pairs: usize,
    /// Draws rejected (see [`Workload::rejected`]).
    pub rejected: usize,
    /// Of those, draws where our query did not converge.
    pub rejected_not_converged: usize,
    /// Kept configurations where our query ended other than `Converged` (with the right value).
    pub kept_not_converged: usize,
    /// Whether parry measured the configurations (it has the shapes).
    pub parry_checked: bool,
}

impl<M: Vector> Workload<M> {
    /// Agreement of the configuration with its regime.
    pub fn check(&self) -> Check {
        let (lo, hi) = self.regime.range();
        let mut c = Check {
            pairs: self.poses.len(),
            rejected: self.rejected.len(),
            rejected_not_converged: self.rejected.iter().filter(|r| r.status != Status::Converged).count(),
            kept_not_converged: self.statuses.iter().filter(|&&s| s != Status::Converged).count(),
            parry_checked: self.parry_checked,
            ..Check::default()
        };
        for i in 0..self.poses.len() {
            c.ours_off = c.ours_off.max((self.ours[i] - self.wanted[i]).abs());
            match self.parry[i] {
                _ if !self.parry_checked => {}
                Some(p) => {
                    c.parry_off = c.parry_off.max((p - self.ours[i]).abs());
                    // Nearly touching: parry must see the gap (its tolerance is coarser than the regime's range).
                    let inside = match self.regime {
                        Regime::Touching => p > 0.0,
                        _ => p >= lo - 1e-6 && p <= hi + 1e-6,
                    };
                    if !inside {
                        c.parry_outside += 1;
                    }
                }
                None => c.parry_outside += 1,
            }
        }
        c
    }
}
