//! The radio bearer as TCP's link (zorzi-rossi-mazzini §2.3): blocks of a fixed TTI, each right or wrong by a
//! block error sequence ([`BlockTrace`]: a packet on the link during [t, t + d) is lost when any block it
//! overlaps is wrong). The bearer also integrates the user's transmit power over the time TCP actually transmits
//! (the ATP of §2.3: the power trace counts only while TCP sends).

use crate::channel::{BlockTrace, LinkChannel};
use crate::error::{Error, Result};

/// A block error sequence, and optionally the transmit power of every slot, as a link channel.
#[derive(Debug, Clone)]
pub struct RadioBearer {
    blocks: BlockTrace,
    power_w: Vec<f64>,
    slot: f64,
    /// Transmit energy spent while packets were on the link \[J\].
    pub energy: f64,
    /// Time packets were on the link \[s\].
    pub busy: f64,
}

impl RadioBearer {
    /// `errors[k]` for the block of [k·tti, (k + 1)·tti); `power_w[s]` the transmit power in slot s of `slot`
    /// seconds (empty: no energy counted).
    pub fn new(errors: Vec<bool>, tti: f64, power_w: Vec<f64>, slot: f64) -> Result<Self> {
        crate::check::positive("tti", tti)?;
        crate::check::positive("slot", slot)?;
        if errors.is_empty() {
            return Err(Error::invalid("block_errors", "an empty sequence", "must hold one block at least"));
        }
        if let Some(p) = power_w.iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
            return Err(Error::invalid("power", p, "must be finite and >= 0 (watts)"));
        }
        let errors: Vec<u8> = errors.into_iter().map(u8::from).collect();
        Ok(RadioBearer { blocks: BlockTrace::new(errors.into(), tti, false)?, power_w, slot, energy: 0.0, busy: 0.0 })
    }

    /// Time the sequence covers \[s\].
    pub fn span(&self) -> f64 {
        self.blocks.span()
    }

    fn energy_over(&self, start: f64, end: f64) -> f64 {
        if self.power_w.is_empty() {
            return 0.0;
        }
        let first = (start / self.slot).floor() as usize;
        let mut e = 0.0;
        let mut s = first;
        while (s as f64) * self.slot < end && s < self.power_w.len() {
            let (a, b) = ((s as f64 * self.slot).max(start), ((s + 1) as f64 * self.slot).min(end));
            e += self.power_w[s] * (b - a).max(0.0);
            s += 1;
        }
        e
    }
}

impl LinkChannel for RadioBearer {
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        let lost = self.blocks.lost(start, duration)?;
        self.energy += self.energy_over(start, start + duration);
        self.busy += duration;
        Ok(lost)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packet_is_lost_when_any_block_it_overlaps_is() {
        // Blocks of 10 ms, the third wrong; packets of 39.6 ms (512 bytes at 103.4 kb/s).
        let mut b = RadioBearer::new(vec![false, false, true, false, false, false, false, false, false], 0.01,
                                     vec![], 1.0 / 1500.0).unwrap();
        let d = 4096.0 / 103_400.0;
        assert!(b.lost(0.0, d).unwrap()); // blocks 0-3
        assert!(!b.lost(0.04, d).unwrap()); // blocks 4-7
        assert!(b.lost(0.08, d).is_err()); // past the sequence
        let mut c = RadioBearer::new(vec![false, true], 0.01, vec![], 0.01).unwrap();
        assert!(!c.lost(0.0, 0.01).unwrap()); // ends exactly where the wrong block begins
    }

    #[test]
    fn energy_counts_only_while_packets_are_sent() {
        // Power 1 W in the first slot, 3 W in the second; a packet over [0.5, 1.5) slots takes 0.5 + 1.5 J·slot.
        let mut b = RadioBearer::new(vec![false; 4], 1.0, vec![1.0, 3.0, 5.0, 7.0], 1.0).unwrap();
        b.lost(0.5, 1.0).unwrap();
        assert!((b.energy - 2.0).abs() < 1e-12 && (b.busy - 1.0).abs() < 1e-12);
        b.lost(3.0, 0.5).unwrap();
        assert!((b.energy - 5.5).abs() < 1e-12);
    }
}
