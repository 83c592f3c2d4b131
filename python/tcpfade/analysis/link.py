"""The abouzeid-Roy-Azizoglu analysis of TCP Reno over a fading link with a buffer (abouzeid §IV).

The channel alternates between good and bad states of exponential durations (E[X] = 1/λ0, E[Y] = 1/λ1)
independently of TCP. A *sampled* good state starts when TCP first gets a packet through after a bad state;
W_n is the window then, W'_n the window when the good state ends. Under the paper's approximations 1-5
(§IV-B: one bad visit per round, the bad visit's origin uniform over the round, a linear increase from W = 1
after a timeout, ...) these form embedded Markov chains, and Markov renewal-reward theory gives the goodput.

During a sampled good state the window follows Lakshman and Madhow's deterministic evolution (Tables I-II): from
w up to w_p = B + μT (linear in time while below μT, "phase A"; as the link's busy time above it, "phase B"),
then buffer overflow, halving and typical cycles from w_p/2 to w_p. With V ~ Exp(λ0) the rest of the good state:

- E[N | W_n = w] (eqs. 4-6): Σ over packets of P(V > the packet's time), the typical cycles summed as a
  geometric series;
- P[W'_n = w' | W_n = w] (§IV-E): P(V falls while the window is w');
- the outcome of the bad visit at window w' (eqs. 7-9): no loss (NL), triple duplicate (TD, the window halves)
  or timeout (TO, the window restarts at 1), which gives the next W (eqs. 10-11);
- the effective bad duration (eqs. 12-16): E[Y | NL] and E[Y | TD], and for a timeout Z, the time until a
  retransmission finds the channel good, the timer doubling up to 64 times (eq. 13 for the chance that the
  channel has become good after δ);
- the goodput ρ = E[N] / (E[V] + E[U]) / μ (eq. 19).

Two models (``model=``):

- ``"paper"``: the equations as printed, with eq. (2)'s timer Δ(w') = max(w', μT)/μ, fresh at every visit.
- ``"refined"`` (default): the same chains with the timer TCP actually runs and the buffer's delay, three
  changes that the simulator showed to be needed (docs/models.md, "The abouzeid analysis"):
  1. Δ(w') = R(w') + max(G, 4·D): RFC 6298's SRTT + 4·RTTVAR with the RTT R(w') = max(T, w'/μ) and D the
     mean absolute deviation of the RTT samples, one a round, over the windows' stationary law; the first
     timeout comes τ after the visit begins (the last ACK restarts the timer), after a channel known to be
     bad until the TD would have been triggered.
  2. Karn's rule: a backoff persists until a segment sent once is acknowledged, so a good state that starts
     after a timeout carries the backoff until go-back-N has resent the outstanding segments and sent a new
     one; the chain's state carries (backoff, outstanding) for those states.
  3. Packets are counted when the link sends them, not when TCP does: those queued at the bad visit's start
     are lost while the channel is bad and delivered after it.

With ``recovery="rounds"`` (refined only) a TD is followed by the variant's own recovery of the L packets the
visit destroyed (L's law from the visit's length), round by round: NewReno's L rounds, Reno's second halving or
its stall until the timer. Eq. (10) halves once and goes on, which overestimates Reno by up to 30% where visits
cost several packets of a window (abouzeid Fig. 6's links).

docs/models.md records the choices the paper leaves to [22]: integer windows, the halving to ⌊w/2⌋, Γ's
density in eqs. (7)-(8), and Z's law with the correct interval at each retransmission (eq. (15) as printed
reuses P_Δ).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .. import _validate as v
from .._record import Record
from .._watch import reporting
from ..channels.continuous import ContinuousTwoState
from ..tcp.link import RULES as LINK_RULES
from ..tcp.link import link_buffer, link_channel
from .link_chain import BYTES_PER_TRANSITION, LinkChain
from .renewal import ReducibleChain

#: Largest timer multiplier (abouzeid §IV-I: "up to 64Δ(w2) after which it remains constant").
MAX_BACKOFF = 64

#: Models: "refined" (RFC 6298's timer with Karn's rule, packets counted at the link) and "paper" (the
#: equations as printed, eq. (2)'s timer).
MODELS = ("refined", "paper")

#: What a TD leads to: "paper" (eq. (10): the window halves and the climb goes on) or "rounds" (each variant's
#: recovery of the packets the visit destroyed, round by round; refined model only).
RECOVERIES = ("paper", "rounds")


@dataclass(frozen=True, repr=False)
class LinkAnalysis(Record):
    """Result of :func:`analyze_link`. ``goodput`` is normalized by μ (abouzeid eq. (19)); the arrays are
    indexed by the window w = 1..w_p (index w − 1).

    Attributes
    ----------
    variant, model, recovery, rate, tau, packet_bytes, buffer, mean_good, mean_bad
        The call's parameters (``rate`` is μ [packets/s], ``buffer`` B [packets], the means E[X], E[Y] [s]).
    round_trip, pipe, max_window : float, float, int
        T = τ + 1/μ [s], μT [packets] and w_p = μT + B.
    goodput, goodput_bps : float
        ρ = E[N] / (μ (E[X] + E[U])), eq. (19), and the same in bit/s.
    reward, mean_effective_bad : float
        E[N] (packets through per sampled good state) and E[U] [s] (§IV-I).
    p_no_loss, p_triple_duplicate, p_timeout : float
        How a bad visit ends, averaged over the windows it meets (§IV-F, J).
    ideal_goodput, cycle : float
        The loss-free goodput (whole packets per cycle) and the cycle's length [s].
    mean_rto_at_bad, mean_backoff_at_bad : float
        The timer Δ [s] and the backoff multiplier when a bad visit starts.
    chain : tcpfade.analysis.link_chain.LinkChain
        The chain that was solved: the embedded chain expanded so that its transitions are local in the window
        (docs/models.md, "The chain, solved in one sweep over the windows"). ``good_chain`` is the embedded chain
        itself, dense, computed from it on request.
    window_good, window_bad : numpy.ndarray
        The law of the window at the start of a good state and when a bad visit meets it.
    outcome : dict[str, numpy.ndarray]
        P_NL, P_TD, P_TO by window (keys ``no_loss``, ``triple_duplicate``, ``timeout``; abouzeid Fig. 8).
    effective_bad, reward_by_window, rto : numpy.ndarray
        E[U], E[N] and Δ by window.

    Examples
    --------
    >>> a = tcpfade.analyze_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2)
    >>> a.max_window, len(a.outcome["timeout"])              # μT = 2, B = 16
    (18, 18)
    >>> bool(abs(a.goodput - a.reward / (a.mean_good + a.mean_effective_bad) / a.rate) < 1e-12)   # eq. (19)
    True
