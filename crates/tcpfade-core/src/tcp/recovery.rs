//! The recovery part of the sender (BRIEF §3; ns-3's TcpRecoveryOps): what the sender does once a loss is
//! detected, by the K-th duplicate ACK or by the timer, until it is repaired. One of
//!
//! - `GoBackN`: OldTahoe and Tahoe, "as if a timeout has occurred" (zorzi-rao §2);
//! - `Reno`: fast retransmit and fast recovery that ends with the first ACK of new data (zorzi-rao §2);
//! - `NewReno`: fast recovery that ends with a full ACK, partial ACKs retransmitting (RFC 6582), with the
//!   §3.2 guard as an option (BRIEF D10);
//! - `ProbeRecovery`: TCP-Probing's probe cycle and its decision (tsaoussidis-badr §3);
//! - `SackRecovery`: RFC 6675's SACK-based recovery, with RFC 6937's PRR as an option ([`super::sack_recovery`]);
//!   it takes its ACKs with their SACK blocks from the sender directly, so of this trait only the timeout and a
//!   loss detected from outside (`on_dupack_loss`) reach it.
//!
//! Each works over the sender's one `TcpState` and asks the congestion-control part
//! ([`super::congestion`]) for Wth and the loss window, so the ⌈W/2⌉ rule lives in one place. Dispatch is an
//! enum matched in place (`RecoveryPart`): static, as the per-ACK path needs.

use super::congestion::{Congestion, CongestionOps};
use super::frto::CumulativeFrto;
use super::probe_cycle::ProbeRecovery;
use super::prr::CumulativePrr;
use super::prr::{PartialAck, PrrBound, PrrState};
use super::sack_recovery::SackRecovery;
use super::state::TcpState;

/// What a recovery part answers. The sender calls these in a fixed order (see [`super::sender`]); the
/// defaults are the behaviour outside any recovery episode.
pub(crate) trait RecoveryOps {
    /// An ACK of new data arrived at `now` (`una` already moved to `ack`; `acked` segments newly acknowledged).
    #[inline]
    fn on_new_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, _ack: u64, acked: u64, now: f64) {
        open_ack(st, cc, acked, now);
    }

    /// A duplicate ACK (already counted in `st.dupacks`) during this part's own episode (fast recovery, a
    /// probe cycle): true when the part took it, and loss detection must not look at it.
    fn on_episode_dupack(&mut self, _st: &mut TcpState) -> bool {
        false
    }

    /// Whether a K-th duplicate ACK may start a reaction now (RFC 6582 §3.2 step 2 says when it may not).
    fn may_react(&self, _st: &TcpState) -> bool {
        true
    }

    /// The K-th duplicate ACK detected a loss at `now`.
    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64);

    /// The retransmission timer expired at `now` (the timeout is counted and the RTO backed off already).
    #[inline]
    fn on_timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        restart_after_timeout(st, cc);
    }

    /// Whether data is held back (a probe cycle holds it, and runs its own timer instead of the RTO).
    #[inline]
    fn holds_data(&self) -> bool {
        false
    }
}

/// An ACK of new data at `now` outside recovery: the duplicate-ACK count restarts and W grows (D3).
#[inline]
pub(crate) fn open_ack(st: &mut TcpState, cc: &mut Congestion, acked: u64, now: f64) {
    st.dupacks = 0;
    st.limited_sent = 0;
    cc.on_ack(st, acked, now);
}

/// Wth from the congestion-control rule, W = the loss window, and resend from the first unacknowledged
/// packet: zorzi-rao §2 rule 3 (timeout), Tahoe's fast retransmit, TCP-Probing's Slow Start (§3).
pub(crate) fn go_back_n(st: &mut TcpState, cc: &mut Congestion) {
    st.ssthresh = cc.ssthresh(st);
    resend_from_una(st, cc);
}

/// W = the loss window, and resend from the first unacknowledged packet (go-back-N without its ssthresh).
fn resend_from_una(st: &mut TcpState, cc: &mut Congestion) {
    st.cwnd = cc.loss_window();
    st.send_next = st.una;
    st.retransmit = None;
}

