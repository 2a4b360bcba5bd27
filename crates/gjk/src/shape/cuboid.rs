use super::ray_span::{box_span, decide};
use super::{check_sizes, length_unscaled, Aabb, Feature, ShapeError, SupportMap};
use crate::math::{Real, Vector};

/// A rectangle (2D) or box (3D) centred on the local origin. A zero half-extent is a valid flat box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid<V> {
    /// Half the size along each local axis.
    pub half_extents: V,
}

impl<V: Vector> Cuboid<V> {
    /// A box with these half-extents; errors on negative or non-finite ones.
    pub fn new(half_extents: V) -> Result<Self, ShapeError> {
        Ok(Self { half_extents: check_sizes("half_extents", half_extents)? })
    }
}

impl<V: Vector> SupportMap<V> for Cuboid<V> {
    #[inline]
    fn support(&self, dir: V) -> V {
        // The corner in the octant of `dir`; a zero component picks the + side, deterministically.
        V::from_fn(|i| {
            let h = self.half_extents.get(i);
            if dir.get(i) < V::Real::ZERO {
                -h
            } else {
                h
            }
        })
    }
    #[inline]
    fn polyhedral(&self) -> bool {
        true
    }
    fn center(&self) -> V {
        V::zero()
    }
    fn local_aabb(&self) -> Aabb<V> {
        Aabb::new(-self.half_extents, self.half_extents)
    }
    fn farthest_core_distance(&self, from: V) -> V::Real {
        // The corner opposite `from` on every axis.
        length_unscaled(V::from_fn(|i| from.get(i).abs() + self.half_extents.get(i).abs()))
    }
    fn ray_cast_local(&self, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<Option<(V::Real, V)>> {
        Some(ray_box(self.half_extents, o, d, max_toi, solid))
    }
    #[inline]
    fn cuboid_half_extents(&self) -> Option<V> {
        // The field is public: a box edited into negative or NaN half-extents keeps the general path.
        let h = self.half_extents;
        (0..V::DIM).all(|i| h.get(i) >= V::Real::ZERO).then_some(h)
    }
    fn support_feature(&self, dir: V, out: &mut Feature<V>) {
        out.reset(0);
        out.id = supporting_face(self.half_extents, dir, |p, id| out.push(p, id));
    }
}

/// The face of the box of half-extents `h` supporting `dir`: each corner with its id, in order around the face, to
/// `corner`; returns the face's id. The face is across axis k, on the side of dir, where |dir_k| is largest (the
/// first of equals), and its id is 2k, plus 1 on the positive side. Its corners are listed in Gray-code order over
/// the other axes, which walks around the face (a quad in 3D, counter-clockwise seen from +axis k, whichever side;
/// an edge in 2D). A corner's id has bit i set when its coordinate i is positive.
pub(crate) fn supporting_face<V: Vector>(h: V, dir: V, mut corner: impl FnMut(V, u32)) -> u32 {
    let k = (0..V::DIM).fold(0, |m, i| if dir.get(i).abs() > dir.get(m).abs() { i } else { m });
    let positive = dir.get(k) >= V::Real::ZERO;
    // The other axes, cyclically after k (one of them in 2D).
    let others = [(k + 1) % V::DIM, (k + 2) % V::DIM];
    let others = &others[..V::DIM - 1];
    let corners = 1usize << others.len();
    for g in 0..corners {
        let gray = g ^ (g >> 1);
        // Which coordinates are at +h: k's by the side, the others by the Gray code's bits.
        let mut up = [false; 3];
        up[k] = positive;
        let mut id = if positive { 1u32 << k } else { 0 };
        for (b, &axis) in others.iter().enumerate() {
            if (gray >> b) & 1 == 1 {
                up[axis] = true;
                id |= 1 << axis;
            }
        }
        corner(V::from_fn(|i| if up[i] { h.get(i) } else { -h.get(i) }), id);
    }
    2 * k as u32 + positive as u32
}

/// Ray o + t·d against the box |pᵢ| ≤ hᵢ (see [`box_span`]).
fn ray_box<V: Vector>(h: V, o: V, d: V, max_toi: V::Real, solid: bool) -> Option<(V::Real, V)> {
    decide(box_span(h, o, d), max_toi, solid)
}
