//! GJK in ℝᴺ (gjk::nd) against references on random sets in 4 … 32 dimensions: the duality certificate (a
//! feasible pair from the witness weights, a separating direction from the normal) to 1e-10 of the scale, and an
//! interior-point QP (clarabel) to 1e-8; degenerate sets (duplicated points, points in a lower flat), exact
//! touching, overlap, tiny gaps and large offsets. n = 2 and 3 against the 2D/3D GJK.

use clarabel::algebra::CscMatrix;
use clarabel::solver::{
    DefaultSettings, DefaultSolver, IPSolver, NonnegativeConeT, SolverStatus, SupportedConeT, ZeroConeT,
};
use gjk::math::VecN;
use gjk::nd::{Distance, PointSet};
use gjk::Status;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A point with coordinates uniform in [−1, 1].
pub fn random_point<const N: usize>(rng: &mut SmallRng) -> VecN<N> {
    VecN(core::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
}

/// `m` random points about `center`, of spread `size`.
pub fn cloud<const N: usize>(rng: &mut SmallRng, m: usize, center: VecN<N>, size: f64) -> Vec<VecN<N>> {
    (0..m).map(|_| center + random_point::<N>(rng) * size).collect()
}

/// `m` random points of a random `k`-flat through `center` (k + 1 points or more in a k-flat: degenerate).
pub fn flat_cloud<const N: usize>(rng: &mut SmallRng, m: usize, k: usize, center: VecN<N>, size: f64) -> Vec<VecN<N>> {
    let dirs: Vec<VecN<N>> = (0..k).map(|_| random_point::<N>(rng)).collect();
    (0..m).map(|_| dirs.iter().fold(center, |p, d| p.add_scaled(*d, rng.gen_range(-1.0..1.0) * size))).collect()
}

/// The distance between the hulls of `a` and `b` by an interior-point QP (clarabel): minimise ½|z|² subject to
/// z = Σ αᵢ aᵢ − Σ βⱼ bⱼ, α, β ≥ 0, Σα = Σβ = 1. Returns |z| recomputed from α and β.
pub fn qp_distance<const N: usize>(a: &[VecN<N>], b: &[VecN<N>]) -> f64 {
    // The QP is translation invariant: solved about A's first point, it stays well scaled far from the origin.
    let o = a[0];
    let a: Vec<VecN<N>> = a.iter().map(|p| *p - o).collect();
    let b: Vec<VecN<N>> = b.iter().map(|p| *p - o).collect();
    let (ma, mb) = (a.len(), b.len());
    let nvar = ma + mb + N;
    // P: the identity on z, zero elsewhere (upper triangle, CSC).
    let mut colptr = vec![0; ma + mb + 1];
    let mut rowval = Vec::new();
    for k in 0..N {
        rowval.push(ma + mb + k);
        colptr.push(k + 1);
    }
    let p = CscMatrix::new(nvar, nvar, colptr, rowval, vec![1.0; N]);
    // Rows: N (z equations), 2 (sums), ma + mb (signs).
    let rows = N + 2 + ma + mb;
    let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
    let mut column = |entries: &[(usize, f64)]| {
        for &(r, x) in entries {
            rowval.push(r);
            nzval.push(x);
        }
        colptr.push(rowval.len());
    };
    for (i, pt) in a.iter().enumerate() {
        let mut e: Vec<(usize, f64)> = (0..N).map(|k| (k, pt[k])).collect();
        e.push((N, 1.0));
        e.push((N + 2 + i, -1.0));
        column(&e);
    }
    for (j, pt) in b.iter().enumerate() {
        let mut e: Vec<(usize, f64)> = (0..N).map(|k| (k, -pt[k])).collect();
        e.push((N + 1, 1.0));
        e.push((N + 2 + ma + j, -1.0));
        column(&e);
    }
    for k in 0..N {
        column(&[(k, -1.0)]);
    }
    let amat = CscMatrix::new(rows, nvar, colptr, rowval, nzval);
    let mut rhs = vec![0.0; rows];
    rhs[N] = 1.0;
    rhs[N + 1] = 1.0;
    let cones: [SupportedConeT<f64>; 2] = [ZeroConeT(N + 2), NonnegativeConeT(ma + mb)];
    let settings = DefaultSettings {
        verbose: false,
        tol_gap_abs: 1e-14,
        tol_gap_rel: 1e-14,
        tol_feas: 1e-13,
        max_iter: 200,
        ..DefaultSettings::default()
    };
    let mut solver = DefaultSolver::new(&p, &vec![0.0; nvar], &amat, &rhs, &cones, settings).unwrap();
    solver.solve();
    assert!(
        matches!(solver.solution.status, SolverStatus::Solved | SolverStatus::AlmostSolved),
        "clarabel: {:?}",
        solver.solution.status
    );
    let x = &solver.solution.x;
    let mut z = VecN::<N>::ZERO;
    let (sa, sb): (f64, f64) =
        (x[..ma].iter().map(|v| v.max(0.0)).sum(), x[ma..ma + mb].iter().map(|v| v.max(0.0)).sum());
    for i in 0..ma {
        z = z.add_scaled(a[i], x[i].max(0.0) / sa);
    }
    for j in 0..mb {
        z = z.add_scaled(b[j], -x[ma + j].max(0.0) / sb);
    }
    z.length()
}

/// Checks the answer's witnesses and returns the certified bounds `(lower, upper)` on the distance between the
/// hulls of `a` and `b` (both already in the world): the witness weights give feasible points (upper bound), the
/// normal a separating direction (lower bound: min over B minus max over A along it).
pub fn certify<const N: usize>(d: &Distance<N>, a: &PointSet<N>, b: &PointSet<N>, tb: VecN<N>) -> (f64, f64) {
    let scale = a.points().iter().chain(b.points()).fold(1.0f64, |s, p| s.max(p.max_abs()));
    let mut sum = 0.0;
    assert!(!d.simplex.is_empty() && d.simplex.len() <= N + 1);
    for w in d.simplex.iter() {
        assert!(w.weight > 0.0 && w.weight <= 1.0, "weight {}", w.weight);
        sum += w.weight;
        assert_eq!(w.point_a, a.points()[w.index_a]);
        assert_eq!(w.point_b, b.points()[w.index_b] + tb);
    }
    assert!((sum - 1.0).abs() < 1e-12, "weights sum to {sum}");
    let (pa, pb) = d.simplex.reproduce();
    assert!((pa - d.point_a).length() <= 1e-12 * scale, "{pa:?} vs {:?}", d.point_a);
    assert!((pb - d.point_b).length() <= 1e-12 * scale);
    let upper = (pb - pa).length();
    if d.intersecting {
        return (0.0, upper);
    }
    let n = d.normal;
    assert!((n.length() - 1.0).abs() < 1e-12);
    let max_a = a.points().iter().map(|p| p.dot(n)).fold(f64::NEG_INFINITY, f64::max);
    let min_b = b.points().iter().map(|p| (*p + tb).dot(n)).fold(f64::INFINITY, f64::min);
    (min_b - max_a, upper)
}

/// Distance tolerance relative to the scale (coordinates' magnitude) of a case.
const EXACT: f64 = 1e-10;
/// The QP's own accuracy (interior point at 1e-14 gap: its distance is good to about 1e-9).
const QP: f64 = 1e-8;

/// Runs one case: answer, certificate, QP; `truth` is the distance when the construction knows it.
fn check<const N: usize>(a: &[VecN<N>], b: &[VecN<N>], tb: VecN<N>, truth: Option<f64>, qp: bool) -> Distance<N> {
    let sa = PointSet::new(a.to_vec()).unwrap();
    let sb = PointSet::new(b.to_vec()).unwrap();
    let d = gjk::nd::distance(&sa, &VecN::ZERO, &sb, &tb);
    let scale = a.iter().chain(b).fold(1.0f64, |s, p| s.max(p.max_abs())).max(tb.max_abs());
    // The normal of a gap g is known only to eps·scale/g radians (v = a − b is rounded to eps·scale), so a bound
    // along it — the run's lower bound and the certificate's — can be off by that times the extent: 1e-8 for a
    // gap of 1e-6 at scale 1. The distance itself is checked at EXACT against the upper bound and the truth.
    let direction_limit = 64.0 * f64::EPSILON * scale * scale / d.distance.max(1e-300);
    let bound_tol = EXACT * scale + direction_limit;
    // Stalled is allowed (the run could not close the last rounding-level gap) only with a bound within that.
    assert!(
        d.status == Status::Converged || (d.status == Status::Stalled && d.error_bound <= bound_tol),
        "N={N}: {:?} bound {} distance {} tb {tb:?}",
        d.status,
        d.error_bound,
        d.distance
    );
    let (lower, upper) = certify(&d, &sa, &sb, tb);
    if !d.intersecting {
        assert!(upper - lower <= bound_tol, "N={N}: bounds {lower} {upper}");
        assert!((d.distance - upper).abs() <= EXACT * scale, "N={N}: {} vs upper {upper}", d.distance);
    } else {
        assert!(upper <= EXACT * scale, "N={N}: intersecting but witnesses {upper} apart");
        assert_eq!(d.distance, 0.0);
    }
    if let Some(t) = truth {
        assert!((d.distance - t).abs() <= EXACT * scale, "N={N}: {} vs truth {t}", d.distance);
    }
    assert_eq!(gjk::nd::intersects(&sa, &VecN::ZERO, &sb, &tb), d.intersecting, "N={N}: intersects disagrees");
    if qp {
        let moved: Vec<VecN<N>> = b.iter().map(|p| *p + tb).collect();
        let q = qp_distance(a, &moved);
        // Near contact an interior point method's distance is the square root of its objective's error (≈ 1e-14
        // here): compare the squares there.
        let close = (d.distance - q).abs() <= QP * scale || (d.distance.powi(2) - q * q).abs() <= 1e-13 * scale * scale;
        assert!(close, "N={N}: {} vs QP {q}", d.distance);
    }
    d
}

fn random_cases<const N: usize>(seed: u64, cases: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for case in 0..cases {
        let ma = rng.gen_range(1..3 * N);
        let mb = rng.gen_range(1..3 * N);
        let gap = [0.0, 0.5, 1.0, 2.0, 4.0][case % 5];
        let a = cloud::<N>(&mut rng, ma, VecN::ZERO, 1.0);
        let b = cloud::<N>(&mut rng, mb, VecN::ZERO, 1.0);
        let tb = random_point::<N>(&mut rng) * gap;
        check(&a, &b, tb, None, case % 4 == 0);
    }
}

#[test]
fn random_clouds_4_to_32_dims_meet_certificate_and_qp() {
    random_cases::<4>(1, 120);
    random_cases::<5>(2, 80);
    random_cases::<8>(3, 60);
    random_cases::<12>(4, 30);
    random_cases::<16>(5, 20);
    random_cases::<24>(6, 10);
    random_cases::<32>(7, 8);
}

fn degenerate_cases<const N: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for case in 0..20 {
        let k = 1 + case % (N - 1);
        // Many points of a k-flat, each repeated, against a cloud moved off by a random gap.
        let mut a = flat_cloud::<N>(&mut rng, 2 * N, k, VecN::ZERO, 1.0);
        a.extend(a.clone());
        let b = flat_cloud::<N>(&mut rng, N, (k + 1).min(N - 1), VecN::ZERO, 0.5);
        let tb = random_point::<N>(&mut rng) * [0.0, 1e-6, 0.3, 3.0][case % 4];
        check(&a, &b, tb, None, case % 5 == 0);
    }
}

