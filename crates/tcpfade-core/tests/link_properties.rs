//! Properties of the event-driven link driver over random senders and channels: whatever the parts, a bulk sender
//! always has a next event (a packet on the link, an ACK, a timer), so a run never stalls; the driver reports a
//! stall as an error (`run_link`), which these cases must never meet.

use proptest::prelude::*;
use tcpfade_core::channel::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_link, LinkConfig};
use tcpfade_core::tcp::{Rfc6298, SenderConfig, Variant};

#[derive(Debug, Clone)]
struct Case {
    variant: Variant,
    sack: bool,
    prr: bool,
    rack: bool,
    limited_transmit: bool,
    initial_window: u64,
    min_rto: f64,
    linux_rto: bool,
    rate: f64,
    tau: f64,
    buffer: u64,
    delayed_ack: Option<f64>,
    mean_good: f64,
    mean_bad: f64,
    seed: u64,
}

fn cases() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(Variant::Reno), Just(Variant::NewReno), Just(Variant::Cubic)],
        any::<(bool, bool, bool, bool)>(),
        1u64..=10,
        prop_oneof![Just(0.02), Just(0.2), Just(1.0)],
        any::<bool>(),
        (10.0..2000.0f64, 0.001..0.3f64, 0u64..=50),
        prop_oneof![Just(None), Just(Some(0.04)), Just(Some(0.2))],
        (0.05..5.0f64, 0.001..1.0f64, any::<u64>()),
    )
        .prop_map(|(variant, (sack, prr, rack, lt), iw, min_rto, linux_rto, (rate, tau, buffer), delayed_ack,
                    (mean_good, mean_bad, seed))| Case {
            variant,
            sack,
            prr,
            rack: rack && sack,
            limited_transmit: lt,
            initial_window: iw,
            min_rto,
            linux_rto,
            rate,
            tau,
            buffer,
            delayed_ack,
            mean_good,
            mean_bad,
            seed,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_sender_wedges_the_link(c in cases()) {
        let timer = Rfc6298 { initial: 1.0, min: c.min_rto, max: 120.0, granularity: 0.001, max_backoff: 64 };
        let sender = SenderConfig::new(c.variant, 1 << 16, 3, 1.0, 1e9).unwrap();
        let sender = if c.linux_rto { sender.with_linux_rto(timer) } else { sender.with_rfc6298(timer) }.unwrap()
            .with_initial_window(c.initial_window).unwrap()
            .with_limited_transmit(c.limited_transmit).unwrap()
            .with_sack(c.sack).unwrap()
            .with_prr(c.prr).unwrap()
            .with_rack(c.rack).unwrap();
        // About 2·10⁴ packet times per case.
        let cfg = LinkConfig { sender, rate: c.rate, tau: c.tau, buffer: c.buffer, duration: 2e4 / c.rate,
                               warmup: 0.0, batches: 4, delayed_ack: c.delayed_ack };
        let channel = ContinuousTwoState::new(c.mean_good, c.mean_bad, ContinuousLossRule::AnyInstant([0.0, 1.0]),
                                              c.seed).unwrap();
        let outcome = run_link(&cfg, channel);
        prop_assert!(outcome.is_ok(), "{:?}", outcome.err());
        let t = outcome.unwrap().totals;
        prop_assert!(t.delivered <= t.new_received && t.new_received <= t.received);
    }
}
