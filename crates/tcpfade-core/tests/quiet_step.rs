//! `Sender::on_sack_ack_then_send` and `Sender::on_ack_then_send` (an ACK and the sends it allows in one step, the link
//! driver's steady state) against the general way of taking an ACK (`on_sack_ack` or `on_ack`, then `poll_transmit`
//! until it returns None): two senders built alike see the same ACKs and timeouts over a small network written here (a
//! link of one rate, a delay back, random and bursty losses, a receiver with or without SACK), one each way; after
//! every event they must have sent the same segments and be in the same state, field for field (their `Debug` forms).
//! Configurations cover the parts the quiet step touches or must refuse: go-back-N, Reno, NewReno and CUBIC, SACK or
//! not, PRR, RACK-TLP with both timer rules, F-RTO, limited transmit, HyStart++, timestamps' echoes, byte counting, IW,
//! finite transfers.

use proptest::prelude::*;
use std::collections::VecDeque;
use tcpfade_core::tcp::{AckStep, RackTimers, Receiver, Rfc6298, Sender, SenderConfig, Variant};

#[derive(Debug, Clone)]
struct Case {
    variant: Variant,
    sack: bool,
    limited_transmit: bool,
    prr: bool,
    rack: bool,
    linux_timers: bool,
    frto: bool,
    hystart: bool,
    byte_counting: bool,
    initial_window: u64,
    wmax: u64,
    segments: Option<u64>,
    rate: f64,
    delay: f64,
    loss: u32,
    burst: u32,
    seed: u64,
}

fn cases() -> impl Strategy<Value = Case> {
    (
        (prop_oneof![Just(Variant::Tahoe), Just(Variant::Reno), Just(Variant::NewReno), Just(Variant::Cubic)],
         any::<(bool, bool)>()),
        any::<(bool, bool, bool, bool, bool, bool)>(),
        (1u64..=10, prop_oneof![Just(8u64), Just(40), Just(200)], prop_oneof![Just(None), (50u64..3000).prop_map(Some)]),
        (50.0..5000.0f64, 0.0005..0.2f64),
        (0u32..60, 0u32..8, any::<u64>()),
    )
        .prop_map(|((variant, (sack, limited_transmit)), (prr, rack, linux_timers, frto, hystart, byte_counting),
                    (initial_window, wmax, segments), (rate, delay), (loss, burst, seed))| Case {
            variant,
            // Go-back-N has no fast recovery: no SACK, no F-RTO for it.
            sack: sack && variant != Variant::Tahoe,
            limited_transmit,
            prr,
            rack: rack && sack && variant != Variant::Tahoe,
            linux_timers,
            frto: frto && variant != Variant::Tahoe,
            hystart,
            byte_counting,
            initial_window,
            wmax,
            segments,
            rate,
            delay,
            loss,
            burst,
            seed,
        })
}

/// A small LCG, so that the network's losses do not depend on a library's generator.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

fn sender(c: &Case) -> Sender {
    let mut cfg = SenderConfig::new(c.variant, c.wmax, 3, 1.0, 1e9).unwrap()
        .with_rfc6298(Rfc6298::rfc()).unwrap()
        .with_initial_window(c.initial_window).unwrap()
        .with_sack(c.sack).unwrap()
        .with_limited_transmit(c.limited_transmit).unwrap()
        .with_prr(c.prr && c.variant != Variant::Tahoe).unwrap()
        .with_rack(c.rack).unwrap()
        .with_rack_timers(if c.linux_timers { RackTimers::Linux } else { RackTimers::Rfc8985 })
        .with_frto(c.frto).unwrap()
        .with_hystart(c.hystart)
        .with_timestamps(true)
        .with_byte_counting(c.byte_counting);
    if let Some(n) = c.segments {
        cfg = cfg.with_segments(n).unwrap();
    }
    Sender::new(cfg)
}

/// Everything the general sender sends now, in order.
fn poll_all(s: &mut Sender, now: f64) -> Vec<u64> {
    std::iter::from_fn(|| s.poll_transmit(now)).map(|seg| seg.seq).collect()
}

/// The two senders after one event: the same segments sent, the same state.
fn same(quick: &Sender, general: &Sender, sent: (&[u64], &[u64]), at: f64) -> Result<(), TestCaseError> {
    prop_assert_eq!(sent.0, sent.1, "segments sent at t = {}", at);
    prop_assert_eq!((quick.cwnd(), quick.ssthresh(), quick.una(), quick.high(), quick.pipe(), quick.rack()),
                    (general.cwnd(), general.ssthresh(), general.una(), general.high(), general.pipe(), general.rack()),
                    "state at t = {}", at);
    Ok(())
}

