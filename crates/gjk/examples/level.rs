//! A capsule character walking, jumping and sliding through a game level (the samurai monastery, 125k triangles):
//! each frame casts the capsule along its motion against the level's mesh (`query::shape_cast`), slides along what
//! it hits, then pushes itself out of any remaining overlap with the level's contact manifolds
//! (`query::contacts`). Prints frame times.
//!
//! `cargo run --release -p gjk --example level [-- PATH/TO/samurai_monastry.obj]` (default: the shared data folder
//! beside the checkout; the example says so and stops when the file is absent).

use std::path::PathBuf;
use std::time::Instant;

use gjk::cast::CastOptions;
use gjk::composite::TriMesh;
use gjk::math::{DVec3, Iso};
use gjk::query;
use gjk::shape::Capsule;

/// Gap kept between the capsule and the level, so the next cast starts clear of it.
const SKIN: f64 = 0.01;

fn main() {
    let path = std::env::args().nth(1).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/meshes/samurai_monastry.obj")
    });
    let Ok(text) = std::fs::read_to_string(&path) else {
        println!("level: {} not found — pass the monastery's OBJ as the first argument", path.display());
        return;
    };
    let start = Instant::now();
    let level = match TriMesh::<DVec3>::from_obj(&text) {
        Ok(m) => m,
        Err(e) => {
            println!("level: {e}");
            return;
        }
    };
    println!("level: {} triangles, built in {:.0} ms", level.facet_count(), start.elapsed().as_secs_f64() * 1e3);
    let id = Iso::identity();
    let bounds = level.bvh().root_aabb().expect("a non-empty level");
    // Drop the character above the level's centre onto whatever is below.
    let capsule = Capsule::new(0.5, 0.35).expect("valid");
    let top = DVec3::new(bounds.center().x, bounds.max.y + 2.0, bounds.center().z);
    let ground = query::ray_cast(&level, &id, top, -DVec3::Y, bounds.max.y - bounds.min.y + 4.0, false);
    let mut position = if ground.hit { ground.point + DVec3::Y * 1.5 } else { top };
    let mut velocity = DVec3::ZERO;
    let (dt, gravity, speed) = (1.0 / 60.0, -9.81, 3.0);
    let mut manifolds = Vec::new();
    let mut times = Vec::new();
    let (mut hits, mut pushes, mut grounded_frames) = (0usize, 0usize, 0usize);
    for frame in 0..600 {
        let t0 = Instant::now();
        // Walk around a circle, jump every two seconds.
        let heading = frame as f64 * 0.01;
        let walk = DVec3::new(heading.cos(), 0.0, heading.sin()) * speed;
        velocity = DVec3::new(walk.x, velocity.y + gravity * dt, walk.z);
        if frame % 120 == 60 {
            velocity.y = 5.0;
        }
        // Move: cast, advance to the hit less the skin, slide the rest along the surface (three bounces at most).
        let mut remaining = velocity * dt;
        let mut grounded = false;
        for _ in 0..3 {
            let len = remaining.length();
            if len < 1e-9 {
                break;
            }
            // Already at the skin and moving along (or away from) the surface: no hit, so the character can walk.
            let opts = CastOptions {
                max_toi: 1.0,
                target_distance: SKIN,
                ignore_initial_overlap_when_separating: true,
                ..CastOptions::default()
            };
            let hit = query::shape_cast(
                &level,
                &id,
                DVec3::ZERO,
                &capsule,
                &Iso::from_translation(position),
                remaining,
                &opts,
            );
            if !hit.cast.hit {
                position += remaining;
                break;
            }
            hits += 1;
            position += remaining * hit.cast.toi;
            // The normal points from the level toward the capsule: remove the motion into the surface.
            let n = hit.cast.normal;
            remaining = (remaining - n * remaining.dot(n)) * (1.0 - hit.cast.toi);
            if n.y > 0.7 {
                grounded = true;
                velocity.y = velocity.y.max(0.0);
            } else {
                velocity -= n * velocity.dot(n).min(0.0);
            }
        }
        // Resolve what overlap is left (rounding, a step edge) with the contact manifolds.
        query::contacts(&level, &id, &capsule, &Iso::from_translation(position), SKIN, &mut manifolds);
        for m in &manifolds {
            let depth = m.max_depth();
            if depth > 0.0 {
                position += m.normal * depth;
                pushes += 1;
                grounded |= m.normal.y > 0.7;
            }
        }
        grounded_frames += usize::from(grounded);
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        if frame % 120 == 0 {
            println!(
                "level: frame {frame:>3}: at ({:.2}, {:.2}, {:.2}), {} manifolds",
                position.x,
                position.y,
                position.z,
                manifolds.len()
            );
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "level: {} frames: mean {mean:.0} µs, median {:.0} µs, 99th percentile {:.0} µs, worst {:.0} µs per frame; {hits} cast \
         hits, {pushes} pushes out, on the ground {grounded_frames} frames",
        times.len(),
        times[times.len() / 2],
        times[times.len() * 99 / 100],
        times[times.len() - 1]
    );
}
