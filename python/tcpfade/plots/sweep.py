"""Plots of a sweep's results: a metric against a parameter, one curve per group."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import stats

from .. import _validate as v
from ._figure import checked_axes, checked_path, checked_table, finish, new_figure, on_axes, style

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def summarize(frame: pd.DataFrame, x: str, y: str, group: list[str]) -> pd.DataFrame:
    """Per (group, x): the mean of ``y`` and its 95% interval. Over replications the interval is Student's t
    on their means; a single run keeps its own interval (``<y>_low``, ``<y>_high``: confidence interval or
    analysis bounds)."""
    for column in (x, y, *group):
        if column not in frame.columns:
            allowed = ", ".join(c for c in frame.columns if not c.endswith(("_low", "_high")))
            raise v.fail("column", column, f"is not in the results; they have: {allowed}")
    rows = []
    for key, g in frame.groupby([*group, x], sort=True, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        values = g[y].to_numpy(dtype=float)
        if len(values) > 1:
            half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
            low, high = values.mean() - half, values.mean() + half
        else:
            low = float(g[f"{y}_low"].iloc[0]) if f"{y}_low" in g else np.nan
            high = float(g[f"{y}_high"].iloc[0]) if f"{y}_high" in g else np.nan
        rows.append({**dict(zip([*group, x], key)), y: values.mean(), "low": low, "high": high, "runs": len(values)})
    return pd.DataFrame(rows)


def plot_results(frame: pd.DataFrame, path: str | Path | None = None, *, x: str, y: str,
                 group: list[str] | None = None, logx: bool = False, logy: bool = False, title: str | None = None,
                 ax=None) -> Figure:
    """Draw ``y`` against ``x`` from a results table (:meth:`tcpfade.sweep.Store.dataframe`, an exported table,
    or :func:`tcpfade.runs`), one curve per combination of the ``group`` columns, with 95% intervals.

    Parameters
    ----------
    frame : the results, one row per run.
    path : where to write the figure (PNG, SVG or PDF by suffix); None writes nothing.
    x, y : columns for the axes; group : columns whose combinations make the curves.
    logx, logy : logarithmic axes. title : a title. ax : matplotlib axes to draw into (default: a new figure).

    Returns
    -------
    The matplotlib Figure.
    """
    group = list(group or [])
    checked_table("frame", frame, ())
    if len({x, y, *group}) != 2 + len(group):
        raise v.fail("y" if x == y else "group", y if x == y else group,
                     f"x, y and the group columns must be different columns (x = {x!r}, y = {y!r})")
    if path is not None:
        checked_path(path)
    table = summarize(frame, x, y, group)
    with style():
        fig, ax = on_axes(checked_axes(ax, 1)) if ax is not None else new_figure((6.5, 4.2))
        _draw_results(table, ax, x=x, y=y, group=group, logx=logx, logy=logy, title=title)
        if len(fig.axes) == 1:
            fig.tight_layout()
        return finish(fig, path)


def _draw_results(table, ax, *, x, y, group, logx, logy, title) -> None:
    curves = table.groupby(group, sort=True) if group else [((), table)]
    for i, (key, g) in enumerate(curves):
        key = key if isinstance(key, tuple) else (key,)
        g = g.sort_values(x)
        label = ", ".join(f"{c}={k}" for c, k in zip(group, key)) or y
        ax.plot(g[x], g[y], marker="o", markersize=3, color=f"C{i % 10}", label=label)
        if g["low"].notna().any():
            ax.fill_between(g[x], g["low"], g["high"], color=f"C{i % 10}", alpha=0.2, linewidth=0)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.grid(True, which="both", alpha=0.3)
    if title:
        ax.set_title(title)
    if group:
        ax.legend()
