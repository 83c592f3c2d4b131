"""Plots of TCP runs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import _validate as v
from ._figure import checked_axes, checked_path, checked_table, finish, new_figure, style

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def _labelled(fig, path, axes, xlabel: str, legend: str, titled, title: str, own_figure: bool) -> Figure:
    """The window panel's labels, legend and grid, the title on ``titled`` (if any), and the figure written."""
    axes.set_xlabel(xlabel)
    axes.set_ylabel("window [packets]")
    axes.legend(loc=legend)
    axes.grid(alpha=0.3)
    if titled is not None:
        titled.set_title(title)
    if own_figure:
        fig.tight_layout()
    return finish(fig, path)


@v.checked()
def plot_slot_trace(trace: pd.DataFrame, path: str | Path | None = None, *, ax=None, title: str = "") -> Figure:
    """Per-slot trace in the style of chockalingam Figs. 1-3: transmitted packet id per slot (top; 0 = idle, so
    ids are shown from 1 as in the paper; lost transmissions marked) and W, W_th (bottom).

    Parameters
    ----------
    trace : :attr:`tcpfade.SimulationResult.trace`.
    path : where to write the figure (PNG, SVG or PDF by suffix); None writes nothing.
    ax : two matplotlib axes (top, bottom) to draw into (default: a new figure).
    title : a title over the top panel.

    Returns
    -------
    The matplotlib Figure.
    """
    checked_table("trace", trace, ("slot", "seq", "lost", "retransmission", "cwnd", "ssthresh"))
    if path is not None:
        checked_path(path)
    with style():
        if ax is not None:
            top, bottom = checked_axes(ax, 2)
            fig = top.figure
        else:
            fig, (top, bottom) = new_figure((7.0, 5.0), nrows=2, ncols=1, sharex=True)
        slot = trace["slot"].to_numpy() + 1
        packet_id = trace["seq"].fillna(-1).to_numpy(dtype=float) + 1
        top.step(slot, packet_id, where="mid", color="0.3", linewidth=1, label="Tx packet id")
        sent = packet_id > 0
        lost = trace["lost"].to_numpy() & sent
        top.plot(slot[sent & ~lost], packet_id[sent & ~lost], "o", markersize=3, linestyle="none",
                 label="received")
        top.plot(slot[lost], packet_id[lost], "x", color="red", markersize=6, linestyle="none", label="lost")
        retx = trace["retransmission"].to_numpy()
        top.plot(slot[retx], packet_id[retx], "s", markerfacecolor="none", markersize=6, linestyle="none",
                 label="retransmission")
        top.set_ylabel("Tx packet id (0 = idle)")
        top.legend(loc="upper left")
        top.grid(alpha=0.3)
        bottom.step(slot, trace["cwnd"], where="post", label="W[i]")
        bottom.step(slot, trace["ssthresh"], where="post", linestyle="--", label="W$_{th}$[i]")
        return _labelled(fig, path, bottom, "time i [packet slots]", "upper left", top if title else None, title,
                         ax is None)


@v.checked()
def plot_window_trace(trace: pd.DataFrame, path: str | Path | None = None, *, ax=None, title: str = "") -> Figure:
    """The sender's window over time from an event-driven run (:attr:`tcpfade.LinkResult.trace`): cwnd and, behind
    it, RFC 6675's pipe with SACK (else the data outstanding, high − una) as steps, ssthresh dashed (above the plot
    while it is still the initial one), each fast retransmit marked ▼ and each timeout ✕ where it happened.

    Parameters
    ----------
    trace : :attr:`tcpfade.LinkResult.trace`.
    path : where to write the figure (PNG, SVG or PDF by suffix); None writes nothing.
    ax : a matplotlib Axes to draw into (default: a new figure).
    title : a title over the plot.

    Returns
    -------
    The matplotlib Figure.
    """
    import numpy as np

    checked_table("trace", trace, ("time", "cwnd", "ssthresh", "in_flight", "timeouts", "fast_retransmits"),
                  finite=("time", "cwnd", "ssthresh", "in_flight", "timeouts", "fast_retransmits"))
    if path is not None:
        checked_path(path)
    with style():
        if ax is not None:
            axes = checked_axes(ax, 1)
            fig = axes.figure
        else:
            fig, axes = new_figure((7.0, 3.6))
        time = trace["time"].to_numpy(dtype=float)
        cwnd = trace["cwnd"].to_numpy(dtype=float)
        has_pipe = "pipe" in trace.columns and bool(trace["pipe"].notna().all())
        if has_pipe:
            checked_table("trace", trace, ("pipe",), finite=("pipe",))
        flight = (trace["pipe"] if has_pipe else trace["in_flight"]).to_numpy(dtype=float)
        axes.step(time, flight, where="post", color="0.6", linewidth=0.8,
                  label="pipe (RFC 6675)" if has_pipe else "outstanding (high − una)")
        axes.step(time, cwnd, where="post", color="tab:blue", label="cwnd", linewidth=1.2)
        axes.step(time, trace["ssthresh"].to_numpy(dtype=float), where="post", color="tab:green", linestyle="--",
                  label="ssthresh")
        # The initial ssthresh (the receiver's window) would flatten everything else: the axis stops above the rest.
        top = max(float(np.max(cwnd)), float(np.max(flight)), 1.0)
        top = top * 1.15 if top < 1e300 else top
        axes.set_ylim(0.0, top)
        for column, marker, colour, label in (("fast_retransmits", "v", "tab:orange", "fast retransmit"),
                                              ("timeouts", "x", "red", "timeout")):
            steps = np.diff(trace[column].to_numpy(dtype=float), prepend=float(trace[column].iloc[0])) > 0
            if steps.any():
                axes.plot(time[steps], np.minimum(cwnd[steps], top * 0.97), marker, color=colour, markersize=7,
                          linestyle="none", label=label)
        return _labelled(fig, path, axes, "time [s]", "upper right", axes if title else None, title, ax is None)
