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

/// Every cell of a family runs for both libraries. A hull of 32 points: boxes have closed forms now (two boxes in
/// 3D are answered from their separating axes, no GJK iteration), and the iteration count is checked on a family
/// every query of which runs the loop.
#[test]
fn every_runner_runs() {
    let w = all(&[Kind::Hull(32)], 3, workload3);
    for cells in [family_cells::<DVec3>(&w), family_cells::<Vec3>(&w)] {
        assert_eq!(cells.len(), 9);
        for mut cell in cells {
            assert!(cell.contenders.iter().any(|c| c.who == Who::Parry));
            // A separated boolean is decided from the first support (MPR's test, `gjk::intersection`) with no
            // GJK iteration; every other cell runs the loop.
            let decided_at_start = cell.id().ends_with("separated/intersection");
            assert!(cell.iterations >= 1.0 || decided_at_start, "{}", cell.id());
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

#[test]
fn new_families_hit_their_regimes_for_both_libraries() {
    use crate::mixed::Mixed;
    // Issue 14's families: where parry has the shapes, it places every configuration in the regime too.
    let kinds = [Kind::Cone, Kind::LongBox, Kind::Mixed(Mixed::BoxHull), Kind::Mixed(Mixed::CapsuleHull)];
    for kind in kinds {
        for regime in REGIMES {
            let w = workload3(kind, regime, 4);
            let (lo, hi) = regime.range();
            assert!(w.parry_checked, "{}", kind.name());
            assert!(w.ours.iter().all(|&d| d >= lo - 1e-9 && d <= hi + 1e-9), "{} {}", kind.name(), regime.name());
            let c = w.check();
            assert_eq!(c.parry_outside, 0, "{} {}: {c:?}", kind.name(), regime.name());
        }
    }
    // The big hull (two configurations, one regime: its hulls are slow to build in the test profile).
    let w = workload3(Kind::Hull(8192), Regime::Touching, 2);
    assert!(w.parry_checked && w.check().parry_outside == 0, "{:?}", w.check());
    // The ellipsoid has no parry shape: ours alone places it.
    let w = workload3(Kind::Ellipsoid, Regime::Touching, 4);
    assert!(!w.parry_checked && w.check().parry_outside == 0);
    assert!(w.ours.iter().all(|&d| (1e-4 - 1e-9..=1e-3 + 1e-9).contains(&d)));
}

#[test]
fn shadow_pairs_share_their_base_pairs_poses() {
    use crate::mixed::Mixed;
    let base = workload3(Kind::Mixed(Mixed::SphereBox), Regime::Touching, 3);
    let shadow = workload3(Kind::Mixed(Mixed::SphereBoxGjk), Regime::Touching, 3);
    assert_eq!(base.poses, shadow.poses);
    assert_ne!(base.spec_b, shadow.spec_b);
    // The 2D mixed pairs, each with parry's check.
    for m in crate::mixed::MIXED {
        let w = workload2(Kind::Mixed(m), Regime::Penetrating, 2);
        assert!(w.parry_checked && w.check().parry_outside == 0, "{}", m.name());
    }
}

/// Two unit spheres: the signed distance is |c| − 2 in closed form.
#[test]
fn reference_matches_spheres_in_closed_form() {
    use crate::accuracy::reference;
    use gjk::math::Iso;
    use gjk::shape::Ball;
    let ball = Ball::new(1.0).unwrap();
    let mut rng = Rng::new(11);
    for gap in [0.7, 3e-4, -0.2] {
        let u = rng.on_sphere();
        let (pa, pb) = (
            Iso::from_translation(DVec3::new(0.3, -0.2, 0.5)),
            Iso::from_translation(DVec3::new(0.3, -0.2, 0.5) + u * (2.0 + gap)),
        );
        let r = reference(&ball, &pa, &ball, &pb);
        assert!((r.value - gap).abs() <= 1e-14, "{gap}: {r:?}");
        assert_eq!(r.bracket.is_some(), gap > 0.0);
    }
}

/// The reference of curved pairs (cone, cylinder, ellipsoid) against an independent computation: the slab gap
/// g(n) maximised over a dense grid of directions (a lower bound of the signed distance by itself), then refined
/// by a fine local grid. The two agree closely, and no sampled direction beats the reference.
#[test]
fn curved_references_agree_with_dense_direction_sampling() {
    use crate::accuracy::{references, slab_gap};
    use gjk::shape::{Cone, Cylinder, Ellipsoid};
    for kind in [Kind::Cone, Kind::Cylinder, Kind::Ellipsoid] {
        for regime in [Regime::Separated, Regime::Penetrating] {
            let w = workload3(kind, regime, 2);
            let refs = references::<DVec3>(&w.spec_a, &w.spec_b, &w.poses);
            for ((pa, pb), r) in w.poses.iter().zip(&refs) {
                let g = |n: DVec3| -> f64 {
                    let n = n.normalize();
                    match kind {
                        Kind::Cone => slab_gap(&Cone::new(0.6, 0.6).unwrap(), pa, &Cone::new(0.6, 0.6).unwrap(), pb, n),
                        Kind::Cylinder => {
                            slab_gap(&Cylinder::new(0.6, 0.6).unwrap(), pa, &Cylinder::new(0.6, 0.6).unwrap(), pb, n)
                        }
                        _ => {
                            let e = Ellipsoid::new(DVec3::new(0.9, 0.6, 0.4)).unwrap();
                            slab_gap(&e, pa, &e, pb, n)
                        }
                    }
                };
                let best = dense_max(&g);
                assert!(
                    best <= r.value + 1e-12,
                    "{} {}: sampled {best} beats the reference {}",
                    kind.name(),
                    regime.name(),
                    r.value
                );
                assert!(
                    best >= r.value - 1e-6,
                    "{} {}: sampled {best}, reference {}",
                    kind.name(),
                    regime.name(),
                    r.value
                );
                if let Some(b) = r.bracket {
                    assert!((-1e-15..1e-9).contains(&b), "{} {}: bracket {b}", kind.name(), regime.name());
                }
            }
        }
    }
}

/// The largest g over a Fibonacci grid of 20,000 directions, then over four rounds of finer grids (41 × 41 points,
/// each round ten times finer) about each of the 16 best grid directions (g can have several local maxima).
fn dense_max(g: &dyn Fn(DVec3) -> f64) -> f64 {
    let n = 20_000;
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    let mut grid: Vec<(f64, DVec3)> = (0..n)
        .map(|i| {
            let y = 1.0 - 2.0 * (i as f64 + 0.5) / n as f64;
            let r = (1.0 - y * y).sqrt();
            let d = DVec3::new(r * (golden * i as f64).cos(), y, r * (golden * i as f64).sin());
            (g(d), d)
        })
        .collect();
    grid.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut overall = f64::NEG_INFINITY;
    for &start in &grid[..16] {
        let mut best = start;
        let mut spacing = 0.03;
        for _ in 0..4 {
            let c = best.1;
            let t1 = c.cross(if c.x.abs() < 0.9 { DVec3::X } else { DVec3::Y }).normalize();
            let t2 = c.cross(t1);
            for i in -20..=20 {
                for j in -20..=20 {
                    let d = (c + t1 * (spacing * i as f64 / 10.0) + t2 * (spacing * j as f64 / 10.0)).normalize();
                    let v = g(d);
                    if v > best.0 {
                        best = (v, d);
                    }
                }
            }
            spacing /= 10.0;
        }
        overall = overall.max(best.0);
    }
    overall
}

/// The accuracy of a cell: ours on the f64 box cells is at rounding level, parry's verdicts are right, and the
/// shapes without a parry counterpart have only ours checked.
#[test]
fn cells_report_accuracy() {
    use crate::accuracy::Accuracy;
    let w = all(&[Kind::Box, Kind::Ellipsoid], 3, workload3);
    for cell in family_cells::<DVec3>(&w[..3]) {
        for (who, a) in &cell.accuracy {
            match a {
                Accuracy::Relative(x) => assert!(*x < 1e-6, "{} {}: {x}", cell.id(), who.name()),
                Accuracy::Wrong(n, _) => assert_eq!(*n, 0, "{} {}", cell.id(), who.name()),
            }
        }
        assert_eq!(cell.accuracy.len(), 2, "{}", cell.id());
    }
    for cell in family_cells::<DVec3>(&w[3..]) {
        assert_eq!(cell.accuracy.iter().map(|a| a.0).collect::<Vec<_>>(), vec![Who::Ours], "{}", cell.id());
    }
}

/// libccd's answers are checked against the references too: its verdicts on boxes are right, its GJK + EPA depths
/// are close to the reference (its EPA tolerance is 1e-4), and its MPR depths are sane: MPR measures the depth
/// along the direction of the portal it finds, not the least one, so it overestimates (3 % here).
#[cfg(has_libccd)]
#[test]
fn libccd_accuracy_is_reported() {
    use crate::accuracy::Accuracy;
    use crate::cells::Query;
    let w = all(&[Kind::Box], 4, workload3);
    let mut cells = family_cells::<DVec3>(&w);
    crate::ccd::add_contenders(&mut cells, &w);
    for cell in &cells {
        let ccd: Vec<_> = cell.accuracy.iter().filter(|a| matches!(a.0, Who::CcdGjk | Who::CcdMpr)).collect();
        let checked =
            cell.query == Query::Intersect || (cell.query == Query::Contact && cell.regime == Regime::Penetrating);
        assert_eq!(ccd.len(), if checked { 2 } else { 0 }, "{}", cell.id());
        for (who, a) in ccd {
            match a {
                Accuracy::Wrong(n, _) => assert_eq!(*n, 0, "{} {}", cell.id(), who.name()),
                Accuracy::Relative(x) => {
                    let limit = if *who == Who::CcdGjk { 1e-2 } else { 0.5 };
                    assert!(*x < limit, "{} {}: {x}", cell.id(), who.name())
                }
            }
        }
    }
}

/// Penetrating boxes: the depth is the least overlap over the 15 separating axes (3 face normals each, 9 edge
/// crosses), a closed form independent of GJK and EPA; the reference agrees with it.
#[test]
fn box_references_match_the_separating_axes() {
    use crate::accuracy::{references, slab_gap};
    use gjk::shape::Cuboid;
    let cube = Cuboid::new(DVec3::new(0.9, 0.6, 0.4)).unwrap();
    let w = workload3(Kind::Box, Regime::Penetrating, 8);
    let refs = references::<DVec3>(&w.spec_a, &w.spec_b, &w.poses);
    for ((pa, pb), r) in w.poses.iter().zip(&refs) {
        let faces_a = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| pa.transform_vector(e));
        let faces_b = [DVec3::X, DVec3::Y, DVec3::Z].map(|e| pb.transform_vector(e));
        let mut axes: Vec<DVec3> = faces_a.iter().chain(&faces_b).copied().collect();
        for u in faces_a {
            for v in faces_b {
                let c = u.cross(v);
                if c.length() > 1e-9 {
                    axes.push(c.normalize());
                }
            }
        }
        let sat =
            axes.iter().flat_map(|&n| [n, -n]).map(|n| slab_gap(&cube, pa, &cube, pb, n)).fold(f64::MIN, f64::max);
        assert!((r.value - sat).abs() < 1e-12, "reference {} vs separating axes {sat}", r.value);
    }
}
