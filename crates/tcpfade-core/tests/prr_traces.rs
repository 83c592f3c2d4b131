//! Hand-worked traces of PRR without SACK (RFC 6937 §3 with Linux's estimates from duplicate ACKs:
//! `tcp/prr.rs`), in the style of packetdrill: a NewReno sender, K = 3, W = 20 at t = 0, ssthresh = ⌈20/2⌉ = 10,
//! driven by scripted cumulative ACKs. Every expected number below is worked out by hand in the comments from
//! pipe = (high − una) − sacked − (1 while the hole's retransmission waits), sacked = the duplicate ACKs since
//! recovery's hole, RecoverFS = 20, and sndcnt = ⌈prr_delivered · 10/20⌉ − prr_out while pipe > 10, else
//! min(10 − pipe, max(prr_delivered − prr_out, DeliveredData) + 1) (PRR-SSRB).

mod common;

use common::drain;
use tcpfade_core::tcp::{PartialAck, PrrBound, Sender, SenderConfig, Variant};

fn sender(prr: Option<PrrBound>) -> Sender {
    sender_with(prr, PartialAck::Forced)
}

fn sender_with(prr: Option<PrrBound>, partial: PartialAck) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 100.0, 1000.0).unwrap().with_initial_window(20).unwrap();
    let mut s = Sender::new(cfg.with_prr_bound(prr).unwrap().with_prr_partial_ack(partial));
    assert_eq!(drain(&mut s, 0.0), (0..20).collect::<Vec<_>>());
    s
}

/// Duplicate ACKs 1..=n of segment 0 (its own loss), returning what each one sent.
fn dupacks(s: &mut Sender, n: usize) -> Vec<Vec<u64>> {
    (0..n).map(|i| {
        let now = 1.0 + 0.01 * i as f64;
        s.on_ack(now, 0);
        drain(s, now)
    }).collect()
}

#[test]
fn one_loss_in_a_window_of_20_one_packet_every_other_ack_then_one_per_ack() {
    let mut s = sender(Some(PrrBound::Ssrb));
    let sent = dupacks(&mut s, 19);
    // Dupacks 1-2: nothing (no limited transmit). Dupack 3 enters: sacked 3, pipe 20 − 3 − 1 = 16 > 10,
    // sndcnt ⌈1 · 10/20⌉ − 0 = 1, spent on the retransmission of 0.
    let expected: Vec<Vec<u64>> = vec![
        vec![], vec![], vec![0],
        // k = 4: pipe 16, ⌈2/2⌉ − 1 = 0. k = 5: pipe 15, ⌈3/2⌉ − 1 = 1: 20. k = 6: 15, 2 − 2 = 0. k = 7: 14, 3 − 2: 21.
        vec![], vec![20], vec![], vec![21],
        // k = 8..14: pipe 14, 13, 13, 12, 12, 11, 11: one new packet at odd k (⌈(k − 2)/2⌉ − prr_out = 1).
        vec![], vec![22], vec![], vec![23], vec![], vec![24], vec![],
        // k = 15: pipe 25 − 15 = 10, not > 10: SSRB, min(10 − 10, 13 − 6 + 1) = 0.
        vec![],
        // k = 16..19: pipe 9 each time (one out, one SACKed): min(1, owed + 1) = 1 per ACK.
        vec![25], vec![26], vec![27], vec![28],
    ];
    assert_eq!(sent, expected);
    let prr = s.prr_state().expect("in recovery with PRR");
    // 17 ACKs delivered one packet each (dupacks 3-19); prr_out 9 as the 19th found it (the retransmission and
    // 20-27; 28 went out after it).
    assert_eq!((prr.delivered, prr.out, prr.recover_fs), (17, 9, 20));
    assert_eq!(s.ssthresh(), 10.0);
    assert_eq!(s.counters().fast_retransmits, 1);
    // The ACK of the retransmission covers everything the receiver holds, 0-28 less none: a full ACK (recover =
    // 20): recovery ends with cwnd = ssthresh = 10 (RFC 6937 §3).
    s.on_ack(2.0, 29);
    assert!(!s.in_recovery() && s.cwnd() == 10.0 && s.prr_state().is_none());
}

