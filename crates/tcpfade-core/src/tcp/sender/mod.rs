//! The TCP sender as a sans-IO state machine, composed of parts over one state (BRIEF §3):
//!
//! - a congestion-control part ([`super::congestion`]): slow start, congestion avoidance, the Wth rule (Reno-style
//!   AIMD, or CUBIC: [`super::cubic`]);
//! - a loss-detection rule ([`LossDetection`]): the timer alone, or the K-th duplicate ACK too; with SACK, RACK-TLP
//!   (RFC 8985, [`super::rack`]) in place of the duplicate ACKs when [`SenderConfig::rack`] is on;
//! - a recovery part ([`super::recovery`]): go-back-N, Reno, NewReno, TCP-Probing's probe cycle
//!   ([`super::probe_cycle`]) with its end-of-cycle decision, or SACK's (RFC 6675, with PRR as an option:
//!   [`super::sack_recovery`]), chosen by [`SenderConfig::sack`] in place of Reno's or NewReno's;
//! - the one [`super::state`] they all work over.
//!
//! A variant is a named choice of parts ([`Variant::congestion`], [`Variant::loss_detection`],
//! [`Variant::recovery`]), never a copy of
//! this code. What stays here is common to every part: the send decision, RTT sampling, the timer.
//!
//! Events in, decisions out: [`Sender::poll_transmit`] (may a packet be sent now, and which),
//! [`Sender::on_ack`] (or [`Sender::on_sack_ack`] with the ACK's SACK blocks), [`Sender::timer_deadline`] /
//! [`Sender::on_timeout`], and with TCP-Probing [`Sender::poll_probe`], [`Sender::on_probe_answer`],
//! [`Sender::probe_deadline`] / [`Sender::on_probe_timeout`]. With RACK-TLP the reordering timer and the probe
//! timeout reach the driver through the same [`Sender::timer_deadline`] / [`Sender::on_timeout`] as the RTO: one
//! timer, the earliest due ([`super::rack`]). Time is whatever the driver counts in (slots or
//! seconds); the sender adds the RTO to it, and CUBIC's window function reads it as seconds
//! ([`Variant::needs_seconds`]).
//!
//! The usable window is min(⌊W⌋, Wmax) (BRIEF D1), also while W is inflated in fast recovery.
//!
//! Timer (BRIEF D2, RFC 6298 shape): started when a packet is sent and none runs, restarted when an ACK
//! acknowledges new data, stopped when nothing is outstanding. Its value comes from [`RtoEstimator`]: fixed
//! (slotted model) or RFC 6298 with backoff (event-driven model). RTT samples time one segment at a time (as
//! BSD and ns-2 do); by Karn's rule a segment that is sent again, or outstanding at a timeout, gives no sample.
//!
//! A finite transfer ([`SenderConfig::with_segments`]) sends sequence numbers 0 … n − 1 only.

use super::congestion::{Aimd, Congestion, CongestionOps};
use super::cubic::Cubic;
use super::frto::CumulativeFrto;
use super::cwnd_usage::CwndUsage;
use super::probe_cycle::ProbeRecovery;
use super::recovery::{FastRecoveryWindow, GoBackN, NewReno, RecoveryOps, RecoveryPart, Reno};
use super::rto::RtoEstimator;
use super::hystart::{HyStart, HyStartPhase};
use super::sack_recovery::SackRecovery;
use super::state::TcpState;
use super::{CongestionControl, LossDetection, Recovery};
#[cfg(doc)]
use super::Variant;

mod inspect;
mod one_step;
mod probing;

pub use one_step::AckStep;
pub use super::config::SenderConfig;
pub use super::state::{Segment, SenderCounters};

/// TCP sender: its parts and their one state.
#[derive(Debug, Clone)]
pub struct Sender {
    cfg: SenderConfig,
    st: TcpState,
    cc: Congestion,
    detection: LossDetection,
    recovery: RecoveryPart,
    /// The window the last ACK advertised, within the receiver's buffer (`TcpState::rwnd` is it within Wmax).
    advertised: u64,
}

