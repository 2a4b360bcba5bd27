//! Casts that broke, here (issue 11) or in other libraries (shared/PEER-FAILURES.md), each named after its
//! configuration, with an answer known by construction or from an independent closed form in this file.

// `!(x > 0.0)` is meant: unlike `x <= 0.0` it is also true for NaN, so a NaN answer fails the check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use crate::common;

use gjk::cast::{ray_cast, shape_cast, time_of_impact, Cast, CastOptions, Motion, RayCast};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Rot2, Rotation, Vec2, Vec3, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, MinkowskiSum, Point, Posed, Rounded, Segment,
    SupportFn, SupportMap, Triangle,
};
use gjk::Status;
use rand::Rng;

fn opts<R: Real>(max_toi: f64) -> CastOptions<R> {
    CastOptions { max_toi: R::from_f64(max_toi), ..CastOptions::default() }
}

/// Every numeric field of a ray's answer is finite, and toi is in [0, max_toi].
fn sane_ray<V: Vector>(r: &RayCast<V>, max_toi: V::Real) -> bool {
    let fields = r.toi.is_finite() && r.normal.is_finite() && r.point.is_finite();
    let toi_ok = r.toi >= V::Real::ZERO && r.toi <= max_toi;
    (fields || !r.hit && r.toi == max_toi) && toi_ok
}

/// Every numeric field of a cast's answer is finite on a hit, and toi is in [0, max_toi].
fn sane_cast<V: Vector>(c: &Cast<V>, max_toi: V::Real) -> bool {
    let fields = c.toi.is_finite() && c.normal.is_finite() && c.point_a.is_finite() && c.point_b.is_finite();
    let toi_ok = c.toi >= V::Real::ZERO && c.toi <= max_toi;
    (fields || !c.hit) && toi_ok
}

// ---------------------------------------------------------------------------------------------------------------
// Issue 11: rays.

/// Issue 11: a hollow ray cast with a zero direction from inside said `hit: true` with toi ∞ and a NaN point. A
/// zero direction is a point that never moves: a solid shape holding it is hit at once (no surface crossed, no
/// normal), a hollow one is never left (a miss), a point outside never arrives. On every path (fast and GJK).
#[test]
fn issue_11_zero_direction_ray_from_inside() {
    let octa = ConvexPolytope::new(&[DVec3::X, -DVec3::X, DVec3::Y, -DVec3::Y, DVec3::Z, -DVec3::Z]).unwrap();
    let shapes: Vec<(&str, Box<dyn SupportMap<DVec3>>)> = vec![
        ("sphere", Box::new(Ball::new(1.0).unwrap())),
        ("box", Box::new(Cuboid::new(DVec3::splat(1.0)).unwrap())),
        ("capsule", Box::new(Capsule::new(0.5, 0.5).unwrap())),
        ("cylinder", Box::new(Cylinder::new(1.0, 1.0).unwrap())),
        ("cone", Box::new(Cone::new(1.0, 1.0).unwrap())),
        ("ellipsoid", Box::new(Ellipsoid::new(DVec3::new(1.0, 0.5, 2.0)).unwrap())),
        ("hull", Box::new(octa)),
        ("support function (GJK path)", Box::new(SupportFn::new(|d: DVec3| d.normalize_or_zero()))),
    ];
    let inside = DVec3::new(0.1, -0.05, 0.02);
    let outside = DVec3::new(3.0, 0.0, 0.0);
    for (name, s) in &shapes {
        for max_toi in [10.0, f64::INFINITY] {
            let hollow = ray_cast(&**s, &Iso::identity(), inside, DVec3::ZERO, max_toi, false);
            assert!(!hollow.hit && hollow.toi == max_toi && hollow.status == Status::Converged, "{name}: {hollow:?}");
            let solid = ray_cast(&**s, &Iso::identity(), inside, DVec3::ZERO, max_toi, true);
            assert!(solid.hit && solid.toi == 0.0 && solid.point == inside && solid.normal == DVec3::ZERO, "{name}");
            let away = ray_cast(&**s, &Iso::identity(), outside, DVec3::ZERO, max_toi, true);
            assert!(!away.hit && away.toi == max_toi, "{name}: {away:?}");
            assert!(sane_ray(&solid, max_toi) && sane_ray(&hollow, max_toi), "{name}");
        }
    }
}

/// Issue 11: a ray with direction 1e154 missed (|d|² overflows), and a sphere of radius 1e308 gave `hit: true,
/// toi: null` (r² overflows). Rays are cast along their unit direction, and sizes out of the squares' range are
/// scaled by a power of two; every answer is right and finite. Fast and GJK paths, f64 and f32 (1e38 there).
#[test]
fn issue_11_huge_and_tiny_rays_and_shapes() {
    let ball = Ball::new(1.0).unwrap();
    let gjk_ball = SupportFn::rounded(|_: DVec3| DVec3::ZERO, 1.0);
    let o = DVec3::new(-5.0, 0.0, 0.0);
    for k in [1e154, 1e300, 1e-200, 1e-300, 1.7e308] {
        let dir = DVec3::new(k, 0.0, 0.0);
        for (name, r) in [
            ("fast", ray_cast(&ball, &Iso::identity(), o, dir, f64::INFINITY, true)),
            ("gjk", ray_cast(&gjk_ball, &Iso::identity(), o, dir, f64::INFINITY, true)),
        ] {
            assert!(r.hit && sane_ray(&r, f64::INFINITY), "{name} direction {k}: {r:?}");
            assert!((r.toi * k / 4.0 - 1.0).abs() < 1e-12, "{name} direction {k}: toi {}", r.toi);
            assert!((r.point - DVec3::new(-1.0, 0.0, 0.0)).length() < 1e-12 && r.normal == -DVec3::X, "{name}: {r:?}");
        }
    }
    // A sphere of radius 1e308, from inside (hollow: it leaves at 1e308) and from outside.
    let huge = Ball::new(1e308).unwrap();
    let gjk_huge = SupportFn::rounded(|_: DVec3| DVec3::ZERO, 1e308);
    for (name, s) in [("fast", &huge as &dyn SupportMap<DVec3>), ("gjk", &gjk_huge)] {
        let out = ray_cast(s, &Iso::identity(), DVec3::ZERO, DVec3::Z, f64::INFINITY, false);
        assert!(out.hit && (out.toi / 1e308 - 1.0).abs() < 1e-12 && out.normal == DVec3::Z, "{name}: {out:?}");
        let o = DVec3::new(-1.5e308, 0.0, 0.0);
        let r = ray_cast(s, &Iso::identity(), o, DVec3::X, f64::INFINITY, true);
        assert!(r.hit && (r.toi / 0.5e308 - 1.0).abs() < 1e-12 && sane_ray(&r, f64::INFINITY), "{name}: {r:?}");
        let r = ray_cast(s, &Iso::identity(), o, DVec3::new(1e300, 0.0, 0.0), f64::INFINITY, true);
        assert!(r.hit && (r.toi / 0.5e8 - 1.0).abs() < 1e-12 && sane_ray(&r, f64::INFINITY), "{name}: {r:?}");
    }
    // A sphere of radius 1e-170 (its square underflows), from 5e-170 away, along directions of 1 and 1e-170.
    let tiny = Ball::new(1e-170).unwrap();
    let gjk_tiny = SupportFn::rounded(|_: DVec3| DVec3::ZERO, 1e-170);
    for (name, s) in [("fast", &tiny as &dyn SupportMap<DVec3>), ("gjk", &gjk_tiny)] {
        for k in [1.0, 1e-170] {
            let r = ray_cast(s, &Iso::identity(), DVec3::new(-5e-170, 0.0, 0.0), DVec3::X * k, f64::INFINITY, true);
            let normal_ok = (r.normal + DVec3::X).length() < 1e-15;
            assert!(r.hit && (r.toi * k / 4e-170 - 1.0).abs() < 1e-12 && normal_ok, "{name} {k}: {r:?}");
        }
    }
    // f32: a sphere of radius 1e38 and directions of 1e30 and 1e-30.
    let huge32 = Ball::new(1e38f32).unwrap();
    let r =
        ray_cast(&huge32, &Iso::identity(), Vec3::new(-3e38, 0.0, 0.0), Vec3::new(1e30, 0.0, 0.0), f32::INFINITY, true);
    assert!(r.hit && (r.toi / 2e8 - 1.0).abs() < 1e-6 && sane_ray(&r, f32::INFINITY), "{r:?}");
    let small = Ball::new(1.0f32).unwrap();
    let r =
        ray_cast(&small, &Iso::identity(), Vec3::new(-5.0, 0.0, 0.0), Vec3::new(1e-30, 0.0, 0.0), f32::INFINITY, true);
    assert!(r.hit && (r.toi / 4e30 - 1.0).abs() < 1e-6 && sane_ray(&r, f32::INFINITY), "{r:?}");
    // Not numbers: an undecided miss at 0, never a panic or a NaN.
    for bad in [DVec3::new(f64::NAN, 0.0, 0.0), DVec3::new(f64::INFINITY, 0.0, 0.0)] {
        let r = ray_cast(&ball, &Iso::identity(), o, bad, 10.0, true);
        assert!(!r.hit && r.toi == 0.0 && r.status == Status::Stalled, "{r:?}");
        let r = ray_cast(&ball, &Iso::identity(), bad, DVec3::X, 10.0, true);
        assert!(!r.hit && r.toi == 0.0 && r.status == Status::Stalled, "{r:?}");
    }
    let r = ray_cast(&ball, &Iso::identity(), o, DVec3::X, f64::NAN, true);
    assert!(!r.hit && r.status == Status::Stalled, "{r:?}");
}

