"""The window's climb in a sampled good state (abouzeid Tables I-II, eqs. (4)-(6)).

:class:`Trajectory` is Lakshman and Madhow's deterministic evolution of the window from w up to w_p = B + μT
("phase A" linear in time below μT, "phase B" as the link's busy time above it). The good state V ~ Exp(λ0) cuts
it short, so the climb is a birth chain (:class:`Climb`), and E[N | W = w], the packets through before the bad
visit, is a sum over the climb's packets (:func:`good_state_terms`), formed window by window in O(w_p) work for
the w_p²/2 packets (:func:`packets_by_window`: small windows packet by packet, the others as runs of a smooth
function summed by Euler-Maclaurin).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


class Trajectory:
    """The window's deterministic climb in a good state (abouzeid Table I, fluid between integers)."""

    def __init__(self, rate: float, round_trip: float, max_window: int, at_link: bool) -> None:
        self.rate, self.t, self.pipe, self.wp = rate, round_trip, rate * round_trip, float(max_window)
        self.at_link = at_link
        self.low = float(max(max_window // 2, 1))
        self.cycle = self.time(self.low, self.wp)
        # A typical cycle's packets (Table II's n_p): n(low, w_p) = (w_p² − low²)/2, whole packets.
        self.packets_per_cycle = (max_window * max_window - int(self.low) ** 2) // 2

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
        n(w_from, w) = (w² − w_from²)/2 reaches m (Table I's t_n, both phases); see :meth:`queue_delay`."""
        count = int(math.floor((w_to**2 - w_from**2) / 2))
        w = np.sqrt(w_from**2 + 2 * np.arange(1, count + 1, dtype=float))
        return self.time(w_from, w) + self.queue_delay(w)

    def queue_delay(self, w):
        """With ``at_link``, a packet sent at window w is counted when the link sends it: after the w − μT
        packets queued ahead of it in phase B (0 otherwise)."""
        return np.maximum(np.asarray(w, dtype=float) - self.pipe, 0.0) / self.rate if self.at_link else 0.0


@dataclass(frozen=True)
class Climb:
    """The window's climb in a good state as a birth chain (abouzeid Table I, eqs. (4)-(6)).

    The good state V is exponential, so having reached window u it outlasts the climb through u with chance
    ``survive[u − 1]`` = e^{−λ0 (τ(u+1) − τ(u))} (u = 1..w_p − 1), else the bad visit comes at u (``ends``); from
    w_p the typical cycles start again at ``low`` = ⌊w_p/2⌋. ``reward[w − 1]`` is E[N | W = w]."""

    survive: np.ndarray
    ends: np.ndarray
    low: int
    reward: np.ndarray


#: Windows below this are summed packet by packet (at most 2·64 + 1 packets each); above, a window's packets are a
#: run of a smooth function far from the square root's branch point, which Euler-Maclaurin sums in closed form.
DIRECT_WINDOWS = 64
#: Euler-Maclaurin takes over where each packet's term is at least e^{-1/2} of the one before: its correction terms
#: then fall as (0.5/2π)^{2k}, below 1e-16 at k = 8.
SMOOTH_SLOPE = 0.5
#: Terms e^{-60} below a run's first, however many, add less than 1e-20 of it: the sums stop there.
NEGLIGIBLE = 60.0
#: Bernoulli numbers B_2k / (2k)!, k = 1..8.
_EM_COEFFICIENTS = np.array([1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510]) / np.array(
    [math.factorial(2 * k) for k in range(1, 9)], dtype=float)
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(16)
#: ℓ^(k) = c2 2^k (1/2)(−1/2)···(3/2 − k) s^(1/2 − k), k = 2..15: the factor of c2 s^(1/2 − k).
_EM_DERIVATIVE = np.array([2.0 ** k * math.prod(1.5 - i for i in range(1, k + 1)) for k in range(2, 16)])
#: C(m, i), m, i = 0..14.
_BINOMIAL = np.array([[math.comb(m, i) for i in range(15)] for m in range(15)], dtype=float)


def _series(z: np.ndarray, coefficients: tuple[float, ...]) -> np.ndarray:
    """Σ c_k (−z)^k by Horner's rule."""
    out = np.full(z.shape, coefficients[-1])
    for c in coefficients[-2::-1]:
        out = out * -z + c
    return out


_H1 = tuple(1.0 / math.factorial(k + 1) for k in range(12))
_H2 = tuple((k + 1) / math.factorial(k + 2) for k in range(12))
_H3 = tuple(1.0 / math.factorial(k + 2) for k in range(12))


def h1(z: np.ndarray) -> np.ndarray:
    """(1 − e^{−z})/z, by its series where that cancels."""
    z = np.asarray(z, dtype=float)
    small = z < 0.1
    zb = np.where(small, 1.0, z)
    return np.where(small, _series(np.where(small, z, 0.0), _H1), -np.expm1(-zb) / zb)


def h2(z: np.ndarray) -> np.ndarray:
    """(1 − e^{−z}(1 + z))/z², by its series where that cancels."""
    z = np.asarray(z, dtype=float)
    small = z < 0.1
    zb = np.where(small, 1.0, z)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(small, _series(np.where(small, z, 0.0), _H2), (-np.expm1(-zb) - zb * np.exp(-zb)) / (zb * zb))


def h3(z: np.ndarray) -> np.ndarray:
    """(z − 1 + e^{−z})/z², by its series where that cancels."""
    z = np.asarray(z, dtype=float)
    small = z < 0.1
    zb = np.where(small, 1.0, z)
    return np.where(small, _series(np.where(small, z, 0.0), _H3), (zb + np.expm1(-zb)) / (zb * zb))


def _run_integral(c1: np.ndarray, c2: np.ndarray, ya: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """∫ y e^{G(y) − G(ya)} dy from ya to ya + ``delta``, G(y) = c1 y² + c2 y with c2 < 0 and c1 ≤ 0: the integral
    over j of a run's terms e^{ℓ(j)}, y = √(s0 + 2j) (dj = y dy), in closed form (``delta`` is passed, not the
    upper end: the difference of two roots of 10⁷ loses six digits). With c1 = 0 (phase A) it is elementary; with
    c1 < 0 (phase B counted at the link) G is a Gaussian about −p = −c2/(2c1), and ∫ (v − p) e^{−a(v² − va²)} dv
    splits into an elementary part and p times a Gaussian integral: by Gauss-Legendre where the integrand varies by
    at most e², by scipy's erfcx (no cancellation) beyond."""
    from scipy import special

    out = np.empty(ya.shape)
    linear = c1 == 0.0
    if linear.any():
        lo, d = ya[linear], delta[linear]
        z = -c2[linear] * d
        out[linear] = lo * d * h1(z) + d * d * h2(z)
    if (~linear).any():
        a, p = -c1[~linear], c2[~linear] / (2.0 * c1[~linear])
        va, d = ya[~linear] + p, delta[~linear]
        width = d * (2.0 * va + d)                      # vb² − va²
        z = a * width
        elementary = 0.5 * width * h1(z)
        half = 0.5 * d
        offsets = half[:, None] * (1.0 + _GL_NODES[None, :])       # v − va at the nodes
        quadrature = half * (np.exp(-a[:, None] * offsets * (offsets + 2.0 * va[:, None])) @ _GL_WEIGHTS)
        ra = np.sqrt(a)
        with np.errstate(over="ignore", invalid="ignore"):
            closed = math.sqrt(math.pi) / (2.0 * ra) * (special.erfcx(ra * va) - special.erfcx(ra * (va + d)) * np.exp(-z))
        out[~linear] = elementary - p * np.where(z <= 2.0, quadrature, closed)
    return out


def _exponent(c1: np.ndarray, c2: np.ndarray, s0: np.ndarray, j: np.ndarray) -> np.ndarray:
    """ℓ(j) = c1·2j + c2·(√(s0 + 2j) − √s0): a run's term j against its first (the difference of roots without
    cancellation)."""
    return 2.0 * c1 * j + c2 * (2.0 * j / (np.sqrt(s0 + 2.0 * j) + np.sqrt(s0)))


def _log_run_sums(c1: np.ndarray, c2: np.ndarray, s0: np.ndarray, n: np.ndarray) -> np.ndarray:
    """log Σ_{j<n} e^{ℓ(j)} for runs of packets s = s0, s0 + 2, ... within one phase of the climb, where a term is
    e^{c1 s + c2 √s} (c1, c2 ≤ 0): phase A has c1 = 0, phase B c1 = −λ0/(2μ) and, counted at the link,
    c2 = −λ0/μ. Without the root (c2 = 0) a run is a geometric series. Otherwise its first terms, while each is
    below e^{−1/2} of the one before, are summed one by one (at most until the rest is negligible), and the rest
    by Euler-Maclaurin: the integral in closed form (:func:`_run_integral`), the ends' mean and 8 Bernoulli
    corrections from the derivatives of e^{ℓ} (complete Bell polynomials of ℓ's derivatives)."""
    out = np.zeros(n.shape)
    geometric = c2 == 0.0
    if geometric.any():
        a, m = -2.0 * c1[geometric], n[geometric].astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            out[geometric] = np.where(a > 0.0, np.log(-np.expm1(-a * m)) - np.log(-np.expm1(-np.where(a > 0, a, 1.0))),
                                      np.log(m))
    rest = ~geometric & (n > 0)
    if not rest.any():
        return out
    c1, c2, s0, n = c1[rest], c2[rest], s0[rest].astype(float), n[rest].astype(np.int64)
    # Terms j < switch fall by more than SMOOTH_SLOPE each: −ℓ'(j) = −2c1 − c2/√(s0 + 2j) > SMOOTH_SLOPE.
    room = SMOOTH_SLOPE + 2.0 * c1
    with np.errstate(divide="ignore", invalid="ignore"):
        edge = np.where(room > 0.0, (c2 / np.where(room > 0.0, room, 1.0)) ** 2, np.inf)
    switch = np.clip(np.ceil((edge - s0) / 2.0), 0, n).astype(np.int64)
    # One by one: up to where the terms left are negligible (each falls by the last direct term's slope or more).
    last = np.maximum(np.minimum(switch, 160) - 1, 0)
    slope = -2.0 * c1 - c2 / np.sqrt(s0 + 2.0 * last)
    direct = np.minimum(switch, np.ceil((np.log(n) + NEGLIGIBLE) / np.maximum(slope, SMOOTH_SLOPE))).astype(np.int64)
    total = _log_direct_sums(c1, c2, s0, direct)
    smooth = switch < n
    if smooth.any():
        total[smooth] = np.logaddexp(total[smooth], _euler_maclaurin(c1[smooth], c2[smooth], s0[smooth],
                                                                      switch[smooth], n[smooth] - 1))
    out[rest] = total
    return out


def _log_direct_sums(c1: np.ndarray, c2: np.ndarray, s0: np.ndarray, count: np.ndarray) -> np.ndarray:
    """log Σ_{j<count} e^{ℓ(j)}, the terms one by one (−inf for an empty run)."""
    runs = np.repeat(np.arange(count.size), count)
    j = np.arange(runs.size) - np.repeat(np.cumsum(count) - count, count)
    terms = np.exp(_exponent(c1[runs], c2[runs], s0[runs], j.astype(float)))
    with np.errstate(divide="ignore"):
        return np.log(np.bincount(runs, terms, minlength=count.size))


def _euler_maclaurin(c1: np.ndarray, c2: np.ndarray, s0: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log Σ_{j=a}^{b} e^{ℓ(j)} by Euler-Maclaurin, where the terms fall by at most SMOOTH_SLOPE each and s0 is at
    least DIRECT_WINDOWS² (the derivatives of √(s0 + 2j) are then small), cut where the terms are negligible."""
    a, b = a.astype(float), b.astype(float)
    ya = np.sqrt(s0 + 2.0 * a)
    base = _exponent(c1, c2, s0, a)
    # Cut at ℓ(j) = ℓ(a) − NEGLIGIBLE: c1 y² + c2 y = K, the root above ya (the stable one of the two forms).
    k = c1 * ya * ya + c2 * ya - NEGLIGIBLE
    disc = np.sqrt(c2 * c2 + 4.0 * c1 * k)
    y_cut = -2.0 * k / (disc - c2)
    b = np.minimum(b, np.maximum(np.floor((y_cut * y_cut - s0) / 2.0) + 1.0, a))
    ratio = np.exp(_exponent(c1, c2, s0, b) - base)
    integral = _run_integral(c1, c2, ya, 2.0 * (b - a) / (np.sqrt(s0 + 2.0 * b) + ya))
    corrections = np.zeros(a.shape)
    for at, scale, sign in ((a, np.ones(a.shape), -1.0), (b, ratio, 1.0)):
        s = s0 + 2.0 * at
        # ℓ's derivatives in j: ℓ' = 2c1 + c2/√s, ℓ^(k) = c2 2^k (1/2)(−1/2)···(3/2 − k) s^(1/2 − k) for k ≥ 2.
        derivative = np.empty((15,) + a.shape)
        root = np.sqrt(s)
        derivative[0] = 2.0 * c1 + c2 / root
        power = c2 * root / s                     # c2 s^(1/2 − k), k = 1, 2, ...: a division per order, not a power
        for k in range(2, 16):
            power = power / s
            derivative[k - 1] = _EM_DERIVATIVE[k - 2] * power
        # (e^ℓ)^(m) / e^ℓ = Y_m(ℓ', ℓ'', ...): Y_{m+1} = Σ_i C(m, i) ℓ^(i+1) Y_{m−i}.
        bell = np.empty((16,) + a.shape)
        bell[0] = 1.0
        for m in range(15):
            bell[m + 1] = np.einsum("i,ij,ij->j", _BINOMIAL[m, :m + 1], derivative[:m + 1], bell[m::-1])
        corrections += sign * scale * (_EM_COEFFICIENTS @ bell[1::2])
    return base + np.log(integral + 0.5 * (1.0 + ratio) + corrections)


def packets_by_window(traj: Trajectory, lam0: float) -> tuple[np.ndarray, np.ndarray]:
    """log Σ e^{−λ0 (τ(x) + q(x))} over the climb's packets, window by window: the packets go at the fluid windows
    x = √s, s = 1..w_p² (a climb from w1 sends at s = w1² + 2, w1² + 4, ...: Table I's n(w1, x) = (x² − w1²)/2), so
    window u holds the s in [u², (u+1)²) of either parity. Returns ``whole[u − 1, parity]`` and ``after[u − 1]``,
    the same for u's own parity without s = u² (where a climb from u starts).

    Within a phase of the climb a packet's term is e^{c1 s + c2 √s} (phase A: c1 = 0, c2 = −λ0T; phase B:
    c1 = −λ0/(2μ), c2 = −λ0/μ counted at the link, else 0), so a window's packets of one parity, split where the
    phase changes, are runs summed by :func:`_log_run_sums`: O(w_p) work for the w_p²/2 packets."""
    wp = int(traj.wp)
    us = np.arange(1, wp + 1, dtype=np.int64)
    last = wp * wp
    starts, counts, rows, cols = [], [], [], []
    for parity in (0, 1):
        first = us * us + ((us * us + parity) % 2)
        starts.append(first)
        counts.append(np.maximum((np.minimum((us + 1) ** 2, last + 1) - first + 1) // 2, 0))
        rows.append(us - 1)
        cols.append(np.full(wp, parity))
    # u's own parity without s = u².
    starts.append(us * us + 2)
    counts.append(np.maximum(counts[0] * (us % 2 == 0) + counts[1] * (us % 2 == 1) - 1, 0))
    rows.append(us - 1)
    cols.append(np.full(wp, 2))
    s0, n = np.concatenate(starts), np.concatenate(counts)
    row, col = np.concatenate(rows), np.concatenate(cols)
    # Split each run where phase A (x ≤ μT) ends.
    pipe, lam_mu = traj.pipe, lam0 / traj.rate
    in_a = np.clip(np.floor((pipe * pipe - s0) / 2.0) + 1, 0, n).astype(np.int64) if pipe > 1 else np.zeros_like(n)
    piece_s0 = np.concatenate([s0, s0 + 2 * in_a])
    piece_n = np.concatenate([in_a, n - in_a])
    c1 = np.concatenate([np.zeros(n.size), np.full(n.size, -0.5 * lam_mu)])
    c2 = np.concatenate([np.full(n.size, -lam0 * traj.t), np.full(n.size, -lam_mu if traj.at_link else 0.0)])
    small = np.concatenate([row, row]) < DIRECT_WINDOWS - 1      # small windows: packet by packet
    logs = np.full(piece_n.shape, -np.inf)
    kept = piece_n > 0
    for mask, summed in ((kept & small, _log_direct_sums), (kept & ~small, _log_run_sums)):
        if mask.any():
            first = piece_s0[mask].astype(float)
            x0 = np.sqrt(first)
            logs[mask] = (-lam0 * (traj.time(1.0, x0) + traj.queue_delay(x0))
                          + summed(c1[mask], c2[mask], first, piece_n[mask]))
    total = np.logaddexp(logs[:n.size], logs[n.size:])
    out = np.full((wp, 3), -np.inf)
    out[row, col] = total
    return out[:, :2].copy(), out[:, 2].copy()


def good_state_terms(traj: Trajectory, lam0: float, report: Callable[[float], None] | None = None) -> Climb:
    """The climb's birth chain and E[N | W = w] for every starting window (eqs. (4)-(6), the typical cycles summed
    as a geometric series).

    The climb's time is additive, t(w1, w2) = τ(w2) − τ(w1) with τ(w) = t(1, w), so the chance V lasts until the
    climb from w1 reaches w2 is e^{−λ0(τ(w2) − τ(w1))}. The m-th packet of the climb from w1 goes at the fluid
    window x with x² = w1² + 2m and counts e^{−λ0(τ(x) + q(x) − τ(w1))} (q: the queue delay), so E[N | w1] is a sum
    over the integers s = x² > w1² of w1's parity: window sums (:func:`packets_by_window`) and their suffix sums
    by parity, in log space (np.logaddexp) because e^{±λ0 τ} alone overflows on long climbs. A typical cycle's
    reward is the climb from ⌊w_p/2⌋'s."""
    wp = int(traj.wp)
    tau = traj.time(1.0, np.arange(1, wp + 1, dtype=float))
    step = lam0 * np.diff(tau)
    whole, after = packets_by_window(traj, lam0)
    if report is not None:
        report(0.05)
    suffix = np.full((wp + 1, 2), -np.inf)
    for parity in (0, 1):
        suffix[:wp, parity] = np.logaddexp.accumulate(whole[::-1, parity])[::-1]
    w = np.arange(1, wp + 1)
    climb_reward = np.exp(lam0 * tau + np.logaddexp(after, suffix[w, w % 2]))
    low = int(traj.low)
    # 1 − e^{−λ0·cycle} by expm1: a good state long against a cycle (λ0·cycle near 1e-16 and below) made it round
    # to 0, and the reward NaN (the long fuzz, seed 32).
    cycle_escape = -math.expm1(-lam0 * (tau[-1] - tau[low - 1]))
    repeat = np.exp(-lam0 * (tau[-1] - tau)) / cycle_escape   # P(V reaches w_p), then the cycles repeat
    return Climb(survive=np.exp(-step), ends=np.r_[-np.expm1(-step), 1.0], low=low,
                 reward=climb_reward + repeat * climb_reward[low - 1])
