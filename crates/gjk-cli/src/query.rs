//! One JSON query line in, one JSON answer line out. The format is documented in docs/cli.md.
//!
//! A line is read as JSON, its dimension decided ([`crate::parse::dimension`]), then read as the typed model of
//! its query ([`crate::model::Query`]) and answered by the library. The answer's fields are the library result's
//! own (serde names, [`Status`] as its snake_case name) less those the format leaves out (the witness simplex,
//! error bounds, a cast's step count). No answer carries a non-finite number: if the library ever returned one,
//! the line would become an error line saying so.

use gjk::cast::{ray_cast, shape_cast, time_of_impact, Cast, CastOptions, Motion, RayCast};
use gjk::manifold::{contact_manifold, Contact, Manifold, MAX_CONTACTS};
use gjk::math::{DVec2, DVec3, Rotation, Vector};
use gjk::{
    distance_with, distance_with_witnesses, intersection, penetration_with, Distance, DistanceOptions, Intersection,
    Penetration, Status,
};
use serde::Serialize;
use serde_json::Value;

use crate::composite::{Built, Loader};
use crate::mesh::MeshFolder;
use crate::model::{non_negative, CastQuery, ContactQuery, Pair, Query, RayQuery, Space};
use crate::parse::{dimension, query};
use crate::query_composite::{self as composite, CompositeAnswer};
use crate::recover::recover_id;

/// What answering a line may use beyond the line: where mesh files are read from.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// The folder `mesh` paths are resolved under, and the size cap.
    pub meshes: MeshFolder,
}

/// Answers one input line (without its line break). Never fails: a line that cannot be answered gets
/// `{"id", "error"}`. Meshes are read from the working directory with the default limits.
pub fn answer_line(line: &str) -> String {
    let mut out = Vec::new();
    write_answer(line.as_bytes(), &Settings::default(), &mut out);
    // One line without its line break, as this function has always returned.
    out.pop();
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Appends the answer to one input line (bytes, without the line break) and a newline to `out`. A leading
/// byte-order mark is skipped; a line that is not UTF-8 or not JSON is answered with an error, with its `id` when
/// that can still be read.
pub fn write_answer(line: &[u8], settings: &Settings, out: &mut Vec<u8>) {
    let line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
    let (id, result) = match std::str::from_utf8(line) {
        Err(e) => (recover_id(line), Err(format!("invalid UTF-8 at byte {}", e.valid_up_to()))),
        Ok(text) => match serde_json::from_str::<Value>(text) {
            Err(e) => (recover_id(line), Err(format!("invalid JSON: {e}"))),
            Ok(v) => {
                let id = v.get("id").cloned().unwrap_or(Value::Null);
                (id, answer(&v, settings))
            }
        },
    };
    write_line(out, &id, result);
}

/// Appends `{"id": id, ...answer}` or `{"id": id, "error": ...}` and a newline.
pub fn write_line(out: &mut Vec<u8>, id: &Value, answer: Result<Answer, String>) {
    #[derive(Serialize)]
    struct Line<'a> {
        id: &'a Value,
        #[serde(flatten)]
        answer: &'a Answer,
    }
    #[derive(Serialize)]
    struct ErrorLine<'a> {
        id: &'a Value,
        error: &'a str,
    }
    let written = match &answer {
        Ok(answer) => serde_json::to_writer(&mut *out, &Line { id, answer }),
        Err(error) => serde_json::to_writer(&mut *out, &ErrorLine { id, error }),
    };
    written.expect("an answer serialises to JSON");
    out.push(b'\n');
}

fn answer(line: &Value, settings: &Settings) -> Result<Answer, String> {
    let object = line.as_object().ok_or("a query line must be a JSON object")?;
    if let Some(k) = crate::query_nd::dimension(object) {
        return crate::query_nd::answer(line, k?).map(Answer::Nd);
    }
    let simplices = crate::simplices::asked(object)?.then_some(line);
    match dimension(object)? {
        2 => answer_in::<DVec2>(query(line)?, settings, simplices),
        _ => answer_in::<DVec3>(query(line)?, settings, simplices),
    }
}

