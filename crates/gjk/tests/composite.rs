//! Composite shapes against brute force: every answer of `gjk::query` on a mesh, a polyline, a compound or a height
//! field equals the best over its leaves computed one by one with the convex queries (or closed forms), on random
//! scenes in 2D and 3D, f32 and f64. The hit rates are asserted to lie well inside (0, 1), so both outcomes are
//! exercised.

use gjk::cast::CastOptions;
use gjk::composite::{Compound, Facet, HalfSpace, HeightField, TriMesh};
use gjk::math::{DVec2, DVec3, Iso, Real, Rot2, Vec2, Vec3, Vector};
use gjk::query::{self, Convex, Shape};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, SupportMap};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn rv<V: Vector>(rng: &mut SmallRng, s: f64) -> V {
    V::from_fn(|_| V::Real::from_f64(rng.gen_range(-s..s)))
}

/// A random pose: a random rotation built through the space's own rotation (quaternion or angle).
trait Space: Vector {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self>;
    /// Tolerance relative to the scene size (1) for comparing two computations of the same number.
    const TOL: f64;
}

impl Space for DVec3 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        let q = gjk::math::DQuat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f64>() - 0.5).normalize();
        Iso::new(q, rv(rng, spread))
    }
    const TOL: f64 = 1e-9;
}
impl Space for Vec3 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        let q = gjk::math::Quat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f32>() - 0.5).normalize();
        Iso::new(q, rv(rng, spread))
    }
    const TOL: f64 = 2e-4;
}
impl Space for DVec2 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        Iso::new(Rot2::from_angle(rng.gen_range(-3.0..3.0)), rv(rng, spread))
    }
    const TOL: f64 = 1e-9;
}
impl Space for Vec2 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        Iso::new(Rot2::from_angle(rng.gen_range(-3.0f32..3.0)), rv(rng, spread))
    }
    const TOL: f64 = 2e-4;
}

/// A random soup of facets (triangles in 3D, segments in 2D) in a box of half-size 3, sizes up to ~1.5.
fn soup<V: Space>(rng: &mut SmallRng, n: usize) -> (Vec<V>, Vec<[u32; 3]>) {
    let mut vertices = Vec::new();
    let mut facets = Vec::new();
    for i in 0..n as u32 {
        let c: V = rv(rng, 3.0);
        for _ in 0..V::DIM {
            vertices.push(c + rv::<V>(rng, 0.8));
        }
        let k = i * V::DIM as u32;
        facets.push(if V::DIM == 2 { [k, k + 1, k + 1] } else { [k, k + 1, k + 2] });
    }
    (vertices, facets)
}

fn mesh_of<V: Space>(vertices: Vec<V>, facets: &[[u32; 3]]) -> TriMesh<V> {
    // Through the constructors of each dimension, via a small dynamic step on DIM (the test is generic).
    let any: &dyn std::any::Any = &vertices;
    if let Some(v) = any.downcast_ref::<Vec<DVec3>>() {
        let m = TriMesh::new(v.clone(), facets.to_vec()).unwrap();
        return *(Box::new(m) as Box<dyn std::any::Any>).downcast::<TriMesh<V>>().unwrap();
    }
    if let Some(v) = any.downcast_ref::<Vec<Vec3>>() {
        let m = TriMesh::new(v.clone(), facets.to_vec()).unwrap();
        return *(Box::new(m) as Box<dyn std::any::Any>).downcast::<TriMesh<V>>().unwrap();
    }
    let segments: Vec<[u32; 2]> = facets.iter().map(|f| [f[0], f[1]]).collect();
    if let Some(v) = any.downcast_ref::<Vec<DVec2>>() {
        let m = TriMesh::from_segments(v.clone(), &segments).unwrap();
        return *(Box::new(m) as Box<dyn std::any::Any>).downcast::<TriMesh<V>>().unwrap();
    }
    let v = any.downcast_ref::<Vec<Vec2>>().unwrap();
    let m = TriMesh::from_segments(v.clone(), &segments).unwrap();
    *(Box::new(m) as Box<dyn std::any::Any>).downcast::<TriMesh<V>>().unwrap()
}

/// The convex shapes a test throws at the composites.
fn convex<V: Space>(rng: &mut SmallRng, k: usize) -> Box<dyn SupportMap<V> + Send + Sync> {
    match k % 4 {
        0 => Box::new(Ball::new(V::Real::from_f64(rng.gen_range(0.05..0.6))).unwrap()),
        1 => Box::new(Cuboid::new(V::from_fn(|_| V::Real::from_f64(rng.gen_range(0.05..0.6)))).unwrap()),
        2 => Box::new(
            Capsule::new(V::Real::from_f64(rng.gen_range(0.1..0.6)), V::Real::from_f64(rng.gen_range(0.02..0.3)))
                .unwrap(),
        ),
        _ => {
            let pts: Vec<V> = (0..12).map(|_| rv::<V>(rng, 0.5)).collect();
            Box::new(ConvexPolytope::new(&pts).unwrap())
        }
    }
}

fn close<V: Space>(a: V::Real, b: V::Real) -> bool {
    (a.to_f64() - b.to_f64()).abs() <= V::TOL * (1.0 + b.to_f64().abs())
}

