//! Hand-worked traces of the retransmission timeout's window rules: RFC 5681 §3.1's held ssthresh on a timeout that
//! repeats one (`SenderConfig::hold_ssthresh_on_rto`, Linux's tcp_enter_loss()), against the papers' TCP, which
//! recomputes it at every timeout (zorzi-rao §2 rule 3).

mod common;

use common::drain;
use tcpfade_core::tcp::{Rfc6298, Sender, SenderConfig, Variant};

/// NewReno, ssthresh = ⌈W/2⌉, IW 4, a fixed 1-s timer; what it sends at t = 0.
fn sender(hold: bool) -> (Sender, Vec<u64>) {
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 1000.0).unwrap()
        .with_initial_window(4).unwrap()
        .with_hold_ssthresh_on_rto(hold);
    let mut s = Sender::new(cfg);
    let first = drain(&mut s, 0.0);
    (s, first)
}

#[test]
fn a_repeated_timeout_holds_ssthresh_and_a_timeout_after_progress_recomputes_it() {
    for hold in [false, true] {
        let (mut s, first) = sender(hold);
        assert_eq!(first, vec![0, 1, 2, 3]);
        // t = 1: the timer fires, nothing acknowledged: ssthresh = ⌈4/2⌉ = 2, W = 1, 0 goes again.
        s.on_timeout(1.0);
        assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 2.0));
        assert_eq!(drain(&mut s, 1.0), vec![0]);
        // t = 2: it fires again for the same segment (the cumulative ACK still 0). The papers' TCP recomputes:
        // ⌈1/2⌉ = 1. RFC 5681 §3.1 holds ssthresh at 2.
        s.on_timeout(2.0);
        assert_eq!((s.cwnd(), s.ssthresh()), (1.0, if hold { 2.0 } else { 1.0 }), "hold = {hold}");
        assert_eq!(drain(&mut s, 2.0), vec![0]);
        // t = 2.5: 0's ACK (the cumulative ACK moves to 1): slow start if W < ssthresh, W = 2 with the hold, and
        // congestion avoidance W = 1 + 1/1 = 2 without; then 1 and 2 go out.
        s.on_ack(2.5, 1);
        assert_eq!(s.cwnd(), 2.0);
        assert_eq!(drain(&mut s, 2.5), vec![1, 2]);
        // t = 3.5: a timeout after progress is a new one: ssthresh = ⌈2/2⌉ = 1 with or without the hold.
        s.on_timeout(3.5);
        assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 1.0), "hold = {hold}");
    }
}

#[test]
fn a_timeout_inside_a_fast_recovery_keeps_its_ssthresh_once_per_window() {
    // NewReno with IW 8, a fixed 1-s timer: 0-7 sent, 0 lost. Duplicate ACKs for 1, 2, 3: the third enters fast
    // recovery with ssthresh = ⌈8/2⌉ = 4, W = 4 + 3 = 7 (RFC 5681's inflation), recover = 8, 0 retransmitted. Two more
    // duplicate ACKs (4, 5) inflate W to 9: 8 goes out. The retransmission of 0 is lost too, so the timer fires at
    // t = 1 with W = 9 and SND.UNA = 0 < recover.
    for once in [false, true] {
        let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 1000.0).unwrap()
            .with_initial_window(8).unwrap()
            .with_ssthresh_once_per_window(once);
        let mut s = Sender::new(cfg);
        assert_eq!(drain(&mut s, 0.0), (0..8).collect::<Vec<_>>());
        for (i, t) in [0.1, 0.11, 0.12].into_iter().enumerate() {
            s.on_ack(t, 0);
            let sent = drain(&mut s, t);
            if i == 2 {
                assert_eq!(sent, vec![0]);
            }
        }
        assert!(s.in_recovery() && s.ssthresh() == 4.0 && s.cwnd() == 7.0);
        s.on_ack(0.13, 0);
        s.on_ack(0.14, 0);
        assert_eq!((s.cwnd(), drain(&mut s, 0.14)), (9.0, vec![8]));
        // The papers' rule (and RFC 5681 §3.1's first timeout): ssthresh = ⌈9/2⌉ = 5 from the inflated W. Linux's
        // tcp_enter_loss() makes no second reduction inside the window: ssthresh stays 4.
        s.on_timeout(1.0);
        assert_eq!((s.cwnd(), s.ssthresh()), (1.0, if once { 4.0 } else { 5.0 }), "once = {once}");
        assert!(!s.in_recovery());
        assert_eq!(drain(&mut s, 1.0), vec![0]);
    }
}

