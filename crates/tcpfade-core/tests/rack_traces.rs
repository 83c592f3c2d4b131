//! Hand-worked traces of RACK-TLP (RFC 8985) over SACK's recovery (RFC 6675), in the style of packetdrill: a sender
//! driven by scripted ACKs with SACK blocks and by its own timers, asserting at each named event what it sends, its
//! cwnd, ssthresh and pipe, and when its timers fire. Every expected number was worked out by hand from the RFC's
//! rules (the comments show the sums); times are sums of binary fractions (RTT 1/8 s, ACKs 1/64 s apart), so they are
//! exact in floating point.
//!
//! The sender: NewReno's congestion part (ssthresh = ⌈W/2⌉, W + 1 per ACK in slow start), K = 3, Wmax = 64, RFC
//! 6298's timer with a 1 s minimum (the first sample of R = 1/8 gives SRTT = 1/8, RTTVAR = 1/16 and RTO =
//! max(1/8 + 4/16, 1) = 1 s), SACK and RACK-TLP on, PRR off (cwnd = ssthresh at entry). The rules used:
//!
//! - RACK.reo_wnd = min(min_RTT/4, SRTT) = 1/32 s, but 0 in recovery or with 3 or more SACKed when no reordering
//!   has been seen (§6.2 step 4);
//! - a segment sent before RACK.segment is lost once xmit_ts + RACK.rtt + reo_wnd <= now, else the reordering timer
//!   waits for it (§6.2 step 5);
//! - PTO = 2·SRTT (+ 0.2 s with one segment in flight), never after the RTO (§7.2);
//! - pipe = outstanding − SACKed − marked lost + retransmissions in flight.

mod common;

use common::{drain, sack_ack as ack};
use tcpfade_core::tcp::{RackTimers, Rfc6298, Sender, SenderConfig, Variant, LINUX_TIMER_SLACK};

const RTT: f64 = 0.125;
const GAP: f64 = 1.0 / 64.0;

/// A NewReno sender with SACK and RACK-TLP, initial window `iw`, a transfer of `segments`; what it sends at t = 0.
fn sender(iw: u64, segments: u64) -> (Sender, Vec<u64>) {
    let timer = Rfc6298 { initial: 1.0, min: 1.0, max: 60.0, granularity: 0.01, max_backoff: 64 };
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 1000.0).unwrap()
        .with_rfc6298(timer).unwrap()
        .with_initial_window(iw).unwrap()
        .with_segments(segments).unwrap()
        .with_sack(true).unwrap()
        .with_rack(true).unwrap();
    let mut s = Sender::new(cfg);
    let first = drain(&mut s, 0.0);
    (s, first)
}

/// The sender's timer fires at its deadline, which must be `at`; what is sent in answer.
fn fire(s: &mut Sender, at: f64) -> Vec<u64> {
    assert_eq!(s.timer_deadline(), Some(at), "the timer's deadline");
    s.on_timeout(at);
    drain(s, at)
}

