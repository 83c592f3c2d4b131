"""TCP over the WCDMA radio bearer (zorzi-rossi-mazzini §2.3), and the whole chain: system simulation → SIR
traces → block error probabilities (the calibrated mapping) → a block error sequence by a coin flip per TTI → TCP
NewReno over the bearer, with its throughput, block error rate and energy per user.

The bearer (the paper's figures): a block of 1034 bits at the IP level every 10-ms frame, 103.4 kb/s; with a TTI
of k frames, one block of k·1034 bits every k·10 ms. IP packets of 512 bytes (MTU) with 40 bytes of TCP/IP
header, sent back to back over the bearer (``crates/tcpfade-core/src/wcdma/bearer.rs``); a packet is lost when
any block it overlaps is wrong; ACKs (one per packet) come back after ``ack_delay`` without errors. Metrics (eqs.
(1)-(2)): S = correct information bits per second / 103.4 kb/s (payload only: at most 472/512 = 0.92); P_e the
mean block error probability; ATP the transmit power averaged over the whole run, counted only while TCP sends;
ACE = ATP / (S · CBR), joules per correct bit.
"""

from __future__ import annotations

import functools

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import _core
from .. import _validate as v
from .._record import Record, interval_columns
from .._watch import reporting
from ..tcp.metrics import batch_interval
from .._params import Model, Param, warn_unread
from ..tcp.parameters import (CLOCK_GRANULARITY, DELAYED_ACK, DELAYED_ACK_RULE, DUPTHRESH, FIXED_RTO, INITIAL_RTO, MAX_RTO,
                              MIN_RTO, RWND_RULE, SEND_BUFFER,
                              window_cap, no_probes,
                              PROGRESS, RTO_RULE, SEED, TIMESTAMPS, SENDER, WINDOW_VARIANTS, check_recovery_parts, variant)
from ..tcp.profiles import PROFILE, PROFILES
from .system import DEFAULT_SIR_REFERENCE, RAYS, SIR_REFERENCES, SLOT, simulate_system

#: The bearer (§2.3): IP-level bits per 10-ms frame, its bit rate, the MTU and the TCP/IP header.
BITS_PER_FRAME = 1034
CBR = 103_400.0
MTU_BYTES = 512
HEADER_BYTES = 40


@dataclass(frozen=True, repr=False)
class BearerResult(Record):
    """TCP over one bearer: S (``throughput``) with its batch-means interval, the block error rate P_e, ATP [W],
    ACE [J/bit], and the counts.

    Attributes
    ----------
    throughput : float
        S, the payload delivered over the bearer's rate (zorzi-rossi-mazzini §3).
    throughput_ci : tuple[float, float]
        Its batch-means interval.
    block_error_rate : float
        P_e, the share of TTIs whose block was lost.
    atp, ace : float
        Average transmit power while TCP sends [W] (eq. (2)) and the energy per delivered bit [J/bit]; NaN
        without a power trace, ACE infinite when nothing was delivered.
    delivered, sent, retransmissions, timeouts, fast_retransmits : int
        TCP's counts.
    duration : float
        The time simulated [s].
    parameters : dict
        The sender it ran: the variant, its parts and timer (``to_dict`` has them as columns).

    Examples
    --------
    >>> r = wcdma.tcp_over_blocks([0] * 3000)                  # 30 s without a block error
    >>> r.block_error_rate, round(r.throughput_ci[1], 4)       # S cannot pass the payload share 472/512
    (0.0, 0.9219)
    """

    throughput: float
    throughput_ci: tuple[float, float]
    block_error_rate: float
    atp: float
    ace: float
    delivered: int
    sent: int
    timeouts: int
    fast_retransmits: int
    retransmissions: int
    duration: float
    parameters: dict[str, Any] = field(default_factory=dict, repr=False)

    _headline = ("throughput", "block_error_rate", "atp", "ace", "timeouts")
    _undefined = {"atp": "no power trace was given (power_dbw)",
                  "ace": ("no power trace was given (power_dbw)", "nothing was delivered: the energy spent bought no bit")}

    def _row(self) -> dict[str, Any]:
        """The fields as a flat dict (the interval as ``throughput_low``/``_high``)."""
        d = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in ("throughput_ci", "parameters")}
        d.update(interval_columns("throughput", self.throughput_ci))
        for key, value in self.parameters.items():
            d.setdefault(key, value)
        return d


