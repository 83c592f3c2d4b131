//! The multicell WCDMA uplink of zorzi-rossi-mazzini §2.1 (Table 1): 25 hexagonal cells wrapped onto a torus,
//! users placed uniformly, path loss A·r^−β with log-normal shadowing fixed per link, each user served by the
//! base station it is received best by, Rayleigh fading on each ray of its own link (Jakes), RAKE maximal-ratio
//! combining, and closed-loop power control every slot.
//!
//! - [`layout`]: the cells, the torus and the users' path gains.
//! - [`power_control`]: the closed loop of one link.
//! - [`system`]: the simulation, slot by slot, and its traces.
//! - [`bearer`]: a block error sequence as TCP's link (with the transmit energy while TCP sends).

pub mod bearer;
pub mod layout;
pub mod power_control;
pub mod system;

pub use bearer::RadioBearer;
pub use layout::Layout;
pub use power_control::PowerControl;
pub use system::{run_system, RayProfile, SirReference, SystemConfig, SystemOutcome, CHIP_RATE, PAPER_BIT_RATE};
