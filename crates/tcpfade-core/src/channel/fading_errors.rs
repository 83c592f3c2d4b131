//! Packet errors from simulated Rayleigh fading (zorzi-rao §3.1 and §5.1; BRIEF D6).
//!
//! - Threshold model ([`ThresholdChannel`]): the fading is sampled once per packet and the packet
//!   is lost when the received power |g|² falls below 1/F, F the fading margin (linear). For a
//!   Rayleigh gain this gives zorzi-rao eq. (2), ε = 1 − e^{−1/F}.
//! - Bit-level model ([`BitLevelChannel`]): the fading is sampled `samples_per_packet` times per
//!   packet; the bits of a packet are split evenly among the samples, bit errors are independent
//!   given the instantaneous SNR γ = γ̄ |g|², and the packet is lost when any bit is wrong:
//!   P(correct) = Π_k (1 − P_b(γ_k))^{n_k}. No coding.

use super::jakes::{FadingSpec, JakesFading};
use super::SlotChannel;
use crate::check;
use crate::error::{Error, Result};
use crate::rng::{stream, Rng, Stream};
use crate::watch::Watch;
use rand::Rng as _;

/// Modulation, giving the bit error probability P_b(γ) at instantaneous SNR per bit γ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modulation {
    /// Coherent BPSK (and Gray-coded QPSK per bit): P_b = Q(√(2γ)) = ½ erfc(√γ).
    Bpsk,
    /// Coherent binary FSK: P_b = Q(√γ) = ½ erfc(√(γ/2)).
    CoherentFsk,
    /// Differential BPSK: P_b = ½ e^{−γ}.
    Dpsk,
    /// Non-coherent binary FSK: P_b = ½ e^{−γ/2}.
    NoncoherentFsk,
}

impl Modulation {
    /// Names accepted by [`Modulation::from_name`].
    pub const NAMES: [&'static str; 4] = ["bpsk", "coherent-fsk", "dpsk", "noncoherent-fsk"];

    /// Parse a modulation name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Self> {
        match name.to_ascii_lowercase().as_str() {
            "bpsk" | "qpsk" => Ok(Modulation::Bpsk),
            "coherent-fsk" | "fsk" => Ok(Modulation::CoherentFsk),
            "dpsk" => Ok(Modulation::Dpsk),
            "noncoherent-fsk" => Ok(Modulation::NoncoherentFsk),
            _ => Err(Error::invalid(
                "modulation",
                name,
                &format!("must be one of {}", Self::NAMES.join(", ")),
            )),
        }
    }

    /// Bit error probability at instantaneous SNR per bit `gamma` (linear).
    #[inline]
    pub fn bit_error_probability(self, gamma: f64) -> f64 {
        match self {
            Modulation::Bpsk => 0.5 * libm::erfc(gamma.sqrt()),
            Modulation::CoherentFsk => 0.5 * libm::erfc((0.5 * gamma).sqrt()),
            Modulation::Dpsk => 0.5 * (-gamma).exp(),
            Modulation::NoncoherentFsk => 0.5 * (-0.5 * gamma).exp(),
        }
    }
}

/// Jakes fading sampled once per slot; a packet is lost when |g|² < 1/F.
#[derive(Debug, Clone)]
pub struct ThresholdChannel {
    fading: JakesFading,
    threshold: f64,
    last_lost: bool,
}

impl ThresholdChannel {
    /// Threshold channel over the fading process `fading`, with fading margin `fading_margin`
    /// (linear).
    pub fn new(fading: FadingSpec, fading_margin: f64, seed: u64) -> Result<Self> {
        check::positive("fading_margin", fading_margin)?;
        Ok(ThresholdChannel {
            fading: fading.build(1, seed)?,
            threshold: 1.0 / fading_margin,
            last_lost: false,
        })
    }
}

impl SlotChannel for ThresholdChannel {
    #[inline]
    fn next_slot(&mut self) -> Result<bool> {
        self.last_lost = self.fading.next_power() < self.threshold;
        Ok(self.last_lost)
    }

    fn state(&self) -> u8 {
        u8::from(self.last_lost)
    }
}

/// Per-packet probability of correct reception under the bit-level model, from the fading
/// samples that cover the packet.
#[derive(Debug, Clone)]
struct PacketErrorModel {
    modulation: Modulation,
    /// Bits carried by each fading sample of a packet (they differ by at most one).
    bits_per_sample: Vec<u64>,
}