impl Sender {
    /// A sender at the start of a transfer: W = IW (capped at Wmax), Wth = the initial ssthresh.
    pub fn new(cfg: SenderConfig) -> Self {
        let dupthresh = cfg.dupthresh as f64;
        let frto = || cfg.frto.then(|| Box::new(CumulativeFrto::new(cfg.wmax)));
        let recovery = match cfg.variant.recovery() {
            Recovery::FastRecoveryReno | Recovery::FastRecoveryNewReno if cfg.sack => {
                let min_rto = cfg.rto.estimated().map_or(super::rack::TLP_MAX_ACK_DELAY, |p| p.min);
                RecoveryPart::Sack(SackRecovery::new(cfg.wmax, cfg.dupthresh, cfg.prr, cfg.rack.then_some(cfg.rack_timers),
                                                     cfg.frto, min_rto))
            }
            Recovery::GoBackN => RecoveryPart::GoBackN(GoBackN),
            Recovery::FastRecoveryReno => RecoveryPart::Reno(Reno {
                window: FastRecoveryWindow::new(dupthresh, cfg.prr, cfg.prr_partial_ack),
                frto: frto(),
            }),
            Recovery::FastRecoveryNewReno => RecoveryPart::NewReno(NewReno {
                window: FastRecoveryWindow::new(dupthresh, cfg.prr, cfg.prr_partial_ack),
                guard_on: cfg.recover_guard,
                guard: None,
                frto: frto(),
            }),
            Recovery::ProbeCycle => RecoveryPart::Probe(ProbeRecovery::new(cfg.best_rtt, cfg.wmax)),
        };
        let initial_window = cfg.initial_window.min(cfg.wmax) as f64;
        let mut st = TcpState::new(initial_window, cfg.initial_ssthresh, RtoEstimator::new(cfg.rto));
        st.rwnd = cfg.wmax;
        st.usage = cfg.cwnd_limited.then(CwndUsage::default);
        st.growth_parts = cfg.hystart || cfg.cwnd_limited;
        st.hold_ssthresh_on_rto = cfg.hold_ssthresh_on_rto;
        st.timestamps = cfg.timestamps;
        st.ssthresh_once_per_window = cfg.ssthresh_once_per_window;
        if cfg.hystart {
            st.hystart = Some(Box::new(HyStart::new(cfg.initial_window.min(cfg.wmax))));
        }
        Sender {
            st,
            cc: match cfg.variant.congestion() {
                CongestionControl::Aimd => Congestion::Aimd(
                    Aimd::new(cfg.wmax, cfg.byte_counting, cfg.ssthresh_rule).with_integer_window(cfg.integer_window),
                ),
                CongestionControl::Cubic => {
                    Congestion::Cubic(Cubic::new(cfg.wmax, cfg.byte_counting).with_data_end(cfg.segments)
                        .with_alpha(cfg.cubic_alpha).with_integer_window(cfg.integer_window))
                }
            },
            detection: cfg.variant.loss_detection(),
            recovery,
            advertised: cfg.receive_buffer,
            cfg,
        }
    }

    /// The packet to send now, if the window allows one (at most one per call).
    pub fn poll_transmit(&mut self, now: f64) -> Option<Segment> {
        match &self.recovery {
            RecoveryPart::Sack(part) if !part.governs(&self.st) && !part.probe_waiting() => {
                let seq = self.next_in_order()?;
                let segment = Self::emit(&mut self.st, seq, now);
                self.sack_sent(seq, segment.retransmission, false, now);
                return Some(segment);
            }
            RecoveryPart::Sack(_) => return self.poll_transmit_sack(now),
            recovery if recovery.holds_data() => return None,
            _ if self.cfg.frto => return self.poll_transmit_frto(now),
            _ => {}
        }
        let seq = self.next_in_order()?;
        Some(Self::emit(&mut self.st, seq, now))
    }

    /// [`Sender::poll_transmit`] of a cumulative-ACK sender with F-RTO ([`super::frto::CumulativeFrto`]): step 2b's new
    /// data, or the ordinary rule; every segment noted for F-RTO's evidence. Out of line, as SACK's.
    #[inline(never)]
    fn poll_transmit_frto(&mut self, now: f64) -> Option<Segment> {
        let (usable, limit) = (self.usable_window(), self.limit());
        let frto = self.recovery.cumulative_frto().expect("F-RTO without SACK is Reno's or NewReno's");
        let seq = match frto.next_segment(&mut self.st, usable, limit) {
            Some(choice) => choice?,
            None => self.next_in_order()?,
        };
        let segment = Self::emit(&mut self.st, seq, now);
        if let Some(frto) = self.recovery.cumulative_frto() {
            frto.on_send(seq, segment.retransmission);
        }
        Some(segment)
    }

