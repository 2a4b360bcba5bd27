//! The library's test suites, built as one test binary: every suite instantiates the generic queries for the
//! same shapes, spaces and precisions, and one binary compiles them once (CI's build was mostly ~30 binaries each
//! compiling its own copies). Run one suite with `cargo test -p gjk --test suites -- SUITE::`, e.g.
//! `-- regressions::`. The serde suite needs the `serde` feature and stays a binary of its own.

// Shared helpers: random shapes and poses, f32/f64 casts, parry conversions, exact references.
mod cast_shapes;
mod common;

mod bad_input;
mod ball_intersects;
mod box_sat;
mod broadphase;
mod brute_force;
mod bvh;
mod cast_properties;
mod cast_regressions;
mod casts;
mod closed_forms;
mod composite;
mod composite_parry;
mod dynamic_tree;
mod manifolds;
mod nd_properties;
mod nd_reference;
mod parry_diff;
mod penetration;
mod penetration_curved;
mod properties;
mod query_observed;
mod regressions;
mod rotating_casts;
mod rotation_normalized;