#[test]
fn a_tail_loss_probe_retransmits_the_last_segment_and_its_sack_lets_rack_find_the_other_loss() {
    // RFC 8985 §3's tail drop: 0-9 sent at 0, 8 and 9 lost; no more data (a transfer of 10).
    let (mut s, first) = sender(10, 10);
    assert_eq!(first, (0..10).collect::<Vec<_>>());
    // ACKs of 0-7 arrive at 1/8 + k/64: each moves the cumulative ACK; W = 10 + 8 = 18 by slow start.
    for k in 0..8 {
        assert_eq!(ack(&mut s, RTT + k as f64 * GAP, k + 1, &[]), Vec::<u64>::new());
    }
    let last = RTT + 7.0 * GAP; // 0.234375
    assert_eq!(s.cwnd(), 18.0);
    let r = s.rack().unwrap();
    assert_eq!((r.min_rtt, r.rtt, r.end_seq), (RTT, 0.234375, 8)); // segment 7: sent at 0, ACKed at 0.234375
    // PTO = 2·SRTT = 1/4 after the last ACK of new data (two segments in flight), before the RTO (last + 1 s).
    assert_eq!(r.pto_deadline, Some(last + 0.25));
    assert_eq!(s.rto_deadline(), Some(last + 1.0));
    // The PTO fires: no new data, so the highest segment sent (9) goes again, beyond cwnd; the RTO re-arms from now.
    let pto = last + 0.25; // 0.484375
    assert_eq!(fire(&mut s, pto), vec![9]);
    let r = s.rack().unwrap();
    assert_eq!((r.probes, r.tlp_end, r.tlp_is_retrans), (1, Some(10), true));
    assert_eq!(s.timer_deadline(), Some(pto + 1.0));
    // The probe's ACK SACKs 9 one RTT later: RACK.segment = the probe (retransmitted, but its RTT 1/8 is not below
    // min_RTT, so valid). One SACKed (< 3): reo_wnd = min_RTT/4 = 1/32; 8 was sent at 0: 0 + 1/8 + 1/32 <= 0.609375,
    // lost. DupThresh could not fire (one duplicate ACK); RACK starts recovery: ssthresh = ⌈18/2⌉ = 9 = cwnd.
    // pipe = (10 − 8) − 1 SACKed − 1 lost = 0; the entry retransmission of 8 makes it 1; nothing else to send.
    assert_eq!(ack(&mut s, pto + RTT, 8, &[(9, 10)]), vec![8]);
    assert!(s.in_recovery());
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (9.0, 9.0, Some(1)));
    assert_eq!(s.rack().unwrap().reo_wnd, RTT / 4.0);
    // 8's retransmission arrives: the ACK covers RecoveryPoint (10), recovery ends with cwnd = ssthresh.
    assert_eq!(ack(&mut s, pto + 2.0 * RTT, 10, &[]), Vec::<u64>::new());
    assert!(s.is_done() && !s.in_recovery());
    assert_eq!(s.cwnd(), 9.0);
    let c = s.counters();
    assert_eq!((c.timeouts, c.fast_retransmits, c.retransmissions, c.transmissions), (0, 1, 2, 12));
    // §7.4: the ACK reached TLP.end_seq but not beyond it, so the episode stays open (no second reduction).
    assert_eq!(s.rack().unwrap().tlp_end, Some(10));
}

#[test]
fn a_probe_of_new_data_exposes_a_burst_loss_that_rack_marks_at_once() {
    // IW 4: 0-3 at 0. 0's ACK at 1/8 (W = 5) sends 4 and 5; then 1-5 are lost (a burst).
    let (mut s, first) = sender(4, 20);
    assert_eq!(first, vec![0, 1, 2, 3]);
    assert_eq!(ack(&mut s, RTT, 1, &[]), vec![4, 5]);
    // PTO re-armed by the new data: 1/8 + 2·SRTT = 0.375 (the RTO: 1/8 + 1 = 1.125).
    let pto = RTT + 0.25;
    assert_eq!(s.rack().unwrap().pto_deadline, Some(pto));
    // The PTO fires with data left to send: the probe is new data (6), beyond cwnd (6 outstanding, W = 5).
    assert_eq!(fire(&mut s, pto), vec![6]);
    assert_eq!(s.rack().unwrap().tlp_is_retrans, false);
    // 6's ACK (cum 1, SACK 6) at 0.5: RACK.segment = 6 (sent 0.375). reo_wnd = 1/32 (one SACKed). 1-3 (sent 0):
    // 0 + 1/8 + 1/32 <= 0.5, lost; 4, 5 (sent 1/8): 1/8 + 1/8 + 1/32 <= 0.5, lost: five at once. Recovery:
    // ssthresh = ⌈5/2⌉ = 3 = cwnd; pipe = (7 − 1) − 1 − 5 = 0; 1, 2, 3 go (pipe 3).
    assert_eq!(ack(&mut s, pto + RTT, 1, &[(6, 7)]), vec![1, 2, 3]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (3.0, 3.0, Some(3)));
    assert!((1..6).all(|seq| s.is_marked_lost(seq)));
    // 1's retransmission is ACKed: pipe = (7 − 2) − 1 − 4 lost + 2 retransmissions in flight = 2; 4 goes.
    assert_eq!(ack(&mut s, pto + 2.0 * RTT, 2, &[(6, 7)]), vec![4]);
    assert_eq!(s.pipe(), Some(3));
    assert_eq!(s.counters().timeouts, 0);
}

