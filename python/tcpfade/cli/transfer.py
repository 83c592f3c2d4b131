"""``tcpfade transfer``: one or several finite transfers (tsaoussidis-badr §4), TCP-Probing included."""

from __future__ import annotations

import click
import numpy as np

from .._record import channel_text, reasons_in_notes
from ..channels.continuous import ContinuousTwoState
from .._stats import batch_interval
from ..tcp.transfer import TRANSFER
from .options import (COUNT, FIGURE_FILE, LOSSLESS_HELP, OUTPUT_FILE, channel_options, emit, link_channel_option,
                      output_options, print_table, progress_bar, require_channel, write_trace, distinct_outputs)


@click.command()
@TRANSFER.options()
@click.option("--phase", type=float, help="Mean On and Off phase of VDELDROP [s] (a channel is needed: this, "
                                          "another channel's options, or --lossless).")
@click.option("--drop-rate", type=float, default=None,
              help="Share of segments dropped in the On phase (0 to 1); needed with --phase.")
@channel_options(packet_bytes=False)
@click.option("--replications", type=COUNT, default=1, show_default=True,
              help="Transfers with seeds seed, seed + 1, ...: means and 95% intervals.")
@click.option("--lossless", is_flag=True, help=LOSSLESS_HELP)
@click.option("--trace-plot", type=FIGURE_FILE,
              help="Draw the first transfer's window over its first --trace-seconds (.png/.svg/.pdf).")
@click.option("--trace-csv", type=OUTPUT_FILE,
              help="Write the first transfer's window over its first --trace-seconds as CSV.")
@output_options("one row per transfer")
def transfer(phase, drop_rate, replications, lossless, trace_plot, trace_csv, csv_path, as_json, **kw) -> None:
    """Simulate finite transfers from SYN to the last ACK: connection time, goodput, byte overhead and energy.

    \b
    Examples:
      tcpfade transfer --variant probing --phase 10 --drop-rate 0.33 --replications 20 --seed 1
      tcpfade transfer --variant reno --phase 1 --drop-rate 0.1 --device 3g-dch --seed 1 --json
      tcpfade transfer --variant cubic --profile linux --error-rate 0.03 --seed 1 --trace-seconds 10 \\
          --trace-plot window.png
    """
    from ..tcp.transfer import simulate_transfer, simulate_transfers
    from .. import _validate as v

    v.integer("--replications", replications, 1, 1 << 20)
    distinct_outputs(csv_path=csv_path, trace_csv=trace_csv, trace_plot=trace_plot)
    given = TRANSFER.pick(kw)
    if (trace_plot or trace_csv) and given["trace_seconds"] <= 0:
        option, path = ("--trace-plot", trace_plot) if trace_plot else ("--trace-csv", trace_csv)
        raise v.fail(option, str(path), "needs --trace-seconds > 0 (the seconds of the run to trace)")
    variant, seed, size_bytes, time_limit = given.pop("variant"), given.pop("seed"), given["size_bytes"], \
        given["time_limit"]
    channel = link_channel_option({k: x for k, x in kw.items() if k not in given and k not in ("variant", "seed")},
                                  1024)
    if phase is not None:
        if channel is not None:
            raise v.fail("--phase", phase, "give VDELDROP's --phase or another channel's options, not both")
        if drop_rate is None:
            # No silent default: --phase alone would have been a lossless channel.
            raise v.fail("--drop-rate", "(none)", "must be given with --phase (the share dropped in the On phase)")
        channel = ContinuousTwoState.on_off(phase, drop_rate)
    elif drop_rate is not None:
        raise v.fail("--drop-rate", drop_rate, "needs --phase (the mean On/Off phase)")
    channel = require_channel(channel, lossless, "--phase and --drop-rate for VDELDROP, or --error-rate, --p/--q, "
                                                 "--fdt, --trace-file")
    if seed is not None:
        v.SEED.check("--seed", seed)   # before the range of seeds below is worked out from it
    if seed is not None and seed + replications - 1 > v.SEED.high:
        raise v.fail("--replications", replications, f"runs seeds {seed} to {seed + replications - 1}, past the "
                                                     f"largest seed {v.SEED.high}: give a smaller --seed")
    # Without --seed the API says whether the channel needs one (a lossless or trace run draws nothing).
    seeds = [None] * replications if seed is None else list(range(seed, seed + replications))
    trace_seconds = given.pop("trace_seconds")   # the first transfer's, run again below: a table keeps no trace
    rows = simulate_transfers(variant, channel, seeds=seeds,
                              progress=progress_bar() or None, **given)

    def human() -> None:
        items = {"variant": variant, "profile": rows["profile"].iloc[0], "channel": channel_text(None if channel is None else channel.describe()),
                 "transfers": len(rows), "completed": int(rows.completed.sum())}
        for name, unit in (("connection_time", "s"), ("goodput_bps", "bit/s"), ("overhead_percent", "%"),
                           ("energy_joules", "J"), ("joules_per_bit", "J/bit"), ("retransmissions", ""),
                           ("timeouts", ""), ("probe_cycles", ""), ("immediate_recoveries", ""), ("slow_starts", "")):
            values = rows[name].to_numpy(dtype=float)
            mean = float(values.mean())
            if not np.isfinite(mean):   # say why (each row's notes), not inf or nan
                reasons = reasons_in_notes(rows["notes"], name) if "notes" in rows else []
                label = name + (f" [{unit}]" if unit else "")
                items[label] = "; ".join(reasons) or ("infinite" if np.isinf(mean) else "undefined")
                continue
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
        if not rows.completed.all():   # the size was not delivered: 8·size / time would be a goodput never reached
            shown = (f"undefined: {int((~rows.completed).sum())} transfer(s) did not complete, and the paper's goodput "
                     "is whole transfers over their time")
        items["goodput_bps, 8·size / mean time"] = shown
        print_table(items)
        if len(rows) > 1:
            click.echo("(± : half-width of the 95% Student-t interval over the transfers)", err=True)
        if not rows.completed.all():
            click.echo(f"note: {int((~rows.completed).sum())} transfer(s) did not end within --time-limit "
                       f"{time_limit:g} s; their figures describe the run up to it", err=True)

    emit(rows, as_json=as_json, csv_path=csv_path, human=human)
    if trace_plot or trace_csv:
        # The first transfer again, for its trace (a table of transfers keeps one row each); after the results.
        write_trace(simulate_transfer(variant, channel, seed=seeds[0], trace_seconds=trace_seconds, **given),
                    trace_csv, trace_plot)
