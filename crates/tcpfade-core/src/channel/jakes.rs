//! Jakes sum-of-sinusoids Rayleigh fading simulator (BRIEF D6; zorzi-rao §5.1, ref. \[11\]).
//!
//! With N = 4 N0 + 2 and the maximum Doppler angular frequency ω_m = 2π f_D, Jakes' model is
//!
//! ```text
//! x_c(t) = 2 Σ_{n=1..N0} cos β_n cos(ω_n t + φ_n) + √2 cos α cos(ω_m t + φ_0)
//! x_s(t) = 2 Σ_{n=1..N0} sin β_n cos(ω_n t + φ_n) + √2 sin α cos(ω_m t + φ_0)
//! g(t)   = (x_c(t) + j x_s(t)) / √(2 N0 + 1),      ω_n = ω_m cos(2πn/N), β_n = πn/N0, α = π/4
//! ```
//!
//! so that E|g|² = 1. Jakes' original model is deterministic; the oscillator phases φ_n are drawn
//! uniformly from the seed so that different seeds give independent realizations and the process is
//! wide-sense stationary. α = π/4 (Jakes used 0) gives the in-phase and quadrature parts equal
//! power. With independent phases the autocorrelation of the complex gain is exactly
//!
//! ```text
//! E[g*(t) g(t+τ)] = (2 Σ_{n=1..N0} cos(ω_n τ) + cos(ω_m τ)) / (2 N0 + 1),
//! ```
//!
//! a 2N0+1-point quadrature of J0(ω_m τ) that matches it over several coherence times.
//! Being a finite sum, the envelope is only approximately Rayleigh: with N0 = 8, E|g|⁴ = 1.832
//! instead of 2 and deep fades are about 9% rarer than for a Gaussian gain (docs/validation/zorzi-rao.md).
//!
//! Beside it sits a stationary, circular variant (BRIEF D6), a sum of M cisoids with random angles
//! of arrival:
//!
//! ```text
//! g(t) = (1/√M) Σ_{n=1..M} exp(j(ω_m t cos α_n + φ_n)),   α_n = (2πn + θ)/M,
//! ```
//!
//! θ and the φ_n uniform. Averaged over θ the autocorrelation is exactly J0(ω_m τ) and the gain is
//! circular (E[g(t) g(t+τ)] = 0), which classic Jakes is not (its I and Q share one set of phases);
//! E|g|⁴ = 2 − 1/M. Use it where the exact Rayleigh two-sample law matters (zorzi-rao eq. (3)).
//!
//! Time is measured in packet durations T, so the Doppler enters as fD·T; the simulator is sampled
//! `samples_per_packet` times per packet.

use crate::check;
use crate::error::Result;
use crate::rng::{stream, Stream};
use rand::Rng as _;
use std::f64::consts::PI;

/// How many steps of the rotation recurrence before the phases are recomputed exactly, so rounding
/// errors cannot accumulate over long runs.
const REANCHOR_EVERY: u64 = 1024;

/// Which sum of sinusoids simulates the fading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FadingModel {
    /// Jakes' model with N0 oscillators and random phases.
    Jakes,
    /// M cisoids with random angles of arrival and phases (stationary, circular).
    Cisoids,
}

impl FadingModel {
    /// Names accepted by [`FadingModel::from_name`].
    pub const NAMES: [&'static str; 2] = ["jakes", "cisoids"];

    /// Parse a model name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "jakes" => Ok(FadingModel::Jakes),
            "cisoids" => Ok(FadingModel::Cisoids),
            _ => Err(crate::error::Error::invalid("fading_model", name, "must be one of jakes, cisoids")),
        }
    }
}

/// A fading process by its parameters: model, normalized Doppler fD·T and number of oscillators
/// (N0 for Jakes, M for cisoids).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FadingSpec {
    /// Which sum of sinusoids.
    pub model: FadingModel,
    /// fD·T, T the packet time.
    pub fdt: f64,
    /// N0 (Jakes) or M (cisoids).
    pub oscillators: u64,
}

