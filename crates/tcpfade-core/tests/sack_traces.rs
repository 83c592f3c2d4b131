//! Hand-worked traces of SACK loss recovery (RFC 6675) and PRR (RFC 6937), in the style of packetdrill: a sender
//! driven by scripted ACKs with SACK blocks, asserting at each named event what it sends and its cwnd, ssthresh and
//! pipe. Every expected number was worked out by hand from the RFCs' definitions (the comments show the sums), in
//! packets: pipe = outstanding − SACKed − lost + (un-SACKed at or below HighRxt), a packet lost when 3 (DupThresh)
//! SACKed packets lie above it.

mod common;

use common::{drain, sack_ack as ack};
use tcpfade_core::tcp::{NextSegRule, PrrBound, Sender, SenderConfig, Variant};

/// A sender with initial window `iw` (all sent at t = 0), K = 3, Wmax = 64, a fixed RTO of 100.
fn sender(variant: Variant, iw: u64, sack: bool, prr: Option<PrrBound>, segments: Option<u64>) -> (Sender, Vec<u64>) {
    sender_lt(variant, iw, sack, prr, segments, false)
}

/// [`sender`] with RFC 3042 limited transmit on or off.
fn sender_lt(variant: Variant, iw: u64, sack: bool, prr: Option<PrrBound>, segments: Option<u64>, lt: bool)
    -> (Sender, Vec<u64>) {
    let mut cfg = SenderConfig::new(variant, 64, 3, 100.0, 1000.0).unwrap().with_initial_window(iw).unwrap();
    cfg = cfg.with_limited_transmit(lt).unwrap();
    cfg = cfg.with_sack(sack).unwrap().with_prr_bound(prr).unwrap();
    if let Some(n) = segments {
        cfg = cfg.with_segments(n).unwrap();
    }
    let mut s = Sender::new(cfg);
    let first = drain(&mut s, 0.0);
    (s, first)
}

/// One scripted step: the ACK, then what the sender sends, its cwnd and its pipe after sending.
struct Step<'a> {
    cum: u64,
    blocks: &'a [(u64, u64)],
    sends: &'a [u64],
    cwnd: f64,
    pipe: u64,
}

fn run(s: &mut Sender, steps: &[Step]) {
    for (i, st) in steps.iter().enumerate() {
        let now = 1.0 + i as f64 * 0.01;
        let sent = ack(s, now, st.cum, st.blocks);
        let what = format!("step {i}: ACK {} {:?}", st.cum, st.blocks);
        assert_eq!(sent, st.sends, "{what}: sent");
        assert_eq!(s.cwnd(), st.cwnd, "{what}: cwnd");
        assert_eq!(s.pipe(), Some(st.pipe), "{what}: pipe");
    }
}

const fn step<'a>(cum: u64, blocks: &'a [(u64, u64)], sends: &'a [u64], cwnd: f64, pipe: u64) -> Step<'a> {
    Step { cum, blocks, sends, cwnd, pipe }
}

/// (cum, blocks) of the duplicate ACK of packet k when 0 is the only hole and 1 … k have arrived.
fn dup(k: u64) -> (u64, Vec<(u64, u64)>) {
    (0, vec![(1, k + 1)])
}

