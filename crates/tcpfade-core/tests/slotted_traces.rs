//! Hand-worked slot-by-slot traces (the packetdrill idea): a loss pattern we construct, and what
//! each variant must send, with W and Wth, in each slot. Slots and sequence numbers count from 0
//! (chockalingam counts both from 1). Values are those at the start of the slot, when the send
//! decision is taken. Each expectation was worked out by hand from zorzi-rao §2 and BRIEF D1-D3.

use std::sync::Arc;
use tcpfade_core::channel::TraceChannel;
use tcpfade_core::driver::{run_slotted, SlotRecord, SlottedConfig};
use tcpfade_core::tcp::{SenderConfig, Variant};

/// Run `variant` over a channel that loses exactly the slots in `lost`, for `slots` slots.
fn run(variant: Variant, wmax: u64, k: u64, t0: f64, ssthresh: f64, lost: &[u64], slots: u64) -> Vec<SlotRecord> {
    run_config(SenderConfig::new(variant, wmax, k, t0, ssthresh).unwrap(), lost, slots)
}

fn run_config(sender: SenderConfig, lost: &[u64], slots: u64) -> Vec<SlotRecord> {
    let mut pattern = vec![0u8; slots as usize];
    for &s in lost {
        pattern[s as usize] = 1;
    }
    let mut channel = TraceChannel::new(Arc::from(pattern), false).unwrap();
    let cfg = SlottedConfig {
        sender,
        slots,
        ack_loss: 0.0,
        ack_delay: 0,
        batches: 1,
        trace_slots: slots,
    };
    run_slotted(&cfg, &mut channel, 0).unwrap().trace
}

/// Expected (sent sequence number or None, W, Wth) per slot.
type Row = (Option<u64>, f64, f64);

fn check(trace: &[SlotRecord], expected: &[Row]) {
    for (record, &(seq, cwnd, ssthresh)) in trace.iter().zip(expected) {
        let at = record.slot;
        assert_eq!(record.seq, seq, "slot {at}: sent");
        assert!((record.cwnd - cwnd).abs() < 1e-9, "slot {at}: W = {} expected {cwnd}", record.cwnd);
        assert!((record.ssthresh - ssthresh).abs() < 1e-9, "slot {at}: Wth = {} expected {ssthresh}", record.ssthresh);
    }
}

const THIRD: f64 = 3.0 + 1.0 / 3.0;

#[test]
fn newreno_single_loss_chockalingam_section_ii() {
    // chockalingam §II / Fig. 3: K = 2, Wmax = 6, MTO = 5. W = 3.3 when packet 3 (their 4) is lost;
    // two duplicate ACKs; then Wth = ⌈3.3/2⌉ = 2, W = 2 + K = 4 during the retransmission, and
    // W = Wth = 2 after the full ACK.
    let t = run(Variant::NewReno, 6, 2, 5.0, 3.0, &[3], 9);
    check(&t, &[
        (Some(0), 1.0, 3.0),
        (Some(1), 2.0, 3.0),
        (Some(2), 3.0, 3.0),
        (Some(3), THIRD, 3.0),        // lost
        (Some(4), THIRD, 3.0),        // dup ACK 1
        (Some(5), THIRD, 3.0),        // dup ACK 2 = K: fast retransmit
        (Some(3), 4.0, 2.0),          // retransmission; full ACK 6 ends recovery
        (Some(6), 2.0, 2.0),
        (Some(7), 2.5, 2.0),
    ]);
    assert!(t[6].retransmission);
}

#[test]
fn tahoe_single_loss_same_transmissions_different_window() {
    // chockalingam footnote 1: here Tahoe sends exactly what NewReno sends; its W differs.
    let t = run(Variant::Tahoe, 6, 2, 5.0, 3.0, &[3], 9);
    check(&t, &[
        (Some(0), 1.0, 3.0),
        (Some(1), 2.0, 3.0),
        (Some(2), 3.0, 3.0),
        (Some(3), THIRD, 3.0),
        (Some(4), THIRD, 3.0),
        (Some(5), THIRD, 3.0),
        (Some(3), 1.0, 2.0),          // W = 1 after fast retransmit, go-back-N from 3
        (Some(6), 2.0, 2.0),          // ACK 6 covers the held 4, 5: slow start +1
        (Some(7), 2.5, 2.0),
    ]);
}

