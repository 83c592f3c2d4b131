"""Fading simulators and the packet errors they cause, against theory.

Independent references: the Rayleigh law (exponential power, J0 autocorrelation,
ε = 1 - exp(-1/F)), zorzi-rao eq. (3) and, for Jakes with 8 oscillators (which is only
approximately Rayleigh), the exact moments of its own finite sum derived in docs/models.md.
Tolerances: 4 standard errors from replications or batch means, or the stated test level.
"""

import math

import numpy as np
import pytest
from scipy import integrate, special, stats

import tcpfade
from tcpfade.channels.jakes import fading_autocorrelation, fading_gain


def jakes_weights(n0):
    beta = np.pi * np.arange(1, n0 + 1) / n0
    c = np.concatenate([2 * np.exp(1j * beta), [np.sqrt(2) * np.exp(1j * np.pi / 4)]])
    return c / np.sqrt(2 * n0 + 1)


def jakes_fourth_moment(n0):
    """E|g|^4 of g = Σ c_k cos φ_k with independent uniform φ_k, by hand:
    E cos^4 = 3/8, E cos^2 = 1/2, so E|g|^4 = 3/8 Σ|c|^4 + 1/4 Σ_{k≠l} (2|c_k|^2|c_l|^2 + Re((c_k c_l*)^2))."""
    c = jakes_weights(n0)
    a = np.abs(c) ** 2
    total = 3 / 8 * (a**2).sum()
    for k in range(len(c)):
        for m in range(len(c)):
            if k != m:
                total += 0.25 * (2 * a[k] * a[m] + np.real((c[k] * np.conj(c[m])) ** 2))
    return total


def test_jakes_power_moments_match_its_exact_theory():
    # fdt = 10.37 per sample: samples ~10 Doppler periods apart, effectively independent.
    g = fading_gain(10.37, 400_000, seed=11)
    power = np.abs(g) ** 2
    n = power.size
    m1, m2 = power.mean(), (power**2).mean()
    assert abs(m1 - 1.0) < 4 * power.std() / math.sqrt(n)
    expected = jakes_fourth_moment(8)
    assert expected == pytest.approx(1.8322, abs=1e-4)  # vs 2 for an exact Rayleigh envelope
    assert abs(m2 - expected) < 4 * (power**2).std() / math.sqrt(n)


@pytest.mark.parametrize("fading_model,oscillators", [("cisoids", 128), ("cisoids", 256)])
def test_envelope_power_is_exponential(fading_model, oscillators):
    # Goodness of fit at level 0.001 on 10,000 nearly independent samples. The finite sum deviates
    # from Rayleigh by O(1/M) (E|g|^4 = 2 - 1/M), far below what this test can resolve.
    power = np.abs(fading_gain(10.37, 10_000, seed=5, fading_model=fading_model, oscillators=oscillators)) ** 2
    assert stats.kstest(power, "expon").pvalue > 1e-3


def test_jakes_with_8_oscillators_is_detectably_not_rayleigh():
    # Documented model property (docs/validation/zorzi-rao.md): with enough samples the test rejects it.
    power = np.abs(fading_gain(10.37, 100_000, seed=5)) ** 2
    assert stats.kstest(power, "expon").pvalue < 1e-6


def test_jakes_model_autocorrelation_is_close_to_j0():
    # Deterministic: the 17-point quadrature equals J0 to 1e-6 over 3 coherence times.
    lag = np.linspace(0, 3.0, 301)  # fD τ from 0 to 3
    model = fading_autocorrelation(1.0, lag)
    assert np.max(np.abs(model - special.j0(2 * np.pi * lag))) < 1e-6


@pytest.mark.parametrize("fading_model", ["jakes", "cisoids"])
def test_simulated_autocorrelation_matches_j0(fading_model):
    fdt, lags, seeds = 0.02, np.arange(0, 151, 5), range(12)  # lags up to fD τ = 3
    estimates = []
    for seed in seeds:
        g = fading_gain(fdt, 200_000, seed=seed, fading_model=fading_model)
        estimates.append([np.mean(np.conj(g[: g.size - k]) * g[k:]).real for k in lags])
    estimates = np.array(estimates)
    mean = estimates.mean(axis=0)
    se = estimates.std(axis=0, ddof=1) / math.sqrt(len(seeds))
    target = special.j0(2 * np.pi * fdt * lags)
    assert np.all(np.abs(mean - target) < 4 * se + 1e-6), np.max(np.abs(mean - target) / (se + 1e-12))


@pytest.mark.parametrize("error_rate", [0.01, 0.1])
def test_threshold_error_rate_is_rayleigh(error_rate, scale):
    n = int(400_000 * scale)
    ch = tcpfade.ThresholdFading(10.37, error_rate=error_rate, fading_model="cisoids", oscillators=512)
    measured = ch.trace(n, seed=3).mean()
    expected = ch.rayleigh_error_rate
    assert expected == pytest.approx(error_rate)
    assert abs(measured - expected) < 4 * math.sqrt(expected * (1 - expected) / n)


