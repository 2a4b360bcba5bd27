//! The benchmark cells: one pair family, regime, query and space, with a runner per library. A runner answers the
//! query for every configuration of the cell once per call, so a timing is always over the same varied inputs.

use std::hint::black_box;
use std::sync::Arc;

use gjk::math::{DVec2, DVec3, Iso, Real};
use gjk::shape::SupportMap;
use gjk::DistanceOptions;

use crate::accuracy::{self, Accuracy, Reference};
use crate::space::{Space, Visitor};
use crate::workload::{Kind, Regime, Workload, CONTACT_PREDICTION};

/// The three queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Query {
    /// Boolean intersection: our `intersects`, parry's `intersection_test`, libccd's `ccdGJKIntersect` and
    /// `ccdMPRIntersect`.
    Intersect,
    /// Distance with closest points: our `distance`, parry's `closest_points` (no distance limit).
    Distance,
    /// Signed distance, normal and points: our `penetration`, parry's `contact` (prediction
    /// [`CONTACT_PREDICTION`], so it answers every configuration), libccd's `ccdGJKPenetration` (GJK + EPA) and
    /// `ccdMPRPenetration` (which answer only overlapping pairs).
    Contact,
}

/// The three queries.
pub const QUERIES: [Query; 3] = [Query::Intersect, Query::Distance, Query::Contact];

impl Query {
    /// Name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Query::Intersect => "intersection",
            Query::Distance => "distance",
            Query::Contact => "contact",
        }
    }
}

/// Whose implementation a runner times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Who {
    /// This library.
    Ours,
    /// parry (the crate of the cell's space).
    Parry,
    /// libccd's GJK (`ccdGJKIntersect`, `ccdGJKPenetration`).
    CcdGjk,
    /// libccd's MPR (`ccdMPRIntersect`, `ccdMPRPenetration`).
    CcdMpr,
}

impl Who {
    /// Name in the report and in criterion's ids.
    pub fn name(self) -> &'static str {
        match self {
            Who::Ours => "ours",
            Who::Parry => "parry",
            Who::CcdGjk => "libccd-gjk",
            Who::CcdMpr => "libccd-mpr",
        }
    }
}

/// Runs the cell's query once on every configuration of the cell.
pub type Runner = Box<dyn FnMut()>;

/// One library's runner in a cell.
pub struct Contender {
    /// Whose.
    pub who: Who,
    /// The runner.
    pub run: Runner,
}

/// One cell: a pair family in a regime, a query, a space; and the libraries that answer it.
pub struct Cell {
    /// The space (`3D f32`, …).
    pub space: &'static str,
    /// The pair family.
    pub kind: Kind,
    /// The regime.
    pub regime: Regime,
    /// The query.
    pub query: Query,
    /// Configurations per runner call.
    pub pairs: usize,
    /// Our mean iterations per query (GJK; plus EPA for the contact query).
    pub iterations: f64,
    /// Each contender's accuracy over the configurations against the reference ([`crate::accuracy`]); a contender
    /// missing here was not checked.
    pub accuracy: Vec<(Who, Accuracy)>,
    /// The largest certified bracket of the cell's references relative to them (upper − lower, apart pairs only).
    pub reference_bracket: Option<f64>,
    /// The reference of each configuration (for contenders added later: libccd's).
    pub references: Vec<Reference>,
    /// The runners.
    pub contenders: Vec<Contender>,
}

impl Cell {
    /// `3D f64/hull256/penetrating/contact`: the id used by criterion and by the report's filter.
    pub fn id(&self) -> String {
        format!(
            "{}/{}/{}/{}",
            self.space.replace(' ', "-"),
            self.kind.name(),
            self.regime.name().replace(' ', "-"),
            self.query.name()
        )
    }
}

type Poses<V> = Arc<[(Iso<V>, Iso<V>)]>;

/// Our runners for one family: every regime of `sets` and every query.
struct Ours<V: Space> {
    sets: Vec<(Regime, Poses<V>)>,
}

/// One of our runners: its regime, query, runner, mean iterations and answers (see [`Answers`]).
type OurRunner = (Regime, Query, Runner, f64, Answers);

