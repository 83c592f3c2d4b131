//! What the drivers share, each written once: the choice of the next event among a driver's deadlines, the
//! receiver's ACK policy (delayed ACKs), and the difference of two snapshots of a run's counters.

use crate::tcp::DelayedAckRule;

/// The earliest of a driver's deadlines (None: not pending), [`NextEvent::time`] (∞ when nothing can happen any
/// more). A driver asks [`NextEvent::is`] down its events in the order it handles ties: the first that is due
/// is the one.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NextEvent<const N: usize> {
    times: [f64; N],
    /// When the next event happens.
    pub time: f64,
}

impl<const N: usize> NextEvent<N> {
    /// The earliest of `deadlines`.
    #[inline]
    pub(crate) fn of(deadlines: [Option<f64>; N]) -> Self {
        // A min over plain floats, branch-free; the drivers then test their events with float comparisons,
        // branches that predict well, where an index would become a jump table that mispredicts as events
        // alternate (link completions and ACKs).
        let times = deadlines.map(|d| d.unwrap_or(f64::INFINITY));
        let time = times.iter().fold(f64::INFINITY, |a, &t| crate::earlier(a, t));
        NextEvent { times, time }
    }

    /// Whether event `i` happens at [`NextEvent::time`].
    #[inline]
    pub(crate) fn is(&self, i: usize) -> bool {
        self.times[i] == self.time
    }
}

/// The receiver's RFC 7323 timestamp echo (§4.3), for a sender with [`crate::tcp::SenderConfig::timestamps`]: TS.Recent,
/// the TSval (here the sender's clock when the copy left) of the latest segment at or below Last.ACK.sent, the ACK
/// value last sent. An ACK echoes it, so the ACK that a late original triggers echoes the original's time, not a
/// retransmission's (what Eifel's detection of a spurious timeout rests on, RFC 3522).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct TsRecent {
    recent: f64,
    last_ack_sent: u64,
}

impl TsRecent {
    pub(crate) fn new() -> Self {
        TsRecent { recent: 0.0, last_ack_sent: 0 }
    }

    /// A data segment `seq` that left the sender at `tsval` arrived: "if SEG.TSval >= TS.Recent and SEG.SEQ <=
    /// Last.ACK.sent, SEG.TSval is copied to TS.Recent".
    #[inline]
    pub(crate) fn on_segment(&mut self, seq: u64, tsval: f64) {
        if seq <= self.last_ack_sent && tsval >= self.recent {
            self.recent = tsval;
        }
    }

    /// An ACK of `ack` leaves: the timestamp it echoes (TSecr).
    #[inline]
    pub(crate) fn echo(&mut self, ack: u64) -> f64 {
        self.last_ack_sent = ack;
        self.recent
    }
}

/// The receiver's ACK policy: one ACK per segment, or delayed ACKs (RFC 5681 §4.2, RFC 1122 §4.2.3.2): an
/// in-order segment is ACKed with the next one or when the delay runs out; a segment out of order, an old
/// one, or one that fills a gap is ACKed at once (the sender should hear of a hole, and of its repair, without
/// delay): the whole gap under ns-2's rule, all or part of it under RFC 5681's ([`DelayedAckRule`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct AckPolicy {
    /// The delay; None ACKs every segment.
    delay: Option<f64>,
    /// Which in-order segment is ACKed at once.
    rule: DelayedAckRule,
    /// When the held ACK goes out, if one is held.
    deadline: Option<f64>,
}

impl AckPolicy {
    pub(crate) fn new(delay: Option<f64>, rule: DelayedAckRule) -> Self {
        AckPolicy { delay, rule, deadline: None }
    }

    /// A data segment `seq` arrived at `now`, when the receiver expected `expected`; its cumulative ACK is `ack`,
    /// and `gap_left` says whether the receiver still holds packets out of order (asked only when it matters): true
    /// when the ACK goes out now (any held ACK with it), false when it is held.
    #[inline]
    pub(crate) fn ack_now(&mut self, now: f64, seq: u64, expected: u64, ack: u64, gap_left: impl FnOnce() -> bool)
                          -> bool {
        let in_order = seq == expected;
        // In order and the ACK moved past it (all of a gap filled), or, under RFC 5681's rule, packets still held
        // above it (part of one).
        let filled_hole = || ack > seq + 1 || (self.rule == DelayedAckRule::Rfc5681 && gap_left());
        match self.delay {
            Some(delay) if in_order && !filled_hole() => {
                if self.deadline.take().is_some() {
                    true // the second segment: ACK both
                } else {
                    self.deadline = Some(now + delay);
                    false
                }
            }
            _ => {
                self.deadline = None;
                true
            }
        }
    }

