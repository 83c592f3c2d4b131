"""The statistics zorzi-rossi-mazzini's claims are judged with (python/tcpfade/reproduce/zorzi_rossi_mazzini.py),
on hand-made data: the Student-t interval over placements, the P_e at which S halves, the optimum threshold and
the paired comparisons."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tcpfade.reproduce import zorzi_rossi_mazzini as z
from tcpfade.reproduce import zorzi_rossi_mazzini_threshold as zt


def test_t_interval_by_hand():
    # [1, 2, 3]: mean 2, standard deviation 1, t(0.975, 2 df) = 4.3027: half-width 4.3027 / √3 = 2.4841.
    mean, half = z.t_interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and half == pytest.approx(2.4841, abs=1e-4)
    assert np.isnan(z.t_interval([5.0])[1])


def test_halving_pe_recovers_a_logistic_curve():
    # Users exactly on S = S(0) / (1 + (P_e / 0.03)^2): S halves at P_e = 0.03.
    pe = np.logspace(-3.5, -0.2, 40)
    s = z.S0 / (1 + (pe / 0.03) ** 2)
    assert z.halving_pe(pd.DataFrame({"block_error_rate": pe, "throughput": s})) == pytest.approx(0.03, rel=1e-6)
    # The paper's curve (eqs. (3)-(6), 6 Hz) halves at 0.0478: S(0)·10^(α ln u)/(10^(α ln u) + 1) = S(0)/2 needs
    # u = 1/(x̃ − x_s) − 1 = 1, x̃ = x_s + 1/2, x_s = 1/(1.39·6 + 2.78) − 0.03 = 1/11.12 − 0.03 = 0.05993,
    # so x̃ = 0.55993, log10 P_e = 3(x̃ − 1) = −1.3202 and P_e = 0.04784.
    assert z.paper_halving_pe(6.0) == pytest.approx(0.04784, abs=5e-6)


def _threshold_rows(s_by_t: dict[float, list[float]]) -> pd.DataFrame:
    """One user per placement, S per threshold as given (a row per placement and threshold)."""
    rows = [{"placement": p, "user": 0, "target_sir_db": t, "tcp": "default", "throughput": s,
             "block_error_rate": 0.0, "share_at_max_power": 0.0}
            for t, values in s_by_t.items() for p, s in enumerate(values)]
    return pd.DataFrame(rows)


def test_the_optimum_and_the_thresholds_not_significantly_below_it():
    # Three placements. Mean S: 0.80 at 3.5, 0.90 at 4, 0.89 at 4.5. Paired differences from the best (4 dB):
    # at 4.5 dB [−0.02, 0.00, −0.01], mean −0.01, sd 0.01, half-width 4.3027·0.01/√3 = 0.0248: not significant;
    # at 3.5 dB all −0.10: significant (zero spread).
    d = _threshold_rows({3.5: [0.8, 0.8, 0.8], 4.0: [0.9, 0.9, 0.9], 4.5: [0.88, 0.9, 0.89]})
    o = zt.optimum(d)
    assert o["best"] == 4.0 and o["close"] == [4.0, 4.5]
    assert list(o["per_placement"]) == [4.0, 4.0, 4.0]     # the tie at placement 1 goes to the lower t
    assert zt._optimum_near(3.5, 4.0)(d).holds and not zt._optimum_near(4.5, 5.0)(d).holds