#[test]
fn two_losses_in_one_window_reno_stalls_into_a_timeout() {
    // Losses at 5 and 6 with W = 6. Reno: fast retransmit of 5, whose ACK (6) ends recovery with
    // W = Wth = 3; packets 6, 7, 8 fill the window, no more duplicate ACKs come: timeout.
    let t = run(Variant::Reno, 6, 2, 5.0, 6.0, &[5, 6], 18);
    check(&t, &[
        (Some(0), 1.0, 6.0),
        (Some(1), 2.0, 6.0),
        (Some(2), 3.0, 6.0),
        (Some(3), 4.0, 6.0),
        (Some(4), 5.0, 6.0),
        (Some(5), 6.0, 6.0),          // lost
        (Some(6), 6.0, 6.0),          // lost
        (Some(7), 6.0, 6.0),          // dup 1
        (Some(8), 6.0, 6.0),          // dup 2: fast retransmit, Wth = 3, W = 5
        (Some(5), 5.0, 3.0),          // ACK 6: a partial ACK, but Reno leaves recovery: W = 3
        (None, 3.0, 3.0),             // 6, 7, 8 outstanding = W: stalled
        (None, 3.0, 3.0),
        (None, 3.0, 3.0),
        (None, 3.0, 3.0),
        (None, 3.0, 3.0),             // timer restarted by ACK 6 at t = 10 expires at 15
        (Some(6), 1.0, 2.0),          // Wth = ⌈3/2⌉, W = 1, retransmit 6; ACK 9
        (Some(9), 2.0, 2.0),
        (Some(10), 2.5, 2.0),
    ]);
}

#[test]
fn two_losses_in_one_window_newreno_repairs_both() {
    // chockalingam footnote 2: the partial ACK 6 makes NewReno retransmit 6 at once.
    let t = run(Variant::NewReno, 6, 2, 5.0, 6.0, &[5, 6], 13);
    check(&t, &[
        (Some(0), 1.0, 6.0),
        (Some(1), 2.0, 6.0),
        (Some(2), 3.0, 6.0),
        (Some(3), 4.0, 6.0),
        (Some(4), 5.0, 6.0),
        (Some(5), 6.0, 6.0),
        (Some(6), 6.0, 6.0),
        (Some(7), 6.0, 6.0),
        (Some(8), 6.0, 6.0),          // fast retransmit: Wth = 3, W = 5, recover = 9
        (Some(5), 5.0, 3.0),          // partial ACK 6: W = 5 - 1 + 1, retransmit 6
        (Some(6), 5.0, 3.0),          // full ACK 9: W = Wth
        (Some(9), 3.0, 3.0),
        (Some(10), THIRD, 3.0),
    ]);
    assert!(t[9].retransmission && t[10].retransmission);
}

#[test]
fn two_losses_in_one_window_tahoe_goes_back() {
    let t = run(Variant::Tahoe, 6, 2, 5.0, 6.0, &[5, 6], 13);
    check(&t, &[
        (Some(0), 1.0, 6.0),
        (Some(1), 2.0, 6.0),
        (Some(2), 3.0, 6.0),
        (Some(3), 4.0, 6.0),
        (Some(4), 5.0, 6.0),
        (Some(5), 6.0, 6.0),
        (Some(6), 6.0, 6.0),
        (Some(7), 6.0, 6.0),
        (Some(8), 6.0, 6.0),          // fast retransmit: Wth = 3, W = 1, back to 5
        (Some(5), 1.0, 3.0),          // ACK 6
        (Some(6), 2.0, 3.0),          // ACK 9 (7, 8 held)
        (Some(9), 3.0, 3.0),
        (Some(10), THIRD, 3.0),
    ]);
}

#[test]
fn window_exhausted_before_k_duplicate_acks_times_out_t0_after_the_send() {
    // K = 3, Wmax = 4: losses at 4 and 5 leave only two duplicate ACKs before the window (4) is
    // full. The timer started when 4 was sent (t = 4) expires at 4 + T0 = 9.
    let t = run(Variant::Tahoe, 4, 3, 5.0, 4.0, &[4, 5], 12);
    check(&t, &[
        (Some(0), 1.0, 4.0),
        (Some(1), 2.0, 4.0),
        (Some(2), 3.0, 4.0),
        (Some(3), 4.0, 4.0),          // W = 4 + 1/4 capped at Wmax = 4 after this ACK
        (Some(4), 4.0, 4.0),          // lost; the timer starts (nothing was outstanding)
        (Some(5), 4.0, 4.0),          // lost
        (Some(6), 4.0, 4.0),          // dup 1
        (Some(7), 4.0, 4.0),          // dup 2; window full
        (None, 4.0, 4.0),
        (Some(4), 1.0, 2.0),          // timeout at t = 9: Wth = 2, W = 1
        (Some(5), 2.0, 2.0),          // ACK 5, then ACK 8 (6, 7 held)
        (Some(8), 2.5, 2.0),
    ]);
}

#[test]
fn oldtahoe_ignores_duplicate_acks() {
    // Same loss as the chockalingam example, but only the timer detects it: timer started when 3
    // was sent (t = 3) expires at 8; the duplicate ACKs neither retransmit nor restart it.
    let t = run(Variant::OldTahoe, 6, 2, 5.0, 3.0, &[3], 10);
    check(&t, &[
        (Some(0), 1.0, 3.0),
        (Some(1), 2.0, 3.0),
        (Some(2), 3.0, 3.0),
        (Some(3), THIRD, 3.0),
        (Some(4), THIRD, 3.0),
        (Some(5), THIRD, 3.0),
        (None, THIRD, 3.0),           // usable window 3 = {3, 4, 5}: stalled
        (None, THIRD, 3.0),
        (Some(3), 1.0, 2.0),          // timeout at t = 8
        (Some(6), 2.0, 2.0),
    ]);
}

