"""Finite transfers from connection set-up to tear-down (tsaoussidis-badr §4): connection time, goodput, byte
overhead and device energy of Tahoe, Reno, NewReno and TCP-Probing over on/off (VDELDROP) error phases.

The transfer runs in the Rust core (``crates/tcpfade-core/src/driver/transfer.rs``): SYN, SYN-ACK and ACK, the
data in segments of at most ``mss`` bytes, the FIN exchange, every segment exposed to the channel, over one
half-duplex link. TCP-Probing's probe cycle is part of the shared sender (``tcp/probing.rs``); its end-of-cycle
decision is the paper's RTT-range rule with its bounds as parameters, or any Python callable.

Defaults reproduce the zero-loss row of tsaoussidis-badr Table 1 (40.000 s and 1.48% overhead for 5,242,880
bytes): 20-byte headers (the transport layer's own, as the paper counts "bytes transmitted by the sender and
receiver transport layers"), delayed ACKs, MSS 2028 bytes and a 1.0695 Mb/s link (docs/models.md, "Finite
transfers").
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._record import Record, channel_columns
from .._watch import reporting
from ..channels.base import SlotChannel
from ..channels.continuous import ContinuousTwoState
from .link import CHANNEL_WORDS, TRACE_ROW_BYTES, link_channel_spec, plot_trace_of, window_trace
from .._params import Model, Param
from ..devices import Device, device as resolve_device
from .parameters import (check_recovery_parts, DELAYED_ACK, DELAYED_ACK_RULE, PROGRESS, RWND_RULE, SEED, SEND_BUFFER, SENDER,
                         TIMER, variant)
from .parameters import WINDOW_TRACE, window_cap
from .profiles import PROFILE, PROFILES

if TYPE_CHECKING:
    import pandas as pd

#: The Table 1 workload (tsaoussidis-badr §4: "5-MByte (5,242,880 bytes) data sets").
SIZE_BYTES = 5_242_880
#: Calibrated so that a loss-free 5,242,880-byte transfer takes 40.000 s and costs 1.48% overhead (Table 1, rows
#: 0.1-0.4): see docs/models.md. Any MSS from 2024 to 2037 gives 1.48% with 20-byte headers and delayed ACKs.
MSS = 2028
HEADER_BYTES = 20
RATE_BPS = 1_069_465.0

#: TCP-Probing's readings of *best RTT* (tsaoussidis-badr §3.1, BRIEF D12), the default first: every sample but the
#: cycle's own probes, earlier cycles' probes only, or data segments' samples only (docs/models.md, "TCP-Probing").
BEST_RTT = ("earlier", "probes", "data")
#: What the link's rate meters: whole frames, or payload only (headers, ACKs and probes take no link time).
METERING = ("frame", "payload")

#: Bytes RFC 7323's timestamp option adds to every segment with ``timestamps`` (10, padded with two NOPs as Linux
#: sends it), as the core counts them.
TIMESTAMP_OPTION_BYTES: int = _core.TIMESTAMP_OPTION_BYTES

#: Segment kinds of the byte accounting, in the core's order.
KINDS = ("syn", "syn_ack", "handshake_ack", "data", "retransmission", "fin", "ack", "probe", "probe_answer",
         "fin_ack", "final_ack")

#: Bytes one recorded frame takes (the core's row and the DataFrame made of it).
FRAME_BYTES = 96
#: Bytes a frame takes on the simulated medium (the core's queue entry, with room to spare).
IN_FLIGHT_BYTES = 64

SECONDS_4 = v.Real(0.0, 1e4, words="must be a finite number in [0, 1e4] (seconds)")

#: :func:`simulate_transfer`'s parameters (tsaoussidis-badr §4), the sender's and timer's shared with the other
#: drivers (:mod:`tcpfade.tcp.parameters`).
TRANSFER = Model("simulate_transfer", (
    variant("reno", doc='TCP variant: "tahoe", "reno", "newreno", "probing" (TCP-Probing), "oldtahoe" or "cubic" '
                       '(RFC 9438, with NewReno\'s recovery).'),
    Param("channel", v.OrUnset(v.Optional(v.Instance((ContinuousTwoState, SlotChannel), CHANNEL_WORDS))),
          v.UNSET, "The error process, any tcpfade channel: e.g. ContinuousTwoState.on_off(10.0, 0.1) (VDELDROP: on/off "
          "phases of mean 10 s, 10% of segments dropped in the on phase); Bernoulli, GilbertElliott and a "
          "TraceChannel step once per segment sent; the fading channels evolve in real time at fD = fdt × the "
          "full-size segment rate rate_bps / (8 (mss + header_bytes)); a TraceChannel with an interval is a block "
          "error sequence in time. None: no losses (Table 1's zero-loss rows). A run never picks a channel for you.",
          positional=True, cli=False, sweep=False, default_words="required"),
    Param("size_bytes", v.Integer(1, 1 << 40), SIZE_BYTES, "Bytes the application sends (Table 1: 5,242,880).",
          "bytes"),
    Param("mss", v.Integer(1, 1 << 30), MSS, "Payload bytes per segment at most.", "bytes"),
    Param("header_bytes", v.Integer(0, 1 << 16), HEADER_BYTES, "Header bytes of every segment (with timestamps, RFC "
          "7323's option adds 12 more).", "bytes"),
    Param("syn_option_bytes", v.Integer(0, 40), 4, "Option bytes of SYN and SYN-ACK (the MSS option).", "bytes"),
    Param("probe_option_bytes", v.Integer(0, 40), 8,
          "Option bytes of each probe segment (TCP-Probing's option: type, length, id; tsaoussidis-badr §3.1).",
          "bytes", unread_when=lambda a: None if a["variant"] == "probing" else "only TCP-Probing sends probes"),
    Param("mtu", v.Integer(1, 1 << 30), 65_535, "The largest segment the link carries, headers included.", "bytes"),
    Param("rate_bps", v.Real(1.0, 1e12, words="must be a finite number in [1, 1e12] (bits per second)"), RATE_BPS,
          "Link rate; the link is one half-duplex medium shared by both directions.", "bit/s"),
    Param("delay", SECONDS_4, 0.0, "One-way propagation delay.", "s"),
    DELAYED_ACK.but(default=0.2),
    DELAYED_ACK_RULE,
    RWND_RULE,
    SEND_BUFFER,
    Param("drop_acks", v.Flag(), True, "The channel drops the receiver's segments too (VDELDROP on both hosts); "
          "else only the sender's."),
    Param("loss_on_air", v.Flag(), False, "A dropped segment still occupies the link and both radios (a wireless "
          "loss); else it is dropped between TCP and IP of the sending host, as VDELDROP did."),
    Param("rwnd_bytes", v.Integer(1, 1 << 40), 65_535, "The receiver's advertised window; Wmax = rwnd_bytes // mss "
          "segments.", "bytes"),
    PROFILE, *(p for p in SENDER if p.name != "wmax"),
    Param("best_rtt", v.Choice(BEST_RTT), "earlier",
          "TCP-Probing only: which RTT samples make best RTT, the lower bound of the end-of-cycle rule (§3.1; BRIEF "
          "D12). earlier: every sample taken outside the cycle (data, the SYN, earlier cycles' probes); probes: "
          "earlier cycles' probe RTTs only; data: data segments' only. A cycle's own probes never count "
          "(docs/models.md, \"TCP-Probing\")."),
    Param("metering", v.Choice(METERING), "frame", "What rate_bps meters: frame (headers and payload hold the link) "
          "or payload (only payload bytes take link time; 5 MiB at 2**20 bit/s is Table 1's 40.000 s)."),
    *(p.but(default=1.0) if p.name in ("initial_rto", "min_rto")
      else p.but(rule=v.Nothing("must be None: a transfer's timer is always estimated, by RFC 6298's or Linux's rule"))
      if p.name == "rto" else p for p in TIMER),
    Param("decision", v.Optional(v.Function("must be None (the paper's rule) or a callable returning True or "
                                            "False")), None,
          "TCP-Probing's end-of-cycle rule: None for the paper's (Immediate Recovery when both probe RTTs lie in "
          "[probe_low · best RTT, probe_high · last RTT]), or a callable taking keyword arguments trigger (\"timeout\" "
          "or \"dupacks\"), rtt1, rtt2, best_rtt, last_rtt [s], dupacks, exchanges, duration [s], cwnd, ssthresh and "
          "returning True (Immediate Recovery) or False (Slow Start).", cli=False, sweep=False,
          default_words="None (the paper's rule)"),
    Param("probe_low", v.Real(1e-9, 1e9), 1.0, "The paper's rule's factor on best RTT.",
          unread_when=lambda a: None if a["decision"] is None else "a decision of your own does not read it"),
    Param("probe_high", v.Real(1e-9, 1e9), 1.0, "The paper's rule's factor on last RTT.",
          unread_when=lambda a: None if a["decision"] is None else "a decision of your own does not read it"),
    Param("time_limit", v.Real(1e-3, 1e9, words="must be a finite number in [1e-3, 1e9] (seconds)"), 1e5,
          "Simulated time after which an unfinished transfer stops (the result then says completed=False).", "s"),
    Param("device", v.Instance((str, Device), "must be a Device or a preset name"), "wavelan",
          "A tcpfade.devices.Device or a preset name (tcpfade.devices.PRESETS) for the energy."),
    SEED.but(rule=v.Optional(v.SEED), default=None, default_words="none (needed with a random channel)",
             doc="Seed of the channel's random numbers: the same inputs and seed give the same results. Needed with a "
                 "random channel; a run without losses (channel None) or over a trace draws nothing and takes none."),
    Param("record_frames", v.Flag(), False, "Keep a log of every segment (result.frames).", cli=False, sweep=False),
    WINDOW_TRACE,
), doc="Finite transfers from SYN to the last ACK (tsaoussidis-badr §4).", profiles=PROFILES)


@dataclass(frozen=True, repr=False)
class TransferResult(Record):
    """Result of :func:`simulate_transfer`.

    ``connection_time`` [s] runs from the first SYN to the arrival of the sender's last ACK; ``goodput_bps`` =
    8·size/time; ``overhead_percent`` = 100·(all bytes sent by both transport layers − bytes delivered)/size
    (tsaoussidis-badr §4); ``effort_bytes`` is that total. ``by_kind`` gives (segments, bytes, dropped) per kind
    of segment. Energies are in joules, for the device given. ``completed`` is False when the transfer did not
    end within ``time_limit``: the figures then describe the run up to it.

    Attributes
    ----------
    variant, size_bytes, seed, device
        The call's variant, transfer size, seed and device name; ``parameters`` holds every other parameter.
    completed : bool
        Whether the transfer ended within ``time_limit``.
    connection_time, goodput_bps, overhead_percent : float
        As above [s, bit/s, %].
    effort_bytes, delivered_bytes : int
        Every byte both transport layers sent, and the bytes delivered to the receiving application.
    transmissions, retransmissions, timeouts, fast_retransmits, syn_retransmissions : int
        Data segments sent and re-sent, and the recoveries.
    spurious_timeouts : int
        Of the timeouts, those F-RTO (``frto``) found spurious and undid (Linux's TCPSpuriousRTOs); 0 without it.
    probe_cycles, cycles_after_timeout, cycles_after_dupacks : int
        TCP-Probing's probe cycles, by what started them (tsaoussidis-badr §3).
    immediate_recoveries, slow_starts, probes_sent, probe_restarts : int
        How the cycles ended (the probe cycle's decision), the probe segments sent, and cycles restarted after a
        lost probe.
    energy_joules, energy_sender_joules, energy_receiver_joules, joules_per_bit : float
        Energy of both radios, of each, and per delivered bit.
    by_kind : dict[str, tuple[int, int, int]]
        (segments, bytes, dropped) per kind of segment.
    radios : dict[str, dict[str, float]]
        Per host (``sender``, ``receiver``): time transmitting, receiving and idle [s], frames and bytes each way.
    cycles : pandas.DataFrame
        One row per probe cycle: its trigger, the two probe RTTs, the best and last RTT, its outcome. Built when first
        read, from the core's columns (the dataclass field ``_cycles``, which ``dataclasses.replace`` takes).
    frames : pandas.DataFrame or None
        Every frame on the link, when ``record_frames`` was set.
    trace : pandas.DataFrame or None
        The sender's window over the first ``trace_seconds`` from the end of the handshake, when asked for: the
        columns of :attr:`tcpfade.LinkResult.trace`; :meth:`plot_trace` draws it.
    channel : dict or None
        The channel's ``describe()`` (None: no losses); ``to_dict`` gives it as ``channel_kind`` and
        ``channel_<parameter>`` columns, as every result does.

    Examples
    --------
    >>> r = tcpfade.simulate_transfer("reno", None, size_bytes=100_000)    # no loss
    >>> r.completed, r.delivered_bytes, r.retransmissions
    (True, 100000, 0)
    >>> bool(r.goodput_bps == 8 * r.size_bytes / r.connection_time)
    True
    >>> bool(abs(r.energy_joules - r.energy_sender_joules - r.energy_receiver_joules) < 1e-12)
    True
    """

    variant: str
    size_bytes: int
    seed: int
    completed: bool
    connection_time: float
    goodput_bps: float
    overhead_percent: float
    effort_bytes: int
    delivered_bytes: int
    transmissions: int
    retransmissions: int
    timeouts: int
    fast_retransmits: int
    spurious_timeouts: int
    syn_retransmissions: int
    probe_cycles: int
    cycles_after_timeout: int
    cycles_after_dupacks: int
    immediate_recoveries: int
    slow_starts: int
    probes_sent: int
    probe_restarts: int
    energy_joules: float
    energy_sender_joules: float
    energy_receiver_joules: float
    joules_per_bit: float
    device: str
    by_kind: dict[str, tuple[int, int, int]] = field(repr=False)
    radios: dict[str, dict[str, float]] = field(repr=False)
    parameters: dict[str, Any] = field(repr=False)
    #: The probe cycles' columns as the core returned them: the DataFrame is built when :attr:`cycles` is first read
    #: (building it for every transfer took 40% of a small transfer's time, and a sweep of transfers reads none).
    _cycles: dict[str, Any] = field(repr=False, compare=False)
    frames: pd.DataFrame | None = field(default=None, repr=False, compare=False)
    channel: dict[str, Any] | None = field(default=None, repr=False)
    trace: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    _headline = ("variant", "completed", "connection_time", "goodput_bps", "overhead_percent", "energy_joules")

    @functools.cached_property
    def cycles(self) -> pd.DataFrame:
        """One row per probe cycle: its trigger, the two probe RTTs, the best and last RTT, its outcome."""
        import pandas as pd

        return pd.DataFrame(self._cycles)

    _undefined = {"joules_per_bit": "nothing was delivered: the energy spent bought no bit"}

    def plot_trace(self, path: str | Path | None = None, *, ax=None):
        """Draw :attr:`trace` (:func:`tcpfade.plots.plot_window_trace`): cwnd, ssthresh and the data in flight over
        time, with the fast retransmits and timeouts marked. Written to ``path`` if given (PNG, SVG or PDF); returns
        the matplotlib Figure."""
        return plot_trace_of(self.trace, path, ax, f"{self.variant} ({self.parameters.get('profile')} profile), a "
                                                   f"transfer of {self.size_bytes} bytes")

    def _row(self) -> dict[str, Any]:
        """Parameters, metrics and segment counts by kind as a flat dict (one row of a table)."""
        skip = ("by_kind", "radios", "parameters", "_cycles", "frames", "channel", "trace")
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in skip}
        for name, (segments, nbytes, dropped) in self.by_kind.items():
            out[f"{name}_segments"], out[f"{name}_bytes"], out[f"{name}_dropped"] = segments, nbytes, dropped
        for host, radio in self.radios.items():
            for key, value in radio.items():
                out[f"{host}_{key}"] = value
        for key, value in self.parameters.items():
            out.setdefault(key if key not in out else f"param_{key}", value)
        out.update(channel_columns(self.channel))
        return out

    def segments(self) -> pd.DataFrame:
        """Segments, bytes and drops by kind of segment, one row per kind."""
        import pandas as pd
        return pd.DataFrame([(k, *c) for k, c in self.by_kind.items()],
                            columns=["kind", "segments", "bytes", "dropped"]).set_index("kind")


#: The keyword arguments a decision rule is called with (tcp/probing.rs's measurement).
DECISION_KEYWORDS = ("trigger", "rtt1", "rtt2", "best_rtt", "last_rtt", "dupacks", "exchanges", "duration", "cwnd",
                     "ssthresh")


def _check_decision(decision: Callable[..., Any]) -> None:
    """A decision rule must take every keyword it is called with: refused where it enters, not in the middle of
    the run at the first probe cycle's end."""
    import inspect

    try:
        signature = inspect.signature(decision)
    except (TypeError, ValueError):   # a builtin without a signature: its own call will say
        return
    try:
        signature.bind(**{k: None for k in DECISION_KEYWORDS})
    except TypeError as exc:
        raise v.fail("decision", decision, f"must accept the keyword arguments {', '.join(DECISION_KEYWORDS)} (or "
                                           f"**kwargs): {exc}", kind=v.ParameterTypeError) from None


def _decision(user: Callable[..., Any]) -> Callable[..., Any]:
    """The user's rule, its numpy booleans (what a comparison of numpy values gives) taken as True or False."""
    def rule(**measurement: Any) -> Any:
        answer = user(**measurement)
        return bool(answer) if isinstance(answer, np.bool_) else answer

    return rule


@TRANSFER.entry()
def transfer_arguments(variant: str = "reno", channel: Any = v.UNSET, **given: Any) -> dict[str, Any]:
    """Check and normalize the arguments of :func:`simulate_transfer` without running it (a sweep checks every
    point with it). The result is what the core's binding reads, by field name."""
    a = {"variant": variant, "channel": channel, **given}
    check_recovery_parts(a)
    mss, header_bytes, mtu, rwnd_bytes, size_bytes = (a[k] for k in ("mss", "header_bytes", "mtu", "rwnd_bytes",
                                                                     "size_bytes"))
    min_rto, max_rto, decision, record_frames = a["min_rto"], a["max_rto"], a["decision"], a["record_frames"]
    if a["variant"] != "probing":
        # TCP-Probing's own parameters would be ignored by any other variant: said, not silently dropped.
        for name in ("decision", "best_rtt", "probe_low", "probe_high"):
            if a[name] != TRANSFER[name].default:
                raise v.fail(name, a[name], f"is TCP-Probing's (variant='probing'); {a['variant']} has no probe cycle "
                                            "to use it")
    if decision is not None:
        _check_decision(decision)
    # With timestamps every segment also carries RFC 7323's option, 12 bytes as Linux pads it (the core adds them).
    header_bytes = header_bytes + (TIMESTAMP_OPTION_BYTES if a["timestamps"] else 0)
    if mss + header_bytes > mtu:
        words = (f"mss + header_bytes + the timestamp option's {TIMESTAMP_OPTION_BYTES}" if a["timestamps"]
                 else "mss + header_bytes")
        raise v.fail("mss", mss, f"a segment of {words} = {mss + header_bytes} bytes exceeds the link's "
                                 f"mtu = {mtu} bytes")
    if a["rwnd_rule"] == "linux" and mss > 65_535:
        raise v.fail("mss", mss, "must be at most 65,535 bytes (an IP packet's most) with rwnd_rule='linux', whose "
                                 "windows count bytes")
    wmax = rwnd_bytes // mss
    if wmax < 1:
        raise v.fail("rwnd_bytes", rwnd_bytes, f"must hold one segment at least (mss = {mss})")
    # The sender's buffer holds whole segments with their headers; it caps the window as the receiver's does (the
    # core runs with the cap; the record keeps the receiver's window).
    cap = window_cap(wmax, a["send_buffer"], mss + header_bytes)
    if max_rto < min_rto:
        raise v.fail("max_rto", max_rto, f"must be >= min_rto (= {min_rto:g})")
    segments = -(-size_bytes // mss)
    frames, what = 4.0 * segments, f"a transfer of {segments} segments"
    if a["variant"] == "probing":
        # The probe timer restarts a header-only exchange each time it fires, without backoff (docs/models.md,
        # "TCP-Probing"); it is never shorter than its floor, the clock tick G (or the fixed rto), nor than a round
        # trip (2 · delay). So a run sends at most time_limit / floor probes, and a long data frame ahead of them on
        # the medium can hold them all at once: counted here, refused up front beyond the limits, where a floor of
        # zero once let a run queue 10^8 probes behind a data frame and run out of memory.
        name = "rto" if a["rto"] is not None else "clock_granularity"
        floor = a["rto"] if a["rto"] is not None else max(a["clock_granularity"], 2.0 * a["delay"])
        probes = a["time_limit"] / floor if floor > 0 else math.inf
        probing = f"up to {probes:.3g} probes (time_limit / the probe timer's floor, {floor:g} s)"
        hint = f"; give a larger {name}{' or delay' if name == 'clock_granularity' else ''}, or a shorter time_limit"
        v.work(name, a[name], probes, "events", probing, hint)
        v.memory(name, a[name], probes * IN_FLIGHT_BYTES, f"{probing} all on the medium at once", hint)
        frames += probes
        what += f" and {probing}"
    v.work("size_bytes", size_bytes, frames, "events", what)
    v.memory("record_frames", record_frames, frames * FRAME_BYTES if record_frames else 0.0,
             f"a log of the frames of {what}")
    # A row per ACK or timer at most, so never more than the frames and timers counted above.
    trace_rows = math.ceil(frames) + 16 if a["trace_seconds"] > 0 else 0
    v.memory("trace_seconds", a["trace_seconds"], float(trace_rows) * TRACE_ROW_BYTES, f"a window trace of {what}")
    a.update(trace_rows=trace_rows)
    a.update(wmax=wmax, window_cap=cap,
             initial_ssthresh=float(wmax) if a["initial_ssthresh"] is None else a["initial_ssthresh"],
             device=resolve_device(a["device"], a["rate_bps"]))
    if a["channel"] is v.UNSET:
        raise v.fail("channel", "a missing value", "give a channel (any tcpfade channel, e.g. "
                                                   "ContinuousTwoState.on_off(10.0, 0.1)), or None for no losses")
    if isinstance(a["channel"], ContinuousTwoState):
        a["channel"].check_packet_window("rate_bps", a["rate_bps"], 1.0 / segment_rate(a))
    if a["seed"] is None:
        from ..channels.trace import TraceChannel
        if a["channel"] is not None and not isinstance(a["channel"], TraceChannel):
            # No silent default: two runs that differ only by a forgotten seed would look like replications.
            raise v.fail("seed", "a missing value", f"a transfer over a random channel "
                                                    f"({type(a['channel']).__name__}) needs a seed")
        a["seed"] = 0   # nothing is drawn; the core still takes a number
    return a


@TRANSFER.entry(PROGRESS)
def simulate_transfer(variant: str = "reno", channel: Any = v.UNSET, *,
                      progress: bool | Callable[[float], object] | None = None, **given: Any) -> TransferResult:
    """Simulate one finite transfer, from SYN to the last ACK (tsaoussidis-badr §4).

    Parameters
    ----------
    {parameters}

    Examples
    --------
    >>> r = simulate_transfer("probing", None)
    >>> round(r.connection_time, 3), round(r.overhead_percent, 2)  # Table 1, zero-loss row
    (40.0, 1.48)

    Returns
    -------
    TransferResult: connection time, goodput, overhead, segments by kind, energies, counts of the probe cycles.

    Raises
    ------
    ParameterError
        an unknown variant or device, a parameter out of its range (named with its value).
    """
    a = transfer_arguments.unchecked(variant, channel, **given)   # the entry has checked them
    spec = link_channel_spec(a["channel"], segment_rate(a), "time")
    rule = _decision(a["decision"]) if a["decision"] is not None else (a["probe_low"], a["probe_high"])
    with reporting(progress, "transfer") as report:
        core = {k: x for k, x in a.items() if k not in ("channel", "decision", "device", "window_cap")}
        raw = _core.simulate_transfer({**core, "wmax": a["window_cap"], "receive_buffer": a["wmax"]}, spec, rule, report,
                                      (a["trace_seconds"], a["trace_rows"]) if a["trace_rows"] else None)
    return _result(a, raw)


def segment_rate(a: dict[str, Any]) -> float:
    """Full-size segments per second on the link: the packet clock a fading channel's fD·T is taken at."""
    return a["rate_bps"] / (8.0 * (a["mss"] + a["header_bytes"]))


def _result(a: dict[str, Any], raw: dict[str, Any]) -> TransferResult:
    import pandas as pd
    size, time, dev = a["size_bytes"], raw["time"], a["device"]
    by_kind = {k: tuple(int(x) for x in raw["by_kind"][k]) for k in KINDS}
    effort = sum(c[1] for c in by_kind.values())
    delivered = int(raw["delivered"])
    radios, energies = {}, []
    for host, (tx_time, rx_time, tx_frames, tx_bytes, rx_frames, rx_bytes) in zip(("sender", "receiver"),
                                                                                  raw["radios"]):
        radios[host] = {"tx_time": tx_time, "rx_time": rx_time, "idle_time": max(time - tx_time - rx_time, 0.0),
                        "tx_frames": tx_frames, "tx_bytes": tx_bytes, "rx_frames": rx_frames, "rx_bytes": rx_bytes}
        energies.append(dev.energy(time, tx_time, rx_time, tx_frames, tx_bytes, rx_frames, rx_bytes))
    cycles_after_timeout, cycles_after_dupacks, ir, ss, probes_sent, restarts = raw["probes"]
    frames = None
    if raw["frames"] is not None:
        frames = pd.DataFrame(raw["frames"])
    channel = a["channel"]
    parameters = {k: a[k] for k in ("mss", "header_bytes", "rate_bps", "metering", "delay", "delayed_ack",
                                    "delayed_ack_rule", "rwnd_rule", "drop_acks", "loss_on_air", "rwnd_bytes", "best_rtt",
                                    "time_limit", "profile")}
    # The sender's parts and timer as the profile and the call resolved them (wmax from rwnd_bytes).
    parameters.update({p.name: a[p.name] for p in (*SENDER, *TIMER, SEND_BUFFER)})
    total_energy = energies[0] + energies[1]
    return TransferResult(
        variant=a["variant"], size_bytes=size, seed=a["seed"], completed=bool(raw["completed"]), connection_time=time,
        goodput_bps=8.0 * delivered / time if time > 0 else 0.0,
        overhead_percent=100.0 * (effort - delivered) / size, effort_bytes=effort, delivered_bytes=delivered,
        transmissions=int(raw["transmissions"]), retransmissions=int(raw["retransmissions"]),
        timeouts=int(raw["timeouts"]), fast_retransmits=int(raw["fast_retransmits"]),
        spurious_timeouts=int(raw["spurious_timeouts"]),
        syn_retransmissions=int(raw["syn_retransmissions"]), probe_cycles=int(cycles_after_timeout + cycles_after_dupacks),
        cycles_after_timeout=int(cycles_after_timeout), cycles_after_dupacks=int(cycles_after_dupacks),
        immediate_recoveries=int(ir), slow_starts=int(ss), probes_sent=int(probes_sent), probe_restarts=int(restarts),
        energy_joules=total_energy, energy_sender_joules=energies[0], energy_receiver_joules=energies[1],
        joules_per_bit=total_energy / (8.0 * delivered) if delivered else math.inf, device=dev.name,
        by_kind=by_kind, radios=radios, parameters=parameters, _cycles=raw["cycles"], frames=frames,
        channel=None if channel is None else channel.describe(), trace=window_trace(raw.get("trace")))


#: The counts of a transfer, as :class:`TransferResult` has them: what a sweep's row keeps beside the metrics (with the
#: segments, bytes and drops of each kind, ``<kind>_segments``, ``<kind>_bytes``, ``<kind>_dropped``).
TRANSFER_COUNTS = ("delivered_bytes", "transmissions", "retransmissions", "timeouts", "fast_retransmits",
                   "spurious_timeouts", "syn_retransmissions", "probe_cycles", "cycles_after_timeout",
                   "cycles_after_dupacks", "immediate_recoveries", "slow_starts", "probes_sent", "probe_restarts")

#: The metrics of a transfer, for tables (each a field of :class:`TransferResult`).
TRANSFER_METRICS = ("connection_time", "goodput_bps", "overhead_percent", "effort_bytes", "energy_joules",
                    "joules_per_bit", "retransmissions", "timeouts", "probe_cycles")


@v.checked()
def simulate_transfers(variants: str | list[str], channel: Any = v.UNSET, *,
                       seeds: int | list[int] = 5, progress: bool | Callable[[float], object] | None = None,
                       **kwargs: Any) -> pd.DataFrame:
    """Several transfers as one DataFrame, a row per variant and seed (``seeds`` a count, from 1, or a list).
    Other keyword arguments go to :func:`simulate_transfer` unchanged.

    Parameters
    ----------
    variants : a variant or a list of them.
    channel : as for :func:`simulate_transfer`.
    seeds : a number n of replications (seeds 1..n) or a list of seeds.
    progress : True for a progress bar, or a callable.
    **kwargs : the other keyword arguments of :func:`simulate_transfer`.

    Returns
    -------
    pandas.DataFrame, one row per (variant, seed): :meth:`TransferResult.to_dict`.

    Raises
    ------
    ParameterError
        as :func:`simulate_transfer`, and an empty list of variants or seeds.

    Examples
    --------
    >>> t = tcpfade.simulate_transfers(["reno", "probing"], None, seeds=[1, 2])
    >>> t[["variant", "seed", "completed"]].shape
    (4, 3)
    """
    import pandas as pd
    if not isinstance(variants, str) and not (isinstance(variants, (list, tuple))
                                              and all(isinstance(x, str) for x in variants)):
        raise v.fail("variants", variants, "must be a variant name or a list of them", kind=v.ParameterTypeError)
    names = [variants] if isinstance(variants, str) else list(variants)
    if "seed" in kwargs:
        raise v.fail("seed", kwargs["seed"], "is not a parameter of simulate_transfers: give seeds (a count of "
                                             "replications, seeds 1..n, or a list of seeds)", kind=v.ParameterTypeError)
    if kwargs.get("trace_seconds"):
        raise v.fail("trace_seconds", kwargs["trace_seconds"], "is not kept by simulate_transfers, whose table has a "
                                                               "row per transfer: call simulate_transfer for a trace")
    if isinstance(seeds, bool) or not isinstance(seeds, (int, list, tuple, range)):
        raise v.fail("seeds", seeds, "must be a count or a list of seeds", kind=v.ParameterTypeError)
    seed_list = list(range(1, v.integer("seeds", seeds, 1, 1 << 20) + 1)) if isinstance(seeds, int) else list(seeds)
    if not seed_list or not names:
        raise v.fail("seeds" if not seed_list else "variants", seeds if not seed_list else variants,
                     "must not be empty")
    points = [(name, s) for name in names for s in seed_list]
    rows = []
    with reporting(progress, "transfers") as report:
        for i, (name, s) in enumerate(points):
            rows.append(simulate_transfer(name, channel, seed=s, **kwargs).to_dict())
            if report is not None:
                report((i + 1) / len(points))
    return pd.DataFrame(rows)