/// Issue 11: ray-cast normals on needle cones were off by up to 1.2e-3 rad (the GJK path's facet normal on a
/// curved surface). Cones now have an exact fast path; checked against an independent answer: the entry found by
/// bisection on the cone's inequality along the ray, and the normal of whichever constraint is active there
/// (side: the gradient of ρ − k(h − y); base: −y).
#[test]
fn issue_11_needle_cone_ray_normals_are_exact() {
    let mut r = common::rng(0x5eed_0c21);
    let (mut worst_angle, mut worst_excess) = (0.0f64, 0.0f64);
    let mut hits = 0;
    for (h, radius) in [(1.0, 1e-3), (0.5, 1e-5), (1e-4, 0.1), (0.7, 0.9)] {
        let cone = Cone::new(h, radius).unwrap();
        let k = radius / (2.0 * h);
        let inside = |p: DVec3| p.y.abs() <= h && DVec3::new(p.x, 0.0, p.z).length() <= k * (h - p.y);
        for _ in 0..400 {
            let pose = common::pose3(&mut r, 1.0);
            // Aim at a point inside the cone, from outside.
            let y = common::uniform(&mut r, -h, h) * 0.999;
            let rho = k * (h - y) * common::uniform(&mut r, 0.0, 0.99);
            let phi = common::angle(&mut r);
            let target_local = DVec3::new(rho * phi.cos(), y, rho * phi.sin());
            let origin_local = target_local + common::unit3(&mut r) * 3.0 * h.max(radius);
            if inside(origin_local) {
                continue;
            }
            let (origin, target) = (pose.transform_point(origin_local), pose.transform_point(target_local));
            let c = ray_cast(&cone, &pose, origin, target - origin, 2.0, true);
            assert!(c.hit && c.iterations == 0, "the fast path hits: {c:?}");
            hits += 1;
            // Bisection on the entry between the (outside) origin and the (inside) target.
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if inside(origin_local + (target_local - origin_local) * mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let p = origin_local + (target_local - origin_local) * hi;
            assert!((c.toi - hi).abs() < 1e-12, "toi {} vs {hi}", c.toi);
            let side = DVec3::new(p.x, 0.0, p.z).length() - k * (h - p.y);
            let base = -h - p.y;
            let normal = if base.abs() < side.abs() {
                -DVec3::Y
            } else {
                let radial = DVec3::new(p.x, 0.0, p.z).normalize();
                (radial + DVec3::Y * k).normalize()
            };
            // The chord between unit vectors is the angle to second order (acos would lose half the digits).
            let angle = (pose.transform_vector(normal) - c.normal).length();
            // Near a needle's apex the side's normal turns with the radial direction of a point ρ from the axis,
            // which the input's own rounding (an ulp of the coordinates, ~1e-16 · |o|) already moves by that over
            // ρ: the allowance is that conditioning, and 1e-12 elsewhere.
            let rho = DVec3::new(p.x, 0.0, p.z).length();
            let conditioning = 8.0 * f64::EPSILON * (origin_local.length() + 1.0) / rho.max(1e-300);
            worst_angle = worst_angle.max(angle);
            worst_excess = worst_excess.max(angle / (1e-12 + conditioning));
        }
    }
    println!(
        "needle cones: {hits} hits, worst normal error {worst_angle:.2e} rad, at most {worst_excess:.2} of the \
         allowance (conditioning near the apex)"
    );
    assert!(hits > 1000 && worst_excess <= 1.0, "{worst_angle} {worst_excess}");
}

/// A pose as the CLI reads it: quaternion [x, y, z, w], normalised.
fn pose(t: [f64; 3], q: [f64; 4]) -> Iso<DVec3> {
    Iso::new(DQuat::from_xyzw(q[0], q[1], q[2], q[3]).normalize(), DVec3::from_array(t))
}

/// shared/curved-examples.jsonl c31-000050 (its numbers copied here): a ray grazing a flat ellipsoid (radii 0.84 ×
/// 0.0014 × 0.15) got its normal 1.2e-6 rad off through the GJK path. Ellipsoids now have an exact fast path: the
/// certified answer to 1e-9.
#[test]
fn curved_example_c31_000050_flat_ellipsoid_graze() {
    let e = Ellipsoid::new(DVec3::new(0.8393481939680518, 0.0013842467357201085, 0.15107582691844654)).unwrap();
    let at = pose(
        [0.46926405746304284, -0.6930492383908561, -0.6547402017821723],
        [0.5590743992887942, -0.7282412777204904, 0.36199922771977, 0.1614218591585159],
    );
    let origin = DVec3::new(-2.170982785672029, -5.9531410606594175, 0.8186944694555668);
    let direction = DVec3::new(0.8836342736486882, 1.7648776057070372, -0.34707509901044165);
    let r = ray_cast(&e, &at, origin, direction, 9.468424504734928, true);
    let normal = DVec3::new(-0.8331817496904322, 0.32353112866236705, 0.4484816392777361);
    let point = DVec3::new(0.20626153215191928, -1.2050847833744585, -0.1150428601002916);
    assert!(r.hit && r.iterations == 0 && (r.toi - 2.690303430635245).abs() < 1e-9, "{r:?}");
    assert!((r.normal - normal).length() < 1e-9 && (r.point - point).length() < 1e-9, "{r:?}");
}

/// gjk-fuzz seed 78 case 3751: a ray from a point of a cone's base rim (max_toi 0), down and inward, so that its
/// line touches the cone there and nowhere else — through the GJK path (the cone as a custom support function, as a
/// Minkowski sum with a point, and rounded by 0: the CLI reaches the last two). The casts of the whole line both
/// met the cone, the entering one tangentially and later than the leaving one (6e-12 against 5e-15), and its
/// normal, +y in the cone's frame, was taken: its plane through the hit was 1.23 from the cone's supporting plane.
/// Now a proximal normal from just outside along the ray: the base's −y here. Also a ray from a box's corner along
/// its outward diagonal (the line meets the box at the corner only; answered right before this change too). Checked, solid and hollow: a hit at 0 whose
/// normal is a unit vector supporting the shape at the hit point (its plane within 1e-9 of the size).
#[test]
fn ray_grazing_a_cone_rim_or_a_box_corner_at_its_origin_fuzz_78_3751() {
    let cone = Cone::new(0.6155484148027299, 0.6892999851886062).unwrap();
    let at = pose(
        [-0.3574218091989141, 0.3395904910455003, 0.09484566836312358],
        [-0.2740993013600084, 0.48172029093211866, 0.6175215848881271, -0.5581059276656054],
    );
    let origin = DVec3::new(-0.9935671273851008, 0.8517302419566513, -0.337665984929162);
    let direction = DVec3::new(-0.00794870889085546, -0.003384576695343705, -0.04490527481740272);
    let custom = SupportFn::new(|d: DVec3| cone.support(d));
    let sum = MinkowskiSum::new(cone, Point::new(DVec3::ZERO).unwrap());
    let rounded = Rounded::new(cone, 0.0).unwrap();
    // Sizes and place in powers of two, so that the corner is exactly the box's.
    let half = DVec3::new(0.25, 1.5, 0.125);
    let cuboid = Cuboid::new(half).unwrap();
    let box_pose = Iso::from_translation(DVec3::new(4.0, -2.0, 1024.0));
    let (corner, diagonal) = (box_pose.transform_point(half), half);
    let custom_box = SupportFn::new(|d: DVec3| cuboid.support(d));
    // (label, shape, its pose, the ray's origin and direction)
    type Case<'a> = (&'a str, &'a dyn SupportMap<DVec3>, Iso<DVec3>, DVec3, DVec3);
    let cases: [Case; 4] = [
        ("custom cone", &custom, at, origin, direction),
        ("cone + point", &sum, at, origin, direction),
        ("rounded cone", &rounded, at, origin, direction),
        ("custom box", &custom_box, box_pose, corner, diagonal),
    ];
    for (label, shape, at, origin, direction) in cases {
        let size = common::support_value(shape, &Iso::identity(), DVec3::ONE.normalize()).abs().max(1.0);
        for solid in [true, false] {
            let r = ray_cast(shape, &at, origin, direction, 0.0, solid);
            assert!(r.hit && r.toi == 0.0 && r.status == Status::Converged, "{label} solid {solid}: {r:?}");
            assert!((r.normal.length() - 1.0).abs() < 1e-12, "{label} solid {solid}: {r:?}");
            let off = common::support_value(shape, &at, r.normal) - r.normal.dot(r.point);
            assert!(off.abs() <= 1e-9 * size, "{label} solid {solid}: the normal's plane is {off:e} off: {r:?}");
        }
    }
}

/// shared/curved-examples.jsonl c31-000007: a ray towards a thin cylinder (0.57 × 0.00057) whose hit, at 3.365,
/// lies beyond max_toi 1.33: a miss, clear up to max_toi; without the cut-off, the certified hit to 1e-9.
#[test]
fn curved_example_c31_000007_thin_cylinder_hit_beyond_max_toi() {
    let c = Cylinder::new(0.5656430328883545, 0.0005656430328883545).unwrap();
    let at = pose(
        [-0.09747483971953579, 0.3145431521667665, -0.28283962536503654],
        [-0.8086361227710028, 0.04907801934932828, -0.49595144705818806, 0.31261978684580366],
    );
    let origin = DVec3::new(-0.1654749020105305, 2.5129630768254794, -2.779492362094547);
    let direction = DVec3::new(0.037434744020558415, -0.7128763313966854, 0.7002899228708911);
    let max_toi = 1.330133990658637;
    let r = ray_cast(&c, &at, origin, direction, max_toi, true);
    assert!(!r.hit && r.toi == max_toi && r.status == Status::Converged, "{r:?}");
    let r = ray_cast(&c, &at, origin, direction, f64::INFINITY, true);
    let normal = DVec3::new(-0.042192602812995486, 0.5608818032716071, -0.8268200451287179);
    let point = DVec3::new(-0.03948850474995023, 0.11378223467294524, -0.4226709992466886);
    assert!(r.hit && (r.toi - 3.3654937560516256).abs() < 1e-9, "{r:?}");
    assert!((r.normal - normal).length() < 1e-9 && (r.point - point).length() < 1e-9, "{r:?}");
}

/// shared/curved-examples.jsonl c31-000021: a flat ellipsoid and a Minkowski sum of two ellipsoids, both moving,
/// meet at 0.4025, beyond max_toi 0.3386: a miss, clear up to max_toi; without the cut-off, the certified time
/// and normal to 1e-9 (the normal through the GJK path of curved shapes: to 1e-7).
#[test]
fn curved_example_c31_000021_ellipsoid_minkowski_hit_beyond_max_toi() {
    let a = Ellipsoid::new(DVec3::new(0.0011000766559822485, 0.9200905919874124, 0.40463614012102866)).unwrap();
    let b = MinkowskiSum::new(
        Ellipsoid::new(DVec3::new(0.2989720695454682, 0.2074533040752869, 0.9660026382563749)).unwrap(),
        Ellipsoid::new(DVec3::new(0.42962198536015156, 0.41181117102701587, 0.4715336722893796)).unwrap(),
    );
    let pose_a = pose(
        [0.23943615166142115, -0.19513108772549195, -0.2742428604240763],
        [0.3359804454051757, 0.4725924015202048, -0.572540989388351, -0.5796295177101607],
    );
    let pose_b = pose(
        [2.4234352532947416, -1.2326891367658153, -0.7167043929762419],
        [0.4027571716671367, -0.11209237923195539, -0.8612161432492141, -0.2890133453592709],
    );
    let va = DVec3::new(0.8426900447530279, -0.45179070729892434, -0.2210338768925403);
    let max_toi = 0.33856259508768494;
    let c = shape_cast(&a, &pose_a, va, &b, &pose_b, -va, &opts(max_toi));
    assert!(!c.hit && c.toi == max_toi && c.status == Status::Converged, "{c:?}");
    let c = shape_cast(&a, &pose_a, va, &b, &pose_b, -va, &opts(f64::INFINITY));
    let normal = DVec3::new(0.8536185743389417, -0.5068480041819928, -0.12016834108983626);
    assert!(c.hit && (c.toi - 0.40254833474379076).abs() < 1e-9, "{c:?}");
    assert!((c.normal - normal).length() < 1e-7, "{:?} vs {normal:?}", c.normal);
}

/// Issue 11: an f32 ray cast on a 2D needle polygon (±1e6 long, ±1e-3 thick) reported a hit point 2.4e7 from the
/// shape. Turned, the f32 corners round to a segment (0.06 at 1e6 is far more than 2e-3), which the GJK path in
/// f32 called touching from 7 away; axis-aligned, the polygon's f32 edge normals are exact but turned ones are off
/// by ~1e-7 rad, 0.1 at 1e6 — more than the thickness. Polytopes now clip in f64 (planes, and where a ray crosses
/// a segment or a flat polygon): every hit is where the same ray meets the same (f32) vertices in f64, to f32
/// rounding, and lies on the shape.
#[test]
fn issue_11_f32_needle_polygon_ray() {
    let mut worst = 0.0f64;
    for angle in [0.0f32, 0.3, 1.0, 2.0, -2.7] {
        let rot = Rot2::from_angle(angle);
        let corners = [Vec2::new(-1e6, -1e-3), Vec2::new(1e6, -1e-3), Vec2::new(1e6, 1e-3), Vec2::new(-1e6, 1e-3)];
        let pts: Vec<Vec2> = corners.iter().map(|p| rot.rotate(*p)).collect();
        let needle = ConvexPolytope::new(&pts).unwrap();
        let needle64 = ConvexPolytope::new(&pts.iter().map(|p| p.as_dvec2()).collect::<Vec<_>>()).unwrap();
        for k in 0..9 {
            let along = -9e5 + 2.25e5 * k as f32;
            let target = rot.rotate(Vec2::new(along, 0.0));
            for off in [Vec2::new(3.0, 7.0), Vec2::new(-500.0, 20.0), Vec2::new(0.5, -1e4)] {
                let origin = target + off;
                let r = ray_cast(&needle, &Iso::identity(), origin, target - origin, 10.0, true);
                let r64 =
                    ray_cast(&needle64, &Iso::identity(), origin.as_dvec2(), (target - origin).as_dvec2(), 10.0, true);
                assert!(r.hit && r64.hit && sane_ray(&r, 10.0), "{angle} {along} {off:?}: {r:?} vs {r64:?}");
                // The same hit to f32 rounding of coordinates near 1e6 (0.06).
                let gap = (r.point.as_dvec2() - r64.point).length();
                worst = worst.max(gap);
                assert!(gap < 0.2, "{angle} {along} {off:?}: {r:?} vs {r64:?}");
                assert!((r.normal.length() - 1.0).abs() < 1e-6, "{r:?}");
            }
        }
    }
    println!("f32 needle polygon: hits within {worst:.3} of the f64 answer");
}

/// Issue 11's overflow, in shape casts: balls of radius 1e308 and 1e-300, shapes 1e200 apart, moving at 1e154:
/// cast in a frame scaled by a power of two, the answers are right and finite. Linear and rotating, f64 and f32.
#[test]
fn issue_11_huge_and_tiny_shape_casts() {
    for s in [1e300, 1e200, 1e-200, 1e-300] {
        let ball = Ball::new(0.5 * s).unwrap();
        let cube = Cuboid::new(DVec3::splat(0.5 * s)).unwrap();
        let a = Iso::from_translation(DVec3::new(-2.0 * s, 0.0, 0.0));
        let b = Iso::from_translation(DVec3::new(2.0 * s, 0.0, 0.0));
        // Closing at 2·s per unit time, 3·s apart: contact at t = 1.5.
        let c = shape_cast(&ball, &a, DVec3::X * s, &cube, &b, -DVec3::X * s, &opts(10.0));
        assert!(c.hit && (c.toi - 1.5).abs() < 1e-12 && sane_cast(&c, 10.0), "{s:e}: {c:?}");
        assert!((c.point_a.x / s).abs() < 1e-12 && (c.normal - DVec3::X).length() < 1e-12, "{s:e}: {c:?}");
        let ma = Motion::new(a, DVec3::X * s, DVec3::new(0.0, 3.0, 0.0));
        let mb = Motion::new(b, -DVec3::X * s, DVec3::ZERO);
        let c = time_of_impact(&ball, &ma, &cube, &mb, &opts(10.0));
        assert!(c.hit && (c.toi - 1.5).abs() < 1e-9 && sane_cast(&c, 10.0), "{s:e}: {c:?}");
    }
    // Velocities of 1e154 and 1e-154 (no squares of them are formed).
    let ball = Ball::new(1.0).unwrap();
    let a = Iso::from_translation(DVec3::new(-3.0, 0.0, 0.0));
    for v in [1e154, 1e-154] {
        let c = shape_cast(&ball, &a, DVec3::X * v, &ball, &Iso::identity(), DVec3::ZERO, &opts(f64::INFINITY));
        assert!(c.hit && (c.toi * v - 1.0).abs() < 1e-12 && sane_cast(&c, f64::INFINITY), "{v}: {c:?}");
    }
    // f32: a ball of radius 1e37.
    let big = Ball::new(1e37f32).unwrap();
    let c = shape_cast(
        &big,
        &Iso::from_translation(Vec3::new(-3e37, 0.0, 0.0)),
        Vec3::X * 1e37,
        &big,
        &Iso::identity(),
        Vec3::ZERO,
        &opts(10.0),
    );
    assert!(c.hit && (c.toi - 1.0).abs() < 1e-5 && sane_cast(&c, 10.0), "{c:?}");
}

// ---------------------------------------------------------------------------------------------------------------
// Other libraries' failures (shared/PEER-FAILURES.md).

/// parry #180: a box cast onto a long segment (f32, the box at (15.689465, 54.00709) moving (0.0081385,
/// −0.999966)) returned no hit, while nudging the start by 1e-6 (an f32 ulp) gave one. Every nudge hits, at the
/// closed-form time (the box's bottom face reaching the segment's line), in f32 and f64.
#[test]
fn parry_180_box_onto_segment_hits_under_1e6_nudges() {
    fn case<V: common::Space2>(x: f64, y: f64) -> (bool, f64) {
        let segment = Segment::new(V::from64(DVec2::new(1.0, 1.0)), V::from64(DVec2::new(124.0, 1.0))).unwrap();
        let cube = Cuboid::new(V::from64(DVec2::splat(2.0))).unwrap();
        let v = V::from64(DVec2::new(0.0081385, -0.999966));
        let start = Iso::from_translation(V::from64(DVec2::new(x, y)));
        let c = shape_cast(&segment, &Iso::identity(), V::zero(), &cube, &start, v, &opts(f64::INFINITY));
        assert!(sane_cast(&c, V::Real::INFINITY), "{c:?}");
        (c.hit, c.toi.to_f64())
    }
    for dx in [-2e-6, -1e-6, 0.0, 1e-6, 2e-6] {
        for dy in [-1e-6, 0.0, 1e-6] {
            let (x, y) = (15.689465 + dx, 54.00709 + dy);
            // As f32 gives them: the closed form from the rounded inputs.
            let (y32, vy32) = (y as f32 as f64, -0.999966f32 as f64);
            let want32 = (y32 - 3.0) / -vy32;
            let (hit, toi) = case::<Vec2>(x, y);
            assert!(hit && (toi - want32).abs() < 1e-3, "f32 ({x}, {y}): {hit} {toi} vs {want32}");
            let (hit, toi) = case::<DVec2>(x, y);
            let want = (y - 3.0) / 0.999966;
            assert!(hit && (toi - want).abs() < 1e-11, "f64 ({x}, {y}): {hit} {toi} vs {want}");
        }
    }
}

/// parry #429: a ball (r 0.5166) cast straight down onto a box of half-extent 5, 50 and 500 came back up to
/// 139 mm short at 500 (termination on an unrefined bound, with support coordinates far larger than the answer).
/// Here the time is within the cast's tolerance of the closed form (its 16 ulps of the pair's size: 2.5e-13 in
/// f64, 2.7 mm in f32 at 500), from random points over the face.
#[test]
fn parry_429_ball_onto_large_box_toi_is_not_short() {
    let mut r = common::rng(0x5eed_0c30);
    for half in [5.0, 50.0, 500.0] {
        let (mut worst64, mut worst32) = (0.0f64, 0.0f64);
        for _ in 0..400 {
            let (x, z) = (common::uniform(&mut r, -half, half), common::uniform(&mut r, -half, half));
            let height = common::uniform(&mut r, 1.1, 4.0);
            let want = height - 0.5 - 0.5166;
            let ball = Ball::new(0.5166).unwrap();
            let ground = Cuboid::new(DVec3::new(half, 0.5, half)).unwrap();
            let start = Iso::from_translation(DVec3::new(x, height, z));
            let c = shape_cast(&ball, &start, -DVec3::Y, &ground, &Iso::identity(), DVec3::ZERO, &opts(10.0));
            assert!(c.hit && (c.normal + DVec3::Y).length() < 1e-12, "{c:?}");
            worst64 = worst64.max((c.toi - want).abs());
            let ball32 = Ball::new(0.5166f32).unwrap();
            let ground32 = Cuboid::new(Vec3::new(half as f32, 0.5, half as f32)).unwrap();
            let start32 = Iso::from_translation(Vec3::new(x as f32, height as f32, z as f32));
            let c = shape_cast(&ball32, &start32, -Vec3::Y, &ground32, &Iso::identity(), Vec3::ZERO, &opts(10.0));
            let want32 = (height as f32 as f64) - 0.5 - (0.5166f32 as f64);
            assert!(c.hit && (c.normal + Vec3::Y).length() < 1e-6, "{c:?}");
            worst32 = worst32.max((c.toi as f64 - want32).abs());
        }
        let size = 2.0 * DVec3::new(half, 0.5, half).length();
        println!("ball onto a box of half-extent {half}: toi off by at most {worst64:.1e} (f64), {worst32:.1e} (f32)");
        assert!(worst64 <= 16.0 * f64::EPSILON * size * 1.5, "{half}: {worst64}");
        assert!(worst32 <= 16.0 * f32::EPSILON as f64 * size * 1.5, "{half}: {worst32}");
    }
}

/// parry #193: shape-cast normals were "almost never normalized" and imprecise when moving nearly parallel to a
/// wall (a character clipping through a 10 × 5 × 0.1 wall at a shallow angle); HeartofPhos's variant: shapes
/// starting slightly inside a box's face got very different normals for slightly different depths. Here: unit to
/// 1e-12 (f64) and exactly the wall's face normal, at shallow angles down to 1e-4, and at initial depths from
/// 1e-6 to 1e-2.
#[test]
fn parry_193_cast_normals_are_unit_and_exact_at_shallow_angles() {
    let wall = Cuboid::new(DVec3::new(5.0, 2.5, 0.05)).unwrap();
    let movers: Vec<(&str, Box<dyn SupportMap<DVec3>>)> = vec![
        ("capsule", Box::new(Capsule::new(0.5, 0.3).unwrap())),
        ("box", Box::new(Cuboid::new(DVec3::splat(0.3)).unwrap())),
        ("ball", Box::new(Ball::new(0.3).unwrap())),
        ("rounded box", Box::new(Rounded::new(Cuboid::new(DVec3::splat(0.2)).unwrap(), 0.1).unwrap())),
    ];
    for (name, m) in &movers {
        for slope in [1e-4, 1e-3, 1e-2, 0.3] {
            // Closing `slope` per unit along x, from 3·slope above the face: contact over x = 0, at t = 3.
            let reach = m.support(-DVec3::Z).z.abs() + m.radius();
            let start = Iso::from_translation(DVec3::new(-3.0, 0.4, 0.05 + reach + 3.0 * slope));
            let v = DVec3::new(1.0, 0.0, -slope);
            let c = shape_cast(&**m, &start, v, &wall, &Iso::identity(), DVec3::ZERO, &opts(f64::INFINITY));
            assert!(
                c.hit && (c.toi - 3.0).abs() < 1e-9 && (c.normal.length() - 1.0).abs() < 1e-12,
                "{name} {slope}: {c:?}"
            );
            assert!((c.normal + DVec3::Z).length() < 1e-12, "{name} {slope}: {:?}", c.normal);
        }
        for depth in [1e-6, 1e-4, 1e-2] {
            // Starting `depth` inside the wall's +z face, moving along it.
            let reach = m.support(-DVec3::Z).z.abs() + m.radius();
            let start = Iso::from_translation(DVec3::new(0.2, 0.1, 0.05 + reach - depth));
            let c = shape_cast(&**m, &start, DVec3::X, &wall, &Iso::identity(), DVec3::ZERO, &opts(1.0));
            assert!(c.hit && c.toi == 0.0 && (c.normal + DVec3::Z).length() < 1e-9, "{name} {depth}: {c:?}");
        }
    }
}

/// parry #315: two unit boxes touching on the plane x = 1 got contact points at the first box's centre and a
/// normal along −y. A cast between them starting there (moving into each other) hits at 0 with the face normal +x
/// and witness points on the shared face; moving along the face with `ignore_initial_overlap_when_separating`
/// slides out (parry #405); moving into it with the flag still hits (Jolt #1786).
#[test]
fn parry_315_405_jolt_1786_touching_boxes() {
    fn case<V: common::Space3>()
    where
        V::Rotation: Rotation<V, Angular = V>,
    {
        let cube = Cuboid::new(V::from64(DVec3::splat(0.5))).unwrap();
        let a = Iso::from_translation(V::from64(DVec3::splat(0.5)));
        let b = Iso::from_translation(V::from64(DVec3::new(1.5, 0.5, 0.5)));
        let tol = if V::NAME == "f64" { 1e-12 } else { 1e-6 };
        let slide = CastOptions { ignore_initial_overlap_when_separating: true, ..opts(2.0) };
        for (flag, o) in [(false, opts(2.0)), (true, slide)] {
            let c = shape_cast(&cube, &a, V::from64(DVec3::X), &cube, &b, V::zero(), &o);
            assert!(c.hit && c.toi == V::Real::ZERO, "{} {flag}: {c:?}", V::NAME);
            assert!((c.normal.to64() - DVec3::X).length() < tol, "{} {flag}: {c:?}", V::NAME);
            for p in [c.point_a.to64(), c.point_b.to64()] {
                let on_face =
                    (p.x - 1.0).abs() < tol && (-tol..=1.0 + tol).contains(&p.y) && (-tol..=1.0 + tol).contains(&p.z);
                assert!(on_face, "{} {flag}: {c:?}", V::NAME);
            }
            let ma = Motion::new(a, V::from64(DVec3::X), V::zero());
            let mb = Motion::new(b, V::zero(), V::zero());
            let c = time_of_impact(&cube, &ma, &cube, &mb, &o);
            assert!(c.hit && c.toi == V::Real::ZERO && (c.normal.to64() - DVec3::X).length() < tol, "{c:?}");
        }
        // Along the face and away: with the flag, a decided miss (clear all along); without, a hit at once.
        for v in [DVec3::Y, DVec3::new(0.0, 0.6, -0.8), -DVec3::X, DVec3::new(-1.0, 1.0, 0.0)] {
            let c = shape_cast(&cube, &a, V::from64(v), &cube, &b, V::zero(), &slide);
            assert!(!c.hit && c.toi == V::Real::from_f64(2.0) && c.status == Status::Converged, "{v}: {c:?}");
            let c = shape_cast(&cube, &a, V::from64(v), &cube, &b, V::zero(), &opts(2.0));
            assert!(c.hit && c.toi == V::Real::ZERO, "{v}: {c:?}");
            let ma = Motion::new(a, V::from64(v), V::zero());
            let mb = Motion::new(b, V::zero(), V::zero());
            let c = time_of_impact(&cube, &ma, &cube, &mb, &slide);
            assert!(!c.hit && c.status == Status::Converged, "{v}: {c:?}");
        }
    }
    case::<DVec3>();
    case::<Vec3>();
}

/// Jolt #1786: a cast starting from touching (not intersecting) missed. Spheres, a capsule on a box, a hull on a
/// hull, exactly touching and moving into each other: a hit at 0, with and without the flag, f64 and f32.
#[test]
fn jolt_1786_cast_from_touching_hits() {
    let slide = CastOptions { ignore_initial_overlap_when_separating: true, ..opts(1.0) };
    let ball = Ball::new(1.0).unwrap();
    let capsule = Capsule::new(0.5, 0.25).unwrap();
    let cube = Cuboid::new(DVec3::splat(1.0)).unwrap();
    let tetra = ConvexPolytope::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z]).unwrap();
    type Placed<'a> = (&'a dyn SupportMap<DVec3>, DVec3);
    let cases: Vec<(&str, Placed, Placed)> = vec![
        ("spheres", (&ball, DVec3::ZERO), (&ball, DVec3::new(2.0, 0.0, 0.0))),
        // A standing capsule's bottom (y = −0.75) on the box's top face (y = 1).
        ("capsule on box", (&capsule, DVec3::new(0.3, 1.75, -0.2)), (&cube, DVec3::ZERO)),
        // Two tetrahedra sharing the point (1, 0, 0): the second one's corner at the origin sits there.
        ("tetrahedra", (&tetra, DVec3::ZERO), (&tetra, DVec3::X)),
    ];
    for (name, (a, pa), (b, pb)) in cases {
        let (pa, pb) = (Iso::from_translation(pa), Iso::from_translation(pb));
        let d = gjk::distance(a, &pa, b, &pb);
        assert!(d.distance.abs() < 1e-15, "{name}: set up touching: {d:?}");
        let toward = pb.translation - pa.translation;
        for o in [opts(1.0), slide] {
            let c = shape_cast(a, &pa, toward, b, &pb, DVec3::ZERO, &o);
            assert!(c.hit && c.toi == 0.0 && (c.normal.length() - 1.0).abs() < 1e-12, "{name}: {c:?}");
        }
    }
    let ball32 = Ball::new(1.0f32).unwrap();
    let far = Iso::from_translation(Vec3::new(2.0, 0.0, 0.0));
    for o in [opts(1.0), CastOptions { ignore_initial_overlap_when_separating: true, ..opts(1.0) }] {
        let c = shape_cast(&ball32, &Iso::identity(), Vec3::X, &ball32, &far, Vec3::ZERO, &o);
        assert!(c.hit && c.toi == 0.0, "{c:?}");
    }
}

