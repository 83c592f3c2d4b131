"""``tcpfade analyze``: the renewal-reward analysis from the command line."""

from __future__ import annotations


import click

from ..analysis import ANALYZED_VARIANTS, METRICS, analyze as run_analysis, compare
from ..tcp import simulate as run_simulation
from .options import (COUNT, SEED_HELP, build_channel, channel_options, emit, note_iid, output_options, print_table,
                      progress_bar)


@click.command()
@click.option("--variant", type=click.Choice(ANALYZED_VARIANTS, case_sensitive=False), required=True,
              help="TCP variant.")
@channel_options(markov_only=True)
@click.option("--wmax", type=int, default=24, show_default=True, help="Receiver window Wmax [packets].")
@click.option("--dupthresh", "-K", type=int, default=3, show_default=True, help="Duplicate-ACK threshold K.")
@click.option("--rto", type=int, default=100, show_default=True, help="Timeout T0 [slots], > Wmax.")
@click.option("--transmit-energy", type=float, help="Energy per transmission (default: F of the channel, else 1).")
@click.option("--w-active", type=float, default=0.0, show_default=True, help="Circuit energy per active slot (eq. 14).")
@click.option("--w-idle", type=float, default=0.0, show_default=True, help="Circuit energy per idle slot (eq. 14).")
@click.option("--compare-slots", type=COUNT, help="Also simulate this many slots and print both side by side (1e7).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the comparison simulation. " + SEED_HELP)
@output_options("one row; with --compare-slots one row per metric")
def analyze(variant, wmax, dupthresh, rto, transmit_energy, w_active, w_idle, compare_slots, seed, as_json, csv_path,
            **channel) -> None:
    """Compute TCP throughput and energy over a two-state Markov channel (zorzi-rao §4), with bounds.

    Each metric is printed as [pessimistic, optimistic]: the two ways of counting successes.

    \b
    Examples:
      tcpfade analyze --variant tahoe --error-rate 0.1 --fdt 0.016
      tcpfade analyze --variant tahoe --p 0.99 --q 0.9 --wmax 6 --rto 50
      tcpfade analyze --variant oldtahoe --error-rate 0.03 --fdt 0.256 --compare-slots 1e7
    """
    ch = build_channel(**channel)
    result = run_analysis(variant.lower(), ch, wmax=wmax, dupthresh=dupthresh, rto=rto,
                          transmit_energy=transmit_energy, w_active=w_active, w_idle=w_idle, progress=progress_bar())
    if compare_slots is not None:
        sim = run_simulation(variant.lower(), ch, wmax=wmax, dupthresh=dupthresh, rto=rto,
                             slots=compare_slots, seed=seed,
                             transmit_energy=transmit_energy, w_active=w_active, w_idle=w_idle,
                             progress=progress_bar())
        table = compare(result, sim)

        def side_by_side() -> None:
            click.echo(table.to_string(float_format=lambda x: f"{x:.6g}"))
            click.echo("analysis_low/_high: the analysis's bounds (not a confidence interval); simulated_low/_high: "
                       "the simulation's 95% confidence interval.")

        emit(table.reset_index(), as_json=as_json, csv_path=csv_path, human=side_by_side)
        note_iid(ch)
        return

    def human() -> None:
        rows = {"variant": result.variant, "channel": repr(ch), "states": result.states, "mean cycle [slots]": f"{result.mean_cycle:.6g}"}
        for name in METRICS:
            b = getattr(result, name)
            rows[name] = f"[{b.low:.6g}, {b.high:.6g}]"
        print_table(rows)
        click.echo("[a, b]: the analysis's bounds, from the pessimistic and the optimistic count of successes "
                   "(zorzi-rao §4.2), smaller first; not a confidence interval. Units as for tcpfade simulate: per "
                   "slot; energy efficiency in packets per unit of transmit energy.")

    emit(result, as_json=as_json, csv_path=csv_path, human=human)
    note_iid(ch)