#: TCP variants over a radio bearer: the link driver's (TCP-Probing's probes have no place on the bulk link). The
#: bearer runs in seconds (TTIs of 10-80 ms), so CUBIC runs as on the link.
BEARER_VARIANTS = WINDOW_VARIANTS
BEARER_VARIANT = variant("newreno", BEARER_VARIANTS, "TCP variant over each user's bearer (zorzi-rossi-mazzini ran "
                         "NewReno and name other versions as the next study).",
                         no_probes("the bulk link model over a radio bearer")).but(positional=False)
TTI = Param("tti_frames", v.Integer(1, 8), 1, "Interleaving depth (TTI): 1, 2, 4 or 8 frames of 10 ms.", "frames")
ACK_DELAY_S = Param("ack_delay", v.Real(0.0, 100.0), 0.05, "The return path's delay.", "s")
WCDMA_MIN_RTO = MIN_RTO.but(rule=v.Real(1e-3, 1e3), default=1.0,
                            doc="Floor of TCP's retransmission timer (RFC 6298's 1 s; the paper gives none: "
                                "validation/wcdma_curve_offset.py measures its effect).")

#: The sender's other parts and timer over a bearer, declared once in tcp.parameters: the papers' by default (the
#: bearer's receiver window is 128 packets, its ssthresh starts there, and its timer is RFC 6298's with a 3-s initial
#: value). tcp_over_blocks and tcp_over_system take them by name; wcdma.simulate also through a profile.
BEARER_PARTS = (*(p for p in SENDER if p.name not in ("wmax", "dupthresh", "initial_ssthresh")), FIXED_RTO,
                INITIAL_RTO.but(rule=v.Real(1e-3, 1e3)), MAX_RTO.but(rule=v.Real(1e-3, 1e4)),
                CLOCK_GRANULARITY.but(rule=v.Real(0.0, 10.0)), RTO_RULE, TIMESTAMPS, DELAYED_ACK, DELAYED_ACK_RULE,
                RWND_RULE, SEND_BUFFER)
_PART_RULES = {p.name: p.rule for p in BEARER_PARTS}
#: What tcp_over_blocks and tcp_over_system may find unread: the parts, and the timer floor and dupthresh they name
#: (a fixed rto reads no min_rto; oldtahoe no dupthresh).
BEARER_DUPTHRESH = DUPTHRESH.but(rule=v.Integer(1, 100))
_NOTED = (*BEARER_PARTS, WCDMA_MIN_RTO, BEARER_DUPTHRESH)
_NOTED_NAMES = frozenset(p.name for p in _NOTED)


def bearer_parts(parts: dict[str, Any], *, allowed: tuple[str, ...] = tuple(_PART_RULES)) -> dict[str, Any]:
    """The sender's parts given by name (``BEARER_PARTS``; ``allowed`` some of them), checked by their declared
    rules; an unknown name is an error naming it."""
    for name in parts:
        if name not in allowed:
            raise v.fail(name, parts[name], f"is not a parameter here; the sender's parts are {', '.join(allowed)}",
                         kind=v.ParameterTypeError)
    return {k: _PART_RULES[k].check(k, x) for k, x in parts.items()}


def _noting_unread(label: str):
    """The public face of a function that takes the sender's parts by name (``**parts``): a part given that the run
    will not read gets an InertParameterWarning, as the models' entries give one (``Model.warn_unread``). The library's
    own calls, which hand on parts a profile resolved, take ``.quiet``: the function without the notes."""
    def decorate(fn):
        @functools.wraps(fn)
        def noted(*args: Any, **kwargs: Any):
            given = {k: x for k, x in kwargs.items() if k in _NOTED_NAMES}
            if given:
                values = {**{p.name: p.default for p in _NOTED}, "variant": "newreno", **kwargs}
                warn_unread(label, _NOTED, given, values, stacklevel=3)
            return fn(*args, **kwargs)
        noted.quiet = fn   # type: ignore[attr-defined]
        return noted
    return decorate


