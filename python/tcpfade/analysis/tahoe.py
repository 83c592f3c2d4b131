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
    step_pows = power_table(ch.step, rto + 1)
    shape = (wmax + 1, 2)
    timeout_next = np.zeros((wmax + 1, 2, 2))
    refail_next = np.zeros((wmax + 1, 2, 2))
    resume_next = np.zeros((wmax + 1, 2, 2))
    rw = {name: np.zeros(shape) for name in REWARDS}
    losses_at_y = np.zeros(shape)
    losses_at_one = np.zeros(shape)

    # prob[s0, s, j, seen]; first[s0, s, j]: E[(ℓ1 - 1) 1{state}] for seen = 1 (for seen = 0, ℓ1 - 1 = j).
    prob = np.zeros((2, 2, k, 2))
    prob[0, 0, 0, 0] = prob[1, 1, 0, 0] = 1.0
    first = np.zeros((2, 2, k))
    jj = np.arange(k, dtype=float)
    # Running sums over fast retransmits at slots i <= x (they are outcomes for every m > i).
    fr = {"refail": np.zeros((2, 2)), "resume": np.zeros((2, 2)), "prob": np.zeros(2),
          "slots_resume": np.zeros(2), "tx": np.zeros(2), "low": np.zeros(2), "losses": np.zeros(2)}
    for x in range(0, wmax):
        m = x + 1
        # Outcomes for ⌊Y⌋ = m: the window is used up after slot x = m - 1.
        stalled = prob.sum(axis=(2, 3))                      # [s0, s]
        timeout_next[m] = stalled @ step_pows[rto - m]       # idle until slot T0 - 1 (eq. (21))
        p_to = stalled.sum(axis=1)
        refail_next[m], resume_next[m] = fr["refail"], fr["resume"]
        p_fail = fr["refail"].sum(axis=1)
        p_resume = fr["resume"].sum(axis=1)
        rw["slots"][m] = (rto - 1) * (p_to + p_fail) + fr["slots_resume"]
        rw["transmissions"][m] = (m - 1) * p_to + fr["tx"]
        rw["successes_high"][m] = np.einsum("asjf,j->a", prob, jj) + k * fr["prob"] + p_resume
        rw["successes_low"][m] = fr["low"] + p_resume
        rw["timeouts"][m] = p_to + p_fail
        rw["fast_retransmits"][m] = fr["prob"]
        losses_at_y[m] = np.einsum("asjf,j->a", prob, x - jj) + fr["losses"]
        losses_at_one[m] = p_fail
        if m == wmax:
            break
        # Slot x + 1 = m: one more packet goes out.
        nxt = np.zeros_like(prob)
        nfirst = np.zeros_like(first)
        low_now = first + prob[..., 0] * jj                  # E[(ℓ1 - 1) 1{.}] whatever `seen`
        # failure: j unchanged, seen = 1, ℓ1 - 1 frozen
        nxt[..., 1] += np.einsum("asj,st->atj", prob.sum(axis=3), f)
        nfirst += np.einsum("asj,st->atj", low_now, f)
        # success: j + 1; the K-th success triggers a fast retransmit at slot m
        moved = np.einsum("asjf,st->atjf", prob, a)
        moved_first = np.einsum("asj,st->atj", first, a)
        if k > 1:
            nxt[:, :, 1:, :] += moved[:, :, :-1, :]
            nfirst[:, :, 1:] += moved_first[:, :, :-1]
        fr_prob = moved[:, :, k - 1, :].sum(axis=2)          # [s0, s_i]
        # ℓ1 - 1 at the fast retransmit: K if no loss since slot 0, else frozen value
        fr_low = moved[:, :, k - 1, 0].sum(axis=1) * k + moved_first[:, :, k - 1].sum(axis=1)
        i = m  # rto >= wmax + 1 > i + 1: the timer has not fired yet
        fr["refail"] = fr["refail"] + fr_prob @ f @ step_pows[rto - i - 2]
        fr["resume"] = fr["resume"] + fr_prob @ a
        pi = fr_prob.sum(axis=1)
        p_ok = (fr_prob @ a).sum(axis=1)
        fr["prob"] = fr["prob"] + pi
        fr["slots_resume"] = fr["slots_resume"] + (i + 1) * p_ok
        fr["tx"] = fr["tx"] + (i + 1) * pi
        fr["low"] = fr["low"] + fr_low
        fr["losses"] = fr["losses"] + (i - k) * pi
        prob, first = nxt, nfirst
    return _Phase2(timeout_next, refail_next, resume_next, rw, losses_at_y, losses_at_one)


