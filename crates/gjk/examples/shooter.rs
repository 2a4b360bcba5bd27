//! A fast bullet against a thin wall.
//!
//! At 900 m/s a bullet moves 15 m per 60 Hz frame, 1500 times the thickness of a 1 cm wall: testing for overlap
//! at the end of each frame never sees it inside the wall, and it tunnels through. Sweeping the bullet over the
//! frame's motion with `shape_cast` finds the hit.
//!
//! Run with `cargo run -p gjk --example shooter`.

use gjk::cast::{shape_cast, CastOptions};
use gjk::math::{DQuat, DVec3, Iso};
use gjk::shape::{Ball, Cuboid};

const DT: f64 = 1.0 / 60.0;

fn main() {
    // A wall 1 cm thick, 4 m wide and 3 m high, turned 30° about the vertical, 20 m ahead.
    let wall = Cuboid::new(DVec3::new(0.005, 1.5, 2.0)).unwrap();
    let wall_pose = Iso::new(DQuat::from_rotation_y(30f64.to_radians()), DVec3::new(20.0, 1.5, 0.0));
    // A 9 mm bullet fired at 900 m/s, slightly upward and to the side.
    let bullet = Ball::new(0.0045).unwrap();
    let start = DVec3::new(0.0, 1.6, 0.3);
    let velocity = DVec3::new(900.0, 3.0, 20.0);

    // Discrete: where the bullet is at the end of each frame. It is never inside the wall.
    let mut position = start;
    for frame in 1..=3 {
        position += velocity * DT;
        let inside = gjk::intersects(&bullet, &Iso::from_translation(position), &wall, &wall_pose);
        println!("discrete, frame {frame}: bullet at {position:.3?}, overlaps the wall: {inside}");
    }

    // Continuous: cast the bullet over each frame's motion (max_toi = the frame's duration, in seconds).
    let options = CastOptions { max_toi: DT, ..CastOptions::default() };
    let mut position = start;
    for frame in 1..=3 {
        let pose = Iso::from_translation(position);
        let hit = shape_cast(&bullet, &pose, velocity, &wall, &wall_pose, DVec3::ZERO, &options);
        if hit.hit {
            let time = (frame - 1) as f64 * DT + hit.toi;
            println!(
                "continuous, frame {frame}: hit after {:.3} ms of the frame ({:.3} ms after firing)",
                hit.toi * 1e3,
                time * 1e3
            );
            println!("  bullet centre at impact: {:.4?}", position + velocity * hit.toi);
            println!("  point on the wall:       {:.4?}", hit.point_b);
            println!("  wall normal (outward):   {:.4?}", -hit.normal);
            return;
        }
        position += velocity * DT;
        println!("continuous, frame {frame}: no hit, bullet now at {position:.3?}");
    }
    println!("missed the wall");
}
