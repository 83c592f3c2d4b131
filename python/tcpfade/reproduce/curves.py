"""Shared pieces of the figures: simulated curves over the error rate, their plots, and comparisons
that respect confidence intervals."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from ..channels.markov import Bernoulli, GilbertElliott
from ..tcp import simulate
from .registry import Settings, Verdict

IID = "i.i.d."


def channel_for(label: str, error_rate: float):
    """The channel of a curve: ``"i.i.d."`` or ``"fD·T = <x>"`` (two-state Markov of Rayleigh fading)."""
    if label == IID:
        return Bernoulli(error_rate)
    return GilbertElliott.from_fading(error_rate=error_rate, fdt=float(label.split("=")[1]))


def fdt_label(fdt: float | None) -> str:
    """``"fD·T = 0.01"``, or ``"i.i.d."`` for None."""
    return IID if fdt is None else f"fD·T = {fdt:g}"


def simulated_curves(*, variants: Iterable[str], channels: Iterable[str], error_rates: Iterable[float],
                     wmax: int, dupthresholds: Iterable[int] = (3,), rto: int = 100, slots: int,
                     settings: Settings, progress: Callable[[str], None]) -> pd.DataFrame:
    """One simulation per (variant, channel, K, P_E): throughput and mean W at loss, with 95% intervals."""
    rows = []
    for variant in variants:
        for label in channels:
            for k in dupthresholds:
                for pe in error_rates:
                    progress(f"{variant} {label} K={k} P_E={pe:g}")
                    r = simulate(variant, channel_for(label, pe), wmax=wmax, dupthresh=k, rto_slots=rto,
                                 slots=settings.slots(slots), seed=settings.seed)
                    rows.append({
                        "variant": variant, "channel": label, "error_rate": pe, "wmax": wmax, "K": k, "T0": rto,
                        "throughput": r.throughput, "throughput_low": r.ci["throughput"][0],
                        "throughput_high": r.ci["throughput"][1], "mean_cwnd_at_loss": r.mean_cwnd_at_loss,
                        "mean_cwnd_at_loss_low": r.ci["mean_cwnd_at_loss"][0],
                        "mean_cwnd_at_loss_high": r.ci["mean_cwnd_at_loss"][1], "slots": r.slots,
                    })
    return pd.DataFrame(rows)


#: Marker shapes of successive curves (hollow, shrinking: coinciding curves stay visible).
MARKERS = "osD^vP<>"


def distinct_markers(index: int) -> dict:
    """Marker keywords of curve ``index``: a hollow shape of its own, smaller for later curves, so curves that
    coincide (fast fading and i.i.d. errors, Tahoe and NewReno over slow fading) show as nested shapes instead
    of one hiding another."""
    return {"marker": MARKERS[index % len(MARKERS)], "markersize": max(7.5 - 1.2 * index, 3.0),
            "markerfacecolor": "none"}


def draw_curves(data: pd.DataFrame, fig, *, metric: str = "throughput", ylabel: str = "throughput (packets/slot)",
                by: tuple[str, ...] = ("variant", "channel", "K")) -> None:
    """Metric against P_E (log axis), one line per group, 95% intervals as error bars."""
    ax = fig.add_subplot(1, 1, 1)
    varying = [c for c in by if data[c].nunique() > 1] or [by[0]]
    # One line style per variant, one colour per remaining combination (as the papers tell them apart).
    variants = list(dict.fromkeys(data["variant"]))
    styles = ["-", "--", ":", "-."]
    colours: dict[tuple, str] = {}
    palette = [f"C{i}" for i in range(10)]
    for key, group in data.groupby(varying, sort=False):
        key = key if isinstance(key, tuple) else (key,)
        g = group.sort_values("error_rate")
        label = ", ".join(f"K={k}" if c == "K" else str(k) for c, k in zip(varying, key))
        rest = tuple(k for c, k in zip(varying, key) if c != "variant")
        colour = colours.setdefault(rest, palette[len(colours) % len(palette)])
        index = list(colours).index(rest)
        style = styles[variants.index(g["variant"].iloc[0]) % len(styles)]
        yerr = np.vstack([g[metric] - g[f"{metric}_low"], g[f"{metric}_high"] - g[metric]]).clip(min=0)
        ax.errorbar(g["error_rate"], g[metric], yerr=yerr, capsize=2, label=label, color=colour, linestyle=style,
                    **distinct_markers(index))
    ax.set_xscale("log")
    ax.set_xlabel("average packet error rate P_E")
    ax.set_ylabel(ylabel)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def point(data: pd.DataFrame, metric: str = "throughput", **where) -> pd.Series:
    """The single row matching ``where`` (column = value)."""
    mask = np.ones(len(data), dtype=bool)
    for column, value in where.items():
        mask &= (data[column] == value).to_numpy()
    rows = data[mask]
    if len(rows) != 1:
        raise KeyError(f"{len(rows)} rows match {where}")
    return rows.iloc[0]


def interval(row: pd.Series, metric: str = "throughput") -> tuple[float, float]:
    """A row's 95% interval of ``metric`` (its ``_low`` and ``_high`` columns)."""
    return float(row[f"{metric}_low"]), float(row[f"{metric}_high"])


def above(data: pd.DataFrame, a: dict, b: dict, metric: str = "throughput") -> Verdict:
    """A's 95% interval lies entirely above B's."""
    ra, rb = point(data, metric, **a), point(data, metric, **b)
    la, _ = interval(ra, metric)
    _, hb = interval(rb, metric)
    text = f"{_describe(a)}: {ra[metric]:.4g} [{la:.4g}, {interval(ra, metric)[1]:.4g}] vs {_describe(b)}: " \
           f"{rb[metric]:.4g} [{interval(rb, metric)[0]:.4g}, {hb:.4g}]"
    return Verdict(la > hb, text)


def close(data: pd.DataFrame, a: dict, b: dict, relative: float, metric: str = "throughput") -> Verdict:
    """A and B differ by less than ``relative`` of B, or their 95% intervals overlap."""
    ra, rb = point(data, metric, **a), point(data, metric, **b)
    la, ha = interval(ra, metric)
    lb, hb = interval(rb, metric)
    gap = abs(ra[metric] - rb[metric]) / abs(rb[metric])
    overlap = la <= hb and lb <= ha
    text = f"{_describe(a)}: {ra[metric]:.4g} vs {_describe(b)}: {rb[metric]:.4g} (difference {gap:.1%}" \
           f"{', intervals overlap' if overlap else ''})"
    return Verdict(overlap or gap < relative, text)


def all_of(*verdicts: Verdict) -> Verdict:
    """Every verdict holds; the evidence of each, joined."""
    holds = [vd.holds for vd in verdicts]
    result = None if any(h is None for h in holds) else all(holds)
    return Verdict(result, "; ".join(vd.evidence for vd in verdicts))


def _describe(where: dict) -> str:
    return " ".join(f"{k}={v:g}" if isinstance(v, float) else f"{v}" for k, v in where.items())
