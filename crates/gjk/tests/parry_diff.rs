//! Differential test against parry (parry3d-f64 / parry2d-f64 0.31): at least 10,000 random pairs per shape family
//! shared with parry, each family against a random partner family, in random poses: separated, overlapping, and
//! nearly touching (B moved along our normal to a gap of 1e-4 … 1e-3, then both libraries measured there).
//!
//! Agreement is 1e-7 relative to max(distance, shape size): parry's GJK stops when its bounds meet to
//! √(10·eps) ≈ 4.7e-8 relative, ours to 64·eps. A larger disagreement is decided with the exact reference when one
//! exists — every family but cylinder and cone is a polytope core plus a radius (ball: a point; capsule: a
//! segment), so the brute-force distance between the cores minus the radii is exact — and counted as ours or
//! parry's error. Pairs with a cylinder or a cone are refereed by certified bounds instead, computed with closed
//! forms only: the separation along either library's normal (support functions) is a lower bound on the
//! distance, and either library's witness pair plus each point's exact distance to its shape is an upper bound;
//! an answer outside [lower, upper] (by more than 1e-9 relative) is wrong. The test fails if we are wrong, or if
//! we disagree with parry beyond 1e-7 and neither answer can be shown wrong. A sample of agreeing pairs (one in
//! 16) is also checked against the exact reference or the certified bounds.

use crate::common::*;
use gjk::math::{DVec2, DVec3, Iso, Rot2};
use gjk::shape::{Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Segment, SupportMap, Triangle};
use parry3d_f64::query::{closest_points, ClosestPoints};
use rand::rngs::SmallRng;
use rand::Rng;

/// Agreement with parry (see the module docs).
const AGREE: f64 = 1e-7;
/// Our accuracy against the exact reference.
const EXACT: f64 = 1e-9;
/// Pairs per family (A of that family, B of a random one).
const PAIRS: usize = 10_000;
/// Every this many pairs with a reference, ours is checked against it even when parry agrees.
const SPOT_EVERY: usize = 16;

/// The figures of one family.
#[derive(Default)]
struct Stats {
    pairs: usize,
    skipped: usize,
    near: usize,
    intersecting: usize,
    max_rel: f64,
    disagreements: usize,
    ours_wrong: usize,
    parry_wrong: usize,
    by_bounds: usize,
    undecided: usize,
    spot_checks: usize,
    spot_max: f64,
    iterations: u64,
    max_iterations: u32,
}

impl Stats {
    fn print(&self, name: &str) {
        println!(
            "{name:>10}: {} pairs ({} hulls rejected by parry, {} nearly touching, {} intersecting); max rel \
             disagreement {:.2e}; > {AGREE:e}: {} (ours wrong {}, parry wrong {}, {} of them by bounds, undecided {}); \
             spot checks {} max rel err {:.2e}; iterations mean {:.2} max {}",
            self.pairs,
            self.skipped,
            self.near,
            self.intersecting,
            self.max_rel,
            self.disagreements,
            self.ours_wrong,
            self.parry_wrong,
            self.by_bounds,
            self.undecided,
            self.spot_checks,
            self.spot_max,
            self.iterations as f64 / self.pairs.max(1) as f64,
            self.max_iterations
        );
    }
}

/// Collects failures so that one run reports all of them (the first few in full).
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(self) {
        let n = self.0.len();
        let shown: Vec<&String> = self.0.iter().take(5).collect();
        assert!(n == 0, "{n} failures; first ones:\n{shown:#?}");
    }
}

/// What can decide a disagreement.
enum Referee {
    /// The exact distance.
    Exact(f64),
    /// Certified bounds on the distance (see the module docs).
    Bounds { lower: f64, upper: f64 },
}

