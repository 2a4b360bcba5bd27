//! Contact manifolds against configurations whose contacts are known exactly.

use gjk::manifold::contact_manifold;
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, Cylinder};
use std::f64::consts::FRAC_PI_4;

fn cube(h: f64) -> Cuboid<DVec3> {
    Cuboid::new(DVec3::splat(h)).unwrap()
}

fn has_point(points: &[DVec3], want: DVec3, tol: f64) -> bool {
    points.iter().any(|p| (*p - want).length() <= tol)
}

/// A 1×1×1 box resting 0.01 deep on a wide box, offset so the overlap rectangle is the small box's footprint:
/// four contacts at its bottom corners, each 0.01 deep, normal straight up.
#[test]
fn box_resting_flat_on_box_gives_four_corners() {
    let ground = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let m = contact_manifold(
        &ground,
        &Iso::identity(),
        &cube(0.5),
        &Iso::from_translation(DVec3::new(0.3, 0.99, -0.2)),
        0.0,
    );
    assert_eq!(m.len, 4);
    assert!((m.normal - DVec3::Y).length() < 1e-12);
    let pts: Vec<DVec3> = m.contacts().iter().map(|c| c.point_b).collect();
    for (x, z) in [(-0.2, -0.7), (0.8, -0.7), (0.8, 0.3), (-0.2, 0.3)] {
        assert!(has_point(&pts, DVec3::new(x, 0.49, z), 1e-12), "missing corner ({x}, {z}) in {pts:?}");
    }
    for c in m.contacts() {
        assert!((c.depth - 0.01).abs() < 1e-12);
        assert!((c.point_a.y - 0.5).abs() < 1e-12, "point on A lies on its top face");
    }
}

/// Overhanging the ground's corner: the contacts are the corners of the overlap rectangle, not of either face.
#[test]
fn box_overhanging_a_corner_gives_the_overlap_rectangle() {
    let ground = cube(1.0);
    let m = contact_manifold(
        &ground,
        &Iso::identity(),
        &cube(1.0),
        &Iso::from_translation(DVec3::new(1.5, 1.99, 1.2)),
        0.0,
    );
    assert_eq!(m.len, 4);
    let pts: Vec<DVec3> = m.contacts().iter().map(|c| c.point_a).collect();
    for (x, z) in [(0.5, 0.2), (1.0, 0.2), (1.0, 1.0), (0.5, 1.0)] {
        assert!(has_point(&pts, DVec3::new(x, 1.0, z), 1e-12), "missing ({x}, {z}) in {pts:?}");
    }
}

/// A box turned 45° about x lies on its edge on the ground: two contacts at the ends of that edge.
#[test]
fn box_edge_on_face_gives_two_points() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let half_diag = 0.5 * 2f64.sqrt();
    let pose = Iso::new(DQuat::from_rotation_x(FRAC_PI_4), DVec3::new(0.0, 0.5 + half_diag - 0.02, 0.0));
    let m = contact_manifold(&ground, &Iso::identity(), &cube(0.5), &pose, 0.0);
    assert_eq!(m.len, 2, "{m:?}");
    for c in m.contacts() {
        assert!((c.depth - 0.02).abs() < 1e-12);
        assert!((c.point_b.x.abs() - 0.5).abs() < 1e-12 && c.point_b.z.abs() < 1e-12);
    }
}

/// A box tilted about two axes touches with a single corner.
#[test]
fn tilted_box_gives_its_lowest_corner() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let q = DQuat::from_rotation_x(0.4) * DQuat::from_rotation_z(0.3);
    // Lowest corner of the rotated cube: its support along −y.
    let lowest = (0..8)
        .map(|i| {
            q * DVec3::new(
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.5 } else { 0.5 },
                if i & 4 == 0 { -0.5 } else { 0.5 },
            )
        })
        .min_by(|a, b| a.y.partial_cmp(&b.y).unwrap())
        .unwrap();
    let pose = Iso::new(q, DVec3::new(0.1, 0.5 - lowest.y - 0.01, 0.0));
    let m = contact_manifold(&ground, &Iso::identity(), &cube(0.5), &pose, 0.0);
    assert_eq!(m.len, 1, "{m:?}");
    let c = m.contacts[0];
    assert!((c.depth - 0.01).abs() < 1e-12);
    assert!((c.point_b - pose.transform_point(q.inverse() * lowest)).length() < 1e-12);
}

/// A capsule lying on a box: two contacts under the ends of its segment, exact through core + radius.
#[test]
fn capsule_lying_on_box_gives_two_points() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let cap = Capsule::new(1.0, 0.25).unwrap();
    let pose = Iso::new(DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2), DVec3::new(0.2, 0.74, 0.3));
    let m = contact_manifold(&ground, &Iso::identity(), &cap, &pose, 0.0);
    assert_eq!(m.len, 2, "{m:?}");
    let pts: Vec<DVec3> = m.contacts().iter().map(|c| c.point_b).collect();
    assert!(
        has_point(&pts, DVec3::new(-0.8, 0.49, 0.3), 1e-12) && has_point(&pts, DVec3::new(1.2, 0.49, 0.3), 1e-12),
        "{pts:?}"
    );
    for c in m.contacts() {
        assert!((c.depth - 0.01).abs() < 1e-12);
    }
}

