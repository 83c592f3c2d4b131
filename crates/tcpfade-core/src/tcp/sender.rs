//! The TCP sender as a sans-IO state machine.
//!
//! Events in, decisions out: [`Sender::poll_transmit`] (may a packet be sent now, and which),
//! [`Sender::on_ack`], [`Sender::timer_deadline`] / [`Sender::on_timeout`]. Time is whatever the
//! driver counts in (slots or seconds); the sender only adds the RTO to it.
//!
//! Window arithmetic (BRIEF D3; zorzi-rao §2 rules 1-3): W is real; per ACK of new data W += 1 in
//! slow start (W < Wth), W += 1/W in congestion avoidance; W never grows past Wmax (zorzi-rao §2:
//! "never exceed Wmax"). On a timeout, or a Tahoe fast retransmit, Wth = ⌈W/2⌉ and W = 1. On a
//! Reno/NewReno fast retransmit Wth = ⌈W/2⌉, W = Wth + K, W += 1 per further duplicate ACK, and
//! W = Wth when recovery ends. The usable window is min(⌊W⌋, Wmax) (BRIEF D1), also while W is
//! inflated in fast recovery.
//!
//! Timer (BRIEF D2, RFC 6298 shape): started when a packet is sent and none runs, restarted when
//! an ACK acknowledges new data, stopped when nothing is outstanding. Its value comes from
//! [`RtoEstimator`]: fixed (slotted model) or RFC 6298 with backoff (event-driven model). RTT samples
//! time one segment at a time (as BSD and ns-2 do); by Karn's rule a segment that is sent again, or
//! outstanding at a timeout, gives no sample.
//!
//! TCP-Probing (tsaoussidis-badr §3) composes the same window and timer with a probe cycle
//! ([`super::probing`]): where the others retransmit, it holds data back and sends header-only probes
//! ([`Sender::poll_probe`], [`Sender::on_probe_ack`], [`Sender::probe_deadline`] /
//! [`Sender::on_probe_timeout`]); the driver hands the two probe RTTs to a
//! [`super::ProbeDecision`] and ends the cycle with [`Sender::end_probe_cycle`].
//!
//! A finite transfer ([`SenderConfig::with_segments`]) sends sequence numbers 0 … n − 1 only.

use super::probing::{
    BestRtt, ProbeCounters, ProbeCycle, ProbeKind, ProbeMeasurement, ProbeOutcome, ProbeSegment, ProbeTrigger, RttMinima,
    Stage,
};
use super::rto::{RtoEstimator, RtoPolicy};
use super::{LossDetection, Recovery, Variant};
use crate::check;
use crate::error::{Error, Result};

/// Parameters of a sender.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SenderConfig {
    /// The TCP variant.
    pub variant: Variant,
    /// Receiver's advertised window Wmax (packets).
    pub wmax: u64,
    /// Duplicate-ACK threshold K (dupthresh).
    pub dupthresh: u64,
    /// Retransmission timeout: fixed T0 (in the driver's time unit) or RFC 6298.
    pub rto: RtoPolicy,
    /// Initial slow-start threshold Wth (packets).
    pub initial_ssthresh: f64,
    /// NewReno only: RFC 6582 §3.2 step 2 (a K-th duplicate ACK starts a fast retransmit only when the
    /// cumulative ACK covers more than `recover`, the highest packet sent when the last recovery or
    /// timeout began) and step 4 (`recover` set at each timeout). Off by default (BRIEF D10): the
    /// NewReno of the papers and of the analyses has no guard.
    pub recover_guard: bool,
    /// A finite transfer of this many segments (sequence numbers 0 … n − 1); None: always data to send.
    pub segments: Option<u64>,
    /// Appropriate byte counting (RFC 3465): an ACK of new data grows W by the segments it acknowledges (at
    /// most L = 2 in slow start, RFC 3465 §2.2) rather than by one ACK's worth, as Linux does. Off by default:
    /// the papers' TCP grows per ACK (zorzi-rao §2); it only matters with delayed or lost ACKs.
    pub byte_counting: bool,
    /// TCP-Probing only: which RTT samples make best RTT, the lower bound of the end-of-cycle rule
    /// (tsaoussidis-badr §3.1; BRIEF D12).
    pub best_rtt: BestRtt,
}

