//! Hand-worked traces of F-RTO (RFC 5682 §3, SACK-enhanced, as Linux's `tcp_process_loss()` runs it: `tcp/frto.rs`),
//! in the style of packetdrill: a NewReno sender with SACK, the papers' window (real-valued, ⌈W/2⌉), a fixed RTO of
//! 1 s, initial ssthresh 6 and an initial window of 10: segments 0-9 go out at t = 0 and the timer fires at t = 1
//! with no ACK back. Every expected number is worked out in the comments.

mod common;

use common::{drain, sack_ack};
use tcpfade_core::tcp::{Sender, SenderConfig, Variant};

fn timed_out(frto: bool) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 6.0).unwrap().with_initial_window(10).unwrap();
    let mut s = Sender::new(cfg.with_sack(true).unwrap().with_frto(frto).unwrap());
    assert_eq!(drain(&mut s, 0.0), (0..10).collect::<Vec<_>>());
    assert_eq!(s.timer_deadline(), Some(1.0));
    // The timeout: ssthresh ⌈10/2⌉ = 5, W = 1, the first unacknowledged segment again (RFC 6298 §5.4).
    s.on_timeout(1.0);
    assert_eq!(drain(&mut s, 1.0), [0]);
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 5.0));
    s
}

#[test]
fn a_spurious_timeout_is_undone_at_the_second_ack() {
    // The ACKs had only been held up: the original 0's ACK arrives first. It covers 0, which was sent again: no
    // evidence yet. SND.UNA advanced below high_seq = 10: step 2b, new data in place of the holes; W = 2 (slow start)
    // and pipe 0 (1-9 count as lost after a timeout, RFC 6675 §5.1): 10 and 11.
    let mut s = timed_out(true);
    assert_eq!(sack_ack(&mut s, 1.01, 1, &[]), [10, 11]);
    // The ACK of 1, never sent again: the timeout was spurious (step 3b). cwnd = max(2, prior_cwnd 10) = 10, ssthresh =
    // max(5, prior_ssthresh = max(6, 10 >> 1 + 10 >> 2 = 7)) = 7, loss recovery ends, and this ACK grows W in
    // congestion avoidance: 10 + 1/10. In flight 2-11 = 10 = ⌊W⌋: nothing more now.
    assert_eq!(sack_ack(&mut s, 1.02, 2, &[]), Vec::<u64>::new());
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (10.1, 7.0, 1));
    assert!(!s.in_recovery());
    // And the sender goes on with new data, not the segments the timeout had deemed lost: ACK 3 lets 12 out.
    assert_eq!(sack_ack(&mut s, 1.03, 3, &[]), [12]);
}

#[test]
fn with_rack_the_undo_also_unmarks_what_the_timeout_marked_lost() {
    // With RACK-TLP the probe timeout comes first: 1 s without an SRTT (RFC 8985 §7.2), at t = 1, and a tail loss
    // probe of new data, 10; the RTO, re-armed, fires at 2. RACK's §6.3 then marks 0-10 lost (each sent RACK.rtt +
    // reo_wnd = 0 or more ago) and 0 goes again.
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 6.0).unwrap().with_initial_window(10).unwrap();
    let mut s = Sender::new(cfg.with_sack(true).unwrap().with_rack(true).unwrap().with_frto(true).unwrap());
    assert_eq!(drain(&mut s, 0.0), (0..10).collect::<Vec<_>>());
    assert_eq!(s.timer_deadline(), Some(1.0));
    s.on_timeout(1.0);
    assert_eq!(drain(&mut s, 1.0), [10]);
    assert_eq!(s.timer_deadline(), Some(2.0));
    s.on_timeout(2.0);
    assert_eq!(drain(&mut s, 2.0), [0]);
    assert!((1..11).all(|seq| s.is_marked_lost(seq)) && s.counters().timeouts == 1);
    // ACK 1: step 2b as without RACK (pipe = (11 − 1) − 0 SACKed − 10 lost + 0 = 0, W = 2): 11 and 12.
    assert_eq!(sack_ack(&mut s, 2.01, 1, &[]), [11, 12]);
    // ACK 2 covers 1, never sent again: undone as above (W 10.1, ssthresh 7), RACK's marks cleared, and RACK finds
    // nothing sent before 1 missing. In flight 2-12 = 11 > 10: nothing; ACK 3 leaves 10 in flight: still nothing;
    // ACK 4: 13.
    assert_eq!(sack_ack(&mut s, 2.02, 2, &[]), Vec::<u64>::new());
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (10.1, 7.0, 1));
    assert!((2..13).all(|seq| !s.is_marked_lost(seq)) && s.rack().unwrap().lost == 0);
    assert_eq!(sack_ack(&mut s, 2.03, 3, &[]), Vec::<u64>::new());
    assert_eq!(sack_ack(&mut s, 2.04, 4, &[]), [13]);
}

