//! Composite shapes against parry (parry3d-f64 / parry2d-f64 0.31) on random cases: a triangle mesh's distance and
//! ray casts, a polyline's distance, a compound against a compound. Both libraries answer the same shapes in the
//! same poses; the answers agree to 1e-9 of the scene's size (parry's own tolerances, not ours, set that bound).

use crate::common::{parry_pose2, parry_pose3, parry_vec2, parry_vec3};
use gjk::composite::{Compound, TriMesh};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2};
use gjk::query;
use gjk::shape::{Ball, ConvexPolytope, Cuboid};
use p3::query::RayCast;
use parry2d_f64 as p2;
use parry3d_f64 as p3;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn v3(rng: &mut SmallRng, s: f64) -> DVec3 {
    DVec3::new(rng.gen_range(-s..s), rng.gen_range(-s..s), rng.gen_range(-s..s))
}

fn pose3(rng: &mut SmallRng, s: f64) -> Iso<DVec3> {
    let q = DQuat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f64>() - 0.5).normalize();
    Iso::new(q, v3(rng, s))
}

/// A triangle soup (and its parry twin): distance to balls and boxes, and closest ray hits.
#[test]
fn trimesh_agrees_with_parry() {
    let mut rng = SmallRng::seed_from_u64(31);
    let (mut hits, mut rays) = (0, 0);
    for _ in 0..4 {
        let mut vertices = Vec::new();
        let mut tris = Vec::new();
        for i in 0..150u32 {
            let c = v3(&mut rng, 4.0);
            for _ in 0..3 {
                vertices.push(c + v3(&mut rng, 0.7));
            }
            tris.push([3 * i, 3 * i + 1, 3 * i + 2]);
        }
        let ours = TriMesh::new(vertices.clone(), tris.clone()).unwrap();
        let theirs = p3::shape::TriMesh::new(vertices.iter().map(|&v| parry_vec3(v)).collect(), tris).unwrap();
        let pm = pose3(&mut rng, 1.0);
        let ball = Ball::new(0.3).unwrap();
        let cube = Cuboid::new(DVec3::new(0.4, 0.2, 0.3)).unwrap();
        let (pball, pcube) = (p3::shape::Ball::new(0.3), p3::shape::Cuboid::new(parry_vec3(DVec3::new(0.4, 0.2, 0.3))));
        for k in 0..100 {
            let ps = pose3(&mut rng, 6.0);
            let (d, t) = if k % 2 == 0 {
                (
                    query::distance(&ours, &pm, &ball, &ps).distance,
                    p3::query::distance(&parry_pose3(&pm), &theirs, &parry_pose3(&ps), &pball).unwrap().distance,
                )
            } else {
                (
                    query::distance(&ours, &pm, &cube, &ps).distance,
                    p3::query::distance(&parry_pose3(&pm), &theirs, &parry_pose3(&ps), &pcube).unwrap().distance,
                )
            };
            assert!((d - t).abs() < 1e-9, "distance {d} vs parry {t}");
            hits += usize::from(d == 0.0);
        }
        for _ in 0..300 {
            // Aimed at the soup's region, so that many rays hit.
            let o = v3(&mut rng, 8.0);
            let dir = pm.transform_point(v3(&mut rng, 3.0)) - o;
            let r = query::ray_cast(&ours, &pm, o, dir, 30.0, false);
            let t =
                theirs.cast_ray(&parry_pose3(&pm), &p3::query::Ray::new(parry_vec3(o), parry_vec3(dir)), 30.0, false);
            match t {
                Some(t) => assert!(r.hit && (r.toi - t).abs() < 1e-9, "ray {} vs parry {t}", r.toi),
                None => assert!(!r.hit, "ray hit at {} where parry misses", r.toi),
            }
            rays += usize::from(r.hit);
        }
    }
    // Both outcomes are exercised.
    assert!(hits > 20 && hits < 380, "{hits} intersecting of 400");
    assert!(rays > 100 && rays < 1100, "{rays} hits of 1200 rays");
}

