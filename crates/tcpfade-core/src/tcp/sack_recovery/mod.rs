//! SACK-based loss recovery (RFC 6675) and, as its window rule, Proportional Rate Reduction (RFC 6937): the
//! recovery part a sender with [`super::SenderConfig::sack`] runs in place of Reno's or NewReno's. The congestion
//! part ([`super::congestion`]: Reno-style AIMD or CUBIC) still says what ssthresh becomes at a loss and how W grows
//! outside recovery.
//!
//! In packets (sequence numbers count segments, one SMSS each), with HighACK + 1 = the cumulative ACK `una`,
//! HighData + 1 = `high` (one past the highest sent), and K = DupThresh:
//!
//! - **IsLost(s)** (§4): K or more SACKed packets above s. (RFC 6675 also counts (K − 1)·SMSS + 1 SACKed bytes;
//!   in whole packets that is K packets again.) So the lost packets are the un-SACKed ones below the K-th highest
//!   SACKed packet, which the part keeps as `lost_below`.
//! - **SetPipe** (§4): for each un-SACKed packet in `[una, high)`, one if it is not lost, and one more if it was
//!   retransmitted (at or below HighRxt). Written with counts over the scoreboard, not a loop: pipe =
//!   (high − una) − SACKed − lost + un-SACKed below HighRxt + 1.
//! - **NextSeg** (§4): (1) the first un-SACKed lost packet above HighRxt; (2) new data, if the receiver's window
//!   allows; (3) the first un-SACKed packet above HighRxt with a SACKed one above it; (4) once per recovery, the
//!   *rescue retransmission*: the highest un-SACKed outstanding packet, when HighACK > RescueRxt, which then
//!   becomes RecoveryPoint (HighRxt unchanged).
//! - **Entry** (§5): a duplicate ACK (one with the cumulative ACK unchanged that SACKs something new) is the
//!   K-th in a row, or IsLost(HighACK + 1): RecoveryPoint = HighData, ssthresh from the congestion part, cwnd =
//!   ssthresh (or PRR's), the first unacknowledged packet retransmitted at once, HighRxt = RescueRxt = it.
//! - **In recovery**, on each ACK: update the scoreboard, SetPipe, then send NextSeg while cwnd − pipe ≥ 1
//!   (pipe + 1 per packet sent). W does not grow. An ACK covering RecoveryPoint ends recovery: cwnd = ssthresh.
//! - **After a timeout** (§5.1): RecoveryPoint = HighData, recovery ends, and no new one starts until the
//!   cumulative ACK reaches it. Until then every un-SACKed packet below it counts as lost, and the sender sends
//!   by pipe as in recovery but with rules (1) and (2) only: it fills the holes in order from the cumulative ACK,
//!   skipping what the receiver holds, and W grows from the loss window by slow start. The scoreboard is kept,
//!   unless the receiver reneged (`evidence`: what SACK information the part believes of a buggy or lying one).
//!
//! **PRR** (RFC 6937 §3) replaces "cwnd = ssthresh" during recovery: at entry prr_delivered = prr_out = 0 and
//! RecoverFS = FlightSize, the packets outstanding less those limited transmit sent (RFC 5681 §3.2 step 2, as for
//! ssthresh); on each ACK in recovery (the entering one
//! included) DeliveredData = the change in `una` + the change in the SACKed count, prr_delivered += it, and
//!
//! - pipe > ssthresh (proportional part): sndcnt = ⌈prr_delivered · ssthresh / RecoverFS⌉ − prr_out;
//! - otherwise: sndcnt = min(ssthresh − pipe, limit), with limit = max(prr_delivered − prr_out, DeliveredData)
//!   + 1 (PRR-SSRB, the default) or prr_delivered − prr_out (PRR-CRB);
//!
//! sndcnt = max(sndcnt, 0) and cwnd = pipe + sndcnt; every packet sent in recovery adds one to prr_out. The first
//! retransmission at entry is sent whatever sndcnt says (RFC 6675 §5 step 4.3).
//!
//! **With RACK-TLP** ([`super::rack`], [`super::SenderConfig::rack`]) RACK says which packets are lost in place of
//! IsLost and of the duplicate-ACK count: recovery starts when RACK marks a loss (on an ACK or when its reordering
//! timer fires); NextSeg keeps rules (1), a packet RACK marked lost and not retransmitted since, and (2), new data
//! (rules (3) and (4) retransmit packets not deemed lost, which RACK's reordering window exists to avoid; TLP takes
//! the rescue retransmission's place, as in Linux); pipe counts a packet marked lost as out of the network until it
//! is retransmitted, and a retransmitted one twice unless it was marked lost (Linux's packets_out − sacked_out −
//! lost_out + retrans_out); after a timeout RACK marks what RFC 8985 §6.3 says instead of every hole.

