//! The vocabulary the cycle model ([`super::cycle`]) and each variant's phase 2 ([`super::phase2`] for Reno and
//! NewReno, [`super::tahoe`] for Tahoe and OldTahoe) share: a window class's phase 2 as the cycle model needs
//! it, and the trait that tells one variant's phase 2 from another's. Its own module so that the cycle model
//! imports the phases and the phases import only this (zorzi-rao §4: phase 1 is common, phase 2 per variant).

use super::fast_recovery::{Ending, Outcome, Rewards, PROBABILITY, REWARDS};
use super::phase2::Phase2;
use crate::error::Result;

/// Phase 2 of one window class as the cycle model needs it: each way it ends (the next cycle's Wth
/// and W, the channel state of its last slot) with its probability per channel state s0 of the loss
/// slot, and the rewards summed over the ways ([`Rewards`] order).
pub struct ClassPhase2 {
    /// (ending, channel state of the last slot, probability per s0); an ending may repeat.
    pub endings: Vec<(Ending, usize, [f64; 2])>,
    /// Rewards summed over the endings, per s0.
    pub sums: Rewards,
}

impl ClassPhase2 {
    /// The endings and summed rewards of a list of outcomes.
    pub fn from_outcomes(outcomes: &[Outcome]) -> Self {
        let mut sums = [[0.0; 2]; REWARDS];
        for o in outcomes {
            for (sum, r) in sums.iter_mut().zip(&o.rewards) {
                sum[0] += r[0];
                sum[1] += r[1];
            }
        }
        let endings = outcomes.iter().map(|o| (o.ending, o.channel_state, o.rewards[PROBABILITY])).collect();
        ClassPhase2 { endings, sums }
    }
}

/// Phase 2 per window class (⌊Y⌋, ⌈Y/2⌉) = (`window`, `next_ssthresh`): what tells one variant's
/// cycle model from another's.
pub trait WindowClasses {
    /// The class's endings and rewards.
    fn class(&mut self, window: u32, next_ssthresh: u32) -> Result<ClassPhase2>;
}

impl WindowClasses for Phase2 {
    fn class(&mut self, window: u32, next_ssthresh: u32) -> Result<ClassPhase2> {
        Ok(ClassPhase2::from_outcomes(&self.outcomes(window, next_ssthresh)?))
    }
}
