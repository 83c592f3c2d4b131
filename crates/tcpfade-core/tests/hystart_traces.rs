//! Hand-worked traces of HyStart++ (RFC 9406 §4.2) in the style of packetdrill: a NewReno sender (one segment per
//! ACK in slow start), IW = 10, no loss, each segment's ACK returning a fixed RTT after it was sent (100 ms, then
//! 120 ms from segment 28 on). The expected numbers are worked out by hand in the comments: after the ACK of
//! segment k in slow start cwnd = 11 + k, and the sender then has k + 1 + ⌊cwnd⌋ segments out, so the round that
//! ends with the ACK of k has window_end = SND.NXT as the ACK of k − 1 left it.

use tcpfade_core::tcp::{HyStartPhase, Sender, SenderConfig, Variant};

fn sender(hystart: bool) -> Sender {
    let cfg = SenderConfig::new(Variant::NewReno, 1 << 20, 3, 100.0, 1e9).unwrap().with_initial_window(10).unwrap();
    Sender::new(cfg.with_hystart(hystart))
}

/// Runs the sender until the ACK of segment `last` with RTT `rtt(seq)`, calling `at` after each ACK with the
/// segment it acknowledged.
fn run(s: &mut Sender, last: u64, rtt: impl Fn(u64) -> f64, mut at: impl FnMut(u64, &Sender)) {
    let mut due: Vec<(f64, u64)> = Vec::new();
    let send = |s: &mut Sender, now: f64, due: &mut Vec<(f64, u64)>| {
        while let Some(seg) = s.poll_transmit(now) {
            due.push((now + rtt(seg.seq), seg.seq));
        }
    };
    send(s, 0.0, &mut due);
    for k in 0..=last {
        // ACK times never go backwards here: the RTT only rises, and segments leave in order.
        let (t, seq) = due[k as usize];
        assert_eq!(seq, k);
        s.on_ack(t, k + 1);
        at(k, s);
        send(s, t, &mut due);
    }
}

fn rising(seq: u64) -> f64 {
    if seq < 28 { 0.1 } else { 0.12 }
}

#[test]
fn a_rise_of_20_ms_enters_css_then_five_rounds_reach_congestion_avoidance() {
    let mut s = sender(true);
    let mut seen = Vec::new();
    run(&mut s, 358, rising, |k, s| seen.push((k, s.cwnd(), s.hystart_phase().unwrap(), s.ssthresh())));
    let at = |k: usize| seen[k];
    // Round 1 (segments 0-9, 100 ms) and round 2 (10-27, ends with window_end = 12 + 2·26 = 64): slow start,
    // cwnd = 11 + k. No rise: 0.1 < 0.1 + max(4 ms, min(0.1/8, 16 ms)) = 0.1125.
    assert_eq!((at(9).1, at(9).2), (20.0, HyStartPhase::SlowStart));
    assert_eq!((at(27).1, at(27).2), (38.0, HyStartPhase::SlowStart));
    // Round 3 (28-63, 120 ms): the 7th sample (ACK of 34) is not judged; the 8th (35) is, 0.12 ≥ 0.1125: CSS with
    // baseline 0.12, after that ACK's full growth (cwnd 11 + 35 = 46).
    assert_eq!((at(34).1, at(34).2), (45.0, HyStartPhase::SlowStart));
    assert_eq!((at(35).1, at(35).2), (46.0, HyStartPhase::Css(0)));
    // In CSS a quarter per ACK: after 36 cwnd 46.25; the round ends with 63: 46 + 28/4 = 53, one CSS round.
    assert_eq!(at(36).1, 46.25);
    assert_eq!((at(63).1, at(63).2), (53.0, HyStartPhase::Css(1)));
    // Round 4: 64 to window_end − 1, window_end = 63 + ⌊46 + 27/4⌋ = 115; 51 ACKs: 53 + 12.75 = 65.75.
    assert_eq!((at(114).1, at(114).2), (65.75, HyStartPhase::Css(2)));
    // Round 5 ends at 115 + 64 − 1 = 178 (window_end = 114 + ⌊65.5⌋ = 179): 65.75 + 16 = 81.75; round 6 at 258
    // (179 + 80 − 1; 81.75 + 20 = 101.75); round 7 at 358 (101.75 + 25 = 126.75), the fifth in CSS: ssthresh = cwnd.
    assert_eq!((at(178).1, at(178).2), (81.75, HyStartPhase::Css(3)));
    assert_eq!((at(258).1, at(258).2), (101.75, HyStartPhase::Css(4)));
    assert_eq!(at(357).3, 1e9);
    assert_eq!((at(358).1, at(358).2, at(358).3), (126.75, HyStartPhase::Done, 126.75));
    // Congestion avoidance from there: the next ACK adds 1/cwnd.
    let mut s2 = sender(true);
    let mut next = 0.0;
    run(&mut s2, 359, rising, |k, s| if k == 359 { next = s.cwnd() });
    assert!((next - (126.75 + 1.0 / 126.75)).abs() < 1e-12, "{next}");
}

