"""zorzi-rossi-mazzini eqs. (3)-(6): the universal throughput curve, checked against values worked by hand, and
the fit recovering the parameters of points drawn from it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tcpfade.wcdma.curve import PAPER, fit_universal_curve, universal_curve


def test_the_curve_at_a_point_worked_by_hand():
    # f_d = 6 Hz: x_s = 1 / (1.39·6 + 2.78) − 0.03 = 1/11.12 − 0.03 = 0.0599281; P_e = 0.01: x̃ = 1 − 2/3 = 1/3;
    # y = 1 / (1/3 − 0.0599281) − 1 = 2.657571; z = 10^(1.3 · ln y) = 10^1.270637 = 18.650; f = S(0)·z / (z + 1)
    # = 0.94911 S(0).
    x_s = 1 / (1.39 * 6 + 2.78) - 0.03
    y = 1 / (1 / 3 - x_s) - 1
    z = 10 ** (1.3 * math.log(y))
    assert universal_curve(0.01, 6.0, s0=1.0) == pytest.approx(z / (z + 1), rel=1e-12)
    assert z / (z + 1) == pytest.approx(0.94911, abs=1e-5)


def test_the_curves_limits_and_shape():
    pe = np.logspace(-6, 0, 200)
    for fd in (2.0, 6.0, 20.0, 40.0):
        f = universal_curve(pe, fd)
        # S(0) at rare errors; at P_e = 1 under 1% of it (exactly 0 where x_s < 0, i.e. f_d > 30.7 Hz).
        assert f[0] == pytest.approx(472 / 512) and f[-1] < 0.01 * 472 / 512
        assert np.all(np.diff(f) <= 1e-15)     # throughput never rises with the error rate
    # Slower fading is better at the same P_e (the paper's Fig. 1).
    assert universal_curve(0.05, 2.0) > universal_curve(0.05, 40.0)


def test_the_fit_recovers_the_parameters_of_points_drawn_from_the_curve():
    rng = np.random.default_rng(5)
    pe = 10 ** rng.uniform(-3, -0.2, 120)
    fd = rng.choice([2.0, 6.0, 20.0, 40.0], 120)
    s = np.array([universal_curve(p, f) for p, f in zip(pe, fd)]) + rng.normal(0, 0.01, 120)
    fit = fit_universal_curve(pe, np.clip(s, 0, 1), fd)
    for name in ("A", "B", "k", "alpha"):
        assert abs(getattr(fit, name) - PAPER[name]) < 4 * fit.errors[name] + 1e-6, (name, fit)
    assert fit.rms_residual == pytest.approx(0.01, rel=0.25)


def test_one_doppler_fits_k_and_alpha_and_holds_a_and_b():
    """At a single Doppler only x_s = 1/(A f_d + B) − k is determined: A and B stay at the paper's values and k, α
    are recovered from noisy points drawn with k = 0.05, α = 1.1 (within four standard errors)."""
    rng = np.random.default_rng(3)
    pe = 10 ** rng.uniform(-3, -0.2, 150)
    s = np.clip(universal_curve(pe, 6.0, k=0.05, alpha=1.1) + rng.normal(0, 0.01, pe.size), 0, 1)
    fit = fit_universal_curve(pe, s, 6.0)
    assert fit.held == ("A", "B") and (fit.A, fit.B) == (1.39, 2.78) and fit.errors["A"] == 0.0
    assert abs(fit.k - 0.05) < 4 * fit.errors["k"] and abs(fit.alpha - 1.1) < 4 * fit.errors["alpha"]
    assert fit.rms_residual < 0.012


def test_a_fit_with_several_faults_names_the_first_of_its_inputs():
    """S(0) is checked after the points (where the curve's first evaluation checked it), so a call with a wrong S(0) and
    too few throughputs names the throughputs, as it always did."""
    pe = np.logspace(-3, -0.3, 20)
    with pytest.raises(Exception, match="throughput = an array of 19 values"):
        fit_universal_curve(pe, np.full(19, 0.5), 6.0, s0=0.0)
    with pytest.raises(Exception, match="s0 = 0.0 is not allowed"):
        fit_universal_curve(pe, universal_curve(pe, 6.0), 6.0, s0=0.0)
