//! PRR (RFC 6937 §3): its sndcnt (`sndcnt`, which SACK's recovery uses as well, `super::sack_recovery`), and PRR
//! as the window rule of the cumulative-ACK fast recovery (Reno's and NewReno's, CUBIC's
//! too), without SACK: what Linux runs when the peer does not negotiate SACK.
//!
//! RFC 6937 defines PRR from DeliveredData and pipe; without SACK blocks both are estimated from duplicate
//! ACKs, as Linux does (`tcp_add_reno_sack`, `tcp_remove_reno_sacks` and `tcp_cwnd_reduction` in
//! net/ipv4/tcp_input.c): each duplicate ACK stands for one segment that left the network (`sacked`, capped
//! at the flight less one), and a cumulative ACK of `acked` segments delivered max(acked − sacked, 1) new ones
//! (the rest were counted when their duplicate ACKs came) and takes acked − 1 off `sacked`. The hole at `una` is
//! lost; it is in flight again once its retransmission is sent. So
//!
//! - pipe = (high − una) − sacked − 1 while the hole's retransmission waits, (high − una) − sacked after;
//! - at entry: RecoverFS = the flight less limited transmit's segments (RFC 5681 §3.2 step 2), prr_delivered =
//!   prr_out = 0; on every ACK in recovery, the entering one included, prr_delivered += DeliveredData and
//!   sndcnt follows RFC 6937 §3 (`sndcnt`); prr_out counts every transmission since entry.
//!
//! The cumulative sender sends while `send_next < una + W` (retransmissions first and regardless), so PRR's
//! "cwnd = pipe + sndcnt" becomes W = (high − una) + sndcnt less the waiting retransmission: the same packets, with
//! W counting what the receiver holds, as NewReno's inflated window does. The retransmission at entry goes out
//! whatever sndcnt says (RFC 6937's first retransmission; Linux forces one packet while prr_out is 0) and counts in
//! prr_out. The one at a partial ACK (RFC 6582 §3.2 step 3) is a reading ([`PartialAck`]): forced too, outside
//! sndcnt (the default, as this part stood), or the first of what sndcnt allows, held until an ACK allows one
//! (RFC 6937 §3 counts every packet sent in recovery; Linux's `tcp_xmit_retransmit_queue()` stops at cwnd). Held,
//! a hole that no ACK releases is left to the RTO, which repairs a window lost whole by go-back-N in slow start
//! where the forced rule repairs it one hole a round trip. Recovery ends as the part's own rule says, with cwnd =
//! ssthresh (RFC 6937 §3).

use super::state::TcpState;

/// PRR's reduction bound (RFC 6937 §3.1): what limits sending once pipe has fallen to ssthresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrrBound {
    /// Slow-start reduction bound: up to one packet more than delivered per ACK (the RFC's recommendation).
    Ssrb,
    /// Conservative reduction bound: never more than delivered (strict packet conservation).
    Crb,
    /// RFC 9937's (and Linux's `tcp_cwnd_reduction()` since 2015): packet conservation by default, max(prr_delivered −
    /// prr_out, DeliveredData), and SSRB's one segment more only on a SafeACK, one that advances SND.UNA and
    /// indicates no further loss.
    SafeAck,
}

impl PrrBound {
    /// The bound by name: "ssrb", "crb" or "safe_ack".
    pub fn from_name(name: &str) -> crate::error::Result<Self> {
        match name {
            "ssrb" => Ok(PrrBound::Ssrb),
            "crb" => Ok(PrrBound::Crb),
            "safe_ack" => Ok(PrrBound::SafeAck),
            _ => Err(crate::error::Error::invalid("prr_bound", format!("'{name}'"), "must be ssrb, crb or safe_ack")),
        }
    }
}

/// Without SACK, whether NewReno's retransmission at a partial ACK (RFC 6582 §3.2 step 3) waits for PRR's sndcnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialAck {
    /// It goes out at once, outside PRR's count (RFC 6582 §3.2 step 3 read alone; the papers' NewReno).
    Forced,
    /// It is the first of the packets PRR's sndcnt allows (RFC 6937 §3: every packet sent in recovery counts, the
    /// retransmissions first), and goes out when an ACK allows one: Linux's `tcp_xmit_retransmit_queue()` stops at
    /// `tcp_packets_in_flight() >= snd_cwnd`, with cwnd = pipe + sndcnt set by `tcp_cwnd_reduction()`, which forces one
    /// packet only while prr_out is 0 (the fast retransmit).
    Sndcnt,
}

impl PartialAck {
    /// The rule by name: "forced" or "sndcnt".
    pub fn from_name(name: &str) -> crate::error::Result<Self> {
        match name {
            "forced" => Ok(PartialAck::Forced),
            "sndcnt" => Ok(PartialAck::Sndcnt),
            _ => Err(crate::error::Error::invalid("prr_partial_ack", format!("'{name}'"), "must be forced or sndcnt")),
        }
    }
}

/// PRR's state through one recovery (RFC 6937 §3's variables, in packets).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrrState {
    /// Packets delivered to the receiver since recovery began.
    pub delivered: u64,
    /// Packets sent since recovery began.
    pub out: u64,
    /// The packets outstanding when it began.
    pub recover_fs: u64,
    /// The last ACK's sndcnt.
    pub sndcnt: f64,
}