"""

    variant: str
    model: str
    recovery: str
    rate: float
    tau: float
    packet_bytes: int
    buffer: int
    round_trip: float
    pipe: float
    max_window: int
    mean_good: float
    mean_bad: float
    goodput: float
    goodput_bps: float
    reward: float
    mean_effective_bad: float
    p_no_loss: float
    p_triple_duplicate: float
    p_timeout: float
    ideal_goodput: float
    cycle: float
    mean_rto_at_bad: float
    mean_backoff_at_bad: float
    chain: LinkChain = field(repr=False)
    window_good: np.ndarray = field(repr=False)
    window_bad: np.ndarray = field(repr=False)
    outcome: dict[str, np.ndarray] = field(repr=False)
    effective_bad: np.ndarray = field(repr=False)
    reward_by_window: np.ndarray = field(repr=False)
    rto: np.ndarray = field(repr=False)

    _headline = ("variant", "model", "goodput", "goodput_bps", "p_timeout", "max_window")

    @property
    def good_chain(self) -> np.ndarray:
        """The embedded chain over the good states' starts (eq. (11) with the refined model's timer states), dense:
        the expanded chain that was solved (:attr:`chain`) watched on the starts only. Computed on request."""
        n = self.chain.starts
        v.memory("max_window", self.max_window, 8.0 * n * (self.chain.n + n),
                 f"the dense embedded chain of {n} states")
        return self.chain.embedded()

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
class _Climb:
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


def _h1(z: np.ndarray) -> np.ndarray:
    """(1 − e^{−z})/z, by its series where that cancels."""
    z = np.asarray(z, dtype=float)
    small = z < 0.1
    zb = np.where(small, 1.0, z)
    return np.where(small, _series(np.where(small, z, 0.0), _H1), -np.expm1(-zb) / zb)


def _h2(z: np.ndarray) -> np.ndarray:
    """(1 − e^{−z}(1 + z))/z², by its series where that cancels."""
    z = np.asarray(z, dtype=float)
    small = z < 0.1
    zb = np.where(small, 1.0, z)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(small, _series(np.where(small, z, 0.0), _H2), (-np.expm1(-zb) - zb * np.exp(-zb)) / (zb * zb))


def _h3(z: np.ndarray) -> np.ndarray:
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
        out[linear] = lo * d * _h1(z) + d * d * _h2(z)
    if (~linear).any():
        a, p = -c1[~linear], c2[~linear] / (2.0 * c1[~linear])
        va, d = ya[~linear] + p, delta[~linear]
        width = d * (2.0 * va + d)                      # vb² − va²
        z = a * width
        elementary = 0.5 * width * _h1(z)
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


def _packets_by_window(traj: _Trajectory, lam0: float) -> tuple[np.ndarray, np.ndarray]:
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


def _good_state_terms(traj: _Trajectory, lam0: float, report: Callable[[float], None] | None = None) -> _Climb:
    """The climb's birth chain and E[N | W = w] for every starting window (eqs. (4)-(6), the typical cycles summed
    as a geometric series).

    The climb's time is additive, t(w1, w2) = τ(w2) − τ(w1) with τ(w) = t(1, w), so the chance V lasts until the
    climb from w1 reaches w2 is e^{−λ0(τ(w2) − τ(w1))}. The m-th packet of the climb from w1 goes at the fluid
    window x with x² = w1² + 2m and counts e^{−λ0(τ(x) + q(x) − τ(w1))} (q: the queue delay), so E[N | w1] is a sum
    over the integers s = x² > w1² of w1's parity: window sums (:func:`_packets_by_window`) and their suffix sums
    by parity, in log space (np.logaddexp) because e^{±λ0 τ} alone overflows on long climbs. A typical cycle's
    reward is the climb from ⌊w_p/2⌋'s."""
    wp = int(traj.wp)
    tau = traj.time(1.0, np.arange(1, wp + 1, dtype=float))
    step = lam0 * np.diff(tau)
    whole, after = _packets_by_window(traj, lam0)
    if report is not None:
        report(0.05)
    suffix = np.full((wp + 1, 2), -np.inf)
    for parity in (0, 1):
        suffix[:wp, parity] = np.logaddexp.accumulate(whole[::-1, parity])[::-1]
    w = np.arange(1, wp + 1)
    climb_reward = np.exp(lam0 * tau + np.logaddexp(after, suffix[w, w % 2]))
    low = int(traj.low)
    cycle_decay = math.exp(-lam0 * (tau[-1] - tau[low - 1]))
    repeat = np.exp(-lam0 * (tau[-1] - tau)) / (1.0 - cycle_decay)   # P(V reaches w_p), then the cycles repeat
    return _Climb(survive=np.exp(-step), ends=np.r_[-np.expm1(-step), 1.0], low=low,
                  reward=climb_reward + repeat * climb_reward[low - 1])