#[test]
fn the_last_segments_lost_with_two_duplicate_acks_rack_fires_after_the_reordering_window() {
    // A transfer of 10, all sent at 0; 7 lost. ACKs of 0-6 at 1/8 + k/64 (W = 17).
    let (mut s, _) = sender(10, 10);
    for k in 0..7 {
        ack(&mut s, RTT + k as f64 * GAP, k + 1, &[]);
    }
    let rto = RTT + 6.0 * GAP + 1.0; // restarted by the last ACK of new data
    assert_eq!(s.rto_deadline(), Some(rto));
    // 8 arrives: ACK 7, SACK 8, at 0.25. RACK.rtt = 0.25 (8 sent at 0). reo_wnd = 1/32 (one SACKed). 7, sent at
    // 0 with a lower sequence (RACK_sent_after's tie-break), waits 0 + 0.25 + 1/32 − 0.25 = 1/32: the reordering
    // timer, at 0.28125; the PTO stops (something is SACKed).
    assert_eq!(ack(&mut s, RTT + 8.0 * GAP, 7, &[(8, 9)]), Vec::<u64>::new());
    let r = s.rack().unwrap();
    assert_eq!((r.reo_deadline, r.pto_deadline), (Some(0.28125), None));
    // 9 arrives at 0.265625: RACK.rtt = 0.265625, so 7's wait moves to 0.265625 + 1/32 = 0.296875. Two duplicate
    // ACKs: below DupThresh, and IsLost needs three SACKed above 7; without RACK only the RTO (at 1.21875) is left.
    assert_eq!(ack(&mut s, RTT + 9.0 * GAP, 7, &[(8, 10)]), Vec::<u64>::new());
    assert!(!s.in_recovery());
    // The reordering timer fires: 7 is lost; recovery, ssthresh = ⌈17/2⌉ = 9 = cwnd; pipe = 3 − 2 − 1 = 0, and 7
    // goes again.
    assert_eq!(fire(&mut s, 0.296875), vec![7]);
    assert!(s.in_recovery());
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (9.0, 9.0, Some(1)));
    assert_eq!(s.rto_deadline(), Some(rto));
    assert_eq!(s.timer_deadline(), Some(rto)); // the reordering timer is spent
    let c = s.counters();
    assert_eq!((c.timeouts, c.fast_retransmits), (0, 1));
}

