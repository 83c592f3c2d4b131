//! Which SACK information the recovery part believes: a receiver may be buggy or lie, and may renege on what it SACKed
//! (RFC 2018 §8), yet every public entry answers every input without a panic, and the counts pipe is made of (the
//! scoreboard's SACKed, RACK's lost and retransmitted) stay consistent, so pipe stays within what is outstanding.
//!
//! - **An ACK of something never sent** (above the highest sent) is dropped, blocks and all: RFC 9293 §3.10.7.4
//!   (`crate::tcp::Sender::on_sack_ack`).
//! - **A block is taken whole or not at all**: only `[left, right)` with SND.UNA < left < right ≤ the highest sent,
//!   SND.UNA counted after this ACK's cumulative ACK (RFC 6675 §3-4: the scoreboard covers the outstanding data; a
//!   block reaching past what was sent, reversed or empty names nothing real, and one at or below SND.UNA would say the
//!   receiver holds what it has just acknowledged it lacks: Linux's `tcp_is_sackblock_valid()`, with no D-SACK here,
//!   RFC 2883). Every part reads the same blocks: the scoreboard, RACK's delivery (RFC 8985 §6.2) and F-RTO's evidence
//!   (RFC 5682 §3). A stale ACK (below SND.UNA) acknowledges nothing, and its blocks are judged by the same rule, as
//!   Linux's `tcp_ack()` takes an old ACK's SACK information.
//! - **Reneging**: a SACKed segment stays SACKed until the cumulative ACK passes it (RFC 2018 §8: the sender keeps the
//!   data; a block that a later ACK no longer reports unmarks nothing), so what the parts count never disagrees. At a
//!   timeout, SND.UNA's segment SACKed is the proof that the receiver reneged (it acknowledges cumulatively only below
//!   a segment it claimed to hold): every mark goes, and the segments it had SACKed are outstanding again, judged by
//!   the timeout's marks as the others (RFC 2018 §5.1: the SACKed bits turned off after a timeout; RFC 6675 §5.1 notes
//!   that a sender may keep them across one given a robust test for reneging: this one is Linux's,
//!   `tcp_timeout_mark_lost()`). An honest receiver never reneges, so this never runs for it.
//! - A segment retransmitted while SACKed (SND.UNA at a recovery's entry or a timeout, RFC 2018 §5.1's left edge sent
//!   whatever its SACKed bit says) is not in flight by SetPipe's count (RFC 6675 §4), and RACK does not record it.

use super::SackRecovery;
use crate::tcp::sack::SackBlocks;
use crate::tcp::state::TcpState;

impl SackRecovery {
    /// Whether the part takes every block of an ACK (an honest receiver's always): `una` < left < right ≤ `high`, `una`
    /// being SND.UNA once the ACK's cumulative ACK is taken (see the module documentation).
    #[inline(always)]
    pub(super) fn all_credible(blocks: &[(u64, u64)], una: u64, high: u64) -> bool {
        blocks.iter().all(|&(left, right)| credible_block(left, right, una, high))
    }

    /// The blocks of an ACK the part takes, in the order given (when [`SackRecovery::all_credible`] is false).
    #[cold]
    pub(super) fn credible_blocks(blocks: &[(u64, u64)], una: u64, high: u64) -> SackBlocks {
        let mut taken = SackBlocks::NONE;
        for &(left, right) in blocks.iter().filter(|&&(left, right)| credible_block(left, right, una, high)) {
            taken.push((left, right));
        }
        taken
    }

    /// Whether an ACK of `ack` with `blocks` (those the part takes) newly acknowledges, cumulatively or by SACK, a
    /// segment below `high_seq` never sent again (F-RTO's evidence, RFC 5682 §3; Linux's FLAG_ORIG_SACK_ACKED).
    pub(super) fn covers_original(&self, st: &TcpState, ack: u64, blocks: &[(u64, u64)], high_seq: u64) -> bool {
        let top = st.high.min(high_seq);
        self.board.count_originals(st.una, ack.min(top)) > 0
            || blocks.iter().any(|&(l, r)| self.board.count_originals(l, r.min(top)) > 0)
    }

    /// At a timeout, before the marks of RFC 6675 §5.1 and RFC 8985 §6.3: if the receiver reneged (SND.UNA's segment
    /// SACKed), forget every SACKed mark; RACK has the segments it had delivered by SACK undelivered again.
    pub(super) fn forget_reneged(&mut self, st: &TcpState) {
        if st.una >= st.high || !self.board.is_sacked(st.una) {
            return;
        }
        if let Some(rack) = self.rack.as_deref_mut() {
            for seq in (st.una..st.high).filter(|&seq| self.board.is_sacked(seq)) {
                rack.reneged(seq, st.una, st.high);
            }
        }
        self.board.clear();
    }
}

/// The rule for one block `[left, right)` (see the module documentation).
#[inline(always)]
pub(super) fn credible_block(left: u64, right: u64, una: u64, high: u64) -> bool {
    una < left && left < right && right <= high
}