mod evidence;
mod one_step;

use super::congestion::{Congestion, CongestionOps};
use super::frto::{Frto, Verdict};
use super::rack::{Context, Rack, RackTimer, RackTimers};
use super::sack::Scoreboard;
use super::prr::{sndcnt, PrrBound, PrrState};
use super::state::TcpState;

/// Which NextSeg rule chose a packet (RFC 6675 §4), or the retransmission at entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextSegRule {
    /// The first retransmission, at entry (§5 step 4.3), or after a timeout (RFC 6298 §5.4).
    Entry,
    /// (1): a lost packet above HighRxt.
    Lost,
    /// (2): new data.
    New,
    /// (3): an un-SACKed packet above HighRxt below a SACKed one.
    Unsacked,
    /// (4): the rescue retransmission.
    Rescue,
}

/// The SACK recovery part (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct SackRecovery {
    pub board: Scoreboard,
    dupthresh: u64,
    /// HighRxt + 1: packets below it (and not SACKed) count as retransmitted in this recovery.
    rxt_next: u64,
    /// RescueRxt (a packet).
    rescue: u64,
    /// Un-SACKed packets below it are lost (IsLost, and after a timeout every hole below RecoveryPoint); not kept
    /// with RACK, whose marks say what is lost.
    lost_below: u64,
    /// After a timeout: RecoveryPoint + 1 = HighData + 1 at the timeout (§5.1), until the cumulative ACK reaches it.
    after_rto: Option<u64>,
    /// The retransmission at entry, not yet sent.
    entry: Option<u64>,
    /// RFC 6675's pipe, set on each ACK (SetPipe) and counted up per packet sent.
    pipe: u64,
    /// PRR's bound, when PRR is the window rule.
    prr_bound: Option<PrrBound>,
    /// PRR's variables in the current recovery.
    prr: Option<PrrState>,
    /// The rule behind the last packet chosen.
    pub last_rule: Option<NextSegRule>,
    /// RACK-TLP, when it is the loss detection.
    pub rack: Option<Box<Rack>>,
    /// Whether F-RTO (RFC 5682 §3, [`super::frto`]) judges the timeouts.
    frto_on: bool,
    /// F-RTO's episode, from a timeout until it decides.
    frto: Option<Frto>,
    /// F-RTO as the first timeout of the current run of timeouts started it (its window to undo to), for a timeout
    /// that repeats that one.
    frto_first: Option<Frto>,
    /// F-RTO's step 2b on this ACK: new data in place of the holes (NextSeg's rule (1) set aside).
    frto_new: bool,
}

impl SackRecovery {
    /// SACK's recovery for a receiver window `wmax`, with PRR's bound if any, RACK-TLP with its timers if any, and
    /// F-RTO if `frto` (`min_rto`: what Linux's PTO adds with one segment out).
    pub(crate) fn new(wmax: u64, dupthresh: u64, prr_bound: Option<PrrBound>, rack: Option<RackTimers>, frto: bool,
                      min_rto: f64) -> Self {
        let board = Scoreboard::new(wmax);
        SackRecovery {
            board: if frto { board.with_retransmissions() } else { board },
            dupthresh,
            rxt_next: 0,
            rescue: 0,
            lost_below: 0,
            after_rto: None,
            entry: None,
            pipe: 0,
            prr_bound,
            prr: None,
            last_rule: None,
            rack: rack.map(|timers| Box::new(Rack::new(dupthresh, timers, min_rto))),
            frto_on: frto,
            frto: None,
            frto_first: None,
            frto_new: false,
        }
    }

