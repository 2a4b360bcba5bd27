//! `distance_with_witnesses` gives, for each vertex of the answer's witness simplex (A − B), the points of A's and
//! B's cores that made it, with the same answer as `distance`, bit for bit: their weighted sums must be the cores' closest points (to 1e-12 of the numbers in play), the weights
//! non-negative and summing to one, each vertex the difference of its two points, and on shapes with vertices
//! (polytopes, boxes, segments, triangles) each point one of the shape's vertices placed by its pose. Checked on
//! random pairs in 2D and 3D, apart and overlapping, touching faces and edges, far from the origin, and through
//! the closed forms (a ball against a box) that answer without a GJK run.

use crate::common::{in_cube3, in_square2, pose2, pose3, rng, shifted, uniform};
use gjk::math::{DVec2, DVec3, Iso, Vector};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, Segment, SupportMap, Triangle};
use gjk::Distance;

/// One side of a pair as the check sees it: its pose, its vertices (shape frame) if it has any, its radius.
struct Side<'s, V: Vector> {
    pose: Iso<V>,
    vertices: Option<&'s [V]>,
    radius: f64,
}

/// The corners of a box of half extents `h`.
fn corners<V: Vector<Real = f64>>(h: V) -> Vec<V> {
    (0..1usize << V::DIM).map(|i| V::from_fn(|k| if i & (1 << k) != 0 { h.get(k) } else { -h.get(k) })).collect()
}

/// Runs the distance query and checks its simplex; `size` is the largest number in play (shape extents and
/// translations). Returns the answer.
fn check<V: Vector<Real = f64>>(
    a: &(impl SupportMap<V> + ?Sized),
    sa: &Side<'_, V>,
    b: &(impl SupportMap<V> + ?Sized),
    sb: &Side<'_, V>,
    ctx: &str,
) -> Distance<V> {
    let (d, witnesses) = gjk::distance_with_witnesses(a, &sa.pose, b, &sb.pose, &Default::default());
    assert_eq!(d, gjk::distance(a, &sa.pose, b, &sb.pose), "{ctx}: the answer of the plain query");
    assert_eq!(witnesses.len, d.simplex.len, "{ctx}");
    let s = &d.simplex;
    let size = [sa.pose.translation.max_abs(), sb.pose.translation.max_abs(), 1.0]
        .into_iter()
        .chain(sa.vertices.into_iter().flatten().map(|v| v.max_abs()))
        .chain(sb.vertices.into_iter().flatten().map(|v| v.max_abs()))
        .fold(0.0, f64::max);
    let tol = 1e-12 * size;
    assert!(s.len >= 1 && s.len <= V::DIM + 1, "{ctx}: {} vertices", s.len);
    let weights = &s.weights[..s.len];
    assert!(weights.iter().all(|&w| w >= 0.0), "{ctx}: weights {weights:?}");
    let sum: f64 = weights.iter().sum();
    assert!((sum - 1.0).abs() <= 8.0 * f64::EPSILON * s.len as f64, "{ctx}: weights sum to 1 {:+e}", sum - 1.0);
    let (mut core_a, mut core_b) = (V::zero(), V::zero());
    for i in 0..s.len {
        core_a += witnesses.points_a[i] * s.weights[i];
        core_b += witnesses.points_b[i] * s.weights[i];
        let w = witnesses.points_a[i] - witnesses.points_b[i];
        assert!((w - s.points[i]).length() <= tol, "{ctx}: vertex {i} is not a − b: {:e}", (w - s.points[i]).length());
    }
    // The cores' closest points: the answer's points less the radii along the normal (the normal is zero when the
    // cores overlap, and then the answer's points are the cores' common point).
    let want_a = d.point_a - d.normal * sa.radius;
    let want_b = d.point_b + d.normal * sb.radius;
    assert!((core_a - want_a).length() <= tol, "{ctx}: Σ λ a = {core_a:?}, core point {want_a:?}");
    assert!((core_b - want_b).length() <= tol, "{ctx}: Σ λ b = {core_b:?}, core point {want_b:?}");
    if d.intersecting && d.normal == V::zero() {
        assert!((core_a - core_b).length() <= tol, "{ctx}: intersecting, Σ λ a ≠ Σ λ b");
    }
    for (side, points, name) in [(sa, &witnesses.points_a, "A"), (sb, &witnesses.points_b, "B")] {
        let Some(vertices) = side.vertices else { continue };
        for (i, &p) in points[..s.len].iter().enumerate() {
            let nearest =
                vertices.iter().map(|&v| (side.pose.transform_point(v) - p).length()).fold(f64::INFINITY, f64::min);
            assert!(nearest <= tol, "{ctx}: point {i} of {name} is {nearest:e} from the nearest vertex");
        }
    }
    d
}