/// A 2D polyline (and parry2d's) against balls and boxes.
#[test]
fn polyline_agrees_with_parry() {
    let mut rng = SmallRng::seed_from_u64(32);
    let points: Vec<DVec2> =
        (0..200).map(|i| DVec2::new(i as f64 * 0.1 - 10.0, (i as f64 * 0.37).sin() * 2.0)).collect();
    let ours = TriMesh::polyline(points.clone(), false).unwrap();
    let theirs = p2::shape::Polyline::new(points.iter().map(|&p| parry_vec2(p)).collect(), None);
    let ball = Ball::new(0.25).unwrap();
    let square = Cuboid::new(DVec2::new(0.3, 0.2)).unwrap();
    let (pball, psquare) = (p2::shape::Ball::new(0.25), p2::shape::Cuboid::new(parry_vec2(DVec2::new(0.3, 0.2))));
    let mut hits = 0;
    for k in 0..400 {
        let pose = Iso::new(
            Rot2::from_angle(rng.gen_range(-3.0..3.0)),
            DVec2::new(rng.gen_range(-11.0..11.0), rng.gen_range(-4.0..4.0)),
        );
        let (d, t) = if k % 2 == 0 {
            (
                query::distance(&ours, &Iso::identity(), &ball, &pose).distance,
                p2::query::distance(&parry_pose2(&Iso::identity()), &theirs, &parry_pose2(&pose), &pball)
                    .unwrap()
                    .distance,
            )
        } else {
            (
                query::distance(&ours, &Iso::identity(), &square, &pose).distance,
                p2::query::distance(&parry_pose2(&Iso::identity()), &theirs, &parry_pose2(&pose), &psquare)
                    .unwrap()
                    .distance,
            )
        };
        assert!((d - t).abs() < 1e-9, "distance {d} vs parry {t}");
        hits += usize::from(d == 0.0);
    }
    assert!(hits > 20 && hits < 380, "{hits} intersecting of 400");
}

/// Compound against compound (hulls of random clouds) and parry's compounds of the same hulls.
#[test]
fn compound_agrees_with_parry() {
    let mut rng = SmallRng::seed_from_u64(33);
    let make = |rng: &mut SmallRng, n: usize| {
        let parts: Vec<(ConvexPolytope<DVec3>, Iso<DVec3>)> = (0..n)
            .map(|_| {
                let pts: Vec<DVec3> = (0..10).map(|_| v3(rng, 0.5)).collect();
                (ConvexPolytope::new(&pts).unwrap(), pose3(rng, 2.0))
            })
            .collect();
        let parry_parts: Vec<(p3::math::Pose, p3::shape::SharedShape)> = parts
            .iter()
            .map(|(h, p)| {
                let pts: Vec<p3::math::Vector> = h.vertices().iter().map(|&v| parry_vec3(v)).collect();
                (parry_pose3(p), p3::shape::SharedShape::convex_hull(&pts).unwrap())
            })
            .collect();
        (Compound::new(parts).unwrap(), p3::shape::Compound::new(parry_parts))
    };
    let (a, pa) = make(&mut rng, 12);
    let (b, pb) = make(&mut rng, 7);
    let mut hits = 0;
    for _ in 0..200 {
        let (qa, qb) = (pose3(&mut rng, 1.0), pose3(&mut rng, 5.0));
        let d = query::distance(&a, &qa, &b, &qb).distance;
        let t = p3::query::distance(&parry_pose3(&qa), &pa, &parry_pose3(&qb), &pb).unwrap().distance;
        assert!((d - t).abs() < 1e-9, "distance {d} vs parry {t}");
        assert_eq!(query::intersects(&a, &qa, &b, &qb), t == 0.0);
        hits += usize::from(d == 0.0);
    }
    assert!(hits > 10 && hits < 190, "{hits} intersecting of 200");
}
