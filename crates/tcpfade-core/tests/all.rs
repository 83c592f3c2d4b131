//! The core's integration tests, one module a file, built as one test binary: as separate binaries each linked the
//! core again and instantiated its drivers anew, the larger part of CI's Rust build. This root is a file beside them,
//! not `tests/<dir>/main.rs`: proptest keeps a property's failing seeds in `<file>.proptest-regressions` beside its
//! source only when no `main.rs` or `lib.rs` lies in a folder above that source (else it looks for them elsewhere and
//! silently replays none of the kept ones).

#[path = "frto_traces.rs"]
mod frto_traces;
#[path = "gilbert_elliott_statistics.rs"]
mod gilbert_elliott_statistics;
#[path = "golden.rs"]
mod golden;
#[path = "hystart_traces.rs"]
mod hystart_traces;
#[path = "initial_window.rs"]
mod initial_window;
#[path = "kernel_growth.rs"]
mod kernel_growth;
#[path = "limited_transmit.rs"]
mod limited_transmit;
#[path = "link_driver.rs"]
mod link_driver;
#[path = "link_properties.rs"]
mod link_properties;
#[path = "lying_receiver.rs"]
mod lying_receiver;
#[path = "probing_traces.rs"]
mod probing_traces;
#[path = "prr_traces.rs"]
mod prr_traces;
#[path = "quiet_step.rs"]
mod quiet_step;
#[path = "rack_traces.rs"]
mod rack_traces;
#[path = "receive_window_traces.rs"]
mod receive_window_traces;
#[path = "sack_traces.rs"]
mod sack_traces;
#[path = "slotted_properties.rs"]
mod slotted_properties;
#[path = "slotted_traces.rs"]
mod slotted_traces;
#[path = "timeout_traces.rs"]
mod timeout_traces;
#[path = "transfer_traces.rs"]
mod transfer_traces;
#[path = "watched_runs.rs"]
mod watched_runs;
