//! Random pairs of every shape family, placed so that the answer is known: B goes where the supporting planes of A
//! along a unit n and of B along −n are `g` apart and their support points differ by g·n, which makes the distance
//! exactly g (the slab between the planes separates the shapes, and the two points are g apart); or B's centre on
//! the line from A's centre along n, which bounds the distance from below; or B's centre (a point of its core) on
//! the segment from A's centre to A's support point, a point of A, so that they overlap. Shared by the suites that
//! check the boolean queries against the distance query and against this placement.

use super::{log_uniform, uniform, unit2, unit3, unit_quat, Space2, Space3};
use gjk::math::{DVec2, DVec3, Iso, Real, Rot2, Vector};
use gjk::shape::{support_full, Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, SupportMap};
use gjk::trace::Recorder;
use gjk::{distance, distance_with, intersection, intersects, DistanceOptions, Intersection, Status, WarmStart};
use rand::rngs::SmallRng;
use rand::Rng;

/// A shape family and its parameters (f64; built in the precision under test).
#[derive(Clone, Debug)]
pub enum Spec<M> {
    Ball(f64),
    Box(M),
    Capsule(f64, f64),
    Cylinder(f64, f64),
    Cone(f64, f64),
    Ellipsoid(M),
    Hull(Vec<M>),
}

/// A random 3D shape of about `size`.
pub fn spec3(rng: &mut SmallRng, size: f64) -> Spec<DVec3> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y, z) = (len(), len(), len());
    match rng.gen_range(0..7) {
        0 => Spec::Ball(x),
        1 => Spec::Box(DVec3::new(x, y, z)),
        2 => Spec::Capsule(x, y),
        3 => Spec::Cylinder(x, y),
        4 => Spec::Cone(x, y),
        5 => Spec::Ellipsoid(DVec3::new(x, y, z)),
        _ => Spec::Hull((0..rng.gen_range(4..24)).map(|_| unit3(rng) * size).collect()),
    }
}

/// A random 2D shape of about `size`.
pub fn spec2(rng: &mut SmallRng, size: f64) -> Spec<DVec2> {
    let mut len = || log_uniform(rng, 0.2, 1.0) * size;
    let (x, y) = (len(), len());
    match rng.gen_range(0..5) {
        0 => Spec::Ball(x),
        1 => Spec::Box(DVec2::new(x, y)),
        2 => Spec::Capsule(x, y),
        3 => Spec::Ellipsoid(DVec2::new(x, y)),
        _ => Spec::Hull((0..rng.gen_range(3..24)).map(|_| unit2(rng) * size).collect()),
    }
}

/// `x` in the precision under test.
pub fn real<R: Real>(x: f64) -> R {
    R::from_f64(x)
}

/// The 3D shape `spec` describes, in the precision of `V`.
pub fn build3<V: Space3>(spec: &Spec<DVec3>) -> Box<dyn SupportMap<V>> {
    match spec {
        Spec::Ball(r) => Box::new(Ball::new(real::<V::Real>(*r)).unwrap()),
        Spec::Box(h) => Box::new(Cuboid::new(V::from64(*h)).unwrap()),
        Spec::Capsule(h, r) => Box::new(Capsule::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Cylinder(h, r) => Box::new(Cylinder::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Cone(h, r) => Box::new(Cone::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Ellipsoid(r) => Box::new(Ellipsoid::new(V::from64(*r)).unwrap()),
        Spec::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| V::from64(q)).collect::<Vec<_>>()).unwrap()),
    }
}

/// The 2D shape `spec` describes, in the precision of `V`.
pub fn build2<V: Space2>(spec: &Spec<DVec2>) -> Box<dyn SupportMap<V>> {
    match spec {
        Spec::Ball(r) => Box::new(Ball::new(real::<V::Real>(*r)).unwrap()),
        Spec::Box(h) => Box::new(Cuboid::new(V::from64(*h)).unwrap()),
        Spec::Capsule(h, r) => Box::new(Capsule::new(real::<V::Real>(*h), real(*r)).unwrap()),
        Spec::Ellipsoid(r) => Box::new(Ellipsoid::new(V::from64(*r)).unwrap()),
        Spec::Hull(p) => Box::new(ConvexPolytope::new(&p.iter().map(|&q| V::from64(q)).collect::<Vec<_>>()).unwrap()),
        Spec::Cylinder(..) | Spec::Cone(..) => unreachable!("3D only"),
    }
}

