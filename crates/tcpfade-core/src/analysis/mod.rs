//! Numerical kernels of the renewal-reward analysis (zorzi-rao §4) that are too heavy for Python.
//!
//! The analysis itself (embedded chain, eq. (13), bounds) lives in the Python package
//! (`tcpfade.analysis`); this module computes what it cannot afford to: the embedded chain and its
//! rewards ([`cycle`]), with the exact phase 2 of Reno and NewReno, whose state is the set of packets
//! the receiver holds ([`fast_recovery`], [`phase2`]), and the phase 2 of Tahoe and OldTahoe
//! ([`tahoe`]).
//!
//! The protocol rules here are written for the analysis from BRIEF D1-D4, not taken from
//! [`crate::tcp`]: comparing the analysis with the simulator then checks both.

pub mod cycle;
pub mod fast_recovery;
pub mod phase2;
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
pub(crate) fn powers(m: &[[f64; 2]; 2], count: usize) -> Vec<[[f64; 2]; 2]> {
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
