//! `gjk::query::penetration` on compounds against brute force (the minimum over the parts' own signed distances,
//! convex shape and compound alike), and the walk observers (`WalkRecorder`, `WalkCount`): an observed query gives
//! the plain query's answer bit for bit, and what it records is the walk that answer came from (the leaf that
//! decided is among the runs, the runs' best is the answer, the counts agree, node indices are the tree's, and a
//! composite given as B is recorded as B's).

use gjk::composite::{Composite, Compound, HeightField, TriMesh};
use gjk::math::{DQuat, DVec2, DVec3, Iso, Rot2, Vector};
use gjk::query::{self, LeafRun, WalkCount, WalkRecorder};
use gjk::shape::{Ball, Capsule, ConvexPolytope, Cuboid, SupportMap};
use gjk::Status;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Two computations of the same number on shapes of size ~1 (a part's pose composed in two ways may differ by
/// rounding): far below any real difference.
const TOL: f64 = 1e-9;

type Part<V> = Box<dyn SupportMap<V> + Send + Sync>;

trait Space: Vector<Real = f64> {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self>;
}

impl Space for DVec3 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        let q = DQuat::from_xyzw(rng.gen(), rng.gen(), rng.gen(), rng.gen::<f64>() - 0.5).normalize();
        Iso::new(q, DVec3::from_fn(|_| rng.gen_range(-spread..spread)))
    }
}

impl Space for DVec2 {
    fn pose(rng: &mut SmallRng, spread: f64) -> Iso<Self> {
        Iso::new(Rot2::from_angle(rng.gen_range(-3.0..3.0)), DVec2::from_fn(|_| rng.gen_range(-spread..spread)))
    }
}

fn convex<V: Space>(rng: &mut SmallRng, k: usize) -> Part<V> {
    match k % 4 {
        0 => Box::new(Ball::new(rng.gen_range(0.05..0.7)).unwrap()),
        1 => Box::new(Cuboid::new(V::from_fn(|_| rng.gen_range(0.05..0.7))).unwrap()),
        2 => Box::new(Capsule::new(rng.gen_range(0.1..0.6), rng.gen_range(0.02..0.3)).unwrap()),
        _ => {
            let pts: Vec<V> = (0..10).map(|_| V::from_fn(|_| rng.gen_range(-0.6..0.6))).collect();
            Box::new(ConvexPolytope::new(&pts).unwrap())
        }
    }
}

fn compound<V: Space>(rng: &mut SmallRng, n: usize, spread: f64) -> Compound<V, Part<V>> {
    Compound::new((0..n).map(|k| (convex::<V>(rng, k), V::pose(rng, spread))).collect()).unwrap()
}

/// The minimum of `f` over indices, with the index.
fn argmin(values: impl Iterator<Item = f64>) -> (usize, f64) {
    values.enumerate().fold((usize::MAX, f64::INFINITY), |b, (i, x)| if x < b.1 { (i, x) } else { b })
}

/// Penetration of a compound against a convex shape and against another compound is the minimum over the parts'
/// (pairs') own `gjk::penetration`: the deepest overlap, or the gap when none overlaps.
fn compound_penetration_matches_brute_force<V: Space>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut overlapping, mut total) = (0, 0);
    for _ in 0..6 {
        let c = compound::<V>(&mut rng, 12, 2.0);
        let other = compound::<V>(&mut rng, 5, 1.0);
        let pc = V::pose(&mut rng, 0.5);
        let world = |c: &Compound<V, Part<V>>, pose: &Iso<V>, i: usize| pose.compose(&c.parts()[i].1);
        for k in 0..25 {
            let s = convex::<V>(&mut rng, k);
            // A 3D scene is emptier than a 2D one of the same size: closer, so that both outcomes are common.
            let ps = V::pose(&mut rng, if V::DIM == 3 { 2.2 } else { 3.0 });
            let (best_i, brute) = argmin(
                (0..c.parts().len()).map(|i| gjk::penetration(&c.parts()[i].0, &world(&c, &pc, i), &*s, &ps).distance),
            );
            let p = query::penetration(&c, &pc, &*s, &ps);
            assert!((p.distance - brute).abs() <= TOL, "{p:?} vs part {best_i}: {brute}");
            assert_eq!(p.intersecting, brute <= 0.0, "{p:?} vs {brute}");
            let named = p.part_a.expect("a compound's penetration names its part") as usize;
            let at_named = gjk::penetration(&c.parts()[named].0, &world(&c, &pc, named), &*s, &ps).distance;
            assert!((at_named - brute).abs() <= TOL, "part {named}: {at_named} vs {brute}");
            // The points and the normal agree: point_b − point_a = distance · normal.
            assert!((p.point_b - p.point_a - p.normal * p.distance).length() <= TOL, "{p:?}");
            // The same with the shapes exchanged: the same depth, the part on B's side, the normal reversed.
            let q = query::penetration(&*s, &ps, &c, &pc);
            assert!((q.distance - p.distance).abs() <= TOL && q.part_b == p.part_a && q.part_a.is_none(), "{q:?}");
            assert!((q.normal + p.normal).length() <= 1e-9, "{q:?} vs {p:?}");
            overlapping += usize::from(p.intersecting);
            total += 1;

            // Compound against compound.
            let po = V::pose(&mut rng, 2.5);
            let pairs: Vec<(usize, usize)> =
                (0..c.parts().len()).flat_map(|i| (0..other.parts().len()).map(move |j| (i, j))).collect();
            let (best, brute) = argmin(pairs.iter().map(|&(i, j)| {
                gjk::penetration(&c.parts()[i].0, &world(&c, &pc, i), &other.parts()[j].0, &world(&other, &po, j))
                    .distance
            }));
            let p = query::penetration(&c, &pc, &other, &po);
            assert!((p.distance - brute).abs() <= TOL, "{p:?} vs pair {:?}: {brute}", pairs[best]);
            assert_eq!(p.intersecting, brute <= 0.0);
            let (i, j) = (p.part_a.unwrap() as usize, p.part_b.unwrap() as usize);
            let at_named =
                gjk::penetration(&c.parts()[i].0, &world(&c, &pc, i), &other.parts()[j].0, &world(&other, &po, j));
            assert!((at_named.distance - brute).abs() <= TOL, "pair ({i}, {j}): {at_named:?} vs {brute}");
        }
    }
    let rate = overlapping as f64 / total as f64;
    assert!((0.15..0.85).contains(&rate), "overlap rate {rate}");
}

