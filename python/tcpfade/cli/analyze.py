"""``tcpfade analyze``: the renewal-reward analysis from the command line."""

from __future__ import annotations


import click

from .._record import channel_text
from ..analysis import METRICS, analyze as run_analysis, compare
from ..analysis.analyze import ANALYSIS
from ..tcp import simulate as run_simulation
from .options import (COUNT, SEED_HELP, build_channel, channel_options, emit, metric_text, note_iid, output_options,
                      print_table, progress_bar)


@click.command()
@ANALYSIS.options(names=("variant",))
@channel_options(markov_only=True)
@ANALYSIS.options(skip=("variant",))
@click.option("--compare-slots", type=COUNT, help="Also simulate this many slots and print both side by side (1e7).")
@click.option("--seed", type=COUNT, default=1, show_default=True, help="Seed of the comparison simulation. " + SEED_HELP)
@output_options("one row; with --compare-slots one row per metric")
def analyze(compare_slots, seed, as_json, csv_path, **kw) -> None:
    """Compute TCP throughput and energy over a two-state Markov channel (zorzi-rao §4), with bounds.

    Each metric is printed as [pessimistic, optimistic]: the two ways of counting successes.

    \b
    Examples:
      tcpfade analyze --variant tahoe --error-rate 0.1 --fdt 0.016
      tcpfade analyze --variant tahoe --p 0.99 --q 0.9 --wmax 6 --rto-slots 50
      tcpfade analyze --variant oldtahoe --error-rate 0.03 --fdt 0.256 --compare-slots 1e7
    """
    given = ANALYSIS.pick(kw)
    ch = build_channel(**{k: x for k, x in kw.items() if k not in given})
    result = run_analysis(channel=ch, **given, progress=progress_bar())
    if compare_slots is not None:
        from .. import _validate as v

        v.integer("--compare-slots", compare_slots, 1, 2**62)   # named as given, before the simulation checks slots
        sim = run_simulation(channel=ch, **given, slots=compare_slots, seed=seed, progress=progress_bar())
        table = compare(result, sim)

        def side_by_side() -> None:
            click.echo(table.drop(columns="note").to_string(float_format=lambda x: f"{x:.6g}", na_rep="undefined"))
            for name, why in table["note"].items():
                if why:
                    click.echo(f"note: {name}: {why}")
            click.echo("analysis_low/_high: the analysis's bounds (not a confidence interval); simulated_low/_high: "
                       "the simulation's 95% confidence interval.")

        emit(table.reset_index(), as_json=as_json, csv_path=csv_path, human=side_by_side)
        note_iid(ch)
        return

    def human() -> None:
        rows = {"variant": result.variant, "channel": channel_text(ch.describe()), "states": result.states, "mean cycle [slots]": f"{result.mean_cycle:.6g}"}
        for name in METRICS:
            b = getattr(result, name)
            rows[name] = metric_text(result, name, None, (b.low, b.high))
        print_table(rows)
        click.echo("[a, b]: the analysis's bounds, from the pessimistic and the optimistic count of successes "
                   "(zorzi-rao §4.2), smaller first; not a confidence interval. Units as for tcpfade simulate: per "
                   "slot; energy efficiency in packets per unit of transmit energy.")

    emit(result, as_json=as_json, csv_path=csv_path, human=human)
    note_iid(ch)