#[test]
fn duplicated_points_and_lower_flats_meet_the_certificate() {
    degenerate_cases::<4>(11);
    degenerate_cases::<6>(12);
    degenerate_cases::<10>(13);
    degenerate_cases::<32>(14);
}

/// Two sets whose hulls touch exactly: A in x₀ ≤ 0, B in x₀ ≥ 0, both holding the same point of x₀ = 0 (and,
/// in the second half, sharing a whole face of the hyperplane).
fn touching_cases<const N: usize>(seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    for case in 0..16 {
        let mut a = cloud::<N>(&mut rng, 2 * N, VecN::ZERO, 1.0);
        let mut b = cloud::<N>(&mut rng, 2 * N, VecN::ZERO, 1.0);
        for p in &mut a {
            p[0] = -p[0].abs() - 0.1;
        }
        for p in &mut b {
            p[0] = p[0].abs() + 0.1;
        }
        let shared = {
            let mut p = random_point::<N>(&mut rng);
            p[0] = 0.0;
            p
        };
        a.push(shared);
        b.push(shared);
        if case % 2 == 1 {
            let face = flat_cloud::<N>(&mut rng, N, N - 2, shared, 0.3);
            for mut p in face {
                p[0] = 0.0;
                a.push(p);
                b.push(p);
            }
        }
        let d = check(&a, &b, VecN::ZERO, Some(0.0), false);
        assert!(d.intersecting, "N={N} touching case {case}");
        // Moved apart by 1e-6 along x₀: exactly that gap.
        check(&a, &b, VecN::axis(0) * 1e-6, Some(1e-6), false);
    }
}

