//! Contact manifolds of slivers and needles: boxes and hulls a billionth of their length thin (or a millionth, in
//! f32) against ordinary hulls, overlapping. Two properties, checked independently of the clipper: every contact
//! point lies on its shape (against the hull's own facet planes, found from its vertices alone), and no contact is
//! deeper than the penetration depth (`gjk::penetration`), both to rounding.

use crate::common::{rng, uniform, unit_quat, Space3};
use gjk::manifold::contact_manifold;
use gjk::math::{DQuat, DVec3, Iso, Vec3};
use gjk::shape::{ConvexPolytope, Cuboid, SupportMap};
use rand::Rng;
use std::f64::consts::FRAC_1_SQRT_2;

/// A test body: a convex hull of `pts` (local), or the box with those corners (`half` its half-extents), at `pose`.
#[derive(Clone)]
struct Body {
    pts: Vec<DVec3>,
    half: Option<DVec3>,
    pose: Iso<DVec3>,
}

impl Body {
    fn hull(pts: &[[f64; 3]], pose: Iso<DVec3>) -> Self {
        Self { pts: pts.iter().map(|p| DVec3::from_array(*p)).collect(), half: None, pose }
    }

    fn cuboid(half: DVec3, pose: Iso<DVec3>) -> Self {
        let pts = (0..8)
            .map(|i| {
                DVec3::new([-1.0, 1.0][i & 1] * half.x, [-1.0, 1.0][i >> 1 & 1] * half.y, [-1.0, 1.0][i >> 2] * half.z)
            })
            .collect();
        Self { pts, half: Some(half), pose }
    }

    /// The body as space `V` holds it, read back in f64: what the query in `V` is given, exactly.
    fn cast<V: Space3>(&self) -> Self {
        let round = |p: DVec3| V::from64(p).to64();
        Self {
            pts: self.pts.iter().map(|&p| round(p)).collect(),
            half: self.half.map(round),
            pose: V::pose_to64(&V::pose_from64(&self.pose)),
        }
    }

    fn shape<V: Space3>(&self) -> Box<dyn SupportMap<V>> {
        match self.half {
            Some(h) => Box::new(Cuboid::new(V::from64(h)).unwrap()),
            None => Box::new(ConvexPolytope::new(&self.pts.iter().map(|&p| V::from64(p)).collect::<Vec<V>>()).unwrap()),
        }
    }

    /// How far `p` (world) lies outside the body: the most it lies beyond the plane through any three vertices, in
    /// either orientation, past the body's farthest vertex along that plane's normal. Every facet of a hull lies in
    /// such a plane, so this is zero inside and the distance beyond the farthest facet plane outside; any other
    /// plane (of a nearly collinear triple, its normal rounding noise) is still a valid support direction.
    fn outside_by(&self, p: DVec3) -> f64 {
        let q = self.pose.inverse_transform_point(p);
        let pts = &self.pts;
        let mut worst: f64 = 0.0;
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                for k in j + 1..pts.len() {
                    let n = (pts[j] - pts[i]).cross(pts[k] - pts[i]).normalize_or_zero();
                    for n in [n, -n] {
                        let top = pts.iter().fold(f64::NEG_INFINITY, |m, v| m.max(n.dot(*v)));
                        worst = worst.max(n.dot(q) - top);
                    }
                }
            }
        }
        worst
    }
}

/// Checks the manifold of `a` and `b` in space `V` (both given as `V` holds them): every contact's points on their
/// bodies and no contact deeper than the penetration depth, within `tol`. Ok(false) (nothing checked) when the
/// penetration query finds them apart or does not converge; Err with what broke.
fn check<V: Space3>(a: &Body, b: &Body, prediction: f64, tol: f64, what: &str) -> Result<bool, String> {
    let (a, b) = (a.cast::<V>(), b.cast::<V>());
    let (sa, sb) = (a.shape::<V>(), b.shape::<V>());
    let (pa, pb) = (V::pose_from64(&a.pose), V::pose_from64(&b.pose));
    let p = gjk::penetration(&*sa, &pa, &*sb, &pb);
    if !p.intersecting || p.status != gjk::Status::Converged {
        return Ok(false);
    }
    let depth = gjk::math::Real::to_f64(p.depth);
    let m = contact_manifold(&*sa, &pa, &*sb, &pb, gjk::math::Real::from_f64(prediction));
    let name = V::NAME;
    if m.len == 0 {
        return Err(format!("{what} ({name}): overlapping shapes without a contact"));
    }
    for c in m.contacts() {
        let (ca, cb) = (c.point_a.to64(), c.point_b.to64());
        let (oa, ob) = (a.outside_by(ca), b.outside_by(cb));
        if oa.is_nan() || oa > tol {
            return Err(format!("{what} ({name}): point_a {ca} lies {oa:e} outside A (tolerance {tol:e}): {m:?}"));
        }
        if ob.is_nan() || ob > tol {
            return Err(format!("{what} ({name}): point_b {cb} lies {ob:e} outside B (tolerance {tol:e}): {m:?}"));
        }
        if c.depth.is_nan() || c.depth > depth + tol {
            let (deep, past) = (c.depth, c.depth - depth);
            let why = format!("{past:e} past the penetration depth {depth:e} (tolerance {tol:e})");
            return Err(format!("{what} ({name}): contact {deep:e} deep, {why}: {m:?}"));
        }
    }
    Ok(true)
}