/// The ssthresh a retransmission timeout sets: the congestion part's, unless the sender holds it on a timeout that
/// repeats one (the cumulative ACK unchanged since the last timeout): RFC 5681 §3.1, "if the segment has already been
/// retransmitted by way of the retransmission timer at least once, the value of ssthresh is held constant"; Linux's
/// tcp_enter_loss() likewise leaves ssthresh, and the congestion module's state, alone while icsk_retransmits > 0.
///
/// With [`super::SenderConfig::ssthresh_once_per_window`], neither does a timeout in a fast recovery whose recovery
/// point SND.UNA has not passed: that window's reduction is made already (Linux's tcp_enter_loss(), "reduce ssthresh if
/// it has not yet been made inside this window").
pub(crate) fn timeout_ssthresh(st: &mut TcpState, cc: &mut Congestion) {
    let repeated = st.hold_ssthresh_on_rto && st.last_rto_una == Some(st.una);
    let reduced = st.ssthresh_once_per_window && st.recover.is_some_and(|point| point > st.una);
    st.last_rto_una = Some(st.una);
    if !repeated && !reduced {
        st.ssthresh = cc.ssthresh(st);
    }
}

/// A timeout outside TCP-Probing: go back N and forget any recovery (zorzi-rao §2 rule 3; RFC 6582 §3.2
/// step 4 for what NewReno's guard adds).
fn restart_after_timeout(st: &mut TcpState, cc: &mut Congestion) {
    timeout_ssthresh(st, cc);
    resend_from_una(st, cc);
    st.recover = None;
    st.dupacks = 0;
    st.limited_sent = 0;
    st.timer = None;
}

/// The window rule of a cumulative-ACK fast recovery: the papers' and RFC 5681's inflation (W = Wth + K, one
/// more per duplicate ACK, D3), or PRR without SACK ([`super::prr`]) when `bound` is set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct FastRecoveryWindow {
    /// K, added to Wth when recovery starts (inflation).
    pub dupthresh: f64,
    /// PRR's reduction bound, when PRR is the rule.
    pub bound: Option<PrrBound>,
    /// PRR's episode, in recovery.
    pub prr: Option<CumulativePrr>,
    /// With PRR, whether a partial ACK's retransmission waits for its sndcnt.
    pub partial: PartialAck,
}

impl FastRecoveryWindow {
    pub(crate) fn new(dupthresh: f64, bound: Option<PrrBound>, partial: PartialAck) -> Self {
        FastRecoveryWindow { dupthresh, bound, prr: None, partial }
    }

    /// Fast retransmit into fast recovery: Wth from the rule, the first unacknowledged packet sent again,
    /// `recover` = the highest packet sent (RFC 6582 §3.2 step 2), and W = Wth + K (D3) or PRR's.
    fn enter(&mut self, st: &mut TcpState, cc: &mut Congestion) {
        st.counters.fast_retransmits += 1;
        st.ssthresh = cc.ssthresh(st);
        st.retransmit = Some(st.una);
        st.recover = Some(st.high);
        match self.bound {
            Some(bound) => self.prr = Some(CumulativePrr::enter(st, bound, self.partial)),
            None => st.cwnd = st.ssthresh + self.dupthresh,
        }
        st.limited_sent = 0;
    }

    /// Fast recovery ends: W deflates to Wth (D3; RFC 6937 §3's end of recovery as well).
    fn exit(&mut self, st: &mut TcpState) {
        st.cwnd = st.ssthresh;
        st.recover = None;
        st.dupacks = 0;
        self.prr = None;
    }

    /// A duplicate ACK in fast recovery: W inflates by one (D3; RFC 5681 §3.2 step 4), or PRR's window.
    fn on_dupack(&mut self, st: &mut TcpState) -> bool {
        if st.recover.is_none() {
            return false;
        }
        match &mut self.prr {
            Some(prr) => prr.on_dupack(st),
            None => st.cwnd += 1.0,
        }
        true
    }