#: What each parameter of :func:`analyze_link` accepts: the link's rules (:data:`tcpfade.tcp.link.RULES`) and the
#: analysis' own.
RULES: dict[str, v.Rule] = {
    **{k: LINK_RULES[k] for k in ("rate", "tau", "packet_bytes", "buffer", "beta", "mean_good", "mean_bad",
                                  "channel", "min_rto", "max_rto", "clock_granularity", "max_backoff")},
    "variant": v.Choice(("reno", "newreno"), loose=True), "model": v.Choice(MODELS),
    "recovery": v.Choice(RECOVERIES),
}


@v.checked(**RULES)
def link_analysis_arguments(variant: str = "reno", *, rate: float, tau: float, packet_bytes: int = 1000,
                            buffer: int | None = None, beta: float | None = None, mean_good: float | None = None,
                            mean_bad: float | None = None, channel: ContinuousTwoState | None = None,
                            model: str = "refined", min_rto: float = 0.02, max_rto: float = 64.0,
                            clock_granularity: float = 0.01, max_backoff: int = MAX_BACKOFF,
                            recovery: str = "paper") -> dict:
    """Check the arguments of :func:`analyze_link` without analysing: the same errors, raised the same way, and
    the arguments normalized (the channel built). A sweep checks every point with it."""
    mu = rate
    t = tau + 1.0 / mu
    channel = link_channel(mean_good, mean_bad, channel, required=True)
    if channel.loss_rule != "any-instant" or (channel.loss_good, channel.loss_bad) != (0.0, 1.0):
        raise v.fail("channel", channel.loss_rule, "the analysis needs the any-instant rule with losses 0 and 1")
    backoff = max_backoff
    if backoff & (backoff - 1):
        raise v.fail("max_backoff", backoff, "must be a power of two")
    if recovery == "rounds" and model != "refined":
        raise v.fail("recovery", recovery, "the recovery rounds need model='refined'")
    if max_rto < min_rto:
        raise v.fail("max_rto", max_rto, f"must be >= min_rto (= {min_rto:g})")
    buffer = link_buffer(buffer, beta, mu * t, high=1 << 16)
    max_window = max(int(math.floor(buffer + mu * t)), 1)
    if max_window < 2:
        raise v.fail("buffer", buffer, f"w_p = B + μT = {buffer + mu * t:.4g} packets: the analysis needs w_p >= 2 "
                     "(its window climbs in cycles from w_p/2 to w_p; with a window held at one packet there is no "
                     "cycle); give a buffer of one packet or more, or use simulate_link")
    if model == "refined" and max_rto < max_window / mu:
        raise v.fail("max_rto", max_rto, f"must be >= w_p/μ = {max_window / mu:.4g} s, the round trip with a full "
                     "buffer, for the refined analysis: a smaller cap fires the timer before the ACKs are back, and "
                     "those spurious timeouts are not in the model (simulate_link has them)")
    transitions, nbytes = _chain_size(max_window, backoff.bit_length() - 1, model == "refined", recovery == "rounds")
    hint = "; use a smaller buffer, rate × tau or max_backoff, or simulate_link"
    v.memory("buffer", buffer, nbytes, f"w_p = B + μT = {max_window} windows (a chain of about {transitions:.3g} "
                                       "transitions)", hint)
    v.work("buffer", buffer, float(max_window) ** 2, "climb packets",
           f"w_p = B + μT = {max_window} windows (a climb sends w_p²/2 packets, each counted)", hint)
    return {"variant": variant, "rate": mu, "round_trip": t, "packet_bytes": packet_bytes,
            "buffer": buffer, "channel": channel, "model": model, "recovery": recovery, "min_rto": min_rto,
            "max_rto": max_rto, "clock_granularity": clock_granularity, "max_backoff": backoff}


