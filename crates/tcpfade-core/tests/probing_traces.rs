//! Hand-worked traces of TCP-Probing's probe cycle (tsaoussidis-badr §3, §3.1) on the sans-IO sender and
//! receiver: every event is given by hand, with its time, and every expectation below was worked out from
//! the paper's rules and the sender's documented choices before the code ran. RTO: RFC 6298 with an
//! initial 1 s, minimum 0.2 s, clock granularity 0.01 s.

use tcpfade_core::tcp::{
    BestRtt, ProbeDecision, ProbeKind, ProbeOutcome, ProbeSegment, ProbeTrigger, Receiver, Rfc6298, RttRange, Sender,
    SenderConfig, Variant,
};

/// Best RTT from earlier cycles' probes (none before the first cycle, so its lower bound does not bind), unless
/// a test says otherwise.
fn sender(wmax: u64) -> Sender {
    sender_with(wmax, BestRtt::Probes)
}

fn sender_with(wmax: u64, reading: BestRtt) -> Sender {
    let rfc = Rfc6298 { initial: 1.0, min: 0.2, max: 64.0, granularity: 0.01, max_backoff: 64 };
    let cfg = SenderConfig::new(Variant::Probing, wmax, 3, 1.0, 8.0).unwrap().with_rfc6298(rfc).unwrap();
    Sender::new(cfg.with_best_rtt(reading))
}

fn probe(kind: ProbeKind, id: u32) -> ProbeSegment {
    ProbeSegment { kind, id }
}

/// Segment 0 sent at 0 and ACKed at 0.1: SRTT = 0.1, RTTVAR = 0.05, RTO = 0.1 + max(0.01, 4·0.05) = 0.3;
/// slow start W = 2 (Wth = 8). Then 1 and 2 are sent at 0.1; the timer runs to 0.4.
fn after_first_round_trip(wmax: u64) -> Sender {
    after_first_round_trip_with(wmax, BestRtt::Probes)
}

fn after_first_round_trip_with(wmax: u64, reading: BestRtt) -> Sender {
    let mut s = sender_with(wmax, reading);
    assert_eq!(s.poll_transmit(0.0).unwrap().seq, 0);
    s.on_ack(0.1, 1);
    assert_eq!(s.cwnd(), 2.0);
    assert!((s.rto_estimator().rto() - 0.3).abs() < 1e-12);
    assert_eq!(s.poll_transmit(0.1).unwrap().seq, 1);
    assert_eq!(s.poll_transmit(0.1).unwrap().seq, 2);
    assert!(s.poll_transmit(0.1).is_none());
    assert!((s.timer_deadline().unwrap() - 0.4).abs() < 1e-12);
    s
}

