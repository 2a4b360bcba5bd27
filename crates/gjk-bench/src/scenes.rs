//! Scene benchmarks: composite shapes on real meshes, ours (`gjk::composite`, `gjk::query`) side by side with
//! parry3d-f64's `TriMesh`, `Compound` and `Bvh` on the same data and poses (3D f64).
//!
//! * BVH build over the monastery's 124,990 triangle boxes (binned SAH both), and the whole mesh build;
//! * ray casts against the monastery, closest hit with normal and triangle (ours `query::ray_cast`, parry
//!   `cast_ray_and_get_normal`);
//! * a capsule and a box resting on the monastery: contact manifolds (ours `query::contacts`, parry
//!   `DefaultQueryDispatcher::contact_manifolds`, its mesh built with `FIX_INTERNAL_EDGES` as ours handles interior
//!   edges);
//! * the teddy's convex decomposition against the duck's: distance (ours `query::distance`, parry `query::distance`).
//!
//! The meshes are read from `$GJK_MESHES`, else from the shared data folder beside the checkout
//! (`../shared/data/meshes`); when absent the section says so and measures nothing.

use std::fmt::Write as _;
use std::path::PathBuf;

use gjk::composite::{Compound, TriMesh};
use gjk::math::{DQuat, DVec3, Iso};
use gjk::query;
use gjk::shape::{Aabb, Capsule, Cuboid};
use p3::query::{PersistentQueryDispatcher, RayCast};
use parry3d_f64 as p3;

use crate::rng::Rng;
use crate::timing::{interleaved, Plan};

/// Where the meshes are, if anywhere.
pub fn meshes_dir() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("GJK_MESHES").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/meshes")),
    ];
    candidates.into_iter().flatten().find(|p| p.join("samurai_monastry.obj").is_file())
}

/// One measured cell.
pub struct SceneCell {
    /// What is measured.
    pub name: &'static str,
    /// Our time per item (ns).
    pub ours: f64,
    /// parry's time per item (ns).
    pub parry: f64,
    /// The target ratio (ours ÷ parry at most), if the issue sets one.
    pub target: Option<f64>,
    /// Items per call (rays, poses, triangles).
    pub items: usize,
}

fn pv(v: DVec3) -> p3::math::Vector {
    p3::math::Vector::new(v.x, v.y, v.z)
}

fn ppose(p: &Iso<DVec3>) -> p3::math::Pose {
    let q = p.rotation;
    p3::math::Pose::from_parts(pv(p.translation), p3::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w))
}

fn read(dir: &std::path::Path, name: &str) -> Result<String, String> {
    std::fs::read_to_string(dir.join(name)).map_err(|e| format!("{name}: {e}"))
}

