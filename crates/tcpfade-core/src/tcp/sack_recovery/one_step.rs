//! The one-step ACKs of SACK's recovery part ([`crate::tcp::Sender::on_sack_ack_then_send`]): an ACK and the sends it
//! allows, taken at once, where the general path ([`SackRecovery::on_ack`], then the sender's `poll_transmit` until it
//! returns None) would ask again at every step what the ACK already showed. Two kinds:
//!
//! - **the quiet ACK** of a bulk transfer's steady state: it moves the cumulative ACK, carries no SACK block, and finds
//!   nothing SACKed, no recovery and RACK (if on) calm; the sends after it are the ordinary window rule's;
//! - **a recovery's common duplicate ACK**, with RACK-TLP: in fast recovery (RFC 6675 §5, entered and its first
//!   retransmission sent), the cumulative ACK unchanged and one SACK block whose last segment alone is newly SACKed (the
//!   receiver's block grew by the segment that just arrived above the hole), no probe outstanding or waiting, no F-RTO
//!   episode and no timeout's recovery. Its steps are the general path's for that ACK: RACK's §6.2 for the one segment
//!   delivered, the scoreboard, the duplicate count, RACK's loss detection, SetPipe and PRR, the PTO stopped; then
//!   NextSeg's rule (2), new data, while pipe is below cwnd. Should loss detection mark a segment lost, rule (1)
//!   retransmits it first, and the sends are left to the general poll.
//!
//! Each is checked against the general path, state and sends at every event, by `tests/quiet_step.rs`.

use super::evidence::credible_block;
use super::{NextSegRule, SackRecovery};
use crate::tcp::congestion::Congestion;
use crate::tcp::rack::Rack;
use crate::tcp::state::TcpState;

impl SackRecovery {
    /// Whether an ACK that moves the cumulative ACK and carries no SACK block is one [`SackRecovery::on_ack`] takes on
    /// its quiet path with RACK (if on) calm and no probe waiting, so that the sends after it are the ordinary rule's.
    /// Changes nothing.
    #[inline(always)]
    pub(crate) fn takes_quiet_ack(&self, st: &TcpState) -> bool {
        match self.rack.as_deref() {
            // RACK's record is calm only outside recovery with nothing SACKed (`rack_record`; checked in debug builds).
            Some(rack) => {
                let calm = rack.takes_calm_ack();
                debug_assert!(!calm || self.between_losses(st));
                calm
            }
            None => self.between_losses(st),
        }
    }

    /// [`SackRecovery::on_ack`] and [`SackRecovery::rack_after_ack`] of an ACK [`SackRecovery::takes_quiet_ack`]
    /// accepted, but the PTO, which [`SackRecovery::after_quiet_sends`] arms once the sends it allows are made.
    #[inline(always)]
    pub(crate) fn take_quiet_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, now: f64) {
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.on_calm_ack(ack, now);
        }
        Self::moved_quietly(st, cc, &mut self.lost_below, ack, now);
    }

    /// New segment `seq` went on the link at `now` after a quiet ACK: [`SackRecovery::rack_sent`] but the PTO, and the
    /// scoreboard's note for F-RTO (`frto`).
    #[inline(always)]
    pub(crate) fn sent_quietly(&mut self, st: &TcpState, seq: u64, frto: bool, now: f64) {
        if frto {
            self.board.note_sent(seq, false);
        }
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.on_send(seq, now, false, st.una, st.high);
        }
    }

    /// The PTO after a quiet ACK and its sends (RFC 8985 §7.2: armed on an ACK of new data and after new data is sent;
    /// each arming replaces the one before, so only the last counts, from the state after the last send).
    #[inline(always)]
    pub(crate) fn after_quiet_sends(&mut self, st: &TcpState, now: f64) {
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.arm_pto_calm(st.una, st.high, st.rto.srtt(), st.timer, now);
        }
    }

    /// The segment a recovery's common duplicate ACK (see the module documentation) newly SACKs, if the ACK of `ack`
    /// with `blocks` is one: `blocks` is one block `[left, right)` above SND.UNA = `ack`, at most the highest sent, of
    /// which `[left, right − 1)` is SACKed already and `right − 1` is not. Changes nothing.
    #[inline(always)]
    pub(crate) fn takes_recovery_dupack(&self, st: &TcpState, ack: u64, blocks: &[(u64, u64)]) -> Option<u64> {
        let &[(left, right)] = blocks else { return None };
        let rack = self.rack.as_deref()?;
        if !(ack == st.una && st.recover.is_some_and(|point| ack < point) && credible_block(left, right, ack, st.high)
            && st.send_next == st.high)
            || self.after_rto.is_some() || self.frto.is_some() || self.entry.is_some() || !rack.no_probe()
        {
            return None;
        }
        (self.board.first_unsacked(left, right) == Some(right - 1)).then_some(right - 1)
    }

    /// [`SackRecovery::on_ack`] and [`SackRecovery::rack_after_ack`] of the duplicate ACK that newly SACKs `seq` alone,
    /// at `now` ([`SackRecovery::takes_recovery_dupack`] found it): the same steps as `on_other_ack` takes for it.
    /// Returns whether the sends after it are new data only: false when loss detection left a segment to retransmit
    /// (NextSeg's rule (1) goes first; the caller polls).
    #[inline(always)]
    pub(crate) fn take_recovery_dupack(&mut self, st: &mut TcpState, seq: u64, now: f64) -> bool {
        self.frto_new = false;
        let rack = self.rack.as_deref_mut().expect("a recovery's one-step ACK runs with RACK");
        rack.on_one_delivery(st.una, st.high, seq, now);
        self.board.mark_one(seq);
        st.dupacks += 1; // RFC 6675 §2: an ACK that SACKs new data counts as a duplicate
        // RACK's §7.4 check finds no probe outstanding; §6.2 steps 4-5.
        let cx = self.context(st);
        let rack = self.rack.as_deref_mut().expect("rack");
        rack.detect_loss(&self.board, &cx, now);
        // One segment delivered; no SafeACK (RFC 9937) without SND.UNA moving.
        self.in_recovery(st, 1, false);
        self.rack_after_ack(st, false, now);
        !self.rack.as_deref().is_some_and(Rack::has_lost_to_resend)
    }

    /// How many new segments NextSeg sends after such an ACK when no segment marked lost waits: rule (2) while pipe is
    /// below cwnd and the receiver's window (and a finite transfer's end) allow, each send adding one to pipe and to
    /// SND.NXT; rules (3) and (4) are not run with RACK.
    #[inline(always)]
    pub(crate) fn new_segments_allowed(&self, st: &TcpState, limit: u64) -> u64 {
        debug_assert!(self.entry.is_none() && self.rack.as_deref().is_some_and(|rack| !rack.has_lost_to_resend()));
        self.window_room(st).min(self.new_data_room(st, limit))
    }

    /// New segment `seq`, chosen by NextSeg's rule (2) after such an ACK, went on the link at `now`: the sender's
    /// `sack_sent` for it (the scoreboard's note for F-RTO if `frto`, RACK's record), whose PTO arm in recovery only
    /// keeps the PTO stopped, as the ACK left it.
    #[inline(always)]
    pub(crate) fn sent_in_recovery(&mut self, st: &TcpState, seq: u64, frto: bool, now: f64) {
        debug_assert_eq!(self.last_rule, Some(NextSegRule::New));
        self.sent_quietly(st, seq, frto, now);
        debug_assert!(self.rack.as_deref().is_none_or(|rack| rack.view().pto_deadline.is_none()));
    }
}
