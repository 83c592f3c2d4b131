//! A SACK sender against a lying or buggy receiver: ACKs whose cumulative ACK lies anywhere (below SND.UNA, at it,
//! inside the flight, at or beyond the highest sent) with up to four arbitrary SACK blocks (reversed, empty, beyond the
//! highest sent, below SND.UNA, overlapping, reported once and then no more), and timeouts at the timer's deadline.
//! Whatever comes, the sender must not panic (the test profile keeps overflow checks and debug assertions on), its
//! pipe must stay within what it has outstanding, its cwnd finite, and it must never be wedged: with data outstanding
//! a timer runs. A second property runs the one-step ACK (`on_sack_ack_then_send`) against the general path on the same lies.
//! The hand-worked cases first: each states the rule (docs/models.md, "Impossible SACK information").

mod common;

use common::{drain, sack_ack as ack};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use tcpfade_core::tcp::{AckStep, RackTimers, Rfc6298, Sender, SenderConfig, Variant};

// -- hand-worked cases --

/// A sender with an initial window of 10 (all sent at t = 0), K = 3, Wmax = 64, a fixed RTO of 100, RACK-TLP or not.
fn scripted(variant: Variant, rack: bool) -> Sender {
    let cfg = SenderConfig::new(variant, 64, 3, 100.0, 1000.0).unwrap().with_initial_window(10).unwrap()
        .with_sack(true).unwrap().with_rack(rack).unwrap();
    let mut s = Sender::new(cfg);
    assert_eq!(drain(&mut s, 0.0), (0..10).collect::<Vec<_>>());
    s
}

/// (SND.UNA, pipe, cwnd, in recovery).
fn state(s: &Sender) -> (u64, Option<u64>, f64, bool) {
    (s.una(), s.pipe(), s.cwnd(), s.in_recovery())
}

#[test]
fn an_ack_of_data_never_sent_is_dropped_and_a_block_reaching_past_it_is_ignored_whole() {
    for rack in [false, true] {
        let mut s = scripted(Variant::NewReno, rack);
        // 0-9 out (the highest sent is 9). A block [8, 12) names 10 and 11, never sent: not taken, not even its 8 and 9
        // (before, it was cut to [8, 10), and 8, 9 counted SACKed: pipe 8).
        assert_eq!(ack(&mut s, 1.0, 0, &[(8, 12)]), [] as [u64; 0]);
        assert_eq!(state(&s), (0, Some(10), 10.0, false), "rack {rack}");
        assert!(!s.is_sacked(8) && !s.is_sacked(9));
        assert_eq!(ack(&mut s, 1.01, 0, &[(12, 14)]), [] as [u64; 0]);
        assert_eq!(state(&s), (0, Some(10), 10.0, false));
        // An ACK of 11 acknowledges what was never sent: dropped whole, its block too (before, SND.UNA moved past the
        // highest sent and pipe's (high − una) went below zero).
        assert_eq!(ack(&mut s, 1.02, 11, &[(1, 2)]), [] as [u64; 0]);
        assert_eq!(state(&s), (0, Some(10), 10.0, false));
        assert!(!s.is_sacked(1));
        // A block within the flight is taken: 1 SACKed, pipe 10 − 1 = 9, the window (0 + 10) sends nothing.
        assert_eq!(ack(&mut s, 1.03, 0, &[(1, 2)]), [] as [u64; 0]);
        assert_eq!(state(&s), (0, Some(9), 10.0, false));
        assert!(s.is_sacked(1));
    }
}

