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

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._record import Record
from .._watch import reporting
from ..channels.continuous import ContinuousTwoState
from ..devices import Device, device as resolve_device
from .slotted import VARIANTS

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

#: Segment kinds of the byte accounting, in the core's order.
KINDS = ("syn", "syn_ack", "handshake_ack", "data", "retransmission", "fin", "ack", "probe", "probe_answer",
         "fin_ack", "final_ack")

#: Bytes one recorded frame takes (the core's row and the DataFrame made of it).
FRAME_BYTES = 96

RULES: dict[str, v.Rule] = {
    "variant": v.Choice(VARIANTS, loose=True),
    "channel": v.Optional(v.Instance(ContinuousTwoState, "must be a ContinuousTwoState (or None: no losses)")),
    "size_bytes": v.Integer(1, 1 << 40), "mss": v.Integer(1, 1 << 30), "header_bytes": v.Integer(0, 1 << 16),
    "syn_option_bytes": v.Integer(0, 40), "probe_option_bytes": v.Integer(0, 40), "mtu": v.Integer(1, 1 << 30),
    "rate_bps": v.Real(1.0, 1e12, words="must be a finite number in [1, 1e12] (bits per second)"),
    "delay": v.Real(0.0, 1e4, words="must be a finite number in [0, 1e4] (seconds)"),
    "delayed_ack": v.Optional(v.Real(0.0, 1e3, low_open=True)), "drop_acks": v.Flag(), "loss_on_air": v.Flag(),
    "rwnd_bytes": v.Integer(1, 1 << 40), "dupthresh": v.Integer(1, 1 << 20),
    "initial_ssthresh": v.Optional(v.Real(1.0)), "recover_guard": v.Flag(), "best_rtt": v.Choice(BEST_RTT),
    "metering": v.Choice(METERING),
    "initial_rto": v.Real(1e-6, 1e4, words="must be a finite number in [1e-6, 1e4] (seconds)"),
    "min_rto": v.Real(1e-6, 1e4, words="must be a finite number in [1e-6, 1e4] (seconds)"),
    "max_rto": v.Real(1e-6, 1e5, words="must be a finite number in [1e-6, 1e5] (seconds)"),
    "clock_granularity": v.Real(0.0, 1e3), "max_backoff": v.Integer(1, 1 << 20),
    "decision": v.Optional(v.Callback()), "probe_low": v.Real(1e-9, 1e9), "probe_high": v.Real(1e-9, 1e9),
    "time_limit": v.Real(1e-3, 1e9, words="must be a finite number in [1e-3, 1e9] (seconds)"),
    "device": v.Instance((str, Device), "must be a Device or a preset name"), "seed": v.SEED,
    "record_frames": v.Flag(), "progress": v.PROGRESS,
}


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
        One row per probe cycle: its trigger, the two probe RTTs, the best and last RTT, its outcome.
    frames : pandas.DataFrame or None
        Every frame on the link, when ``record_frames`` was set.

    Examples
    --------
    >>> r = tcpfade.simulate_transfer("reno", size_bytes=100_000)          # no loss
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
    cycles: pd.DataFrame = field(repr=False, compare=False)
    frames: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    _headline = ("variant", "completed", "connection_time", "goodput_bps", "overhead_percent", "energy_joules")

    def to_dict(self) -> dict[str, Any]:
        """Parameters, metrics and segment counts by kind as a flat dict (one row of a table)."""
        skip = ("by_kind", "radios", "parameters", "cycles", "frames")
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k not in skip}
        for name, (segments, nbytes, dropped) in self.by_kind.items():
            out[f"{name}_segments"], out[f"{name}_bytes"], out[f"{name}_dropped"] = segments, nbytes, dropped
        for host, radio in self.radios.items():
            for key, value in radio.items():
                out[f"{host}_{key}"] = value
        for key, value in self.parameters.items():
            out.setdefault(key if key not in out else f"param_{key}", value)
        return out

    def segments(self) -> pd.DataFrame:
        """Segments, bytes and drops by kind of segment, one row per kind."""
        import pandas as pd
        return pd.DataFrame([(k, *c) for k, c in self.by_kind.items()],
                            columns=["kind", "segments", "bytes", "dropped"]).set_index("kind")


