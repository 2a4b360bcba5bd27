//! Time per GJK query in ℝᴺ against an interior-point QP (clarabel) on the same problems: two random clouds of
//! m points each (uniform in the unit cube, B moved 1.5 along the diagonal so they are apart), N = 4 … 32,
//! m = 16 … 4096. Prints a Markdown table (medians) and the largest distance difference seen.
//!
//! Run: `cargo run --release -p gjk --example nd_scaling`.

use std::time::Instant;

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, NonnegativeConeT, SupportedConeT, ZeroConeT};
use gjk::math::VecN;
use gjk::nd::{distance, PointSet};

/// A small deterministic generator (no dependency for the clouds).
fn uniform(state: &mut u64) -> f64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

fn cloud<const N: usize>(m: usize, shift: f64, state: &mut u64) -> Vec<VecN<N>> {
    (0..m).map(|_| VecN(core::array::from_fn(|_| uniform(state) + shift))).collect()
}

/// ½|z|² subject to z = Σ αᵢ aᵢ − Σ βⱼ bⱼ, Σα = Σβ = 1, α, β ≥ 0 (the test suite's reference QP).
fn qp<const N: usize>(a: &[VecN<N>], b: &[VecN<N>]) -> f64 {
    let (ma, mb) = (a.len(), b.len());
    let nvar = ma + mb + N;
    let mut colptr = vec![0; ma + mb + 1];
    colptr.extend(1..=N);
    let p = CscMatrix::new(nvar, nvar, colptr, (ma + mb..nvar).collect(), vec![1.0; N]);
    let rows = N + 2 + ma + mb;
    let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
    for (j, (pt, sign, sum_row)) in a.iter().map(|p| (p, 1.0, N)).chain(b.iter().map(|p| (p, -1.0, N + 1))).enumerate()
    {
        for k in 0..N {
            rowval.push(k);
            nzval.push(sign * pt[k]);
        }
        rowval.extend([sum_row, N + 2 + j]);
        nzval.extend([1.0, -1.0]);
        colptr.push(rowval.len());
    }
    for k in 0..N {
        rowval.push(k);
        nzval.push(-1.0);
        colptr.push(rowval.len());
    }
    let amat = CscMatrix::new(rows, nvar, colptr, rowval, nzval);
    let mut rhs = vec![0.0; rows];
    rhs[N] = 1.0;
    rhs[N + 1] = 1.0;
    let cones: [SupportedConeT<f64>; 2] = [ZeroConeT(N + 2), NonnegativeConeT(ma + mb)];
    let settings = DefaultSettings { verbose: false, ..DefaultSettings::default() };
    let mut solver = DefaultSolver::new(&p, &vec![0.0; nvar], &amat, &rhs, &cones, settings).unwrap();
    solver.solve();
    let x = &solver.solution.x;
    x[ma + mb..].iter().map(|z| z * z).sum::<f64>().sqrt()
}

fn median(mut t: Vec<f64>) -> f64 {
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn row<const N: usize>(m: usize, worst: &mut f64) {
    let mut state = (N * 1000 + m) as u64;
    let a = cloud::<N>(m, 0.0, &mut state);
    let b = cloud::<N>(m, 1.5, &mut state);
    let (sa, sb) = (PointSet::new(a.clone()).unwrap(), PointSet::new(b.clone()).unwrap());
    let runs = (200_000 / (m * N)).clamp(11, 2001);
    let t_gjk = median(
        (0..runs)
            .map(|_| {
                let s = Instant::now();
                std::hint::black_box(distance(&sa, &VecN::ZERO, &sb, &VecN::ZERO));
                s.elapsed().as_secs_f64() * 1e6
            })
            .collect(),
    );
    let d = distance(&sa, &VecN::ZERO, &sb, &VecN::ZERO);
    let qruns = if m * N >= 32_768 { 3 } else { 11 };
    let mut q = 0.0;
    let t_qp = median(
        (0..qruns)
            .map(|_| {
                let s = Instant::now();
                q = qp(&a, &b);
                s.elapsed().as_secs_f64() * 1e6
            })
            .collect(),
    );
    *worst = worst.max((d.distance - q).abs());
    println!(
        "| {N} | {m} | {t_gjk:.1} | {} | {t_qp:.0} | {:.0}× | {:.1e} |",
        d.iterations,
        t_qp / t_gjk,
        (d.distance - q).abs()
    );
}

fn main() {
    println!(
        "| N | points per set | GJK µs (median) | GJK iterations | clarabel µs (median) | ratio | abs(Δ distance) |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut worst = 0.0f64;
    for m in [16, 256, 4096] {
        row::<4>(m, &mut worst);
        row::<8>(m, &mut worst);
        row::<16>(m, &mut worst);
        row::<32>(m, &mut worst);
    }
    println!("largest distance difference (clarabel at its default 1e-8 tolerances): {worst:.1e}");
}
