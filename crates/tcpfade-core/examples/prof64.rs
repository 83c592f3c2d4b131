use std::time::Instant;
use tcpfade_core::analysis::cycle::fast_recovery_cycle_model;
use tcpfade_core::analysis::fast_recovery::FastRecovery;
use tcpfade_core::analysis::SlotMatrices;
use tcpfade_core::watch::Watch;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let wmax: u32 = a[1].parse().unwrap();
    let rec = if a[2] == "reno" { FastRecovery::Reno } else { FastRecovery::NewReno };
    let n: usize = a[3].parse().unwrap();
    let ch = SlotMatrices { success: [[0.9930721822032603, 0.0], [0.223999442094584, 0.0]], failure: [[0.0, 0.006927817796739677], [0.0, 0.776000557905416]] };
    let mut best = f64::INFINITY;
    let mut s = 0.0;
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            let m = fast_recovery_cycle_model(&ch, rec, wmax, 3, 100.max(2 * wmax), &mut Watch::quiet()).unwrap();
            s += m.rewards[0][0];
        }
        best = best.min(t.elapsed().as_secs_f64() / n as f64 * 1e3);
    }
    let m = fast_recovery_cycle_model(&ch, rec, wmax, 3, 100.max(2 * wmax), &mut Watch::quiet()).unwrap();
    println!("states {} entries {}", m.states.len(), m.transitions.iter().map(|r| r.len()).sum::<usize>());
    println!("{} {} best {:.3} ms {}", a[2], wmax, best, s);
}
#[allow(dead_code)]
fn dummy() {}
#[allow(dead_code)]
fn count() {}