    /// What RACK needs to know of the other parts now.
    fn context(&self, st: &TcpState) -> Context {
        Context {
            una: st.una,
            high: st.high,
            recovering: st.recover.is_some() || self.after_rto.is_some(),
            sacked: self.board.count(),
            srtt: st.rto.srtt(),
            rto_expiry: st.timer,
        }
    }

    /// Whether this part chooses what is sent (in recovery, or filling holes after a timeout); otherwise the
    /// sender's ordinary window rule does.
    #[inline]
    pub(crate) fn governs(&self, st: &TcpState) -> bool {
        st.recover.is_some() || self.after_rto.is_some()
    }

    /// Nothing SACKed, outside recovery and after no timeout: the state between losses, in which an ACK of new data
    /// without blocks finds nothing to count as a duplicate and nothing lost.
    #[inline(always)]
    fn between_losses(&self, st: &TcpState) -> bool {
        self.board.count() == 0 && st.recover.is_none() && self.after_rto.is_none()
    }

    /// RFC 6675's pipe: as of the last ACK or send while this part governs, else SetPipe now.
    pub(crate) fn pipe(&self, st: &TcpState) -> u64 {
        if self.governs(st) {
            self.pipe
        } else {
            self.pipe_with(st, self.lost_boundary(st))
        }
    }

    /// PRR's variables, in a recovery with PRR.
    pub(crate) fn prr(&self) -> Option<PrrState> {
        self.prr
    }

