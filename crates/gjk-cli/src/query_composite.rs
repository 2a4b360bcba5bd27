//! The answers of a line with a shape that is not convex (a trimesh, a compound, a height field, a half-space, a
//! mesh read as a trimesh or a compound): through `gjk::query`, which walks the composites' trees and runs the
//! convex algorithms on their leaves. The answers are the convex ones' fields (docs/cli.md) plus the leaves that
//! decided them (`part_a`, `part_b`: a triangle's, segment's, part's or cell triangle's index, `null` for a convex
//! shape or a half-space) and, for the queries that report iterations, `leaves`: how many leaf queries ran.

use gjk::cast::{CastOptions, Motion};
use gjk::math::{Iso, Rotation};
use gjk::query::{self, CompositeCast, Manifold, WalkCount};
use gjk::Status;
use serde::Serialize;
use serde_json::Value;

use crate::composite::Built;
use crate::mesh::MeshFolder;
use crate::model::Space;
use crate::query::{Answer, Coords, Finite};
use crate::simplices::Simplices;

/// The answer fields of a line with a composite, in the order docs/cli.md lists them.
#[derive(Serialize)]
#[serde(untagged)]
pub enum CompositeAnswer {
    Intersect {
        intersecting: bool,
        iterations: u32,
        leaves: u32,
        part_a: Option<u32>,
        part_b: Option<u32>,
        status: Status,
    },
    Distance {
        intersecting: bool,
        distance: f64,
        point_a: Coords,
        point_b: Coords,
        normal: Coords,
        iterations: u32,
        leaves: u32,
        part_a: Option<u32>,
        part_b: Option<u32>,
        status: Status,
        /// `simplex_a`, `simplex_b` when the line asks for them (docs/cli.md, "Witness simplices").
        #[serde(flatten)]
        simplices: Option<Box<Simplices>>,
    },
    Penetration {
        intersecting: bool,
        distance: f64,
        depth: f64,
        normal: Coords,
        point_a: Coords,
        point_b: Coords,
        iterations: u32,
        leaves: u32,
        part_a: Option<u32>,
        part_b: Option<u32>,
        status: Status,
    },
    Contact {
        normal: Coords,
        contacts: Vec<PartContact>,
        manifolds: Vec<ManifoldAnswer>,
        status: Status,
    },
    RayCast {
        hit: bool,
        toi: Option<f64>,
        normal: Option<Coords>,
        point: Option<Coords>,
        part_a: Option<u32>,
        status: Status,
    },
    ShapeCast {
        hit: bool,
        toi: Option<f64>,
        normal: Option<Coords>,
        point_a: Option<Coords>,
        point_b: Option<Coords>,
        part_a: Option<u32>,
        part_b: Option<u32>,
        status: Status,
    },
}

/// A contact point with the leaves it joins.
#[derive(Clone, Copy, Serialize)]
pub struct PartContact {
    point_a: Coords,
    point_b: Coords,
    depth: f64,
    id: u64,
    part_a: Option<u32>,
    part_b: Option<u32>,
}

/// One manifold: contacts sharing a normal.
#[derive(Serialize)]
pub struct ManifoldAnswer {
    normal: Coords,
    contacts: Vec<PartContact>,
    status: Status,
}

fn answer(a: CompositeAnswer) -> Answer {
    Answer::Composite(a)
}

/// `intersect`: the verdict, and the first leaf pair found intersecting (none when apart, or when one shape holds
/// the other whole without touching a leaf).
pub fn intersect<V: Space>(a: &Built<V>, pa: &Iso<V>, b: &Built<V>, pb: &Iso<V>) -> Answer {
    let mut count = WalkCount::default();
    let intersecting = query::intersects_observed(a, pa, b, pb, &mut count);
    let (part_a, part_b) = if intersecting { count.first_hit.unwrap_or((None, None)) } else { (None, None) };
    answer(CompositeAnswer::Intersect {
        intersecting,
        iterations: count.iterations,
        leaves: count.leaves,
        part_a,
        part_b,
        status: Status::Converged,
    })
}

/// `distance`: the closest leaves; with `simplices` (the line, when it asks for them, and the mesh folder) their
/// witness simplices too.
pub fn distance<V: Space>(
    a: &Built<V>,
    pa: &Iso<V>,
    b: &Built<V>,
    pb: &Iso<V>,
    simplices: Option<(&Value, &MeshFolder)>,
) -> Result<Answer, String> {
    let mut count = WalkCount::default();
    let d = query::distance_observed(a, pa, b, pb, None, &mut count);
    let simplices = match simplices {
        Some((line, meshes)) => {
            Some(Box::new(crate::simplices::of_leaves(&d, (a, &line["a"], pa), (b, &line["b"], pb), meshes)?))
        }
        None => None,
    };
    let f = Finite { status: d.status };
    Ok(answer(CompositeAnswer::Distance {
        intersecting: d.intersecting,
        distance: f.num(d.distance, "distance")?,
        point_a: f.vec(d.point_a, "point_a")?,
        point_b: f.vec(d.point_b, "point_b")?,
        normal: f.vec(d.normal, "normal")?,
        iterations: count.iterations,
        leaves: count.leaves,
        part_a: d.part_a,
        part_b: d.part_b,
        status: d.status,
        simplices,
    }))
}