/// box3d #32: a cast starting within the target distance reported a hit at once even when moving away, so a body
/// resting within its skin of a floor could not move. With `ignore_initial_overlap_when_separating`, a box 0.02
/// above a floor with a skin of 0.05 moves up and along freely (a decided miss) and hits at once moving down;
/// without the flag every start within the skin is a hit at 0 (documented). From 0.08 above, moving down at 1, it
/// hits when the gap reaches the skin: at 0.03.
#[test]
fn box3d_32_cast_within_target_distance() {
    let floor = Cuboid::new(DVec3::new(10.0, 0.5, 10.0)).unwrap();
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let skin = CastOptions { target_distance: 0.05, ..opts(1.0) };
    let slide = CastOptions { ignore_initial_overlap_when_separating: true, ..skin };
    let resting = Iso::from_translation(DVec3::new(0.0, 1.02, 0.0));
    for (v, moving_in) in [(DVec3::Y, false), (DVec3::X, false), (DVec3::new(1.0, 0.1, 0.0), false), (-DVec3::Y, true)]
    {
        let c = shape_cast(&cube, &resting, v, &floor, &Iso::identity(), DVec3::ZERO, &slide);
        assert_eq!(c.hit, moving_in, "{v}: {c:?}");
        assert!(if moving_in { c.toi == 0.0 } else { c.toi == 1.0 && c.status == Status::Converged }, "{c:?}");
        let c = shape_cast(&cube, &resting, v, &floor, &Iso::identity(), DVec3::ZERO, &skin);
        assert!(c.hit && c.toi == 0.0, "{v}: {c:?}");
    }
    let above = Iso::from_translation(DVec3::new(0.0, 1.08, 0.0));
    let c = shape_cast(&cube, &above, -DVec3::Y, &floor, &Iso::identity(), DVec3::ZERO, &slide);
    assert!(c.hit && (c.toi - 0.03).abs() < 1e-12, "{c:?}");
    assert!(((c.point_a - c.point_b).length() - 0.05).abs() < 1e-12, "{c:?}");
}