#[test]
fn exact_touching_is_intersecting_and_a_1e6_gap_is_measured() {
    touching_cases::<4>(21);
    touching_cases::<7>(22);
    touching_cases::<16>(23);
    touching_cases::<32>(24);
}

/// Overlapping hulls (B's cloud around a point of A's hull): distance 0, a common point from the witnesses.
#[test]
fn overlapping_hulls_intersect_with_a_common_witness_point() {
    fn run<const N: usize>(seed: u64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        for _ in 0..20 {
            let a = cloud::<N>(&mut rng, 2 * N + 2, VecN::ZERO, 1.0);
            let b = cloud::<N>(&mut rng, 2 * N + 2, a[0] * 0.5, 0.3);
            let d = check(&a, &b, VecN::ZERO, Some(0.0), false);
            assert!(d.intersecting);
        }
    }
    run::<4>(31);
    run::<9>(32);
    run::<32>(33);
}

/// Far from the origin (offset 1e4 … 1e5) the pair frame keeps the digits: the gap between two clouds is
/// measured to 1e-10 of the offset.
#[test]
fn large_offsets_keep_their_digits() {
    fn run<const N: usize>(seed: u64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        for case in 0..20 {
            let far = random_point::<N>(&mut rng) * [1e4, 1e5][case % 2];
            let a = cloud::<N>(&mut rng, 2 * N, far, 1.0);
            let b = cloud::<N>(&mut rng, 2 * N, far, 1.0);
            let tb = random_point::<N>(&mut rng) * 3.0;
            check(&a, &b, tb, None, case % 5 == 0);
        }
    }
    run::<4>(41);
    run::<16>(42);
}