@pytest.mark.parametrize("fdt,error_rate", [(0.05, 0.05), (0.128, 0.1)])
def test_threshold_transitions_match_eq3(fdt, error_rate, scale):
    # eq. (3) is exact for the one-step transitions of a sampled Rayleigh process: replications
    # of the stationary cisoid simulator must agree with it within their confidence interval.
    reps = 10
    n = int(1_000_000 * scale)
    ch = tcpfade.ThresholdFading(fdt, error_rate=error_rate, fading_model="cisoids", oscillators=128)
    fits = [tcpfade.fit_markov(ch.trace(n, seed=s)) for s in range(reps)]
    theory = tcpfade.GilbertElliott.from_fading(error_rate=error_rate, fdt=fdt)
    for name, value in (("p_counted", theory.p), ("q_counted", theory.q)):
        x = np.array([getattr(f, name) for f in fits])
        half = stats.t.ppf(0.99995, reps - 1) * x.std(ddof=1) / math.sqrt(reps)
        assert abs(x.mean() - value) < half, (name, x.mean(), value, half)


def slow_fading_packet_error_rate(snr, bits):
    """Bit-level PER when the fading is constant over a packet: ∫ (1 - (1 - Pb(γ̄x))^L) e^-x dx."""
    def integrand(x):
        pb = 0.5 * special.erfc(math.sqrt(snr * x))
        return -math.expm1(bits * math.log1p(-pb)) * math.exp(-x)
    val, _ = integrate.quad(integrand, 0, 50, points=[1e-4, 1e-3, 1e-2, 0.1, 1], limit=200)
    return val


@pytest.mark.parametrize("snr_db", [15.0, 25.0])
def test_bit_level_slow_fading_matches_integral(snr_db, scale):
    packets = int(2_000_000 * scale)
    table = tcpfade.bit_level_error_rate(0.0005, [snr_db], packet_bits=8192, fading_model="cisoids",
                                         oscillators=128, packets=packets, batches=50, seed=2)
    row = table.iloc[0]
    expected = slow_fading_packet_error_rate(10 ** (snr_db / 10), 8192)
    # Widen the 95% batch-means interval to ~4 standard errors.
    half = (row.error_rate_high - row.error_rate_low) / 2 * 4 / 1.96 * 1.05
    assert abs(row.error_rate - expected) < half, (row.error_rate, expected, half)


@pytest.mark.parametrize("snr_db", [15.0, 25.0, 35.0])
def test_fast_fading_is_worse_at_equal_snr(snr_db):
    # zorzi-rao §5.2 / Fig. 7: at the same average SNR, fast fading (fD·T = 0.256) gives more packet
    # errors than slow or medium fading, beyond both confidence intervals. (0.001 and 0.016 are
    # nearly equal for 1024-byte packets below ~20 dB: docs/validation/zorzi-rao.md.)
    rows = [tcpfade.bit_level_error_rate(fdt, [snr_db], packets=200_000, seed=4).iloc[0]
            for fdt in (0.001, 0.016, 0.256)]
    fast = rows[2]
    for slow in rows[:2]:
        assert fast.error_rate_low > slow.error_rate_high


def test_bit_level_trace_error_rate_matches_mean_probability():
    ch = tcpfade.BitLevelFading(0.05, 20.0)
    losses = ch.trace(400_000, seed=9)
    table = tcpfade.bit_level_error_rate(0.05, [20.0], packets=400_000, batches=40, seed=9)
    row = table.iloc[0]
    # Same fading realization (same seed), losses drawn on top: difference is binomial noise.
    assert abs(losses.mean() - row.error_rate) < 4 * math.sqrt(row.error_rate / losses.size)


def test_same_seed_same_trace_different_seed_different_trace():
    ch = tcpfade.ThresholdFading(0.01, error_rate=0.1)
    a, b, c = ch.trace(10_000, seed=1), ch.trace(10_000, seed=1), ch.trace(10_000, seed=2)
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_simulator_inputs_are_validated():
    with pytest.raises(tcpfade.ParameterError, match="fading_model"):
        tcpfade.ThresholdFading(0.01, error_rate=0.1, fading_model="clarke")
    with pytest.raises(tcpfade.ParameterError, match="modulation"):
        tcpfade.BitLevelFading(0.01, 10.0, modulation="qam")
    with pytest.raises(tcpfade.ParameterError, match="samples_per_packet"):
        tcpfade.BitLevelFading(0.01, 10.0, packet_bits=4, samples_per_packet=8)
    with pytest.raises(tcpfade.ParameterError, match="fdt"):
        fading_gain(0.0, 10, seed=1)
