//! The event-driven driver: delivered packets per second of wall-clock time, on an ideal link and on
//! abouzeid's continuous-time channel. BRIEF §6: at least 15 M packets/s (100× ns-3). Run
//! `cargo bench -p tcpfade-core --features bench --bench link`; figures in the README.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_link, run_link_observed, LinkConfig, NoObserver, PerfectChannel};
use tcpfade_core::watch::Watch;
use tcpfade_core::tcp::{Rfc6298, SenderConfig, Variant};

fn config(variant: Variant, rate: f64, tau: f64, buffer: u64, duration: f64) -> LinkConfig {
    let sender = SenderConfig::new(variant, 1 << 16, 3, 1.0, 1e9).unwrap().with_rfc6298(Rfc6298::ns2()).unwrap();
    LinkConfig { sender, rate, tau, buffer, duration, warmup: 0.0, batches: 20, delayed_ack: None }
}

fn link(c: &mut Criterion) {
    let mut group = c.benchmark_group("link");
    group.sample_size(10);
    // BRIEF §6's ns-3 scenario in spirit: a 1.5 Mb/s link of 1024-byte packets (183 packets/s), 1 ms delay,
    // here run for 10^5 s so that one run is ~1.8·10^7 packets.
    for (name, variant, channel) in [
        ("ideal/newreno", Variant::NewReno, None),
        ("iid_like/newreno", Variant::NewReno, Some((0.5, 0.001))),
        ("ideal/cubic", Variant::Cubic, None),
        ("iid_like/cubic", Variant::Cubic, Some((0.5, 0.001))),
        ("table3_moderate/reno", Variant::Reno, Some((0.8, 0.2))),
    ] {
        let cfg = config(variant, 183.1, 0.002, 20, 1.0e5);
        let delivered = match channel {
            None => run_link(&cfg, PerfectChannel).unwrap().totals.delivered,
            Some((g, b)) => {
                let ch = ContinuousTwoState::new(g, b, ContinuousLossRule::AnyInstant([0.0, 1.0]), 1).unwrap();
                run_link(&cfg, ch).unwrap().totals.delivered
            }
        };
        group.throughput(Throughput::Elements(delivered));
        group.bench_function(name, |b| {
            b.iter(|| match channel {
                None => black_box(run_link(&cfg, PerfectChannel).unwrap()),
                Some((g, bad)) => {
                    let ch = ContinuousTwoState::new(g, bad, ContinuousLossRule::AnyInstant([0.0, 1.0]), 1).unwrap();
                    black_box(run_link(&cfg, ch).unwrap())
                }
            })
        });
    }
    // SACK (RFC 6675) and PRR (RFC 6937) beside the cumulative-ACK runs above (the CUBIC + SACK case).
    // With RACK-TLP (RFC 8985) too: the CUBIC + SACK + RACK target.
    for (name, variant, prr, rack) in [
        ("iid_like/newreno+sack", Variant::NewReno, false, false),
        ("iid_like/cubic+sack+prr", Variant::Cubic, true, false),
        ("iid_like/cubic+sack+prr+rack", Variant::Cubic, true, true),
    ] {
        let mut cfg = config(variant, 183.1, 0.002, 20, 1.0e5);
        cfg.sender = cfg.sender.with_sack(true).unwrap().with_prr(prr).unwrap().with_rack(rack).unwrap();
        let channel = || ContinuousTwoState::new(0.5, 0.001, ContinuousLossRule::AnyInstant([0.0, 1.0]), 1).unwrap();
        group.throughput(Throughput::Elements(run_link(&cfg, channel()).unwrap().totals.delivered));
        group.bench_function(name, |b| b.iter(|| black_box(run_link(&cfg, channel()).unwrap())));
    }
    // The common path alone: no loss at all (a perfect channel, Wmax = 20 so that the buffer of 20 never overflows), the
    // per-packet cost every run pays between its losses (docs/performance.md, eleventh session).
    for (name, variant, sack) in [("loss_free/newreno", Variant::NewReno, false),
                                  ("loss_free/cubic+sack+prr+rack", Variant::Cubic, true)] {
        let mut cfg = config(variant, 183.1, 0.002, 20, 1.0e5);
        cfg.sender.wmax = 20;
        cfg.sender = cfg.sender.with_sack(sack).unwrap().with_prr(sack).unwrap().with_rack(sack).unwrap();
        group.throughput(Throughput::Elements(run_link(&cfg, PerfectChannel).unwrap().totals.delivered));
        group.bench_function(name, |b| b.iter(|| black_box(run_link(&cfg, PerfectChannel).unwrap())));
    }
    // The same abouzeid run without the bad-visit observer: what the driver costs alone.
    let cfg = config(Variant::Reno, 183.1, 0.002, 20, 1.0e5);
    let channel = || ContinuousTwoState::new(0.8, 0.2, ContinuousLossRule::AnyInstant([0.0, 1.0]), 1).unwrap();
    let delivered = run_link_observed(&cfg, channel(), &mut NoObserver, &mut Watch::quiet()).unwrap().totals.delivered;
    group.throughput(Throughput::Elements(delivered));
    group.bench_function("table3_moderate/reno/no_observer", |b| {
        b.iter(|| black_box(run_link_observed(&cfg, channel(), &mut NoObserver, &mut Watch::quiet()).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, link);
criterion_main!(benches);
