//! Runs that stall before wide flat faces, and the bounds of runs that end unconverged (issue 11 §3).
//!
//! A segment of two opposite rim points of a wide cap passes the cap's nearest point at its middle; v, its
//! nearest point, is off the cap's axis by rounding, and along v the rim reaches past the cap by the width times
//! that angle. Such runs stalled with no lower bound: "stalled, error bound = the whole distance", and in f32 the
//! verdict depended on the order. They now probe across the segment (`gjk::run::probe_across`) and converge. Runs
//! cut short keep their bounds.

use crate::common::{in_cube3, log_uniform, rng, support_value, uniform, unit_quat};
use gjk::math::{DQuat, DVec3, Iso, Quat, Vec3};
use gjk::shape::{Ball, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, SupportMap};
use gjk::{distance, distance_with, intersection, intersects, DistanceOptions, Status};

/// gjk-fuzz seed 3 case 5222 (f32): a hull of 9 points 265 from a cylinder 2e5 wide and 2.7 thick. With the hull
/// as A the run stalled after 2 iterations ("126.6 apart? error bound 128"), the other order converged; penetration
/// with the cylinder first said intersecting. Both orders now converge on the same gap.
#[test]
fn hull_before_a_cylinder_cap_2e5_wide_is_apart_both_ways_fuzz_3_5222() {
    let points: Vec<Vec3> = [
        [0.4428767295527026, 1.1183844815369606, 1.4198099147584653],
        [0.21262060607189098, -1.2430647035323488, 1.4962646516535583],
        [-0.8609910641685645, 1.1149690432233785, -0.2867593047195778],
        [0.18846054001162543, -1.173947138532817, -1.2079439743969274],
        [0.8232335362464135, -0.3583182487068062, -0.28322497210704395],
        [-0.38728879300120517, 1.1592806928752544, 1.1464963206443568],
        [0.3270926156022838, -0.9683643147025812, 0.2543233396695625],
        [-1.2598763632237095, 0.401243207438709, -0.5626196018918889],
        [-0.21434351009117836, 1.2633803786327205, -0.6842769316192968f64],
    ]
    .iter()
    .map(|p| Vec3::new(p[0] as f32, p[1] as f32, p[2] as f32))
    .collect();
    let hull = ConvexPolytope::new(&points).unwrap();
    let f = |x: f64| x as f32;
    let q =
        Quat::from_xyzw(f(0.8735268315658271), f(-0.3341435687983338), f(-0.25777543965558847), f(0.24259178196230866));
    let pose_hull =
        Iso::new(q.normalize(), Vec3::new(f(-113.16045701820566), f(25.43441623901116), f(-239.34942987769128)));
    let cylinder = Cylinder::new(f(1.3675120165885473), f(101869.40868918231)).unwrap();
    let q =
        Quat::from_xyzw(f(0.4812330262086103), f(0.36067454576887187), f(-0.6103187746465014), f(0.5155963923792659));
    let pose_cylinder =
        Iso::new(q.normalize(), Vec3::new(f(-0.1305188765415941), f(0.11772883098256148), f(0.9451137463919088)));

    let ab = distance(&hull, &pose_hull, &cylinder, &pose_cylinder);
    let ba = distance(&cylinder, &pose_cylinder, &hull, &pose_hull);
    // f32 points 1e5 from the origin round by 2^-7 each; a run stops as converged when its bounds meet within
    // 1024 ulps of the points' magnitude (12.5 here), so that is how far the two orders may differ.
    let rounding = 1024.0 * f32::EPSILON * 1.02e5;
    for (d, other) in [(&ab, &ba), (&ba, &ab)] {
        assert!(!d.intersecting && d.status == Status::Converged, "{d:?}");
        // The gap is proven (the stalled run had no lower bound at all) and holds the other order's answer.
        assert!(d.distance - d.error_bound > 100.0, "{d:?}");
        assert!(d.distance - d.error_bound <= other.distance + rounding, "{d:?} vs {other:?}");
    }
    assert!((ab.distance - ba.distance).abs() <= rounding, "{ab:?} vs {ba:?}");
    assert!(!intersects(&hull, &pose_hull, &cylinder, &pose_cylinder));
    assert!(!intersects(&cylinder, &pose_cylinder, &hull, &pose_hull));
    assert!(!gjk::penetration(&cylinder, &pose_cylinder, &hull, &pose_hull).intersecting);
    assert!(!gjk::penetration(&hull, &pose_hull, &cylinder, &pose_cylinder).intersecting);
}