/// RFC 6937 §3's sndcnt for an ACK that delivered `delivered` packets, with `pipe` after it; updates
/// prr_delivered and the state's last sndcnt. prr_out is the caller's (`state.out`, up to date). `safe`: the ACK
/// advanced SND.UNA and indicated no further loss (RFC 9937's SafeACK, read by [`PrrBound::SafeAck`] only).
pub(crate) fn sndcnt(state: &mut PrrState, bound: PrrBound, delivered: u64, pipe: f64, ssthresh: f64,
                     safe: bool) -> f64 {
    state.delivered += delivered;
    let count = if pipe > ssthresh {
        // The proportional part: sending tracks delivery at the ratio ssthresh / RecoverFS.
        (crate::count(state.delivered) * ssthresh / crate::count(state.recover_fs)).ceil() - crate::count(state.out)
    } else {
        let owed = crate::count(state.delivered) - crate::count(state.out);
        let limit = match bound {
            PrrBound::Ssrb => owed.max(crate::count(delivered)) + 1.0,
            PrrBound::Crb => owed,
            PrrBound::SafeAck => owed.max(crate::count(delivered)) + f64::from(u8::from(safe)),
        };
        (ssthresh - pipe).min(limit)
    };
    state.sndcnt = count.max(0.0);
    state.sndcnt
}

/// One fast recovery's PRR without SACK (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct CumulativePrr {
    bound: PrrBound,
    state: PrrState,
    /// Segments the duplicate ACKs stand for (Linux's `sacked_out` without SACK).
    sacked: u64,
    /// The sender's transmissions when recovery began: prr_out is the count since.
    sent_at_entry: u64,
    /// Whether the partial ACK's retransmission waits for sndcnt.
    partial: PartialAck,
    /// The hole at `una`, known lost and not yet sent again because sndcnt allowed nothing ([`PartialAck::Sndcnt`]).
    held: Option<u64>,
}

impl CumulativePrr {
    /// Recovery begins with the K-th duplicate ACK (`st.dupacks` of them so far, the retransmission of `una`
    /// pending): ssthresh is set already.
    pub(crate) fn enter(st: &mut TcpState, bound: PrrBound, partial: PartialAck) -> Self {
        let flight = st.high - st.una;
        let recover_fs = flight.saturating_sub(st.limited_sent).max(1);
        let mut prr = CumulativePrr {
            bound,
            state: PrrState { delivered: 0, out: 0, recover_fs, sndcnt: 0.0 },
            sacked: 0,
            sent_at_entry: st.counters.transmissions,
            partial,
            held: None,
        };
        // The duplicate ACKs before this one counted no delivery into PRR (it had not begun); this one does.
        prr.sacked = (st.dupacks - 1).min(flight.saturating_sub(1));
        prr.on_dupack(st);
        prr
    }

    /// A duplicate ACK in recovery: one more segment left the network.
    pub(crate) fn on_dupack(&mut self, st: &mut TcpState) {
        let flight = st.high - st.una;
        self.sacked = (self.sacked + 1).min(flight.saturating_sub(1));
        self.window(st, 1);
    }

    /// A partial ACK of `acked` segments (`una` moved already; the new hole's retransmission pending).
    pub(crate) fn on_partial_ack(&mut self, st: &mut TcpState, acked: u64) {
        let delivered = acked.saturating_sub(self.sacked).max(1);
        self.sacked -= acked.saturating_sub(1).min(self.sacked);
        self.window(st, delivered);
    }

    /// pipe, sndcnt and the window for this ACK.
    fn window(&mut self, st: &mut TcpState, delivered: u64) {
        if let Some(hole) = self.held.take() {
            if st.retransmit.is_none() && hole >= st.una {
                st.retransmit = Some(hole); // still the hole to send first
            }
        }
        let flight = st.high - st.una;
        let waiting = u64::from(st.retransmit.is_some());
        let pipe = flight.saturating_sub(self.sacked + waiting) as f64;
        self.state.out = st.counters.transmissions - self.sent_at_entry;
        // Never a SafeACK without SACK: a duplicate ACK does not advance SND.UNA, and a partial ACK marks the next
        // hole lost (Linux's tcp_newreno_mark_lost()).
        let count = sndcnt(&mut self.state, self.bound, delivered, pipe, st.ssthresh, false);
        if self.partial == PartialAck::Sndcnt && count < 1.0 && self.state.out > 0 {
            self.held = st.retransmit.take(); // nothing may be sent: the hole waits for an ACK that allows it
        }
        st.cwnd = (flight as f64 + count - waiting as f64).max(1.0);
    }

    /// PRR's variables as the last ACK left them.
    pub(crate) fn state(&self) -> PrrState {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounds_at_pipe_below_ssthresh() {
        // RFC 6937 §3 and RFC 9937 by hand, pipe = 2 ≤ ssthresh = 10 (room 8), an ACK delivering 1 packet after 3
        // delivered and 3 sent: prr_delivered − prr_out = 4 − 3 = 1.
        let at = |bound, safe| {
            let mut state = PrrState { delivered: 3, out: 3, recover_fs: 20, sndcnt: 0.0 };
            sndcnt(&mut state, bound, 1, 2.0, 10.0, safe)
        };
        assert_eq!(at(PrrBound::Ssrb, false), 2.0); // max(1, 1) + 1
        assert_eq!(at(PrrBound::Crb, false), 1.0); // 1
        assert_eq!(at(PrrBound::SafeAck, false), 1.0); // max(1, 1): packet conservation
        assert_eq!(at(PrrBound::SafeAck, true), 2.0); // a SafeACK: SSRB's segment more
        // Nothing owed (prr_out ahead): CRB sends nothing, RFC 9937 still one per packet delivered.
        let mut state = PrrState { delivered: 3, out: 5, recover_fs: 20, sndcnt: 0.0 };
        assert_eq!(sndcnt(&mut state, PrrBound::Crb, 1, 2.0, 10.0, false), 0.0);
        let mut state = PrrState { delivered: 3, out: 5, recover_fs: 20, sndcnt: 0.0 };
        assert_eq!(sndcnt(&mut state, PrrBound::SafeAck, 1, 2.0, 10.0, false), 1.0);
    }
}