/// What to do with one measured pair: compare, decide with the referee, count.
#[allow(clippy::too_many_arguments)]
fn compare(
    stats: &mut Stats,
    failures: &mut Failures,
    ours: f64,
    intersecting: bool,
    iterations: u32,
    theirs: f64,
    size: f64,
    referee: &dyn Fn() -> Referee,
    describe: &dyn Fn() -> String,
) {
    stats.pairs += 1;
    stats.iterations += iterations as u64;
    stats.max_iterations = stats.max_iterations.max(iterations);
    stats.intersecting += intersecting as usize;
    if !(ours.is_finite() && ours >= 0.0) || (intersecting && ours != 0.0) {
        failures.0.push(format!("bad answer {ours} (intersecting {intersecting}): {}", describe()));
        return;
    }
    let rel = (ours - theirs).abs() / ours.max(size);
    stats.max_rel = stats.max_rel.max(rel);
    if rel > AGREE {
        stats.disagreements += 1;
        match referee() {
            Referee::Exact(want) => {
                let (our_err, their_err) = (rel_err(ours, want, size), rel_err(theirs, want, size));
                if our_err > EXACT {
                    stats.ours_wrong += 1;
                    failures.0.push(format!(
                        "ours {ours:e} parry {theirs:e} exact {want:e} (our rel err {our_err:e}): {}",
                        describe()
                    ));
                }
                if their_err > EXACT {
                    stats.parry_wrong += 1;
                }
            }
            Referee::Bounds { lower, upper } => {
                let slack = EXACT * size;
                let outside = |x: f64| x < lower - slack || x > upper + slack;
                if outside(ours) {
                    stats.ours_wrong += 1;
                    failures.0.push(format!(
                        "ours {ours:e} outside the certified [{lower:e}, {upper:e}] (parry {theirs:e}): {}",
                        describe()
                    ));
                } else if outside(theirs) {
                    stats.parry_wrong += 1;
                    stats.by_bounds += 1;
                } else {
                    stats.undecided += 1;
                    failures.0.push(format!(
                        "ours {ours:e} parry {theirs:e}, both within the certified [{lower:e}, {upper:e}]: {}",
                        describe()
                    ));
                }
            }
        }
    } else if stats.pairs.is_multiple_of(SPOT_EVERY) {
        stats.spot_checks += 1;
        match referee() {
            Referee::Exact(want) => {
                let err = rel_err(ours, want, size);
                stats.spot_max = stats.spot_max.max(err);
                if err > EXACT {
                    failures
                        .0
                        .push(format!("ours {ours:e} exact {want:e} (spot check, parry {theirs:e}): {}", describe()));
                }
            }
            Referee::Bounds { lower, upper } => {
                // Distance outside the certified interval, relative (0 inside it).
                let err = ((lower - ours).max(ours - upper).max(0.0)) / ours.max(size);
                stats.spot_max = stats.spot_max.max(err);
                if err > EXACT {
                    failures.0.push(format!(
                        "ours {ours:e} outside the certified [{lower:e}, {upper:e}] (spot check, parry {theirs:e}): {}",
                        describe()
                    ));
                }
            }
        }
    }
}

/// A gap for the nearly-touching pairs.
fn near_gap(rng: &mut SmallRng) -> f64 {
    log_uniform(rng, 1e-4, 1e-3)
}

// -------------------------------------------------------------------------------------------------------------
// 3D

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fam3 {
    Ball,
    Cuboid,
    Capsule,
    Cylinder,
    Cone,
    Hull,
    Segment,
    Triangle,
}

const FAMS3: [Fam3; 8] =
    [Fam3::Ball, Fam3::Cuboid, Fam3::Capsule, Fam3::Cylinder, Fam3::Cone, Fam3::Hull, Fam3::Segment, Fam3::Triangle];

#[derive(Clone, Debug)]
enum Spec3 {
    Ball(f64),
    Cuboid(DVec3),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Hull(Vec<DVec3>),
    Segment(DVec3, DVec3),
    Triangle(DVec3, DVec3, DVec3),
}

