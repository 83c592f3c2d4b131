""":func:`analyze_link`, its argument checks (:func:`link_analysis_arguments`) and its result
(:class:`LinkAnalysis`): the climb (:mod:`.climb`), the visits (:mod:`.visits`), Karn's persistence
(:mod:`.persistence`) and the recovery rounds (:mod:`.recovery`) put into the expanded chain (:mod:`.chain`),
solved, and read out as abouzeid eq. (19)'s goodput.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import _validate as v
from ..._record import Record, channel_columns
from ..._watch import reporting
from ...channels.continuous import ContinuousTwoState
from ..._params import Model, Param
from ...tcp.link import LINK
from ...tcp.parameters import PROGRESS, variant
from ...tcp.link import link_buffer, link_channel
from ..renewal import ReducibleChain
from .chain import BYTES_PER_TRANSITION, LinkChain
from .climb import Trajectory, good_state_terms
from .persistence import karn_persistence
from .recovery import recovery_rounds
from .visits import bad_given_no_timeout, outcomes, refined_timer, timeout_law


#: Largest timer multiplier (abouzeid §IV-I: "up to 64Δ(w2) after which it remains constant").
MAX_BACKOFF = 64

#: Models: "refined" (RFC 6298's timer with Karn's rule, packets counted at the link) and "paper" (the
#: equations as printed, eq. (2)'s timer).
READINGS = ("refined", "paper")

#: What a TD leads to: "paper" (eq. (10): the window halves and the climb goes on) or "rounds" (each variant's
#: recovery of the packets the visit destroyed, round by round; refined model only).
RECOVERIES = ("paper", "rounds")


@dataclass(frozen=True, repr=False)
class LinkAnalysis(Record):
    """Result of :func:`analyze_link`. ``goodput`` is normalized by μ (abouzeid eq. (19)); the arrays are
    indexed by the window w = 1..w_p (index w − 1).

    Attributes
    ----------
    variant, reading, recovery, rate, tau, packet_bytes, buffer, mean_good, mean_bad
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
    chain : tcpfade.analysis.link.LinkChain
        The chain that was solved: the embedded chain expanded so that its transitions are local in the window
        (docs/models.md, "The chain, solved in one sweep over the windows"). ``good_chain`` is the embedded chain
        itself, dense, computed from it on request.
    window_good, window_bad : numpy.ndarray
        The law of the window at the start of a good state and when a bad visit meets it.
    outcome : dict[str, numpy.ndarray]
        P_NL, P_TD, P_TO by window (keys ``no_loss``, ``triple_duplicate``, ``timeout``; abouzeid Fig. 8).
    effective_bad, reward_by_window, rto_by_window : numpy.ndarray
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
    reading: str
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
    rto_by_window: np.ndarray = field(repr=False)

    _headline = ("variant", "reading", "goodput", "goodput_bps", "p_timeout", "max_window")
    _undefined = {}   # every metric is finite (the entry refuses what would not be)

    @property
    def good_chain(self) -> np.ndarray:
        """The embedded chain over the good states' starts (eq. (11) with the refined model's timer states), dense:
        the expanded chain that was solved (:attr:`chain`) watched on the starts only. Computed on request."""
        n = self.chain.starts
        v.memory("max_window", self.max_window, 8.0 * n * (self.chain.n + n),
                 f"the dense embedded chain of {n} states")
        return self.chain.embedded()

    def _row(self) -> dict[str, Any]:
        """Every scalar field, and the channel's columns (``channel_kind``, ``channel_<parameter>``), as every result
        names the channel it ran on: abouzeid §III's, built from ``mean_good`` and ``mean_bad``."""
        out = super()._row()
        out.update(channel_columns(self.channel))
        return out

    @property
    def channel(self) -> dict[str, Any]:
        """The channel analysed, as every result names it (its ``describe()``): abouzeid §III's, built from
        ``mean_good`` and ``mean_bad``."""
        return ContinuousTwoState(mean_good=self.mean_good, mean_bad=self.mean_bad).describe()

    @property
    def model(self) -> str:
        """Former name of :attr:`reading` (one release, with a FutureWarning)."""
        import warnings

        warnings.warn("model is now called reading (the old name goes in the next release)", FutureWarning,
                      stacklevel=2)
        return self.reading

    @property
    def beta(self) -> float:
        """β = B/(μT)."""
        return self.buffer / self.pipe

    @property
    def goodput_ceiling(self) -> float:
        """(1 − f) ρ_ideal, the slow-fading limit of eq. (20)."""
        return (1 - self.mean_bad / (self.mean_good + self.mean_bad)) * self.ideal_goodput