impl FadingSpec {
    /// Jakes with 8 oscillators, the papers' simulator (BRIEF D6).
    pub fn jakes(fdt: f64) -> Self {
        FadingSpec { model: FadingModel::Jakes, fdt, oscillators: 8 }
    }

    /// The simulator, sampled `samples_per_packet` times per packet.
    pub fn build(&self, samples_per_packet: u64, seed: u64) -> Result<JakesFading> {
        JakesFading::with_model(self.model, self.fdt, self.oscillators, samples_per_packet, seed)
    }
}

#[derive(Debug, Clone)]
struct Oscillator {
    /// Complex weight (re, im) of cos(ω t + φ) in g(t), normalization included.
    weight: (f64, f64),
    /// Complex weight of sin(ω t + φ) in g(t) (zero for Jakes, j/√M for a cisoid).
    weight_sin: (f64, f64),
    /// Angular frequency per sample, ω Δ.
    omega_step: f64,
    /// Initial phase φ.
    phase0: f64,
    /// e^{j ω Δ}.
    rotation: (f64, f64),
    /// e^{j(ω t + φ)} at the current sample.
    phasor: (f64, f64),
}

/// Complex Rayleigh fading gain g(t) sampled every `1 / samples_per_packet` packet times
/// (the struct serves both [`FadingModel`]s).
#[derive(Debug, Clone)]
pub struct JakesFading {
    oscillators: Vec<Oscillator>,
    step: u64,
}

impl JakesFading {
    /// Jakes simulator with `oscillators` = N0 (8 in the papers), normalized Doppler `fdt` = fD·T
    /// and `samples_per_packet` samples per packet time T.
    pub fn new(fdt: f64, oscillators: u64, samples_per_packet: u64, seed: u64) -> Result<Self> {
        Self::with_model(FadingModel::Jakes, fdt, oscillators, samples_per_packet, seed)
    }

    /// Simulator of either model; `oscillators` is N0 for Jakes and M for cisoids.
    pub fn with_model(model: FadingModel, fdt: f64, oscillators: u64, samples_per_packet: u64, seed: u64) -> Result<Self> {
        check::positive("fdt", fdt)?;
        check::int_in("oscillators", oscillators, 1, 4096)?;
        check::int_in("samples_per_packet", samples_per_packet, 1, 1 << 20)?;
        let omega_m_step = 2.0 * PI * fdt / samples_per_packet as f64;
        let mut rng = stream(seed, Stream::Fading);
        let mut osc = Vec::new();
        let mut push = |weight: (f64, f64), weight_sin: (f64, f64), omega_step: f64, phase0: f64| {
            osc.push(Oscillator {
                weight,
                weight_sin,
                omega_step,
                phase0,
                rotation: (omega_step.cos(), omega_step.sin()),
                phasor: (phase0.cos(), phase0.sin()),
            });
        };
        match model {
            FadingModel::Jakes => {
                let n0 = oscillators as usize;
                let n = (4 * n0 + 2) as f64;
                let norm = 1.0 / ((2 * n0 + 1) as f64).sqrt();
                let alpha = PI / 4.0;
                for k in 1..=n0 {
                    let beta = PI * k as f64 / n0 as f64;
                    let omega = omega_m_step * (2.0 * PI * k as f64 / n).cos();
                    let phase = 2.0 * PI * rng.random::<f64>();
                    push((2.0 * norm * beta.cos(), 2.0 * norm * beta.sin()), (0.0, 0.0), omega, phase);
                }
                let phase = 2.0 * PI * rng.random::<f64>();
                let w = 2f64.sqrt() * norm;
                push((w * alpha.cos(), w * alpha.sin()), (0.0, 0.0), omega_m_step, phase);
            }
            FadingModel::Cisoids => {
                let m = oscillators as f64;
                let norm = 1.0 / m.sqrt();
                let theta = 2.0 * PI * rng.random::<f64>();
                for k in 1..=oscillators {
                    let angle = (2.0 * PI * k as f64 + theta) / m;
                    let phase = 2.0 * PI * rng.random::<f64>();
                    push((norm, 0.0), (0.0, norm), omega_m_step * angle.cos(), phase);
                }
            }
        }
        Ok(JakesFading { oscillators: osc, step: 0 })
    }