#[test]
fn without_hystart_the_same_rise_leaves_slow_start_alone() {
    let mut s = sender(false);
    run(&mut s, 63, rising, |_, _| {});
    assert_eq!(s.cwnd(), 74.0); // 11 + 63
    assert!(s.hystart_phase().is_none());
}

#[test]
fn a_round_whose_minimum_falls_below_the_baseline_resumes_slow_start() {
    // 120 ms for segments 28-63 only, then 100 ms again. A segment of round 4 sent less than 20 ms after the last
    // of round 3 would be acknowledged before it; these ACKs stay in order (segment 64 leaves with the ACK of 27,
    // 62 and 63 with the ACK of 26, at the same instant), so no sample is shorter than 100 ms.
    let rtt = |seq: u64| if (28..64).contains(&seq) { 0.12 } else { 0.1 };
    let mut s = sender(true);
    let mut phases = Vec::new();
    let mut due: Vec<(f64, u64)> = Vec::new();
    let send = |s: &mut Sender, now: f64, due: &mut Vec<(f64, u64)>| {
        while let Some(seg) = s.poll_transmit(now) {
            let at = (now + rtt(seg.seq)).max(due.last().map_or(0.0, |d| d.0));
            due.push((at, seg.seq));
        }
    };
    send(&mut s, 0.0, &mut due);
    for k in 0..=114u64 {
        let (t, _) = due[k as usize];
        s.on_ack(t, k + 1);
        phases.push(s.hystart_phase().unwrap());
        send(&mut s, t, &mut due);
    }
    // CSS from the ACK of 35, as in the rising trace; round 4 begins with 64 (window_end 115 as there).
    assert_eq!(phases[35], HyStartPhase::Css(0));
    assert_eq!(phases[63], HyStartPhase::Css(1));
    // The first seven ACKs of round 4 (64-70) are not judged, whatever their RTT.
    assert!(phases[64..=70].iter().all(|&p| p == HyStartPhase::Css(1)));
    // By the round's end its minimum (100 ms at most, < the 120-ms baseline) has sent it back to slow start.
    assert_eq!(phases[114], HyStartPhase::SlowStart);
}

#[test]
fn a_loss_ends_hystart_and_the_slotted_model_refuses_it() {
    let mut s = sender(true);
    run(&mut s, 20, |_| 0.1, |_, _| {});
    assert_eq!(s.hystart_phase(), Some(HyStartPhase::SlowStart));
    // Three duplicate ACKs of 21: a fast retransmit (ssthresh from the congestion part), and the next ACK of new
    // data finds HyStart++ over: later slow starts are the ordinary one (RFC 9406 §4.3).
    for i in 0..3 {
        s.on_ack(5.0 + 0.001 * f64::from(i), 21);
    }
    assert_eq!(s.counters().fast_retransmits, 1);
    assert_eq!(s.hystart_phase(), Some(HyStartPhase::Done));
    // The full ACK (recover = 21 + ⌊31⌋ = 52) ends recovery at cwnd = ssthresh = ⌈31/2⌉ = 16, and the next ACK grows
    // it by congestion avoidance's 1/16, with no CSS quarter.
    s.on_ack(5.1, 52);
    assert_eq!(s.cwnd(), 16.0);
    // 52 onward go out (an ACK of a segment never sent is dropped, RFC 9293 §3.10.7.4).
    while s.poll_transmit(5.1).is_some() {}
    s.on_ack(5.2, 53);
    assert_eq!(s.cwnd(), 16.0 + 1.0 / 16.0);
    let cfg = SenderConfig::new(Variant::NewReno, 64, 3, 1.0, 64.0).unwrap().with_hystart(true);
    let slotted = tcpfade_core::driver::SlottedConfig {
        sender: cfg,
        slots: 1000,
        ack_loss: 0.0,
        ack_delay: 0,
        batches: 2,
        trace_slots: 0,
    };
    assert!(slotted.validate().unwrap_err().to_string().starts_with("hystart = True is not allowed"));
}
