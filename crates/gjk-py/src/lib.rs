//! Python bindings of the gjk library: the `gjk._gjk` extension module behind the `gjk` Python package.
//!
//! Thin by design: shapes are the library's shapes, queries the library's queries. The bindings only read numpy
//! arrays (poses, checked), dispatch on the shapes' space (2D/3D, float64/float32: [`space`]), release the GIL for
//! batches and spread them over cores ([`batch`]), and turn answers into small Python objects ([`query`]).

// `!(x <= tol)` is written on purpose (as in the library): unlike `x > tol` it is also true for NaN, so a NaN in a
// pose takes the error branch instead of passing a check.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod answer;
mod batch;
mod composite;
mod pose;
mod query;
mod shape;
mod simplices;
mod space;

use pyo3::prelude::*;

#[pymodule]
fn _gjk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    shape::register(m)?;
    composite::register(m)?;
    query::register(m)?;
    m.add_function(wrap_pyfunction!(batch::batch, m)?)?;
    m.add("ROTATION_TOLERANCE_F64", <gjk::math::DVec3 as space::Space>::ROTATION_TOLERANCE)?;
    m.add("ROTATION_TOLERANCE_F32", <gjk::math::Vec3 as space::Space>::ROTATION_TOLERANCE)?;
    Ok(())
}