/// A random unit quaternion.
fn rotation(rng: &mut Rng) -> DQuat {
    DQuat::from_xyzw(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize()
}

/// The monastery as the cells use it: our mesh and parry's (built with `FIX_INTERNAL_EDGES`, as ours handles
/// interior edges), the rays, the resting poses, and the generator left where the teddy's poses continue.
struct Level {
    verts: Vec<DVec3>,
    tris: Vec<[u32; 3]>,
    mesh: TriMesh<DVec3>,
    pmesh: p3::shape::TriMesh,
    rays: Vec<(DVec3, DVec3)>,
    reach: f64,
    poses: Vec<Iso<DVec3>>,
    rng: Rng,
}

fn level(dir: &std::path::Path) -> Result<Level, String> {
    let (vertices, objects) =
        gjk::composite::parse_obj(&read(dir, "samurai_monastry.obj")?).map_err(|e| e.to_string())?;
    let verts: Vec<DVec3> = vertices.iter().map(|p| DVec3::from_array(*p)).collect();
    let tris: Vec<[u32; 3]> = objects.iter().flat_map(|o| o.triangles.iter().copied()).collect();
    let n = tris.len();
    let mesh = TriMesh::new(verts.clone(), tris.clone()).map_err(|e| e.to_string())?;
    let pverts: Vec<p3::math::Vector> = verts.iter().map(|&v| pv(v)).collect();
    let pmesh = p3::shape::TriMesh::with_flags(pverts, tris.clone(), p3::shape::TriMeshFlags::FIX_INTERNAL_EDGES)
        .map_err(|e| format!("parry mesh: {e:?}"))?;
    // Rays: from random points in the level's box, random directions, closest hit within the box's diagonal.
    let bounds = mesh.bvh().root_aabb().ok_or("an empty level")?;
    let mut rng = Rng::new(7);
    let rays: Vec<(DVec3, DVec3)> = (0..1000)
        .map(|_| {
            let o = DVec3::new(
                rng.range(bounds.min.x, bounds.max.x),
                rng.range(bounds.min.y, bounds.max.y),
                rng.range(bounds.min.z, bounds.max.z),
            );
            (o, DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize())
        })
        .collect();
    // Shapes resting on the level: centred above a random triangle's centroid, along its normal, a little deep.
    let poses: Vec<Iso<DVec3>> = (0..200)
        .map(|_| {
            let t = mesh.facet((rng.next_u64() % n as u64) as u32);
            let c = (t.corners[0] + t.corners[1] + t.corners[2]) / 3.0;
            let nrm = t.normal().unwrap_or(DVec3::Y);
            Iso::new(rotation(&mut rng), c + nrm * 0.3)
        })
        .collect();
    Ok(Level { verts, tris, mesh, pmesh, rays, reach: bounds.diameter(), poses, rng })
}

/// The capsule and the box of the contact cells, ours and parry's.
fn resting_shapes() -> (Capsule<f64>, Cuboid<DVec3>, p3::shape::Capsule, p3::shape::Cuboid) {
    (
        Capsule::new(0.4, 0.35).expect("valid"),
        Cuboid::new(DVec3::new(0.35, 0.4, 0.3)).expect("valid"),
        p3::shape::Capsule::new_y(0.4, 0.35),
        p3::shape::Cuboid::new(pv(DVec3::new(0.35, 0.4, 0.3))),
    )
}

type PManifold = p3::query::ContactManifold<(), ()>;

/// One pass of our contact query over the poses (`out` reused, as a caller would).
fn our_contacts<B: gjk::query::Shape<DVec3>>(
    mesh: &TriMesh<DVec3>,
    shape: &B,
    poses: &[Iso<DVec3>],
    out: &mut Vec<query::Manifold<DVec3>>,
) {
    for p in poses {
        query::contacts(mesh, &Iso::identity(), shape, p, 0.0, out);
        std::hint::black_box(&*out);
    }
}

/// One pass of parry's contact manifolds over the poses (its manifolds and workspace reused).
fn parry_contacts(
    mesh: &p3::shape::TriMesh,
    shape: &dyn p3::shape::Shape,
    poses: &[Iso<DVec3>],
    out: &mut Vec<PManifold>,
    workspace: &mut Option<p3::query::ContactManifoldsWorkspace>,
) {
    let dispatcher = p3::query::DefaultQueryDispatcher;
    for p in poses {
        let _ = dispatcher.contact_manifolds(&ppose(p), mesh, shape, 0.0, out, workspace);
        std::hint::black_box(&*out);
    }
}

/// The teddy's and the duck's convex decompositions, ours and parry's.
type Decompositions = (
    Compound<DVec3, gjk::shape::ConvexPolytope<DVec3>>,
    Compound<DVec3, gjk::shape::ConvexPolytope<DVec3>>,
    p3::shape::Compound,
    p3::shape::Compound,
);

fn decompositions(dir: &std::path::Path) -> Result<Decompositions, String> {
    let teddy = Compound::<DVec3, _>::from_obj(&read(dir, "teddy2_VHACD_CHs.obj")?).map_err(|e| e.to_string())?;
    let duck = Compound::<DVec3, _>::from_obj(&read(dir, "duck_vhacd.obj")?).map_err(|e| e.to_string())?;
    let parry_compound = |c: &Compound<DVec3, gjk::shape::ConvexPolytope<DVec3>>| {
        let parts: Vec<(p3::math::Pose, p3::shape::SharedShape)> = c
            .parts()
            .iter()
            .map(|(s, _)| {
                let pts: Vec<p3::math::Vector> = s.vertices().iter().map(|&v| pv(v)).collect();
                (p3::math::Pose::IDENTITY, p3::shape::SharedShape::convex_hull(&pts).expect("a hull"))
            })
            .collect();
        p3::shape::Compound::new(parts)
    };
    let (pteddy, pduck) = (parry_compound(&teddy), parry_compound(&duck));
    Ok((teddy, duck, pteddy, pduck))
}

/// Relative poses of the duck around the teddy, close enough that parts nearly touch.
fn compound_poses(rng: &mut Rng) -> Vec<Iso<DVec3>> {
    (0..200)
        .map(|_| Iso::new(rotation(rng), DVec3::new(rng.range(-2.5, 2.5), rng.range(-2.5, 2.5), rng.range(-2.5, 2.5))))
        .collect()
}

/// Measures every scene cell. Returns the cells and the build figures (ms, bytes per triangle) for the report.
pub fn measure(dir: &std::path::Path, plan: &Plan) -> Result<(Vec<SceneCell>, String), String> {
    let Level { verts, tris, mesh, pmesh, rays, reach, poses, mut rng } = level(dir)?;
    let n = tris.len();
    let mut cells = Vec::new();
    let mut notes = String::new();

    // Build: the tree alone over the same boxes, then the whole mesh.
    let (boxes, pboxes) = triangle_boxes(&verts, &tris);
    let build_plan = Plan { batches: plan.batches.min(7), batch: plan.batch * 20 };
    {
        let mut ours = || our_build(&boxes);
        let mut parry = || parry_build(&pboxes);
        let t = interleaved(&mut [&mut ours, &mut parry], n, &build_plan);
        cells.push(SceneCell {
            name: "BVH build, per triangle (monastery)",
            ours: t[0].median_ns,
            parry: t[1].median_ns,
            target: Some(1.0),
            items: n,
        });
    }
    let pverts: Vec<p3::math::Vector> = verts.iter().map(|&v| pv(v)).collect();
    {
        let mut ours = || {
            std::hint::black_box(TriMesh::new(verts.clone(), tris.clone()).ok());
        };
        let mut parry = || {
            std::hint::black_box(
                p3::shape::TriMesh::with_flags(
                    pverts.clone(),
                    tris.clone(),
                    p3::shape::TriMeshFlags::FIX_INTERNAL_EDGES,
                )
                .ok(),
            );
        };
        let t = interleaved(&mut [&mut ours, &mut parry], n, &build_plan);
        cells.push(SceneCell {
            name: "mesh build with edge topology, per triangle",
            ours: t[0].median_ns,
            parry: t[1].median_ns,
            target: None,
            items: n,
        });
    }
    let _ = writeln!(
        notes,
        "- Monastery: {} vertices, {n} triangles; our tree {} nodes, depth {}, {:.1} bytes per triangle (nodes and \
         primitive list); the whole `TriMesh` (vertices, indices, tree, active-edge flags) {:.1} bytes per triangle.",
        verts.len(),
        mesh.bvh().nodes().len(),
        mesh.bvh().depth(),
        mesh.bvh().memory_bytes() as f64 / n as f64,
        mesh.memory_bytes() as f64 / n as f64
    );

    let id = Iso::identity();
    let pid = p3::math::Pose::IDENTITY;
    let mut agree = 0;
    for &(o, d) in &rays {
        let ours = query::ray_cast(&mesh, &id, o, d, reach, true);
        let theirs = pmesh.cast_ray(&pid, &p3::query::Ray::new(pv(o), pv(d)), reach, true);
        agree += usize::from(match theirs {
            Some(t) => ours.hit && (ours.toi - t).abs() <= 1e-9 * reach,
            None => !ours.hit,
        });
    }
    let _ = writeln!(
        notes,
        "- Rays: {agree} of {} closest hits agree with parry's to 1e-9 of the level's size.",
        rays.len()
    );
    {
        let mut ours = || our_rays(&mesh, &rays, reach);
        let mut parry = || parry_rays(&pmesh, &rays, reach);
        let t = interleaved(&mut [&mut ours, &mut parry], rays.len(), plan);
        cells.push(SceneCell {
            name: "ray cast, closest hit (monastery)",
            ours: t[0].median_ns,
            parry: t[1].median_ns,
            target: Some(0.8),
            items: rays.len(),
        });
    }

    let (capsule, cuboid, pcapsule, pcuboid) = resting_shapes();
    let mut contact_cell =
        |name: &'static str, ours: &dyn Fn(&mut Vec<query::Manifold<DVec3>>), theirs: &dyn p3::shape::Shape| {
            let mut out = Vec::new();
            let (mut pout, mut workspace) = (Vec::new(), None);
            let mut ours = || ours(&mut out);
            let mut parry = || parry_contacts(&pmesh, theirs, &poses, &mut pout, &mut workspace);
            let t = interleaved(&mut [&mut ours, &mut parry], poses.len(), plan);
            cells.push(SceneCell {
                name,
                ours: t[0].median_ns,
                parry: t[1].median_ns,
                target: Some(0.7),
                items: poses.len(),
            });
        };
    contact_cell(
        "capsule on the monastery, contact manifolds",
        &|out| our_contacts(&mesh, &capsule, &poses, out),
        &pcapsule,
    );
    contact_cell("box on the monastery, contact manifolds", &|out| our_contacts(&mesh, &cuboid, &poses, out), &pcuboid);

    // Teddy against duck, both convex decompositions, at random relative poses around contact.
    let (teddy, duck, pteddy, pduck) = decompositions(dir)?;
    let pairs = compound_poses(&mut rng);
    let mut worst: f64 = 0.0;
    for p in &pairs {
        let ours = query::distance(&teddy, &id, &duck, p).distance;
        let theirs = p3::query::distance(&pid, &pteddy, &ppose(p), &pduck).map_or(f64::NAN, |d| d.distance);
        worst = worst.max((ours - theirs).abs());
    }
    let _ = writeln!(
        notes,
        "- Teddy ({} parts) against duck ({} parts): largest |ours − parry| distance over the {} poses {worst:.1e}.",
        teddy.parts().len(),
        duck.parts().len(),
        pairs.len()
    );
    {
        let mut ours = || our_distances(&teddy, &duck, &pairs);
        let mut parry = || parry_distances(&pteddy, &pduck, &pairs);
        let t = interleaved(&mut [&mut ours, &mut parry], pairs.len(), plan);
        cells.push(SceneCell {
            name: "teddy vs duck decompositions, distance",
            ours: t[0].median_ns,
            parry: t[1].median_ns,
            target: Some(0.7),
            items: pairs.len(),
        });
    }
    Ok((cells, notes))
}

