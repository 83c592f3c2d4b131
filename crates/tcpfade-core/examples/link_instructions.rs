//! The link benchmark's runs (`benches/link.rs`), one at a time, for an instruction count under callgrind
//! (`benchmarks/instructions.sh`): criterion's wall-clock figures scatter by 2× on a shared host, the instructions a
//! delivered packet costs do not.
//!
//! `cargo run --release -p tcpfade-core --features tools --example link_instructions -- CASE [SECONDS]`, CASE one of
//! `cubic+sack+prr+rack`, `newreno` (the near-i.i.d. channel) or `loss_free/cubic+sack+prr+rack`, `loss_free/newreno`
//! (a perfect channel, Wmax = 20); prints the packets delivered.

use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_link, LinkConfig, PerfectChannel};
use tcpfade_core::tcp::{Rfc6298, SenderConfig, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let case = args.get(1).map(String::as_str).unwrap_or("cubic+sack+prr+rack");
    let duration: f64 = args.get(2).map_or(2000.0, |s| s.parse().expect("SECONDS: a number"));
    let (loss_free, sender) = match case.split_once('/') {
        Some(("loss_free", sender)) => (true, sender),
        _ => (false, case),
    };
    let (variant, sack) = match sender {
        "cubic+sack+prr+rack" => (Variant::Cubic, true),
        "newreno" => (Variant::NewReno, false),
        other => panic!("unknown case {other}: cubic+sack+prr+rack, newreno, loss_free/<either>"),
    };
    let wmax = if loss_free { 20 } else { 1 << 16 };
    let sender = SenderConfig::new(variant, wmax, 3, 1.0, 1e9)
        .and_then(|s| s.with_rfc6298(Rfc6298::ns2()))
        .and_then(|s| s.with_sack(sack))
        .and_then(|s| s.with_prr(sack))
        .and_then(|s| s.with_rack(sack))
        .expect("the benchmark's sender");
    let cfg = LinkConfig {
        sender,
        rate: 183.1,
        tau: 0.002,
        buffer: 20,
        duration,
        warmup: 0.0,
        batches: 20,
        delayed_ack: None,
    };
    let outcome = if loss_free {
        run_link(&cfg, PerfectChannel)
    } else {
        let channel =
            ContinuousTwoState::new(0.5, 0.001, ContinuousLossRule::AnyInstant([0.0, 1.0]), 1).expect("channel");
        run_link(&cfg, channel)
    }
    .expect("the run");
    println!("{case}: delivered {}", outcome.totals.delivered);
}