/// Bullet #34 (and Drake #1712): a 2D lidar in front of a box got wrong ranges for rays nearly perpendicular to
/// the face from the GJK ray test. A fan of 2001 rays, ±0.5 rad around the perpendicular (and ±1e-9, ±1e-15 of
/// it), against the box's fast path, a polygon and a support-function box (GJK path): each range is the closed
/// form 4 / cos θ to 1e-12 (the fast paths) and 1e-10 (the GJK path), or a miss past the box's half-height.
#[test]
fn bullet_34_lidar_fan_against_a_box() {
    let cube = Cuboid::new(DVec2::new(1.0, 3.0)).unwrap();
    let polygon = ConvexPolytope::new(&[
        DVec2::new(-1.0, -3.0),
        DVec2::new(1.0, -3.0),
        DVec2::new(1.0, 3.0),
        DVec2::new(-1.0, 3.0),
    ])
    .unwrap();
    let gjk_box =
        SupportFn::new(|d: DVec2| DVec2::new(if d.x < 0.0 { -1.0 } else { 1.0 }, if d.y < 0.0 { -3.0 } else { 3.0 }));
    let at = Iso::from_translation(DVec2::new(5.0, 0.0));
    let mut angles: Vec<f64> = (0..=2000).map(|i| -0.5 + i as f64 * 0.0005).collect();
    angles.extend([1e-9, -1e-9, 1e-15, -1e-15, 0.0]);
    let mut worst = 0.0f64;
    for theta in angles {
        let dir = DVec2::new(theta.cos(), theta.sin());
        let inside = (4.0 * theta.tan()).abs() <= 3.0;
        let want = 4.0 / theta.cos();
        for (name, s, tol) in
            [("box", &cube as &dyn SupportMap<DVec2>, 1e-12), ("polygon", &polygon, 1e-12), ("gjk", &gjk_box, 1e-10)]
        {
            let r = ray_cast(s, &at, DVec2::ZERO, dir, 100.0, true);
            // Rays within 1e-9 of the box's corners may go either way.
            if ((4.0 * theta.tan()).abs() - 3.0).abs() < 1e-9 {
                continue;
            }
            assert_eq!(r.hit, inside, "{name} θ {theta}: {r:?}");
            if inside {
                worst = worst.max((r.toi - want).abs() / want);
                assert!((r.toi - want).abs() <= tol * want, "{name} θ {theta}: {} vs {want}", r.toi);
                assert!((r.normal + DVec2::X).length() < 1e-9, "{name} θ {theta}: {r:?}");
            }
        }
    }
    println!("lidar fan: worst relative range error {worst:.1e}");
}

/// parry #106: casts that start overlapping reported `Converged` on the analytic ball–ball path but `Penetrating`
/// on the GJK path. One path here, one status: every pair overlapping or touching at t = 0 is a hit at 0 with
/// status `Converged` and a unit normal, and a ray from inside a solid gets the same answer from the fast path
/// and the GJK path.
#[test]
fn parry_106_same_status_on_every_path_at_toi_zero() {
    let ball = Ball::new(1.0).unwrap();
    let cube = Cuboid::new(DVec3::splat(1.0)).unwrap();
    let capsule = Capsule::new(0.5, 0.5).unwrap();
    let hull = ConvexPolytope::new(&[DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z, DVec3::ONE]).unwrap();
    let point = Point::new(DVec3::new(0.1, 0.0, 0.0)).unwrap();
    let shapes: [&dyn SupportMap<DVec3>; 5] = [&ball, &cube, &capsule, &hull, &point];
    for (i, a) in shapes.iter().enumerate() {
        for b in &shapes[i..] {
            for offset in [0.0, 0.3, 1.0] {
                let pb = Iso::from_translation(DVec3::new(offset, 0.1, 0.0));
                let c = shape_cast(*a, &Iso::identity(), DVec3::X, *b, &pb, DVec3::ZERO, &opts(1.0));
                if !gjk::intersects(*a, &Iso::identity(), *b, &pb) {
                    continue;
                }
                assert!(c.hit && c.toi == 0.0 && c.status == Status::Converged, "{c:?}");
                assert!((c.normal.length() - 1.0).abs() < 1e-12, "{c:?}");
            }
        }
    }
    let gjk_ball = SupportFn::rounded(|_: DVec3| DVec3::ZERO, 1.0);
    for (o, d) in [(DVec3::ZERO, DVec3::X), (DVec3::new(0.5, 0.2, 0.1), DVec3::new(-1.0, 2.0, 0.5))] {
        let fast = ray_cast(&ball, &Iso::identity(), o, d, 10.0, true);
        let slow = ray_cast(&gjk_ball, &Iso::identity(), o, d, 10.0, true);
        assert!(fast.hit && slow.hit && fast.toi == 0.0 && slow.toi == 0.0, "{fast:?} {slow:?}");
        assert!(fast.status == slow.status && fast.normal == slow.normal, "{fast:?} {slow:?}");
        let fast = ray_cast(&ball, &Iso::identity(), o, d, 10.0, false);
        let slow = ray_cast(&gjk_ball, &Iso::identity(), o, d, 10.0, false);
        assert!(fast.hit && slow.hit && fast.status == slow.status, "{fast:?} {slow:?}");
        assert!(
            (fast.toi - slow.toi).abs() < 1e-10 && (fast.normal - slow.normal).length() < 1e-9,
            "{fast:?} {slow:?}"
        );
    }
}