/// `penetration`: the deepest overlapping leaves (or the distance when apart).
pub fn penetration<V: Space>(a: &Built<V>, pa: &Iso<V>, b: &Built<V>, pb: &Iso<V>) -> Result<Answer, String> {
    let mut count = WalkCount::default();
    let p = query::penetration_observed(a, pa, b, pb, &mut count);
    let f = Finite { status: p.status };
    let distance = f.num(p.distance, "distance")?;
    Ok(answer(CompositeAnswer::Penetration {
        intersecting: p.intersecting,
        distance,
        depth: (-distance).max(0.0) + 0.0,
        normal: f.vec(p.normal, "normal")?,
        point_a: f.vec(p.point_a, "point_a")?,
        point_b: f.vec(p.point_b, "point_b")?,
        iterations: count.iterations,
        leaves: count.leaves,
        part_a: p.part_a,
        part_b: p.part_b,
        status: p.status,
    }))
}

/// `contact`: every manifold, deepest first; `normal` and `contacts` repeat the deepest one (so a reader of the
/// convex format finds one normal and its contacts), `manifolds` lists them all.
pub fn contact<V: Space>(
    a: &Built<V>,
    pa: &Iso<V>,
    b: &Built<V>,
    pb: &Iso<V>,
    prediction: f64,
) -> Result<Answer, String> {
    let mut found: Vec<Manifold<V>> = Vec::new();
    query::contacts(a, pa, b, pb, prediction, &mut found);
    // Deepest first; equal depths keep the library's order (a stable sort).
    found.sort_by(|x, y| y.max_depth().total_cmp(&x.max_depth()));
    let mut manifolds = Vec::with_capacity(found.len());
    let mut status = Status::Converged;
    for m in &found {
        let f = Finite { status: m.status };
        let mut contacts = Vec::with_capacity(m.len);
        for c in m.points() {
            contacts.push(PartContact {
                point_a: f.vec(c.point_a, "contact point_a")?,
                point_b: f.vec(c.point_b, "contact point_b")?,
                depth: f.num(c.depth, "contact depth")?,
                id: c.id,
                part_a: c.part_a,
                part_b: c.part_b,
            });
        }
        status = worse(status, m.status);
        manifolds.push(ManifoldAnswer { normal: f.vec(m.normal, "normal")?, contacts, status: m.status });
    }
    let (normal, contacts) = match manifolds.first() {
        Some(m) => (m.normal, m.contacts.clone()),
        None => (Finite { status }.vec(V::zero(), "normal")?, Vec::new()),
    };
    Ok(answer(CompositeAnswer::Contact { normal, contacts, manifolds, status }))
}

/// The less trustworthy of two statuses.
fn worse(a: Status, b: Status) -> Status {
    let rank = |s: Status| match s {
        Status::Converged | Status::AboveBound => 0,
        Status::Stalled => 1,
        Status::MaxIterations => 2,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// `ray_cast`: the first leaf the ray meets.
pub fn ray_cast<V: Space>(
    a: &Built<V>,
    pa: &Iso<V>,
    origin: V,
    direction: V,
    max_toi: f64,
    solid: bool,
) -> Result<Answer, String> {
    let r = query::ray_cast(a, pa, origin, direction, max_toi, solid);
    let f = Finite { status: r.status };
    let hit = |x: Result<Coords, String>| if r.hit { x.map(Some) } else { Ok(None) };
    Ok(answer(CompositeAnswer::RayCast {
        hit: r.hit,
        toi: if r.hit { Some(f.num(r.toi, "toi")?) } else { None },
        normal: hit(f.vec(r.normal, "normal"))?,
        point: hit(f.vec(r.point, "point"))?,
        part_a: r.part,
        status: r.status,
    }))
}

/// The motions of a `shape_cast` line.
pub struct Motions<V: Space> {
    pub velocity_a: V,
    pub velocity_b: V,
    pub angular_a: <V::Rotation as Rotation<V>>::Angular,
    pub angular_b: <V::Rotation as Rotation<V>>::Angular,
}

/// `shape_cast`: the first leaves to meet (a linear cast, or a rotating time of impact when a shape spins).
pub fn shape_cast<V: Space>(
    a: &Built<V>,
    pa: &Iso<V>,
    b: &Built<V>,
    pb: &Iso<V>,
    m: &Motions<V>,
    options: &CastOptions<f64>,
) -> Result<Answer, String> {
    let spinning = |w| V::Rotation::angular_speed(w) != 0.0;
    let c: CompositeCast<V> = if spinning(m.angular_a) || spinning(m.angular_b) {
        let (ma, mb) = (Motion::new(*pa, m.velocity_a, m.angular_a), Motion::new(*pb, m.velocity_b, m.angular_b));
        query::time_of_impact(a, &ma, b, &mb, options)
    } else {
        query::shape_cast(a, pa, m.velocity_a, b, pb, m.velocity_b, options)
    };
    let cast = c.cast;
    let f = Finite { status: cast.status };
    let hit = |x: Result<Coords, String>| if cast.hit { x.map(Some) } else { Ok(None) };
    Ok(answer(CompositeAnswer::ShapeCast {
        hit: cast.hit,
        toi: if cast.hit { Some(f.num(cast.toi, "toi")?) } else { None },
        normal: hit(f.vec(cast.normal, "normal"))?,
        point_a: hit(f.vec(cast.point_a, "point_a"))?,
        point_b: hit(f.vec(cast.point_b, "point_b"))?,
        part_a: if cast.hit { c.part_a } else { None },
        part_b: if cast.hit { c.part_b } else { None },
        status: cast.status,
    }))
}
