//! Double dispatch by kind, written once for every pair query.
//!
//! A shape says which of three kinds it is by calling one method of a visitor ([`Kind`]): convex (any support
//! map), half-space, or composite (any [`Composite`]). A pair query (`PairQuery`) implements the six unordered
//! pairs of kinds; `pair` visits A, then B, and calls the right one — with the arguments swapped and the answer
//! flipped back when B's kind comes first in that list. Everything is generic, so each pair compiles to a direct
//! call on the concrete types: no downcasts, no trait objects, and a new query is six functions.

use crate::composite::{Composite, HalfSpace};
use crate::math::{Iso, Vector};
use crate::shape::SupportMap;
use alloc::boxed::Box;

/// A shape the queries of [`crate::query`] accept: the library's convex shapes, `dyn SupportMap`, any support map
/// wrapped in [`Convex`], [`HalfSpace`], and the composites ([`crate::composite::TriMesh`], [`crate::composite::Compound`], [`crate::composite::HeightField`]).
pub trait Shape<V: Vector> {
    /// Calls the visitor's method for this shape's kind.
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output;
}

/// A visitor of the three kinds of shape.
pub trait Kind<V: Vector> {
    /// What the visit returns.
    type Output;
    /// A convex shape.
    fn convex<S: SupportMap<V> + ?Sized>(self, s: &S) -> Self::Output;
    /// A half-space.
    fn half_space(self, h: &HalfSpace<V>) -> Self::Output;
    /// A composite shape.
    fn composite<C: Composite<V>>(self, c: &C) -> Self::Output;
}

/// A convex shape of your own (any [`SupportMap`]) as a [`Shape`]: the library's own convex shapes and
/// `dyn SupportMap` are shapes already, but a blanket implementation over every support map would forbid the
/// composites' (a crate downstream could make a composite a support map too).
///
/// ```
/// use gjk::math::{DVec2, Iso};
/// use gjk::query::{self, Convex};
/// use gjk::shape::SupportMap;
/// /// The square |x| + |y| ≤ 1.
/// struct Diamond;
/// impl SupportMap<DVec2> for Diamond {
///     fn support(&self, d: DVec2) -> DVec2 {
///         if d.x.abs() > d.y.abs() { DVec2::new(d.x.signum(), 0.0) } else { DVec2::new(0.0, d.y.signum()) }
///     }
/// }
/// let far = Iso::from_translation(DVec2::new(3.0, 0.0));
/// let d = query::distance(&Convex(Diamond), &Iso::identity(), &Convex(Diamond), &far);
/// assert!((d.distance - 1.0).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Convex<S>(pub S);

impl<V: Vector, S: SupportMap<V>> Shape<V> for Convex<S> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        k.convex(&self.0)
    }
}

impl<V: Vector, T: Shape<V> + ?Sized> Shape<V> for &T {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        (**self).visit(k)
    }
}

impl<V: Vector, T: Shape<V> + ?Sized> Shape<V> for Box<T> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        (**self).visit(k)
    }
}

macro_rules! convex_shapes {
    ($(impl[$($g:tt)*] for $t:ty;)*) => {$(
        impl<$($g)*> Shape<V> for $t {
            #[inline]
            fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
                k.convex(self)
            }
        }
    )*};
}

use crate::composite::Facet;
use crate::math::Vector3;
use crate::shape::{
    Ball, Capsule, Cone, ConvexPolytope, Cuboid, Cylinder, Ellipsoid, Frustum, MinkowskiSum, Point, Posed, Rounded,
    Scaled, Segment, SupportFn, Triangle,
};

convex_shapes! {
    impl[V: Vector] for Ball<V::Real>;
    impl[V: Vector] for Capsule<V::Real>;
    impl[V: Vector3] for Cone<V::Real>;
    impl[V: Vector] for Cuboid<V>;
    impl[V: Vector, F: Fn(V) -> V] for SupportFn<F, V::Real>;
    impl[V: Vector3] for Cylinder<V::Real>;
    impl[V: Vector] for Ellipsoid<V>;
    impl[V: Vector3] for Frustum<V>;
    impl[V: Vector, A: SupportMap<V>, B: SupportMap<V>] for MinkowskiSum<A, B>;
    impl[V: Vector] for Point<V>;
    impl[V: Vector] for ConvexPolytope<V>;
    impl[V: Vector, S: SupportMap<V>] for Posed<S, V>;
    impl[V: Vector, S: SupportMap<V>] for Rounded<S, V::Real>;
    impl[V: Vector, S: SupportMap<V>] for Scaled<S, V>;
    impl[V: Vector] for Segment<V>;
    impl[V: Vector] for Triangle<V>;
    impl[V: Vector] for Facet<V>;
    impl['a, V: Vector] for dyn SupportMap<V> + 'a;
    impl['a, V: Vector] for dyn SupportMap<V> + Send + Sync + 'a;
}

impl<V: Vector> Shape<V> for HalfSpace<V> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        k.half_space(self)
    }
}

impl<V: Vector> Shape<V> for crate::composite::TriMesh<V> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        k.composite(self)
    }
}

impl<V: Vector> Shape<V> for crate::composite::HeightField<V> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        k.composite(self)
    }
}

impl<V: Vector, S: SupportMap<V>> Shape<V> for crate::composite::Compound<V, S> {
    #[inline]
    fn visit<K: Kind<V>>(&self, k: K) -> K::Output {
        k.composite(self)
    }
}