/// gjk-fuzz seed 3 case 12040 (f64): a ball of radius 4e-4 4e-9 below the bottom of a cylinder 4.6e5 wide. The run
/// stopped after 2 iterations "stalled" with an error bound of 4.1e-4 — the whole core distance — so touching was
/// not excluded, yet the answer said apart. It now converges, its bound at the rounding of the cap's width.
#[test]
fn ball_before_a_cylinder_cap_2e5_wide_converges_fuzz_3_12040() {
    let ball = Ball::new(0.0004131961733005704).unwrap();
    let q = DQuat::from_xyzw(-2.5446442027639662e-9, 3.7974460392669195e-9, 7.561815126360144e-9, 1.0);
    let pose_ball = Iso::new(q.normalize(), DVec3::new(-0.05057570094932262, 0.5833299235054394, 0.035708136309048566));
    let cylinder = Cylinder::new(144531.3751899718, 232277.15838279203).unwrap();
    let pose_cylinder = Iso::from_translation(DVec3::new(0.0, 144531.95893309548, 0.0));
    let exact = (144531.95893309548 - 144531.3751899718) - (0.5833299235054394 + 0.0004131961733005704);
    for d in
        [distance(&ball, &pose_ball, &cylinder, &pose_cylinder), distance(&cylinder, &pose_cylinder, &ball, &pose_ball)]
    {
        assert!(!d.intersecting && d.status == Status::Converged, "{d:?}");
        // The rounding of the cap's points (2.3e5: 2.9e-11 each).
        assert!((d.distance - exact).abs() <= 1e-10 && d.error_bound <= 1e-10, "{d:?} vs {exact:e}");
    }
}

/// A shape and its pose.
type Posed3<'a> = (&'a dyn SupportMap<DVec3>, Iso<DVec3>);

/// How far apart the supporting planes along `n` are: A's farthest reach toward B to B's nearest (the distance
/// when `n` is the pair's exact normal).
fn planes_apart(a: Posed3, b: Posed3, n: DVec3) -> f64 {
    -support_value(b.0, &b.1, -n) - support_value(a.0, &a.1, n)
}

/// gjk-fuzz seed 57 case 1717 (f64): a point 3.2e-6 above the cap of a cylinder 8e5 wide and 1.6e-3 thick. The
/// run ends on a segment of two opposite rim points through the cap's middle, and v, its nearest point, is off the
/// cap's axis by ε·width / gap ≈ 1.2e-5 rad: the distance was right, but the supporting planes along the normal were
/// 9.2 apart. The normal is now the cap's axis, from the plane of a probe's triangle, in both orders and for
/// `penetration` (which answers a separated pair with GJK's distance).
#[test]
fn point_over_a_cap_8e5_wide_gets_the_caps_normal_fuzz_57_1717() {
    let q = DQuat::from_xyzw(0.3595513114742893, -0.03411756329144225, 0.8705597400914546, 0.3341924374130448);
    let pose_point = Iso::new(q.normalize(), DVec3::new(-0.9463643523412633, -0.5111694979879431, 0.324344638294068));
    let point = Ball::new(0.0).unwrap();
    let q = DQuat::from_xyzw(-1.4549451651273684e-12, 7.66710803299244e-13, -1.365614835029435e-12, 1.0);
    let pose_cap = Iso::new(q.normalize(), DVec3::new(2.0784680001395524e-301, -0.511975858750279, 0.0));
    let cap = Cylinder::new(0.0008031531070882982, 803747.5124744799).unwrap();
    // The point is above the cap (local +y), so the normal from the point toward the cylinder is −y.
    let down = pose_cap.rotation * -DVec3::Y;
    let width = 803747.5124744799;
    let (point, cap): (Posed3, Posed3) = ((&point, pose_point), (&cap, pose_cap));
    for ((a, b), n_exact) in [((point, cap), down), ((cap, point), -down)] {
        let d = distance(a.0, &a.1, b.0, &b.1);
        assert!(!d.intersecting && d.status == Status::Converged, "{d:?}");
        assert!((d.distance - 3.2076e-6).abs() < 1e-9, "{d:?}");
        // Tilted by θ the planes are θ·width nearer: to 1e-9 of the width, as the fuzz harness asks.
        let apart = planes_apart(a, b, d.normal);
        assert!((apart - d.distance).abs() <= 1e-9 * width, "{d:?}: planes along the normal {apart:e} apart");
        assert!((d.normal - n_exact).length() <= 1e-14, "{d:?}");
        let p = gjk::penetration(a.0, &a.1, b.0, &b.1);
        assert!((p.normal - d.normal).length() <= 1e-15, "{p:?} vs {d:?}");
    }
}

