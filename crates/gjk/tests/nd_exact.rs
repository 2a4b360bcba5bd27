//! GJK in ℝᴺ (gjk::nd) against brute force in exact arithmetic: small point sets with integer coordinates, whose
//! distance is found by trying every sub-simplex of the Minkowski difference A − B in rationals.
//!
//! The nearest point of conv(A − B) to the origin lies in the relative interior of some affinely independent
//! subset of the differences aᵢ − bⱼ (Carathéodory), where it is the nearest point of that subset's affine hull.
//! For a subset d₀ … d_{k−1} that point is Σλᵢdᵢ with Σλᵢ = 1 and Gλ = μ·1 (G the Gram matrix dᵢ·dⱼ), and then
//! its squared length is λᵀGλ = μ. Solving that (k + 1)-square system by Cramer's rule with fraction-free
//! (Bareiss) determinants in i128 gives λ and μ as exact fractions; a subset whose λ are all ≥ 0 names a point of
//! the hull, so μ bounds the squared distance from above, and the least such μ is the squared distance exactly.
//! Small coordinates (|x| ≤ 3, N ≤ 5, subsets of ≤ N + 1 points) keep every determinant far below i128's range
//! (Hadamard: below 1e19, and the cross products comparing two fractions below 1e38).
//!
//! Integer sets touch exactly and often (a shared point, a vertex on a face, coplanar faces), so these cases are
//! rich in the exact-touching and degenerate configurations (repeated points, k + 1 points in a (k − 1)-flat) that
//! floating-point references cannot certify.

use gjk::math::VecN;
use gjk::nd::{self, PointSet};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// An exact non-negative fraction p / q (q > 0).
#[derive(Clone, Copy, Debug)]
struct Fraction {
    p: i128,
    q: i128,
}

impl Fraction {
    fn less_than(self, other: Fraction) -> bool {
        self.p * other.q < other.p * self.q
    }

    fn to_f64(self) -> f64 {
        self.p as f64 / self.q as f64
    }
}

/// The determinant of the k × k matrix `m` (row-major, k ≤ 8), exactly, by Bareiss's fraction-free elimination:
/// every division it makes is exact.
fn determinant(mut m: [[i128; 8]; 8], k: usize) -> i128 {
    let mut sign = 1;
    let mut previous = 1;
    for col in 0..k {
        if m[col][col] == 0 {
            let Some(row) = (col + 1..k).find(|&r| m[r][col] != 0) else {
                return 0;
            };
            m.swap(col, row);
            sign = -sign;
        }
        for r in col + 1..k {
            for c in col + 1..k {
                m[r][c] = (m[r][c] * m[col][col] - m[r][col] * m[col][c]) / previous;
            }
        }
        previous = m[col][col];
    }
    sign * m[k - 1][k - 1]
}

/// The nearest point of the affine hull of `d` (integer points of ℝᴺ) to the origin, if `d` is affinely
/// independent and that point lies in conv(d) (every weight ≥ 0): its squared length as an exact fraction.
fn affine_nearest<const N: usize>(d: &[[i64; N]]) -> Option<Fraction> {
    let k = d.len();
    // The system [G −1; 1ᵀ 0] (λ, μ) = (0, 1), of size k + 1.
    let mut m = [[0i128; 8]; 8];
    for i in 0..k {
        for j in 0..k {
            m[i][j] = (0..N).map(|c| d[i][c] as i128 * d[j][c] as i128).sum();
        }
        m[i][k] = -1;
        m[k][i] = 1;
    }
    let det = determinant(m, k + 1);
    if det == 0 {
        return None; // affinely dependent: a smaller subset holds the same points
    }
    // Cramer: the unknown x_c is det(M with column c replaced by the right-hand side e_k) / det.
    let replaced = |c: usize| {
        let mut r = m;
        for (row, line) in r.iter_mut().enumerate().take(k + 1) {
            line[c] = i128::from(row == k);
        }
        determinant(r, k + 1)
    };
    if (0..k).any(|c| replaced(c) * det.signum() < 0) {
        return None; // a negative weight: the affine nearest point is outside the simplex
    }
    let mu = replaced(k);
    Some(Fraction { p: mu * det.signum(), q: det.abs() })
}

/// The squared distance between conv(a) and conv(b), exactly, by every sub-simplex of the differences.
fn brute_force<const N: usize>(a: &[[i64; N]], b: &[[i64; N]]) -> Fraction {
    let diffs: Vec<[i64; N]> =
        a.iter().flat_map(|p| b.iter().map(move |q| core::array::from_fn(|c| p[c] - q[c]))).collect();
    let mut best: Option<Fraction> = None;
    let mut subset = Vec::with_capacity(N + 1);
    // Every subset of at most N + 1 differences, as bit masks (at most 3 × 3 = 9 differences here).
    for mask in 1u32..(1 << diffs.len()) {
        if mask.count_ones() as usize > N + 1 {
            continue;
        }
        subset.clear();
        subset.extend((0..diffs.len()).filter(|i| mask & (1 << i) != 0).map(|i| diffs[i]));
        if let Some(f) = affine_nearest(&subset) {
            if best.is_none_or(|b| f.less_than(b)) {
                best = Some(f);
            }
        }
    }
    best.expect("a single difference is always a feasible subset")
}

fn to_vec<const N: usize>(p: &[i64; N]) -> VecN<N> {
    VecN(core::array::from_fn(|c| p[c] as f64))
}