/// Distance, intersection, penetration, ray cast, point projection and linear cast of a random facet soup against
/// random convex shapes: each equals the best over the facets one by one.
fn mesh_matches_brute_force<V: Space>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut hits, mut total) = (0, 0);
    for scene in 0..6 {
        let (vertices, facets) = soup::<V>(&mut rng, 40 + 20 * scene);
        let mesh = mesh_of(vertices, &facets);
        let pm = V::pose(&mut rng, 2.0);
        let leaves: Vec<(Facet<V>, u32)> = (0..mesh.facet_count() as u32).map(|i| (mesh.facet(i), i)).collect();
        for k in 0..40 {
            let s = convex::<V>(&mut rng, k);
            let ps = V::pose(&mut rng, 4.0);
            let shape: &(dyn SupportMap<V> + Send + Sync) = &*s;
            // Distance: the minimum over the facets.
            let brute = leaves
                .iter()
                .map(|(f, i)| (gjk::distance(f, &pm, shape, &ps), *i))
                .min_by(|a, b| a.0.distance.to_f64().total_cmp(&b.0.distance.to_f64()))
                .unwrap();
            let d = query::distance(&mesh, &pm, shape, &ps);
            assert!(close::<V>(d.distance, brute.0.distance), "distance {:?} vs {:?}", d.distance, brute.0.distance);
            assert_eq!(d.intersecting, leaves.iter().any(|(f, _)| gjk::intersects(f, &pm, shape, &ps)));
            if !d.intersecting {
                // The reported leaf realises the distance.
                let own = gjk::distance(&mesh.facet(d.part_a.unwrap()), &pm, shape, &ps);
                assert!(close::<V>(own.distance, d.distance));
                let gap = (d.point_b - d.point_a).length();
                assert!(close::<V>(gap, d.distance));
            }
            // Flipped arguments give the flipped answer.
            let f = query::distance(shape, &ps, &mesh, &pm);
            assert_eq!((f.distance, f.part_b, f.normal), (d.distance, d.part_a, -d.normal));
            assert_eq!(query::intersects(&mesh, &pm, shape, &ps), d.intersecting);
            total += 1;
            hits += usize::from(d.intersecting);
            // Penetration: the deepest over the overlapping facets (random soups share no edge: no correction).
            let p = query::penetration(&mesh, &pm, shape, &ps);
            if d.intersecting {
                let deepest = leaves
                    .iter()
                    .map(|(f, _)| gjk::penetration(f, &pm, shape, &ps))
                    .filter(|p| p.intersecting)
                    .map(|p| p.distance.to_f64())
                    .fold(f64::INFINITY, f64::min);
                assert!((p.distance.to_f64() - deepest).abs() <= V::TOL * 10.0, "{} vs {deepest}", p.distance.to_f64());
            } else {
                assert!(close::<V>(p.distance, d.distance));
            }
            // A linear cast toward the mesh's centre: the earliest over the facets.
            let v = (pm.translation - ps.translation) * V::Real::from_f64(0.5);
            let opts = CastOptions { max_toi: V::Real::from_f64(2.0), ..CastOptions::default() };
            let c = query::shape_cast(&mesh, &pm, V::zero(), shape, &ps, v, &opts);
            let brute = leaves
                .iter()
                .map(|(f, _)| gjk::cast::shape_cast(f, &pm, V::zero(), shape, &ps, v, &opts))
                .filter(|c| c.hit)
                .map(|c| c.toi.to_f64())
                .fold(f64::INFINITY, f64::min);
            assert_eq!(c.cast.hit, brute.is_finite());
            if c.cast.hit {
                assert!(
                    (c.cast.toi.to_f64() - brute).abs() <= V::TOL * 10.0,
                    "cast {} vs {brute}",
                    c.cast.toi.to_f64()
                );
            }
        }
        // Rays and points.
        for _ in 0..60 {
            let o: V = rv(&mut rng, 6.0);
            let dir: V = rv(&mut rng, 1.0);
            let max = V::Real::from_f64(20.0);
            let r = query::ray_cast(&mesh, &pm, o, dir, max, true);
            let (lo, ld) = (pm.inverse_transform_point(o), pm.inverse_transform_vector(dir));
            let brute = leaves
                .iter()
                .filter_map(|(f, i)| f.ray_cast(lo, ld, max).map(|h| (h.0, *i)))
                .min_by(|a, b| a.0.to_f64().total_cmp(&b.0.to_f64()));
            assert_eq!(r.hit, brute.is_some());
            if let Some((t, _)) = brute {
                assert_eq!(r.toi, t);
            }
            let any = query::ray_cast_any(&mesh, &pm, o, dir, max, true);
            assert_eq!(any.hit, r.hit);
            let pr = query::project_point(&mesh, &pm, o);
            let brute = leaves
                .iter()
                .map(|(f, _)| (f.closest_point(lo).0 - lo).length().to_f64())
                .fold(f64::INFINITY, f64::min);
            assert!((pr.distance.to_f64() - brute).abs() <= V::TOL, "{} vs {brute}", pr.distance.to_f64());
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.1..0.9).contains(&rate), "hit rate {rate}");
}

#[test]
fn mesh_matches_brute_force_3d_f64() {
    mesh_matches_brute_force::<DVec3>(11);
}
#[test]
fn mesh_matches_brute_force_3d_f32() {
    mesh_matches_brute_force::<Vec3>(12);
}
#[test]
fn mesh_matches_brute_force_2d_f64() {
    mesh_matches_brute_force::<DVec2>(13);
}
#[test]
fn mesh_matches_brute_force_2d_f32() {
    mesh_matches_brute_force::<Vec2>(14);
}