/// The two senders over the network of case `c`, compared after every event; returns how many ACKs the one-step call took,
/// and how many of those were a fast recovery's.
fn compare(c: &Case) -> Result<(u32, u32), TestCaseError> {
    let (mut quick, mut general) = (sender(c), sender(c));
    let mut receiver = Receiver::new(c.wmax).with_sack(c.sack);
    let mut rng = Lcg(c.seed);
    let service = 1.0 / c.rate;
    // Packets on the way: (arrival at the receiver, seq, the sender's clock at send); ACKs on the way back:
    // (arrival, cumulative ACK, blocks, echoed send time).
    let mut link: VecDeque<(f64, u64, f64)> = VecDeque::new();
    let mut acks: VecDeque<(f64, u64, Vec<(u64, u64)>, f64)> = VecDeque::new();
    let (mut link_free, mut burst_left, mut echo) = (0.0_f64, 0u32, 0.0_f64);
    let (mut took_quietly, mut took_in_recovery, mut events) = (0u32, 0u32, 0u32);
    let mut send = |segs: &[u64], now: f64, link: &mut VecDeque<(f64, u64, f64)>, rng: &mut Lcg| {
        for &seq in segs {
            link_free = link_free.max(now) + service;
            // A loss starts a burst of `burst` more.
            let lost = if burst_left > 0 { burst_left -= 1; true } else if rng.below(1000) < c.loss {
                burst_left = c.burst;
                true
            } else {
                false
            };
            if !lost {
                link.push_back((link_free, seq, now));
            }
        }
    };
    let first = poll_all(&mut general, 0.0);
    prop_assert_eq!(&first, &poll_all(&mut quick, 0.0));
    send(&first, 0.0, &mut link, &mut rng);
    let mut now = 0.0;
    for _ in 0..6_000 {
        let next_packet = link.front().map_or(f64::INFINITY, |p| p.0);
        let next_ack = acks.front().map_or(f64::INFINITY, |a| a.0);
        let timer = general.timer_deadline().unwrap_or(f64::INFINITY);
        prop_assert_eq!(quick.timer_deadline(), general.timer_deadline());
        now = next_packet.min(next_ack).min(timer);
        if !now.is_finite() || general.is_done() {
            break;
        }
        if next_packet == now {
            let (_, seq, sent_at) = link.pop_front().unwrap();
            if seq <= receiver.expected() {
                echo = sent_at; // TS.Recent (RFC 7323 §4.3), as the link driver keeps it
            }
            let ack = receiver.on_segment(seq);
            let blocks = receiver.sack_blocks().as_slice().to_vec();
            acks.push_back((now + c.delay, ack, blocks, echo));
            continue;
        }
        let sent = if next_ack == now {
            let (_, ack, blocks, echoed) = acks.pop_front().unwrap();
            quick.note_echo(Some(echoed));
            general.note_echo(Some(echoed));
            let step = if c.sack {
                quick.on_sack_ack_then_send(now, ack, &blocks)
            } else {
                quick.on_ack_then_send(now, ack).map(AckStep::Sent)
            };
            let in_recovery = quick.in_recovery();
            let quick_sent = match step {
                Some(AckStep::Sent(range)) => {
                    took_quietly += 1;
                    took_in_recovery += u32::from(in_recovery);
                    range.collect()
                }
                Some(AckStep::Poll) => {
                    took_in_recovery += 1;
                    poll_all(&mut quick, now)
                }
                None if c.sack => {
                    quick.on_sack_ack(now, ack, &blocks);
                    poll_all(&mut quick, now)
                }
                None => {
                    quick.on_ack(now, ack);
                    poll_all(&mut quick, now)
                }
            };
            if c.sack {
                general.on_sack_ack(now, ack, &blocks);
            } else {
                general.on_ack(now, ack);
            }
            (quick_sent, poll_all(&mut general, now))
        } else {
            quick.on_timeout(now);
            general.on_timeout(now);
            (poll_all(&mut quick, now), poll_all(&mut general, now))
        };
        same(&quick, &general, (&sent.0, &sent.1), now)?;
        // The whole state, field for field, now and then (its Debug form is long).
        events += 1;
        if events % 16 == 0 {
            prop_assert_eq!(format!("{quick:?}"), format!("{general:?}"), "state at t = {}", now);
        }
        send(&sent.1, now, &mut link, &mut rng);
    }
    // The comparison means something only if the quiet step was taken (a cumulative-ACK sender with F-RTO never
    // takes it: F-RTO notes every segment sent).
    let never = !c.sack && c.frto;
    prop_assert!(took_quietly > 0 || never || general.counters().transmissions < 3, "never taken by t = {}", now);
    prop_assert!(!never || took_quietly == 0);
    // The recovery step needs RACK.
    prop_assert!(c.rack || took_in_recovery == 0);
    Ok((took_quietly, took_in_recovery))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_quiet_step_is_the_ack_and_the_polls_it_replaces(c in cases()) {
        compare(&c)?;
    }
}

/// The recovery step is taken, often, where it applies: CUBIC or NewReno with SACK and RACK, PRR or not, over random
/// losses (and short bursts) on a link whose window holds several segments; each run compared event by event.
#[test]
fn the_recovery_step_is_the_ack_and_the_polls_it_replaces() {
    let mut in_recovery = 0;
    for (i, (variant, prr, frto, loss, burst)) in [(Variant::Cubic, true, false, 15, 0), (Variant::Cubic, false, true, 30, 1),
                                                   (Variant::NewReno, true, false, 20, 2), (Variant::Reno, false, false, 10, 0)]
        .into_iter().enumerate()
    {
        let c = Case { variant, sack: true, limited_transmit: false, prr, rack: true, linux_timers: i % 2 == 1, frto,
                       hystart: false, byte_counting: false, initial_window: 10, wmax: 200, segments: None, rate: 1000.0,
                       delay: 0.02, loss, burst, seed: 7 + i as u64 };
        let (_, taken) = compare(&c).unwrap_or_else(|e| panic!("case {c:?}: {e}"));
        assert!(taken >= 100, "case {c:?}: the recovery step taken {taken} times");
        in_recovery += taken;
    }
    assert!(in_recovery >= 800, "{in_recovery}");
}
