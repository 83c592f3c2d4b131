//! Independent dense solvers, by Gauss-Jordan elimination, that the tests of the sweep and of the split by
//! backoff level compare with.
#![allow(clippy::needless_range_loop)] // the references index as the equations do

/// π of a small irreducible chain by Gaussian elimination on (P^T − I) with a row of ones: an
/// independent solver.
pub(super) fn dense_stationary(p: &[Vec<f64>]) -> Vec<f64> {
    let n = p.len();
    let mut a: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let mut row: Vec<f64> = (0..n).map(|j| p[j][i] - if i == j { 1.0 } else { 0.0 }).collect();
            row.push(0.0);
            row
        })
        .collect();
    a[n - 1] = vec![1.0; n + 1];
    gauss_jordan(a)
}

/// The solution of the augmented system `a` (n × (n + 1)), by Gauss-Jordan elimination with partial pivoting.
fn gauss_jordan(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let n = a.len();
    for c in 0..n {
        let pivot = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs())).unwrap();
        a.swap(c, pivot);
        for r in 0..n {
            if r != c {
                let f = a[r][c] / a[c][c];
                for k in c..=n {
                    a[r][k] -= f * a[c][k];
                }
            }
        }
    }
    (0..n).map(|i| a[i][n] / a[i][i]).collect()
}

/// x (I − M) = b by Gaussian elimination with partial pivoting (an independent solver).
pub(super) fn dense_solve(m: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    gauss_jordan(
        (0..n)
            .map(|i| {
                let mut row: Vec<f64> = (0..n).map(|j| if i == j { 1.0 } else { 0.0 } - m[j][i]).collect();
                row.push(b[i]);
                row
            })
            .collect(),
    )
}