impl SenderConfig {
    /// Validated configuration.
    pub fn new(variant: Variant, wmax: u64, dupthresh: u64, rto: f64, initial_ssthresh: f64) -> Result<Self> {
        check::int_in("wmax", wmax, 1, 1 << 30)?;
        check::int_in("dupthresh", dupthresh, 1, 1 << 30)?;
        check::positive("rto", rto)?;
        if !(initial_ssthresh.is_finite() && initial_ssthresh >= 1.0) {
            return Err(Error::invalid("initial_ssthresh", initial_ssthresh, "must be a finite number >= 1"));
        }
        Ok(SenderConfig {
            variant,
            wmax,
            dupthresh,
            rto: RtoPolicy::Fixed(rto),
            initial_ssthresh,
            recover_guard: false,
            segments: None,
            byte_counting: false,
            best_rtt: BestRtt::Earlier,
        })
    }

    /// The same configuration with the timer estimated by RFC 6298 (checked).
    pub fn with_rfc6298(mut self, params: super::rto::Rfc6298) -> Result<Self> {
        params.validate()?;
        self.rto = RtoPolicy::Rfc6298(params);
        Ok(self)
    }

    /// The same configuration with RFC 6582's `recover` guard on or off (see
    /// [`SenderConfig::recover_guard`]); only NewReno uses it.
    pub fn with_recover_guard(mut self, on: bool) -> Self {
        self.recover_guard = on;
        self
    }

    /// The same configuration with appropriate byte counting on or off (see [`SenderConfig::byte_counting`]).
    pub fn with_byte_counting(mut self, on: bool) -> Self {
        self.byte_counting = on;
        self
    }

    /// The same configuration with TCP-Probing's best RTT taken from the samples `reading` names.
    pub fn with_best_rtt(mut self, reading: BestRtt) -> Self {
        self.best_rtt = reading;
        self
    }

    /// The same configuration for a finite transfer of `segments` segments (checked: at least one).
    pub fn with_segments(mut self, segments: u64) -> Result<Self> {
        check::int_in("segments", segments, 1, 1 << 50)?;
        self.segments = Some(segments);
        Ok(self)
    }
}

/// A packet the sender wants on the link now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// Sequence number (packets, from 0).
    pub seq: u64,
    /// Whether this sequence number was sent before.
    pub retransmission: bool,
}

/// Event counts of a sender.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SenderCounters {
    /// Every packet put on the link, retransmissions included (BRIEF D4).
    pub transmissions: u64,
    /// Packets sent again.
    pub retransmissions: u64,
    /// Timer expirations.
    pub timeouts: u64,
    /// Fast retransmits (K-th duplicate ACK).
    pub fast_retransmits: u64,
}

/// TCP sender state (one bulk transfer, always data to send).
#[derive(Debug, Clone)]
pub struct Sender {
    cfg: SenderConfig,
    detection: LossDetection,
    recovery: Recovery,
    cwnd: f64,
    ssthresh: f64,
    /// First unacknowledged sequence number, X(t) of zorzi-rao §2.
    una: u64,
    /// Next sequence number to send in order (moves back to `una` on go-back-N).
    send_next: u64,
    /// One past the highest sequence number ever sent.
    high: u64,
    dupacks: u64,
    /// In fast recovery: the recovery point (`high` when it started; RFC 6582 "recover").
    recover: Option<u64>,
    /// RFC 6582's `recover` kept after recovery ends and set at timeouts (one past the highest packet
    /// sent then), for the step-2 guard; None before the first recovery or timeout.
    guard: Option<u64>,
    /// A retransmission to send before anything else (fast retransmit, partial ACK).
    retransmit: Option<u64>,
    timer: Option<f64>,
    rto: RtoEstimator,
    /// The segment being timed for an RTT sample, and when it was sent.
    timed: Option<(u64, f64)>,
    counters: SenderCounters,
    /// TCP-Probing: the cycle in progress, the next exchange id, the smallest RTTs measured by kind of
    /// sample (for "best RTT", tsaoussidis-badr §3.1) and the cycles' counts.
    probe: Option<ProbeCycle>,
    next_probe_id: u32,
    rtts: RttMinima,
    probe_counters: ProbeCounters,
}