@_noting_unread("tcp_over_blocks")
@v.checked(block_errors=v.Array(low=0, high=1, min_size=1, bools=True), tti_frames=v.Integer(1, 8),
           power_dbw=v.Optional(v.Array(low=-400.0, high=100.0)), variant=BEARER_VARIANT.rule,
           ack_delay=v.Real(0.0, 100.0), wmax=v.Integer(1, 1 << 20), dupthresh=BEARER_DUPTHRESH.rule,
           initial_rto=_PART_RULES["initial_rto"], min_rto=WCDMA_MIN_RTO.rule, max_rto=_PART_RULES["max_rto"],
           clock_granularity=_PART_RULES["clock_granularity"], batches=v.Integer(2, 1000), confidence=v.CONFIDENCE,
           block_error_probability=v.Optional(v.Array(low=0.0, high=1.0, min_size=1)), progress=v.PROGRESS)
def tcp_over_blocks(block_errors, *, tti_frames: int = 1, power_dbw=None, variant: str = "newreno",
                    ack_delay: float = 0.05, wmax: int = 128, dupthresh: int = 3, initial_rto: float = 3.0,
                    min_rto: float = 1.0, max_rto: float = 64.0, clock_granularity: float = 0.01, batches: int = 20,
                    confidence: float = 0.95, block_error_probability=None,
                    progress: bool | Callable[[float], object] | None = None, **parts: Any) -> BearerResult:
    """TCP over a block error sequence (one 0/1 per TTI of ``tti_frames`` frames), with the transmit power of
    every 0.667-ms slot (``power_dbw``, optional) for ATP and ACE; P_e is the mean of ``block_error_probability``
    when given, else of the sequence. The timer is RFC 6298's (1 s minimum); ``wmax`` = 128 packets is a 64-KB
    receiver window.

    Parameters
    ----------
    block_errors : 0/1 per TTI (1 = the block is wrong).
    tti_frames : the TTI's frames.
    power_dbw : transmit power per 0.667-ms slot [dBW], for ATP and ACE (optional).
    variant : TCP variant.
    ack_delay : the return path's delay [s].
    wmax, dupthresh : receiver window [packets] and duplicate-ACK threshold.
    initial_rto, min_rto, max_rto, clock_granularity : RFC 6298's timer [s].
    batches, confidence : the batch-means interval of S.
    block_error_probability : the probabilities behind the sequence (then P_e is their mean).
    progress : True for a progress bar, or a callable.
    **parts
        The sender's other parts by name, as ``simulate_link`` takes them (``initial_window``, ``recover_guard``,
        ``byte_counting``, ``ssthresh_rule``, ``limited_transmit``, ``sack``, ``prr``, ``prr_bound``,
        ``prr_partial_ack``, ``rack``, ``frto``, ``hystart``, ``hold_ssthresh_on_rto``, ``ssthresh_once_per_window``,
        ``cubic_alpha``, ``integer_window``, ``rto`` fixed, ``rto_rule``, ``timestamps``, ``delayed_ack``, ``delayed_ack_rule``,
        ``send_buffer``; tcpfade.tcp.parameters declares them); the
        papers' when left out.

    Returns
    -------
    BearerResult: S with its interval, P_e, ATP [W], ACE [J/bit] and TCP's counts.

    Raises
    ------
    ParameterError
        a sequence that is not 0/1 values or too short for the intervals, a power trace too short, a bad TCP
        parameter.

    Examples
    --------
    >>> r = wcdma.tcp_over_blocks([0] * 3000)                  # 30 s without a block error
    >>> round(r.throughput, 2)                                 # the payload share 472/512
    0.92
    """
    given = bearer_parts(parts, allowed=tuple(p.name for p in BEARER_PARTS
                                              if p.name not in ("initial_rto", "max_rto", "clock_granularity")))
    check_recovery_parts({"variant": variant, **given})
    errors = np.asarray(block_errors, dtype=float)
    bad = np.flatnonzero((errors != 0) & (errors != 1))
    if bad.size:
        raise v.fail("block_errors", f"an array whose element {bad[0]} is {errors[bad[0]]:g}",
                     "must hold only 0s and 1s (one per TTI)")
    if block_error_probability is not None and np.size(block_error_probability) != errors.size:
        raise v.fail("block_error_probability", f"an array of {np.size(block_error_probability)}",
                     f"must hold one probability per block of block_errors ({errors.size})")
    tti = 0.01 * tti_frames
    rate = CBR / (MTU_BYTES * 8)
    duration = errors.size * tti - 2.0 / rate
    slots = 0 if power_dbw is None else np.size(power_dbw)
    # Refused up front: the copies handed to the core (a flag per block, three floats per slot) and the run's events
    # (a link completion and an ACK per packet, a block and a slot each an event of the bearer).
    v.memory("block_errors", f"a sequence of {errors.size} blocks", errors.size * 10.0 + slots * 24.0,
             f"a run over {errors.size} blocks and {slots} power slots")
    v.work("block_errors", f"a sequence of {errors.size} blocks", 2.0 * duration * rate + errors.size + slots,
           "events", f"a run of {errors.size * tti:.6g} s")
    if duration <= 20.0 / rate * batches / 10:
        raise v.fail("block_errors", f"a sequence of {errors.size} blocks",
                     f"is too short: {errors.size * tti:g} s hold fewer than {2 * batches} packets for the "
                     f"{batches} batches of the interval")
    power_w = np.zeros(0) if power_dbw is None else 10 ** (np.asarray(power_dbw, dtype=float) / 10)
    if power_dbw is not None and len(power_w) * SLOT < errors.size * tti - 1e-9:
        raise v.fail("power_dbw", f"an array of {len(power_w)} slots",
                     f"must cover the {errors.size * tti:g} s of the block sequence")
    with reporting(progress, "simulated time") as report:
        # The bearer's link: the buffer holds the receiver's window (no buffer loss), no warm-up, the channel the
        # block sequence itself (no seed); the sender and timer read by the binding's SenderArgs and TimerArgs.
        # The parts not given are the papers' (their declared defaults: zorzi-rossi-mazzini ran ns's NewReno).
        args = {**{p.name: p.default for p in BEARER_PARTS}, **given, "variant": variant, "dupthresh": dupthresh,
                "initial_ssthresh": float(wmax),
                "initial_rto": initial_rto, "min_rto": min_rto, "max_rto": max_rto,
                "clock_granularity": clock_granularity, "max_backoff": 64, "rate": rate, "tau": ack_delay,
                "buffer": wmax, "duration": duration, "warmup": 0.0, "batches": batches, "seed": 0}
        args["wmax"] = window_cap(wmax, args["send_buffer"], MTU_BYTES)
        args["rwnd_mss"] = MTU_BYTES - HEADER_BYTES
        args["receive_buffer"] = wmax
        raw = _core.tcp_over_bearer(errors == 1, tti, power_w, SLOT, args, report)
    fields = raw["fields"]
    totals = dict(zip(fields, raw["totals"]))
    per_batch = np.asarray(raw["batches"], dtype=float)
    payload = (MTU_BYTES - HEADER_BYTES) * 8
    s = totals["delivered"] * payload / (totals["time"] * CBR)
    s_batches = per_batch[:, fields.index("delivered")] * payload / (per_batch[:, fields.index("time")] * CBR)
    ci = batch_interval(s, s_batches, confidence, (0.0, payload / (MTU_BYTES * 8)))
    atp = raw["energy"] / totals["time"] if power_dbw is not None else float("nan")
    pe = float(np.mean(block_error_probability)) if block_error_probability is not None else float(errors.mean())
    if power_dbw is None:
        ace = float("nan")          # no power trace: no energy figures
    else:
        ace = atp / (s * CBR) if s > 0 else float("inf")   # nothing delivered: every joule wasted
    return BearerResult(throughput=s, throughput_ci=ci, block_error_rate=pe, atp=atp, ace=ace,
                        delivered=int(totals["delivered"]), sent=int(totals["sent"]), timeouts=int(totals["timeouts"]),
                        fast_retransmits=int(totals["fast_retransmits"]),
                        retransmissions=int(totals["retransmissions"]), duration=totals["time"],
                        parameters={k: args[k] for k in ("variant", "dupthresh", "min_rto",
                                                         *(p.name for p in BEARER_PARTS)) if k in args}
                        | {"wmax": wmax, "ack_delay": ack_delay, "tti_frames": tti_frames})


