"""The Tahoe and OldTahoe analysis as it was in numpy (tcpfade 4a1b891), before it moved to the core
(``tcpfade._core.tahoe_cycle_model``): zorzi-rao §4, eqs. (6)-(13) and (19)-(24), its phase 1 tabulated per correct
slot k of every start state (O(Wmax³)) and its embedded chain over all 4⌈Wmax/2⌉ states (offset, s, Wth). Kept as
the reference the core must reproduce (tests/test_analysis.py), with the helpers only it uses: the window function
w(n, W, Wth) of §4.2 (footnote 6: "can be tabulated by a simple program"), tables of matrix powers and the
geometric tails of phase 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tcpfade.analysis.channel import SlotMatrices
from tcpfade.analysis.cycle import CycleModel


def grow(cwnd: float, ssthresh: float, wmax: int) -> float:
    """W after one ACK of new data (D3): slow start below Wth, congestion avoidance above, capped."""
    cwnd = cwnd + 1.0 if cwnd < ssthresh else cwnd + 1.0 / cwnd
    return min(cwnd, float(wmax))


@lru_cache(maxsize=4096)
def window_sequence(ssthresh: int, wmax: int, start: float = 1.0) -> np.ndarray:
    """w_k, the window after k ACKs from W = ``start``, for k = 0 .. k* where w_(k*) = Wmax first."""
    values = [min(float(start), float(wmax))]
    while values[-1] < wmax:
        values.append(grow(values[-1], ssthresh, wmax))
    out = np.array(values)
    out.setflags(write=False)
    return out


def window_class(cwnd: float) -> tuple[int, int]:
    """(⌊W⌋, ⌈W/2⌉): the packets the window allows after a loss, and the next Wth."""
    return int(math.floor(cwnd)), int(math.ceil(cwnd / 2.0))


def power_table(matrix: np.ndarray, count: int) -> np.ndarray:
    """matrix^k for k = 0..count-1, shape (count, 2, 2), by doubling."""
    out = np.empty((max(count, 1), 2, 2))
    out[0] = np.eye(2)
    filled, power = 1, np.asarray(matrix, dtype=float)
    while filled < count:
        n = min(filled, count - filled)
        out[filled:filled + n] = out[:n] @ power
        filled += n
        power = power @ power if filled == 2 * n else power
    return out[:count]


def failure_tail(ch: SlotMatrices, start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Σ_{k>=t} A^k F and Σ_{k>=t} (k+1) A^k F for t = ``start``: Σ_{k>=t} A^k = A^t R and
    Σ_{k>=t} k A^k = A^t (t R + A R²), R = (I - A)^-1."""
    t = np.asarray(start)
    a = ch.success
    r = np.linalg.inv(np.eye(2) - a)
    a_t = power_table(a, int(t.max()) + 1)[t]
    weight = (t + 1.0)[..., None, None]
    return a_t @ r @ ch.failure, a_t @ (weight * r + a @ r @ r) @ ch.failure


@dataclass(frozen=True)
class _Phase2:
    """Phase-2 outcomes per window size m = ⌊Y⌋ (1..Wmax) and channel state s0 of the loss slot.

    ``*_next[m, s0, s']``: probability of ending in channel state s' (slot t_(k+1) - 1);
    reward arrays ``[m, s0]`` hold expected values of the rewards summed over the phase.
    """

    timeout_next: np.ndarray
    refail_next: np.ndarray
    resume_next: np.ndarray
    rewards: dict[str, np.ndarray]
    # sum over outcomes of (losses in phase 2) — weighted by Y in the phase-1 assembly
    losses_at_y: np.ndarray
    # losses at W = 1 (the lost retransmission after a fast retransmit)
    losses_at_one: np.ndarray


