"""A bad visit and what it costs (abouzeid eqs. (7)-(9), (12)-(16)).

The visit's outcome at the window w' it meets (:func:`outcomes`: no loss, a triple duplicate or a timeout), its
mean length given that no timeout follows (:func:`bad_given_no_timeout`), and after a timeout Z, the time until a
retransmission finds the channel good, the timer doubling up to ``max_backoff`` × Δ (:func:`timeout_law`). The
refined model's timer Δ(w') (RFC 6298's SRTT + 4·RTTVAR) and its counting at the link: :func:`refined_timer`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .climb import h3


def refined_timer(rounds: np.ndarray, rtt: np.ndarray, windows: np.ndarray, mu: float, t: float, lam1: float,
                  granularity: float, lowest: float, highest: float
                  ) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """The refined model's timer and counting: Δ(w') = R(w') + max(G, 4·D) from the RTT samples (one a round:
    ``rounds[w − 1]`` the rounds held at window w, per step), the first timeout's delay after a visit begins, how
    long the channel is known to have been bad by then, and the packets queued at a visit that the link delivers
    after it."""
    samples = rounds / rounds.sum()
    deviation = float(samples @ np.abs(rtt - samples @ rtt))
    delta = np.clip(rtt + max(granularity, 4.0 * deviation), lowest, highest)
    # A timeout means the channel was still bad when the last three packets of the window went out (else eq. (8)'s
    # TD); from then on it is memoryless.
    known_bad = np.where(windows > mu * t, np.maximum(windows - 3.0, 0.0) / mu, 0.0)
    queued = np.maximum(windows - mu * t, 0.0)
    # E[(q − μY)^+]: queued packets the link sends after the bad visit is over.
    survivors = queued - mu / lam1 * (1.0 - np.exp(-lam1 * queued / mu))
    return delta, t - 1.0 / mu, known_bad, survivors


def _partial_integral(length: np.ndarray, lam1: float) -> np.ndarray:
    """∫_0^L F_Y(c) dc = L − (1 − e^{−λ1 L})/λ1 (the bad visit must end within what is left of the round), as
    λ1 L² · (z − 1 + e^{−z})/z² with z = λ1 L: the difference loses every digit (and can turn negative) where the
    round's idle part is short against E[Y]."""
    length = np.asarray(length, dtype=float)
    return lam1 * length * length * h3(lam1 * length)


def outcomes(w: np.ndarray, mu: float, t: float, lam0: float, lam1: float) -> dict[str, np.ndarray]:
    """Eqs. (7)-(9) for each window w' at the end of the good state, with Γ uniform on [0, max(T, w'/μ)]."""
    busy = w / mu
    idle = np.maximum(t - busy, 0.0)
    # (7): the bad visit starts in the idle part of the round and ends before the next round.
    no_loss = np.where(w < mu * t, _partial_integral(idle, lam1) / t, 0.0)
    # (8): fewer than w' − 3 packets lost, then three through.
    span = np.maximum(w - 3.0, 0.0) / mu
    three = math.exp(-3.0 * lam0 / mu)
    td_small = _partial_integral(span, lam1) / t * three
    td_large = (1.0 - np.exp(-lam1 * span)) * three
    triple = np.where(w <= 3, 0.0, np.where(w <= mu * t, td_small, td_large))
    timeout = np.clip(1.0 - no_loss - triple, 0.0, 1.0)
    return {"no_loss": no_loss, "triple_duplicate": triple, "timeout": timeout}


def _bad_mean_given_ending_within(length: np.ndarray, lam1: float) -> np.ndarray:
    """∫_0^L E[Y; Y < c] dc, for E[Y | the visit ends within what is left of the round] averaged over Γ."""
    return (length - (2.0 - np.exp(-lam1 * length) * (2.0 + lam1 * length)) / lam1) / lam1


def bad_given_no_timeout(w: np.ndarray, mu: float, t: float, lam1: float,
                         outcome: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """E[Y | NL, w'] and E[Y | TD, w'] (eq. (12)'s first two terms; 0 where the outcome is impossible)."""
    idle = np.maximum(t - w / mu, 0.0)
    span = np.maximum(w - 3.0, 0.0) / mu
    with np.errstate(divide="ignore", invalid="ignore"):
        y_nl = np.where(outcome["no_loss"] > 0,
                        _bad_mean_given_ending_within(idle, lam1) / np.maximum(_partial_integral(idle, lam1), 1e-300),
                        0.0)
        small = _bad_mean_given_ending_within(span, lam1) / np.maximum(_partial_integral(span, lam1), 1e-300)
        truncated = 1.0 / lam1 - span * np.exp(-lam1 * span) / np.maximum(1.0 - np.exp(-lam1 * span), 1e-300)
    y_td = np.where(w <= mu * t, small, truncated)
    return y_nl, np.where(outcome["triple_duplicate"] > 0, y_td, 0.0)


@dataclass(frozen=True)
class TimeoutLaw:
    """The timeouts that follow a bad visit at each window w', when the first fires with the timer already
    backed off 2^e times: E[Z] and the backoff exponent the next good state inherits (1..levels)."""

    mean: np.ndarray      # E[Z | w'], shape (w_p,)
    exit: np.ndarray      # P(exponent j | w'), shape (w_p, levels + 1); column 0 unused


def timeout_law(delta: np.ndarray, first: int, levels: int, start_delay: float, known_bad: np.ndarray,
                max_rto: float, lam0: float, lam1: float, first_interval: np.ndarray | None = None) -> TimeoutLaw:
    """Z (eqs. (13)-(15)) with the i-th timeout after min(2^(first+i−1), 2^levels)·Δ(w'), capped at max_rto,
    the first counted from ``start_delay`` after the bad visit starts (the last ACK restarts the timer).
    Each retransmission gets through if the channel, bad at the previous one, is good then: eq. (13)'s
    P_δ = (1 − f)(1 − e^{−(λ0+λ1)δ}) with δ the interval since the previous. The paper's eq. (15) reuses P_Δ
    for every interval; the interval is what the Markov property asks. Before the first, what is known is
    that the channel was still bad ``known_bad[w']`` after the visit began (else a TD would have followed).
    ``first_interval[w']``, if given, replaces the first wait (``start_delay`` + the first interval): a timer
    that was already running when the visit began fires that long after it, the channel known bad at the
    visit's start; the intervals after it double from 2^(first+1)·Δ(w') as usual."""
    good = lam1 / (lam0 + lam1)   # 1 − f

    def through(interval):
        return good * (1.0 - np.exp(-(lam0 + lam1) * np.maximum(interval, 0.0)))

    n = len(delta)
    mean, exit_ = np.zeros(n), np.zeros((n, levels + 1))
    alive, elapsed = np.ones(n), np.full(n, start_delay)
    exponent = min(first, levels)
    step = 0
    while True:
        interval = np.minimum(delta * 2.0 ** exponent, max_rto)
        if step == 0 and first_interval is not None:
            p, elapsed = through(first_interval), first_interval
        else:
            p = through(interval + start_delay - known_bad if step == 0 else interval)
            elapsed = elapsed + interval
        after = min(exponent + 1, levels)
        if exponent == levels and step > 0:
            # Every further interval is the same: a geometric number of them, success p each.
            mean += alive * (elapsed - interval + interval / p)
            exit_[:, levels] += alive
            return TimeoutLaw(mean, exit_)
        mean += alive * p * elapsed
        exit_[:, after] += alive * p
        alive = alive * (1.0 - p)
        exponent, step = after, step + 1
