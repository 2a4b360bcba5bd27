//! One answer per query for any two bodies, shared by the single queries ([`crate::query`]) and the batches
//! ([`crate::batch`]): a batch's row i runs exactly the function the single query runs, so it is the same bits.
//!
//! Two convex shapes go to the library's convex functions, which take every option (iteration cap, tolerance) and
//! count iterations; any pair with a composite or a half-space goes to the library's `gjk::query`, which walks the
//! composite's tree and names the leaves that realise the answer (`part_a` / `part_b`). Nothing here computes
//! geometry: it picks the function and copies fields.

use gjk::cast::{self, Cast, CastOptions, Motion};
use gjk::math::{Iso, Real, Vector};
use gjk::{query, DistanceOptions, Status};

use crate::space::Body;

/// The options of the convex functions that `gjk::query` does not take: only their defaults are accepted for a
/// pair with a composite or a half-space.
pub fn check_options<V: Vector>(a: &Body<V>, b: &Body<V>, o: &DistanceOptions<V::Real>) -> Result<(), String> {
    let d = DistanceOptions::<V::Real>::default();
    if (a.convex().is_none() || b.convex().is_none())
        && (o.max_iterations != d.max_iterations || o.tolerance != d.tolerance)
    {
        return Err("max_iterations and tolerance apply to two convex shapes only; a pair with a composite or a \
                    half-space runs its leaf queries with the defaults (256, 64 ε)"
            .into());
    }
    Ok(())
}

/// The less trustworthy of two statuses (as the library ranks them: a bound reached is decided, like converged).
pub fn worse(a: Status, b: Status) -> Status {
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

/// A distance or a signed distance.
#[derive(Clone, Copy)]
pub struct Gap<V: Vector> {
    pub intersecting: bool,
    pub distance: V::Real,
    pub point_a: V,
    pub point_b: V,
    pub normal: V,
    pub part_a: Option<u32>,
    pub part_b: Option<u32>,
    /// GJK (plus EPA) iterations of a convex pair; 0 for a pair through `gjk::query`.
    pub iterations: u32,
    /// Leaf-pair queries run (1 for a convex pair; 0 when the library does not count them: penetration).
    pub leaves: u32,
    pub status: Status,
    /// Upper minus lower bound proven by the run; infinite when the library proves none (a penetration with a
    /// composite or a half-space reports its status only).
    pub error_bound: V::Real,
}

impl<V: Vector> Gap<V> {
    /// The answer of the library's distance on two convex shapes.
    pub fn of_convex(d: &gjk::Distance<V>) -> Self {
        Gap {
            intersecting: d.intersecting,
            distance: d.distance,
            point_a: d.point_a,
            point_b: d.point_b,
            normal: d.normal,
            part_a: None,
            part_b: None,
            iterations: d.iterations,
            leaves: 1,
            status: d.status,
            error_bound: d.error_bound,
        }
    }
}

/// Distance, closest points and normal.
pub fn distance<V: Vector>(a: &Body<V>, pa: &Iso<V>, b: &Body<V>, pb: &Iso<V>, o: &DistanceOptions<V::Real>) -> Gap<V> {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        return Gap::of_convex(&gjk::distance_with(x.as_ref(), pa, y.as_ref(), pb, o, None, &mut ()));
    }
    let d = query::distance_with(a, pa, b, pb, o.max_distance);
    Gap {
        intersecting: d.intersecting,
        distance: d.distance,
        point_a: d.point_a,
        point_b: d.point_b,
        normal: d.normal,
        part_a: d.part_a,
        part_b: d.part_b,
        iterations: 0,
        leaves: d.leaves,
        status: d.status,
        error_bound: d.error_bound,
    }
}

/// Signed distance: the gap when apart, minus the depth when overlapping.
pub fn penetration<V: Vector>(
    a: &Body<V>,
    pa: &Iso<V>,
    b: &Body<V>,
    pb: &Iso<V>,
    o: &DistanceOptions<V::Real>,
) -> Gap<V> {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        let p = gjk::penetration_with(x.as_ref(), pa, y.as_ref(), pb, o, &mut ());
        return Gap {
            intersecting: p.intersecting,
            distance: p.distance,
            point_a: p.point_a,
            point_b: p.point_b,
            normal: p.normal,
            part_a: None,
            part_b: None,
            iterations: p.iterations,
            leaves: 1,
            status: p.status,
            error_bound: p.error_bound,
        };
    }
    let p = query::penetration(a, pa, b, pb);
    Gap {
        intersecting: p.intersecting,
        distance: p.distance,
        point_a: p.point_a,
        point_b: p.point_b,
        normal: p.normal,
        part_a: p.part_a,
        part_b: p.part_b,
        iterations: 0,
        leaves: 0,
        status: p.status,
        error_bound: V::Real::INFINITY,
    }
}

/// Whether the shapes overlap or touch, with GJK's iterations and status for a convex pair (a composite pair
/// answers from `gjk::query::intersects`: 0 iterations, converged).
pub fn intersection<V: Vector>(
    a: &Body<V>,
    pa: &Iso<V>,
    b: &Body<V>,
    pb: &Iso<V>,
    o: &DistanceOptions<V::Real>,
) -> (bool, u32, Status) {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        let r = gjk::intersection(x.as_ref(), pa, y.as_ref(), pb, o, None, &mut ());
        return (r.intersecting, r.iterations, r.status);
    }
    (query::intersects(a, pa, b, pb), 0, Status::Converged)
}