#[test]
fn a_lost_retransmission_is_found_by_rack_without_a_timeout() {
    // A transfer of 20, IW 10: 0-9 at 0; 0 lost, 1-9 arrive (ACK 0 with SACK 1..k+1 at 1/8 + k/64).
    let (mut s, _) = sender(10, 20);
    // No RTT sample for SRTT yet (the timed segment, 0, is lost): reo_wnd = min_RTT/4 = 0.140625/4 until 3 are
    // SACKed. The third SACKed (at 0.171875) makes reo_wnd 0: 0 + 0.171875 + 0 <= 0.171875, lost. Recovery: W = 10,
    // ssthresh = 5 = cwnd; pipe = 10 − 3 − 1 = 6; the entry retransmission of 0 (pipe 7).
    assert_eq!(ack(&mut s, RTT + GAP, 0, &[(1, 2)]), Vec::<u64>::new());
    assert_eq!(ack(&mut s, RTT + 2.0 * GAP, 0, &[(1, 3)]), Vec::<u64>::new());
    let rxt = RTT + 3.0 * GAP; // 0.171875
    assert_eq!(ack(&mut s, rxt, 0, &[(1, 4)]), vec![0]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (5.0, 5.0, Some(7)));
    // 0's retransmission is lost too. Each further SACK lowers pipe: 10 − k − 1 lost + 1 retransmitted; from k = 6 it
    // is 4 < 5 and new data goes (10, 11, 12, 13 at k = 6 … 9).
    let mut sent = Vec::new();
    for k in 4..10 {
        sent.extend(ack(&mut s, RTT + k as f64 * GAP, 0, &[(1, k + 1)]));
    }
    assert_eq!(sent, vec![10, 11, 12, 13]);
    // pipe = 14 − 9 SACKed − 1 lost + 1 retransmission in flight = 5; 0 is still marked lost (and retransmitted).
    assert_eq!(s.pipe(), Some(5));
    assert!(s.is_marked_lost(0));
    // 10 (sent at 0.21875) is SACKed at 0.34375: RACK.segment = 10, sent after 0's retransmission (0.171875), which
    // is lost: 0.171875 + 1/8 + 0 (in recovery) <= 0.34375. pipe = 14 − 10 − 1 = 3: 0 goes a third time (rule 1),
    // then new data 14 (pipe 5 = cwnd). No RTO.
    assert_eq!(ack(&mut s, 0.21875 + RTT, 0, &[(1, 11)]), vec![0, 14]);
    assert_eq!(s.pipe(), Some(5));
    let c = s.counters();
    assert_eq!((c.timeouts, c.fast_retransmits, c.retransmissions), (0, 1, 2));
}

#[test]
fn a_delivered_retransmission_exposes_a_later_numbered_segment_sent_before_it() {
    // §6.2 step 5 judges every segment by its transmission time, not its number: once RACK.segment is a delivered
    // retransmission, an undelivered segment numbered above it but sent before it is lost after RACK.rtt (+ reo_wnd).
    // A transfer of 6, IW 6: 0-5 at 0; 0 and 5 lost, 1-4 arrive (ACK 0 with SACK 1..k+1 at 1/8 + k/64).
    let (mut s, first) = sender(6, 6);
    assert_eq!(first, (0..6).collect::<Vec<_>>());
    // min_RTT = 1/8 at the first SACK; reo_wnd = 1/32 until 3 are SACKed, then 0: 0 + 0.15625 + 0 <= 0.15625, 0 is
    // lost. 5 is not: RACK.segment (3, sent at 0) does not come after it (same time, lower number).
    assert_eq!(ack(&mut s, RTT, 0, &[(1, 2)]), Vec::<u64>::new());
    assert_eq!(ack(&mut s, RTT + GAP, 0, &[(1, 3)]), Vec::<u64>::new());
    let rxt = RTT + 2.0 * GAP; // 0.15625
    // Recovery: W = 6, ssthresh = 3 = cwnd; pipe = 6 − 3 SACKed − 1 lost + 1 retransmitted = 3: nothing more.
    assert_eq!(ack(&mut s, rxt, 0, &[(1, 4)]), vec![0]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (3.0, 3.0, Some(3)));
    // 4 SACKed: pipe 2 < 3, but nothing is marked lost and not retransmitted, and there is no new data.
    assert_eq!(ack(&mut s, RTT + 3.0 * GAP, 0, &[(1, 5)]), Vec::<u64>::new());
    assert!(!s.is_marked_lost(5));
    // 0's retransmission is ACKed (cumulative ACK 5) at 0.28125: RACK.segment = it (sent at 0.15625, RTT 1/8, not
    // below min_RTT: valid), RACK.end_seq = 1. 5 was sent at 0, before it: 0 + 1/8 + 0 (in recovery) <= 0.28125,
    // lost, although 5 > RACK.end_seq and no retransmission is in flight. Still in recovery (RecoveryPoint 6):
    // pipe = 1 − 1 lost = 0, so 5 goes at once (rule 1) instead of after an RTO.
    let r = s.rack().unwrap();
    assert_eq!((r.xmit_ts, r.end_seq), (0.0, 5));
    assert_eq!(ack(&mut s, rxt + RTT, 5, &[]), vec![5]);
    let r = s.rack().unwrap();
    assert_eq!((r.xmit_ts, r.end_seq, r.rtt), (rxt, 1, RTT));
    assert!(s.is_marked_lost(5) && s.in_recovery());
    assert_eq!(s.pipe(), Some(1));
    // 5's retransmission arrives: recovery ends with cwnd = ssthresh, and the transfer is done without a timeout.
    assert_eq!(ack(&mut s, rxt + 2.0 * RTT, 6, &[]), Vec::<u64>::new());
    assert!(s.is_done() && !s.in_recovery());
    assert_eq!(s.cwnd(), 3.0);
    let c = s.counters();
    assert_eq!((c.timeouts, c.fast_retransmits, c.retransmissions), (0, 1, 2));
}

