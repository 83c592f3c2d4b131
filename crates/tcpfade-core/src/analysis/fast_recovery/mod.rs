//! Phase 2 of Reno and NewReno, exactly: from a loss to its detection and recovery.
//!
//! Phase 2 starts with the loss of the first unacknowledged packet (slot 0) at window Y, with
//! nothing else outstanding and nothing held by the receiver beyond it (a "fresh" loss window;
//! docs/models.md says when that is exact). It ends at the first instant the sender is clean again
//! (everything sent acknowledged, no recovery in progress) or at a timeout. Unlike Tahoe, what
//! happens depends on *which* packets were lost, not only how many: the ACK of a retransmission
//! jumps to the next hole, Reno leaves recovery on it, NewReno deflates W by the jump. So this is a
//! forward recursion over slots whose state is the whole protocol state: the window, the
//! threshold, the duplicate-ACK count, the recovery point, a pending retransmission, the timer,
//! and the set of packets the receiver holds, all relative to the first unacknowledged packet.
//! States that agree are merged, carrying probability and expected rewards for both channel
//! states of slot 0 at once.
//!
//! One reduction keeps the state space small: once the retransmission of the first unacknowledged
//! packet is lost while in recovery, nothing can resend it before the timer fires (Reno resends
//! only on the K-th duplicate ACK, which recovery ignores; NewReno only on a partial ACK, which needs
//! that packet). From then on only counts matter, so such a "doomed" state forgets which packets
//! are held except whether the run right after the hole is still unbroken.
//!
//! Rules (BRIEF D1-D4, as in docs/models.md "TCP endpoints"): one packet per slot, a pending
//! retransmission first, else the next new packet if high < una + min(⌊W⌋, Wmax); a correct
//! packet's ACK is back at the end of its slot, then the timer is checked. New ACK outside
//! recovery: W += 1 below Wth, else 1/W, capped at Wmax. K-th duplicate ACK: Wth = ⌈W/2⌉,
//! W = Wth + K, retransmit, recover = high. Duplicate in recovery: W += 1. New ACK in recovery:
//! Reno exits (W = Wth); NewReno exits if it covers `recover`, else retransmits the new first
//! unacknowledged packet and sets W = max(W - acked + 1, 1). Timer: started by a send when none
//! runs (fires at the end of slot t + T0 - 1), restarted by a new ACK at the end of slot t (fires
//! at the end of slot t + T0), stopped when nothing is outstanding. Timeout: Wth = ⌈W/2⌉ and the
//! next cycle starts with W = 1.
//!
//! # Where
//!
//! The question and the shape of its answer ([`Phase2Query`], [`Outcome`], the reward slots) are in
//! `query.rs`; the protocol state of a path, and of a doomed one, in `state.rs`; the doomed states' outcomes,
//! and what explorations share, in `doomed.rs`; the forward recursion itself, [`explore`], in `explorer.rs`.
//! [`super::phase2`] and `reno_rounds.rs` build on the explorer's pieces.

mod doomed;
mod explorer;
mod query;
mod state;

pub use explorer::explore;
pub use query::{
    total_probability, Ending, FastRecovery, Outcome, Phase2Query, Rewards, CWND_AT_LOSS, DELIVERED, FAST_RETRANSMITS,
    LOSSES_AT_Y, LOSSES_OTHER, MAX_WMAX, PROBABILITY, REWARDS, SLOTS, SUCCESSES, TRANSMISSIONS,
};

// The explorer's pieces that phase2.rs and reno_rounds.rs build on.
pub(super) use doomed::Shared;
pub(super) use explorer::{Explorer, Frontier};
pub(super) use state::{
    add_rewards, ceil_half, credit, holes_after_una, readable, run_after_una, scaled, Active, Doomed,
};