/// Whether the shapes overlap or touch, by the fastest test the library has (the batches' test: separating axes
/// for boxes, centres for balls); the same answer as [`intersection`].
pub fn intersects<V: Vector>(a: &Body<V>, pa: &Iso<V>, b: &Body<V>, pb: &Iso<V>) -> bool {
    match (a.convex(), b.convex()) {
        (Some(x), Some(y)) => gjk::intersects(x.as_ref(), pa, y.as_ref(), pb),
        _ => query::intersects(a, pa, b, pb),
    }
}

/// One contact of a pair: the library's contact point with its manifold's normal and index.
#[derive(Clone, Copy)]
pub struct Contact<V: Vector> {
    pub point_a: V,
    pub point_b: V,
    pub normal: V,
    pub depth: f64,
    pub id: u64,
    pub part_a: Option<u32>,
    pub part_b: Option<u32>,
    /// Which of the pair's manifolds (contacts sharing a normal) it belongs to: 0, 1, ...
    pub manifold: u32,
}

/// Every contact of a pair within `prediction`, appended to `out`; returns the pair's signed distance and the
/// worst status. A convex pair has one manifold (the library's `contact_manifold`, whose signed distance comes
/// with it); a pair with a composite may have several (`gjk::query::contacts`: one per normal), and its signed
/// distance is `gjk::query::penetration`'s, run beside. `scratch` is reused between calls (no allocation once
/// grown).
pub fn contacts<V: Vector>(
    a: &Body<V>,
    pa: &Iso<V>,
    b: &Body<V>,
    pb: &Iso<V>,
    prediction: V::Real,
    scratch: &mut Vec<query::Manifold<V>>,
    out: &mut Vec<Contact<V>>,
) -> (V::Real, Status) {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        let m = gjk::manifold::contact_manifold(x.as_ref(), pa, y.as_ref(), pb, prediction);
        out.extend(m.contacts().iter().map(|c| Contact {
            point_a: c.point_a,
            point_b: c.point_b,
            normal: m.normal,
            depth: c.depth,
            id: c.id,
            part_a: None,
            part_b: None,
            manifold: 0,
        }));
        return (m.distance, m.status);
    }
    query::contacts(a, pa, b, pb, prediction, scratch);
    let p = query::penetration(a, pa, b, pb);
    let mut status = p.status;
    for (k, m) in scratch.iter().enumerate() {
        status = worse(status, m.status);
        out.extend(m.points().iter().map(|c| Contact {
            point_a: c.point_a,
            point_b: c.point_b,
            normal: m.normal,
            depth: c.depth,
            id: c.id,
            part_a: c.part_a,
            part_b: c.part_b,
            manifold: k as u32,
        }));
    }
    (p.distance, status)
}

/// A ray's hit.
#[derive(Clone, Copy)]
pub struct RayHit<V: Vector> {
    pub hit: bool,
    pub toi: V::Real,
    pub normal: V,
    pub point: V,
    pub part: Option<u32>,
    pub iterations: u32,
    pub status: Status,
}

/// The first point of `shape` on the ray `origin + t · direction`, t in [0, max_toi].
pub fn ray_cast<V: Vector>(
    shape: &Body<V>,
    pose: &Iso<V>,
    origin: V,
    direction: V,
    max_toi: V::Real,
    solid: bool,
) -> RayHit<V> {
    if let Some(s) = shape.convex() {
        let r = cast::ray_cast(s.as_ref(), pose, origin, direction, max_toi, solid);
        return RayHit {
            hit: r.hit,
            toi: r.toi,
            normal: r.normal,
            point: r.point,
            part: None,
            iterations: r.iterations,
            status: r.status,
        };
    }
    let r = query::ray_cast(shape, pose, origin, direction, max_toi, solid);
    RayHit { hit: r.hit, toi: r.toi, normal: r.normal, point: r.point, part: r.part, iterations: 0, status: r.status }
}

/// A cast's answer and the leaves met first.
#[derive(Clone, Copy)]
pub struct CastHit<V: Vector> {
    pub cast: Cast<V>,
    pub part_a: Option<u32>,
    pub part_b: Option<u32>,
}

/// Linear shape cast.
#[allow(clippy::too_many_arguments)]
pub fn shape_cast<V: Vector>(
    a: &Body<V>,
    pa: &Iso<V>,
    va: V,
    b: &Body<V>,
    pb: &Iso<V>,
    vb: V,
    o: &CastOptions<V::Real>,
) -> CastHit<V> {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        return CastHit {
            cast: cast::shape_cast(x.as_ref(), pa, va, y.as_ref(), pb, vb, o),
            part_a: None,
            part_b: None,
        };
    }
    let c = query::shape_cast(a, pa, va, b, pb, vb, o);
    CastHit { cast: c.cast, part_a: c.part_a, part_b: c.part_b }
}

/// Time of impact under rigid motions.
pub fn time_of_impact<V: Vector>(
    a: &Body<V>,
    ma: &Motion<V>,
    b: &Body<V>,
    mb: &Motion<V>,
    o: &CastOptions<V::Real>,
) -> CastHit<V> {
    if let (Some(x), Some(y)) = (a.convex(), b.convex()) {
        return CastHit { cast: cast::time_of_impact(x.as_ref(), ma, y.as_ref(), mb, o), part_a: None, part_b: None };
    }
    let c = query::time_of_impact(a, ma, b, mb, o);
    CastHit { cast: c.cast, part_a: c.part_a, part_b: c.part_b }
}

/// The point of `shape` closest to `point`, and whether `point` is inside (`gjk::query::project_point`, for every
/// kind).
pub fn project_point<V: Vector>(shape: &Body<V>, pose: &Iso<V>, point: V) -> query::Projection<V> {
    query::project_point(shape, pose, point)
}