    /// An ACK: cumulative `ack`, SACK `blocks`, at `now`; `limit` is one past the last packet of a finite transfer.
    /// The common ACK is handled here, inline in the sender's; the rest out of line ([`SackRecovery::on_other_ack`]).
    #[inline(always)]
    pub(crate) fn on_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, blocks: &[(u64, u64)], now: f64,
                         limit: u64) {
        if blocks.is_empty() && self.between_losses(st) {
            // Nothing SACKed, before or now, outside recovery: the general path below reduces to this (no
            // duplicate to count, nothing lost), and it is the common ACK of a bulk transfer. With RACK, when its
            // own steps reduce likewise (Rack::on_quiet_ack).
            let quiet = match self.rack.as_deref_mut() {
                None => true,
                Some(rack) => rack.on_quiet_ack(st.una, ack, st.high, now),
            };
            if quiet {
                if ack > st.una {
                    Self::moved_quietly(st, cc, &mut self.lost_below, ack, now);
                }
                return;
            }
        }
        self.on_other_ack(st, cc, ack, blocks, now, limit);
    }

    /// The cumulative ACK moves to `ack` with nothing SACKed or lost, outside recovery: the general path's steps reduce
    /// to these (no duplicate to count, nothing lost; the window grows).
    #[inline(always)]
    fn moved_quietly(st: &mut TcpState, cc: &mut Congestion, lost_below: &mut u64, ack: u64, now: f64) {
        let acked = ack - st.una;
        (st.una, *lost_below) = (ack, ack);
        st.send_next = st.send_next.max(ack);
        super::recovery::open_ack(st, cc, acked, now);
    }

    /// [`SackRecovery::on_ack`] of an ACK that carries SACK blocks, or arrives with something SACKed, in recovery or
    /// after a timeout: RFC 6675 §5 (and RACK's §6.2, F-RTO's steps) in full.
    #[inline(never)]
    fn on_other_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, blocks: &[(u64, u64)], now: f64,
                    limit: u64) {
        let (old_una, before) = (st.una, self.board.count());
        let new_data = ack > st.una;
        self.frto_new = false;
        // Only the blocks within the outstanding data, whole, and the same ones for every part (`evidence`).
        let taken;
        let blocks = if Self::all_credible(blocks, ack, st.high) {
            blocks
        } else {
            taken = Self::credible_blocks(blocks, ack, st.high);
            taken.as_slice()
        };
        // F-RTO's evidence, before the scoreboard takes the ACK: does it cover an original segment?
        let original = self.frto.is_some_and(|f| self.covers_original(st, ack, blocks, f.high_seq));
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.on_delivery(&self.board, st.una, st.high, ack, blocks, now);
        }
        if new_data {
            self.board.advance(st.una, ack);
            st.una = ack;
            st.send_next = st.send_next.max(ack);
        }
        let mut fresh = 0;
        for &(left, right) in blocks {
            fresh += self.board.mark(left, right);
        }
        let delivered = (ack - old_una + self.board.count()).saturating_sub(before);
        if new_data {
            st.dupacks = 0;
            st.limited_sent = 0;
        } else if fresh > 0 && st.una < st.high {
            st.dupacks += 1; // RFC 6675 §2: an ACK that SACKs new data counts as a duplicate
        }
        if let Some(f) = self.frto.as_mut() {
            let new_ok = st.next_new_segment(limit).is_some();
            match f.on_ack(original, new_data, fresh > 0, st.una, st.high, new_ok) {
                Verdict::Spurious => self.undo_timeout(st, now),
                Verdict::Real => self.frto = None,
                Verdict::SendNew => {
                    self.frto_new = true;
                    self.after_rto = Some(st.high); // Linux's high_seq = SND.NXT: the recovery point moves too
                }
                Verdict::Wait => {}
            }
        }
        if self.after_rto.is_some_and(|point| st.una >= point) {
            self.after_rto = None;
            self.frto = None;
        }
        // Segments this ACK newly shows lost: by RACK's marks, else by IsLost's boundary moving up (RACK's marks
        // replace IsLost, so with RACK the boundary is not kept).
        let newly_lost = if self.rack.is_some() {
            self.rack_on_ack(st, cc, ack, new_data, blocks.is_empty(), now)
        } else {
            let lost_from = self.lost_below.max(st.una);
            self.set_lost_below(st);
            (self.lost_below - lost_from.min(self.lost_below)) - self.board.count_in(lost_from, self.lost_below)
        };
        // RFC 9937's SafeACK: SND.UNA advanced and no further loss indicated.
        let safe = new_data && newly_lost == 0;
        match st.recover {
            Some(point) if ack >= point => {
                // RFC 6675 §5 (A): the end of recovery; RFC 6937: cwnd = ssthresh.
                st.cwnd = st.ssthresh;
                st.recover = None;
                st.dupacks = 0;
                self.prr = None;
                self.entry = None;
            }
            Some(_) => self.in_recovery(st, delivered, safe),
            None => {
                let lost = match &self.rack {
                    Some(rack) => rack.lost > 0,
                    None => st.dupacks >= self.dupthresh || st.una < self.lost_below,
                };
                if self.after_rto.is_none() && st.una < st.high && lost {
                    self.enter_recovery(st, cc);
                    self.in_recovery(st, delivered, false);
                } else {
                    if new_data {
                        cc.on_ack(st, ack - old_una, now);
                    }
                    if self.after_rto.is_some() {
                        self.pipe = self.set_pipe(st);
                    }
                }
            }
        }
    }

    /// F-RTO found the timeout spurious: the window before it comes back, and the sender leaves loss recovery with
    /// nothing marked lost (Linux's tcp_try_undo_loss() with tcp_undo_cwnd_reduction(sk, true)). The timer runs on
    /// (at `now`): the timeout stopped it for the retransmission to restart, which a caller that took this ACK before
    /// polling never sends.
    fn undo_timeout(&mut self, st: &mut TcpState, now: f64) {
        self.frto.take().expect("an F-RTO episode").undo_window(st);
        if st.timer.is_none() && st.una < st.high {
            st.timer = Some(now + st.rto.rto());
        }
        self.after_rto = None;
        self.entry = None;
        self.frto_new = false;
        if let Some(rack) = self.rack.as_deref_mut() {
            rack.unmark_lost(st.una, st.high);
        }
    }

    /// IsLost's boundary: the K-th highest SACKed packet, or after a timeout RecoveryPoint + 1 if higher.
    fn set_lost_below(&mut self, st: &TcpState) {
        self.lost_below = self.lost_boundary(st);
    }

    fn lost_boundary(&self, st: &TcpState) -> u64 {
        let by_sack = self.board.kth_highest(self.dupthresh, st.una, st.high).unwrap_or(st.una);
        by_sack.max(self.after_rto.unwrap_or(0).min(st.high)).max(st.una)
    }

    /// SetPipe (RFC 6675 §4), in counts: un-SACKed and not lost, plus un-SACKed and retransmitted.
    fn set_pipe(&self, st: &TcpState) -> u64 {
        self.pipe_with(st, self.lost_below)
    }

    fn pipe_with(&self, st: &TcpState, lost_below: u64) -> u64 {
        let (una, high) = (st.una, st.high);
        // The counts never exceed what is outstanding (`evidence`): saturating only as a last guard.
        if let Some(rack) = &self.rack {
            debug_assert!(self.board.count() + rack.lost <= high - una + rack.rxt, "pipe below zero");
            return (high - una + rack.rxt).saturating_sub(self.board.count() + rack.lost);
        }
        let lost = (lost_below - una) - self.board.count_in(una, lost_below);
        let rxt = self.rxt_next.clamp(una, high);
        let retransmitted = (rxt - una) - self.board.count_in(una, rxt);
        debug_assert!(self.board.count() + lost <= high - una + retransmitted, "pipe below zero");
        (high - una + retransmitted).saturating_sub(self.board.count() + lost)
    }

    /// RFC 6675 §5 step 4: enter loss recovery.
    pub(crate) fn enter_recovery(&mut self, st: &mut TcpState, cc: &mut Congestion) {
        st.counters.fast_retransmits += 1;
        // FlightSize without limited transmit's segments (RFC 5681 §3.2 step 2), for ssthresh and RecoverFS.
        st.ssthresh = cc.ssthresh(st);
        let flight = (st.high - st.una).saturating_sub(st.limited_sent);
        st.limited_sent = 0;
        st.recover = Some(st.high);
        self.entry = Some(match &self.rack {
            Some(rack) => rack.first_to_retransmit(&self.board, st.una, st.high).unwrap_or(st.una),
            None => st.una,
        });
        self.rescue = st.una;
        self.rxt_next = st.una; // HighRxt moves to the entry retransmission when it is sent
        match self.prr_bound {
            Some(_) => self.prr = Some(PrrState { delivered: 0, out: 0, recover_fs: flight.max(1), sndcnt: 0.0 }),
            None => st.cwnd = st.ssthresh,
        }
    }

    /// An ACK in recovery (the entering one too): SetPipe, and with PRR the window for this ACK (`safe`: a SafeACK,
    /// RFC 9937).
    fn in_recovery(&mut self, st: &mut TcpState, delivered: u64, safe: bool) {
        self.pipe = self.set_pipe(st);
        if let (Some(prr), Some(bound)) = (&mut self.prr, self.prr_bound) {
            let pipe = crate::count(self.pipe);
            st.cwnd = pipe + sndcnt(prr, bound, delivered, pipe, st.ssthresh, safe);
        }
    }

    /// The next packet to send and the rule that picks it, if the window allows one (RFC 6675 §5 step C); `limit`
    /// is one past the last packet of a finite transfer.
    pub(crate) fn next_seg(&self, st: &TcpState, limit: u64) -> Option<(u64, NextSegRule)> {
        if let Some(seq) = self.entry.filter(|&s| s >= st.una && s < st.high) {
            return Some((seq, NextSegRule::Entry));
        }
        if self.window_room(st) == 0 {
            return None;
        }
        let from = self.rxt_next.max(st.una);
        let lost = match &self.rack {
            _ if self.frto_new => None, // F-RTO's step 2b: new data first
            Some(rack) => rack.first_to_retransmit(&self.board, st.una, st.high),
            None => self.board.first_unsacked(from, self.lost_below),
        };
        if let Some(seq) = lost {
            return Some((seq, NextSegRule::Lost));
        }
        if self.new_data_room(st, limit) > 0 {
            return Some((st.send_next, NextSegRule::New));
        }
        if st.recover.is_none() || self.rack.is_some() {
            return None; // after a timeout: rules (1) and (2) only
        }
        if let Some(seq) = self.board.first_unsacked(from, self.board.high_sacked().min(st.high)) {
            return Some((seq, NextSegRule::Unsacked));
        }
        // HighACK > RescueRxt, in packets: una − 1 > RescueRxt.
        if st.una > self.rescue + 1 {
            if let Some(seq) = self.board.last_unsacked(st.una, st.high) {
                return Some((seq, NextSegRule::Rescue));
            }
        }
        None
    }

    /// Packets cwnd allows beyond pipe (RFC 6675 §5 step C: one may be sent while cwnd − pipe ≥ 1), cwnd whole and
    /// capped by the receiver's window.
    #[inline(always)]
    fn window_room(&self, st: &TcpState) -> u64 {
        st.whole_cwnd().min(st.rwnd).saturating_sub(self.pipe)
    }

    /// New packets NextSeg's rule (2) may send from SND.NXT: within the receiver's window above the cumulative ACK and
    /// before `limit`, one past the last packet of a finite transfer.
    #[inline(always)]
    fn new_data_room(&self, st: &TcpState, limit: u64) -> u64 {
        (st.una + st.rwnd).min(limit).saturating_sub(st.send_next)
    }

    /// `seq` chosen by `rule` is sent (RFC 6675 §5 steps C.2-C.4; RFC 6937's prr_out).
    pub(crate) fn sent(&mut self, st: &mut TcpState, seq: u64, rule: NextSegRule) {
        match rule {
            NextSegRule::Entry => {
                self.entry = None;
                self.rxt_next = self.rxt_next.max(seq + 1);
            }
            NextSegRule::Lost | NextSegRule::Unsacked => self.rxt_next = seq + 1,
            NextSegRule::New => st.send_next += 1,
            NextSegRule::Rescue => self.rescue = st.recover.map_or(seq, |point| point - 1),
        }
        self.pipe += 1;
        if let Some(prr) = &mut self.prr {
            prr.out += 1;
        }
        self.last_rule = Some(rule);
    }

    /// The retransmission timer expired (RFC 6675 §5.1; the timeout is counted and the RTO backed off already).
    pub(crate) fn timeout(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64) {
        self.forget_reneged(st);
        if self.frto_on {
            self.frto = Frto::at_timeout(&mut self.frto_first, st, self.after_rto.is_some());
            self.frto_new = false;
        }
        super::recovery::timeout_ssthresh(st, cc);
        st.cwnd = cc.loss_window();
        st.recover = None;
        st.dupacks = 0;
        st.limited_sent = 0;
        st.timer = None;
        st.retransmit = None;
        self.after_rto = Some(st.high);
        self.rxt_next = st.una;
        // RFC 6298 §5.4: the earliest unacknowledged segment goes out at once, whatever pipe says. With RACK, pipe
        // still counts the segments sent less than RACK.rtt + reo_wnd ago (§6.3 does not mark them lost), and may
        // be >= the loss window of 1: waiting for pipe to fall would wait for ACKs that a lost flight never brings,
        // with no timer left to end the wait (Linux's tcp_retransmit_timer() sends the head regardless of cwnd).
        self.entry = (st.una < st.high).then_some(st.una);
        self.prr = None;
        self.set_lost_below(st);
        if self.rack.is_some() {
            let cx = self.context(st);
            let rack = self.rack.as_deref_mut().expect("rack");
            rack.on_rto(&self.board, &cx, now);
        }
        self.pipe = self.set_pipe(st);
    }

    // -- RACK-TLP (RFC 8985; [`super::rack`]) --

    /// RACK's share of an ACK, once the scoreboard has it: TLP's loss check (§7.4; a repaired loss outside recovery
    /// reduces cwnd once), then loss detection (§6.2 steps 4-5).
    /// Returns the segments it newly marked lost.
    fn rack_on_ack(&mut self, st: &mut TcpState, cc: &mut Congestion, ack: u64, new_data: bool, no_sack: bool,
                   now: f64) -> u64 {
        let cx = self.context(st);
        let rack = self.rack.as_deref_mut().expect("rack");
        if rack.tlp_on_ack(ack, !new_data, no_sack) && !cx.recovering {
            st.ssthresh = cc.ssthresh(st);
            st.cwnd = st.ssthresh;
        }
        rack.detect_loss(&self.board, &cx, now)
    }

    /// After an ACK (the RTO restarted already): arm the PTO on an ACK of new data, stop it in recovery or with
    /// something SACKed (RFC 8985 §7.2).
    pub(crate) fn rack_after_ack(&mut self, st: &TcpState, new_data: bool, now: f64) {
        if let Some(rack) = self.calm_rack(st) {
            if new_data {
                rack.arm_pto_calm(st.una, st.high, st.rto.srtt(), st.timer, now);
            }
            return;
        }
        let cx = self.context(st);
        let Some(rack) = self.rack.as_deref_mut() else { return };
        if cx.recovering || cx.sacked > 0 {
            rack.stop_pto();
        } else if new_data {
            rack.arm_pto(&cx, now);
        }
    }

    /// `seq` went on the link at `now`: RACK records it, and new data that is not a probe (re)arms the PTO.
    pub(crate) fn rack_sent(&mut self, st: &TcpState, seq: u64, retransmission: bool, probe: bool, now: f64) {
        if !retransmission && !probe {
            if let Some(rack) = self.calm_rack(st) {
                rack.on_send(seq, now, false, st.una, st.high);
                rack.arm_pto_calm(st.una, st.high, st.rto.srtt(), st.timer, now);
                return;
            }
        }
        let cx = self.context(st);
        let Some(rack) = self.rack.as_deref_mut() else { return };
        if retransmission && self.board.is_sacked(seq) {
            return; // not in flight by SetPipe's count, and delivered for RACK (`evidence`)
        }
        rack.on_send(seq, now, retransmission, st.una, st.high);
        if !retransmission && !probe {
            rack.arm_pto(&cx, now);
        }
    }

    /// RACK in its calm state, if it is in it: then the sender is outside recovery with nothing SACKed (checked in
    /// debug builds), so the PTO needs none of the general context.
    #[inline(always)]
    fn calm_rack(&mut self, st: &TcpState) -> Option<&mut Rack> {
        debug_assert!(self.rack.as_deref().is_none_or(|rack| !rack.is_calm()) || self.between_losses(st));
        let rack = self.rack.as_deref_mut().filter(|rack| rack.is_calm())?;
        Some(rack)
    }

    /// A probe waiting to go out, taken. A probe the PTO chose is dropped if, before it was sent, the segment was acknowledged, cumulatively or by SACK
    /// (a caller that took an ACK between the timeout and its polls): sending it would count a delivered segment in
    /// flight again.
    pub(crate) fn take_probe(&mut self, st: &TcpState) -> Option<u64> {
        let seq = self.rack.as_deref_mut().and_then(|rack| rack.probe.take())?;
        (seq >= st.una && (seq >= st.high || !self.board.is_sacked(seq))).then_some(seq)
    }

    /// Whether a probe waits to go out.
    pub(crate) fn probe_waiting(&self) -> bool {
        self.rack.as_deref().is_some_and(|rack| rack.probe.is_some())
    }

    /// If one of RACK's timers is due at `now`, handle it and return true (else the RTO is due). The reordering
    /// timer repeats loss detection and starts recovery on a loss it finds (§6.2 step 5); the PTO sends a probe
    /// (§7.3) — the next new packet if `new` names one — and re-arms the RTO either way.
    pub(crate) fn on_rack_timer(&mut self, st: &mut TcpState, cc: &mut Congestion, now: f64, new: Option<u64>) -> bool {
        let cx = self.context(st);
        let Some(rack) = self.rack.as_deref_mut() else { return false };
        match rack.due(now) {
            None => false,
            Some(RackTimer::Reordering) => {
                rack.detect_loss(&self.board, &cx, now);
                let lost = rack.lost > 0;
                if st.recover.is_none() && self.after_rto.is_none() && st.una < st.high && lost {
                    rack.stop_pto();
                    self.enter_recovery(st, cc);
                    self.in_recovery(st, 0, false);
                } else if self.governs(st) {
                    self.pipe = self.set_pipe(st);
                }
                true
            }
            Some(RackTimer::Probe) => {
                rack.on_pto(new, st.high);
                if st.una < st.high || rack.probe.is_some() {
                    st.timer = Some(now + st.rto.rto());
                }
                true
            }
        }
    }

    /// The earliest of RACK's timers and the RTO (`rto`), as the driver sees them.
    #[inline]
    pub(crate) fn rack_deadline(&self, rto: Option<f64>) -> Option<f64> {
        match &self.rack {
            Some(rack) => rack.deadline(rto),
            None => rto,
        }
    }
}
