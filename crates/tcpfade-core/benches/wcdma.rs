//! The WCDMA uplink of zorzi-rossi-mazzini (Table 1: 25 cells, 90 users, f_d = 6 Hz, five rays, power control
//! every slot): simulated seconds per wall-clock second on one core. Run
//! `cargo bench -p tcpfade-core --features bench --bench wcdma`; the README gives the figures and the real-time factor.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tcpfade_core::watch::Watch;
use tcpfade_core::wcdma::{run_system, SystemConfig};

fn system(c: &mut Criterion) {
    let mut group = c.benchmark_group("wcdma_system");
    group.sample_size(10);
    // Ten simulated seconds a run: the throughput unit is one simulated second (1500 slots of every user).
    let seconds = 10;
    group.throughput(Throughput::Elements(seconds));
    for users in [90usize, 120] {
        let cfg = SystemConfig::paper(users, 6.0, 5.5, 1500 * seconds);
        group.bench_function(format!("{users}_users_25_cells"), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed += 1;
                black_box(run_system(&cfg, seed, &mut Watch::quiet()).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, system);
criterion_main!(benches);