@dataclass(frozen=True, repr=False)
class WcdmaResult(Record):
    """Result of :func:`simulate`: one :class:`BearerResult` per user, the system run behind them, the block
    error probabilities (users × TTIs) and the parameters.

    Attributes
    ----------
    users : list of BearerResult
        TCP's figures per user.
    system : SystemResult
        The uplink run: SIR, power and fading traces.
    block_error_probability : numpy.ndarray
        Per user and TTI, the block error probability the mapping gives.
    parameters : dict
        The call's parameters.

    Examples
    --------
    >>> w = wcdma.simulate(users=3, duration=2.0, seed=1)
    >>> len(w.users), w.block_error_probability.shape          # 2 s of 10-ms TTIs
    (3, (3, 200))
    """

    users: list[BearerResult] = field(repr=False)
    system: Any = field(repr=False)
    block_error_probability: np.ndarray = field(repr=False)
    parameters: dict[str, Any]

    _headline = ("users", "doppler_hz", "target_sir_db", "mean_throughput", "mean_block_error_rate",
                 "share_at_max_power")
    _undefined = {"median_ace": "no user delivered anything: every user's ACE is infinite"}

    def to_frame(self) -> pd.DataFrame:
        """One row per user: the run's TCP variant and profile, Doppler frequency and TTI, throughput (S) and its interval, block
        error rate P_e, ATP [W], ACE [J/bit], TCP's counts, and the system's summary (serving cell, mean SIR, mean
        power, time at maximum power). The radio blocks are the channel: each row says what made them."""
        rows = pd.DataFrame([u.to_dict() for u in self.users])
        frame = pd.concat([self.system.to_frame(), rows], axis=1)
        at = 0
        for key in ("variant", "profile", "doppler_hz", "tti_frames"):
            if key in self.parameters and key not in frame:
                frame.insert(at, key, self.parameters[key])
                at += 1
        return frame

    def _row(self) -> dict[str, Any]:
        """The run's parameters and its users summarized: mean and median S, the share of users below S = 0.5,
        mean and median P_e, mean ATP [W], median ACE [J/bit] over users who delivered, mean share of time at
        maximum power (a sweep's row)."""
        f = self.to_frame()
        finite = f.ace[np.isfinite(f.ace)]
        summary = {"mean_throughput": float(f.throughput.mean()), "median_throughput": float(f.throughput.median()),
                   "share_below_half": float((f.throughput < 0.5).mean()),
                   "mean_block_error_rate": float(f.block_error_rate.mean()),
                   "median_block_error_rate": float(f.block_error_rate.median()), "mean_atp": float(f.atp.mean()),
                   "median_ace": float(finite.median()) if len(finite) else float("inf"),
                   "share_at_max_power": float(f.share_at_max_power.mean())}
        params = {k: (v if isinstance(v, (int, float, str, bool)) else str(v)) for k, v in self.parameters.items()}
        return {**params, **summary}