    /// The complex gain at the current sample; then advance one sample.
    #[inline]
    pub fn next_gain(&mut self) -> (f64, f64) {
        let (mut re, mut im) = (0.0, 0.0);
        for o in &self.oscillators {
            let (c, s) = o.phasor;
            re += o.weight.0 * c + o.weight_sin.0 * s;
            im += o.weight.1 * c + o.weight_sin.1 * s;
        }
        self.advance();
        (re, im)
    }

    /// The power |g|² at the current sample; then advance one sample.
    #[inline]
    pub fn next_power(&mut self) -> f64 {
        let (re, im) = self.next_gain();
        re * re + im * im
    }

    /// The power |g(t)|² at time `t` in samples (any real, in any order), from the phases directly rather than
    /// by stepping: what a channel asked about arbitrary instants needs (a link in real time). At whole `t` it is
    /// the stepped sample `t` up to rounding.
    pub fn power_at(&self, t: f64) -> f64 {
        let (mut re, mut im) = (0.0, 0.0);
        for o in &self.oscillators {
            let phase = (o.omega_step * t + o.phase0).rem_euclid(2.0 * PI);
            let (s, c) = phase.sin_cos();
            re += o.weight.0 * c + o.weight_sin.0 * s;
            im += o.weight.1 * c + o.weight_sin.1 * s;
        }
        re * re + im * im
    }

    #[inline]
    fn advance(&mut self) {
        self.step += 1;
        if self.step % REANCHOR_EVERY == 0 {
            let t = self.step as f64;
            for o in &mut self.oscillators {
                let phase = (o.omega_step * t + o.phase0).rem_euclid(2.0 * PI);
                o.phasor = (phase.cos(), phase.sin());
            }
        } else {
            for o in &mut self.oscillators {
                let (c, s) = o.phasor;
                let (rc, rs) = o.rotation;
                o.phasor = (c * rc - s * rs, c * rs + s * rc);
            }
        }
    }
}

/// Many simulators advanced in lockstep, their oscillators laid out oscillator-major (oscillator n of every
/// simulator side by side) so that each step runs over all simulators at once and vectorizes. A WCDMA uplink
/// advances hundreds of simulators (every ray of every user) each slot, where one [`JakesFading`] at a time
/// spends its time on pointer chasing and a sum that cannot vectorize. When the simulators share their
/// frequencies and weights (Jakes' model at one Doppler: only the phases differ) those are kept once per
/// oscillator, so a step touches only the phasors. Every simulator gives exactly (bit for bit) the samples
/// it gives on its own: its sum still runs over its oscillators in order.
#[derive(Debug, Clone)]
pub struct JakesBank {
    /// Simulators.
    sims: usize,
    /// Oscillators per simulator.
    per: usize,
    /// Per oscillator index n when shared ([n]), else per oscillator ([n·sims + k]).
    weight_re: Vec<f64>,
    weight_im: Vec<f64>,
    rot_c: Vec<f64>,
    rot_s: Vec<f64>,
    /// Per oscillator; `None` when every sine weight is zero (Jakes' model).
    weight_sin: Option<(Vec<f64>, Vec<f64>)>,
    shared: bool,
    omega_step: Vec<f64>,
    phase0: Vec<f64>,
    c: Vec<f64>,
    s: Vec<f64>,
    sum_re: Vec<f64>,
    sum_im: Vec<f64>,
    step: u64,
}

