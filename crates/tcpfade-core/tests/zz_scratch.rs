use tcpfade_core::driver::*;
use tcpfade_core::tcp::*;
use tcpfade_core::channel::{ContinuousTwoState, ContinuousLossRule};
use tcpfade_core::watch::Watch;

fn cfg(variant: Variant, mss: u64, rate: f64) -> TransferConfig {
    let rfc = Rfc6298 { initial: 1.0, min: 1.0, max: 64.0, granularity: 0.01, max_backoff: 64 };
    let wmax = 65535 / mss;
    TransferConfig {
        sender: SenderConfig::new(variant, wmax, 3, 1.0, wmax as f64).unwrap().with_rfc6298(rfc).unwrap(),
        size: 5_242_880, mss, header_bytes: 20, syn_option_bytes: 4, probe_option_bytes: 8, rate, delay: 0.0,
        delayed_ack: Some(0.2), drop_acks: true, loss_on_air: false, time_limit: 1e5, record_frames: false,
    }
}

#[test]
fn scratch() {
    for mss in [2048u64, 2028, 1460, 4096] {
        let c = cfg(Variant::Reno, mss, 1_048_576.0 * 1.0148);
        let out = run_transfer(&c, PerfectChannel, &mut RttRange::default(), &mut Watch::quiet()).unwrap();
        let total: u64 = out.by_kind.iter().map(|k| k.bytes).sum();
        println!("mss {mss}: time {:.4} total {} overhead {:.4}% completed {}", out.time, total, 100.0 * (total - 5_242_880) as f64 / 5_242_880.0, out.completed);
        for (n, k) in KIND_NAMES.iter().zip(out.by_kind.iter()) { print!("{n}:{} ", k.segments); } println!();
    }
    for variant in [Variant::Tahoe, Variant::Reno, Variant::NewReno, Variant::Probing] {
        for (mean, r) in [(10.0, 0.1), (10.0, 0.5), (1.0, 0.1), (1.0, 0.33)] {
            let mut t = 0.0; let mut o = 0.0;
            for seed in 1..=5 {
                let ch = ContinuousTwoState::new(mean, mean, ContinuousLossRule::StateAtStart([0.0, r]), seed).unwrap();
                let c = cfg(variant, 2048, 1_048_576.0 * 1.0148);
                let out = run_transfer(&c, ch, &mut RttRange::default(), &mut Watch::quiet()).unwrap();
                let total: u64 = out.by_kind.iter().map(|k| k.bytes).sum();
                t += out.time / 5.0; o += 100.0 * (total - 5_242_880) as f64 / 5_242_880.0 / 5.0;
                if seed == 1 && variant == Variant::Probing { println!("  probes {:?}", out.probes); }
            }
            println!("{variant:?} mean {mean} r {r}: time {t:.2} overhead {o:.2}%");
        }
    }
}