#[test]
fn reordering_seen_keeps_the_reordering_window_when_three_are_sacked() {
    // A transfer of 10 at 0. 2 arrives after 3: ACK 2 with SACK 3, then ACK 4.
    let (mut s, _) = sender(10, 10);
    ack(&mut s, RTT, 1, &[]);
    ack(&mut s, RTT + GAP, 2, &[]);
    // 3 SACKed at 0.15625: 2 waits 0 + 0.15625 + 1/32 (timer at 0.1875).
    ack(&mut s, RTT + 2.0 * GAP, 2, &[(3, 4)]);
    assert_eq!(s.rack().unwrap().reo_deadline, Some(0.1875));
    // 2 arrives at 0.171875: never retransmitted and below RACK.fack (4): reordering seen. Nothing is lost.
    assert_eq!(ack(&mut s, RTT + 3.0 * GAP, 4, &[]), Vec::<u64>::new());
    let r = s.rack().unwrap();
    assert!(r.reordering_seen && r.reo_deadline.is_none());
    assert_eq!(s.counters().retransmissions, 0);
    // 4's ACK; 5 lost; 6, 7, 8 SACKed (the last at 0.25). Three SACKed would make reo_wnd 0 had no reordering been
    // seen (5 lost at once, as DupThresh); with it, reo_wnd stays min_RTT/4 = 1/32 and 5 waits to 0.25 + 1/32.
    ack(&mut s, RTT + 4.0 * GAP, 5, &[]);
    for k in 6..9 {
        ack(&mut s, RTT + k as f64 * GAP, 5, &[(6, k + 1)]);
    }
    assert!(!s.in_recovery());
    assert_eq!(s.rack().unwrap().reo_wnd, RTT / 4.0);
    // W = 10 + 4 ACKs of new data = 14; the timer marks 5: ssthresh 7 = cwnd; pipe = 5 − 3 − 1 = 1, then 2.
    assert_eq!(fire(&mut s, 0.28125), vec![5]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (7.0, 7.0, Some(2)));
}

#[test]
fn an_rto_marks_the_first_unacknowledged_and_the_old_enough_as_lost() {
    // IW 4 at 0: 0-3. 0's ACK at 1/8 sends 4, 5 (W = 5); everything after is lost, the probe too.
    let (mut s, _) = sender(4, 20);
    ack(&mut s, RTT, 1, &[]);
    let pto = RTT + 0.25;
    assert_eq!(fire(&mut s, pto), vec![6]);
    // The RTO, re-armed by the probe: 0.375 + 1 = 1.375. RFC 8985 §6.3: 1 (SND.UNA) is lost, and every segment sent
    // at least RACK.rtt + reo_wnd = 1/8 + 0 (RTO recovery, no reordering) ago: all of 2-6. W = 1, ssthresh = ⌈5/2⌉;
    // pipe = 6 − 6 = 0 and 1 goes again.
    assert_eq!(fire(&mut s, pto + 1.0), vec![1]);
    assert!((1..7).all(|seq| s.is_marked_lost(seq)));
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (1.0, 3.0, Some(1)));
    let c = s.counters();
    assert_eq!(c.timeouts, 1);
    assert_eq!(s.rack().unwrap().pto_deadline, None);
}