@v.checked(**RULES)
def transfer_arguments(variant: str = "reno", channel: ContinuousTwoState | None = None, *,
                       size_bytes: int = SIZE_BYTES, mss: int = MSS, header_bytes: int = HEADER_BYTES,
                       syn_option_bytes: int = 4, probe_option_bytes: int = 8, mtu: int = 65_535,
                       rate_bps: float = RATE_BPS, delay: float = 0.0, delayed_ack: float | None = 0.2,
                       drop_acks: bool = True, loss_on_air: bool = False, rwnd_bytes: int = 65_535,
                       dupthresh: int = 3, initial_ssthresh: float | None = None, recover_guard: bool = False,
                       best_rtt: str = "earlier", metering: str = "frame",
                       initial_rto: float = 1.0, min_rto: float = 1.0, max_rto: float = 64.0,
                       clock_granularity: float = 0.01, max_backoff: int = 64,
                       decision: Callable[..., bool] | None = None, probe_low: float = 1.0, probe_high: float = 1.0,
                       time_limit: float = 1e5, device: str | Device = "wavelan", seed: int = 0,
                       record_frames: bool = False, progress: Any = None) -> dict[str, Any]:
    """Check and normalize the arguments of :func:`simulate_transfer` without running it (a sweep checks every
    point with it)."""
    if mss + header_bytes > mtu:
        raise v.fail("mss", mss, f"a segment of mss + header_bytes = {mss + header_bytes} bytes exceeds the link's "
                                 f"mtu = {mtu} bytes")
    wmax = rwnd_bytes // mss
    if wmax < 1:
        raise v.fail("rwnd_bytes", rwnd_bytes, f"must hold one segment at least (mss = {mss})")
    if max_rto < min_rto:
        raise v.fail("max_rto", max_rto, f"must be >= min_rto (= {min_rto:g})")
    if decision is True or decision is False:
        raise v.fail("decision", decision, "must be None (the paper's rule) or a callable returning True or False",
                     kind=v.ParameterTypeError)
    segments = -(-size_bytes // mss)
    v.work("size_bytes", size_bytes, 4.0 * segments, "events", f"a transfer of {segments} segments")
    v.memory("record_frames", record_frames, 4.0 * segments * FRAME_BYTES if record_frames else 0.0,
             f"a log of the frames of {segments} segments")
    return {
        "variant": variant, "channel": channel, "size_bytes": size_bytes, "mss": mss, "header_bytes": header_bytes,
        "syn_option_bytes": syn_option_bytes, "probe_option_bytes": probe_option_bytes, "mtu": mtu,
        "rate_bps": rate_bps, "delay": delay, "delayed_ack": delayed_ack, "drop_acks": drop_acks,
        "loss_on_air": loss_on_air, "rwnd_bytes": rwnd_bytes, "wmax": wmax, "dupthresh": dupthresh,
        "initial_ssthresh": float(wmax) if initial_ssthresh is None else initial_ssthresh,
        "recover_guard": recover_guard, "best_rtt": best_rtt, "metering": metering,
        "rfc6298": (initial_rto, min_rto, max_rto, clock_granularity, max_backoff),
        "decision": decision, "probe_low": probe_low, "probe_high": probe_high, "time_limit": time_limit,
        "device": resolve_device(device, rate_bps), "seed": seed, "record_frames": record_frames,
    }


def simulate_transfer(variant: str = "reno", channel: ContinuousTwoState | None = None, *,
                      size_bytes: int = SIZE_BYTES, mss: int = MSS, header_bytes: int = HEADER_BYTES,
                      syn_option_bytes: int = 4, probe_option_bytes: int = 8, mtu: int = 65_535,
                      rate_bps: float = RATE_BPS, delay: float = 0.0, delayed_ack: float | None = 0.2,
                      drop_acks: bool = True, loss_on_air: bool = False, rwnd_bytes: int = 65_535,
                      dupthresh: int = 3, initial_ssthresh: float | None = None, recover_guard: bool = False,
                      best_rtt: str = "earlier", metering: str = "frame",
                      initial_rto: float = 1.0, min_rto: float = 1.0, max_rto: float = 64.0,
                      clock_granularity: float = 0.01, max_backoff: int = 64,
                      decision: Callable[..., bool] | None = None, probe_low: float = 1.0, probe_high: float = 1.0,
                      time_limit: float = 1e5, device: str | Device = "wavelan", seed: int = 0,
                      record_frames: bool = False,
                      progress: bool | Callable[[float], object] | None = None) -> TransferResult:
    """Simulate one finite transfer, from SYN to the last ACK (tsaoussidis-badr §4).

    Parameters
    ----------
    variant : "tahoe", "reno", "newreno", "probing" (TCP-Probing) or "oldtahoe".
    channel : the error process, e.g. ``ContinuousTwoState.on_off(10.0, 0.1)`` (VDELDROP: on/off phases of mean
        10 s, 10% of segments dropped in the on phase); None: no losses.
    size_bytes : bytes the application sends (Table 1: 5,242,880).
    mss, header_bytes : payload bytes per segment at most, and header bytes of every segment.
    syn_option_bytes, probe_option_bytes : option bytes of SYN/SYN-ACK (MSS option) and of each probe segment
        (TCP-Probing's option: type, length, id; tsaoussidis-badr §3.1).
    mtu : the largest segment the link carries, headers included [bytes].
    rate_bps : link rate [bit/s]; the link is one half-duplex medium shared by both directions.
    delay : one-way propagation delay [s].
    delayed_ack : delayed-ACK timeout [s] (an ACK per two segments, RFC 1122 §4.2.3.2); None: an ACK per segment.
    drop_acks : the channel drops the receiver's segments too (VDELDROP on both hosts); else only the sender's.
    loss_on_air : a dropped segment still occupies the link and both radios (a wireless loss); default: it is
        dropped between TCP and IP of the sending host, as VDELDROP did.
    rwnd_bytes : the receiver's advertised window [bytes]; Wmax = rwnd_bytes // mss segments.
    dupthresh : duplicate-ACK threshold K (fast retransmit; TCP-Probing's dupack-triggered cycle).
    initial_ssthresh : initial Wth [segments]; default Wmax.
    recover_guard : NewReno only: RFC 6582 §3.2 steps 2 and 4 (see :func:`tcpfade.simulate`).
    best_rtt : TCP-Probing only: which RTT samples make *best RTT*, the lower bound of the paper's end-of-cycle
        rule (§3.1; BRIEF D12). ``"earlier"`` (default): every sample taken outside the cycle (data, the SYN,
        earlier cycles' probes); ``"probes"``: earlier cycles' probe RTTs only, probes judged against probes;
        ``"data"``: data segments' only. A cycle's own probes never count. The choice and its measured effect: docs/models.md, "TCP-Probing".
    metering : what ``rate_bps`` meters: ``"frame"`` (default: headers and payload hold the link) or ``"payload"``
        (only payload bytes take link time; 5 MiB at 2**20 bit/s is Table 1's 40.000 s).
    initial_rto, min_rto, max_rto, clock_granularity, max_backoff : RFC 6298's timer (defaults: its 1 s initial
        and minimum RTO).
    decision : TCP-Probing's end-of-cycle rule: None for the paper's (Immediate Recovery when both probe RTTs lie
        in [probe_low · best RTT, probe_high · last RTT]), or a callable taking keyword arguments ``trigger``
        ("timeout" or "dupacks"), ``rtt1``, ``rtt2``, ``best_rtt``, ``last_rtt`` [s], ``dupacks``, ``exchanges``,
        ``duration`` [s], ``cwnd``, ``ssthresh`` and returning True (Immediate Recovery) or False (Slow Start).
    probe_low, probe_high : the paper's rule's factors on best RTT and last RTT.
    time_limit : simulated time after which an unfinished transfer stops [s]; the result then says
        ``completed=False``.
    device : a :class:`~tcpfade.devices.Device` or a preset name (:data:`tcpfade.devices.PRESETS`) for the energy.
    seed : seed of the channel.
    record_frames : keep a log of every segment (``result.frames``).
    progress : True for a progress bar, or a callable that gets the fraction done; Ctrl-C stops a run at once.

    Examples
    --------
    >>> r = simulate_transfer("probing")
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
    a = transfer_arguments(variant, channel, size_bytes=size_bytes, mss=mss, header_bytes=header_bytes,
                           syn_option_bytes=syn_option_bytes, probe_option_bytes=probe_option_bytes, mtu=mtu,
                           rate_bps=rate_bps, delay=delay, delayed_ack=delayed_ack, drop_acks=drop_acks,
                           loss_on_air=loss_on_air, rwnd_bytes=rwnd_bytes, dupthresh=dupthresh,
                           initial_ssthresh=initial_ssthresh, recover_guard=recover_guard, best_rtt=best_rtt,
                           metering=metering, initial_rto=initial_rto,
                           min_rto=min_rto, max_rto=max_rto, clock_granularity=clock_granularity,
                           max_backoff=max_backoff, decision=decision, probe_low=probe_low, probe_high=probe_high,
                           time_limit=time_limit, device=device, seed=seed, record_frames=record_frames,
                           progress=progress)
    ch = a["channel"]
    spec = None if ch is None else (ch.mean_good, ch.mean_bad, ch.loss_rule, ch.loss_good, ch.loss_bad)
    rule = a["decision"] if a["decision"] is not None else (a["probe_low"], a["probe_high"])
    with reporting(progress, "transfer") as report:
        raw = _core.simulate_transfer(
            a["variant"], (a["size_bytes"], a["mss"], a["header_bytes"], a["syn_option_bytes"], a["probe_option_bytes"]),
            (a["rate_bps"], a["delay"], a["delayed_ack"], a["drop_acks"], a["loss_on_air"], a["time_limit"],
             a["metering"]),
            a["wmax"], a["dupthresh"], a["initial_ssthresh"], a["recover_guard"], a["best_rtt"], a["rfc6298"], spec,
            rule,
            a["record_frames"], a["seed"], report)
    return _result(a, raw)


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
    cycles = pd.DataFrame(raw["cycles"])
    frames = None
    if raw["frames"] is not None:
        frames = pd.DataFrame(raw["frames"])
    channel = a["channel"]
    parameters = {k: a[k] for k in ("mss", "header_bytes", "rate_bps", "metering", "delay", "delayed_ack",
                                    "drop_acks", "loss_on_air", "rwnd_bytes", "wmax", "dupthresh", "best_rtt",
                                    "time_limit")}
    parameters.update(zip(("initial_rto", "min_rto", "max_rto", "clock_granularity", "max_backoff"), a["rfc6298"]))
    if channel is not None:
        parameters.update(mean_good=channel.mean_good, mean_bad=channel.mean_bad, loss_rule=channel.loss_rule,
                          loss_good=channel.loss_good, loss_bad=channel.loss_bad)
    total_energy = energies[0] + energies[1]
    return TransferResult(
        variant=a["variant"], size_bytes=size, seed=a["seed"], completed=bool(raw["completed"]), connection_time=time,
        goodput_bps=8.0 * delivered / time if time > 0 else 0.0,
        overhead_percent=100.0 * (effort - delivered) / size, effort_bytes=effort, delivered_bytes=delivered,
        transmissions=int(raw["transmissions"]), retransmissions=int(raw["retransmissions"]),
        timeouts=int(raw["timeouts"]), fast_retransmits=int(raw["fast_retransmits"]),
        syn_retransmissions=int(raw["syn_retransmissions"]), probe_cycles=int(cycles_after_timeout + cycles_after_dupacks),
        cycles_after_timeout=int(cycles_after_timeout), cycles_after_dupacks=int(cycles_after_dupacks),
        immediate_recoveries=int(ir), slow_starts=int(ss), probes_sent=int(probes_sent), probe_restarts=int(restarts),
        energy_joules=total_energy, energy_sender_joules=energies[0], energy_receiver_joules=energies[1],
        joules_per_bit=total_energy / (8.0 * delivered) if delivered else math.inf, device=dev.name,
        by_kind=by_kind, radios=radios, parameters=parameters, cycles=cycles, frames=frames)


#: The metrics of a transfer, for tables (each a field of :class:`TransferResult`).
TRANSFER_METRICS = ("connection_time", "goodput_bps", "overhead_percent", "effort_bytes", "energy_joules",
                    "joules_per_bit", "retransmissions", "timeouts", "probe_cycles")


def simulate_transfers(variants: str | list[str], channel: ContinuousTwoState | None = None, *,
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
    >>> t = tcpfade.simulate_transfers(["reno", "probing"], seeds=[1, 2])
    >>> t[["variant", "seed", "completed"]].shape
    (4, 3)
    """
    import pandas as pd
    names = [variants] if isinstance(variants, str) else list(variants)
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