impl Spec3 {
    fn draw(rng: &mut SmallRng, fam: Fam3) -> Self {
        let mut size = || uniform(rng, 0.1, 1.5);
        match fam {
            Fam3::Ball => Spec3::Ball(size()),
            Fam3::Cuboid => Spec3::Cuboid(DVec3::new(size(), size(), size())),
            Fam3::Capsule => Spec3::Capsule(size(), 0.5 * size()),
            Fam3::Cylinder => Spec3::Cylinder(size(), size()),
            Fam3::Cone => Spec3::Cone(size(), size()),
            Fam3::Hull => {
                let axes = DVec3::new(uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5));
                Spec3::Hull((0..rng.gen_range(4..=8)).map(|_| in_cube3(rng, 1.0) * axes).collect())
            }
            Fam3::Segment => Spec3::Segment(in_cube3(rng, 1.5), in_cube3(rng, 1.5)),
            Fam3::Triangle => Spec3::Triangle(in_cube3(rng, 1.5), in_cube3(rng, 1.5), in_cube3(rng, 1.5)),
        }
    }

    fn ours(&self) -> Box<dyn SupportMap<DVec3>> {
        match self {
            Spec3::Ball(r) => Box::new(Ball::new(*r).unwrap()),
            Spec3::Cuboid(h) => Box::new(Cuboid::new(*h).unwrap()),
            Spec3::Capsule(hh, r) => Box::new(Capsule::new(*hh, *r).unwrap()),
            Spec3::Cylinder(hh, r) => Box::new(Cylinder::new(*hh, *r).unwrap()),
            Spec3::Cone(hh, r) => Box::new(Cone::new(*hh, *r).unwrap()),
            Spec3::Hull(p) => Box::new(ConvexPolytope::new(p).unwrap()),
            Spec3::Segment(a, b) => Box::new(Segment::new(*a, *b).unwrap()),
            Spec3::Triangle(a, b, c) => Box::new(Triangle::new(*a, *b, *c).unwrap()),
        }
    }

    /// parry's shape; `None` when parry rejects the hull.
    fn parry(&self) -> Option<Box<dyn parry3d_f64::shape::Shape>> {
        use parry3d_f64::shape as p;
        Some(match self {
            Spec3::Ball(r) => Box::new(p::Ball::new(*r)),
            Spec3::Cuboid(h) => Box::new(p::Cuboid::new(parry_vec3(*h))),
            Spec3::Capsule(hh, r) => Box::new(p::Capsule::new_y(*hh, *r)),
            Spec3::Cylinder(hh, r) => Box::new(p::Cylinder::new(*hh, *r)),
            Spec3::Cone(hh, r) => Box::new(p::Cone::new(*hh, *r)),
            Spec3::Hull(pts) => {
                let pts: Vec<_> = pts.iter().map(|&v| parry_vec3(v)).collect();
                Box::new(p::ConvexPolyhedron::from_convex_hull(&pts)?)
            }
            Spec3::Segment(a, b) => Box::new(p::Segment::new(parry_vec3(*a), parry_vec3(*b))),
            Spec3::Triangle(a, b, c) => Box::new(p::Triangle::new(parry_vec3(*a), parry_vec3(*b), parry_vec3(*c))),
        })
    }

    /// The shape as a polytope core (local vertices) and a radius, when it is one.
    fn core(&self) -> Option<(Vec<DVec3>, f64)> {
        match self {
            Spec3::Ball(r) => Some((vec![DVec3::ZERO], *r)),
            Spec3::Cuboid(h) => {
                Some(((0..8).map(|i| DVec3::new(h.x * sign(i, 0), h.y * sign(i, 1), h.z * sign(i, 2))).collect(), 0.0))
            }
            Spec3::Capsule(hh, r) => Some((vec![DVec3::new(0.0, -hh, 0.0), DVec3::new(0.0, *hh, 0.0)], *r)),
            Spec3::Cylinder(..) | Spec3::Cone(..) => None,
            Spec3::Hull(p) => Some((p.clone(), 0.0)),
            Spec3::Segment(a, b) => Some((vec![*a, *b], 0.0)),
            Spec3::Triangle(a, b, c) => Some((vec![*a, *b, *c], 0.0)),
        }
    }

    /// Radius of a ball about the local origin holding the shape.
    fn size(&self) -> f64 {
        match self {
            Spec3::Ball(r) => *r,
            Spec3::Cuboid(h) => h.length(),
            Spec3::Capsule(hh, r) => hh + r,
            Spec3::Cylinder(hh, r) | Spec3::Cone(hh, r) => hh.hypot(*r),
            Spec3::Hull(p) => p.iter().fold(0.0f64, |m, v| m.max(v.length())),
            Spec3::Segment(a, b) => a.length().max(b.length()),
            Spec3::Triangle(a, b, c) => a.length().max(b.length()).max(c.length()),
        }
    }
}

