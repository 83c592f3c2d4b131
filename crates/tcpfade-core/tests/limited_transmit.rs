//! RFC 3042 limited transmit against traces worked out by hand from the RFC's §2: on each of the first two
//! duplicate ACKs one new segment goes out beyond W (never more than W + 2 outstanding, never beyond Wmax), W
//! itself does not move, and RFC 5681 §3.2 step 2 leaves those segments out of FlightSize at the fast
//! retransmit. The case it exists for: a window of three with one loss gives only two duplicate ACKs, a timeout
//! without it and a fast retransmit with it (RFC 3042 §1).

use tcpfade_core::tcp::{Sender, SenderConfig, SsthreshRule, Variant};

/// NewReno at W = IW = `iw`, Wmax `wmax`, K = 3, an RTO of 10 time units, RFC 5681's ssthresh rule.
fn sender(iw: u64, wmax: u64, limited: bool) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, wmax, 3, 10.0, 1e9)
        .unwrap()
        .with_initial_window(iw)
        .unwrap()
        .with_ssthresh_rule(SsthreshRule::HalfFlight)
        .with_limited_transmit(limited)
        .unwrap();
    Sender::new(cfg)
}

fn sent(s: &mut Sender, now: f64) -> Vec<u64> {
    std::iter::from_fn(|| s.poll_transmit(now)).map(|seg| seg.seq).collect()
}

#[test]
fn a_window_of_three_with_one_loss_times_out_without_it() {
    let mut s = sender(3, 64, false);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2]);
    // Segment 0 is lost; 1 and 2 arrive: two duplicate ACKs, below K = 3, and nothing may be sent.
    s.on_ack(1.0, 0);
    assert_eq!(sent(&mut s, 1.0), Vec::<u64>::new());
    s.on_ack(1.1, 0);
    assert_eq!(sent(&mut s, 1.1), Vec::<u64>::new());
    assert_eq!(s.timer_deadline(), Some(10.0)); // only the timer is left
    s.on_timeout(10.0);
    assert_eq!((s.counters().timeouts, s.counters().fast_retransmits), (1, 0));
}

#[test]
fn with_it_the_same_loss_is_repaired_by_a_fast_retransmit() {
    let mut s = sender(3, 64, true);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2]);
    // First duplicate ACK: one new segment beyond W = 3 (outstanding 4 = W + 1); W unchanged.
    s.on_ack(1.0, 0);
    assert_eq!(sent(&mut s, 1.0), [3]);
    assert_eq!(s.cwnd(), 3.0);
    // Second: one more (outstanding 5 = W + 2), and no further.
    s.on_ack(1.1, 0);
    assert_eq!(sent(&mut s, 1.1), [4]);
    assert_eq!(s.cwnd(), 3.0);
    // Segment 3 arrives: the third duplicate ACK, a fast retransmit of 0. FlightSize leaves the two limited
    // transmit segments out (5 − 2 = 3), so Wth = max(3/2, 2) = 2 and W = Wth + K = 5 (RFC 5681 §3.2 steps 2-3).
    s.on_ack(2.0, 0);
    assert_eq!(s.counters().fast_retransmits, 1);
    assert_eq!((s.ssthresh(), s.cwnd()), (2.0, 5.0));
    let first = s.poll_transmit(2.0).unwrap();
    assert!(first.retransmission && first.seq == 0);
    assert_eq!(sent(&mut s, 2.0), Vec::<u64>::new()); // 5 outstanding = W
    // Segment 4's duplicate ACK inflates W to 6 (step 4): one new segment, and limited transmit adds nothing in
    // recovery.
    s.on_ack(2.1, 0);
    assert_eq!(sent(&mut s, 2.1), [5]);
    // The retransmission's ACK covers everything up to 5 (recover = 5): recovery ends at W = Wth = 2.
    s.on_ack(3.0, 5);
    assert!(!s.in_recovery());
    assert_eq!(s.cwnd(), 2.0);
    assert_eq!(s.counters().timeouts, 0);
}

#[test]
fn the_receiver_window_still_bounds_it() {
    // W = Wmax = 3: the duplicate ACKs allow nothing beyond the advertised window (RFC 3042 §2, condition (a)).
    let mut s = sender(3, 3, true);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2]);
    s.on_ack(1.0, 0);
    s.on_ack(1.1, 0);
    assert_eq!(sent(&mut s, 1.1), Vec::<u64>::new());
}

#[test]
fn an_ack_of_new_data_ends_the_allowance() {
    let mut s = sender(4, 64, true);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2, 3]);
    s.on_ack(1.0, 0);
    assert_eq!(sent(&mut s, 1.0), [4]);
    // The hole fills (0 was late, not lost): ACK 5 covers all; slow start W = 5, una = 5: five new segments,
    // counted by W alone.
    s.on_ack(1.2, 5);
    assert_eq!(s.cwnd(), 5.0);
    assert_eq!(sent(&mut s, 1.2), [5, 6, 7, 8, 9]);
}

#[test]
fn oldtahoe_has_no_duplicate_acks_to_count_and_refuses_it() {
    let err = SenderConfig::new(Variant::OldTahoe, 8, 3, 1.0, 8.0).unwrap().with_limited_transmit(true).unwrap_err();
    assert_eq!(
        err.to_string(),
        "limited_transmit = True is not allowed: needs a variant that counts duplicate ACKs (oldtahoe has no fast \
         retransmit, zorzi-rao §2)"
    );
}