impl JakesBank {
    /// The bank of `simulators`, in their order, each at the sample it has reached (all must have the same
    /// number of oscillators and have drawn the same number of samples).
    pub fn new(simulators: &[JakesFading]) -> Result<Self> {
        let sims = simulators.len();
        let per = simulators.first().map_or(0, |j| j.oscillators.len());
        let step = simulators.first().map_or(0, |j| j.step);
        if simulators.iter().any(|j| j.oscillators.len() != per || j.step != step) {
            return Err(crate::error::Error::invalid("simulators", sims as f64,
                                                    "must share their oscillator count and sample"));
        }
        // Oscillator-major: element n·sims + k is oscillator n of simulator k.
        let column = |f: &dyn Fn(&Oscillator) -> f64| -> Vec<f64> {
            (0..per).flat_map(|n| simulators.iter().map(move |j| f(&j.oscillators[n]))).collect()
        };
        let shared = simulators.iter().all(|j| {
            j.oscillators.iter().zip(&simulators[0].oscillators)
                .all(|(a, b)| a.weight == b.weight && a.rotation == b.rotation && a.weight_sin == b.weight_sin)
        });
        let once = |f: &dyn Fn(&Oscillator) -> f64| -> Vec<f64> {
            if shared { simulators.first().map_or(vec![], |j| j.oscillators.iter().map(f).collect()) } else { column(f) }
        };
        let circular = simulators.iter().flat_map(|j| &j.oscillators).any(|o| o.weight_sin != (0.0, 0.0));
        Ok(JakesBank {
            sims,
            per,
            weight_re: once(&|o| o.weight.0),
            weight_im: once(&|o| o.weight.1),
            rot_c: once(&|o| o.rotation.0),
            rot_s: once(&|o| o.rotation.1),
            weight_sin: circular.then(|| (column(&|o| o.weight_sin.0), column(&|o| o.weight_sin.1))),
            shared,
            omega_step: column(&|o| o.omega_step),
            phase0: column(&|o| o.phase0),
            c: column(&|o| o.phasor.0),
            s: column(&|o| o.phasor.1),
            sum_re: vec![0.0; sims],
            sum_im: vec![0.0; sims],
            step,
        })
    }

    /// Number of simulators.
    pub fn len(&self) -> usize {
        self.sims
    }

    /// Whether the bank holds no simulator.
    pub fn is_empty(&self) -> bool {
        self.sims == 0
    }

    /// Every simulator's power |g|² at the current sample into `out` (one per simulator); then advance one
    /// sample.
    pub fn next_powers(&mut self, out: &mut [f64]) {
        let m = self.sims;
        assert_eq!(out.len(), m, "one output per simulator");
        let (re, im) = (&mut self.sum_re[..m], &mut self.sum_im[..m]);
        re.fill(0.0);
        im.fill(0.0);
        let reanchor = (self.step + 1) % REANCHOR_EVERY == 0;
        // Frequencies and weights are kept once per oscillator index when shared ([n]), else per oscillator
        // ([n·m + k]): element (n, k) sits at n·wn + k·wk.
        let (wn, wk) = if self.shared { (1, 0) } else { (m, 1) };
        for n in 0..self.per {
            let at = n * m..(n + 1) * m;
            let (c, s) = (&mut self.c[at.clone()], &mut self.s[at.clone()]);
            if self.shared && self.weight_sin.is_none() && !reanchor {
                // Jakes' model at one Doppler, the hot path: weigh and rotate in one pass over the phasors.
                let (wr, wi, rc, rs) = (self.weight_re[n], self.weight_im[n], self.rot_c[n], self.rot_s[n]);
                for k in 0..m {
                    let (x, y) = (c[k], s[k]);
                    re[k] += wr * x;
                    im[k] += wi * x;
                    c[k] = x * rc - y * rs;
                    s[k] = x * rs + y * rc;
                }
                continue;
            }
            for k in 0..m {
                let w = n * wn + k * wk;
                // x + 0·y is x: leaving out zero sine weights (Jakes' model) changes no bit.
                if let Some((vr, vi)) = &self.weight_sin {
                    re[k] += self.weight_re[w] * c[k] + vr[n * m + k] * s[k];
                    im[k] += self.weight_im[w] * c[k] + vi[n * m + k] * s[k];
                } else {
                    re[k] += self.weight_re[w] * c[k];
                    im[k] += self.weight_im[w] * c[k];
                }
            }
            if reanchor {
                let t = (self.step + 1) as f64;
                let (w, p) = (&self.omega_step[at.clone()], &self.phase0[at]);
                for k in 0..m {
                    let phase = (w[k] * t + p[k]).rem_euclid(2.0 * PI);
                    (c[k], s[k]) = (phase.cos(), phase.sin());
                }
            } else {
                for k in 0..m {
                    let (x, y, w) = (c[k], s[k], n * wn + k * wk);
                    c[k] = x * self.rot_c[w] - y * self.rot_s[w];
                    s[k] = x * self.rot_s[w] + y * self.rot_c[w];
                }
            }
        }
        for ((o, x), y) in out.iter_mut().zip(re.iter()).zip(im.iter()) {
            *o = x * x + y * y;
        }
        self.step += 1;
    }
}

