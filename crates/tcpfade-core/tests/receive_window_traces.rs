//! The receiver's window at the sender, and Linux's rule that cwnd grows only while it limits the sender
//! (`tcp_is_cwnd_limited()`; `tcp/cwnd_usage.rs`), against a trace worked out by hand: a NewReno sender in slow start
//! with IW 10, whose receiver first allows 5 segments and then 50.

use tcpfade_core::tcp::{Sender, SenderConfig, Variant};

fn sender(cwnd_limited: bool) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, 100, 3, 10.0, 1e9)
        .unwrap()
        .with_initial_window(10)
        .unwrap()
        .with_cwnd_limited(cwnd_limited);
    Sender::new(cfg)
}

fn sent(s: &mut Sender, now: f64) -> Vec<u64> {
    std::iter::from_fn(|| s.poll_transmit(now)).map(|seg| seg.seq).collect()
}

/// One ACK of `ack` carrying `window`, then the sends it allows.
fn ack(s: &mut Sender, now: f64, ack: u64, window: u64) -> Vec<u64> {
    s.note_window(window);
    s.on_ack(now, ack);
    sent(s, now)
}

#[test]
fn the_window_bounds_the_flight_and_cwnd_grows_only_once_it_is_filled() {
    let mut s = sender(true);
    s.note_window(5);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2, 3, 4]); // min(cwnd 10, window 5)
    // ACK 1: 5 were out of a cwnd of 10, not filled; slow start may grow only below twice the largest flight (10):
    // cwnd stays 10, and the window lets one more out.
    assert_eq!(ack(&mut s, 1.0, 1, 5), [5]);
    assert_eq!(s.cwnd(), 10.0);
    // ACK 2 opens the window to 50: still 5 out when it came, no growth; now cwnd's 10 go out.
    assert_eq!(ack(&mut s, 1.1, 2, 50), [6, 7, 8, 9, 10, 11]);
    assert_eq!(s.cwnd(), 10.0);
    // ACK 3: 10 out, cwnd filled: it grows (slow start, +1) and two go out for the one acknowledged.
    assert_eq!(ack(&mut s, 2.0, 3, 50), [12, 13]);
    assert_eq!(s.cwnd(), 11.0);
}

#[test]
fn without_the_rule_cwnd_grows_on_every_ack_of_new_data() {
    let mut s = sender(false);
    s.note_window(5);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2, 3, 4]);
    assert_eq!(ack(&mut s, 1.0, 1, 5), [5]);
    assert_eq!(s.cwnd(), 11.0);
    assert_eq!(ack(&mut s, 1.1, 2, 50), [6, 7, 8, 9, 10, 11, 12, 13]); // cwnd 12 from SND.UNA = 2: up to 13
    assert_eq!(s.cwnd(), 12.0);
}

/// The sender's own buffer (Wmax 8 here, a receiver's buffer of 100): what goes out stays within 8 whatever the
/// window, and the window the receiver advertised is reported as it came, up to its buffer.
#[test]
fn the_senders_buffer_bounds_the_flight_and_the_advertised_window_is_reported_whole() {
    let cfg = SenderConfig::new(Variant::NewReno, 8, 3, 10.0, 1e9).unwrap().with_initial_window(10).unwrap();
    assert!(cfg.with_receive_buffer(7).is_err()); // a receiver's buffer below what the sender may have out
    let mut s = Sender::new(cfg.with_receive_buffer(100).unwrap());
    assert_eq!(s.rwnd(), 100); // before any ACK: the receiver's whole buffer
    s.note_window(50);
    assert_eq!(sent(&mut s, 0.0), [0, 1, 2, 3, 4, 5, 6, 7]); // IW 10 capped at Wmax 8
    assert_eq!(s.rwnd(), 50);
    assert_eq!(ack(&mut s, 1.0, 1, 500), [8]); // one acknowledged, one more within 8
    assert_eq!(s.rwnd(), 100); // 500 advertised: at most the buffer
    // A zero window is taken as 1 (no persist timer is modelled): 2..=8 are out already, nothing more goes.
    assert_eq!(ack(&mut s, 1.1, 2, 0), []);
    assert_eq!(s.rwnd(), 1);
}
