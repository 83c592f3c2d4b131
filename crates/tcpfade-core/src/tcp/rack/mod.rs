//! RACK-TLP (RFC 8985): time-based loss detection and tail loss probes, the loss-detection part a SACK sender runs
//! with [`super::SenderConfig::rack`] in place of RFC 6675's DupThresh and IsLost. SACK's recovery part
//! ([`super::sack_recovery`]) still chooses what to send (its NextSeg rules (1) and (2)), counts pipe and runs PRR;
//! this part says which segments are lost, when, and when to probe.
//!
//! In packets (a segment's end_seq is its sequence number + 1), with times in the driver's seconds:
//!
//! - **Per segment** (§5.2, §6.1): its latest transmission time `Segment.xmit_ts`, whether it was ever
//!   retransmitted, whether it is marked lost, and whether a retransmission of it is in flight; kept in a ring
//!   keyed by sequence number beside the SACK scoreboard, grown with the flight, and the undelivered ones also in a
//!   list by transmission time (Linux's `tsorted_sent_queue`), which step 5 walks from the oldest
//!   (`super::rack_record`; between losses, when that list is the sequence order, it is not kept).
//! - **On each ACK** (§6.2), over the segments it newly acknowledges, cumulatively or selectively:
//!   - step 1: RACK.min_RTT, the smallest RTT of a segment never retransmitted (Karn-valid, as RFC 7323's
//!     per-segment samples; a global minimum: the paths simulated here do not migrate, so the windowed filter the
//!     RFC recommends would not differ);
//!   - step 2: RACK.rtt, RACK.xmit_ts and RACK.end_seq from the most recently sent of them, ignoring a retransmitted
//!     segment delivered less than RACK.min_RTT after its last retransmission (the second check of §6.2 step 2; the
//!     first compares the ACK's echoed timestamp, which RACK here does not read). The pseudocode says "Return" there, the text
//!     "ignore a segment as invalid": we ignore that segment and go on with the others, as the text says;
//!   - step 3: RACK.fack and RACK.reordering_seen (a never-retransmitted segment delivered below RACK.fack);
//!   - step 4: RACK.reo_wnd = 0 when no reordering has been seen and either the sender is in fast or RTO recovery or
//!     DupThresh or more segments are SACKed; otherwise min(RACK.min_RTT / 4, SRTT). RACK.reo_wnd_mult stays 1: the
//!     DSACK-based adaptation is not implemented (the simulated receivers send no DSACK, RFC 2883);
//!   - step 5: a segment not yet delivered and not already lost is lost when it was sent before RACK.segment
//!     (RACK_sent_after) and `xmit_ts + RACK.rtt + RACK.reo_wnd <= now`; for the others sent before, the
//!     reordering timer is armed for the largest remaining wait (RACK_detect_loss_and_arm_timer). "Sent before" is
//!     by time: when RACK.segment is a retransmission, segments numbered above it but sent earlier are judged too
//!     (`tests/rack_traces.rs`, `a_delivered_retransmission_exposes_…`).
//! - **The reordering timer** repeats step 5 when it fires; a loss it marks starts recovery as one an ACK marks.
//! - **On an RTO** (§6.3): the first unacknowledged segment, and every other one sent at least RACK.rtt +
//!   RACK.reo_wnd ago, is marked lost (RACK_mark_losses_on_RTO); RFC 6675 §5.1's "every hole is lost" gives way.
//! - **TLP** (§7): the PTO is armed after new data is sent (not a probe) and on an ACK of new data, outside fast and
//!   RTO recovery and with nothing SACKed; PTO = 2·SRTT, + TLP.max_ack_delay ([`TLP_MAX_ACK_DELAY`]) when one
//!   segment is in flight, 1 s before any SRTT ([`PTO_WITHOUT_SRTT`]), and never later than the RTO would expire
//!   (§7.2). When it fires (§7.3), if no probe is outstanding and an RTT sample came since the last one, one probe
//!   goes out beyond cwnd: the next new segment if the receiver's window allows, else the highest segment sent again;
//!   then the RTO is re-armed. §7.4: an ACK beyond a retransmitted probe's end, with no sign that the probe was
//!   redundant, means the probe repaired a loss: ssthresh from the congestion part and cwnd = ssthresh, once.
//!
//! The three timers reach the driver as one ([`super::Sender::timer_deadline`]): the reordering timer, and the PTO
//! while it is armed (it stands in for the RTO, which it never outlasts: §7.2-7.3, as Linux's one retransmit
//! timer), else the RTO.

