//! TCP-Probing's probe cycle as a recovery part of the sender (tsaoussidis-badr §3, §3.1): where the other
//! parts retransmit, it holds data back and sends header-only probes, then ends the cycle with its own
//! [`ProbeDecision`]: Immediate Recovery (W and Wth untouched) or Slow Start.
//!
//! A cycle starts on a timeout or on the K-th duplicate ACK instead of a retransmission. The sender sends
//! PROBE1, the receiver answers PR1_ACK at once, the sender sends PROBE2, the receiver answers PR2_ACK
//! (header-only segments whose option carries an exchange id). The probe timer is the RTT estimate current
//! when the cycle starts; when it expires (a probe or its answer lost) the exchange restarts from PROBE1
//! with a new id.
//!
//! Two choices of ours keep the timer from firing forever before any answer can arrive (the paper does
//! not say): it is never shorter than the clock granularity G (no timer fires within a tick), and when
//! an answer of an abandoned exchange of the same cycle arrives (proof that the timer fired before the
//! round trip was over, not after a loss) it doubles, up to the maximum RTO. Without them a last RTT
//! measured on small segments (a SYN's) can be shorter than a probe's round trip, and the cycle never
//! ends; losses alone leave the timer alone, so a long error phase is probed at the paper's pace.

use super::congestion::Congestion;
use super::probing::{
    CycleRecord, ProbeCounters, ProbeDecision, ProbeKind, ProbeMeasurement, ProbeOutcome, ProbeSegment,
    ProbeTrigger,
};
use super::recovery::{go_back_n, RecoveryOps};
use super::rto::RtoPolicy;
use super::state::TcpState;
use super::BestRtt;
use crate::error::Result;

/// Where an exchange stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// PROBE1 to send, or sent and waiting for PR1_ACK.
    Probe1,
    /// PROBE2 to send, or sent and waiting for PR2_ACK.
    Probe2,
    /// PR2_ACK arrived: waiting for the decision.
    Decide,
}

/// A probe cycle in progress.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ProbeCycle {
    trigger: ProbeTrigger,
    id: u32,
    /// The id of the cycle's first exchange (answers with ids from it up to `id` belong to this cycle).
    first_id: u32,
    stage: Stage,
    /// The current probe is still to be sent.
    pending: bool,
    /// When the current probe was sent (the measurement timer).
    sent_at: f64,
    /// When the probe timer expires (None: no probe out).
    deadline: Option<f64>,
    started: f64,
    last_rtt: f64,
    /// The probe timer's value: last RTT (at least one clock tick), doubled at each restart.
    timeout: f64,
    rtt1: f64,
    rtt2: f64,
    /// The smallest probe RTT of any exchange of this cycle (it joins the earlier probes when the cycle ends).
    own_min: f64,
    dupacks: u64,
    exchanges: u64,
}

impl ProbeCycle {
    fn new(trigger: ProbeTrigger, id: u32, now: f64, last_rtt: f64, timeout: f64, dupacks: u64) -> Self {
        ProbeCycle {
            trigger,
            id,
            first_id: id,
            stage: Stage::Probe1,
            pending: true,
            sent_at: now,
            deadline: None,
            started: now,
            last_rtt,
            timeout,
            rtt1: f64::NAN,
            rtt2: f64::NAN,
            own_min: f64::INFINITY,
            dupacks,
            exchanges: 1,
        }
    }
}


/// TCP-Probing's recovery part: the cycle in progress, the next exchange id and the cycles' counts.
#[derive(Debug, Clone)]
pub(crate) struct ProbeRecovery {
    cycle: Option<ProbeCycle>,
    next_id: u32,
    counters: ProbeCounters,
    /// Which samples make best RTT (BRIEF D12).
    best_rtt: BestRtt,
    /// Wmax, which caps W after Immediate Recovery.
    wmax: f64,
}

impl RecoveryOps for ProbeRecovery {
    /// Counted in a dupack-triggered cycle, ignored in a timeout-triggered one (§3.1).
    fn on_episode_dupack(&mut self, _st: &mut TcpState) -> bool {
        let Some(cycle) = self.cycle.as_mut() else { return false };
        if cycle.trigger == ProbeTrigger::DuplicateAcks {
            cycle.dupacks += 1;
        }
        true
    }

