//! What a mesh knows about its facets' neighbours, built once: which ridges (edges in 3D, corners in 2D) are
//! *active* (may produce their own contact normals), whether the mesh is closed and consistently oriented (then it
//! is solid), and for solid meshes the pseudo-normals of Bærentzen & Aanæs ("Signed distance computation using the
//! angle weighted pseudonormal", IEEE TVCG 2005), which decide whether a point is inside from its closest feature.
//!
//! Ridge `k` of a facet: in 3D the edge from corner `k` to corner `k + 1`, in 2D corner `k` itself (a segment's
//! end). Two facets sharing a ridge are consistently oriented when they traverse it in opposite directions (3D) or
//! one ends where the other starts (2D).

use super::facet::Facet;
#[cfg(not(feature = "std"))]
use crate::math::libm_float::LibmFloat;
use crate::math::{Real, Vector};
use alloc::{vec, vec::Vec};

/// Two facets whose unit normals have a dot product above this are flat across their shared ridge (an angle under
/// 1°): the ridge is inactive, so a shape sliding over a flat tessellation only ever sees the face normal (the
/// ghost-contact test `box_slides_over_flat_mesh_without_bumps`).
pub const FLAT_RIDGE_COS: f64 = 0.999_847_695_156_391_3;

/// The neighbourhood of every facet.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Topology<V> {
    /// Bit `k` set when ridge `k` of the facet is active: on the boundary, shared by more than two facets, or
    /// bent by more than [`FLAT_RIDGE_COS`].
    pub active: Vec<u8>,
    /// Present when the mesh is closed and consistently oriented.
    pub solid: Option<Solid<V>>,
}

/// Pseudo-normals of a solid mesh, all pointing out.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Solid<V> {
    /// Unit outward normal of each facet (zero for a degenerate facet).
    pub face: Vec<V>,
    /// Ridge pseudo-normal, `DIM` per facet: the sum of the two facets' normals.
    pub ridge: Vec<V>,
    /// Vertex pseudo-normal (3D): the angle-weighted sum of the incident facets' normals. Empty in 2D, where a
    /// vertex is a ridge.
    pub vertex: Vec<V>,
}

pub(crate) fn build<V: Vector>(vertices: &[V], facets: &[[u32; 3]]) -> Topology<V> {
    let dim = V::DIM;
    let facet = |f: usize| Facet::new(facets[f].map(|i| vertices[i as usize]));
    let normals: Vec<Option<V>> = (0..facets.len()).map(|f| facet(f).normal()).collect();
    // Every ridge as (key, direction, facet·DIM + k), sorted by key so that shared ridges sit together.
    let ridge = |f: usize, k: usize| -> ((u32, u32), bool) {
        let idx = facets[f];
        if dim == 2 {
            ((idx[k], idx[k]), k == 0)
        } else {
            let (a, b) = (idx[k], idx[(k + 1) % 3]);
            ((a.min(b), a.max(b)), a < b)
        }
    };
    let mut ridges: Vec<((u32, u32), bool, u32)> = (0..facets.len())
        .flat_map(|f| (0..dim).map(move |k| (f, k)))
        .map(|(f, k)| {
            let (key, dir) = ridge(f, k);
            (key, dir, (f * dim + k) as u32)
        })
        .collect();
    ridges.sort_unstable();
    let mut active = vec![0u8; facets.len()];
    let mut neighbour: Vec<Option<(u32, bool)>> = vec![None; facets.len() * dim];
    let mut closed = !facets.is_empty();
    let mut start = 0;
    while start < ridges.len() {
        let end = (start..ridges.len()).find(|&i| ridges[i].0 != ridges[start].0).unwrap_or(ridges.len());
        let group = &ridges[start..end];
        if group.len() == 2 {
            let consistent = group[0].1 != group[1].1;
            closed &= consistent;
            let (r0, r1) = (group[0].2, group[1].2);
            neighbour[r0 as usize] = Some((r1, consistent));
            neighbour[r1 as usize] = Some((r0, consistent));
        } else {
            closed = false;
        }
        start = end;
    }
    for (r, n) in neighbour.iter().enumerate() {
        let (f, k) = (r / dim, r % dim);
        let is_active = match (n, normals[f]) {
            (Some((other, consistent)), Some(n1)) => match normals[*other as usize / dim] {
                // Consistently oriented neighbours' normals agree on a flat ridge; otherwise one is flipped.
                Some(n2) => {
                    let n2 = if *consistent { n2 } else { -n2 };
                    !(n1.dot(n2).to_f64() > FLAT_RIDGE_COS)
                }
                None => true,
            },
            _ => true,
        };
        if is_active {
            active[f] |= 1 << k;
        }
    }
    let solid = closed.then(|| solid(vertices, facets, &normals, &neighbour));
    Topology { active, solid }
}

/// The pseudo-normals of a closed, consistently oriented mesh, turned outward (the mesh's orientation is found
/// from the sign of its volume, area in 2D).
fn solid<V: Vector>(
    vertices: &[V],
    facets: &[[u32; 3]],
    normals: &[Option<V>],
    neighbour: &[Option<(u32, bool)>],
) -> Solid<V> {
    let dim = V::DIM;
    // Signed volume (3D) or area (2D), times DIM!: Σ det of each facet's corners, with the facet normal's sign
    // convention of `Facet::normal` (a counter-clockwise polygon and an outward-wound mesh come out positive).
    let measure = facets.iter().fold(0.0f64, |s, f| {
        let p = f.map(|i| vertices[i as usize].to_f64_array());
        s + if dim == 2 {
            p[0][0] * p[1][1] - p[0][1] * p[1][0]
        } else {
            let (a, b, c) = (p[0], p[1], p[2]);
            a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])
        }
    });
    // In 2D, Facet::normal turns the segment clockwise, which is outward for a counter-clockwise (positive)
    // polygon; in 3D the right-hand normal is outward for a positive volume.
    let out = if measure >= 0.0 { V::Real::ONE } else { -V::Real::ONE };
    let face: Vec<V> = normals.iter().map(|n| n.map_or(V::zero(), |n| n * out)).collect();
    let ridge: Vec<V> = (0..facets.len() * dim)
        .map(|r| {
            let own = face[r / dim];
            neighbour[r].map_or(own, |(other, _)| own + face[other as usize / dim])
        })
        .collect();
    let mut vertex = Vec::new();
    if dim == 3 {
        vertex = vec![V::zero(); vertices.len()];
        for (f, idx) in facets.iter().enumerate() {
            for k in 0..3 {
                let (p, q, r) = (
                    vertices[idx[k] as usize],
                    vertices[idx[(k + 1) % 3] as usize],
                    vertices[idx[(k + 2) % 3] as usize],
                );
                let (u, w) = ((q - p).normalize_or_zero(), (r - p).normalize_or_zero());
                let angle = V::Real::from_f64(u.dot(w).to_f64().clamp(-1.0, 1.0).acos());
                vertex[idx[k] as usize] += face[f] * angle;
            }
        }
    }
    Solid { face, ridge, vertex }
}
