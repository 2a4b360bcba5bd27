//! libccd (Debian's `libccd-dev`, built with `CCD_DOUBLE`) through a small FFI of our own: `ccdGJKIntersect`,
//! `ccdMPRIntersect`, `ccdGJKPenetration` and `ccdMPRPenetration`, with support callbacks into our shapes.
//!
//! Compiled only when the build script found libccd (`cfg(has_libccd)`); otherwise [`AVAILABLE`] is false and
//! [`add_contenders`] adds nothing, so the crate builds and runs without it.
//!
//! libccd is given the same support functions as our queries (our shapes' `support_hinted`, with a hint reset for
//! every query just as ours is, plus the radius of rounded shapes): what differs is the algorithm.

/// Whether libccd is linked into this build.
pub const AVAILABLE: bool = cfg!(has_libccd);

/// One line on libccd's status, for the report.
pub fn status() -> &'static str {
    if AVAILABLE {
        "libccd found at build time (`cfg(has_libccd)`): its GJK and MPR are measured"
    } else {
        "libccd not found at build time: the libccd benches are skipped (install `libccd-dev`, then rebuild)"
    }
}

/// Adds libccd's runners (intersection: GJK and MPR; contact: GJK + EPA and MPR) to the 3D f64 cells.
#[cfg(not(has_libccd))]
pub fn add_contenders(
    _cells: &mut [crate::cells::Cell],
    _workloads: &[std::sync::Arc<crate::workload::Workload<gjk::math::DVec3>>],
) {
}

#[cfg(has_libccd)]
pub use imp::*;

#[cfg(has_libccd)]
mod imp {
    use std::cell::Cell as HintCell;
    use std::ffi::{c_int, c_ulong, c_void};
    use std::hint::black_box;
    use std::marker::PhantomData;
    use std::sync::Arc;

    use gjk::math::{DVec3, Iso};
    use gjk::shape::SupportMap;

    use crate::cells::{Answers, Cell, Contender, Query, Runner, Who};
    use crate::space::{Space, Visitor};
    use crate::workload::{Regime, Workload};

    /// `ccd_vec3_t` with `ccd_real_t = double`.
    #[repr(C)]
    #[derive(Clone, Copy, Debug, Default)]
    pub struct CcdVec3 {
        /// Coordinates.
        pub v: [f64; 3],
    }

    type SupportFn = unsafe extern "C" fn(obj: *const c_void, dir: *const CcdVec3, vec: *mut CcdVec3);
    type FirstDirFn = unsafe extern "C" fn(obj1: *const c_void, obj2: *const c_void, dir: *mut CcdVec3);
    type CenterFn = unsafe extern "C" fn(obj: *const c_void, center: *mut CcdVec3);

    /// `ccd_t` (libccd 2.x).
    #[repr(C)]
    struct CcdT {
        first_dir: Option<FirstDirFn>,
        support1: Option<SupportFn>,
        support2: Option<SupportFn>,
        center1: Option<CenterFn>,
        center2: Option<CenterFn>,
        max_iterations: c_ulong,
        epa_tolerance: f64,
        mpr_tolerance: f64,
        dist_tolerance: f64,
    }

    #[link(name = "ccd")]
    extern "C" {
        fn ccdFirstDirDefault(obj1: *const c_void, obj2: *const c_void, dir: *mut CcdVec3);
        fn ccdGJKIntersect(obj1: *const c_void, obj2: *const c_void, ccd: *const CcdT) -> c_int;
        fn ccdMPRIntersect(obj1: *const c_void, obj2: *const c_void, ccd: *const CcdT) -> c_int;
        fn ccdGJKPenetration(
            obj1: *const c_void,
            obj2: *const c_void,
            ccd: *const CcdT,
            depth: *mut f64,
            dir: *mut CcdVec3,
            pos: *mut CcdVec3,
        ) -> c_int;
        fn ccdMPRPenetration(
            obj1: *const c_void,
            obj2: *const c_void,
            ccd: *const CcdT,
            depth: *mut f64,
            dir: *mut CcdVec3,
            pos: *mut CcdVec3,
        ) -> c_int;
    }

