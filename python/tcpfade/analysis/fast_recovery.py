"""Markov renewal-reward model of TCP Reno and NewReno over a two-state Markov channel.

zorzi-rao §4 analyse Tahoe and say Reno and NewReno "can be analyzed using similar techniques";
this is that analysis (docs/models.md, "Reno and NewReno", has the derivation). A cycle starts
when the sender is clean (nothing outstanding, no recovery) or right after a timeout, with state
X = (channel state of the previous slot, Wth, W): W = 1 after a timeout, W = the window left by
recovery otherwise. Phase 1 is the error-free stretch up to the first loss, as for Tahoe, from
W instead of 1. Phase 2, from that loss to the end of its recovery, depends on which packets of the
loss window are lost, so it is computed exactly by the core from the loss patterns
(``tcpfade._core.FastRecoveryPhase2``; checked against its forward recursion over protocol states,
``tcpfade._core.fast_recovery_phase2``) for each window class (⌊Y⌋, ⌈Y/2⌉).

The one approximation: phase 2 assumes the receiver holds nothing beyond the lost packet (a
"fresh" loss window). That is exact after a clean cycle start and after a timeout whose holes are
all refilled before the next loss; it is not when a loss strikes while the packets of an earlier
window are still being resent after a timeout.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .. import _core
from .channel import SlotMatrices, power_table
from .tahoe import REWARDS, CycleModel
from .window import window_class, window_sequence

# Reward rows of the core's phase-2 table, and the row the table adds for the timeouts.
_P, _SLOTS, _TX, _SUCC, _DELIV, _LOSS_Y, _LOSS_W, _WSUM, _FR, _TIMEOUTS = range(10)


@lru_cache(maxsize=4096)
def _phase1_groups(ssthresh: float, cwnd: float, wmax: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple]:
    """Phase 1 from a clean start at W = ``cwnd``: the k before the window reaches Wmax, the window
    w_k at a failure after k correct slots, the start of each run of one class (⌊w⌋, ⌈w/2⌉) and
    the classes in order (the last, W = Wmax, takes the geometric tail from k = len(k))."""
    w = window_sequence(ssthresh, wmax, cwnd)
    kend = len(w) - 1
    classes, starts = [], []
    for kk in range(kend):
        cls = window_class(w[kk])
        if not classes or classes[-1] != cls:
            classes.append(cls)
            starts.append(kk)
    return np.arange(kend), w[:kend], np.array(starts, dtype=int), tuple(classes)


def _phase1(wmax: int, ssthresh: float, cwnd: float, fail_after: np.ndarray,
            tails: tuple[np.ndarray, np.ndarray]) -> tuple[tuple, np.ndarray, np.ndarray, np.ndarray]:
    """Per window class (m, h), in order: G0 = Σ A^k F, G1 = Σ (k+1) A^k F and GW = Σ w_k A^k F over the
    k whose window at the loss is in the class, the last class with the geometric tail (as ``tahoe``).
    ``fail_after[k]`` = A^k F and ``tails`` = ``SlotMatrices.failure_tail`` for every start k.
    Returns the classes and the three stacks [class, s, s0]."""
    k, w, starts, classes = _phase1_groups(float(ssthresh), float(cwnd), wmax)
    tail0, tail1 = tails[0][k.size], tails[1][k.size]
    tail = window_class(float(wmax))
    if k.size:
        vals = fail_after[: k.size]
        g0 = np.add.reduceat(vals, starts, axis=0)
        g1 = np.add.reduceat(vals * (k + 1.0)[:, None, None], starts, axis=0)
        gw = np.add.reduceat(vals * w[:, None, None], starts, axis=0)
    else:
        g0 = g1 = gw = np.zeros((0, 2, 2))
    if classes and classes[-1] == tail:
        g0[-1] += tail0
        g1[-1] += tail1
        gw[-1] += wmax * tail0
    else:
        classes = classes + (tail,)
        g0, g1, gw = (np.concatenate([g, x[None]]) for g, x in ((g0, tail0), (g1, tail1), (gw, wmax * tail0)))
    return classes, g0, g1, gw


class _Phase2Table:
    """Phase 2 of every window class met so far (the core's ``FastRecoveryPhase2``), stacked so that a
    cycle-start state's row of P and its rewards take a few array operations, not a loop over rewards."""

    def __init__(self, ch: SlotMatrices, newreno: bool, wmax: int, dupthresh: int, rto: int, state) -> None:
        self._kernel = _core.FastRecoveryPhase2(ch.success.tolist(), ch.failure.tolist(), newreno, wmax,
                                                dupthresh, rto)
        self._state = state
        self._index: dict[tuple[int, int], int] = {}
        self.probabilities: list[np.ndarray] = []   # per class [outcome, s0]
        self.targets: list[np.ndarray] = []         # per class [outcome]: next cycle-start state
        self._sums: list[np.ndarray] = []           # per class [reward, s0], timeouts in the last row
        self.sums = np.zeros((0, 10, 2))

    def ids(self, classes: tuple) -> np.ndarray:
        """Class ids of ``classes``, computing the phase 2 of those not met before."""
        for m, h in classes:
            if (m, h) not in self._index:
                endings, table = self._kernel.outcomes(m, h)
                self._index[(m, h)] = len(self.targets)
                self.targets.append(np.array([self._state(end, nth, ncw) for _, nth, ncw, end in endings], dtype=int))
                self.probabilities.append(table[:, _P, :])
                timeout = np.array([kind == 0 for kind, _, _, _ in endings], dtype=bool)
                timeouts = table[timeout, _P, :].sum(axis=0)
                self._sums.append(np.vstack([table.sum(axis=0), timeouts]))
        if len(self._sums) != len(self.sums):
            self.sums = np.stack(self._sums)
        return np.array([self._index[c] for c in classes], dtype=int)


def cycle_model(ch: SlotMatrices, *, newreno: bool, wmax: int, dupthresh: int, rto: int) -> CycleModel:
    """The embedded chain over the reachable cycle-start states and its rewards (eq. (13))."""
    index: dict[tuple[int, float, float], int] = {}
    order: list[tuple[int, float, float]] = []

    def state(s: int, ssthresh: float, cwnd: float) -> int:
        key = (int(s), float(ssthresh), float(cwnd))
        if key not in index:
            index[key] = len(order)
            order.append(key)
        return index[key]

    table = _Phase2Table(ch, newreno, wmax, dupthresh, rto, state)
    kmax = len(window_sequence(1.0, wmax, 1.0))
    fail_after = power_table(ch.success, kmax + 1) @ ch.failure
    tails = ch.failure_tail(np.arange(kmax + 1))
    # Any reachable state will do as a seed: a timeout leaves (C, 1, 1) sooner or later.
    state(0, 1.0, 1.0)
    rows: list[tuple[np.ndarray, np.ndarray]] = []
    rewards = []
    done = 0
    while done < len(order):
        s, ssthresh, cwnd = order[done]
        done += 1
        classes, g0, g1, gw = _phase1(wmax, ssthresh, cwnd, fail_after, tails)
        ids = table.ids(classes)
        # [class, s0]: the loss in channel state s0 and window class c, from channel state s.
        mass, ph1, wsum = g0[:, s, :], g1[:, s, :].sum(), gw[:, s, :]
        rows.append((np.concatenate([table.targets[c] for c in ids]),
                     np.concatenate([table.probabilities[c] @ m for c, m in zip(ids, mass)])))
        sums = np.einsum("crs,cs->r", table.sums[ids], mass)
        lost = mass.sum()
        # Phase 1: k + 1 slots and transmissions, k correct ones (all delivered), one loss at W = Y;
        # losses before the detection happen at W = Y, whose mass-weighted sum over a class is GW.
        rewards.append({
            "slots": ph1 + sums[_SLOTS],
            "transmissions": ph1 + sums[_TX],
            "successes_low": ph1 - lost + sums[_DELIV],
            "successes_high": ph1 - lost + sums[_SUCC],
            "timeouts": sums[_TIMEOUTS],
            "fast_retransmits": sums[_FR],
            "losses": lost + sums[_LOSS_Y] + sums[_LOSS_W],
            "cwnd_at_loss_sum": wsum.sum() + np.einsum("cs,cs->", table.sums[ids, _LOSS_Y], wsum) + sums[_WSUM],
        })
    n = len(order)
    transition = np.zeros((n, n))
    for i, (targets, probs) in enumerate(rows):
        np.add.at(transition[i], targets, probs)
    return CycleModel(transition, {name: np.array([r[name] for r in rewards]) for name in REWARDS})