    /// When the held ACK goes out, if one is held.
    #[inline]
    pub(crate) fn deadline(&self) -> Option<f64> {
        self.deadline
    }

    /// The held ACK goes out (its deadline came), or is superseded (an ACK that covers it went out).
    #[inline]
    pub(crate) fn release(&mut self) {
        self.deadline = None;
    }
}

/// Declare a struct of cumulative counters and its `minus` (the counts of the interval between two
/// snapshots: a batch, or the measured time after a warm-up), field by field, so that the fields are listed
/// once and the subtraction written once.
macro_rules! counters {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$field_meta:meta])* pub $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl $name {
            /// The counts since `earlier`, a snapshot of the same run.
            pub(crate) fn minus(&self, earlier: &$name) -> $name {
                $name { $($field: self.$field - earlier.$field,)* }
            }
        }
    };
}

pub(crate) use counters;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ts_recent_follows_rfc_7323_section_4_3() {
        let mut ts = TsRecent::new();
        // 0 and 1 in order, sent at 1.0 and 1.1: each ACK echoes the segment that made it.
        ts.on_segment(0, 1.0);
        assert_eq!(ts.echo(1), 1.0);
        ts.on_segment(1, 1.1);
        assert_eq!(ts.echo(2), 1.1);
        // 2 is lost; 3 arrives out of order (above Last.ACK.sent = 2): the duplicate ACK echoes 1's timestamp still.
        ts.on_segment(3, 1.3);
        assert_eq!(ts.echo(2), 1.1);
        // 2's retransmission (sent at 2.0) fills the hole: the ACK of 4 echoes the retransmission.
        ts.on_segment(2, 2.0);
        assert_eq!(ts.echo(4), 2.0);
        // A copy of 4 sent at 1.4 arrives now: TSval 1.4 < TS.Recent 2.0, so TS.Recent stays (the rule never lets it
        // go back in time).
        ts.on_segment(4, 1.4);
        assert_eq!(ts.echo(5), 2.0);
        // With delayed ACKs, two in-order segments and one ACK: 5 arrives at Last.ACK.sent = 5 and sets TS.Recent, 6,
        // above it, does not: the ACK of 7 echoes the first one's timestamp.
        ts.on_segment(5, 3.0);
        ts.on_segment(6, 3.1);
        assert_eq!(ts.echo(7), 3.0);
    }

    #[test]
    fn the_earliest_deadline_and_every_event_due_then() {
        let next = NextEvent::of([Some(2.0), Some(1.0), Some(1.0), None]);
        assert_eq!(next.time, 1.0);
        assert_eq!([0, 1, 2, 3].map(|i| next.is(i)), [false, true, true, false]); // ties: the first listed goes
        assert_eq!(NextEvent::of([None, Some(3.0)]).time, 3.0);
        assert_eq!(NextEvent::<3>::of([None, None, None]).time, f64::INFINITY);
    }

    #[test]
    fn delayed_acks_pair_in_order_segments_and_answer_holes_at_once() {
        for rule in [DelayedAckRule::Ns2, DelayedAckRule::Rfc5681] {
            let mut p = AckPolicy::new(Some(0.2), rule);
            assert!(!p.ack_now(1.0, 0, 0, 1, || false)); // held
            assert_eq!(p.deadline(), Some(1.2));
            assert!(p.ack_now(1.1, 1, 1, 2, || false)); // the second: both ACKed
            assert_eq!(p.deadline(), None);
            assert!(p.ack_now(1.2, 5, 2, 2, || true)); // out of order (2, 3, 4 missing)
            // 2 arrives: part of the gap 2-4 filled, 5 still held. RFC 5681 §4.2 answers at once; ns-2's DelAckSink
            // delivers one packet, so it holds the ACK like any in-order segment's.
            assert_eq!(p.ack_now(1.25, 2, 2, 3, || true), rule == DelayedAckRule::Rfc5681);
            if rule == DelayedAckRule::Ns2 {
                assert_eq!(p.deadline(), Some(1.45));
            }
            assert!(p.ack_now(1.3, 3, 3, 6, || false)); // the rest filled (4, 5 held): the ACK jumps, at once under both
            assert_eq!(p.deadline(), None);
            assert!(p.ack_now(1.4, 1, 6, 6, || false)); // an old one
            assert!(!p.ack_now(1.5, 6, 6, 7, || false)); // in order again, nothing held: held
        }
        let mut every = AckPolicy::new(None, DelayedAckRule::Rfc5681);
        assert!(every.ack_now(0.0, 0, 0, 1, || false));
    }
}