def _chain_size(wp: int, levels: int, refined: bool, rounds: bool) -> tuple[float, float]:
    """Transitions of the expanded chain (:class:`~tcpfade.analysis.link_chain.LinkChain`) and the bytes the analysis
    needs at its peak, bounded from above without building anything. A backed-off start (one for all levels)
    writes out the windows before Karn's point: at most √(1 + 2h) + 2 of them for h outstanding, each with 2
    transitions (through a hub, or a timeout), and the persistence table (h, w', the outstanding count, the mass)
    holds about two transitions' bytes more per window; the hubs have 3 transitions each; the recovery's tables are
    w_p × (chain size)."""
    w = float(wp)
    transitions = w * 7.0
    backed_off = refined and levels > 0
    if backed_off:
        before_karn = 2.0 * math.sqrt(2.0) / 3.0 * (w + 1.0) ** 1.5 + 3.0 * w
        transitions += before_karn * (2 + 2) + 3 * w + 2 * w + levels * w
    nbytes = transitions * BYTES_PER_TRANSITION
    if rounds:
        core = 2.0 * w if backed_off else w
        transitions += w * w / 2 + (before_karn * 3 if backed_off else 0.0)
        nbytes = transitions * BYTES_PER_TRANSITION + 8.0 * w * (core + 3.0 * w)
    return transitions, nbytes


def _unreachable(args: dict, exc: ReducibleChain) -> v.ParameterError:
    ch = args["channel"]
    return v.fail("mean_good", ch.mean_good, f"with E[X] = {ch.mean_good:g} s and E[Y] = {ch.mean_bad:g} s on a link "
                  f"of {args['rate']:g} packets/s the analysis' chain falls apart in double precision (some windows "
                  f"reach the others only with probability below 1e-308: {exc}); the goodput is 0 to that precision. "
                  "Use simulate_link for such a link")


