//! The congestion-control part of the sender (BRIEF §3; ns-3's TcpCongestionOps, Linux's
//! tcp_congestion_ops): how W grows per ACK of new data and what Wth becomes at a loss. The recovery part
//! ([`super::recovery`]) decides *when* these apply; this part says *how much*, each rule written once.
//! Two parts: Reno-style AIMD (`Aimd`, the papers') and CUBIC ([`super::cubic`], RFC 9438).
//!
//! Dispatch is static (an enum matched in place, inlined): the sender's per-ACK path is the simulators'
//! hottest (BRIEF §6).

use super::cubic::Cubic;
use super::config::SsthreshRule;
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
    /// Wth at a loss (see [`SsthreshRule`]).
    rule: SsthreshRule,
    /// Linux's whole-segment window (see [`super::SenderConfig::integer_window`]).
    integer: bool,
    /// With it, the segments acknowledged toward the next whole segment (Linux's snd_cwnd_cnt).
    count: u64,
}

/// Linux's `tcp_cong_avoid_ai()`: `acked` more segments acknowledged toward the next increase (`count`, snd_cwnd_cnt),
/// and cwnd grows by one whole segment for every `w` of them (a count gathered at a larger `w` is applied first).
#[inline]
pub(crate) fn cong_avoid_ai(st: &mut TcpState, w: u64, acked: u64, count: &mut u64) {
    if *count >= w {
        *count = 0;
        st.cwnd += 1.0;
    }
    *count += acked;
    if *count >= w {
        let delta = *count / w;
        *count -= delta * w;
        st.cwnd += delta as f64;
    }
}

impl Aimd {
    pub(crate) fn new(wmax: u64, byte_counting: bool, rule: SsthreshRule) -> Self {
        Aimd { wmax: wmax as f64, byte_counting, rule, integer: false, count: 0 }
    }

    /// The same part with Linux's whole-segment reduction, or not.
    pub(crate) fn with_integer_window(mut self, on: bool) -> Self {
        self.integer = on;
        self
    }
}

impl CongestionOps for Aimd {
    /// Slow start W += 1 while W < Wth, congestion avoidance W += 1/W, capped at Wmax (D3). Per ACK, however
    /// many segments it covers (D9); with RFC 3465 byte counting by the segments acknowledged, at most L = 2
    /// in slow start (RFC 3465 §2.2). With Linux's whole-segment window, congestion avoidance adds a segment once
    /// W segments are acknowledged (`tcp_cong_avoid_ai()`), W whole.
    #[inline]
    fn on_ack(&mut self, st: &mut TcpState, acked: u64, _now: f64) {
        let segments = if self.byte_counting { acked } else { 1 };
        if st.cwnd < st.ssthresh {
            st.cwnd += crate::count(segments.min(2));
        } else if self.integer {
            cong_avoid_ai(st, st.whole_cwnd(), segments, &mut self.count);
        } else {
            st.cwnd += crate::count(segments) / st.cwnd;
        }
        if st.cwnd > self.wmax {
            st.cwnd = self.wmax;
        }
    }

