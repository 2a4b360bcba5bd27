use super::facet::Facet;
use super::Composite;
use crate::bvh::Bvh;
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use crate::math::{Real, Vector, Vector2, Vector3};
use crate::shape::{Aabb, ShapeError, SupportMap};
use alloc::vec::Vec;

/// Terrain: a regular grid of heights along the local y axis, solid below. No triangle is stored: each grid cell's
/// two triangles (in 3D; its segment in 2D) are made from the heights when a query visits the cell, through a
/// [`Bvh`] over the cells' triangles.
///
/// In 3D, sample `(row r, column c)` sits at `(c·dx, heights[r·cols + c], r·dz)`; cell `(r, c)` is split along its
/// diagonal from `(r, c)` to `(r+1, c+1)` into triangles `2·(r·(cols−1) + c)` and that `+ 1`. In 2D sample `i` sits at
/// `(i·dx, heights[i])` and segment `i` joins samples `i` and `i + 1`. Points below the surface and within the grid's
/// footprint are inside.
///
/// ```
/// use gjk::composite::HeightField;
/// use gjk::math::DVec3;
/// // A 3 × 3 grid of samples one metre apart with a bump in the middle.
/// let terrain = HeightField::<DVec3>::grid(vec![0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], 3, 3, 1.0, 1.0).unwrap();
/// assert_eq!(terrain.triangle_count(), 8);
/// assert!((terrain.height_at(1.0, 1.0).unwrap() - 1.0).abs() < 1e-12);
/// assert!(terrain.contains_local_point(DVec3::new(1.0, 0.5, 1.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HeightField<V: Vector> {
    heights: Vec<V::Real>,
    rows: usize,
    cols: usize,
    dx: V::Real,
    dz: V::Real,
    bvh: Bvh<V>,
}

impl<V: Vector3> HeightField<V> {
    /// A grid of `rows × cols` samples (at least 2 × 2), row-major, spaced `dx` along x and `dz` along z.
    pub fn grid(heights: Vec<V::Real>, rows: usize, cols: usize, dx: V::Real, dz: V::Real) -> Result<Self, ShapeError> {
        if rows < 2 || cols < 2 || heights.len() != rows * cols {
            return Err(ShapeError::Invalid("a height grid needs rows × cols ≥ 2 × 2 samples"));
        }
        Self::build(heights, rows, cols, dx, dz)
    }
}

impl<V: Vector2> HeightField<V> {
    /// A profile of at least two samples spaced `dx` along x.
    pub fn line(heights: Vec<V::Real>, dx: V::Real) -> Result<Self, ShapeError> {
        if heights.len() < 2 {
            return Err(ShapeError::Invalid("a height profile needs at least two samples"));
        }
        let n = heights.len();
        Self::build(heights, 1, n, dx, V::Real::ONE)
    }
}

impl<V: Vector> HeightField<V> {
    fn build(heights: Vec<V::Real>, rows: usize, cols: usize, dx: V::Real, dz: V::Real) -> Result<Self, ShapeError> {
        if heights.iter().any(|h| !h.is_finite()) {
            return Err(ShapeError::NonFinite("height"));
        }
        if !(dx > V::Real::ZERO && dz > V::Real::ZERO && dx.is_finite() && dz.is_finite()) {
            return Err(ShapeError::Invalid("the grid spacing must be positive and finite"));
        }
        let mut field = Self { heights, rows, cols, dx, dz, bvh: Bvh::new(&[]) };
        field.bvh = Bvh::new(&field.boxes());
        Ok(field)
    }

    fn boxes(&self) -> Vec<Aabb<V>> {
        (0..self.triangle_count() as u32).map(|i| self.triangle(i).local_aabb()).collect()
    }

    /// Number of leaves: two triangles per cell in 3D, one segment per cell in 2D.
    pub fn triangle_count(&self) -> usize {
        if V::DIM == 2 {
            self.cols - 1
        } else {
            2 * (self.rows - 1) * (self.cols - 1)
        }
    }