#[test]
fn a_cumulative_ack_of_data_never_sent_is_dropped_without_sack_too() {
    for variant in [Variant::Reno, Variant::NewReno, Variant::Cubic] {
        let cfg = SenderConfig::new(variant, 64, 3, 100.0, 1000.0).unwrap().with_initial_window(4).unwrap();
        let mut s = Sender::new(cfg);
        assert_eq!(drain(&mut s, 0.0), [0, 1, 2, 3]);
        // 0-3 out (the highest sent is 3, SND.NXT 4). An ACK of 9 names 4-8, never sent: dropped (before, SND.UNA went
        // to 9 and the sender went on from 9, 4-8 never sent).
        s.on_ack(1.0, 9);
        assert_eq!((s.una(), s.cwnd()), (0, 4.0), "{variant:?}");
        assert_eq!(drain(&mut s, 1.0), [] as [u64; 0]);
        // The honest ACK of 2 after it: slow start, cwnd 5, and 4-6 go (2 + 5 = 7).
        s.on_ack(1.1, 2);
        assert_eq!((s.una(), s.cwnd()), (2, 5.0), "{variant:?}");
        assert_eq!(drain(&mut s, 1.1), [4, 5, 6]);
    }
}

#[test]
fn a_stale_acks_block_reaching_snd_una_is_ignored_and_its_other_blocks_taken() {
    for rack in [false, true] {
        let mut s = scripted(Variant::NewReno, rack);
        // The ACK of 3: slow start, cwnd 11, 10-13 go (3 + 11 = 14).
        assert_eq!(ack(&mut s, 1.0, 3, &[]), [10, 11, 12, 13]);
        // A stale ACK of 1 (reordered on the way back) with [2, 6) and [7, 8): the first says the receiver holds 3,
        // SND.UNA, which the ACK of 3 said it lacks: ignored whole (before, cut to [3, 6): SND.UNA itself SACKed).
        // [7, 8) is above SND.UNA and within the flight: taken. pipe = 11 outstanding − 1 SACKed = 10; no loss (one
        // SACKed, short of K; with RACK, 3-6 were sent at 0 and wait RACK.rtt + reo_wnd), nothing sent.
        assert_eq!(ack(&mut s, 1.01, 1, &[(2, 6), (7, 8)]), [] as [u64; 0]);
        assert_eq!(state(&s), (3, Some(10), 11.0, false), "rack {rack}");
        assert_eq!((3..8).map(|q| s.is_sacked(q)).collect::<Vec<_>>(), [false, false, false, false, true]);
        if let Some(r) = s.rack() {
            assert_eq!((r.lost, r.end_seq), (0, 8)); // RACK.segment is 7, the one SACKed
        }
    }
}

#[test]
fn a_reneged_block_stays_sacked_until_a_timeout_finds_snd_una_sacked() {
    let mut s = scripted(Variant::NewReno, false);
    // 2-4 SACKed: 3 SACKed above 0, so IsLost(0) (and 1): recovery at once. ssthresh = cwnd = ⌈10/2⌉ = 5; pipe = 10 −
    // 3 SACKed − 2 lost = 5, and the entry retransmission of 0 goes whatever the window: 6.
    assert_eq!(ack(&mut s, 1.0, 0, &[(2, 5)]), [0]);
    assert_eq!(state(&s), (0, Some(6), 5.0, true));
    // The next ACK reports [6, 7) alone: 2-4 are no longer reported, and stay SACKed (RFC 2018 §8: only the cumulative
    // ACK releases them). 4 SACKed (2, 3, 4, 6); the 3rd highest is 3, so 0 and 1 lost; 0 retransmitted: pipe = 10 −
    // 4 − 2 + 1 = 5 = cwnd: nothing sent.
    assert_eq!(ack(&mut s, 1.01, 0, &[(6, 7)]), [] as [u64; 0]);
    assert_eq!(state(&s), (0, Some(5), 5.0, true));
    assert!((2..5).all(|q| s.is_sacked(q)) && s.is_sacked(6));
    // The cumulative ACK stops at 3, which the receiver had SACKed: it reneged. 3, 4, 6 stay SACKed (nothing lost:
    // the 3rd highest SACKed is 3 = SND.UNA); pipe = 7 − 3 = 4 < 5: rule (2) sends 10.
    assert_eq!(ack(&mut s, 1.02, 3, &[]), [10]);
    assert_eq!(state(&s), (3, Some(5), 5.0, true));
    assert!(s.is_sacked(3));
    // The timer (restarted by the ACK of 3) fires at 101.02 with SND.UNA's segment SACKed: every mark goes (RFC 2018
    // §5.1). ssthresh = ⌈5/2⌉ = 3, cwnd 1, every segment in [3, 11) lost: pipe 0, and 3 goes again.
    assert_eq!(s.timer_deadline(), Some(101.02));
    s.on_timeout(101.02);
    assert!((3..11).all(|q| !s.is_sacked(q)));
    assert_eq!((s.ssthresh(), s.cwnd(), s.pipe()), (3.0, 1.0, Some(0)));
    assert_eq!(drain(&mut s, 101.02), [3]);
    // 3 arrives: slow start, cwnd 2; pipe = 7 outstanding − 7 lost = 0; the holes from 4 in order: 4 and 5 (before,
    // with the marks kept: 5 and 7, and 4 and 6 waited for timeouts of their own).
    assert_eq!(ack(&mut s, 101.5, 4, &[]), [4, 5]);
    assert_eq!(state(&s), (4, Some(2), 2.0, false));
}