impl Sender {
    /// A sender at the start of a transfer: W = 1, Wth = initial ssthresh.
    pub fn new(cfg: SenderConfig) -> Self {
        Sender {
            detection: cfg.variant.loss_detection(),
            recovery: cfg.variant.recovery(),
            cwnd: 1.0,
            ssthresh: cfg.initial_ssthresh,
            una: 0,
            send_next: 0,
            high: 0,
            dupacks: 0,
            recover: None,
            guard: None,
            retransmit: None,
            timer: None,
            rto: RtoEstimator::new(cfg.rto),
            timed: None,
            counters: SenderCounters::default(),
            probe: None,
            next_probe_id: 1,
            rtts: RttMinima::default(),
            probe_counters: ProbeCounters::default(),
            cfg,
        }
    }

    /// The packet to send now, if the window allows one (at most one per call).
    pub fn poll_transmit(&mut self, now: f64) -> Option<Segment> {
        if self.probe.is_some() {
            return None; // data is held back during a probe cycle (tsaoussidis-badr §3)
        }
        let seq = match self.retransmit.take() {
            Some(seq) => seq,
            None if self.send_next < self.una + self.usable_window() && self.send_next < self.limit() => {
                self.send_next += 1;
                self.send_next - 1
            }
            None => return None,
        };
        let segment = Segment { seq, retransmission: seq < self.high };
        self.high = self.high.max(seq + 1);
        self.counters.transmissions += 1;
        self.counters.retransmissions += u64::from(segment.retransmission);
        match self.timed {
            None if !segment.retransmission => self.timed = Some((seq, now)),
            Some((timed, _)) if segment.retransmission && timed == seq => self.timed = None, // Karn
            _ => {}
        }
        if self.timer.is_none() {
            self.timer = Some(now + self.rto.rto());
        }
        Some(segment)
    }

    /// A cumulative ACK `ack` (next expected sequence number) arrived at `now`.
    pub fn on_ack(&mut self, now: f64, ack: u64) {
        if ack > self.una {
            let acked = ack - self.una;
            if let Some((seq, sent)) = self.timed.filter(|&(seq, _)| ack > seq) {
                debug_assert!(seq >= self.una);
                self.rto.on_sample(now - sent);
                self.rtts.note_data(now - sent);
                self.timed = None;
            }
            self.una = ack;
            self.send_next = self.send_next.max(ack);
            if self.retransmit.is_some_and(|seq| seq < ack) {
                self.retransmit = None;
            }
            match self.recover {
                None => {
                    self.dupacks = 0;
                    self.grow_window(if self.cfg.byte_counting { acked } else { 1 });
                }
                Some(recover) => self.on_ack_in_recovery(ack, acked, recover),
            }
            // D2: restarted by an ACK of new data, stopped when nothing is outstanding; a probe cycle
            // has its own timer.
            self.timer = (self.una < self.high && self.probe.is_none()).then_some(now + self.rto.rto());
        } else if ack == self.una && self.una < self.high {
            self.on_duplicate_ack(now);
        }
    }

    fn on_ack_in_recovery(&mut self, ack: u64, acked: u64, recover: u64) {
        match self.recovery {
            // Reno: the first ACK of new data ends recovery, partial or not (zorzi-rao §2).
            Recovery::FastRecoveryReno => self.exit_recovery(),
            Recovery::FastRecoveryNewReno if ack >= recover => self.exit_recovery(),
            // RFC 6582 §3.2 step 3 (response to newly acknowledged data), partial ACK: retransmit the first unacknowledged packet,
            // deflate W by the amount newly acknowledged and add back one packet; stay in recovery.
            Recovery::FastRecoveryNewReno => {
                self.retransmit = Some(self.una);
                self.cwnd = (self.cwnd - acked as f64 + 1.0).max(1.0);
            }
            Recovery::GoBackN | Recovery::ProbeCycle => unreachable!("only Reno and NewReno enter fast recovery"),
        }
    }