mod tlp;

pub(crate) use tlp::RackTimer;
use super::rack_record::{SentList, Slot, EVER_RXT, LOST, NONE, RXT};
use super::sack::Scoreboard;

/// TLP.max_ack_delay \[s\]: the worst-case delayed-ACK timer added to the PTO when one segment is in flight
/// (RFC 8985 §7.2 recommends 200 ms; Linux adds TCP_RTO_MIN, also 200 ms).
pub const TLP_MAX_ACK_DELAY: f64 = 0.2;

/// The PTO before any SRTT exists \[s\] (RFC 8985 §7.2).
pub const PTO_WITHOUT_SRTT: f64 = 1.0;

/// Linux's TCP_TIMEOUT_MIN_US \[s\]: the slack `tcp_schedule_loss_probe()` adds to 2·SRTT when more than one segment
/// is out, and `tcp_rack_mark_lost()` to the reordering timer.
pub const LINUX_TIMER_SLACK: f64 = 0.002;

/// How RACK-TLP's two timers are set: as RFC 8985 writes them, or as Linux's code does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RackTimers {
    /// PTO = 2·SRTT, + TLP.max_ack_delay ([`TLP_MAX_ACK_DELAY`]) with one segment out (§7.2); the reordering timer at
    /// the largest remaining RACK.rtt + RACK.reo_wnd (§6.2 step 5).
    Rfc8985,
    /// `tcp_schedule_loss_probe()`: PTO = 2·SRTT + TCP_TIMEOUT_MIN (2 ms, [`LINUX_TIMER_SLACK`]), or + tcp_rto_min (the
    /// sender's min_rto) with one segment out; `tcp_rack_mark_lost()`: the reordering timer 2 ms later too.
    Linux,
}

impl RackTimers {
    /// The rule by name: "rfc8985" or "linux".
    pub fn from_name(name: &str) -> crate::error::Result<Self> {
        match name {
            "rfc8985" => Ok(RackTimers::Rfc8985),
            "linux" => Ok(RackTimers::Linux),
            _ => Err(crate::error::Error::invalid("rack_timers", format!("'{name}'"), "must be rfc8985 or linux")),
        }
    }
}

/// Time below which a remaining wait counts as run out [s]: the reordering timer fires at a sum of times whose
/// rounding may leave a few ulps (Linux adds a fudge of its own, tcp_rack_reo_timeout()).
const TIME_EPS: f64 = 1e-9;

/// RACK-TLP's state, for inspection ([`super::Sender::rack`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RackView {
    /// RACK.xmit_ts: when the most recently sent of the delivered segments was (last) sent.
    pub xmit_ts: f64,
    /// RACK.end_seq: its sequence number + 1 (0: none yet).
    pub end_seq: u64,
    /// RACK.rtt: its round trip.
    pub rtt: f64,
    /// RACK.min_RTT (infinite before any sample).
    pub min_rtt: f64,
    /// RACK.reo_wnd as of the last loss detection.
    pub reo_wnd: f64,
    /// RACK.reordering_seen.
    pub reordering_seen: bool,
    /// When the reordering timer fires, if armed.
    pub reo_deadline: Option<f64>,
    /// When the PTO fires, if armed.
    pub pto_deadline: Option<f64>,
    /// TLP.end_seq of the outstanding probe (one past it), if one is.
    pub tlp_end: Option<u64>,
    /// Whether that probe was a retransmission (TLP.is_retrans).
    pub tlp_is_retrans: bool,
    /// Segments marked lost and not yet acknowledged (retransmitted or not).
    pub lost: u64,
    /// Tail loss probes sent.
    pub probes: u64,
    /// Losses a probe repaired (§7.4), each reducing cwnd once.
    pub probe_repairs: u64,
}