#[test]
fn k_at_least_wmax_makes_fast_retransmit_impossible() {
    // Wmax = 3, K = 3: after a loss at most 2 more packets fit in the window, so only the two
    // duplicate ACKs of 3 and 4 come and the timer (started at 2) repairs at 2 + T0 = 6.
    let t = run(Variant::NewReno, 3, 3, 4.0, 3.0, &[2], 9);
    check(&t, &[
        (Some(0), 1.0, 3.0),
        (Some(1), 2.0, 3.0),
        (Some(2), 3.0, 3.0),          // lost
        (Some(3), 3.0, 3.0),          // dup 1
        (Some(4), 3.0, 3.0),          // dup 2; window full
        (None, 3.0, 3.0),
        (Some(2), 1.0, 2.0),          // timeout: never a fast retransmit
        (Some(5), 2.0, 2.0),
        (Some(6), 2.5, 2.0),
    ]);
}

#[test]
fn wmax_one_is_stop_and_wait() {
    let t = run(Variant::Reno, 1, 3, 3.0, 1.0, &[2], 8);
    let sent: Vec<Option<u64>> = t.iter().map(|r| r.seq).collect();
    // 0, 1 sent; 2 lost; idle until the timer (started at 2) fires at 5; then 2, 3.
    assert_eq!(sent, vec![Some(0), Some(1), Some(2), None, None, Some(2), Some(3), Some(4)]);
}

/// Packet 3 lost, then packet 5, the first one sent after the recovery point (recover = 5). K = 1,
/// Wmax = 6, T0 = 5, Wth = 3 at the start. Slots 0-7 are the same with and without RFC 6582's guard.
const FIRST_AFTER_RECOVERY: [Row; 8] = [
    (Some(0), 1.0, 3.0),
    (Some(1), 2.0, 3.0),
    (Some(2), 3.0, 3.0),
    (Some(3), THIRD, 3.0),        // lost
    (Some(4), THIRD, 3.0),        // dup ACK 1 = K: Wth = ⌈3.3/2⌉ = 2, W = 2 + 1, recover = 5
    (Some(3), 3.0, 2.0),          // retransmission; ACK 5 (4 held) is full: W = Wth = 2
    (Some(5), 2.0, 2.0),          // lost; the timer starts (nothing outstanding): expires at 6 + 5
    (Some(6), 2.0, 2.0),          // dup ACK 1 = K, with the cumulative ACK at 5 = recover
];

#[test]
fn newreno_without_guard_fast_retransmits_the_first_packet_after_recovery() {
    let t = run(Variant::NewReno, 6, 1, 5.0, 3.0, &[3, 6], 11);
    check(&t[..8], &FIRST_AFTER_RECOVERY);
    check(&t[8..], &[
        (Some(5), 2.0, 1.0),          // fast retransmit: Wth = ⌈2/2⌉ = 1, W = 1 + K; ACK 7 full: W = 1
        (Some(7), 1.0, 1.0),          // W = Wth: congestion avoidance, W += 1/W
        (Some(8), 2.0, 1.0),
    ]);
}

#[test]
fn newreno_with_rfc6582_guard_waits_for_the_timeout_instead() {
    // RFC 6582 §3.2 step 2: the duplicate ACK at slot 7 does not cover more than recover = 5, so no
    // fast retransmit and Wth stays; the window (5, 6 outstanding, W = 2) is full until the timer
    // started at slot 6 expires at 11: Wth = ⌈2/2⌉ = 1, W = 1 (step 4: recover = 7).
    let cfg = SenderConfig::new(Variant::NewReno, 6, 1, 5.0, 3.0).unwrap().with_recover_guard(true).unwrap();
    let t = run_config(cfg, &[3, 6], 13);
    check(&t[..8], &FIRST_AFTER_RECOVERY);
    check(&t[8..], &[
        (None, 2.0, 2.0),
        (None, 2.0, 2.0),
        (None, 2.0, 2.0),
        (Some(5), 1.0, 1.0),          // ACK 7 (6 held): W = 1 + 1/1
        (Some(7), 2.0, 1.0),
    ]);
    assert!(t[11].retransmission);
}

#[test]
fn the_guard_is_refused_where_there_is_no_newreno_recovery_to_guard() {
    // It would change nothing there: a flag that runs as if off is refused, as SACK and limited transmit are.
    for variant in [Variant::Reno, Variant::Tahoe, Variant::OldTahoe, Variant::Probing] {
        let cfg = SenderConfig::new(variant, 6, 1, 5.0, 3.0).unwrap();
        let err = cfg.clone().with_recover_guard(true).unwrap_err().to_string();
        assert!(err.contains("recover_guard") && err.contains(variant.name()), "{err}");
        assert!(cfg.with_recover_guard(false).is_ok());
    }
    for variant in [Variant::NewReno, Variant::Cubic] {
        assert!(SenderConfig::new(variant, 6, 1, 5.0, 3.0).unwrap().with_recover_guard(true).is_ok());
    }
}
