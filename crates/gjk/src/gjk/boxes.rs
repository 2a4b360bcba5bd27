//! Two boxes in 3D answered from their separating axes, when the axes prove the answer: the exact fast paths of
//! [`super::distance`] (and of the penetration query, `epa`) for a pair of [`Cuboid`]s.
//!
//! The 15 axes of the separating-axis test (`sat.rs`) are the face normals of A − B. Apart, the largest separation
//! along them, `lower`, is a lower bound on the distance, and the distance itself when the closest points are a
//! vertex and a face or two edges' interiors (the facet of A − B nearest the origin holds the origin's foot). The
//! features that give the best axis its separation then give two points, one on each box, `upper` apart: an
//! upper bound. When the two bounds meet to the tolerance GJK converges to (its duality-gap rule, with the same
//! rounding allowance), the points are the answer GJK would converge to, and it is given with the same meaning:
//! status converged, error bound `upper − lower`, points on the shapes, normal from A toward B. When the feature's
//! nearest point of the other box is not on its face (closest points at a corner and an edge or a corner), the
//! points' own direction is one more axis whose separation proves them or not. Overlapping by more than rounding,
//! the least overlap along the axes is the penetration depth (every facet normal of A − B is among them), and the
//! features of that axis give a point common to both boxes (for `distance`) or the deepest points (for the
//! penetration query), each checked to lie on the boxes. Anything unproven (a feature parallel to the axis, so
//! that the one chosen may not be the nearest; boxes touching to within rounding) answers `None`, and GJK (and
//! EPA) run as before. Observed queries take this path too, as the closed forms of `analytic` (no step runs, so
//! the observer sees none, and an observed query answers what an unobserved one does). Measurements and the
//! rounding pitfalls met: ARCHITECTURE.md ("Two boxes in 3D").
//!
//! [`Cuboid`]: crate::shape::Cuboid

use super::pair::Pair;
use super::run::{gap_noise, touch_distance, Params};
use crate::math::{Iso, Real, Rotation, Vector};
use crate::shape::SupportMap;

/// The closest points of two boxes apart, pair frame (A at the identity), with the lower bound that proves them.
pub(crate) struct Apart<V: Vector> {
    /// A's closest point.
    pub a: V,
    /// B's closest point.
    pub b: V,
    /// a − b, computed along the axis that proves it when that is its direction: A − B's point nearest the origin.
    pub v: V,
    /// The separation along the best axis: a lower bound on the distance, within the tolerance of |b − a|.
    pub lower: V::Real,
}

/// Two boxes overlapping by more than rounding: the deepest points (pair frame) along the axis of least overlap.
pub(crate) struct Depth<V: Vector> {
    /// The signed distance (minus the depth).
    pub distance: V::Real,
    /// The unit normal from A toward B.
    pub normal: V,
    /// A's point deepest into B.
    pub a: V,
    /// B's point deepest into A: `b − a = distance · normal`.
    pub b: V,
}

/// Which axis separates best.
#[derive(Clone, Copy)]
enum Axis {
    /// A's face normal eᵢ.
    FaceA(usize),
    /// B's face normal cₗ.
    FaceB(usize),
    /// eᵢ × cⱼ: A's edges along axis i against B's along its axis j.
    Edge(usize, usize),
}

/// `[f(0), f(1), f(2)]`, written out (`array::map` is not always inlined).
#[inline(always)]
fn each3<T>(mut f: impl FnMut(usize) -> T) -> [T; 3] {
    [f(0), f(1), f(2)]
}

/// `h` with the sign of `s` (+ for zero, as the box's own support picks).
#[inline(always)]
fn signed<R: Real>(h: R, s: R) -> R {
    if s < R::ZERO {
        -h
    } else {
        h
    }
}

