use super::{parse_obj, Composite, TriMesh};
use crate::bvh::Bvh;
use crate::gjk::intersects;
use crate::math::{Iso, Vector, Vector3};
use crate::shape::{Aabb, ConvexPolytope, Point, ShapeError, SupportMap};
use alloc::vec::Vec;

/// Convex parts (any [`SupportMap`]), each at a pose in the compound's frame, with a [`Bvh`] over their boxes. A
/// part's world pose is the compound's pose composed with the part's.
///
/// ```
/// use gjk::composite::Compound;
/// use gjk::math::{DVec3, Iso};
/// use gjk::shape::{Ball, Cuboid, SupportMap};
/// // A dumbbell: two balls on a bar. Parts of different types go in as trait objects.
/// let ball = Ball::new(0.5).unwrap();
/// let bar = Cuboid::new(DVec3::new(1.0, 0.1, 0.1)).unwrap();
/// let parts: Vec<(Box<dyn SupportMap<DVec3> + Send + Sync>, Iso<DVec3>)> = vec![
///     (Box::new(ball), Iso::from_translation(DVec3::new(-1.0, 0.0, 0.0))),
///     (Box::new(ball), Iso::from_translation(DVec3::new(1.0, 0.0, 0.0))),
///     (Box::new(bar), Iso::identity()),
/// ];
/// let dumbbell = Compound::new(parts).unwrap();
/// assert_eq!(dumbbell.parts().len(), 3);
/// assert!(dumbbell.contains_local_point(DVec3::new(1.2, 0.0, 0.0)));
/// assert!(!dumbbell.contains_local_point(DVec3::new(0.0, 0.3, 0.0)));
/// ```
#[derive(Clone, Debug)]
pub struct Compound<V: Vector, S> {
    parts: Vec<(S, Iso<V>)>,
    bvh: Bvh<V>,
}

impl<V: Vector, S: SupportMap<V>> Compound<V, S> {
    /// The compound of these posed parts. Errors on an empty list or a non-finite pose; a pose's rotation is
    /// re-normalised.
    pub fn new(parts: Vec<(S, Iso<V>)>) -> Result<Self, ShapeError> {
        if parts.is_empty() {
            return Err(ShapeError::Empty);
        }
        let mut parts = parts;
        for (_, pose) in &mut parts {
            if !pose.is_finite() {
                return Err(ShapeError::NonFinite("part pose"));
            }
            pose.rotation = crate::math::Rotation::normalized(&pose.rotation)
                .ok_or(ShapeError::Invalid("a part's rotation is zero"))?;
        }
        let boxes: Vec<Aabb<V>> = parts.iter().map(|(s, p)| s.local_aabb().transformed(p)).collect();
        if boxes.iter().any(|b| !b.min.is_finite() || !b.max.is_finite()) {
            return Err(ShapeError::NonFinite("part bounds"));
        }
        Ok(Self { bvh: Bvh::new(&boxes), parts })
    }

    /// The parts and their poses.
    pub fn parts(&self) -> &[(S, Iso<V>)] {
        &self.parts
    }

    /// The tree over the parts.
    pub fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }

    /// Whether `p` (compound frame) is inside a part.
    pub fn contains_local_point(&self, p: V) -> bool {
        let point = Point { at: V::zero() };
        let at = Iso::from_translation(p);
        !self.bvh.for_each_overlap(&Aabb::new(p, p), |i| {
            let (s, pose) = &self.parts[i as usize];
            !intersects(s, pose, &point, &at)
        })
    }
}

impl<V: Vector3> Compound<V, ConvexPolytope<V>> {
    /// A compound with one part per object (`o` or `g`) of an OBJ text — how V-HACD and CoACD write a convex
    /// decomposition: each part is the convex hull of its object's vertices, at the identity pose.
    pub fn from_obj(text: &str) -> Result<Self, ShapeError> {
        let (vertices, objects) = parse_obj(text).map_err(|_| ShapeError::Invalid("the OBJ text could not be read"))?;
        let mut parts = Vec::with_capacity(objects.len());
        for o in &objects {
            let mut used: Vec<u32> = o.triangles.iter().flatten().copied().collect();
            if used.is_empty() {
                used.extend(o.declared.clone());
            }
            used.sort_unstable();
            used.dedup();
            let points: Vec<V> = used.iter().map(|&i| V::from_f64_slice(&vertices[i as usize])).collect();
            parts.push((ConvexPolytope::new(&points)?, Iso::identity()));
        }
        Self::new(parts)
    }
}

impl<V: Vector3> TriMesh<V> {
    /// Every face of an OBJ text as one mesh (objects and groups merged).
    pub fn from_obj(text: &str) -> Result<Self, ShapeError> {
        let (vertices, objects) = parse_obj(text).map_err(|_| ShapeError::Invalid("the OBJ text could not be read"))?;
        let vertices: Vec<V> = vertices.iter().map(|p| V::from_f64_slice(p)).collect();
        let triangles: Vec<[u32; 3]> = objects.iter().flat_map(|o| o.triangles.iter().copied()).collect();
        Self::new(vertices, triangles)
    }
}

impl<V: Vector, S: SupportMap<V>> Composite<V> for Compound<V, S> {
    type Leaf<'a>
        = &'a S
    where
        S: 'a;

    #[inline]
    fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }
    #[inline]
    fn leaf(&self, id: u32) -> &S {
        &self.parts[id as usize].0
    }
    #[inline]
    fn leaf_pose(&self, id: u32) -> Option<&Iso<V>> {
        Some(&self.parts[id as usize].1)
    }
    fn contains_local(&self, p: V) -> bool {
        self.contains_local_point(p)
    }
    fn is_solid(&self) -> bool {
        true
    }
}