/// Where B goes relative to A, along a unit direction n.
#[derive(Clone, Copy, Debug)]
pub enum Placement {
    /// The whole shapes this far apart along n: A's support point along n and B's along −n differ by gap·n.
    Apart(f64),
    /// B's centre on the line from A's centre along n, as far as makes the supporting planes across that line this
    /// far apart (the distance is then at least that).
    CentreLine(f64),
    /// B's centre at this fraction (in [0, 1)) of the way from A's centre to A's support point along n: a point of
    /// both shapes' cores, so they overlap.
    Overlap(f64),
}

impl Placement {
    /// The reference answer where the precision resolves it: apart by a gap larger than the rounding of placing
    /// shapes of `size` at `offset` (1024 ulps of both), overlapping always, touching never (either answer stands).
    pub fn reference<R: Real>(self, size: f64, offset: f64) -> Option<bool> {
        match self {
            Placement::Apart(g) | Placement::CentreLine(g) => {
                (g > 1024.0 * R::EPSILON.to_f64() * (size + offset)).then_some(false)
            }
            Placement::Overlap(_) => Some(true),
        }
    }

    /// B's translation (f64, world) for A at `pa`, B rotated by `rot_b`.
    pub fn place<V: Vector<Real = f64>>(
        self,
        a: &dyn SupportMap<V>,
        pa: &Iso<V>,
        b: &dyn SupportMap<V>,
        rot_b: V::Rotation,
        n: V,
    ) -> V {
        let rb = Iso::new(rot_b, V::zero());
        let on_a = pa.transform_point(support_full(a, pa.inverse_transform_vector(n)));
        let on_b = rb.transform_point(support_full(b, rb.inverse_transform_vector(-n)));
        let (centre_a, centre_b) = (pa.transform_point(a.center()), rb.transform_point(b.center()));
        match self {
            Placement::Apart(gap) => on_a + n * gap - on_b,
            Placement::CentreLine(gap) => {
                let reach = n.dot(on_a - centre_a) + n.dot(centre_b - on_b);
                centre_a + n * (reach + gap) - centre_b
            }
            Placement::Overlap(t) => centre_a + (on_a - centre_a) * t - centre_b,
        }
    }
}

/// A gap of `gap` (world) is resolved by the precision when it exceeds the rounding of placing shapes of `size`
/// at `offset` (1024 ulps of both).
pub fn resolved<R: Real>(gap: f64, size: f64, offset: f64) -> bool {
    Placement::Apart(gap).reference::<R>(size, offset).is_some()
}

/// One random pair, built in the precision of `V`, and how it was drawn.
pub struct Drawn<V: Vector> {
    pub a: Box<dyn SupportMap<V>>,
    pub pa: Iso<V>,
    pub b: Box<dyn SupportMap<V>>,
    pub pb: Iso<V>,
    pub placement: Placement,
    pub size: f64,
    pub offset: f64,
    /// The case, the shapes, the placement and the offset, for messages.
    pub what: String,
}