#[test]
fn an_rto_sends_the_first_unacknowledged_even_when_pipe_still_counts_recent_retransmissions() {
    // RFC 6298 §5.4 against RFC 8985 §6.3: at an RTO, RACK leaves segments sent less than RACK.rtt + reo_wnd ago in
    // pipe, which can exceed the loss window of 1. The head must go out all the same, or the sender waits for ACKs
    // a lost flight never brings, with no timer running.
    // IW 4 at 0: 0-3; 0's ACK at 1/8 sends 4, 5 (W = 5); the PTO at 1/8 + 2 SRTT = 0.375 probes with new data, 6,
    // and re-arms the RTO for 0.375 + 1 = 1.375.
    let (mut s, _) = sender(4, 20);
    assert_eq!(ack(&mut s, RTT, 1, &[]), vec![4, 5]);
    assert_eq!(fire(&mut s, RTT + 0.25), vec![6]);
    // A late ACK at 1.3125 SACKs the probe: RACK.rtt = 1.3125 − 0.375 = 0.9375, reo_wnd = min_RTT/4 = 1/32 (one
    // SACKed). Sent before the probe: 1-3 at 0 (0 + 0.9375 + 1/32 <= 1.3125) and 4, 5 at 1/8 (1.09375 <=
    // 1.3125): all five lost. Recovery: ssthresh = cwnd = ⌈5/2⌉ = 3; pipe = (7 − 1) − 1 SACKed − 5 lost = 0, so
    // the entry retransmission 1 and rule (1)'s 2 and 3 go out (pipe 3).
    let late = 1.3125;
    assert_eq!(ack(&mut s, late, 1, &[(6, 7)]), vec![1, 2, 3]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (3.0, 3.0, Some(3)));
    // The RTO at 1.375 (no ACK of new data restarted it). §6.3 marks 1 (SND.UNA) lost again, its retransmission
    // with it; 4, 5 stay lost (sent at 1/8: 1/8 + 0.9375 + 0 <= 1.375; reo_wnd = 0 in RTO recovery); but the
    // retransmissions of 2 and 3, sent 1/16 s ago, are still in flight: pipe = 6 − 1 SACKed − 5 lost + 2
    // retransmissions in flight = 2 >= cwnd = 1. 1 goes out regardless (§5.4), the RTO backed off to 2 s re-armed
    // from now; ssthresh = ⌈3/2⌉ = 2; pipe = 3.
    assert_eq!(fire(&mut s, 1.375), vec![1]);
    assert!((1..6).all(|seq| s.is_marked_lost(seq)) && !s.is_marked_lost(6)); // 6 is SACKed
    assert_eq!(s.rack().unwrap().lost, 5);
    assert_eq!((s.cwnd(), s.ssthresh(), s.pipe()), (1.0, 2.0, Some(3)));
    assert_eq!(s.timer_deadline(), Some(1.375 + 2.0));
    assert_eq!(s.counters().timeouts, 1);
}

#[test]
fn rack_needs_sack_and_the_slotted_model_refuses_it() {
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 64.0).unwrap();
    let err = cfg.with_rack(true).unwrap_err().to_string();
    assert!(err.starts_with("rack = True is not allowed") && err.contains("turn sack on too"), "{err}");
    let on = cfg.with_sack(true).unwrap().with_rack(true).unwrap();
    assert!(on.rack);
    assert!(!on.with_sack(false).unwrap().rack); // RACK gives way with SACK, as PRR does
}