#[test]
fn reversed_empty_and_overlapping_blocks_count_each_segment_once() {
    let mut s = scripted(Variant::NewReno, true);
    // [4, 7) and [2, 6) overlap; [9, 8) is reversed. Taken: 2-6, each delivered once for RACK (before, 4 and 5 were
    // delivered twice, the second time below RACK.fack: "reordering", and a reordering window of min_RTT / 4 that held
    // the loss below back). RACK.segment is 6, sent at 0 as 0 and 1, which were sent before it (same time, lower
    // sequence): with no reordering seen and 5 SACKed (>= K), reo_wnd = 0, and 0, 1 are lost at once (RFC 8985 §6.2).
    // Recovery: ssthresh = cwnd = 5; pipe = 10 − 5 SACKed − 2 lost = 3; the entry retransmission (0), then rule (1)
    // sends 1: pipe 5.
    assert_eq!(ack(&mut s, 1.0, 0, &[(4, 7), (2, 6), (9, 8)]), [0, 1]);
    assert_eq!(state(&s), (0, Some(5), 5.0, true));
    assert!((2..7).all(|q| s.is_sacked(q)) && !s.is_sacked(8) && !s.is_sacked(9));
    let r = s.rack().unwrap();
    assert_eq!((r.reordering_seen, r.reo_wnd, r.lost), (false, 0.0, 2));
    // An empty block and one reversed: nothing taken; not a duplicate ACK (nothing newly SACKed).
    assert_eq!(ack(&mut s, 1.01, 0, &[(7, 7), (9, 7)]), [] as [u64; 0]);
    assert_eq!(state(&s), (0, Some(5), 5.0, true));
}

// -- the property tests --

/// One end of an ACK field, placed relative to the sender's state when the ACK arrives.
#[derive(Debug, Clone, Copy)]
enum Edge {
    /// SND.UNA − k (saturating at 0).
    Below(u64),
    /// SND.UNA.
    AtUna,
    /// SND.UNA + (highest sent − SND.UNA) · k / 256.
    Inside(u8),
    /// The highest sent + 1.
    AtHigh,
    /// The highest sent + 1 + k.
    Above(u64),
    /// A raw value, anywhere.
    Raw(u64),
}

impl Edge {
    fn at(self, una: u64, high: u64) -> u64 {
        match self {
            Edge::Below(k) => una.saturating_sub(k),
            Edge::AtUna => una,
            Edge::Inside(k) => una + (high - una) * u64::from(k) / 256,
            Edge::AtHigh => high,
            Edge::Above(k) => high.saturating_add(k),
            Edge::Raw(v) => v,
        }
    }
}

fn edges() -> impl Strategy<Value = Edge> {
    prop_oneof![
        2 => (1u64..20).prop_map(Edge::Below),
        2 => Just(Edge::AtUna),
        8 => any::<u8>().prop_map(Edge::Inside),
        2 => Just(Edge::AtHigh),
        1 => (1u64..20).prop_map(Edge::Above),
        1 => any::<u64>().prop_map(Edge::Raw),
    ]
}