/// A query on two shapes, one function per unordered pair of kinds (the first argument's kind listed first).
pub(crate) trait PairQuery<V: Vector> {
    type Output;
    fn convex_convex<A, B>(&mut self, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> Self::Output
    where
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized;
    fn half_space_convex<B: SupportMap<V> + ?Sized>(
        &mut self,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Self::Output;
    fn half_space_half_space(&mut self, a: &HalfSpace<V>, pa: &Iso<V>, b: &HalfSpace<V>, pb: &Iso<V>) -> Self::Output;
    fn composite_convex<C: Composite<V>, B: SupportMap<V> + ?Sized>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        b: &B,
        pb: &Iso<V>,
    ) -> Self::Output;
    fn composite_half_space<C: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        h: &HalfSpace<V>,
        ph: &Iso<V>,
    ) -> Self::Output;
    fn composite_composite<C: Composite<V>, D: Composite<V>>(
        &mut self,
        c: &C,
        pc: &Iso<V>,
        d: &D,
        pd: &Iso<V>,
    ) -> Self::Output;
    /// The answer with A and B exchanged (points, parts, and the normal's sign).
    fn flip(&mut self, out: Self::Output) -> Self::Output;
}

/// Runs `q` on `(a, b)`.
pub(crate) fn pair<V, Q, A, B>(q: &mut Q, a: &A, pa: &Iso<V>, b: &B, pb: &Iso<V>) -> Q::Output
where
    V: Vector,
    Q: PairQuery<V>,
    A: Shape<V> + ?Sized,
    B: Shape<V> + ?Sized,
{
    a.visit(First { q, b, pa, pb })
}

struct First<'q, 'b, V: Vector, Q, B: ?Sized> {
    q: &'q mut Q,
    b: &'b B,
    pa: &'b Iso<V>,
    pb: &'b Iso<V>,
}

impl<V: Vector, Q: PairQuery<V>, B: Shape<V> + ?Sized> Kind<V> for First<'_, '_, V, Q, B> {
    type Output = Q::Output;
    fn convex<S: SupportMap<V> + ?Sized>(self, a: &S) -> Q::Output {
        self.b.visit(AfterConvex { q: self.q, a, pa: self.pa, pb: self.pb })
    }
    fn half_space(self, a: &HalfSpace<V>) -> Q::Output {
        self.b.visit(AfterHalfSpace { q: self.q, a, pa: self.pa, pb: self.pb })
    }
    fn composite<C: Composite<V>>(self, a: &C) -> Q::Output {
        self.b.visit(AfterComposite { q: self.q, a, pa: self.pa, pb: self.pb })
    }
}

struct AfterConvex<'q, 'a, V: Vector, Q, A: ?Sized> {
    q: &'q mut Q,
    a: &'a A,
    pa: &'a Iso<V>,
    pb: &'a Iso<V>,
}

impl<V: Vector, Q: PairQuery<V>, A: SupportMap<V> + ?Sized> Kind<V> for AfterConvex<'_, '_, V, Q, A> {
    type Output = Q::Output;
    fn convex<S: SupportMap<V> + ?Sized>(self, b: &S) -> Q::Output {
        self.q.convex_convex(self.a, self.pa, b, self.pb)
    }
    fn half_space(self, b: &HalfSpace<V>) -> Q::Output {
        let out = self.q.half_space_convex(b, self.pb, self.a, self.pa);
        self.q.flip(out)
    }
    fn composite<C: Composite<V>>(self, b: &C) -> Q::Output {
        let out = self.q.composite_convex(b, self.pb, self.a, self.pa);
        self.q.flip(out)
    }
}

struct AfterHalfSpace<'q, 'a, V: Vector, Q> {
    q: &'q mut Q,
    a: &'a HalfSpace<V>,
    pa: &'a Iso<V>,
    pb: &'a Iso<V>,
}

impl<V: Vector, Q: PairQuery<V>> Kind<V> for AfterHalfSpace<'_, '_, V, Q> {
    type Output = Q::Output;
    fn convex<S: SupportMap<V> + ?Sized>(self, b: &S) -> Q::Output {
        self.q.half_space_convex(self.a, self.pa, b, self.pb)
    }
    fn half_space(self, b: &HalfSpace<V>) -> Q::Output {
        self.q.half_space_half_space(self.a, self.pa, b, self.pb)
    }
    fn composite<C: Composite<V>>(self, b: &C) -> Q::Output {
        let out = self.q.composite_half_space(b, self.pb, self.a, self.pa);
        self.q.flip(out)
    }
}

struct AfterComposite<'q, 'a, V: Vector, Q, A> {
    q: &'q mut Q,
    a: &'a A,
    pa: &'a Iso<V>,
    pb: &'a Iso<V>,
}

impl<V: Vector, Q: PairQuery<V>, A: Composite<V>> Kind<V> for AfterComposite<'_, '_, V, Q, A> {
    type Output = Q::Output;
    fn convex<S: SupportMap<V> + ?Sized>(self, b: &S) -> Q::Output {
        self.q.composite_convex(self.a, self.pa, b, self.pb)
    }
    fn half_space(self, b: &HalfSpace<V>) -> Q::Output {
        self.q.composite_half_space(self.a, self.pa, b, self.pb)
    }
    fn composite<C: Composite<V>>(self, b: &C) -> Q::Output {
        self.q.composite_composite(self.a, self.pa, b, self.pb)
    }
}
