//! Metrics computed from simulation output.

pub mod trace_stats;

pub use trace_stats::TraceStats;