#[test]
fn a_second_loss_the_partial_ack_counts_the_dupacks_it_covers_once() {
    // RFC 9937's bound (Linux's) gives the same here: without SACK no ACK is a SafeACK (a duplicate ACK does not
    // advance SND.UNA, a partial ACK shows the next hole lost), so its limit is max(prr_delivered − prr_out,
    // DeliveredData), SSRB's less one, which binds nowhere below (8 ≥ 2 at the partial ACK, 7 ≥ 1 after it).
    for bound in [PrrBound::Ssrb, PrrBound::SafeAck] {
        second_loss(bound);
    }
}

fn second_loss(bound: PrrBound) {
    // 0 and 5 lost: 18 duplicate ACKs (for 1-4 and 6-19), as the first 18 of the one-loss trace: 20-27 sent,
    // prr_delivered 16, prr_out 9 (8 new and the retransmission of 0; out is counted when the next ACK comes).
    let mut s = sender(Some(bound));
    let sent: Vec<u64> = dupacks(&mut s, 18).concat();
    assert_eq!(sent, [0, 20, 21, 22, 23, 24, 25, 26, 27]);
    // The retransmission of 0 arrives: ACK 5, a partial ACK of 5 packets, 4 of which the dupacks counted.
    // DeliveredData = max(5 − 18, 1) = 1 (prr_delivered 17); sacked = 18 − 4 = 14; flight 28 − 5 = 23; the new
    // hole 5 waits for its retransmission: pipe = 23 − 14 − 1 = 8 ≤ 10: SSRB, min(10 − 8, (17 − 9) + 1) = 2:
    // the retransmission of 5 and one new packet, 28.
    s.on_ack(2.0, 5);
    assert_eq!(drain(&mut s, 2.0), [5, 28]);
    let prr = s.prr_state().unwrap();
    assert_eq!((prr.delivered, prr.sndcnt), (17, 2.0));
    // A duplicate ACK (20 arrived): sacked 15, flight 29 − 5 = 24, pipe 24 − 15 = 9; prr_out 11, delivered 18:
    // min(10 − 9, (18 − 11) + 1) = 1: 29.
    s.on_ack(2.01, 5);
    assert_eq!(drain(&mut s, 2.01), [29]);
    assert_eq!(s.prr_state().unwrap().delivered, 18);
    // The retransmission of 5 arrives: the receiver holds 0-21 (20 and 21 came before it; 22-29 are in flight):
    // ACK 22 ≥ recover = 20 ends recovery, cwnd = 10.
    s.on_ack(2.02, 22);
    assert!(!s.in_recovery() && s.cwnd() == 10.0);
    assert_eq!(s.counters().fast_retransmits, 1);
}

#[test]
fn without_prr_the_same_arrivals_inflate_the_window() {
    // RFC 5681 §3.2 on the one-loss trace: W = 10 + 3 at entry, + 1 per dupack; new data once W > 20 outstanding:
    // at k = 3 W = 13 (the retransmission only), from k = 11 (W = 21) one new packet per ACK: 20, ..., 28 at k = 19.
    let mut s = sender(None);
    let sent = dupacks(&mut s, 19);
    assert_eq!(sent[2], [0]);
    assert!(sent[3..10].iter().all(Vec::is_empty));
    assert_eq!(sent[10..].concat(), (20..29).collect::<Vec<_>>());
    assert!(s.prr_state().is_none());
}

#[test]
fn prr_without_sack_is_refused_only_where_there_is_no_fast_recovery() {
    let base = |v| SenderConfig::new(v, 64, 3, 1.0, 64.0).unwrap();
    assert!(base(Variant::Reno).with_prr(true).is_ok());
    assert!(base(Variant::Cubic).with_prr(true).is_ok());
    for v in [Variant::Tahoe, Variant::OldTahoe] {
        let err = base(v).with_prr(true).unwrap_err().to_string();
        assert!(err.contains("prr") && err.contains("PRR (RFC 6937)") && err.contains("go-back-N"), "{err}");
    }
}

