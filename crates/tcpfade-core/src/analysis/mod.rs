//! Numerical kernels of the renewal-reward analysis (zorzi-rao §4) that are too heavy for Python.
//!
//! The analysis itself (embedded chain, eq. (13), bounds) lives in the Python package
//! (`tcpfade.analysis`); this module computes what it cannot afford to: the embedded chain and its
//! rewards ([`cycle`]), with the exact phase 2 of Reno and NewReno, whose state is the set of packets
//! the receiver holds ([`fast_recovery`], [`phase2`]), and the phase 2 of Tahoe and OldTahoe
//! ([`tahoe`]). For the link analysis (abouzeid §IV, `tcpfade.analysis.link`) it solves the expanded chain
//! and splits its backed-off starts by backoff level ([`link_chain`]).
//!
//! The protocol rules here are written for the analysis from BRIEF D1-D4, not taken from
//! [`crate::tcp`]: comparing the analysis with the simulator then checks both.

pub mod classes;
pub mod cycle;
pub mod fast_recovery;
pub mod gth;
pub mod link_chain;
pub mod phase2;
mod reno_rounds;
pub mod tahoe;

/// One-slot matrices of a two-state channel (states 0 = good, 1 = bad): `success[s][s']` is the
/// probability of moving from s to s' and the packet of that slot getting through, `failure[s][s']`
/// of moving and losing it. success + failure is the transition matrix M.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotMatrices {
    /// A: move, then succeed.
    pub success: [[f64; 2]; 2],
    /// F: move, then fail.
    pub failure: [[f64; 2]; 2],
}

impl SlotMatrices {
    /// M = A + F.
    pub fn step(&self) -> [[f64; 2]; 2] {
        let mut m = [[0.0; 2]; 2];
        for (i, row) in m.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = self.success[i][j] + self.failure[i][j];
            }
        }
        m
    }
}

/// A 2×2 matrix over the channel states (row: from, column: to).
pub(crate) type M2 = [[f64; 2]; 2];

pub(crate) const ZERO: M2 = [[0.0; 2]; 2];
pub(crate) const IDENTITY: M2 = [[1.0, 0.0], [0.0, 1.0]];

/// a += by · b.
pub(crate) fn add_scaled(a: &mut M2, b: &M2, by: f64) {
    for i in 0..2 {
        for j in 0..2 {
            a[i][j] += by * b[i][j];
        }
    }
}

/// Row vector times matrix.
pub(crate) fn row_times(v: [f64; 2], m: &M2) -> [f64; 2] {
    [v[0] * m[0][0] + v[1] * m[1][0], v[0] * m[0][1] + v[1] * m[1][1]]
}