#: :func:`simulate`'s parameters (its further system keywords are checked by :func:`~tcpfade.wcdma.simulate_system`).
WCDMA = Model("wcdma.simulate", (
    Param("users", v.Integer(1, 10_000), 90, "Users N_u."),
    Param("doppler_hz", v.Real(1e-6, 1e4), 6.0, "Doppler frequency f_d.", "Hz"),
    TTI,
    Param("target_sir_db", v.Real(-50.0, 50.0), 5.5, "The power control's target t.", "dB"),
    Param("step_db", v.Real(0.0, 20.0), 0.5, "The power control's step Δ.", "dB"),
    # The bearer carries CBR / (8 MTU) = 25.2 packets/s; the interval's 20 batches need 2 packets each after the
    # first two: (2 + 40) / 25.2 = 1.66 s at least, so 2 s.
    Param("duration", v.Real(2.0, 1e6, words="must be a finite number in [2, 1e+06] (seconds: the bearer's 25 "
                                              "packets/s need 2 s for the interval's 20 batches)"), 60.0,
          "Simulated time.", "s"),
    SEED.but(doc="Seed of the system and of the block error sequence."),
    BEARER_VARIANT, ACK_DELAY_S, WCDMA_MIN_RTO, PROFILE, *BEARER_PARTS,
    Param("rays", RAYS, "vehicular-a-5",
          "The multipath profile: a name of tcpfade.wcdma.RAY_PROFILES or ray powers in dB (a list, or on the "
          "command line numbers separated by commas, such as 0,-3)."),
    Param("sir_reference", v.Choice(SIR_REFERENCES), DEFAULT_SIR_REFERENCE,
          "The SIR the power control's target is in: bit (per information bit) or symbol (per coded symbol); the "
          "mapping always gets the per-symbol SIR (simulate_system, BRIEF D13)."),
), doc="The WCDMA uplink with power control and TCP over each user's radio bearer (zorzi-rossi-mazzini).",
    profiles=PROFILES)

