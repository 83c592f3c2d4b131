"""The abouzeid §IV analysis (draft, issue 7): internal consistency and the paper's own closed-form numbers.
Agreement with Table III and with the simulator is not claimed yet (docs/validation.md)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tcpfade.analysis.link import analyze_link


@pytest.mark.parametrize("kwargs", [
    dict(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2),      # Table III, beta > 1
    dict(rate=250, tau=0.1, beta=0.5, mean_good=0.3, mean_bad=0.01),    # beta < 1
    dict(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001),  # Fig. 8
])
def test_chains_are_stochastic_and_outcomes_a_distribution(kwargs):
    a = analyze_link(**kwargs)
    for chain in (a.good_chain, a.bad_chain):
        assert np.all(chain >= -1e-15)
        np.testing.assert_allclose(chain.sum(axis=1), 1.0, atol=1e-12)
    total = a.outcome["no_loss"] + a.outcome["triple_duplicate"] + a.outcome["timeout"]
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    assert np.all(a.outcome["no_loss"][a.max_window - 1:] == 0)  # above muT the round has no idle time
    assert a.p_no_loss + a.p_triple_duplicate + a.p_timeout == pytest.approx(1.0)
    assert 0 < a.goodput <= a.ideal_goodput


def test_figure_8_limit_of_the_triple_duplicate_probability():
    # abouzeid §V-C: for w >= muT and E[Y] << T, P_TD = exp(-3/(mu E[X])) = 0.86 and P_TO = 0.14.
    a = analyze_link(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001)
    above = np.arange(1, a.max_window + 1) > a.pipe + 1
    expected = math.exp(-3 / (250 * 0.08))
    np.testing.assert_allclose(a.outcome["triple_duplicate"][above], expected, rtol=1e-3)
    assert expected == pytest.approx(0.86, abs=0.005)


def test_slow_fading_approaches_the_ceiling_of_eq_20():
    # Long good and bad states: every good state is sampled and nearly all spent in the ideal cycle, so
    # rho -> (1 - f) rho_ideal (abouzeid eq. (20)); the timeouts after each bad state cost ~3e-4 of the time.
    # rho_ideal counts whole packets per cycle (the paper's integer rule): 121 of 121.5 here.
    a = analyze_link(rate=100, tau=0.01, beta=8, mean_good=80000.0, mean_bad=20000.0)
    assert a.goodput == pytest.approx(a.goodput_ceiling, rel=2e-3)
    b = analyze_link(rate=1000, tau=0.1, buffer=50, mean_good=80000.0, mean_bad=20000.0)   # beta < 1
    # Table II's fluid value is 0.9634 with w_p/2 = 75.5; the analysis' cycle starts at the integer 75.
    assert b.ideal_goodput == pytest.approx(0.9634, rel=3e-3)
    assert b.goodput == pytest.approx(b.goodput_ceiling, rel=2e-3)