impl<V: Space> Visitor<V> for Ours<V> {
    type Out = Vec<OurRunner>;
    fn visit<A, B>(self, a: A, b: B) -> Self::Out
    where
        A: SupportMap<V> + Send + Sync + 'static,
        B: SupportMap<V> + Send + Sync + 'static,
    {
        let shapes = Arc::new((a, b));
        let mut out = Vec::new();
        for (regime, poses) in self.sets {
            for q in QUERIES {
                let iterations = our_iterations(&shapes.0, &shapes.1, &poses, q);
                let answers = our_answers(&shapes.0, &shapes.1, &poses, q);
                out.push((regime, q, our_runner(shapes.clone(), poses.clone(), q), iterations, answers));
            }
        }
        out
    }
}

/// A library's answers on a cell's configurations: signed distances (distance and contact) or verdicts.
pub enum Answers {
    /// Distances, as f64.
    Distances(Vec<f64>),
    /// Signed distances, as f64.
    Signed(Vec<f64>),
    /// Intersection verdicts.
    Verdicts(Vec<bool>),
}

impl Answers {
    /// Their accuracy against the references.
    pub fn accuracy(&self, refs: &[Reference]) -> Accuracy {
        match self {
            Answers::Distances(x) => Accuracy::distances(x, refs),
            Answers::Signed(x) => Accuracy::relative(x, refs),
            Answers::Verdicts(x) => Accuracy::verdicts(x, refs),
        }
    }
}

/// Our answers of query `q` on every pose (the timed functions, run once more untimed).
fn our_answers<V: Space, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    b: &B,
    poses: &[(Iso<V>, Iso<V>)],
    q: Query,
) -> Answers {
    let each = poses.iter();
    match q {
        Query::Intersect => Answers::Verdicts(each.map(|(pa, pb)| gjk::intersects(a, pa, b, pb)).collect()),
        Query::Distance => {
            Answers::Distances(each.map(|(pa, pb)| gjk::distance(a, pa, b, pb).distance.to_f64()).collect())
        }
        Query::Contact => {
            Answers::Signed(each.map(|(pa, pb)| gjk::penetration(a, pa, b, pb).distance.to_f64()).collect())
        }
    }
}

/// parry's answers of query `q` on every pose.
fn parry_answers<V: Space>(a: &V::PShape, b: &V::PShape, poses: &[(V::PPose, V::PPose)], q: Query) -> Answers {
    let each = poses.iter();
    match q {
        Query::Intersect => Answers::Verdicts(each.map(|(pa, pb)| V::parry_intersects(pa, a, pb, b)).collect()),
        Query::Distance => Answers::Distances(each.map(|(pa, pb)| V::parry_distance(pa, a, pb, b)).collect()),
        // parry's contact answers every configuration of the workload (its prediction exceeds every gap); a missing
        // answer counts as infinitely wrong.
        Query::Contact => Answers::Signed(
            each.map(|(pa, pb)| V::parry_contact(pa, a, pb, b, CONTACT_PREDICTION).unwrap_or(f64::INFINITY)).collect(),
        ),
    }
}

fn our_iterations<V: Space, A: SupportMap<V>, B: SupportMap<V>>(
    a: &A,
    b: &B,
    poses: &[(Iso<V>, Iso<V>)],
    q: Query,
) -> f64 {
    let opts = DistanceOptions::default();
    let total: u64 = poses
        .iter()
        .map(|(pa, pb)| {
            u64::from(match q {
                Query::Intersect => gjk::intersection(a, pa, b, pb, &opts, None, &mut ()).iterations,
                Query::Distance => gjk::distance(a, pa, b, pb).iterations,
                Query::Contact => gjk::penetration(a, pa, b, pb).iterations,
            })
        })
        .sum();
    total as f64 / poses.len().max(1) as f64
}

/// Our runner of query `q` on the shapes `(A, B)` in every pose of `poses`.
pub fn our_runner<V: Space, A, B>(shapes: Arc<(A, B)>, poses: Poses<V>, q: Query) -> Runner
where
    A: SupportMap<V> + Send + Sync + 'static,
    B: SupportMap<V> + Send + Sync + 'static,
{
    match q {
        Query::Intersect => Box::new(move || {
            let (a, b) = &*shapes;
            for (pa, pb) in poses.iter() {
                black_box(&gjk::intersects(a, pa, b, pb));
            }
        }),
        Query::Distance => Box::new(move || {
            let (a, b) = &*shapes;
            for (pa, pb) in poses.iter() {
                black_box(&gjk::distance(a, pa, b, pb));
            }
        }),
        Query::Contact => Box::new(move || {
            let (a, b) = &*shapes;
            for (pa, pb) in poses.iter() {
                black_box(&gjk::penetration(a, pa, b, pb));
            }
        }),
    }
}