    /// §3 item 2: the K-th duplicate ACK starts a cycle instead of a fast retransmit.
    fn on_dupack_loss(&mut self, st: &mut TcpState, _cc: &mut Congestion, now: f64) {
        self.start(st, now, ProbeTrigger::DuplicateAcks);
    }

    /// §3 item 1: a cycle instead of retransmitting; W and Wth wait for its outcome.
    fn on_timeout(&mut self, st: &mut TcpState, _cc: &mut Congestion, now: f64) {
        st.timer = None;
        st.dupacks = 0;
        self.start(st, now, ProbeTrigger::Timeout);
    }

    /// Data is held back during a cycle (§3), and its probe timer stands in for the RTO.
    #[inline]
    fn holds_data(&self) -> bool {
        self.cycle.is_some()
    }
}

impl ProbeRecovery {
    pub(crate) fn new(best_rtt: BestRtt, wmax: u64) -> Self {
        ProbeRecovery { cycle: None, next_id: 1, counters: ProbeCounters::default(), best_rtt, wmax: wmax as f64 }
    }

    fn start(&mut self, st: &mut TcpState, now: f64, trigger: ProbeTrigger) {
        match trigger {
            ProbeTrigger::Timeout => self.counters.cycles_after_timeout += 1,
            ProbeTrigger::DuplicateAcks => self.counters.cycles_after_dupacks += 1,
        }
        // The probe timer is the RTT estimate current when the cycle starts (§3.1); before any sample
        // there is none, and the RTO stands in for it.
        let last_rtt = st.rto.srtt().unwrap_or_else(|| st.rto.rto());
        let timeout = match st.rto.policy().estimated() {
            Some(p) => last_rtt.max(p.granularity),
            None => last_rtt,
        };
        let dupacks = if trigger == ProbeTrigger::DuplicateAcks { st.dupacks } else { 0 };
        st.timer = None;
        st.retransmit = None;
        let id = self.take_id();
        self.cycle = Some(ProbeCycle::new(trigger, id, now, last_rtt, timeout, dupacks));
    }