impl Spec3 {
    /// max over the shape of x·u (local frame), in closed form.
    fn support_value(&self, u: DVec3) -> f64 {
        let radial = u.x.hypot(u.z);
        let on = |pts: &[DVec3]| pts.iter().fold(f64::NEG_INFINITY, |m, p| m.max(p.dot(u)));
        match self {
            Spec3::Ball(r) => r * u.length(),
            Spec3::Cuboid(h) => h.dot(u.abs()),
            Spec3::Capsule(hh, r) => hh * u.y.abs() + r * u.length(),
            Spec3::Cylinder(hh, r) => hh * u.y.abs() + r * radial,
            Spec3::Cone(hh, r) => (hh * u.y).max(-hh * u.y + r * radial),
            Spec3::Hull(p) => on(p),
            Spec3::Segment(a, b) => on(&[*a, *b]),
            Spec3::Triangle(a, b, c) => on(&[*a, *b, *c]),
        }
    }

    /// Distance from the local point `p` to the shape (0 inside), in closed form. Cylinders and cones are solids of
    /// revolution about y: the nearest point lies in p's meridian half-plane, where the section is a rectangle or
    /// a triangle.
    fn point_distance(&self, p: DVec3) -> f64 {
        let to_polytope = |v: &[DVec3]| brute_distance3(&v.iter().map(|&q| q - p).collect::<Vec<_>>());
        let rho = p.x.hypot(p.z);
        match self {
            Spec3::Ball(r) => (p.length() - r).max(0.0),
            Spec3::Cuboid(h) => point_box3(p, *h).1,
            Spec3::Capsule(hh, r) => {
                let y = DVec3::new(0.0, *hh, 0.0);
                ((p - point_segment(p, -y, y)).length() - r).max(0.0)
            }
            Spec3::Cylinder(hh, r) => (rho - r).max(0.0).hypot((p.y.abs() - hh).max(0.0)),
            Spec3::Cone(hh, r) => {
                // Section: the triangle (0, hh), (0, −hh), (r, −hh) in (ρ, y).
                let q = DVec3::new(rho, p.y, 0.0);
                let inside = p.y >= -hh && p.y <= *hh && rho * 2.0 * hh <= r * (hh - p.y);
                if inside {
                    0.0
                } else {
                    let (apex, axis_foot, rim) =
                        (DVec3::new(0.0, *hh, 0.0), DVec3::new(0.0, -hh, 0.0), DVec3::new(*r, -hh, 0.0));
                    [(apex, axis_foot), (axis_foot, rim), (rim, apex)]
                        .iter()
                        .map(|&(a, b)| (q - point_segment(q, a, b)).length())
                        .fold(f64::INFINITY, f64::min)
                }
            }
            Spec3::Hull(v) => to_polytope(v),
            Spec3::Segment(a, b) => to_polytope(&[*a, *b]),
            Spec3::Triangle(a, b, c) => to_polytope(&[*a, *b, *c]),
        }
    }
}