impl PacketErrorModel {
    fn new(packet_bits: u64, samples_per_packet: u64, modulation: Modulation) -> Self {
        let base = packet_bits / samples_per_packet;
        let extra = packet_bits % samples_per_packet;
        let bits_per_sample = (0..samples_per_packet).map(|k| base + u64::from(k < extra)).collect();
        PacketErrorModel { modulation, bits_per_sample }
    }

    /// ln P(correct) of the packet whose sample powers are `powers`, at average SNR `snr`.
    #[inline]
    fn log_success(&self, powers: &[f64], snr: f64) -> f64 {
        powers
            .iter()
            .zip(&self.bits_per_sample)
            .map(|(&power, &bits)| {
                bits as f64 * (-self.modulation.bit_error_probability(snr * power)).ln_1p()
            })
            .sum()
    }
}

/// Jakes fading sampled within each packet; a packet is lost when any of its bits is wrong.
#[derive(Debug, Clone)]
pub struct BitLevelChannel {
    fading: JakesFading,
    snr: f64,
    model: PacketErrorModel,
    powers: Vec<f64>,
    loss_rng: Rng,
    last_lost: bool,
}

impl BitLevelChannel {
    /// Bit-level channel over `fading`: average SNR per bit `snr` (linear), packets of
    /// `packet_bits` bits, `modulation`, `samples_per_packet` fading samples per packet.
    pub fn new(
        fading: FadingSpec,
        snr: f64,
        packet_bits: u64,
        modulation: Modulation,
        samples_per_packet: u64,
        seed: u64,
    ) -> Result<Self> {
        check::positive("snr", snr)?;
        check::int_in("packet_bits", packet_bits, 1, 1 << 40)?;
        if samples_per_packet > packet_bits {
            return Err(Error::invalid(
                "samples_per_packet",
                samples_per_packet,
                &format!("must not exceed packet_bits = {packet_bits}"),
            ));
        }
        Ok(BitLevelChannel {
            fading: fading.build(samples_per_packet, seed)?,
            snr,
            model: PacketErrorModel::new(packet_bits, samples_per_packet, modulation),
            powers: vec![0.0; samples_per_packet as usize],
            loss_rng: stream(seed, Stream::ChannelLoss),
            last_lost: false,
        })
    }
}

fn fill_powers(fading: &mut JakesFading, powers: &mut [f64]) {
    for p in powers.iter_mut() {
        *p = fading.next_power();
    }
}

impl SlotChannel for BitLevelChannel {
    fn next_slot(&mut self) -> Result<bool> {
        fill_powers(&mut self.fading, &mut self.powers);
        let success = self.model.log_success(&self.powers, self.snr).exp();
        self.last_lost = self.loss_rng.random::<f64>() >= success;
        Ok(self.last_lost)
    }

    fn state(&self) -> u8 {
        u8::from(self.last_lost)
    }
}

/// The threshold model in real time (the link driver and the emulator): Jakes fading at fD Hz (`fading.fdt`
/// is fD, a sample being one second), a packet lost when the power at its start is below 1/F. It evolves
/// whether or not packets are sent; asked at k/μ it is [`ThresholdChannel`] at fD·T = fD/μ.
#[derive(Debug, Clone)]
pub struct TimedThreshold {
    fading: JakesFading,
    threshold: f64,
}

impl TimedThreshold {
    /// Over Jakes fading at fD = `fading.fdt` Hz, with fading margin `fading_margin` (linear).
    pub fn new(fading: FadingSpec, fading_margin: f64, seed: u64) -> Result<Self> {
        check::positive("fading_margin", fading_margin)?;
        check::positive("doppler_hz", fading.fdt)?;
        Ok(TimedThreshold { fading: fading.build(1, seed)?, threshold: 1.0 / fading_margin })
    }
}

impl crate::channel::LinkChannel for TimedThreshold {
    fn lost(&mut self, start: f64, _duration: f64) -> Result<bool> {
        Ok(self.fading.power_at(start) < self.threshold)
    }
}

/// The bit-level model in real time: Jakes fading at fD Hz sampled `samples_per_packet` times evenly across
/// [t, t + d), the packet lost when any bit is wrong. Asked at k/μ for d = 1/μ it is [`BitLevelChannel`] at
/// fD·T = fD/μ.
#[derive(Debug, Clone)]
pub struct TimedBitLevel {
    fading: JakesFading,
    snr: f64,
    model: PacketErrorModel,
    powers: Vec<f64>,
    loss_rng: Rng,
}