#[test]
fn timeout_cycle_with_a_lost_probe_restarts_with_a_new_id_and_takes_immediate_recovery() {
    let mut s = after_first_round_trip(4);
    // 1 and 2 are lost. At 0.4 the timer expires: a cycle instead of a retransmission; W, Wth untouched.
    s.on_timeout(0.4);
    assert!(s.in_probe_cycle() && s.poll_transmit(0.4).is_none());
    assert_eq!((s.cwnd(), s.ssthresh()), (2.0, 8.0));
    assert_eq!(s.poll_probe(0.4), Some(probe(ProbeKind::Probe1, 1)));
    assert!(s.poll_probe(0.4).is_none()); // one probe at a time
    // The probe timer is SRTT = 0.1 (the RTT estimate when the cycle started): PROBE1 lost, it fires at 0.5.
    assert!((s.probe_deadline().unwrap() - 0.5).abs() < 1e-12);
    s.on_probe_timeout(0.5);
    assert_eq!(s.poll_probe(0.5), Some(probe(ProbeKind::Probe1, 2)));
    assert!((s.probe_deadline().unwrap() - 0.6).abs() < 1e-12); // a loss leaves the probe timer at 0.1
    // PR1_ACK of the new exchange at 0.52 (RTT 0.02): PROBE2 with the same id.
    assert!(s.on_probe_ack(0.52, probe(ProbeKind::Pr1Ack, 2)).is_none());
    assert_eq!(s.poll_probe(0.52), Some(probe(ProbeKind::Probe2, 2)));
    // A late answer of the abandoned exchange ends nothing, but shows the timer fired too early: it doubles
    // to 0.2 for the next probe sent; PROBE2, already out, keeps its deadline 0.52 + 0.1.
    assert!(s.on_probe_ack(0.53, probe(ProbeKind::Pr1Ack, 1)).is_none());
    assert!((s.probe_deadline().unwrap() - 0.62).abs() < 1e-12);
    // PR2_ACK at 0.55 (RTT 0.03): both RTTs in [best RTT, last RTT 0.1]; best RTT is 0, as no earlier cycle
    // has probed (this cycle's own RTTs never make it).
    let m = s.on_probe_ack(0.55, probe(ProbeKind::Pr2Ack, 2)).unwrap();
    assert_eq!((m.trigger, m.exchanges, m.dupacks), (ProbeTrigger::Timeout, 2, 0));
    assert!((m.rtt1 - 0.02).abs() < 1e-12 && (m.rtt2 - 0.03).abs() < 1e-12);
    assert!(m.best_rtt == 0.0 && (m.last_rtt - 0.1).abs() < 1e-12);
    assert!((m.duration - 0.15).abs() < 1e-12);
    assert!(RttRange::default().immediate_recovery(&m).unwrap());
    s.end_probe_cycle(ProbeOutcome::ImmediateRecovery);
    // Immediate Recovery: W = 2, Wth = 8 kept; 1 sent again first; the backoff ended (RTO 0.3, not 0.6).
    assert_eq!((s.cwnd(), s.ssthresh()), (2.0, 8.0));
    let seg = s.poll_transmit(0.55).unwrap();
    assert!(seg.seq == 1 && seg.retransmission);
    assert!(s.poll_transmit(0.55).is_none()); // 1 and 2 outstanding, W = 2
    assert!((s.timer_deadline().unwrap() - 0.85).abs() < 1e-12);
    let c = s.probe_counters();
    assert_eq!((c.cycles_after_timeout, c.immediate_recoveries, c.probes_sent, c.restarts), (1, 1, 3, 1));
    assert_eq!(s.counters().timeouts, 1);
}

#[test]
fn a_lost_pr2_ack_is_answered_by_the_receivers_restart() {
    let mut r = Receiver::new(4);
    let mut s = after_first_round_trip(4);
    s.on_timeout(0.4);
    let p1 = s.poll_probe(0.4).unwrap();
    let a1 = r.on_probe(p1).unwrap();
    assert_eq!(a1, probe(ProbeKind::Pr1Ack, 1));
    assert!(r.in_probe_exchange());
    assert!(s.on_probe_ack(0.41, a1).is_none());
    let p2 = s.poll_probe(0.41).unwrap();
    assert_eq!(r.on_probe(p2), Some(probe(ProbeKind::Pr2Ack, 1))); // this PR2_ACK is lost
    assert!(!r.in_probe_exchange()); // the receiver is back in ESTAB
    // PROBE2 left at 0.41: the probe timer fires at 0.51 and the sender starts over with id 2, which the
    // receiver answers as a new exchange.
    assert!((s.probe_deadline().unwrap() - 0.51).abs() < 1e-12);
    s.on_probe_timeout(0.51);
    let p1 = s.poll_probe(0.51).unwrap();
    assert_eq!(p1, probe(ProbeKind::Probe1, 2));
    assert_eq!(r.on_probe(p1), Some(probe(ProbeKind::Pr1Ack, 2)));
    assert!(r.in_probe_exchange());
    assert!(s.on_probe_ack(0.52, probe(ProbeKind::Pr1Ack, 2)).is_none());
    let p2 = s.poll_probe(0.52).unwrap();
    let m = s.on_probe_ack(0.53, r.on_probe(p2).unwrap()).unwrap();
    assert_eq!(m.exchanges, 2);
    assert!(r.on_probe(probe(ProbeKind::Pr2Ack, 2)).is_none()); // answers are never answered
}