#: :func:`analyze_link`'s parameters: the link's own (:data:`tcpfade.tcp.link.LINK`, so that a point can be analysed
#: and simulated alike) and the analysis' readings.
LINK_ANALYSIS = Model("analyze_link", (
    variant("reno", ("reno", "newreno"), refused={
        **{name: "abouzeid §IV's window cycle is Reno's (a triple duplicate halves W and the climb goes on); "
                 "simulate_link runs " + name for name in ("oldtahoe", "tahoe")},
        "probing": "abouzeid §IV has no probe cycle; simulate_transfer runs TCP-Probing",
        "cubic": "abouzeid's chain (§IV) holds Reno's window and halving; CUBIC's window is a function of the time "
                 "since its last loss, which the chain's states do not hold; simulate it with simulate_link"},
            doc='TCP variant: "reno" or "newreno". The analysis of §IV is Reno\'s, and with '
            'recovery="paper" it is the same for both; recovery="rounds" tells them apart.'),
    *(LINK[k] for k in ("rate", "tau", "packet_bytes")),
    LINK["buffer"].but(doc="The buffer B (or beta; not both). The chain grows with w_p = B + μT (about w_p^1.5 "
                           "transitions for the refined model's timer states, w_p² with recovery=\"rounds\"); what "
                           "would not fit in memory is refused up front."),
    *(LINK[k] for k in ("beta", "mean_good", "mean_bad")),
    LINK["channel"].but(rule=v.Optional(v.Instance(ContinuousTwoState, "must be a ContinuousTwoState (abouzeid §III's "
                                                                         "channel; the analysis has no other)")),
                        default=None, doc="Or give the channel: a ContinuousTwoState with the any-instant rule and "
                                          "losses 0 and 1 (abouzeid §III).",
                        default_words="None (give mean_good and mean_bad)"),
    Param("reading", v.Choice(READINGS), "refined",
          "refined: RFC 6298's timer with Karn's rule and packets counted at the link, which is what agrees with "
          "simulation (docs/validation/abouzeid.md); paper: §IV as printed, eq. (2)'s timer.",
          old_names=("model",)),
    *(LINK[k] for k in ("min_rto", "max_rto", "clock_granularity")),
    LINK["max_backoff"].but(default=MAX_BACKOFF),
    Param("recovery", v.Choice(RECOVERIES), "paper",
          "paper: eq. (10), a TD halves the window and the climb goes on, whatever the variant; rounds "
          "(reading=\"refined\" only): the variant's own recovery of the L packets a visit destroys, round by round "
          "(Reno's second halving or stall, NewReno's L rounds; docs/models.md). rounds is what agrees with "
          "simulation when a bad visit costs several packets of a window (abouzeid Fig. 6's links)."),
), doc="Goodput of TCP Reno or NewReno over a fading link with a buffer by abouzeid's Markov renewal-reward analysis "
       "(§IV).")

#: The rules of :data:`LINK_ANALYSIS` by name.
RULES = LINK_ANALYSIS.rules


@LINK_ANALYSIS.entry()
def link_analysis_arguments(variant: str = "reno", *, rate: float, tau: float, packet_bytes: int,
                            buffer: int | None, beta: float | None, mean_good: float | None,
                            mean_bad: float | None, channel: ContinuousTwoState | None,
                            reading: str, min_rto: float, max_rto: float,
                            clock_granularity: float, max_backoff: int,
                            recovery: str) -> dict:
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
    if recovery == "rounds" and reading != "refined":
        raise v.fail("recovery", recovery, "the recovery rounds need reading='refined'")
    if max_rto < min_rto:
        raise v.fail("max_rto", max_rto, f"must be >= min_rto (= {min_rto:g})")
    buffer = link_buffer(buffer, beta, mu * t, high=1 << 16)
    max_window = max(int(math.floor(buffer + mu * t)), 1)
    if max_window < 2:
        raise v.fail("buffer", buffer, f"w_p = B + μT = {buffer + mu * t:.4g} packets: the analysis needs w_p >= 2 "
                     "(its window climbs in cycles from w_p/2 to w_p; with a window held at one packet there is no "
                     "cycle); give a buffer of one packet or more, or use simulate_link")
    if reading == "refined" and max_rto < max_window / mu:
        raise v.fail("max_rto", max_rto, f"must be >= w_p/μ = {max_window / mu:.4g} s, the round trip with a full "
                     "buffer, for the refined analysis: a smaller cap fires the timer before the ACKs are back, and "
                     "those spurious timeouts are not in the model (simulate_link has them)")
    transitions, nbytes = _chain_size(max_window, backoff.bit_length() - 1, reading == "refined", recovery == "rounds")
    hint = "; use a smaller buffer, rate × tau or max_backoff, or simulate_link"
    v.memory("buffer", buffer, nbytes, f"w_p = B + μT = {max_window} windows (a chain of about {transitions:.3g} "
                                       "transitions)", hint)
    v.work("buffer", buffer, float(max_window) ** 2, "climb packets",
           f"w_p = B + μT = {max_window} windows (a climb sends w_p²/2 packets, each counted)", hint)
    return {"variant": variant, "rate": mu, "round_trip": t, "packet_bytes": packet_bytes,
            "buffer": buffer, "channel": channel, "reading": reading, "recovery": recovery, "min_rto": min_rto,
            "max_rto": max_rto, "clock_granularity": clock_granularity, "max_backoff": backoff}