/// Certified bounds on the distance between `sa` at `pa` and `sb` at `pb` from candidate witness pairs (world)
/// and candidate normals (world, from A toward B), with closed forms only (see the module docs).
fn certified_bounds(
    (sa, pa): (&Spec3, &Iso<DVec3>),
    (sb, pb): (&Spec3, &Iso<DVec3>),
    witnesses: &[(DVec3, DVec3)],
    normals: &[DVec3],
) -> (f64, f64) {
    let mut upper = f64::INFINITY;
    for &(a, b) in witnesses.iter().filter(|(a, b)| a.is_finite() && b.is_finite()) {
        let off_a = sa.point_distance(pa.inverse_transform_point(a));
        let off_b = sb.point_distance(pb.inverse_transform_point(b));
        upper = upper.min((b - a).length() + off_a + off_b);
    }
    // In A's frame: B's points are rel_r·x + rel_t.
    let rel_t = pa.rotation.inverse() * (pb.translation - pa.translation);
    let rel_r = pa.rotation.inverse() * pb.rotation;
    let mut lower = 0.0f64;
    for n in normals.iter().filter(|n| n.is_finite() && n.length() > 0.5) {
        let u = (pa.rotation.inverse() * *n).normalize();
        // min over B of x·u minus max over A of x·u.
        let gap = rel_t.dot(u) - sb.support_value(-(rel_r.inverse() * u)) - sa.support_value(u);
        lower = lower.max(gap);
    }
    (lower, upper)
}

/// ±1 from bit `k` of `i` (box corners).
fn sign(i: usize, k: usize) -> f64 {
    if (i >> k) & 1 == 1 {
        1.0
    } else {
        -1.0
    }
}

/// The exact distance between two core-plus-radius shapes: brute force on the cores' world vertices.
fn exact3(a: &(Vec<DVec3>, f64), pa: &Iso<DVec3>, b: &(Vec<DVec3>, f64), pb: &Iso<DVec3>) -> f64 {
    // In A's frame, translations subtracted first (as the queries do).
    let wa: Vec<DVec3> = a.0.clone();
    let wb: Vec<DVec3> =
        b.0.iter().map(|&p| pa.rotation.inverse() * (pb.rotation * p + (pb.translation - pa.translation))).collect();
    (brute_distance3(&differences(&wa, &wb)) - a.1 - b.1).max(0.0)
}

fn family_3d(fam: Fam3, seed: u64) -> (Stats, Failures) {
    let mut rng = rng(seed);
    let mut stats = Stats::default();
    let mut failures = Failures::default();
    while stats.pairs < PAIRS {
        let partner = FAMS3[rng.gen_range(0..FAMS3.len())];
        let (sa, sb) = (Spec3::draw(&mut rng, fam), Spec3::draw(&mut rng, partner));
        let (Some(qa), Some(qb)) = (sa.parry(), sb.parry()) else {
            stats.skipped += 1;
            continue;
        };
        let (oa, ob) = (sa.ours(), sb.ours());
        let size = sa.size().max(sb.size());
        let pa = pose3(&mut rng, 2.0);
        let reach = 1.5 * (sa.size() + sb.size());
        let mut pb = Iso::new(unit_quat(&mut rng), pa.translation + unit3(&mut rng) * uniform(&mut rng, 0.0, reach));
        let mut d = gjk::distance(&*oa, &pa, &*ob, &pb);
        let near = rng.gen_bool(0.3) && !d.intersecting && d.distance > 1e-3;
        if near {
            pb.translation -= d.normal * (d.distance - near_gap(&mut rng));
            d = gjk::distance(&*oa, &pa, &*ob, &pb);
            stats.near += 1;
        }
        let theirs = parry3d_f64::query::distance(&parry_pose3(&pa), &*qa, &parry_pose3(&pb), &*qb)
            .expect("parry supports every pair of these shapes")
            .distance;
        let cores = sa.core().zip(sb.core());
        let (ppa, ppb) = (parry_pose3(&pa), parry_pose3(&pb));
        let referee = || match &cores {
            Some((ca, cb)) => Referee::Exact(exact3(ca, &pa, cb, &pb)),
            None => {
                let mut witnesses = vec![(d.point_a, d.point_b)];
                let mut normals = vec![d.normal];
                if let Ok(ClosestPoints::WithinMargin(a, b)) = closest_points(&ppa, &*qa, &ppb, &*qb, 1e3) {
                    let (a, b) = (DVec3::new(a.x, a.y, a.z), DVec3::new(b.x, b.y, b.z));
                    witnesses.push((a, b));
                    normals.push((b - a).normalize_or_zero());
                }
                let (lower, upper) = certified_bounds((&sa, &pa), (&sb, &pb), &witnesses, &normals);
                Referee::Bounds { lower, upper }
            }
        };
        let describe = || format!("{fam:?}-{partner:?} A {sa:?} {pa:?} B {sb:?} {pb:?} -> {d:?}");
        compare(&mut stats, &mut failures, d.distance, d.intersecting, d.iterations, theirs, size, &referee, &describe);
    }
    (stats, failures)
}

