"""Markov renewal-reward model of TCP Reno and NewReno over a two-state Markov channel.

zorzi-rao §4 analyse Tahoe and say Reno and NewReno "can be analyzed using similar techniques";
this is that analysis (docs/models.md, "Reno and NewReno", has the derivation). A cycle starts
when the sender is clean (nothing outstanding, no recovery) or right after a timeout, with state
X = (channel state of the previous slot, Wth, W): W = 1 after a timeout, W = the window left by
recovery otherwise. Phase 1 is the error-free stretch up to the first loss, as for Tahoe, from
W instead of 1. Phase 2, from that loss to the end of its recovery, depends on which packets of the
loss window are lost, so it is computed exactly by the core's forward recursion over protocol
states (``tcpfade._core.fast_recovery_phase2``) for each window class (⌊Y⌋, ⌈Y/2⌉).

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

# Reward rows of the core's phase-2 table.
_P, _SLOTS, _TX, _SUCC, _DELIV, _LOSS_Y, _LOSS_W, _WSUM, _FR = range(9)


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


def _phase1(ch: SlotMatrices, wmax: int, ssthresh: float, cwnd: float,
            fail_after: np.ndarray) -> list[tuple[tuple[int, int], np.ndarray, np.ndarray, np.ndarray]]:
    """Per window class (m, h): G0 = Σ A^k F, G1 = Σ (k+1) A^k F and GW = Σ w_k A^k F over the k whose
    window at the loss is in the class, the last class with the geometric tail (as ``tahoe``)."""
    k, w, starts, classes = _phase1_groups(float(ssthresh), float(cwnd), wmax)
    out = []
    if k.size:
        vals = fail_after[: k.size]
        g0 = np.add.reduceat(vals, starts, axis=0)
        g1 = np.add.reduceat(vals * (k + 1.0)[:, None, None], starts, axis=0)
        gw = np.add.reduceat(vals * w[:, None, None], starts, axis=0)
        out = [(cls, g0[i], g1[i], gw[i]) for i, cls in enumerate(classes)]
    tail0, tail1 = ch.failure_tail(k.size)
    tail = window_class(float(wmax))
    if out and out[-1][0] == tail:
        cls, g0, g1, gw = out[-1]
        out[-1] = (cls, g0 + tail0, g1 + tail1, gw + wmax * tail0)
    else:
        out.append((tail, tail0, tail1, wmax * tail0))
    return out


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

    phase2: dict[tuple[int, int], tuple] = {}

    def outcomes(m: int, h: int):
        """Phase 2 of a class: per-outcome probabilities [o, s0], target states, summed rewards [r, s0]."""
        if (m, h) not in phase2:
            endings, table = _core.fast_recovery_phase2(ch.success.tolist(), ch.failure.tolist(), newreno, wmax,
                                                        dupthresh, rto, m, h)
            targets = np.array([state(end, nth, ncw) for _, nth, ncw, end in endings], dtype=int)
            timeout = np.array([kind == 0 for kind, _, _, _ in endings])
            sums = table.sum(axis=0)                                  # [reward, s0]
            timeouts = table[timeout, _P, :].sum(axis=0)
            phase2[(m, h)] = (table[:, _P, :], targets, sums, timeouts)
        return phase2[(m, h)]

    kmax = len(window_sequence(1.0, wmax, 1.0))
    fail_after = power_table(ch.success, kmax + 1) @ ch.failure
    # Any reachable state will do as a seed: a timeout leaves (C, 1, 1) sooner or later.
    state(0, 1.0, 1.0)
    rows: list[tuple[np.ndarray, np.ndarray]] = []
    rewards = []
    done = 0
    while done < len(order):
        s, ssthresh, cwnd = order[done]
        done += 1
        targets_all, probs_all = [], []
        r = dict.fromkeys(REWARDS, 0.0)
        for (m, h), g0, g1, gw in _phase1(ch, wmax, ssthresh, cwnd, fail_after):
            mass = g0[s]                      # [s0]: the loss in channel state s0, window class (m, h)
            if not mass.any():
                continue
            prob, targets, sums, timeouts = outcomes(m, h)
            targets_all.append(targets)
            probs_all.append(prob @ mass)
            # Phase 1: k + 1 slots and transmissions, k correct ones (all delivered), one loss at W = Y.
            ph1 = g1[s].sum()
            r["slots"] += ph1 + sums[_SLOTS] @ mass
            r["transmissions"] += ph1 + sums[_TX] @ mass
            r["successes_low"] += ph1 - mass.sum() + sums[_DELIV] @ mass
            r["successes_high"] += ph1 - mass.sum() + sums[_SUCC] @ mass
            r["timeouts"] += timeouts @ mass
            r["fast_retransmits"] += sums[_FR] @ mass
            r["losses"] += mass.sum() + (sums[_LOSS_Y] + sums[_LOSS_W]) @ mass
            # Losses before the detection happen at W = Y, whose mass-weighted sum over the class is GW.
            r["cwnd_at_loss_sum"] += gw[s].sum() + sums[_LOSS_Y] @ gw[s] + sums[_WSUM] @ mass
        rows.append((np.concatenate(targets_all), np.concatenate(probs_all)))
        rewards.append(r)
    n = len(order)
    transition = np.zeros((n, n))
    for i, (targets, probs) in enumerate(rows):
        np.add.at(transition[i], targets, probs)
    return CycleModel(transition, {name: np.array([r[name] for r in rewards]) for name in REWARDS})
