"""``tcpfade sweep`` (run, status, export) and ``tcpfade plot``: sweeps from experiment files."""

from __future__ import annotations

from pathlib import Path

import click

from .options import FIGURE_FILE, INPUT_FILE, TABLE_FILE, progress_bar, wrote


def _store_and_experiment(source: Path):
    """An experiment file (.toml) gives its store and name; anything else is taken as a store."""
    from ..sweep import Store, load_experiment

    if source.suffix.lower() == ".toml":
        experiment = load_experiment(source)
        return Store(experiment.store), experiment.name
    return Store(source), None


def _read_table(path: Path):
    """A table exported by ``tcpfade sweep export`` (CSV or Parquet), or any table with the same columns."""
    import pandas as pd

    from .. import _validate as v

    try:
        return pd.read_csv(path) if path.suffix.lower() == ".csv" else pd.read_parquet(path)
    except ImportError as exc:
        raise v.fail("source", str(path), f"Parquet needs pyarrow (pip install 'tcpfade[parquet]'): {exc}") from None
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        raise v.fail("source", str(path), f"cannot be read as a table ({exc})") from None


@click.group()
def sweep() -> None:
    """Sweeps from experiment files: run them, see how far they are, export the results.

    \b
    An experiment file (TOML) names the model, fixed parameters and axes:
      [sweep]
      model = "simulate"            # or "analyze"
      seed = 2026
      replications = 3
      [fixed]
      fdt = 0.016
      slots = 1_000_000
      [axes]
      variant = ["tahoe", "reno"]
      error_rate = [0.01, 0.03, 0.1]
    """


@sweep.command()
@click.argument("experiment_file", type=INPUT_FILE)
@click.option("--workers", type=int, help="Local worker processes (default: all cores; 1: this process).")
@click.option("--dask", "dask_address", metavar="ADDRESS", help="Run on this Dask scheduler (tcp://host:8786).")
@click.option("--force", is_flag=True, help="Recompute points already in the store.")
def run(experiment_file, workers, dask_address, force) -> None:
    """Compute every point of EXPERIMENT_FILE that its store lacks.

    Ctrl-C stops at once (exit status 130); every point finished by then is kept, and running the same
    command again computes the rest.

    \b
    Examples:
      tcpfade sweep run study.toml
      tcpfade sweep run study.toml --workers 8
      tcpfade sweep run study.toml --dask tcp://scheduler:8786
    """
    from ..sweep import SweepInterrupted, load_experiment, run_sweep

    experiment = load_experiment(experiment_file)
    try:
        report = run_sweep(experiment, workers=workers, dask=dask_address, force=force, progress=progress_bar())
    except SweepInterrupted as stop:
        click.echo(f"{experiment.name}: {stop}", err=True)
        raise SystemExit(130) from None
    click.echo(f"{experiment.name}: {report.total} points, {report.skipped} already in {experiment.store}, "
               f"{report.computed} computed, {len(report.failed)} failed")
    for params, error in report.failed:
        click.echo(f"  failed: {params}: {error}", err=True)
    if report.failed:
        raise SystemExit(1)


@sweep.command()
@click.argument("experiment_file", type=INPUT_FILE)
def status(experiment_file) -> None:
    """How many points of EXPERIMENT_FILE are in its store, and how many are missing.

    Exit status 0 when every point is done, 1 when some are missing (so a script can test completeness)."""
    from ..sweep import load_experiment, sweep_status

    experiment = load_experiment(experiment_file)
    s = sweep_status(experiment)
    click.echo(f"{experiment.name}: {s.done} of {s.total} points done, {s.missing} missing ({experiment.store})")
    if s.other_code:
        click.echo(f"  {s.other_code} rows of this experiment were computed by other code (kept apart)")
    if s.missing:
        raise SystemExit(1)


@sweep.command()
@click.argument("source", type=INPUT_FILE)
@click.option("--out", "out_path", type=TABLE_FILE, required=True, help="Output file: .csv or .parquet.")
@click.option("--experiment", help="Only this experiment's rows (default: the file's, or all of a store).")
def export(source, out_path, experiment) -> None:
    """Write the results of SOURCE (an experiment file or a store) as CSV or Parquet.

    \b
    Examples:
      tcpfade sweep export study.toml --out study.csv
      tcpfade sweep export results.sqlite --out all.parquet
    """
    store, name = _store_and_experiment(source)
    out = store.export(out_path, experiment or name)
    wrote(out)