/// Case `case` of a 3D run: two random families of a random size (1e-2 to 10), A at one of `offsets` from the
/// origin in a random direction, B placed by `placement` (given the RNG and the size) along a random direction.
pub fn draw3<V: Space3>(
    rng: &mut SmallRng,
    case: usize,
    offsets: &[f64],
    placement: impl FnOnce(&mut SmallRng, f64) -> Placement,
) -> Drawn<V> {
    let size = 10f64.powf(uniform(rng, -2.0, 1.0));
    let (sa, sb) = (spec3(rng, size), spec3(rng, size));
    let offset = offsets[rng.gen_range(0..offsets.len())];
    let pa = Iso::new(unit_quat(rng), unit3(rng) * offset);
    let rot_b = unit_quat(rng);
    let placement = placement(rng, size);
    let (a64, b64) = (build3::<DVec3>(&sa), build3::<DVec3>(&sb));
    let pb = Iso::new(rot_b, placement.place(&*a64, &pa, &*b64, rot_b, unit3(rng)));
    let what = format!("{} case {case}: {sa:?} vs {sb:?}, {placement:?}, offset {offset:e}", V::NAME);
    let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
    Drawn { a: build3(&sa), pa, b: build3(&sb), pb, placement, size, offset, what }
}

/// The 2D counterpart of [`draw3`].
pub fn draw2<V: Space2>(
    rng: &mut SmallRng,
    case: usize,
    offsets: &[f64],
    placement: impl FnOnce(&mut SmallRng, f64) -> Placement,
) -> Drawn<V> {
    let size = 10f64.powf(uniform(rng, -2.0, 1.0));
    let (sa, sb) = (spec2(rng, size), spec2(rng, size));
    let offset = offsets[rng.gen_range(0..offsets.len())];
    let pa = Iso::new(Rot2::from_angle(uniform(rng, -3.2, 3.2)), unit2(rng) * offset);
    let rot_b = Rot2::from_angle(uniform(rng, -3.2, 3.2));
    let placement = placement(rng, size);
    let (a64, b64) = (build2::<DVec2>(&sa), build2::<DVec2>(&sb));
    let pb = Iso::new(rot_b, placement.place(&*a64, &pa, &*b64, rot_b, unit2(rng)));
    let what = format!("{} case {case}: {sa:?} vs {sb:?}, {placement:?}, offset {offset:e}", V::NAME);
    let (pa, pb) = (V::pose_from64(&pa), V::pose_from64(&pb));
    Drawn { a: build2(&sa), pa, b: build2(&sb), pb, placement, size, offset, what }
}

impl<V: Vector> Drawn<V> {
    /// Asserts that every boolean answer of the pair is `distance(..).intersecting` — `intersects`, `intersection`
    /// cold and warm (its whole answer, iterations included, the same observed or not), `distance` with a
    /// `max_distance` of zero — and, where the precision resolves the placement, that it is the placement's answer;
    /// returns the cold `intersection`.
    pub fn agree(&self) -> Intersection {
        let (a, pa, b, pb, what) = (&*self.a, &self.pa, &*self.b, &self.pb, &self.what);
        let want = distance(a, pa, b, pb).intersecting;
        let opts = DistanceOptions::default();
        assert_eq!(intersects(a, pa, b, pb), want, "intersects: {what}");
        let cold = intersection(a, pa, b, pb, &opts, None, &mut ());
        assert_eq!(cold.intersecting, want, "intersection: {what}");
        let observed = intersection(a, pa, b, pb, &opts, None, &mut Recorder::default());
        assert_eq!(observed, cold, "observed intersection: {what}");
        let (mut cache, mut observed_cache) = (WarmStart::default(), WarmStart::default());
        for frame in 0..2 {
            let warm = intersection(a, pa, b, pb, &opts, Some(&mut cache), &mut ());
            assert_eq!(warm.intersecting, want, "warm intersection, frame {frame}: {what}");
            let observed = intersection(a, pa, b, pb, &opts, Some(&mut observed_cache), &mut Recorder::default());
            assert_eq!(observed, warm, "observed warm intersection, frame {frame}: {what}");
        }
        let bounded = DistanceOptions { max_distance: Some(V::Real::ZERO), ..opts };
        let d = distance_with(a, pa, b, pb, &bounded, None, &mut ());
        assert_eq!(d.intersecting, want, "distance with max_distance 0: {what}");
        if want {
            assert_ne!(d.status, Status::AboveBound, "{what}");
        }
        if let Some(reference) = self.placement.reference::<V::Real>(self.size, self.offset) {
            assert_eq!(want, reference, "reference: {what}");
        }
        cold
    }
}