#[test]
fn compound_penetration_matches_brute_force_3d() {
    compound_penetration_matches_brute_force::<DVec3>(1);
}

#[test]
fn compound_penetration_matches_brute_force_2d() {
    compound_penetration_matches_brute_force::<DVec2>(2);
}

/// What a recorder saw of one query: node indices within the trees, leaf parts on the composite's side only.
fn check_walk<V: Vector>(walk: &WalkRecorder<V>, nodes: usize, leaves: u32, composite_is_a: bool) {
    let (mine, theirs) = if composite_is_a { (&walk.nodes_a, &walk.nodes_b) } else { (&walk.nodes_b, &walk.nodes_a) };
    assert!(theirs.is_empty() && walk.node_pairs.is_empty(), "{walk:?}");
    assert!(!mine.is_empty() && mine.iter().all(|&n| (n as usize) < nodes), "{mine:?} of {nodes}");
    for run in &walk.leaves {
        let (mine, theirs) = if composite_is_a { (run.part_a, run.part_b) } else { (run.part_b, run.part_a) };
        assert!(mine.is_some_and(|p| p < leaves) && theirs.is_none(), "{run:?}");
    }
}

/// The best recorded run of a distance walk: the smallest distance among runs that finished (a run stopped by the
/// walk's bound only knows it is above it).
fn best_run<V: Vector<Real = f64>>(runs: &[LeafRun<V>]) -> f64 {
    runs.iter().filter(|r| r.status != Status::AboveBound).map(|r| r.distance).fold(f64::INFINITY, f64::min)
}

