//! The 3D specifics of the simplex solver: the projection plane of a triangle, and the tetrahedron (S3D).

use super::{best_of_faces, same_sign, triangle, Barycentric, Solved};
use crate::math::{Real, Vector, Vector3};

/// The foot of the perpendicular from the origin to the plane of `abc`, and the coordinate plane (x, y) where the
/// triangle's shadow has the largest area: the axis dropped is the largest component of the normal, and (x, y)
/// follow it cyclically so that the shadow's signed area has the sign of that normal component.
pub fn triangle_projection<V: Vector3>(a: V, b: V, c: V) -> (V, usize, usize) {
    let n = triangle_normal(a, b, c);
    let p0 = plane_foot(a, n);
    let k = (0..3).fold(0, |best, i| if n.get(i).abs() > n.get(best).abs() { i } else { best });
    (p0, (k + 1) % 3, (k + 2) % 3)
}

/// The origin's projection a·n n / |n|² onto the plane through `a` with the (unnormalised) normal n.
///
/// |n|² is the fourth power of the triangle's size, so in f32 it overflows for edges past ~1e9 (a triangle of
/// support points on a 1e10 disk: |n|² = ∞, the projection 0, and GJK called two cylinders 2e7 apart intersecting)
/// and underflows for edges below ~1e-10: the projection is taken with n brought into range
/// ([`Vector::in_square_range`]; in range the unscaled formula, bit for bit). Zero for a degenerate triangle (n = 0).
pub(super) fn plane_foot<V: Vector>(a: V, n: V) -> V {
    let (m, mm) = n.in_square_range();
    if mm > V::Real::ZERO {
        m * (a.dot(m) / mm)
    } else {
        V::zero()
    }
}

/// The (unnormalised) normal (b − a) × (c − a), computed as the cross product of the two shortest edges: on a thin
/// triangle (two support points close together, the third far away) the two long edges are nearly parallel and
/// their cross product would lose most of its digits, while the short edge and either long one are well apart.
pub fn triangle_normal<V: Vector3>(a: V, b: V, c: V) -> V {
    // (b − a) × (c − a) = e0 × e1 = e1 × e2 = e2 × e0 for the edges e0 = b − a, e1 = c − b, e2 = a − c.
    let (e0, e1, e2) = (b - a, c - b, a - c);
    let (l0, l1, l2) = (e0.length_squared(), e1.length_squared(), e2.length_squared());
    if l2 >= l0 && l2 >= l1 {
        e0.cross(e1)
    } else if l0 >= l1 {
        e1.cross(e2)
    } else {
        e2.cross(e0)
    }
}

/// Unit normal of the triangle `p[0] p[1] p[2]` (either sign); `None` unless exactly three non-collinear points.
pub fn facet_normal<V: Vector3>(p: &[V]) -> Option<V> {
    let [a, b, c] = p else { return None };
    let n = triangle_normal(*a, *b, *c).normalize_or_zero();
    (n.length_squared() > V::Real::ZERO).then_some(n)
}

/// The faces of a tetrahedron, each listed at the index of the vertex it leaves out.
const TETRAHEDRON_FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

/// det[a b c] = a · (b × c).
#[inline]
fn det<V: Vector3>(a: V, b: V, c: V) -> V::Real {
    a.dot(b.cross(c))
}

/// Tetrahedron `p[0..4]` (S3D). The cofactors `c[i]` are the signed volumes of the tetrahedra with vertex `i`
/// replaced by the origin; they sum to the whole volume `mu`. All agreeing in sign puts the origin inside (the
/// shapes intersect); a disagreeing one puts it beyond the opposite face, which is solved as a triangle.
pub fn solve_tetrahedron<V: Vector3>(p: &[V; 4]) -> Barycentric<V::Real> {
    tetrahedron(p).0
}

