//! Finite transfers (tsaoussidis-badr Table 1's workload): 5,242,880-byte transfers per second of wall-clock
//! time, without losses and over VDELDROP on/off phases. Run `cargo bench -p tcpfade-core --features bench --bench transfer`;
//! figures in the README.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_transfer, Metering, PerfectChannel, TransferConfig};
use tcpfade_core::tcp::{Rfc6298, RttRange, SenderConfig, Variant};
use tcpfade_core::watch::Watch;

fn config(variant: Variant) -> TransferConfig {
    let rfc = Rfc6298 { initial: 1.0, min: 1.0, max: 64.0, granularity: 0.01, max_backoff: 64 };
    let wmax = 65_535 / 2028;
    TransferConfig {
        sender: SenderConfig::new(variant, wmax, 3, 1.0, wmax as f64).unwrap().with_rfc6298(rfc).unwrap(),
        size: 5_242_880,
        mss: 2028,
        header_bytes: 20,
        syn_option_bytes: 4,
        probe_option_bytes: 8,
        rate: 1_069_465.0,
        metering: Metering::Frame,
        delay: 0.0,
        delayed_ack: Some(0.2),
        drop_acks: true,
        loss_on_air: false,
        time_limit: 1e5,
        record_frames: false,
    }
}

fn transfer(c: &mut Criterion) {
    let mut group = c.benchmark_group("transfer");
    group.throughput(Throughput::Elements(1));
    for (name, variant, phase, rate) in [
        ("no_loss/reno", Variant::Reno, None, 0.0),
        ("10s_on_off_33pct/reno", Variant::Reno, Some(10.0), 1.0 / 3.0),
        ("10s_on_off_33pct/probing", Variant::Probing, Some(10.0), 1.0 / 3.0),
        ("1s_on_off_50pct/probing", Variant::Probing, Some(1.0), 0.5),
    ] {
        let cfg = config(variant);
        group.bench_function(name, |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                let mut rule = RttRange::default();
                match phase {
                    None => black_box(run_transfer(&cfg, PerfectChannel, &mut rule, &mut Watch::quiet()).unwrap()),
                    Some(m) => {
                        let ch = ContinuousTwoState::new(m, m, ContinuousLossRule::StateAtStart([0.0, rate]), seed)
                            .unwrap();
                        black_box(run_transfer(&cfg, ch, &mut rule, &mut Watch::quiet()).unwrap())
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, transfer);
criterion_main!(benches);
