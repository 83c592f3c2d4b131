//! The stationary law of a dense Markov chain by Grassmann-Taksar-Heyman state reduction (Stewart,
//! *Introduction to the Numerical Solution of Markov Chains*, §2.7): no subtraction anywhere, so it keeps the
//! relative accuracy of transition probabilities down to 1e-300, where LU cancels. It is the last fallback of the
//! analyses' solvers (`tcpfade.analysis.renewal`), for nearly reducible chains.
//!
//! The reduction of state k touches only the pairs (i, j) with a\[i\]\[k\] ≠ 0 and a\[k\]\[j\] ≠ 0, so a chain that
//! stays sparse as it is reduced costs far less than the n³ of a dense elimination (numpy's outer products paid it
//! all: 53 s at 2,400 states).

use crate::error::Result;
use crate::watch::Watch;

/// π with πP = π, Σπ = 1 for the row-major n × n transition matrix `p` (overwritten). `Ok(Err(k))` when state k
/// cannot reach the states before it in double precision (its reduced mass towards them is 0): the chain has
/// more than one recurrent class at the precision of the numbers given.
pub fn gth_stationary(n: usize, p: &mut [f64], watch: &mut Watch) -> Result<std::result::Result<Vec<f64>, usize>> {
    assert_eq!(p.len(), n * n, "an n × n matrix");
    for i in 0..n {
        p[i * n + i] = 0.0;
    }
    let mut row: Vec<(usize, f64)> = Vec::with_capacity(n);
    for k in (1..n).rev() {
        let s: f64 = p[k * n..k * n + k].iter().sum();
        // A NaN sum is no mass either: `s > 0.0` is false for it.
        if s.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return Ok(Err(k));
        }
        row.clear();
        row.extend(p[k * n..k * n + k].iter().enumerate().filter(|(_, &v)| v != 0.0).map(|(j, &v)| (j, v / s)));
        for i in 0..k {
            let via = p[i * n + k];
            if via == 0.0 {
                continue;
            }
            let target = &mut p[i * n..i * n + k];
            for &(j, v) in &row {
                target[j] += via * v;
            }
            p[i * n + k] = via / s;
        }
        watch.tick(|| (n - k) as f64 / n as f64)?;
    }
    let mut pi = vec![0.0; n];
    pi[0] = 1.0;
    for k in 1..n {
        pi[k] = (0..k).map(|i| pi[i] * p[i * n + k]).sum();
    }
    let total: f64 = pi.iter().sum();
    pi.iter_mut().for_each(|x| *x /= total);
    Ok(Ok(pi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_state_chain_by_hand_and_a_birth_death_chain_by_detailed_balance() {
        // π = (q, p) / (p + q) for P = [[1 − p, p], [q, 1 − q]].
        let (a, b) = (0.3, 1e-250);
        let mut m = vec![1.0 - a, a, b, 1.0 - b];
        let pi = gth_stationary(2, &mut m, &mut Watch::quiet()).unwrap().unwrap();
        assert!((pi[0] / pi[1] - b / a).abs() < 1e-12 * b / a);
        // Birth-death: π(k+1)/π(k) = up/down, to full relative accuracy across the whole range.
        let (n, up, down) = (30, 1e-10, 0.5); // π spans (2·10⁻¹⁰)^29 ≈ 5·10⁻²⁸²
        let mut m = vec![0.0; n * n];
        for k in 0..n {
            if k + 1 < n {
                m[k * n + k + 1] = up;
            }
            if k > 0 {
                m[k * n + k - 1] = down;
            }
            m[k * n + k] = 1.0 - m[k * n..(k + 1) * n].iter().sum::<f64>();
        }
        let pi = gth_stationary(n, &mut m, &mut Watch::quiet()).unwrap().unwrap();
        for k in 0..n - 1 {
            assert!((pi[k + 1] / pi[k] / (up / down) - 1.0).abs() < 1e-12, "{k}");
        }
    }

    #[test]
    fn a_state_that_cannot_reach_those_before_it_is_named() {
        // State 2 only returns to itself and state 1 never leaves towards 0: two recurrent classes.
        let mut m = vec![0.5, 0.5, 0.0, 0.0, 0.5, 0.5, 0.0, 0.0, 1.0];
        assert_eq!(gth_stationary(3, &mut m, &mut Watch::quiet()).unwrap(), Err(2));
    }
}