#[test]
fn parry3d_differential_all_families() {
    let mut all = Failures::default();
    for (i, fam) in FAMS3.into_iter().enumerate() {
        let (stats, failures) = family_3d(fam, 200 + i as u64);
        stats.print(&format!("{fam:?}"));
        all.0.extend(failures.0);
    }
    all.check();
}

// -------------------------------------------------------------------------------------------------------------
// 2D

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fam2 {
    Ball,
    Cuboid,
    Capsule,
    Polygon,
    Segment,
}

const FAMS2: [Fam2; 5] = [Fam2::Ball, Fam2::Cuboid, Fam2::Capsule, Fam2::Polygon, Fam2::Segment];

#[derive(Clone, Debug)]
enum Spec2 {
    Ball(f64),
    Cuboid(DVec2),
    Capsule(f64, f64),
    Polygon(Vec<DVec2>),
    Segment(DVec2, DVec2),
}

impl Spec2 {
    fn draw(rng: &mut SmallRng, fam: Fam2) -> Self {
        let mut size = || uniform(rng, 0.1, 1.5);
        match fam {
            Fam2::Ball => Spec2::Ball(size()),
            Fam2::Cuboid => Spec2::Cuboid(DVec2::new(size(), size())),
            Fam2::Capsule => Spec2::Capsule(size(), 0.5 * size()),
            Fam2::Polygon => {
                let axes = DVec2::new(uniform(rng, 0.2, 1.5), uniform(rng, 0.2, 1.5));
                Spec2::Polygon((0..rng.gen_range(3..=8)).map(|_| in_square2(rng, 1.0) * axes).collect())
            }
            Fam2::Segment => Spec2::Segment(in_square2(rng, 1.5), in_square2(rng, 1.5)),
        }
    }

    fn ours(&self) -> Box<dyn SupportMap<DVec2>> {
        match self {
            Spec2::Ball(r) => Box::new(Ball::new(*r).unwrap()),
            Spec2::Cuboid(h) => Box::new(Cuboid::new(*h).unwrap()),
            Spec2::Capsule(hh, r) => Box::new(Capsule::new(*hh, *r).unwrap()),
            Spec2::Polygon(p) => Box::new(ConvexPolytope::new(p).unwrap()),
            Spec2::Segment(a, b) => Box::new(Segment::new(*a, *b).unwrap()),
        }
    }

    fn parry(&self) -> Option<Box<dyn parry2d_f64::shape::Shape>> {
        use parry2d_f64::shape as p;
        Some(match self {
            Spec2::Ball(r) => Box::new(p::Ball::new(*r)),
            Spec2::Cuboid(h) => Box::new(p::Cuboid::new(parry_vec2(*h))),
            Spec2::Capsule(hh, r) => Box::new(p::Capsule::new_y(*hh, *r)),
            Spec2::Polygon(pts) => {
                let pts: Vec<_> = pts.iter().map(|&v| parry_vec2(v)).collect();
                Box::new(p::ConvexPolygon::from_convex_hull(&pts)?)
            }
            Spec2::Segment(a, b) => Box::new(p::Segment::new(parry_vec2(*a), parry_vec2(*b))),
        })
    }