def _phase1_classes(ch: SlotMatrices, wmax: int, ssthresh: int, offset: int, fail_after: np.ndarray,
                    resolvent: np.ndarray) -> list[tuple[int, int, np.ndarray, np.ndarray, np.ndarray]]:
    """Phase 1 from W = w_offset grouped by window class (⌊Y⌋, ⌈Y/2⌉), eqs. (7) and (19).

    ``fail_after[k] = A^k F``: k correct slots, then a failure. For each class returns
    (m, h, G0, G1, GW) with G0 = Σ A^k F, G1 = Σ (k+1) A^k F and GW = Σ w A^k F over the k whose
    window at the failure falls in the class; the last class (W = Wmax) takes the geometric tail.
    """
    w = window_sequence(ssthresh, wmax)
    kend = max(len(w) - 1 - offset, 0)   # k >= kend: W = Wmax
    out = []
    if kend:
        win = w[offset:offset + kend]
        m = np.floor(win).astype(int)
        h = np.ceil(win / 2.0).astype(int)
        keys = m * (wmax + 2) + h
        uniq, gid = np.unique(keys, return_inverse=True)
        block = fail_after[:kend]
        weights = np.arange(1, kend + 1, dtype=float)
        g0 = np.zeros((len(uniq), 2, 2))
        g1 = np.zeros_like(g0)
        gw = np.zeros_like(g0)
        np.add.at(g0, gid, block)
        np.add.at(g1, gid, block * weights[:, None, None])
        np.add.at(gw, gid, block * win[:, None, None])
        for c, key in enumerate(uniq):
            out.append((int(key // (wmax + 2)), int(key % (wmax + 2)), g0[c], g1[c], gw[c]))
    # Tail: Σ_{k>=kend} A^k F = A^kend R F and Σ (k+1) A^k F = A^kend ((kend+1) R + A R²) F, R = (I - A)^-1.
    a_k = np.linalg.matrix_power(ch.success, kend)
    g0 = a_k @ resolvent @ ch.failure
    g1 = a_k @ ((kend + 1) * resolvent + ch.success @ resolvent @ resolvent) @ ch.failure
    mt, ht = window_class(float(wmax))
    out.append((mt, ht, g0, g1, wmax * g0))
    return out


def cycle_model(ch: SlotMatrices, *, wmax: int, dupthresh: int, rto: int) -> CycleModel:
    """The embedded chain and its rewards for Tahoe (OldTahoe: ``dupthresh`` >= ``wmax``).

    States are indexed (offset, s, Wth): offset 0 is a cycle that starts with the retransmission at
    W = 1; offset 1 one whose first slot (that retransmission, after a fast retransmit) succeeded.
    Needs ``rto`` > ``wmax`` and a channel that loses packets (error rate > 0).
    """
    k = min(dupthresh, wmax)
    half = math.ceil(wmax / 2)
    size = 4 * half

    def index(offset: int, s: int, ssthresh: int) -> int:
        return (offset * 2 + s) * half + ssthresh - 1

    ph2 = _phase2(ch, wmax, k, rto)
    kmax = len(window_sequence(1, wmax))
    fail_after = np.einsum("kab,bc->kac", power_table(ch.success, kmax + 1), ch.failure)
    resolvent = np.linalg.inv(np.eye(2) - ch.success)
    transition = np.zeros((size, size))
    rewards = {name: np.zeros(size) for name in REWARDS}
    for offset in (0, 1):
        for ssthresh in range(1, half + 1):
            rows = [index(offset, s, ssthresh) for s in (0, 1)]
            for m, h, g0, g1, gw in _phase1_classes(ch, wmax, ssthresh, offset, fail_after, resolvent):
                # timeout -> (C, ⌈Y/2⌉); lost retransmission -> timeout at W = 1 -> (C, 1); else one ACK in.
                for target, wth, nxt in ((0, h, ph2.timeout_next[m]), (0, 1, ph2.refail_next[m]),
                                         (1, h, ph2.resume_next[m])):
                    cols = [index(target, s, wth) for s in (0, 1)]
                    transition[np.ix_(rows, cols)] += g0 @ nxt
                phase1 = g1.sum(axis=1)
                for name in ("slots", "transmissions"):
                    rewards[name][rows] += phase1 + g0 @ ph2.rewards[name][m]
                for name in ("successes_low", "successes_high"):
                    rewards[name][rows] += (g1 - g0).sum(axis=1) + g0 @ ph2.rewards[name][m]
                for name in ("timeouts", "fast_retransmits"):
                    rewards[name][rows] += g0 @ ph2.rewards[name][m]
                rewards["losses"][rows] += g0.sum(axis=1) + g0 @ (ph2.losses_at_y[m] + ph2.losses_at_one[m])
                rewards["cwnd_at_loss_sum"][rows] += (gw.sum(axis=1) + gw @ ph2.losses_at_y[m]
                                                      + g0 @ ph2.losses_at_one[m])
    return CycleModel(transition, rewards)