    /// NewReno's partial ACK of `acked` packets: retransmit the first unacknowledged one and, inflating,
    /// deflate W by the amount acknowledged and add back one (RFC 6582 §3.2 step 3); or PRR's window.
    fn on_partial_ack(&mut self, st: &mut TcpState, acked: u64) {
        st.retransmit = Some(st.una);
        match &mut self.prr {
            Some(prr) => prr.on_partial_ack(st, acked),
            None => st.cwnd = (st.cwnd - acked as f64 + 1.0).max(1.0),
        }
    }

    /// A timeout ends the episode.
    fn forget(&mut self) {
        self.prr = None;
    }
}

/// OldTahoe and Tahoe: a fast retransmit "behaves as if a timeout has occurred" (zorzi-rao §2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GoBackN;

impl RecoveryOps for GoBackN {
    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        st.counters.fast_retransmits += 1;
        go_back_n(st, cc);
    }
}

/// Reno: fast recovery that the first ACK of new data ends, partial or not (zorzi-rao §2).
#[derive(Debug, Clone)]
pub(crate) struct Reno {
    /// The window rule in recovery.
    pub window: FastRecoveryWindow,
    /// F-RTO without SACK, when on ([`super::SenderConfig::frto`]).
    pub frto: Option<Box<CumulativeFrto>>,
}

impl RecoveryOps for Reno {
    #[inline]
    fn on_new_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, _ack: u64, acked: u64, now: f64) {
        if st.recover.is_some() {
            self.window.exit(st);
        } else {
            open_ack(st, cc, acked, now);
        }
    }

    fn on_episode_dupack(&mut self, st: &mut TcpState) -> bool {
        self.window.on_dupack(st)
    }

    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        self.window.enter(st, cc);
    }

    fn on_timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        if let Some(frto) = &mut self.frto {
            frto.on_timeout(st);
        }
        restart_after_timeout(st, cc);
        self.window.forget();
    }
}

/// NewReno (RFC 6582): fast recovery ends when the ACK covers `recover`; a partial ACK retransmits the next
/// hole and stays in recovery.
#[derive(Debug, Clone)]
pub(crate) struct NewReno {
    /// The window rule in recovery.
    pub window: FastRecoveryWindow,
    /// RFC 6582 §3.2 steps 2 and 4 (BRIEF D10; [`super::SenderConfig::recover_guard`]).
    pub guard_on: bool,
    /// RFC 6582's `recover` kept after recovery ends and set at timeouts (one past the highest packet sent
    /// then), for the step-2 guard; None before the first recovery or timeout.
    pub guard: Option<u64>,
    /// F-RTO without SACK, when on ([`super::SenderConfig::frto`]).
    pub frto: Option<Box<CumulativeFrto>>,
}

impl RecoveryOps for NewReno {
    #[inline]
    fn on_new_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, acked: u64, now: f64) {
        match st.recover {
            None => open_ack(st, cc, acked, now),
            Some(recover) if ack >= recover => self.window.exit(st),
            // RFC 6582 §3.2 step 3, partial ACK: stay in recovery.
            Some(_) => self.window.on_partial_ack(st, acked),
        }
    }

    fn on_episode_dupack(&mut self, st: &mut TcpState) -> bool {
        self.window.on_dupack(st)
    }

    /// RFC 6582 §3.2 step 2: with the guard on, duplicate ACKs whose cumulative ACK does not cover more than
    /// `recover` (packets up to `guard` − 1) start no fast retransmit and leave Wth alone: they may be echoes
    /// of packets sent twice by the last recovery or timeout.
    fn may_react(&self, st: &TcpState) -> bool {
        !(self.guard_on && self.guard.is_some_and(|guard| st.una <= guard))
    }

    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        self.window.enter(st, cc);
        self.guard = Some(st.high);
    }

    fn on_timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        if let Some(frto) = &mut self.frto {
            frto.on_timeout(st);
        }
        restart_after_timeout(st, cc);
        self.window.forget();
        if self.guard_on {
            // RFC 6582 §3.2 step 4: recover = the highest sequence number sent.
            self.guard = Some(st.high);
        }
    }
}

