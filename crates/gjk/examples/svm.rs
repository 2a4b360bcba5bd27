//! A hard-margin linear SVM from GJK in ℝ⁴: the nearest points p and q of the convex hulls of two classes of
//! Fisher's iris (setosa and versicolor, 50 flowers each, 4 measurements; data/iris.csv, from scikit-learn,
//! BSD-3) give the maximum-margin hyperplane: w = 2 (q − p) / |q − p|², b = −w · (p + q) / 2, margin = |q − p| / 2,
//! support vectors = the witness simplices. Compared with the primal QP (minimise ½|w|² subject to
//! yᵢ (w · xᵢ + b) ≥ 1) solved by clarabel, and both timed.
//!
//! Run: `cargo run --release -p gjk --example svm`; its test (`cargo test -p gjk --example svm`) asserts the
//! agreement to 1e-8.

use std::time::Instant;

use clarabel::algebra::CscMatrix;
use clarabel::solver::{DefaultSettings, DefaultSolver, IPSolver, NonnegativeConeT, SolverStatus, SupportedConeT};
use gjk::math::VecN;
use gjk::nd::{distance, PointSet};

const DIM: usize = 4;

/// The two classes of the iris data: setosa (0) and versicolor (1).
fn iris() -> (Vec<VecN<DIM>>, Vec<VecN<DIM>>) {
    let text = include_str!("data/iris.csv");
    let (mut setosa, mut versicolor) = (Vec::new(), Vec::new());
    for line in text.lines().skip(1) {
        let f: Vec<f64> = line.split(',').map(|x| x.trim().parse().expect("a number")).collect();
        let x = VecN([f[0], f[1], f[2], f[3]]);
        match f[4] as u32 {
            0 => setosa.push(x),
            1 => versicolor.push(x),
            _ => {}
        }
    }
    (setosa, versicolor)
}

/// A separating hyperplane w · x + b = 0 and its margin (distance from the plane to either class).
#[derive(Debug)]
struct Svm {
    w: VecN<DIM>,
    b: f64,
    margin: f64,
}

/// From the nearest points of the two hulls: one GJK query.
fn svm_gjk(neg: &PointSet<DIM>, pos: &PointSet<DIM>) -> (Svm, usize, usize) {
    let d = distance(neg, &VecN::ZERO, pos, &VecN::ZERO);
    assert!(!d.intersecting, "the classes must be separable");
    let (p, q) = (d.point_a, d.point_b);
    let gap = q - p;
    let w = gap * (2.0 / gap.length_squared());
    let b = -w.dot((p + q) * 0.5);
    let mut support_a: Vec<usize> = d.simplex.iter().map(|x| x.index_a).collect();
    let mut support_b: Vec<usize> = d.simplex.iter().map(|x| x.index_b).collect();
    support_a.dedup();
    support_b.dedup();
    (Svm { w, b, margin: d.distance / 2.0 }, support_a.len(), support_b.len())
}

/// The primal QP: variables (w, b), minimise ½|w|², subject to −yᵢ (w · xᵢ + b) + sᵢ = −1, sᵢ ≥ 0.
fn svm_qp(neg: &[VecN<DIM>], pos: &[VecN<DIM>]) -> Svm {
    let n = DIM + 1;
    let p = CscMatrix::new(n, n, vec![0, 1, 2, 3, 4, 4], vec![0, 1, 2, 3], vec![1.0; DIM]);
    let rows: Vec<(f64, &VecN<DIM>)> = neg.iter().map(|x| (-1.0, x)).chain(pos.iter().map(|x| (1.0, x))).collect();
    let (mut colptr, mut rowval, mut nzval) = (vec![0], Vec::new(), Vec::new());
    for j in 0..n {
        for (i, (y, x)) in rows.iter().enumerate() {
            rowval.push(i);
            nzval.push(-y * if j < DIM { x[j] } else { 1.0 });
        }
        colptr.push(rowval.len());
    }
    let a = CscMatrix::new(rows.len(), n, colptr, rowval, nzval);
    let cones: [SupportedConeT<f64>; 1] = [NonnegativeConeT(rows.len())];
    let settings = DefaultSettings {
        verbose: false,
        tol_gap_abs: 1e-14,
        tol_gap_rel: 1e-14,
        tol_feas: 1e-14,
        max_iter: 200,
        ..DefaultSettings::default()
    };
    let mut solver = DefaultSolver::new(&p, &[0.0; 5], &a, &vec![-1.0; rows.len()], &cones, settings).unwrap();
    solver.solve();
    assert!(matches!(solver.solution.status, SolverStatus::Solved | SolverStatus::AlmostSolved));
    let x = &solver.solution.x;
    let w = VecN([x[0], x[1], x[2], x[3]]);
    Svm { w, b: x[4], margin: 1.0 / w.length() }
}

/// Median time of `runs` calls, in microseconds.
fn median_us(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[runs / 2]
}

fn main() {
    let (setosa, versicolor) = iris();
    let (neg, pos) = (PointSet::new(setosa.clone()).unwrap(), PointSet::new(versicolor.clone()).unwrap());
    let (gjk_svm, sa, sb) = svm_gjk(&neg, &pos);
    let qp = svm_qp(&setosa, &versicolor);
    println!("iris setosa ({}) vs versicolor ({}), 4-D", setosa.len(), versicolor.len());
    println!("GJK:      w = {:?}, b = {:.12}, margin = {:.15}", gjk_svm.w.0, gjk_svm.b, gjk_svm.margin);
    println!("          support vectors: {sa} setosa, {sb} versicolor");
    println!("clarabel: w = {:?}, b = {:.12}, margin = {:.15}", qp.w.0, qp.b, qp.margin);
    println!(
        "|Δw| / |w| = {:.2e}, |Δmargin| = {:.2e}",
        (gjk_svm.w - qp.w).length() / qp.w.length(),
        (gjk_svm.margin - qp.margin).abs()
    );
    let t_gjk = median_us(2001, || {
        std::hint::black_box(svm_gjk(&neg, &pos));
    });
    let t_qp = median_us(201, || {
        std::hint::black_box(svm_qp(&setosa, &versicolor));
    });
    println!("median time: GJK {t_gjk:.2} µs, clarabel {t_qp:.1} µs ({:.0}×)", t_qp / t_gjk);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GJK's hyperplane is the QP's: w, b and the margin agree to 1e-8, every flower is on its side with margin
    /// at least the margin found, and the support vectors lie on the margin planes.
    #[test]
    fn nearest_points_give_the_qp_hyperplane() {
        let (setosa, versicolor) = iris();
        let (neg, pos) = (PointSet::new(setosa.clone()).unwrap(), PointSet::new(versicolor.clone()).unwrap());
        let (g, _, _) = svm_gjk(&neg, &pos);
        let q = svm_qp(&setosa, &versicolor);
        assert!((g.w - q.w).length() <= 1e-8 * q.w.length(), "{g:?} vs {q:?}");
        assert!((g.b - q.b).abs() <= 1e-8 * q.b.abs().max(1.0), "{g:?} vs {q:?}");
        assert!((g.margin - q.margin).abs() <= 1e-8 * q.margin);
        for x in &setosa {
            assert!(g.w.dot(*x) + g.b <= -1.0 + 1e-9);
        }
        for x in &versicolor {
            assert!(g.w.dot(*x) + g.b >= 1.0 - 1e-9);
        }
    }
}