    /// [`Sender::poll_transmit`] of a SACK sender: NextSeg while its recovery part governs (RFC 6675 §5 step C),
    /// else the ordinary rule. Out of line, so that the cumulative-ACK sender's per-packet path is as it was.
    #[inline(never)]
    fn poll_transmit_sack(&mut self, now: f64) -> Option<Segment> {
        let limit = self.limit();
        let (seq, probe) = match &mut self.recovery {
            RecoveryPart::Sack(part) => match part.take_probe(&self.st) {
                // RFC 8985 §7.3: the probe goes beyond cwnd.
                Some(seq) => {
                    if seq == self.st.send_next {
                        self.st.send_next += 1;
                    }
                    (seq, true)
                }
                None if part.governs(&self.st) => {
                    let (seq, rule) = part.next_seg(&self.st, limit)?;
                    part.sent(&mut self.st, seq, rule);
                    (seq, false)
                }
                None => (self.next_in_order()?, false),
            },
            _ => (self.next_in_order()?, false),
        };
        let segment = Self::emit(&mut self.st, seq, now);
        self.sack_sent(seq, segment.retransmission, probe, now);
        Some(segment)
    }

    /// A SACK sender sent `seq`: the scoreboard notes it for F-RTO, RACK records it.
    #[inline(always)]
    fn sack_sent(&mut self, seq: u64, retransmission: bool, probe: bool, now: f64) {
        if let RecoveryPart::Sack(part) = &mut self.recovery {
            if self.cfg.frto {
                part.board.note_sent(seq, retransmission);
            }
            if self.cfg.rack {
                part.rack_sent(&self.st, seq, retransmission, probe, now);
            }
        }
    }

    /// `seq` goes on the link now: the counts, the highest sent, the timed segment (Karn) and the timer (D2).
    #[inline(always)]
    fn emit(st: &mut TcpState, seq: u64, now: f64) -> Segment {
        let segment = Segment { seq, retransmission: seq < st.high };
        if let Some(hystart) = st.hystart.as_deref_mut() {
            if !segment.retransmission && hystart.phase != HyStartPhase::Done {
                hystart.on_send(seq, st.una, now);
            }
        }
        st.high = st.high.max(seq + 1);
        st.counters.transmissions += 1;
        st.counters.retransmissions += u64::from(segment.retransmission);
        match st.timed {
            None if !segment.retransmission => {
                st.timed = Some((seq, now));
                st.timed_retransmission = false;
            }
            _ if segment.retransmission => Self::time_retransmission(st, seq, now),
            _ => {}
        }
        if st.timer.is_none() {
            st.timer = Some(now + st.rto.rto());
        }
        segment
    }

    /// The cumulative-ACK sender's choice (a pending retransmission first, else the next new packet if the window
    /// allows: D1, with RFC 3042's allowance), or None.
    #[inline(always)]
    fn next_in_order(&mut self) -> Option<u64> {
        match self.st.retransmit.take() {
            Some(seq) => Some(seq),
            None if self.st.send_next < self.st.una + self.send_window() && self.st.send_next < self.limit() => {
                if self.st.send_next >= self.st.una + self.usable_window() {
                    self.st.limited_sent += 1;
                }
                self.st.send_next += 1;
                Some(self.st.send_next - 1)
            }
            None => None,
        }
    }

    /// The RTT sample an ACK of `ack` at `now` gives, if it covers the timed segment (Karn's rule kept at send).
    #[inline(always)]
    fn take_rtt_sample(st: &mut TcpState, ack: u64, now: f64) {
        if let Some((seq, sent)) = st.timed.filter(|&(seq, _)| ack > seq) {
            debug_assert!(seq >= st.una);
            st.timed = None;
            let rtt = if st.timed_retransmission { Self::echoed_rtt(st, now) } else { Some(now - sent) };
            // A sample that is not a time (a caller's NaN, or its clock gone backwards) is no sample.
            if let Some(rtt) = rtt.filter(|&rtt| super::rto::is_time(rtt)) {
                st.rto.take_sample(rtt, ack, st.high);
                st.rtts.note_data(rtt);
            }
        }
    }

