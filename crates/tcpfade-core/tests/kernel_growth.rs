//! CUBIC's growth in congestion avoidance against Linux's, traced (docs/validation/kernel.md, "The kernel's window,
//! traced"): `validation/kernel_cwnd_trace.py` measured, from the kernel's own tcp_probe tracepoint over the emulator,
//! the whole segments cwnd gained per smoothed round trip while below cwnd_prior (the window before the last
//! reduction) and at or above it, on the grid's 10 Mb/s, 10 ms, i.i.d. 1% link (`validation/kernel_cwnd_growth.csv`).
//! The simulator's Linux reading (whole segments, no switch of α_cubic) must give the same growth on the same link,
//! measured the same way; RFC 9438's reading (real-valued window, α_cubic = 1 past cwnd_prior) must not.

use tcpfade_core::channel::clocked::PerPacket;
use tcpfade_core::channel::markov::GilbertElliott;
use tcpfade_core::driver::{run_link_observed, LinkConfig, LinkObserver};
use tcpfade_core::tcp::{CubicAlpha, PrrBound, Rfc6298, Sender, SenderConfig, SsthreshRule, Variant};
use tcpfade_core::watch::Watch;

/// The kernel's trace statistic: whole-segment increments of cwnd between consecutive events outside recovery, in
/// congestion avoidance after the warm-up, over the smoothed RTT's rounds, split by whether cwnd was below the cwnd
/// seen last before the latest recovery began.
struct Growth {
    warmup: f64,
    prior: Option<f64>,
    last_open: f64,
    was_recovering: bool,
    previous: Option<(f64, f64)>,
    below: (f64, f64),
    above: (f64, f64),
}

impl LinkObserver for Growth {
    fn before_event(&mut self, now: f64, s: &Sender) {
        let recovering = s.in_recovery();
        if recovering && !self.was_recovering {
            self.prior = Some(self.last_open);
        }
        self.was_recovering = recovering;
        if recovering {
            self.previous = None;
            return;
        }
        self.last_open = s.cwnd().floor();
        if now < self.warmup || s.cwnd() < s.ssthresh() {
            self.previous = None;
            return;
        }
        if let (Some(prior), Some((t, cwnd)), Some(srtt)) = (self.prior, self.previous, s.rto_estimator().srtt()) {
            let side = if cwnd < prior { &mut self.below } else { &mut self.above };
            side.0 += s.cwnd().floor() - cwnd;
            side.1 += (now - t) / srtt;
        }
        self.previous = Some((now, s.cwnd().floor()));
    }
}

/// Growth per round trip (below, at or above cwnd_prior) of one 14-s run (3 s of warm-up) of the grid's link.
fn run(linux: bool, seed: u64) -> (f64, f64) {
    let timer = Rfc6298 { initial: 1.0, min: 0.2, max: 120.0, granularity: 0.001, max_backoff: 64 };
    let sender = SenderConfig::new(Variant::Cubic, 2796, 3, 1.0, 2796.0).unwrap().with_linux_rto(timer).unwrap()
        .with_initial_window(10).unwrap().with_recover_guard(true).unwrap().with_byte_counting(true)
        .with_ssthresh_rule(SsthreshRule::HalfWindow).with_limited_transmit(true).unwrap()
        .with_sack(true).unwrap().with_prr_bound(Some(PrrBound::SafeAck)).unwrap().with_rack(true).unwrap()
        .with_hold_ssthresh_on_rto(true).with_ssthresh_once_per_window(true)
        .with_cubic_alpha(if linux { CubicAlpha::Linux } else { CubicAlpha::Rfc9438 }).with_integer_window(linux);
    let cfg = LinkConfig { sender, rate: 833.0, tau: 0.02, buffer: 18, duration: 14.0, warmup: 3.0, batches: 2,
                           delayed_ack: Some(0.04) };
    // i.i.d. 1% per packet: a Gilbert-Elliott channel that loses 1% in either state.
    let channel = PerPacket(Box::new(GilbertElliott::new(1e-9, 0.5, 0.01, 0.01, 1000 + seed).unwrap()));
    let mut g = Growth { warmup: 3.0, prior: None, last_open: 0.0, was_recovering: false, previous: None,
                         below: (0.0, 0.0), above: (0.0, 0.0) };
    run_link_observed(&cfg, channel, &mut g, &mut Watch::quiet()).unwrap();
    (g.below.0 / g.below.1, g.above.0 / g.above.1)
}

/// Mean and Student-t 95% half-width.
fn interval(xs: &[f64]) -> (f64, f64) {
    const T975: [f64; 10] = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    (mean, T975[xs.len() - 2] * sd / n.sqrt())
}

fn overlap(a: (f64, f64), b: (f64, f64)) -> bool {
    a.0 - a.1 <= b.0 + b.1 && b.0 - b.1 <= a.0 + a.1
}

#[test]
fn the_linux_reading_grows_as_the_traced_kernel_and_rfc_9438s_does_not() {
    let kernel: Vec<(f64, f64)> = include_str!("../../../validation/kernel_cwnd_growth.csv")
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.rsplitn(5, ',').collect(); // rounds_above, rounds_below, above, below, rest
            (f[3].parse().unwrap(), f[2].parse().unwrap())
        })
        .collect();
    assert!(kernel.len() >= 3);
    let side = |runs: &[(f64, f64)], above: bool| interval(&runs.iter().map(|r| if above { r.1 } else { r.0 })
        .collect::<Vec<_>>());
    let linux: Vec<(f64, f64)> = (0..10).map(|s| run(true, s)).collect();
    let rfc: Vec<(f64, f64)> = (0..10).map(|s| run(false, s)).collect();
    for above in [false, true] {
        let (k, l, r) = (side(&kernel, above), side(&linux, above), side(&rfc, above));
        assert!(overlap(k, l), "above = {above}: kernel {k:?}, Linux reading {l:?}");
        // RFC 9438: the real-valued window climbs faster below cwnd_prior, and α_cubic = 1 above it.
        assert!(r.0 - r.1 > k.0 + k.1, "above = {above}: kernel {k:?}, RFC 9438 reading {r:?}");
    }
}
