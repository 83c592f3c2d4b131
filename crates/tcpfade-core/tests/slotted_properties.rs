//! Invariants of the slotted simulator on random channels and parameters (proptest).

use proptest::prelude::*;
use std::collections::HashSet;
use tcpfade_core::channel::SlotChannelSpec;
use tcpfade_core::driver::{run_slotted, SlottedConfig, SlottedOutcome};
use tcpfade_core::tcp::{SenderConfig, Variant};

fn simulate(spec: &SlotChannelSpec, cfg: &SlottedConfig, seed: u64) -> SlottedOutcome {
    let mut channel = spec.build(seed).unwrap();
    run_slotted(cfg, channel.as_mut(), seed).unwrap()
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::OldTahoe), Just(Variant::Tahoe), Just(Variant::Reno), Just(Variant::NewReno)]
}

prop_compose! {
    fn setup()(variant in variant(), p in 0.5f64..1.0, q in 0.0f64..0.99, wmax in 1u64..30, k in 1u64..5,
               t0 in 1u64..60, ssthresh in 1u64..40, ack_delay in 0u64..3, lossy_acks in any::<bool>(),
               seed in any::<u64>())
        -> (SlotChannelSpec, SlottedConfig, u64) {
        let spec = SlotChannelSpec::GilbertElliott { p, q, loss_good: 0.0, loss_bad: 1.0 };
        let cfg = SlottedConfig {
            sender: SenderConfig::new(variant, wmax, k, t0 as f64, ssthresh as f64).unwrap(),
            slots: 3000,
            ack_loss: if lossy_acks { 0.05 } else { 0.0 },
            ack_delay,
            batches: 3,
            trace_slots: 3000,
        };
        (spec, cfg, seed)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn invariants_hold((spec, cfg, seed) in setup()) {
        let out = simulate(&spec, &cfg, seed);
        let t = &out.totals;
        let mut received = HashSet::new();
        let mut good_slots = 0u64;
        for r in &out.trace {
            good_slots += u64::from(!r.lost);
            if let Some(seq) = r.seq {
                // Sent only inside [una, una + min(floor(W), Wmax)).
                let window = (r.cwnd.floor() as u64).min(cfg.sender.wmax);
                prop_assert!(seq >= r.una && seq < r.una + window, "slot {}: seq {} una {} W {}", r.slot, seq, r.una, r.cwnd);
                if !r.lost {
                    received.insert(seq);
                }
            }
        }
        // Delivered exactly once and in order: the longest prefix 0..n all received correctly.
        let prefix = (0..).take_while(|s| received.contains(s)).count() as u64;
        prop_assert_eq!(t.delivered, prefix);
        prop_assert!(t.delivered <= t.successes && t.successes <= good_slots);
        prop_assert!(t.transmissions >= t.delivered);
        prop_assert_eq!(t.successes + t.losses, t.transmissions);
        // Batches add up to the totals.
        let sum: u64 = out.batches.iter().map(|b| b.delivered).sum();
        prop_assert_eq!(sum, t.delivered);
        prop_assert_eq!(out.batches.iter().map(|b| b.slots).sum::<u64>(), cfg.slots);
    }

    #[test]
    fn same_seed_same_result((spec, cfg, seed) in setup()) {
        prop_assert_eq!(simulate(&spec, &cfg, seed), simulate(&spec, &cfg, seed));
    }

    /// The fast path through error-free stretches is an exact shortcut: with the per-slot trace off
    /// (fast path on) the totals equal those of the slot-by-slot run.
    #[test]
    fn fast_path_is_exact((spec, cfg, seed) in setup()) {
        let fast = SlottedConfig { ack_delay: 0, ack_loss: 0.0, trace_slots: 0, ..cfg };
        let slow = SlottedConfig { trace_slots: cfg.slots, ..fast };
        let a = simulate(&spec, &fast, seed);
        let b = simulate(&spec, &slow, seed);
        prop_assert_eq!(a.totals, b.totals);
        prop_assert_eq!(a.batches, b.batches);
    }
}