    /// The sample at `(row, col)` as a point.
    #[inline]
    fn sample(&self, row: usize, col: usize) -> V {
        let h = self.heights[row * self.cols + col];
        let (x, z) = (self.dx * V::Real::from_f64(col as f64), self.dz * V::Real::from_f64(row as f64));
        V::from_fn(|i| match i {
            0 => x,
            1 => h,
            _ => z,
        })
    }

    /// Leaf `i`: a triangle of a cell (3D) or a segment (2D).
    #[inline]
    pub fn triangle(&self, i: u32) -> Facet<V> {
        let i = i as usize;
        if V::DIM == 2 {
            let (a, b) = (self.sample(0, i), self.sample(0, i + 1));
            return Facet::new([a, b, b]);
        }
        let cell = i / 2;
        let (r, c) = (cell / (self.cols - 1), cell % (self.cols - 1));
        let (p00, p01, p10, p11) =
            (self.sample(r, c), self.sample(r, c + 1), self.sample(r + 1, c), self.sample(r + 1, c + 1));
        // Both wound so that their normal points up (+y): x × z = −y, so go from x toward z the other way round.
        if i.is_multiple_of(2) {
            Facet::new([p00, p11, p01])
        } else {
            Facet::new([p00, p10, p11])
        }
    }

    /// Replaces the heights (same count) and refits the tree.
    pub fn set_heights(&mut self, heights: Vec<V::Real>) -> Result<(), ShapeError> {
        if heights.len() != self.heights.len() {
            return Err(ShapeError::Invalid("the height count must not change"));
        }
        if heights.iter().any(|h| !h.is_finite()) {
            return Err(ShapeError::NonFinite("height"));
        }
        self.heights = heights;
        let boxes = self.boxes();
        self.bvh.refit(&boxes);
        Ok(())
    }

    /// The surface's height above `(x, z)` (local; `z` ignored in 2D), `None` outside the footprint.
    pub fn height_at(&self, x: V::Real, z: V::Real) -> Option<V::Real> {
        let u = (x / self.dx).to_f64();
        let w = if V::DIM == 2 { 0.0 } else { (z / self.dz).to_f64() };
        let (cmax, rmax) = ((self.cols - 1) as f64, (self.rows.max(2) - 1) as f64);
        if !(u >= 0.0 && u <= cmax && w >= 0.0 && (V::DIM == 2 || w <= rmax)) {
            return None;
        }
        let c = (u.floor() as usize).min(self.cols - 2);
        let h = |r: usize, c: usize| self.heights[r * self.cols + c].to_f64();
        let fu = u - c as f64;
        if V::DIM == 2 {
            return Some(V::Real::from_f64(h(0, c) * (1.0 - fu) + h(0, c + 1) * fu));
        }
        let r = (w.floor() as usize).min(self.rows - 2);
        let fw = w - r as f64;
        // The diagonal from (r, c) to (r+1, c+1) splits the cell: below it (fu ≥ fw) the triangle 00–11–01.
        let y = if fu >= fw {
            h(r, c) + (h(r, c + 1) - h(r, c)) * fu + (h(r + 1, c + 1) - h(r, c + 1)) * fw
        } else {
            h(r, c) + (h(r + 1, c) - h(r, c)) * fw + (h(r + 1, c + 1) - h(r + 1, c)) * fu
        };
        Some(V::Real::from_f64(y))
    }

    /// Whether a local point is below (or on) the surface, within the footprint.
    pub fn contains_local_point(&self, p: V) -> bool {
        let z = if V::DIM == 2 { V::Real::ZERO } else { p.get(2) };
        self.height_at(p.get(0), z).is_some_and(|h| p.get(1) <= h)
    }

    /// Heap bytes held (heights and tree): no triangle is stored.
    pub fn memory_bytes(&self) -> usize {
        self.heights.capacity() * core::mem::size_of::<V::Real>() + self.bvh.memory_bytes()
    }
}

