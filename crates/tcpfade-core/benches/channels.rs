//! Channel throughput: Gilbert-Elliott slots per second (stepping and skipping, the path a
//! simulator uses) and fading samples per second (Jakes, cisoids). Run `cargo bench -p tcpfade-core --features bench`;
//! figures and the machine are in the README.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tcpfade_core::channel::{FadingModel, GilbertElliott, JakesFading, SlotChannel};

const SLOTS: u64 = 10_000_000;

/// Consume `SLOTS` slots, skipping error-free stretches; returns the number of losses.
fn skip_through(ch: &mut GilbertElliott) -> u64 {
    let (mut slots, mut losses) = (0u64, 0u64);
    while slots < SLOTS {
        match ch.next_loss_within(SLOTS - slots).unwrap() {
            Some(k) => {
                slots += k + 1;
                losses += 1;
            }
            None => slots = SLOTS,
        }
    }
    losses
}

fn gilbert_elliott(c: &mut Criterion) {
    let mut group = c.benchmark_group("gilbert_elliott");
    group.throughput(Throughput::Elements(SLOTS));
    group.sample_size(10);
    // chockalingam Table 1: fdT = 0.01 and 0.64 at P_E = 0.01 and 0.1.
    for (name, p, q) in [
        ("pe0.01_fdt0.01", 0.997518, 0.754305),
        ("pe0.1_fdt0.01", 0.991872, 0.926851),
        ("pe0.01_fdt0.64", 0.990019, 0.011834),
        ("pe0.1_fdt0.64", 0.90182, 0.116376),
    ] {
        group.bench_function(format!("skip/{name}"), |b| {
            b.iter(|| skip_through(&mut GilbertElliott::new(p, q, 0.0, 1.0, 1).unwrap()))
        });
        group.bench_function(format!("step/{name}"), |b| {
            b.iter(|| {
                let mut ch = GilbertElliott::new(p, q, 0.0, 1.0, 1).unwrap();
                (0..SLOTS).filter(|_| ch.next_slot().unwrap()).count()
            })
        });
    }
    group.finish();
}

fn fading(c: &mut Criterion) {
    const SAMPLES: u64 = 1_000_000;
    let mut group = c.benchmark_group("fading");
    group.throughput(Throughput::Elements(SAMPLES));
    group.sample_size(10);
    for (name, model, oscillators) in [("jakes8", FadingModel::Jakes, 8), ("cisoids64", FadingModel::Cisoids, 64)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut f = JakesFading::with_model(model, 0.01, oscillators, 1, 1).unwrap();
                (0..SAMPLES).map(|_| f.next_power()).sum::<f64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, gilbert_elliott, fading);
criterion_main!(benches);
