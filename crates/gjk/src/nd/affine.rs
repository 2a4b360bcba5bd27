//! The point of an affine hull nearest the origin, by least squares: the simplex sub-problem of GJK in ℝᴺ.
//!
//! For points p₀ … p_m the affine hull is p₀ + span(e₁ … e_m) with edges eⱼ = pⱼ − p₀. Its point nearest the
//! origin is p₀ + E t with t minimising |p₀ + E t|². We factor E = Q R by modified Gram–Schmidt with column
//! pivoting (the longest remaining edge first) and a second orthogonalisation pass ("twice is enough"), so Q is
//! orthonormal to rounding even for thin simplices; then R t = −Qᵀ p₀ by back substitution. The weights are
//! μⱼ = tⱼ for j ≥ 1 and μ₀ = 1 − Σ tⱼ. Signed volumes (the 2D/3D solver) have no cheap analogue past 3D; this
//! costs O(N m²) and sees affine dependence directly: an edge whose part orthogonal to the others is at rounding
//! level of the points' magnitude has nothing to add, and the caller drops it.

use super::slots::Slots;
use crate::math::VecN;

/// Multiple of machine epsilon × the points' magnitude under which an edge's part orthogonal to the previous
/// edges counts as rounding: the points are then affinely dependent (repeated points, k + 1 points in a k-flat).
const DEPENDENT_ULPS: f64 = 64.0;

/// The point of the affine hull of `p` nearest the origin and its weights (summing to one), or `None` when the
/// points are affinely dependent to within rounding (or not finite). `p` holds 1 … N + 1 points.
///
/// The point is p₀ less its projection on the edges' span — the least-squares residual, whose error is a few
/// ulps of the points whatever the simplex's shape — rather than Σ μᵢ pᵢ, whose weights carry the rounding of
/// R⁻¹ (its condition number): near contact the direction of the point is what GJK's lower bound rests on.
pub(crate) fn nearest<const N: usize>(p: &Slots<VecN<N>, N>) -> Option<(VecN<N>, Slots<f64, N>)> {
    let k = p.len();
    let m = k.checked_sub(1)?;
    let scale = p.iter().fold(0.0, |s: f64, x| s.max(x.max_abs()));
    let tol = DEPENDENT_ULPS * f64::EPSILON * scale;
    let mut cols = [VecN::<N>::ZERO; N];
    let mut perm = [0usize; N];
    for j in 0..m {
        cols[j] = p[j + 1] - p[0];
        perm[j] = j;
    }
    let mut q = [VecN::<N>::ZERO; N];
    let mut r = [[0.0f64; N]; N];
    for s in 0..m {
        pivot(&mut cols, &mut perm, &mut r, s, m);
        // Second pass against the directions already taken: what the first pass left is rounding, removed here.
        for t in 0..s {
            let c = q[t].dot(cols[s]);
            cols[s] = cols[s].add_scaled(q[t], -c);
            r[t][s] += c;
        }
        let norm = cols[s].length();
        if !(norm > tol) {
            return None;
        }
        q[s] = cols[s] * (1.0 / norm);
        r[s][s] = norm;
        for j in s + 1..m {
            let c = q[s].dot(cols[j]);
            cols[j] = cols[j].add_scaled(q[s], -c);
            r[s][j] = c;
        }
    }
    // Qᵀ p₀, taken off p₀ direction by direction (and once more), as the columns were.
    let mut b = [0.0f64; N];
    let mut rest = p[0];
    for _pass in 0..2 {
        for s in 0..m {
            let c = q[s].dot(rest);
            rest = rest.add_scaled(q[s], -c);
            b[s] += c;
        }
    }
    // R t = −b, from the last row up.
    let mut t = [0.0f64; N];
    for s in (0..m).rev() {
        let mut acc = -b[s];
        for j in s + 1..m {
            acc -= r[s][j] * t[j];
        }
        t[s] = acc / r[s][s];
    }
    let mut mu = Slots::new(0.0);
    mu.push(1.0);
    for _ in 0..m {
        mu.push(0.0);
    }
    let mut sum = 0.0;
    for s in 0..m {
        mu[perm[s] + 1] = t[s];
        sum += t[s];
    }
    mu[0] = 1.0 - sum;
    ((0..k).all(|i| mu[i].is_finite()) && rest.is_finite()).then_some((rest, mu))
}

/// Brings the longest remaining column (from `s` on) to position `s`, with its permutation index and its entries
/// of R above row `s`.
fn pivot<const N: usize>(cols: &mut [VecN<N>; N], perm: &mut [usize; N], r: &mut [[f64; N]; N], s: usize, m: usize) {
    let mut best = s;
    let mut best_len = cols[s].length_squared();
    for (j, col) in cols.iter().enumerate().take(m).skip(s + 1) {
        let len = col.length_squared();
        if len > best_len {
            best = j;
            best_len = len;
        }
    }
    if best != s {
        cols.swap(s, best);
        perm.swap(s, best);
        for row in r.iter_mut().take(s) {
            row.swap(s, best);
        }
    }
}