    fn on_duplicate_ack(&mut self, now: f64) {
        self.dupacks += 1;
        if let Some(cycle) = self.probe.as_mut() {
            // Counted in a dupack-triggered cycle, ignored in a timeout-triggered one (§3.1).
            if cycle.trigger == ProbeTrigger::DuplicateAcks {
                cycle.dupacks += 1;
            }
        } else if self.recover.is_some() {
            // Each further duplicate ACK inflates W by one (D3).
            self.cwnd += 1.0;
        } else if self.detection == LossDetection::DuplicateAcks
            && self.dupacks == self.cfg.dupthresh
            && !self.guarded()
        {
            if self.recovery == Recovery::ProbeCycle {
                self.start_probe_cycle(now, ProbeTrigger::DuplicateAcks);
            } else {
                self.fast_retransmit();
            }
        }
    }

    /// RFC 6582 §3.2 step 2: with the guard on, duplicate ACKs whose cumulative ACK does not cover more
    /// than `recover` (packets up to `guard` − 1) start no fast retransmit and leave ssthresh alone: they
    /// may be echoes of packets sent twice by the last recovery or timeout.
    fn guarded(&self) -> bool {
        self.uses_guard() && self.guard.is_some_and(|guard| self.una <= guard)
    }

    fn uses_guard(&self) -> bool {
        self.cfg.recover_guard && self.recovery == Recovery::FastRecoveryNewReno
    }

    fn fast_retransmit(&mut self) {
        self.counters.fast_retransmits += 1;
        self.ssthresh = (self.cwnd / 2.0).ceil();
        match self.recovery {
            // Tahoe "behaves as if a timeout has occurred" (zorzi-rao §2).
            Recovery::GoBackN => {
                self.cwnd = 1.0;
                self.send_next = self.una;
                self.retransmit = None;
            }
            Recovery::ProbeCycle => unreachable!("TCP-Probing probes instead of retransmitting"),
            Recovery::FastRecoveryReno | Recovery::FastRecoveryNewReno => {
                self.cwnd = self.ssthresh + self.cfg.dupthresh as f64;
                self.retransmit = Some(self.una);
                self.recover = Some(self.high);
                self.guard = Some(self.high);
            }
        }
    }

    fn exit_recovery(&mut self) {
        self.cwnd = self.ssthresh;
        self.recover = None;
        self.dupacks = 0;
    }

    /// Slow start or congestion avoidance increase for one ACK of new data that counts as `segments`
    /// (1 per ACK; with byte counting, the segments it acknowledges: L = 2 at most in slow start), capped at Wmax.
    #[inline]
    fn grow_window(&mut self, segments: u64) {
        let wmax = self.cfg.wmax as f64;
        if self.cwnd < self.ssthresh {
            self.cwnd += segments.min(2) as f64;
        } else {
            self.cwnd += segments as f64 / self.cwnd;
        }
        if self.cwnd > wmax {
            self.cwnd = wmax;
        }
    }

    /// When the retransmission timer expires, if it runs.
    pub fn timer_deadline(&self) -> Option<f64> {
        self.timer
    }

    /// The timer expired at `now`: Wth = ⌈W/2⌉, W = 1, resend from the first unacknowledged
    /// packet (zorzi-rao §2 rule 3). The RTO backs off (RFC 6298; a fixed RTO does not: BRIEF D2).
    pub fn on_timeout(&mut self, now: f64) {
        self.counters.timeouts += 1;
        self.rto.on_timeout();
        self.timed = None;
        if self.recovery == Recovery::ProbeCycle {
            // tsaoussidis-badr §3 item 1: a probe cycle instead of retransmitting; W and Wth wait for
            // its outcome.
            self.timer = None;
            self.dupacks = 0;
            self.start_probe_cycle(now, ProbeTrigger::Timeout);
            return;
        }
        self.ssthresh = (self.cwnd / 2.0).ceil();
        self.cwnd = 1.0;
        self.recover = None;
        if self.uses_guard() {
            // RFC 6582 §3.2 step 4: recover = the highest sequence number sent.
            self.guard = Some(self.high);
        }
        self.retransmit = None;
        self.dupacks = 0;
        self.send_next = self.una;
        self.timer = None;
    }

    /// Whether [`Sender::poll_transmit`] would send something now.
    pub fn can_send(&self) -> bool {
        self.probe.is_none()
            && (self.retransmit.is_some()
                || (self.send_next < self.una + self.usable_window() && self.send_next < self.limit()))
    }

    /// One past the last sequence number of the transfer (u64::MAX for a bulk transfer).
    #[inline]
    fn limit(&self) -> u64 {
        self.cfg.segments.unwrap_or(u64::MAX)
    }

