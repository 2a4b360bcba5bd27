//! Rays through the GJK path (a polygon or polytope known only by its support function, so no closed form is
//! taken) starting on the boundary — exactly on a vertex, an edge or a face as far as rounding allows, so within
//! rounding inside or outside — and around it, against an independent reference: the ray clipped in f64 by the
//! shape's own half-spaces (a hull computed here by monotone chain in 2D; a tetrahedron's or a box's faces in 3D).
//! gjk-fuzz seed 1 case 4505 (a 2D polygon, a ray from its leftmost vertex heading in, answered as a miss) is the
//! configuration that broke; this covers its kin in 2D and 3D, f64 and f32, near the origin and at 1e4–1e5.

use crate::common::{self, Space2, Space3};

use gjk::cast::ray_cast;
use gjk::math::{DVec2, DVec3, Real};
use gjk::shape::{ConvexPolytope, SupportFn, SupportMap};
use rand::rngs::SmallRng;
use rand::Rng;

/// A convex shape as half-spaces n·x ≤ c (unit n, local frame, f64) and its vertices.
struct Planes {
    planes: Vec<(Vec<f64>, f64)>,
    vertices: Vec<Vec<f64>>,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl Planes {
    /// The stretch [t_in, t_out] of the line o + t·d within every half-space grown by `grow`, or `None`.
    fn clip(&self, o: &[f64], d: &[f64], grow: f64) -> Option<(f64, f64)> {
        let (mut t_in, mut t_out) = (f64::NEG_INFINITY, f64::INFINITY);
        for (n, c) in &self.planes {
            let (nd, gap) = (dot(n, d), c + grow - dot(n, o));
            if nd == 0.0 {
                if gap < 0.0 {
                    return None;
                }
            } else if nd < 0.0 {
                t_in = t_in.max(gap / nd);
            } else {
                t_out = t_out.min(gap / nd);
            }
        }
        (t_in <= t_out).then_some((t_in, t_out))
    }
    /// How far the shape reaches along `n`.
    fn support_value(&self, n: &[f64]) -> f64 {
        self.vertices.iter().map(|v| dot(n, v)).fold(f64::NEG_INFINITY, f64::max)
    }
}

/// The 2D convex hull, counter-clockwise (Andrew's monotone chain), as half-planes.
fn hull2(points: &[DVec2]) -> Planes {
    let mut p = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let cross = |o: DVec2, a: DVec2, b: DVec2| (a - o).perp_dot(b - o);
    let mut h: Vec<DVec2> = Vec::new();
    for pass in 0..2 {
        let start = h.len();
        let iter: Vec<DVec2> = if pass == 0 { p.clone() } else { p.iter().rev().copied().collect() };
        for q in iter {
            while h.len() >= start + 2 && cross(h[h.len() - 2], h[h.len() - 1], q) <= 0.0 {
                h.pop();
            }
            h.push(q);
        }
        h.pop();
    }
    let planes = (0..h.len())
        .map(|i| {
            let (a, b) = (h[i], h[(i + 1) % h.len()]);
            let n = DVec2::new((b - a).y, -(b - a).x).normalize();
            (vec![n.x, n.y], n.dot(a))
        })
        .collect();
    Planes { planes, vertices: h.iter().map(|v| vec![v.x, v.y]).collect() }
}

/// A tetrahedron's four faces, oriented away from the opposite vertex.
fn tetra_planes(v: &[DVec3; 4]) -> Planes {
    let planes = (0..4)
        .map(|k| {
            let f: Vec<DVec3> = (0..4).filter(|&i| i != k).map(|i| v[i]).collect();
            let mut n = (f[1] - f[0]).cross(f[2] - f[0]).normalize();
            if n.dot(v[k] - f[0]) > 0.0 {
                n = -n;
            }
            (vec![n.x, n.y, n.z], n.dot(f[0]))
        })
        .collect();
    Planes { planes, vertices: v.iter().map(|p| vec![p.x, p.y, p.z]).collect() }
}

/// A point on the boundary of the convex hull of `v` (a vertex, a point of an edge or a face of its vertices, or
/// an interior mix), and a direction: at random, toward the centroid, or away from it.
fn start<V: Copy + std::ops::Add<Output = V> + std::ops::Sub<Output = V> + std::ops::Mul<f64, Output = V>>(
    r: &mut SmallRng,
    v: &[V],
    face: &[usize],
    random_dir: V,
) -> (V, V) {
    let centroid = v.iter().skip(1).fold(v[0], |s, p| s + *p) * (1.0 / v.len() as f64);
    let pick = |r: &mut SmallRng| v[r.gen_range(0..v.len())];
    let o = match r.gen_range(0..4) {
        0 => pick(r),
        1 => {
            let (a, b) = (pick(r), pick(r));
            a + (b - a) * r.gen::<f64>()
        }
        2 => {
            // A point of one facet: a convex mix of its vertices.
            let w: Vec<f64> = face.iter().map(|_| r.gen::<f64>()).collect();
            let total: f64 = w.iter().sum();
            face.iter().zip(&w).fold(v[face[0]] * 0.0, |s, (&i, &wi)| s + v[i] * (wi / total))
        }
        _ => centroid + (pick(r) - centroid) * r.gen::<f64>(),
    };
    let d = match r.gen_range(0..3) {
        0 => random_dir,
        1 => (centroid - o) + random_dir * 0.3,
        _ => (o - centroid) + random_dir * 0.3,
    };
    (o, d)
}

/// Checks one answer against the reference, in the shape's local frame (f64): `o`, `d` the ray there, `toi` and
/// `normal` (local) of the answer; `tol` a distance.
#[allow(clippy::too_many_arguments)]
fn check(shape: &Planes, o: &[f64], d: &[f64], hit: Option<(f64, Vec<f64>)>, solid: bool, tol: f64, what: &str) {
    let dl = dot(d, d).sqrt();
    let exact = shape.clip(o, d, 0.0).filter(|s| s.1 >= 0.0);
    // Within the tolerance of touching the shape at all (the shape grown by `tol`), a ray may hit or not.
    let near = shape.clip(o, d, tol).filter(|s| s.1 >= 0.0);
    let Some((toi, n)) = hit else {
        // A miss: the ray must not cross the shape by more than the tolerance (grazing and touching excused).
        let shrunk = shape.clip(o, d, -tol).filter(|s| s.1 >= 0.0);
        assert!(shrunk.is_none(), "{what}: miss, but the ray crosses the shape over {shrunk:?} (exact {exact:?})");
        return;
    };
    let Some((t_in, t_out)) = near else {
        panic!("{what}: hit at {toi:e}, but the ray passes more than {tol:e} from the shape");
    };
    let (s_in, s_out) = (t_in * dl, t_out * dl);
    let s = toi * dl;
    assert!(s >= s_in - tol && s <= s_out + tol, "{what}: hit at {s:e} (distance), outside [{s_in:e}, {s_out:e}]");
    let (e_in, e_out) = exact.map_or((s_in, s_out), |(a, b)| (a * dl, b * dl));
    // How far the origin is outside the shape (negative: how deep inside; exact inside, a lower bound outside).
    let outside = shape.planes.iter().map(|(n, c)| dot(n, o) - c).fold(f64::NEG_INFINITY, f64::max);
    if solid || outside > tol {
        // The first point of the shape along the ray (0 from on or in it).
        assert!((s - e_in.max(0.0)).abs() <= 2.0 * tol, "{what}: hit at {s:e}, the ray enters at {e_in:e}");
    } else if outside < -tol {
        // Hollow, from inside: where the ray leaves.
        assert!((s - e_out).abs() <= 2.0 * tol, "{what}: hollow hit at {s:e}, the ray leaves at {e_out:e}");
    } else {
        // Hollow, from on the surface within the tolerance: entering here or leaving later are both right.
        let ok = s <= 2.0 * tol || (s - e_out).abs() <= 2.0 * tol || (s - e_in).abs() <= 2.0 * tol;
        assert!(ok, "{what}: hollow hit at {s:e} ({e_in:e}, {e_out:e})");
    }
    let nl = dot(&n, &n).sqrt();
    if nl == 0.0 {
        // No surface: only a solid hit at 0 from inside (or on a shape without volume).
        assert!(solid && s <= 2.0 * tol, "{what}: zero normal on a hit at {s:e}");
        return;
    }
    assert!((nl - 1.0).abs() < 1e-6, "{what}: |normal| = {nl}");
    // The normal's plane through the hit supports the shape.
    let p: Vec<f64> = o.iter().zip(d).map(|(a, b)| a + toi * b).collect();
    let h = shape.support_value(&n) - dot(&n, &p);
    assert!(h.abs() <= 4.0 * tol, "{what}: the normal {n:?}'s plane through the hit is {h:e} off the shape");
}

fn run2<V: Space2>(seed: u64, cases: usize, offsets: &[f64], tol: f64) -> usize {
    let mut r = common::rng(seed);
    let mut hits = 0;
    for case in 0..cases {
        let count = r.gen_range(3..12);
        let pts: Vec<V> = (0..count).map(|_| V::from64(common::in_square2(&mut r, 0.5))).collect();
        let pts64: Vec<DVec2> = pts.iter().map(|p| p.to64()).collect();
        let reference = hull2(&pts64);
        if reference.vertices.len() < 3 {
            continue;
        }
        let poly = ConvexPolytope::new(&pts).unwrap();
        let shape = SupportFn::<_, V::Real>::new(|d: V| poly.support(d));
        let offset = offsets[case % offsets.len()];
        let pose = V::pose_from64(&common::shifted(&common::pose2(&mut r, 1.0), common::unit2(&mut r) * offset));
        let pose64 = V::pose_to64(&pose);
        let hull: Vec<DVec2> = reference.vertices.iter().map(|v| DVec2::new(v[0], v[1])).collect();
        let edge = r.gen_range(0..hull.len());
        let dir = common::unit2(&mut r) * common::log_uniform(&mut r, 0.1, 10.0);
        let (o_local, d_local) = start(&mut r, &hull, &[edge, (edge + 1) % hull.len()], dir);
        let (origin, direction) =
            (V::from64(pose64.transform_point(o_local)), V::from64(pose64.transform_vector(d_local)));
        for solid in [true, false] {
            let got = ray_cast(&shape, &pose, origin, direction, V::Real::from_f64(1e3), solid);
            let (o, d) =
                (pose64.inverse_transform_point(origin.to64()), pose64.inverse_transform_vector(direction.to64()));
            let hit = got.hit.then(|| {
                let n = pose64.inverse_transform_vector(got.normal.to64());
                (got.toi.to_f64(), vec![n.x, n.y])
            });
            hits += usize::from(got.hit);
            let what = format!("2D {} case {case} offset {offset:e} solid {solid}: {got:?}", V::NAME);
            check(&reference, &[o.x, o.y], &[d.x, d.y], hit, solid, tol, &what);
        }
    }
    hits
}

fn run3<V: Space3>(seed: u64, cases: usize, offsets: &[f64], tol: f64) -> usize {
    let mut r = common::rng(seed);
    let mut hits = 0;
    for case in 0..cases {
        // A tetrahedron of some volume, or a box (its eight corners).
        let (pts, reference, faces): (Vec<V>, Planes, Vec<Vec<usize>>) = if case % 2 == 0 {
            let v: Vec<V> = (0..4).map(|_| V::from64(common::in_cube3(&mut r, 0.5))).collect();
            let v64: [DVec3; 4] = std::array::from_fn(|i| v[i].to64());
            if (v64[1] - v64[0]).cross(v64[2] - v64[0]).dot(v64[3] - v64[0]).abs() < 1e-3 {
                continue;
            }
            let faces = (0..4).map(|k| (0..4).filter(|&i| i != k).collect()).collect();
            (v, tetra_planes(&v64), faces)
        } else {
            let h = DVec3::new(r.gen_range(0.05..0.6), r.gen_range(0.05..0.6), r.gen_range(0.05..0.6));
            let h = V::from64(h).to64();
            let corners: Vec<DVec3> =
                (0..8).map(|i| DVec3::new(h.x, h.y, h.z) * DVec3::new(sign(i, 0), sign(i, 1), sign(i, 2))).collect();
            let mut planes = Vec::new();
            let mut faces = Vec::new();
            for axis in 0..3 {
                for s in [-1.0, 1.0] {
                    let mut n = vec![0.0; 3];
                    n[axis] = s;
                    planes.push((n, h.to_array()[axis]));
                    faces.push((0..8).filter(|&i| sign(i, axis) == s).collect());
                }
            }
            let vertices = corners.iter().map(|c| c.to_array().to_vec()).collect();
            (corners.iter().map(|c| V::from64(*c)).collect(), Planes { planes, vertices }, faces)
        };
        let poly = ConvexPolytope::new(&pts).unwrap();
        let shape = SupportFn::<_, V::Real>::new(|d: V| poly.support(d));
        let offset = offsets[case % offsets.len()];
        let pose = V::pose_from64(&common::shifted(&common::pose3(&mut r, 1.0), common::unit3(&mut r) * offset));
        let pose64 = V::pose_to64(&pose);
        let v64: Vec<DVec3> = pts.iter().map(|p| p.to64()).collect();
        let face = &faces[r.gen_range(0..faces.len())];
        let dir = common::unit3(&mut r) * common::log_uniform(&mut r, 0.1, 10.0);
        let (o_local, d_local) = start(&mut r, &v64, face, dir);
        let (origin, direction) =
            (V::from64(pose64.transform_point(o_local)), V::from64(pose64.transform_vector(d_local)));
        for solid in [true, false] {
            let got = ray_cast(&shape, &pose, origin, direction, V::Real::from_f64(1e3), solid);
            let (o, d) =
                (pose64.inverse_transform_point(origin.to64()), pose64.inverse_transform_vector(direction.to64()));
            let hit = got
                .hit
                .then(|| (got.toi.to_f64(), pose64.inverse_transform_vector(got.normal.to64()).to_array().to_vec()));
            hits += usize::from(got.hit);
            let what = format!("3D {} case {case} offset {offset:e} solid {solid}: {got:?}", V::NAME);
            check(&reference, &o.to_array(), &d.to_array(), hit, solid, tol, &what);
        }
    }
    hits
}

/// Corner i of a box: the sign of coordinate `axis`.
fn sign(i: usize, axis: usize) -> f64 {
    if i >> axis & 1 == 1 {
        1.0
    } else {
        -1.0
    }
}

/// f64: every answer within 1e-9 of the reference (the shapes are ~1 across), near the origin and 1e4–1e5 off it
/// (there the world → local rounding, ~1e-11, stays well inside the tolerance).
#[test]
fn gjk_path_rays_from_the_boundary_agree_with_clipping_f64() {
    let offsets = [0.0, 1e4, 3e4, 1e5];
    let hits = run2::<DVec2>(11, 3000, &offsets, 1e-9) + run3::<DVec3>(12, 3000, &offsets, 1e-9);
    // Most rays start on the shape: most answers are hits (a test of misses alone would prove little).
    assert!(hits > 6000, "{hits} hits of 12000 rays");
}

/// f32: the same within 1e-4 (f32's ε is 1.2e-7; its GJK distances carry 16 ε of the size and the support
/// points' rounding, well within 1e-4 of shapes ~1 across), near the origin and 10 off it.
#[test]
fn gjk_path_rays_from_the_boundary_agree_with_clipping_f32() {
    let offsets = [0.0, 10.0];
    let hits = run2::<gjk::math::Vec2>(13, 2000, &offsets, 1e-4) + run3::<gjk::math::Vec3>(14, 2000, &offsets, 1e-4);
    assert!(hits > 4000, "{hits} hits of 8000 rays");
}
