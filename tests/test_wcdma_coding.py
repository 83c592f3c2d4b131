"""The UMTS channel code (TS 25.212 §4.2.3.1) against independent implementations: the encoder against the
generators' shift register written here from the standard's figure, the Viterbi decoder against a plain numpy
Viterbi decoder on noisy blocks (maximum-likelihood decoding is unique with continuous LLRs, so the two must
agree bit for bit), and the Monte-Carlo block errors against what the code guarantees."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tcpfade
from tcpfade import wcdma

G = (0o561, 0o753)


def reference_encode(bits):
    """The shift register of TS 25.212 Figure 2: the input and 8 delays, each output the parity of its taps."""
    reg = [0] * 9
    out = []
    for b in list(bits) + [0] * 8:
        reg = [int(b)] + reg[:8]
        for g in G:
            taps = [(g >> (8 - k)) & 1 for k in range(9)]
            out.append(sum(t * r for t, r in zip(taps, reg)) % 2)
    return np.array(out, dtype=np.uint8)


def reference_viterbi(llr, info_bits):
    """Textbook soft Viterbi over 256 states (state = the 8 most recent inputs, newest first), numpy per step."""
    states = np.arange(256)
    steps = info_bits + 8
    outputs = np.zeros((256, 2, 2), dtype=int)     # [state, input] -> (c0, c1)
    nxt = np.zeros((256, 2), dtype=int)
    for s in range(256):
        for u in range(2):
            reg = (u << 8) | s
            outputs[s, u] = [bin(reg & g).count("1") % 2 for g in G]
            nxt[s, u] = reg >> 1
    metric = np.full(256, -np.inf)
    metric[0] = 0.0
    back = np.zeros((steps, 256), dtype=int)        # predecessor state
    back_in = np.zeros((steps, 256), dtype=int)
    for t in range(steps):
        l0, l1 = llr[2 * t], llr[2 * t + 1]
        new = np.full(256, -np.inf)
        for u in (0, 1):
            c = outputs[states, u]
            cand = metric + np.where(c[:, 0] == 0, l0, -l0) + np.where(c[:, 1] == 0, l1, -l1)
            for s in states[np.isfinite(cand)]:
                n = nxt[s, u]
                if cand[s] > new[n]:
                    new[n], back[t, n], back_in[t, n] = cand[s], s, u
        metric = new
    s, bits = 0, []
    for t in range(steps - 1, -1, -1):
        bits.append(back_in[t, s])
        s = back[t, s]
    return np.array(bits[::-1][:info_bits], dtype=np.uint8)


def test_encoder_is_the_standards_shift_register():
    rng = np.random.default_rng(1)
    for n in (1, 7, 100):
        bits = rng.integers(0, 2, n).astype(np.uint8)
        assert np.array_equal(wcdma.conv_encode(bits), reference_encode(bits))


def test_viterbi_agrees_with_an_independent_decoder_on_noisy_blocks():
    rng = np.random.default_rng(2)
    disagreements, corrected = 0, 0
    for trial in range(40):
        bits = rng.integers(0, 2, 40).astype(np.uint8)
        coded = reference_encode(bits)
        snr = 10 ** (rng.uniform(-4, 2) / 10)            # Es/N0 from -4 to 2 dB: some blocks fail
        y = (1 - 2 * coded.astype(float)) + rng.normal(0, np.sqrt(1 / (2 * snr)), coded.size)
        llr = (4 * snr * y).astype(np.float32)
        ours = wcdma.viterbi_decode(llr, 40)
        disagreements += not np.array_equal(ours, reference_viterbi(llr.astype(float), 40))
        corrected += np.array_equal(ours, bits) and np.any((y < 0) != (coded == 1))
    assert disagreements == 0
    assert corrected > 5      # blocks with channel errors that both decoded correctly


def test_block_errors_at_the_extremes_and_bad_input():
    assert wcdma.block_error_rate(5.0, blocks=50, seed=1).errors == 0
    assert wcdma.block_error_rate(-10.0, blocks=50, seed=1).errors == 50
    r = wcdma.block_error_rate(np.full(30, -1.5), tti_frames=2, blocks=200, seed=3)
    assert r.low <= r.rate <= r.high and 0 < r.rate < 1
    for kwargs, needle in [(dict(tti_frames=3), "tti_frames = 3 is not allowed"),
                           (dict(sir_db=np.zeros(14)), "sir_db = an array of 14 values"),
                           (dict(sir_db=np.nan), "sir_db"), (dict(blocks=0), "blocks = 0")]:
        with pytest.raises(tcpfade.ParameterError, match=needle):
            wcdma.block_error_rate(**{"sir_db": 0.0, "seed": 1, **kwargs})


def test_wilson_interval_against_scipy_and_at_a_confidence_within_1e_16_of_one():
    """The block error rate's Wilson interval equals scipy's where scipy's is finite, and stays finite and around
    the rate at a confidence of 1 − 1e-16, where scipy's upper end is NaN (the fuzzing suite found it): there z
    is checked against mpmath's inverse of the normal tail at 30 digits."""
    import mpmath
    from scipy import stats

    from tcpfade.wcdma.coding import _wilson

    for errors, n in [(0, 7), (3, 20), (20, 20), (17, 1000)]:
        for confidence in (0.5, 0.95, 0.999):
            ci = stats.binomtest(errors, n).proportion_ci(confidence_level=confidence, method="wilson")
            assert _wilson(errors, n, confidence) == pytest.approx((ci.low, ci.high), rel=1e-12, abs=1e-15)
    confidence = 0.9999999999999999
    with mpmath.workdps(30):
        alpha = 1 - mpmath.mpf(confidence)          # the double's own distance to 1, exactly
        z = float(mpmath.sqrt(2) * mpmath.erfinv(1 - alpha))
    for errors, n in [(0, 20), (7, 20), (20, 20)]:
        low, high = _wilson(errors, n, confidence)
        center, half = (errors + z * z / 2) / (n + z * z), z / (n + z * z) * math.sqrt(errors * (n - errors) / n
                                                                                      + z * z / 4)
        assert low == pytest.approx(max(center - half, 0.0), abs=1e-12)
        assert high == pytest.approx(min(center + half, 1.0), abs=1e-12)
        assert 0.0 <= low <= errors / n <= high <= 1.0
    r = wcdma.block_error_rate(19.999999999999996, blocks=20, seed=0, confidence=confidence, tti_frames=2)
    assert r.errors == 0 and r.low == 0.0 and 0.0 < r.high < 1.0