/// The recovery part a sender runs, chosen by its variant ([`super::Variant::recovery`]).
#[derive(Debug, Clone)]
pub(crate) enum RecoveryPart {
    /// OldTahoe, Tahoe.
    GoBackN(GoBackN),
    /// Reno.
    Reno(Reno),
    /// NewReno.
    NewReno(NewReno),
    /// TCP-Probing.
    Probe(ProbeRecovery),
    /// SACK (RFC 6675), with or without PRR, in place of Reno's or NewReno's ([`super::SenderConfig::sack`]).
    Sack(SackRecovery),
}

impl RecoveryOps for SackRecovery {
    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, _now: f64) {
        self.enter_recovery(st, cc);
    }

    fn on_timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64) {
        self.timeout(st, cc, now);
    }
}

/// Forward a call to the part in use (static dispatch: one match, each arm inlined).
macro_rules! each_part {
    ($self:ident, $part:ident => $call:expr) => {
        match $self {
            RecoveryPart::GoBackN($part) => $call,
            RecoveryPart::Reno($part) => $call,
            RecoveryPart::NewReno($part) => $call,
            RecoveryPart::Probe($part) => $call,
            RecoveryPart::Sack($part) => $call,
        }
    };
}

impl RecoveryPart {
    /// F-RTO of a cumulative-ACK recovery (Reno's, NewReno's), when on; SACK's runs its own
    /// ([`super::sack_recovery`]).
    #[inline]
    pub(crate) fn cumulative_frto(&mut self) -> Option<&mut CumulativeFrto> {
        match self {
            RecoveryPart::Reno(r) => r.frto.as_deref_mut(),
            RecoveryPart::NewReno(r) => r.frto.as_deref_mut(),
            _ => None,
        }
    }

    /// F-RTO without SACK undid a timeout whose `high_seq` was this: NewReno's guard, set by the timeout (RFC 6582 §3.2
    /// step 4), is lifted, as Linux returns to the open state, where duplicate ACKs start a fast retransmit again;
    /// except when SND.UNA is at `high_seq`, where Linux holds its loss state until an ACK above it
    /// (`tcp_is_non_sack_preventing_reopen()`, "to prevent false fast retransmits").
    pub(crate) fn after_undone_timeout(&mut self, st: &TcpState, high_seq: u64) {
        if let RecoveryPart::NewReno(r) = self {
            if r.guard_on {
                r.guard = (st.una >= high_seq).then_some(high_seq);
            }
        }
    }

    /// PRR's variables when PRR runs in the current recovery (SACK's or the cumulative one).
    pub(crate) fn prr_state(&self) -> Option<PrrState> {
        match self {
            RecoveryPart::Sack(part) => part.prr(),
            RecoveryPart::Reno(r) => r.window.prr.map(|p| p.state()),
            RecoveryPart::NewReno(r) => r.window.prr.map(|p| p.state()),
            _ => None,
        }
    }
}

impl RecoveryOps for RecoveryPart {
    #[inline]
    fn on_new_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, acked: u64, now: f64) {
        each_part!(self, r => r.on_new_ack(st, cc, ack, acked, now))
    }

    #[inline]
    fn on_episode_dupack(&mut self, st: &mut TcpState) -> bool {
        each_part!(self, r => r.on_episode_dupack(st))
    }

    #[inline]
    fn may_react(&self, st: &TcpState) -> bool {
        each_part!(self, r => r.may_react(st))
    }

    fn on_dupack_loss(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64) {
        each_part!(self, r => r.on_dupack_loss(st, cc, now))
    }

    fn on_timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64) {
        each_part!(self, r => r.on_timeout(st, cc, now))
    }

    #[inline]
    fn holds_data(&self) -> bool {
        each_part!(self, r => r.holds_data())
    }
}
