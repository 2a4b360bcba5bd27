//! Culling a scene against a camera's view frustum.
//!
//! Game engines usually test each object's bounding sphere against the frustum's six planes: cheap, but
//! conservative — a long box lying just outside a corner of the frustum passes, and is drawn for nothing. GJK
//! tests the object's true shape against the frustum's true shape (the convex hull of its eight corners), so what
//! it keeps is exactly what the camera can see. This example culls 20,000 boxes, capsules, spheres and small hulls
//! both ways, checks that every object GJK keeps is also kept by the sphere test (the exact answer can only be
//! stricter), and times the exact test on one core and on all of them (`gjk::batch`).
//!
//! Run with `cargo run --release -p gjk --example frustum_culling`.

use std::time::Instant;

use gjk::math::{DQuat, DVec3, Iso};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, Frustum, SupportMap};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type Shape = Box<dyn SupportMap<DVec3> + Send + Sync>;

const OBJECTS: usize = 20_000;
const FOV_Y: f64 = 1.0; // radians
const ASPECT: f64 = 16.0 / 9.0;
const NEAR: f64 = 0.1;
const FAR: f64 = 60.0;

fn main() {
    // The camera at (0, 2, 12), turned 25° to the left, looking down its −z.
    let camera = Iso::new(DQuat::from_rotation_y(25f64.to_radians()), DVec3::new(0.0, 2.0, 12.0));
    let frustum = Frustum::perspective(FOV_Y, ASPECT, NEAR, FAR).unwrap();
    let scene = scatter(&mut SmallRng::seed_from_u64(7));

    // Conservative: bounding spheres against the frustum's planes, in the camera's frame.
    let planes = frustum_planes();
    let sphere_visible: Vec<bool> = scene
        .iter()
        .map(|(shape, pose)| {
            let centre = camera.inverse_transform_point(pose.translation);
            let radius = bounding_radius(shape.as_ref());
            planes.iter().all(|(n, d)| n.dot(centre) - d <= radius)
        })
        .collect();

    // Exact: GJK between the frustum and each object.
    let start = Instant::now();
    let exact: Vec<bool> =
        scene.iter().map(|(shape, pose)| gjk::intersects(&frustum, &camera, shape.as_ref(), pose)).collect();
    let one_core = start.elapsed();
    let start = Instant::now();
    let mut exact_batch = vec![false; scene.len()];
    gjk::batch::map_into(&scene, &mut exact_batch, |(shape, pose)| {
        gjk::intersects(&frustum, &camera, shape.as_ref(), pose)
    });
    let all_cores = start.elapsed();

    assert_eq!(exact, exact_batch, "the batch answers as the loop does");
    let wrongly_culled = exact.iter().zip(&sphere_visible).filter(|(e, s)| **e && !**s).count();
    assert_eq!(wrongly_culled, 0, "an object GJK sees cannot be outside its own bounding sphere's test");

    let kept = |v: &[bool]| v.iter().filter(|x| **x).count();
    let (by_sphere, by_gjk) = (kept(&sphere_visible), kept(&exact));
    println!("{OBJECTS} objects in the scene");
    println!("bounding spheres vs planes keep {by_sphere}; GJK (exact shapes) keeps {by_gjk}");
    println!(
        "{} objects ({:.1} % of the sphere test's) pass the sphere test but are not in view: drawn for nothing",
        by_sphere - by_gjk,
        100.0 * (by_sphere - by_gjk) as f64 / by_sphere.max(1) as f64
    );
    println!(
        "exact culling: {:.2} ms on one core ({:.0} ns per object), {:.2} ms with gjk::batch on {} threads",
        one_core.as_secs_f64() * 1e3,
        one_core.as_secs_f64() * 1e9 / OBJECTS as f64,
        all_cores.as_secs_f64() * 1e3,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}

/// Objects of four kinds scattered over a 160 × 12 × 160 m field around the camera, randomly turned.
fn scatter(r: &mut SmallRng) -> Vec<(Shape, Iso<DVec3>)> {
    (0..OBJECTS)
        .map(|i| {
            let size = r.gen_range(0.2..2.0);
            let shape: Shape = match i % 4 {
                // Long thin boxes (beams, planks) are where bounding spheres are loosest.
                0 => Box::new(Cuboid::new(DVec3::new(size * 2.5, size * 0.1, size * 0.3)).unwrap()),
                1 => Box::new(Capsule::new(size, size * 0.2).unwrap()),
                2 => Box::new(Ball::new(size * 0.5).unwrap()),
                _ => {
                    let pts: Vec<DVec3> = (0..12)
                        .map(|_| DVec3::new(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0)))
                        .map(|p| p * size)
                        .collect();
                    Box::new(ConvexPolytope::new(&pts).unwrap())
                }
            };
            let at = DVec3::new(r.gen_range(-80.0..80.0), r.gen_range(-4.0..8.0), r.gen_range(-80.0..80.0));
            let axis = DVec3::new(r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0), r.gen_range(-1.0..1.0));
            let turn = DQuat::from_axis_angle(axis.normalize_or(DVec3::Y), r.gen_range(-3.2..3.2));
            (shape, Iso::new(turn, at))
        })
        .collect()
}

/// The frustum's six planes (n, d), keeping n·p ≤ d, in the camera's frame (looking down −z): the four sides pass
/// through the eye, tilted by half the field of view; near and far are z = −NEAR and z = −FAR.
fn frustum_planes() -> [(DVec3, f64); 6] {
    let ty = (FOV_Y / 2.0).tan();
    let tx = ASPECT * ty;
    [
        (DVec3::new(-1.0, 0.0, tx).normalize(), 0.0),
        (DVec3::new(1.0, 0.0, tx).normalize(), 0.0),
        (DVec3::new(0.0, -1.0, ty).normalize(), 0.0),
        (DVec3::new(0.0, 1.0, ty).normalize(), 0.0),
        (DVec3::Z, -NEAR),
        (-DVec3::Z, FAR),
    ]
}

/// Radius of a sphere about the shape's local origin holding its bounding box.
fn bounding_radius(shape: &dyn SupportMap<DVec3>) -> f64 {
    let b = shape.local_aabb();
    b.min.abs().max(b.max.abs()).length()
}
