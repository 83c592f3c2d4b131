"""The climb's packet sums term by term, as ``tcpfade.analysis.link`` computed them before (tcpfade e89e09b): every
packet of every window, O(w_p²) work. Kept as the reference the closed forms and Euler-Maclaurin sums of
``link.climb.packets_by_window`` must reproduce (tests/test_link_analysis.py)."""

from __future__ import annotations

import math

import numpy as np


def packets_by_window(traj, lam0: float) -> tuple[np.ndarray, np.ndarray]:
    """log Σ e^{−λ0 (τ(x) + q(x))} over the climb's packets, window by window: the packets go at the fluid windows
    x = √s, s = 1..w_p² (a climb from w1 sends at s = w1² + 2, w1² + 4, ...: Table I's n(w1, x) = (x² − w1²)/2), so
    window u holds the s in [u², (u+1)²) of either parity. Returns ``whole[u − 1, parity]`` and ``after[u − 1]``,
    the same for u's own parity without s = u² (where a climb from u starts). In blocks of about 2²⁰ packets, so
    that memory stays O(w_p) though the work is O(w_p²)."""
    wp = int(traj.wp)
    whole, after = np.full((wp, 2), -np.inf), np.full(wp, -np.inf)
    last = wp * wp
    u0 = 1
    while u0 <= wp:
        u1 = min(max(math.isqrt(u0 * u0 + (1 << 20)), u0 + 1), wp + 1)     # windows u0..u1 − 1
        us = np.arange(u0, u1)
        for parity in (0, 1):
            # Window u's packets of this parity: s = u² or u² + 1 (whichever has it), then every other one, up to
            # (u + 1)² − 1 and w_p². The terms fall with s (τ and q grow), so each window's first is its largest.
            first_s = us * us + ((us * us + parity) % 2)
            counts = np.maximum((np.minimum((us + 1) ** 2, last + 1) - first_s + 1) // 2, 0)
            kept = counts > 0
            us_p, first_s, counts = us[kept], first_s[kept], counts[kept]
            if us_p.size == 0:
                continue
            starts = np.r_[0, np.cumsum(counts)[:-1]]
            x = np.sqrt(np.arange(first_s[0], first_s[-1] + 2 * counts[-1], 2, dtype=float))
            logs = -lam0 * (traj.time(1.0, x) + traj.queue_delay(x))
            top = logs[starts]
            with np.errstate(invalid="ignore"):
                whole[us_p - 1, parity] = top + np.log(np.add.reduceat(np.exp(logs - np.repeat(top, counts)), starts))
            # u's own parity without s = u², where the climb from u starts: its largest term is the second.
            own = ((us_p % 2) == parity) & (counts > 1)
            if own.any():
                rest = logs.copy()
                rest[starts[own]] = -np.inf
                second = np.where(own, logs[np.minimum(starts + 1, logs.size - 1)], top)
                with np.errstate(invalid="ignore"):
                    sums = np.add.reduceat(np.exp(rest - np.repeat(second, counts)), starts)
                after[us_p[own] - 1] = second[own] + np.log(sums[own])
        u0 = u1
    return whole, after