#[inline(always)]
fn dot<R: Real>(u: [R; 3], v: [R; 3]) -> R {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

#[inline(always)]
fn sub<R: Real>(u: [R; 3], v: [R; 3]) -> [R; 3] {
    [u[0] - v[0], u[1] - v[1], u[2] - v[2]]
}

#[inline(always)]
fn clamp<R: Real>(x: R, h: R) -> R {
    x.max(-h).min(h)
}

/// The middle of the overlap of [centre − width, centre + width] with [−h, h], clamped to the latter.
#[inline(always)]
fn middle<R: Real>(centre: R, width: R, h: R) -> R {
    clamp(((centre - width).max(-h) + (centre + width).min(h)) * R::HALF, h)
}

/// The box of half-extents `ha` at the identity and the box of half-extents `hb` at B's pose in A's frame, with
/// the axis along which they are farthest apart (or least overlapping).
pub(crate) struct Boxes<R> {
    /// B's centre.
    t: [R; 3],
    ha: [R; 3],
    hb: [R; 3],
    /// B's rotation by columns (c[k][i] the i-th component of column k), and their absolute values.
    c: [[R; 3]; 3],
    ac: [[R; 3]; 3],
    /// The magnitude of the numbers in play, as in `sat::boxes`.
    scale: R,
    /// The separation along the best axis (negative: minus the overlap), and the axis.
    best: R,
    axis: Axis,
}

impl<R: Real> Boxes<R> {
    /// The pair's two boxes, when both shapes are boxes in 3D and the query may answer without iterating (a cap of
    /// zero iterations asks for no answer at all): the one gate of the distance and penetration shortcuts.
    #[inline(always)]
    pub fn of_pair<V, A, B>(pair: &Pair<'_, V, A, B>, params: &Params<R>) -> Option<Self>
    where
        V: Vector<Real = R>,
        A: SupportMap<V> + ?Sized,
        B: SupportMap<V> + ?Sized,
    {
        if V::DIM != 3 || params.max_iterations == 0 {
            return None;
        }
        Self::new(pair.a.cuboid_half_extents()?, pair.b.cuboid_half_extents()?, &pair.rel)
    }

    /// The boxes and their best axis; `None` in 2D and for non-finite numbers.
    #[inline(always)]
    pub fn new<V: Vector<Real = R>>(ha: V, hb: V, rel: &Iso<V>) -> Option<Self> {
        if V::DIM != 3 {
            return None;
        }
        let arr = |v: V| [v.get(0), v.get(1), v.get(2)];
        let (t, ha, hb) = (arr(rel.translation), arr(ha), arr(hb));
        // From the rotation GJK's support calls apply, so that both see the same box B.
        let col = |k: usize| arr(rel.rotation.rotate(V::axis(k)));
        let c = [col(0), col(1), col(2)];
        let abs3 = |v: [R; 3]| [v[0].abs(), v[1].abs(), v[2].abs()];
        let ac = [abs3(c[0]), abs3(c[1]), abs3(c[2])];
        let max3 = |v: [R; 3]| v[0].max(v[1]).max(v[2]);
        let scale = max3(ha) + max3(abs3(t)) + hb[0] * max3(ac[0]) + hb[1] * max3(ac[1]) + hb[2] * max3(ac[2]);
        if !scale.is_finite() {
            return None;
        }
        let mut boxes = Self { t, ha, hb, c, ac, scale, best: -R::INFINITY, axis: Axis::FaceA(0) };
        boxes.search();
        Some(boxes)
    }

    /// The best axis: the separation along each n, f(n) = |n·t| − (A's half-width) − (B's half-width), over |n|,
    /// the axes written out one by one (constant indices: no run-time index arithmetic, every bound check folded).
    #[inline(always)]
    fn search(&mut self) {
        let (t, ha, hb, c, ac) = (self.t, self.ha, self.hb, &self.c, &self.ac);
        let mut best = (self.best, self.axis);
        for (f, axis) in [
            (t[0].abs() - ha[0] - dot(hb, [ac[0][0], ac[1][0], ac[2][0]]), Axis::FaceA(0)),
            (t[1].abs() - ha[1] - dot(hb, [ac[0][1], ac[1][1], ac[2][1]]), Axis::FaceA(1)),
            (t[2].abs() - ha[2] - dot(hb, [ac[0][2], ac[1][2], ac[2][2]]), Axis::FaceA(2)),
            // cₗ is a unit vector and B's half-width along it is hbₗ (the columns orthonormal to rounding).
            (dot(c[0], t).abs() - dot(ha, ac[0]) - hb[0], Axis::FaceB(0)),
            (dot(c[1], t).abs() - dot(ha, ac[1]) - hb[1], Axis::FaceB(1)),
            (dot(c[2], t).abs() - dot(ha, ac[2]) - hb[2], Axis::FaceB(2)),
        ] {
            if f > best.0 {
                best = (f, axis);
            }
        }
        // An edge axis must beat the faces by more than rounding: parallel to a face normal (an edge of each box
        // along the other's face) it is that face's axis, whose points are the face's.
        let face = best.0;
        best.0 = face + touch_distance(self.scale) * R::TWO;
        let frame = (c, ac, &t, &ha, &hb);
        edge::<_, 0, 0>(frame, &mut best);
        edge::<_, 0, 1>(frame, &mut best);
        edge::<_, 0, 2>(frame, &mut best);
        edge::<_, 1, 0>(frame, &mut best);
        edge::<_, 1, 1>(frame, &mut best);
        edge::<_, 1, 2>(frame, &mut best);
        edge::<_, 2, 0>(frame, &mut best);
        edge::<_, 2, 1>(frame, &mut best);
        edge::<_, 2, 2>(frame, &mut best);
        if let Axis::Edge(..) = best.1 {
            (self.best, self.axis) = best;
        } else {
            (self.best, self.axis) = (face, best.1);
        }
    }

    /// Clear of GJK's touching threshold by as much again (as `sat::boxes`): past it either way, GJK's run says the
    /// same ("apart" or "intersecting").
    #[inline(always)]
    fn margin(&self) -> R {
        touch_distance(self.scale) * R::TWO
    }

    /// A point of B's frame (coordinates `u`) in A's.
    #[inline(always)]
    fn place(&self, u: [R; 3]) -> [R; 3] {
        let (t, c) = (self.t, &self.c);
        each3(|m| t[m] + u[0] * c[0][m] + u[1] * c[1][m] + u[2] * c[2][m])
    }

    /// The move from B's coordinates `u` to `v`, R (v − u), and the point it takes `a` to: a change of one
    /// coordinate moves exactly along that column, so the closest points of a face are joined along the face's
    /// normal exactly (b − a from points placed from B's centre, or even a + move − a, would tilt by ε·|a|/gap).
    #[inline(always)]
    fn moved(&self, a: [R; 3], u: [R; 3], v: [R; 3]) -> ([R; 3], [R; 3]) {
        let c = &self.c;
        let d = sub(v, u);
        let step = each3(|m| c[0][m] * d[0] + c[1][m] * d[1] + c[2][m] * d[2]);
        (each3(|m| a[m] + step[m]), step)
    }

    /// B's corner deepest toward A along A's face normal eᵢ (B's support along −σeᵢ, σ the side B is on). Along
    /// an edge of B parallel to the face (cₖ[i] = 0, boxes resting on each other) every point of it is as deep:
    /// the middle of its stretch over A's face (the middle of the contact, as EPA finds it), or the end nearest it.
    #[inline(always)]
    fn corner_of_b(&self, i: usize) -> [R; 3] {
        let s = signed(R::ONE, self.t[i]);
        self.place(each3(|k| match self.c[k][i] {
            // A's face along cₖ, in B's coordinate k: centred at −cₖ·t, half as wide as A along cₖ.
            ck if ck == R::ZERO => middle(-dot(self.c[k], self.t), dot(self.ha, self.ac[k]), self.hb[k]),
            ck => signed(self.hb[k], -s * ck),
        }))
    }

    /// A's corner deepest toward B along B's face normal cₗ, and its coordinates in B's frame (along an edge of A
    /// parallel to the face, the middle of its stretch over B's face).
    #[inline(always)]
    fn corner_of_a(&self, l: usize) -> ([R; 3], [R; 3]) {
        let s = signed(R::ONE, dot(self.c[l], self.t));
        let (hb, ac) = (self.hb, &self.ac);
        let a = each3(|m| match self.c[l][m] {
            // B's face along eₘ: centred at tₘ, half as wide as B along eₘ.
            cl if cl == R::ZERO => {
                middle(self.t[m], hb[0] * ac[0][m] + hb[1] * ac[1][m] + hb[2] * ac[2][m], self.ha[m])
            }
            cl => signed(self.ha[m], s * cl),
        });
        let r = sub(a, self.t);
        (a, each3(|k| dot(self.c[k], r)))
    }

    /// The edges of the axis eᵢ × cⱼ: A's along eᵢ supporting n (oriented toward B), B's along cⱼ supporting −n,
    /// and the points of their lines nearest each other, with whether these are inside both edges; otherwise the
    /// edges' closest points (Ericson's clamping: x on A's edge, B's point nearest it, A's point nearest that).
    /// Inside, B's point is put at A's plus n's unit vector times their distance along it, and that move is b − a,
    /// with n's direction exactly (n is exact from B's column; the points' coordinates would tilt it by
    /// ε·scale/gap). Last, the unit n.
    #[inline(always)]
    fn edges(&self, i: usize, j: usize) -> ([R; 3], [R; 3], [R; 3], bool, [R; 3]) {
        let (t, ha, hb, c) = (self.t, self.ha, self.hb, &self.c);
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let (k1, k2) = ((j + 1) % 3, (j + 2) % 3);
        let (p, q) = (c[j][i1], c[j][i2]);
        let s = signed(R::ONE, p * t[i2] - q * t[i1]);
        let mut a = [R::ZERO; 3];
        a[i1] = signed(ha[i1], -s * q);
        a[i2] = signed(ha[i2], s * p);
        let u1 = signed(hb[k1], -s * along((p, q), &c[k1], (i1, i2)));
        let u2 = signed(hb[k2], -s * along((p, q), &c[k2], (i1, i2)));
        let b0 = each3(|m| t[m] + u1 * c[k1][m] + u2 * c[k2][m]);
        // The lines a + x eᵢ and b0 + y cⱼ, with g = eᵢ·cⱼ and 1 − g² = |n|².
        let (g, nn) = (c[j][i], p * p + q * q);
        let d = sub(b0, a);
        let dc = dot(d, c[j]);
        let x = (d[i] - g * dc) / nn;
        let y = (g * d[i] - dc) / nn;
        let inside = x.abs() <= ha[i] && y.abs() <= hb[j];
        let (x, y) = if inside {
            (x, y)
        } else {
            let x = clamp(x, ha[i]);
            let y = clamp(g * x - dc, hb[j]);
            (clamp(d[i] + g * y, ha[i]), y)
        };
        a[i] = x;
        let b = each3(|m| b0[m] + y * c[j][m]);
        let mut n = [R::ZERO; 3];
        let unit = s / nn.sqrt();
        n[i1] = -q * unit;
        n[i2] = p * unit;
        let ab = sub(b, a);
        let step = each3(|m| n[m] * dot(ab, n));
        // Nearly parallel edges (a short n) leave x and y to rounding: the points are still on the edges, but b − a
        // may have left n's line, and then they are taken as clamped points, to be proven as such.
        let off = sub(ab, step);
        let along_n = off[0].abs().max(off[1].abs()).max(off[2].abs()) <= self.margin();
        if !(inside && along_n) {
            return (a, b, ab, false, n);
        }
        (a, each3(|m| a[m] + step[m]), step, true, n)
    }

    /// The separation along any axis n (not normalised): |n·t| − Σᵢ haᵢ|nᵢ| − Σₖ hbₖ|n·cₖ|, over |n|.
    #[inline(always)]
    fn separation(&self, n: [R; 3]) -> R {
        let (ha, hb, c) = (self.ha, self.hb, &self.c);
        let f = dot(n, self.t).abs()
            - (ha[0] * n[0].abs() + ha[1] * n[1].abs() + ha[2] * n[2].abs())
            - (hb[0] * dot(n, c[0]).abs() + hb[1] * dot(n, c[1]).abs() + hb[2] * dot(n, c[2]).abs());
        f / dot(n, n).sqrt()
    }

    /// The closest points when the boxes are apart by more than the margin and the best axis proves them to the
    /// relative tolerance `rel_tol` (see the module's comment).
    #[inline(always)]
    pub fn apart<V: Vector<Real = R>>(&self, rel_tol: R) -> Option<Apart<V>> {
        if !(self.best > self.margin()) {
            return None;
        }
        // A point of each box: the feature of one that supports the axis, and the point of the other nearest it.
        // When that nearest point is on the other's face (or the lines' closest points inside both edges), the two
        // are `best` apart; otherwise (`moved`) their direction is one more axis to prove them with.
        // `ab` is b − a, computed along the axis where that is its direction (see `moved`, `edges`).
        let (a, b, ab, moved) = match self.axis {
            Axis::FaceA(i) => {
                let b = self.corner_of_b(i);
                let a = each3(|m| clamp(b[m], self.ha[m]));
                (a, b, sub(b, a), (0..3).any(|m| m != i && a[m] != b[m]))
            }
            Axis::FaceB(l) => {
                let (a, u) = self.corner_of_a(l);
                let mut v = each3(|k| clamp(u[k], self.hb[k]));
                let moved = (0..3).any(|k| k != l && v[k] != u[k]);
                v[l] = -signed(self.hb[l], dot(self.c[l], self.t));
                let (b, ab) = self.moved(a, u, v);
                (a, b, ab, moved)
            }
            Axis::Edge(i, j) => {
                let (a, b, ab, inside, _) = self.edges(i, j);
                (a, b, ab, !inside)
            }
        };
        let lower = if moved { self.best.max(self.separation(ab)) } else { self.best };
        let v = |p: [R; 3]| V::from_fn(|m| p[m]);
        let (a, b, ab) = (v(a), v(b), v(ab));
        // GJK's convergence rule with v = a − b and the supporting plane at `lower`: |v|² − |v|·lower within the
        // tolerance of |v|² and the rounding noise of the numbers.
        let v2 = ab.length_squared();
        let upper = v2.sqrt();
        // A lower bound past the upper one by more than rounding is no bound: something was not what it seemed.
        let noise = gap_noise(upper, self.scale);
        let converged = upper * (lower - upper) <= noise && v2 - upper * lower <= rel_tol * v2 + noise;
        converged.then_some(Apart { a, b, v: -ab, lower })
    }

    /// True when the boxes overlap by more than the margin along every axis.
    #[inline(always)]
    fn deep(&self) -> bool {
        self.best < -self.margin()
    }

    /// A point of both boxes (pair frame) when they overlap by more than the margin: along the axis of least
    /// overlap, the other box's corner deepest across that face lies in the face's box (the nearest facet of
    /// A − B holds the origin's foot, so that corner is within the depth of the face and inside its rim), checked
    /// here; an edge axis gives B's edge point, if it is inside A. `None` when the check fails.
    #[inline(always)]
    pub fn common<V: Vector<Real = R>>(&self) -> Option<V> {
        if !self.deep() {
            return None;
        }
        let in_a = |p: [R; 3]| (0..3).all(|m| p[m].abs() <= self.ha[m]);
        let point = match self.axis {
            Axis::FaceA(i) => Some(self.corner_of_b(i)).filter(|&b| in_a(b)),
            Axis::FaceB(l) => {
                let (a, u) = self.corner_of_a(l);
                (0..3).all(|k| u[k].abs() <= self.hb[k]).then_some(a)
            }
            Axis::Edge(i, j) => match self.edges(i, j) {
                (_, b, _, true, _) if in_a(b) => Some(b),
                _ => None,
            },
        };
        point.map(|p| V::from_fn(|m| p[m]))
    }

    /// The deepest points when the boxes overlap by more than the margin: the axis of least overlap is the
    /// normal, and its features' points, checked to lie on the faces (inside both edges), are the deepest.
    #[inline(always)]
    pub fn depth<V: Vector<Real = R>>(&self) -> Option<Depth<V>> {
        if !self.deep() {
            return None;
        }
        let (a, b, n) = match self.axis {
            Axis::FaceA(i) => {
                let b = self.corner_of_b(i);
                if (0..3).any(|m| m != i && b[m].abs() > self.ha[m]) {
                    return None;
                }
                let mut a = b;
                a[i] = signed(self.ha[i], self.t[i]);
                let mut n = [R::ZERO; 3];
                n[i] = signed(R::ONE, self.t[i]);
                (a, b, n)
            }
            Axis::FaceB(l) => {
                let (a, u) = self.corner_of_a(l);
                if (0..3).any(|k| k != l && u[k].abs() > self.hb[k]) {
                    return None;
                }
                let s = dot(self.c[l], self.t);
                let mut v = u;
                v[l] = -signed(self.hb[l], s);
                (a, self.moved(a, u, v).0, each3(|m| signed(R::ONE, s) * self.c[l][m]))
            }
            Axis::Edge(i, j) => match self.edges(i, j) {
                (a, b, _, true, n) => (a, b, n),
                _ => return None,
            },
        };
        // Unit to rounding (a column of B's rotation is unit only to the rotation's rounding).
        let n = {
            let inv = R::ONE / dot(n, n).sqrt();
            each3(|m| n[m] * inv)
        };
        let distance = dot(sub(b, a), n);
        // The points realise the axis's overlap, along the axis: b − a = distance · n, distance = best, to within
        // the margin (rounding); and deeper than the margin along the normal too, and finite.
        let margin = self.margin();
        let off = sub(sub(b, a), each3(|m| n[m] * distance));
        let off = off[0].abs().max(off[1].abs()).max(off[2].abs());
        if !(distance < -margin && (distance - self.best).abs() <= margin && off <= margin) {
            return None;
        }
        let v = |p: [R; 3]| V::from_fn(|m| p[m]);
        Some(Depth { distance, normal: v(n), a: v(a), b: v(b) })
    }
}

/// The pair frame as [`Boxes::search`] reads it: B's columns c, their absolute values, B's centre t, the
/// half-extents of A and B.
type Frame<'f, R> = (&'f [[R; 3]; 3], &'f [[R; 3]; 3], &'f [R; 3], &'f [R; 3], &'f [R; 3]);

/// n·cₖ for the edge axis n = eᵢ × cⱼ, (i, i1, i2) cyclic, whose components are −cⱼ[i2] at i1 and cⱼ[i1] at i2:
/// products of n's own components, so exact relative to |n| however short n is (nearly parallel edges). The
/// rotation's identity n·c_{j+1} = c_{j+2}[i] errs by the rotation's rounding, which divided by a short |n| would
/// make a separation of anything.
#[inline(always)]
fn along<R: Real>((p, q): (R, R), ck: &[R; 3], (i1, i2): (usize, usize)) -> R {
    p * ck[i2] - q * ck[i1]
}

/// The edge axis n = eᵢ × cⱼ (I = i, J = j): kept in `best` when it separates more (or overlaps less). With
/// (i, i1, i2) and (j, k1, k2) cyclic, n has −cⱼ[i2] at i1 and cⱼ[i1] at i2, |n|² = 1 − cⱼ[i]², and n·cⱼ = 0
/// (B's edges along cⱼ project to a point). Every term errs relative to |n| (see [`along`]), so f/|n| errs by the
/// rounding of the coordinates. Exactly parallel edges (n = 0) span no facet of A − B: the face normals cover that
/// direction. The indices are constants: no run-time index arithmetic.
#[inline(always)]
fn edge<R: Real, const I: usize, const J: usize>((c, ac, t, ha, hb): Frame<'_, R>, best: &mut (R, Axis)) {
    let (i1, i2) = ((I + 1) % 3, (I + 2) % 3);
    let (k1, k2) = ((J + 1) % 3, (J + 2) % 3);
    let (p, q) = (c[J][i1], c[J][i2]);
    let nn = p * p + q * q;
    let f = (p * t[i2] - q * t[i1]).abs()
        - (ha[i1] * ac[J][i2] + ha[i2] * ac[J][i1])
        - (hb[k1] * along((p, q), &c[k1], (i1, i2)).abs() + hb[k2] * along((p, q), &c[k2], (i1, i2)).abs());
    if nn > R::ZERO {
        let s = f / nn.sqrt();
        if s > best.0 {
            *best = (s, Axis::Edge(I, J));
        }
    }
}