/// The triangles' boxes, ours and parry's (the same numbers).
fn triangle_boxes(verts: &[DVec3], tris: &[[u32; 3]]) -> (Vec<Aabb<DVec3>>, Vec<p3::bounding_volume::Aabb>) {
    let boxes: Vec<Aabb<DVec3>> = tris
        .iter()
        .map(|t| {
            let p = t.map(|i| verts[i as usize]);
            Aabb::new(p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
        })
        .collect();
    let pboxes = boxes.iter().map(|b| p3::bounding_volume::Aabb::new(pv(b.min), pv(b.max))).collect();
    (boxes, pboxes)
}

fn our_build(boxes: &[Aabb<DVec3>]) {
    std::hint::black_box(gjk::bvh::Bvh::new(std::hint::black_box(boxes)));
}

fn parry_build(boxes: &[p3::bounding_volume::Aabb]) {
    std::hint::black_box(p3::partitioning::Bvh::from_leaves(
        p3::partitioning::BvhBuildStrategy::Binned,
        std::hint::black_box(boxes),
    ));
}

fn our_rays(mesh: &TriMesh<DVec3>, rays: &[(DVec3, DVec3)], reach: f64) {
    for &(o, d) in rays {
        std::hint::black_box(query::ray_cast(mesh, &Iso::identity(), o, d, reach, true));
    }
}

fn parry_rays(mesh: &p3::shape::TriMesh, rays: &[(DVec3, DVec3)], reach: f64) {
    for &(o, d) in rays {
        std::hint::black_box(mesh.cast_ray_and_get_normal(
            &p3::math::Pose::IDENTITY,
            &p3::query::Ray::new(pv(o), pv(d)),
            reach,
            true,
        ));
    }
}

fn our_distances(
    a: &Compound<DVec3, gjk::shape::ConvexPolytope<DVec3>>,
    b: &Compound<DVec3, gjk::shape::ConvexPolytope<DVec3>>,
    pairs: &[Iso<DVec3>],
) {
    for p in pairs {
        std::hint::black_box(query::distance(a, &Iso::identity(), b, p));
    }
}

fn parry_distances(a: &p3::shape::Compound, b: &p3::shape::Compound, pairs: &[Iso<DVec3>]) {
    for p in pairs {
        std::hint::black_box(p3::query::distance(&p3::math::Pose::IDENTITY, a, &ppose(p), b).ok());
    }
}

/// The ids `--profile` takes for the scene cells (one call runs the cell's whole set of items once).
pub const PROFILE_IDS: [&str; 5] = ["scenes/build", "scenes/rays", "scenes/capsule", "scenes/box", "scenes/teddy-duck"];

/// Runs one contender (`who`: `ours` or `parry`) of the scene cell `id` (one of [`PROFILE_IDS`]) through `run`,
/// which calls the given closure as often as it likes (the report's `--profile`, for callgrind). Returns the items
/// per call.
pub fn profile(id: &str, who: &str, run: &mut dyn FnMut(&mut dyn FnMut())) -> Result<usize, String> {
    let dir = meshes_dir().ok_or("the meshes folder was not found (set `GJK_MESHES`)")?;
    let ours = match who {
        "ours" => true,
        "parry" => false,
        _ => return Err(format!("{id}: --who ours or parry")),
    };
    let Level { verts, tris, mesh, pmesh, rays, reach, poses, mut rng } = level(&dir)?;
    let (capsule, cuboid, pcapsule, pcuboid) = resting_shapes();
    let (mut out, mut pout, mut workspace) = (Vec::new(), Vec::new(), None);
    match (id, ours) {
        ("scenes/build", _) => {
            let (boxes, pboxes) = triangle_boxes(&verts, &tris);
            if ours {
                run(&mut || our_build(&boxes));
            } else {
                run(&mut || parry_build(&pboxes));
            }
            return Ok(tris.len());
        }
        ("scenes/rays", true) => run(&mut || our_rays(&mesh, &rays, reach)),
        ("scenes/rays", false) => run(&mut || parry_rays(&pmesh, &rays, reach)),
        ("scenes/capsule", true) => run(&mut || our_contacts(&mesh, &capsule, &poses, &mut out)),
        ("scenes/capsule", false) => run(&mut || parry_contacts(&pmesh, &pcapsule, &poses, &mut pout, &mut workspace)),
        ("scenes/box", true) => run(&mut || our_contacts(&mesh, &cuboid, &poses, &mut out)),
        ("scenes/box", false) => run(&mut || parry_contacts(&pmesh, &pcuboid, &poses, &mut pout, &mut workspace)),
        ("scenes/teddy-duck", _) => {
            let (teddy, duck, pteddy, pduck) = decompositions(&dir)?;
            let pairs = compound_poses(&mut rng);
            if ours {
                run(&mut || our_distances(&teddy, &duck, &pairs));
            } else {
                run(&mut || parry_distances(&pteddy, &pduck, &pairs));
            }
            return Ok(pairs.len());
        }
        _ => return Err(format!("no scene cell {id} (one of {PROFILE_IDS:?})")),
    }
    Ok(if id == "scenes/rays" { rays.len() } else { poses.len() })
}

/// The report's section on scenes.
pub fn section(plan: &Plan) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "## Scenes: meshes, compounds, BVH (3D f64, against parry3d-f64)\n");
    let Some(dir) = meshes_dir() else {
        let _ = writeln!(s, "Skipped: the meshes folder was not found (set `GJK_MESHES` to `shared/data/meshes`).\n");
        return s;
    };
    match measure(&dir, plan) {
        Err(e) => {
            let _ = writeln!(s, "Skipped: {e}\n");
        }
        Ok((cells, notes)) => {
            let _ =
                writeln!(s, "| cell | items | ours (ns per item) | parry (ns per item) | ours ÷ parry | target | |");
            let _ = writeln!(s, "| --- | ---: | ---: | ---: | ---: | ---: | --- |");
            for c in &cells {
                let ratio = c.ours / c.parry;
                let (target, verdict) = match c.target {
                    Some(t) => (format!("≤ {t}"), if ratio <= t { "met" } else { "missed" }),
                    None => ("–".into(), ""),
                };
                let _ = writeln!(
                    s,
                    "| {} | {} | {:.0} | {:.0} | {:.2} | {target} | {verdict} |",
                    c.name, c.items, c.ours, c.parry, ratio
                );
            }
            let _ = writeln!(s, "\n{notes}");
            let _ = writeln!(
                s,
                "- Contact manifolds: the capsule and the box rest about 0.1–0.4 deep in the level's fine triangles, so \
                 about 35 triangles touch per query (60–90 lie under its box). Per triangle ours runs closed forms: a \
                 separating-axis test (the box) or segment–triangle closest points (the capsule), bounded by the \
                 prediction distance (which drops the apart ones), the interior-edge check where a ridge is \
                 inactive, and a clip of the triangle against the box face or the core segment; parry runs a \
                 dedicated cuboid–triangle SAT (and capsule–triangle) path. Ours merges the triangles' contacts by \
                 normal and reduces each normal's points to four once, at the end of the query; parry returns one \
                 manifold per triangle. Where the time goes: `report --profile scenes/box --who ours --calls 3` under \
                 `valgrind --tool=callgrind --toggle-collect='*profiled_calls*'`.\n"
            );
        }
    }
    s
}
