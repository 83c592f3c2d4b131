//! The initial window IW (RFC 5681 §3.1, RFC 3390, RFC 6928) against traces worked out by hand: W starts at
//! IW segments, grows from there, and a timeout still falls back to the loss window of one segment.

mod common;

use tcpfade_core::driver::{run_link, run_transfer, LinkConfig, PerfectChannel, SegmentKind};
use tcpfade_core::tcp::{Rfc6298, RttRange, Sender, SenderConfig, Variant};
use tcpfade_core::watch::Watch;

fn sender_config(iw: u64) -> SenderConfig {
    SenderConfig::new(Variant::NewReno, 64, 3, 100.0, 1e9).unwrap().with_initial_window(iw).unwrap()
}

#[test]
fn the_parameter_is_checked_and_names_itself() {
    let err = SenderConfig::new(Variant::Reno, 8, 3, 1.0, 8.0).unwrap().with_initial_window(0).unwrap_err();
    assert_eq!(err.to_string(), "initial_window = 0 is not allowed: must be an integer in [1, 1073741824]");
    assert_eq!(SenderConfig::new(Variant::Reno, 8, 3, 1.0, 8.0).unwrap().initial_window, 1); // today's default
}

#[test]
fn the_sender_starts_at_iw_and_a_timeout_falls_back_to_one_segment() {
    let mut s = Sender::new(sender_config(4));
    assert_eq!(s.cwnd(), 4.0);
    // t = 0: four segments at once, then the window is full.
    let sent: Vec<u64> = std::iter::from_fn(|| s.poll_transmit(0.0)).map(|seg| seg.seq).collect();
    assert_eq!(sent, [0, 1, 2, 3]);
    // The ACK of 0: slow start, W = 5, una = 1: the window reaches 5, two new segments.
    s.on_ack(1.0, 1);
    assert_eq!(s.cwnd(), 5.0);
    let sent: Vec<u64> = std::iter::from_fn(|| s.poll_transmit(1.0)).map(|seg| seg.seq).collect();
    assert_eq!(sent, [4, 5]);
    s.on_ack(1.1, 2);
    assert_eq!(s.cwnd(), 6.0);
    assert_eq!(std::iter::from_fn(|| s.poll_transmit(1.1)).count(), 2); // 6, 7
    // The RTO (100, restarted by the ACK at 1.1) fires at 101.1: Wth = ⌈6/2⌉ = 3, W = 1 (RFC 5681's loss window, not
    // IW), resend from una = 2.
    assert_eq!(s.timer_deadline(), Some(1.1 + 100.0));
    s.on_timeout(1.1 + 100.0);
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 3.0));
    let again = s.poll_transmit(101.1).unwrap();
    assert!(again.retransmission && again.seq == 2);
    assert!(s.poll_transmit(101.1).is_none());
}

#[test]
fn iw_never_exceeds_the_receivers_window() {
    let s = Sender::new(SenderConfig::new(Variant::Reno, 2, 3, 1.0, 8.0).unwrap().with_initial_window(10).unwrap());
    assert_eq!((s.cwnd(), s.usable_window()), (2.0, 2));
}

#[test]
fn link_driver_hand_worked_slow_start_from_iw_4() {
    // μ = 1 packet/s, τ = 0.5 s (T = 1.5 s), B = 16, RTO 100 s (never fires), measured over [0, 3).
    // IW = 4: t=0 send 0 [0,1) and buffer 1, 2, 3; t=1 0 received (ACK due 1.5), 1 on the link [1,2);
    // t=1.5 ACK 1: W = 5, una = 1, send 4, 5; t=2 1 received (ACK due 2.5), 2 on the link [2,3);
    // t=2.5 ACK 2: W = 6, send 6, 7. At t=3 the run ends before 2's completion is handled.
    // Sent 8, received 2 (0 and 1), W = 6; one RTT sample (packet 0: 1.5 s); the link never idled.
    // IW = 1: t=0 send 0; t=1.5 ACK: W = 2, send 1 [1.5,2.5) and 2; t=2.5 1 received (ACK due 3).
    // Sent 3, received 2 (0 and 1), W = 2, busy [0,1) and [1.5,3).
    for (iw, sent, received, cwnd, busy) in [(4, 8, 2, 6.0, 3.0), (1, 3, 2, 2.0, 2.5)] {
        let cfg = LinkConfig {
            sender: sender_config(iw),
            rate: 1.0,
            tau: 0.5,
            buffer: 16,
            duration: 3.0,
            warmup: 0.0,
            batches: 1,
            delayed_ack: None,
        };
        let o = run_link(&cfg, PerfectChannel).unwrap();
        let t = o.totals;
        assert_eq!((t.sent, t.received, t.delivered, t.buffer_losses), (sent, received, received, 0), "IW = {iw}");
        assert_eq!(o.final_cwnd, cwnd, "IW = {iw}");
        assert_eq!((t.rtt_samples, t.rtt_sum), (1, 1.5), "IW = {iw}");
        assert!((t.busy - busy).abs() < 1e-12, "IW = {iw}: busy {}", t.busy);
    }
}

#[test]
fn transfer_driver_hands_iw_segments_to_ip_right_after_the_handshake() {
    // transfer_traces.rs's link: 1000 bytes/s, no delay, 20-byte headers (24 with the MSS option), MSS 1000.
    // SYN at 0 (0.024 s on the link), SYN-ACK at 0.024, arriving 0.048: the handshake ACK and, with IW = 4,
    // data 0-3 at 0.048. The handshake ACK holds the link [0.048, 0.068), data 0 [0.068, 1.088): its ACK is
    // handed to IP at 1.088.
    let rfc = Rfc6298 { initial: 3.0, min: 3.0, max: 64.0, granularity: 0.01, max_backoff: 64 };
    for iw in [1u64, 4] {
        let sender = SenderConfig::new(Variant::Reno, 8, 3, 1.0, 8.0)
            .unwrap()
            .with_rfc6298(rfc)
            .unwrap()
            .with_initial_window(iw)
            .unwrap();
        let cfg = common::miniature_transfer(sender, 4000);
        let out = run_transfer(&cfg, PerfectChannel, &mut RttRange::default(), &mut Watch::quiet()).unwrap();
        assert!(out.completed);
        let at_handshake: Vec<u64> = out
            .frames
            .iter()
            .filter(|f| f.kind == SegmentKind::Data && (f.time - 0.048).abs() < 1e-9)
            .map(|f| f.number)
            .collect();
        assert_eq!(at_handshake, (0..iw).collect::<Vec<_>>(), "IW = {iw}");
        let first_ack = out.frames.iter().find(|f| f.kind == SegmentKind::Ack).unwrap();
        assert!((first_ack.time - 1.088).abs() < 1e-9 && first_ack.number == 1, "IW = {iw}: {first_ack:?}");
    }
}