def _chain_size(wp: int, levels: int, refined: bool, rounds: bool) -> tuple[float, float]:
    """Transitions of the expanded chain (:class:`~tcpfade.analysis.link.LinkChain`) and the bytes the analysis
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


@LINK_ANALYSIS.entry(PROGRESS.but(doc="True for a progress bar (shown once the analysis has lasted a second, as for "
                                          "a link of w_p in the thousands), or a callable that gets the fraction done "
                                          "(0 to 1). Ctrl-C stops the analysis either way."))
def analyze_link(variant: str = "reno", *, progress: bool | Callable[[float], object] | None = None,
                 **given: Any) -> LinkAnalysis:
    """Goodput of TCP Reno or NewReno over a fading link with a buffer, by abouzeid's Markov renewal-reward analysis.

    The parameters are :func:`tcpfade.simulate_link`'s, so a point can be analysed and simulated alike.

    Parameters
    ----------
    {parameters}

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
        an unknown variant, reading or recovery, a parameter out of its range, a chain too large for memory.
    """
    args = link_analysis_arguments.unchecked(variant, **given)   # the entry has checked them

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

    name, mu, t, size, buffer, reading = (args[k] for k in ("variant", "rate", "round_trip", "packet_bytes",
                                                            "buffer", "reading"))
    ex, ey = args["channel"].mean_good, args["channel"].mean_bad
    granularity, lowest, highest = args["clock_granularity"], args["min_rto"], args["max_rto"]
    refined = reading == "refined"
    levels = args["max_backoff"].bit_length() - 1
    lam0, lam1 = 1.0 / ex, 1.0 / ey
    max_window = max(int(math.floor(buffer + mu * t)), 1)
    traj = Trajectory(mu, t, max_window, at_link=refined)
    windows = np.arange(1, max_window + 1, dtype=float)

    climb = good_state_terms(traj, lam0, report)
    outcome = outcomes(windows, mu, t, lam0, lam1)
    y_nl, y_td = bad_given_no_timeout(windows, mu, t, lam1, outcome)
    no_to_bad = outcome["no_loss"] * y_nl + outcome["triple_duplicate"] * y_td
    rtt = np.maximum(t, windows / mu)
    if refined:
        # The windows' chain does not depend on the timer: its RTT samples (one a round) set the estimator.
        samples = solve(LinkChain(max_window, climb, outcome, no_to_bad, None, None, 0), (0.05, 0.1)).passing_mass()
        delta, start_delay, known_bad, survivors = refined_timer(np.r_[samples, 0.0], rtt, windows, mu, t, lam1,
                                                                  granularity, lowest, highest)
        persistence = karn_persistence(traj, lam0)
    else:
        delta, persistence, start_delay = rtt, None, 0.0     # eq. (2); every visit starts from Δ(w')
        known_bad, survivors = np.zeros(max_window), np.zeros(max_window)
    laws = [timeout_law(delta, e, levels, start_delay, known_bad, highest, lam0, lam1) for e in range(levels + 1)]
    backed_off = persistence is not None and levels > 0
    recovery = None
    if args["recovery"] == "rounds":
        core = 2 * max_window if backed_off else max_window   # S_w, then B_h (every backoff level in one)
        recovery = recovery_rounds(name, max_window, mu, t, lam0, lam1, delta, backed_off, core, levels, highest)
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
        variant=name, reading=reading, recovery=args["recovery"], rate=mu, tau=t - 1.0 / mu, packet_bytes=size,
        buffer=buffer, round_trip=t,
        pipe=mu * t, max_window=max_window, mean_good=ex, mean_bad=ey, goodput=goodput,
        goodput_bps=goodput * mu * size * 8, reward=expected_reward, mean_effective_bad=expected_bad,
        p_no_loss=float(visits @ outcome["no_loss"]), p_triple_duplicate=float(visits @ outcome["triple_duplicate"]),
        p_timeout=float(visits @ outcome["timeout"]), mean_rto_at_bad=float(visits @ delta),
        mean_backoff_at_bad=chain.average(chain.backoff), ideal_goodput=min(ideal, 1.0), cycle=traj.cycle,
        chain=chain, window_good=pi_good, window_bad=visits, outcome=outcome,
        effective_bad=no_to_bad + outcome["timeout"] * laws[0].mean, reward_by_window=climb.reward, rto_by_window=delta)
