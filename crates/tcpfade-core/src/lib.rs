//! # tcpfade-core
//!
//! The engine of tcpfade: packet-error channel models, TCP endpoints, simulation drivers and
//! metrics, with no Python in it. The Python package `tcpfade` drives it through the thin
//! `tcpfade-python` bindings crate; Rust users can depend on this crate alone.
//!
//! Modules, one per concern:
//! - [`channel`]: slot-clocked packet-error channels (Bernoulli, Gilbert-Elliott, Jakes fading with
//!   the threshold and bit-level error models, traces) and the continuous-time two-state channel.
//! - [`tcp`]: the TCP sender and receiver as sans-IO state machines (OldTahoe, Tahoe, Reno, NewReno,
//!   TCP-Probing).
//! - [`driver`]: simulation drivers that own time and the link (the slotted one, the event-driven one,
//!   finite transfers).
//! - [`coding`]: the UMTS channel code (TS 25.212's rate-1/2 convolutional code and its Viterbi decoder,
//!   the interleavers, rate matching) that the WCDMA block-error mapping is calibrated against.
//! - [`wcdma`]: the multicell WCDMA uplink (layout, RAKE over Jakes-faded rays, closed-loop power control).
//! - [`watch`]: how a caller follows a long run (the fraction done) and stops it.
//! - [`metrics`]: statistics of error traces (error rate, transition counts, burst lengths).
//! - [`analysis`]: numerical kernels of the renewal-reward analysis (the exact phase 2 of Reno and
//!   NewReno); the analysis itself is in the Python package.
//! - [`rng`]: seeded, independent random streams.
//! - [`error`]: the one error type of the crate.
//!
//! Every random object takes a seed: the same inputs and seed give bit-identical output.

pub mod analysis;
pub mod channel;
pub mod check;
pub mod coding;
pub mod driver;
pub mod error;
pub mod metrics;
pub mod rng;
pub mod tcp;
pub mod watch;
pub mod wcdma;

pub use error::{Error, Result};

/// A count (of segments, packets, ACKs: far below 2^63) as a float. Through i64, one instruction, where `as f64` from u64
/// costs several on x86-64, which has no unsigned conversion before AVX-512; the per-ACK rules take it several times an
/// ACK. Equal to `n as f64` for every n below 2^63.
#[inline(always)]
pub(crate) fn count(n: u64) -> f64 {
    debug_assert!(n < 1 << 63);
    n as i64 as f64
}

/// The smaller of two times or durations, `a` if neither is smaller (so a NaN `b` is passed over, as `f64::min` passes
/// it over). One comparison: `f64::min`'s NaN handling costs five instructions more, and the simulators take it several
/// times an event for values that are never NaN (`benchmarks/instructions.sh`).
#[inline(always)]
pub(crate) fn earlier(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}
