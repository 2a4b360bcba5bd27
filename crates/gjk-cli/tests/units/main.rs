//! The library's own tests, one module per library module. They live here, not in `#[cfg(test)]` modules, so that
//! `cargo test` builds the library once (a test build of the library compiled it all a second time: about a tenth
//! of CI's Rust build); `[lib] test = false` in Cargo.toml.

mod mesh;
mod query;
mod recover;
mod stream;