/// A compound of random convex parts against random convex shapes and against another compound: distance and
/// intersection equal the best over the parts (pairs of parts), contacts' deepest point the deepest part.
fn compound_matches_brute_force<V: Space>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut hits, mut total) = (0, 0);
    for _ in 0..5 {
        let parts: Vec<(Box<dyn SupportMap<V> + Send + Sync>, Iso<V>)> =
            (0..25).map(|k| (convex::<V>(&mut rng, k), V::pose(&mut rng, 3.0))).collect();
        let other_parts: Vec<(Box<dyn SupportMap<V> + Send + Sync>, Iso<V>)> =
            (0..8).map(|k| (convex::<V>(&mut rng, k + 1), V::pose(&mut rng, 1.5))).collect();
        let compound = Compound::new(parts).unwrap();
        let other = Compound::new(other_parts).unwrap();
        let pc = V::pose(&mut rng, 1.0);
        let world = |c: &Compound<V, Box<dyn SupportMap<V> + Send + Sync>>, pose: &Iso<V>, i: usize| {
            pose.compose(&c.parts()[i].1)
        };
        for k in 0..30 {
            let s = convex::<V>(&mut rng, k);
            let ps = V::pose(&mut rng, if V::DIM == 2 { 5.0 } else { 3.0 });
            let shape: &(dyn SupportMap<V> + Send + Sync) = &*s;
            let brute = (0..compound.parts().len())
                .map(|i| gjk::distance(&compound.parts()[i].0, &world(&compound, &pc, i), shape, &ps).distance.to_f64())
                .fold(f64::INFINITY, f64::min);
            let d = query::distance(&compound, &pc, shape, &ps);
            assert!(
                (d.distance.to_f64() - brute).abs() <= V::TOL * (1.0 + brute),
                "{} vs {brute}",
                d.distance.to_f64()
            );
            assert_eq!(query::intersects(&compound, &pc, shape, &ps), brute == 0.0);
            total += 1;
            hits += usize::from(d.intersecting);
            // Compound against compound.
            let po = V::pose(&mut rng, 5.0);
            let brute = (0..compound.parts().len())
                .flat_map(|i| (0..other.parts().len()).map(move |j| (i, j)))
                .map(|(i, j)| {
                    gjk::distance(
                        &compound.parts()[i].0,
                        &world(&compound, &pc, i),
                        &other.parts()[j].0,
                        &world(&other, &po, j),
                    )
                    .distance
                    .to_f64()
                })
                .fold(f64::INFINITY, f64::min);
            let d = query::distance(&compound, &pc, &other, &po);
            assert!(
                (d.distance.to_f64() - brute).abs() <= V::TOL * (1.0 + brute),
                "{} vs {brute}",
                d.distance.to_f64()
            );
            assert_eq!(query::intersects(&compound, &pc, &other, &po), brute == 0.0);
            // Max-distance early exit: above the bound it says so, below it answers exactly.
            let bound = V::Real::from_f64(0.5);
            let e = query::distance_with(&compound, &pc, &other, &po, Some(bound));
            if brute > 0.5 + 1e-3 {
                assert_eq!(e.status, gjk::Status::AboveBound);
                assert!(e.distance.to_f64() <= brute + V::TOL);
            } else if brute < 0.5 - 1e-3 {
                assert!((e.distance.to_f64() - brute).abs() <= V::TOL * (1.0 + brute));
            }
            // Contacts: the deepest point is the deepest of the parts' own manifolds (merging keeps the deepest).
            let mut manifolds = Vec::new();
            query::contacts(&compound, &pc, shape, &ps, V::Real::ZERO, &mut manifolds);
            let deepest = (0..compound.parts().len())
                .map(|i| {
                    gjk::manifold::contact_manifold(
                        &compound.parts()[i].0,
                        &world(&compound, &pc, i),
                        shape,
                        &ps,
                        V::Real::ZERO,
                    )
                })
                .flat_map(|m| m.contacts().iter().map(|c| c.depth).collect::<Vec<_>>())
                .fold(f64::NEG_INFINITY, f64::max);
            let got = manifolds.iter().map(|m| m.max_depth()).fold(f64::NEG_INFINITY, f64::max);
            if deepest.is_finite() {
                assert!((got - deepest).abs() <= V::TOL * 100.0, "{got} vs {deepest}");
            }
        }
    }
    let rate = hits as f64 / total as f64;
    assert!((0.1..0.9).contains(&rate), "hit rate {rate}");
}

#[test]
fn compound_matches_brute_force_3d_f64() {
    compound_matches_brute_force::<DVec3>(21);
}
#[test]
fn compound_matches_brute_force_3d_f32() {
    compound_matches_brute_force::<Vec3>(22);
}
#[test]
fn compound_matches_brute_force_2d_f64() {
    compound_matches_brute_force::<DVec2>(23);
}
#[test]
fn compound_matches_brute_force_2d_f32() {
    compound_matches_brute_force::<Vec2>(24);
}

/// The six faces of a box as twelve outward-wound triangles.
fn box_mesh(h: DVec3) -> TriMesh<DVec3> {
    let v: Vec<DVec3> = (0..8)
        .map(|i| {
            DVec3::new(
                if i & 1 == 0 { -h.x } else { h.x },
                if i & 2 == 0 { -h.y } else { h.y },
                if i & 4 == 0 { -h.z } else { h.z },
            )
        })
        .collect();
    let quads = [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    let t: Vec<[u32; 3]> = quads.iter().flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]).collect();
    TriMesh::new(v, t).unwrap()
}

/// Solid versus surface: a closed box mesh holding a ball intersects it; the same box without its top two
/// triangles is a surface, and a ball inside it, touching no triangle, does not.
#[test]
fn closed_mesh_is_solid_open_mesh_is_a_surface() {
    let closed = box_mesh(DVec3::splat(2.0));
    assert!(closed.is_solid());
    let ball = Ball::new(0.5).unwrap();
    let inside = Iso::from_translation(DVec3::new(0.3, -0.2, 0.1));
    assert!(query::intersects(&closed, &Iso::identity(), &ball, &inside));
    let d = query::distance(&closed, &Iso::identity(), &ball, &inside);
    assert!(d.intersecting && d.distance == 0.0);
    assert!(query::contains_point(&closed, &Iso::identity(), DVec3::new(1.9, 1.9, -1.9)));
    assert!(!query::contains_point(&closed, &Iso::identity(), DVec3::new(2.1, 0.0, 0.0)));
    // Pushed out through the nearest face: the ball at x = 1.2 must move 1.3 along +x to clear x = 2.
    let p = query::penetration(&closed, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(1.2, 0.0, 0.0)));
    assert!(p.intersecting && (p.distance + 1.3).abs() < 1e-12 && (p.normal - DVec3::X).length() < 1e-12);
    // Outside: apart.
    assert!(!query::intersects(&closed, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(3.0, 0.0, 0.0))));
    // Open: drop the two triangles of the top face (y = +2).
    let mut tris = closed.indices().to_vec();
    tris.retain(|t| !t.iter().all(|&i| closed.vertices()[i as usize].y > 0.0));
    let open = TriMesh::new(closed.vertices().to_vec(), tris).unwrap();
    assert!(!open.is_solid());
    assert!(!query::intersects(&open, &Iso::identity(), &ball, &inside));
    assert!(!query::contains_point(&open, &Iso::identity(), DVec3::ZERO));
    // A shape below an open floor, not touching it, does not intersect it.
    let floor = TriMesh::new(
        vec![DVec3::new(-1.0, 0.0, -1.0), DVec3::new(1.0, 0.0, -1.0), DVec3::new(0.0, 0.0, 1.0)],
        vec![[0, 2, 1]],
    )
    .unwrap();
    assert!(!query::intersects(&floor, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(0.0, -0.6, 0.0))));
    // A ray from inside a solid mesh hits at once when solid, at the wall when hollow.
    let r = query::ray_cast(&closed, &Iso::identity(), DVec3::ZERO, DVec3::X, 10.0, true);
    assert!(r.hit && r.toi == 0.0);
    let r = query::ray_cast(&closed, &Iso::identity(), DVec3::ZERO, DVec3::X, 10.0, false);
    assert!(r.hit && r.toi == 2.0);
}

