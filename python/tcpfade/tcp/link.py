"""TCP over a wireless link with a buffer, event by event (abouzeid §II-A, §III): a link of rate μ packets/s
fed by a DropTail buffer of B packets, a round-trip delay τ, and a channel that evolves in continuous time
whether or not TCP sends. The driver is the Rust core's (``driver/link.rs``); the sender and receiver are the
same as the slotted simulator's, with the timer estimated as RFC 6298 says (SRTT, RTTVAR, Karn, clock
granularity, minimum and maximum, binary backoff up to 64×) or fixed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._record import Record, channel_columns, interval_columns
from .._watch import reporting
from ..channels.base import SlotChannel
from ..channels.continuous import MEAN_SOJOURN, ContinuousTwoState
from .._params import Model, Param
from .metrics import batch_interval
from .parameters import (BATCHES, CONFIDENCE, DELAYED_ACK, DELAYED_ACK_RULE, header_bytes, no_probes, payload_bytes, PROGRESS, RWND_RULE, SEED,
                         SEND_BUFFER, SENDER, TIMER,
                         WINDOW_TRACE, window_cap,
                         WINDOW_VARIANTS, check_recovery_parts, variant)
from .profiles import PROFILE, PROFILES

if TYPE_CHECKING:
    import pandas as pd

#: Metrics of a link run, each with a confidence interval in ``result.ci``.
LINK_METRICS = ("goodput", "received_rate", "new_received_rate", "utilization", "channel_loss_rate", "buffer_loss_rate",
                "timeouts_per_s",
                "fast_retransmits_per_s", "mean_rtt")

#: The counts of a link run (after the warm-up), as :class:`LinkResult` has them: what a sweep's row keeps beside
#: the metrics.
LINK_COUNTS = ("delivered", "sent", "retransmissions", "channel_losses", "buffer_losses", "timeouts",
               "fast_retransmits", "spurious_timeouts", "rtt_samples", "acks", "timer_acks")


@dataclass(frozen=True, repr=False)
class LinkResult(Record):
    """Result of :func:`simulate_link`. ``goodput`` is normalized by μ (1 = the link's capacity, every
    packet delivered once); ``goodput_bps`` is in bits per second. ``ci[name]`` is a batch-means interval.

    ``p_no_loss``, ``p_triple_duplicate``, ``p_timeout``: how the bad visits that end a *sampled* good state
    (one in which TCP got a packet through) turn out (abouzeid §IV-F, J); ``mean_effective_bad``: the mean time
    from the end of a sampled good state to the first packet through in the next one (E[U], §IV-I);
    ``mean_rto_at_bad`` and ``mean_backoff_at_bad``: the base RTO [s] and the backoff multiplier in force when
    those good states ended (what the analysis' timer Δ(w') stands for; a multiplier above 1 is a backoff that
    Karn's rule kept from an earlier timeout).

    Attributes
    ----------
    variant, rate, tau, packet_bytes, buffer, beta, duration, warmup, seed, profile
        The call's parameters (``rate`` μ [packets/s], ``tau`` [s], ``buffer`` B [packets], β = B/(μT)).
    round_trip, pipe : float
        T = τ + 1/μ [s] and μT [packets].
    goodput, goodput_bps : float
        Packets delivered once per 1/μ, and bit/s.
    received_rate, utilization : float
        Packets received per 1/μ, duplicates included (goodput counts each packet once), and the share of time the
        link was busy.
    new_received_rate : float
        Packets that crossed the link for the first time per 1/μ, in order or not: what a measurement at the link
        counts, as :func:`tcpfade.emulate`'s goodput does. Goodput counts a packet held behind a hole only once the
        hole is filled (and only if it is by the end of the run); the two part where many packets wait behind holes,
        as in NewReno's one-hole-per-round-trip recovery.
    channel_loss_rate, buffer_loss_rate : float
        The share of the packets the link transmitted that were lost on the air, and of the packets sent that
        the full buffer dropped.
    timeouts_per_s, fast_retransmits_per_s, mean_rtt : float
        Recoveries per second, and the mean of the RTT samples [s].
    delivered, sent, retransmissions, channel_losses, buffer_losses, timeouts, fast_retransmits, rtt_samples : int
        The counts after the warm-up. ``sent`` counts a packet when the sender releases it, ``delivered`` by the start
        of the transmission that delivered it (so that goodput never exceeds 1): a packet released before the
        warm-up ends and transmitted after counts in ``delivered`` only, so with the buffer full at that moment
        ``delivered`` can exceed ``sent`` by up to B + 1 (with ``warmup=0``, never).
    spurious_timeouts : int
        Of the timeouts, those F-RTO (``frto``) found spurious and undid (Linux's TCPSpuriousRTOs); 0 without it.
        Counted with the timeout it undid, so never more than ``timeouts``.
    acks, timer_acks : int
        ACKs the receiver sent after the warm-up, and of them those its delayed-ACK timer sent (a segment left alone
        for the whole ``delayed_ack``; none without delayed ACKs).
    p_no_loss, p_triple_duplicate, p_timeout, mean_effective_bad, mean_rto_at_bad, mean_backoff_at_bad : float
        The per-visit terms above.
    ci : dict[str, tuple[float, float]]
        Batch-means intervals of the rates.
    trace : pandas.DataFrame or None
        The sender's window over the first ``trace_seconds`` of simulated time (warm-up included), when asked for:
        a row at the start and one after each ACK or timer that changed the sender, taken once it has sent what
        that event allowed. Columns: ``time`` [s], ``cwnd`` and ``ssthresh`` [packets], ``una`` (SND.UNA) and
        ``high`` (one past the highest sequence number sent), ``in_flight`` = high − una, ``pipe`` (RFC 6675's,
        with SACK; missing without), ``rwnd`` (the receiver's window as the last ACK advertised it [packets]:
        wmax unless ``rwnd_rule="linux"``), ``in_recovery``, ``rto`` (the timer the sender would arm, backoff included
        [s]), and the run's ``timeouts`` and ``fast_retransmits`` so far. :meth:`plot_trace` draws it.
    outcomes_by_window : numpy.ndarray or None
        Visits by window w2 (row w2 − 1) and outcome (no loss, triple duplicate, timeout).
    channel : dict or None
        The channel's ``describe()`` (None: no channel losses); ``to_dict`` gives it as ``channel_kind`` and
        ``channel_<parameter>`` columns.

    Examples
    --------
    >>> r = tcpfade.simulate_link("reno", rate=100, tau=0.01, beta=8, mean_good=8.0, mean_bad=2.0, seed=1,
    ...                           duration=500)
    >>> bool(r.goodput_bps == r.goodput * r.rate * r.packet_bytes * 8)
    True
    >>> round(r.p_no_loss + r.p_triple_duplicate + r.p_timeout, 12)
    1.0
"""

    variant: str
    rate: float
    tau: float
    packet_bytes: int
    buffer: int
    round_trip: float
    pipe: float
    beta: float
    duration: float
    warmup: float
    seed: int
    profile: str
    goodput: float
    goodput_bps: float
    received_rate: float
    new_received_rate: float
    utilization: float
    channel_loss_rate: float
    buffer_loss_rate: float
    timeouts_per_s: float
    fast_retransmits_per_s: float
    mean_rtt: float
    delivered: int
    sent: int
    retransmissions: int
    channel_losses: int
    buffer_losses: int
    timeouts: int
    fast_retransmits: int
    rtt_samples: int
    acks: int
    timer_acks: int
    spurious_timeouts: int
    p_no_loss: float
    p_triple_duplicate: float
    p_timeout: float
    mean_effective_bad: float
    mean_rto_at_bad: float
    mean_backoff_at_bad: float
    ci: dict[str, tuple[float, float]] = field(repr=False)
    #: Bad visits ending a sampled good state, counted by the window W' at the end (row w' − 1; the last row
    #: gathers larger windows) and outcome (columns: no loss, triple duplicate, timeout): abouzeid §IV-F.
    outcomes_by_window: np.ndarray | None = field(default=None, repr=False, compare=False)
    channel: dict[str, Any] | None = field(default=None, repr=False)
    #: The sender's parts and timer as the run had them (the profile's where the call set none): a row names what
    #: ran, not only the profile it came from.
    parameters: dict[str, Any] = field(default_factory=dict, repr=False)
    trace: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    _headline = ("variant", "goodput", "goodput_bps", "timeouts_per_s", "mean_rtt", "duration")
    _undefined = {"mean_rtt": "no RTT sample after the warm-up (no segment was acknowledged that Karn's rule times)",
                  "channel_loss_rate": "the link transmitted nothing after the warm-up",
                  "buffer_loss_rate": "nothing was sent after the warm-up",
                  **dict.fromkeys(("p_no_loss", "p_triple_duplicate", "p_timeout", "mean_effective_bad",
                                   "mean_rto_at_bad", "mean_backoff_at_bad"),
                                  "no bad visit ended a good state in which TCP got a packet through: abouzeid §IV-F's sample is empty")}

    @property
    def throughput(self) -> float:
        """Former name of :attr:`received_rate` (one release, with a FutureWarning): "throughput" now means goodput
        only, as in the slotted model and the papers (docs/glossary.md)."""
        import warnings

        warnings.warn("LinkResult.throughput is now called received_rate (duplicates included; goodput counts each "
                      "packet once)", FutureWarning, stacklevel=2)
        return self.received_rate

    @property
    def max_in_flight(self) -> float:
        """w_p = B + μT, the most packets the pipe and the buffer hold (abouzeid §II-A)."""
        return self.buffer + self.pipe

    def plot_trace(self, path: str | Path | None = None, *, ax=None):
        """Draw :attr:`trace` (:func:`tcpfade.plots.plot_window_trace`): cwnd, ssthresh and the data in flight over
        time, with the fast retransmits and timeouts marked. Written to ``path`` if given (PNG, SVG or PDF); returns
        the matplotlib Figure."""
        return plot_trace_of(self.trace, path, ax, f"{self.variant} ({self.profile} profile), μ = {self.rate:g} "
                                                   f"packets/s, τ = {self.tau:g} s, B = {self.buffer}")

    def _row(self) -> dict[str, Any]:
        """Parameters, metrics and their intervals (``<metric>_low``, ``<metric>_high``) as a flat dict (a row of a
        table)."""
        skip = ("ci", "channel", "outcomes_by_window", "parameters", "trace")
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in skip}
        for name, interval in self.ci.items():
            out.update(interval_columns(name, interval))
        for key, value in self.parameters.items():
            out.setdefault(key, value)
        out.update(channel_columns(self.channel))
        return out


def _metrics(rows: np.ndarray, rate: float) -> dict[str, np.ndarray]:
    """Metric values from count rows (the totals or one row per batch), columns as the core's fields."""
    (time, delivered, sent, received, channel_losses, buffer_losses, timeouts, fast_retransmits, rtt_samples,
     rtt_sum, busy, _retransmissions, new_received, _acks, _timer_acks, _spurious_timeouts) = rows.T
    with np.errstate(divide="ignore", invalid="ignore"):
        return {
            "goodput": delivered / (rate * time),
            "received_rate": received / (rate * time),
            "new_received_rate": new_received / (rate * time),
            "utilization": np.minimum(busy / time, 1.0),   # a sum of busy periods can round past the time
            "channel_loss_rate": channel_losses / (received + channel_losses),
            "buffer_loss_rate": buffer_losses / sent,
            "timeouts_per_s": timeouts / time,
            "fast_retransmits_per_s": fast_retransmits / time,
            "mean_rtt": rtt_sum / rtt_samples,
        }


#: Packet times a batch of the measured time must span at least: shorter batches make intervals of noise.
MIN_PACKETS_PER_BATCH = 10

#: Link rates μ accepted [packets/s] and delays [s].
RATE = v.Real(1e-6, 1e12, words="must be a finite number in [1e-6, 1e12] (packets per second)")
DELAY = v.Real(0.0, 1e6, words="must be a finite number in [0, 1e6] (seconds)")
CHANNEL_WORDS = ("must be a tcpfade channel (ContinuousTwoState, Bernoulli, GilbertElliott, ThresholdFading, "
                 "BitLevelFading or TraceChannel)")

#: The link's own parameters (abouzeid §II-A), shared by the simulation and the analysis.
LINK_PARAMETERS = (
    Param("rate", RATE, doc="Link rate μ.", unit="packets/s"),
    Param("tau", DELAY, doc="Round-trip propagation and processing delay τ; T = τ + 1/μ.", unit="s"),
    Param("packet_bytes", v.Integer(1, 1 << 30), 1000, "Packet size (for goodput_bps; μ is in packets).", "bytes"),
    Param("buffer", v.Optional(v.Integer(0, 1 << 30)), None, "The buffer B (or beta; not both).", "packets",
          default_words="β·μT"),
    Param("beta", v.Optional(v.Real(0.0, 1e6)), None, "The buffer as β = B/(μT), B rounded to the nearest packet.",
          default_words="1"),
    Param("mean_good", v.Optional(MEAN_SOJOURN), None,
          "Mean good duration E[X] of the continuous-time channel (abouzeid §III: a packet is lost if the channel is "
          "bad at any instant of its transmission); or give channel.", "s", sweep=False),
    Param("mean_bad", v.Optional(MEAN_SOJOURN), None, "Mean bad duration E[Y] of the continuous-time channel.", "s",
          sweep=False),
    Param("channel", v.OrUnset(v.Optional(v.Instance((ContinuousTwoState, SlotChannel), CHANNEL_WORDS))), v.UNSET,
          "Any tcpfade channel. ContinuousTwoState evolves in real time; Bernoulli, GilbertElliott and a TraceChannel "
          "take one step per packet sent; ThresholdFading and BitLevelFading evolve in real time at fD = fdt × rate Hz "
          "(fD·T with T = 1/μ, one packet time); a TraceChannel with an interval is a block error sequence in time "
          "(docs/models.md, \"Any tcpfade channel\"). None: a link without channel losses. A run never picks a "
          "channel for you: give one, mean_good and mean_bad, or None.", cli=False, sweep=False,
          default_words="required (or mean_good and mean_bad)"),
)

#: :func:`simulate_link`'s parameters: the link's, the run's, the sender's and RFC 6298's timer.
LINK = Model("simulate_link", (
    variant("reno", WINDOW_VARIANTS, 'TCP variant: "reno" (abouzeid\'s), "tahoe", "newreno", "oldtahoe" or "cubic" '
            '(RFC 9438, with NewReno\'s recovery).',
            no_probes("the bulk link model")),
    *LINK_PARAMETERS,
    Param("duration", v.Optional(v.POSITIVE), None, "Simulated time.", "s",
          default_words="1000·max(t_p, E[X] + E[Y]), at least 100 s (abouzeid §V)"),
    Param("warmup", v.Optional(v.NON_NEGATIVE), None, "Time simulated but not measured.", "s",
          default_words="duration / 10"),
    SEED, PROFILE, *SENDER, *TIMER, DELAYED_ACK, DELAYED_ACK_RULE, RWND_RULE, SEND_BUFFER,
    Param("channel_clock", v.Choice(("time", "packets")), "time",
          "time: the channel evolves in real time, idle or not (abouzeid §III); packets: it advances only by each "
          "packet's transmission time, frozen while the link idles (ns-2's original model, abouzeid §I-A); a fading "
          "channel then steps once per packet."),
    BATCHES, CONFIDENCE, WINDOW_TRACE,
), doc="TCP over a wireless link with a buffer, event by event (abouzeid §II-III).", profiles=PROFILES)

#: Bytes one row of a window trace takes on its way to the DataFrame (the core's row, the columns handed over, the
#: frame), for the memory check.
TRACE_ROW_BYTES = 512


#: The rules of :data:`LINK` by name (the link analysis shares them).
RULES = LINK.rules


@LINK.entry()
def link_arguments(variant: str = "reno", **given: Any) -> dict[str, Any]:
    """Check the arguments of :func:`simulate_link` without simulating: the same errors, raised the same way,
    and the arguments normalized (defaults filled in, the channel built). A sweep checks every point with it.
    The result is what the core's binding reads, by field name."""
    a = {"variant": variant, **given}
    check_recovery_parts(a)
    mu, tau, duration, batches = a["rate"], a["tau"], a["duration"], a["batches"]
    t = tau + 1.0 / mu
    if a["max_rto"] < a["min_rto"]:
        raise v.fail("max_rto", a["max_rto"], f"must be >= min_rto (= {a['min_rto']:g})")
    headers = header_bytes(a["timestamps"])
    if a["rwnd_rule"] == "linux" and not headers < a["packet_bytes"] <= headers + 65_535:
        timestamps = " (12 of them the timestamp option, which timestamps=False leaves out)" if a["timestamps"] else ""
        raise v.fail("packet_bytes", a["packet_bytes"], f"must carry 1 to 65,535 bytes of payload beyond its {headers} "
                                                        f"bytes of IP and TCP headers{timestamps} with rwnd_rule="
                                                        "'linux' (the linux profile's), whose windows count payload "
                                                        "bytes and whose first, 65,535 bytes unscaled, must hold a "
                                                        "segment")
    buffer = link_buffer(a["buffer"], a["beta"], mu * t, high=1 << 30)
    channel = link_channel(a["mean_good"], a["mean_bad"], a["channel"], required=False, any_kind=True)
    given_duration = duration is not None
    period = channel.mean_good + channel.mean_bad if isinstance(channel, ContinuousTwoState) else None  # E[X] + E[Y]
    if period is not None:
        channel.check_packet_window("rate", a["rate"], 1.0 / mu)
    if duration is None:
        duration = max(1000.0 * max(ideal_cycle(mu, t, buffer), period or 0.0), 100.0)
    warmup = duration / 10.0 if a["warmup"] is None else a["warmup"]
    if warmup >= duration:
        raise v.fail("warmup", warmup, f"must be < duration (= {duration:g})")
    name = "duration" if given_duration else "duration (default)"
    per_batch = (duration - warmup) * mu / batches
    if per_batch < MIN_PACKETS_PER_BATCH:
        raise v.fail(name, duration, f"the measured time, {duration - warmup:.6g} s, holds {per_batch * batches:.3g} "
                                     f"packet times: fewer than {MIN_PACKETS_PER_BATCH} for each of the {batches} "
                                     "batches of the intervals (simulate longer, or give fewer batches)")
    timer = a["rto"] if a["rto"] is not None else a["min_rto"]
    # A slot channel is asked once a packet; its cost (in the slotted driver's 10-ns slots, channels.base) counts
    # in the 100-ns events of this driver.
    per_packet = channel._slot_cost() / 10.0 if isinstance(channel, SlotChannel) else 0.0
    events = duration * ((2.0 + per_packet) * mu + 1.0 / timer + (2.0 / period if period else 0.0))
    v.work(name, duration, events, "events", f"a link run of {duration:.6g} s",
           "" if given_duration else "; give a shorter duration")
    traced = min(a["trace_seconds"], duration)
    # A row per ACK or timer event at most: the link completes at most μ packets a second (each ACKed at most once)
    # and a timer cannot fire more often than its floor, or RACK's reordering window and probe, one per ACK.
    trace_rows = math.ceil(traced * (2.0 * mu + 1.0 / timer)) + 16 if traced > 0 else 0
    v.memory("trace_seconds", a["trace_seconds"], float(trace_rows) * TRACE_ROW_BYTES,
             f"a window trace of {traced:.6g} s")
    a.update(trace_rows=trace_rows)
    a.update(round_trip=t, buffer=buffer, channel=channel, duration=duration, warmup=warmup,
             initial_ssthresh=float(a["wmax"]) if a["initial_ssthresh"] is None else a["initial_ssthresh"])
    return a


def link_buffer(buffer: int | None, beta: float | None, pipe: float, *, high: int) -> int:
    """The buffer B [packets] from ``buffer`` or β = B/(μT) (rounded to the nearest packet; default β = 1)."""
    if buffer is not None and beta is not None:
        raise v.fail("buffer", buffer, "give buffer or beta, not both")
    if buffer is None:
        b = v.at_least("beta", 1.0 if beta is None else beta, 0.0) * pipe
        if not b <= high:
            raise v.fail("beta" if beta is not None else "rate", beta if beta is not None else pipe,
                         f"gives a buffer B = β·μT of {b:.4g} packets, above the {high} allowed")
        buffer = int(round(b))
    return v.integer("buffer", buffer, 0, high)


def link_channel(mean_good: float | None, mean_bad: float | None, channel: Any,
                 *, required: bool, any_kind: bool = False) -> ContinuousTwoState | SlotChannel | None:
    """The continuous-time channel from ``mean_good`` and ``mean_bad`` (E[X], E[Y] in s) or ``channel`` (with
    ``any_kind``, any tcpfade channel; else a ContinuousTwoState). ``channel=None`` given explicitly is a link without
    channel losses (unless ``required``); nothing given at all is an error: a run never picks a channel silently."""
    if channel is v.UNSET:
        if mean_good is None and mean_bad is None and not required:
            raise v.fail("channel", "a missing value", "give a channel (any tcpfade channel), mean_good and mean_bad, "
                                                       "or channel=None for a link without channel losses")
        channel = None
    if channel is not None:
        if mean_good is not None or mean_bad is not None:
            raise v.fail("channel", type(channel).__name__, "give channel or mean_good/mean_bad, not both")
        if not isinstance(channel, ContinuousTwoState) and not any_kind:
            raise v.fail("channel", type(channel).__name__, "must be a ContinuousTwoState (the analysis' channel)")
        return channel
    if mean_good is None and mean_bad is None and not required:
        return None
    if mean_good is None or mean_bad is None:
        raise v.fail("mean_bad" if mean_bad is None else "mean_good", None,
                     "give both mean_good and mean_bad" + (" (or channel)" if required else ""))
    return ContinuousTwoState(mean_good=mean_good, mean_bad=mean_bad)


@LINK.entry(PROGRESS)
def simulate_link(variant: str = "reno", *, progress: bool | Callable[[float], object] | None = None,
                  **given: Any) -> LinkResult:
    """Simulate a TCP bulk transfer over a wireless link with a buffer (abouzeid §II-III).

    Parameters
    ----------
    {parameters}

    Examples
    --------
    >>> r = simulate_link("reno", rate=100, tau=0.01, beta=8, mean_good=8.0, mean_bad=2.0, seed=1,
    ...                   duration=2000)
    >>> abs(r.goodput - 0.6973) < 0.05  # abouzeid Table III, slow fading (seed-to-seed spread 0.017)
    True

    Returns
    -------
    LinkResult: goodput (normalized by μ and in bit/s), the received rate (duplicates included), loss rates, timeouts and fast retransmits per
    second, the mean RTT, each with its interval (``ci``), and the per-visit terms of abouzeid §IV.

    Raises
    ------
    ParameterError
        an unknown variant, a parameter out of its range, both or neither of buffer and beta, a channel given
        with mean_good/mean_bad, a run that would not fit in memory or time.
    """
    args = link_arguments.unchecked(variant, **given)   # the entry has checked them
    name, mu, t, size, buffer, channel = (args[k] for k in ("variant", "rate", "round_trip", "packet_bytes", "buffer",
                                                            "channel"))
    duration, warmup, level = args["duration"], args["warmup"], args["confidence"]
    spec = link_channel_spec(channel, mu, args["channel_clock"])
    with reporting(progress, "simulated time") as report:
        # The core's window is the receiver's, or the sender's buffer where that holds fewer packets.
        core = {**args, "wmax": window_cap(args["wmax"], args["send_buffer"], size),
                "rwnd_mss": payload_bytes(size, args["timestamps"]), "receive_buffer": args["wmax"]}
        raw = _core.simulate_link(core, spec, report,
                                  (args["trace_seconds"], args["trace_rows"]) if args["trace_rows"] else None)
    totals = np.asarray(raw["totals"], dtype=float)
    per_batch = _metrics(np.asarray(raw["batches"], dtype=float), mu)
    point = {k: float(x[0]) for k, x in _metrics(totals[None, :], mu).items()}
    unit, rate_range = (0.0, 1.0), (0.0, math.inf)
    ranges = {"goodput": unit, "received_rate": unit, "new_received_rate": unit, "utilization": unit, "channel_loss_rate": unit,
              "buffer_loss_rate": unit, "timeouts_per_s": rate_range, "fast_retransmits_per_s": rate_range,
              "mean_rtt": (t, math.inf)}
    ci = _Intervals({m: batch_interval(point[m], per_batch[m], level, ranges[m]) for m in LINK_METRICS})
    count = dict(zip(raw["fields"], totals))
    by_window = np.asarray(raw["visits_by_window"], dtype=float).reshape(-1, 3)
    visits = by_window.sum(axis=0)
    shares = visits / visits.sum() if visits.sum() else np.full(3, np.nan)
    u_count = sum(raw["effective_bad_count"])
    mean_u = sum(raw["effective_bad_sum"]) / u_count if u_count else float("nan")
    mean_rto = sum(raw["rto_sum"]) / u_count if u_count else float("nan")
    mean_backoff = sum(raw["backoff_sum"]) / u_count if u_count else float("nan")
    return LinkResult(
        variant=name, rate=mu, tau=t - 1.0 / mu, packet_bytes=size, buffer=buffer, round_trip=t, pipe=mu * t,
        beta=buffer / (mu * t), duration=duration, warmup=warmup, seed=args["seed"], profile=args["profile"], **point,
        goodput_bps=point["goodput"] * mu * size * 8, delivered=int(count["delivered"]), sent=int(count["sent"]),
        retransmissions=int(count["retransmissions"]),
        channel_losses=int(count["channel_losses"]), buffer_losses=int(count["buffer_losses"]),
        timeouts=int(count["timeouts"]), fast_retransmits=int(count["fast_retransmits"]),
        rtt_samples=int(count["rtt_samples"]), acks=int(count["acks"]), timer_acks=int(count["timer_acks"]),
        spurious_timeouts=int(count["spurious_timeouts"]),
        p_no_loss=float(shares[0]), p_triple_duplicate=float(shares[1]),
        p_timeout=float(shares[2]), mean_effective_bad=mean_u, mean_rto_at_bad=mean_rto,
        mean_backoff_at_bad=mean_backoff, ci=ci,
        outcomes_by_window=by_window if by_window.size else None,
        channel=None if channel is None else channel.describe(),
        parameters={p.name: args[p.name] for p in (*SENDER, *TIMER, DELAYED_ACK, DELAYED_ACK_RULE, RWND_RULE, SEND_BUFFER)},
        trace=window_trace(raw.get("trace")))


def plot_trace_of(trace: pd.DataFrame | None, path: str | Path | None, ax, title: str):
    """A result's ``plot_trace``: its window trace drawn (:func:`tcpfade.plots.plot_window_trace`), or why not."""
    from ..plots.tcp import plot_window_trace

    if trace is None:
        raise v.fail("trace_seconds", 0, "simulate with trace_seconds > 0 to plot a trace")
    if trace.empty:
        raise v.fail("trace", "no row", "the run kept no row to draw (a connection never established)")
    return plot_window_trace(trace, path, ax=ax, title=title)


def window_trace(columns: dict[str, Any] | None) -> pd.DataFrame | None:
    """The core's window-trace columns as :attr:`LinkResult.trace`: ``in_flight`` added, ``pipe`` a nullable
    integer (missing without SACK)."""
    if columns is None:
        return None
    import pandas as pd

    frame = pd.DataFrame(columns)
    frame.insert(frame.columns.get_loc("high") + 1, "in_flight", frame["high"] - frame["una"])
    frame["pipe"] = frame["pipe"].astype("Int64").where(frame["pipe"] >= 0)
    return frame


class _Intervals(dict):
    """``LinkResult.ci``: the intervals by metric; the former name ``throughput`` still reads ``received_rate``'s
    for one release, with a FutureWarning (as the attribute does)."""

    def __missing__(self, key: str):
        if key == "throughput" and "received_rate" in self:
            import warnings

            warnings.warn("ci['throughput'] is now ci['received_rate'] (duplicates included; the old name goes in "
                          "the next release)", FutureWarning, stacklevel=2)
            return self["received_rate"]
        raise KeyError(key)


def link_channel_spec(channel: ContinuousTwoState | SlotChannel | None, rate: float, clock: str) -> dict[str, Any]:
    """What the core's event-driven drivers build ``channel`` from: its own :meth:`link_spec` (every channel class
    has one), or no losses for None."""
    return {"kind": "perfect"} if channel is None else channel.link_spec(rate, clock)


def ideal_cycle(rate: float, round_trip: float, buffer: float) -> float:
    """t_p, the duration of Reno's periodic cycle on an ideal link (abouzeid Table II, Lakshman and Madhow):
    from w_p/2 to w_p, linearly (a window per round T) while below μT, then as the link's busy time."""
    pipe = rate * round_trip
    wp = buffer + pipe
    low = wp / 2.0
    t_a = round_trip * max(pipe - low, 0.0)
    start_b = max(pipe, low)
    t_b = (wp * wp - start_b * start_b) / (2.0 * rate)
    return t_a + t_b