/// NewReno with RFC 6298's estimator (RTO at least 0.2 s, tick 1 ms, backoff up to 64×), IW 2, with or without
/// timestamps' RTT samples of retransmissions (`SenderConfig::timestamps`, RFC 7323 §4 as Linux's
/// tcp_ack_update_rtt()).
fn estimated(timestamps: bool) -> Sender {
    let rfc = Rfc6298 { initial: 1.0, min: 0.2, max: 60.0, granularity: 0.001, max_backoff: 64 };
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 1000.0).unwrap()
        .with_initial_window(2).unwrap()
        .with_rfc6298(rfc).unwrap()
        .with_timestamps(timestamps);
    Sender::new(cfg)
}

#[test]
fn with_timestamps_the_ack_of_a_retransmission_is_timed_by_its_echo_and_ends_the_backoff() {
    // (timestamps, the timestamp the covering ACK echoes, the RTO after it)
    for (timestamps, echo, expected) in [(false, Some(1.0), 1.2), (true, Some(1.0), 0.30625), (true, Some(0.4), 0.98125),
                                         (true, None, 1.2)] {
        let mut s = estimated(timestamps);
        assert_eq!(drain(&mut s, 0.0), vec![0, 1]);
        // 0 is timed; its ACK at 0.1 s is the first sample: SRTT 0.1, RTTVAR 0.05, RTO = 0.1 + 4·0.05 = 0.3 s. W = 3.
        s.on_ack(0.1, 1);
        assert!((s.rto_estimator().rto() - 0.3).abs() < 1e-12);
        assert_eq!(drain(&mut s, 0.1), vec![2, 3]);
        // 1-3 are lost. The timer, restarted at 0.1, fires at 0.4: the RTO doubles to 0.6 (RFC 6298 §5.5), W = 1 and
        // 1 goes again; its timer fires at 1.0 too: 1.2, and 1 goes a third time.
        s.on_timeout(0.4);
        assert_eq!(drain(&mut s, 0.4), vec![1]);
        s.on_timeout(1.0);
        assert_eq!(drain(&mut s, 1.0), vec![1]);
        assert!((s.rto_estimator().rto() - 1.2).abs() < 1e-12);
        // An ACK of 2 comes back at 1.15. Karn's rule: a segment sent more than once gives no sample, so the backoff
        // stays and the timer restarts at 1.15 + 1.2. With timestamps the ACK echoes the timestamp of the copy that
        // made the receiver send it:
        // - the third copy's (sent at 1.0): a sample of 0.15 s, SRTT = 7/8·0.1 + 1/8·0.15 = 0.10625, RTTVAR = 3/4·0.05 +
        //   1/4·|0.1 − 0.15| = 0.05, RTO = 0.10625 + 0.2 = 0.30625, and the backoff ends (RFC 6298 §5.7);
        // - the second copy's (sent at 0.4, arriving late): 0.75 s, SRTT = 0.0875 + 0.09375 = 0.18125, RTTVAR = 0.0375
        //   + 1/4·0.65 = 0.2, RTO = 0.18125 + 0.8 = 0.98125: the sample is the copy's, not the last transmission's;
        // - none given (a driver whose ACKs carry no timestamp): no sample, as Karn's rule.
        s.note_echo(echo);
        s.on_ack(1.15, 2);
        let (rto, deadline) = (s.rto_estimator().rto(), s.timer_deadline().unwrap());
        assert!((rto - expected).abs() < 1e-12 && (deadline - (1.15 + expected)).abs() < 1e-12, "{rto} {deadline}");
        let sampled = timestamps && echo.is_some();
        assert_eq!(s.rto_estimator().sample_totals().0, if sampled { 2 } else { 1 });
    }
}