/// What the sender's other parts tell RACK about now: the recovery state and the timer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context {
    pub una: u64,
    pub high: u64,
    /// In fast recovery or RTO recovery.
    pub recovering: bool,
    /// Segments SACKed (RACK.segs_sacked).
    pub sacked: u64,
    pub srtt: Option<f64>,
    /// When the RTO expires, if it runs.
    pub rto_expiry: Option<f64>,
}

/// RACK-TLP (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct Rack {
    /// The segments sent: their times and flags, and the undelivered ones by transmission time ([`super::rack_record`]).
    sent: SentList,
    dupthresh: u64,
    /// What the PTO adds to 2·SRTT with one segment out and with more, and the reordering timer to its wait
    /// ([`RackTimers`]).
    pto_one_out: f64,
    timer_slack: f64,
    /// Segments in [una, high) marked lost / with a retransmission in flight (the SACKed have neither).
    pub lost: u64,
    pub rxt: u64,
    /// Of the segments marked lost, those with no retransmission in flight: NextSeg's rule (1) has one to send only
    /// while this is not 0 ([`Rack::first_to_retransmit`]).
    to_resend: u64,
    xmit_ts: f64,
    end_seq: u64,
    rtt: f64,
    min_rtt: f64,
    fack: u64,
    reordering_seen: bool,
    reo_wnd: f64,
    reo_deadline: Option<f64>,
    pto_deadline: Option<f64>,
    tlp_end: Option<u64>,
    tlp_is_retrans: bool,
    /// An RTT sample came since the last probe (or the start): §7.3's second condition.
    sampled_since_probe: bool,
    /// A probe to send now, beyond cwnd.
    pub probe: Option<u64>,
    probes: u64,
    probe_repairs: u64,
}

impl Rack {
    /// RACK-TLP with DupThresh `dupthresh`, its timers set by `timers` (`min_rto`: Linux's tcp_rto_min).
    pub(crate) fn new(dupthresh: u64, timers: RackTimers, min_rto: f64) -> Self {
        let (pto_one_out, timer_slack) = match timers {
            RackTimers::Rfc8985 => (TLP_MAX_ACK_DELAY, 0.0),
            RackTimers::Linux => (min_rto, LINUX_TIMER_SLACK),
        };
        Rack {
            sent: SentList::new(),
            dupthresh,
            pto_one_out,
            timer_slack,
            lost: 0,
            rxt: 0,
            to_resend: 0,
            xmit_ts: f64::NEG_INFINITY,
            end_seq: 0,
            rtt: 0.0,
            min_rtt: f64::INFINITY,
            fack: 0,
            reordering_seen: false,
            reo_wnd: 0.0,
            reo_deadline: None,
            pto_deadline: None,
            tlp_end: None,
            tlp_is_retrans: false,
            sampled_since_probe: true,
            probe: None,
            probes: 0,
            probe_repairs: 0,
        }
    }

    pub(crate) fn view(&self) -> RackView {
        RackView {
            xmit_ts: self.xmit_ts,
            end_seq: self.end_seq,
            rtt: self.rtt,
            min_rtt: self.min_rtt,
            reo_wnd: self.reo_wnd,
            reordering_seen: self.reordering_seen,
            reo_deadline: self.reo_deadline,
            pto_deadline: self.pto_deadline,
            tlp_end: self.tlp_end,
            tlp_is_retrans: self.tlp_is_retrans,
            lost: self.lost,
            probes: self.probes,
            probe_repairs: self.probe_repairs,
        }
    }

    #[inline]
    fn slot(&self, seq: u64) -> Slot {
        self.sent.slot(seq)
    }

    /// Whether `seq` (outstanding) is marked lost.
    pub(crate) fn is_lost(&self, seq: u64) -> bool {
        self.slot(seq).flags & LOST != 0
    }