#[test]
fn single_loss_in_a_window_of_ten_one_retransmission_and_exit_at_the_recovery_point() {
    // W = 10, packets 0-9 out, 0 lost; ssthresh = ⌈10/2⌉ = 5 (the AIMD part's rule).
    let (mut s, first) = sender(Variant::NewReno, 10, true, None, None);
    assert_eq!(first, (0..10).collect::<Vec<_>>());
    run(&mut s, &[
        step(0, &[(1, 2)], &[], 10.0, 9),  // 10 out − 1 SACKed
        step(0, &[(1, 3)], &[], 10.0, 8),
        // 3rd duplicate: recovery. cwnd = ssthresh = 5; 0 is lost (3 SACKed above): pipe = 10 − 3 − 1 = 6; the
        // entry retransmission goes whatever the window (RFC 6675 §5 step 4.3): pipe 7.
        step(0, &[(1, 4)], &[0], 5.0, 7),
        step(0, &[(1, 5)], &[], 5.0, 6),   // 10 − 4 − 1 lost + 1 retransmitted
        step(0, &[(1, 6)], &[], 5.0, 5),
        step(0, &[(1, 7)], &[10], 5.0, 5), // pipe 4 < cwnd: NextSeg rule (2), new data
        step(0, &[(1, 8)], &[11], 5.0, 5), // 11 − 7 − 1 + 1 = 4, then 5
        step(0, &[(1, 9)], &[12], 5.0, 5),
        step(0, &[(1, 10)], &[13], 5.0, 5),
        // The retransmission arrives: the ACK covers RecoveryPoint (9): recovery ends, cwnd = ssthresh, and the
        // ordinary window rule sends 14 (14 < 10 + 5).
        step(10, &[], &[14], 5.0, 5),
    ]);
    assert_eq!(s.ssthresh(), 5.0);
    assert!(!s.in_recovery());
    let c = s.counters();
    assert_eq!((c.fast_retransmits, c.retransmissions, c.timeouts), (1, 1, 0));
}

#[test]
fn cubic_with_sack_takes_its_ssthresh_from_the_cubic_part() {
    let (mut s, _) = sender(Variant::Cubic, 10, true, None, None);
    for k in 1..=3 {
        let (cum, blocks) = dup(k);
        ack(&mut s, 1.0, cum, &blocks);
    }
    assert!(s.in_recovery());
    assert!((s.ssthresh() - 7.0).abs() < 1e-9 && (s.cwnd() - 7.0).abs() < 1e-9); // β_cubic · 10
    assert_eq!(s.pipe(), Some(7)); // 10 − 3 − 1 + 1, after the entry retransmission
}

/// NewReno with SACK at W = 10, packets 0 and 5 lost, driven up to the point where both losses are found and
/// retransmitted (the arrivals of 1-4 and 6-9).
fn two_losses_found() -> Sender {
    let (mut s, _) = sender(Variant::NewReno, 10, true, None, None);
    let b = (1u64, 5u64);
    run(&mut s, &[
        step(0, &[(1, 2)], &[], 10.0, 9),
        step(0, &[(1, 3)], &[], 10.0, 8),
        step(0, &[(1, 4)], &[0], 5.0, 7),
        step(0, &[(1, 5)], &[], 5.0, 6),
        step(0, &[(6, 7), b], &[], 5.0, 5),     // 10 − 5 SACKed − 1 lost + 1
        step(0, &[(6, 8), b], &[10], 5.0, 5),   // lost: only 0 (3rd highest SACKed is 4): 10 − 6 − 1 + 1 = 4
        // 3rd highest SACKed is 6: 5 is lost too. pipe = 11 − 7 − 2 + 1 = 3: rule (1) retransmits 5, rule (2)
        // sends 11.
        step(0, &[(6, 9), b], &[5, 11], 5.0, 5),
        step(0, &[(6, 10), b], &[12], 5.0, 5),  // 12 − 8 − 2 + 2 = 4
    ]);
    s
}

#[test]
fn two_losses_in_one_window_are_repaired_in_one_recovery() {
    // W = 10, packets 0 and 5 lost. SACK retransmits 5 as soon as 3 packets above it are SACKed, before the
    // ACK of the retransmitted 0 returns; NewReno without SACK learns of 5 only from that partial ACK, a round
    // trip later.
    let mut s = two_losses_found();
    run(&mut s, &[
        step(5, &[(6, 10)], &[13], 5.0, 5),     // the retransmitted 0: partial ACK, 8 − 4 − 1 + 1 = 4
        step(5, &[(6, 11)], &[14], 5.0, 5),     // 10 arrives
        step(11, &[], &[15], 5.0, 5),           // the retransmitted 5: past RecoveryPoint, recovery over
    ]);
    let c = s.counters();
    assert_eq!((c.fast_retransmits, c.retransmissions, c.timeouts), (1, 2, 0));

    // NewReno without SACK on the same arrivals: 5 goes again only after the partial ACK of the retransmitted 0.
    let (mut n, _) = sender(Variant::NewReno, 10, false, None, None);
    let mut before_partial = Vec::new();
    for _ in [1, 2, 3, 4, 6, 7, 8, 9] {
        n.on_ack(1.0, 0);
        before_partial.extend(drain(&mut n, 1.0));
    }
    assert_eq!(before_partial.first(), Some(&0));
    assert!(!before_partial.contains(&5));
    n.on_ack(2.0, 5);
    assert_eq!(drain(&mut n, 2.0).first(), Some(&5));
}