/// The tolerance of a pair `size` across (bounding radius) in space `V`: 1e-9 of the size in f64, as the fuzz
/// harness allows, and 1024 ulps of it in f32, plus the rounding of world coordinates (64 ulps of them).
fn tolerance<V: Space3>(size: f64, world: f64) -> f64 {
    let eps = if V::NAME == "f32" { f64::from(f32::EPSILON) } else { f64::EPSILON };
    let rel = if V::NAME == "f32" { 1024.0 * eps } else { 1e-9 };
    rel * size + 64.0 * eps * world
}

/// A box 1.9 × 0.88 and 1.1e-9 thin, its long side in a hull's face 0.67 deep (gjk-fuzz seed 41 case 8166). The
/// box's thin face was the reference: its side planes through the long edges were tilted 1e-7 rad by rounding
/// (their normals, taken from a corner less the centre, kept that vector's rounding along the edge, a ten-millionth
/// of the part across the face), so along the 1.9-long edge they stood 2.7e-7 off a face 1.1e-9 wide: a contact
/// point on B 2.7e-7 off the box, a contact 5.9e-8 deeper than the penetration.
#[test]
fn flat_box_in_a_hull_face_fuzz_41_8166() {
    let a = Body::hull(
        &[
            [0.6722870863676622, -0.48397580588961614, 0.595957588297522],
            [-0.6477969854049402, -0.33888617614332534, -0.4555158761848088],
            [0.5985151987720845, 1.0399262298501395, -1.038315627146107],
            [-0.49048113822718925, -0.058078787714715426, 1.2034144636266404],
            [-0.2080358991712936, -0.836387379199246, 1.02380785021898],
            [-0.6729307847263477, 1.0338575749323609, 0.5668358436066053],
        ],
        Iso::new(
            DQuat::from_xyzw(-0.34783785074305307, -0.39922108864004624, 0.82822724513034, -0.18349654601468018)
                .normalize(),
            DVec3::new(-0.9661305959182827, 0.8724771887971836, 0.4980284549842098),
        ),
    );
    let b = Body::cuboid(
        DVec3::new(0.4394099918229125, 0.9565964557018726, 5.591763981323838e-10),
        Iso::new(
            DQuat::from_xyzw(0.0, 0.0, FRAC_1_SQRT_2, FRAC_1_SQRT_2).normalize(),
            DVec3::new(-1.1957924672209805, 1.0987358238811549, 0.4548471670410952),
        ),
    );
    let tol = tolerance::<DVec3>(1.6, 3.0);
    assert_eq!(check::<DVec3>(&a, &b, 0.020862217685098897, tol, "fuzz 41 case 8166"), Ok(true));
    assert_eq!(check::<DVec3>(&b, &a, 0.020862217685098897, tol, "fuzz 41 case 8166, swapped"), Ok(true));
}