/// parry's runner of query `q` on its shapes in every pose of `poses`.
pub fn parry_runner<V: Space>(
    shapes: (Arc<V::PShape>, Arc<V::PShape>),
    poses: Arc<[(V::PPose, V::PPose)]>,
    q: Query,
) -> Runner {
    match q {
        Query::Intersect => Box::new(move || {
            let (a, b) = (&*shapes.0, &*shapes.1);
            for (pa, pb) in poses.iter() {
                black_box(&V::parry_intersects(pa, a, pb, b));
            }
        }),
        Query::Distance => Box::new(move || {
            let (a, b) = (&*shapes.0, &*shapes.1);
            for (pa, pb) in poses.iter() {
                V::parry_closest_points(pa, a, pb, b);
            }
        }),
        Query::Contact => Box::new(move || {
            let (a, b) = (&*shapes.0, &*shapes.1);
            for (pa, pb) in poses.iter() {
                V::parry_contact_timed(pa, a, pb, b, CONTACT_PREDICTION);
            }
        }),
    }
}

/// The cells of one family in space `V`, from its workloads (one per regime, all with the same shapes).
pub fn family_cells<V: Space>(workloads: &[Arc<Workload<V::Master>>]) -> Vec<Cell> {
    let Some(first) = workloads.first() else { return Vec::new() };
    let sets: Vec<(Regime, Poses<V>)> =
        workloads.iter().map(|w| (w.regime, w.poses.iter().map(|(a, b)| (V::pose(a), V::pose(b))).collect())).collect();
    let ours = V::visit(&first.spec_a, &first.spec_b, Ours { sets });
    let parry_shapes = match (V::parry_shape(&first.spec_a), V::parry_shape(&first.spec_b)) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    // The references of each regime's configurations, computed once for the three queries.
    let refs: Vec<(Regime, Vec<Reference>)> = workloads
        .iter()
        .map(|w| (w.regime, accuracy::references::<V>(&first.spec_a, &first.spec_b, &w.poses)))
        .collect();
    ours.into_iter()
        .map(|(regime, query, run, iterations, answers)| {
            let w = workloads.iter().find(|w| w.regime == regime).expect("a workload per regime");
            let refs = &refs.iter().find(|r| r.0 == regime).expect("references per regime").1;
            let mut contenders = vec![Contender { who: Who::Ours, run }];
            let mut accuracy = vec![(Who::Ours, answers.accuracy(refs))];
            if let Some(shapes) = &parry_shapes {
                let poses: Arc<[(V::PPose, V::PPose)]> =
                    w.poses.iter().map(|(a, b)| (V::parry_pose(a), V::parry_pose(b))).collect();
                accuracy.push((Who::Parry, parry_answers::<V>(&*shapes.0, &*shapes.1, &poses, query).accuracy(refs)));
                contenders.push(Contender { who: Who::Parry, run: parry_runner::<V>(shapes.clone(), poses, query) });
            }
            let reference_bracket =
                refs.iter().filter_map(|r| Some(r.bracket? / r.value.abs().max(f64::MIN_POSITIVE))).reduce(f64::max);
            Cell {
                space: V::NAME,
                kind: first.kind,
                regime,
                query,
                pairs: w.poses.len(),
                iterations,
                accuracy,
                reference_bracket,
                references: refs.clone(),
                contenders,
            }
        })
        .collect()
}

/// Every cell of a set of workloads (grouped by family: the workloads of a family are adjacent) in space `V`.
pub fn cells<V: Space>(workloads: &[Arc<Workload<V::Master>>]) -> Vec<Cell> {
    let mut kinds: Vec<Kind> = workloads.iter().map(|w| w.kind).collect();
    kinds.dedup();
    kinds
        .into_iter()
        .flat_map(|k| {
            let of_kind: Vec<_> = workloads.iter().filter(|w| w.kind == k).cloned().collect();
            family_cells::<V>(&of_kind)
        })
        .collect()
}

/// Every cell of the benchmark, in report order: 3D f32, 3D f64 (with libccd's runners when it is linked), 2D f32,
/// 2D f64.
pub fn all_cells(w3: &[Arc<Workload<DVec3>>], w2: &[Arc<Workload<DVec2>>]) -> Vec<Cell> {
    let mut out = cells::<gjk::math::Vec3>(w3);
    let mut f64_cells = cells::<DVec3>(w3);
    crate::ccd::add_contenders(&mut f64_cells, w3);
    out.extend(f64_cells);
    out.extend(cells::<gjk::math::Vec2>(w2));
    out.extend(cells::<DVec2>(w2));
    out
}
