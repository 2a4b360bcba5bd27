//! `gjk demo`: the textbook example replayed step by step, then one query per shape family.

use std::io::{self, Write};

use gjk::math::{DQuat, DVec2, DVec3, Iso, Real, Vector};
use gjk::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, MinkowskiSum, Rounded, Segment,
    SupportMap, Triangle,
};
use gjk::trace::{Decision, Recorder};
use gjk::{distance_with, DistanceOptions, WarmStart};

fn fmt<V: Vector>(v: V) -> String {
    let c: Vec<String> = (0..V::DIM).map(|i| format!("{:.3}", v.get(i).to_f64() + 0.0)).collect();
    format!("({})", c.join(", "))
}

fn decision_text(d: Decision) -> &'static str {
    match d {
        Decision::Continue => "closer to the origin: keep the nearest face, search again",
        Decision::Intersecting => "the simplex encloses the origin: the shapes intersect",
        Decision::Converged => "the new point is no further out: converged",
        Decision::Separated => "a separating plane was found",
        Decision::Stalled => "no progress in this precision: stop",
        Decision::MaxIterations => "iteration cap reached",
    }
}

pub fn run(out: &mut impl Write) -> io::Result<()> {
    textbook(out)?;
    writeln!(out)?;
    families(out)?;
    writeln!(out)?;
    penetration(out)
}

/// Two unit boxes, the second tilted a little and sunk into the first: depth, normal and contact manifold.
fn penetration(out: &mut impl Write) -> io::Result<()> {
    let cube = Cuboid::new(DVec3::splat(0.5)).expect("box");
    let pose_b = Iso::new(DQuat::from_rotation_z(0.05), DVec3::new(0.2, 0.95, 0.1));
    writeln!(out, "Penetration: two unit boxes, B tilted by 0.05 rad about z and placed at (0.2, 0.95, 0.1)")?;
    let p = gjk::penetration(&cube, &Iso::identity(), &cube, &pose_b);
    writeln!(
        out,
        "  depth {:.6}, normal {} (from A toward B), deepest points A{} B{}, status {}",
        p.depth,
        fmt(p.normal),
        fmt(p.point_a),
        fmt(p.point_b),
        p.status.as_str()
    )?;
    let m = gjk::manifold::contact_manifold(&cube, &Iso::identity(), &cube, &pose_b, 0.0);
    writeln!(out, "  contact manifold: {} points", m.len)?;
    for c in m.contacts() {
        writeln!(out, "    on A {} on B {} depth {:.6} id {:#x}", fmt(c.point_a), fmt(c.point_b), c.depth, c.id)?;
    }
    Ok(())
}