#[derive(Debug, Clone)]
enum Event {
    /// `poll_transmit` until it returns None.
    Poll,
    /// An ACK of `cum` with `blocks`, `dt` after the last event (not followed by polls).
    Ack { dt: f64, cum: Edge, blocks: Vec<(Edge, Edge)> },
    /// The timer (RTO or one of RACK-TLP's) fires at its deadline.
    Timeout,
}

fn events() -> impl Strategy<Value = Event> {
    prop_oneof![
        3 => Just(Event::Poll),
        8 => (0.0..0.3f64, edges(), prop::collection::vec((edges(), edges()), 0..=4))
            .prop_map(|(dt, cum, blocks)| Event::Ack { dt, cum, blocks }),
        1 => Just(Event::Timeout),
    ]
}

#[derive(Debug, Clone)]
struct Case {
    variant: Variant,
    prr: bool,
    rack: bool,
    linux_timers: bool,
    frto: bool,
    limited_transmit: bool,
    wmax: u64,
    segments: Option<u64>,
}

fn cases() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(Variant::Reno), Just(Variant::NewReno), Just(Variant::Cubic)],
        any::<(bool, bool, bool, bool, bool)>(),
        prop_oneof![Just(8u64), Just(40), Just(100)],
        prop_oneof![Just(None), (5u64..400).prop_map(Some)],
    )
        .prop_map(|(variant, (prr, rack, linux_timers, frto, limited_transmit), wmax, segments)| Case {
            variant,
            prr,
            rack,
            linux_timers,
            frto,
            limited_transmit,
            wmax,
            segments,
        })
}

fn sender(c: &Case) -> Sender {
    let mut cfg = SenderConfig::new(c.variant, c.wmax, 3, 1.0, 1e9).unwrap()
        .with_rfc6298(Rfc6298::rfc()).unwrap()
        .with_initial_window(10).unwrap()
        .with_sack(true).unwrap()
        .with_limited_transmit(c.limited_transmit).unwrap()
        .with_prr(c.prr).unwrap()
        .with_rack(c.rack).unwrap()
        .with_rack_timers(if c.linux_timers { RackTimers::Linux } else { RackTimers::Rfc8985 })
        .with_frto(c.frto).unwrap()
        .with_timestamps(true);
    if let Some(n) = c.segments {
        cfg = cfg.with_segments(n).unwrap();
    }
    Sender::new(cfg)
}

/// The ACK `cum`, `blocks` against the sender's state now.
fn resolve(s: &Sender, cum: Edge, blocks: &[(Edge, Edge)]) -> (u64, Vec<(u64, u64)>) {
    let (una, high) = (s.una(), s.high());
    (cum.at(una, high), blocks.iter().map(|&(l, r)| (l.at(una, high), r.at(una, high))).collect())
}

/// What must hold after every event: the sender's numbers sane. `polled`: the event left nothing to send, so a sender
/// with data outstanding must have a timer to wake it (else it is wedged), and one with none must be done.
fn sane(s: &Sender, polled: bool, what: &str) -> Result<(), TestCaseError> {
    let (una, high) = (s.una(), s.high());
    prop_assert!(una <= high, "{}: SND.UNA {} beyond the highest sent {}", what, una, high);
    prop_assert!(high - una <= s.config().wmax, "{}: {} outstanding beyond the window", what, high - una);
    let pipe = s.pipe().expect("a SACK sender");
    // Each outstanding segment counts at most twice (the original and a retransmission in flight).
    prop_assert!(pipe <= 2 * (high - una), "{}: pipe {} with [{}, {}) outstanding", what, pipe, una, high);
    prop_assert!(s.cwnd().is_finite() && s.cwnd() >= 0.0, "{}: cwnd {}", what, s.cwnd());
    prop_assert!(s.ssthresh().is_finite() && s.ssthresh() > 0.0, "{}: ssthresh {}", what, s.ssthresh());
    if let Some(rack) = s.rack() {
        prop_assert!(rack.lost <= high - una, "{}: RACK counts {} lost", what, rack.lost);
    }
    if polled {
        prop_assert!(una < high || s.is_done(), "{}: nothing outstanding and nothing sent", what);
        prop_assert!(una == high || s.timer_deadline().is_some(), "{}: [{}, {}) outstanding, no timer", what, una,
                     high);
    }
    Ok(())
}