@v.checked(progress=v.PROGRESS)
def analyze_link(variant: str = "reno", *, rate: float, tau: float, packet_bytes: int = 1000,
                 buffer: int | None = None, beta: float | None = None, mean_good: float | None = None,
                 mean_bad: float | None = None, channel: ContinuousTwoState | None = None, model: str = "refined",
                 min_rto: float = 0.02, max_rto: float = 64.0, clock_granularity: float = 0.01,
                 max_backoff: int = MAX_BACKOFF, recovery: str = "paper",
                 progress: bool | Callable[[float], object] | None = None) -> LinkAnalysis:
    """Goodput of TCP Reno over a fading link with a buffer, by abouzeid's Markov renewal-reward analysis.

    The parameters are :func:`tcpfade.simulate_link`'s, so a point can be analysed and simulated alike.

    Parameters
    ----------
    variant : "reno" or "newreno": the analysis of §IV is Reno's, and with ``recovery="paper"`` it is the same
        for both; ``recovery="rounds"`` tells them apart.
    rate : link rate μ [packets/s].
    tau : round-trip propagation and processing delay τ [s]; T = τ + 1/μ.
    packet_bytes : packet size (for ``goodput_bps``; μ is in packets).
    buffer, beta : the buffer B [packets] or β = B/(μT) (B then rounded to the nearest packet). Give one;
        default β = 1. The chain grows with w_p = B + μT (about w_p^1.5 transitions for the refined model's
        timer states, w_p² with ``recovery="rounds"``); what would not fit in memory is refused up front.
    mean_good, mean_bad : E[X], E[Y] [s] of the channel, or give ``channel``: a ContinuousTwoState with the
        any-instant rule and losses 0 and 1 (abouzeid §III).
    model : "refined" (default: RFC 6298's timer with Karn's rule and packets counted at the link, which is
        what agrees with simulation, docs/validation.md) or "paper" (§IV as printed, eq. (2)'s timer).
    min_rto, max_rto, clock_granularity, max_backoff : the timer's RFC 6298 parameters ("refined"), as in
        :func:`tcpfade.simulate_link` (ns-2's of the paper's time); ``max_backoff`` is used by both models.
    recovery : "paper" (default: eq. (10), a TD halves the window and the climb goes on, whatever the variant) or
        "rounds" (``model="refined"`` only): the variant's own recovery of the L packets a visit destroys,
        round by round (Reno's second halving or stall, NewReno's L rounds; docs/models.md). "rounds" is what
        agrees with simulation when a bad visit costs several packets of a window (abouzeid Fig. 6's links).
    progress : True for a progress bar (shown once the analysis has lasted a second, as for a link of w_p in the
        thousands), or a callable that gets the fraction done (0 to 1). Ctrl-C stops the analysis either way.

    Returns
    -------
    LinkAnalysis, with ``goodput`` normalized by μ (eq. (19)) and the chains' terms (eqs. (7)-(17)).

    Examples
    --------
    >>> a = analyze_link(rate=100, tau=0.01, beta=8, mean_good=0.8, mean_bad=0.2)   # abouzeid Table III
    >>> round(a.goodput, 2)                                                        # published: 0.5367
    0.54
    >>> b = analyze_link(rate=250, tau=0.1, beta=1.3, mean_good=0.08, mean_bad=0.001)   # abouzeid Fig. 8
    >>> round(float(b.outcome["triple_duplicate"][-1]), 2)   # e^(-3/(mu E[X])), the paper's 0.86
    0.86

    Raises
    ------
    ParameterError
        an unknown variant, model or recovery, a parameter out of its range, a chain too large for memory.
    """
    args = link_analysis_arguments(variant, rate=rate, tau=tau, packet_bytes=packet_bytes, buffer=buffer, beta=beta,
                                   mean_good=mean_good, mean_bad=mean_bad, channel=channel, model=model,
                                   min_rto=min_rto, max_rto=max_rto, clock_granularity=clock_granularity,
                                   max_backoff=max_backoff, recovery=recovery)

    with reporting(progress, "analysis") as report:
        return _analyze_link(args, report)


