"""Karn's rule in the refined model: a backoff persists into the good state that follows a timeout until a segment
sent once is acknowledged (:func:`karn_persistence`), so the bad visits that come before that meet the backed-off
timer. The embedded chain's backed-off starts B_h read the law (:class:`Persistence`) window by window.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .climb import Trajectory


@dataclass(frozen=True)
class Persistence:
    """When a good state that began after a timeout still meets the backed-off timer (see :func:`karn_persistence`),
    for each h = 1..w_p segments outstanding: the climb from W = 1 passes Karn's point at ``until[h − 1]`` [s],
    in window ``reached[h − 1]`` (the windows 1..reached whose start comes before it)."""

    until: np.ndarray
    reached: np.ndarray
    enter: np.ndarray      # τ(w') = t(1, w'), w' = 1..w_p
    lam0: float

    @cached_property
    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(h, w', P(W' = w' and the visit comes before Karn's point | h)) for every window it can: about √(2h)
        windows for each h, the largest h first (the order in which the chain's solve reads them). Computed once:
        every backoff level's starts use it."""
        counts = self.reached[::-1]          # at least 1: the first window starts at once
        ends = np.cumsum(counts)
        h = np.repeat(np.arange(len(self.until), 0, -1), counts)
        w = np.ones(h.size, dtype=np.int64)   # 1, 2, ... within each h: a running sum that restarts at each h
        w[ends[:-1]] = 1 - counts[:-1]
        np.cumsum(w, out=w)
        # P(the visit comes at w' before Karn's point) = e^{−λ0 τ(w')} − e^{−λ0 min(τ(w' + 1), Karn's point)}: the
        # window's whole span for all but each h's last window (whose start is the last before the point).
        outlast = np.exp(-self.lam0 * self.enter)
        mass = (outlast[:-1] - outlast[1:])[w - 1]
        last = ends - 1
        mass[last] = outlast[w[last] - 1] - np.maximum(outlast[w[last]], np.exp(-self.lam0 * self.until)[::-1])
        return h, w, mass

    @cached_property
    def outstanding(self) -> np.ndarray:
        """Per entry, the segments outstanding after a timeout at window w': the h − w'(w' − 1)/2 that the climb
        from W = 1 has not yet resent, at least the window's w'."""
        h, w, _ = self.entries
        triangle = np.arange(int(w.max()) + 1)
        outstanding = h - (triangle * (triangle - 1) // 2)[w]
        return np.maximum(outstanding, w, out=outstanding)

    @cached_property
    def boundary(self) -> np.ndarray:
        """The window Karn's point falls in, per h (0 when it falls on a window's end or beyond the climb)."""
        cut = self.reached > 0
        inside = np.zeros(len(self.until), dtype=int)
        inside[cut] = np.where(self.enter[self.reached[cut]] > self.until[cut], self.reached[cut], 0)
        return inside

    @cached_property
    def rest(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The climb after Karn's point, per h: P(the visit comes in the boundary window after that point), the
        window the climb then goes on from, and the chance it gets there."""
        boundary = self.boundary
        after = np.where(boundary > 0, boundary + 1, self.reached + 1)
        partial = np.where(boundary > 0, np.exp(-self.lam0 * self.until)
                           - np.exp(-self.lam0 * self.enter[np.minimum(after, len(self.enter)) - 1]), 0.0)
        return partial, after, np.exp(-self.lam0 * self.enter[after - 1])


def karn_persistence(traj: Trajectory, lam0: float) -> Persistence:
    """P(W' = w', the bad visit comes before Karn's rule ends the backoff | the good state began after a
    timeout that left h segments outstanding), for h = 1..w_p and w' = 1..w_p.

    After a timeout the sender resends the h outstanding segments (go-back-N) before any new one; only a
    new one is timed (Karn), and its ACK ends the backoff. A bad visit that starts once that segment is
    through meets a reset timer (the ACK is on its way on the lossless return path), so the backoff matters
    for visits that start before packet h + 1 of the climb from W = 1 (approximation 5) is through: it is
    sent at the fluid window x = √(1 + 2h) (Table I's n(1, x) = (x² − 1)/2) and takes 1/μ on the link.
    The span is cut at the atypical cycle's end (it is a few rounds long). For each h that is the first windows
    of the climb only (about √(2h)), so the law is kept as those windows, not as a w_p × w_p table."""
    wp = int(traj.wp)
    h = np.arange(1, wp + 1, dtype=float)
    x = np.minimum(np.sqrt(1.0 + 2.0 * h), traj.wp)
    until = np.minimum(traj.time(1.0, x) + 1.0 / traj.rate, traj.time(1.0, traj.wp))
    enter = traj.time(1.0, np.arange(1, wp + 1, dtype=float))
    # Windows w' = 1..w_p − 1 whose start comes before Karn's point (a visit is never at w_p).
    reached = np.searchsorted(enter[:wp - 1], until, side="left")
    return Persistence(until=until, reached=reached.astype(int), enter=enter, lam0=lam0)
