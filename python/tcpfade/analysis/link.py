"""The abouzeid-Roy-Azizoglu analysis of TCP Reno over a fading link with a buffer (abouzeid §IV). DRAFT.

Status (issue 7, open): built as §IV prints it, checked for consistency (stochastic chains, eq. (8)'s limit
e^{−3/(μE[X])} = 0.86 at Fig. 8's parameters, eq. (20)'s ceiling at slow fading), but not yet validated: it
lands within 2-6% of Table III at slow fading and is 1.3× (moderate) to 3.3× (fast) too high at fast fading,
where the simulator matches Table III within 3%; and P_TO(w) rises up to μT where the paper describes a peak at
w = 10 (Fig. 8). docs/validation.md records the numbers. Not exported at the top level until resolved.

The channel alternates between good and bad states of exponential durations (E[X] = 1/λ0, E[Y] = 1/λ1)
independently of TCP. A *sampled* good state starts when TCP first gets a packet through after a bad state;
W_n is the window then, W'_n the window when the good state ends. {W_n} (the "good" chain) and {W'_n} (the
"bad" chain) are Markov chains under the paper's approximations 1-5 (§IV-B): detection delay neglected, one
bad visit per round, the timer Δ(w) = max(w, μT)/μ (eq. 2), the bad visit's origin uniform over the round
(eq. 3), and after a timeout a linear increase from W = 1.

During a sampled good state the window follows Lakshman and Madhow's deterministic evolution (Tables I-II): from
w up to w_p = B + μT (linear in time while below μT, "phase A"; as the link's busy time above it, "phase B"),
then buffer overflow, halving and typical cycles from w_p/2 to w_p. With V ~ Exp(λ0) the rest of the good state:

- E[N | W_n = w] (eqs. 4-6): Σ over packets of P(V > the packet's time), the typical cycles summed as a
  geometric series;
- P[W'_n = w' | W_n = w] (§IV-E): P(V falls while the window is w');
- the outcome of the bad visit at window w' (eqs. 7-9): no loss (NL), triple duplicate (TD, the window halves)
  or timeout (TO, the window restarts at 1), which gives the next W (eq. 10) and both chains (eq. 11);
- the effective bad duration (eqs. 12-16): E[Y | NL] and E[Y | TD] for the first two outcomes; for a timeout,
  Z, the time until a retransmission finds the channel good, with the timer doubling from Δ(w') up to 64Δ(w')
  (eq. 13 for the chance the channel has become good after δ);
- the goodput ρ = E[N] / (E[V] + E[U]) / μ (eq. 19).

docs/models.md ("The abouzeid analysis") records the choices the paper leaves to [22]: integer windows, the
halving to ⌊w/2⌋, Γ's density in eqs. (7)-(8), and Z's law with the correct interval at each retransmission
(eq. (15) as printed reuses P_Δ).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import _validate as v
from ..channels.continuous import ContinuousTwoState
from .renewal import stationary_distribution

#: Largest timer multiplier (abouzeid §IV-I: "up to 64Δ(w2) after which it remains constant").
MAX_BACKOFF = 64


@dataclass(frozen=True)
class LinkAnalysis:
    """Result of :func:`analyze_link`. ``goodput`` is normalized by μ (abouzeid eq. (19)); the arrays are
    indexed by the window w = 1..w_p (index w − 1)."""

    variant: str
    rate: float
    tau: float
    buffer: int
    round_trip: float
    pipe: float
    max_window: int
    mean_good: float
    mean_bad: float
    goodput: float
    reward: float
    mean_effective_bad: float
    p_no_loss: float
    p_triple_duplicate: float
    p_timeout: float
    ideal_goodput: float
    cycle: float
    good_chain: np.ndarray = field(repr=False)
    bad_chain: np.ndarray = field(repr=False)
    window_good: np.ndarray = field(repr=False)
    window_bad: np.ndarray = field(repr=False)
    outcome: dict[str, np.ndarray] = field(repr=False)
    effective_bad: np.ndarray = field(repr=False)
    reward_by_window: np.ndarray = field(repr=False)

    @property
    def beta(self) -> float:
        """β = B/(μT)."""
        return self.buffer / self.pipe

    @property
    def goodput_ceiling(self) -> float:
        """(1 − f) ρ_ideal, the slow-fading limit of eq. (20)."""
        return (1 - self.mean_bad / (self.mean_good + self.mean_bad)) * self.ideal_goodput


class _Trajectory:
    """The window's deterministic climb in a good state (abouzeid Table I, fluid between integers)."""

    def __init__(self, rate: float, round_trip: float, max_window: int) -> None:
        self.rate, self.t, self.pipe, self.wp = rate, round_trip, rate * round_trip, float(max_window)
        self.low = float(max(max_window // 2, 1))
        self.cycle = self.time(self.low, self.wp)

    def time(self, w_from, w_to):
        """t(w_from, w_to): phase A (linear, T per window) below μT, phase B ((w_to² − w²)/2μ) above."""
        w_from, w_to = np.asarray(w_from, dtype=float), np.asarray(w_to, dtype=float)
        a_end = np.minimum(w_to, self.pipe)
        phase_a = np.where(w_from < self.pipe, self.t * np.maximum(a_end - w_from, 0.0), 0.0)
        b_start = np.maximum(w_from, self.pipe)
        phase_b = np.where(w_to > self.pipe, (w_to**2 - b_start**2) / (2 * self.rate), 0.0)
        return phase_a + np.maximum(phase_b, 0.0)

    def packet_times(self, w_from: float, w_to: float) -> np.ndarray:
        """Times of the packets sent while the window climbs from w_from to w_to: the m-th when
        n(w_from, w) = (w² − w_from²)/2 reaches m (Table I's t_n, both phases)."""
        count = int(math.floor((w_to**2 - w_from**2) / 2))
        m = np.arange(1, count + 1, dtype=float)
        return self.time(w_from, np.sqrt(w_from**2 + 2 * m))


def _exp_sum(times: np.ndarray, rate: float) -> float:
    return float(np.exp(-rate * times).sum())


def analyze_link(variant: str = "reno", *, rate: float, tau: float, buffer: int | None = None,
                 beta: float | None = None, mean_good: float | None = None, mean_bad: float | None = None,
                 channel: ContinuousTwoState | None = None) -> LinkAnalysis:
    """Goodput of TCP Reno over a fading link with a buffer, by abouzeid's Markov renewal-reward analysis.

    Parameters
    ----------
    variant : "reno" (the analysis models Reno; abouzeid §IV-B notes it approximates NewReno too).
    rate : link rate μ [packets/s].
    tau : round-trip propagation delay τ [s]; T = τ + 1/μ.
    buffer, beta : the buffer B [packets] or β = B/(μT) (default β = 1).
    mean_good, mean_bad : E[X], E[Y] [s] of the channel (or give ``channel``: a ContinuousTwoState with the
        any-instant rule, losses 0 and 1).

    Examples
    --------
    >>> a = analyze_link(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001)   # abouzeid Fig. 8
    >>> round(float(a.outcome["triple_duplicate"][-1]), 2)   # e^(-3/(mu E[X])), the paper's 0.86
    0.86
    """
    name = v.choice("variant", str(variant).lower().replace("-", "").replace("_", ""), ("reno", "newreno"))
    mu = v.positive("rate", rate)
    t = v.at_least("tau", tau, 0.0) + 1.0 / mu
    if buffer is not None and beta is not None:
        raise v.fail("buffer", buffer, "give buffer or beta, not both")
    if buffer is None:
        buffer = int(round(v.at_least("beta", 1.0 if beta is None else beta, 0.0) * mu * t))
    buffer = v.integer("buffer", buffer, 0, 1 << 20)
    if channel is not None:
        if mean_good is not None or mean_bad is not None:
            raise v.fail("channel", type(channel).__name__, "give channel or mean_good/mean_bad, not both")
        if channel.loss_rule != "any-instant" or (channel.loss_good, channel.loss_bad) != (0.0, 1.0):
            raise v.fail("channel", channel.loss_rule, "the analysis needs the any-instant rule with losses 0 and 1")
        mean_good, mean_bad = channel.mean_good, channel.mean_bad
    if mean_good is None or mean_bad is None:
        raise v.fail("mean_bad" if mean_good is not None else "mean_good", None,
                     "give mean_good and mean_bad (or channel)")
    ex, ey = v.positive("mean_good", mean_good), v.positive("mean_bad", mean_bad)
    lam0, lam1 = 1.0 / ex, 1.0 / ey
    max_window = max(int(math.floor(buffer + mu * t)), 1)
    traj = _Trajectory(mu, t, max_window)
    windows = np.arange(1, max_window + 1, dtype=float)

    # Typical cycle (Table II): its packets' times from w_p/2 and its length.
    cycle_times = traj.packet_times(traj.low, traj.wp)
    cycle_decay = math.exp(-lam0 * traj.cycle)
    cycle_reward = _exp_sum(cycle_times, lam0)
    # Integer windows held during the cycle, and when.
    cycle_w = np.arange(int(traj.low), max_window)
    cycle_in = np.exp(-lam0 * traj.time(traj.low, cycle_w)) - np.exp(-lam0 * traj.time(traj.low, cycle_w + 1.0))

    reward = np.empty(max_window)
    climb = np.zeros((max_window, max_window))   # P[W' = w' | W = w], eq. (11)'s first factor
    for i, w1 in enumerate(windows):
        # Atypical cycle: from w1 to w_p, then the typical cycles repeat (eq. (5), geometric in j).
        to_overflow = float(traj.time(w1, traj.wp))
        repeat = math.exp(-lam0 * to_overflow) / (1.0 - cycle_decay)
        reward[i] = _exp_sum(traj.packet_times(w1, traj.wp), lam0) + repeat * cycle_reward
        held = np.arange(int(w1), max_window)
        climb[i, held - 1] += np.exp(-lam0 * traj.time(w1, held)) - np.exp(-lam0 * traj.time(w1, held + 1.0))
        climb[i, cycle_w - 1] += repeat * cycle_in

    outcome = _outcomes(windows, mu, t, lam0, lam1)
    # Eq. (10): NL keeps the window, TD halves it, TO restarts it at 1.
    after = np.zeros((max_window, max_window))
    idx = np.arange(max_window)
    after[idx, idx] += outcome["no_loss"]
    after[idx, np.maximum(windows // 2, 1).astype(int) - 1] += outcome["triple_duplicate"]
    after[idx, 0] += outcome["timeout"]
    good_chain, bad_chain = climb @ after, after @ climb
    pi_good, pi_bad = stationary_distribution(good_chain), stationary_distribution(bad_chain)

    effective = _effective_bad(windows, mu, t, lam0, lam1, outcome)
    expected_reward = float(pi_good @ reward)
    expected_bad = float(pi_bad @ effective)
    goodput = expected_reward / (ex + expected_bad) / mu
    ideal = len(cycle_times) / (mu * traj.cycle)   # ⌊n_p⌋ packets per cycle, as the reward counts them
    return LinkAnalysis(
        variant=name, rate=mu, tau=t - 1.0 / mu, buffer=buffer, round_trip=t, pipe=mu * t, max_window=max_window,
        mean_good=ex, mean_bad=ey, goodput=goodput, reward=expected_reward, mean_effective_bad=expected_bad,
        p_no_loss=float(pi_bad @ outcome["no_loss"]), p_triple_duplicate=float(pi_bad @ outcome["triple_duplicate"]),
        p_timeout=float(pi_bad @ outcome["timeout"]), ideal_goodput=min(ideal, 1.0), cycle=traj.cycle,
        good_chain=good_chain, bad_chain=bad_chain, window_good=pi_good, window_bad=pi_bad, outcome=outcome,
        effective_bad=effective, reward_by_window=reward)


def _partial_integral(length: np.ndarray, lam1: float) -> np.ndarray:
    """∫_0^L F_Y(c) dc = L − (1 − e^{−λ1 L})/λ1 (the bad visit must end within what is left of the round)."""
    return length - (1.0 - np.exp(-lam1 * length)) / lam1


def _outcomes(w: np.ndarray, mu: float, t: float, lam0: float, lam1: float) -> dict[str, np.ndarray]:
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


def _effective_bad(w: np.ndarray, mu: float, t: float, lam0: float, lam1: float,
                   outcome: dict[str, np.ndarray]) -> np.ndarray:
    """E[U | w'] (eq. (12)): E[Y | NL], E[Y | TD] and, for a timeout, E[Z] (eqs. (13)-(15))."""
    idle = np.maximum(t - w / mu, 0.0)
    span = np.maximum(w - 3.0, 0.0) / mu
    with np.errstate(divide="ignore", invalid="ignore"):
        y_nl = np.where(outcome["no_loss"] > 0,
                        _bad_mean_given_ending_within(idle, lam1) / np.maximum(_partial_integral(idle, lam1), 1e-300),
                        0.0)
        small = _bad_mean_given_ending_within(span, lam1) / np.maximum(_partial_integral(span, lam1), 1e-300)
        truncated = 1.0 / lam1 - span * np.exp(-lam1 * span) / np.maximum(1.0 - np.exp(-lam1 * span), 1e-300)
    y_td = np.where(w <= mu * t, small, truncated)
    y_td = np.where(outcome["triple_duplicate"] > 0, y_td, 0.0)
    z = np.array([_timeout_sequence(max(wi, mu * t) / mu, lam0, lam1) for wi in w])
    return outcome["no_loss"] * y_nl + outcome["triple_duplicate"] * y_td + outcome["timeout"] * z


def _timeout_sequence(delta: float, lam0: float, lam1: float) -> float:
    """E[Z]: the timer fires δ_1 = Δ after the bad visit starts, then after 2Δ, 4Δ, ... up to 64Δ; each
    retransmission gets through if the channel, bad at the previous one, is good then (eq. (13):
    P_δ = (1 − f)(1 − e^{−(λ0+λ1)δ})). Z is the time of the first that gets through."""
    good = lam1 / (lam0 + lam1)   # 1 − f
    steps, total, alive, z = 1, 0.0, 1.0, 0.0
    while steps < MAX_BACKOFF:
        interval = steps * delta
        p = good * (1.0 - math.exp(-(lam0 + lam1) * interval))
        total += interval
        z += alive * p * total
        alive *= 1.0 - p
        steps *= 2
    # From here every interval is 64Δ: a geometric number of them, success probability p each.
    interval = MAX_BACKOFF * delta
    p = good * (1.0 - math.exp(-(lam0 + lam1) * interval))
    # Σ_{k>=1} (1 − p)^{k−1} p (total + k·interval) = total + interval / p.
    z += alive * (total + interval / p)
    return z