/// Answers a line of dimension `V`. Two convex shapes go through the convex queries (`gjk::distance_with`, …),
/// whose answers the format was first written for; a line with any other shape goes through `gjk::query`
/// ([`crate::query_composite`]), whose answers add the leaves. `simplices` is the line when it asks for the witness
/// simplices (a `distance` line of two convex shapes only).
fn answer_in<V: Space>(q: Query<V>, settings: &Settings, simplices: Option<&Value>) -> Result<Answer, String> {
    let meshes = &settings.meshes;
    let options = DistanceOptions::default();
    let only_here = "simplices are given on distance lines only";
    if simplices.is_some() && !matches!(q, Query::Distance(_)) {
        return Err(only_here.into());
    }
    match q {
        Query::Intersect(p) => match p.build_any(meshes)? {
            (Built::Convex(a), pose_a, Built::Convex(b), pose_b) => {
                Ok(Answer::intersection(&intersection(&*a, &pose_a, &*b, &pose_b, &options, None, &mut ())))
            }
            (a, pose_a, b, pose_b) => Ok(composite::intersect(&a, &pose_a, &b, &pose_b)),
        },
        Query::Distance(p) => match (p.build_any(meshes)?, simplices) {
            ((Built::Convex(a), pose_a, Built::Convex(b), pose_b), None) => {
                Answer::distance(&distance_with(&*a, &pose_a, &*b, &pose_b, &options, None, &mut ()))
            }
            ((Built::Convex(a), pose_a, Built::Convex(b), pose_b), Some(line)) => {
                let (d, w) = distance_with_witnesses(&*a, &pose_a, &*b, &pose_b, &options);
                let s = crate::simplices::simplices(&d, &w, (&line["a"], &pose_a), (&line["b"], &pose_b), meshes)?;
                Answer::distance_with_simplices(&d, Some(Box::new(s)))
            }
            ((a, pose_a, b, pose_b), line) => {
                composite::distance(&a, &pose_a, &b, &pose_b, line.map(|line| (line, meshes)))
            }
        },
        Query::Penetration(p) => match p.build_any(meshes)? {
            (Built::Convex(a), pose_a, Built::Convex(b), pose_b) => {
                Answer::penetration(&penetration_with(&*a, &pose_a, &*b, &pose_b, &options, &mut ()))
            }
            (a, pose_a, b, pose_b) => composite::penetration(&a, &pose_a, &b, &pose_b),
        },
        Query::Contact(ContactQuery { a, pose_a, b, pose_b, prediction }) => {
            let prediction = non_negative(prediction, "prediction", 0.0)?;
            match (Pair { a, pose_a, b, pose_b }).build_any(meshes)? {
                (Built::Convex(a), pose_a, Built::Convex(b), pose_b) => {
                    Answer::contact(&contact_manifold(&*a, &pose_a, &*b, &pose_b, prediction))
                }
                (a, pose_a, b, pose_b) => composite::contact(&a, &pose_a, &b, &pose_b, prediction),
            }
        }
        Query::RayCast(r) => ray(r, meshes),
        Query::ShapeCast(c) => cast(c, meshes),
    }
}

fn ray<V: Space>(r: RayQuery<V>, meshes: &MeshFolder) -> Result<Answer, String> {
    let max_toi = non_negative(r.max_toi, "max_toi", f64::INFINITY)?;
    let a = r.a.build_any(&Loader::new(meshes))?;
    let (pose, solid) = (r.pose_a.unwrap_or_default(), r.solid.unwrap_or(true));
    match a {
        Built::Convex(a) => Answer::ray_cast(&ray_cast(&*a, &pose, r.origin, r.direction, max_toi, solid)),
        a => composite::ray_cast(&a, &pose, r.origin, r.direction, max_toi, solid),
    }
}

