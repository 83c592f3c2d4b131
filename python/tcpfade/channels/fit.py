"""Fitting a two-state Markov model to an error trace (zorzi-rao §3.1, the hybrid approach).

zorzi-rao estimate the packet error rate and the *average length of a burst of errors* from a
trace of simulated fading and use them as the Markov parameters, instead of the transition
probability of eq. (3): q = 1 - 1 / (mean burst), p from the error rate by chockalingam eq. (2).
We also report the transition probabilities counted slot by slot and the burst-length histogram
beside the geometric law a two-state Markov chain would give, so a user can see whether the
trace is Markov at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .. import _core
from .. import _validate as v
from .._record import Record
from .markov import GilbertElliott
from .trace import as_loss_array

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, repr=False)
class MarkovFit(Record):
    """Result of :func:`fit_markov`: the two-state chain that matches a loss trace (zorzi-rao §3,
    chockalingam §III).

    Attributes
    ----------
    slots, losses, bursts : int
        The trace's length, its lost slots and its runs of losses.
    error_rate, mean_burst : float
        losses/slots and losses/bursts.
    p, q : float
        The fitted chain: P(good → good) and P(bad → bad), from ``error_rate`` and ``mean_burst``.
    p_counted, q_counted : float
        The same transitions counted directly in the trace.
    burst_lengths : dict[int, int]
        How many bursts of each length.

    Examples
    --------
    >>> fit = tcpfade.fit_markov([0, 1, 1, 0, 0, 0, 1, 0])          # two bursts, of 2 and 1
    >>> fit.losses, fit.bursts, fit.mean_burst, fit.burst_lengths
    (3, 2, 1.5, {1: 1, 2: 1})"""

    slots: int
    losses: int
    bursts: int
    error_rate: float
    #: Mean length of a burst of errors, measured (lost slots / bursts).
    mean_burst: float
    #: Hybrid-approach parameters: q = 1 - 1/mean_burst, p from the error rate.
    p: float
    q: float
    #: Transition probabilities counted between consecutive slots.
    p_counted: float
    q_counted: float
    #: Number of bursts of each length.
    burst_lengths: dict[int, int] = field(repr=False)

    _headline = ("error_rate", "mean_burst", "p", "q", "slots")
    _undefined = {"p_counted": "no successful slot has a next slot (the trace's successes are all at its end)",
                  "q_counted": "no lost slot has a next slot (the trace's losses are all at its end)"}

    def channel(self) -> GilbertElliott:
        """The fitted :class:`GilbertElliott` channel (hybrid parameters)."""
        return GilbertElliott(p=self.p, q=self.q)

    def burst_histogram(self) -> pd.DataFrame:
        """Observed bursts per length beside the count a geometric law with the same mean predicts."""
        import pandas as pd
        lengths = np.array(sorted(self.burst_lengths), dtype=int)
        observed = np.array([self.burst_lengths[k] for k in lengths], dtype=float)
        q = self.q
        expected = self.bursts * (1 - q) * q ** (lengths - 1) if self.bursts else np.zeros_like(observed)
        return pd.DataFrame({"length": lengths, "observed": observed.astype(int), "geometric": expected})

    def _row(self) -> dict:
        """The scalar figures as a dict."""
        return {k: getattr(self, k) for k in ("slots", "losses", "bursts", "error_rate", "mean_burst", "p", "q",
                                               "p_counted", "q_counted")}


@v.checked()
def fit_markov(trace) -> MarkovFit:
    """Fit a two-state Markov model to a 0/1 loss trace (array-like; 1 = lost).

    The trace must contain at least one loss and one success.

    Parameters
    ----------
    trace : array-like of 0/1 (1 = lost), a loss trace with at least one loss and one success.

    Returns
    -------
    MarkovFit: the error rate, the mean burst, p and q (hybrid and counted), the burst histogram.

    Raises
    ------
    ParameterError
        a trace that is not 0/1 values, or one without a loss or without a success.

    Examples
    --------
    >>> ch = tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.01)
    >>> fit = tcpfade.fit_markov(ch.trace(500_000, seed=1))
    >>> 12 < fit.mean_burst < 15                      # chockalingam Table 1: 13.67
    True
    """
    losses = as_loss_array(trace, "trace")
    s = _core.trace_stats(losses)
    n, lost = int(s["slots"]), int(s["losses"])
    if lost == 0 or lost == n:
        raise v.fail("trace", f"{lost} losses in {n} slots", "fitting needs at least one lost and one received slot")
    bursts = sum(s["burst_lengths"].values())
    eps = lost / n
    mean_burst = lost / bursts
    q = 1.0 - 1.0 / mean_burst
    p = 1.0 - min(eps * (1.0 - q) / (1.0 - eps), 1.0)
    (n00, n01), (n10, n11) = s["transitions"]
    p_counted = n00 / (n00 + n01) if n00 + n01 else math.nan
    q_counted = n11 / (n10 + n11) if n10 + n11 else math.nan
    return MarkovFit(slots=n, losses=lost, bursts=bursts, error_rate=eps, mean_burst=mean_burst, p=p, q=q,
                     p_counted=p_counted, q_counted=q_counted,
                     burst_lengths={int(k): int(c) for k, c in s["burst_lengths"].items()})
