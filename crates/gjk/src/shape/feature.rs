use crate::math::Vector;

/// Most points a supporting feature holds (a hull face with more vertices is reported as its support vertex).
pub const MAX_FEATURE_POINTS: usize = 32;

/// The feature of a shape's core that supports a direction: a vertex (one point), an edge (two) or a face (its
/// vertices in order around it), each point with an id stable across frames (a vertex index), and an id for the
/// feature itself. Contact manifolds clip these against each other.
#[derive(Clone, Copy, Debug)]
pub struct Feature<V> {
    /// The points (the first `len`), in the shape's local frame.
    pub points: [V; MAX_FEATURE_POINTS],
    /// An id per point (vertex index).
    pub ids: [u32; MAX_FEATURE_POINTS],
    /// How many points.
    pub len: usize,
    /// Which face, edge or vertex of the shape this is.
    pub id: u32,
}

impl<V: Vector> Default for Feature<V> {
    #[inline]
    fn default() -> Self {
        Self { points: [V::zero(); MAX_FEATURE_POINTS], ids: [0; MAX_FEATURE_POINTS], len: 0, id: 0 }
    }
}

impl<V: Vector> Feature<V> {
    /// Empties it and sets the feature id.
    pub fn reset(&mut self, id: u32) {
        self.len = 0;
        self.id = id;
    }
    /// Appends a point (ignored when full).
    pub fn push(&mut self, p: V, id: u32) {
        if self.len < MAX_FEATURE_POINTS {
            self.points[self.len] = p;
            self.ids[self.len] = id;
            self.len += 1;
        }
    }
    /// The single point `p`.
    pub fn single(&mut self, p: V, id: u32) {
        self.reset(id);
        self.push(p, id);
    }
    /// The used points.
    pub fn points(&self) -> &[V] {
        &self.points[..self.len]
    }
    /// Applies `f` to every point (moving the feature to another frame).
    pub fn map(&mut self, f: impl Fn(V) -> V) {
        for p in &mut self.points[..self.len] {
            *p = f(*p);
        }
    }
}