/// The exact autocorrelation E[g*(t) g(t+τ)] of the model above, τ in packet times (for checks).
pub fn model_autocorrelation(fdt: f64, oscillators: u64, tau: f64) -> f64 {
    let n0 = oscillators as usize;
    let n = (4 * n0 + 2) as f64;
    let x = 2.0 * PI * fdt * tau;
    let sum: f64 = (1..=n0).map(|k| (x * (2.0 * PI * k as f64 / n).cos()).cos()).sum();
    (2.0 * sum + x.cos()) / (2 * n0 + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bank_gives_each_simulators_own_samples_bit_for_bit() {
        // Across a re-anchoring (1024 samples), for both models.
        for model in [FadingModel::Jakes, FadingModel::Cisoids] {
            let make = |k: u64| JakesFading::with_model(model, 0.003 * (k + 1) as f64, 8, 1, 40 + k).unwrap();
            let mut alone: Vec<JakesFading> = (0..5).map(make).collect();
            let mut bank = JakesBank::new(&(0..5).map(make).collect::<Vec<_>>()).unwrap();
            let mut out = vec![0.0; 5];
            for _ in 0..2100 {
                bank.next_powers(&mut out);
                for (j, o) in alone.iter_mut().zip(&out) {
                    assert_eq!(j.next_power().to_bits(), o.to_bits());
                }
            }
        }
    }

    #[test]
    fn recurrence_matches_direct_evaluation() {
        // The rotation recurrence with periodic re-anchoring must equal the closed form.
        for model in [FadingModel::Jakes, FadingModel::Cisoids] {
            let mut f = JakesFading::with_model(model, 0.013, 8, 7, 5).unwrap();
            let osc = f.oscillators.clone();
            for i in 0..5000u64 {
                let (re, im) = f.next_gain();
                let (mut dre, mut dim) = (0.0, 0.0);
                for o in &osc {
                    let phase = o.omega_step * i as f64 + o.phase0;
                    let (c, s) = (phase.cos(), phase.sin());
                    dre += o.weight.0 * c + o.weight_sin.0 * s;
                    dim += o.weight.1 * c + o.weight_sin.1 * s;
                }
                assert!((re - dre).abs() < 1e-9 && (im - dim).abs() < 1e-9, "{model:?} sample {i}");
            }
        }
    }

    #[test]
    fn model_autocorrelation_is_one_at_zero() {
        assert!((model_autocorrelation(0.1, 8, 0.0) - 1.0).abs() < 1e-15);
    }
}