#[test]
fn immediate_recovery_refused_when_a_probe_rtt_exceeds_the_last_rtt_slow_start() {
    let mut s = after_first_round_trip(4);
    s.on_timeout(0.4);
    s.poll_probe(0.4);
    s.on_probe_ack(0.45, probe(ProbeKind::Pr1Ack, 1)); // RTT 0.05
    s.poll_probe(0.45);
    // PR2_ACK 0.09 after PROBE2 (its timer, 0.1, has not fired: it is set when PROBE2 leaves).
    assert!((s.probe_deadline().unwrap() - 0.55).abs() < 1e-12);
    let m = s.on_probe_ack(0.54, probe(ProbeKind::Pr2Ack, 1)).unwrap();
    assert!((m.rtt2 - 0.09).abs() < 1e-12);
    assert!(RttRange::default().immediate_recovery(&m).unwrap()); // 0.05 and 0.09 are in [0.05, 0.1]
    // With the upper bound at 0.8 × last RTT = 0.08, 0.09 is out: Slow Start.
    assert!(!RttRange::new(1.0, 0.8).unwrap().immediate_recovery(&m).unwrap());
    s.end_probe_cycle(ProbeOutcome::SlowStart);
    // Wth = ⌈2/2⌉ = 1, W = 1, back to 1 (go-back-N).
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 1.0));
    let seg = s.poll_transmit(0.54).unwrap();
    assert!(seg.seq == 1 && seg.retransmission);
    assert!(s.poll_transmit(0.54).is_none());
    assert_eq!(s.probe_counters().slow_starts, 1);
}

#[test]
fn dupack_cycle_counts_dupacks_moves_the_window_on_acks_and_inflates_on_immediate_recovery() {
    // Wmax = 8. Slow start to W = 4 (0 ACKed at 0.1; 1 and 2 at 0.2; 3 to 6 sent), then 3 is lost.
    let mut s = sender(8);
    s.poll_transmit(0.0);
    s.on_ack(0.1, 1); // W = 2
    assert_eq!(s.poll_transmit(0.1).unwrap().seq, 1);
    assert_eq!(s.poll_transmit(0.1).unwrap().seq, 2);
    s.on_ack(0.2, 2); // W = 3
    s.on_ack(0.2, 3); // W = 4
    let sent: Vec<u64> = std::iter::from_fn(|| s.poll_transmit(0.2).map(|x| x.seq)).collect();
    assert_eq!(sent, vec![3, 4, 5, 6]); // una = 3, W = 4
    // 3 lost: 4, 5, 6 give three duplicate ACKs; the third starts a cycle (no fast retransmit).
    s.on_ack(0.3, 3);
    s.on_ack(0.3, 3);
    assert!(!s.in_probe_cycle());
    s.on_ack(0.3, 3);
    assert!(s.in_probe_cycle());
    assert_eq!((s.cwnd(), s.ssthresh(), s.counters().fast_retransmits), (4.0, 8.0, 0));
    assert_eq!(s.poll_probe(0.3).unwrap().kind, ProbeKind::Probe1);
    // A fourth duplicate ACK during the cycle is counted; then 3 turns out to have been late, not lost:
    // its ACK (7) moves the window (slow start: W = 5), but no data leaves before the cycle ends.
    s.on_ack(0.31, 3);
    s.on_ack(0.32, 7);
    assert_eq!((s.una(), s.cwnd()), (7, 5.0));
    assert!(s.poll_transmit(0.32).is_none() && !s.can_send());
    assert!(s.timer_deadline().is_none()); // the probe timer governs during a cycle
    s.on_probe_ack(0.33, probe(ProbeKind::Pr1Ack, 1));
    s.poll_probe(0.33);
    let m = s.on_probe_ack(0.34, probe(ProbeKind::Pr2Ack, 1)).unwrap();
    assert_eq!((m.trigger, m.dupacks), (ProbeTrigger::DuplicateAcks, 4));
    s.end_probe_cycle(ProbeOutcome::ImmediateRecovery);
    // Immediate Recovery inflates W by the 4 duplicate ACKs counted: W = 9, capped by Wmax = 8. Nothing
    // is outstanding, so nothing is sent again: new data from 7.
    assert_eq!((s.cwnd(), s.ssthresh()), (8.0, 8.0));
    let sent: Vec<_> = std::iter::from_fn(|| s.poll_transmit(0.34)).collect();
    assert_eq!(sent.iter().map(|x| x.seq).collect::<Vec<_>>(), (7..15).collect::<Vec<_>>());
    assert!(sent.iter().all(|x| !x.retransmission));
}