impl<V: Vector> HeightField<V> {
    /// The leaf across ridge `k` of leaf `i` (see [`HeightField::triangle`] for the corner order), `None` on the
    /// grid's boundary. 3D, cell (r, c): triangle 0 is (00, 11, 01), its ridges the diagonal (→ triangle 1 of the
    /// cell), the side x = c+1 (→ triangle 1 of cell (r, c+1)) and the side z = r (→ triangle 1 of cell (r−1, c));
    /// triangle 1 is (00, 10, 11), its ridges the side x = c (→ triangle 0 of cell (r, c−1)), the side z = r+1
    /// (→ triangle 0 of cell (r+1, c)) and the diagonal. 2D: corner 0 of segment i is shared with segment i−1,
    /// corner 1 with segment i+1.
    fn neighbour(&self, i: usize, k: usize) -> Option<usize> {
        let cells = self.cols - 1;
        if V::DIM == 2 {
            return if k == 0 { i.checked_sub(1) } else { (i + 1 < cells).then_some(i + 1) };
        }
        let (cell, odd) = (i / 2, i % 2 == 1);
        let (r, c) = (cell / cells, cell % cells);
        let at = |r: usize, c: usize, t: usize| 2 * (r * cells + c) + t;
        match (odd, k) {
            (false, 0) | (true, 2) => Some(at(r, c, 1 - i % 2)),
            (false, 1) => (c + 1 < cells).then(|| at(r, c + 1, 1)),
            (false, _) => r.checked_sub(1).map(|r| at(r, c, 1)),
            (true, 0) => c.checked_sub(1).map(|c| at(r, c, 0)),
            (true, _) => (r + 2 < self.rows).then(|| at(r + 1, c, 0)),
        }
    }

    /// Active ridges of leaf `i`, from its neighbours' normals (all point up, so a flat ridge has equal normals).
    fn active_ridges(&self, i: usize) -> u8 {
        let Some(n) = self.triangle(i as u32).normal() else { return 0b111 };
        (0..V::DIM).fold(0u8, |mask, k| {
            let flat = self
                .neighbour(i, k)
                .and_then(|j| self.triangle(j as u32).normal())
                .is_some_and(|m| n.dot(m).to_f64() > super::FLAT_RIDGE_COS);
            if flat {
                mask
            } else {
                mask | 1 << k
            }
        })
    }
}

impl<V: Vector> Composite<V> for HeightField<V> {
    type Leaf<'a> = Facet<V>;

    #[inline]
    fn bvh(&self) -> &Bvh<V> {
        &self.bvh
    }
    #[inline]
    fn leaf(&self, id: u32) -> Facet<V> {
        self.triangle(id)
    }
    fn leaf_triangle(&self, id: u32) -> Option<[V; 3]> {
        (V::DIM == 3).then(|| self.triangle(id).corners)
    }
    fn leaf_ray_cast(&self, id: u32, origin: V, dir: V, max_t: V::Real) -> Option<(V::Real, V)> {
        self.triangle(id).ray_cast(origin, dir, max_t)
    }
    fn leaf_closest_point(&self, id: u32, p: V) -> V {
        self.triangle(id).closest_point(p).0
    }
    fn contains_local(&self, p: V) -> bool {
        self.contains_local_point(p)
    }
    fn is_solid(&self) -> bool {
        true
    }
    fn outward(&self, id: u32) -> Option<V> {
        // 3D triangles are wound so that their normal points up (out of the ground). A 2D segment runs toward +x,
        // and a facet's 2D normal is its direction turned clockwise, which points down: up is its opposite.
        let n = self.triangle(id).normal()?;
        Some(if V::DIM == 2 { -n } else { n })
    }
    fn flat_leaf(&self, id: u32) -> Option<V> {
        if self.active_ridges(id as usize) == 0 {
            self.triangle(id).normal()
        } else {
            None
        }
    }
    fn correct_normal(&self, id: u32, point: V, normal: V) -> V {
        super::trimesh::correct_normal(|| self.triangle(id), self.active_ridges(id as usize), point, normal)
    }
}
