//! Phase 2 of Reno and NewReno (the analysis kernel): every window class of one (channel, Wmax, K,
//! T0) point, from loss patterns (`Phase2`, what `tcpfade.analyze` uses) and by the reference
//! explorer; and the whole embedded chain of a point (`cycle_model`: phase 1, phase 2, the chain's
//! rows), what a Python `analyze` call spends in the core. Run `cargo bench -p tcpfade-core --features bench --bench
//! analysis`; figures are in the README.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tcpfade_core::analysis::cycle::fast_recovery_cycle_model;
use tcpfade_core::analysis::fast_recovery::{explore, FastRecovery, Phase2Query};
use tcpfade_core::analysis::phase2::Phase2;
use tcpfade_core::analysis::SlotMatrices;
use tcpfade_core::watch::Watch;

/// The papers' two-state channel for P_E = p_error at the given p (stay good) and q (stay bad).
fn channel(p: f64, q: f64) -> SlotMatrices {
    SlotMatrices { success: [[p, 0.0], [1.0 - q, 0.0]], failure: [[0.0, 1.0 - p], [0.0, q]] }
}

/// The classes (⌊Y⌋, ⌈Y/2⌉) a point meets: Y = m and Y in (m, m + 1).
fn classes(wmax: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for m in 1..=wmax {
        out.push((m, m.div_ceil(2)));
        if m < wmax && m / 2 + 1 != m.div_ceil(2) {
            out.push((m, m / 2 + 1));
        }
    }
    out
}

fn all_classes(c: &mut Criterion) {
    let mut group = c.benchmark_group("phase2_all_classes");
    group.sample_size(20);
    // zorzi-rao P_E = 0.03, fD·T = 0.016 (the README's analysis benchmark point) and P_E = 0.1, fD·T = 0.256.
    for (name, ch) in
        [("pe0.03_fdt0.016", channel(0.9930722, 0.7760006)), ("pe0.1_fdt0.256", channel(0.9024797, 0.1223170))]
    {
        for (rule, recovery) in [("reno", FastRecovery::Reno), ("newreno", FastRecovery::NewReno)] {
            for wmax in [6u32, 24] {
                group.bench_function(format!("patterns/{rule}/wmax{wmax}/{name}"), |b| {
                    b.iter(|| {
                        let mut model = Phase2::new(recovery, ch, wmax, 3, 100).unwrap();
                        for (m, h) in classes(wmax) {
                            black_box(model.outcomes(m, h).unwrap());
                        }
                    })
                });
                if wmax == 24 {
                    group.bench_function(format!("explorer/{rule}/wmax{wmax}/{name}"), |b| {
                        b.iter(|| {
                            for (window, next_ssthresh) in classes(wmax) {
                                let q = Phase2Query { recovery, wmax, dupthresh: 3, rto: 100, window, next_ssthresh };
                                black_box(explore(&ch, &q).unwrap());
                            }
                        })
                    });
                }
            }
        }
    }
    group.finish();
}

fn cycle_model(c: &mut Criterion) {
    let mut group = c.benchmark_group("cycle_model");
    group.sample_size(20);
    // The README's analysis point: P_E = 0.03, fD·T = 0.016, K = 3, T0 = max(100, 2 Wmax).
    let ch = channel(0.9930722, 0.7760006);
    for (rule, recovery) in [("reno", FastRecovery::Reno), ("newreno", FastRecovery::NewReno)] {
        for wmax in [24u32, 64] {
            let rto = wmax.max(50) * 2;
            group.bench_function(format!("{rule}/wmax{wmax}"), |b| {
                b.iter(|| black_box(fast_recovery_cycle_model(&ch, recovery, wmax, 3, rto, &mut Watch::quiet())))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, all_classes, cycle_model);
criterion_main!(benches);