    /// The RTT an ACK covering a timed retransmission gives: now less the timestamp it echoes, the one of whichever
    /// copy made the receiver send it (a late original's, when the retransmission was spurious); none when the driver
    /// gave no echo ([`Sender::note_echo`]).
    #[cold]
    fn echoed_rtt(st: &mut TcpState, now: f64) -> Option<f64> {
        st.timed_retransmission = false;
        st.echo.map(|echo| now - echo)
    }

    /// The timestamp the next ACK echoes (RFC 7323's TSecr: the sender's clock when the copy the receiver last took
    /// at or below its cumulative ACK left), given by a driver whose ACKs carry timestamps just before it hands the
    /// ACK over ([`Sender::on_ack`], [`Sender::on_sack_ack`]); None for an ACK that carries none. Read only with
    /// [`SenderConfig::timestamps`], for the sample of a retransmission.
    #[inline]
    pub fn note_echo(&mut self, echo: Option<f64>) {
        self.st.echo = echo;
    }

    /// The receiver's window the next ACK advertises, in segments above its cumulative ACK (RFC 9293 §3.10.7.4's
    /// SND.WND), given by a driver whose receiver tunes its window (`super::rwnd`) just before it hands the ACK over.
    /// It bounds what may be outstanding with ⌊W⌋ from then on; W itself is still capped at Wmax alone (Linux does not
    /// cap cwnd by the window either). Taken within [1, the receiver's buffer] (`SenderConfig::receive_buffer`) as
    /// [`Sender::rwnd`] reports it, and within [1, Wmax] for what may be outstanding: the simulated receivers read at
    /// once and never close their window (no persist timer is modelled), and the sender's own buffer may hold less.
    /// Without calls the window is the receiver's whole buffer.
    #[inline]
    pub fn note_window(&mut self, window: u64) {
        self.advertised = window.clamp(1, self.cfg.receive_buffer);
        self.st.rwnd = self.advertised.min(self.cfg.wmax);
    }

    /// `seq` is sent again at `now`. Karn's rule: a segment sent twice gives no sample, so the timed one stops being
    /// timed. With timestamps (RFC 7323 §4) the ACK that covers it echoes the timestamp of the copy that made the
    /// receiver send it, so it is timed by that echo instead, where no segment before it is timed (the first ACK to
    /// cover it gives the sample, and, valid, ends the backoff: Linux's `tcp_ack_update_rtt()`, which takes the echo
    /// whenever an ACK covers retransmitted data).
    #[cold]
    fn time_retransmission(st: &mut TcpState, seq: u64, now: f64) {
        match st.timed {
            _ if st.timestamps && st.timed.is_none_or(|(timed, _)| seq <= timed) => {
                st.timed = Some((seq, now));
                st.timed_retransmission = true;
            }
            Some((timed, _)) if timed == seq => st.timed = None,
            _ => {}
        }
    }

    /// A cumulative ACK `ack` (next expected sequence number) arrived at `now`. A SACK sender takes it as an ACK
    /// without SACK blocks ([`Sender::on_sack_ack`]).
    pub fn on_ack(&mut self, now: f64, ack: u64) {
        if let RecoveryPart::Sack(_) = self.recovery {
            return self.on_sack_ack_without_blocks(now, ack);
        }
        let st = &mut self.st;
        if ack > st.high {
            return; // RFC 9293 §3.10.7.4: it acknowledges something never sent; dropped
        }
        if ack > st.una {
            let (old_una, acked) = (st.una, ack - st.una);
            Self::take_rtt_sample(st, ack, now);
            st.una = ack;
            st.send_next = st.send_next.max(ack);
            if st.retransmit.is_some_and(|seq| seq < ack) {
                st.retransmit = None;
            }
            if self.cfg.frto {
                self.frto_on_ack(old_una);
            }
            let st = &mut self.st;
            self.recovery.on_new_ack(st, &mut self.cc, ack, acked, now);
            // D2: restarted by an ACK of new data, stopped when nothing is outstanding; a probe cycle has its
            // own timer.
            let st = &mut self.st;
            st.timer = (st.una < st.high && !self.recovery.holds_data()).then_some(now + st.rto.rto());
        } else if ack == st.una && st.una < st.high {
            if self.cfg.frto {
                self.frto_on_ack(ack);
            }
            self.on_duplicate_ack(now);
        }
    }