#: The rules of :data:`WCDMA` by name.
RULES = WCDMA.rules


@WCDMA.entry()
def wcdma_arguments(*, users: int, doppler_hz: float, tti_frames: int, target_sir_db: float, step_db: float,
                    duration: float, seed: int, variant: str, ack_delay: float, min_rto: float,
                    rays: str | list[float], sir_reference: str, profile: str = "papers", **parts: Any) -> dict[str, Any]:
    """Check the arguments of :func:`simulate` without running it (a sweep checks every point with it)."""
    from .coding import TTI_FRAMES

    check_recovery_parts({"variant": variant, **parts})
    from .system import TRACE_BYTES

    if tti_frames not in TTI_FRAMES:
        raise v.fail("tti_frames", tti_frames, "must be 1, 2, 4 or 8 (a TTI of 10, 20, 40 or 80 ms)")
    slots = duration / SLOT
    v.memory("duration", duration, users * slots * TRACE_BYTES, f"traces of {users} users over {slots:.0f} slots")
    v.work("duration", duration, users * slots, "events", f"{slots:.0f} slots of {users} users")
    return {"users": users, "doppler_hz": doppler_hz, "tti_frames": tti_frames, "target_sir_db": target_sir_db,
            "step_db": step_db, "duration": duration, "seed": seed, "variant": variant, "ack_delay": ack_delay,
            "min_rto": min_rto, "rays": rays, "sir_reference": sir_reference, "profile": profile, **parts}


@WCDMA.entry(PROGRESS, rest="system", forwards=simulate_system)
def simulate(*, users: int, doppler_hz: float, tti_frames: int, target_sir_db: float, step_db: float,
             duration: float, seed: int, variant: str, ack_delay: float, min_rto: float, rays: Any,
             sir_reference: str, progress: bool | Callable[[float], object] | None, **system: Any) -> WcdmaResult:
    """The whole chain of zorzi-rossi-mazzini for ``users`` users over ``duration`` seconds: the uplink with
    power control (:func:`~tcpfade.wcdma.simulate_system`, further keyword arguments go to it), block error
    probabilities per TTI from each user's SIR trace, a block error sequence by a coin flip per TTI (seeded from
    ``seed``), and TCP (NewReno by default, as the paper) over each user's bearer. ``to_frame()`` has one row per
    user.

    Parameters
    ----------
    {parameters}
    **system
        further keyword arguments of :func:`simulate_system` (layout, powers).

    Returns
    -------
    WcdmaResult: one :class:`BearerResult` per user, the system run, the block error probabilities;
    ``to_frame()`` has one row per user, ``to_dict()`` summarizes them.

    Raises
    ------
    ParameterError
        a bad parameter of the chain or of the system (named with its value), a TTI other than 1, 2, 4 or 8, a run
        that would not fit in memory or time.

    Examples
    --------
    >>> w = wcdma.simulate(users=6, duration=5.0, seed=1)
    >>> len(w.to_frame()), sorted({"throughput", "block_error_rate", "atp", "ace"} - set(w.to_frame()))
    (6, [])
    """
    # The entry has checked (and normalized) the values; the chain's own cross-checks follow.
    # The sender's parts arrive checked among the keywords; the rest are the system's.
    parts = {k: system.pop(k) for k in _PART_RULES if k in system}
    profile = system.pop("profile")
    a = wcdma_arguments.unchecked(users=users, doppler_hz=doppler_hz, tti_frames=tti_frames,
                                  target_sir_db=target_sir_db, step_db=step_db, duration=duration, seed=seed,
                                  variant=variant, ack_delay=ack_delay, min_rto=min_rto, rays=rays,
                                  sir_reference=sir_reference, profile=profile, **parts)
    users, doppler_hz, tti_frames, target_sir_db, step_db, duration, seed, ack_delay, min_rto = (
        a["users"], a["doppler_hz"], a["tti_frames"], a["target_sir_db"], a["step_db"], a["duration"], a["seed"],
        a["ack_delay"], a["min_rto"])
    sys_result = simulate_system(users=users, doppler_hz=doppler_hz, target_sir_db=target_sir_db, step_db=step_db,
                                 duration=duration, seed=seed, sir_reference=a["sir_reference"], progress=progress,
                                 rays=a["rays"], **system)
    w = tcp_over_system.quiet(sys_result, tti_frames=tti_frames, variant=a["variant"], ack_delay=ack_delay, min_rto=min_rto,
                        **parts)
    params = {"users": users, "doppler_hz": doppler_hz, "tti_frames": tti_frames, "target_sir_db": target_sir_db,
              "step_db": step_db, "duration": duration, "seed": seed, "variant": a["variant"], "ack_delay": ack_delay,
              "min_rto": min_rto, "sir_reference": a["sir_reference"], "profile": profile, **parts,
              **({"rays": a["rays"]} if a["rays"] != WCDMA["rays"].default else {}), **system}
    return WcdmaResult(w.users, sys_result, w.block_error_probability, params)