def _analyze_link(args: dict, report: Callable[[float], None] | None) -> LinkAnalysis:
    """:func:`analyze_link` on checked arguments; ``report`` gets the fraction done: the climb and the windows'
    chain in the first tenth, the chain with the timer's states built in the next four and solved in the rest."""
    def solve(chain: LinkChain, share: tuple[float, float]) -> LinkChain:
        try:
            chain.solve(report, share)
        except ReducibleChain as exc:
            raise _unreachable(args, exc) from None
        return chain

    name, mu, t, size, buffer, model = (args[k] for k in ("variant", "rate", "round_trip", "packet_bytes", "buffer",
                                                          "model"))
    ex, ey = args["channel"].mean_good, args["channel"].mean_bad
    granularity, lowest, highest = args["clock_granularity"], args["min_rto"], args["max_rto"]
    refined = model == "refined"
    levels = args["max_backoff"].bit_length() - 1
    lam0, lam1 = 1.0 / ex, 1.0 / ey
    max_window = max(int(math.floor(buffer + mu * t)), 1)
    traj = _Trajectory(mu, t, max_window, at_link=refined)
    windows = np.arange(1, max_window + 1, dtype=float)

    climb = _good_state_terms(traj, lam0, report)
    outcome = _outcomes(windows, mu, t, lam0, lam1)
    y_nl, y_td = _bad_given_no_timeout(windows, mu, t, lam1, outcome)
    no_to_bad = outcome["no_loss"] * y_nl + outcome["triple_duplicate"] * y_td
    rtt = np.maximum(t, windows / mu)
    if refined:
        # The windows' chain does not depend on the timer: its RTT samples (one a round) set the estimator.
        samples = solve(LinkChain(max_window, climb, outcome, no_to_bad, None, None, 0), (0.05, 0.1)).passing_mass()
        delta, start_delay, known_bad, survivors = _refined_timer(np.r_[samples, 0.0], rtt, windows, mu, t, lam1,
                                                                  granularity, lowest, highest)
        persistence = _persistence(traj, lam0)
    else:
        delta, persistence, start_delay = rtt, None, 0.0     # eq. (2); every visit starts from Δ(w')
        known_bad, survivors = np.zeros(max_window), np.zeros(max_window)
    laws = [_timeout_law(delta, e, levels, start_delay, known_bad, highest, lam0, lam1) for e in range(levels + 1)]
    backed_off = persistence is not None and levels > 0
    recovery = None
    if args["recovery"] == "rounds":
        core = 2 * max_window if backed_off else max_window   # S_w, then B_h (every backoff level in one)
        recovery = _recovery(name, max_window, mu, t, lam0, lam1, delta, backed_off, core, levels, highest)
    chain = solve(LinkChain(max_window, climb, outcome, no_to_bad, laws, persistence if backed_off else None,
                            levels, recovery, report, (0.1, 0.5)), (0.5, 1.0))
    visits = chain.visits()
    expected_reward = chain.average(chain.base) + float(visits @ survivors)
    expected_bad = chain.average(chain.effective_bad)
    pi = chain.mass[:chain.starts]
    pi_good = pi[:max_window].copy()
    pi_good[0] += pi[max_window:chain.core].sum()   # the backed-off states all start at W = 1
    if recovery is not None:   # the TD states: the window the recovery leaves (most often)
        np.add.at(pi_good, recovery.start - 1, pi[chain.core:])
    # E[N] is a sum of non-negative terms; the differences it is formed from can round it to -1e-20 when good
    # states are far shorter than a packet. With good states 10⁹ times longer than the fades, the paper's E[N]
    # (packets counted at TCP's sends in the fluid climb) passes μE[X] by a few tens of packets, more than the fades
    # take away, and eq. (19) passes 1 by 5e-9 (found by the fuzzing suite). The link carries at most μ.
    goodput = min(max(expected_reward, 0.0) / (ex + expected_bad) / mu, 1.0)
    ideal = traj.packets_per_cycle / (mu * traj.cycle)   # ⌊n_p⌋ packets per cycle, as the reward counts them
    return LinkAnalysis(
        variant=name, model=model, recovery=args["recovery"], rate=mu, tau=t - 1.0 / mu, packet_bytes=size,
        buffer=buffer, round_trip=t,
        pipe=mu * t, max_window=max_window, mean_good=ex, mean_bad=ey, goodput=goodput,
        goodput_bps=goodput * mu * size * 8, reward=expected_reward, mean_effective_bad=expected_bad,
        p_no_loss=float(visits @ outcome["no_loss"]), p_triple_duplicate=float(visits @ outcome["triple_duplicate"]),
        p_timeout=float(visits @ outcome["timeout"]), mean_rto_at_bad=float(visits @ delta),
        mean_backoff_at_bad=chain.average(chain.backoff), ideal_goodput=min(ideal, 1.0), cycle=traj.cycle,
        chain=chain, window_good=pi_good, window_bad=visits, outcome=outcome,
        effective_bad=no_to_bad + outcome["timeout"] * laws[0].mean, reward_by_window=climb.reward, rto=delta)