/// Hulls without an inside — a flat 3D polygon, a 2D segment — are met where the ray crosses them, exactly (in
/// f64), with the normal facing the ray; they had only the GJK path, whose touching tolerance in f32 called far
/// points hits (issue 11's needle). A tilted square and a segment, against the crossing computed here.
#[test]
fn flat_hull_rays_cross_exactly() {
    let mut r = common::rng(0x5eed_0c31);
    let q = common::unit_quat(&mut r);
    let corners = [
        DVec3::new(-1.0, -0.5, 0.0),
        DVec3::new(1.0, -0.5, 0.0),
        DVec3::new(1.0, 0.5, 0.0),
        DVec3::new(-1.0, 0.5, 0.0),
    ];
    let square: Vec<DVec3> = corners.iter().map(|&c| q * c + DVec3::new(0.3, -0.2, 0.1)).collect();
    let flat = ConvexPolytope::new(&square).unwrap();
    let flat32 = ConvexPolytope::new(&square.iter().map(|p| p.as_vec3()).collect::<Vec<_>>()).unwrap();
    let n = q * DVec3::Z;
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..2000 {
        let o = common::in_cube3(&mut r, 3.0);
        let target = q * DVec3::new(common::uniform(&mut r, -1.3, 1.3), common::uniform(&mut r, -0.7, 0.7), 0.0)
            + DVec3::new(0.3, -0.2, 0.1);
        let d = target - o;
        // The crossing, here: where n·(o + t d − target) = 0, i.e. t = 1; inside when |x| ≤ 1, |y| ≤ 0.5 locally.
        let local = q.inverse() * (target - DVec3::new(0.3, -0.2, 0.1));
        let inside = local.x.abs() <= 1.0 && local.y.abs() <= 0.5;
        if (local.x.abs() - 1.0).abs() < 1e-9 || (local.y.abs() - 0.5).abs() < 1e-9 || n.dot(d).abs() < 1e-6 {
            continue;
        }
        let c = ray_cast(&flat, &Iso::identity(), o, d, 10.0, true);
        assert_eq!(c.hit, inside, "{c:?}");
        let c32 = ray_cast(&flat32, &Iso::identity(), o.as_vec3(), d.as_vec3(), 10.0, true);
        // In f32 the corners round off their plane (a sliver 1e-8 thick): a ray at a cosine c meets it up to
        // 1e-8 / c earlier or later; checked where that is below 1e-5.
        let steep = n.dot(d).abs() / d.length() > 0.01;
        if inside {
            hits += 1;
            assert!(c.iterations == 0 && (c.toi - 1.0).abs() < 1e-12, "{c:?}");
            let facing = if n.dot(d) < 0.0 { n } else { -n };
            assert!((c.normal - facing).length() < 1e-12, "{c:?} vs {facing}");
            assert!(!steep || c32.hit && (c32.toi - 1.0).abs() < 1e-5, "{c32:?}");
        } else {
            misses += 1;
            let near_edge = (local.x.abs() - 1.0).abs() < 1e-5 || (local.y.abs() - 0.5).abs() < 1e-5;
            assert!(!steep || !c32.hit || near_edge, "{c32:?}");
        }
    }
    assert!(hits > 500 && misses > 300, "{hits} {misses}");
    // A 2D segment: crossed at its point, missed beside it, along its line left to the GJK cast.
    let seg = ConvexPolytope::new(&[DVec2::new(-1.0, 2.0), DVec2::new(3.0, 4.0)]).unwrap();
    let c = ray_cast(&seg, &Iso::identity(), DVec2::new(1.0, 0.0), DVec2::new(0.0, 2.0), 10.0, true);
    assert!(c.hit && c.iterations == 0 && (c.toi - 1.5).abs() < 1e-15, "{c:?}");
    assert!((c.normal - DVec2::new(1.0, -2.0).normalize()).length() < 1e-15, "{c:?}");
    let c = ray_cast(&seg, &Iso::identity(), DVec2::new(4.0, 0.0), DVec2::new(0.0, 2.0), 10.0, true);
    assert!(!c.hit && c.toi == 10.0, "{c:?}");
    let c = ray_cast(&seg, &Iso::identity(), DVec2::new(-3.0, 1.0), DVec2::new(2.0, 1.0), 10.0, true);
    assert!(c.hit && c.iterations > 0 && (c.toi - 1.0).abs() < 1e-9, "along the line, by GJK: {c:?}");
}

/// f32, 2D: a ball posed 1.2e5 off A's origin, spinning about it at 6.4 rad per unit of time, both bodies moving
/// at 1.8e7 together, B a point at A's origin. The ball's orbit never reaches B, so the cast advanced until the
/// poses left f32's range and then claimed a hit at t = 5e37 with NaN points (fuzz seed 1 case 4458). A hit is
/// now always finite; here the answer is a miss.
#[test]
fn f32_spinning_posed_ball_far_from_point_never_hits_with_nan() {
    let ball = Posed::new(
        Ball::new(38573.535f32).unwrap(),
        Iso::new(Rot2::from_angle(0.607_286_1f32), Vec2::new(97271.375, -71455.375)),
    );
    let point = Point::new(Vec2::ZERO).unwrap();
    let v = Vec2::new(14358853.0, 10785161.0);
    let at = Vec2::new(0.869_223_4, 0.705_601_8);
    let ma = Motion::new(Iso::new(Rot2::from_angle(3.038_686_7e-9), at), v, 6.429_43);
    let mb = Motion::new(Iso::new(Rot2::from_angle(0.830_552_3), at), v, 0.0);
    let opts = CastOptions { max_toi: f32::INFINITY, target_distance: 9.282_182e-6, ..CastOptions::default() };
    let c = time_of_impact(&ball, &ma, &point, &mb, &opts);
    assert!(!c.hit, "{c:?}");
    assert!(c.toi.is_finite() && c.point_a.is_finite() && c.point_b.is_finite() && c.normal.is_finite(), "{c:?}");
}

/// Zero-size shapes at the same far-off place (1.5e4 and 1e7 from the origin) with velocities of 1e-301 and a
/// target distance of 1e-311: the pair is cast in a frame scaled by 2^1022, and scaling the world poses (not the
/// pair's offset) sent them to infinity — hits with points at −∞ and NaN (fuzz seed 7 cases 9029, 7647, 19354).
/// The scaled frame is now centred on A (on the ray's origin for rays).
#[test]
fn coincident_zero_size_shapes_far_off_with_subnormal_sizes_cast_finite() {
    let at2 = DVec2::new(-15188.289229739765, -6114.999529291492);
    let dot = Ball::new(0.0).unwrap();
    let opts = CastOptions {
        max_toi: 1.0476723831749226,
        target_distance: 3.45079933437e-311,
        ignore_initial_overlap_when_separating: true,
        ..CastOptions::default()
    };
    let (va, vb) = (DVec2::new(1.0007384697698276e-301, -5.438900433989436e-302), DVec2::new(8.0e-302, -2.0e-301));
    let pose = |angle: f64| Iso::new(Rot2::from_angle(angle), at2);
    let c = shape_cast(&dot, &pose(-1.72), va, &dot, &pose(2.55), vb, &opts);
    let finite = |c: &Cast<DVec2>| c.toi.is_finite() && c.point_a.is_finite() && c.point_b.is_finite();
    assert!(finite(&c), "{c:?}");
    assert!(!c.hit || (c.point_a - at2).length() < 1e-9, "{c:?}");
    let ma = Motion::new(pose(-1.72), va, -2340.88);
    let mb = Motion::new(pose(2.55), vb, 0.0);
    let t = time_of_impact(&dot, &ma, &dot, &mb, &opts);
    assert!(finite(&t), "{t:?}");
    let at3 = DVec3::new(-2773125.116881984, -9612623.404343734, 746586.4733432257);
    let (a3, p3) = (Ball::new(0.0).unwrap(), Point::new(DVec3::ZERO).unwrap());
    let c3 = shape_cast(
        &a3,
        &Iso::from_translation(at3),
        DVec3::new(-3.4e-303, 2.4e-303, 1.4e-302),
        &p3,
        &Iso::from_translation(at3),
        DVec3::new(2.7e-303, -1.6e-302, 4.8e-303),
        &CastOptions { max_toi: 4.854409348106788, target_distance: 1e-310, ..CastOptions::default() },
    );
    assert!(c3.toi.is_finite() && c3.point_a.is_finite() && c3.point_b.is_finite(), "{c3:?}");
    let r = ray_cast(&a3, &Iso::from_translation(at3), at3 + DVec3::new(1e-305, 0.0, 0.0), -DVec3::X, 1.0, true);
    assert!(r.hit && r.point.is_finite() && (r.point - at3).length() < 1e-9, "{r:?}");
}

/// gjk-fuzz seed 31 case 15159: a ray starting exactly on a box's corner and heading in, through the GJK path (the
/// box inside a Minkowski sum with a point), came back with the normal of the box's diagonal, 0.34 off its
/// supporting plane: the cast of the ray's line ended on GJK's simplex from that corner to the opposite one, whose
/// normal was taken as a facet's. The normal must support the box at the hit: along it the hit is on the box's
/// supporting plane. Here, and on rays into random boxes from their corners.
#[test]
fn ray_through_a_box_corner_by_gjk_gets_a_supporting_normal_fuzz_31_15159() {
    let check = |half: DVec2, pose: &Iso<DVec2>, origin: DVec2, dir: DVec2, name: &str| {
        let boxed = MinkowskiSum::new(Cuboid::new(half).unwrap(), Point::new(DVec2::ZERO).unwrap());
        for solid in [true, false] {
            let r = ray_cast(&boxed, pose, origin, dir, 1e3, solid);
            if !r.hit || r.normal == DVec2::ZERO {
                continue;
            }
            let n = r.normal;
            let h = pose.transform_point(boxed.support(pose.rotation.inverse_rotate(n))).dot(n);
            let off = (h - n.dot(r.point)).abs();
            assert!(off <= 1e-12, "{name} solid {solid}: normal {n:?} is {off:e} from supporting the box at {r:?}");
        }
    };
    let half = DVec2::new(0.22305810111817506, 0.2632136158087541);
    let pose = Iso::new(Rot2::from_angle(-1.1928284710029566), DVec2::new(0.6342627417358708, -0.9015107075030375));
    let origin = DVec2::new(0.9612135085429954, -1.011690197907548);
    check(half, &pose, origin, DVec2::new(-0.01013635205464, -0.0022947780481092127), "fuzz 31:15159");
    let mut rng = 15159u64;
    let mut next = move || {
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (rng >> 11) as f64 / (1u64 << 53) as f64
    };
    for k in 0..200 {
        let half = DVec2::new(0.1 + next(), 0.1 + next());
        let pose = Iso::new(Rot2::from_angle(6.3 * next()), DVec2::new(next() - 0.5, next() - 0.5));
        let corner =
            DVec2::new(if next() < 0.5 { -half.x } else { half.x }, if next() < 0.5 { -half.y } else { half.y });
        // Heading into the box from its corner at any angle strictly between its two sides.
        let angle = 1.5 * next() + 0.01;
        let local = DVec2::new(-corner.x.signum() * angle.cos(), -corner.y.signum() * angle.sin());
        let dir = pose.transform_vector(local) * 0.01;
        check(half, &pose, pose.transform_point(corner), dir, &format!("corner {k}"));
    }
}

