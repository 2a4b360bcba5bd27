//! A capsule character sliding along boxes: move and slide.
//!
//! Each frame the character wants to move by `velocity · dt` (walking diagonally into a wall, with gravity). The
//! move is cast against every obstacle; the character advances to the first hit, stopping a small skin away from
//! the surface (`target_distance`), then the rest of the move loses its component into the surface and the cast is
//! repeated, a few times at most. Starting each cast within the skin of a surface it slides along is not a hit
//! (`ignore_initial_overlap_when_separating`), so the character slides instead of sticking.
//!
//! Run with `cargo run -p gjk --example character`.

use gjk::cast::{shape_cast, Cast, CastOptions};
use gjk::math::{DQuat, DVec3, Iso};
use gjk::shape::{Capsule, Cuboid};

/// Distance kept between the character and the world.
const SKIN: f64 = 0.01;
/// Casts per frame: the first move and up to three slides.
const MAX_SLIDES: usize = 4;

struct Obstacle {
    name: &'static str,
    shape: Cuboid<DVec3>,
    pose: Iso<DVec3>,
}

/// Moves the character at `position` by `motion`, sliding along what it hits. Returns the names of the obstacles
/// it touched.
fn move_and_slide(
    character: &Capsule<f64>,
    position: &mut DVec3,
    mut motion: DVec3,
    world: &[Obstacle],
) -> Vec<&'static str> {
    // toi is in units of `motion`: 1 is the whole move.
    let options = CastOptions {
        max_toi: 1.0,
        target_distance: SKIN,
        ignore_initial_overlap_when_separating: true,
        ..CastOptions::default()
    };
    let mut touched = Vec::new();
    for _ in 0..MAX_SLIDES {
        if motion.length() < 1e-9 {
            break;
        }
        let pose = Iso::from_translation(*position);
        // The first obstacle hit along the move.
        let first: Option<(Cast<DVec3>, &Obstacle)> = world
            .iter()
            .map(|o| (shape_cast(character, &pose, motion, &o.shape, &o.pose, DVec3::ZERO, &options), o))
            .filter(|(c, _)| c.hit)
            .min_by(|a, b| a.0.toi.total_cmp(&b.0.toi));
        let Some((hit, obstacle)) = first else {
            *position += motion;
            break;
        };
        touched.push(obstacle.name);
        *position += motion * hit.toi;
        // The normal points from the character toward the obstacle: drop the rest of the move's component along
        // it (only if it goes into the obstacle).
        let rest = motion * (1.0 - hit.toi);
        motion = rest - hit.normal * rest.dot(hit.normal).max(0.0);
    }
    touched
}

fn main() {
    let character = Capsule::new(0.5, 0.3).unwrap(); // 1.6 m tall
    let world = [
        Obstacle {
            name: "floor",
            shape: Cuboid::new(DVec3::new(10.0, 0.5, 10.0)).unwrap(),
            pose: Iso::from_translation(DVec3::new(0.0, -0.5, 0.0)),
        },
        // A wall across the path, turned −20° about the vertical, and a second wall closing the corner.
        Obstacle {
            name: "wall",
            shape: Cuboid::new(DVec3::new(0.25, 1.5, 6.0)).unwrap(),
            pose: Iso::new(DQuat::from_rotation_y(-20f64.to_radians()), DVec3::new(3.0, 1.5, 0.0)),
        },
        Obstacle {
            name: "corner wall",
            shape: Cuboid::new(DVec3::new(6.0, 1.5, 0.25)).unwrap(),
            pose: Iso::from_translation(DVec3::new(0.0, 1.5, -3.0)),
        },
    ];
    // Standing on the floor, one skin above it.
    let mut position = DVec3::new(0.0, 0.5 + 0.3 + SKIN, 0.0);
    // Walking at 3 m/s toward +x and −z, falling at 2 m/s.
    let velocity = DVec3::new(3.0, -2.0, -1.0);
    let dt = 1.0 / 30.0;
    for frame in 0..=60 {
        let touched = move_and_slide(&character, &mut position, velocity * dt, &world);
        if frame % 5 == 0 {
            println!("frame {frame:2}: position {position:.3?}  touching {touched:?}");
        }
    }
}
