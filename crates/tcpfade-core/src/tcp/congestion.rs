//! The congestion-control part of the sender (BRIEF §3; ns-3's TcpCongestionOps, Linux's
//! tcp_congestion_ops): how W grows per ACK of new data and what Wth becomes at a loss. The recovery part
//! ([`super::recovery`]) decides *when* these apply; this part says *how much*, each rule written once.
//! Two parts: Reno-style AIMD ([`Aimd`], the papers') and CUBIC ([`super::cubic`], RFC 9438).
//!
//! Dispatch is static (an enum matched in place, inlined): the sender's per-ACK path is the simulators'
//! hottest (BRIEF §6).

use super::cubic::Cubic;
use super::state::TcpState;

/// What a congestion-control part answers. A part may keep state of its own (CUBIC's epoch and W_max), so the
/// calls take `&mut self`; time is the driver's, in seconds for a part that reads it (CUBIC).
pub(crate) trait CongestionOps {
    /// Grow W for one ACK of new data that arrived at `now` and acknowledges `acked` segments (slow start or
    /// congestion avoidance).
    fn on_ack(&mut self, st: &mut TcpState, acked: u64, now: f64);
    /// Wth after a loss, from the state at its detection. Called once per congestion event (a fast retransmit,
    /// a timeout, a probe cycle's Slow Start), so a part may note the event (CUBIC's W_max, RFC 9438 §4.6).
    fn ssthresh(&mut self, st: &TcpState) -> f64;
    /// W after a timeout or a go-back-N restart (RFC 5681 §3.1's loss window LW), called after
    /// [`CongestionOps::ssthresh`] for the same event.
    fn loss_window(&mut self) -> f64;
}

/// Reno-style AIMD, the papers' window arithmetic (zorzi-rao §2 rules 1-3, chockalingam §II; BRIEF D3, D9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Aimd {
    /// Wmax: zorzi-rao §2, W "never exceeds Wmax".
    wmax: f64,
    /// RFC 3465 appropriate byte counting (see [`super::SenderConfig::byte_counting`]).
    byte_counting: bool,
}

impl Aimd {
    pub(crate) fn new(wmax: u64, byte_counting: bool) -> Self {
        Aimd { wmax: wmax as f64, byte_counting }
    }
}

impl CongestionOps for Aimd {
    /// Slow start W += 1 while W < Wth, congestion avoidance W += 1/W, capped at Wmax (D3). Per ACK, however
    /// many segments it covers (D9); with RFC 3465 byte counting by the segments acknowledged, at most L = 2
    /// in slow start (RFC 3465 §2.2).
    #[inline]
    fn on_ack(&mut self, st: &mut TcpState, acked: u64, _now: f64) {
        let segments = if self.byte_counting { acked } else { 1 };
        if st.cwnd < st.ssthresh {
            st.cwnd += segments.min(2) as f64;
        } else {
            st.cwnd += segments as f64 / st.cwnd;
        }
        if st.cwnd > self.wmax {
            st.cwnd = self.wmax;
        }
    }

    /// Wth = ⌈W/2⌉ (D3; zorzi-rao §2). Profile "rfc" would use max(FlightSize/2, 2) here (RFC 5681 eq. (4)).
    #[inline]
    fn ssthresh(&mut self, st: &TcpState) -> f64 {
        (st.cwnd / 2.0).ceil()
    }

    /// W = 1 (zorzi-rao §2 rule 3; RFC 5681 §3.1: LW is one segment whatever the initial window).
    #[inline]
    fn loss_window(&mut self) -> f64 {
        1.0
    }
}

/// The congestion-control part a sender runs, chosen by its variant ([`super::Variant::congestion`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Congestion {
    /// Reno-style AIMD.
    Aimd(Aimd),
    /// CUBIC (RFC 9438).
    Cubic(Cubic),
}

impl CongestionOps for Congestion {
    #[inline]
    fn on_ack(&mut self, st: &mut TcpState, acked: u64, now: f64) {
        match self {
            Congestion::Aimd(cc) => cc.on_ack(st, acked, now),
            Congestion::Cubic(cc) => cc.on_ack(st, acked, now),
        }
    }

    #[inline]
    fn ssthresh(&mut self, st: &TcpState) -> f64 {
        match self {
            Congestion::Aimd(cc) => cc.ssthresh(st),
            Congestion::Cubic(cc) => cc.ssthresh(st),
        }
    }

    #[inline]
    fn loss_window(&mut self) -> f64 {
        match self {
            Congestion::Aimd(cc) => cc.loss_window(),
            Congestion::Cubic(cc) => cc.loss_window(),
        }
    }
}