/// The ghost-contact test: a box sliding over a flat floor tessellated into many triangles sees only the floor's
/// normal (never the normal of an interior edge or vertex), and its contacts all have the right depth, at every
/// position along the slide, including over edges and vertices of the tessellation.
#[test]
fn box_slides_over_flat_mesh_without_bumps() {
    let (n, size) = (10usize, 1.0);
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(DVec3::new(i as f64 * size - 5.0, 0.0, j as f64 * size - 5.0));
        }
    }
    let mut tris = Vec::new();
    for i in 0..n as u32 {
        for j in 0..n as u32 {
            let k = i * (n as u32 + 1) + j;
            tris.push([k, k + 1, k + n as u32 + 2]);
            tris.push([k, k + n as u32 + 2, k + n as u32 + 1]);
        }
    }
    let floor = TriMesh::new(vertices, tris).unwrap();
    let crate_ = Cuboid::new(DVec3::new(0.3, 0.25, 0.2)).unwrap();
    let mut manifolds = Vec::new();
    for step in 0..400 {
        let x = -3.0 + step as f64 * 0.015;
        let angle = step as f64 * 0.01;
        let pose = Iso::new(
            gjk::math::DQuat::from_rotation_y(angle),
            DVec3::new(x, 0.25 - 0.01, 0.5 + 0.3 * (step as f64 * 0.05).sin()),
        );
        query::contacts(&floor, &Iso::identity(), &crate_, &pose, 0.0, &mut manifolds);
        assert_eq!(manifolds.len(), 1, "step {step}: {} normals", manifolds.len());
        let m = &manifolds[0];
        assert!((m.normal - DVec3::Y).length() < 1e-12, "step {step}: ghost normal {:?}", m.normal);
        assert_eq!(m.len, 4);
        for c in m.points() {
            assert!((c.depth - 0.01).abs() < 1e-9, "step {step}: depth {}", c.depth);
        }
        let p = query::penetration(&floor, &Iso::identity(), &crate_, &pose);
        assert!((p.normal - DVec3::Y).length() < 1e-12 && (p.distance + 0.01).abs() < 1e-9, "step {step}");
    }
}

/// The half-space in closed form: a box's distance and contacts, and a mesh against it (the lowest vertex).
#[test]
fn half_space_closed_forms() {
    let ground = HalfSpace::new(DVec3::Y).unwrap();
    let cube = Cuboid::new(DVec3::splat(0.5)).unwrap();
    let pose = Iso::from_translation(DVec3::new(3.0, 2.0, -1.0));
    let d = query::distance(&ground, &Iso::identity(), &cube, &pose);
    assert_eq!((d.distance, d.normal), (1.5, DVec3::Y));
    let pen = query::penetration(&ground, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(0.0, 0.4, 0.0)));
    assert!((pen.distance + 0.1).abs() < 1e-15);
    let mut m = Vec::new();
    query::contacts(&ground, &Iso::identity(), &cube, &Iso::from_translation(DVec3::new(0.0, 0.4, 0.0)), 0.0, &mut m);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].len, 4);
    // Flipped: the normal points from the cube to the ground.
    query::contacts(&cube, &Iso::from_translation(DVec3::new(0.0, 0.4, 0.0)), &ground, &Iso::identity(), 0.0, &mut m);
    assert_eq!(m[0].normal, -DVec3::Y);
    let bunny = bunny();
    let tilted = Iso::new(gjk::math::DQuat::from_rotation_x(0.4), DVec3::new(0.0, 0.5, 0.0));
    let lowest = bunny.vertices().iter().map(|&v| tilted.transform_point(v).y).fold(f64::INFINITY, f64::min);
    let d = query::distance(&ground, &Iso::identity(), &bunny, &tilted);
    assert!((d.distance - lowest.max(0.0)).abs() < 1e-12);
    assert_eq!(query::intersects(&ground, &Iso::identity(), &bunny, &tilted), lowest <= 0.0);
    let ray =
        query::ray_cast(&ground, &Iso::identity(), DVec3::new(0.0, 2.0, 0.0), DVec3::new(1.0, -1.0, 0.0), 10.0, true);
    assert!(ray.hit && ray.toi == 2.0);
}

/// A height field equals the mesh of its triangles: distance, ray cast and point containment.
#[test]
fn height_field_matches_its_triangles() {
    let mut rng = SmallRng::seed_from_u64(5);
    let (rows, cols) = (12, 15);
    let heights: Vec<f64> = (0..rows * cols).map(|_| rng.gen_range(-0.5..0.5)).collect();
    let field = HeightField::<DVec3>::grid(heights, rows, cols, 0.5, 0.7).unwrap();
    let tris: Vec<Facet<DVec3>> = (0..field.triangle_count() as u32).map(|i| field.triangle(i)).collect();
    let ball = Ball::new(0.3).unwrap();
    for _ in 0..300 {
        let pose = Iso::from_translation(DVec3::new(
            rng.gen_range(0.0..7.0),
            rng.gen_range(-1.0..2.0),
            rng.gen_range(0.0..7.7),
        ));
        let brute = tris
            .iter()
            .map(|t| gjk::distance(t, &Iso::identity(), &ball, &pose).distance)
            .fold(f64::INFINITY, f64::min);
        let d = query::distance(&field, &Iso::identity(), &ball, &pose);
        let below = field.contains_local_point(pose.translation);
        if below {
            assert!(d.intersecting);
        } else {
            assert!((d.distance - brute).abs() < 1e-12, "{} vs {brute}", d.distance);
        }
        let o = pose.translation + DVec3::Y * 3.0;
        let r = query::ray_cast(&field, &Iso::identity(), o, -DVec3::Y, 10.0, false);
        if let Some(h) = field.height_at(o.x, o.z) {
            assert!(r.hit && (r.toi - (o.y - h)).abs() < 1e-12, "{} vs {}", r.toi, o.y - h);
        }
    }
}