/// A sphere is one point, from its real geometry.
#[test]
fn ball_on_box_gives_one_point() {
    let m = contact_manifold(
        &cube(1.0),
        &Iso::identity(),
        &Ball::new(0.5).unwrap(),
        &Iso::from_translation(DVec3::new(0.2, 1.4, 0.0)),
        0.0,
    );
    assert_eq!(m.len, 1);
    assert!((m.contacts[0].depth - 0.1).abs() < 1e-12);
    assert!((m.contacts[0].point_b - DVec3::new(0.2, 0.9, 0.0)).length() < 1e-12);
}

/// A standing cylinder on the ground: its cap rim gives contacts on the true circle.
#[test]
fn cylinder_standing_on_box_touches_on_its_rim() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let cyl = Cylinder::new(0.5, 0.4).unwrap();
    let m = contact_manifold(&ground, &Iso::identity(), &cyl, &Iso::from_translation(DVec3::new(0.0, 0.99, 0.0)), 0.0);
    assert_eq!(m.len, 4);
    for c in m.contacts() {
        let r = (c.point_b.x * c.point_b.x + c.point_b.z * c.point_b.z).sqrt();
        assert!((r - 0.4).abs() < 1e-12 && (c.depth - 0.01).abs() < 1e-12, "{c:?} at radius {r}");
    }
}

/// With a prediction distance, a box hovering 0.05 above the ground already has its four contacts, with negative
/// depth; without it, none.
#[test]
fn prediction_distance_yields_contacts_before_touching() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let pose = Iso::from_translation(DVec3::new(0.0, 1.05, 0.0));
    assert_eq!(contact_manifold(&ground, &Iso::identity(), &cube(0.5), &pose, 0.0).len, 0);
    let m = contact_manifold(&ground, &Iso::identity(), &cube(0.5), &pose, 0.1);
    assert_eq!(m.len, 4);
    for c in m.contacts() {
        assert!((c.depth + 0.05).abs() < 1e-12);
    }
}

/// Ids stay the same when the box moves a little (same features touching), so a solver can warm-start.
#[test]
fn contact_ids_are_stable_across_small_motions() {
    let ground = Cuboid::new(DVec3::new(3.0, 0.5, 3.0)).unwrap();
    let ids = |x: f64| {
        let m = contact_manifold(
            &ground,
            &Iso::identity(),
            &cube(0.5),
            &Iso::from_translation(DVec3::new(x, 0.99, 0.0)),
            0.0,
        );
        let mut v: Vec<u64> = m.contacts().iter().map(|c| c.id).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(ids(0.1), ids(0.1001));
    let distinct: std::collections::BTreeSet<u64> = ids(0.1).into_iter().collect();
    assert_eq!(distinct.len(), 4, "ids must tell the contacts apart");
}

/// 2D: a rectangle resting on a wider one gives its two bottom corners; a hull polygon works the same.
#[test]
fn rectangle_on_rectangle_in_2d_gives_two_points() {
    let ground = Cuboid::new(DVec2::new(3.0, 0.5)).unwrap();
    let boxy = Cuboid::new(DVec2::new(0.5, 0.5)).unwrap();
    let pose = Iso::new(Rot2::from_angle(0.0), DVec2::new(0.4, 0.98));
    let m = contact_manifold(&ground, &Iso::identity(), &boxy, &pose, 0.0);
    assert_eq!(m.len, 2);
    for c in m.contacts() {
        assert!((c.depth - 0.02).abs() < 1e-12 && ((c.point_b.x - 0.4).abs() - 0.5).abs() < 1e-12);
    }
    let hull = ConvexPolytope::new(&[DVec2::new(-0.5, -0.5), DVec2::new(0.5, -0.5), DVec2::new(0.0, 0.7)]).unwrap();
    let m = contact_manifold(&ground, &Iso::identity(), &hull, &pose, 0.0);
    assert_eq!(m.len, 2, "{m:?}");
}

/// Swapping A and B mirrors the manifold: the normal flips and the depths stay.
#[test]
fn swapping_shapes_flips_the_normal_and_keeps_depths() {
    let ground = Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap();
    let pose = Iso::new(DQuat::from_rotation_y(0.3), DVec3::new(0.3, 0.99, -0.2));
    let ab = contact_manifold(&ground, &Iso::identity(), &cube(0.5), &pose, 0.0);
    let ba = contact_manifold(&cube(0.5), &pose, &ground, &Iso::identity(), 0.0);
    assert!((ab.normal + ba.normal).length() < 1e-12);
    assert_eq!(ab.len, ba.len);
    let mut da: Vec<f64> = ab.contacts().iter().map(|c| c.depth).collect();
    let mut db: Vec<f64> = ba.contacts().iter().map(|c| c.depth).collect();
    da.sort_by(f64::total_cmp);
    db.sort_by(f64::total_cmp);
    for (x, y) in da.iter().zip(&db) {
        assert!((x - y).abs() < 1e-12);
    }
}
