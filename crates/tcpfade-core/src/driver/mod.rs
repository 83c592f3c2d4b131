//! Simulation drivers: they own time and the link and drive the sans-IO endpoints of [`crate::tcp`].
//!
//! - [`slotted`]: one packet time per slot, ACKs at the end of the slot (zorzi-rao §3, BRIEF D1).
//! - [`link`]: event by event over a link of rate μ with a DropTail buffer and a round-trip delay
//!   (abouzeid §II-A), the channel evolving in continuous time.
//!
//! Both report their progress to, and can be stopped by, a [`crate::watch::Watch`].

pub mod link;
pub mod slotted;

pub use link::{
    run_link, run_link_watched, LinkChannel, LinkConfig, LinkCounts, LinkOutcome, PacketClocked, PerfectChannel,
    VisitStats, OUTCOMES,
};
pub use slotted::{run_slotted, run_slotted_watched, Counts, SlotRecord, SlottedConfig, SlottedOutcome};