/// gjk-fuzz seed 58 case 8208 (f64): a point 0.456 beside a needle cylinder (radius 1.5e-7, 0.84 long), 1.1e-9
/// below the top of its side. The first vertex was the top rim point; the segment down the side to the bottom rim
/// point was exactly as near in f64 (1.2e-18 nearer), so the step "made no progress" and the run ended on the rim
/// point, its direction 2.4e-9 rad off the side's normal: the planes along it were 2e-9 nearer than the distance.
/// The segment is now kept (no farther, and a larger face): the normal is square to the axis, in both orders.
#[test]
fn point_beside_the_top_of_a_needle_cylinder_gets_the_sides_normal_fuzz_58_8208() {
    let q = DQuat::from_xyzw(2.1428027681445236e-11, 2.5214986793269612e-11, 4.865651411657775e-11, 1.0);
    let pose_needle =
        Iso::new(q.normalize(), DVec3::new(0.03841556210971242, -0.9138219554818103, -0.44196565823022294));
    let needle = Cylinder::new(0.42024389633726156, 1.4608822639220328e-7).unwrap();
    let q = DQuat::from_xyzw(0.0964561029424881, 0.4957052776842395, 0.07677025835614154, -0.8596969380619374);
    let pose_point =
        Iso::new(q.normalize(), DVec3::new(0.027842270700246998, -0.49357806023108614, 0.01391571489534721));
    let point = gjk::shape::Point::new(DVec3::ZERO).unwrap();
    let axis = pose_needle.rotation * DVec3::Y;
    let (needle, point): (Posed3, Posed3) = ((&needle, pose_needle), (&point, pose_point));
    for (a, b) in [(needle, point), (point, needle)] {
        let d = distance(a.0, &a.1, b.0, &b.1);
        assert!(!d.intersecting && d.status == Status::Converged, "{d:?}");
        // To the rounding of the points (0.9 from the origin): the tilt was 2e-9.
        let apart = planes_apart(a, b, d.normal);
        assert!((apart - d.distance).abs() <= 1e-14, "{d:?}: planes {apart:e} apart");
        assert!(d.normal.dot(axis).abs() <= 1e-13, "{d:?}");
    }
}

/// gjk-fuzz seed 72 case 951 (f64): a triangle of size 1 whose nearest vertex is 3.1e-8 outside the side of a
/// cylinder 1.1e5 wide and 3.2e5 tall (its axis along y), 1.7e5 from the origin. GJK's simplex became a tetrahedron
/// 3.2e5 long, 0.07 wide and 5e-8 thick, the origin outside it; its cofactors, taken from coordinates of 1e5 in A's
/// frame, had the signs of noise and put the origin inside: "intersecting", with the witnesses (a combination by
/// those weights) 6.7e4 apart along the axis, and `penetration` and `contact` the same with a point of B 0.062 off
/// the cylinder. The cofactors now come from the edges (`simplex::dim3::tetrahedron`): the run converges on the gap.
#[test]
fn triangle_3e_8_outside_the_side_of_a_cylinder_1e5_wide_is_apart_fuzz_72_951() {
    let triangle = gjk::shape::Triangle::new(
        DVec3::new(0.25492912106502374, 0.8549954534885189, 0.11374289613493402),
        DVec3::new(0.21115097259862242, -0.15058417935743806, -0.040679613233588895),
        DVec3::new(-0.5861088581244701, -0.013577008826807332, 0.2265209881819382),
    )
    .unwrap();
    let q = DQuat::from_xyzw(-0.4839612923592485, -0.5117089510295038, 0.3646457897522432, 0.6090721344391103);
    let pose_triangle =
        Iso::new(q.normalize(), DVec3::new(-18196.78064663382, -29648.020859645283, 63364.623587281865));
    let radius = 111035.46400183167;
    let cylinder = Cylinder::new(161792.56596152898, radius).unwrap();
    let axis_at = DVec3::new(-18196.620936425657, -29647.178962665923, 174400.2893316454);
    let pose_cylinder = Iso::from_translation(axis_at);
    // How far a point is outside the cylinder's side (its axis is the world's y through `axis_at`).
    let outside = |p: DVec3| (p - axis_at).with_y(0.0).length() - radius;
    // The second vertex is the nearest point: the others are 0.35 and 0.96 out, and along the triangle the side's
    // curvature (1 / 1.1e5) only adds. Rounded at coordinates of 1.7e5 (ulp 2.9e-11).
    let exact = outside(pose_triangle.transform_point(triangle.vertices[1]));
    assert!((3.0e-8..3.2e-8).contains(&exact), "{exact:e}");
    let tol = 1e-10;
    let (triangle, cylinder): (Posed3, Posed3) = ((&triangle, pose_triangle), (&cylinder, pose_cylinder));
    for ((a, b), cylinder_first) in [((triangle, cylinder), false), ((cylinder, triangle), true)] {
        let d = distance(a.0, &a.1, b.0, &b.1);
        assert!(!d.intersecting && d.status == Status::Converged, "{d:?}");
        assert!((d.distance - exact).abs() <= tol && d.error_bound <= 2.0 * tol, "{d:?} vs {exact:e}");
        assert!((d.point_b - d.point_a - d.normal * d.distance).length() <= tol, "{d:?}");
        let on_cylinder = if cylinder_first { d.point_a } else { d.point_b };
        assert!(outside(on_cylinder).abs() <= tol, "{d:?}");
        let p = gjk::penetration(a.0, &a.1, b.0, &b.1);
        assert!(!p.intersecting && (p.distance - exact).abs() <= tol, "{p:?} vs {exact:e}");
        assert!((p.point_b - p.point_a - p.normal * p.distance).length() <= tol, "{p:?}");
    }
}