    /// A shape in a pose, as libccd sees it (through the callbacks).
    pub struct Object<'s, S> {
        shape: &'s S,
        pose: Iso<DVec3>,
        radius: f64,
        hint: HintCell<u32>,
    }

    impl<'s, S: SupportMap<DVec3>> Object<'s, S> {
        /// `shape` at `pose` (its radius, if any, is added in the support callback).
        pub fn new(shape: &'s S, pose: Iso<DVec3>) -> Self {
            Self { shape, pose, radius: shape.radius(), hint: HintCell::new(0) }
        }

        fn ptr(&self) -> *const c_void {
            (self as *const Self).cast()
        }
    }

    /// The support callback: world direction in, world support point of the whole shape (core plus radius) out.
    unsafe extern "C" fn support<S: SupportMap<DVec3>>(obj: *const c_void, dir: *const CcdVec3, out: *mut CcdVec3) {
        // SAFETY: libccd hands back the pointers given to it: an `Object<S>` that outlives the call, and vectors
        // it owns.
        let (o, dir, out) = unsafe { (&*obj.cast::<Object<'_, S>>(), &*dir, &mut *out) };
        let local = o.pose.inverse_transform_vector(DVec3::from_array(dir.v));
        let mut hint = o.hint.get();
        let mut p = o.shape.support_hinted(local, &mut hint);
        o.hint.set(hint);
        if o.radius > 0.0 {
            p += local.normalize_or_zero() * o.radius;
        }
        out.v = o.pose.transform_point(p).to_array();
    }

    /// The centre callback (MPR's starting point).
    unsafe extern "C" fn center<S: SupportMap<DVec3>>(obj: *const c_void, out: *mut CcdVec3) {
        // SAFETY: as in `support`.
        let (o, out) = unsafe { (&*obj.cast::<Object<'_, S>>(), &mut *out) };
        out.v = o.pose.transform_point(o.shape.center()).to_array();
    }

    /// libccd's settings for a pair of shapes of types `A` and `B` (`CCD_INIT`'s defaults, with an iteration cap).
    pub struct Ccd<A, B = A> {
        cfg: CcdT,
        _shape: PhantomData<fn(&A, &B)>,
    }

    impl<A: SupportMap<DVec3>, B: SupportMap<DVec3>> Default for Ccd<A, B> {
        fn default() -> Self {
            Self {
                cfg: CcdT {
                    first_dir: Some(ccdFirstDirDefault),
                    support1: Some(support::<A>),
                    support2: Some(support::<B>),
                    center1: Some(center::<A>),
                    center2: Some(center::<B>),
                    // CCD_INIT has no cap (ULONG_MAX); a cap keeps a degenerate case from hanging the benchmark.
                    max_iterations: 1000,
                    epa_tolerance: 1e-4,
                    mpr_tolerance: 1e-4,
                    dist_tolerance: 1e-6,
                },
                _shape: PhantomData,
            }
        }
    }

    /// A penetration answer: depth, direction (unit, from A toward B) and position.
    #[derive(Clone, Copy, Debug)]
    pub struct CcdPenetration {
        /// Depth.
        pub depth: f64,
        /// Direction.
        pub dir: DVec3,
        /// Contact position.
        pub pos: DVec3,
    }

    impl<A: SupportMap<DVec3>, B: SupportMap<DVec3>> Ccd<A, B> {
        /// `ccdGJKIntersect`.
        pub fn gjk_intersect(&self, a: &Object<'_, A>, b: &Object<'_, B>) -> bool {
            a.hint.set(0);
            b.hint.set(0);
            // SAFETY: both objects and the settings outlive the call; the callbacks match the objects' type.
            unsafe { ccdGJKIntersect(a.ptr(), b.ptr(), &self.cfg) != 0 }
        }

        /// `ccdMPRIntersect`.
        pub fn mpr_intersect(&self, a: &Object<'_, A>, b: &Object<'_, B>) -> bool {
            a.hint.set(0);
            b.hint.set(0);
            // SAFETY: as above.
            unsafe { ccdMPRIntersect(a.ptr(), b.ptr(), &self.cfg) != 0 }
        }

        /// `ccdGJKPenetration` (GJK then EPA); `None` when the shapes do not overlap.
        pub fn gjk_penetration(&self, a: &Object<'_, A>, b: &Object<'_, B>) -> Option<CcdPenetration> {
            a.hint.set(0);
            b.hint.set(0);
            let (mut depth, mut dir, mut pos) = (0.0, CcdVec3::default(), CcdVec3::default());
            // SAFETY: as above; the outputs are valid for writes.
            let r = unsafe { ccdGJKPenetration(a.ptr(), b.ptr(), &self.cfg, &mut depth, &mut dir, &mut pos) };
            (r == 0).then(|| CcdPenetration { depth, dir: DVec3::from_array(dir.v), pos: DVec3::from_array(pos.v) })
        }

        /// `ccdMPRPenetration`; `None` when the shapes do not overlap.
        pub fn mpr_penetration(&self, a: &Object<'_, A>, b: &Object<'_, B>) -> Option<CcdPenetration> {
            a.hint.set(0);
            b.hint.set(0);
            let (mut depth, mut dir, mut pos) = (0.0, CcdVec3::default(), CcdVec3::default());
            // SAFETY: as above.
            let r = unsafe { ccdMPRPenetration(a.ptr(), b.ptr(), &self.cfg, &mut depth, &mut dir, &mut pos) };
            (r == 0).then(|| CcdPenetration { depth, dir: DVec3::from_array(dir.v), pos: DVec3::from_array(pos.v) })
        }
    }

    type Poses = Arc<[(Iso<DVec3>, Iso<DVec3>)]>;

    /// libccd's runners for one family, every regime of `sets`.
    struct Runners {
        sets: Vec<(Regime, Poses)>,
    }

    /// One of libccd's runners: regime, query, whose, the runner, and its answers when they can be checked
    /// (intersection verdicts; contact depths of penetrating pairs, the only ones it measures).
    type CcdRunner = (Regime, Query, Who, Runner, Option<Answers>);

    impl Visitor<DVec3> for Runners {
        type Out = Vec<CcdRunner>;
        fn visit<A, B>(self, a: A, b: B) -> Self::Out
        where
            A: SupportMap<DVec3> + Send + Sync + 'static,
            B: SupportMap<DVec3> + Send + Sync + 'static,
        {
            let shapes = Arc::new((a, b));
            let mut out = Vec::new();
            for (regime, poses) in self.sets {
                for (q, who) in [
                    (Query::Intersect, Who::CcdGjk),
                    (Query::Intersect, Who::CcdMpr),
                    (Query::Contact, Who::CcdGjk),
                    (Query::Contact, Who::CcdMpr),
                ] {
                    let ccd = Ccd::<A, B>::default();
                    let answers = answers(&ccd, &shapes, &poses, q, who, regime);
                    let (shapes, poses) = (shapes.clone(), poses.clone());
                    let run: Runner = Box::new(move || {
                        for (pa, pb) in poses.iter() {
                            let (oa, ob) = (Object::new(&shapes.0, *pa), Object::new(&shapes.1, *pb));
                            match (q, who) {
                                (Query::Intersect, Who::CcdGjk) => black_box(ccd.gjk_intersect(&oa, &ob)),
                                (Query::Intersect, _) => black_box(ccd.mpr_intersect(&oa, &ob)),
                                (_, Who::CcdGjk) => black_box(ccd.gjk_penetration(&oa, &ob).is_some()),
                                _ => black_box(ccd.mpr_penetration(&oa, &ob).is_some()),
                            };
                        }
                    });
                    out.push((regime, q, who, run, answers));
                }
            }
            out
        }
    }

    /// libccd's answers of a runner, run once untimed: verdicts, or minus the depths of penetrating pairs (a
    /// missing contact counts as infinitely wrong); `None` for contact on pairs apart (it answers 'no contact').
    fn answers<A: SupportMap<DVec3>, B: SupportMap<DVec3>>(
        ccd: &Ccd<A, B>,
        shapes: &(A, B),
        poses: &Poses,
        q: Query,
        who: Who,
        regime: Regime,
    ) -> Option<Answers> {
        let objects = |(pa, pb): &(Iso<DVec3>, Iso<DVec3>)| (Object::new(&shapes.0, *pa), Object::new(&shapes.1, *pb));
        let depth = |p: Option<CcdPenetration>| p.map_or(f64::INFINITY, |p| -p.depth);
        match (q, who) {
            (Query::Intersect, Who::CcdGjk) => {
                Some(Answers::Verdicts(poses.iter().map(&objects).map(|(a, b)| ccd.gjk_intersect(&a, &b)).collect()))
            }
            (Query::Intersect, _) => {
                Some(Answers::Verdicts(poses.iter().map(&objects).map(|(a, b)| ccd.mpr_intersect(&a, &b)).collect()))
            }
            _ if regime != Regime::Penetrating => None,
            (_, Who::CcdGjk) => Some(Answers::Signed(
                poses.iter().map(&objects).map(|(a, b)| depth(ccd.gjk_penetration(&a, &b))).collect(),
            )),
            _ => Some(Answers::Signed(
                poses.iter().map(&objects).map(|(a, b)| depth(ccd.mpr_penetration(&a, &b))).collect(),
            )),
        }
    }

    /// Adds libccd's runners (intersection: GJK and MPR; contact: GJK + EPA and MPR) to the 3D f64 cells.
    pub fn add_contenders(cells: &mut [Cell], workloads: &[Arc<Workload<DVec3>>]) {
        let mut kinds: Vec<_> = workloads.iter().map(|w| w.kind).collect();
        kinds.dedup();
        for kind in kinds {
            let of_kind: Vec<_> = workloads.iter().filter(|w| w.kind == kind).collect();
            let sets = of_kind.iter().map(|w| (w.regime, w.poses.iter().copied().collect())).collect();
            let runners = DVec3::visit(&of_kind[0].spec_a, &of_kind[0].spec_b, Runners { sets });
            for (regime, query, who, run, answers) in runners {
                let cell = cells.iter_mut().find(|c| c.kind == kind && c.regime == regime && c.query == query);
                if let Some(cell) = cell {
                    if let Some(a) = answers {
                        cell.accuracy.push((who, a.accuracy(&cell.references)));
                    }
                    cell.contenders.push(Contender { who, run });
                }
            }
        }
    }
}