fn cast<V: Space>(c: CastQuery<V>, meshes: &MeshFolder) -> Result<Answer, String> {
    let options = CastOptions {
        max_toi: non_negative(c.max_toi, "max_toi", f64::INFINITY)?,
        target_distance: non_negative(c.target_distance, "target_distance", 0.0)?,
        ignore_initial_overlap_when_separating: c.ignore_initial_overlap.unwrap_or(false),
        ..CastOptions::default()
    };
    let pair = Pair { a: c.a, pose_a: c.pose_a, b: c.b, pose_b: c.pose_b }.build_any(meshes)?;
    let (va, vb) = (c.velocity_a.unwrap_or_else(V::zero), c.velocity_b.unwrap_or_else(V::zero));
    let (wa, wb) = (c.angular_velocity_a.unwrap_or_default(), c.angular_velocity_b.unwrap_or_default());
    let spinning = |w| V::Rotation::angular_speed(w) != 0.0;
    match pair {
        (Built::Convex(a), pose_a, Built::Convex(b), pose_b) => {
            let hit = if spinning(wa) || spinning(wb) {
                time_of_impact(&*a, &Motion::new(pose_a, va, wa), &*b, &Motion::new(pose_b, vb, wb), &options)
            } else {
                shape_cast(&*a, &pose_a, va, &*b, &pose_b, vb, &options)
            };
            Answer::shape_cast(&hit)
        }
        (a, pose_a, b, pose_b) => {
            let motions = composite::Motions { velocity_a: va, velocity_b: vb, angular_a: wa, angular_b: wb };
            composite::shape_cast(&a, &pose_a, &b, &pose_b, &motions, &options)
        }
    }
}

/// The answer fields of one query, in the order docs/cli.md lists them: the library result's fields (same names,
/// same order) that the format shows. Vectors are their coordinates (2 or 3).
#[derive(Serialize)]
#[serde(untagged)]
pub enum Answer {
    Intersect {
        intersecting: bool,
        iterations: u32,
        status: Status,
    },
    Distance {
        intersecting: bool,
        distance: f64,
        point_a: Coords,
        point_b: Coords,
        normal: Coords,
        iterations: u32,
        status: Status,
        /// `simplex_a`, `simplex_b` when the line asks for them (docs/cli.md, "Witness simplices").
        #[serde(flatten)]
        simplices: Option<Box<crate::simplices::Simplices>>,
    },
    Penetration {
        intersecting: bool,
        distance: f64,
        depth: f64,
        normal: Coords,
        point_a: Coords,
        point_b: Coords,
        iterations: u32,
        status: Status,
    },
    Contact {
        normal: Coords,
        contacts: Vec<Contact<Coords>>,
        status: Status,
    },
    RayCast {
        hit: bool,
        toi: Option<f64>,
        normal: Option<Coords>,
        point: Option<Coords>,
        status: Status,
    },
    ShapeCast {
        hit: bool,
        toi: Option<f64>,
        normal: Option<Coords>,
        point_a: Option<Coords>,
        point_b: Option<Coords>,
        status: Status,
    },
    /// A line with a shape that is not convex: the same fields and the leaves (docs/cli.md, "Composite shapes").
    Composite(CompositeAnswer),
    Nd(crate::query_nd::NdAnswer),
}

/// A vector's coordinates as written (2 or 3 numbers, negative zeros written as 0).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Coords {
    c: [f64; 3],
    dim: usize,
}

impl Serialize for Coords {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.c[..self.dim].serialize(s)
    }
}

/// Checks that the library gave finite numbers, so that no answer carries a null (serde_json writes NaN and
/// infinity as null). `what` names the field in the error.
pub(crate) struct Finite {
    pub(crate) status: Status,
}

impl Finite {
    pub(crate) fn num(&self, x: f64, what: &str) -> Result<f64, String> {
        if x.is_finite() {
            Ok(x + 0.0)
        } else {
            Err(format!(
                "the library returned a non-finite {what} ({x}, status {}): no answer can be given for this line",
                self.status.as_str()
            ))
        }
    }