impl TimedBitLevel {
    /// Over Jakes fading at fD = `fading.fdt` Hz: average SNR per bit `snr` (linear), `packet_bits` bits,
    /// `modulation`, `samples_per_packet` fading samples per packet.
    pub fn new(
        fading: FadingSpec,
        snr: f64,
        packet_bits: u64,
        modulation: Modulation,
        samples_per_packet: u64,
        seed: u64,
    ) -> Result<Self> {
        check::positive("doppler_hz", fading.fdt)?;
        // The same checks and streams as the slotted model's, so that both draw the same losses.
        let slotted = BitLevelChannel::new(fading, snr, packet_bits, modulation, samples_per_packet, seed)?;
        Ok(TimedBitLevel {
            fading: fading.build(1, seed)?,
            snr,
            model: slotted.model,
            powers: slotted.powers,
            loss_rng: slotted.loss_rng,
        })
    }
}

impl crate::channel::LinkChannel for TimedBitLevel {
    fn lost(&mut self, start: f64, duration: f64) -> Result<bool> {
        let step = duration / self.powers.len() as f64;
        for (j, p) in self.powers.iter_mut().enumerate() {
            *p = self.fading.power_at(start + j as f64 * step);
        }
        let success = self.model.log_success(&self.powers, self.snr).exp();
        Ok(self.loss_rng.random::<f64>() >= success)
    }
}

/// Average packet error probability of the bit-level model at several average SNRs, over the
/// same fading realization (common random numbers, so the curve is smooth in SNR).
///
/// The packet error probability of each packet given its fading is averaged instead of drawing a
/// loss (a conditional expectation, so the estimate has less variance). Returns a matrix of
/// `snrs.len()` rows, each the means over `batches` consecutive batches of packets, from which the
/// caller forms the mean and a batch-means confidence interval. `watch` is told the fraction of the
/// packets done (zorzi-rao Fig. 7's slowest curve takes half a minute) and can stop the run.
// The arguments are the Python call's, one to one; a struct would only be unpacked again by the binding.
#[allow(clippy::too_many_arguments)]
pub fn bit_level_error_rate_batches(
    fading: FadingSpec,
    snrs: &[f64],
    packet_bits: u64,
    modulation: Modulation,
    samples_per_packet: u64,
    packets: u64,
    batches: u64,
    seed: u64,
    watch: &mut Watch<'_>,
) -> Result<Vec<Vec<f64>>> {
    for &snr in snrs {
        check::positive("snr", snr)?;
    }
    check::int_in("batches", batches, 1, 1 << 20)?;
    if packets < batches {
        return Err(Error::invalid("packets", packets, &format!("must be at least batches = {batches}")));
    }
    let mut channel =
        BitLevelChannel::new(fading, 1.0, packet_bits, modulation, samples_per_packet, seed)?;
    let per_batch = packets / batches;
    let mut out = vec![vec![0.0; batches as usize]; snrs.len()];
    for b in 0..batches as usize {
        let mut sums = vec![0.0; snrs.len()];
        for i in 0..per_batch {
            watch.tick(|| (b as u64 * per_batch + i) as f64 / (batches * per_batch) as f64)?;
            fill_powers(&mut channel.fading, &mut channel.powers);
            for (sum, &snr) in sums.iter_mut().zip(snrs) {
                *sum += -channel.model.log_success(&channel.powers, snr).exp_m1();
            }
        }
        for (row, sum) in out.iter_mut().zip(sums) {
            row[b] = sum / per_batch as f64;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_error_probabilities() {
        // Values of Q(√(2γ)) etc. at γ = 1 from tables of the Gaussian tail: Q(√2) = 0.0786496.
        assert!((Modulation::Bpsk.bit_error_probability(1.0) - 0.078_649_6).abs() < 1e-7);
        // Q(1) = 0.1586553.
        assert!((Modulation::CoherentFsk.bit_error_probability(1.0) - 0.158_655_3).abs() < 1e-7);
        assert!((Modulation::Dpsk.bit_error_probability(0.0) - 0.5).abs() < 1e-15);
        assert!(Modulation::from_name("qam").is_err());
    }

    #[test]
    fn bits_are_split_evenly() {
        let m = PacketErrorModel::new(10, 4, Modulation::Bpsk);
        assert_eq!(m.bits_per_sample, vec![3, 3, 2, 2]);
    }
}