/// Two regular simplices facing each other across a known gap: the distance is the gap, the witness simplex of
/// A is its whole facing facet (N points, equal weights when B's point is the facet's centre).
#[test]
fn simplex_facet_against_point_has_the_whole_facet_as_witness() {
    fn run<const N: usize>() {
        let a: Vec<VecN<N>> = (0..N).map(VecN::axis).chain([VecN::ZERO]).collect();
        // The facet x₀ + … = 1 has centre (1/N, …); the point beyond it along the normal at distance 0.25.
        let normal = VecN::<N>::splat(1.0 / (N as f64).sqrt());
        let b = vec![VecN::<N>::splat(1.0 / N as f64).add_scaled(normal, 0.25)];
        let d = check(&a, &b, VecN::ZERO, Some(0.25), true);
        assert_eq!(d.simplex.len(), N);
        for w in d.simplex.iter() {
            assert!((w.weight - 1.0 / N as f64).abs() < 1e-12);
        }
    }
    run::<4>();
    run::<13>();
    run::<32>();
}

/// One dimension: intervals.
#[test]
fn intervals_in_one_dimension() {
    let a = [VecN([0.0]), VecN([1.0]), VecN([0.5])];
    let b = [VecN([3.0]), VecN([2.5])];
    let d = check(&a, &b, VecN::ZERO, Some(1.5), false);
    assert_eq!(d.normal, VecN([1.0]));
    let d = check(&a, &b, VecN([-1.5]), Some(0.0), false);
    assert!(d.intersecting);
}