    pub(crate) fn vec<V: Vector<Real = f64>>(&self, v: V, what: &str) -> Result<Coords, String> {
        let mut c = [0.0; 3];
        for (i, x) in c.iter_mut().enumerate().take(V::DIM) {
            *x = self.num(v.get(i), what)?;
        }
        Ok(Coords { c, dim: V::DIM })
    }
}

impl Answer {
    /// The answer of an `intersect` query.
    pub fn intersection(r: &Intersection) -> Answer {
        Answer::Intersect { intersecting: r.intersecting, iterations: r.iterations, status: r.status }
    }

    /// The answer of a `distance` query.
    pub fn distance<V: Vector<Real = f64>>(d: &Distance<V>) -> Result<Answer, String> {
        Self::distance_with_simplices(d, None)
    }

    /// The answer of a `distance` query, with the witness simplices when the line asks for them.
    pub fn distance_with_simplices<V: Vector<Real = f64>>(
        d: &Distance<V>,
        simplices: Option<Box<crate::simplices::Simplices>>,
    ) -> Result<Answer, String> {
        let f = Finite { status: d.status };
        Ok(Answer::Distance {
            intersecting: d.intersecting,
            distance: f.num(d.distance, "distance")?,
            point_a: f.vec(d.point_a, "point_a")?,
            point_b: f.vec(d.point_b, "point_b")?,
            normal: f.vec(d.normal, "normal")?,
            iterations: d.iterations,
            status: d.status,
            simplices,
        })
    }

    /// The answer of a `penetration` query.
    pub fn penetration<V: Vector<Real = f64>>(p: &Penetration<V>) -> Result<Answer, String> {
        let f = Finite { status: p.status };
        Ok(Answer::Penetration {
            intersecting: p.intersecting,
            distance: f.num(p.distance, "distance")?,
            depth: f.num(p.depth, "depth")?,
            normal: f.vec(p.normal, "normal")?,
            point_a: f.vec(p.point_a, "point_a")?,
            point_b: f.vec(p.point_b, "point_b")?,
            iterations: p.iterations,
            status: p.status,
        })
    }

    /// The answer of a `contact` query.
    pub fn contact<V: Vector<Real = f64>>(m: &Manifold<V>) -> Result<Answer, String> {
        let f = Finite { status: m.status };
        let mut contacts = Vec::with_capacity(MAX_CONTACTS);
        for c in m.contacts() {
            contacts.push(Contact {
                point_a: f.vec(c.point_a, "contact point_a")?,
                point_b: f.vec(c.point_b, "contact point_b")?,
                depth: f.num(c.depth, "contact depth")?,
                id: c.id,
            });
        }
        Ok(Answer::Contact { normal: f.vec(m.normal, "normal")?, contacts, status: m.status })
    }

    /// The answer of a `ray_cast` query: on a miss, `toi`, `normal` and `point` are null.
    pub fn ray_cast<V: Vector<Real = f64>>(r: &RayCast<V>) -> Result<Answer, String> {
        let f = Finite { status: r.status };
        let hit = |x: Result<Coords, String>| if r.hit { x.map(Some) } else { Ok(None) };
        Ok(Answer::RayCast {
            hit: r.hit,
            toi: if r.hit { Some(f.num(r.toi, "toi")?) } else { None },
            normal: hit(f.vec(r.normal, "normal"))?,
            point: hit(f.vec(r.point, "point"))?,
            status: r.status,
        })
    }

    /// The answer of a `shape_cast` query: on a miss, `toi`, `normal` and the points are null.
    pub fn shape_cast<V: Vector<Real = f64>>(c: &Cast<V>) -> Result<Answer, String> {
        let f = Finite { status: c.status };
        let hit = |x: Result<Coords, String>| if c.hit { x.map(Some) } else { Ok(None) };
        Ok(Answer::ShapeCast {
            hit: c.hit,
            toi: if c.hit { Some(f.num(c.toi, "toi")?) } else { None },
            normal: hit(f.vec(c.normal, "normal"))?,
            point_a: hit(f.vec(c.point_a, "point_a"))?,
            point_b: hit(f.vec(c.point_b, "point_b"))?,
            status: c.status,
        })
    }
}