/// Small shapes (balls, boxes, hulls) before the flat cap of a wide cylinder or cone (width 1e2 … 1e6 times the
/// thickness, random rotations, offsets to 1e3), over the cap's middle at a gap of 1e-9 … 1e-2: apart, at the exact
/// gap, and converged with an error bound at the rounding of the cap — in both orders (hulls: nearly always).
#[test]
fn small_shapes_before_wide_flat_caps_converge_on_the_gap() {
    let mut r = rng(5222);
    let mut hulls_stalled = 0;
    let cases = 600;
    for case in 0..cases {
        let thick = log_uniform(&mut r, 1e-2, 10.0);
        let wide = thick * log_uniform(&mut r, 1e2, 1e6);
        let rotation = unit_quat(&mut r);
        let centre = in_cube3(&mut r, 1e3);
        let pose_cap = Iso::new(rotation, centre);
        let small = log_uniform(&mut r, 1e-4, 1.0);
        // The cap: the cylinder's bottom (local y = −thick) or the cone's base (the same plane).
        let cap: Box<dyn SupportMap<DVec3>> = if case % 2 == 0 {
            Box::new(Cylinder::new(thick, wide).unwrap())
        } else {
            Box::new(Cone::new(thick, wide).unwrap())
        };
        // The small shape's lowest reach toward the cap along local −y, measured from its own origin, after a
        // random turn of its own (kept for the ball, whose reach is its radius).
        let turn = unit_quat(&mut r);
        let (shape, reach): (Box<dyn SupportMap<DVec3>>, f64) = match case % 3 {
            0 => (Box::new(Ball::new(small).unwrap()), small),
            1 => {
                let h = DVec3::new(small, small * 0.3, small * 0.7);
                let up = (rotation * turn).inverse() * (rotation * DVec3::Y);
                (Box::new(Cuboid::new(h).unwrap()), up.abs().dot(h))
            }
            _ => {
                let pts: Vec<DVec3> = (0..8).map(|_| in_cube3(&mut r, small)).collect();
                let up = (rotation * turn).inverse() * (rotation * DVec3::Y);
                let reach = pts.iter().map(|p| p.dot(up)).fold(f64::MIN, f64::max);
                (Box::new(ConvexPolytope::new(&pts).unwrap()), reach)
            }
        };
        // The rounding of the cap's points (width plus offset) in a few operations; the gap stays well above the
        // touching distance at that scale (64 ulps), below which the pair counts as touching.
        let rounding = 256.0 * f64::EPSILON * (wide + 1e3);
        let gap = log_uniform(&mut r, 1e-9, 1e-2).max(16.0 * rounding);
        // Over the cap's middle (well inside its rim), below it by the gap: the cap is the plane y = −thick.
        let across = DVec3::new(uniform(&mut r, -0.3, 0.3) * wide, 0.0, uniform(&mut r, -0.3, 0.3) * wide);
        let local = across + DVec3::new(0.0, -thick - gap - reach, 0.0);
        let pose_small = Iso::new(rotation * turn, centre + rotation * local);
        let label = format!("case {case}: thickness {thick:e}, width {wide:e}, gap {gap:e}, small {small:e}");
        // The cap's outward normal, from the small shape toward the cap when the small shape is A.
        let axis = rotation * DVec3::Y;
        let ab = distance(&*shape, &pose_small, &*cap, &pose_cap);
        let ba = distance(&*cap, &pose_cap, &*shape, &pose_small);
        for (d, toward_b) in [(ab, axis), (ba, -axis)] {
            assert!(!d.intersecting, "{label}: {d:?}");
            // Whatever the status, the truth lies within the answer's bounds.
            assert!(d.distance + rounding >= gap && d.distance - d.error_bound <= gap + rounding, "{label}: {d:?}");
            // Converged: the bounds meet within the loop's stall rounding (1024 ulps of the points' magnitude, the
            // cap's width plus the offset), which is also how far the distance may be from the exact gap.
            let stall = 4.0 * rounding;
            let exact = d.status == Status::Converged && d.error_bound <= stall && (d.distance - gap).abs() <= stall;
            // The nearest point is inside the cap, so the normal is its axis: tilted by θ, the planes along it are
            // apart by the gap less about θ·width at the rim. Exactly to the rounding of the cap's points (a segment
            // of two rim points through the middle of the cap left v's direction off by ε·width / gap: the planes
            // along it 9.2 apart, the gap 3.2e-6, before a cap 8e5 wide, gjk-fuzz seed 57 case 1717).
            let tilt = (d.normal - toward_b).length();
            if exact {
                assert!(tilt * wide <= stall, "{label}: normal {:?} is {tilt:e} off the cap's axis", d.normal);
            }
            if case % 3 == 2 {
                // A hull's closest vertex may change along the run: a triangle of rim points behind two different
                // vertices is off the cap's plane, and such a run can still stall (honestly: the bounds above hold).
                // Those are counted, not excused.
                hulls_stalled += usize::from(!exact);
            } else {
                assert!(exact, "{label}: {d:?}");
            }
        }
    }
    // Of 400 hull runs, 1 stalls at the time of writing.
    assert!(hulls_stalled <= 4, "{hulls_stalled} hull runs of 400 did not converge");
}