#[test]
fn without_f_rto_the_same_acks_resend_the_flight() {
    // RFC 6675 §5.1: every hole below RecoveryPoint (10) is lost; NextSeg's rule (1) resends them in slow start.
    let mut s = timed_out(false);
    assert_eq!(sack_ack(&mut s, 1.01, 1, &[]), [1, 2]); // W = 2, pipe 0
    assert_eq!(sack_ack(&mut s, 1.02, 2, &[]), [3, 4]); // W = 3, pipe 1 (2 resent, now the original's ACK)
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (3.0, 5.0, 0));
}

#[test]
fn a_real_loss_shows_at_the_ack_after_the_new_data() {
    // 0-9 were lost. The retransmission of 0 arrives: ACK 1, step 2b: 10 and 11 (as above).
    let mut s = timed_out(true);
    assert_eq!(sack_ack(&mut s, 1.01, 1, &[]), [10, 11]);
    // 10 arrives: a duplicate ACK SACKing it. The loss was real (step 3a): F-RTO ends, nothing is undone, and the
    // holes go out again. pipe = (12 − 1) − 1 SACKed − 9 lost (1-9, below RecoveryPoint, 10) = 1
    // against W = 2: one retransmission, 1.
    assert_eq!(sack_ack(&mut s, 1.02, 1, &[(10, 11)]), [1]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (2.0, 5.0, 0));
    // 11 arrives: SACK 10-11; no undo now whatever comes (F-RTO is over): pipe 2 − 1 = 1 < 2 (W grew nothing: no new
    // data acknowledged): 2.
    assert_eq!(sack_ack(&mut s, 1.03, 1, &[(10, 12)]), [2]);
    assert_eq!(s.spurious_timeouts(), 0);
    // The retransmission of 1 arrives: ACK 2 (SACK 10-11). Slow start: W = 3; pipe = (12 − 2) − 2 SACKed − 8 holes
    // (2-9) + 1 resent (2) = 1: two more holes, 3 and 4.
    assert_eq!(sack_ack(&mut s, 1.04, 2, &[(10, 12)]), [3, 4]);
    // They are lost too, and the timer fires again at 1.04 + 1 inside this RTO recovery, SND.UNA having moved: not a
    // repeat, so no F-RTO (RFC 5682 §3 step 1; Linux's new_recovery is false in the Loss state and
    // icsk_retransmits was cleared by the ACK). W = 1: 2 again (its ACK took long), then ACK 3 opens W = 2 and
    // pipe = (12 − 3) − 2 − 7 (3-9) + 0 = 0: the holes 3 and 4 again, not new data.
    assert_eq!(s.timer_deadline(), Some(2.04));
    s.on_timeout(2.04);
    assert_eq!(drain(&mut s, 2.04), [2]);
    assert_eq!(sack_ack(&mut s, 2.05, 3, &[(10, 12)]), [3, 4]);
    assert_eq!(s.spurious_timeouts(), 0);
}

#[test]
fn f_rto_runs_with_or_without_sack_but_needs_a_fast_recovery() {
    let base = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 6.0).unwrap();
    assert!(base.with_frto(true).unwrap().frto);
    let on = base.with_sack(true).unwrap().with_frto(true).unwrap();
    assert!(on.frto && on.with_sack(false).unwrap().frto);
    let tahoe = SenderConfig::new(Variant::Tahoe, 64, 3, 1.0, 6.0).unwrap();
    let err = tahoe.with_frto(true).unwrap_err().to_string();
    assert!(err.contains("frto") && err.contains("go-back-N"), "{err}");
}

/// The same start without SACK: a NewReno sender whose ACKs are cumulative only (Linux runs F-RTO so too).
fn timed_out_cumulative(frto: bool) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 6.0).unwrap().with_initial_window(10).unwrap();
    let mut s = Sender::new(cfg.with_frto(frto).unwrap());
    assert_eq!(drain(&mut s, 0.0), (0..10).collect::<Vec<_>>());
    // ssthresh ⌈10/2⌉ = 5, W = 1, and going back N from the first unacknowledged segment.
    s.on_timeout(1.0);
    assert_eq!(drain(&mut s, 1.0), [0]);
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 5.0));
    s
}

/// A cumulative ACK of `cum` at `now`; what is sent in answer.
fn ack(s: &mut Sender, now: f64, cum: u64) -> Vec<u64> {
    s.on_ack(now, cum);
    drain(s, now)
}