/// The sender through `events`, checked after each.
fn survive(c: &Case, events: &[Event]) -> Result<(), TestCaseError> {
    let mut s = sender(c);
    let mut now = 0.0;
    drain(&mut s, now);
    sane(&s, true, "start")?;
    for (i, e) in events.iter().enumerate() {
        let polled = match e {
            Event::Poll => {
                let sent = drain(&mut s, now);
                prop_assert!(sent.len() as u64 <= 2 * c.wmax + 2, "event {}: {} sent at once", i, sent.len());
                true
            }
            Event::Ack { dt, cum, blocks } => {
                now += dt;
                let (cum, blocks) = resolve(&s, *cum, blocks);
                s.on_sack_ack(now, cum, &blocks);
                false
            }
            Event::Timeout => {
                if let Some(t) = s.timer_deadline() {
                    now = f64::max(now, t);
                    s.on_timeout(now);
                }
                false
            }
        };
        sane(&s, polled, &format!("event {i} ({e:?}) at {now}"))?;
    }
    Ok(())
}

/// The one-step ACK (then the polls if it leaves them) against the general path, on the same lies: the same segments
/// sent and the same state after every event, field for field.
fn one_step_agrees(c: &Case, events: &[Event]) -> Result<(), TestCaseError> {
    let (mut quick, mut general) = (sender(c), sender(c));
    let mut now = 0.0;
    prop_assert_eq!(drain(&mut quick, now), drain(&mut general, now));
    for (i, e) in events.iter().enumerate() {
        let (a, b) = match e {
            Event::Poll => continue,
            Event::Ack { dt, cum, blocks } => {
                now += dt;
                let (cum, blocks) = resolve(&general, *cum, blocks);
                let a = match quick.on_sack_ack_then_send(now, cum, &blocks) {
                    Some(AckStep::Sent(range)) => range.collect(),
                    Some(AckStep::Poll) => drain(&mut quick, now),
                    None => ack(&mut quick, now, cum, &blocks),
                };
                (a, ack(&mut general, now, cum, &blocks))
            }
            Event::Timeout => {
                let Some(t) = general.timer_deadline() else { continue };
                now = f64::max(now, t);
                quick.on_timeout(now);
                general.on_timeout(now);
                (drain(&mut quick, now), drain(&mut general, now))
            }
        };
        prop_assert_eq!(a, b, "event {} ({:?}): sent", i, e);
        prop_assert_eq!(format!("{quick:?}"), format!("{general:?}"), "event {} ({:?}): state", i, e);
        sane(&general, true, &format!("event {i} ({e:?}) at {now}"))?;
    }
    Ok(())
}

proptest! {
    // A fixed seed: the same 400 cases each run, about a second at the test profile's opt-level 1.
    #![proptest_config(ProptestConfig { cases: 400, rng_seed: RngSeed::Fixed(0x6c79_696e_67), failure_persistence: None,
                                        ..ProptestConfig::default() })]

    #[test]
    fn a_sack_sender_survives_any_ack(c in cases(), events in prop::collection::vec(events(), 1..120)) {
        survive(&c, &events)?;
    }

    #[test]
    fn the_one_step_ack_takes_a_lie_as_the_general_path_does(c in cases(),
                                                              events in prop::collection::vec(events(), 1..80)) {
        one_step_agrees(&c, &events)?;
    }
}

// -- a misbehaving caller (the drivers compute every time and sample themselves; a caller of the Rust API may not) --

