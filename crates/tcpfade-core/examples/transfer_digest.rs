//! 300 random finite transfers (Reno, NewReno, Tahoe, CUBIC and TCP-Probing; SACK, PRR, RACK, F-RTO, timestamps,
//! limited transmit, delayed ACKs, ACK drops and losses on the air, both meterings, with and without the window trace;
//! perfect and two-state channels), each outcome printed whole. Two revisions whose outputs are byte for byte the same
//! computed the same transfers: the check behind "transfers identical" in docs/performance.md. Run it at both
//! revisions (`cargo run --release -q -p tcpfade-core --features tools --example transfer_digest`) and compare.

use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_transfer_traced, Metering, PerfectChannel, TransferConfig, WindowTrace};
use tcpfade_core::tcp::{Rfc6298, RttRange, SenderConfig, Variant};
use tcpfade_core::watch::Watch;

#[path = "digest/lcg.rs"]
mod lcg;
use lcg::R;

fn main() {
    let mut r = R(2718);
    for i in 0..300 {
        let variant = [Variant::Reno, Variant::NewReno, Variant::Cubic, Variant::Tahoe, Variant::Probing][r.pick(5) as usize];
        let mss = [536u64, 1460, 2028][r.pick(3) as usize];
        let wmax = ([65_535u64, 16_384, 262_144][r.pick(3) as usize] / mss).max(2);
        let mut s = SenderConfig::new(variant, wmax, 3, 1.0, wmax as f64).unwrap();
        s = match r.pick(2) {
            0 => s.with_rfc6298(Rfc6298 { initial: 1.0, min: 0.2, max: 64.0, granularity: 0.01, max_backoff: 64 }).unwrap(),
            _ => s.with_linux_rto(Rfc6298::rfc()).unwrap(),
        };
        let fr = !matches!(variant, Variant::Tahoe | Variant::Probing);
        if fr {
            if r.b() {
                s = s.with_sack(true).unwrap();
                if r.b() {
                    s = s.with_prr(true).unwrap();
                }
                if r.b() {
                    s = s.with_rack(true).unwrap();
                }
            }
            if r.b() {
                s = s.with_limited_transmit(true).unwrap();
            }
            if r.b() {
                s = s.with_frto(true).unwrap();
            }
        }
        if r.b() {
            s = s.with_initial_window(10).unwrap();
        }
        s = s.with_timestamps(r.b()).with_byte_counting(r.b());
        let cfg = TransferConfig {
            sender: s,
            size: mss * [40u64, 300, 1500][r.pick(3) as usize] + r.pick(mss),
            mss,
            header_bytes: 20,
            syn_option_bytes: 4,
            probe_option_bytes: 8,
            rate: [1_069_465.0, 1e7, 1e8][r.pick(3) as usize],
            metering: if r.b() { Metering::Frame } else { Metering::Payload },
            delay: [0.0, 0.001, 0.02][r.pick(3) as usize],
            delayed_ack: if r.b() { Some(0.2) } else { None },
            drop_acks: r.b(),
            loss_on_air: r.b(),
            time_limit: 1e4,
            record_frames: r.pick(4) == 0,
        };
        let trace = if r.pick(4) == 0 { Some(WindowTrace::new(1.0, 1 << 16)) } else { None };
        let mut rule = RttRange::default();
        let mut watch = Watch::quiet();
        let out = match r.pick(3) {
            0 => run_transfer_traced(&cfg, PerfectChannel, &mut rule, trace, &mut watch),
            k => {
                let m = [0.0, 0.2, 2.0][k as usize];
                let (g, b) = (r.f(m * 0.5, m * 2.0), r.f(0.01, 0.3));
                let rule_ = if r.b() { ContinuousLossRule::AnyInstant([0.0, 1.0]) } else { ContinuousLossRule::StateAtStart([0.0, r.f(0.1, 0.9)]) };
                let ch = ContinuousTwoState::new(g, b, rule_, r.next()).unwrap();
                run_transfer_traced(&cfg, ch, &mut rule, trace, &mut watch)
            }
        };
        // The trace's rows field by field, those every revision compared has (a field added since, as `rwnd`, is no
        // difference in what was computed before it).
        match out {
            Ok((outcome, trace)) => {
                println!("{i} {outcome:?}");
                for w in trace.iter().flat_map(|t| t.rows()) {
                    println!("  {} {} {} {} {} {:?} {} {} {} {}", w.time, w.cwnd, w.ssthresh, w.una, w.high, w.pipe,
                             w.in_recovery, w.rto, w.timeouts, w.fast_retransmits);
                }
                if let Some(t) = &trace {
                    println!("  truncated {}", t.truncated());
                }
            }
            Err(e) => println!("{i} {e:?}"),
        }
    }
}