    /// The first segment in `[from, to)` marked lost and not retransmitted since, not SACKed: NextSeg's rule (1).
    pub(crate) fn first_to_retransmit(&self, board: &Scoreboard, from: u64, to: u64) -> Option<u64> {
        if self.to_resend == 0 {
            debug_assert!((from..to).all(|s| self.slot(s).flags & (LOST | RXT) != LOST || board.is_sacked(s)));
            return None;
        }
        (from..to).find(|&s| self.slot(s).flags & (LOST | RXT) == LOST && !board.is_sacked(s))
    }

    /// `seq` went on the link at `now` (§6.1: record Segment.xmit_ts; a retransmission is in flight). The SACK part
    /// does not tell it of a retransmission of a SACKed segment, which RACK holds delivered (`super::sack_recovery`'s
    /// evidence).
    #[inline]
    pub(crate) fn on_send(&mut self, seq: u64, now: f64, retransmission: bool, una: u64, high: u64) {
        if !retransmission {
            return self.sent.record_new(seq, now, una, high);
        }
        let before = self.sent.record_retransmission(seq, now, una, high);
        self.rxt += u64::from(before & RXT == 0);
        self.to_resend -= u64::from(before & (LOST | RXT) == LOST);
    }

    /// The segment `seq` is delivered (cumulatively or selectively): it leaves the lost and retransmitted counts.
    #[inline]
    fn forget(&mut self, seq: u64) -> Slot {
        let slot = self.sent.remove(seq);
        self.lost -= u64::from(slot.flags & LOST != 0);
        self.to_resend -= u64::from(slot.flags & (LOST | RXT) == LOST);
        self.rxt -= u64::from(slot.flags & RXT != 0);
        slot
    }

    /// §6.2 steps 1-3 for an ACK of `ack` with `blocks` at `now`, before the scoreboard takes it: each segment newly
    /// delivered, in ascending order (cumulatively acknowledged ones first, then the SACKed block by block).
    pub(crate) fn on_delivery(&mut self, board: &Scoreboard, una: u64, high: u64, ack: u64, blocks: &[(u64, u64)],
                              now: f64) {
        self.sent.settle(una, high);
        if blocks.is_empty() && self.lost == 0 && self.rxt == 0 && board.count() == 0 && self.fack <= una + 1 {
            return self.deliver_in_order(una, ack.min(high), now);
        }
        let mut newest: Option<(f64, u64, f64)> = None; // (xmit_ts, end_seq, rtt) of the valid segment sent last
        let mut sorted = [(0u64, 0u64); super::MAX_SACK_BLOCKS];
        let n = blocks.len().min(sorted.len());
        // Element by element: a slice copy of a length known only at run time is a call to memcpy.
        for (to, &from) in sorted.iter_mut().zip(blocks) {
            *to = from;
        }
        sorted[..n].sort_unstable();
        let cumulative = (una, ack.min(high));
        // The blocks lie above `ack` and within `high` (the SACK part takes no other); each segment once: an overlap of
        // two blocks (not from an honest receiver) is delivered by the first.
        debug_assert!(sorted[..n].iter().all(|&(l, r)| ack < l && r <= high));
        let mut floor = ack;
        let sacked = sorted[..n].iter().map(|&(l, r)| {
            let from = l.max(floor);
            floor = floor.max(r);
            (from, r)
        });
        for (left, right) in std::iter::once(cumulative).chain(sacked) {
            // The segments of the range not SACKed before, found a word of the scoreboard at a time.
            let mut from = left;
            while let Some(seq) = board.first_unsacked(from, right) {
                from = seq + 1;
                self.deliver(seq, now, &mut newest);
            }
        }
        self.take_newest(newest);
    }