/// Runs cut short (1 … 6 iterations) on curved and flat pairs from 0.1 apart to 0.1 deep: whatever they end with,
/// the answer is never refuted by the full run — intersecting only when the full run finds the shapes within its
/// touching distance, apart only with a distance the full run does not exceed and a lower bound (distance − error
/// bound) it does not undercut — and `intersection` under the same options says what `distance_with` says.
#[test]
fn runs_cut_short_keep_their_bounds() {
    let mut r = rng(11);
    let mut unconverged = 0;
    for case in 0..3000 {
        let a: Box<dyn SupportMap<DVec3>> = match case % 3 {
            0 => Box::new(Cylinder::new(log_uniform(&mut r, 0.05, 1.0), log_uniform(&mut r, 0.05, 1.0)).unwrap()),
            1 => Box::new(Cone::new(log_uniform(&mut r, 0.05, 1.0), log_uniform(&mut r, 0.05, 1.0)).unwrap()),
            _ => Box::new(Ellipsoid::new(DVec3::new(0.5, log_uniform(&mut r, 0.01, 1.0), 0.8)).unwrap()),
        };
        let b: Box<dyn SupportMap<DVec3>> = if case % 2 == 0 {
            Box::new(Cuboid::new(DVec3::new(0.4, 0.3, log_uniform(&mut r, 1e-3, 0.5))).unwrap())
        } else {
            Box::new(Ellipsoid::new(DVec3::new(0.3, 0.6, log_uniform(&mut r, 0.05, 0.5))).unwrap())
        };
        let pose_a = Iso::new(unit_quat(&mut r), DVec3::ZERO);
        let mut pose_b = Iso::new(unit_quat(&mut r), DVec3::new(0.0, 0.0, 1.0));
        // Slide B along z until the pair is about `target` apart (negative: overlapping by about that much).
        let full0 = distance(&*a, &pose_a, &*b, &pose_b).distance;
        let target = uniform(&mut r, -0.1, 0.1);
        pose_b.translation.z += target - full0;
        let full = distance(&*a, &pose_a, &*b, &pose_b);
        // The truth lies within the full run's bounds (nearly always converged: then a point).
        let (lo, hi) =
            if full.intersecting { (0.0, 0.0) } else { ((full.distance - full.error_bound).max(0.0), full.distance) };
        let options = DistanceOptions { max_iterations: 1 + case % 6, ..DistanceOptions::default() };
        let cut = distance_with(&*a, &pose_a, &*b, &pose_b, &options, None, &mut ());
        let label = format!("case {case}: full {full:?}, cut {cut:?}");
        // The full run's answer to within its own rounding.
        let slack = 1e-12;
        if cut.intersecting {
            assert!(lo <= slack, "{label}");
        } else {
            assert!(cut.distance + slack >= lo, "{label}: distance below the truth");
            assert!(cut.distance - cut.error_bound <= hi + slack, "{label}: lower bound above the truth");
        }
        unconverged += usize::from(cut.status != Status::Converged);
        let verdict = intersection(&*a, &pose_a, &*b, &pose_b, &options, None, &mut ());
        assert_eq!(verdict.intersecting, cut.intersecting, "{label}: intersection {verdict:?}");
    }
    // The cut is felt: many runs end at their cap.
    assert!(unconverged > 300, "{unconverged}");
}

