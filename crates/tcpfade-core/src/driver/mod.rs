//! Simulation drivers: they own time and the link and drive the sans-IO endpoints of [`crate::tcp`].
//!
//! - [`slotted`]: one packet time per slot, ACKs at the end of the slot (zorzi-rao §3, BRIEF D1).

pub mod slotted;

pub use slotted::{run_slotted, Counts, SlotRecord, SlottedConfig, SlottedOutcome};