    /// [`Rack::on_delivery`] of an ACK that newly delivers `seq` alone, by SACK, with `[una, high)` outstanding (a
    /// recovery's common duplicate ACK: `super::sack_recovery`'s one-step ACK).
    #[inline(always)]
    pub(crate) fn on_one_delivery(&mut self, una: u64, high: u64, seq: u64, now: f64) {
        self.sent.settle(una, high);
        let mut newest = None;
        self.deliver(seq, now, &mut newest);
        self.take_newest(newest);
    }

    /// Steps 1 and 3 for segment `seq`, newly delivered at `now`; for step 2, `newest` (the valid segment sent last
    /// among those this ACK delivered, as (xmit_ts, end_seq, rtt)) becomes it if it is valid and sent after.
    #[inline(always)]
    fn deliver(&mut self, seq: u64, now: f64, newest: &mut Option<(f64, u64, f64)>) {
        let slot = self.forget(seq);
        let rtt = now - slot.xmit;
        let retransmitted = slot.flags & EVER_RXT != 0;
        if !retransmitted {
            self.min_rtt = self.min_rtt.min(rtt); // step 1
        }
        // Step 2: a retransmitted segment delivered sooner than min_RTT after its retransmission may be
        // the original's delivery; its timing is not trusted.
        let valid = !(retransmitted && rtt < self.min_rtt);
        if valid && newest.is_none_or(|(t, e, _)| sent_after(slot.xmit, seq + 1, t, e)) {
            *newest = Some((slot.xmit, seq + 1, rtt));
        }
        // Step 3.
        if seq + 1 > self.fack {
            self.fack = seq + 1;
        } else if seq + 1 < self.fack && !retransmitted {
            self.reordering_seen = true;
        }
    }

    /// Step 2 once an ACK's segments are delivered: RACK.rtt, and RACK.segment if `newest` was sent after it.
    #[inline(always)]
    fn take_newest(&mut self, newest: Option<(f64, u64, f64)>) {
        if let Some((xmit, end, rtt)) = newest {
            self.rtt = rtt;
            self.sampled_since_probe = true;
            if sent_after(xmit, end, self.xmit_ts, self.end_seq) {
                (self.xmit_ts, self.end_seq) = (xmit, end);
            }
        }
    }

    /// [`Rack::on_delivery`] of a bulk transfer's common ACK, which moves the cumulative ACK over `[una, ack)` with
    /// nothing SACKed, lost or retransmitted outstanding: then every outstanding segment is an original, sent in
    /// sequence order, so the list by transmission time starts at `una`, the last segment delivered is the most
    /// recently sent and has the smallest RTT (steps 1-2), and none was delivered below RACK.fack (step 3: fack <=
    /// una + 1). The same result as the general loop, without its per-segment search.
    fn deliver_in_order(&mut self, una: u64, ack: u64, now: f64) {
        if ack <= una {
            return;
        }
        let last = self.sent.remove_oldest(una, ack);
        self.delivered_in_order(last.xmit, ack, now);
    }

    /// Steps 1-3 for segments delivered in order up to `ack`, the last of them sent at `xmit` and the most recently
    /// sent: its RTT is RACK.rtt and a min_RTT candidate, it is RACK.segment if sent after the one before, and fack
    /// moves to `ack`.
    #[inline(always)]
    fn delivered_in_order(&mut self, xmit: f64, ack: u64, now: f64) {
        let rtt = now - xmit;
        self.min_rtt = crate::earlier(self.min_rtt, rtt);
        self.rtt = rtt;
        self.sampled_since_probe = true;
        if sent_after(xmit, ack, self.xmit_ts, self.end_seq) {
            (self.xmit_ts, self.end_seq) = (xmit, ack);
        }
        self.fack = self.fack.max(ack);
    }