/// A needle 1.0 long and 6.2e-7 across, its centre 1e-12 from a unit hull's origin, nearly inside it (gjk-fuzz
/// seed 43 case 5711, f32): a contact point 3.1e-2 off the needle, 4e-3 deeper than the penetration. The
/// needle's long sides were clipped against side planes tilted as in case 8166, worse in f32.
#[test]
fn needle_nearly_inside_a_hull_fuzz_43_5711() {
    let a = Body::hull(
        &[
            [-0.0707192865594684, 0.3047241919957644, 0.12167139592143264],
            [0.15813371105370896, -0.18810220869285155, -0.2793905172001962],
            [-0.06268696600956679, 0.2330815649270754, -0.2618630715494036],
            [0.12541847727358535, 0.0956764740548262, -0.11041021000534142],
            [0.004732520023976289, -0.1392432474345956, -0.18510983774653242],
            [-0.200858796296998, 0.04038362503459461, 0.12525498637841692],
            [0.2906716733611241, 0.10187862606551465, 0.205700275952971],
            [-0.1729948488160797, -0.1933226958808492, -0.13896498582701483],
        ],
        Iso::new(
            DQuat::from_xyzw(-0.5617966878969194, 0.346463659291775, -0.528806217531414, 0.5335835441224953)
                .normalize(),
            DVec3::new(-0.42608787569398787, -0.3986652839369904, 0.21476880364143214),
        ),
    );
    let (l, w) = (0.4983622347021719, 3.114763966888574e-7);
    let corners: Vec<[f64; 3]> = (0..8).map(|i| [[-l, l][i >> 2], [-w, w][i & 1], [-w, w][i >> 1 & 1]]).collect();
    let b = Body::hull(
        &corners,
        Iso::new(DQuat::IDENTITY, DVec3::new(-0.4260878756944501, -0.3986652839361249, 0.21476880364415413)),
    );
    for swap in [false, true] {
        let (x, y) = if swap { (&b, &a) } else { (&a, &b) };
        let what = format!("fuzz 43 case 5711{}", if swap { ", swapped" } else { "" });
        assert_eq!(check::<Vec3>(x, y, 0.0, tolerance::<Vec3>(0.5, 1.2), &what), Ok(true));
        assert_eq!(check::<DVec3>(x, y, 0.0, tolerance::<DVec3>(0.5, 1.2), &what), Ok(true));
    }
}

/// How far `p` (world) lies outside a cone (`gjk::shape::Cone`: apex at +h on the local y axis, base disc of
/// radius r at −h) at `pose`: the larger of its distances past the base plane and past the slanted side (a bound
/// within a factor of the true distance, zero inside).
fn outside_cone(h: f64, r: f64, pose: &Iso<DVec3>, p: DVec3) -> f64 {
    let q = pose.inverse_transform_point(p);
    let radial = (q.x * q.x + q.z * q.z).sqrt();
    // The side's outward normal in the (radial, y) plane is (2h, r) / |(2h, r)|; the apex lies on it.
    let side = (2.0 * h * radial + r * (q.y - h)) / (4.0 * h * h + r * r).sqrt();
    (-h - q.y).max(side).max(0.0)
}

/// A box 1.1 long, 2.6e-7 wide and 3.3e-9 thin, in f32 at the centre of a cone 1.5 across, 1.3e4 from the origin
/// (gjk-fuzz seed 59 case 3066). In the pair frame the box's broad face, 3.3e-9 wide, rounded to a sliver whose
/// "plane" tilted at random about its long edge: it became the reference face, the cone's rim point was carried
/// along the normal onto it, and the one contact came out 0.83 deep (the penetration is 0.34) with point_b 1.0
/// outside the box. A face thinner than its rounding is now clipped as its long edge.
#[test]
fn needle_box_at_a_cones_centre_far_out_fuzz_59_3066() {
    let (h, r) = (0.8139687885485307, 0.754532758675416);
    let pose_a = Iso::new(
        DQuat::from_xyzw(0.08394748529313724, 0.8300860714594975, 0.5496212375135833, -0.04273674011823715),
        DVec3::new(3123.495011933134, 12857.215345111003, -3372.234982531079),
    );
    let b = Body::cuboid(
        DVec3::new(1.304687280031594e-7, 0.5533147437675242, 1.6420071676016996e-9),
        Iso::new(
            DQuat::from_xyzw(-0.305462670135602, -0.19991640536801278, -0.692277835995091, 0.6224768154785483),
            DVec3::new(3123.4950119418927, 12857.215345098062, -3372.2349825350493),
        ),
    );
    fn run<V: Space3>(h: f64, r: f64, pose_a: &Iso<DVec3>, b: &Body, swap: bool) -> Result<usize, String> {
        let b = b.cast::<V>();
        use gjk::math::Real;
        let (h, r) = (V::Real::from_f64(h), V::Real::from_f64(r));
        let cone = gjk::shape::Cone::new(h, r).unwrap();
        let (pa, pb) = (V::pose_from64(pose_a), V::pose_from64(&b.pose));
        // The cone as space V holds it, read back in f64.
        let (h, r, pose_a) = (h.to_f64(), r.to_f64(), V::pose_to64(&pa));
        let sb = b.shape::<V>();
        let (p, m) = if swap {
            (gjk::penetration(&*sb, &pb, &cone, &pa), contact_manifold(&*sb, &pb, &cone, &pa, V::Real::ZERO))
        } else {
            (gjk::penetration(&cone, &pa, &*sb, &pb), contact_manifold(&cone, &pa, &*sb, &pb, V::Real::ZERO))
        };
        let depth = p.depth.to_f64();
        let tol = tolerance::<V>(1.1, 1.3e4);
        let name = V::NAME;
        for c in m.contacts() {
            let (on_cone, on_box) = if swap { (c.point_b, c.point_a) } else { (c.point_a, c.point_b) };
            let (oc, ob) = (outside_cone(h, r, &pose_a, on_cone.to64()), b.outside_by(on_box.to64()));
            if !(oc <= tol && ob <= tol && c.depth <= depth + tol) {
                return Err(format!(
                    "{name} swap {swap}: {oc:e} outside the cone, {ob:e} outside the box, {} deep \
                    for a penetration {depth} (tolerance {tol:e}): {m:?}",
                    c.depth
                ));
            }
        }
        Ok(m.len)
    }
    for swap in [false, true] {
        assert!(matches!(run::<Vec3>(h, r, &pose_a, &b, swap), Ok(1..)), "{:?}", run::<Vec3>(h, r, &pose_a, &b, swap));
        assert!(
            matches!(run::<DVec3>(h, r, &pose_a, &b, swap), Ok(1..)),
            "{:?}",
            run::<DVec3>(h, r, &pose_a, &b, swap)
        );
    }
}