#[test]
fn the_rescue_retransmission_repairs_a_lost_last_packet() {
    // A transfer of 10 packets, 0 and 9 (the last) lost: nothing new to send, no SACKed packet above 9, so rules
    // (1)-(3) never pick 9; rule (4) does, once the cumulative ACK passes RescueRxt (0).
    let (mut s, _) = sender(Variant::NewReno, 10, true, None, Some(10));
    run(&mut s, &[
        step(0, &[(1, 2)], &[], 10.0, 9),
        step(0, &[(1, 3)], &[], 10.0, 8),
        step(0, &[(1, 4)], &[0], 5.0, 7),
        step(0, &[(1, 5)], &[], 5.0, 6),
        step(0, &[(1, 6)], &[], 5.0, 5),
        step(0, &[(1, 7)], &[], 5.0, 4),  // room, but no new data and no hole below a SACKed packet
        step(0, &[(1, 8)], &[], 5.0, 3),
        step(0, &[(1, 9)], &[], 5.0, 2),  // HighACK (−1) is not above RescueRxt (0): no rescue yet
        // The retransmitted 0 arrives: HighACK = 8 > RescueRxt: rule (4) sends the highest un-SACKed packet, 9.
        // pipe = 1 outstanding (not lost, not retransmitted by HighRxt's count) + 1 sent.
        step(9, &[], &[9], 5.0, 2),
    ]);
    assert_eq!(s.last_rule(), Some(NextSegRule::Rescue));
    step_ack_and_check_done(&mut s);
}

fn step_ack_and_check_done(s: &mut Sender) {
    assert_eq!(ack(s, 2.0, 10, &[]), Vec::<u64>::new());
    assert!(s.is_done() && !s.in_recovery());
    assert_eq!(s.counters().timeouts, 0);
    assert_eq!(s.counters().retransmissions, 2);
}

#[test]
fn a_lost_retransmission_ends_in_a_timeout_that_resends_only_the_holes() {
    // As the two-loss trace, but the retransmitted 0 and the new packets 11-14 are lost: RFC 6675 cannot see a
    // lost retransmission, so the timer fires. After it (§5.1) the scoreboard is kept: the sender resends 0, then
    // 11, 12, … and never 1-10, which the receiver holds (go-back-N would resend them all).
    let mut s = two_losses_found();
    let b = (1u64, 5u64);
    run(&mut s, &[
        step(0, &[(6, 11), b], &[13], 5.0, 5), // 10 arrives: 13 − 9 − 2 + 2 = 4
        step(0, &[(1, 11)], &[14], 5.0, 5),    // the retransmitted 5 fills 1-10: 14 − 10 − 1 + 1 = 4
    ]);
    // Nothing more arrives. The timer (started with packet 0, never restarted) fires at 100.
    assert_eq!(s.timer_deadline(), Some(100.0));
    s.on_timeout(100.0);
    // ssthresh = ⌈5/2⌉ = 3, cwnd = 1; every hole below RecoveryPoint (0, 11-14) is lost:
    // pipe = 15 − 10 − 5 = 0.
    assert_eq!((s.ssthresh(), s.cwnd(), s.pipe()), (3.0, 1.0, Some(0)));
    assert!(!s.in_recovery());
    assert_eq!(drain(&mut s, 100.0), [0]);
    // 0 arrives: cumulative ACK 11, slow start cwnd = 2, pipe = 4 − 4 lost = 0: resend 11 and 12.
    assert_eq!(ack(&mut s, 100.5, 11, &[]), [11, 12]);
    assert_eq!((s.cwnd(), s.pipe()), (2.0, Some(2)));
    // 11 arrives: cwnd = 3 (= ssthresh), pipe = 3 − 3 lost + 1 retransmitted (12) = 1: resend 13, 14.
    assert_eq!(ack(&mut s, 101.0, 12, &[]), [13, 14]);
    assert_eq!((s.cwnd(), s.pipe()), (3.0, Some(3)));
    let c = s.counters();
    assert_eq!((c.timeouts, c.fast_retransmits), (1, 1));
    assert_eq!(c.retransmissions, 2 + 5); // 0 and 5 in recovery; 0, 11, 12, 13, 14 after the timeout
}

