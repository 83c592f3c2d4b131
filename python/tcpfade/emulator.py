"""Real TCP stacks over tcpfade's channels: the link emulator (``crates/tcpfade-emulator``).

Two network namespaces, a sender (10.77.0.1) and a receiver (10.77.0.2), joined through TUN devices by a
user-space link in each direction with a rate, a one-way delay, a DropTail buffer and a loss decision per packet
from any tcpfade channel, the same ``LinkChannel`` interface :func:`tcpfade.simulate_link` uses. No packet goes
through Python. :func:`emulate` runs a kernel TCP bulk transfer with the kernel's own congestion control and reports
from the sender's TCP_INFO; :func:`emulate_command` runs any program over the link. Both need root,
``/dev/net/tun`` and network namespaces (:class:`tcpfade.errors.EmulatorError` says what is missing), create
nothing outside their namespaces, and remove everything when they end, however they end.

The parameters are :func:`tcpfade.simulate_link`'s, with its names and units: ``rate`` μ in packets/s of
``packet_bytes`` (here the MTU, so a full TCP segment is one packet), τ the round-trip propagation delay (half on
each way), the buffer B (or β = B/μT), the channel of the data path.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _core
from . import _validate as v
from ._record import Record
from ._watch import reporting
from .channels.base import SlotChannel
from .channels.continuous import ContinuousTwoState
from ._params import Model, Param
from .errors import EmulatorError
from .tcp.link import LINK, link_buffer, link_channel, link_channel_spec
from .tcp.parameters import PROGRESS

if TYPE_CHECKING:
    import pandas as pd

#: The sender's and the receiver's addresses, inside their namespaces (programs get them as $TCPFADE_SENDER and
#: $TCPFADE_RECEIVER).
SENDER_ADDR, RECEIVER_ADDR = _core.SENDER_ADDR, _core.RECEIVER_ADDR

#: The fastest link accepted [bit/s]. Measured on this project's 2-core machine (``python benchmarks/bench_python.py
#: --only emulator``; docs/performance.md): the rate is kept within 1% up to 600 Mb/s, not at 700 (0.89); the
#: limit leaves a margin for a busier machine.
MAX_RATE_BPS = 5e8

#: Bytes one logged decision takes (time, size, fate, queue).
DECISION_BYTES = 24

FATES = ("delivered", "lost", "dropped")

#: A tcpfade channel on either path (the words of the emulator's errors).
_CHANNEL = v.Instance((ContinuousTwoState, SlotChannel), "must be a tcpfade channel")

#: :func:`emulate`'s parameters: the link's, declared once in :data:`tcpfade.tcp.link.LINK` (the simulator's
#: names and units, so that a measurement and a simulation are called alike), where the emulator accepts less
#: (a delay a real clock can keep, an MTU) with its own rule, and the kernel's TCP settings.
EMULATE = Model("emulate", (
    # Not ``variant``: a kernel's "reno" is NewReno with SACK, RACK and PRR, not the papers' Reno (docs/glossary.md).
    # Linux's names are at most 15 characters (TCP_CA_NAME_MAX, include/net/tcp.h), lower case, digits, underscores.
    Param("congestion_control", v.Name(15, "must be the name of a congestion control of this kernel (reno, cubic, "
                                           "bbr, ...: lower-case letters, digits and _, at most 15)"), "reno",
          "The sender's congestion control, by the kernel's name (net.ipv4.tcp_congestion_control; what /proc/sys/"
          "net/ipv4/tcp_available_congestion_control lists; another may need modprobe tcp_<name>).",
          positional=True, old_names=("variant",)),
    LINK["rate"].but(doc="Link rate μ, in packets of packet_bytes; rate × packet_bytes × 8 at most 5e8 bit/s."),
    LINK["tau"].but(rule=v.Real(0.0, 10.0, words="must be a finite number in [0, 10] (seconds)"),
                    doc="Round-trip propagation delay τ, half on each way; T = τ + 1/μ."),
    LINK["packet_bytes"].but(rule=v.Integer(256, 9000), default=1500,
                             doc="The MTU of both sides: one full TCP segment is one packet of the link."),
    LINK["buffer"].but(rule=v.Optional(v.Integer(0, 1 << 20)),
                       doc="The data path's DropTail buffer B, not counting the packet on the link (or beta; not "
                           "both)."),
    LINK["beta"],
    LINK["mean_good"], LINK["mean_bad"],
    LINK["channel"].but(rule=v.OrUnset(v.Optional(_CHANNEL)),
                        doc="Any tcpfade channel for the data path, as in simulate_link (Bernoulli and "
                            "Gilbert-Elliott per packet, fading in real time at fD = fdt × rate Hz, traces); None "
                            "for a link without losses. A measurement never picks a channel for you: give one, "
                            "mean_good and mean_bad, or None."),
    Param("ack_channel", v.Optional(_CHANNEL), None, "A channel for the ACK path (default: none).", cli=False,
          sweep=False),
    LINK["channel_clock"],
    Param("duration", v.Real(0.1, 86_400.0, words="must be a finite number in [0.1, 86400] (seconds)"), 30.0,
          "Length of the transfer, in real time: the call takes this long.", "s"),
    LINK["warmup"].but(doc="Unmeasured start of the transfer."),
    LINK["seed"].but(doc="Seed of the channels (the kernel's TCP is not seeded: a run is not bit-reproducible)."),
    Param("sack", v.Flag(), False, "The kernel's SACK in both namespaces (off: the papers' TCP has none)."),
    Param("timestamps", v.Flag(), True, "The kernel's TCP timestamps in both namespaces (Linux's default: on)."),
    Param("sysctls", v.Optional(v.Instance(dict, "must be a dict of net.* settings, such as "
                                                 "{'net.ipv4.tcp_frto': 0}")), None,
          "Further network settings of both namespaces, by name: {'net.ipv4.tcp_frto': 0} turns F-RTO off.",
          cli=False, sweep=False),
    Param("log", v.Optional(v.FilePath("write")), None, "Also write every decision of both links to this .csv or "
                                                         ".parquet file.", sweep=False),
), doc="Linux's own TCP over the emulated fading link, in real time (root, /dev/net/tun and network namespaces).")

#: What each parameter accepts (:func:`emulate_command` shares the link's).
RULES: dict[str, v.Rule] = EMULATE.rules


@dataclass(frozen=True, repr=False)
class EmulationResult(Record):
    """Result of :func:`emulate`: a kernel TCP bulk transfer over the emulated link, measured after the warm-up.

    Attributes
    ----------
    congestion_control, rate, tau, packet_bytes, buffer, duration, warmup, seed, sack, timestamps
        The call's parameters (``congestion_control``: the kernel's module; ``buffer`` B [packets]).
    goodput : float
        TCP payload the link delivered for the first time while the run was measured, in full segments per packet
        time 1/μ (1 = every packet of the link a new full segment). Counted at the link as each packet's
        transmission ends, so at most 1 + 1/(μ × the measured time): :func:`simulate_link`'s ``new_received_rate``,
        which equals its ``goodput`` unless packets wait behind holes at the receiver (docs/glossary.md).
    goodput_bps : float
        The same payload in bit/s.
    mss : int
        The sender's MSS [bytes] (``packet_bytes`` less 40 bytes of headers, and 12 with timestamps).
    retransmissions, timeouts : int
        Segments the sender retransmitted, and its RTO expirations (TCP_INFO's tcpi_total_retrans and, from Linux
        6.7, tcpi_total_rto; None before).
    rtt, min_rtt : float
        The sender's smoothed and smallest RTT at the end [s].
    channel_loss_rate, buffer_loss_rate : float
        Of the data path's packets: the share the channel lost on the link, and the share the full buffer dropped.
    link_packets : int
        Packets that reached the data path's link.
    lateness_mean, lateness_max : float
        How late the data path wrote its packets against the configured schedule [s] (the emulator's timing).
    link_cpu_seconds : float
        CPU time the two link threads used [s] (the emulator's cost; the kernel's TCP is not in it).
    log : pandas.DataFrame
        Every decision of both links: direction, time [s], bytes, fate (delivered, lost, dropped), queue.
    channel : dict or None
        The data path's channel, its ``describe()`` (None: no losses): ``channel_kind`` and ``channel_<parameter>``
        columns in ``to_dict``.

    Examples
    --------
    >>> r = tcpfade.emulate("reno", rate=125, tau=0.04, buffer=8, channel=None, duration=4, seed=1)
    >>> r.channel_loss_rate, r.log.direction.unique().tolist()
    (0.0, ['forward', 'reverse'])

    ``r.goodput`` is a real-time measurement (0.96-0.98 for this link). It counts payload where the link delivers
    it: counted where the receiver takes data in order, a 2-s run whose warm-up ended during slow start's first
    loss recovery measured 1.04-1.07, the data that had waited behind the hole counted in the interval (issue 34).
    """

    congestion_control: str
    rate: float
    tau: float
    packet_bytes: int
    buffer: int
    duration: float
    warmup: float
    seed: int
    sack: bool
    timestamps: bool
    goodput: float
    goodput_bps: float
    mss: int
    retransmissions: int
    timeouts: int | None
    rtt: float
    min_rtt: float
    channel_loss_rate: float
    buffer_loss_rate: float
    link_packets: int
    lateness_mean: float
    lateness_max: float
    link_cpu_seconds: float
    log: pd.DataFrame = field(repr=False)
    channel: dict[str, Any] | None = field(repr=False, default=None)

    @property
    def variant(self) -> str:
        """Former name of :attr:`congestion_control` (one release, with a FutureWarning)."""
        import warnings

        warnings.warn("variant is now called congestion_control (the kernel's module, not one of the papers' "
                      "variants; the old name goes in the next release)", FutureWarning, stacklevel=2)
        return self.congestion_control

    _headline = ("congestion_control", "goodput", "retransmissions", "timeouts", "rtt", "channel_loss_rate")
    _undefined = {**dict.fromkeys(("channel_loss_rate", "buffer_loss_rate", "lateness_mean", "lateness_max"), "the data path's link carried no packet")}


@dataclass(frozen=True, repr=False)
class CommandResult(Record):
    """Result of :func:`emulate_command`: the program's exit status and how long it ran, and the links' logs.

    Attributes
    ----------
    returncode : int
        The program's exit status.
    seconds : float
        How long the emulation ran [s].
    channel_loss_rate, buffer_loss_rate : float
        Of the data path's packets, as in :class:`EmulationResult`.
    link_packets : int
        Packets that reached the data path's link.
    log : pandas.DataFrame
        Every decision of both links.

    Examples
    --------
    >>> tcpfade.emulate_command(["sh", "-c", "exit 3"], rate=125, tau=0.04, channel=None, seed=1).returncode
    3
    """

    returncode: int
    seconds: float
    channel_loss_rate: float
    buffer_loss_rate: float
    link_packets: int
    log: pd.DataFrame = field(repr=False)

    _headline = ("returncode", "seconds", "link_packets", "channel_loss_rate")
    _undefined = {**dict.fromkeys(("channel_loss_rate", "buffer_loss_rate"), "the data path's link carried no packet")}


@v.checked()
def congestion_controls() -> tuple[str, ...]:
    """The congestion controls this kernel offers now (``/proc/sys/net/ipv4/tcp_available_congestion_control``;
    another one may be a module to load first: ``modprobe tcp_<name>``)."""
    try:
        return tuple(Path("/proc/sys/net/ipv4/tcp_available_congestion_control").read_text().split())
    except OSError:
        return ()


def _directions(rate: float, tau: float, packet_bytes: int, buffer: int | None, beta: float | None,
                mean_good: float | None, mean_bad: float | None, channel, ack_channel, channel_clock: str,
                seed: int) -> tuple[tuple, tuple, int, Any]:
    """The two directions as the core takes them, the buffer, and the data path's channel."""
    rate_bps = rate * packet_bytes * 8.0
    if rate_bps > MAX_RATE_BPS:
        raise v.fail("rate", rate, f"gives {rate_bps:.4g} bit/s with packet_bytes = {packet_bytes}: the emulator keeps "
                                   f"rates up to {MAX_RATE_BPS:.0e} bit/s within 1%")
    buffer = link_buffer(buffer, beta, rate * (tau + 1.0 / rate), high=1 << 20)
    data = link_channel(mean_good, mean_bad, channel, required=False, any_kind=True)
    for path in (data, ack_channel):
        if isinstance(path, ContinuousTwoState):
            path.check_packet_window("rate", rate, 1.0 / rate)
    forward = (rate_bps, tau / 2.0, buffer, link_channel_spec(data, rate, channel_clock), seed)
    # The ACK path: as fast, never full, lossless unless asked; its own channel stream.
    reverse = (rate_bps, tau / 2.0, 1 << 20, link_channel_spec(ack_channel, rate, channel_clock),
               (seed + 1) % 2**64)
    return forward, reverse, buffer, data


def _stack(packet_bytes: int, sack: bool, timestamps: bool, sysctls: dict | None) -> tuple:
    """The kernel's side of both namespaces as the core takes it: MTU, SACK, timestamps, further net.* settings."""
    extra = []
    for key, value in (sysctls or {}).items():
        if not isinstance(key, str) or not key.startswith("net.") or ".." in key or "/" in key:
            raise v.fail("sysctls", key, "must name a network setting of the namespace, such as 'net.ipv4.tcp_frto'")
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise v.fail(f"sysctls[{key!r}]", value, "must be an integer or a string")
        extra.append((key.replace(".", "/"), str(value)))
    return packet_bytes, sack, timestamps, extra


def _log_frame(raw: dict) -> pd.DataFrame:
    import pandas as pd

    parts = []
    for direction in ("forward", "reverse"):
        d = raw[direction]
        parts.append(pd.DataFrame({"direction": direction, "time": d["time"], "bytes": d["bytes"],
                                   "fate": pd.Categorical.from_codes(d["fate"], FATES), "queue": d["queue"],
                                   "departed": d["departed"], "new_bytes": d["new_bytes"]}))
    return pd.concat(parts, ignore_index=True)


def _first_delivered(raw: dict) -> tuple[int, float]:
    """The TCP payload the data path delivered for the first time while the run was measured, and that time [s]:
    packets whose transmission ended between the two snapshots, on the links' clock. Counted at the link, this
    is data delivered once within the interval; counted where the receiver takes data in order, the data that
    crossed the link before the warm-up ended and waited behind a hole would be counted too, and a run whose
    warm-up ends during a loss recovery measured goodputs above 1 (issue 34)."""
    fwd = raw["forward"]
    start, end = raw["measured_from"], raw["measured_to"]
    inside = (fwd["departed"] >= start) & (fwd["departed"] < end)      # NaN (dropped) is outside
    return int(fwd["new_bytes"][inside].sum()), end - start


def _shares(raw: dict) -> tuple[float, float, int]:
    fate = raw["forward"]["fate"]
    n = int(fate.size)
    on_link = int((fate != 2).sum())
    lost = float((fate == 1).sum()) / on_link if on_link else math.nan
    dropped = float((fate == 2).sum()) / n if n else math.nan
    return lost, dropped, n


def _log_path(log: Path | None) -> Path | None:
    """The log's path, its format checked before the run (a Parquet log needs pyarrow: said now, not after)."""
    from ._io import TABLE_FORMATS as EXPORT_FORMATS

    if log is not None:
        if log.suffix.lower() not in EXPORT_FORMATS:
            raise v.fail("log", str(log), "must end in " + " or ".join(EXPORT_FORMATS))
        if log.suffix.lower() == ".parquet" and importlib.util.find_spec("pyarrow") is None:
            raise v.fail("log", str(log), "a Parquet log needs pyarrow (pip install 'tcpfade[parquet]')")
    return log


def _write_log(frame: pd.DataFrame, path: Path | None) -> None:
    if path is not None:
        from ._io import write_table

        write_table(frame, path, "log")


#: Linux's capability bits (linux/capability.h) the emulator needs: namespaces, and devices and settings in them.
_CAP_NET_ADMIN, _CAP_SYS_ADMIN = 12, 21


@v.checked()
def machine_problem() -> str | None:
    """Why this machine cannot run the emulator (root's capabilities, /dev/net/tun, network namespaces), in the
    core's words, or None when it can. Only a look: nothing is set up. A sweep or a reproduction asks before its
    first run, so that a study of many runs fails at once, not point by point."""
    import os

    try:
        status = Path("/proc/self/status").read_text()
        caps = int(next(line.split()[1] for line in status.splitlines() if line.startswith("CapEff:")), 16)
    except (OSError, StopIteration, ValueError):
        caps = ~0 if os.geteuid() == 0 else 0   # no /proc status: judge by the user alone
    if not (caps >> _CAP_SYS_ADMIN) & 1 or not (caps >> _CAP_NET_ADMIN) & 1:
        return "the emulator needs root (CAP_SYS_ADMIN and CAP_NET_ADMIN): run it as root"
    if not Path("/dev/net/tun").exists():
        return "the link emulator cannot run: this machine has no /dev/net/tun (modprobe tun)"
    if not Path("/proc/self/ns/net").exists():
        return "the link emulator cannot run: this kernel has no network namespaces"
    return None


@v.checked()
def check_machine() -> None:
    """Raise :class:`tcpfade.errors.EmulatorError` saying what is missing when this machine cannot run the
    emulator (:func:`machine_problem`)."""
    problem = machine_problem()
    if problem is not None:
        raise EmulatorError(problem)


@EMULATE.entry()
def emulation_arguments(congestion_control: str = "reno", **given: Any) -> dict[str, Any]:
    """Check the arguments of :func:`emulate` without running anything: the same errors, raised the same way,
    and the arguments normalized (defaults filled in, the buffer and the channel built, both directions as the
    core takes them). A sweep checks every point with it."""
    a = {"congestion_control": congestion_control, **given}
    offered = congestion_controls()
    if offered and congestion_control not in offered:
        raise v.fail("congestion_control", congestion_control, "must be a congestion control this kernel offers: "
                     + ", ".join(offered) + f" (another may need modprobe tcp_{congestion_control})")
    duration = a["duration"]
    warmup = duration / 10.0 if a["warmup"] is None else a["warmup"]
    if warmup >= duration:
        raise v.fail("warmup", warmup, f"must be < duration (= {duration:g})")
    path = _log_path(a["log"])
    stack = _stack(a["packet_bytes"], a["sack"], a["timestamps"], a["sysctls"])
    forward, reverse, buffer, data = _directions(a["rate"], a["tau"], a["packet_bytes"], a["buffer"], a["beta"],
                                                 a["mean_good"], a["mean_bad"], a["channel"], a["ack_channel"],
                                                 a["channel_clock"], a["seed"])
    # The log lives in memory: refuse a run whose logs could not fit (the link's packets at full rate, both ways).
    v.memory("duration", duration, 2.0 * duration * a["rate"] * DECISION_BYTES * 2,
             f"the logs of a {duration:g}-s run")
    a.update(warmup=warmup, log=path, stack=stack, forward=forward, reverse=reverse, buffer=buffer, channel=data)
    return a


@EMULATE.entry(PROGRESS)
def emulate(congestion_control: str = "reno", *, progress: bool | Callable[[float], object] | None = None,
            **given: Any) -> EmulationResult:
    """Run a kernel TCP bulk transfer over the emulated fading link and measure it.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    EmulationResult: goodput (normalized as :func:`tcpfade.simulate_link`'s, and in bit/s), the sender's
    retransmissions, timeouts and RTT from TCP_INFO, loss shares from the link's log, the log itself.

    Raises
    ------
    ParameterError
        a parameter out of its range, a congestion control the kernel does not offer, a rate the emulator cannot
        keep.
    EmulatorError
        not root, no /dev/net/tun or no network namespaces; a step the operating system refused.

    Examples
    --------
    >>> r = tcpfade.emulate("reno", rate=125, tau=0.04, buffer=8, channel=tcpfade.Bernoulli(0.02),
    ...                     duration=4, seed=1)
    >>> r.retransmissions > 0 and r.channel_loss_rate > 0      # lost packets are sent again
    True
    """
    a = emulation_arguments.unchecked(congestion_control, **given)   # the entry has checked them
    rate, duration, warmup, data = a["rate"], a["duration"], a["warmup"], a["channel"]
    with reporting(progress, "emulated time") as report:
        raw = _core.emulate_bulk(a["forward"], a["reverse"], a["stack"], congestion_control, duration, warmup, report)
    frame = _log_frame(raw)
    _write_log(frame, a["log"])
    start, end = raw["at_warmup"], raw["at_end"]
    lost, dropped, n = _shares(raw)
    late = raw["forward"]["lateness"]
    mss = int(end["mss"])
    delivered, measured = _first_delivered(raw)
    timeouts = None if end["timeouts"] is None else int(end["timeouts"] - start["timeouts"])
    return EmulationResult(
        congestion_control=congestion_control, rate=rate, tau=a["tau"], packet_bytes=a["packet_bytes"], buffer=a["buffer"],
        duration=duration, warmup=warmup, seed=a["seed"], sack=a["sack"], timestamps=a["timestamps"],
        goodput=delivered / mss / (rate * measured), goodput_bps=delivered * 8.0 / measured,
        mss=mss, retransmissions=int(end["retransmissions"] - start["retransmissions"]), timeouts=timeouts,
        rtt=float(end["rtt"]), min_rtt=float(end["min_rtt"]), channel_loss_rate=lost, buffer_loss_rate=dropped,
        link_packets=n, lateness_mean=float(late.mean()) if late.size else math.nan,
        lateness_max=float(late.max()) if late.size else math.nan,
        link_cpu_seconds=raw["forward"]["cpu_seconds"] + raw["reverse"]["cpu_seconds"], log=frame,
        channel=None if data is None else data.describe())


#: :func:`emulate_command`'s parameters: the program (and a server) and the link of :data:`EMULATE`, no run length
#: (the program's own) and no congestion control (the program's sockets choose theirs).
EMULATE_COMMAND = Model("emulate_command", (
    Param("command", v.Instance((list, tuple), "must be a list of strings: the program and its arguments"),
          doc="The program and its arguments, run in the sender's namespace with this process's terminal.",
          positional=True, cli=False),
    Param("server", v.Optional(v.Instance((list, tuple), "must be a list of strings: the program and its arguments")),
          None, "A program to run in the receiver's namespace first (stopped when ``command`` ends).", cli=False),
    *(EMULATE[k] for k in ("rate", "tau", "packet_bytes", "buffer", "beta", "mean_good", "mean_bad", "channel",
                           "ack_channel", "channel_clock", "seed", "sack", "timestamps", "sysctls", "log")),
), doc="Any program over the emulated fading link, in real time (root, /dev/net/tun and network namespaces).")


@EMULATE_COMMAND.entry()
def emulate_command(command: Sequence[str], *, server: Sequence[str] | None, rate: float, tau: float,
                    packet_bytes: int, buffer: int | None, beta: float | None, mean_good: float | None,
                    mean_bad: float | None, channel: ContinuousTwoState | SlotChannel | None,
                    ack_channel: ContinuousTwoState | SlotChannel | None, channel_clock: str, seed: int, sack: bool,
                    timestamps: bool, sysctls: dict[str, int | str] | None, log: str | Path | None) -> CommandResult:
    """Run a program in the sender's namespace (and ``server`` in the receiver's) over the emulated link, until it
    exits; the receiver's address is 10.77.0.2 (``$TCPFADE_RECEIVER`` in the programs' environment).

    Parameters
    ----------
    {parameters}

    Returns
    -------
    CommandResult: the program's exit status, the time it ran, and the links' logs.

    Raises
    ------
    ParameterError
        a parameter out of its range, an empty command.
    EmulatorError
        not root, no /dev/net/tun or no network namespaces; a program that could not be started.

    Examples
    --------
    >>> import sys, tempfile, pathlib
    >>> got = pathlib.Path(tempfile.mkdtemp()) / "got"
    >>> server = [sys.executable, "-c", "import socket, sys; s = socket.create_server(('10.77.0.2', 7000)); "
    ...           "c, _ = s.accept(); open(sys.argv[1], 'wb').write(c.recv(100))", str(got)]
    >>> client = [sys.executable, "-c", "import socket; socket.create_connection(('10.77.0.2', 7000)).send(b'hi')"]
    >>> r = tcpfade.emulate_command(client, server=server, rate=125, tau=0.04, channel=None, seed=1)
    >>> r.returncode, got.read_bytes()
    (0, b'hi')
    """
    argv = [str(a) for a in command]
    forward, reverse, _, _ = _directions(rate, tau, packet_bytes, buffer, beta, mean_good, mean_bad, channel,
                                         ack_channel, channel_clock, seed)
    path = _log_path(log)
    raw = _core.emulate_command(forward, reverse, _stack(packet_bytes, sack, timestamps, sysctls), argv,
                                None if server is None else [str(a) for a in server])
    frame = _log_frame(raw)
    _write_log(frame, path)
    lost, dropped, n = _shares(raw)
    return CommandResult(returncode=int(raw["returncode"]), seconds=float(raw["seconds"]), channel_loss_rate=lost,
                         buffer_loss_rate=dropped, link_packets=n, log=frame)
