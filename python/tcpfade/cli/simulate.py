"""``tcpfade simulate``: the slotted TCP simulator from the command line."""

from __future__ import annotations

from pathlib import Path

import click

from .. import _validate as v
from ..tcp import VARIANTS, simulate as run_simulation
from ..tcp.slotted import METRICS
from .options import (COUNT, FIGURE_FILE, OUTPUT_FILE, SEED_HELP, build_channel, channel_options, emit, output_options,
                      note_iid, print_table, progress_bar, wrote)


#: Below this many timeouts a run's batch-means intervals miss their level (docs/validation/chockalingam.md,
#: "Interval coverage": 95% held from ten timeouts a run, 82-87% with a couple or fewer).
FEW_TIMEOUTS = 10


@click.command()
@click.option("--variant", type=click.Choice(VARIANTS, case_sensitive=False), required=True, help="TCP variant.")
@channel_options
@click.option("--wmax", type=int, default=24, show_default=True, help="Receiver window Wmax [packets].")
@click.option("--dupthresh", "-K", type=int, default=3, show_default=True, help="Duplicate-ACK threshold K.")
@click.option("--rto", type=int, default=100, show_default=True, help="Timeout T0 [slots].")
@click.option("--slots", type=COUNT, default="1e6", show_default=True,
              help="Slots to simulate (1e9 is fine: constant memory).")
@click.option("--seed", type=int, required=True, help=SEED_HELP)
@click.option("--initial-ssthresh", type=float, help="Initial Wth [packets] (default Wmax).")
@click.option("--recover-guard", is_flag=True,
              help="NewReno: RFC 6582 §3.2 steps 2 and 4 (no fast retransmit until the ACK passes recover).")
@click.option("--ack-loss", type=float, default=0.0, show_default=True, help="ACK loss probability.")
@click.option("--ack-delay", type=int, default=0, show_default=True, help="Extra ACK delay [slots].")
@click.option("--transmit-energy", type=float, help="Energy per transmission (default: F or SNR of the channel, else 1).")
@click.option("--w-active", type=float, default=0.0, show_default=True, help="Circuit energy per active slot (eq. 14).")
@click.option("--w-idle", type=float, default=0.0, show_default=True, help="Circuit energy per idle slot (eq. 14).")
@click.option("--batches", type=int, default=30, show_default=True, help="Batches for the confidence intervals.")
@click.option("--confidence", type=float, default=0.95, show_default=True, help="Level of the intervals.")
@click.option("--trace-slots", type=int, default=0, show_default=True, help="Record the first N slots.")
@click.option("--trace-plot", type=FIGURE_FILE, help="Draw the recorded slots like chockalingam Figs. 1-3 (.png/.svg/.pdf).")
@click.option("--trace-csv", type=OUTPUT_FILE, help="Write the recorded slots as CSV.")
@output_options()
def simulate(variant, wmax, dupthresh, rto, slots, seed, initial_ssthresh, recover_guard, ack_loss, ack_delay,
             transmit_energy, w_active, w_idle, batches, confidence, trace_slots, trace_plot, trace_csv, as_json,
             csv_path, **channel) -> None:
    """Simulate TCP over a packet-error channel, slot by slot (zero bandwidth-delay product).

    \b
    Examples:
      tcpfade simulate --variant newreno --error-rate 0.1 --fdt 0.01 --seed 1
      tcpfade simulate --variant reno --p 0.99 --q 0.9 --wmax 6 --slots 1e8 --seed 2
      tcpfade simulate --variant tahoe --error-rate 0.05 --fdt 0.01 --wmax 6 -K 2 --rto 5 \\
          --trace-slots 80 --trace-plot trace.png --seed 3
    """
    if (trace_plot or trace_csv) and trace_slots <= 0:
        raise v.fail("--trace-slots", trace_slots, "must be > 0 with --trace-plot or --trace-csv")
    chosen = build_channel(**channel)
    result = run_simulation(variant.lower(), chosen, wmax=wmax, dupthresh=dupthresh, rto=rto,
                            slots=slots, seed=seed, initial_ssthresh=initial_ssthresh, recover_guard=recover_guard,
                            ack_loss=ack_loss, ack_delay=ack_delay, trace_slots=trace_slots,
                            transmit_energy=transmit_energy, w_active=w_active, w_idle=w_idle, batches=batches,
                            confidence=confidence, progress=progress_bar())
    if trace_csv:
        from .._io import write_table

        write_table(result.trace, trace_csv, "--trace-csv")
        wrote(trace_csv)
    if trace_plot:
        result.plot_trace(trace_plot)
        wrote(trace_plot)
    def human() -> None:
        rows = {"variant": result.variant, "channel": repr(chosen), "slots": result.slots}
        for name in METRICS:
            lo, hi = result.ci[name]
            rows[name] = f"{getattr(result, name):.6g}  [{lo:.6g}, {hi:.6g}]"
        rows.update(timeouts=result.timeouts, fast_retransmits=result.fast_retransmits,
                    energy_efficiency_lower_bound=result.energy_efficiency_lower_bound)
        print_table(rows)
        click.echo(f"[a, b]: {result.confidence:.0%} confidence interval (batch means). Units: throughput, load, "
                   "successes, timeouts and fast retransmits per slot; energy efficiency in packets delivered per "
                   "unit of transmit energy (E per transmission); mean_cwnd_at_loss in packets.")

    emit(result, as_json=as_json, csv_path=csv_path, human=human)
    note_iid(chosen)
    if result.timeouts < FEW_TIMEOUTS:
        click.echo(f"note: {result.timeouts} timeouts in this run; with fewer than {FEW_TIMEOUTS} the intervals are "
                   "too narrow (82-87% coverage instead of 95%, docs/validation/chockalingam.md): run several "
                   "seeds or a longer run", err=True)