/// The 19 duplicate ACKs of a window of 20 with packet 0 lost: the k-th SACKs 1 … k.
fn window_of_twenty<'a>(expect: &'a [(&'a [u64], f64, u64)]) -> Vec<Step<'a>> {
    (1..=19u64)
        .zip(expect)
        .map(|(k, &(sends, cwnd, pipe))| Step { cum: 0, blocks: Box::leak(Box::new([(1, k + 1)])), sends, cwnd, pipe })
        .collect()
}

#[test]
fn prr_spreads_the_reduction_over_the_round_trip_rfc_6937_example() {
    // RFC 6937 §6 / RFC 9937 §8 example 1 (cwnd 20, ssthresh 10, one loss), without limited transmit: pipe runs
    // 2 lower than the RFC's table, which sends 2 new packets with its first duplicate ACKs. PRR-SSRB, RecoverFS
    // = 20. While pipe > ssthresh: sndcnt = ⌈prr_delivered · 10/20⌉ − prr_out, one packet every other ACK; then
    // sndcnt = min(ssthresh − pipe, max(prr_delivered − prr_out, DeliveredData) + 1), one per ACK at pipe 9.
    let (mut s, _) = sender(Variant::NewReno, 20, true, Some(PrrBound::Ssrb), None);
    let steps = window_of_twenty(&[
        (&[], 20.0, 19),
        (&[], 20.0, 18),
        (&[0], 17.0, 17), // pipe 16, prr_delivered 1: ⌈0.5⌉ − 0 = 1, cwnd 17: the entry retransmission
        (&[], 16.0, 16),  // ⌈1⌉ − 1 = 0
        (&[20], 16.0, 16), // ⌈1.5⌉ − 1 = 1
        (&[], 15.0, 15),
        (&[21], 15.0, 15),
        (&[], 14.0, 14),
        (&[22], 14.0, 14),
        (&[], 13.0, 13),
        (&[23], 13.0, 13),
        (&[], 12.0, 12),
        (&[24], 12.0, 12),
        (&[], 11.0, 11),  // prr_delivered 12, prr_out 6: ⌈6⌉ − 6 = 0
        (&[], 10.0, 10),  // pipe 10 = ssthresh: min(10 − 10, 13 − 6 + 1) = 0
        (&[25], 10.0, 10), // pipe 9: min(1, 14 − 6 + 1) = 1
        (&[26], 10.0, 10),
        (&[27], 10.0, 10),
        (&[28], 10.0, 10),
    ]);
    run(&mut s, &steps);
    let prr = s.prr_state().expect("in recovery with PRR");
    assert_eq!((prr.delivered, prr.out, prr.recover_fs), (17, 10, 20));
    // The retransmission arrives: recovery ends with cwnd = ssthresh = 10, and 29 goes (29 < 20 + 10).
    assert_eq!(ack(&mut s, 2.0, 20, &[]), [29]);
    assert_eq!((s.cwnd(), s.ssthresh()), (10.0, 10.0));
    assert!(s.prr_state().is_none());
}

#[test]
fn prr_with_limited_transmit_reproduces_rfc_9937_example_1() {
    // RFC 9937 §8, example 1, as printed there: cwnd 20, Reno's ssthresh 10, segment 0 lost, limited transmit
    // sends 20 and 21 on the first two duplicate ACKs. Rows: cwnd and inflight after each ACK, before sending;
    // what is sent. RecoverFS = 20 (22 outstanding less the 2 of limited transmit, RFC 5681 §3.2 step 2).
    const CWND: [f64; 18] = [20., 20., 19., 18., 18., 17., 17., 16., 16., 15., 15., 14., 14., 13., 13., 12., 12., 11.];
    const INFLIGHT: [u64; 18] = [19, 19, 18, 18, 17, 17, 16, 16, 15, 15, 14, 14, 13, 13, 12, 12, 11, 11];
    let sent: [&[u64]; 18] = [&[20], &[21], &[0], &[], &[22], &[], &[23], &[], &[24], &[], &[25], &[], &[26], &[],
                              &[27], &[], &[28], &[]];
    let (mut s, _) = sender_lt(Variant::NewReno, 20, true, Some(PrrBound::Ssrb), None, true);
    for k in 1..=18u64 {
        let out = ack(&mut s, 1.0, 0, &[(1, k + 1)]);
        let i = (k - 1) as usize;
        assert_eq!((s.cwnd(), s.pipe().unwrap() - out.len() as u64, &out[..]), (CWND[i], INFLIGHT[i], sent[i]),
                   "ACK #{k}");
    }
    assert_eq!(s.prr_state().map(|p| p.recover_fs), Some(20));
    // From ACK #19 the printed rows put PRR's switch to its reduction bound one ACK later than RFC 6937 §3's
    // "pipe > ssthresh" does here (inflight 10 = ssthresh at #19: the RFC sends, we wait one ACK); see
    // docs/validation/standard-tcp.md.
    assert_eq!(ack(&mut s, 1.0, 0, &[(1, 20)]), Vec::<u64>::new());
    assert_eq!((s.cwnd(), s.pipe()), (10.0, Some(10)));
}

#[test]
fn rfc_6675_alone_waits_half_a_round_trip_then_sends_one_per_ack() {
    // The same window without PRR: cwnd = ssthresh = 10 at once, nothing new until pipe falls below 10 (the 11th
    // duplicate ACK), then one packet per ACK (RFC 9937 §8's RFC 6675 row, 2 ACKs earlier without limited
    // transmit).
    let (mut s, _) = sender(Variant::NewReno, 20, true, None, None);
    let mut expect: Vec<(&[u64], f64, u64)> = vec![(&[], 20.0, 19), (&[], 20.0, 18), (&[0], 10.0, 17)];
    for k in 4..=10u64 {
        expect.push((&[], 10.0, 20 - k));
    }
    const NEW: [[u64; 1]; 9] = [[20], [21], [22], [23], [24], [25], [26], [27], [28]];
    for new in &NEW {
        expect.push((new, 10.0, 10));
    }
    run(&mut s, &window_of_twenty(&expect));
}

#[test]
fn prr_ssrb_grows_like_slow_start_after_a_burst_and_crb_conserves_packets() {
    // RFC 9937 §8 example 2's situation: cwnd 20, ssthresh 10, packets 0-14 lost, 15-19 SACKed one per ACK. At
    // entry pipe = 20 − 3 SACKed − 15 lost = 2, far below ssthresh: the reduction bound decides.
    for (bound, expect) in [
        // SSRB: limit = max(prr_delivered − prr_out, DeliveredData) + 1 = 2 per ACK of 1 delivered.
        (PrrBound::Ssrb, [(&[0u64, 1][..], 4.0, 4u64), (&[2, 3][..], 5.0, 5), (&[4, 5][..], 6.0, 6)]),
        // CRB: limit = prr_delivered − prr_out = 1: one packet per packet delivered.
        (PrrBound::Crb, [(&[0][..], 3.0, 3), (&[1][..], 3.0, 3), (&[2][..], 3.0, 3)]),
        // RFC 9937 (Linux): these ACKs only SACK, SND.UNA stays, so none is a SafeACK: max(prr_delivered − prr_out,
        // DeliveredData) = max(1, 1) = 1, as CRB.
        (PrrBound::SafeAck, [(&[0][..], 3.0, 3), (&[1][..], 3.0, 3), (&[2][..], 3.0, 3)]),
    ] {
        let (mut s, _) = sender(Variant::NewReno, 20, true, Some(bound), None);
        let mut steps = vec![step(0, &[(15, 16)], &[], 20.0, 19), step(0, &[(15, 17)], &[], 20.0, 18)];
        const BLOCKS: [[(u64, u64); 1]; 3] = [[(15, 18)], [(15, 19)], [(15, 20)]];
        for (blocks, &(sends, cwnd, pipe)) in BLOCKS.iter().zip(&expect) {
            steps.push(step(0, blocks, sends, cwnd, pipe));
        }
        run(&mut s, &steps);
        assert!(s.counters().retransmissions == expect.iter().map(|e| e.0.len() as u64).sum::<u64>(), "{bound:?}");
        // The retransmitted 0 arrives: ACK 1 with 15-19 SACKed. SND.UNA advances and nothing more is lost (1-14 were
        // already), a SafeACK. After CRB's or RFC 9937's three ACKs (0, 1, 2 resent): DeliveredData 1 (prr_delivered
        // 4, prr_out 3); pipe = 19 outstanding − 5 SACKed − 14 lost + 2 retransmitted in flight (1, 2) = 2. RFC 9937:
        // min(10 − 2, max(4 − 3, 1) + 1) = 2, cwnd 4, the retransmissions of 3 and 4; CRB: min(8, 4 − 3) = 1, cwnd 3,
        // 3 alone.
        let sent = ack(&mut s, 2.0, 1, &[(15, 20)]);
        match bound {
            PrrBound::SafeAck => assert_eq!((sent, s.cwnd(), s.pipe()), (vec![3, 4], 4.0, Some(4))),
            PrrBound::Crb => assert_eq!((sent, s.cwnd(), s.pipe()), (vec![3], 3.0, Some(3))),
            _ => {}
        }
    }
}

#[test]
fn variants_without_a_fast_recovery_refuse_sack_and_prr_holds_without_it() {
    let cfg = |v| SenderConfig::new(v, 64, 3, 1.0, 64.0).unwrap();
    for v in [Variant::Tahoe, Variant::OldTahoe, Variant::Probing] {
        let err = cfg(v).with_sack(true).unwrap_err().to_string();
        assert!(err.starts_with(&format!("sack = True is not allowed: {}", v.name())), "{err}");
    }
    for v in [Variant::Reno, Variant::NewReno, Variant::Cubic] {
        assert!(cfg(v).with_sack(true).unwrap().with_prr(true).is_ok());
    }
    // PRR without SACK takes its estimates from duplicate ACKs (tcp/prr.rs; tests/prr_traces.rs).
    assert!(cfg(Variant::NewReno).with_prr(true).is_ok());
}

#[test]
fn without_losses_a_sack_run_is_the_cumulative_run_and_with_losses_it_resends_no_held_packet() {
    use tcpfade_core::channel::{ContinuousLossRule, ContinuousTwoState};
    use tcpfade_core::driver::{run_link, LinkConfig, PerfectChannel};
    use tcpfade_core::tcp::Rfc6298;
    // Wmax = 20 packets and a buffer of 20: no buffer loss either.
    let config = |variant, sack: bool| {
        let sender = SenderConfig::new(variant, 20, 3, 1.0, 1e9).unwrap().with_rfc6298(Rfc6298::ns2()).unwrap();
        let sender = sender.with_sack(sack).unwrap().with_prr(sack).unwrap();
        LinkConfig { sender, rate: 200.0, tau: 0.05, buffer: 20, duration: 200.0, warmup: 10.0, batches: 10,
                     delayed_ack: None }
    };
    for variant in [Variant::NewReno, Variant::Cubic] {
        let off = run_link(&config(variant, false), PerfectChannel).unwrap();
        let on = run_link(&config(variant, true), PerfectChannel).unwrap();
        assert_eq!(off.totals.buffer_losses, 0);
        assert_eq!(off, on, "{variant:?}");
        // Losses: every retransmission of a SACK sender is of a packet the receiver lacked, so the receiver sees
        // no more duplicates than timeouts can cause (a spurious timeout resends a packet in flight).
        let channel = || ContinuousTwoState::new(1.0, 0.02, ContinuousLossRule::AnyInstant([0.0, 1.0]), 7).unwrap();
        let on = run_link(&config(variant, true), channel()).unwrap();
        let off = run_link(&config(variant, false), channel()).unwrap();
        assert!(on.totals.timeouts + on.totals.fast_retransmits > 0);
        let dup = |t: &tcpfade_core::driver::LinkCounts| t.received - t.delivered;
        assert!(dup(&on.totals) < dup(&off.totals), "{variant:?}: {} vs {}", dup(&on.totals), dup(&off.totals));
    }
}

#[test]
fn an_ack_older_than_snd_una_acknowledges_nothing_and_its_blocks_are_taken() {
    // IW 10, packets 0-9 out. The ACK of 3 (three acknowledged, slow start: cwnd 10 + 1 = 11) lets 10-13 go
    // (SND.UNA + 11 = 14). Then, reordered on the way back, an older ACK of 1 that SACKs 5: it moves nothing, its block
    // is taken (one duplicate by RFC 6675 §2, short of DupThresh and of IsLost), pipe = (14 − 3) − 1 SACKed = 10, and
    // the window (3 + 11 = 14) sends nothing more.
    let (mut s, _) = sender(Variant::NewReno, 10, true, None, None);
    assert_eq!(ack(&mut s, 1.0, 3, &[]), [10, 11, 12, 13]);
    let sent = ack(&mut s, 1.01, 1, &[(5, 6)]);
    assert_eq!((s.una(), s.is_sacked(5), s.pipe(), s.cwnd(), s.in_recovery()), (3, true, Some(10), 11.0, false));
    assert!(sent.is_empty());
}

/// An ACK carries at most three SACK blocks (RFC 2018 §3 beside timestamps; `MAX_SACK_BLOCKS`): a caller that hands the
/// sender more has the rest ignored, by RACK's delivery and the scoreboard alike. Before, the scoreboard took all four
/// and RACK three, so a segment counted SACKed stayed counted lost, and pipe went below zero.
#[test]
fn blocks_beyond_three_are_ignored_by_every_part() {
    let build = || {
        let cfg = SenderConfig::new(Variant::NewReno, 40, 3, 1.0, 1e9).unwrap().with_initial_window(10).unwrap()
            .with_sack(true).unwrap().with_rack(true).unwrap();
        let mut s = Sender::new(cfg);
        assert_eq!(drain(&mut s, 0.0), (0..10).collect::<Vec<_>>());
        s
    };
    let (mut four, mut three) = (build(), build());
    four.on_sack_ack(0.1, 0, &[(2, 3), (4, 5), (6, 7), (8, 9)]);
    three.on_sack_ack(0.1, 0, &[(2, 3), (4, 5), (6, 7)]);
    assert_eq!(format!("{four:?}"), format!("{three:?}"));
    // Segments 0, 1, 3 and 5 sent before the newest SACKed one (6) are lost by RACK's time rule once their wait is over;
    // 8 is not SACKed for either sender.
    assert!(!four.is_sacked(8));
    for (t, ack, blocks) in [(0.2, 0, vec![(2, 3), (4, 5), (6, 8)]), (0.3, 1, vec![(2, 3), (4, 5), (6, 10)]),
                             (0.4, 10, vec![])] {
        let (a, b) = (drain(&mut four, t), drain(&mut three, t));
        assert_eq!(a, b);
        four.on_sack_ack(t, ack, &blocks);
        three.on_sack_ack(t, ack, &blocks);
        assert_eq!(format!("{four:?}"), format!("{three:?}"), "after the ACK of {ack} at {t}");
        assert!(four.pipe().is_some());
    }
}