    /// The whole of §6.2 for a bulk transfer's common ACK, if it is one: the cumulative ACK moves to `ack` with no SACK
    /// block, nothing SACKed, lost or retransmitted outstanding, no probe outstanding, and the oldest segment left sent
    /// after RACK.segment. Then steps 1-3 are [`Rack::deliver_in_order`] and step 5 finds nothing sent before
    /// RACK.segment: no loss, no reordering timer. Step 4 (RACK.reo_wnd) is left to the next loss detection, which
    /// computes it before it reads it, as the RTO's marking does.
    /// Returns false, having changed nothing, when the ACK is not of this kind (the caller runs the general steps).
    #[inline(always)]
    pub(crate) fn on_quiet_ack(&mut self, una: u64, ack: u64, high: u64, now: f64) -> bool {
        if self.sent.is_calm() {
            if !(self.tlp_end.is_none() && una < ack && ack <= high) {
                self.sent.settle(una, high);
                return false;
            }
            self.on_calm_ack(ack, now);
            return true;
        }
        self.on_quiet_ack_listed(una, ack, high, now)
    }

    /// Whether an ACK that moves the cumulative ACK, with no SACK block, is one [`Rack::on_quiet_ack`] takes in the calm
    /// state: the record calm, and no probe outstanding or waiting. Changes nothing.
    #[inline(always)]
    pub(crate) fn takes_calm_ack(&self) -> bool {
        self.sent.is_calm() && self.no_probe()
    }

    /// Whether no probe is outstanding or waiting: then an ACK's §7.4 check changes nothing and the sends after it are
    /// not a probe (the one-step ACKs, `super::sack_recovery`).
    #[inline(always)]
    pub(crate) fn no_probe(&self) -> bool {
        self.tlp_end.is_none() && self.probe.is_none()
    }

    /// Whether a segment marked lost waits for its retransmission (NextSeg's rule (1) has one to send).
    #[inline(always)]
    pub(crate) fn has_lost_to_resend(&self) -> bool {
        self.to_resend > 0
    }

    /// [`Rack::on_quiet_ack`] in the calm state, for an ACK of `ack` (over SND.UNA, at most SND.NXT) at `now`: what
    /// deliver_in_order() finds, read off the sequence order (the last segment delivered is the most recently sent, and
    /// was sent after RACK.segment, the last one delivered before it); no segment is left sent before it, so no
    /// reordering timer.
    #[inline(always)]
    pub(crate) fn on_calm_ack(&mut self, ack: u64, now: f64) {
        debug_assert!(self.sent.is_calm() && self.tlp_end.is_none());
        self.delivered_in_order(self.slot(ack - 1).xmit, ack, now);
        self.reo_deadline = None;
    }

    /// [`Rack::on_quiet_ack`] outside the calm state: the list by transmission time is kept, and checked.
    #[inline(never)]
    fn on_quiet_ack_listed(&mut self, una: u64, ack: u64, high: u64, now: f64) -> bool {
        if !(self.lost == 0 && self.rxt == 0 && self.tlp_end.is_none() && self.fack <= una + 1 && una < ack && ack <= high)
        {
            return false;
        }
        let last = self.slot(ack - 1);
        let (xmit_ts, end_seq) = if sent_after(last.xmit, ack, self.xmit_ts, self.end_seq) {
            (last.xmit, ack)
        } else {
            (self.xmit_ts, self.end_seq)
        };
        let next = self.sent.sent_next_after(ack - 1);
        if next != NONE && !sent_after(self.slot(next).xmit, next + 1, xmit_ts, end_seq) {
            return false;
        }
        self.deliver_in_order(una, ack, now);
        self.reo_deadline = None;
        self.sent.try_calm(ack, high);
        true
    }

    /// §6.2 step 4: RACK.reo_wnd.
    fn update_reo_wnd(&mut self, cx: &Context) {
        self.reo_wnd = if !self.reordering_seen && (cx.recovering || cx.sacked >= self.dupthresh) {
            0.0
        } else {
            match (self.min_rtt.is_finite(), cx.srtt) {
                (true, Some(srtt)) => (self.min_rtt / 4.0).min(srtt),
                (true, None) => self.min_rtt / 4.0,
                (false, Some(srtt)) => srtt,
                (false, None) => 0.0,
            }
        };
    }

