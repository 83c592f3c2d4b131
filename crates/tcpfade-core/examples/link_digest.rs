//! 400 random link runs (variants, windows, timers, SACK, PRR's bounds, RACK, limited transmit, the guards, IW10,
//! ssthresh rules, byte counting, HyStart++, CUBIC's α, whole windows, delayed ACKs and their rules, F-RTO, timestamps,
//! RACK's timers; perfect and two-state channels),
//! each outcome printed whole: every count, every batch, the final window. Two revisions whose outputs are byte for
//! byte the same computed the same results: the check behind "results identical" in docs/performance.md
//! (`benchmarks/instructions.sh REV` runs it against REV).

use tcpfade_core::channel::continuous::{ContinuousLossRule, ContinuousTwoState};
use tcpfade_core::driver::{run_link, LinkConfig, PerfectChannel};
use tcpfade_core::tcp::{CubicAlpha, DelayedAckRule, PrrBound, RackTimers, Rfc6298, SenderConfig, SsthreshRule, Variant};
#[path = "digest/lcg.rs"]
mod lcg;
use lcg::R;

fn main() {
    let mut r = R(12345);
    for i in 0..400 {
        let variant = [
            Variant::Reno,
            Variant::NewReno,
            Variant::Cubic,
            Variant::Tahoe,
            Variant::Cubic,
            Variant::NewReno,
        ][r.pick(6) as usize];
        let wmax = [8u64, 32, 64, 1 << 16][r.pick(4) as usize];
        let mut s = SenderConfig::new(
            variant,
            wmax,
            [2u64, 3, 4][r.pick(3) as usize],
            1.0,
            [1e9, 8.0, 40.0][r.pick(3) as usize],
        )
        .unwrap();
        s = match r.pick(3) {
            0 => s.with_rfc6298(Rfc6298::ns2()).unwrap(),
            1 => s.with_rfc6298(Rfc6298::rfc()).unwrap(),
            _ => s.with_linux_rto(Rfc6298::rfc()).unwrap(),
        };
        let fr = variant != Variant::Tahoe;
        if fr {
            if r.b() {
                s = s.with_sack(true).unwrap();
            }
            let pb = r.pick(4);
            s = s
                .with_prr_bound([None, Some(PrrBound::Ssrb), Some(PrrBound::Crb), Some(PrrBound::SafeAck)][pb as usize])
                .unwrap();
            if s.sack && r.b() {
                s = s.with_rack(true).unwrap();
            }
            if r.b() {
                s = s.with_limited_transmit(true).unwrap();
            }
            if variant != Variant::Reno && r.b() {
                s = s.with_recover_guard(true).unwrap();
            }
        } else {
            r.pick(4);
            r.b();
        }
        if r.b() {
            s = s.with_initial_window(10).unwrap();
        }
        if r.b() {
            s = s.with_ssthresh_rule(SsthreshRule::HalfFlight);
        }
        s = s
            .with_byte_counting(r.b())
            .with_hystart(r.b())
            .with_hold_ssthresh_on_rto(r.b())
            .with_cubic_alpha(if r.b() { CubicAlpha::Linux } else { CubicAlpha::Rfc9438 })
            .with_integer_window(r.b())
            .with_ssthresh_once_per_window(r.b())
            .with_timestamps(r.b())
            .with_rack_timers(if r.b() { RackTimers::Linux } else { RackTimers::Rfc8985 })
            .with_delayed_ack_rule(if r.b() { DelayedAckRule::Rfc5681 } else { DelayedAckRule::Ns2 });
        if fr && r.b() {
            s = s.with_frto(true).unwrap();
        }
        let rate = [183.1, 1220.0, 12200.0][r.pick(3) as usize];
        let tau = [0.001, 0.01, 0.05][r.pick(3) as usize];
        let buffer = [5u64, 20, 100][r.pick(3) as usize];
        let delayed_ack = if r.b() { Some(0.04) } else { None };
        let duration = 2000.0 / rate * 20.0;
        let cfg = LinkConfig {
            sender: s,
            rate,
            tau,
            buffer,
            duration,
            warmup: duration * 0.1,
            batches: 5,
            delayed_ack,
        };
        // A two-state channel: good and bad mean durations drawn from the ranges, then its seed (in that order).
        let two_state = |r: &mut R, good: (f64, f64), bad: (f64, f64)| {
            let (g, b) = (r.f(good.0, good.1), r.f(bad.0, bad.1));
            ContinuousTwoState::new(g, b, ContinuousLossRule::AnyInstant([0.0, 1.0]), r.next()).unwrap()
        };
        let out = match r.pick(3) {
            0 => run_link(&cfg, PerfectChannel),
            1 => run_link(&cfg, two_state(&mut r, (0.01, 1.0), (0.0005, 0.05))),
            _ => run_link(&cfg, two_state(&mut r, (0.1, 2.0), (0.01, 0.3))),
        };
        println!("{i} {:?}", out);
    }
}
