"""From event counts to the papers' metrics, with batch-means confidence intervals.

Definitions (zorzi-rao §4.1 and eqs. (14)-(18); decision D4-D5 of docs/models.md), D slots, T transmissions,
S correct transmissions, N packets delivered in order to the user, E the energy of one transmission:

- throughput η = N / D; load = T / D; success probability = S / T; correct transmissions per
  slot S / D (≥ η: duplicates count here, not in η);
- transmissions per delivered packet = T / N;
- energy efficiency λ0 = N / (E T), and with circuit energy per active slot w_a and per idle slot
  w_i, λ = N / ((E + w_a) T + w_i (D - T)) (eqs. (14)-(15)), bounded below by
  λ0 (1 - w_a/E - (w_i/E)(1 - η)/η) (eq. (18));
- mean window at loss instants = mean of W over the lost transmissions (chockalingam Fig. 6).

Point estimates are ratios of totals; each confidence interval is a Student-t interval over the
per-batch values of the same ratio (batch means), centred on the point estimate.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._stats import batch_interval  # noqa: F401  (the metrics' intervals; kept here for callers)

Counts = dict[str, np.ndarray]


def _ratio(num: str, den: str, scale: float = 1.0) -> Callable[[Counts], np.ndarray]:
    def f(c: Counts) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(c[num], dtype=float) / (scale * np.asarray(c[den], dtype=float))
    return f


def metric_functions(energy: float, w_active: float, w_idle: float) -> dict[str, Callable[[Counts], np.ndarray]]:
    """Each metric as a function of (total or per-batch) counts."""
    def full_lambda(c: Counts) -> np.ndarray:
        t, d = np.asarray(c["transmissions"], float), np.asarray(c["slots"], float)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(c["delivered"], float) / ((energy + w_active) * t + w_idle * (d - t))

    return {
        "throughput": _ratio("delivered", "slots"),
        "load": _ratio("transmissions", "slots"),
        "successes_per_slot": _ratio("successes", "slots"),
        "success_probability": _ratio("successes", "transmissions"),
        "transmissions_per_delivered": _ratio("transmissions", "delivered"),
        "energy_efficiency": _ratio("delivered", "transmissions", energy),
        "energy_efficiency_full": full_lambda,
        "timeouts_per_slot": _ratio("timeouts", "slots"),
        "fast_retransmits_per_slot": _ratio("fast_retransmits", "slots"),
        "mean_cwnd_at_loss": _ratio("cwnd_at_loss_sum", "losses"),
    }


def lambda_lower_bound(lambda0: float, throughput: float, energy: float, w_active: float, w_idle: float) -> float:
    """zorzi-rao eq. (18): λ >= λ0 (1 - w_a/E - (w_i/E)(1 - η)/η)."""
    if throughput <= 0:
        return 0.0
    return lambda0 * (1 - w_active / energy - (w_idle / energy) * (1 - throughput) / throughput)