def _phase2(ch: SlotMatrices, wmax: int, dupthresh: int | None, rto: int) -> _Phase2:
    """Phase 2 for every m and s0: a forward recursion over the ⌊Y⌋ - 1 slots after the loss.

    The recursion state is (channel state, correct transmissions j so far, loss seen since slot 0?)
    and carries, besides probability, E[j 1{state}] and the expected number of correct
    transmissions before the first new loss (ℓ1 - 1, the pessimistic count of eqs. (23)-(24)):
    the φ probabilities of §4.2.1, for both starting states at once. With ``dupthresh`` None
    (OldTahoe) no count triggers anything, and all j share one bucket whose E[j] is carried.
    Outcomes for ⌊Y⌋ = m: a timeout if the window is used up after slot m - 1 with j < K; a fast
    retransmit at slot i <= m - 1 otherwise, whose retransmission in slot i + 1 is lost (timeout at
    T0, the timer was set at slot 0) or correct (the next cycle has one ACK in).
    """
    a, f = ch.success, ch.failure
    buckets = 1 if dupthresh is None else dupthresh
    # st[s0, j, c, s]: c = 0 P(seen = 0), 1 P(seen = 1), 2 E[j 1{.}], 3 E[(ℓ1 - 1) 1{seen = 1}].
    st = np.zeros((2, buckets, 4, 2))
    st[0, 0, 0, 0] = st[1, 0, 0, 1] = 1.0
    jj = np.arange(buckets, dtype=float)[None, :, None] if dupthresh is not None else None
    snapshots = np.empty((wmax, 2, buckets, 4, 2))
    fr_prob = np.zeros((wmax + 1, 2, 2))   # [i, s0, s_i]: fast retransmit at slot i
    fr_low = np.zeros((wmax + 1, 2))       # E[(ℓ1 - 1) 1{fast retransmit at slot i}]
    for x in range(wmax):
        snapshots[x] = st
        if x == wmax - 1:
            break
        both = st[:, :, 0] + st[:, :, 1]
        moved = st @ a                                        # slot x + 1 correct
        lost = np.empty_like(st)                              # slot x + 1 lost
        lost[:, :, 0] = 0.0
        lost[:, :, 1] = both @ f
        lost[:, :, 2] = st[:, :, 2] @ f
        moved[:, :, 2] += moved[:, :, 0] + moved[:, :, 1]     # E[j + 1] = E[j] + P
        if dupthresh is None:
            # No fast retransmit, so no ℓ1 bookkeeping (a timeout counts N_s >= 0, eq. (20)).
            lost[:, :, 3] = 0.0
            st = lost + moved
            continue
        # ℓ1 - 1 freezes at the current count: j if nothing was lost yet, else its frozen value
        lost[:, :, 3] = (st[:, :, 3] + st[:, :, 0] * jj) @ f
        top = moved[:, buckets - 1]
        fr_prob[x + 1] = top[:, 0] + top[:, 1]
        fr_low[x + 1] = (top[:, 0] * buckets + top[:, 3]).sum(axis=1)
        st = lost
        st[:, 1:] += moved[:, :-1]
    return _phase2_outcomes(ch, wmax, buckets if dupthresh is not None else 0, rto, snapshots, fr_prob, fr_low)