fn bunny() -> TriMesh<DVec3> {
    TriMesh::from_obj(include_str!("data/bunny.obj")).unwrap()
}

/// The real meshes: the bunny is a closed surface, so solid; random shapes against it agree with brute force, and
/// the duck and teddy decompositions' distance agrees with every pair of parts.
#[test]
fn real_meshes_match_brute_force() {
    let bunny = bunny();
    assert!(bunny.is_solid());
    assert_eq!(bunny.facet_count(), 902);
    let b = bunny.bvh().root_aabb().unwrap();
    let size = b.diameter();
    let mut rng = SmallRng::seed_from_u64(9);
    let capsule = Capsule::new(0.1 * size, 0.05 * size).unwrap();
    for _ in 0..100 {
        let pose = Iso::new(
            gjk::math::DQuat::from_rotation_z(rng.gen_range(-3.0..3.0)),
            b.center()
                + DVec3::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)) * size * 0.6,
        );
        let brute = (0..bunny.facet_count() as u32)
            .map(|i| gjk::distance(&bunny.facet(i), &Iso::identity(), &capsule, &pose).distance)
            .fold(f64::INFINITY, f64::min);
        let d = query::distance(&bunny, &Iso::identity(), &capsule, &pose);
        if brute > 0.0 && !bunny.contains_local_point(pose.translation) {
            assert!((d.distance - brute).abs() < 1e-12 * size, "{} vs {brute}", d.distance);
        } else {
            assert!(d.intersecting);
        }
    }
    let duck = Compound::<DVec3, _>::from_obj(include_str!("data/duck_vhacd.obj")).unwrap();
    let teddy = Compound::<DVec3, _>::from_obj(include_str!("data/teddy2_VHACD_CHs.obj")).unwrap();
    assert_eq!((duck.parts().len(), teddy.parts().len()), (5, 15));
    for _ in 0..50 {
        let pd = Iso::new(
            gjk::math::DQuat::from_rotation_x(rng.gen_range(-3.0..3.0)),
            DVec3::new(rng.gen_range(-2.0..2.0), 0.0, rng.gen_range(-2.0..2.0)),
        );
        let brute = duck
            .parts()
            .iter()
            .flat_map(|(a, _)| teddy.parts().iter().map(move |(b, _)| (a, b)))
            .map(|(a, b)| gjk::distance(a, &pd, b, &Iso::identity()).distance)
            .fold(f64::INFINITY, f64::min);
        let d = query::distance(&duck, &pd, &teddy, &Iso::identity());
        assert!((d.distance - brute).abs() < 1e-12, "{} vs {brute}", d.distance);
    }
}

/// `Convex` makes any support map a shape, and `&` and `Box` forward.
#[test]
fn shapes_by_reference_and_box() {
    let ball = Ball::new(1.0).unwrap();
    let boxed: Box<dyn SupportMap<DVec2>> = Box::new(Cuboid::new(DVec2::splat(1.0)).unwrap());
    let far = Iso::from_translation(DVec2::new(5.0, 0.0));
    let a = query::distance(&Convex(&ball), &Iso::identity(), &boxed, &far).distance;
    let b = query::distance(&&ball, &Iso::identity(), &*boxed, &far).distance;
    assert_eq!((a, b), (3.0, 3.0));
    fn takes<S: Shape<DVec2> + ?Sized>(s: &S) -> bool {
        query::contains_point(s, &Iso::identity(), DVec2::new(0.5, 0.5))
    }
    assert!(takes(&ball) && takes(&*boxed));
}

/// Rotating time of impact against a compound: the earliest over its parts, each cast on its own with the
/// compound's motion (the part posed in the compound's frame); the linear cast of a mesh agrees with the rotating
/// one at zero spin.
#[test]
fn time_of_impact_matches_the_parts() {
    use gjk::cast::{time_of_impact, Motion};
    use gjk::shape::Posed;
    let mut rng = SmallRng::seed_from_u64(41);
    let mut hits = 0;
    for _ in 0..40 {
        let parts: Vec<(Box<dyn SupportMap<DVec3> + Send + Sync>, Iso<DVec3>)> =
            (0..6).map(|k| (convex::<DVec3>(&mut rng, k), DVec3::pose(&mut rng, 1.5))).collect();
        let compound = Compound::new(parts).unwrap();
        let plank = Cuboid::new(DVec3::new(1.0, 0.1, 0.1)).unwrap();
        let mc = Motion::new(DVec3::pose(&mut rng, 0.5), DVec3::new(0.3, 0.0, 0.0), DVec3::new(0.0, 0.5, 0.0));
        let mp = Motion::new(
            Iso::new(gjk::math::DQuat::IDENTITY, DVec3::new(rng.gen_range(-6.0..-3.0), rng.gen_range(-1.0..1.0), 0.0)),
            DVec3::new(2.0, 0.0, 0.0),
            DVec3::new(0.0, 0.0, rng.gen_range(-2.0..2.0)),
        );
        let opts = CastOptions { max_toi: 3.0, ..CastOptions::default() };
        let got = query::time_of_impact(&compound, &mc, &plank, &mp, &opts);
        let brute = compound
            .parts()
            .iter()
            .map(|(s, p)| time_of_impact(&Posed::new(s, *p), &mc, &plank, &mp, &opts))
            .filter(|c| c.hit)
            .map(|c| c.toi)
            .fold(f64::INFINITY, f64::min);
        assert_eq!(got.cast.hit, brute.is_finite());
        if got.cast.hit {
            hits += 1;
            assert!((got.cast.toi - brute).abs() < 1e-9, "{} vs {brute}", got.cast.toi);
            // Conservative: at the reported time the shapes are within the tolerance, never past contact.
            let d = query::distance(&compound, &mc.at(got.cast.toi), &plank, &mp.at(got.cast.toi));
            assert!(d.distance < 1e-6);
        }
        // Flipped arguments: the same time.
        let flipped = query::time_of_impact(&plank, &mp, &compound, &mc, &opts);
        assert_eq!(flipped.cast.hit, got.cast.hit);
        if got.cast.hit {
            assert_eq!(flipped.cast.toi, got.cast.toi);
        }
    }
    assert!(hits > 4 && hits < 36, "{hits} hits of 40");
}