/// Distance, intersection and penetration of a mesh, a height field and a compound against a convex shape, each
/// way round, observed by a recorder and by a counter: the answers are the plain ones, and the record explains
/// them.
fn observers_record_the_walk<V: Space>(seed: u64, mesh: &TriMesh<V>, field: &HeightField<V>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let c = compound::<V>(&mut rng, 20, 2.5);
    let mut decided = 0;
    for k in 0..40 {
        let s = convex::<V>(&mut rng, k);
        let ps = V::pose(&mut rng, 3.0);
        let pc = V::pose(&mut rng, 0.5);
        macro_rules! each_composite {
            ($x:expr, $leaves:expr) => {{
                let x = $x;
                let nodes = x.bvh().nodes().len();
                for composite_is_a in [true, false] {
                    // distance
                    let mut walk = WalkRecorder::default();
                    let mut count = WalkCount::default();
                    let (plain, seen, counted) = if composite_is_a {
                        (
                            query::distance(x, &pc, &*s, &ps),
                            query::distance_observed(x, &pc, &*s, &ps, None, &mut walk),
                            query::distance_observed(x, &pc, &*s, &ps, None, &mut count),
                        )
                    } else {
                        (
                            query::distance(&*s, &ps, x, &pc),
                            query::distance_observed(&*s, &ps, x, &pc, None, &mut walk),
                            query::distance_observed(&*s, &ps, x, &pc, None, &mut count),
                        )
                    };
                    assert_eq!(plain, seen);
                    assert_eq!(plain, counted);
                    check_walk(&walk, nodes, $leaves, composite_is_a);
                    assert_eq!(walk.leaves.len() as u32, plain.leaves);
                    assert_eq!(count.leaves, plain.leaves);
                    assert_eq!(count.iterations, walk.leaves.iter().map(|r| r.iterations).sum::<u32>());
                    let touching = walk.leaves.iter().any(|r| r.intersecting);
                    if !plain.intersecting || touching {
                        // The answer is the best run, and the run that decided is recorded.
                        assert!((best_run(&walk.leaves) - plain.distance).abs() <= TOL, "{plain:?} {walk:?}");
                        let deciding =
                            walk.leaves.iter().find(|r| r.part_a == plain.part_a && r.part_b == plain.part_b);
                        assert!(deciding.is_some_and(|r| r.distance == plain.distance), "{plain:?}");
                        decided += 1;
                    } else {
                        // Intersecting with every leaf apart: the shape is inside a solid (a height field's ground,
                        // a compound's part cannot hold it without touching its one leaf).
                        assert!(x.is_solid(), "{plain:?} {walk:?}");
                    }
                    // intersects
                    let mut walk = WalkRecorder::default();
                    let (plain, seen) = if composite_is_a {
                        (query::intersects(x, &pc, &*s, &ps), query::intersects_observed(x, &pc, &*s, &ps, &mut walk))
                    } else {
                        (query::intersects(&*s, &ps, x, &pc), query::intersects_observed(&*s, &ps, x, &pc, &mut walk))
                    };
                    assert_eq!(plain, seen);
                    if !walk.leaves.is_empty() {
                        check_walk(&walk, nodes, $leaves, composite_is_a);
                    }
                    // Every run but the last found the leaves apart: the walk stops at the first that meets.
                    let n = walk.leaves.len();
                    assert!(walk.leaves.iter().take(n.saturating_sub(1)).all(|r| !r.intersecting), "{walk:?}");
                    if walk.leaves.last().is_some_and(|r| r.intersecting) {
                        assert!(plain);
                    }
                    // penetration
                    let mut walk = WalkRecorder::default();
                    let (plain, seen) = if composite_is_a {
                        (query::penetration(x, &pc, &*s, &ps), query::penetration_observed(x, &pc, &*s, &ps, &mut walk))
                    } else {
                        (query::penetration(&*s, &ps, x, &pc), query::penetration_observed(&*s, &ps, x, &pc, &mut walk))
                    };
                    assert_eq!(plain, seen);
                    check_walk(&walk, nodes, $leaves, composite_is_a);
                }
            }};
        }
        each_composite!(&c, c.parts().len() as u32);
        each_composite!(mesh, mesh.facet_count() as u32);
        each_composite!(field, field.triangle_count() as u32);
    }
    assert!(decided > 100, "{decided} distance answers checked against their runs");
}

#[test]
fn observers_record_the_walk_3d() {
    let mut rng = SmallRng::seed_from_u64(30);
    let vertices: Vec<DVec3> = (0..60).map(|_| DVec3::from_fn(|_| rng.gen_range(-3.0..3.0))).collect();
    let triangles: Vec<[u32; 3]> = (0..20).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
    let mesh = TriMesh::new(vertices, triangles).unwrap();
    let heights: Vec<f64> = (0..36).map(|_| rng.gen_range(-0.5..0.5)).collect();
    let field = HeightField::grid(heights, 6, 6, 1.0, 1.0).unwrap();
    observers_record_the_walk::<DVec3>(3, &mesh, &field);
}

#[test]
fn observers_record_the_walk_2d() {
    let mut rng = SmallRng::seed_from_u64(20);
    let points: Vec<DVec2> = (0..25).map(|i| DVec2::new(i as f64 * 0.3 - 3.0, rng.gen_range(-1.0..1.0))).collect();
    let mesh = TriMesh::polyline(points, false).unwrap();
    let heights: Vec<f64> = (0..12).map(|_| rng.gen_range(-0.5..0.5)).collect();
    let field = HeightField::line(heights, 0.5).unwrap();
    observers_record_the_walk::<DVec2>(2, &mesh, &field);
}

/// Two compounds: the walk of both trees is recorded as pairs of nodes, and each run names a part of each.
#[test]
fn observers_record_a_walk_of_two_trees() {
    let mut rng = SmallRng::seed_from_u64(4);
    for _ in 0..30 {
        let (a, b) = (compound::<DVec3>(&mut rng, 10, 2.0), compound::<DVec3>(&mut rng, 6, 1.0));
        let (pa, pb) = (DVec3::pose(&mut rng, 0.5), DVec3::pose(&mut rng, 3.0));
        let mut walk = WalkRecorder::default();
        let d = query::distance_observed(&a, &pa, &b, &pb, None, &mut walk);
        assert_eq!(d, query::distance(&a, &pa, &b, &pb));
        assert!(!walk.node_pairs.is_empty());
        let (na, nb) = (a.bvh().nodes().len() as u32, b.bvh().nodes().len() as u32);
        assert!(walk.node_pairs.iter().all(|&(i, j)| i < na && j < nb), "{:?}", walk.node_pairs);
        assert!(walk.leaves.iter().all(|r| r.part_a.is_some_and(|p| p < 10) && r.part_b.is_some_and(|p| p < 6)));
        if !d.intersecting {
            assert!((best_run(&walk.leaves) - d.distance).abs() <= TOL, "{d:?}");
        }
    }
}
