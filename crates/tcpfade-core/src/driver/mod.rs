//! Simulation drivers: they own time and the link and drive the sans-IO endpoints of [`crate::tcp`].
//!
//! - [`slotted`]: one packet time per slot, ACKs at the end of the slot (zorzi-rao §3, BRIEF D1).
//! - [`link`]: event by event over a link of rate μ with a DropTail buffer and a round-trip delay
//!   (abouzeid §II-A), the channel evolving in continuous time.
//! - [`transfer`]: a finite transfer from SYN to the last ACK over a shared link, byte by byte, with
//!   TCP-Probing's probe segments (tsaoussidis-badr §4).
//!
//! What they share (the choice of the next event, the ACK policy, counter differences) is written once in
//! `common`, and Linux's autotuned receive window at their receiver in `tuned_window`. All report their progress to, and can be stopped by, a [`crate::watch::Watch`].

mod by_start;
pub(crate) mod common;
pub mod link;
mod link_config;
pub mod observe;
pub mod slotted;
pub mod transfer;
mod transfer_records;
mod tuned_window;
pub mod visits;
pub mod window_trace;

pub use link::{
    run_link, run_link_observed, run_link_traced, run_link_watched, LinkChannel, LinkConfig, LinkCounts, LinkObserver, LinkOutcome,
    NoObserver, PacketClocked, PerfectChannel, VisitObserver, VisitStats, WindowRow, WindowTrace,
    OUTCOMES,
};
pub use transfer::{
    run_transfer, run_transfer_traced, CycleRecord, FrameRecord, KindCount, Metering, Radio, SegmentKind, TransferConfig, TransferOutcome,
    KIND_NAMES, TIMESTAMP_OPTION_BYTES,
};
pub use slotted::{run_slotted, run_slotted_watched, Counts, SlotRecord, SlottedConfig, SlottedOutcome};