    fn core(&self) -> (Vec<DVec2>, f64) {
        match self {
            Spec2::Ball(r) => (vec![DVec2::ZERO], *r),
            Spec2::Cuboid(h) => ((0..4).map(|i| DVec2::new(h.x * sign(i, 0), h.y * sign(i, 1))).collect(), 0.0),
            Spec2::Capsule(hh, r) => (vec![DVec2::new(0.0, -hh), DVec2::new(0.0, *hh)], *r),
            Spec2::Polygon(p) => (p.clone(), 0.0),
            Spec2::Segment(a, b) => (vec![*a, *b], 0.0),
        }
    }

    fn size(&self) -> f64 {
        match self {
            Spec2::Ball(r) => *r,
            Spec2::Cuboid(h) => h.length(),
            Spec2::Capsule(hh, r) => hh + r,
            Spec2::Polygon(p) => p.iter().fold(0.0f64, |m, v| m.max(v.length())),
            Spec2::Segment(a, b) => a.length().max(b.length()),
        }
    }
}

fn exact2(a: &(Vec<DVec2>, f64), pa: &Iso<DVec2>, b: &(Vec<DVec2>, f64), pb: &Iso<DVec2>) -> f64 {
    use gjk::math::Rotation;
    let wb: Vec<DVec2> =
        b.0.iter()
            .map(|&p| pa.rotation.inverse_rotate(pb.rotation.rotate(p) + (pb.translation - pa.translation)))
            .collect();
    (brute_distance2(&differences(&a.0, &wb)) - a.1 - b.1).max(0.0)
}

fn family_2d(fam: Fam2, seed: u64) -> (Stats, Failures) {
    let mut rng = rng(seed);
    let mut stats = Stats::default();
    let mut failures = Failures::default();
    while stats.pairs < PAIRS {
        let partner = FAMS2[rng.gen_range(0..FAMS2.len())];
        let (sa, sb) = (Spec2::draw(&mut rng, fam), Spec2::draw(&mut rng, partner));
        let (Some(qa), Some(qb)) = (sa.parry(), sb.parry()) else {
            stats.skipped += 1;
            continue;
        };
        let (oa, ob) = (sa.ours(), sb.ours());
        let size = sa.size().max(sb.size());
        let pa = pose2(&mut rng, 2.0);
        let reach = 1.5 * (sa.size() + sb.size());
        let mut pb = Iso::new(
            Rot2::from_angle(angle(&mut rng)),
            pa.translation + unit2(&mut rng) * uniform(&mut rng, 0.0, reach),
        );
        let mut d = gjk::distance(&*oa, &pa, &*ob, &pb);
        let near = rng.gen_bool(0.3) && !d.intersecting && d.distance > 1e-3;
        if near {
            pb.translation -= d.normal * (d.distance - near_gap(&mut rng));
            d = gjk::distance(&*oa, &pa, &*ob, &pb);
            stats.near += 1;
        }
        let theirs = parry2d_f64::query::distance(&parry_pose2(&pa), &*qa, &parry_pose2(&pb), &*qb)
            .expect("parry supports every pair of these shapes")
            .distance;
        let (ca, cb) = (sa.core(), sb.core());
        let referee = || Referee::Exact(exact2(&ca, &pa, &cb, &pb));
        let describe = || format!("{fam:?}-{partner:?} A {sa:?} {pa:?} B {sb:?} {pb:?} -> {d:?}");
        compare(&mut stats, &mut failures, d.distance, d.intersecting, d.iterations, theirs, size, &referee, &describe);
    }
    (stats, failures)
}

#[test]
fn parry2d_differential_all_families() {
    let mut all = Failures::default();
    for (i, fam) in FAMS2.into_iter().enumerate() {
        let (stats, failures) = family_2d(fam, 300 + i as u64);
        stats.print(&format!("{fam:?}"));
        all.0.extend(failures.0);
    }
    all.check();
}
