//! The sender's one-step ACKs: an ACK and the sends it allows, taken at once, for the speed of a bulk transfer (the
//! link and transfer drivers call them first). Each is the general way of taking that ACK ([`Sender::on_sack_ack`] or
//! [`Sender::on_ack`], then [`Sender::poll_transmit`] until it returns None) with the same parts' steps, and is checked
//! against it at every event by `tests/quiet_step.rs`; the SACK part's side is [`crate::tcp::sack_recovery`]'s.

use crate::tcp::sack_recovery::NextSegRule;
use crate::tcp::state::TcpState;
use super::{RecoveryPart, Sender, SenderConfig};

/// What [`Sender::on_sack_ack_then_send`] did with an ACK it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AckStep {
    /// The ACK is taken and these new segments are sent: all that the window allows now ([`Sender::poll_transmit`]
    /// would return None).
    Sent(std::ops::Range<u64>),
    /// The ACK is taken; what it allows is for [`Sender::poll_transmit`] to say (a retransmission goes first).
    Poll,
}

impl Sender {
    /// An ACK with its SACK blocks and the sends it allows, in one step, when it is one of a SACK sender's two common
    /// ACKs ([`crate::tcp::sack_recovery`]'s one-step ACKs):
    ///
    /// - the quiet ACK: it moves the cumulative ACK (to at most the highest sent), carries no SACK block, and finds
    ///   nothing SACKed, no recovery, no retransmission pending, no tail loss probe outstanding or waiting and RACK's
    ///   record calm (`super::rack_record`);
    /// - with RACK-TLP, a fast recovery's duplicate ACK whose one SACK block newly covers its last segment alone.
    ///
    /// Then it is exactly [`Sender::on_sack_ack`] followed by [`Sender::poll_transmit`] until it returns None (the same
    /// parts' steps, without asking again at each segment what the ACK already showed), and returns
    /// [`AckStep::Sent`] with the new segments sent, or [`AckStep::Poll`] when the recovery ACK leaves a retransmission
    /// to send first (the ACK is taken; the caller polls). For any other ACK, or a sender without SACK, it changes
    /// nothing and returns None: the caller takes the ACK and polls as usual. A driver calls it in place of those two for
    /// the speed of a bulk transfer; [`Sender::on_ack_then_send`] is the quiet step for a cumulative ACK.
    #[inline(always)]
    pub fn on_sack_ack_then_send(&mut self, now: f64, ack: u64, blocks: &[(u64, u64)]) -> Option<AckStep> {
        let RecoveryPart::Sack(part) = &mut self.recovery else { return None };
        let st = &mut self.st;
        if !blocks.is_empty() || !(st.una < ack && ack <= st.high) || st.send_next != st.high || st.retransmit.is_some()
            || !part.takes_quiet_ack(st)
        {
            return self.on_recovery_dupack_then_send(now, ack, blocks);
        }
        Self::take_rtt_sample(st, ack, now);
        part.take_quiet_ack(st, &mut self.cc, ack, now);
        let sends = Self::after_quiet_ack(st, &self.cfg, now);
        for seq in sends.clone() {
            Self::emit(st, seq, now);
            part.sent_quietly(st, seq, self.cfg.frto, now);
        }
        st.send_next = sends.end;
        part.after_quiet_sends(st, now);
        Some(AckStep::Sent(sends))
    }

    /// [`Sender::on_sack_ack_then_send`] of a fast recovery's common duplicate ACK, if it is one; None, having changed
    /// nothing, if not. Its sends are NextSeg's rule (2), new data while pipe is below cwnd, as the polls would choose
    /// them (rule (1) has no segment to send, or the caller polls; rules (3) and (4) are not run with RACK).
    #[inline(never)]
    fn on_recovery_dupack_then_send(&mut self, now: f64, ack: u64, blocks: &[(u64, u64)]) -> Option<AckStep> {
        let RecoveryPart::Sack(part) = &mut self.recovery else { return None };
        let st = &mut self.st;
        if st.retransmit.is_some() {
            return None;
        }
        let seq = part.takes_recovery_dupack(st, ack, blocks)?;
        if !part.take_recovery_dupack(st, seq, now) {
            return Some(AckStep::Poll);
        }
        let (from, limit) = (st.send_next, self.cfg.segments.unwrap_or(u64::MAX));
        for seq in from..from + part.new_segments_allowed(st, limit) {
            debug_assert_eq!(part.next_seg(st, limit), Some((seq, NextSegRule::New)));
            part.sent(st, seq, NextSegRule::New);
            Self::emit(st, seq, now);
            part.sent_in_recovery(st, seq, self.cfg.frto, now);
        }
        debug_assert_eq!(part.next_seg(st, limit), None);
        Some(AckStep::Sent(from..st.send_next))
    }

    /// [`Sender::on_sack_ack_then_send`] for a cumulative-ACK sender (go-back-N, Reno, NewReno, without SACK): a
    /// cumulative ACK that moves SND.UNA (to at most the highest sent) outside recovery, with no retransmission pending,
    /// SND.NXT at its highest and no F-RTO, is [`Sender::on_ack`] (the recovery part's open ACK: W grows, the
    /// duplicate-ACK count restarts) followed by [`Sender::poll_transmit`] until it returns None, which sends the new
    /// segments the window allows (no limited transmit, with no duplicate ACK counted). Returns them; None, having changed nothing, for any
    /// other ACK and for a SACK or TCP-Probing sender.
    #[inline(always)]
    pub fn on_ack_then_send(&mut self, now: f64, ack: u64) -> Option<std::ops::Range<u64>> {
        if matches!(self.recovery, RecoveryPart::Sack(_) | RecoveryPart::Probe(_)) {
            return None;
        }
        let st = &mut self.st;
        if self.cfg.frto || !(st.una < ack && ack <= st.high) || st.recover.is_some() || st.send_next != st.high
            || st.retransmit.is_some()
        {
            return None;
        }
        let acked = ack - st.una;
        Self::take_rtt_sample(st, ack, now);
        st.una = ack;
        crate::tcp::recovery::open_ack(st, &mut self.cc, acked, now);
        let sends = Self::after_quiet_ack(st, &self.cfg, now);
        for seq in sends.clone() {
            Self::emit(st, seq, now);
        }
        st.send_next = sends.end;
        Some(sends)
    }

    /// What a quiet ACK (either kind) leaves to do before the sends: the timer restarted, and the new segments the
    /// window allows now, `from..to` (SND.NXT not yet moved).
    #[inline(always)]
    fn after_quiet_ack(st: &mut TcpState, cfg: &SenderConfig, now: f64) -> std::ops::Range<u64> {
        // D2: restarted by an ACK of new data, stopped when nothing is outstanding.
        st.timer = (st.una < st.high).then_some(now + st.rto.rto());
        // next_in_order()'s rule with no duplicate ACK (so no limited transmit): every new segment the window allows.
        let limit = cfg.segments.unwrap_or(u64::MAX);
        let from = st.send_next;
        from..(st.una + st.whole_cwnd().min(st.rwnd)).min(limit).max(from)
    }

}