    /// Wth = ⌈W/2⌉ (D3; zorzi-rao §2), or max(FlightSize/2, 2) (RFC 5681 §3.1 eq. (4)) with FlightSize =
    /// SND.NXT − SND.UNA less what limited transmit sent (RFC 5681 §3.2 step 2), the segments sent and not yet
    /// acknowledged: W with a full window, less in a window the
    /// receiver limits, and after a timeout's go-back-N only what has been sent again (SND.NXT went back to
    /// SND.UNA; the segments sent before the timeout beyond it are not counted, as RFC 793's SND.NXT does not).
    /// With Linux's whole-segment window the half is of ⌊W⌋ (or of FlightSize), rounded down, at least 2
    /// (`tcp_reno_ssthresh()`: max(cwnd >> 1, 2)).
    #[inline]
    fn ssthresh(&mut self, st: &TcpState) -> f64 {
        self.count = 0; // tcp_init_cwnd_reduction(), tcp_enter_loss(): snd_cwnd_cnt = 0
        match (self.rule, self.integer) {
            (SsthreshRule::HalfWindow, false) => (st.cwnd / 2.0).ceil(),
            (SsthreshRule::HalfWindow, true) => ((st.whole_cwnd() / 2) as f64).max(2.0),
            (SsthreshRule::HalfFlight, integer) => {
                let flight = st.send_next.saturating_sub(st.una).saturating_sub(st.limited_sent);
                if integer { ((flight / 2) as f64).max(2.0) } else { (flight as f64 / 2.0).max(2.0) }
            }
        }
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

impl Congestion {
    /// The part's own growth for an ACK ([`CongestionOps::on_ack`] but HyStart++).
    #[inline(always)]
    fn grow(&mut self, st: &mut TcpState, acked: u64, now: f64) {
        match self {
            Congestion::Aimd(cc) => cc.on_ack(st, acked, now),
            Congestion::Cubic(cc) => cc.on_ack(st, acked, now),
        }
    }

    /// [`CongestionOps::on_ack`] with HyStart++ after the congestion part's own growth (out of line: the sender without
    /// it only tests an Option).
    #[inline(never)]
    fn on_ack_with_hystart(&mut self, st: &mut TcpState, acked: u64, now: f64) {
        let (before, slow_start) = (st.cwnd, st.cwnd < st.ssthresh);
        self.grow(st, acked, now);
        let mut part = st.hystart.take().expect("HyStart++ runs");
        if part.phase != super::hystart::HyStartPhase::Done {
            part.after_ack(st, before, slow_start, now);
        }
        st.hystart = Some(part);
    }
}

impl Congestion {
    /// [`CongestionOps::on_ack`] with the parts beside the growth: cwnd grows only while it limits the sender, if so
    /// ruled (`super::cwnd_usage`; then HyStart++ waits too), and HyStart++ after the growth (out of line: a sender
    /// without either only tests two Options).
    #[inline(never)]
    fn on_ack_with_parts(&mut self, st: &mut TcpState, acked: u64, now: f64) {
        let (una_before, cwnd, slow_start) = (st.una - acked.min(st.una), st.whole_cwnd(), st.cwnd < st.ssthresh);
        let high = st.high;
        if st.usage.as_mut().is_some_and(|usage| !usage.allows_growth(una_before, high, cwnd, slow_start)) {
            return;
        }
        if st.hystart.is_some() {
            return self.on_ack_with_hystart(st, acked, now);
        }
        self.grow(st, acked, now);
    }
}

impl CongestionOps for Congestion {
    #[inline]
    fn on_ack(&mut self, st: &mut TcpState, acked: u64, now: f64) {
        if st.growth_parts {
            return self.on_ack_with_parts(st, acked, now);
        }
        self.grow(st, acked, now);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::rto::{RtoEstimator, RtoPolicy};

    /// W = `cwnd` with segments una .. next sent and not yet acknowledged.
    fn state(cwnd: f64, una: u64, next: u64) -> TcpState {
        let mut st = TcpState::new(cwnd, 64.0, RtoEstimator::new(RtoPolicy::Fixed(1.0)));
        (st.una, st.send_next, st.high) = (una, next, next);
        st
    }

    #[test]
    fn the_papers_halve_the_window_and_rfc_5681_halves_the_flight() {
        let mut papers = Aimd::new(64, false, SsthreshRule::HalfWindow);
        let mut rfc = Aimd::new(64, false, SsthreshRule::HalfFlight);
        assert_eq!(papers.ssthresh(&state(10.0, 14, 20)), 5.0); // ⌈10/2⌉
        assert_eq!(papers.ssthresh(&state(9.5, 14, 20)), 5.0); // ⌈4.75⌉
        assert_eq!(rfc.ssthresh(&state(10.0, 14, 20)), 3.0); // 6 outstanding: 6/2
        assert_eq!(rfc.ssthresh(&state(10.0, 14, 21)), 3.5); // 7/2, in segments as the window is real
        assert_eq!(rfc.ssthresh(&state(10.0, 14, 16)), 2.0); // max(2/2, 2): never below two segments
        // After a timeout's go-back-N, SND.NXT is back at SND.UNA: 30 sent before it no longer count.
        let mut restarted = state(1.0, 14, 44);
        restarted.send_next = 16;
        assert_eq!(rfc.ssthresh(&restarted), 2.0);
        assert_eq!(papers.ssthresh(&restarted), 1.0);
    }

    #[test]
    fn linux_halves_the_whole_window_and_rounds_down() {
        // tcp_reno_ssthresh(): max(cwnd >> 1, 2) of the integer cwnd, where the papers take ⌈W/2⌉ of the real W.
        let mut linux = Aimd::new(64, false, SsthreshRule::HalfWindow).with_integer_window(true);
        let mut papers = Aimd::new(64, false, SsthreshRule::HalfWindow);
        assert_eq!(linux.ssthresh(&state(11.9, 0, 11)), 5.0); // ⌊11.9⌋ = 11, 11 >> 1 = 5
        assert_eq!(papers.ssthresh(&state(11.9, 0, 11)), 6.0); // ⌈5.95⌉
        assert_eq!(linux.ssthresh(&state(10.0, 0, 10)), 5.0);
        assert_eq!(linux.ssthresh(&state(3.7, 0, 3)), 2.0); // 3 >> 1 = 1, at least 2
        assert_eq!(papers.ssthresh(&state(3.7, 0, 3)), 2.0);
        let mut flight = Aimd::new(64, false, SsthreshRule::HalfFlight).with_integer_window(true);
        assert_eq!(flight.ssthresh(&state(10.0, 14, 21)), 3.0); // 7 outstanding: ⌊7/2⌋, where the real rule has 3.5
    }

    #[test]
    fn linux_grows_by_whole_segments_once_a_window_is_acknowledged() {
        // tcp_cong_avoid_ai() at cwnd = 3 (ssthresh 3): the third ACK of a segment makes cwnd 4, then four more
        // make 5. The real-valued window needs a fourth ACK for 4 (3 + 1/3 + 1/3.33 + 1/3.63 = 3.94 after three).
        let mut linux = Aimd::new(64, false, SsthreshRule::HalfWindow).with_integer_window(true);
        let mut papers = Aimd::new(64, false, SsthreshRule::HalfWindow);
        let (mut a, mut b) = (state(3.0, 0, 3), state(3.0, 0, 3));
        (a.ssthresh, b.ssthresh) = (3.0, 3.0);
        let mut seen = Vec::new();
        for _ in 0..7 {
            linux.on_ack(&mut a, 1, 0.0);
            papers.on_ack(&mut b, 1, 0.0);
            seen.push(a.cwnd);
        }
        assert_eq!(seen, [3.0, 3.0, 4.0, 4.0, 4.0, 4.0, 5.0]);
        assert!(b.cwnd < 5.0 && b.cwnd > 4.5, "{}", b.cwnd);
        // A reduction clears the fraction gathered (snd_cwnd_cnt = 0): two ACKs, a loss, then three more ACKs at
        // cwnd = 3 reach 4 only at the third.
        linux.on_ack(&mut a, 1, 0.0);
        linux.on_ack(&mut a, 1, 0.0);
        a.ssthresh = linux.ssthresh(&a);
        a.cwnd = 3.0;
        a.ssthresh = 3.0;
        for expected in [3.0, 3.0, 4.0] {
            linux.on_ack(&mut a, 1, 0.0);
            assert_eq!(a.cwnd, expected);
        }
    }
}
