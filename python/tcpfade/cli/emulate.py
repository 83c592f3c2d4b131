"""``tcpfade emulate``: real TCP stacks and programs over the emulated fading link (:mod:`tcpfade.emulator`)."""

from __future__ import annotations

import sys

import click

from .. import _validate as v
from ..channels import Bernoulli
from ..emulator import EMULATE
from .options import (LOSSLESS_HELP, OUTPUT_FILE, channel_options, emit, link_channel_option, output_options,
                      print_table, progress_bar, require_channel)



def link_options(f):
    """The link and its channel, shared by ``emulate bulk`` and ``emulate run``."""
    options = [
        click.option("--rate", type=float, required=True, help="Link rate μ [packets/s of --packet-bytes]."),
        click.option("--tau", type=float, required=True, help="Round-trip propagation delay τ [s], half each way."),
        click.option("--packet-bytes", type=int, default=1500, show_default=True,
                     help="MTU of both sides [bytes]: a full TCP segment is one packet."),
        click.option("--buffer", type=int, help="Data path's DropTail buffer B [packets] (or --beta)."),
        click.option("--beta", type=float, help="Buffer as β = B/(μT) (default 1)."),
        click.option("--mean-good", type=float, help="Continuous two-state channel: mean good duration E[X] [s]."),
        click.option("--mean-bad", type=float, help="Continuous two-state channel: mean bad duration E[Y] [s]."),
        click.option("--ack-error-rate", type=float, help="Independent losses on the ACK path (default none)."),
        click.option("--channel-clock", type=click.Choice(["time", "packets"]), default="time", show_default=True,
                     help="time: time-clocked channels evolve in real time; packets: one step per packet."),
        click.option("--seed", type=int, default=1, show_default=True, help="Seed of the channels."),
        click.option("--sack/--no-sack", default=False, show_default=True, help="The kernel's SACK, both sides."),
        click.option("--timestamps/--no-timestamps", default=True, show_default=True,
                     help="The kernel's TCP timestamps, both sides."),
        click.option("--sysctl", "sysctl", multiple=True, metavar="NAME=VALUE",
                     help="A further network setting of both namespaces (repeatable): --sysctl net.ipv4.tcp_frto=0."),
        click.option("--log", "log_path", type=OUTPUT_FILE, help="Write every decision of both links (.csv, .parquet)."),
    ]
    f = channel_options(f, packet_bytes=False)
    for option in reversed(options):
        f = option(f)
    return f


def link_arguments(kw: dict) -> dict:
    """The API's keyword arguments from the shared options (the channel built from whichever options describe
    one: --mean-good/--mean-bad, or the slot-channel options)."""
    channel = link_channel_option(kw, kw["packet_bytes"])
    ack, log, settings = kw.pop("ack_error_rate"), kw.pop("log_path"), kw.pop("sysctl")
    sysctls = {}
    for item in settings:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise v.fail("--sysctl", item, "must be NAME=VALUE, such as net.ipv4.tcp_frto=0")
        sysctls[name.strip()] = value.strip()
    return {**kw, "channel": channel, "ack_channel": None if ack is None else Bernoulli(ack), "log": log,
            "sysctls": sysctls or None}


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
      tcpfade emulate bulk --variant cubic --rate 125 --tau 0.04 --beta 2 --error-rate 0.01 --burst 5
      tcpfade emulate --rate 125 --tau 0.04 --mean-good 1 --mean-bad 0.05 -- curl http://$TCPFADE_RECEIVER/
      tcpfade emulate run --rate 8333 --tau 0.02 --server "python3 -m http.server 80" -- python3 client.py
    """


@emulate.command("bulk")
@EMULATE.options(names=("variant", "duration", "warmup"))
@link_options
@click.option("--lossless", is_flag=True, help=LOSSLESS_HELP)
@output_options()
def bulk(variant, duration, warmup, lossless, as_json, csv_path, **kw) -> None:
    """A kernel TCP bulk transfer over the emulated link, measured from the sender's TCP_INFO."""
    from ..emulator import emulate as run, emulation_arguments

    given = link_arguments(kw)
    # Every other input is checked first (one line each), then the channel: a measurement never picks one silently.
    emulation_arguments(variant, duration=duration, warmup=warmup, **{**given, "channel": None})
    given["channel"] = require_channel(given["channel"], lossless, "--mean-good/--mean-bad, --error-rate, --p/--q, "
                                                                  "--fdt or --trace-file",
                                       continuous=given["mean_good"] is not None or given["mean_bad"] is not None)
    r = run(variant, duration=duration, warmup=warmup, progress=progress_bar(), **given)

    def human() -> None:
        print_table({"congestion control": r.variant, "buffer B [packets]": r.buffer, "measured [s]":
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

    click.echo(f"tcpfade emulate: receiver at {RECEIVER_ADDR} ($TCPFADE_RECEIVER)", err=True)
    r = emulate_command(list(command), server=None if server is None else shlex.split(server),
                        **link_arguments(kw))
    if r.link_packets:
        shares = f"{r.channel_loss_rate:.4g} lost on the link, {r.buffer_loss_rate:.4g} dropped at the buffer"
    else:   # no packet: no share of them was lost (not NaN)
        shares = "so none lost or dropped"
    click.echo(f"tcpfade emulate: {r.link_packets} packets on the data path, {shares}, {r.seconds:.3g} s", err=True)
    sys.exit(r.returncode)