pub(crate) fn mat_mul(a: &[[f64; 2]; 2], b: &[[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let mut c = [[0.0; 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            c[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j];
        }
    }
    c
}

/// M^0, M^1, ..., M^count.
pub(crate) fn powers(m: &[[f64; 2]; 2], count: usize) -> Vec<M2> {
    let mut out = vec![[[1.0, 0.0], [0.0, 1.0]]];
    for n in 1..=count {
        let next = mat_mul(&out[n - 1], m);
        out.push(next);
    }
    out
}

/// M^n by repeated squaring (a timer of 2³² slots is 32 products).
pub(crate) fn mat_pow(m: &[[f64; 2]; 2], mut n: u64) -> [[f64; 2]; 2] {
    let mut out = [[1.0, 0.0], [0.0, 1.0]];
    let mut square = *m;
    while n > 0 {
        if n & 1 == 1 {
            out = mat_mul(&out, &square);
        }
        square = mat_mul(&square, &square);
        n >>= 1;
    }
    out
}

/// Sums over the loss patterns ("words" of A and F, one letter a slot, in time order) of each length n and
/// number c of correct slots: the products themselves, and the same weighted by two counts the doomed
/// sending stretches of Reno and NewReno need. Built by appending one letter at a time, O(n²) products.
#[derive(Debug, Clone)]
pub(crate) struct WordSums {
    /// Σ of the products over the words with n letters, c of them A, at [`WordSums::at`]`(n, c)`.
    pub(crate) words: Vec<M2>,
    /// The same, each word weighted by its leading run of A (the packets an unbroken run frees).
    pub(crate) leading_run: Vec<M2>,
    /// The same, each word weighted by Σ over its F of the A before it (W grown by the duplicate ACKs at each
    /// loss in recovery).
    pub(crate) successes_before_losses: Vec<M2>,
}

impl WordSums {
    /// The sums for every length up to `longest`.
    pub(crate) fn new(ch: &SlotMatrices, longest: usize) -> Self {
        let size = Self::at(longest + 1, 0);
        let mut words = vec![ZERO; size];
        let (mut leading_run, mut successes_before_losses) = (words.clone(), words.clone());
        words[0] = IDENTITY;
        for n in 1..=longest {
            for c in 0..=n {
                // The last letter F (c correct before it) or A (c - 1 before it).
                let (mut w, mut run, mut before) = (ZERO, ZERO, ZERO);
                if c < n {
                    let prev = Self::at(n - 1, c);
                    add_scaled(&mut w, &mat_mul(&words[prev], &ch.failure), 1.0);
                    add_scaled(&mut run, &mat_mul(&leading_run[prev], &ch.failure), 1.0);
                    let mut b = successes_before_losses[prev];
                    add_scaled(&mut b, &words[prev], c as f64);
                    add_scaled(&mut before, &mat_mul(&b, &ch.failure), 1.0);
                }
                if c > 0 {
                    let prev = Self::at(n - 1, c - 1);
                    add_scaled(&mut w, &mat_mul(&words[prev], &ch.success), 1.0);
                    let mut r = leading_run[prev];
                    if c == n {
                        // All correct: the leading run is the whole word, one longer than before.
                        add_scaled(&mut r, &words[prev], 1.0);
                    }
                    add_scaled(&mut run, &mat_mul(&r, &ch.success), 1.0);
                    add_scaled(&mut before, &mat_mul(&successes_before_losses[prev], &ch.success), 1.0);
                }
                let here = Self::at(n, c);
                (words[here], leading_run[here], successes_before_losses[here]) = (w, run, before);
            }
        }
        WordSums { words, leading_run, successes_before_losses }
    }

    /// Σ of the products over the words of `n` letters, `c` of them A.
    #[inline]
    pub(crate) fn of(&self, n: u32, c: u32) -> &M2 {
        &self.words[Self::at(n as usize, c as usize)]
    }

    /// Index of (length n, c correct): the lengths one after another, each with its n + 1 counts.
    #[inline]
    pub(crate) fn at(n: usize, c: usize) -> usize {
        n * (n + 1) / 2 + c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of up to 10 letters, one by one: its product, leading run of A and Σ over its F of the A
    /// before it, added to the sums of its (length, correct count).
    #[test]
    fn word_sums_equal_the_words_one_by_one() {
        let ch = SlotMatrices { success: [[0.85, 0.04], [0.2, 0.3]], failure: [[0.03, 0.08], [0.1, 0.4]] };
        let longest = 10;
        let sums = WordSums::new(&ch, longest);
        let size = WordSums::at(longest + 1, 0);
        let (mut words, mut runs, mut before) = (vec![ZERO; size], vec![ZERO; size], vec![ZERO; size]);
        for n in 0..=longest {
            for bits in 0u32..1 << n {
                // Bit i set: letter i (in time order) is A.
                let (mut product, mut correct, mut sum_before) = (IDENTITY, 0, 0);
                for i in 0..n {
                    if bits >> i & 1 == 1 {
                        product = mat_mul(&product, &ch.success);
                        correct += 1;
                    } else {
                        product = mat_mul(&product, &ch.failure);
                        sum_before += correct;
                    }
                }
                let run = bits.trailing_ones().min(n as u32);
                let at = WordSums::at(n, correct);
                add_scaled(&mut words[at], &product, 1.0);
                add_scaled(&mut runs[at], &product, f64::from(run));
                add_scaled(&mut before[at], &product, sum_before as f64);
            }
        }
        for (name, got, want) in [
            ("words", &sums.words, &words),
            ("leading_run", &sums.leading_run, &runs),
            ("successes_before_losses", &sums.successes_before_losses, &before),
        ] {
            for (at, (g, w)) in got.iter().zip(want).enumerate() {
                for (g, w) in g.iter().flatten().zip(w.iter().flatten()) {
                    assert!((g - w).abs() <= 1e-14 * (1.0 + w.abs()), "{name} at {at}: {g} against {w}");
                }
            }
        }
    }
}