    fn take_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        id
    }

    /// The probe to send now, if the cycle has one waiting; the probe and measurement timers start with it.
    pub(crate) fn poll_probe(&mut self, now: f64) -> Option<ProbeSegment> {
        let cycle = self.cycle.as_mut()?;
        if !cycle.pending {
            return None;
        }
        let kind = match cycle.stage {
            Stage::Probe1 => ProbeKind::Probe1,
            Stage::Probe2 => ProbeKind::Probe2,
            Stage::Decide => return None,
        };
        cycle.pending = false;
        cycle.sent_at = now;
        cycle.deadline = Some(now + cycle.timeout);
        self.counters.probes_sent += 1;
        Some(ProbeSegment { kind, id: cycle.id })
    }

    /// A probe answer arrived; the cycle's measurements once PR2_ACK of the current exchange is in.
    pub(crate) fn on_probe_ack(&mut self, st: &TcpState, now: f64, answer: ProbeSegment) -> Option<ProbeMeasurement> {
        let ceiling = match st.rto.policy() {
            RtoPolicy::Fixed(rto) => rto,
            estimated => estimated.estimated().expect("an estimated RTO").max,
        };
        let cycle = self.cycle.as_mut()?;
        if answer.id != cycle.id {
            // An answer of an exchange this cycle abandoned: its timer fired before the round trip was
            // over. Double it (up to the maximum RTO) so that the cycle can end (module documentation).
            if answer.id.wrapping_sub(cycle.first_id) < cycle.id.wrapping_sub(cycle.first_id) {
                cycle.timeout = (2.0 * cycle.timeout).min(ceiling.max(cycle.timeout));
            }
            return None;
        }
        if cycle.pending {
            return None;
        }
        let rtt = now - cycle.sent_at;
        match (answer.kind, cycle.stage) {
            (ProbeKind::Pr1Ack, Stage::Probe1) => {
                cycle.rtt1 = rtt;
                cycle.own_min = cycle.own_min.min(rtt);
                cycle.stage = Stage::Probe2;
                cycle.pending = true;
                cycle.deadline = None;
                None
            }
            (ProbeKind::Pr2Ack, Stage::Probe2) => {
                cycle.rtt2 = rtt;
                cycle.own_min = cycle.own_min.min(rtt);
                cycle.stage = Stage::Decide;
                cycle.deadline = None;
                let c = *cycle;
                // The cycle's own probes (every exchange of it) are left out: they cannot judge themselves.
                Some(ProbeMeasurement {
                    trigger: c.trigger,
                    rtt1: c.rtt1,
                    rtt2: c.rtt2,
                    best_rtt: st.rtts.best(self.best_rtt),
                    last_rtt: c.last_rtt,
                    dupacks: c.dupacks,
                    exchanges: c.exchanges,
                    duration: now - c.started,
                    cwnd: st.cwnd,
                    ssthresh: st.ssthresh,
                })
            }
            _ => None,
        }
    }

    /// A probe answer arrived: once PR2_ACK of the current exchange is in, the cycle's `decision` judges
    /// the measurements and the cycle ends with its outcome (§3.1). Returns the ended cycle's record; an
    /// error of the decision leaves the cycle waiting.
    pub(crate) fn on_answer<D: ProbeDecision + ?Sized>(
        &mut self,
        st: &mut TcpState,
        cc: &mut Congestion,
        now: f64,
        answer: ProbeSegment,
        decision: &mut D,
    ) -> Result<Option<CycleRecord>> {
        let Some(measurement) = self.on_probe_ack(st, now, answer) else { return Ok(None) };
        let outcome = if decision.immediate_recovery(&measurement)? {
            ProbeOutcome::ImmediateRecovery
        } else {
            ProbeOutcome::SlowStart
        };
        self.end_cycle(st, cc, outcome);
        Ok(Some(CycleRecord { end: now, measurement, outcome }))
    }

    /// When the probe timer expires, if a probe is out.
    pub(crate) fn deadline(&self) -> Option<f64> {
        self.cycle.and_then(|c| c.deadline)
    }

    /// The probe timer expired: a probe or its answer was lost. The exchange restarts from PROBE1 with a new
    /// id (§3.1).
    pub(crate) fn on_probe_timeout(&mut self) {
        let id = self.take_id();
        if let Some(cycle) = self.cycle.as_mut() {
            cycle.id = id;
            cycle.stage = Stage::Probe1;
            cycle.pending = true;
            cycle.deadline = None;
            cycle.exchanges += 1;
            self.counters.restarts += 1;
        }
    }

    /// End the cycle with `outcome` (§3). Immediate Recovery: W and Wth untouched, and the sender "picks up
    /// from the point where" the loss was detected: the first unacknowledged segment is sent again, then new
    /// data; after a dupack-triggered cycle W is inflated by the duplicate ACKs counted (Wmax still caps it).
    /// Slow Start: go back N with Wth from the congestion-control rule. Either way the RTO's backoff ends.
    /// Only a cycle at its decision ends: before both probes are answered there is nothing to decide on, and the call
    /// is ignored (the drivers end a cycle with what `on_probe_ack` returned, at its decision).
    pub(crate) fn end_cycle(&mut self, st: &mut TcpState, cc: &mut Congestion, outcome: ProbeOutcome) {
        let Some(cycle) = self.cycle.take_if(|cycle| cycle.stage == Stage::Decide) else { return };
        // From now on this cycle's probes are earlier probes, for the cycles after it.
        st.rtts.note_probe(cycle.own_min);
        // The exchange's id makes its round trip unambiguous, so, as a valid sample would (Karn), it ends
        // the timer's backoff; a header-only round trip is not a data segment's, so it leaves SRTT.
        st.rto.end_backoff();
        match outcome {
            ProbeOutcome::ImmediateRecovery => {
                self.counters.immediate_recoveries += 1;
                st.cwnd = (st.cwnd + cycle.dupacks as f64).min(self.wmax);
                st.retransmit = (st.una < st.high).then_some(st.una);
            }
            ProbeOutcome::SlowStart => {
                self.counters.slow_starts += 1;
                go_back_n(st, cc);
            }
        }
        st.dupacks = 0;
    }

    /// Whether a cycle is in progress.
    pub(crate) fn in_cycle(&self) -> bool {
        self.cycle.is_some()
    }

    /// Counts of the cycles.
    pub(crate) fn counters(&self) -> ProbeCounters {
        self.counters
    }
}
