"""The recovery rounds (``recovery="rounds"``, refined model): what follows a TD, variant by variant.

A bad visit that ends in a TD destroyed L packets (:func:`loss_count_law`); NewReno repairs them in L rounds,
Reno halves a second time or stalls until its timer (:func:`recovery_rounds`, with :func:`idle_timeout_law` for a
visit that comes during the stall). abouzeid's eq. (10) is the L = 1 case with no prelude.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .visits import TimeoutLaw, timeout_law


def loss_count_law(wp: int, mu: float, lam1: float) -> np.ndarray:
    """P(L = l | TD at w'), shape (w' = 1..w_p, l = 1..w_p): how many consecutive packets a bad visit that ends in
    a TD destroys. The link sends back to back (phase B, or the window's burst in phase A); a packet is lost if
    any instant of its transmission is bad, so a visit of y = μY packet times that starts at a uniform offset U
    in a transmission destroys L = 1 + ⌊y + U⌋ of them. Y is exponential and, given TD, shorter than (w' − 3)/μ
    (eq. (8)); the law is exact for that: over y ∈ [k, k + 1), L − 1 = k + 1 with chance y − k, else k."""
    nu = lam1 / mu
    k = np.arange(wp, dtype=float)
    whole = np.exp(-nu * k) * (-np.expm1(-nu))                       # ∫_k^{k+1} ν e^{−νy} dy
    ramp = np.exp(-nu * k) * (-np.expm1(-nu) - nu * np.exp(-nu)) / nu  # ∫_k^{k+1} (y − k) ν e^{−νy} dy
    law = np.zeros((wp, wp))
    for w in range(4, wp + 1):
        span = w - 3   # y < span; L − 1 ranges over 0..span
        mass = np.zeros(span + 1)
        mass[:span] += whole[:span] - ramp[:span]
        mass[1:] += ramp[:span]
        law[w - 1, :span + 1] = mass / mass.sum()
    return law


def rounds_time(n1: np.ndarray, count: np.ndarray, mu: float, t: float) -> np.ndarray:
    """Σ_{k=1..count} max(T, (n1 + k)/μ): rounds that send n1 + 1, n1 + 2, ... packets, each at least T long."""
    pipe = mu * t
    short = np.clip(np.ceil(pipe) - 1 - n1, 0, count)      # rounds with n1 + k < μT
    first = n1 + short + 1
    return short * t + (first + n1 + count) * (count - short) / (2 * mu)


@dataclass(frozen=True)
class Recovery:
    """What follows a TD at each window w' until the window climbs again, for the refined chain: the TD's good
    state opens with a recovery phase (a "prelude") in which the window does not grow.

    ``target[w', s]``: P(the prelude is survived and the climb then starts in chain state s). The good state may
    end during the prelude, at window s1 = ⌈w'/2⌉: ``broken_timeout[w']`` is the chance it does so and destroys
    a retransmission (a timeout), ``broken_idle[w']`` the chance it does so while the stalled sender awaits its
    timer (a timeout too, but the timer is already running: ``idle_law``, indexed by w', has Z for it), and
    ``broken_visit[w']`` the chance it destroys only new packets (an ordinary visit at s1, eqs. (7)-(9)).
    ``reward[w']``: E[packets sent during the prelude]; ``start[w']``: s1."""

    target: np.ndarray
    broken_timeout: np.ndarray
    broken_idle: np.ndarray
    broken_visit: np.ndarray
    reward: np.ndarray
    start: np.ndarray
    idle_law: TimeoutLaw


def recovery_rounds(variant: str, wp: int, mu: float, t: float, lam0: float, lam1: float, delta: np.ndarray,
                    backed_off: bool, states: int, levels: int, max_rto: float) -> Recovery:
    """The recovery after a TD that lost L packets of a window w' (L's law: :func:`loss_count_law`).

    Fast retransmit halves the window to s1 = ⌈w'/2⌉ and inflates it by the w' − L duplicate ACKs, so it sends
    n1 = (s1 − L)^+ new packets with each retransmission, one round R_r = max(T, (1 + n1)/μ) at a time.

    - NewReno (RFC 6582): each partial ACK retransmits the next hole and, deflating W by one and adding one,
      lets one more new packet out: L rounds, the k-th sending n1 + k packets, then the climb from s1.
    - Reno: the first new ACK ends recovery with the window at s1. L = 1: done. Otherwise only the n1 new
      packets can produce duplicate ACKs: with n1 ≥ 3 a second fast retransmit halves again to s2 = ⌈s1/2⌉, and
      with L = 2 that repairs everything; else the sender stalls until the timer, restarted by the last new ACK,
      expires Δ(w') later, and the good state goes on after a timeout (backoff 2, L − stages holes to resend).

    The good state is memoryless, so after a prelude of length R it continues w.p. e^{−λ0 R} as a fresh good
    state of the chain; otherwise the next bad visit hits the recovery: a timeout if it destroys a retransmission
    (their share of the packets sent) or comes during the idle wait (:func:`idle_timeout_law`), else an
    ordinary visit at s1. abouzeid's eq. (10) is the L = 1 case with no prelude."""
    law = loss_count_law(wp, mu, lam1)
    target, broken_timeout, broken_idle, broken_visit = np.zeros((wp, states)), np.zeros(wp), np.zeros(wp), np.zeros(wp)
    reward = np.zeros(wp)
    start = np.zeros(wp, dtype=int)
    for w in range(1, wp + 1):
        s1 = (w + 1) // 2
        start[w - 1] = s1
        losses = np.flatnonzero(law[w - 1]) + 1
        if losses.size == 0:   # no TD at w' ≤ 3: a state never entered, kept stochastic
            target[w - 1, s1 - 1] = 1.0
            continue
        p = law[w - 1, losses - 1]
        n1 = np.maximum(s1 - losses, 0)
        rnd = np.maximum(t, (1 + n1) / mu)
        idle = np.zeros(losses.size)
        if variant == "newreno":
            # Round k sends its retransmission and n1 + k − 1 new packets: each partial ACK frees one more.
            active, sent, state = rounds_time(n1, losses, mu, t), losses * n1 + losses * (losses + 1) / 2, \
                np.full(losses.size, s1 - 1)
            resent = losses
        else:
            # Fast retransmits: one for L = 1, a second one whenever the n1 new packets bring three duplicates.
            one = losses == 1
            stages = np.where(one | (n1 < 3), 1, 2)
            stall = ~one & ~((losses == 2) & (stages == 2))
            holes = np.clip(losses - stages, 1, wp)
            active, sent, resent = rnd + (stages - 1) * t, stages + n1, stages
            idle[stall] = delta[w - 1]
            state = np.where(one, s1 - 1, (s1 + 1) // 2 - 1)
            state = np.where(stall, wp + holes - 1 if backed_off else 0, state)
        survive = np.exp(-lam0 * (active + idle))
        np.add.at(target[w - 1], state, p * survive)
        # A visit during the sending: a timeout if it hits a retransmission (their share of what is sent).
        in_active = -np.expm1(-lam0 * active)
        hit = resent / sent
        broken_timeout[w - 1] = float(p @ (in_active * hit))
        broken_idle[w - 1] = float(p @ (np.exp(-lam0 * active) * -np.expm1(-lam0 * idle)))
        broken_visit[w - 1] = float(p @ (in_active * (1.0 - hit)))
        reward[w - 1] = float(p @ (sent / active * -np.expm1(-lam0 * active))) / lam0
    idle_law = idle_timeout_law(delta, levels, max_rto, lam0, lam1)
    return Recovery(target, broken_timeout, broken_idle, broken_visit, reward, start, idle_law)


def idle_timeout_law(delta: np.ndarray, levels: int, max_rto: float, lam0: float, lam1: float,
                     nodes: int = 16) -> TimeoutLaw:
    """Z for a bad visit that begins while a stalled Reno sender awaits a timer that fires Δ(w') after the wait
    began: the visit begins at S, exponential (rate λ0) given that it falls in the wait, so the first
    retransmission goes out Δ(w') − S after it, the channel known bad at its start; later ones as usual.
    Gauss-Legendre quadrature over S, the laws averaged (their ingredients are linear in the weights)."""
    x, weight = np.polynomial.legendre.leggauss(nodes)
    mean, exit_ = np.zeros(len(delta)), np.zeros((len(delta), levels + 1))
    norm = -np.expm1(-lam0 * delta)
    for xi, wi in zip(x, weight):
        start = delta * (xi + 1.0) / 2.0
        density = wi * delta / 2.0 * lam0 * np.exp(-lam0 * start) / np.maximum(norm, 1e-300)
        law = timeout_law(delta, 0, levels, 0.0, np.zeros(len(delta)), max_rto, lam0, lam1,
                           first_interval=delta - start)
        mean += density * law.mean
        exit_ += density[:, None] * law.exit
    return TimeoutLaw(mean, exit_)