    /// F-RTO without SACK takes an ACK that moved SND.UNA from `old_una` (or a duplicate) before the recovery part.
    #[inline(never)]
    fn frto_on_ack(&mut self, old_una: u64) {
        let new_ok = CumulativeFrto::new_data(&self.st, self.limit());
        let Some(frto) = self.recovery.cumulative_frto() else { return };
        if let Some(high_seq) = frto.on_ack(&mut self.st, old_una, new_ok) {
            self.recovery.after_undone_timeout(&self.st, high_seq);
        }
    }

    /// An ACK with its SACK blocks (RFC 2018) arrived at `now`. Without SACK ([`SenderConfig::sack`] off) the
    /// blocks are ignored and this is [`Sender::on_ack`]. Only the first [`super::MAX_SACK_BLOCKS`] blocks are read, as
    /// an ACK's option carries no more ([`super::SackBlocks::new`] drops the rest likewise). Any ACK, a lying
    /// receiver's too: the SACK part's `evidence` says what of it is taken.
    #[inline(always)]
    pub fn on_sack_ack(&mut self, now: f64, ack: u64, blocks: &[(u64, u64)]) {
        let RecoveryPart::Sack(part) = &mut self.recovery else { return self.on_ack(now, ack) };
        let blocks = &blocks[..blocks.len().min(super::MAX_SACK_BLOCKS)];
        let st = &mut self.st;
        // An ACK older than SND.UNA (ACKs reordered on the way back) acknowledges nothing new; its SACK blocks still
        // say what the receiver holds, and are judged as any ACK's (Linux's tcp_ack() takes an old ACK's SACK blocks).
        let ack = ack.max(st.una);
        let new_data = ack > st.una;
        if new_data {
            if ack > st.high {
                return; // RFC 9293 §3.10.7.4: it acknowledges something never sent; dropped, blocks and all
            }
            Self::take_rtt_sample(st, ack, now);
        }
        part.on_ack(st, &mut self.cc, ack, blocks, now, self.cfg.segments.unwrap_or(u64::MAX));
        if new_data {
            // D2: restarted by an ACK of new data, stopped when nothing is outstanding.
            st.timer = (st.una < st.high).then_some(now + st.rto.rto());
        }
        if self.cfg.rack {
            part.rack_after_ack(st, new_data, now);
        }
    }

    /// [`Sender::on_sack_ack`] out of line, for a SACK sender given an ACK without blocks through [`Sender::on_ack`]: the
    /// cumulative-ACK sender's path stays as small as it was.
    #[inline(never)]
    fn on_sack_ack_without_blocks(&mut self, now: f64, ack: u64) {
        self.on_sack_ack(now, ack, &[])
    }

    fn on_duplicate_ack(&mut self, now: f64) {
        let st = &mut self.st;
        st.dupacks += 1;
        if self.recovery.on_episode_dupack(st) {
            return;
        }
        if self.detection == LossDetection::DuplicateAcks
            && st.dupacks == self.cfg.dupthresh
            && self.recovery.may_react(st)
        {
            self.recovery.on_dupack_loss(st, &mut self.cc, now);
        }
    }

    /// When the retransmission timer expires, if it runs; with RACK-TLP, the earliest of the reordering timer and the
    /// PTO (while armed) or the RTO ([`super::rack`]).
    #[inline]
    pub fn timer_deadline(&self) -> Option<f64> {
        match &self.recovery {
            RecoveryPart::Sack(part) if self.cfg.rack => part.rack_deadline(self.st.timer),
            _ => self.st.timer,
        }
    }

    /// When the retransmission timer (the RTO) expires, if it runs, whatever RACK-TLP's timers say.
    pub fn rto_deadline(&self) -> Option<f64> {
        self.st.timer
    }

    /// The timer expired at `now`: the RTO backs off (RFC 6298 §5.5; a fixed RTO does not: BRIEF D2), the
    /// timed segment gives no sample (Karn), and the recovery part reacts (zorzi-rao §2 rule 3, or a probe
    /// cycle). Ignored unless a timer is due at `now` ([`Sender::timer_deadline`] at or before it): a caller's stray
    /// call, with no timer running or before its deadline, is no expiry (the drivers call it at the deadline).
    pub fn on_timeout(&mut self, now: f64) {
        if !self.timer_deadline().is_some_and(|deadline| deadline <= now) {
            return;
        }
        if self.cfg.rack {
            let new = self.new_data_for_probe();
            if let RecoveryPart::Sack(part) = &mut self.recovery {
                if part.on_rack_timer(&mut self.st, &mut self.cc, now, new) {
                    return;
                }
            }
        }
        let st = &mut self.st;
        st.counters.timeouts += 1;
        st.last_timeout_at = now;
        st.rto.on_timeout();
        st.timed = None;
        self.recovery.on_timeout(st, &mut self.cc, now);
    }

