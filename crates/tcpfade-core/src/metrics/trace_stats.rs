//! Statistics of a packet error trace, for fitting a two-state Markov model to it
//! (zorzi-rao §3.1, the "hybrid" approach): error rate, transition counts and the lengths of the
//! bursts of errors.

use std::collections::BTreeMap;

/// Counts gathered in one pass over a 0/1 loss trace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceStats {
    /// Slots in the trace.
    pub slots: u64,
    /// Lost slots.
    pub losses: u64,
    /// `transitions[a][b]`: how often slot i+1 was b after slot i was a.
    pub transitions: [[u64; 2]; 2],
    /// Lengths of the maximal runs of consecutive losses: length -> count (a run cut by the end
    /// of the trace counts with the length seen).
    pub burst_lengths: BTreeMap<u64, u64>,
    /// Lengths of the maximal runs of consecutive successes: length -> count.
    pub gap_lengths: BTreeMap<u64, u64>,
}

impl TraceStats {
    /// Gather the statistics of `losses` (each 0 or 1).
    pub fn from_losses(losses: &[u8]) -> Self {
        let mut stats = TraceStats { slots: losses.len() as u64, ..Default::default() };
        let mut run = 0u64;
        let mut previous: Option<u8> = None;
        for &x in losses {
            let x = x.min(1);
            stats.losses += u64::from(x);
            match previous {
                Some(p) => {
                    stats.transitions[p as usize][x as usize] += 1;
                    if p == x {
                        run += 1;
                    } else {
                        stats.close_run(p, run);
                        run = 1;
                    }
                }
                None => run = 1,
            }
            previous = Some(x);
        }
        if let Some(p) = previous {
            stats.close_run(p, run);
        }
        stats
    }

    fn close_run(&mut self, state: u8, length: u64) {
        let map = if state == 1 { &mut self.burst_lengths } else { &mut self.gap_lengths };
        *map.entry(length).or_insert(0) += 1;
    }

    /// Number of bursts of errors.
    pub fn bursts(&self) -> u64 {
        self.burst_lengths.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_counted_trace() {
        // 0 1 1 0 0 0 1 1 1 0 1 : bursts 2, 3, 1; gaps 1, 3, 1.
        let s = TraceStats::from_losses(&[0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1]);
        assert_eq!(s.slots, 11);
        assert_eq!(s.losses, 6);
        assert_eq!(s.transitions, [[2, 3], [2, 3]]);
        assert_eq!(s.burst_lengths, BTreeMap::from([(1, 1), (2, 1), (3, 1)]));
        assert_eq!(s.gap_lengths, BTreeMap::from([(1, 2), (3, 1)]));
        assert_eq!(s.bursts(), 3);
    }
}