@_noting_unread("tcp_over_system")
@v.checked(tti_frames=TTI.rule, variant=BEARER_VARIANT.rule, ack_delay=ACK_DELAY_S.rule, min_rto=WCDMA_MIN_RTO.rule)
def tcp_over_system(system: Any, *, tti_frames: int = 1, variant: str = "newreno", ack_delay: float = 0.05,
                    min_rto: float = 1.0, **parts: Any) -> WcdmaResult:
    """The second half of :func:`simulate` on an uplink run already made: block error probabilities per TTI of
    ``tti_frames`` frames from each user's SIR trace, a coin flip per TTI (seeded from the run's seed, as
    :func:`simulate` does), TCP NewReno over each user's bearer. One uplink run serves several TTIs or TCP
    settings: ``simulate(..., tti_frames=k)`` equals ``tcp_over_system(simulate_system(...), tti_frames=k)``.

    Parameters
    ----------
    system : a :class:`~tcpfade.wcdma.SystemResult`.
    tti_frames : interleaving depth, 1, 2, 4 or 8 frames.
    variant : TCP variant over each bearer ("newreno", "reno", "tahoe" or "oldtahoe").
    ack_delay : the return path's delay [s].
    min_rto : floor of TCP's retransmission timer [s].
    **parts
        The sender's other parts and timer by name (``BEARER_PARTS``: ``initial_window``, ``limited_transmit``, ...,
        ``initial_rto``, ``max_rto``, ``clock_granularity``, ``rto_rule``, ``timestamps``, ``delayed_ack``); the papers' when left
        out.

    Returns
    -------
    WcdmaResult: one :class:`BearerResult` per user, the system run, the block error probabilities.

    Raises
    ------
    ParameterError
        not a SystemResult, a TTI other than 1, 2, 4 or 8, a bad TCP parameter.

    Examples
    --------
    >>> s = wcdma.simulate_system(users=2, duration=2.0, seed=1)
    >>> w = wcdma.tcp_over_system(s, tti_frames=2)
    >>> w.block_error_probability.shape                          # 2 s of 20-ms TTIs
    (2, 100)
    """
    from .coding import check_tti_frames
    from .system import SystemResult

    parts = bearer_parts(parts)
    if not isinstance(system, SystemResult):
        raise v.fail("system", system, "must be a SystemResult (from simulate_system)")
    tti_frames = check_tti_frames(tti_frames)
    bep = system.block_error_probability(tti_frames)
    rng = np.random.default_rng(np.random.SeedSequence([system.seed, 2]))
    bes = rng.random(bep.shape) < bep
    per_user = [tcp_over_blocks.quiet(bes[u].astype(np.uint8), tti_frames=tti_frames, power_dbw=system.power_dbw[u],
                                variant=variant, ack_delay=ack_delay, min_rto=min_rto, block_error_probability=bep[u],
                                **parts)
                for u in range(system.users)]
    params = {"users": system.users, "doppler_hz": system.doppler_hz, "tti_frames": tti_frames,
              "target_sir_db": system.target_sir_db, "step_db": system.step_db, "duration": system.duration,
              "seed": system.seed, "variant": variant, "ack_delay": ack_delay, "min_rto": min_rto,
              "sir_reference": system.sir_reference, **parts}
    return WcdmaResult(per_user, system, bep, params)
