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
//! Linux also undoes a timeout that timestamps show spurious (the Eifel detection, `tcp_packet_delayed()`); the
//! simulated ACKs carry the echo only with [`super::SenderConfig::timestamps`], which reads it for RTT samples, not for
//! an undo, so only F-RTO's evidence undoes here.

use super::sack::Scoreboard;
use super::state::TcpState;

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

    /// Step 1 at a timeout, before the window is reduced, for SACK's recovery and the cumulative one alike (RFC 5682 §3
    /// and Linux's `new_recovery || icsk_retransmits`): an episode starts at a timeout outside fast and RTO recovery
    /// (`in_rto_recovery` says whether the sender is in the latter), and again at one that repeats it (SND.UNA unmoved
    /// since), with the first one's window to undo to (kept in `first`); not at a first timeout inside either recovery.
    pub(crate) fn at_timeout(first: &mut Option<Frto>, st: &TcpState, in_rto_recovery: bool) -> Option<Frto> {
        if st.last_rto_una != Some(st.una) {
            let open = st.recover.is_none() && !in_rto_recovery;
            *first = open.then(|| Frto::start(st.cwnd, st.ssthresh, st.high));
        }
        first.map(|f| Frto { high_seq: st.high, sent_new: false, ..f })
    }

    /// Step 3b's undo of the window, for both recoveries: cwnd = max(cwnd, prior_cwnd), ssthresh = max(ssthresh,
    /// prior_ssthresh) (Linux's tcp_undo_cwnd_reduction()), the next timeout a first one again (icsk_retransmits = 0),
    /// and the undone timeout counted.
    pub(crate) fn undo_window(&self, st: &mut TcpState) {
        st.cwnd = st.cwnd.max(self.prior_cwnd);
        st.ssthresh = st.ssthresh.max(self.prior_ssthresh);
        st.last_rto_una = None;
        st.undone_timeouts.push(st.last_timeout_at); // counted by it: SenderCounters::spurious_timeouts
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

/// F-RTO for a sender without SACK, a part of Reno's and NewReno's cumulative recovery ([`super::recovery`]). Linux
/// runs F-RTO whatever SACK says (`tcp_enter_loss()` sets `tp->frto` from the sysctl alone) and, without SACK,
/// `tcp_process_loss()` reads the same steps off the cumulative ACK: *original* is a segment below `high_seq` never
/// sent again that the ACK newly covers (`FLAG_ORIG_SACK_ACKED` is set by `tcp_clean_rtx_queue()` for such a
/// segment, SACK or not), and a duplicate ACK after step 2b is the evidence of a real loss (`num_dupack`).
///
/// The cumulative sender repairs a timeout by going back N (every segment from SND.UNA is sent again as the window
/// opens: Linux's loss state, where all are marked lost, does the same); here that pointer is SND.NXT of
/// [`super::state::TcpState`]. Step 2b sends new data from the highest sent instead, with the retransmissions still out
/// and the new ones counted in flight; if the loss proves real, going back N resumes where it stood and passes over
/// the segments step 2b sent (Linux does not mark them lost), and counts them in flight until it does. An undo sends nothing again: the pointer moves to the
/// highest sent (Linux's `tcp_undo_cwnd_reduction(sk, true)` clears every lost mark).
#[derive(Debug, Clone)]
pub(crate) struct CumulativeFrto {
    /// The episode running, if any.
    episode: Option<Frto>,
    /// The episode a repeated timeout keeps its window to undo to from.
    first: Option<Frto>,
    /// The highest sent at the timeout (Linux's `high_seq` in its loss state), until SND.UNA reaches it.
    after_rto: Option<u64>,
    /// Which outstanding segments were sent again (the SACK scoreboard's retransmitted bits; nothing is SACKed).
    board: Scoreboard,
    /// Step 2b's ACK: new data goes out in place of the holes, from this sequence number, until the next ACK.
    new_from: Option<u64>,
    /// The segments step 2b sent, `[from, to)`, which going back N passes over.
    skip: Option<(u64, u64)>,
}

impl CumulativeFrto {
    /// For a receiver window of `wmax` segments.
    pub(crate) fn new(wmax: u64) -> Self {
        CumulativeFrto { episode: None, first: None, after_rto: None, board: Scoreboard::new(wmax).with_retransmissions(),
                         new_from: None, skip: None }
    }

    /// `seq` went on the link (a retransmission or not).
    #[inline]
    pub(crate) fn on_send(&mut self, seq: u64, retransmission: bool) {
        self.board.note_sent(seq, retransmission);
    }

    /// Step 1, at a timeout, before the window is reduced ([`Frto::at_timeout`]).
    pub(crate) fn on_timeout(&mut self, st: &TcpState) {
        self.episode = Frto::at_timeout(&mut self.first, st, self.after_rto.is_some());
        self.after_rto = Some(st.high);
        self.new_from = None;
        self.skip = None;
    }

    /// An ACK that moved SND.UNA from `old_una` to `st.una` (or, equal, a duplicate), before the recovery part takes
    /// it: the F-RTO steps (RFC 5682 §3 as `tcp_process_loss()` runs them without SACK). `new_ok`: the receiver's
    /// window and the transfer have a new segment to send (step 2b). Returns `high_seq` when it undid the timeout (the
    /// recovery part then lifts what the timeout had set for itself: NewReno's guard).
    pub(crate) fn on_ack(&mut self, st: &mut TcpState, old_una: u64, new_ok: bool) -> Option<u64> {
        if let Some(from) = self.new_from.take() {
            // Step 2b's sends are over: going back N passes over them.
            self.skip = (st.high > from).then_some((from, st.high));
        }
        let advanced = st.una > old_una;
        let mut undone = None;
        if let Some(f) = self.episode.as_mut() {
            // A new transmission clears its segment's bit and a retransmission sets it (`Scoreboard::note_sent`).
            let original = self.board.count_originals(old_una, st.una.min(st.high.min(f.high_seq))) > 0;
            match f.on_ack(original, advanced, false, st.una, st.high, new_ok) {
                Verdict::Spurious => undone = Some(self.undo(st)),
                Verdict::Real => self.episode = None,
                Verdict::SendNew => {
                    // Linux's high_seq = SND.NXT: RTO recovery's end moves too.
                    self.after_rto = Some(st.high);
                    self.new_from = Some(st.high);
                }
                Verdict::Wait => {}
            }
        }
        if self.after_rto.is_some_and(|point| st.una >= point) {
            self.after_rto = None;
            self.episode = None;
        }
        undone
    }

    /// The timeout was spurious: the window before it comes back, nothing is sent again, and RTO recovery ends;
    /// `high_seq` returned.
    fn undo(&mut self, st: &mut TcpState) -> u64 {
        let f = self.episode.take().expect("an F-RTO episode");
        f.undo_window(st);
        st.send_next = st.send_next.max(st.high);
        self.after_rto = None;
        self.new_from = None;
        self.skip = None;
        f.high_seq
    }

    /// The segment to send now: `Some(choice)` while step 2b's ACK lets new data out in place of the holes (within
    /// the window `usable`, with the retransmissions still out and the new ones in flight, and the receiver's window;
    /// `limit` one past a finite transfer's last segment); None leaves the choice to the ordinary rule, once
    /// going back N has passed over step 2b's segments if it reached them.
    #[inline]
    pub(crate) fn next_segment(&mut self, st: &mut TcpState, usable: u64, limit: u64) -> Option<Option<u64>> {
        if let Some(from) = self.new_from {
            let in_flight = (st.send_next - st.una) + (st.high - from);
            let ok = st.retransmit.is_none() && in_flight < usable && st.high < st.una + st.rwnd && st.high < limit;
            return Some(ok.then_some(st.high));
        }
        if let Some((from, to)) = self.skip {
            if st.send_next >= from {
                st.send_next = st.send_next.max(to);
                self.skip = None;
            } else {
                // Step 2b's segments are in flight too, less those a duplicate ACK since SND.UNA last moved shows
                // delivered: Linux's in-flight count with its SACK emulation for a non-SACK peer (tcp_add_reno_sack()
                // at a duplicate ACK, tcp_reset_reno_sack() when SND.UNA moves).
                let out = to.saturating_sub(from.max(st.una)).saturating_sub(st.dupacks);
                if st.retransmit.is_none() && (st.send_next - st.una) + out >= usable {
                    return Some(None);
                }
            }
        }
        None
    }

    /// Whether a new segment is there for step 2b: within the receiver's window above SND.UNA and below `limit`.
    #[inline]
    pub(crate) fn new_data(st: &TcpState, limit: u64) -> bool {
        st.high < st.una + st.rwnd && st.high < limit
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