fn side<V: Vector>(pose: Iso<V>, vertices: Option<&[V]>, radius: f64) -> Side<'_, V> {
    Side { pose, vertices, radius }
}

#[test]
fn random_polytopes_3d_apart_and_overlapping_far_from_the_origin() {
    let mut r = rng(1501);
    let (mut apart, mut overlapping) = (0, 0);
    for case in 0..400 {
        let offset = [0.0, 1e4, 1e5][case % 3];
        let pa: Vec<DVec3> = (0..4 + case % 20).map(|_| in_cube3(&mut r, 1.0)).collect();
        let scale_b = uniform(&mut r, 0.1, 2.0);
        let pb: Vec<DVec3> = (0..4 + case % 13).map(|_| in_cube3(&mut r, scale_b)).collect();
        let (a, b) = (ConvexPolytope::new(&pa).unwrap(), ConvexPolytope::new(&pb).unwrap());
        let shift = DVec3::splat(offset);
        let (pose_a, pose_b) = (shifted(&pose3(&mut r, 0.0), shift), shifted(&pose3(&mut r, 2.5), shift));
        let d = check(&a, &side(pose_a, Some(&pa), 0.0), &b, &side(pose_b, Some(&pb), 0.0), &format!("case {case}"));
        if d.intersecting {
            overlapping += 1
        } else {
            apart += 1
        }
    }
    // Both kinds of answer were checked.
    assert!(apart > 50 && overlapping > 50, "{apart} apart, {overlapping} overlapping");
}

#[test]
fn random_polygons_2d_apart_and_overlapping() {
    let mut r = rng(1502);
    let (mut apart, mut overlapping) = (0, 0);
    for case in 0..400 {
        let offset = [0.0, 1e4][case % 2];
        let pa: Vec<DVec2> = (0..3 + case % 12).map(|_| in_square2(&mut r, 1.0)).collect();
        let scale_b = uniform(&mut r, 0.1, 2.0);
        let pb: Vec<DVec2> = (0..3 + case % 7).map(|_| in_square2(&mut r, scale_b)).collect();
        let (a, b) = (ConvexPolytope::new(&pa).unwrap(), ConvexPolytope::new(&pb).unwrap());
        let shift = DVec2::splat(offset);
        let (pose_a, pose_b) = (shifted(&pose2(&mut r, 0.0), shift), shifted(&pose2(&mut r, 2.5), shift));
        let d = check(&a, &side(pose_a, Some(&pa), 0.0), &b, &side(pose_b, Some(&pb), 0.0), &format!("case {case}"));
        if d.intersecting {
            overlapping += 1
        } else {
            apart += 1
        }
    }
    assert!(apart > 50 && overlapping > 50, "{apart} apart, {overlapping} overlapping");
}

#[test]
fn boxes_segments_and_triangles_name_their_vertices() {
    let mut r = rng(1503);
    for case in 0..200 {
        let h = DVec3::new(uniform(&mut r, 0.1, 2.0), uniform(&mut r, 0.1, 2.0), uniform(&mut r, 0.1, 2.0));
        let cube = Cuboid::new(h).unwrap();
        let box_corners = corners(h);
        let (p, q, t) = (in_cube3(&mut r, 1.0), in_cube3(&mut r, 1.0), in_cube3(&mut r, 1.0));
        let seg = Segment::new(p, q).unwrap();
        let tri = Triangle::new(p, q, t).unwrap();
        let (pose_a, pose_b) = (pose3(&mut r, 1.0), pose3(&mut r, 3.0));
        let ctx = format!("case {case}");
        check(&cube, &side(pose_a, Some(&box_corners), 0.0), &seg, &side(pose_b, Some(&[p, q]), 0.0), &ctx);
        check(&tri, &side(pose_a, Some(&[p, q, t]), 0.0), &cube, &side(pose_b, Some(&box_corners), 0.0), &ctx);
        check(&seg, &side(pose_a, Some(&[p, q]), 0.0), &tri, &side(pose_b, Some(&[p, q, t]), 0.0), &ctx);
        let h2 = DVec2::new(h.x, h.y);
        let square = Cuboid::new(h2).unwrap();
        let (p2, q2) = (DVec2::new(p.x, p.y), DVec2::new(q.x, q.y));
        let seg2 = Segment::new(p2, q2).unwrap();
        let (pose_a2, pose_b2) = (pose2(&mut r, 1.0), pose2(&mut r, 3.0));
        check(&square, &side(pose_a2, Some(&corners(h2)), 0.0), &seg2, &side(pose_b2, Some(&[p2, q2]), 0.0), &ctx);
    }
}

