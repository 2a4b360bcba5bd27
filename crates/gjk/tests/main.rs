//! The library's test suites, built as one test binary: every suite instantiates the generic queries for the
//! same shapes, spaces and precisions, and one binary compiles them once (CI's build was mostly ~30 binaries each
//! compiling its own copies). Run one suite with `cargo test -p gjk --test suites -- SUITE::`, e.g.
//! `-- regressions::`. The serde suite needs the `serde` feature and stays a binary of its own.

// Shared helpers: random shapes and poses, f32/f64 casts, parry conversions, exact references.
mod cast_shapes;
mod common;

mod analytic_pairs;
mod bad_input;
mod ball_intersects;
mod box_closed;
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
mod contact_merge;
mod dynamic_tree;
mod layering;
mod manifolds;
mod nd_exact;
mod nd_properties;
mod nd_reference;
mod newton_proposal;
mod parry_diff;
mod penetration;
mod penetration_curved;
mod polygon_search;
mod polygon_walk;
mod properties;
mod query_observed;
mod ray_boundary_reference;
mod regressions;
mod rotating_casts;
mod rotation_normalized;
mod segment_pairs;
mod separated_agreement;
mod separated_first_support;
mod sliver_manifolds;
mod stalled_verdicts;
mod triangle_contacts;
mod triangle_manifolds;
mod witness_simplex;

/// With `autotests = false` a new file in tests/ would compile into nothing and its tests would never run: every
/// file here must be one of the modules above (or the serde suite, a binary of its own).
#[test]
fn every_suite_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs");
    for entry in std::fs::read_dir(&dir).expect("tests/") {
        let name = entry.expect("an entry").file_name().into_string().expect("a UTF-8 name");
        let Some(stem) = name.strip_suffix(".rs") else { continue };
        if stem == "main" || stem == "serde" {
            continue;
        }
        assert!(main.contains(&format!("\nmod {stem};\n")), "tests/{name} is not a module of tests/main.rs");
    }
}