/// One random case: 1 … 3 points per set, integer coordinates in [−3, 3]; B is given as points about the origin
/// and a separate integer translation, so the pose path is exercised too.
fn check_case<const N: usize>(rng: &mut SmallRng, case: usize) -> bool {
    let point = |r: &mut SmallRng| -> [i64; N] { core::array::from_fn(|_| r.gen_range(-3..=3)) };
    let a: Vec<[i64; N]> = (0..rng.gen_range(1..=3)).map(|_| point(rng)).collect();
    let mut b: Vec<[i64; N]> = (0..rng.gen_range(1..=3)).map(|_| point(rng)).collect();
    let shift: [i64; N] = core::array::from_fn(|_| rng.gen_range(-1..=1));
    if case.is_multiple_of(4) {
        // A repeated point, and a point that lands on one of A's once B is moved (exact touching or overlap).
        let shared = a[rng.gen_range(0..a.len())];
        b = vec![b[0], b[0], core::array::from_fn(|c| shared[c] - shift[c])];
    }
    let b_placed: Vec<[i64; N]> = b.iter().map(|p| core::array::from_fn(|c| p[c] + shift[c])).collect();
    let exact = brute_force(&a, &b_placed);
    let truth = exact.to_f64().sqrt();

    let sa = PointSet::new(a.iter().map(to_vec).collect()).unwrap();
    let sb = PointSet::new(b.iter().map(to_vec).collect()).unwrap();
    let d = nd::distance(&sa, &VecN::ZERO, &sb, &to_vec(&shift));
    let scale = 6.0; // the coordinates' range
    let tol = 1e-10 * scale;
    let label = format!("N={N} case {case}: a {a:?} b {b_placed:?}, exact d² = {}/{}", exact.p, exact.q);
    assert!((d.distance - truth).abs() <= tol, "{label}: gjk {} vs exact {truth}", d.distance);
    // Exactly touching or overlapping hulls are intersecting (distance 0), and apart hulls are not.
    assert_eq!(d.intersecting, exact.p == 0, "{label}: intersecting {}", d.intersecting);
    assert_eq!(nd::intersects(&sa, &VecN::ZERO, &sb, &to_vec(&shift)), d.intersecting, "{label}");
    // The witness simplex: weights ≥ 0 summing to 1, indices into the sets, its points reproducing the answer.
    let sum: f64 = d.simplex.iter().map(|w| w.weight).sum();
    assert!((sum - 1.0).abs() <= 1e-12, "{label}: weights sum to {sum}");
    for w in d.simplex.iter() {
        assert!(w.weight >= 0.0, "{label}: weight {}", w.weight);
        assert!(w.index_a < a.len() && w.index_b < b.len(), "{label}: indices {} {}", w.index_a, w.index_b);
        assert_eq!(w.point_a, to_vec(&a[w.index_a]), "{label}");
        assert_eq!(w.point_b, to_vec(&b_placed[w.index_b]), "{label}");
    }
    let (pa, pb) = d.simplex.reproduce();
    assert!((pa - d.point_a).length() <= tol && (pb - d.point_b).length() <= tol, "{label}: witnesses");
    assert!(((d.point_b - d.point_a).length() - d.distance).abs() <= tol, "{label}: closest points");
    d.intersecting
}

fn run<const N: usize>(seed: u64, cases: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let touching = (0..cases).filter(|&case| check_case::<N>(&mut rng, case)).count();
    // Both kinds are exercised: the shared-point cases (one in four) intersect, and at least a tenth are apart
    // (seen: 212, 137, 88, 78, 75 of 300 intersecting for N = 1 … 5).
    assert!(touching >= cases / 4 && cases - touching >= cases / 10, "N={N}: {touching} of {cases} intersecting");
}

#[test]
fn integer_sets_in_1_to_5_dims_match_every_sub_simplex_in_rationals() {
    run::<1>(101, 300);
    run::<2>(102, 300);
    run::<3>(103, 300);
    run::<4>(104, 300);
    run::<5>(105, 300);
}

/// The exact solver itself, on cases with known answers: two unit-spaced points (d² = 1), a point over a
/// triangle's interior (the face's plane distance), and a point inside a simplex (0).
#[test]
fn brute_force_reproduces_closed_forms() {
    let f = brute_force::<3>(&[[0, 0, 0]], &[[1, 0, 0]]);
    assert_eq!(f.p, f.q);
    // The triangle (0,0,0), (3,0,0), (0,3,0) and the point (1,1,2): the foot (1,1,0) is inside, d² = 4.
    let f = brute_force::<3>(&[[0, 0, 0], [3, 0, 0], [0, 3, 0]], &[[1, 1, 2]]);
    assert_eq!(f.p, 4 * f.q);
    // The point (3,3,0) beyond the triangle's hypotenuse x + y = 3: nearest (1.5, 1.5, 0), d² = 4.5.
    let f = brute_force::<3>(&[[0, 0, 0], [3, 0, 0], [0, 3, 0]], &[[3, 3, 0]]);
    assert_eq!(2 * f.p, 9 * f.q);
    // A point inside a tetrahedron of ℝ³: 0.
    let f = brute_force::<3>(&[[0, 0, 0], [3, 0, 0], [0, 3, 0], [0, 0, 3]], &[[1, 1, 0]]);
    assert_eq!(f.p, 0);
}
