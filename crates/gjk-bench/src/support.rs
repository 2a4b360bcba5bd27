//! The support-function crossover: [`ConvexPolytope::support`] (a scan of every vertex) against hill-climbing
//! from a warm hint, on hulls of 8 … 2048 random points on the unit sphere, or in 2D the unit circle (every point is
//! a vertex).
//!
//! The library climbs in `support_hinted` only from `HILL_CLIMB_MIN_VERTICES` vertices on and scans below, so
//! below that constant the library's `support_hinted` *is* the scan. To see the crossover wherever it lies, the
//! climb is also timed as a replica of the library's (same walk, through the public `vertices` and `neighbors`)
//! at every count; at and above the constant the replica and the library's `support_hinted` time the same.
//!
//! Two direction streams, each followed with the previous answer as the hint: *warm*, a random walk that turns
//! by 0.1 rad per call (coherent frames, late GJK iterations); and *random*, independent directions (the worst
//! case for a climb). In 2D a polygon's vertex graph is its cycle (two neighbours a vertex), so a climb walks
//! vertex by vertex: the crossover there is its own.

use std::hint::black_box;

use gjk::math::{Iso, Vector};
use gjk::shape::{ConvexPolytope, SupportMap};

use crate::rng::{seed, Rng};
use crate::space::{Master, Space, Spec};
use crate::timing::{interleaved, Plan};
use crate::workload::{workload, Kind, REGIMES};

/// Vertex counts measured.
pub const COUNTS: [usize; 13] = [8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 2048];

/// Directions per runner call.
const DIRECTIONS: usize = 512;

/// Angle between successive directions of the warm stream.
const WARM_STEP: f64 = 0.1;

/// One vertex count.
#[derive(Clone, Debug)]
pub struct Row {
    /// Vertices of the hull.
    pub vertices: usize,
    /// Warm stream: scan, climb (replica), library's `support_hinted`; ns per call.
    pub warm: [f64; 3],
    /// Random stream: scan, climb (replica), library's `support_hinted`; ns per call.
    pub random: [f64; 3],
}

/// Index of the vertex farthest along `dir`, walking uphill from `start`: the library's `climb`, through the public
/// API.
pub fn climb<V: Vector>(hull: &ConvexPolytope<V>, dir: V, start: usize) -> usize {
    let verts = hull.vertices();
    let mut cur = start;
    let mut cur_dot = verts[cur].dot(dir);
    for _ in 0..verts.len() {
        let mut next = cur;
        for &n in hull.neighbors(cur) {
            let d = verts[n as usize].dot(dir);
            if d > cur_dot {
                next = n as usize;
                cur_dot = d;
            }
        }
        if next == cur {
            break;
        }
        cur = next;
    }
    cur
}

fn streams<M: Master>(rng: &mut Rng) -> (Vec<M>, Vec<M>) {
    let random = (0..DIRECTIONS).map(|_| M::random_unit(rng)).collect();
    let mut d = M::random_unit(rng);
    let warm = (0..DIRECTIONS)
        .map(|_| {
            d = d.turn(WARM_STEP, rng);
            d
        })
        .collect();
    (warm, random)
}

/// The hull of `n` random points on the unit sphere (unit circle in 2D), with its warm and random direction
/// streams.
pub fn setup<V: Space>(n: usize) -> (ConvexPolytope<V>, Vec<V>, Vec<V>) {
    let mut rng = Rng::new(seed(&[0x5u64, n as u64, V::DIM as u64]));
    let pts: Vec<V> = (0..n).map(|_| V::point(V::Master::random_unit(&mut rng))).collect();
    let hull = ConvexPolytope::new(&pts).expect("a hull");
    let (warm, random) = streams::<V::Master>(&mut rng);
    (hull, warm.into_iter().map(V::point).collect(), random.into_iter().map(V::point).collect())
}

/// Measures every count in `counts` in space `V`.
pub fn crossover<V: Space>(counts: &[usize], plan: &Plan) -> Vec<Row> {
    counts
        .iter()
        .map(|&n| {
            let (hull, warm, random) = setup::<V>(n);
            let mut row = Row { vertices: hull.vertices().len(), warm: [0.0; 3], random: [0.0; 3] };
            for (dirs, out) in [(warm, &mut row.warm), (random, &mut row.random)] {
                let h = &hull;
                let d = &dirs;
                let mut scan = || {
                    for &dir in d {
                        black_box(h.support(dir));
                    }
                };
                let mut replica = || {
                    let mut hint = 0;
                    for &dir in d {
                        hint = climb(h, dir, hint);
                        black_box(hint);
                    }
                };
                let mut library = || {
                    let mut hint = 0u32;
                    for &dir in d {
                        black_box(h.support_hinted(dir, &mut hint));
                    }
                };
                let t = interleaved(&mut [&mut scan, &mut replica, &mut library], d.len(), plan);
                *out = [t[0].median_ns, t[1].median_ns, t[2].median_ns];
            }
            row
        })
        .collect()
}