def test_deeper_interleaving_helps_when_one_frame_is_faded():
    # One frame of a 2-frame TTI deep in a fade (−10 dB), the other clear (5 dB). A 1-frame TTI in that fade
    # is always lost. Inter-frame interleaving sends every other coded bit in the clear frame: the decoder
    # sees the code with half its bits erased, a rate of 2116/2400 ≈ 0.88, which a K = 9 code decodes at 5 dB
    # (at 3 dB it loses about a block in six: too close to its limit for a test).
    sir = np.r_[np.full(15, -10.0), np.full(15, 5.0)]
    assert wcdma.block_error_rate(sir, tti_frames=2, blocks=200, seed=4).errors <= 2
    assert wcdma.block_error_rate(-10.0, tti_frames=1, blocks=50, seed=4).errors == 50


# -- the block-error mapping against the decoder ---------------------------------------------------------------

def _fresh_strings(k, count, seed):
    """Fading SIR strings the calibration never saw (another seed), each shifted so that the mapping predicts a
    block error rate spread over (0.1, 0.9)."""
    from scipy import optimize, special

    from tcpfade.wcdma import mapping

    m = mapping.mapping_for(k)
    rng = np.random.default_rng(seed)
    shapes = mapping._fading_strings(15 * k, count, rng, seed)
    out = []
    for shape in shapes:
        target = special.logit(rng.uniform(0.1, 0.9))
        mean = optimize.brentq(lambda x: special.logit(m.block_error_probability((shape + x)[None, :])[0]) - target,
                               -30, 40)
        out.append(shape + mean)
    return m, np.array(out)


@pytest.mark.parametrize("k", [1, 2])
def test_mapping_predicts_the_decoder_on_strings_it_was_not_fitted_on(k):
    from scipy import special

    m, strings = _fresh_strings(k, 12, seed=900 + k)
    n = 400
    z, z_mean_sir = [], []
    for i, s in enumerate(strings):
        errors = wcdma.block_error_rate(s, tti_frames=k, blocks=n, seed=7000 + i).errors
        p_hat = (errors + 0.5) / (n + 1)
        var = 1 / (n * p_hat * (1 - p_hat))                  # the variance of logit(p̂)
        pred = m.block_error_probability(s[None, :])[0]
        z.append((special.logit(p_hat) - special.logit(pred)) / np.sqrt(var + m.delta ** 2))
        # The naive mapping: the AWGN curve at the string's mean SIR in dB.
        naive = np.clip(m.awgn_bler(np.mean(s)), 1e-12, 1 - 1e-12)
        z_mean_sir.append((special.logit(p_hat) - special.logit(naive)) / np.sqrt(var + m.delta ** 2))
    z = np.array(z)
    # Each standardized residual within 3.5 (P(|N(0,1)| > 3.5) = 5e-4 per string), and no systematic bias:
    # their mean within 3.5 / sqrt(12).
    assert np.all(np.abs(z) < 3.5), z.round(2)
    assert abs(z.mean()) < 3.5 / np.sqrt(len(z)), z.round(2)
    # The effective SIR matters: the mean-SIR mapping misses by far more on the same strings.
    assert np.mean(np.square(z_mean_sir)) > 4 * np.mean(np.square(z))


