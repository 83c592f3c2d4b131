//! Two-state Markov (Gilbert-Elliott) packet-error channel, and Bernoulli as its one-state case.
//!
//! chockalingam eq. (1): M_c = [[p, 1-p], [1-q, q]] with p = P(good -> good), q = P(bad -> bad);
//! stationary error rate eq. (2), P_E = (1-p)/(2-p-q) when the bad state always loses; mean burst
//! 1/(1-q). Each state may lose with its own probability (loss_good, loss_bad), 0 and 1 by default.
//!
//! The chain is simulated by runs: the length of a stay is geometric, and the gap to the next loss
//! inside a state is geometric too, so [`SlotChannel::next_loss_within`] skips any error-free
//! stretch in O(1). Runs come from the channel-state stream and in-state losses from the loss
//! stream (see [`crate::rng`]).

use super::{Geometric, SlotChannel};
use crate::check;
use crate::error::{Error, Result};
use crate::rng::{stream, Rng, Stream};
use rand::Rng as _;

/// Two-state Markov packet-error channel.
#[derive(Debug, Clone)]
pub struct GilbertElliott {
    /// Run length of each state (leaves with probability 1 - stay).
    runs: [Geometric; 2],
    /// Gap to the next loss inside each state.
    gaps: [Geometric; 2],
    state: usize,
    /// Slots left in the current run, the next one included (0: the run is over).
    run_left: u64,
    /// Successful slots before the next in-state loss.
    gap_left: u64,
    state_rng: Rng,
    loss_rng: Rng,
}

impl GilbertElliott {
    /// Chain with P(good->good) = `p`, P(bad->bad) = `q` and per-state loss probabilities.
    /// It starts in its stationary distribution. `p` and `q` may not both be 1 (the chain could
    /// then never leave its first state, and has no unique stationary distribution).
    pub fn new(p: f64, q: f64, loss_good: f64, loss_bad: f64, seed: u64) -> Result<Self> {
        check::probability("p", p)?;
        check::probability("q", q)?;
        check::probability("loss_good", loss_good)?;
        check::probability("loss_bad", loss_bad)?;
        if p == 1.0 && q == 1.0 {
            return Err(Error::invalid(
                "q",
                q,
                "p and q cannot both be 1 (the chain would never change state)",
            ));
        }
        let mut state_rng = stream(seed, Stream::ChannelState);
        let loss_rng = stream(seed, Stream::ChannelLoss);
        let bad_probability = stationary_bad(p, q);
        let state = usize::from(state_rng.random::<f64>() < bad_probability);
        let runs = [Geometric::new(1.0 - p), Geometric::new(1.0 - q)];
        // Memoryless: the residual run of the first state has the same law as a whole run.
        let run_left = runs[state].run_length(&mut state_rng);
        let gaps = [Geometric::new(loss_good), Geometric::new(loss_bad)];
        let mut chain = GilbertElliott { runs, gaps, state, run_left, gap_left: 0, state_rng, loss_rng };
        chain.gap_left = chain.draw_gap();
        Ok(chain)
    }

    /// Independent losses with probability `error_rate`: a chain that stays good forever.
    pub fn bernoulli(error_rate: f64, seed: u64) -> Result<Self> {
        check::probability("error_rate", error_rate)?;
        Self::new(1.0, 0.0, error_rate, 1.0, seed)
    }

    fn draw_gap(&mut self) -> u64 {
        self.gaps[self.state].failures(&mut self.loss_rng)
    }

    /// Start the next run if the current one is over.
    #[inline]
    fn ensure_run(&mut self) {
        if self.run_left == 0 {
            self.state ^= 1;
            self.run_left = self.runs[self.state].run_length(&mut self.state_rng);
            self.gap_left = self.draw_gap();
        }
    }
}

/// Stationary probability of the bad state, (1-p)/(2-p-q).
pub fn stationary_bad(p: f64, q: f64) -> f64 {
    let denominator = 2.0 - p - q;
    if denominator <= 0.0 {
        0.0
    } else {
        (1.0 - p) / denominator
    }
}

impl SlotChannel for GilbertElliott {
    #[inline]
    fn next_slot(&mut self) -> Result<bool> {
        self.ensure_run();
        self.run_left -= 1;
        if self.gap_left == 0 {
            self.gap_left = self.draw_gap();
            Ok(true)
        } else {
            self.gap_left -= 1;
            Ok(false)
        }
    }

    fn next_loss_within(&mut self, limit: u64) -> Result<Option<u64>> {
        let mut consumed = 0u64;
        while consumed < limit {
            self.ensure_run();
            let skip = self.run_left.min(self.gap_left).min(limit - consumed);
            consumed += skip;
            self.run_left -= skip;
            self.gap_left -= skip;
            if consumed == limit {
                return Ok(None);
            }
            if self.run_left > 0 {
                // gap_left == 0 inside the run: the next slot is a loss.
                self.run_left -= 1;
                self.gap_left = self.draw_gap();
                return Ok(Some(consumed));
            }
        }
        Ok(None)
    }

    fn state(&self) -> u8 {
        self.state as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slots(ch: &mut GilbertElliott, n: usize) -> Vec<bool> {
        (0..n).map(|_| ch.next_slot().unwrap()).collect()
    }

    #[test]
    fn skipping_gives_the_same_sample_path_as_stepping() {
        // next_loss_within must be an exact shortcut of next_slot, not another process.
        for (p, q, lg, lb) in [(0.99, 0.9, 0.0, 1.0), (0.9, 0.5, 0.01, 0.7), (1.0, 0.0, 0.05, 1.0)] {
            let mut a = GilbertElliott::new(p, q, lg, lb, 11).unwrap();
            let mut b = a.clone();
            let stepped = slots(&mut a, 20_000);
            let mut skipped = Vec::new();
            while skipped.len() < 20_000 {
                let limit = (20_000 - skipped.len()).min(37) as u64;
                match b.next_loss_within(limit).unwrap() {
                    Some(k) => {
                        skipped.extend(std::iter::repeat(false).take(k as usize));
                        skipped.push(true);
                    }
                    None => skipped.extend(std::iter::repeat(false).take(limit as usize)),
                }
            }
            assert_eq!(stepped, skipped, "p={p} q={q}");
        }
    }

    #[test]
    fn rejects_bad_parameters() {
        assert!(GilbertElliott::new(1.2, 0.5, 0.0, 1.0, 0).is_err());
        assert!(GilbertElliott::new(1.0, 1.0, 0.0, 1.0, 0).is_err());
        assert!(GilbertElliott::bernoulli(-0.1, 0).is_err());
    }

    #[test]
    fn degenerate_chains() {
        // Never bad: no loss in a million slots.
        let mut never = GilbertElliott::new(1.0, 0.3, 0.0, 1.0, 3).unwrap();
        assert_eq!(never.next_loss_within(1_000_000).unwrap(), None);
        // Always bad (p = 0, q = 1): every slot lost.
        let mut always = GilbertElliott::new(0.0, 1.0, 0.0, 1.0, 3).unwrap();
        assert!(slots(&mut always, 1000).iter().all(|&l| l));
        // p = q = 0 alternates deterministically.
        let mut alt = GilbertElliott::new(0.0, 0.0, 0.0, 1.0, 3).unwrap();
        let s = slots(&mut alt, 100);
        assert!(s.windows(2).all(|w| w[0] != w[1]));
    }
}