/// Two unit cubes face to face (distance exactly 0), edge to edge and corner to face, and a 1e-6 gap: the simplex
/// still holds the common (or nearest) points, on the cubes' corners while touching (GJK's run). Apart by 1e-6, or
/// an edge into a face, the pair is answered from its separating axes (`gjk/boxes.rs`): one vertex, the two
/// closest points or a common point, which are no corners — checked as sums, not as corners.
#[test]
fn touching_cubes_and_a_tiny_gap() {
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let c = corners(DVec3::splat(0.5));
    let at = |t: DVec3| side(Iso::from_translation(t), Some(&c), 0.0);
    for (name, t) in [
        ("faces", DVec3::new(1.0, 0.2, -0.1)),
        ("edges", DVec3::new(1.0, 1.0, 0.3)),
        ("corners", DVec3::new(1.0, 1.0, 1.0)),
    ] {
        let d = check(&cube, &at(DVec3::ZERO), &cube, &at(t), name);
        assert!(d.intersecting, "{name}");
    }
    let apart = side(Iso::from_translation(DVec3::new(1.0 + 1e-6, 0.25, 0.0)), None, 0.0);
    let d = check(&cube, &side(Iso::identity(), None, 0.0), &cube, &apart, "gap 1e-6");
    assert!(!d.intersecting && d.simplex.len == 1 && d.iterations == 0, "the axes' one vertex: {d:?}");
    // An edge 0.007 into a face: overlapping by more than rounding, answered from the axes too, at a common point
    // (on B's edge, inside A).
    let rotated = side(
        Iso::new(gjk::math::DQuat::from_rotation_z(0.25 * std::f64::consts::PI), DVec3::new(1.2, 0.0, 0.0)),
        None,
        0.0,
    );
    let d = check(&cube, &side(Iso::identity(), None, 0.0), &cube, &rotated, "an edge into a face");
    assert!(d.intersecting && d.simplex.len == 1 && d.iterations == 0, "the axes' common point: {d:?}");
}

/// Shapes with a radius: the sums are the cores' points (a ball's centre, a point of a capsule's segment), and a
/// ball against a box is answered by the closed form, whose one point of the box is not a corner.
#[test]
fn balls_and_capsules_give_their_cores() {
    let mut r = rng(1504);
    for case in 0..100 {
        let ball = Ball::new(uniform(&mut r, 0.1, 1.0)).unwrap();
        let capsule = Capsule::new(uniform(&mut r, 0.0, 1.0), uniform(&mut r, 0.1, 0.5)).unwrap();
        let h = DVec3::new(uniform(&mut r, 0.1, 2.0), uniform(&mut r, 0.1, 2.0), uniform(&mut r, 0.1, 2.0));
        let cube = Cuboid::new(h).unwrap();
        let (pose_a, pose_b) = (pose3(&mut r, 1.0), pose3(&mut r, 3.0));
        let ctx = format!("case {case}");
        let d = check(&ball, &side(pose_a, Some(&[DVec3::ZERO]), ball.radius), &cube, &side(pose_b, None, 0.0), &ctx);
        assert_eq!(d.simplex.len, 1, "{ctx}: the closed form's one vertex");
        let ends = [DVec3::new(0.0, -capsule.half_height, 0.0), DVec3::new(0.0, capsule.half_height, 0.0)];
        check(&capsule, &side(pose_a, Some(&ends), capsule.radius), &cube, &side(pose_b, Some(&corners(h)), 0.0), &ctx);
        check(
            &ball,
            &side(pose_a, Some(&[DVec3::ZERO]), ball.radius),
            &capsule,
            &side(pose_b, None, capsule.radius),
            &ctx,
        );
    }
}