    /// Whether a finite transfer has every segment acknowledged.
    pub fn is_done(&self) -> bool {
        self.cfg.segments.is_some_and(|n| self.una >= n)
    }

    /// An RTT measured outside the data path (a SYN's, say): it updates the estimator (RFC 6298 §2
    /// allows it) and counts for best RTT under [`BestRtt::Earlier`].
    pub fn on_rtt_sample(&mut self, rtt: f64) {
        self.rto.on_sample(rtt);
        self.rtts.note_other(rtt);
    }

    // -- TCP-Probing (tsaoussidis-badr §3, §3.1) --

    fn start_probe_cycle(&mut self, now: f64, trigger: ProbeTrigger) {
        match trigger {
            ProbeTrigger::Timeout => self.probe_counters.cycles_after_timeout += 1,
            ProbeTrigger::DuplicateAcks => self.probe_counters.cycles_after_dupacks += 1,
        }
        // The probe timer is the RTT estimate current when the cycle starts (§3.1); before any sample
        // there is none, and the RTO stands in for it.
        let last_rtt = self.rto.srtt().unwrap_or_else(|| self.rto.rto());
        let timeout = match self.cfg.rto {
            RtoPolicy::Rfc6298(p) => last_rtt.max(p.granularity),
            RtoPolicy::Fixed(_) => last_rtt,
        };
        let dupacks = if trigger == ProbeTrigger::DuplicateAcks { self.dupacks } else { 0 };
        self.timer = None;
        self.retransmit = None;
        self.probe = Some(ProbeCycle::new(trigger, self.take_probe_id(), now, last_rtt, timeout, dupacks));
    }

    fn take_probe_id(&mut self) -> u32 {
        let id = self.next_probe_id;
        self.next_probe_id = self.next_probe_id.wrapping_add(1);
        id
    }

    /// The probe to send now, if a cycle has one waiting (PROBE1 or PROBE2); the probe and
    /// measurement timers start with it.
    pub fn poll_probe(&mut self, now: f64) -> Option<ProbeSegment> {
        let cycle = self.probe.as_mut()?;
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
        self.probe_counters.probes_sent += 1;
        Some(ProbeSegment { kind, id: cycle.id })
    }

