"""Fading margin / Doppler -> two-state Markov chain (zorzi-rao eqs. 2-5, chockalingam Table 1)."""

import math

import mpmath
import numpy as np
import pytest

import tcpfade
from tcpfade.channels.fading import marcum_q, markov_from_fading, one_minus_j0
from tcpfade.channels.studies import chockalingam_table1
from tcpfade.reproduce.chockalingam import PUBLISHED_TABLE1

# chockalingam Table 1 as printed (fD·T, P_E, F (dB), p, q, (1-q)^-1): the paper's numbers, kept with the
# reproduction that shows them beside ours.
PRINTED_TABLE1 = PUBLISHED_TABLE1


def same_to_4_digits(ours, printed):
    """Agreement within one unit of the 4th significant digit of the printed value: the table
    truncates some entries instead of rounding them (q = 0.0082396 is printed 0.008239)."""
    unit = 10 ** (math.floor(math.log10(abs(printed))) - 3)
    return abs(ours - printed) <= unit


@pytest.mark.parametrize("fdt,pe,f_db,p,q,burst", PRINTED_TABLE1)
def test_chockalingam_table1_recomputed(fdt, pe, f_db, p, q, burst):
    ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
    assert same_to_4_digits(ch.fading_margin_db, f_db)
    assert same_to_4_digits(ch.p, p)
    assert same_to_4_digits(ch.q, q)
    assert ch.error_rate == pytest.approx(pe, rel=1e-12)
    if (fdt, pe) == (0.64, 0.001):
        # D7: the printed q gives 1/(1-q) = 1.00119, not the printed 1.00238.
        assert same_to_4_digits(ch.mean_burst, 1 / (1 - q))
        assert not same_to_4_digits(ch.mean_burst, burst)
    else:
        assert same_to_4_digits(ch.mean_burst, burst)


def test_table1_function_has_nine_rows():
    t = chockalingam_table1()
    assert len(t) == 9 and list(t.columns) == ["fdt", "error_rate", "fading_margin_db", "p", "q", "mean_burst"]


def mp_marcum_q(a, b, dps=40):
    """Independent reference: eq. (5) integrated by mpmath at 40 digits, written with the
    exponentially scaled Bessel function so large arguments do not overflow."""
    with mpmath.workdps(dps):
        a, b = mpmath.mpf(a), mpmath.mpf(b)

        def integrand(w):
            return w * mpmath.exp(-(w - a) ** 2 / 2) * mpmath.besseli(0, a * w) * mpmath.exp(-a * w)

        points = [b] + [x for x in (a - 30, a - 5, a, a + 5, a + 30) if x > b] + [mpmath.inf]
        return mpmath.quad(integrand, points)


def mp_p_gb(fading_margin, fdt, dps=40):
    """p_GB = Q(θ, ρθ) - Q(ρθ, θ) entirely in mpmath."""
    with mpmath.workdps(dps):
        rho = abs(mpmath.besselj(0, 2 * mpmath.pi * mpmath.mpf(fdt)))
        theta = mpmath.sqrt(2 / mpmath.mpf(fading_margin) / (1 - rho**2))
        return mp_marcum_q(theta, rho * theta, dps) - mp_marcum_q(rho * theta, theta, dps)


@pytest.mark.parametrize("a,b", [(0.0, 1.0), (0.5, 0.1), (1.0, 2.0), (3.0, 3.0), (10.0, 9.0), (9.0, 10.0),
                                 (30.0, 29.9), (100.0, 100.5), (2.0, 0.0)])
def test_marcum_q_against_high_precision(a, b):
    assert marcum_q(a, b) == pytest.approx(float(mp_marcum_q(a, b)), rel=1e-10, abs=1e-300)


@pytest.mark.parametrize("fdt", [1e-4, 1e-3, 0.01, 0.256, 0.64])
@pytest.mark.parametrize("f_db", [-10.0, 0.0, 10.0, 20.0, 30.0, 40.0])
def test_transition_probability_finite_and_accurate(fdt, f_db):
    f = 10 ** (f_db / 10)
    p, q = markov_from_fading(f, fdt)
    assert 0 <= p <= 1 and 0 <= q <= 1 and math.isfinite(p) and math.isfinite(q)
    reference = float(mp_p_gb(f, fdt))
    # p_GB is a difference of two Q values; relative accuracy is limited by cancellation only
    # when p_GB is tiny (slow fading, large F), where 1e-6 relative is still far beyond need.
    assert 1 - p == pytest.approx(reference, rel=1e-6, abs=1e-15)
    # Stationarity: ε = p_GB / (p_GB + p_BG) = 1 - exp(-1/F).
    eps = -math.expm1(-1 / f)
    if 1 - p > 0 and 1 - q > 0:
        assert (1 - p) / ((1 - p) + (1 - q)) == pytest.approx(eps, rel=1e-9)


def test_slow_fading_limit_is_persistent():
    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.01, fdt=1e-4)
    assert ch.mean_burst > 100 and ch.p > 0.9999


def test_independent_when_rho_is_zero():
    # At the first zero of J0 (2π fD T = 2.404825557695773) successive samples are independent.
    fdt = 2.404825557695773 / (2 * math.pi)
    ch = tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=fdt)
    assert ch.p == pytest.approx(0.9, abs=1e-9) and ch.q == pytest.approx(0.1, abs=1e-9)


def test_one_minus_j0_matches_scipy_where_safe():
    from scipy.special import j0

    for x in [0.1, 0.3, 0.49, 0.5, 2.0]:
        assert one_minus_j0(x) == pytest.approx(1 - j0(x), rel=1e-12)
    with mpmath.workdps(30):
        assert one_minus_j0(1e-4) == pytest.approx(float(1 - mpmath.besselj(0, mpmath.mpf("1e-4"))), rel=1e-14)


def test_from_burst_round_trip():
    ch = tcpfade.GilbertElliott.from_burst(0.05, 4.0)
    assert ch.error_rate == pytest.approx(0.05) and ch.mean_burst == pytest.approx(4.0)


@pytest.mark.parametrize("kwargs,needle", [
    (dict(fdt=0.01), "give exactly one of"),
    (dict(fdt=0.01, error_rate=0.1, fading_margin_db=10), "give exactly one of"),
    (dict(fdt=-1, error_rate=0.1), "fdt = -1"),
    (dict(fdt=0.01, error_rate=1.0), "error_rate = 1.0"),
])
def test_from_fading_rejects_bad_input(kwargs, needle):
    with pytest.raises(tcpfade.ParameterError, match=needle):
        tcpfade.GilbertElliott.from_fading(**kwargs)


def test_from_burst_rejects_impossible_burst():
    with pytest.raises(tcpfade.ParameterError, match="mean_burst"):
        tcpfade.GilbertElliott.from_burst(0.9, 2.0)