#[test]
fn the_same_packets_as_sacks_prr_on_the_same_arrivals() {
    // With SACK the duplicate ACKs carry what the estimates guess: the k-th SACKs 1..=k. Where nothing is
    // reordered the two readings of pipe agree, so PRR sends the same packets at the same ACKs.
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 100.0, 1000.0).unwrap().with_initial_window(20).unwrap();
    let mut sack = Sender::new(cfg.with_sack(true).unwrap().with_prr(true).unwrap());
    assert_eq!(drain(&mut sack, 0.0).len(), 20);
    let mut plain = sender(Some(PrrBound::Ssrb));
    for k in 1..=19u64 {
        let now = 1.0 + 0.01 * k as f64;
        sack.on_sack_ack(now, 0, &[(1, k + 1)]);
        plain.on_ack(now, 0);
        assert_eq!(drain(&mut sack, now), drain(&mut plain, now), "duplicate ACK {k}");
    }
}

/// 0-16 lost and 17-19 delivered (a fade took most of the window), as the kernel's trace of 10 Mb/s, 10 ms, fading,
/// cubic without SACK showed it (docs/validation/kernel.md): three duplicate ACKs, then the partial ACK of the fast
/// retransmission, then (`extra`) one more duplicate ACK.
fn most_of_the_window_lost(partial: PartialAck, extra: bool) -> (Vec<Vec<u64>>, Sender) {
    let mut s = sender_with(Some(PrrBound::SafeAck), partial);
    let mut sent = dupacks(&mut s, 3);
    // Dupack 3 enters: sacked 3, pipe 20 − 3 − 1 = 16 > 10, sndcnt ⌈1 · 10/20⌉ − 0 = 1: the retransmission of 0.
    // The ACK of it, 1, is partial: DeliveredData max(1 − 3, 1) = 1 (prr_delivered 2), sacked 3 − 0 = 3, flight 19,
    // the hole 1 lost and waiting: pipe 19 − 3 − 1 = 15 > 10, sndcnt ⌈2 · 10/20⌉ − prr_out 1 = 0.
    s.on_ack(2.0, 1);
    sent.push(drain(&mut s, 2.0));
    if extra {
        // A duplicate ACK of 1: sacked 4, prr_delivered 3, pipe 19 − 4 − (1 while 1 waits) and sndcnt ⌈3/2⌉ − prr_out.
        s.on_ack(2.1, 1);
        sent.push(drain(&mut s, 2.1));
    }
    (sent, s)
}

#[test]
fn the_partial_acks_retransmission_forced_or_within_sndcnt() {
    // RFC 6582 §3.2 step 3 read alone: 1 goes out at the partial ACK although sndcnt is 0; the next dupack then finds
    // pipe 19 − 4 = 15 and sndcnt ⌈3/2⌉ − 2 = 0: nothing.
    let (sent, s) = most_of_the_window_lost(PartialAck::Forced, true);
    assert_eq!(sent, vec![vec![], vec![], vec![0], vec![1], vec![]]);
    assert_eq!(s.prr_state().map(|p| (p.delivered, p.out)), Some((3, 2)));
    // RFC 6937 §3 and Linux (tcp_xmit_retransmit_queue() stops at cwnd = pipe + sndcnt): nothing at the partial ACK;
    // the dupack makes pipe 19 − 4 − 1 = 14, sndcnt ⌈3/2⌉ − 1 = 1: the hole's retransmission, and no new packet
    // (cwnd = 19 + 1 − 1 = 19 leaves none beyond 1 + 19 = 20 = SND.NXT).
    let (sent, s) = most_of_the_window_lost(PartialAck::Sndcnt, true);
    assert_eq!(sent, vec![vec![], vec![], vec![0], vec![], vec![1]]);
    assert_eq!(s.prr_state().map(|p| (p.delivered, p.out)), Some((3, 1)));
}

#[test]
fn a_partial_ack_that_allows_nothing_leaves_the_hole_to_the_timer() {
    // With nothing else coming back (the kernel's seed 1 at 11.21 s), the hole waits for the RTO: go-back-N from 1
    // with W = 1 (RFC 5681 §3.1; Linux's tcp_enter_loss()), where the forced rule went on repairing one hole a round.
    let (sent, mut s) = most_of_the_window_lost(PartialAck::Sndcnt, false);
    assert_eq!(sent.last().unwrap(), &Vec::<u64>::new());
    assert!(s.in_recovery());
    let rto = s.timer_deadline().expect("the timer runs: the partial ACK restarted it");
    assert_eq!(rto, 2.0 + 100.0);
    s.on_timeout(rto);
    assert_eq!(drain(&mut s, rto), [1]);
    assert!(!s.in_recovery() && s.cwnd() == 1.0 && s.counters().timeouts == 1);
}