/// 2D: a half-plane against a polyline and a box, and a height profile against a ball.
#[test]
fn half_plane_and_height_profile_2d() {
    let ground = HalfSpace::new(DVec2::new(0.0, 1.0)).unwrap();
    let zigzag =
        TriMesh::polyline(vec![DVec2::new(0.0, 1.0), DVec2::new(1.0, 0.5), DVec2::new(2.0, 2.0)], false).unwrap();
    let lifted = Iso::from_translation(DVec2::new(0.0, 0.25));
    let d = query::distance(&ground, &Iso::identity(), &zigzag, &lifted);
    assert!((d.distance - 0.75).abs() < 1e-15 && d.part_b == Some(0));
    let mut m = Vec::new();
    query::contacts(&zigzag, &Iso::from_translation(DVec2::new(0.0, -0.6)), &ground, &Iso::identity(), 0.0, &mut m);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].normal, -DVec2::Y);
    assert!((m[0].max_depth() - 0.1).abs() < 1e-12);
    let profile = HeightField::<DVec2>::line(vec![0.0, 1.0, 0.0, 1.0], 1.0).unwrap();
    let ball = Ball::new(0.2).unwrap();
    let d = query::distance(&profile, &Iso::identity(), &ball, &Iso::from_translation(DVec2::new(1.0, 2.0)));
    assert!((d.distance - 0.8).abs() < 1e-12);
    assert!(query::intersects(&profile, &Iso::identity(), &ball, &Iso::from_translation(DVec2::new(2.0, -1.0))));
}

/// A 2D height profile is solid below: a ball sunk 0.1 into a flat stretch is pushed up by 0.1 (penetration and
/// contacts), not down through the ground by 0.9. The 2D segments' outward normal once pointed down (a facet's 2D
/// normal is its direction turned clockwise, and a profile runs toward +x), so the ball was pushed through.
#[test]
fn height_profile_2d_pushes_a_sunk_ball_up() {
    let profile = HeightField::<DVec2>::line(vec![0.0, 0.0, 0.0, 1.0], 1.0).unwrap();
    let ball = Ball::new(0.5).unwrap();
    for x in [0.5, 1.0, 1.5] {
        let at = Iso::from_translation(DVec2::new(x, 0.4));
        let p = query::penetration(&profile, &Iso::identity(), &ball, &at);
        assert!(p.intersecting && (p.distance + 0.1).abs() < 1e-12, "x = {x}: {p:?}");
        assert!((p.normal - DVec2::Y).length() < 1e-12, "x = {x}: {p:?}");
        let mut m = Vec::new();
        query::contacts(&profile, &Iso::identity(), &ball, &at, 0.0, &mut m);
        assert!(!m.is_empty() && m.iter().all(|m| (m.normal - DVec2::Y).length() < 1e-12), "x = {x}: {m:?}");
        assert!(m.iter().all(|m| (m.max_depth() - 0.1).abs() < 1e-12), "x = {x}: {m:?}");
    }
}

/// Bad input gives a typed error, never a panic; an empty mesh answers every query with nothing.
#[test]
fn bad_input_is_rejected() {
    use gjk::composite::parse_obj;
    use gjk::shape::ShapeError;
    assert!(matches!(TriMesh::new(vec![DVec3::new(f64::NAN, 0.0, 0.0)], vec![]), Err(ShapeError::NonFinite(_))));
    assert!(matches!(TriMesh::new(vec![DVec3::ZERO], vec![[0, 0, 1]]), Err(ShapeError::Invalid(_))));
    let parts: Vec<(Ball<f64>, Iso<DVec3>)> = Vec::new();
    assert_eq!(Compound::new(parts).err(), Some(ShapeError::Empty));
    let nan_pose = Iso::from_translation(DVec3::new(f64::INFINITY, 0.0, 0.0));
    assert!(Compound::new(vec![(Ball::new(1.0).unwrap(), nan_pose)]).is_err());
    assert!(HalfSpace::new(DVec3::ZERO).is_err());
    assert!(HeightField::<DVec3>::grid(vec![0.0, f64::NAN, 0.0, 0.0], 2, 2, 1.0, 1.0).is_err());
    assert!(HeightField::<DVec3>::grid(vec![0.0; 3], 2, 2, 1.0, 1.0).is_err());
    assert!(HeightField::<DVec2>::line(vec![0.0, 1.0], 0.0).is_err());
    for bad in ["v 1 2\n", "v 1 x 3\n", "v 0 0 0\nf 1 2 3\n", "v 0 0 0\nf 0 1 1\n", "v 1e999 0 0\n"] {
        let e = parse_obj(bad).unwrap_err();
        assert!(e.line >= 1, "{bad:?}: {e}");
    }
    assert!(TriMesh::<DVec3>::from_obj("v 0 0 0\nv 1 0 0\nf 1 2\n").unwrap().facet_count() == 0);
    let empty = TriMesh::<DVec3>::new(vec![], vec![]).unwrap();
    let ball = Ball::new(1.0).unwrap();
    let d = query::distance(&empty, &Iso::identity(), &ball, &Iso::identity());
    assert!(!d.intersecting && d.status == gjk::Status::AboveBound);
    assert!(!query::intersects(&empty, &Iso::identity(), &ball, &Iso::identity()));
    assert!(!query::ray_cast(&empty, &Iso::identity(), DVec3::ZERO, DVec3::X, 1.0, true).hit);
    let mut m = Vec::new();
    query::contacts(&empty, &Iso::identity(), &ball, &Iso::identity(), 1.0, &mut m);
    assert!(m.is_empty());
}

