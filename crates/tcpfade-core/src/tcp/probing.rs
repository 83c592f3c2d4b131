//! TCP-Probing's vocabulary (tsaoussidis-badr §3, §3.1): probe segments, best RTT, the measurements of a
//! cycle and the pluggable end-of-cycle decision. The cycle itself is a recovery part of the sender,
//! [`super::probe_cycle`], used when the variant is [`super::Variant::Probing`].
//!
//! The decision is a pluggable part because the paper invites better rules (§3.1, §5); the paper's is
//! [`RttRange`].

/// The four probe segments' kinds (tsaoussidis-badr §3.1: the option's *type* field).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeKind {
    /// Sender → receiver, opens an exchange.
    Probe1,
    /// Receiver → sender, answers PROBE1.
    Pr1Ack,
    /// Sender → receiver, after PR1_ACK.
    Probe2,
    /// Receiver → sender, answers PROBE2 and ends the exchange.
    Pr2Ack,
}

/// A header-only probe segment: its kind and the exchange id it carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeSegment {
    /// PROBE1, PR1_ACK, PROBE2 or PR2_ACK.
    pub kind: ProbeKind,
    /// The exchange's id number (§3.1: one id per full PROBE1 … PR2_ACK exchange).
    pub id: u32,
}

/// What started a cycle (§3 items 1 and 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeTrigger {
    /// The retransmission timer expired; duplicate ACKs are ignored during the cycle.
    Timeout,
    /// The K-th duplicate ACK; duplicate ACKs are counted during the cycle.
    DuplicateAcks,
}

/// How a cycle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProbeOutcome {
    /// Window and threshold untouched; resume where the loss happened (§3).
    ImmediateRecovery,
    /// Wth = ⌈W/2⌉, W = 1, go back to the first unacknowledged segment (§3).
    SlowStart,
}

/// Which RTT samples make *best RTT*, the lower bound of the paper's range (tsaoussidis-badr §3.1; BRIEF D12).
/// §3.1 names best RTT without saying what it is the best of. A cycle's own probe RTTs never count: with them
/// the lower bound could not fail (the minimum of a set is never above its members).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BestRtt {
    /// Every RTT sample the sender took outside this cycle: data segments, the SYN, and earlier cycles' probes.
    Earlier,
    /// Data segments' samples only (the ones the RTO estimator takes, RFC 6298 with Karn's rule). A header-only
    /// probe that met no queue is faster than any data segment, so on a link whose round trip is
    /// serialization this lower bound nearly always fails.
    Data,
    /// Earlier cycles' probe RTTs only: probes judged against probes, like against like. The first cycle has no
    /// such sample, and its lower bound does not bind.
    Probes,
}

impl BestRtt {
    /// Every name accepted by [`BestRtt::from_name`], in the order of the variants.
    pub const NAMES: [&'static str; 3] = ["earlier", "data", "probes"];

    /// Resolve a reading by name; an unknown name is an error listing the known ones.
    pub fn from_name(name: &str) -> crate::error::Result<Self> {
        match name {
            "earlier" => Ok(BestRtt::Earlier),
            "data" => Ok(BestRtt::Data),
            "probes" => Ok(BestRtt::Probes),
            other => Err(crate::error::Error::invalid("best_rtt", other, "must be 'earlier', 'data' or 'probes'")),
        }
    }
}

/// The smallest RTTs a sender has measured, by kind of sample, for [`BestRtt`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RttMinima {
    /// Data segments' samples.
    pub data: Option<f64>,
    /// Samples taken outside the data path (the SYN's).
    pub other: Option<f64>,
    /// Probe RTTs of cycles that have ended.
    pub probes: Option<f64>,
}

impl RttMinima {
    fn fold(slot: &mut Option<f64>, rtt: f64) {
        *slot = Some(slot.map_or(rtt, |b| b.min(rtt)));
    }

    /// Note a data segment's sample.
    pub fn note_data(&mut self, rtt: f64) {
        Self::fold(&mut self.data, rtt);
    }

    /// Note a sample taken outside the data path.
    pub fn note_other(&mut self, rtt: f64) {
        Self::fold(&mut self.other, rtt);
    }

    /// Note a probe RTT of a cycle that has ended.
    pub fn note_probe(&mut self, rtt: f64) {
        Self::fold(&mut self.probes, rtt);
    }

    /// Best RTT as `reading` defines it; 0 when it has no sample yet (the lower bound then does not bind).
    pub fn best(&self, reading: BestRtt) -> f64 {
        let pick = |xs: &[Option<f64>]| xs.iter().flatten().copied().fold(f64::INFINITY, f64::min);
        let best = match reading {
            BestRtt::Earlier => pick(&[self.data, self.other, self.probes]),
            BestRtt::Data => pick(&[self.data]),
            BestRtt::Probes => pick(&[self.probes]),
        };
        if best.is_finite() {
            best
        } else {
            0.0
        }
    }
}

/// What the decision rule sees at the end of a cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeMeasurement {
    /// What started the cycle.
    pub trigger: ProbeTrigger,
    /// RTT of PROBE1 / PR1_ACK of the exchange that completed \[s\].
    pub rtt1: f64,
    /// RTT of PROBE2 / PR2_ACK \[s\].
    pub rtt2: f64,
    /// Best RTT as the sender's [`BestRtt`] reading defines it, never from this cycle's own probes (0: no
    /// sample of that kind yet).
    pub best_rtt: f64,
    /// The RTT estimate (SRTT) current when the cycle started: "last RTT" (§3.1).
    pub last_rtt: f64,
    /// Duplicate ACKs counted (dupack-triggered cycles: the K that started it and all later ones).
    pub dupacks: u64,
    /// Exchanges started in this cycle (1 + restarts after a lost probe or answer).
    pub exchanges: u64,
    /// Time from the start of the cycle to PR2_ACK \[s\].
    pub duration: f64,
    /// Congestion window W and threshold Wth when the cycle ends.
    pub cwnd: f64,
    /// Slow-start threshold Wth.
    pub ssthresh: f64,
}

