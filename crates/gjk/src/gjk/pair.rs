//! The Minkowski difference A − B of a pair, seen from A's local frame.

use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;

/// A point of A − B with the points of A and B that made it, and the direction that found it (kept so a warm
/// start can ask for the same support points again under new poses).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiffVertex<V> {
    /// w = a − b.
    pub w: V,
    /// The point of A (pair frame).
    pub a: V,
    /// The point of B (pair frame).
    pub b: V,
    /// The search direction that produced it.
    pub dir: V,
}

/// Two shapes in the pair-local frame: A at the identity, B at `rel`, the pose of B relative to A. Working here
/// rather than in the world keeps the numbers small when both shapes are far from the origin.
pub(crate) struct Pair<'s, V: Vector, A: ?Sized, B: ?Sized> {
    pub a: &'s A,
    pub b: &'s B,
    pub rel: Iso<V>,
    /// `rel`'s rotation as a matrix, by columns (the images of the axes; the third unused in 2D), formed by
    /// [`Pair::frame`] before the first support call. Each support call turns a direction into B's frame and
    /// B's point back: as a quaternion product each turn costs about twice a matrix–vector product, and a curved
    /// pair makes dozens of calls (3D f64 callgrind: 3–7 % of a query's instructions, polytopes included). In
    /// 2D the columns are (cos, sin) and (−sin, cos), and the products are bit for bit [`Rot2`]'s.
    ///
    /// [`Rot2`]: crate::math::Rot2
    cols: [V; 3],
    /// B's core is the single point at B's origin (a ball's): placed at `rel`'s translation exactly, with no
    /// products, as [`run::run_points`](super::run::run_points) places it.
    b_at_origin: bool,
    pub hint_a: u32,
    pub hint_b: u32,
}

impl<'s, V: Vector, A: SupportMap<V> + ?Sized, B: SupportMap<V> + ?Sized> Pair<'s, V, A, B> {
    /// The pair seen from A: B's pose relative to A's, hints fresh.
    pub fn new(a: &'s A, pose_a: &Iso<V>, b: &'s B, pose_b: &Iso<V>) -> Self {
        Self { a, b, rel: pose_a.relative(pose_b), cols: [V::zero(); 3], b_at_origin: false, hint_a: 0, hint_b: 0 }
    }

    /// The same pair with fresh hints, as [`Pair::new`] makes it: a second run from it finds what a first would.
    pub fn fresh(&self) -> Self {
        Self { hint_a: 0, hint_b: 0, ..*self }
    }

    /// The same pair with B moved by `q` (pair frame), its rotation's columns and hints carried over.
    pub fn shifted(&self, q: V) -> Self {
        let rel = Iso { rotation: self.rel.rotation, translation: self.rel.translation + q };
        Self { rel, ..*self }
    }

    /// Forms the rotation's columns for [`Pair::support`]: once per query, before the first support call (queries
    /// answered without one, by a closed form, skip it).
    #[inline]
    pub fn frame(&mut self) {
        self.cols = columns(&self.rel);
        self.b_at_origin = self.b.point_core().is_some_and(is_origin);
    }

    /// A point of B's frame in the pair frame, through the columns (`rel.transform_point` up to rounding). B's
    /// point core at its origin (a ball's) is placed at `rel`'s translation exactly, without the products.
    #[inline(always)]
    pub(crate) fn place_b(&self, p: V) -> V {
        if self.b_at_origin {
            return self.rel.translation;
        }
        place(&self.cols, self.rel.translation, p)
    }

    /// [`Pair::place_b`] before [`Pair::frame`] (the point-core shortcut, which makes no support call): the
    /// columns are formed on the spot, and only for a point off B's origin.
    #[inline]
    pub fn place_b_unframed(&self, p: V) -> V {
        if is_origin(p) {
            return self.rel.translation;
        }
        place(&columns(&self.rel), self.rel.translation, p)
    }

    /// s_{A−B}(d) = s_A(d) − s_B(−d), with B's support asked in B's own frame.
    ///
    /// Always inlined: with the products written out its body outgrows the inliner's budget, and the call then
    /// costs more than the products save (2D f64 ellipses: +15 % instructions per query).
    #[inline(always)]
    pub fn support(&mut self, dir: V) -> DiffVertex<V> {
        // Unframed, the columns are zero (a rotation's never are, NaN ones included): every B point would sit at
        // B's origin.
        debug_assert!(!is_origin(self.cols[0]), "Pair::frame must be called before Pair::support");
        let a = self.a.support_hinted(dir, &mut self.hint_a);
        // −dir in B's frame: the transposed matrix, one column's dot product per coordinate.
        let back = -dir;
        let b_local = self.b.support_hinted(V::from_fn(|i| self.cols[i].dot(back)), &mut self.hint_b);
        let b = self.place_b(b_local);
        DiffVertex { w: a - b, a, b, dir }
    }

    /// Both cores' vertex cycles when both are polygons that can be walked by index (see
    /// [`SupportMap::polygon_cycle`] and `gjk::walk`), 2D only.
    #[inline]
    pub fn polygons(&self) -> Option<(&'s [V], &'s [V])> {
        if V::DIM != 2 {
            return None;
        }
        Some((self.a.polygon_cycle()?, self.b.polygon_cycle()?))
    }

    /// A − B's centre, from the shapes' centres: the first search direction points from it toward the origin.
    pub fn center(&self) -> V {
        self.a.center() - self.rel.transform_point(self.b.center())
    }
}

/// True for B's origin exactly (a ball's core): placed at the translation with no products.
#[inline]
fn is_origin<V: Vector>(p: V) -> bool {
    (0..V::DIM).all(|i| p.get(i) == V::Real::ZERO)
}

/// The columns of `iso`'s rotation matrix: the images of the axes (the third zero in 2D).
#[inline(always)]
fn columns<V: Vector>(iso: &Iso<V>) -> [V; 3] {
    core::array::from_fn(|i| if i < V::DIM { iso.rotation.rotate(V::axis(i)) } else { V::zero() })
}

/// R p + t, with R given by its columns (written out: an iterator here is not always inlined).
#[inline(always)]
fn place<V: Vector>(cols: &[V; 3], t: V, p: V) -> V {
    let mut q = cols[0] * p.get(0) + cols[1] * p.get(1);
    if V::DIM == 3 {
        q += cols[2] * p.get(2);
    }
    q + t
}