/// ℝ² and ℝ³ through gjk::nd agree with the 2D/3D GJK on polytopes (ConvexPolytope).
#[test]
fn two_and_three_dimensions_agree_with_the_2d_3d_gjk() {
    use gjk::math::{DVec2, DVec3, Iso};
    use gjk::shape::ConvexPolytope;
    let mut rng = SmallRng::seed_from_u64(51);
    for case in 0..200 {
        let a = cloud::<3>(&mut rng, 4 + case % 9, VecN::ZERO, 1.0);
        let b = cloud::<3>(&mut rng, 4 + case % 7, VecN::ZERO, 1.0);
        let tb = random_point::<3>(&mut rng) * 3.0;
        let d = check(&a, &b, tb, None, false);
        let to3 = |p: &VecN<3>| DVec3::new(p[0], p[1], p[2]);
        let pa = ConvexPolytope::new(&a.iter().map(to3).collect::<Vec<_>>()).unwrap();
        let pb = ConvexPolytope::new(&b.iter().map(to3).collect::<Vec<_>>()).unwrap();
        let r = gjk::distance(&pa, &Iso::identity(), &pb, &Iso::from_translation(to3(&tb)));
        assert_eq!(r.intersecting, d.intersecting);
        assert!((r.distance - d.distance).abs() < 1e-10, "3D {} vs {}", r.distance, d.distance);

        let a2: Vec<VecN<2>> = a.iter().map(|p| VecN([p[0], p[1]])).collect();
        let b2: Vec<VecN<2>> = b.iter().map(|p| VecN([p[0], p[1]])).collect();
        let t2 = VecN([tb[0], tb[1]]);
        let d2 = check(&a2, &b2, t2, None, false);
        let to2 = |p: &VecN<2>| DVec2::new(p[0], p[1]);
        let pa = ConvexPolytope::new(&a2.iter().map(to2).collect::<Vec<_>>()).unwrap();
        let pb = ConvexPolytope::new(&b2.iter().map(to2).collect::<Vec<_>>()).unwrap();
        let r = gjk::distance(&pa, &Iso::identity(), &pb, &Iso::from_translation(to2(&t2)));
        assert_eq!(r.intersecting, d2.intersecting);
        assert!((r.distance - d2.distance).abs() < 1e-10, "2D {} vs {}", r.distance, d2.distance);
    }
}

/// Points, segments and balls: closed forms.
#[test]
fn point_segment_ball_closed_forms() {
    use gjk::nd::{Ball, Point, Segment};
    let mut rng = SmallRng::seed_from_u64(61);
    for _ in 0..100 {
        let p = random_point::<6>(&mut rng) * 3.0;
        let (s0, s1) = (random_point::<6>(&mut rng), random_point::<6>(&mut rng));
        let seg = Segment::new(s0, s1).unwrap();
        let e = s1 - s0;
        let t = ((p - s0).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        let truth = (s0.add_scaled(e, t) - p).length();
        let d = gjk::nd::distance(&seg, &VecN::ZERO, &Point::new(p).unwrap(), &VecN::ZERO);
        assert!((d.distance - truth).abs() < 1e-12, "{} vs {truth}", d.distance);
        let ball = Ball::new(p, 0.2).unwrap();
        let d = gjk::nd::distance(&seg, &VecN::ZERO, &ball, &VecN::ZERO);
        assert!((d.distance - (truth - 0.2).max(0.0)).abs() < 1e-12);
        assert_eq!(d.intersecting, truth <= 0.2);
        if !d.intersecting {
            assert!(((d.point_b - p).length() - 0.2).abs() < 1e-12);
        }
    }
}