/// Triangles A (0,1) (1,−1) (−1,−1) and B (0,−1) (1,1) (−1,1), the first search direction (1, 0).
fn textbook(out: &mut impl Write) -> io::Result<()> {
    let tri = |p: [[f64; 2]; 3]| {
        let v: Vec<DVec2> = p.iter().map(|q| DVec2::from_array(*q)).collect();
        ConvexPolytope::new(&v).expect("valid triangle")
    };
    let a = tri([[0.0, 1.0], [1.0, -1.0], [-1.0, -1.0]]);
    let b = tri([[0.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]);
    writeln!(out, "GJK on the textbook example")?;
    writeln!(out, "  A = triangle (0, 1) (1, -1) (-1, -1)")?;
    writeln!(out, "  B = triangle (0, -1) (1, 1) (-1, 1)")?;
    let first = DVec2::X;
    let w0 = a.support(first) - b.support(-first);
    writeln!(out, "  start: direction {} -> support point of A - B {}", fmt(first), fmt(w0))?;
    let mut rec = Recorder::default();
    let mut cache = WarmStart::from_directions(&[first]);
    let id = Iso::identity();
    let d = distance_with(&a, &id, &b, &id, &DistanceOptions::default(), Some(&mut cache), &mut rec);
    for s in &rec.steps {
        writeln!(out, "  step {}: direction {}", s.iteration, fmt(s.direction))?;
        writeln!(out, "          support  {} = A{} - B{}", fmt(s.support), fmt(s.support_a), fmt(s.support_b))?;
        let pts: Vec<String> = s.simplex().iter().map(|p| fmt(*p)).collect();
        writeln!(out, "          simplex  [{}], closest point {}", pts.join(" "), fmt(s.closest))?;
        writeln!(out, "          decision {}", decision_text(s.decision))?;
    }
    writeln!(
        out,
        "  result: intersecting = {}, iterations = {}, status = {}",
        d.intersecting,
        d.iterations,
        d.status.as_str()
    )
}

/// A table row: A's name and shape, B's name and shape, B's offset along x.
type Row = (&'static str, Box<dyn SupportMap<DVec3>>, &'static str, Box<dyn SupportMap<DVec3>>, f64);

fn families(out: &mut impl Write) -> io::Result<()> {
    writeln!(out, "Distance queries across the shape families (3D unless marked)")?;
    writeln!(out, "  {:<28} {:<28} {:>10} {:>6} {:>12}", "A", "B", "distance", "iters", "status")?;
    let q = DQuat::from_rotation_y(0.4) * DQuat::from_rotation_x(0.3);
    let at = |x: f64| Iso::new(q, DVec3::new(x, 0.3, -0.2));
    let cube = Cuboid::new(DVec3::new(0.9, 0.6, 0.4)).expect("box");
    let pts: Vec<DVec3> = (0..32)
        .map(|i| {
            let t = i as f64 * 2.399_963; // golden-angle spiral on the unit sphere
            let z = 1.0 - 2.0 * (i as f64 + 0.5) / 32.0;
            let r = (1.0 - z * z).sqrt();
            DVec3::new(r * t.cos(), r * t.sin(), z)
        })
        .collect();
    let rows: Vec<Row> = vec![
        (
            "sphere r=1",
            Box::new(Ball::new(1.0).expect("ok")),
            "sphere r=0.5",
            Box::new(Ball::new(0.5).expect("ok")),
            2.0,
        ),
        ("box 0.9x0.6x0.4", Box::new(cube), "sphere r=1", Box::new(Ball::new(1.0).expect("ok")), 2.5),
        ("capsule h=0.5 r=0.5", Box::new(Capsule::new(0.5, 0.5).expect("ok")), "box", Box::new(cube), 2.0),
        (
            "cylinder h=0.6 r=0.6",
            Box::new(Cylinder::new(0.6, 0.6).expect("ok")),
            "cone h=0.5 r=0.5",
            Box::new(Cone::new(0.5, 0.5).expect("ok")),
            1.5,
        ),
        (
            "ellipsoid 1x0.5x0.3",
            Box::new(Ellipsoid::new(DVec3::new(1.0, 0.5, 0.3)).expect("ok")),
            "hull of 32 points",
            Box::new(ConvexPolytope::new(&pts).expect("ok")),
            2.3,
        ),
        (
            "segment",
            Box::new(Segment::new(DVec3::new(-1.0, 0.0, 0.0), DVec3::X).expect("ok")),
            "triangle",
            Box::new(Triangle::new(DVec3::ZERO, DVec3::Y, DVec3::Z).expect("ok")),
            1.2,
        ),
        (
            "rounded box r=0.1",
            Box::new(Rounded::new(cube, 0.1).expect("ok")),
            "box ⊕ sphere 0.2",
            Box::new(MinkowskiSum::new(cube, Ball::new(0.2).expect("ok"))),
            2.0,
        ),
        (
            "frustum 60° 0.1..2",
            Box::new(Frustum::perspective(1.047, 1.5, 0.1, 2.0).expect("ok")),
            "sphere r=0.3",
            Box::new(Ball::new(0.3).expect("ok")),
            1.0,
        ),
        ("box (overlapping)", Box::new(cube), "box", Box::new(cube), 1.0),
    ];
    let opts = DistanceOptions::default();
    for (na, a, nb, b, x) in rows {
        let d = distance_with(&*a, &Iso::identity(), &*b, &at(x), &opts, None, &mut ());
        writeln!(out, "  {:<28} {:<28} {:>10.6} {:>6} {:>12}", na, nb, d.distance, d.iterations, d.status.as_str())?;
    }
    let sq = Cuboid::new(DVec2::new(1.0, 0.5)).expect("ok");
    let disc = Ball::new(0.5).expect("ok");
    let d =
        distance_with(&sq, &Iso::identity(), &disc, &Iso::from_translation(DVec2::new(2.0, 1.0)), &opts, None, &mut ());
    writeln!(
        out,
        "  {:<28} {:<28} {:>10.6} {:>6} {:>12}",
        "rectangle 1x0.5 (2D)",
        "circle r=0.5",
        d.distance,
        d.iterations,
        d.status.as_str()
    )
}