/// A deforming mesh: after `set_vertices` (refit, same topology) every query still equals the brute force over the
/// moved triangles, and a height field after `set_heights` likewise.
#[test]
fn deformed_mesh_and_field_stay_exact() {
    let mut rng = SmallRng::seed_from_u64(51);
    let (vertices, facets) = soup::<DVec3>(&mut rng, 120);
    let mut mesh = TriMesh::new(vertices.clone(), facets.clone()).unwrap();
    let ball = Ball::new(0.4).unwrap();
    for round in 0..5 {
        let moved: Vec<DVec3> = vertices
            .iter()
            .map(|&v| v + rv::<DVec3>(&mut rng, 0.3 * (round + 1) as f64) + DVec3::X * round as f64)
            .collect();
        mesh.set_vertices(moved.clone()).unwrap();
        for _ in 0..40 {
            let pose = DVec3::pose(&mut rng, 5.0);
            let brute = (0..mesh.facet_count() as u32)
                .map(|i| gjk::distance(&mesh.facet(i), &Iso::identity(), &ball, &pose).distance)
                .fold(f64::INFINITY, f64::min);
            assert!((query::distance(&mesh, &Iso::identity(), &ball, &pose).distance - brute).abs() < 1e-12);
        }
    }
    assert!(mesh.set_vertices(vec![DVec3::ZERO]).is_err());
    let mut field = HeightField::<DVec3>::grid(vec![0.0; 36], 6, 6, 1.0, 1.0).unwrap();
    let heights: Vec<f64> = (0..36).map(|i| (i as f64 * 0.7).sin()).collect();
    field.set_heights(heights).unwrap();
    for _ in 0..40 {
        let pose = Iso::from_translation(DVec3::new(
            rng.gen_range(0.0..5.0),
            rng.gen_range(1.5..3.0),
            rng.gen_range(0.0..5.0),
        ));
        let brute = (0..field.triangle_count() as u32)
            .map(|i| gjk::distance(&field.triangle(i), &Iso::identity(), &ball, &pose).distance)
            .fold(f64::INFINITY, f64::min);
        assert!((query::distance(&field, &Iso::identity(), &ball, &pose).distance - brute).abs() < 1e-12);
    }
}

/// The ghost-contact test on a height field: a box sliding over its flat part sees only the up normal, while a
/// bump's real slopes still give their own normals.
#[test]
fn box_slides_over_flat_height_field_without_bumps() {
    let (rows, cols) = (12, 12);
    let mut heights = vec![0.0; rows * cols];
    heights[9 * cols + 9] = 1.0; // a bump far from the slide
    let field = HeightField::<DVec3>::grid(heights, rows, cols, 0.5, 0.5).unwrap();
    let crate_ = Cuboid::new(DVec3::new(0.3, 0.25, 0.2)).unwrap();
    let mut manifolds = Vec::new();
    for step in 0..300 {
        let x = 0.6 + step as f64 * 0.01;
        let pose = Iso::new(
            gjk::math::DQuat::from_rotation_y(step as f64 * 0.013),
            DVec3::new(x, 0.24, 1.3 + 0.2 * (step as f64 * 0.07).sin()),
        );
        query::contacts(&field, &Iso::identity(), &crate_, &pose, 0.0, &mut manifolds);
        assert_eq!(manifolds.len(), 1, "step {step}");
        assert!((manifolds[0].normal - DVec3::Y).length() < 1e-12, "step {step}: {:?}", manifolds[0].normal);
        assert_eq!(manifolds[0].len, 4);
    }
    // On the bump's slope (rising toward +x) the normal is the slope's, out of the ground: up and toward −x.
    let ball = Ball::new(0.1).unwrap();
    let p = query::penetration(&field, &Iso::identity(), &ball, &Iso::from_translation(DVec3::new(4.25, 0.45, 4.5)));
    assert!(p.intersecting && p.normal.y > 0.1 && p.normal.y < 0.99 && p.normal.x < -0.1, "{:?}", p.normal);
}

/// A negative `max_distance` admits only touching leaves: squaring it inside the walk must not turn −1 into a
/// bound of 1 (a ball 0.5 from a triangle was once reported at distance 0.5 under `max_distance = −1`).
#[test]
fn negative_max_distance_admits_only_contact() {
    let tri = TriMesh::new(vec![DVec3::ZERO, DVec3::X, DVec3::Z], vec![[0, 2, 1]]).unwrap();
    let ball = Ball::new(0.5).unwrap();
    let d = query::distance_with(
        &tri,
        &Iso::identity(),
        &ball,
        &Iso::from_translation(DVec3::new(0.2, 1.0, 0.2)),
        Some(-1.0),
    );
    assert_eq!(d.status, gjk::Status::AboveBound);
    assert!(!d.intersecting);
    let d = query::distance_with(
        &tri,
        &Iso::identity(),
        &ball,
        &Iso::from_translation(DVec3::new(0.2, 0.3, 0.2)),
        Some(-1.0),
    );
    assert!(d.intersecting && d.distance == 0.0);
}

