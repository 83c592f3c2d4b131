//! F-RTO (RFC 5682): telling a spurious retransmission timeout from a real one, and undoing the first. The
//! SACK-enhanced algorithm (§3) as Linux runs it with `tcp_frto = 2` (`tcp_enter_loss()`, `tcp_process_loss()` and
//! `tcp_try_undo_loss()` in net/ipv4/tcp_input.c), a part of SACK's recovery ([`super::sack_recovery`]) when
//! [`super::SenderConfig::frto`] is on.
//!
//! A timeout fires because the ACKs stopped, not always because data was lost: an ACK held up behind a burst of data
//! on a shared medium, or a delay spike, makes the timer expire while the segments it guards are at the receiver.
//! The sender then reduces its window, and without F-RTO resends the whole flight in slow start.
//!
//! - **At the timeout** (step 1): the usual reaction (ssthresh from the congestion part, cwnd = the loss window, the
//!   first unacknowledged segment sent again), and F-RTO starts at a timeout outside fast and RTO recovery, and again
//!   at one that repeats it (SND.UNA unmoved since), but not at a first timeout inside either recovery (Linux:
//!   `new_recovery || icsk_retransmits`). The window before the first timeout is kept for an undo: Linux's
//!   `prior_cwnd` = cwnd and `prior_ssthresh` = `tcp_current_ssthresh()` = max(ssthresh, ⌊cwnd⌋ >> 1 + ⌊cwnd⌋ >> 2).
//!   `high_seq` = SND.NXT.
//! - **On each ACK** while it runs, with *original* meaning a segment below `high_seq` never sent again, newly
//!   acknowledged cumulatively or SACKed (Linux's `FLAG_ORIG_SACK_ACKED`):
//!   - an original acknowledged: the timeout was spurious (step 3b) — cwnd = max(cwnd, prior_cwnd), ssthresh =
//!     max(ssthresh, prior_ssthresh), the segments marked lost by the timeout are unmarked, and the sender leaves
//!     loss recovery and sends new data where it left off;
//!   - after new data went out (step 2b), an ACK that SACKs something new or is a duplicate: the loss was real
//!     (step 3a); F-RTO ends and the recovery goes on as without it;
//!   - else an ACK that advances SND.UNA (not past `high_seq`): `high_seq` = SND.NXT and new data goes out in place
//!     of the holes this once (step 2b, "transmit up to two new segments": as many as cwnd allows), if the
//!     receiver's window and the transfer have any; else F-RTO ends.
//!
//! Linux also undoes a timeout that timestamps show spurious (the Eifel detection, `tcp_packet_delayed()`), which
//! needs the ACK's echoed timestamp; the simulated ACKs carry none, so only F-RTO's evidence undoes here.

/// One F-RTO episode's state (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frto {
    /// cwnd before the timeout.
    pub prior_cwnd: f64,
    /// tcp_current_ssthresh() before the timeout.
    pub prior_ssthresh: f64,
    /// Segments below it were sent before step 2b (Linux's `high_seq`).
    pub high_seq: u64,
    /// Step 2b is done: new data was let out, and the next ACK decides.
    pub sent_new: bool,
}

/// What an ACK means to a running F-RTO.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The timeout was spurious: undo it (step 3b).
    Spurious,
    /// The loss was real, or F-RTO cannot go on: end it, and recover as without it (steps 2a, 3a).
    Real,
    /// Send new data in place of the holes, this ACK (step 2b).
    SendNew,
    /// Nothing decided yet.
    Wait,
}

impl Frto {
    /// The state at a timeout of a window `cwnd` (before its reduction) with `ssthresh` (before the timeout's), `high`
    /// = SND.NXT.
    pub(crate) fn start(cwnd: f64, ssthresh: f64, high: u64) -> Self {
        let whole = cwnd as i64 as u64;
        Frto { prior_cwnd: cwnd, prior_ssthresh: ssthresh.max(((whole >> 1) + (whole >> 2)) as f64), high_seq: high,
               sent_new: false }
    }

    /// The verdict on an ACK: `original` (it acknowledged an original segment), `advanced` (SND.UNA moved, to `una`),
    /// `sacked_new` (it SACKed something new), `high` = SND.NXT, `new_data` (a new segment the receiver's window
    /// allows is there to send).
    pub(crate) fn on_ack(&mut self, original: bool, advanced: bool, sacked_new: bool, una: u64, high: u64,
                         new_data: bool) -> Verdict {
        if original {
            return Verdict::Spurious;
        }
        if self.sent_new {
            // Step 3a: a duplicate ACK, or one that SACKs (a hole below the new data), after new data went out; or
            // none went out after all (the window let nothing out: Linux's tcp_xmit_recovery() then ends F-RTO).
            return if !advanced || sacked_new || high == self.high_seq { Verdict::Real } else { Verdict::Wait };
        }
        if advanced && una < self.high_seq {
            if !new_data {
                return Verdict::Real;
            }
            self.high_seq = high;
            self.sent_new = true;
            return Verdict::SendNew;
        }
        Verdict::Wait
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prior_ssthresh_is_linuxs_current_ssthresh() {
        // tcp_current_ssthresh(): max(ssthresh, cwnd >> 1 + cwnd >> 2) of the whole window.
        assert_eq!(Frto::start(20.0, 8.0, 100).prior_ssthresh, 15.0);
        assert_eq!(Frto::start(21.7, 8.0, 100).prior_ssthresh, 15.0); // ⌊21.7⌋ = 21: 10 + 5
        assert_eq!(Frto::start(20.0, 65536.0, 100).prior_ssthresh, 65536.0);
    }

    #[test]
    fn the_verdicts_follow_rfc_5682_section_3() {
        // An original acknowledged decides at once, whatever the step.
        assert_eq!(Frto::start(10.0, 5.0, 50).on_ack(true, true, false, 41, 50, true), Verdict::Spurious);
        // The first ACK advances SND.UNA below high_seq: new data (2b), high_seq moves to SND.NXT.
        let mut f = Frto::start(10.0, 5.0, 50);
        assert_eq!(f.on_ack(false, true, false, 41, 50, true), Verdict::SendNew);
        assert_eq!((f.high_seq, f.sent_new), (50, true));
        // Then a duplicate ACK, or one that SACKs something: the loss was real (3a); an advancing ACK that shows
        // nothing new waits.
        let (mut g, mut h) = (f, f);
        assert_eq!(g.on_ack(false, false, false, 41, 52, true), Verdict::Real);
        assert_eq!(h.on_ack(false, true, true, 42, 52, true), Verdict::Real);
        assert_eq!(f.on_ack(false, true, false, 42, 52, true), Verdict::Wait);
        // New data announced but none sent (SND.NXT still at high_seq): F-RTO ends.
        let mut f = Frto::start(10.0, 5.0, 50);
        f.on_ack(false, true, false, 41, 50, true);
        assert_eq!(f.on_ack(false, true, false, 42, 50, true), Verdict::Real);
        // Nothing new to send at 2b: F-RTO cannot test, and ends.
        assert_eq!(Frto::start(10.0, 5.0, 50).on_ack(false, true, false, 41, 50, false), Verdict::Real);
        // A duplicate ACK before any advance decides nothing yet (Linux waits for SND.UNA to move).
        assert_eq!(Frto::start(10.0, 5.0, 50).on_ack(false, false, false, 40, 50, true), Verdict::Wait);
    }
}