/// gjk-fuzz seed 31 case 5891: a ray starting exactly on a triangle's corner and heading out of it, between the
/// two faces' outward normals, through the GJK path (a 2D triangle has no closed form), came back with the normal
/// of one face flipped, pointing into the triangle (0.91 off its supporting plane). The cast of the ray's line met
/// the corner with GJK's simplex on the face it did not come over, and that face's normal was oriented like the
/// approach's, which the corner turns by more than a right angle. Checked on A − B itself now (along the normal A −
/// B reaches no further than the contact). Here, and on rays leaving random triangles at their corners: every hit
/// normal supports the triangle at the hit.
#[test]
fn ray_leaving_a_triangle_corner_by_gjk_gets_a_supporting_normal_fuzz_31_5891() {
    let check = |tri: &Triangle<DVec2>, pose: &Iso<DVec2>, origin: DVec2, dir: DVec2, name: &str| {
        for solid in [true, false] {
            let r = ray_cast(tri, pose, origin, dir, 1e3, solid);
            if !r.hit || r.normal == DVec2::ZERO {
                continue;
            }
            let n = r.normal;
            let h = pose.transform_point(tri.support(pose.rotation.inverse_rotate(n))).dot(n);
            let off = (h - n.dot(r.point)).abs();
            assert!(
                off <= 1e-12,
                "{name} solid {solid}: normal {n:?} is {off:e} from supporting the triangle at {r:?}"
            );
        }
    };
    let tri = Triangle::new(
        DVec2::new(-0.18770901934588724, 0.6882311269232388),
        DVec2::new(0.026530551810460094, -0.654649856737815),
        DVec2::new(0.8184871485048818, -0.1277126567522029),
    )
    .unwrap();
    let pose = Iso::new(Rot2::from_angle(3.076853090212829), DVec2::new(-0.2251106610348974, -0.9422802139784472));
    let origin = DVec2::new(-1.0336208950176662, -0.761883605064956);
    check(&tri, &pose, origin, DVec2::new(-1.7772528009069275e-6, -2.7583296169120633e-6), "fuzz 31:5891");
    let mut rng = common::rng(5891);
    for k in 0..300 {
        let p =
            [common::in_square2(&mut rng, 1.0), common::in_square2(&mut rng, 1.0), common::in_square2(&mut rng, 1.0)];
        let Ok(tri) = Triangle::new(p[0], p[1], p[2]) else { continue };
        let pose = common::pose2(&mut rng, 1.0);
        let corner = p[k % 3];
        // Any direction: those into the triangle enter it, the others graze the corner on their way out.
        let dir = pose.transform_vector(common::unit2(&mut rng)) * 0.01;
        check(&tri, &pose, pose.transform_point(corner), dir, &format!("corner {k}"));
    }
}

/// gjk-fuzz seed 31 cases 4934, 5313 (and 11172, 7404, 3637 in f32): rays across a 2D capsule of radius 0 — a
/// segment — missed it (the line's foot on the round middle, a rounding error off the axis, was outside the
/// radius 0) or hit it with a zero normal (the middle's radial direction at radius 0). In 2D the middle is the
/// rectangle |x| ≤ r, |y| ≤ h, cut by slabs, and a 2D [`Segment`] casts as that capsule in its own frame: a line
/// crossing the segment hits it where it crosses, with the segment's normal facing the ray. Against the crossing
/// solved here by Cramer's rule.
#[test]
fn ray_across_a_zero_radius_2d_capsule_or_segment_hits_where_it_crosses_fuzz_31_4934_5313() {
    // (ends of the segment, origin, direction, max_toi): the expected hit from the two lines' crossing.
    let check = |ends: (DVec2, DVec2), hit: RayCast<DVec2>, o: DVec2, d: DVec2, max_toi: f64, name: &str| {
        let (a, b) = ends;
        let e = b - a;
        let det = e.x * d.y - e.y * d.x;
        let rhs = a - o;
        // o + t d = a + s e  ⇒  t d − s e = a − o.
        let t = (e.x * rhs.y - e.y * rhs.x) / det;
        let s = (d.x * rhs.y - d.y * rhs.x) / det;
        let crosses = (1e-9..=1.0 - 1e-9).contains(&s) && t >= 0.0 && t * (1.0 + 1e-12) < max_toi;
        if !crosses {
            return;
        }
        assert!(hit.hit, "{name}: the ray crosses the segment at t = {t}, s = {s} but misses: {hit:?}");
        let scale = e.length() + (a - o).length();
        assert!(((hit.toi - t) * d.length()).abs() <= 1e-12 * scale, "{name}: toi {} for {t}: {hit:?}", hit.toi);
        let mut n = DVec2::new(e.y, -e.x).normalize();
        if n.dot(d) > 0.0 {
            n = -n;
        }
        assert!((hit.normal - n).length() <= 1e-12, "{name}: normal {:?}, the segment's {n:?}", hit.normal);
    };
    let capsule = |h: f64, pose: &Iso<DVec2>, o: DVec2, d: DVec2, max_toi: f64, name: &str| {
        let c = Capsule::new(h, 0.0).unwrap();
        let ends = (pose.transform_point(DVec2::new(0.0, -h)), pose.transform_point(DVec2::new(0.0, h)));
        for solid in [true, false] {
            check(ends, ray_cast(&c, pose, o, d, max_toi, solid), o, d, max_toi, name);
        }
    };
    let pose = Iso::new(Rot2::from_angle(0.8681318568964702), DVec2::new(-0.7918645233152639, 0.6101967190267401));
    let (o, d) =
        (DVec2::new(1.5150517713491736, 2.2697472447669105), DVec2::new(-18.413596570124252, -11.90958111012163));
    capsule(0.6478339175972843, &pose, o, d, 77.23380235775623, "fuzz 31:4934");
    let pose = Iso::new(Rot2::from_angle(-1.8020895842469003e-9), DVec2::new(0.8622425638784703, 0.9645514223556872));
    let (o, d) =
        (DVec2::new(2.273109350737398, 0.2606623974227823), DVec2::new(-84.51868685008888, 41.709432988513186));
    capsule(0.48316083136838595, &pose, o, d, 855.4411359373642, "fuzz 31:5313");
    let mut rng = common::rng(4934);
    for k in 0..400 {
        let pose = common::pose2(&mut rng, 1.0);
        let h = common::log_uniform(&mut rng, 1e-3, 10.0);
        // Aimed at a point of the segment from a few sizes away.
        let target = pose.transform_point(DVec2::new(0.0, h * common::uniform(&mut rng, -0.99, 0.99)));
        let o = target + common::unit2(&mut rng) * common::uniform(&mut rng, 0.1, 5.0);
        let d = (target - o) * common::log_uniform(&mut rng, 1e-3, 1e3);
        capsule(h, &pose, o, d, 1e6, &format!("capsule {k}"));
        let (a, b) = (common::in_square2(&mut rng, 1.0), common::in_square2(&mut rng, 1.0));
        let seg = Segment::new(a, b).unwrap();
        let target = a + (b - a) * common::uniform(&mut rng, 0.01, 0.99);
        let o = target + common::unit2(&mut rng) * common::uniform(&mut rng, 0.1, 5.0);
        let d = target - o;
        for solid in [true, false] {
            check((a, b), ray_cast(&seg, &Iso::identity(), o, d, 10.0, solid), o, d, 10.0, &format!("segment {k}"));
        }
    }
}

/// gjk-fuzz seed 1 case 4505: a 2D polygon given only by its support function (the GJK path), a ray starting on
/// its leftmost vertex (within rounding: the closed form says 1.2e-16 outside) and heading in, was answered as a
/// miss. The point cast touched at once, so the whole line was cast from beyond the shape's bounding box; but the
/// turned box's left side rounded 2.2e-16 right of the origin, so "behind" the ray never was in the box and the
/// ray gave up. The box now holds the origin: a hit at 0 with the entered edge's normal, solid and hollow, like
/// the polygon's closed form (and the same from the shifted pose 1e5 away).
#[test]
fn ray_from_a_2d_polygon_boundary_heading_in_hits_at_zero_fuzz_1_4505() {
    let pts: Vec<DVec2> = [
        [-0.09197976408275176, -0.1512064344952985],
        [-0.4776995263777742, 0.32033981711375603],
        [0.41444286564905214, -0.23588084848432841],
        [0.3734881557975056, -0.25260619903099557],
        [0.012169141824985552, 0.15808241659548875],
        [0.48165039178780367, -0.4586560390851838],
        [-0.3868975500346148, 0.43912331499681895],
        [0.32479674972349615, 0.35860087748102326],
        [-0.36667619340139207, 0.06998315387908988],
        [-0.4794653780000965, -0.30806206900560956],
        [-0.15711345873694849, -0.32441022897857347],
        [0.29175757268671215, 0.2372490789617023],
        [-0.22476492113212843, 0.386128685684056],
        [0.353072608587148, -0.15214154410056502],
        [-0.15524119435330105, -0.337787390573957],
        [0.3563589376017392, -0.20422830298648983],
        [0.3463061241941788, 0.46272421375043565],
        [0.34299454608772534, -0.1148521995656764],
        [0.10431352427011238, 0.43468995588636483],
        [-0.35898541318662064, 0.15043580188514544],
    ]
    .iter()
    .map(|p| DVec2::new(p[0], p[1]))
    .collect();
    let poly = ConvexPolytope::new(&pts).unwrap();
    let gjk_path = SupportFn::new(|d: DVec2| poly.support(d));
    let pose = Iso::new(Rot2::from_angle(-3.1053299685623714), DVec2::new(-0.6898694898745243, 0.8457128351598264));
    let origin = DVec2::new(-1.1878316900552959, 1.2866052361941147);
    let direction = DVec2::new(7.750423072115134, -39.46940967412326);
    for shift in [DVec2::ZERO, DVec2::new(1e5, -7e4)] {
        let pose = Iso::new(pose.rotation, pose.translation + shift);
        // 1e5 off, the start rounds by ~1.5e-11, and the ray meets the edge at a grazing 0.0125 rad: its entry
        // moves by up to ~1.2e-9 along the ray.
        let at_start = if shift == DVec2::ZERO { 1e-12 } else { 1e-8 };
        let closed = ray_cast(&poly, &pose, origin + shift, direction, f64::INFINITY, true);
        assert!(closed.hit && closed.toi * direction.length() < at_start, "{closed:?}");
        for solid in [true, false] {
            let r = ray_cast(&gjk_path, &pose, origin + shift, direction, f64::INFINITY, solid);
            assert!(r.hit && sane_ray(&r, f64::INFINITY), "{shift} solid {solid}: {r:?}");
            // At the start (the ray enters here), with an outward normal of the vertex it enters at (the
            // closed form takes one edge's, the GJK path may take the other's): a unit normal whose line through
            // the start supports the polygon, facing the ray.
            assert!(r.toi * direction.length() < at_start, "{shift} solid {solid}: {r:?}");
            assert!((r.normal.length() - 1.0).abs() < 1e-12 && r.normal.dot(direction) < 0.0, "{r:?}");
            let n_local = pose.inverse_transform_vector(r.normal);
            let p_local = pose.inverse_transform_point(r.point);
            let reach = pts.iter().map(|v| n_local.dot(*v - p_local)).fold(f64::NEG_INFINITY, f64::max);
            assert!(reach.abs() < at_start, "{shift} solid {solid}: {r:?}, {reach:e}");
        }
    }
}

