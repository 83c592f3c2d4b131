"""Markov renewal-reward model of TCP Tahoe and OldTahoe over a two-state Markov channel
(zorzi-rao §4, eqs. (6)-(13) and (19)-(24)), with the timer of BRIEF D2.

A cycle runs from one loss detection to the next. Phase 1 is the error-free stretch that starts
with the retransmission of the oldest unacknowledged packet at W = 1; it ends with the first
failure, at window Y = w(n, 1, Wth). Phase 2 runs from that failure to its detection: either the
K-th duplicate ACK arrives before the window of ⌊Y⌋ packets is used up (fast retransmit, Tahoe
only), or the sender stalls until the timer fires T0 slots after the lost packet was sent.
docs/models.md gives the derivation line by line; the differences from the paper are:

- the channel may lose packets in either state (``channel.SlotMatrices``), so X(k) carries the
  channel *state* of slot t_k - 1 rather than the outcome;
- the timer is the one of BRIEF D2: it is not restarted by a fast retransmit. If the
  retransmission that follows a fast retransmit is lost, the timer set by the original loss fires
  T0 slots after *that* loss, not T0 slots after the retransmission as eq. (20) would have it. The
  model therefore resolves the retransmission slot inside the fast-retransmit transition: lost, it
  leads to a timeout at T0 (next state (C, 1, 1)); correct, it leads to an "one ACK in" state, a
  cycle whose first slot has already succeeded;
- eq. (24) writes the next threshold as ⌊Y/2⌋; the protocol (§2 and BRIEF D3) sets ⌈Y/2⌉.

The embedded chain has 4⌈Wmax/2⌉ states: (one ACK in?, channel state, Wth). N_s is bounded as
in the paper: after a timeout 0 <= N_s <= j (eq. (20)); after a fast retransmit at slot i,
ℓ1 - 1 <= N_s <= K (eqs. (22)-(24)). The optimistic count is every correct transmission.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .channel import SlotMatrices, power_table
from .window import window_class, window_sequence

#: Per-transition rewards: slots N_d, transmissions N_t, pessimistic and optimistic successes
#: N_s, timeouts, fast retransmits, losses and the sum of W over the losses.
REWARDS = ("slots", "transmissions", "successes_low", "successes_high", "timeouts", "fast_retransmits",
           "losses", "cwnd_at_loss_sum")


@dataclass(frozen=True)
class CycleModel:
    """Embedded chain P and expected rewards per transition out of each state (eq. (13))."""

    transition: np.ndarray
    rewards: dict[str, np.ndarray]


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


def _phase2(ch: SlotMatrices, wmax: int, dupthresh: int, rto: int) -> _Phase2:
    """Phase 2 for every m and s0: a forward recursion over the ⌊Y⌋ - 1 slots after the loss.

    The recursion state is (channel state, correct transmissions j < K so far, loss seen since
    slot 0?) and carries, besides probability, the expected number of correct transmissions
    before the first new loss (ℓ1 - 1, the pessimistic count of eqs. (23)-(24)). It computes the
    φ probabilities of §4.2.1 on the way, for both starting states at once.
    """
    k = dupthresh
    a, f = ch.success, ch.failure
    # M^(rto - wmax - 1 + t), t = 0..wmax: the idle stretches before a timeout (eq. (21)).
    base = rto - wmax - 1
    idle = np.einsum("ab,tbc->tac", np.linalg.matrix_power(ch.step, base), power_table(ch.step, wmax + 1))

    def step_pow(n: int) -> np.ndarray:
        return idle[n - base]

    shape = (wmax + 1, 2)
    timeout_next = np.zeros((wmax + 1, 2, 2))
    refail_next = np.zeros((wmax + 1, 2, 2))
    resume_next = np.zeros((wmax + 1, 2, 2))
    rw = {name: np.zeros(shape) for name in REWARDS}
    losses_at_y = np.zeros(shape)
    losses_at_one = np.zeros(shape)

    # prob[s0, j, seen, s]; first[s0, j, s] = E[(ℓ1 - 1) 1{state, seen = 1}] (with seen = 0, ℓ1 - 1 = j).
    prob = np.zeros((2, k, 2, 2))
    prob[0, 0, 0, 0] = prob[1, 0, 0, 1] = 1.0
    first = np.zeros((2, k, 2))
    jj = np.arange(k, dtype=float)
    # Running sums over fast retransmits at slots i <= x (they are outcomes for every m > i).
    fr_refail, fr_resume = np.zeros((2, 2)), np.zeros((2, 2))
    fr_prob_sum, fr_slots, fr_tx, fr_low_sum, fr_losses = (np.zeros(2) for _ in range(5))
    for x in range(0, wmax):
        m = x + 1
        # Outcomes for ⌊Y⌋ = m: the window is used up after slot x = m - 1.
        by_seen = prob.sum(axis=2)                            # [s0, j, s]
        by_j = by_seen.sum(axis=2)                            # [s0, j]
        stalled = by_seen.sum(axis=1)                         # [s0, s]
        timeout_next[m] = stalled @ step_pow(rto - m)         # idle until slot T0 - 1
        p_to = stalled.sum(axis=1)
        refail_next[m], resume_next[m] = fr_refail, fr_resume
        p_fail, p_resume = fr_refail.sum(axis=1), fr_resume.sum(axis=1)
        rw["slots"][m] = (rto - 1) * (p_to + p_fail) + fr_slots
        rw["transmissions"][m] = (m - 1) * p_to + fr_tx
        rw["successes_high"][m] = by_j @ jj + k * fr_prob_sum + p_resume
        rw["successes_low"][m] = fr_low_sum + p_resume
        rw["timeouts"][m] = p_to + p_fail
        rw["fast_retransmits"][m] = fr_prob_sum
        losses_at_y[m] = by_j @ (x - jj) + fr_losses
        losses_at_one[m] = p_fail
        if m == wmax:
            break
        # Slot m: one more packet goes out.
        nxt = np.zeros_like(prob)
        nfirst = np.zeros_like(first)
        # failure: j unchanged, seen = 1, ℓ1 - 1 frozen at its current value
        nxt[:, :, 1, :] = by_seen @ f
        nfirst += (first + prob[:, :, 0, :] * jj[None, :, None]) @ f
        # success: j + 1; the K-th success triggers a fast retransmit at slot i = m
        moved = prob @ a
        moved_first = first @ a
        nxt[:, 1:] += moved[:, :-1]
        nfirst[:, 1:] += moved_first[:, :-1]
        fr_prob = moved[:, k - 1].sum(axis=1)                 # [s0, s_i]
        # ℓ1 - 1 at the fast retransmit: K if nothing was lost since slot 0 (then i = K)
        fr_low = moved[:, k - 1, 0].sum(axis=1) * k + moved_first[:, k - 1].sum(axis=1)
        i = m  # rto >= wmax + 1 > i + 1: the timer set at slot 0 has not fired yet
        fr_refail = fr_refail + fr_prob @ f @ step_pow(rto - i - 2)
        fr_resume = fr_resume + fr_prob @ a
        p_i = fr_prob.sum(axis=1)
        fr_prob_sum = fr_prob_sum + p_i
        fr_slots = fr_slots + (i + 1) * (fr_prob @ a).sum(axis=1)
        fr_tx = fr_tx + (i + 1) * p_i
        fr_low_sum = fr_low_sum + fr_low
        fr_losses = fr_losses + (i - k) * p_i
        prob, first = nxt, nfirst
    return _Phase2(timeout_next, refail_next, resume_next, rw, losses_at_y, losses_at_one)


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


def cycle_model(ch: SlotMatrices, *, wmax: int, dupthresh: int, rto: int) -> CycleModel:
    """The embedded chain and its rewards for Tahoe (OldTahoe: ``dupthresh`` >= ``wmax``).

    States are indexed (offset, s, Wth): offset 0 is a cycle that starts with the retransmission at
    W = 1; offset 1 one whose first slot (that retransmission, after a fast retransmit) succeeded.
    Needs ``rto`` > ``wmax`` and a channel that loses packets (error rate > 0).
    """
    half = math.ceil(wmax / 2)
    size = 4 * half
    ph2 = _phase2(ch, wmax, min(dupthresh, wmax), rto)
    lay = _phase1_layout(wmax)
    a, f = ch.success, ch.failure
    pows = power_table(a, int(lay.tail_k.max()) + 1)
    resolvent = np.linalg.inv(np.eye(2) - a)

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
    a_t = pows[lay.tail_k]
    tail0 = a_t @ resolvent @ f
    tail1 = a_t @ ((lay.tail_k + 1.0)[:, None, None] * resolvent + a @ resolvent @ resolvent) @ f
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
