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
    /// Collapses a feature thinner than `width` to what it can be told from: a face whose points all lie within
    /// `width` of the line through its two farthest points becomes that edge, and an edge (or face) no longer than
    /// `width` becomes one of its points. A face's plane is fixed only to about (its points' rounding) / (its width)
    /// radians, so a sliver's "plane" can face any way around its long edge; a contact clipped against it and
    /// carried along the normal onto it lands anywhere (gjk-fuzz seed 59 case 3066: an f32 box 3e-9 thin, its face
    /// that wide under 1e-6 of rounding, gave a contact 1.0 outside the box). The ends keep their ids.
    pub(crate) fn collapse_thinner_than(&mut self, width: V::Real) {
        if self.len < 2 {
            return;
        }
        let pts = self.points();
        // The two farthest points, nearly: the farthest from the first, then the farthest from that one.
        let farthest = |from: V| {
            (1..pts.len()).fold(0, |best, i| {
                if (pts[i] - from).length_squared() > (pts[best] - from).length_squared() {
                    i
                } else {
                    best
                }
            })
        };
        let i = farthest(pts[0]);
        let j = farthest(pts[i]);
        let (p, q) = (pts[i], pts[j]);
        let e = q - p;
        let ee = e.length_squared();
        if !(ee > width * width) {
            let id = self.ids[i];
            self.len = 1;
            self.points[0] = p;
            self.ids[0] = id;
            return;
        }
        let off_line = |x: V| {
            let d = x - p;
            (d - e * (d.dot(e) / ee)).length_squared()
        };
        if self.len == 2 || pts.iter().any(|x| !(off_line(*x) <= width * width)) {
            return;
        }
        let (id_p, id_q) = (self.ids[i], self.ids[j]);
        self.len = 2;
        self.points[..2].copy_from_slice(&[p, q]);
        self.ids[..2].copy_from_slice(&[id_p, id_q]);
    }
    /// Applies `f` to every point (moving the feature to another frame).
    pub fn map(&mut self, f: impl Fn(V) -> V) {
        for p in &mut self.points[..self.len] {
            *p = f(*p);
        }
    }
}