@click.command()
@click.argument("source", type=INPUT_FILE)
@click.option("--x", "x", required=True, help="Parameter on the x axis (error_rate, fdt, wmax, ...).")
@click.option("--y", "y", default="throughput", show_default=True, help="Metric on the y axis.")
@click.option("--group", default="", help="Comma-separated parameters: one curve per combination.")
@click.option("--experiment", help="Only this experiment's rows (default: the file's, or all of a store).")
@click.option("--out", "out_path", type=FIGURE_FILE, default="plot.png", show_default=True,
              help="PNG, SVG or PDF by suffix.")
@click.option("--logx", is_flag=True, help="Logarithmic x axis.")
@click.option("--logy", is_flag=True, help="Logarithmic y axis.")
@click.option("--pool", default="", help="Comma-separated parameters that vary within a point and are to be "
              "averaged over with the replications (refused otherwise); the title says so.")
def plot(source, x, y, group, experiment, out_path, logx, logy, pool) -> None:
    """Draw Y against X from the results of SOURCE (an experiment file, a store, or a table exported from one:
    .csv or .parquet), grouped by --group.

    Replications are averaged (95% Student-t interval); a single run shows its own interval (simulation)
    or bounds (analysis).

    \b
    Examples:
      tcpfade plot study.toml --x error_rate --y throughput --group variant --logx
      tcpfade plot results.sqlite --x fdt --y energy_efficiency --group variant,wmax --out eff.svg
      tcpfade plot exported.csv --x error_rate --y throughput --group variant
    """
    from .. import _validate as v
    from ..plots.sweep import plot_results

    if source.suffix.lower() in (".csv", ".parquet"):
        frame, name, where = _read_table(source), None, str(source)
        if experiment is not None and "experiment" in frame:
            frame = frame[frame.experiment == experiment]
    else:
        store, name = _store_and_experiment(source)
        frame, where = store.dataframe(experiment or name), str(store.path)
    if frame.empty:
        raise v.fail("experiment", experiment or name, f"has no results in {where}")
    groups = [g.strip() for g in group.split(",") if g.strip()]
    pooled = [g.strip() for g in pool.split(",") if g.strip()]
    # Named columns first: a misspelt one would otherwise surface as a complaint about another, or not at all.
    for option, names in (("--x", [x]), ("--y", [y]), ("--group", groups), ("--pool", pooled)):
        for column in names:
            if column not in frame.columns:
                shown = [str(c) for c in frame.columns if not str(c).endswith(("_low", "_high"))]
                listed = ", ".join(shown[:24]) + (", ..." if len(shown) > 24 else "")
                raise v.fail(option, column, f"is not a column of {where} (its columns: {listed})")
        if len(set(names)) < len(names):
            raise v.fail(option, ",".join(names), "names a column twice")
    title = experiment or name
    varying = _varying_parameters(frame, [x, *groups])
    unasked = [c for c in varying if c not in pooled]
    if unasked:
        raise v.fail("--group", group or "(none)",
                     f"the parameter(s) {', '.join(unasked)} vary within a point: add them to --group, or to --pool "
                     "to average over them with the replications")
    if varying:
        title = f"{title or ''} (pooled over {', '.join(varying)})".strip()
    import numpy as np

    values = np.asarray(frame[y], dtype=float) if np.issubdtype(frame[y].dtype, np.number) else None
    if values is not None:
        finite = np.isfinite(values)
        if not finite.any():   # nothing to draw: an empty figure would say nothing about why
            why = _why_not_finite(frame, y)
            raise v.fail("--y", y, f"has no finite value to plot in {where}" + (f" ({why})" if why else ""))
        if not finite.all():
            why = _why_not_finite(frame, y)
            click.echo(f"note: {int((~finite).sum())} of {values.size} rows have no finite {y} and are left out"
                       + (f" ({why})" if why else ""), err=True)
    plot_results(frame, out_path, x=x, y=y, group=groups, logx=logx, logy=logy, title=title)
    wrote(out_path)


def _why_not_finite(frame, column: str) -> str:
    """The rows' own reasons for ``column`` not being finite (their ``notes``), if the rows carry them."""
    from .._record import reasons_in_notes

    return "; ".join(reasons_in_notes(frame["notes"], column)) if "notes" in frame else ""


def _varying_parameters(frame, keys: list[str]) -> list[str]:
    """The declared parameters (of any sweep model or channel; never ``seed``) that take more than one value among
    the rows of one point (one combination of ``keys``): averaging over them is not averaging replications."""
    from ..sweep.models import CHANNEL_PARAMETERS, MODEL_PARAMETERS

    declared = set(CHANNEL_PARAMETERS).union(*MODEL_PARAMETERS.values())
    present = [k for k in keys if k in frame.columns]
    candidates = [c for c in frame.columns if c in declared and c not in keys and c != "seed"]
    if not present or not candidates:
        return []
    counts = frame.groupby(present, dropna=False)[candidates].nunique(dropna=False).max()
    return [c for c in candidates if counts[c] > 1]
