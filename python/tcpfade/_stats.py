"""Statistics shared by every layer (channels, runs, studies): the Student-t interval of batch means.

It sits below the channels and the TCP runs alike, so that a channel's study (the Jakes fit's interval) needs no
TCP module: imports stay one-way.
"""

from __future__ import annotations

import math

import numpy as np


def batch_interval(point: float, values: np.ndarray, confidence: float,
                   bounds: tuple[float, float] = (-math.inf, math.inf)) -> tuple[float, float]:
    """Student-t interval of half-width t·s/√b around ``point`` from finite per-batch ``values``, truncated to the
    metric's range ``bounds`` (a proportion's interval stays in [0, 1]). Truncating to where the true value must
    lie never lowers the coverage. (nan, nan) when the metric is undefined (no batch saw what it is conditioned
    on, e.g. the window at loss instants of a run without a loss)."""
    # scipy.special's inverse Student t, not scipy.stats.t.ppf (the same function): scipy.stats takes half a
    # second to import, which every command would pay.
    from scipy import special
    finite = values[np.isfinite(values)]
    if finite.size < 2 or not math.isfinite(point):
        return (math.nan, math.nan)
    with np.errstate(all="ignore"):   # batch values of 1e308 overflow the spread: the interval is then unbounded
        half = special.stdtrit(finite.size - 1, 0.5 + confidence / 2) * finite.std(ddof=1) / math.sqrt(finite.size)
    if math.isnan(half):
        half = math.inf
    low, high = bounds
    return (float(min(max(point - half, low), high)), float(max(min(point + half, high), low)))