/// gjk-fuzz seed 3 case 14343 (f32): a small cone beside a cone 1.3e5 wide whose origin is 6.5e4 away. `intersects`
/// stopped apart on its first support's plane, judged against the rounding of that one support point, while the
/// distance run, its simplex across the whole rim, counted the pair as touching at the rounding of 6.5e4. The
/// early stop's margin now counts the distance between the origins too; both queries agree in both orders.
#[test]
fn small_cone_beside_a_cone_1e5_wide_agrees_with_distance_fuzz_3_14343() {
    let f = |x: f64| x as f32;
    let small = Cone::new(f(1.5650683266209866), f(0.7722717901251902)).unwrap();
    let wide = Cone::new(f(1.7538758449350502), f(65395.306300659046)).unwrap();
    let pose_small =
        Iso::from_translation(Vec3::new(f(-0.2887194513719995), f(-0.2666315750917241), f(-0.17332408955234513)));
    let pose_wide = Iso::from_translation(Vec3::new(0.0, 0.0, f(65395.905249048476)));
    let ab = distance(&small, &pose_small, &wide, &pose_wide).intersecting;
    let ba = distance(&wide, &pose_wide, &small, &pose_small).intersecting;
    assert_eq!(intersects(&small, &pose_small, &wide, &pose_wide), ab);
    assert_eq!(intersects(&wide, &pose_wide, &small, &pose_small), ba);
    let options = DistanceOptions::default();
    assert_eq!(intersection(&small, &pose_small, &wide, &pose_wide, &options, None, &mut ()).intersecting, ab);
}

/// How deep the local point `q` lies in a cone (apex at +h on y, base disc of radius r at −h): the least of its
/// distances to the base plane and to the slanted side (negative outside either).
fn cone_depth(h: f64, r: f64, q: DVec3) -> f64 {
    let radial = (q.x * q.x + q.z * q.z).sqrt();
    (q.y + h).min((r * (h - q.y) - 2.0 * h * radial) / (4.0 * h * h + r * r).sqrt())
}

