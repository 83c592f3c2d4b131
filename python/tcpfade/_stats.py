"""Statistics shared by every layer (channels, runs, studies): the Student-t interval of batch means.

It sits below the channels and the TCP runs alike, so that a channel's study (the Jakes fit's interval) needs no
TCP module: imports stay one-way.
"""

from __future__ import annotations

import math

import numpy as np


class Interval(tuple):
    """A confidence interval or a pair of analytical bounds, ``(low, high)``: the one interval type of tcpfade
    (docs/glossary.md). It is a tuple, so ``low, high = interval`` works; ``note``, when set, says why the interval
    is what it is (the whole range of the metric when no spread could be estimated, NaN when the metric itself is
    undefined).

    Attributes
    ----------
    low, high : float
        The ends.
    width : float
        high − low.
    note : str or None
        Why the interval is what it is, when that needs saying.

    Examples
    --------
    >>> i = Interval(0.2, 0.3)
    >>> i.low, i.high, i.width
    (0.2, 0.3, 0.09999999999999998)
    """

    def __new__(cls, low: float, high: float, note: str | None = None) -> Interval:
        out = super().__new__(cls, (float(low), float(high)))
        out.note = note
        return out

    def __getnewargs__(self) -> tuple[float, float, str | None]:   # pickles (sweep workers) keep the note
        return (self[0], self[1], self.note)

    @property
    def low(self) -> float:
        return self[0]

    @property
    def high(self) -> float:
        return self[1]

    @property
    def width(self) -> float:
        return self[1] - self[0]

    def __repr__(self) -> str:
        return f"Interval({self[0]!r}, {self[1]!r}" + (f", note={self.note!r})" if self.note else ")")


def batch_interval(point: float, values: np.ndarray, confidence: float,
                   bounds: tuple[float, float] = (-math.inf, math.inf)) -> Interval:
    """Student-t interval of half-width t·s/√b around ``point`` from finite per-batch ``values``, truncated to the
    metric's range ``bounds`` (a proportion's interval stays in [0, 1]). Truncating to where the true value must
    lie never lowers the coverage.

    A finite estimate always gets an interval: when fewer than two batches saw what the metric is conditioned on
    (the success probability of a run whose batches mostly sent nothing), there is no spread to estimate, and the
    interval is the metric's whole range ``bounds`` (which covers the true value whatever the level), with a
    ``note`` saying so. An infinite estimate (every transmission lost) has the degenerate interval (inf, inf); an
    undefined metric (NaN: the window at loss instants of a run without a loss) has the interval (nan, nan), with a
    note, and the command line prints "undefined (why)" for it."""
    # scipy.special's inverse Student t, not scipy.stats.t.ppf (the same function): scipy.stats takes half a
    # second to import, which every command would pay.
    from scipy import special
    low, high = bounds
    if math.isinf(point):
        # Infinite, not undefined (every transmission lost: transmissions per delivered packet): the interval is the
        # point itself.
        return Interval(point, point, "infinite: nothing was delivered in this run")
    if not math.isfinite(point):
        return Interval(math.nan, math.nan, "undefined: nothing it is conditioned on happened in this run")
    finite = values[np.isfinite(values)]
    if finite.size < 2:
        return Interval(low, high, f"{finite.size} batch{'' if finite.size == 1 else 'es'} saw what the metric is "
                                   "conditioned on: no spread to estimate, so the interval is the metric's whole range")
    with np.errstate(all="ignore"):   # batch values of 1e308 overflow the spread: the interval is then unbounded
        half = special.stdtrit(finite.size - 1, 0.5 + confidence / 2) * finite.std(ddof=1) / math.sqrt(finite.size)
    if math.isnan(half):
        half = math.inf
    return Interval(min(max(point - half, low), high), max(min(point + half, high), low))