    /// The next new segment, if the transfer has one and the receiver's window allows it (RFC 8985 §7.3's probe).
    fn new_data_for_probe(&self) -> Option<u64> {
        self.st.next_new_segment(self.limit())
    }

    /// Whether [`Sender::poll_transmit`] would send something now.
    pub fn can_send(&self) -> bool {
        let st = &self.st;
        if let RecoveryPart::Sack(part) = &self.recovery {
            if part.probe_waiting() {
                return true;
            }
            if part.governs(st) {
                return st.retransmit.is_some() || part.next_seg(st, self.limit()).is_some();
            }
        }
        !self.recovery.holds_data()
            && (st.retransmit.is_some() || (st.send_next < st.una + self.send_window() && st.send_next < self.limit()))
    }

    /// Segments that may be outstanding now: the usable window, plus RFC 3042's limited transmit, one new
    /// segment for each of the first two duplicate ACKs below dupthresh outside recovery (W + 2 at most, and
    /// never beyond the receiver's window). Only previously unsent data goes this way (SND.NXT at its highest).
    #[inline]
    fn send_window(&self) -> u64 {
        let st = &self.st;
        let usable = self.usable_window();
        if !self.cfg.limited_transmit || st.dupacks == 0 || st.recover.is_some() || st.send_next < st.high
            || st.dupacks >= self.cfg.dupthresh
        {
            return usable;
        }
        (usable + st.dupacks.min(2)).min(st.rwnd)
    }

    /// One past the last sequence number of the transfer (u64::MAX for a bulk transfer).
    #[inline]
    fn limit(&self) -> u64 {
        self.cfg.segments.unwrap_or(u64::MAX)
    }

    /// Whether a finite transfer has every segment acknowledged.
    pub fn is_done(&self) -> bool {
        self.cfg.segments.is_some_and(|n| self.st.una >= n)
    }

    /// An RTT measured outside the data path (a SYN's, say): it updates the estimator (RFC 6298 §2
    /// allows it) and counts for best RTT under [`super::BestRtt::Earlier`]. Not a time (NaN, infinite,
    /// negative): ignored.
    pub fn on_rtt_sample(&mut self, rtt: f64) {
        if !super::rto::is_time(rtt) {
            return;
        }
        self.st.rto.on_sample(rtt);
        self.st.rtts.note_other(rtt);
    }

    // -- inspection and the slotted driver's shortcut --

    /// Next sequence number to send in order.
    pub fn send_next(&self) -> u64 {
        self.st.send_next
    }

    /// One past the highest sequence number sent.
    pub fn high(&self) -> u64 {
        self.st.high
    }

    /// Whether the sender is streaming with nothing outstanding and nothing pending: then every
    /// error-free slot of a zero-delay link sends one new packet whose ACK returns within the slot.
    pub fn is_clean(&self) -> bool {
        let st = &self.st;
        st.recover.is_none()
            && st.retransmit.is_none()
            && st.una == st.send_next
            && st.send_next == st.high
            && st.timer.is_none()
    }

    /// Exactly `n` rounds of (send one new packet, receive its ACK), for a clean sender, the ACKs arriving at
    /// `first_ack`, `first_ack` + 1, …: the shortcut the slotted driver takes through error-free stretches.
    /// Costs O(1) once W has reached Wmax.
    pub(crate) fn fast_forward(&mut self, n: u64, first_ack: f64) {
        debug_assert!(self.is_clean());
        let st = &mut self.st;
        st.timed = None; // the shortcut takes no RTT samples
        st.una += n;
        st.send_next += n;
        st.high += n;
        st.counters.transmissions += n;
        let wmax = self.cfg.wmax as f64;
        for i in 0..n {
            if st.cwnd >= wmax {
                break;
            }
            self.cc.on_ack(st, 1, first_ack + i as f64);
        }
    }
}
