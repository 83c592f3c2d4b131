//! Slotted TCP simulator: slots per second per core for each variant on Gilbert-Elliott channels
//! (chockalingam Table 1: P_E = 0.01 and 0.1, fD·T = 0.01 and 0.64), Wmax = 24, K = 3, T0 = 100.
//! Target (BRIEF §6): 10^8 slots/s. Run `cargo bench -p tcpfade-core --features bench --bench slotted`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcpfade_core::channel::GilbertElliott;
use tcpfade_core::driver::{run_slotted, SlottedConfig};
use tcpfade_core::tcp::{SenderConfig, Variant};

const SLOTS: u64 = 20_000_000;

fn slotted(c: &mut Criterion) {
    let mut group = c.benchmark_group("slotted");
    group.throughput(Throughput::Elements(SLOTS));
    group.sample_size(10);
    let channels = [
        ("pe0.01_fdt0.01", 0.997518, 0.754305),
        ("pe0.1_fdt0.01", 0.991872, 0.926851),
        ("pe0.01_fdt0.64", 0.990019, 0.011834),
        ("pe0.1_fdt0.64", 0.90182, 0.116376),
    ];
    for variant in [Variant::OldTahoe, Variant::Tahoe, Variant::Reno, Variant::NewReno] {
        for (name, p, q) in channels {
            let cfg = SlottedConfig {
                sender: SenderConfig::new(variant, 24, 3, 100.0, 24.0).unwrap(),
                slots: SLOTS,
                ack_loss: 0.0,
                ack_delay: 0,
                batches: 30,
                trace_slots: 0,
            };
            group.bench_function(format!("{}/{name}", variant.name()), |b| {
                b.iter(|| {
                    let mut channel = GilbertElliott::new(p, q, 0.0, 1.0, 1).unwrap();
                    run_slotted(&cfg, &mut channel, 1).unwrap().totals.delivered
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, slotted);
criterion_main!(benches);
