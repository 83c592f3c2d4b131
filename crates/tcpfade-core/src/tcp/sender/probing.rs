//! The sender's TCP-Probing interface (tsaoussidis-badr §3; [`crate::tcp::probe_cycle`]): the probes a probe cycle sends,
//! their answers and timer, and the cycle's end; no-ops for the other recovery parts.

use super::{RecoveryPart, Sender};
use crate::error::Result;
use crate::tcp::probe_cycle::ProbeRecovery;
use crate::tcp::probing::{CycleRecord, ProbeCounters, ProbeDecision, ProbeMeasurement, ProbeOutcome, ProbeSegment, RttMinima};

impl Sender {

    fn probe(&self) -> Option<&ProbeRecovery> {
        match &self.recovery {
            RecoveryPart::Probe(p) => Some(p),
            _ => None,
        }
    }

    /// The probe to send now, if a cycle has one waiting (PROBE1 or PROBE2); the probe and measurement
    /// timers start with it. None at a `now` that is not a time (NaN, infinite): a timer started then would never
    /// be due.
    pub fn poll_probe(&mut self, now: f64) -> Option<ProbeSegment> {
        match &mut self.recovery {
            RecoveryPart::Probe(p) if now.is_finite() => p.poll_probe(now),
            _ => None,
        }
    }

    /// A probe answer arrived: once PR2_ACK of the current exchange is in, the probe cycle judges its
    /// measurements with `decision` and ends (§3.1). Returns the ended cycle's record.
    pub fn on_probe_answer<D: ProbeDecision + ?Sized>(
        &mut self,
        now: f64,
        answer: ProbeSegment,
        decision: &mut D,
    ) -> Result<Option<CycleRecord>> {
        match &mut self.recovery {
            RecoveryPart::Probe(p) => p.on_answer(&mut self.st, &mut self.cc, now, answer, decision),
            _ => Ok(None),
        }
    }

    /// A probe answer arrived; returns the cycle's measurements once PR2_ACK of the current exchange is in,
    /// and leaves the cycle waiting for [`Sender::end_probe_cycle`] (a decision made outside the sender, as in
    /// a hand-worked trace; [`Sender::on_probe_answer`] lets the cycle decide).
    pub fn on_probe_ack(&mut self, now: f64, answer: ProbeSegment) -> Option<ProbeMeasurement> {
        match &mut self.recovery {
            RecoveryPart::Probe(p) => p.on_probe_ack(&self.st, now, answer),
            _ => None,
        }
    }

    /// When the probe timer expires, if a probe is out.
    pub fn probe_deadline(&self) -> Option<f64> {
        self.probe().and_then(ProbeRecovery::deadline)
    }

    /// The probe timer expired: a probe or its answer was lost; the exchange restarts from PROBE1 (§3.1).
    pub fn on_probe_timeout(&mut self, _now: f64) {
        if let RecoveryPart::Probe(p) = &mut self.recovery {
            p.on_probe_timeout();
        }
    }

    /// End the cycle whose measurements [`Sender::on_probe_ack`] returned with `outcome` (§3; see
    /// [`crate::tcp::probe_cycle`]). Ignored unless a cycle waits for its decision (both probes answered).
    pub fn end_probe_cycle(&mut self, outcome: ProbeOutcome) {
        if let RecoveryPart::Probe(p) = &mut self.recovery {
            p.end_cycle(&mut self.st, &mut self.cc, outcome);
        }
    }

    /// Whether a probe cycle is in progress.
    pub fn in_probe_cycle(&self) -> bool {
        self.probe().is_some_and(ProbeRecovery::in_cycle)
    }

    /// Best RTT as the configured [`BestRtt`](crate::tcp::BestRtt) reading defines it now (0: no sample of that
    /// kind yet).
    pub fn best_rtt(&self) -> f64 {
        self.st.rtts.best(self.cfg.best_rtt)
    }

    /// The smallest RTTs measured so far, by kind of sample.
    pub fn rtt_minima(&self) -> RttMinima {
        self.st.rtts
    }

    /// When each timeout F-RTO found spurious and undid had fired, in the order of the undos (one per
    /// [`SenderCounters::spurious_timeouts`](crate::tcp::SenderCounters::spurious_timeouts)): what a driver needs
    /// to count an undo in the measured window of its timeout.
    pub fn undone_timeouts(&self) -> &[f64] {
        &self.st.undone_timeouts
    }

    /// Counts of the probe cycles.
    pub fn probe_counters(&self) -> ProbeCounters {
        self.probe().map(ProbeRecovery::counters).unwrap_or_default()
    }
}