/// Flat cones (half height 1e-3 down to 1e-16 of the radius: slopes k = r / 2h up to 1e16). The closed-form cast
/// worked about the line's closest approach to the axis, which for a ray through a flat cone's plane lies far from
/// the thin slab; there k²(h − y)² dwarfed the line's distance from the axis and rounded it away, so any ray
/// crossing the plane "hit" (gjk-fuzz seed 3 case 4659: a disc of radius 1.2e-6 hit 0.33 from its centre; seed 2
/// case 4387, seed 3 cases 1152 and 1710 the same). Rays crossing the base's plane inside the rim (by 1e-6 of the
/// radius) must hit, within the slab and the rim; those crossing outside must miss.
#[test]
fn flat_cone_rays_hit_only_within_the_rim_fuzz_3_4659() {
    let cone = Cone::new(4.683916169703092e-16, 1.210170118111031e-6).unwrap();
    let at = pose([-0.47712346269398465, 0.3294793254915014, -0.22668971131808835], [0.0, 0.0, 0.0, 1.0]);
    let (o, d) = (
        DVec3::new(-1.4522777675363936, 1.745262549162921, -0.08042270660810072),
        DVec3::new(16.119062744774705, -19.73355418317483, -5.93300681677939),
    );
    for solid in [false, true] {
        let c = ray_cast(&cone, &at, o, d, 1742186.024687685, solid);
        assert!(!c.hit, "a ray 0.33 from a disc of radius 1.2e-6 hits it: {c:?}");
    }
    let mut r = common::rng(4659);
    let (mut hits, mut misses) = (0, 0);
    for case in 0..2000 {
        let radius = common::log_uniform(&mut r, 1e-6, 1e3);
        let h = radius * common::log_uniform(&mut r, 1e-16, 1e-3);
        let cone = Cone::new(h, radius).unwrap();
        let pose = common::pose3(&mut r, 1.0);
        // Where the ray crosses the base's plane: inside or outside the rim, by at least 1e-6 of the radius.
        let inside = case % 2 == 0;
        let rho = radius
            * if inside { common::uniform(&mut r, 0.0, 1.0 - 1e-6) } else { common::uniform(&mut r, 1.0 + 1e-6, 3.0) };
        let phi = common::angle(&mut r);
        let cross = DVec3::new(rho * phi.cos(), -h, rho * phi.sin());
        // From above or below, at least 30° from the plane.
        let mut dir = common::unit3(&mut r);
        dir.y = dir.y.signum() * dir.y.abs().max(0.5);
        let dir = dir.normalize();
        let origin = cross - dir * (2.0 * radius);
        let (o, d) = (pose.transform_point(origin), pose.transform_vector(dir) * 3.0);
        for solid in [false, true] {
            let c = ray_cast(&cone, &pose, o, d, 10.0 * radius, solid);
            let what =
                format!("case {case}: cone ({h:e}, {radius:e}), crossing {rho:e} from the axis, solid {solid}: {c:?}");
            assert_eq!(c.hit, inside, "{what}");
            if c.hit {
                let p = pose.inverse_transform_point(c.point);
                let tol = 1e-9 * radius;
                assert!(
                    p.y.abs() <= h + tol && DVec3::new(p.x, 0.0, p.z).length() <= radius + tol,
                    "{what}: hit point {p:?} off the cone"
                );
                // From above, the ray enters through the side, up to 2h higher than the base.
                assert!(
                    (c.toi * 3.0 - 2.0 * radius).abs() <= 1e-9 * radius + 2.0 * h / dir.y.abs(),
                    "{what}: hit at {} along the ray, the plane is {:e} away",
                    c.toi * 3.0,
                    2.0 * radius
                );
            }
        }
        if inside {
            hits += 1
        } else {
            misses += 1
        }
    }
    assert!(hits >= 900 && misses >= 900);
}

/// gjk-fuzz seed 3 case 2846: an f32 ray from 5.8e6 away across a 2D ellipse 0.46 thick and 1.9e6 long missed
/// it. The exact ray path casts in the ellipse's unit-ball frame, where the origin is 1.3e7 radii away: the foot
/// of the line, q + t_c·e, cancels to a few ulps of |q| — 0.6 of the radius in f32, more than enough to push it
/// outside the ball. The foot is now projected once more across the line (what lies along it is the rounding).
/// The family: rays crossing long thin ellipses (2D) and flat ellipsoids (3D) at ≥ 30° from their long axes,
/// aimed at a point of the middle of the shape from 1e2–1e8 (f32) or 1e2–1e16 (f64) thicknesses away (origins
/// whose rounding moves the line by up to a few thicknesses, along shapes ≥ 1e3 thicknesses long), must hit,
/// no later than that point, at a point that GJK's distance (no ray code) puts on the ellipsoid to the rounding
/// of the coordinates in play.
#[test]
fn f32_ray_from_far_across_a_thin_ellipse_hits_fuzz_3_2846() {
    let e = Ellipsoid::new(DVec2::new(0.4566484947547403, 1944764.2174817).as_vec2()).unwrap();
    let at = Iso::new(
        Rot2::from_angle(-0.9817983558473595f64 as f32),
        DVec2::new(0.8432272716559435, 0.05044310297550614).as_vec2(),
    );
    let (o, d) = (
        DVec2::new(516780.78844901774, 5811360.411201448).as_vec2(),
        DVec2::new(-1.6210596767159031, -22.395544577370433).as_vec2(),
    );
    for solid in [true, false] {
        let r = ray_cast(&e, &at, o, d, f32::INFINITY, solid);
        assert!(r.hit && sane_ray(&r, f32::INFINITY), "solid {solid}: {r:?}");
        let (e64, at64) = (Ellipsoid::new(e.radii.as_dvec2()).unwrap(), <Vec2 as common::Space2>::pose_to64(&at));
        let gap = distance_to_ellipsoid(r.point.as_dvec2(), &e64, &at64);
        // f32 rounding of coordinates near 5.8e6 (ulp 0.5).
        assert!(gap <= 64.0 * f32::EPSILON as f64 * 5.9e6, "solid {solid}: hit {gap:e} off the ellipse: {r:?}");
    }
    thin_ellipse_crossings::<Vec2>(1e8, 2846);
    thin_ellipse_crossings::<DVec2>(1e16, 2846);
    flat_ellipsoid_crossings::<Vec3>(1e8, 2846);
    flat_ellipsoid_crossings::<DVec3>(1e16, 2846);
}

/// The distance from `p` to the ellipsoid, by GJK (f64).
fn distance_to_ellipsoid<V: Vector<Real = f64>>(p: V, e: &Ellipsoid<V>, pose: &Iso<V>) -> f64 {
    gjk::distance(&Point::new(V::zero()).unwrap(), &Iso::from_translation(p), e, pose).distance
}

/// Checks a ray aimed at `target` (local, well inside) along the local direction `dir` from `far` away.
fn assert_crosses<V: Vector, W: Vector<Real = f64>>(
    e: &Ellipsoid<V>,
    pose: &Iso<V>,
    (e64, pose64): (&Ellipsoid<W>, &Iso<W>),
    (o, d, far): (V, V, f64),
    to64: impl Fn(V) -> W,
    what: &str,
) {
    let eps = V::Real::EPSILON.to_f64();
    let (long, speed) = (e64.radii.max_abs(), to64(d).length());
    let tol = 64.0 * eps * (far + long + pose64.translation.max_abs());
    let max_toi = V::Real::from_f64(4.0 * far / speed);
    for solid in [true, false] {
        let r = ray_cast(e, pose, o, d, max_toi, solid);
        assert!(r.hit && sane_ray(&r, max_toi), "{what}, solid {solid}: {r:?}");
        let (toi, gap) = (r.toi.to_f64(), distance_to_ellipsoid(to64(r.point), e64, pose64));
        assert!(toi * speed <= far + tol, "{what}, solid {solid}: hit at {:e}, beyond the target {far:e}", toi * speed);
        assert!(gap <= tol, "{what}, solid {solid}: hit point {gap:e} off the ellipsoid (tolerance {tol:e}): {r:?}");
    }
}

fn thin_ellipse_crossings<V: common::Space2>(farthest: f64, seed: u64) {
    let mut r = common::rng(seed);
    for case in 0..500 {
        let thin = common::log_uniform(&mut r, 1e-3, 1e3);
        let long = thin * common::log_uniform(&mut r, 1e3, 1e8);
        let radii = if case % 2 == 0 { DVec2::new(thin, long) } else { DVec2::new(long, thin) };
        let (across, along) = if case % 2 == 0 { (DVec2::X, DVec2::Y) } else { (DVec2::Y, DVec2::X) };
        let target = along * (long * common::uniform(&mut r, -0.5, 0.5));
        let tilt = common::uniform(&mut r, 30f64.to_radians(), 150f64.to_radians());
        let dir = along * tilt.cos() + across * tilt.sin() * if r.gen::<bool>() { 1.0 } else { -1.0 };
        let far = thin * common::log_uniform(&mut r, 1e2, farthest);
        let pose = V::pose_from64(&common::pose2(&mut r, long));
        let e = Ellipsoid::new(V::from64(radii)).unwrap();
        let pose64 = V::pose_to64(&pose);
        let e64 = Ellipsoid::new(e.radii.to64()).unwrap();
        let speed = common::log_uniform(&mut r, 1e-2, 1e2);
        let (o, d) = (pose64.transform_point(target - dir * far), pose64.transform_vector(dir) * speed);
        let what = format!("{} case {case}: ellipse {radii:?}, target {target:?}, from {far:e}", V::NAME);
        assert_crosses(&e, &pose, (&e64, &pose64), (V::from64(o), V::from64(d), far), |v: V| v.to64(), &what);
    }
}

fn flat_ellipsoid_crossings<V: common::Space3>(farthest: f64, seed: u64) {
    let mut r = common::rng(seed);
    for case in 0..500 {
        let thin = common::log_uniform(&mut r, 1e-3, 1e3);
        let long = thin * common::log_uniform(&mut r, 1e3, 1e8);
        let wide = long * common::uniform(&mut r, 0.1, 1.0);
        // The thin axis is `case % 3`, the long ones the other two.
        let (k, l, m) = (case % 3, (case + 1) % 3, (case + 2) % 3);
        let axis = |i: usize| DVec3::from_fn(|j| if i == j { 1.0 } else { 0.0 });
        let radii = axis(k) * thin + axis(l) * long + axis(m) * wide;
        let (u, phi) = (0.5 * common::uniform(&mut r, 0.0, 1.0).sqrt(), common::angle(&mut r));
        let target = axis(l) * (long * u * phi.cos()) + axis(m) * (wide * u * phi.sin());
        // At least 30° from the plane of the long axes.
        let mut dir = common::unit3(&mut r);
        let thin_part = dir.dot(axis(k));
        dir += axis(k) * (thin_part.signum() * thin_part.abs().max(0.5) - thin_part);
        let dir = dir.normalize();
        let far = thin * common::log_uniform(&mut r, 1e2, farthest);
        let pose = V::pose_from64(&common::pose3(&mut r, long));
        let e = Ellipsoid::new(V::from64(radii)).unwrap();
        let pose64 = V::pose_to64(&pose);
        let e64 = Ellipsoid::new(e.radii.to64()).unwrap();
        let speed = common::log_uniform(&mut r, 1e-2, 1e2);
        let (o, d) = (pose64.transform_point(target - dir * far), pose64.transform_vector(dir) * speed);
        let what = format!("{} case {case}: ellipsoid {radii:?}, target {target:?}, from {far:e}", V::NAME);
        assert_crosses(&e, &pose, (&e64, &pose64), (V::from64(o), V::from64(d), far), |v: V| v.to64(), &what);
    }
}