#[test]
fn an_rtt_sample_that_is_not_a_time_is_ignored() {
    for (variant, linux) in [(Variant::NewReno, false), (Variant::Cubic, false), (Variant::Cubic, true)] {
        let cfg = SenderConfig::new(variant, 64, 3, 1.0, 1000.0).unwrap().with_initial_window(2).unwrap();
        let cfg = if linux { cfg.with_linux_rto(Rfc6298::ns2()) } else { cfg.with_rfc6298(Rfc6298::ns2()) }.unwrap();
        let mut s = Sender::new(cfg);
        // Before the fix NaN made the RTO NaN (a deadline never due: the sender wedged), −1 s made Linux's RTO 0.
        for rtt in [f64::NAN, -1.0, f64::INFINITY, f64::NEG_INFINITY] {
            s.on_rtt_sample(rtt);
        }
        assert_eq!((s.rto_estimator().srtt(), s.rto_estimator().sample_totals().0), (None, 0), "{variant:?}");
        // The clock going backwards: 0 and 1 sent at t = 100, the ACK of 1 "at" t = 5 gives no sample either.
        assert_eq!(drain(&mut s, 100.0), [0, 1]);
        s.on_ack(5.0, 1);
        assert_eq!(s.rto_estimator().srtt(), None, "{variant:?}");
        let deadline = s.timer_deadline().expect("1 is outstanding: a timer runs");
        assert!(deadline.is_finite() && deadline > 5.0, "{variant:?}: {deadline}");
        assert!(s.cwnd().is_finite());
        // A real sample after them is taken: 2 (sent at 100, when the ACK of 1 allowed it, and timed) ACKed at 100.25.
        assert_eq!(drain(&mut s, 100.0).first(), Some(&2));
        s.on_ack(100.25, 3);
        assert_eq!(s.rto_estimator().srtt(), Some(0.25), "{variant:?}");
    }
}

#[test]
fn a_probe_cycle_is_ended_only_at_its_decision() {
    use tcpfade_core::tcp::ProbeOutcome;
    let cfg = SenderConfig::new(Variant::Probing, 64, 3, 1.0, 1000.0).unwrap().with_rfc6298(Rfc6298::ns2()).unwrap();
    let mut s = Sender::new(cfg);
    assert!(!drain(&mut s, 0.0).is_empty());
    // The timer expires: a probe cycle begins, its first probe not even sent.
    let deadline = s.timer_deadline().unwrap();
    s.on_timeout(deadline);
    assert!(s.in_probe_cycle());
    let before = (s.probe_counters(), s.cwnd(), s.ssthresh());
    // Ending it now (before the fix, a debug assertion failed; in release the cycle ended with no measurement) does
    // nothing.
    s.end_probe_cycle(ProbeOutcome::SlowStart);
    assert!(s.in_probe_cycle());
    assert_eq!((s.probe_counters(), s.cwnd(), s.ssthresh()), before);
    // A probe polled at a time that is not one is not sent (before, its timer was NaN and the cycle never timed out);
    // at a time, it is, and its timer is due later.
    assert!(s.poll_probe(f64::NAN).is_none());
    assert!(s.poll_probe(deadline).is_some());
    assert!(s.probe_deadline().is_some_and(|t| t.is_finite() && t > deadline));
}

#[test]
fn a_stray_timeout_is_no_expiry() {
    for variant in [Variant::OldTahoe, Variant::Tahoe, Variant::Reno, Variant::NewReno, Variant::Cubic, Variant::Probing] {
        let cfg = SenderConfig::new(variant, 64, 3, 1.0, 1000.0).unwrap().with_rfc6298(Rfc6298::ns2()).unwrap();
        let mut s = Sender::new(cfg);
        // Nothing sent, no timer: before the fix a timeout was counted, ssthresh fell from 1000 to 2 (CUBIC 2.8) and
        // W to 1, with no loss at all (Probing began a probe cycle with nothing outstanding).
        s.on_timeout(0.5);
        assert_eq!((s.counters().timeouts, s.cwnd(), s.ssthresh()), (0, 1.0, 1000.0), "{variant:?}");
        assert!(!s.in_probe_cycle());
        // 0 sent at t = 0: a timer runs; a call before its deadline, or with NaN, is no expiry either; at it, it is.
        assert_eq!(drain(&mut s, 0.0), [0]);
        let deadline = s.timer_deadline().expect("0 is outstanding");
        s.on_timeout(deadline / 2.0);
        s.on_timeout(f64::NAN);
        assert_eq!(s.counters().timeouts, 0, "{variant:?}");
        s.on_timeout(deadline);
        assert_eq!(s.counters().timeouts, 1, "{variant:?}");
    }
}