#[test]
fn linuxs_timers_wait_two_milliseconds_more_and_tcp_rto_min_with_one_segment_out() {
    // The same sender with Linux's timers (tcp_schedule_loss_probe(), tcp_rack_mark_lost()): PTO = 2·SRTT + 2 ms with
    // more than one segment out, 2·SRTT + tcp_rto_min (this sender's 1 s minimum) with one; the reordering timer
    // 2 ms after RFC 8985's.
    let timer = Rfc6298 { initial: 1.0, min: 1.0, max: 60.0, granularity: 0.01, max_backoff: 64 };
    let linux = |iw, segments| {
        let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 1000.0).unwrap()
            .with_rfc6298(timer).unwrap()
            .with_initial_window(iw).unwrap()
            .with_segments(segments).unwrap()
            .with_sack(true).unwrap()
            .with_rack(true).unwrap()
            .with_rack_timers(RackTimers::Linux);
        let mut s = Sender::new(cfg);
        let first = drain(&mut s, 0.0);
        (s, first)
    };
    // The first trace's start: after ACK 8, two segments out: 0.234375 + 0.25 + 0.002.
    let (mut s, _) = linux(10, 10);
    for k in 0..8 {
        ack(&mut s, RTT + k as f64 * GAP, k + 1, &[]);
    }
    let pto = s.rack().unwrap().pto_deadline.unwrap();
    assert!((pto - (RTT + 7.0 * GAP + 0.25 + LINUX_TIMER_SLACK)).abs() < 1e-12, "{pto}");
    // One segment out (IW 1, one ACKed, one new out... a transfer of 2): 2·SRTT + 1 s = 1/8 + 1/4 + 1, past the RTO
    // (1/8 + 1): the RTO's deadline wins (§7.2, and tcp_rto_delta_us()).
    let (mut s, first) = linux(1, 2);
    assert_eq!(first, vec![0]);
    assert_eq!(ack(&mut s, RTT, 1, &[]), vec![1]);
    assert_eq!(s.rack().unwrap().pto_deadline, Some(RTT + 1.0));
    // The third trace's reordering timer: 0.28125 + 2 ms.
    let (mut s, _) = linux(10, 10);
    for k in 0..7 {
        ack(&mut s, RTT + k as f64 * GAP, k + 1, &[]);
    }
    ack(&mut s, RTT + 8.0 * GAP, 7, &[(8, 9)]);
    let reo = s.rack().unwrap().reo_deadline.unwrap();
    assert!((reo - (0.28125 + LINUX_TIMER_SLACK)).abs() < 1e-12, "{reo}");
}

#[test]
fn a_probe_acknowledged_before_it_is_sent_is_dropped() {
    // The tail of the first trace: 0-9 at 0, ACKs of 0-7 by 0.234375, the PTO at 0.484375 chooses 9 (no new data).
    // A caller that takes an ACK before polling: 9's original, late, is SACKed first (ACK 8, block 9). Sending the
    // probe now would count a delivered segment in flight again; it is dropped. Nothing is lost yet (8 was sent at 0,
    // as 9 was: 0 + RACK.rtt 0.5 + reo_wnd 1/32 is later than now, so the reordering timer waits for it), and
    // pipe = (10 − 8) − 1 SACKed = 1.
    let (mut s, _) = sender(10, 10);
    for k in 0..8 {
        ack(&mut s, RTT + k as f64 * GAP, k + 1, &[]);
    }
    let pto = RTT + 7.0 * GAP + 0.25;
    assert_eq!(s.timer_deadline(), Some(pto));
    s.on_timeout(pto);
    assert_eq!(s.rack().unwrap().probes, 1);
    let sent = ack(&mut s, 0.5, 8, &[(9, 10)]);
    assert!(sent.is_empty(), "sent {sent:?}");
    assert_eq!((s.pipe(), s.in_recovery(), s.counters().retransmissions), (Some(1), false, 0));
    assert_eq!(s.rack().unwrap().reo_deadline, Some(0.5 + RTT / 4.0));
}