/// gjk-fuzz seed 60 case 8135: a point 1.75e-10 inside a cone 8.1e-10 thick and 0.47 wide. The run ended on a
/// segment of two opposite base rim points, 6.4e-10 from the point, with v's direction 8e-8 rad off the axis by
/// rounding; the apex wins over the rim only within 1.7e-9 rad of the axis, so every support along v or the probes
/// was a rim point again, and `distance` answered "apart, 6.4e-10, stalled, error bound 6.4e-10" (the hollow ray
/// check then took the point for outside). Along the probe triangle's exact normal the support is the apex, and
/// the run goes on to the overlap: intersecting, in both orders.
///
/// Then random points inside flat cones, 1e-10 to 1e-6 thick and 0.1 to 1 wide, at least a tenth of the way in,
/// both orders: every answer is intersecting. Runs that stop on a triangle within rounding of the point, with no
/// gap proven, say so (166 of 782 answers said apart before, 8 of them "converged" 1e-13 away from points 1e-7
/// deep, below the rounding of the flat cone's width).
#[test]
fn point_inside_a_cone_8e_10_thick_is_intersecting_fuzz_60_8135() {
    let (h, r) = (4.0610281556772466e-10, 0.23645763921243154);
    let q = DQuat::from_xyzw(-0.5628049663616134, 0.5911008371957787, -0.022839090581923394, 0.5773462964690633);
    let pose_cone = Iso::new(q.normalize(), DVec3::new(0.6142340184652098, -0.9707806256633003, -0.598457086806405));
    let end = DVec3::new(0.6142340184652098, -0.9707806256633003, -0.598457086806405)
        + DVec3::new(-2.1134220624740482e-8, -7.99002805311917e-9, -2.5019588183728437e-8) * 0.008384567432197282;
    let point = Ball::new(0.0).unwrap();
    let cone = Cone::new(h, r).unwrap();
    let depth = cone_depth(h, r, pose_cone.inverse_transform_point(end));
    assert!(depth > 1.7e-10, "the point is {depth:e} inside");
    let at = Iso::from_translation(end);
    for d in [distance(&point, &at, &cone, &pose_cone), distance(&cone, &pose_cone, &point, &at)] {
        assert!(d.intersecting, "{d:?}");
    }

    let mut rng = rng(8135);
    let mut checked = 0;
    for _ in 0..400 {
        let (h, r) = (log_uniform(&mut rng, 1e-10, 1e-6), uniform(&mut rng, 0.1, 1.0));
        let pose = Iso::new(unit_quat(&mut rng), in_cube3(&mut rng, 1.0));
        // A point between the base and the apex, within the radius at its height less a margin.
        let y = uniform(&mut rng, -0.8, 0.6) * h;
        let angle = uniform(&mut rng, 0.0, std::f64::consts::TAU);
        let rho = uniform(&mut rng, 0.0, 0.9) * r * (h - y) / (2.0 * h);
        let local = DVec3::new(rho * angle.cos(), y, rho * angle.sin());
        let depth = cone_depth(h, r, local);
        if depth < 0.1 * h {
            continue;
        }
        let (cone, at) = (Cone::new(h, r).unwrap(), Iso::from_translation(pose.transform_point(local)));
        for d in [distance(&point, &at, &cone, &pose), distance(&cone, &pose, &point, &at)] {
            assert!(d.intersecting, "a point {depth:e} inside a cone {h:e} × {r}: {d:?}");
            checked += 1;
        }
    }
    assert!(checked > 400, "only {checked} answers");
}

/// Every verdict on a pair: `distance`, `intersects`, `intersection` and `penetration` with A first, then the same
/// four with B first.
fn verdicts(a: &dyn SupportMap<DVec3>, pa: &Iso<DVec3>, b: &dyn SupportMap<DVec3>, pb: &Iso<DVec3>) -> Vec<bool> {
    let options = DistanceOptions::default();
    let mut all = Vec::new();
    for ((x, px), (y, py)) in [((a, pa), (b, pb)), ((b, pb), (a, pa))] {
        all.push(distance(x, px, y, py).intersecting);
        all.push(intersects(x, px, y, py));
        all.push(intersection(x, px, y, py, &options, None, &mut ()).intersecting);
        all.push(gjk::penetration(x, px, y, py).intersecting);
    }
    all
}

/// gjk-fuzz seed 55 case 2758: a needle cone 1e-10 wide along a needle ellipsoid (1.5e-9 × 0.17), 1.5e-9 deep,
/// 1e4 from the origin. `distance(cone, ellipsoid)` stalled 1.1e-11 apart with no lower bound and said apart; the
/// other order and penetration said intersecting. A run that cannot prove a gap now says intersecting: every query
/// agrees, in both orders, and the stalled distance's error bound holds the gap it left.
#[test]
fn needle_cone_in_a_needle_ellipsoid_intersects_both_ways_fuzz_55_2758() {
    let cone = Cone::new(0.41448853419954446, 1.033578924869975e-10).unwrap();
    let q = DQuat::from_xyzw(0.2534146290426611, -0.8389879772742297, -0.4762912593776035, 0.07090018347623331);
    let pose_cone = Iso::new(q.normalize(), DVec3::new(-1964.0787367623877, -10523.516959427925, 4100.150095696902));
    let radii = DVec3::new(4.983923477074663e-11, 1.5221618290247902e-9, 0.17388199042612593);
    let ellipsoid = Ellipsoid::new(radii).unwrap();
    let q = DQuat::from_xyzw(0.3440519836386654, 0.4321149433049352, -0.541720101048303, 0.6335962755943949);
    let pose_ellipsoid = Iso::new(q.normalize(), DVec3::new(-1964.0787367623884, -10523.516959427923, 4100.1500956969));
    let all = verdicts(&cone, &pose_cone, &ellipsoid, &pose_ellipsoid);
    assert!(all.iter().all(|&x| x), "{all:?}");
    for d in [
        distance(&cone, &pose_cone, &ellipsoid, &pose_ellipsoid),
        distance(&ellipsoid, &pose_ellipsoid, &cone, &pose_cone),
    ] {
        assert_eq!(d.distance, 0.0, "{d:?}");
        assert!(d.error_bound <= 1e-9, "{d:?}");
    }
}