    /// A probe answer arrived. Answers of another exchange (an earlier id) are ignored. Returns the
    /// cycle's measurements once PR2_ACK of the current exchange is in: the driver then decides and
    /// calls [`Sender::end_probe_cycle`].
    pub fn on_probe_ack(&mut self, now: f64, answer: ProbeSegment) -> Option<ProbeMeasurement> {
        let ceiling = match self.cfg.rto {
            RtoPolicy::Rfc6298(p) => p.max,
            RtoPolicy::Fixed(rto) => rto,
        };
        let cycle = self.probe.as_mut()?;
        if answer.id != cycle.id {
            // An answer of an exchange this cycle abandoned: its timer fired before the round trip was
            // over. Double it (up to the maximum RTO) so that the cycle can end (see [`super::probing`]).
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
                    best_rtt: self.rtts.best(self.cfg.best_rtt),
                    last_rtt: c.last_rtt,
                    dupacks: c.dupacks,
                    exchanges: c.exchanges,
                    duration: now - c.started,
                    cwnd: self.cwnd,
                    ssthresh: self.ssthresh,
                })
            }
            _ => None,
        }
    }

    /// When the probe timer expires, if a probe is out.
    pub fn probe_deadline(&self) -> Option<f64> {
        self.probe.and_then(|c| c.deadline)
    }

    /// The probe timer expired: a probe or its answer was lost. The exchange restarts from PROBE1
    /// with a new id (§3.1).
    pub fn on_probe_timeout(&mut self, _now: f64) {
        let id = self.take_probe_id();
        if let Some(cycle) = self.probe.as_mut() {
            cycle.id = id;
            cycle.stage = Stage::Probe1;
            cycle.pending = true;
            cycle.deadline = None;
            cycle.exchanges += 1;
            self.probe_counters.restarts += 1;
        }
    }

    /// End the cycle whose measurements [`Sender::on_probe_ack`] returned (§3). Immediate Recovery: W
    /// and Wth untouched, and the sender "picks up from the point where" the loss was detected: the
    /// first unacknowledged segment is sent again, then new data; after a dupack-triggered cycle W is
    /// inflated by the duplicate ACKs counted (the receiver's window still caps it). Slow Start: Wth = ⌈W/2⌉, W = 1, go back to the first unacknowledged segment. Either
    /// way the RTO's backoff ends.
    pub fn end_probe_cycle(&mut self, outcome: ProbeOutcome) {
        let Some(cycle) = self.probe.take() else { return };
        debug_assert_eq!(cycle.stage, Stage::Decide);
        // From now on this cycle's probes are earlier probes, for the cycles after it.
        self.rtts.note_probe(cycle.own_min);
        // The exchange's id makes its round trip unambiguous, so, as a valid sample would (Karn), it
        // ends the timer's backoff; a header-only round trip is not a data segment's, so it leaves SRTT.
        self.rto.end_backoff();
        match outcome {
            ProbeOutcome::ImmediateRecovery => {
                self.probe_counters.immediate_recoveries += 1;
                self.cwnd = (self.cwnd + cycle.dupacks as f64).min(self.cfg.wmax as f64);
                self.retransmit = (self.una < self.high).then_some(self.una);
            }
            ProbeOutcome::SlowStart => {
                self.probe_counters.slow_starts += 1;
                self.ssthresh = (self.cwnd / 2.0).ceil();
                self.cwnd = 1.0;
                self.send_next = self.una;
                self.retransmit = None;
            }
        }
        self.dupacks = 0;
    }

    /// Whether a probe cycle is in progress.
    pub fn in_probe_cycle(&self) -> bool {
        self.probe.is_some()
    }

    /// Best RTT as the configured [`BestRtt`] reading defines it now (0: no sample of that kind yet).
    pub fn best_rtt(&self) -> f64 {
        self.rtts.best(self.cfg.best_rtt)
    }

    /// The smallest RTTs measured so far, by kind of sample.
    pub fn rtt_minima(&self) -> RttMinima {
        self.rtts
    }

    /// Counts of the probe cycles.
    pub fn probe_counters(&self) -> ProbeCounters {
        self.probe_counters
    }

    /// Next sequence number to send in order.
    pub fn send_next(&self) -> u64 {
        self.send_next
    }

    /// One past the highest sequence number sent.
    pub fn high(&self) -> u64 {
        self.high
    }

    /// Whether the sender is streaming with nothing outstanding and nothing pending: then every
    /// error-free slot of a zero-delay link sends one new packet whose ACK returns within the slot.
    pub fn is_clean(&self) -> bool {
        self.recover.is_none()
            && self.retransmit.is_none()
            && self.una == self.send_next
            && self.send_next == self.high
            && self.timer.is_none()
    }

    /// Exactly `n` rounds of (send one new packet, receive its ACK), for a clean sender: the
    /// shortcut a driver takes through error-free stretches. Costs O(1) once W has reached Wmax.
    pub fn fast_forward(&mut self, n: u64) {
        debug_assert!(self.is_clean());
        self.timed = None; // the shortcut takes no RTT samples
        self.una += n;
        self.send_next += n;
        self.high += n;
        self.counters.transmissions += n;
        let wmax = self.cfg.wmax as f64;
        for _ in 0..n {
            if self.cwnd >= wmax {
                break;
            }
            self.grow_window(1);
        }
    }

    /// Congestion window W.
    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }

    /// Slow-start threshold Wth.
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }

    /// First unacknowledged sequence number.
    pub fn una(&self) -> u64 {
        self.una
    }

    /// min(⌊W⌋, Wmax).
    pub fn usable_window(&self) -> u64 {
        // W >= 1, so truncation is the floor (and compiles to one instruction, not a libm call).
        (self.cwnd as u64).min(self.cfg.wmax)
    }

    /// Whether fast recovery is in progress.
    pub fn in_recovery(&self) -> bool {
        self.recover.is_some()
    }

    /// The retransmission-timeout estimator (RTT samples, SRTT, backoff).
    pub fn rto_estimator(&self) -> &RtoEstimator {
        &self.rto
    }

    /// Event counts so far.
    pub fn counters(&self) -> SenderCounters {
        self.counters
    }

    /// The configuration.
    pub fn config(&self) -> &SenderConfig {
        &self.cfg
    }
}
