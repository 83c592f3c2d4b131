"""Published channel tables recomputed from first principles.

- :func:`chockalingam_table1`: chockalingam Table 1 (F, p, q, mean burst for three fD·T and three
  P_E) from zorzi-rao eqs. (2)-(5).
- :func:`fit_versus_analysis`: zorzi-rao §5.1, Markov parameters fitted to bit-level Jakes traces
  (the "hybrid" approach) beside those of eq. (3) at the same error rate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .. import _validate as v
from .fading import ERROR_RATE, FDT
from .fit import fit_markov
from .jakes import BitLevelFading, ThresholdFading, snr_for_error_rate
from .markov import GilbertElliott

if TYPE_CHECKING:
    import pandas as pd

#: The grid of chockalingam Table 1.
TABLE1_FDT = (0.01, 0.08, 0.64)
TABLE1_ERROR_RATES = (0.001, 0.01, 0.1)

#: The Doppler values of zorzi-rao Figs. 1-4.
ZORZI_RAO_FIT_FDT = (0.001, 0.008, 0.032, 0.128)


def chockalingam_table1(fdts: Iterable[float] = TABLE1_FDT,
                        error_rates: Iterable[float] = TABLE1_ERROR_RATES) -> pd.DataFrame:
    """chockalingam Table 1 recomputed: fD·T, P_E, F (dB), p, q, mean burst (1 - q)^-1."""
    import pandas as pd
    rows = []
    for fdt in fdts:
        for pe in error_rates:
            ch = GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
            rows.append({"fdt": fdt, "error_rate": pe, "fading_margin_db": ch.fading_margin_db, "p": ch.p,
                         "q": ch.q, "mean_burst": ch.mean_burst})
    return pd.DataFrame(rows)


def _burst_ci(fit, z: float = 1.96) -> float:
    """Half-width of the normal confidence interval of the mean burst length (bursts taken as i.i.d.)."""
    lengths = np.array(list(fit.burst_lengths), dtype=float)
    counts = np.array(list(fit.burst_lengths.values()), dtype=float)
    if fit.bursts < 2:
        return math.inf
    mean = (lengths * counts).sum() / counts.sum()
    var = (counts * (lengths - mean) ** 2).sum() / (counts.sum() - 1)
    return z * math.sqrt(var / counts.sum())


def fit_versus_analysis(fdts: Iterable[float] = ZORZI_RAO_FIT_FDT, error_rates: Iterable[float] = (0.01, 0.1), *,
                        slots: int = 4_000_000, packet_bits: int = 8192, seed: int = 1,
                        progress=None) -> pd.DataFrame:
    """Markov parameters from Jakes traces against eq. (3) (zorzi-rao §5.1, Figs. 1-4).

    For each fD·T and target error rate: the bit-level model's SNR giving that error rate is found,
    a trace of ``slots`` packets is simulated and fitted (hybrid approach); the analytic chain of
    eq. (3) is taken at the error rate the trace actually shows. A threshold-model trace of the
    stationary cisoid simulator (M = 64) at the same error rate is fitted too: eq. (3) is exact for
    the one-step transitions of a sampled Rayleigh process, so those columns check simulator and
    formula against each other. ``progress`` is an
    optional callable taking a short description, called after each point.
    """
    import pandas as pd
    n = v.integer("slots", slots, 1000)
    fdts = [FDT.check("fdt", x) for x in fdts]
    error_rates = [ERROR_RATE.check("error_rate", x) for x in error_rates]
    rows = []
    for fdt in fdts:
        for target in error_rates:
            snr_db = snr_for_error_rate(target, fdt, packet_bits=packet_bits, packets=max(20_000, int(200 / fdt)),
                                        batches=10, seed=seed)
            traces = (BitLevelFading(fdt, snr_db, packet_bits=packet_bits).trace(n, seed=seed),
                      ThresholdFading(fdt, error_rate=target, fading_model="cisoids").trace(n, seed=seed))
            for trace in traces:
                if trace.all() or not trace.any():
                    # A trace without a loss (or a success) fits nothing: too few slots for this error rate.
                    raise v.fail("slots", n, f"too few for error_rate {target:g} at fdt {fdt:g}: a trace of {n} slots "
                                             f"had {int(trace.sum())} losses, and a fit needs losses and successes")
            bit, thr = (fit_markov(trace) for trace in traces)
            analytic = GilbertElliott.from_fading(error_rate=bit.error_rate, fdt=fdt)
            analytic_thr = GilbertElliott.from_fading(error_rate=thr.error_rate, fdt=fdt)
            rows.append({
                "fdt": fdt, "target_error_rate": target, "snr_db": snr_db,
                "bitlevel_error_rate": bit.error_rate, "bitlevel_mean_burst": bit.mean_burst,
                "bitlevel_burst_ci": _burst_ci(bit), "analytic_mean_burst": analytic.mean_burst,
                "bitlevel_q": bit.q, "analytic_q": analytic.q,
                "threshold_error_rate": thr.error_rate, "threshold_mean_burst": thr.mean_burst,
                "threshold_burst_ci": _burst_ci(thr), "threshold_analytic_mean_burst": analytic_thr.mean_burst,
            })
            if progress is not None:
                progress(f"fdt={fdt:g} error_rate={target:g}")
    return pd.DataFrame(rows)
