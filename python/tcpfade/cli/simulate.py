"""``tcpfade simulate``: the slotted TCP simulator from the command line."""

from __future__ import annotations


import click

from .._record import channel_text
from .. import _validate as v
from ..tcp import simulate as run_simulation
from ..tcp.slotted import METRICS, SLOTTED
from .options import (FIGURE_FILE, OUTPUT_FILE, build_channel, channel_options, emit, output_options,
                      metric_text, note_iid, print_table, progress_bar, write_trace, distinct_outputs)


#: Below this many timeouts a run's batch-means intervals miss their level (docs/validation/chockalingam.md,
#: "Interval coverage": 95% held from ten timeouts a run, 82-87% with a couple or fewer).
FEW_TIMEOUTS = 10


@click.command()
@SLOTTED.options(names=("variant",))
@channel_options
@SLOTTED.options(skip=("variant",))
@click.option("--trace-plot", type=FIGURE_FILE, help="Draw the recorded slots like chockalingam Figs. 1-3 (.png/.svg/.pdf).")
@click.option("--trace-csv", type=OUTPUT_FILE, help="Write the recorded slots as CSV.")
@output_options()
def simulate(trace_plot, trace_csv, as_json, csv_path, **kw) -> None:
    """Simulate TCP over a packet-error channel, slot by slot (zero bandwidth-delay product).

    \b
    Examples:
      tcpfade simulate --variant newreno --error-rate 0.1 --fdt 0.01 --seed 1
      tcpfade simulate --variant reno --p 0.99 --q 0.9 --wmax 6 --slots 1e8 --seed 2
      tcpfade simulate --variant tahoe --error-rate 0.05 --fdt 0.01 --wmax 6 -K 2 --rto-slots 5 \\
          --trace-slots 80 --trace-plot trace.png --seed 3
    """
    distinct_outputs(csv_path=csv_path, trace_csv=trace_csv, trace_plot=trace_plot)
    given = SLOTTED.pick(kw)
    if (trace_plot or trace_csv) and given["trace_slots"] <= 0:
        raise v.fail("--trace-slots", given["trace_slots"], "must be > 0 with --trace-plot or --trace-csv")
    chosen = build_channel(**{k: x for k, x in kw.items() if k not in given})
    result = run_simulation(channel=chosen, **given, progress=progress_bar())

    def human() -> None:
        rows = {"variant": result.variant, "channel": channel_text(result.channel), "slots": result.slots}
        for name in METRICS:
            rows[name] = metric_text(result, name, getattr(result, name), result.ci[name])
        rows.update(timeouts=result.timeouts, fast_retransmits=result.fast_retransmits,
                    energy_efficiency_lower_bound=result.energy_efficiency_lower_bound)
        print_table(rows)
        click.echo(f"[a, b]: {result.confidence:.0%} confidence interval (batch means). Units: throughput, load, "
                   "successes, timeouts and fast retransmits per slot; energy efficiency in packets delivered per "
                   "unit of transmit energy (E per transmission); mean_cwnd_at_loss in packets.")

    emit(result, as_json=as_json, csv_path=csv_path, human=human)
    write_trace(result, trace_csv, trace_plot)   # after the result: a file that fails to write loses nothing printed
    note_iid(chosen)
    if result.timeouts < FEW_TIMEOUTS:
        click.echo(f"note: {result.timeouts} timeouts in this run; with fewer than {FEW_TIMEOUTS} the intervals are "
                   "too narrow (82-87% coverage instead of 95%, docs/validation/chockalingam.md): run several "
                   "seeds or a longer run", err=True)