def _phase2_outcomes(ch: SlotMatrices, wmax: int, k: int, rto: int, snapshots: np.ndarray, fr_prob: np.ndarray,
                     fr_low: np.ndarray) -> _Phase2:
    """Outcomes and rewards per m from the recursion's snapshots (slot m - 1) and fast retransmits."""
    a, f = ch.success, ch.failure
    # M^(rto - wmax - 1 + t), t = 0..wmax: the idle stretches before a timeout (eq. (21)).
    base = rto - wmax - 1
    idle = np.linalg.matrix_power(ch.step, base) @ power_table(ch.step, wmax + 1)
    m = np.arange(1, wmax + 1)
    x = m - 1
    prob = snapshots[:, :, :, 0] + snapshots[:, :, :, 1]      # [x, s0, j, s]
    stalled = prob.sum(axis=2)                                # [x, s0, s]
    mean_j = snapshots[:, :, :, 2].sum(axis=(2, 3))           # [x, s0]
    p_stall = stalled.sum(axis=2)
    timeout_next = np.zeros((wmax + 1, 2, 2))
    timeout_next[1:] = stalled @ idle[rto - m - base]
    # Fast retransmit at slot i, then its retransmission in slot i + 1 (lost: idle to T0 - 1).
    i = np.arange(wmax + 1)
    refail = fr_prob @ f @ idle[np.clip(rto - i - 2 - base, 0, wmax)]
    resume = fr_prob @ a
    p_i = fr_prob.sum(axis=2)
    p_ok = resume.sum(axis=2)

    def upto(values: np.ndarray) -> np.ndarray:
        # Σ over fast retransmits at slots i <= m - 1, for m = 0..wmax (index m).
        out = np.zeros((wmax + 1,) + values.shape[1:])
        out[1:] = np.cumsum(values, axis=0)[:wmax]
        return out

    refail_next, resume_next = upto(refail), upto(resume)
    p_fr, p_fail, p_resume = upto(p_i), refail_next.sum(axis=2), resume_next.sum(axis=2)
    pad = np.zeros((wmax + 1, 2))
    p_to, j_to, l_to = pad.copy(), pad.copy(), pad.copy()
    p_to[1:], j_to[1:], l_to[1:] = p_stall, mean_j, x[:, None] * p_stall - mean_j
    rw = {
        "slots": (rto - 1) * (p_to + p_fail) + upto((i + 1.0)[:, None] * p_ok),
        "transmissions": (i - 1.0)[:, None] * p_to + upto((i + 1.0)[:, None] * p_i),
        "successes_high": j_to + k * p_fr + p_resume,
        "successes_low": upto(fr_low) + p_resume,
        "timeouts": p_to + p_fail,
        "fast_retransmits": p_fr,
    }
    losses_at_y = l_to + upto((i - float(k))[:, None] * p_i)
    return _Phase2(timeout_next, refail_next, resume_next, rw, losses_at_y, p_fail)


@dataclass(frozen=True)
class _Phase1Layout:
    """Where phase 1 ends, by window class, for every starting state (offset, Wth); per Wmax.

    Starting state b has W = w_offset after ``offset`` ACKs (window_sequence(Wth)); after k more
    correct slots the failure comes at W = w_(offset + k). The finite k (W < Wmax) fall into
    contiguous runs of one class (⌊W⌋, ⌈W/2⌉); k >= ``tail_k[b]`` all have W = Wmax.
    """

    rows: np.ndarray        # [b, s] embedded-chain index of (offset_b, s, Wth_b)
    offset: np.ndarray      # [b]
    tail_k: np.ndarray      # [b]
    k: np.ndarray           # [n] finite k, block after block
    cwnd: np.ndarray        # [n] W at the failure
    starts: np.ndarray      # [g] first entry of each run (for np.add.reduceat)
    group_block: np.ndarray  # [g]
    group_m: np.ndarray     # [g] ⌊W⌋
    group_h: np.ndarray     # [g] ⌈W/2⌉


@lru_cache(maxsize=256)
def _phase1_layout(wmax: int) -> _Phase1Layout:
    half = math.ceil(wmax / 2)
    rows, offsets, tails, ks, cwnds, starts, g_block, g_m, g_h = [], [], [], [], [], [], [], [], []
    for offset in (0, 1):
        for ssthresh in range(1, half + 1):
            b = len(rows)
            rows.append([(offset * 2 + s) * half + ssthresh - 1 for s in (0, 1)])
            offsets.append(offset)
            w = window_sequence(ssthresh, wmax)
            kend = max(len(w) - 1 - offset, 0)
            tails.append(kend)
            previous = None
            for kk in range(kend):
                cls = window_class(w[offset + kk])
                if cls != previous:
                    starts.append(len(ks))
                    g_block.append(b)
                    g_m.append(cls[0])
                    g_h.append(cls[1])
                    previous = cls
                ks.append(kk)
                cwnds.append(w[offset + kk])
    return _Phase1Layout(np.array(rows), np.array(offsets), np.array(tails), np.array(ks, dtype=int),
                         np.array(cwnds, dtype=float), np.array(starts, dtype=int), np.array(g_block, dtype=int),
                         np.array(g_m, dtype=int), np.array(g_h, dtype=int))


