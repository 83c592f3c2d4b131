"""``tcpfade transfer``: one or several finite transfers (tsaoussidis-badr §4), TCP-Probing included."""

from __future__ import annotations

import click
import numpy as np

from ..channels.continuous import ContinuousTwoState
from ..devices import PRESETS
from ..tcp.metrics import batch_interval
from ..tcp.transfer import BEST_RTT, METERING, MSS, RATE_BPS, SIZE_BYTES, simulate_transfer
from .options import COUNT, SEED_HELP, emit, output_options, print_table, progress_bar

VARIANT_NAMES = ("tahoe", "reno", "newreno", "probing", "oldtahoe")


@click.command()
@click.option("--variant", type=click.Choice(VARIANT_NAMES, case_sensitive=False), default="probing",
              show_default=True, help="TCP variant (probing: TCP-Probing, tsaoussidis-badr §3).")
@click.option("--size-bytes", type=COUNT, default=str(SIZE_BYTES), show_default=True,
              help="Bytes to transfer (the paper's 5 MB).")
@click.option("--phase", type=float, help="Mean On and Off phase of VDELDROP [s]; without it: no losses.")
@click.option("--drop-rate", type=float, default=0.0, show_default=True,
              help="Share of segments dropped in the On phase (0 to 1).")
@click.option("--mss", type=int, default=MSS, show_default=True, help="Maximum segment size [bytes].")
@click.option("--header-bytes", type=int, default=20, show_default=True, help="Header bytes of every segment.")
@click.option("--rate-bps", type=float, default=RATE_BPS, show_default=True, help="Link rate [bit/s].")
@click.option("--delay", type=float, default=0.0, show_default=True, help="One-way propagation delay [s].")
@click.option("--delayed-ack", type=float, default=0.2, show_default=True,
              help="Delayed-ACK timeout [s]; 0: an ACK per segment.")
@click.option("--data-drops-only", is_flag=True, help="Drop only the sender's segments (not ACKs and answers).")
@click.option("--loss-on-air", is_flag=True, help="Dropped segments still occupy the link and the radios.")
@click.option("--rwnd-bytes", type=int, default=65_535, show_default=True, help="Receiver's window [bytes].")
@click.option("--dupthresh", "-K", type=int, default=3, show_default=True, help="Duplicate-ACK threshold K.")
@click.option("--probe-low", type=float, default=1.0, show_default=True,
              help="Probing: Immediate Recovery needs both probe RTTs >= this × best RTT.")
@click.option("--probe-high", type=float, default=1.0, show_default=True,
              help="Probing: ... and <= this × last RTT (the paper's rule at 1 and 1).")
@click.option("--best-rtt", type=click.Choice(BEST_RTT), default=BEST_RTT[0], show_default=True,
              help="Probing: which RTT samples make best RTT (never the cycle's own probes; docs/models.md).")
@click.option("--metering", type=click.Choice(METERING), default=METERING[0], show_default=True,
              help="What --rate-bps meters: whole frames, or payload only (headers take no link time).")
@click.option("--device", type=click.Choice(tuple(PRESETS)), default="wavelan", show_default=True,
              help="Radio energy model of both hosts.")
@click.option("--time-limit", type=float, default=1e5, show_default=True,
              help="Simulated time after which an unfinished transfer stops [s].")
@click.option("--replications", type=int, default=1, show_default=True,
              help="Transfers with seeds seed, seed + 1, ...: means and 95% intervals.")
@click.option("--seed", type=int, default=1, show_default=True, help=SEED_HELP)
@output_options("one row per transfer")
def transfer(variant, size_bytes, phase, drop_rate, mss, header_bytes, rate_bps, delay, delayed_ack,
             data_drops_only, loss_on_air, rwnd_bytes, dupthresh, probe_low, probe_high, best_rtt, metering, device,
             time_limit, replications, seed, csv_path, as_json) -> None:
    """Simulate finite transfers from SYN to the last ACK: connection time, goodput, byte overhead and energy.

    \b
    Examples:
      tcpfade transfer --variant probing --phase 10 --drop-rate 0.33 --replications 20
      tcpfade transfer --variant reno --phase 1 --drop-rate 0.1 --device 3g-dch --json
    """
    from ..tcp.transfer import simulate_transfers
    from .. import _validate as v

    v.integer("--replications", replications, 1, 1 << 20)
    channel = ContinuousTwoState.on_off(phase, drop_rate) if phase is not None else None
    if phase is None and drop_rate != 0.0:
        raise v.fail("--drop-rate", drop_rate, "needs --phase (the mean On/Off phase)")
    rows = simulate_transfers(variant.lower(), channel, seeds=list(range(seed, seed + replications)),
                              size_bytes=size_bytes, mss=mss, header_bytes=header_bytes, rate_bps=rate_bps,
                              delay=delay, delayed_ack=delayed_ack if delayed_ack else None,
                              drop_acks=not data_drops_only, loss_on_air=loss_on_air, rwnd_bytes=rwnd_bytes,
                              dupthresh=dupthresh, probe_low=probe_low, probe_high=probe_high, best_rtt=best_rtt,
                              metering=metering, device=device,
                              time_limit=time_limit, progress=progress_bar() or None)
    def human() -> None:
        items = {"variant": variant.lower(), "transfers": len(rows), "completed": int(rows.completed.sum())}
        for name, unit in (("connection_time", "s"), ("goodput_bps", "bit/s"), ("overhead_percent", "%"),
                           ("energy_joules", "J"), ("joules_per_bit", "J/bit"), ("retransmissions", ""),
                           ("timeouts", ""), ("probe_cycles", ""), ("immediate_recoveries", ""), ("slow_starts", "")):
            values = rows[name].to_numpy(dtype=float)
            mean = float(values.mean())
            low, high = batch_interval(mean, values, 0.95)
            shown = f"{mean:.6g}" + (f" ± {(high - low) / 2:.3g}" if np.isfinite(high - low) else "")
            label = "goodput_bps (mean of the transfers')" if name == "goodput_bps" else name
            items[label + (f" [{unit}]" if unit else "")] = shown
        # The paper's goodput (tsaoussidis-badr §4): the data over the mean connection time, not the mean of each
        # transfer's goodput; its interval is the mean time's, carried through 8·size / t.
        times = rows["connection_time"].to_numpy(dtype=float)
        low, high = batch_interval(float(times.mean()), times, 0.95, (0.0, np.inf))
        paper = 8.0 * size_bytes / times.mean()
        shown = f"{paper:.6g}" + (f" [{8.0 * size_bytes / high:.6g}, {8.0 * size_bytes / low:.6g}]"
                                  if np.isfinite(high) and low > 0 else "")
        items["goodput_bps, 8·size / mean time"] = shown
        print_table(items)
        if len(rows) > 1:
            click.echo("(± : half-width of the 95% Student-t interval over the transfers)", err=True)
        if not rows.completed.all():
            click.echo(f"note: {int((~rows.completed).sum())} transfer(s) did not end within --time-limit "
                       f"{time_limit:g} s; their figures describe the run up to it", err=True)

    emit(rows, as_json=as_json, csv_path=csv_path, human=human)