#[test]
fn without_sack_a_spurious_timeout_is_undone_at_the_second_ack() {
    // ACK 1 (the original 0's, held up) covers 0, sent again: no evidence. SND.UNA moved below high_seq = 10: step 2b
    // (tcp_process_loss(): REXMIT_NEW), W = 2 in slow start and nothing in flight (0 is acknowledged; Linux counts
    // 1-9 lost after the timeout): the new 10 and 11, not the retransmissions of 1 and 2.
    let mut s = timed_out_cumulative(true);
    assert_eq!(ack(&mut s, 1.01, 1), [10, 11]);
    // ACK 2 newly covers 1, never sent again (FLAG_ORIG_SACK_ACKED from tcp_clean_rtx_queue(), SACK or not): spurious.
    // cwnd = max(2, 10) = 10, ssthresh = max(5, max(6, 10 >> 1 + 10 >> 2)) = 7, and congestion avoidance: 10.1.
    // Nothing is marked lost any more, so 2-11 are in flight: 10 = ⌊W⌋, nothing goes.
    assert_eq!(ack(&mut s, 1.02, 2), Vec::<u64>::new());
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (10.1, 7.0, 1));
    // And new data follows, not the segments going back N would have sent again: ACK 3 lets 12 out.
    assert_eq!(ack(&mut s, 1.03, 3), [12]);
    assert_eq!(s.counters().retransmissions, 1);
}

#[test]
fn without_sack_a_duplicate_ack_after_the_new_data_shows_the_loss_real() {
    // 0-9 were lost; the retransmission of 0 arrives: ACK 1, step 2b as above: 10 and 11.
    let mut s = timed_out_cumulative(true);
    assert_eq!(ack(&mut s, 1.01, 1), [10, 11]);
    // 10 arrives: a duplicate ACK of 1. The loss was real (step 3a, num_dupack): F-RTO ends, nothing is undone, and
    // going back N resumes at 1. In flight (Linux: packets_out 11 − sacked_out 1 (tcp_add_reno_sack) − lost_out 9 +
    // retrans_out 0 = 1): 10 and 11 less the one duplicate ACK, against W = 2: one retransmission, 1.
    assert_eq!(ack(&mut s, 1.02, 1), [1]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (2.0, 5.0, 0));
    // 11 arrives: a second duplicate ACK. In flight: 1 resent, and 10-11 less two duplicate ACKs: 1 < 2: 2 goes.
    assert_eq!(ack(&mut s, 1.03, 1), [2]);
    // The retransmission of 1 arrives: ACK 2. Slow start, W = 3. Linux resets its emulated SACKs when SND.UNA moves
    // (tcp_reset_reno_sack()), so 10 and 11 count in flight again beside the resent 2: 3 = W, nothing goes.
    assert_eq!(ack(&mut s, 1.04, 2), Vec::<u64>::new());
    // ACK 3 (2's retransmission): W = 4, in flight 10 and 11: 3 and 4 go again. ACK 5 (one ACK, W + 1 = 5 =
    // ssthresh): 5, 6, 7. ACK 8: congestion avoidance, W = 5.2; 8 and 9 go again, and going back N, reaching 10, passes
    // over 10 and 11 (sent once by step 2b, not lost): 8-11 in flight, so one more, 12. No undo ever: the originals
    // below 10 were all sent again before their ACKs.
    assert_eq!(ack(&mut s, 1.05, 3), [3, 4]);
    assert_eq!(ack(&mut s, 1.06, 5), [5, 6, 7]);
    assert_eq!(ack(&mut s, 1.07, 8), [8, 9, 12]);
    assert_eq!(s.spurious_timeouts(), 0);
    assert_eq!(s.counters().retransmissions, 10);
}

#[test]
fn without_sack_and_without_f_rto_the_same_acks_go_back_n() {
    let mut s = timed_out_cumulative(false);
    assert_eq!(ack(&mut s, 1.01, 1), [1, 2]);
    assert_eq!(ack(&mut s, 1.02, 2), [3, 4]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (3.0, 5.0, 0));
}

#[test]
fn without_sack_an_ack_past_held_segments_undoes_a_real_loss_as_linux_does() {
    // Only 0 was lost; 1-9 reached the receiver, which held them (their nine duplicate ACKs were lost too, so the timer
    // fired). The retransmission of 0 fills the hole: ACK 10, past everything sent before the timeout. RFC 5682 §2.1's
    // basic algorithm (step 2a: the ACK covers "recover") would go on with the conventional recovery; Linux's
    // tcp_process_loss() does not: the ACK newly covers 1-9, never sent again and below high_seq = 10
    // (FLAG_ORIG_SACK_ACKED, set by tcp_clean_rtx_queue() for cumulatively acknowledged originals), so
    // tcp_try_undo_loss(sk, true) undoes the timeout as spurious: cwnd = max(1, prior_cwnd 10) = 10, ssthresh =
    // max(5, 7) = 7 (as the second ACK above), counted in TCPSpuriousRTOs. This ACK then grows W in congestion
    // avoidance, 10 + 1/10, and nothing is in flight: ten new segments, 10-19, go at once.
    let mut s = timed_out_cumulative(true);
    assert_eq!(ack(&mut s, 1.01, 10), (10..20).collect::<Vec<_>>());
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (10.1, 7.0, 1));
    // Without F-RTO the same ACK leaves the reduced window: slow start from 1, W = 2, ssthresh 5.
    let mut s = timed_out_cumulative(false);
    assert_eq!(ack(&mut s, 1.01, 10), [10, 11]);
    assert_eq!((s.cwnd(), s.ssthresh(), s.spurious_timeouts()), (2.0, 5.0, 0));
}