    /// §6.2 steps 4-5 (RACK_detect_loss_and_arm_timer) at `now`: marks losses, arms or stops the reordering timer;
    /// returns how many segments it newly marked lost.
    pub(crate) fn detect_loss(&mut self, board: &Scoreboard, cx: &Context, now: f64) -> u64 {
        self.sent.settle(cx.una, cx.high);
        self.update_reo_wnd(cx);
        // The undelivered segments by transmission time, oldest first: past the first one sent later than
        // RACK.segment (a later time; at the same time the sequence decides) none was sent before it.
        let (mut marked, mut timeout) = (0, 0.0_f64);
        let mut next = self.sent.oldest();
        while next != NONE {
            let seq = next;
            let slot = self.slot(seq);
            next = self.sent.sent_next_after(seq);
            if slot.xmit > self.xmit_ts {
                break;
            }
            if slot.flags & (LOST | RXT) == LOST || board.is_sacked(seq)
                || !sent_after(self.xmit_ts, self.end_seq, slot.xmit, seq + 1)
            {
                continue;
            }
            let remaining = slot.xmit + self.rtt + self.reo_wnd - now;
            if remaining <= TIME_EPS {
                self.mark_lost(seq);
                marked += 1;
            } else {
                timeout = timeout.max(remaining);
            }
        }
        self.reo_deadline = (timeout > 0.0).then_some(now + timeout + self.timer_slack);
        marked
    }

    /// The receiver reneged on `seq`, which it had SACKed (delivered, for RACK), with `[una, high)` outstanding: it is
    /// undelivered again, back among the others by transmission time, for the RTO's marks to judge (§6.3;
    /// `super::sack_recovery`'s evidence).
    pub(crate) fn reneged(&mut self, seq: u64, una: u64, high: u64) {
        self.sent.settle(una, high);
        self.sent.relink(seq);
    }

    fn mark_lost(&mut self, seq: u64) {
        let flags = self.slot(seq).flags;
        self.lost += u64::from(flags & LOST == 0);
        self.to_resend += u64::from(flags & (LOST | RXT) != LOST);
        self.rxt -= u64::from(flags & RXT != 0);
        self.sent.slot_mut(seq).flags = (flags & !RXT) | LOST;
    }

    /// §6.3 RACK_mark_losses_on_RTO, at `now` (`cx` already in RTO recovery): the first unacknowledged segment and
    /// every one sent at least RACK.rtt + RACK.reo_wnd ago. The probe and both of RACK's timers go.
    pub(crate) fn on_rto(&mut self, board: &Scoreboard, cx: &Context, now: f64) {
        self.sent.settle(cx.una, cx.high);
        self.update_reo_wnd(cx);
        for seq in cx.una..cx.high {
            let slot = self.slot(seq);
            if !board.is_sacked(seq) && (seq == cx.una || slot.xmit + self.rtt + self.reo_wnd - now <= TIME_EPS) {
                self.mark_lost(seq);
            }
        }
        (self.reo_deadline, self.pto_deadline, self.tlp_end, self.probe) = (None, None, None, None);
    }

    /// F-RTO undid a timeout (`super::frto`): nothing in `[una, high)` is lost any more (Linux's
    /// tcp_undo_cwnd_reduction() clears TCPCB_LOST and lost_out); a retransmission in flight stays one.
    pub(crate) fn unmark_lost(&mut self, una: u64, high: u64) {
        if self.lost == 0 {
            return;
        }
        for seq in una..high {
            self.sent.slot_mut(seq).flags &= !LOST;
        }
        self.lost = 0;
        self.to_resend = 0;
    }

    /// Whether the record is in its calm state, which holds only outside recovery with nothing SACKed (a loss, a SACK
    /// block or a timeout ends it first).
    #[inline]
    pub(crate) fn is_calm(&self) -> bool {
        self.sent.is_calm()
    }

}


/// RACK_sent_after (§6.2 step 2): whether (t1, seq1) was sent after (t2, seq2), the sequence breaking a tie.
#[inline]
fn sent_after(t1: f64, seq1: u64, t2: f64, seq2: u64) -> bool {
    t1 > t2 || (t1 == t2 && seq1 > seq2)
}