/// The smallest measured vertex count from which the climb (replica) beats the scan at that count and every larger
/// one, in the warm (`warm = true`) or random stream; `None` if it never does.
pub fn crossover_count(rows: &[Row], warm: bool) -> Option<usize> {
    let wins = |r: &Row| {
        let t = if warm { r.warm } else { r.random };
        t[1] < t[0]
    };
    let mut first = None;
    for r in rows.iter().rev() {
        if wins(r) {
            first = Some(r.vertices);
        } else {
            break;
        }
    }
    first
}

/// A hull whose queries always scan (it forwards everything but `support_hinted`, whose default scans).
struct ScanOnly<V>(ConvexPolytope<V>);

impl<V: Vector> SupportMap<V> for ScanOnly<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn local_aabb(&self) -> gjk::shape::Aabb<V> {
        self.0.local_aabb()
    }
}

/// A hull whose queries always climb (the replica), whatever its vertex count.
struct ClimbAlways<V>(ConvexPolytope<V>);

impl<V: Vector> SupportMap<V> for ClimbAlways<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        self.0.support(dir)
    }
    #[inline]
    fn support_hinted(&self, dir: V, hint: &mut u32) -> V {
        let start = (*hint as usize).min(self.0.vertices().len() - 1);
        let i = climb(&self.0, dir, start);
        *hint = i as u32;
        self.0.vertices()[i]
    }
    fn center(&self) -> V {
        self.0.center()
    }
    fn local_aabb(&self) -> gjk::shape::Aabb<V> {
        self.0.local_aabb()
    }
}

/// One vertex count, end to end: `gjk::distance` over the configurations of every regime.
#[derive(Clone, Debug)]
pub struct QueryRow {
    /// Vertices of hull A (B's is about the same).
    pub vertices: usize,
    /// ns per query: the library as it is, always scanning, always climbing.
    pub ns: [f64; 3],
}

/// The crossover inside real queries: `gjk::distance` on pairs of hulls of each count (configurations of the three
/// regimes, `pairs` each), with the library's `ConvexPolytope`, with a wrapper that always scans and with one that
/// always climbs (the replica walk from the hint alone, kept across the query's iterations; the library's own
/// climb also starts from its start table on hulls of 64 vertices or more).
pub fn query_crossover<V: Space>(counts: &[usize], pairs: usize, plan: &Plan) -> Vec<QueryRow> {
    counts
        .iter()
        .map(|&n| {
            let kind = if V::DIM == 2 { Kind::Polygon(n) } else { Kind::Hull(n) };
            let workloads: Vec<_> = REGIMES.iter().map(|&r| workload::<V::Master>(kind, r, pairs)).collect();
            let poses: Vec<(Iso<V>, Iso<V>)> =
                workloads.iter().flat_map(|w| w.poses.iter().map(|(a, b)| (V::pose(a), V::pose(b)))).collect();
            let hull = |s: &Spec<V::Master>| match s {
                Spec::Hull(pts) => {
                    ConvexPolytope::new(&pts.iter().map(|p| V::point(*p)).collect::<Vec<V>>()).expect("a hull")
                }
                _ => unreachable!("hull workloads"),
            };
            let (a, b) = (hull(&workloads[0].spec_a), hull(&workloads[0].spec_b));
            let vertices = a.vertices().len();
            let (sa, sb) = (ScanOnly(a.clone()), ScanOnly(b.clone()));
            let (ca, cb) = (ClimbAlways(a.clone()), ClimbAlways(b.clone()));
            let p = &poses;
            let mut library = || {
                for (pa, pb) in p {
                    black_box(gjk::distance(&a, pa, &b, pb));
                }
            };
            let mut scan = || {
                for (pa, pb) in p {
                    black_box(gjk::distance(&sa, pa, &sb, pb));
                }
            };
            let mut climbing = || {
                for (pa, pb) in p {
                    black_box(gjk::distance(&ca, pa, &cb, pb));
                }
            };
            let t = interleaved(&mut [&mut library, &mut scan, &mut climbing], p.len(), plan);
            QueryRow { vertices, ns: [t[0].median_ns, t[1].median_ns, t[2].median_ns] }
        })
        .collect()
}

/// The smallest count from which always climbing beats always scanning in queries, at that count and every larger
/// one.
pub fn query_crossover_count(rows: &[QueryRow]) -> Option<usize> {
    let mut first = None;
    for r in rows.iter().rev() {
        if r.ns[2] < r.ns[1] {
            first = Some(r.vertices);
        } else {
            break;
        }
    }
    first
}