/// A flat floor tessellated into a 12 × 12 grid (288 triangles, every interior edge inactive): a box and a capsule
/// resting on it at random tilts, positions (over vertices, edges and faces of the tessellation) and depths from
/// 1e-6 to 0.2. The contact query skips EPA on such facets (their normal can only be the face's), so it is checked
/// against an independent closed form, the same shapes on the half-space y ≥ 0 (B's supporting feature along −y):
/// one manifold, the face normal, the same deepest contact, and every contact's two points `depth` apart along the
/// normal, the floor's on the plane and B's not below B's lowest point. The penetration query agrees.
#[test]
fn resting_on_a_flat_grid_matches_the_half_space() {
    let n = 12u32;
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            vertices.push(DVec3::new(f64::from(i) * 0.5 - 3.0, 0.0, f64::from(j) * 0.5 - 3.0));
        }
    }
    let mut tris = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let k = i * (n + 1) + j;
            // Alternate the diagonal so that both kinds of vertex (4 and 8 triangles around it) occur.
            if (i + j) % 2 == 0 {
                tris.push([k, k + 1, k + n + 2]);
                tris.push([k, k + n + 2, k + n + 1]);
            } else {
                tris.push([k, k + 1, k + n + 1]);
                tris.push([k + 1, k + n + 2, k + n + 1]);
            }
        }
    }
    let floor = TriMesh::new(vertices, tris).unwrap();
    assert!(!floor.is_solid());
    let ground = HalfSpace::new(DVec3::Y).unwrap();
    let cuboid = Cuboid::new(DVec3::new(0.35, 0.4, 0.3)).unwrap();
    let capsule = Capsule::new(0.4, 0.35).unwrap();
    let shapes: [&dyn SupportMap<DVec3>; 2] = [&cuboid, &capsule];
    let mut rng = SmallRng::seed_from_u64(12);
    let (mut mesh_m, mut half_m) = (Vec::new(), Vec::new());
    let mut checked = 0;
    for case in 0..400 {
        let shape = shapes[case % 2];
        let q = gjk::math::DQuat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f64>() - 0.5).normalize();
        // Depth of B's lowest point below the floor: 1e-6 to 0.2.
        let depth = 10f64.powf(rng.gen_range(-6.0..-0.7));
        let mut pose = Iso::new(q, DVec3::new(rng.gen_range(-1.5..1.5), 0.0, rng.gen_range(-1.5..1.5)));
        let lowest = pose.transform_point(gjk::shape::support_full(shape, pose.inverse_transform_vector(-DVec3::Y)));
        pose.translation.y -= lowest.y + depth;
        let prediction = 0.0;
        query::contacts(&floor, &Iso::identity(), &Convex(shape), &pose, prediction, &mut mesh_m);
        query::contacts(&ground, &Iso::identity(), &Convex(shape), &pose, prediction, &mut half_m);
        assert_eq!(mesh_m.len(), 1, "case {case}: {} manifolds", mesh_m.len());
        assert_eq!(half_m.len(), 1, "case {case}");
        let (m, h) = (&mesh_m[0], &half_m[0]);
        assert_eq!(m.normal, DVec3::Y, "case {case}: ghost normal {:?}", m.normal);
        assert!((m.max_depth() - h.max_depth()).abs() < 1e-12, "case {case}: {} vs {}", m.max_depth(), h.max_depth());
        assert!((m.max_depth() - depth).abs() < 1e-12, "case {case}: {} vs {depth}", m.max_depth());
        for c in m.points() {
            assert!(c.point_a.y.abs() < 1e-12, "case {case}: floor point off the plane {:?}", c.point_a);
            let apart = c.point_b - c.point_a + DVec3::Y * c.depth;
            assert!(apart.length() < 1e-12, "case {case}: points not depth apart along the normal");
            // Not below B's lowest point along −y (B's support there).
            let local = pose.inverse_transform_point(c.point_b);
            let low = gjk::shape::support_full(shape, pose.inverse_transform_vector(-DVec3::Y));
            let slack = (local - low).dot(pose.inverse_transform_vector(-DVec3::Y));
            assert!(slack <= 1e-12, "case {case}: contact below B's lowest point by {slack}");
            assert!(c.part_a.is_some() && c.part_b.is_none());
        }
        let p = query::penetration(&floor, &Iso::identity(), &Convex(shape), &pose);
        assert!(p.intersecting && p.normal == DVec3::Y, "case {case}: {:?}", p.normal);
        assert!((p.distance + depth).abs() < 1e-12, "case {case}: {} vs {depth}", p.distance);
        checked += 1;
    }
    assert_eq!(checked, 400);
}

/// A bumpy random height field (10 × 10 cells, heights in ±0.6) against a box and a capsule at random poses, from
/// touching to 0.3 apart and sunk up to 0.3: the distance equals the minimum over the field's 162 triangles taken
/// one by one, and the contact query names only triangles that the shape touches (by GJK on that triangle alone),
/// and at least one whenever some triangle overlaps it by more than 1e-9 (by EPA on that triangle alone).
#[test]
fn height_field_matches_brute_force_over_its_triangles() {
    let mut rng = SmallRng::seed_from_u64(125);
    let (rows, cols) = (10, 10);
    let heights: Vec<f64> = (0..rows * cols).map(|_| rng.gen_range(-0.6..0.6)).collect();
    let field = HeightField::<DVec3>::grid(heights, rows, cols, 0.5, 0.5).unwrap();
    let cuboid = Cuboid::new(DVec3::new(0.3, 0.2, 0.25)).unwrap();
    let capsule = Capsule::new(0.3, 0.2).unwrap();
    let shapes: [&dyn SupportMap<DVec3>; 2] = [&cuboid, &capsule];
    let (mut apart, mut touching) = (0, 0);
    let mut manifolds = Vec::new();
    for case in 0..300 {
        let shape = shapes[case % 2];
        let q = gjk::math::DQuat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f64>() - 0.5).normalize();
        let at = DVec3::new(rng.gen_range(0.5..4.0), rng.gen_range(-0.6..1.2), rng.gen_range(0.5..4.0));
        let pose = Iso::new(q, at);
        let n = field.triangle_count() as u32;
        let brute = (0..n)
            .map(|i| gjk::distance(&field.triangle(i), &Iso::identity(), shape, &pose).distance)
            .fold(f64::INFINITY, f64::min);
        let ours = query::distance(&field, &Iso::identity(), &Convex(shape), &pose);
        // A shape below the surface is inside the solid field: distance zero whatever the triangles say.
        if !ours.intersecting {
            assert!((ours.distance - brute).abs() < 1e-12, "case {case}: {} vs {brute}", ours.distance);
            apart += 1;
        } else {
            assert!(ours.distance == 0.0, "case {case}");
            touching += 1;
        }
        query::contacts(&field, &Iso::identity(), &Convex(shape), &pose, 0.0, &mut manifolds);
        for c in manifolds.iter().flat_map(|m| m.points()) {
            let i = c.part_a.expect("a triangle");
            assert!(gjk::intersects(&field.triangle(i), &Iso::identity(), shape, &pose), "case {case}: triangle {i}");
        }
        let overlapped =
            (0..n).any(|i| gjk::penetration(&field.triangle(i), &Iso::identity(), shape, &pose).depth > 1e-9);
        if overlapped {
            assert!(!manifolds.is_empty(), "case {case}: an overlapping triangle and no contact");
        }
    }
    assert!(apart > 30 && touching > 30, "apart {apart}, touching {touching}");
}