/// A ray from a point of a 3D segment (gjk-fuzz seed 43 case 8421: a 7.6-long segment, the ray from on it) came
/// back with a normal 2.7e-9 rad off perpendicular: the direction of a closest-point vector of touching length,
/// its part along the segment the rounding of the foot. At a point inside a segment every supporting plane
/// contains the segment, so the closed form's vector is now made perpendicular to it. Then segments 1e-3 … 1e3
/// long, up to 1e3 from the origin, rays from a point inside them (solid and hollow) and from outside through
/// them: every hit's normal is perpendicular to the segment to 1e-12 and supports it at the hit. (The fuzz case's
/// ray starts at an end of its segment, where the normal need only point back from it.)
#[test]
fn ray_from_on_a_3d_segment_has_a_perpendicular_normal_fuzz_43_8421() {
    let s = Segment::new(
        DVec3::new(1.2139119297472196, 2.5221263967412026, -2.896015614414359),
        DVec3::new(-1.277556526850086, -1.0398217734175763, 2.77172922606125),
    )
    .unwrap();
    let pose = Iso::new(
        DQuat::from_xyzw(0.0, -std::f64::consts::FRAC_1_SQRT_2, 0.0, std::f64::consts::FRAC_1_SQRT_2),
        DVec3::new(-0.24395505962536634, -0.5357109482218658, -0.16951122879813285),
    );
    let origin = DVec3::new(2.652060554788993, 1.9864154485193373, 1.044400700949087);
    let dir = DVec3::new(-0.06736433477856958, 0.0894269644571014, -0.07048839142027888);
    let mut cases = vec![(s, pose, origin, dir)];
    let mut r = common::rng(8421);
    for _ in 0..400 {
        let length = common::log_uniform(&mut r, 1e-3, 1e3);
        let e = common::unit3(&mut r) * length;
        let middle = common::in_cube3(&mut r, length);
        let s = Segment::new(middle - e * 0.5, middle + e * 0.5).unwrap();
        let pose = Iso::new(common::unit_quat(&mut r), common::unit3(&mut r) * common::log_uniform(&mut r, 1.0, 1e3));
        let on = pose.transform_point(middle + e * common::uniform(&mut r, -0.45, 0.45));
        let axis = pose.transform_vector(e / length);
        // At least 11° off the segment, so the line crosses it at the one point.
        let mut dir = common::unit3(&mut r);
        dir -= axis * (dir.dot(axis) - dir.dot(axis).clamp(-0.98, 0.98));
        let dir = dir.normalize() * common::log_uniform(&mut r, 1e-2, 1e2);
        cases.push((s, pose, on, dir));
        // From outside, across the same point.
        let back = length * common::uniform(&mut r, 0.1, 2.0);
        cases.push((s, pose, on - dir * (back / dir.length()), dir));
    }
    let mut hits = 0;
    for (k, (s, pose, origin, dir)) in cases.iter().enumerate() {
        let axis = pose.transform_vector(s.b - s.a).normalize();
        let (ea, eb) = (pose.transform_point(s.a), pose.transform_point(s.b));
        let size = ea.abs().max(eb.abs()).max(origin.abs()).max_element();
        for solid in [true, false] {
            let r = ray_cast(s, pose, *origin, *dir, 1e6, solid);
            let what = format!("case {k}, solid {solid}: {r:?}");
            // The rounded line passes within rounding of the segment, on one side or the other: a miss is an
            // answer too (the fuzz case, from exactly on it, is a hit).
            assert!(r.hit || k > 0, "{what}");
            if !r.hit {
                continue;
            }
            hits += 1;
            assert!((r.normal.length() - 1.0).abs() <= 1e-12, "{what}");
            // Inside the segment only the perpendicular planes support it. The fuzz case starts at the end a, where
            // the planes whose normal points back from the segment (n·axis ≤ 0) support it too: the ray, heading
            // into the segment's side of a (direction·axis = 0.25), answers the normal of the side it comes through,
            // n·axis = −0.25, since the casts of its whole line start past the coordinates' rounding instead of 1e-6
            // of time away (fuzz_52_3976); the perpendicular normal it gave before is another of that cone.
            let n_axis = r.normal.dot(axis);
            assert!(if k == 0 { n_axis <= 1e-12 } else { n_axis.abs() <= 1e-12 }, "{what}: n·axis {n_axis:e}");
            // Supports the segment at the hit: the farther end on the plane, to the rounding of the coordinates.
            let h = r.normal.dot(ea).max(r.normal.dot(eb)) - r.normal.dot(r.point);
            assert!(h.abs() <= 64.0 * f64::EPSILON * size, "{what}: plane off by {h:e}");
        }
    }
    // Most rays hit (seen: 1146 of 1602).
    assert!(hits > cases.len(), "{hits} hits of {}", 2 * cases.len());
}

/// gjk-fuzz seed 57 case 3464 (f32): a hollow ray from the end of a segment 4e5 long (coordinates 2e5), heading
/// out. The point cast touched at once, so the whole line was cast from beyond the bounding box; the cast back
/// started only 1e-3 past the origin, within the 0.03 of the end's f32 rounding, touched at its start and left with
/// a normal of no surface: (0.894, 0.447, 0), whose plane through the hit is 7.2e4 from the segment's supporting
/// plane. The casts now start past 1024 ulps of the box: the exit is at 0 with a normal that supports the segment
/// at its end (−direction, as f64 answers), in both precisions and solid or hollow.
#[test]
fn f32_ray_from_the_end_of_a_long_segment_fuzz_57_3464() {
    fn check<V: Vector>(label: &str, rounding: f64) {
        let v = |p: [f64; 3]| V::from_fn(|i| V::Real::from_f64(p[i]));
        let (a, b) = (
            [-87140.48121119791, -62435.234319492265, 229075.22224494934],
            [-76621.98838784704, 77497.92859078759, -145850.30899237134],
        );
        let segment = Segment::new(v(a), v(b)).unwrap();
        // The quaternion [0, 0, 0, −1] is the identity turn.
        let pose = Iso::from_translation(v([16946.602379351778, -7519.589411288288, -3372.314338201262]));
        let origin = v([-70193.87883184613, -69954.82373078055, 225702.9079067481]);
        let direction = v([352.17770401057686, -805.1667358632772, -534.6849822584566]);
        let ends = [pose.transform_point(v(a)), pose.transform_point(v(b))];
        for solid in [false, true] {
            let r = ray_cast(&segment, &pose, origin, direction, V::Real::from_f64(0.0016538987206889376), solid);
            assert!(r.hit && r.toi.to_f64() == 0.0, "{label} solid {solid}: {r:?}");
            // The normal supports the segment at the hit: no end reaches past the plane through it.
            let reach = ends.iter().map(|e| (*e - r.point).dot(r.normal).to_f64()).fold(f64::MIN, f64::max);
            assert!((r.normal.length().to_f64() - 1.0).abs() < 1e-6, "{label} solid {solid}: {r:?}");
            assert!(reach <= rounding, "{label} solid {solid}: an end {reach:e} past the normal's plane: {r:?}");
        }
    }
    // The ends' rounding at 2.3e5 (64 ulps), 4e5 long.
    check::<DVec3>("f64", 64.0 * f64::EPSILON * 2.3e5);
    check::<Vec3>("f32", 64.0 * f32::EPSILON as f64 * 2.3e5);
}

/// gjk-fuzz seed 52 case 3976 (f64): a hollow ray from on a Minkowski sum of two capsules 2.7e-8 wide, 0.54 from
/// the origin, along a direction 5.5e8 long. The ray starts on the shape, so the whole line is cast from beyond the
/// bounding box; that margin had a floor of 1e-6 in time, 550 in distance along this direction, and the exit time, a
/// difference of numbers that large, came out one ulp of 1e-6 off: the hit point 1.1e-13 past the surface, where the
/// unit direction's was 4e-18 from the start. The margin is now a distance: the fuzz case answers the same point
/// for both lengths, and on a sum that is a ball (two capsules of half-height 0), whose exit has a closed form, rays
/// from depths 0–100 % of the radius, in 2D and 3D, along directions of lengths 1e-3 to 1e12, leave within a few ulps
/// of the coordinates of where the ball's quadratic says.
#[test]
fn hollow_ray_along_a_long_direction_from_on_a_tiny_sum_fuzz_52_3976() {
    // The fuzz case itself: the same hit for the direction as given and for its unit vector.
    let sum = MinkowskiSum::new(
        Capsule::<f64>::new(0.0, 2.593250379203542e-8).unwrap(),
        Capsule::<f64>::new(4.935953808961359e-10, 6.050381603072275e-10).unwrap(),
    );
    let pose = Iso::new(Rot2::from_angle(-3.0961120364267027), DVec2::new(-0.5394675288465363, -0.1934019523626611));
    let origin = DVec2::new(-0.5394675083695869, -0.1934019697629703);
    let direction = DVec2::new(517103574.6362292, -194504125.92772976);
    let long = ray_cast(&sum, &pose, origin, direction, 7264968.477772097, false);
    let unit = ray_cast(&sum, &pose, origin, direction.normalize(), 1e30, false);
    assert!(long.hit && unit.hit, "{long:?} {unit:?}");
    let off = (long.point - unit.point).length();
    assert!(off <= 64.0 * f64::EPSILON * 0.54, "{off:e} between the two lengths' hits: {long:?} {unit:?}");
    check_ball_sum::<DVec2>("2D", 5201);
    check_ball_sum::<DVec3>("3D", 5202);
}

/// Hollow rays from inside a Minkowski sum of two point capsules (a ball 2.65e-8 in radius, up to 0.6 from the
/// origin) along directions of lengths 1e-3 to 1e12: each leaves where the ball's quadratic says, to a few ulps of
/// the coordinates. The starts are at least 2.65e-13 inside, 30 times the rounding of the coordinates: a start
/// within rounding of the surface, heading in, is hit where it is (the ray is on the surface).
fn check_ball_sum<V: Vector<Real = f64>>(label: &str, seed: u64) {
    let (r1, r2) = (2.593250379203542e-8, 6.050381603072275e-10);
    let sum = MinkowskiSum::new(Capsule::<f64>::new(0.0, r1).unwrap(), Capsule::<f64>::new(0.0, r2).unwrap());
    let radius = r1 + r2;
    let mut rng = common::rng(seed);
    let unit = |rng: &mut rand::rngs::SmallRng| loop {
        let d = V::from_fn(|_| common::uniform(rng, -1.0, 1.0));
        if d.length() > 0.1 && d.length() < 1.0 {
            break d.normalize_or_zero();
        }
    };
    for k in 0..40 {
        let centre = V::from_fn(|_| common::uniform(&mut rng, -0.6, 0.6));
        let at = [0.0, 0.5, 0.99, 0.9999, 1.0 - 1e-5][k % 5];
        let (origin, dir) = (centre + unit(&mut rng) * (at * radius), unit(&mut rng));
        // The far root of |o + t·u − c| = R: t = −b + √(b² − (|o − c|² − R²)), b = (o − c)·u.
        let o = origin - centre;
        let (b, oo): (f64, f64) = (o.dot(dir), o.length_squared());
        let t = -b + (b * b - (oo - radius * radius)).max(0.0).sqrt();
        let expected = origin + dir * t;
        let size = centre.max_abs().max(origin.max_abs());
        for length in [1e-3, 1.0, 5.5e8, 1e12] {
            let r = ray_cast(&sum, &Iso::from_translation(centre), origin, dir * length, 1e30, false);
            let what = format!("{label} case {k} at {at} of the radius, length {length:e}: {r:?}");
            assert!(r.hit, "{what}");
            let off = (r.point - expected).length();
            assert!(off <= 64.0 * f64::EPSILON * size, "{what}: {off:e} from the closed form's exit");
        }
    }
}
