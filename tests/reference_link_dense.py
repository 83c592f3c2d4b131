"""The link analysis' embedded chain as it was built before it was made sparse (tcpfade 4baf8a8): dense w_p × w_p
tables of the climb, a dense persistence table, the chain assembled state by state and solved densely. Kept as the
reference the sparse chain (``tcpfade.analysis.link.chain``) must reproduce wherever this one runs
(tests/test_link_analysis.py); the parts the two share (the outcomes, the timeout laws, the recovery) are imported."""

from __future__ import annotations

import math

import numpy as np

from tcpfade.analysis.link import link_analysis_arguments
from tcpfade.analysis.link.climb import Trajectory
from tcpfade.analysis.link.recovery import Recovery, recovery_rounds
from tcpfade.analysis.link.visits import TimeoutLaw, bad_given_no_timeout, outcomes, refined_timer, timeout_law
from tcpfade.analysis.renewal import stationary_distribution


def _good_state_terms(traj: Trajectory, lam0: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every starting window w = 1..w_p at once: E[N | W = w] (eqs. (4)-(6), the typical cycles summed as a
    geometric series), P[W' = w' | W = w] (eq. (11)'s first factor) and the expected number of rounds held at
    each window w' (so of RTT samples).

    The climb's time is additive, t(w1, w2) = τ(w2) − τ(w1) with τ(w) = t(1, w), so the chance V lasts until the
    climb from w1 reaches w2 is e^{−λ0(τ(w2) − τ(w1))}: one w_p × w_p table. The m-th packet of the climb from
    w1 goes at the fluid window x with x² = w1² + 2m and counts e^{−λ0(τ(x) + q(x) − τ(w1))} (q: the queue
    delay), so E[N | w1] is a sum over the integers s = x² > w1² of w1's parity: a suffix sum, done once for
    each parity, in log space (np.logaddexp) because e^{±λ0 τ} alone overflows on long climbs."""
    wp = int(traj.wp)
    tau = traj.time(1.0, np.arange(1, wp + 1, dtype=float))
    upper = np.triu(np.ones((wp, wp), dtype=bool))
    entered = np.exp(-lam0 * np.where(upper, tau[None, :] - tau[:, None], np.inf))   # 0 below the diagonal

    low = int(traj.low)
    cycle_decay = entered[low - 1, -1]
    cycle_entered = entered[low - 1, low - 1:]
    cycle_reward = float(np.exp(-lam0 * traj.packet_times(traj.low, traj.wp)).sum())
    repeat = entered[:, -1] / (1.0 - cycle_decay)   # P(V reaches w_p), then the typical cycles repeat
    cycle_w = np.arange(low, wp) - 1

    climb = np.zeros((wp, wp))
    climb[:, :-1] = np.triu(entered[:, :-1] - entered[:, 1:])
    climb[:, cycle_w] += repeat[:, None] * (cycle_entered[:-1] - cycle_entered[1:])[None, :]
    rounds = np.zeros((wp, wp))
    rounds[:, :-1] = entered[:, :-1]
    rounds[:, cycle_w] += repeat[:, None] * cycle_entered[:-1][None, :]

    squares = np.arange(1, wp * wp + 1, dtype=float)
    x = np.sqrt(squares)
    log_count = -lam0 * (traj.time(1.0, x) + traj.queue_delay(x))
    first = np.arange(1, wp + 1) ** 2 + 2   # s of the climb's first packet from each w1
    climb_reward = np.zeros(wp)
    for parity in (0, 1):
        rows = np.flatnonzero((np.arange(1, wp + 1) % 2 == parity) & (first <= wp * wp))
        series = log_count[1 - parity::2]        # s = 2 − parity, 4 − parity, ...: the squares of this parity
        suffix = np.logaddexp.accumulate(series[::-1])[::-1]
        climb_reward[rows] = np.exp(lam0 * tau[rows] + suffix[(first[rows] - (2 - parity)) // 2])
    return climb_reward + repeat * cycle_reward, climb, rounds


def _persistence(traj: Trajectory, lam0: float) -> np.ndarray:
    """P(W' = w', the bad visit comes before Karn's rule ends the backoff | the good state began after a
    timeout that left h segments outstanding), shape (h = 1..w_p, w' = 1..w_p).

    After a timeout the sender resends the h outstanding segments (go-back-N) before any new one; only a
    new one is timed (Karn), and its ACK ends the backoff. A bad visit that starts once that segment is
    through meets a reset timer (the ACK is on its way on the lossless return path), so the backoff matters
    for visits that start before packet h + 1 of the climb from W = 1 (approximation 5) is through: it is
    sent at the fluid window x = √(1 + 2h) (Table I's n(1, x) = (x² − 1)/2) and takes 1/μ on the link.
    The span is cut at the atypical cycle's end (it is a few rounds long)."""
    wp = int(traj.wp)
    h = np.arange(1, wp + 1, dtype=float)
    x = np.minimum(np.sqrt(1.0 + 2.0 * h), traj.wp)
    until = np.minimum(traj.time(1.0, x) + 1.0 / traj.rate, traj.time(1.0, traj.wp))
    held = np.arange(1, wp, dtype=float)
    enter, leave = traj.time(1.0, held), traj.time(1.0, held + 1.0)
    out = np.zeros((wp, wp))
    left_by = np.exp(-lam0 * np.minimum(leave[None, :], until[:, None]))
    out[:, :wp - 1] = np.where(enter[None, :] < until[:, None], np.exp(-lam0 * enter)[None, :] - left_by, 0.0)
    return out


def analyze_link_dense(variant: str = "reno", **kwargs) -> dict:
    """The analysis as :func:`tcpfade.analyze_link` computed it with the dense chain: its figures and laws."""
    args = link_analysis_arguments(variant, **kwargs)
    solve = stationary_distribution
    name, mu, t, reading = (args[k] for k in ("variant", "rate", "round_trip", "reading"))
    ex = args["channel"].mean_good
    granularity, lowest, highest = args["clock_granularity"], args["min_rto"], args["max_rto"]
    refined = reading == "refined"
    levels = args["max_backoff"].bit_length() - 1
    lam0, lam1 = 1.0 / ex, 1.0 / args["channel"].mean_bad
    max_window = max(int(math.floor(args["buffer"] + mu * t)), 1)
    traj = Trajectory(mu, t, max_window, at_link=refined)
    windows = np.arange(1, max_window + 1, dtype=float)

    reward, climb, rounds = _good_state_terms(traj, lam0)

    outcome = outcomes(windows, mu, t, lam0, lam1)
    chain = _TimerChain(max_window, climb, reward, outcome, *bad_given_no_timeout(windows, mu, t, lam1, outcome))
    rtt = np.maximum(t, windows / mu)
    if refined:
        # The windows' chain does not depend on the timer: its RTT samples (one a round) set the estimator.
        delta, start_delay, known_bad, survivors = refined_timer(solve(chain.window_chain()) @ rounds, rtt, windows,
                                                                 mu, t, lam1, granularity, lowest, highest)
        persistence = _persistence(traj, lam0)
    else:
        delta, persistence, start_delay = rtt, None, 0.0     # eq. (2); every visit starts from Δ(w')
        known_bad, survivors = np.zeros(max_window), np.zeros(max_window)
    laws = [timeout_law(delta, e, levels, start_delay, known_bad, highest, lam0, lam1) for e in range(levels + 1)]
    recovery = None
    if args["recovery"] == "rounds":
        backed_off, core = _TimerChain.core_states(max_window, persistence, levels)
        recovery = recovery_rounds(name, max_window, mu, t, lam0, lam1, delta, backed_off, core, levels, highest)
    chain.build(laws, persistence, levels, survivors, recovery)
    pi = solve(chain.matrix)
    expected_reward = float(pi @ chain.reward)
    expected_bad = float(pi @ chain.effective_bad)
    visits = pi @ chain.visit_windows
    pi_good = pi[:max_window].copy()
    core = len(pi) - (max_window if recovery is not None else 0)
    pi_good[0] += pi[max_window:core].sum()   # the backed-off states all start at W = 1
    if recovery is not None:   # the TD states: the window the recovery leaves (most often)
        np.add.at(pi_good, recovery.start - 1, pi[core:])
    # E[N] is a sum of non-negative terms; the differences it is formed from can round it to -1e-20 when good
    # states are far shorter than a packet
    goodput = max(expected_reward, 0.0) / (ex + expected_bad) / mu
    ideal = traj.packets_per_cycle / (mu * traj.cycle)   # ⌊n_p⌋ packets per cycle, as the reward counts them
    return {"goodput": goodput, "reward": expected_reward, "mean_effective_bad": expected_bad,
            "p_no_loss": float(visits @ outcome["no_loss"]),
            "p_triple_duplicate": float(visits @ outcome["triple_duplicate"]),
            "p_timeout": float(visits @ outcome["timeout"]), "mean_rto_at_bad": float(visits @ delta),
            "mean_backoff_at_bad": float(pi @ chain.backoff), "ideal_goodput": min(ideal, 1.0),
            "good_chain": chain.matrix, "window_good": pi_good, "window_bad": visits,
            "effective_bad": chain.effective_bad_by_window, "reward_by_window": reward, "rto": delta}


class _TimerChain:
    """The good chain of abouzeid §IV-C extended by the backoff Karn's rule carries into a good state.

    States 0..w_p−1: a good state that starts at window w = 1..w_p with the timer not backed off (all of the
    paper's states). State w_p + (k − 1)·w_p + (h − 1): a good state that starts after a timeout (W = 1) with
    the timer backed off 2^k times and h segments outstanding; until Karn's rule ends the backoff (see
    :func:`_persistence`) a bad visit meets the backed-off timer, and a timeout then goes on doubling from
    there. With ``persistence=None`` (the paper's timer) there are no backed-off states: the paper's chain."""

    def __init__(self, wp: int, climb: np.ndarray, reward: np.ndarray, outcome: dict[str, np.ndarray],
                 y_nl: np.ndarray, y_td: np.ndarray) -> None:
        self.wp, self.climb, self.outcome, self.y_nl, self.y_td = wp, climb, outcome, y_nl, y_td
        self.base_reward = reward
        idx = np.arange(wp)
        # Where NL and TD lead (eq. (10)): the same window, or half of it.
        self.no_timeout = np.zeros((wp, wp))
        self.no_timeout[idx, idx] += outcome["no_loss"]
        self.no_timeout[idx, np.maximum((idx + 1) // 2, 1) - 1] += outcome["triple_duplicate"]

    def window_chain(self) -> np.ndarray:
        """The paper's good chain (eq. (11)): windows only, every timeout restarting at W = 1."""
        after = self.no_timeout.copy()
        after[:, 0] += self.outcome["timeout"]
        return self.climb @ after

    @staticmethod
    def core_states(wp: int, persistence: np.ndarray | None, levels: int) -> tuple[bool, int]:
        """Whether the chain carries backoff states, and how many states it has without the TD states. Without
        persistence (the paper's timer) or without backoff (max_backoff = 1) there is nothing to carry: every
        timeout restarts at W = 1 with a fresh timer."""
        backed_off = persistence is not None and levels > 0
        return backed_off, wp * (levels + 1) if backed_off else wp

    def build(self, laws: list[TimeoutLaw], persistence: np.ndarray | None, levels: int,
              survivors: np.ndarray, recovery: Recovery | None = None) -> None:
        """Transition matrix, reward, E[U] and the windows of the visits, per state. ``survivors[w']``: packets
        queued at a visit's start that the link delivers after it (added to the reward). With ``recovery`` a TD
        at w' leads to a state of its own (index core + w' − 1) whose good state opens with the recovery."""
        wp = self.wp
        backed_off, core = self.core_states(wp, persistence, levels)
        n = core + (wp if recovery is not None else 0)
        matrix = np.zeros((n, n))
        self.effective_bad, self.backoff, self.visit_windows = np.zeros(n), np.zeros(n), np.zeros((n, wp))
        timeout = self.outcome["timeout"]
        no_to_bad = self.outcome["no_loss"] * self.y_nl + self.outcome["triple_duplicate"] * self.y_td
        self.effective_bad_by_window = no_to_bad + timeout * laws[0].mean
        windows = np.arange(1, wp + 1)
        if recovery is None:
            no_timeout = self.no_timeout
        else:
            no_timeout = np.zeros((wp, n))
            no_timeout[windows - 1, windows - 1] = self.outcome["no_loss"]
            no_timeout[windows - 1, core + windows - 1] = self.outcome["triple_duplicate"]

        def visit(rows, mass, e, outstanding=None, only_timeout=False, law=None):
            # mass: (rows, w') probabilities of a visit at w' with backoff 2^e; a timeout leads to the state
            # (exponent j, h' outstanding), h' = w' unless ``outstanding`` (rows, w') says otherwise. Z's law is
            # laws[e] by the visit's window, or ``law`` by row.
            z_mean, z_exit = (laws[e].mean[None, :], laws[e].exit[None, :, :]) if law is None else \
                (law.mean[:, None], law.exit[:, None, :])
            if only_timeout:
                self.effective_bad[rows] += (mass * z_mean).sum(axis=1)
                into = mass
            else:
                matrix[rows, :no_timeout.shape[1]] += mass @ no_timeout
                self.effective_bad[rows] += mass @ no_to_bad + (mass * timeout[None, :] * z_mean).sum(axis=1)
                into = mass * timeout[None, :]
            self.backoff[rows] += mass.sum(axis=1) * 2.0 ** e
            self.visit_windows[rows] += mass
            if not backed_off:
                matrix[rows, 0] += into.sum(axis=1)   # eq. (10)
                return
            # into × P(exponent j | w'), j = 1..levels: shape (rows, w', levels).
            if outstanding is None:
                exits = into[:, :, None] * z_exit[..., 1:]
                matrix[rows, wp:wp * (levels + 1)] += exits.transpose(0, 2, 1).reshape(len(rows), levels * wp)
                return
            used = np.flatnonzero(into.any(axis=0))   # the few small windows the persistence reaches
            exits = into[:, used, None] * np.broadcast_to(z_exit, into.shape + (levels + 1,))[:, used, 1:]
            columns = wp * np.arange(1, levels + 1)[None, None, :] + (outstanding[:, used] - 1)[:, :, None]
            np.add.at(matrix, (np.broadcast_to(rows[:, None, None], columns.shape), columns), exits)

        visit(np.arange(wp), self.climb, 0)
        for k in range(1, levels + 1 if backed_off else 1):
            rows = wp * k + np.arange(wp)
            visit(rows, self.climb[0][None, :] - persistence, 0)
            h = np.arange(1, wp + 1)[:, None]
            left = np.maximum(windows[None, :], h - windows[None, :] * (windows[None, :] - 1) // 2)
            visit(rows, persistence, k, left)
            # An NL visit at W' = 1 (the sender idle, awaiting the first ACK) leaves the backoff and the
            # outstanding segments as they were: the next good state is this state again.
            kept = persistence[:, 0] * self.outcome["no_loss"][0]
            matrix[rows, 0] -= kept
            matrix[rows, rows] += kept
        reward = np.concatenate([self.base_reward] + [np.full(wp, self.base_reward[0])] * (core // wp - 1))
        if recovery is not None:
            # A TD state is its prelude, then (if the good state outlasts it) the state the climb starts in:
            # that state's row, by the memoryless good state; else a timeout during the recovery.
            rows, weights = core + windows - 1, recovery.target[:, :core]
            matrix[rows] = weights @ matrix[:core]
            self.effective_bad[rows] = weights @ self.effective_bad[:core]
            self.backoff[rows] = weights @ self.backoff[:core]
            self.visit_windows[rows] = weights @ self.visit_windows[:core]
            reward = np.concatenate([reward, recovery.reward + weights @ reward])
            for mass, only_timeout, law in ((recovery.broken_timeout, True, None), (recovery.broken_visit, False, None),
                                            (recovery.broken_idle, True, recovery.idle_law)):
                broken = np.zeros((wp, wp))
                broken[windows - 1, recovery.start - 1] = mass
                visit(rows, broken, 0, only_timeout=only_timeout, law=law)
        self.matrix = matrix
        self.reward = reward + self.visit_windows @ survivors
