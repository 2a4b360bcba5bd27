//! Poses from numpy arrays: homogeneous matrices or translation + rotation rows, checked and turned into the
//! library's [`Iso`].
//!
//! Every pose array has a leading row axis (a single pose is one row):
//! * `[N, D+1, D+1]` homogeneous matrices (what trimesh and pybullet users hold): the rotation block must be
//!   orthonormal with determinant +1 within the space's tolerance and the last row must be `[0, …, 0, 1]`;
//! * `[N, 7]` in 3D: translation x, y, z then the quaternion **x, y, z, w** (scalar last, as scipy and pybullet),
//!   of unit norm within the tolerance;
//! * `[N, 3]` in 2D: translation x, y then the angle in radians (counter-clockwise).
//!
//! An accepted rotation is re-normalised (a quaternion divided by its norm; a matrix through its quaternion), so
//! the query runs on an exact rotation next to the one given.

use gjk::math::{Iso, Real, Vector};
use numpy::ndarray::{ArrayViewD, Axis};

use crate::space::Space;

/// A checked pose array.
pub struct Poses<'a, V: Space> {
    rows: usize,
    /// Numbers per pose: (D+1)² for a matrix, D + rotation for a row.
    width: usize,
    matrix: bool,
    data: Data<'a, V>,
}

enum Data<'a, V: Space> {
    /// Every row is the same pose (a broadcast axis or a single row): read and checked once.
    Same(Result<Iso<V>, String>),
    /// C-contiguous numbers, row after row.
    Flat(&'a [V::Scalar]),
    /// Any other layout, read through the view.
    View(ArrayViewD<'a, V::Scalar>),
}

impl<'a, V: Space> Poses<'a, V> {
    /// Checks the array's shape (each row's numbers are checked when read).
    pub fn new(view: ArrayViewD<'a, V::Scalar>, what: &str) -> Result<Self, String> {
        let d = V::DIM;
        let shape = view.shape().to_vec();
        let (matrix, width) = match shape.as_slice() {
            [_, r, c] if *r == d + 1 && *c == d + 1 => (true, (d + 1) * (d + 1)),
            [_, w] if *w == d + V::ROTATION_LEN => (false, *w),
            _ => {
                let row = if d == 3 { "7 (x, y, z, qx, qy, qz, qw)" } else { "3 (x, y, angle)" };
                return Err(format!(
                    "{what} has shape {shape:?}; {d}D poses are [N, {m}, {m}] matrices or [N, {row}] rows",
                    m = d + 1
                ));
            }
        };
        let rows = shape[0];
        let mut poses = Poses { rows, width, matrix, data: Data::View(view) };
        let Data::View(view) = &poses.data else { unreachable!() };
        if rows > 1 && view.strides()[0] == 0 {
            poses.data = Data::Same(poses.read(0));
        } else if let Some(flat) = view.to_slice() {
            poses.data = Data::Flat(flat);
        }
        Ok(poses)
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Row `i` as a pose, or why it is not one.
    pub fn get(&self, i: usize) -> Result<Iso<V>, String> {
        match &self.data {
            Data::Same(pose) => pose.clone(),
            _ => self.read(i),
        }
    }

    fn read(&self, i: usize) -> Result<Iso<V>, String> {
        let mut buf = [0.0; 16];
        let row = &mut buf[..self.width];
        match &self.data {
            Data::Flat(flat) => {
                for (o, x) in row.iter_mut().zip(&flat[i * self.width..(i + 1) * self.width]) {
                    *o = x.to_f64();
                }
            }
            Data::View(view) => {
                for (o, x) in row.iter_mut().zip(view.index_axis(Axis(0), i).iter()) {
                    *o = x.to_f64();
                }
            }
            Data::Same(pose) => return pose.clone(),
        }
        if self.matrix {
            matrix_pose::<V>(row)
        } else {
            row_pose::<V>(row)
        }
    }
}

/// A pose from a row-major homogeneous matrix.
fn matrix_pose<V: Space>(m: &[f64]) -> Result<Iso<V>, String> {
    let d = V::DIM;
    if m.iter().any(|x| !x.is_finite()) {
        return Err("the matrix is not finite (NaN or infinite)".into());
    }
    let tol = V::ROTATION_TOLERANCE;
    let last = &m[d * (d + 1)..];
    if last[..d].iter().any(|x| x.abs() > tol) || (last[d] - 1.0).abs() > tol {
        return Err(format!("the last row of a homogeneous matrix must be [0, …, 0, 1], got {last:?}"));
    }
    let mut rot = [0.0; 9];
    for r in 0..d {
        for c in 0..d {
            rot[r * d + c] = m[r * (d + 1) + c];
        }
    }
    let rot = &rot[..d * d];
    check_rotation(rot, d, tol)?;
    let rotation = V::rotation_from_matrix(rot).ok_or("the rotation block is degenerate")?;
    let translation = V::from_fn(|r| V::Scalar::from_f64(m[r * (d + 1) + d]));
    Ok(Iso::new(rotation, translation))
}

/// A pose from a row: translation, then the quaternion (x, y, z, w) in 3D or the angle in 2D.
fn row_pose<V: Space>(row: &[f64]) -> Result<Iso<V>, String> {
    let d = V::DIM;
    if row.iter().any(|x| !x.is_finite()) {
        return Err(format!("the pose {row:?} is not finite (NaN or infinite)"));
    }
    let rotation = V::rotation_from_row(&row[d..])?;
    Ok(Iso::new(rotation, V::from_fn(|j| V::Scalar::from_f64(row[j]))))
}

/// Checks that a row-major `d × d` matrix is a rotation: RᵀR = I within `tol` entry by entry, determinant > 0.
fn check_rotation(r: &[f64], d: usize, tol: f64) -> Result<(), String> {
    for i in 0..d {
        for j in 0..d {
            let dot: f64 = (0..d).map(|k| r[k * d + i] * r[k * d + j]).sum();
            let want = if i == j { 1.0 } else { 0.0 };
            if !((dot - want).abs() <= tol) {
                return Err(format!(
                    "the rotation block {r:?} is not orthonormal: (RᵀR)[{i}][{j}] = {dot} (tolerance {tol})"
                ));
            }
        }
    }
    let det = if d == 2 {
        r[0] * r[3] - r[1] * r[2]
    } else {
        r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) + r[2] * (r[3] * r[7] - r[4] * r[6])
    };
    if !(det > 0.0) {
        return Err(format!("the rotation block {r:?} is a reflection (determinant {det})"));
    }
    Ok(())
}

/// A vector of `V`'s space from a numpy row of exactly `DIM` finite numbers.
pub fn vector<V: Space>(values: &[f64], what: &str) -> Result<V, String> {
    if values.len() != V::DIM {
        return Err(format!("{what} must have {} numbers, got {}", V::DIM, values.len()));
    }
    if values.iter().any(|x| !x.is_finite()) {
        return Err(format!("{what} {values:?} is not finite (NaN or infinite)"));
    }
    Ok(V::from_fn(|i| V::Scalar::from_f64(values[i])))
}

/// Coordinates of a vector as f64 (for building numpy arrays of the space's dtype).
pub fn coords<V: Vector>(v: V) -> impl Iterator<Item = V::Real> {
    (0..V::DIM).map(move |i| v.get(i))
}