def _refined_timer(rounds: np.ndarray, rtt: np.ndarray, windows: np.ndarray, mu: float, t: float, lam1: float,
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
    return lam1 * length * length * _h3(lam1 * length)


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


def _bad_given_no_timeout(w: np.ndarray, mu: float, t: float, lam1: float,
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
class _TimeoutLaw:
    """The timeouts that follow a bad visit at each window w', when the first fires with the timer already
    backed off 2^e times: E[Z] and the backoff exponent the next good state inherits (1..levels)."""

    mean: np.ndarray      # E[Z | w'], shape (w_p,)
    exit: np.ndarray      # P(exponent j | w'), shape (w_p, levels + 1); column 0 unused


def _timeout_law(delta: np.ndarray, first: int, levels: int, start_delay: float, known_bad: np.ndarray,
                 max_rto: float, lam0: float, lam1: float, first_interval: np.ndarray | None = None) -> _TimeoutLaw:
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
            return _TimeoutLaw(mean, exit_)
        mean += alive * p * elapsed
        exit_[:, after] += alive * p
        alive = alive * (1.0 - p)
        exponent, step = after, step + 1


@dataclass(frozen=True)
class _Persistence:
    """When a good state that began after a timeout still meets the backed-off timer (see :func:`_persistence`),
    for each h = 1..w_p segments outstanding: the climb from W = 1 passes Karn's point at ``until[h − 1]`` [s],
    in window ``reached[h − 1]`` (the windows 1..reached whose start comes before it)."""

    until: np.ndarray
    reached: np.ndarray
    enter: np.ndarray      # τ(w') = t(1, w'), w' = 1..w_p
    lam0: float

    @cached_property
    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(h, w', P(W' = w' and the visit comes before Karn's point | h)) for every window it can: about √(2h)
        windows for each h, the largest h first (the order in which the chain's solve reads them). Computed once:
        every backoff level's starts use it."""
        counts = self.reached[::-1]          # at least 1: the first window starts at once
        ends = np.cumsum(counts)
        h = np.repeat(np.arange(len(self.until), 0, -1), counts)
        w = np.ones(h.size, dtype=np.int64)   # 1, 2, ... within each h: a running sum that restarts at each h
        w[ends[:-1]] = 1 - counts[:-1]
        np.cumsum(w, out=w)
        # P(the visit comes at w' before Karn's point) = e^{−λ0 τ(w')} − e^{−λ0 min(τ(w' + 1), Karn's point)}: the
        # window's whole span for all but each h's last window (whose start is the last before the point).
        outlast = np.exp(-self.lam0 * self.enter)
        mass = (outlast[:-1] - outlast[1:])[w - 1]
        last = ends - 1
        mass[last] = outlast[w[last] - 1] - np.maximum(outlast[w[last]], np.exp(-self.lam0 * self.until)[::-1])
        return h, w, mass

    @cached_property
    def outstanding(self) -> np.ndarray:
        """Per entry, the segments outstanding after a timeout at window w': the h − w'(w' − 1)/2 that the climb
        from W = 1 has not yet resent, at least the window's w'."""
        h, w, _ = self.entries
        triangle = np.arange(int(w.max()) + 1)
        outstanding = h - (triangle * (triangle - 1) // 2)[w]
        return np.maximum(outstanding, w, out=outstanding)

    @cached_property
    def boundary(self) -> np.ndarray:
        """The window Karn's point falls in, per h (0 when it falls on a window's end or beyond the climb)."""
        cut = self.reached > 0
        inside = np.zeros(len(self.until), dtype=int)
        inside[cut] = np.where(self.enter[self.reached[cut]] > self.until[cut], self.reached[cut], 0)
        return inside

    @cached_property
    def rest(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The climb after Karn's point, per h: P(the visit comes in the boundary window after that point), the
        window the climb then goes on from, and the chance it gets there."""
        boundary = self.boundary
        after = np.where(boundary > 0, boundary + 1, self.reached + 1)
        partial = np.where(boundary > 0, np.exp(-self.lam0 * self.until)
                           - np.exp(-self.lam0 * self.enter[np.minimum(after, len(self.enter)) - 1]), 0.0)
        return partial, after, np.exp(-self.lam0 * self.enter[after - 1])


def _persistence(traj: _Trajectory, lam0: float) -> _Persistence:
    """P(W' = w', the bad visit comes before Karn's rule ends the backoff | the good state began after a
    timeout that left h segments outstanding), for h = 1..w_p and w' = 1..w_p.

    After a timeout the sender resends the h outstanding segments (go-back-N) before any new one; only a
    new one is timed (Karn), and its ACK ends the backoff. A bad visit that starts once that segment is
    through meets a reset timer (the ACK is on its way on the lossless return path), so the backoff matters
    for visits that start before packet h + 1 of the climb from W = 1 (approximation 5) is through: it is
    sent at the fluid window x = √(1 + 2h) (Table I's n(1, x) = (x² − 1)/2) and takes 1/μ on the link.
    The span is cut at the atypical cycle's end (it is a few rounds long). For each h that is the first windows
    of the climb only (about √(2h)), so the law is kept as those windows, not as a w_p × w_p table."""
    wp = int(traj.wp)
    h = np.arange(1, wp + 1, dtype=float)
    x = np.minimum(np.sqrt(1.0 + 2.0 * h), traj.wp)
    until = np.minimum(traj.time(1.0, x) + 1.0 / traj.rate, traj.time(1.0, traj.wp))
    enter = traj.time(1.0, np.arange(1, wp + 1, dtype=float))
    # Windows w' = 1..w_p − 1 whose start comes before Karn's point (a visit is never at w_p).
    reached = np.searchsorted(enter[:wp - 1], until, side="left")
    return _Persistence(until=until, reached=reached.astype(int), enter=enter, lam0=lam0)


def _loss_count_law(wp: int, mu: float, lam1: float) -> np.ndarray:
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


def _rounds(n1: np.ndarray, count: np.ndarray, mu: float, t: float) -> np.ndarray:
    """Σ_{k=1..count} max(T, (n1 + k)/μ): rounds that send n1 + 1, n1 + 2, ... packets, each at least T long."""
    pipe = mu * t
    short = np.clip(np.ceil(pipe) - 1 - n1, 0, count)      # rounds with n1 + k < μT
    first = n1 + short + 1
    return short * t + (first + n1 + count) * (count - short) / (2 * mu)


@dataclass(frozen=True)
class _Recovery:
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
    idle_law: _TimeoutLaw


def _recovery(variant: str, wp: int, mu: float, t: float, lam0: float, lam1: float, delta: np.ndarray,
              backed_off: bool, states: int, levels: int, max_rto: float) -> _Recovery:
    """The recovery after a TD that lost L packets of a window w' (L's law: :func:`_loss_count_law`).

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
    (their share of the packets sent) or comes during the idle wait (:func:`_idle_timeout_law`), else an
    ordinary visit at s1. abouzeid's eq. (10) is the L = 1 case with no prelude."""
    law = _loss_count_law(wp, mu, lam1)
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
            active, sent, state = _rounds(n1, losses, mu, t), losses * n1 + losses * (losses + 1) / 2, \
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
    idle_law = _idle_timeout_law(delta, levels, max_rto, lam0, lam1)
    return _Recovery(target, broken_timeout, broken_idle, broken_visit, reward, start, idle_law)


def _idle_timeout_law(delta: np.ndarray, levels: int, max_rto: float, lam0: float, lam1: float,
                      nodes: int = 16) -> _TimeoutLaw:
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
        law = _timeout_law(delta, 0, levels, 0.0, np.zeros(len(delta)), max_rto, lam0, lam1,
                           first_interval=delta - start)
        mean += density * law.mean
        exit_ += density[:, None] * law.exit
    return _TimeoutLaw(mean, exit_)