/// The decision at the end of a probe cycle: Immediate Recovery (true) or Slow Start (false).
pub trait ProbeDecision {
    /// Decide from the cycle's measurements.
    fn immediate_recovery(&mut self, m: &ProbeMeasurement) -> crate::error::Result<bool>;
}

/// The paper's rule (§3.1), with its bounds exposed: Immediate Recovery when both probe RTTs lie in
/// [`low` · best RTT, `high` · last RTT]. `low = high = 1` is the paper's [best RTT, last RTT]; which samples
/// make best RTT is the sender's [`BestRtt`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RttRange {
    /// Factor on best RTT for the lower bound.
    pub low: f64,
    /// Factor on last RTT for the upper bound.
    pub high: f64,
}

impl Default for RttRange {
    fn default() -> Self {
        RttRange { low: 1.0, high: 1.0 }
    }
}

impl RttRange {
    /// Validated bounds: finite, positive, `low` ≤ `high` not required (an empty range always slow-starts).
    pub fn new(low: f64, high: f64) -> crate::error::Result<Self> {
        crate::check::positive("probe_low", low)?;
        crate::check::positive("probe_high", high)?;
        Ok(RttRange { low, high })
    }
}

impl ProbeDecision for RttRange {
    fn immediate_recovery(&mut self, m: &ProbeMeasurement) -> crate::error::Result<bool> {
        let (lo, hi) = (self.low * m.best_rtt, self.high * m.last_rtt);
        Ok([m.rtt1, m.rtt2].iter().all(|&rtt| lo <= rtt && rtt <= hi))
    }
}

/// Counts of a sender's probe cycles.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ProbeCounters {
    /// Cycles started by a timeout.
    pub cycles_after_timeout: u64,
    /// Cycles started by the K-th duplicate ACK.
    pub cycles_after_dupacks: u64,
    /// Cycles that ended in Immediate Recovery.
    pub immediate_recoveries: u64,
    /// Cycles that ended in Slow Start.
    pub slow_starts: u64,
    /// PROBE1 and PROBE2 segments sent.
    pub probes_sent: u64,
    /// Exchanges restarted because the probe timer expired.
    pub restarts: u64,
}

/// A probe cycle that ended: its measurements, when it ended, and the decision (the transfer driver's log).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CycleRecord {
    /// When PR2_ACK arrived \[s\].
    pub end: f64,
    /// The measurements the decision saw.
    pub measurement: ProbeMeasurement,
    /// Immediate Recovery or Slow Start.
    pub outcome: ProbeOutcome,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measurement(rtt1: f64, rtt2: f64) -> ProbeMeasurement {
        ProbeMeasurement {
            trigger: ProbeTrigger::Timeout,
            rtt1,
            rtt2,
            best_rtt: 0.05,
            last_rtt: 0.2,
            dupacks: 0,
            exchanges: 1,
            duration: rtt1 + rtt2,
            cwnd: 8.0,
            ssthresh: 16.0,
        }
    }

    #[test]
    fn the_papers_rule_takes_immediate_recovery_only_when_both_rtts_are_in_range() {
        let mut rule = RttRange::default();
        assert!(rule.immediate_recovery(&measurement(0.1, 0.2)).unwrap()); // last RTT itself is in range
        assert!(!rule.immediate_recovery(&measurement(0.1, 0.21)).unwrap());
        assert!(!rule.immediate_recovery(&measurement(0.3, 0.1)).unwrap());
        let mut strict = RttRange::new(1.5, 1.0).unwrap(); // both >= 1.5 × best (0.05): 0.075
        assert!(!strict.immediate_recovery(&measurement(0.06, 0.1)).unwrap());
        assert!(strict.immediate_recovery(&measurement(0.08, 0.1)).unwrap());
        assert!(RttRange::new(0.0, 1.0).is_err() && RttRange::new(1.0, f64::NAN).is_err());
        // Below best RTT (0.05) fails the lower bound: possible now that a cycle's probes do not make best RTT.
        assert!(!rule.immediate_recovery(&measurement(0.04, 0.1)).unwrap());
    }

    #[test]
    fn each_reading_takes_its_own_samples_and_zero_without_any() {
        let mut m = RttMinima::default();
        for reading in [BestRtt::Earlier, BestRtt::Data, BestRtt::Probes] {
            assert_eq!(m.best(reading), 0.0);
        }
        m.note_other(0.02); // a SYN's
        m.note_data(0.3);
        m.note_data(0.2);
        assert_eq!((m.best(BestRtt::Earlier), m.best(BestRtt::Data), m.best(BestRtt::Probes)), (0.02, 0.2, 0.0));
        m.note_probe(0.01);
        assert_eq!((m.best(BestRtt::Earlier), m.best(BestRtt::Data), m.best(BestRtt::Probes)), (0.01, 0.2, 0.01));
        assert_eq!(BestRtt::from_name("probes").unwrap(), BestRtt::Probes);
        assert!(BestRtt::from_name("all").is_err());
    }
}
