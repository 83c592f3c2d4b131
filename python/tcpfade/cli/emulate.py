"""``tcpfade emulate``: real TCP stacks and programs over the emulated fading link (:mod:`tcpfade.emulator`)."""

from __future__ import annotations

import sys

import click

from .. import _validate as v
from .._record import channel_text
from ..channels import Bernoulli
from ..emulator import EMULATE
from .options import (LOSSLESS_HELP, OUTPUT_FILE, channel_options, emit, link_channel_option, output_options,
                      print_table, progress_bar, require_channel)



#: The link's options of both ``emulate bulk`` and ``emulate run``, from the declaration (:data:`EMULATE`).
LINK_OPTIONS = ("rate", "tau", "packet_bytes", "buffer", "beta", "mean_good", "mean_bad", "channel_clock", "seed",
                "sack", "timestamps")


def link_options(f):
    """The link and its channel, shared by ``emulate bulk`` and ``emulate run``: the declared parameters, and the
    three whose command-line form differs from the API's (an ACK path's loss rate for ``ack_channel``, repeated
    NAME=VALUE for ``sysctls``, a checked output path for ``log``)."""
    options = [
        click.option("--ack-error-rate", type=float, help="Independent losses on the ACK path (default none)."),
        click.option("--sysctl", "sysctl", multiple=True, metavar="NAME=VALUE",
                     help="A further network setting of both namespaces (repeatable): --sysctl net.ipv4.tcp_frto=0."),
        click.option("--log", "log_path", type=OUTPUT_FILE, help="Write every decision of both links (.csv, .parquet)."),
        click.option("--lossless", is_flag=True, help=LOSSLESS_HELP),
    ]
    f = channel_options(f, packet_bytes=False)
    for option in reversed(options):
        f = option(f)
    return EMULATE.options(names=LINK_OPTIONS)(f)


def link_arguments(kw: dict) -> tuple[dict, bool]:
    """The API's keyword arguments from the shared options (the channel built from whichever options describe
    one: --mean-good/--mean-bad, or the slot-channel options; None when none does), and --lossless: see
    :func:`with_channel`."""
    lossless = kw.pop("lossless")
    channel = link_channel_option(kw, kw["packet_bytes"])
    ack, log, settings = kw.pop("ack_error_rate"), kw.pop("log_path"), kw.pop("sysctl")
    sysctls = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise v.fail("--sysctl", item, "must be NAME=VALUE, such as net.ipv4.tcp_frto=0")
        sysctls[name.strip()] = value.strip()
    return {**kw, "channel": channel, "ack_channel": None if ack is None else Bernoulli(ack), "log": log,
            "sysctls": sysctls or None}, lossless


def with_channel(given: dict, lossless: bool) -> dict:
    """``given`` with its channel required: an emulation never picks one silently (--lossless asks for none)."""
    channel = require_channel(given["channel"], lossless, "--mean-good/--mean-bad, --error-rate, --p/--q, --fdt or "
                                                          "--trace-file",
                              continuous=given["mean_good"] is not None or given["mean_bad"] is not None)
    return {**given, "channel": channel}


class _Emulate(click.Group):
    """``tcpfade emulate [options] -- COMMAND...`` is ``tcpfade emulate run``; ``tcpfade emulate bulk`` the
    kernel's bulk transfer."""

    def parse_args(self, ctx, args):
        if not args or args[0] in self.commands or args[0] in ("-h", "--help"):
            return super().parse_args(ctx, args)
        return super().parse_args(ctx, ["run", *args])


@click.group("emulate", cls=_Emulate)
def emulate() -> None:
    """Real TCP over an emulated fading link: two network namespaces joined by a user-space link with a rate, a
    delay, a DropTail buffer and any tcpfade channel (root, /dev/net/tun and network namespaces needed).

    \b
    Examples:
      tcpfade emulate bulk --congestion-control cubic --rate 125 --tau 0.04 --beta 2 --error-rate 0.01 --burst 5 --seed 1
      tcpfade emulate --rate 125 --tau 0.04 --mean-good 1 --mean-bad 0.05 --seed 1 -- curl http://$TCPFADE_RECEIVER/
      tcpfade emulate run --rate 8333 --tau 0.02 --lossless --seed 1 --server "python3 -m http.server 80" -- python3 client.py
    """


@emulate.command("bulk")
@EMULATE.options(names=("congestion_control", "duration", "warmup"))
@link_options
@output_options()
def bulk(congestion_control, duration, warmup, as_json, csv_path, **kw) -> None:
    """A kernel TCP bulk transfer over the emulated link, measured from the sender's TCP_INFO."""
    from ..emulator import emulate as run, emulation_arguments

    given, lossless = link_arguments(kw)
    # Every other input is checked first (one line each), then the channel: a measurement never picks one silently.
    emulation_arguments(congestion_control, duration=duration, warmup=warmup, **{**given, "channel": None})
    given = with_channel(given, lossless)
    r = run(congestion_control, duration=duration, warmup=warmup, progress=progress_bar(), **given)

    def human() -> None:
        print_table({"congestion control": r.congestion_control, "channel": channel_text(r.channel),
                     "buffer B [packets]": r.buffer, "measured [s]":
                     r.duration - r.warmup, "goodput [fraction of μ]": r.goodput, "goodput [bit/s]": r.goodput_bps,
                     "MSS [bytes]": r.mss, "retransmissions": r.retransmissions,
                     "timeouts": "unknown (kernel < 6.7)" if r.timeouts is None else r.timeouts,
                     "smoothed RTT [s]": r.rtt, "min RTT [s]": r.min_rtt, "channel loss rate": r.channel_loss_rate,
                     "buffer loss rate": r.buffer_loss_rate, "write lateness mean / max [s]":
                     f"{r.lateness_mean:.3g} / {r.lateness_max:.3g}"})
        click.echo("Goodput: full segments delivered per packet time 1/μ; loss rates per packet of the data path.")

    emit(r, as_json=as_json, csv_path=csv_path, human=human)


@emulate.command("run", context_settings={"allow_interspersed_args": False})
@click.option("--server", help="A program (one string, split as a shell would) to run in the receiver's namespace.")
@link_options
@click.argument("command", nargs=-1, required=True)
def run_command(server, command, **kw) -> None:
    """Run COMMAND in the sender's namespace over the emulated link; the receiver is $TCPFADE_RECEIVER
    (10.77.0.2). Exits with COMMAND's status."""
    import shlex

    from ..emulator import RECEIVER_ADDR, emulate_command

    given = with_channel(*link_arguments(kw))
    click.echo(f"tcpfade emulate: receiver at {RECEIVER_ADDR} ($TCPFADE_RECEIVER)", err=True)
    r = emulate_command(list(command), server=None if server is None else shlex.split(server), **given)
    if r.link_packets:
        shares = f"{r.channel_loss_rate:.4g} lost on the link, {r.buffer_loss_rate:.4g} dropped at the buffer"
    else:   # no packet: no share of them was lost (not NaN)
        shares = "so none lost or dropped"
    click.echo(f"tcpfade emulate: {r.link_packets} packets on the data path, {shares}, {r.seconds:.3g} s", err=True)
    sys.exit(r.returncode)

