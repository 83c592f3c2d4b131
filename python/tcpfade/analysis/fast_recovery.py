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

from collections import defaultdict

import numpy as np

from .. import _core
from .channel import SlotMatrices, power_table
from .tahoe import REWARDS, CycleModel
from .window import window_class, window_sequence

# Reward rows of the core's phase-2 table.
_P, _SLOTS, _TX, _SUCC, _DELIV, _LOSS_Y, _LOSS_W, _WSUM, _FR = range(9)


def _phase1(ch: SlotMatrices, wmax: int, ssthresh: float, cwnd: float):
    """Phase 1 from a clean start at W = ``cwnd``: per window class (m, h) the matrices
    G0 = Σ A^k F, G1 = Σ (k+1) A^k F and GW = Σ w_k A^k F over the k whose window at the loss is in
    the class (the last class with the geometric tail), as in ``tahoe._phase1_layout``."""
    w = window_sequence(ssthresh, wmax, cwnd)
    a, f = ch.success, ch.failure
    kend = len(w) - 1
    pows = power_table(a, kend + 1)
    out: dict[tuple[int, int], list[np.ndarray]] = {}
    if kend:
        vals = pows[:kend] @ f
        for kk in range(kend):
            g = out.setdefault(window_class(w[kk]), [np.zeros((2, 2)) for _ in range(3)])
            g[0] += vals[kk]
            g[1] += (kk + 1) * vals[kk]
            g[2] += w[kk] * vals[kk]
    resolvent = np.linalg.inv(np.eye(2) - a)
    tail0 = pows[kend] @ resolvent @ f
    tail1 = pows[kend] @ ((kend + 1) * resolvent + a @ resolvent @ resolvent) @ f
    g = out.setdefault(window_class(float(wmax)), [np.zeros((2, 2)) for _ in range(3)])
    g[0] += tail0
    g[1] += tail1
    g[2] += wmax * tail0
    return out


def cycle_model(ch: SlotMatrices, *, newreno: bool, wmax: int, dupthresh: int, rto: int) -> CycleModel:
    """The embedded chain over the reachable cycle-start states and its rewards (eq. (13))."""
    phase2: dict[tuple[int, int], tuple[list, np.ndarray]] = {}

    def outcomes(m: int, h: int):
        if (m, h) not in phase2:
            phase2[(m, h)] = _core.fast_recovery_phase2(ch.success.tolist(), ch.failure.tolist(), newreno, wmax,
                                                        dupthresh, rto, m, h)
        return phase2[(m, h)]

    index: dict[tuple[int, float, float], int] = {}
    order: list[tuple[int, float, float]] = []

    def state(s: int, ssthresh: float, cwnd: float) -> int:
        key = (s, float(ssthresh), float(cwnd))
        if key not in index:
            index[key] = len(order)
            order.append(key)
        return index[key]

    # Any reachable state will do as a seed: a timeout leaves (C, 1, 1) sooner or later.
    state(0, 1.0, 1.0)
    rows: list[dict[int, float]] = []
    rewards = []
    done = 0
    while done < len(order):
        s, ssthresh, cwnd = order[done]
        done += 1
        row: dict[int, float] = defaultdict(float)
        r = dict.fromkeys(REWARDS, 0.0)
        for (m, h), (g0, g1, gw) in _phase1(ch, wmax, ssthresh, cwnd).items():
            mass = g0[s]                      # [s0]: loss with channel state s0, window class (m, h)
            if not mass.any():
                continue
            endings, table = outcomes(m, h)
            weighted = np.einsum("orj,j->or", table, mass)   # rewards summed over s0
            # Phase 1: k + 1 slots and transmissions, k correct ones (all delivered), one loss at W = Y.
            r["slots"] += g1[s].sum()
            r["transmissions"] += g1[s].sum()
            r["successes_low"] += (g1[s] - g0[s]).sum()
            r["successes_high"] += (g1[s] - g0[s]).sum()
            r["losses"] += g0[s].sum()
            r["cwnd_at_loss_sum"] += gw[s].sum()
            for o, (kind, next_ssthresh, next_cwnd, end_state) in enumerate(endings):
                row[state(end_state, next_ssthresh, next_cwnd)] += weighted[o, _P]
            r["slots"] += weighted[:, _SLOTS].sum()
            r["transmissions"] += weighted[:, _TX].sum()
            r["successes_low"] += weighted[:, _DELIV].sum()
            r["successes_high"] += weighted[:, _SUCC].sum()
            r["timeouts"] += sum(weighted[o, _P] for o, e in enumerate(endings) if e[0] == 0)
            r["fast_retransmits"] += weighted[:, _FR].sum()
            r["losses"] += weighted[:, _LOSS_Y].sum() + weighted[:, _LOSS_W].sum()
            # Losses before the detection happen at W = Y, whose mass-weighted sum over the class is GW.
            r["cwnd_at_loss_sum"] += (table[:, _LOSS_Y, :] @ gw[s]).sum() + weighted[:, _WSUM].sum()
        rows.append(row)
        rewards.append(r)
    n = len(order)
    transition = np.zeros((n, n))
    for i, row in enumerate(rows):
        for j, p in row.items():
            transition[i, j] = p
    return CycleModel(transition, {name: np.array([r[name] for r in rewards]) for name in REWARDS})