def test_mapping_on_a_constant_string_is_the_awgn_curve_and_checks_input():
    from tcpfade.wcdma import mapping

    m = mapping.mapping_for(1)
    assert m.effective_sir_db(np.full((1, 15), -1.7))[0] == pytest.approx(-1.7, abs=1e-12)
    p = mapping.block_error_probability(np.full(30, -1.7))
    assert p.shape == (2,) and p[0] == pytest.approx(m.awgn_bler(-1.7))
    # A deeper fade anywhere in the TTI can only hurt.
    s = np.full(15, -1.0)
    worse = s.copy()
    worse[3] = -15.0
    assert m.block_error_probability(worse[None])[0] > m.block_error_probability(s[None])[0]
    with pytest.raises(tcpfade.ParameterError, match="must hold whole TTIs of 15 slots"):
        mapping.block_error_probability(np.zeros(14))
    with pytest.raises(tcpfade.ParameterError, match="tti_frames = 3"):
        mapping.block_error_probability(np.zeros(45), tti_frames=3)


def test_distance_spectrum_is_the_trellis_search():
    """The shipped A_d against the validation script's depth-first search of the trellis (written apart from the
    package), for d up to 16 (the search to 22 takes two minutes)."""
    import importlib.util
    from pathlib import Path

    from tcpfade.wcdma.coding import DISTANCE_SPECTRUM

    path = Path(__file__).resolve().parents[1] / "validation" / "viterbi_union_bound.py"
    spec = importlib.util.spec_from_file_location("viterbi_union_bound", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.spectrum(16) == {d: a for d, a in DISTANCE_SPECTRUM.items() if d <= 16}


def test_awgn_tail_follows_the_union_bound_and_the_decoder():
    """Above 0 dB the AWGN curve is the union bound scaled to meet the fitted cubic: continuous, decreasing, and
    within the decoder's 95% interval at 0.5 and 1 dB (validation/viterbi_union_bound.csv: 20,000 and 60,000
    blocks, seeds the calibration did not use), where the cubic alone gives 1e-5 at 1 dB."""
    from pathlib import Path

    import pandas as pd
    from scipy import special

    from tcpfade.wcdma import mapping
    from tcpfade.wcdma.coding import union_bound

    m = mapping.mapping_for(1)
    x = np.linspace(-1.0, 8.0, 901)
    y = m.awgn_bler(x)
    assert np.all(np.diff(y) < 0)
    assert m.awgn_bler(mapping.TAIL_FROM_DB + 1e-9) == pytest.approx(m.awgn_bler(mapping.TAIL_FROM_DB), rel=1e-6)
    # The tail has the bound's slope: its ratio to the bound is constant.
    ratio = y[x > 0.5] / union_bound(x[x > 0.5])
    assert np.ptp(ratio) < 4e-5 * ratio.mean()
    # The interpolated bound the mapping uses, against the sum itself off its grid points.
    from tcpfade.wcdma.coding import union_bound_fast

    z = np.linspace(-9.9993, 29.9991, 7001)
    exact = union_bound(z)
    keep = exact > 1e-290
    assert np.max(np.abs(union_bound_fast(z, 1)[keep] / exact[keep] - 1)) < 2e-5
    decoder = pd.read_csv(Path(__file__).resolve().parents[1] / "validation" / "viterbi_union_bound.csv")
    for _, row in decoder[decoder.sir_db >= 0.5].iterrows():
        assert row.bler_low <= m.awgn_bler(row.sir_db) <= row.bler_high, row.to_dict()
        cubic = special.expit(np.polyval(m.awgn, row.sir_db))
        if row.sir_db >= 1.0:
            assert cubic < row.bler_low          # what the tail is for


def test_calibrate_command_writes_a_usable_table(tmp_path):
    """A tiny calibration through the command line: the table has every TTI length, a positive β, a decreasing
    AWGN curve, and the mapping reads it back."""
    import json

    from click.testing import CliRunner

    from tcpfade.cli import cli
    from tcpfade.wcdma import mapping

    out = tmp_path / "cal.json"
    result = CliRunner().invoke(cli, ["wcdma", "calibrate", "--blocks", "60", "--strings", "6", "--string-blocks",
                                      "30", "--seed", "3", "--out", str(out)])
    assert result.exit_code == 0, result.output
    table = json.loads(out.read_text())
    assert sorted(table["tti"]) == ["1", "2", "4", "8"]
    for k, entry in table["tti"].items():
        m = mapping.mapping_for(int(k), path=out)
        assert m.beta > 0 and m.delta >= 0
        assert np.all(np.diff(m.awgn_bler(np.linspace(-6, 4, 50))) <= 0)
    # A file in a directory that does not exist is refused before any work.
    bad = CliRunner().invoke(cli, ["wcdma", "calibrate", "--out", str(tmp_path / "missing" / "cal.json")])
    assert bad.exit_code == 2 and "--out" in bad.output