/// gjk-fuzz seed 52 case 5468: a hull 1e-6 wide inside a needle box hull 4e6 long and 2.49 wide, 1.245 from its
/// sides. With the small hull first the run stopped 3.7e-7 "apart", its bounds met to the rounding of the needle's
/// 2e6 (4.5e-7) but no gap proven; the other order found the overlap. Now every query says intersecting, both ways,
/// and penetration finds the overlap of 1.245 (to the rounding of 2e6) in both orders.
#[test]
fn hull_1e_6_wide_inside_a_needle_hull_2e6_long_intersects_both_ways_fuzz_52_5468() {
    let small: Vec<DVec3> = [
        [1.0790902871078583e-7, -1.2535010860375823e-6, -1.9722266008847105e-6],
        [3.5342055370867323e-7, -1.4517028910136165e-6, -1.2323230976394003e-6],
        [-4.333887595132729e-7, -2.049842706935334e-6, -1.1194761004905383e-6],
        [5.1480853709266273e-8, -1.5861378878640014e-6, -1.3115572774886306e-6],
        [-2.429538611163744e-7, -1.2173361011875009e-6, -8.197483569275236e-7],
        [6.350611471341403e-8, -1.3319377253469172e-6, -1.133095027521679e-6],
        [-4.8520681108071024e-8, -1.4513296779045354e-6, -1.8703496384867974e-6],
        [-9.038089399862725e-7, -2.124190087761302e-6, -1.0053440362493225e-6],
        [-8.758814420482703e-7, -1.4328775466249984e-6, -7.986677221669716e-7],
        [2.632702156686872e-7, -1.331865867700294e-6, -1.7035308653704278e-6],
        [-3.0304852137931696e-7, -1.5898455138311016e-6, -1.092504084706291e-6],
        [-5.104958286536055e-7, -2.528968725644603e-6, -8.76183446235566e-7],
        [-4.45839413719697e-7, -1.3635910320612973e-6, -9.642786632186398e-7],
        [1.6404551273201436e-7, -1.6212225832941192e-6, -1.4878131125871146e-6],
        [-6.197284574467044e-7, -1.6066878232977156e-6, -1.6084915593793544e-6],
        [-6.526564852015266e-7, -2.4993680313312262e-6, -1.5051171025604878e-6],
    ]
    .iter()
    .map(|p| DVec3::from_array(*p))
    .collect();
    let small = ConvexPolytope::new(&small).unwrap();
    let q = DQuat::from_xyzw(-0.2498458872903365, -0.49479244714771387, -0.23489375755124797, -0.7984875637811378);
    let pose_small = Iso::new(q.normalize(), DVec3::new(-0.250006738277758, -0.48361864572701263, 0.11110821063237908));
    let (x, s) = (1992202.5163246198, 1.245126572702887);
    let corners: Vec<DVec3> = (0..8)
        .map(|k| {
            DVec3::new(
                if k & 4 == 0 { -x } else { x },
                if k & 1 == 0 { -s } else { s },
                if k & 2 == 0 { -s } else { s },
            )
        })
        .collect();
    let needle = ConvexPolytope::new(&corners).unwrap();
    let pose_needle = Iso::from_translation(DVec3::new(-0.2500067387409688, -0.48361864728726933, 0.11110820970089755));
    let all = verdicts(&small, &pose_small, &needle, &pose_needle);
    assert!(all.iter().all(|&x| x), "{all:?}");
    // The least push out through a side: a side at +s is left when the hull's lowest point along it passes s.
    let local: Vec<DVec3> =
        small.vertices().iter().map(|p| pose_small.transform_point(*p) - pose_needle.translation).collect();
    let (lo, hi) = local.iter().fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
    let deepest = (s - lo.y).min(s + hi.y).min(s - lo.z).min(s + hi.z);
    let rounding = 1024.0 * f64::EPSILON * x;
    for p in [
        gjk::penetration(&small, &pose_small, &needle, &pose_needle),
        gjk::penetration(&needle, &pose_needle, &small, &pose_small),
    ] {
        assert!((p.depth - deepest).abs() <= rounding + p.error_bound, "{p:?}, the least depth {deepest}");
    }
}
