//! The question phase 2 of Reno and NewReno answers, and the shape of its answer: how it ends, and the expected
//! rewards of each ending per channel state of slot 0 (the rewards of zorzi-rao §4's cycles, for Reno and NewReno
//! as docs/models.md, "Reno and NewReno", derives them).

use crate::check;
use crate::error::{Error, Result};

/// Largest receiver window the analysis takes: positions relative to una fit a 128-bit mask.
pub const MAX_WMAX: u32 = 128;

/// Which fast-recovery rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FastRecovery {
    /// The first ACK of new data ends recovery.
    Reno,
    /// Only an ACK covering the recovery point ends it; partial ACKs retransmit (RFC 6582).
    NewReno,
}

/// The question: phase 2 for a loss at window Y with ⌊Y⌋ = `window` and ⌈Y/2⌉ = `next_ssthresh`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Phase2Query {
    /// Reno or NewReno.
    pub recovery: FastRecovery,
    /// Receiver window Wmax (at most [`MAX_WMAX`]: the held set is a 128-bit mask).
    pub wmax: u32,
    /// Duplicate-ACK threshold K.
    pub dupthresh: u32,
    /// Timeout T0 in slots (> Wmax).
    pub rto: u32,
    /// ⌊Y⌋: the lost packet and ⌊Y⌋ - 1 more may be sent before recovery.
    pub window: u32,
    /// ⌈Y/2⌉: the threshold a detection sets.
    pub next_ssthresh: u32,
}

impl Phase2Query {
    pub(in crate::analysis) fn validate(&self) -> Result<()> {
        check::int_in("wmax", u64::from(self.wmax), 1, u64::from(MAX_WMAX))?;
        check::int_in("dupthresh", u64::from(self.dupthresh), 1, 1 << 20)?;
        check::int_in("window", u64::from(self.window), 1, u64::from(self.wmax))?;
        check::int_in("next_ssthresh", u64::from(self.next_ssthresh), 1, u64::from(self.wmax))?;
        if self.rto <= self.wmax {
            return Err(Error::invalid("rto", self.rto, &format!("must be > wmax (= {})", self.wmax)));
        }
        Ok(())
    }
}

/// How phase 2 ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ending {
    /// The timer fired; the next cycle starts with W = 1 and this threshold.
    Timeout {
        /// Wth for the next cycle.
        ssthresh: u32,
    },
    /// Everything acknowledged, recovery over; the next cycle starts clean with these.
    Clean {
        /// Wth for the next cycle.
        ssthresh: u32,
        /// W for the next cycle (bits of the f64).
        cwnd_bits: u64,
    },
}

/// Reward slots, per channel state of slot 0 (index 0 = good, 1 = bad).
pub const PROBABILITY: usize = 0;
/// Slots after the loss, up to the end of phase 2 (N_d).
pub const SLOTS: usize = 1;
/// Transmissions (N_t).
pub const TRANSMISSIONS: usize = 2;
/// Correct transmissions (the optimistic N_s).
pub const SUCCESSES: usize = 3;
/// Packets certainly delivered once (the pessimistic N_s): the ones acknowledged, plus at a
/// timeout the unbroken run held right after the hole, which the next good retransmission frees.
pub const DELIVERED: usize = 4;
/// Losses while W is still the window Y of the loss (weighted by Y by the caller).
pub const LOSSES_AT_Y: usize = 5;
/// Other losses.
pub const LOSSES_OTHER: usize = 6;
/// Sum of W over the other losses.
pub const CWND_AT_LOSS: usize = 7;
/// Fast retransmits.
pub const FAST_RETRANSMITS: usize = 8;
/// Number of reward slots.
pub const REWARDS: usize = 9;

/// Expected rewards, for each channel state of slot 0.
pub type Rewards = [[f64; 2]; REWARDS];

/// One way phase 2 ends: the ending, the channel state of its last slot, and the expected rewards
/// over the paths that end so (with their probability in `rewards[PROBABILITY]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub ending: Ending,
    /// Channel state of the last slot of phase 2.
    pub channel_state: usize,
    /// Expected rewards times the indicator of this outcome.
    pub rewards: Rewards,
}

/// Sum of probabilities over outcomes, per channel state of slot 0 (1 when nothing leaked).
pub fn total_probability(outcomes: &[Outcome]) -> [f64; 2] {
    outcomes.iter().fold([0.0; 2], |t, o| [t[0] + o.rewards[PROBABILITY][0], t[1] + o.rewards[PROBABILITY][1]])
}