/// [`solve_tetrahedron`] with the projection of [`Solved`] when the closest point is inside a face.
pub(crate) fn tetrahedron<V: Vector3>(p: &[V; 4]) -> Solved<V> {
    let [a, b, c, d] = *p;
    let mu = det(b - a, c - a, d - a);
    // det(b, c, d) = b · ((c − b) × (d − b)): each cofactor is a vertex of its face dotted with the face's normal
    // from its two shortest edges. From the vertices' own coordinates (b · (c × d)) the products are of the size
    // of the coordinates cubed, and where the tetrahedron is a thin sliver far from the origin their rounding
    // outweighs the volumes: the edges keep the digits that matter.
    let sub = [
        b.dot(triangle_normal(b, c, d)),
        -a.dot(triangle_normal(a, c, d)),
        a.dot(triangle_normal(a, b, d)),
        -a.dot(triangle_normal(a, b, c)),
    ];
    if sub.iter().all(|&s| same_sign(mu, s)) {
        let mut lambda = [V::Real::ZERO; 4];
        for i in 0..4 {
            lambda[i] = sub[i] / mu;
        }
        return (Barycentric { mask: 0b1111, lambda }, None);
    }
    let degenerate = !(mu.abs() > V::Real::ZERO);
    // The facet the origin is farthest beyond in barycentric terms (its vertex's weight most negative) first.
    let signed = |i: usize| if mu < V::Real::ZERO { -sub[i] } else { sub[i] };
    let first = (1..4).fold(0, |f, i| if signed(i) < signed(f) { i } else { f });
    best_of_faces(
        p,
        &TETRAHEDRON_FACES,
        first,
        degenerate,
        |skip| !same_sign(mu, sub[skip]),
        |f: &[V; 3]| triangle(f[0], f[1], f[2]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    #[test]
    fn origin_inside_tetrahedron_has_positive_weights_summing_to_one() {
        let p = [
            DVec3::new(-1.0, -1.0, -1.0),
            DVec3::new(3.0, -1.0, -1.0),
            DVec3::new(-1.0, 3.0, -1.0),
            DVec3::new(-1.0, -1.0, 3.0),
        ];
        let bc = solve_tetrahedron(&p);
        assert_eq!(bc.mask, 0b1111);
        assert!((bc.lambda.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert!(bc.combine(&p).length() < 1e-15);
    }

    #[test]
    fn origin_beyond_face_projects_onto_that_face() {
        // A tetrahedron above the plane z = 1 whose bottom face spans (±1, ±1): the origin projects onto the inside
        // of that face, at (0, 0, 1).
        let p = [
            DVec3::new(-1.0, -1.0, 1.0),
            DVec3::new(2.0, -1.0, 1.0),
            DVec3::new(-1.0, 2.0, 1.0),
            DVec3::new(0.0, 0.0, 2.0),
        ];
        let bc = solve_tetrahedron(&p);
        assert_eq!(bc.mask, 0b0111);
        assert!((bc.combine(&p) - DVec3::new(0.0, 0.0, 1.0)).length() < 1e-15);
    }

    #[test]
    fn origin_below_a_vertex_region_keeps_that_vertex() {
        let p = [
            DVec3::new(0.0, 0.0, 1.0),
            DVec3::new(1.0, 0.0, 1.0),
            DVec3::new(0.0, 1.0, 1.0),
            DVec3::new(0.0, 0.0, 2.0),
        ];
        let bc = solve_tetrahedron(&p);
        assert_eq!(bc.mask, 0b0001);
        assert_eq!(bc.combine(&p), DVec3::new(0.0, 0.0, 1.0));
    }

    #[test]
    fn thin_triangle_normal_uses_its_short_edges() {
        // Two points 1e-9 apart and a third far away: the normal must still be exactly ±z.
        let (a, b, c) = (DVec3::new(0.0, 0.0, 1.0), DVec3::new(1e-9, 0.0, 1.0), DVec3::new(0.3, 1e3, 1.0));
        let n = triangle_normal(a, b, c).normalize();
        assert_eq!(n.x.abs() + n.y.abs(), 0.0);
    }

    /// The final simplex of an ellipsoid–triangle run (test `ellipsoid_triangle_sliver_witnesses_meet_the_normal`):
    /// two vertices 1e-7 apart, the third 2.5 away. The weights must combine to the origin's projection onto the
    /// triangle's plane to rounding of the vertices (they were 1e-9 off, computed from areas spanning the long
    /// edges and renormalised).
    #[test]
    fn sliver_triangle_weights_combine_to_the_projection() {
        let p = [
            DVec3::new(1.5589540860075113, -0.49443351608102615, 0.6166202141645648),
            DVec3::new(-0.9999516098028629, 0.027905673529955155, -0.5381917393585024),
            DVec3::new(1.5589541709115653, -0.494433492889526, 0.6166201689491888),
        ];
        let (bc, projected) = crate::simplex::triangle(p[0], p[1], p[2]);
        assert_eq!(bc.mask, 0b111);
        let v = projected.unwrap();
        assert!((bc.combine(&p) - v).length() <= 1e-14, "{:?} vs {v:?}", bc.combine(&p));
        assert!((bc.lambda.iter().sum::<f64>() - 1.0).abs() <= 4.0 * f64::EPSILON);
    }

    /// The last simplex of a triangle 3.1e-8 outside the side of a cylinder 1.1e5 wide and 3.2e5 tall (gjk-fuzz
    /// seed 72 case 951), recorded in the world frame: a sliver 3.2e5 long, 0.07 wide and 5e-8 thick with the origin
    /// 3.1e-8 outside it. GJK solved it in A's frame, where every coordinate is ~1e5: cofactors taken from the
    /// coordinates (b · (c × d), products of the order of 1e15, rounded by ~1 against volumes of 1e-4) had the signs
    /// of noise and put the origin inside, and the query said "intersecting" with witnesses 6.7e4 apart. From the
    /// edges they keep the sign of the volumes.
    #[test]
    fn sliver_tetrahedron_far_from_the_origin_keeps_the_origin_outside_fuzz_72_951() {
        use glam::DQuat;
        let world = [
            DVec3::new(0.02375190311431652, -161793.25828583166, -5.157198756933212e-8),
            DVec3::new(0.023751903099764604, 161791.87363722624, -5.1557435654103756e-8),
            DVec3::new(-0.049656617680739146, 161791.87363722624, -5.0640664994716644e-9),
            DVec3::new(-0.012926462615723722, 161791.87363722624, -2.2264430299401283e-8),
        ];
        // The world frame, about A's frame (the recorded points rotated back) and 64 other rotations: with the old
        // cofactors some of these frames put the origin inside (the test failed with them).
        let q = DQuat::from_xyzw(-0.4839612923592485, -0.5117089510295038, 0.3646457897522432, 0.6090721344391103);
        let turns = (0..64).map(|k| {
            let k = f64::from(k);
            DQuat::from_euler(glam::EulerRot::ZYX, 0.7 * k, 1.3 * k + 0.1, 2.9 * k + 0.2)
        });
        for rotation in [DQuat::IDENTITY, q.normalize().inverse()].into_iter().chain(turns) {
            let p = world.map(|w| rotation * w);
            let bc = solve_tetrahedron(&p);
            assert_ne!(bc.mask, 0b1111, "{rotation:?}: {bc:?}");
            // Every point lies 5e-9 or more below the plane z = 0 (in the world frame): the nearest point of the
            // tetrahedron is no nearer than that, and its face toward the origin is ~3e-8 away.
            let near = bc.combine(&p).length();
            assert!((5e-9..1e-7).contains(&near), "{rotation:?}: {near:e}");
        }
    }

    #[test]
    fn flat_tetrahedron_falls_back_to_its_faces() {
        let p = [
            DVec3::new(1.0, 0.0, 1.0),
            DVec3::new(2.0, 0.0, 1.0),
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(2.0, 1.0, 1.0),
        ];
        let bc = solve_tetrahedron(&p);
        assert!((bc.combine(&p) - DVec3::new(1.0, 0.0, 1.0)).length() < 1e-15);
    }
}