def cycle_model(ch: SlotMatrices, *, wmax: int, dupthresh: int | None, rto: int) -> CycleModel:
    """The embedded chain and its rewards for Tahoe, or OldTahoe with ``dupthresh`` None.

    States are indexed (offset, s, Wth): offset 0 is a cycle that starts with the retransmission at
    W = 1; offset 1 one whose first slot (that retransmission, after a fast retransmit) succeeded.
    Needs ``rto`` > ``wmax`` and a channel that loses packets (error rate > 0).
    """
    half = math.ceil(wmax / 2)
    size = 4 * half
    ph2 = _phase2(ch, wmax, None if dupthresh is None else min(dupthresh, wmax), rto)
    lay = _phase1_layout(wmax)
    a, f = ch.success, ch.failure
    pows = power_table(a, int(lay.tail_k.max()) + 1)

    # Phase 1 (eqs. (7), (19)): G0 = Σ A^k F, G1 = Σ (k+1) A^k F, GW = Σ w A^k F per class.
    g0, g1, gw, block, m, h = [], [], [], [], [], []
    if lay.k.size:
        vals = pows[lay.k] @ f
        g0.append(np.add.reduceat(vals, lay.starts, axis=0))
        g1.append(np.add.reduceat(vals * (lay.k + 1.0)[:, None, None], lay.starts, axis=0))
        gw.append(np.add.reduceat(vals * lay.cwnd[:, None, None], lay.starts, axis=0))
        block.append(lay.group_block)
        m.append(lay.group_m)
        h.append(lay.group_h)
    # Tail, W = Wmax: Σ_{k>=t} A^k F = A^t R F and Σ (k+1) A^k F = A^t ((t+1) R + A R²) F, R = (I - A)^-1.
    tail0, tail1 = failure_tail(ch, lay.tail_k)
    mt, ht = window_class(float(wmax))
    nb = len(lay.tail_k)
    g0.append(tail0)
    g1.append(tail1)
    gw.append(wmax * tail0)
    block.append(np.arange(nb))
    m.append(np.full(nb, mt))
    h.append(np.full(nb, ht))
    g0, g1, gw = np.concatenate(g0), np.concatenate(g1), np.concatenate(gw)
    block, m, h = np.concatenate(block), np.concatenate(m), np.concatenate(h)
    rows = lay.rows[block]                                    # [c, s]

    def cols(offset: int, ssthresh: np.ndarray) -> np.ndarray:
        return (offset * 2 + np.arange(2)[None, :]) * half + (ssthresh - 1)[:, None]

    transition = np.zeros((size, size))
    # timeout -> (C, ⌈Y/2⌉); lost retransmission after a fast retransmit -> (C, 1); else one ACK in.
    for nxt, target in ((ph2.timeout_next, cols(0, h)), (ph2.refail_next, cols(0, np.ones_like(h))),
                        (ph2.resume_next, cols(1, h))):
        np.add.at(transition, (rows[:, :, None], target[:, None, :]), g0 @ nxt[m])

    def phase2(values: np.ndarray, weights: np.ndarray = g0) -> np.ndarray:
        return np.einsum("csa,ca->cs", weights, values[m])

    per_class = {
        "slots": g1.sum(axis=2) + phase2(ph2.rewards["slots"]),
        "transmissions": g1.sum(axis=2) + phase2(ph2.rewards["transmissions"]),
        "successes_low": (g1 - g0).sum(axis=2) + phase2(ph2.rewards["successes_low"]),
        "successes_high": (g1 - g0).sum(axis=2) + phase2(ph2.rewards["successes_high"]),
        "timeouts": phase2(ph2.rewards["timeouts"]),
        "fast_retransmits": phase2(ph2.rewards["fast_retransmits"]),
        "losses": g0.sum(axis=2) + phase2(ph2.losses_at_y + ph2.losses_at_one),
        "cwnd_at_loss_sum": gw.sum(axis=2) + phase2(ph2.losses_at_y, gw) + phase2(ph2.losses_at_one),
    }
    rewards = {}
    for name, values in per_class.items():
        out = np.zeros(size)
        np.add.at(out, rows, values)
        rewards[name] = out
    return CycleModel(transition, rewards)