/// Random slivers against random unit hulls: boxes with one or two half-extents 1e-10–1e-5 (slabs and needles)
/// and hulls of a thin box's corners, turned at random, overlapping a hull of 6–14 points anywhere from its surface
/// to its centre; f64 and f32, both orders, with and without a prediction distance. (Before the side planes were
/// projected twice, 13 of these checks failed; with that alone, one still did: a point 1.5e-8 beyond the tip of a
/// sliver triangle, 1.2e-9 rad sharp, before corners that sharp got their cap plane.)
#[test]
fn slivers_and_needles_against_hulls_stay_on_their_shapes() {
    let mut rng = rng(8166);
    let (mut checked, mut failed) = ([0usize; 2], Vec::new());
    let mut tally = |r: Result<bool, String>, k: usize| match r {
        Ok(c) => checked[k] += c as usize,
        Err(e) => failed.push(e),
    };
    for case in 0..400 {
        let hull: Vec<[f64; 3]> = (0..rng.gen_range(6..15))
            .map(|_| (crate::common::unit3(&mut rng) * uniform(&mut rng, 0.3, 1.0)).to_array())
            .collect();
        let a = Body::hull(&hull, Iso::new(unit_quat(&mut rng), crate::common::in_cube3(&mut rng, 1.0)));
        let thin = 10f64.powf(uniform(&mut rng, -10.0, -5.0));
        let mut half = DVec3::new(uniform(&mut rng, 0.2, 1.0), uniform(&mut rng, 0.2, 1.0), thin);
        if case % 2 == 1 {
            half.y = thin * uniform(&mut rng, 0.5, 2.0);
        }
        // B's centre from A's centre out to beyond its surface, along a random direction.
        let offset = crate::common::unit3(&mut rng) * uniform(&mut rng, 0.0, 1.1);
        let pose_b = Iso::new(unit_quat(&mut rng), a.pose.translation + offset);
        let b = if case % 4 < 2 {
            Body::cuboid(half, pose_b)
        } else {
            Body { pts: Body::cuboid(half, Iso::identity()).pts, half: None, pose: pose_b }
        };
        let prediction = [0.0, 0.02][case % 3 % 2];
        let world = 3.5;
        for (x, y, order) in [(&a, &b, ""), (&b, &a, ", swapped")] {
            let what = format!("case {case}{order}");
            tally(check::<DVec3>(x, y, prediction, tolerance::<DVec3>(1.5, world), &what), 0);
            // f32 holds a sliver of 1e-10 as rounding: only those f32 can still tell thin.
            if thin > 1e-6 {
                tally(check::<Vec3>(x, y, prediction, tolerance::<Vec3>(1.5, world), &what), 1);
            }
        }
    }
    assert!(failed.is_empty(), "{} failures, the first: {:#?}", failed.len(), &failed[..failed.len().min(3)]);
    assert!(checked[0] >= 300 && checked[1] >= 100, "only {checked:?} overlapping pairs (f64, f32)");
}