#[test]
fn timeout_cycle_ignores_duplicate_acks() {
    let mut s = after_first_round_trip(4);
    s.on_timeout(0.4);
    for t in [0.41, 0.42, 0.43, 0.44] {
        s.on_ack(t, 1); // duplicate ACKs (2 arrived late, say): ignored
    }
    s.poll_probe(0.4);
    s.on_probe_ack(0.45, probe(ProbeKind::Pr1Ack, 1));
    s.poll_probe(0.45);
    let m = s.on_probe_ack(0.46, probe(ProbeKind::Pr2Ack, 1)).unwrap();
    assert_eq!(m.dupacks, 0);
    s.end_probe_cycle(ProbeOutcome::ImmediateRecovery);
    assert_eq!(s.cwnd(), 2.0); // not inflated
    assert_eq!(s.probe_counters().cycles_after_dupacks, 0);
}

/// One timeout cycle on a sender in state `after_first_round_trip` (data sample 0.1 s; 1 and 2 outstanding):
/// PROBE1 at `t`, PR1_ACK after `rtt1`, PROBE2 at once, PR2_ACK after `rtt2`. Returns the measurement and
/// the time the cycle ended.
fn cycle(s: &mut Sender, t: f64, rtt1: f64, rtt2: f64) -> (tcpfade_core::tcp::ProbeMeasurement, f64) {
    s.on_timeout(t);
    let id = s.poll_probe(t).unwrap().id;
    assert!(s.on_probe_ack(t + rtt1, probe(ProbeKind::Pr1Ack, id)).is_none());
    assert_eq!(s.poll_probe(t + rtt1).unwrap().kind, ProbeKind::Probe2);
    let end = t + rtt1 + rtt2;
    (s.on_probe_ack(end, probe(ProbeKind::Pr2Ack, id)).unwrap(), end)
}

#[test]
fn probe_rtts_below_the_best_earlier_rtt_are_decided_by_each_reading() {
    // The only sample before the first cycle is segment 0's data RTT, 0.1 s (no SYN here); SRTT = last RTT =
    // 0.1. Cycle 1's header-only probes come back in 0.02 and 0.03 s, below that data sample.
    //   data:    best 0.1 (segment 0)           -> 0.02 < 0.1: Slow Start
    //   earlier: best 0.1 (the same sample)     -> Slow Start
    //   probes:  best 0 (no earlier cycle)      -> both in [0, 0.1]: Immediate Recovery
    // Had the cycle's own probes counted, best RTT would be 0.02 and every reading would pass: the rule could
    // not fail (the bug BRIEF D12 removes).
    // Cycle 2 (started by the next timeout; its probes 0.025 and 0.03 s) has cycle 1's 0.02 s among earlier probes:
    //   data:    best 0.1                       -> Slow Start again
    //   earlier: best min(0.1, 0.02) = 0.02     -> both in [0.02, last RTT]: Immediate Recovery
    //   probes:  best 0.02                      -> Immediate Recovery
    // Last RTT stays 0.1 (probes do not enter SRTT and no data sample is taken in between: Karn).
    for (reading, first, second) in [
        (BestRtt::Data, (0.1, false), (0.1, false)),
        (BestRtt::Earlier, (0.1, false), (0.02, true)),
        (BestRtt::Probes, (0.0, true), (0.02, true)),
    ] {
        let mut s = after_first_round_trip_with(4, reading);
        let (m, end) = cycle(&mut s, 0.4, 0.02, 0.03);
        assert!((m.best_rtt - first.0).abs() < 1e-12 && (m.last_rtt - 0.1).abs() < 1e-12, "{reading:?}: {m:?}");
        let ir = RttRange::default().immediate_recovery(&m).unwrap();
        assert_eq!(ir, first.1, "{reading:?}, cycle 1");
        s.end_probe_cycle(if ir { ProbeOutcome::ImmediateRecovery } else { ProbeOutcome::SlowStart });
        assert_eq!(s.poll_transmit(end).unwrap().seq, 1); // 1 again, either way
        let deadline = s.timer_deadline().unwrap();
        let (m, _) = cycle(&mut s, deadline, 0.025, 0.03);
        assert!((m.best_rtt - second.0).abs() < 1e-12 && (m.last_rtt - 0.1).abs() < 1e-12, "{reading:?}: {m:?}");
        assert_eq!(RttRange::default().immediate_recovery(&m).unwrap(), second.1, "{reading:?}, cycle 2");
    }
}
