//! Quick checks of the harness (small workloads, so they stay fast in the test profile).

use gjk::math::{DVec3, Vec3};
use gjk::shape::{ConvexPolytope, SupportMap};

use crate::cells::{family_cells, Who};
use crate::rng::Rng;
use crate::support::climb;
use crate::timing::{interleaved, median, Plan};
use crate::workload::{all, workload2, workload3, Kind, Regime, REGIMES};

#[test]
fn workloads_hit_their_regimes_for_both_libraries() {
    for kind in [Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder, Kind::Hull(32)] {
        for regime in REGIMES {
            let w = workload3(kind, regime, 6);
            let (lo, hi) = regime.range();
            for (&ours, &want) in w.ours.iter().zip(&w.wanted) {
                assert!(ours >= lo - 1e-9 && ours <= hi + 1e-9, "{} {}: {ours}", kind.name(), regime.name());
                assert!((ours - want).abs() < 1e-9, "{} {}: {ours} for {want}", kind.name(), regime.name());
            }
            let c = w.check();
            assert_eq!(c.parry_outside, 0, "{} {}: {c:?}", kind.name(), regime.name());
            assert!(c.parry_off <= crate::workload::AGREE * 2.0, "{} {}: {c:?}", kind.name(), regime.name());
        }
    }
    let w = workload2(Kind::Polygon(8), Regime::Touching, 6);
    assert!(w.ours.iter().all(|&d| (1e-4 - 1e-9..=1e-3 + 1e-9).contains(&d)));
}

#[test]
fn workloads_are_deterministic() {
    let a = workload3(Kind::Box, Regime::Penetrating, 3);
    let b = workload3(Kind::Box, Regime::Penetrating, 3);
    assert_eq!(a.poses, b.poses);
}

#[test]
fn every_runner_runs() {
    let w = all(&[Kind::Box], 3, workload3);
    for cells in [family_cells::<DVec3>(&w), family_cells::<Vec3>(&w)] {
        assert_eq!(cells.len(), 9);
        for mut cell in cells {
            assert!(cell.contenders.iter().any(|c| c.who == Who::Parry));
            assert!(cell.iterations >= 1.0, "{}", cell.id());
            for c in &mut cell.contenders {
                (c.run)();
            }
        }
    }
}

#[test]
fn replica_climb_finds_the_support_vertex() {
    let mut rng = Rng::new(7);
    let pts: Vec<DVec3> = (0..64).map(|_| rng.on_sphere()).collect();
    let hull = ConvexPolytope::new(&pts).unwrap();
    let mut hint = 0;
    for _ in 0..200 {
        let d = rng.on_sphere();
        hint = climb(&hull, d, hint);
        assert_eq!(hull.vertices()[hint].dot(d), hull.support(d).dot(d));
    }
}

#[test]
fn timing_takes_the_median() {
    assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    let mut n = 0u64;
    let mut run = || n = std::hint::black_box(n + 1);
    let plan = Plan { batches: 3, batch: std::time::Duration::from_micros(200) };
    let t = interleaved(&mut [&mut run], 1, &plan);
    assert!(t[0].median_ns > 0.0 && t[0].min_ns <= t[0].median_ns && t[0].median_ns <= t[0].max_ns);
}

#[cfg(has_libccd)]
#[test]
fn libccd_agrees_with_ours() {
    use crate::ccd::{Ccd, Object};
    use gjk::shape::Cuboid;
    let cube = Cuboid::new(DVec3::new(0.9, 0.6, 0.4)).unwrap();
    let ccd = Ccd::<Cuboid<DVec3>>::default();
    for regime in [Regime::Separated, Regime::Penetrating] {
        let w = workload3(Kind::Box, regime, 8);
        for (pa, pb) in &w.poses {
            let (a, b) = (Object::new(&cube, *pa), Object::new(&cube, *pb));
            let ours = gjk::penetration(&cube, pa, &cube, pb);
            assert_eq!(ccd.gjk_intersect(&a, &b), ours.intersecting);
            assert_eq!(ccd.mpr_intersect(&a, &b), ours.intersecting);
            match ccd.gjk_penetration(&a, &b) {
                Some(p) => {
                    assert!(ours.intersecting);
                    assert!((p.depth - ours.depth).abs() < 1e-3, "libccd {} ours {}", p.depth, ours.depth);
                }
                None => assert!(!ours.intersecting),
            }
            assert_eq!(ccd.mpr_penetration(&a, &b).is_some(), ours.intersecting);
        }
    }
}
