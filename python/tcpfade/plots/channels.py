"""Plots of channel models."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import _validate as v
from ._figure import checked_axes, checked_path, checked_table, finish, new_figure, on_axes, style

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


@v.checked(modulation=v.Instance(str, "must be a modulation's name (a string)"),
           packet_bytes=v.Optional(v.Integer(1, 1 << 30)))
def plot_error_vs_snr(table: pd.DataFrame, path: str | Path | None = None, *, ax=None, packet_bytes: int | None = None,
                      modulation: str = "bpsk") -> Figure:
    """Average packet error rate against average SNR, one curve per fD·T with its 95% band (zorzi-rao Fig. 7).

    Parameters
    ----------
    table : columns ``fdt``, ``snr_db``, ``error_rate``, ``error_rate_low``, ``error_rate_high``
        (:func:`tcpfade.bit_level_error_rate`'s table, or several concatenated).
    path : where to write the figure (PNG, SVG or PDF by suffix); None writes nothing.
    ax : matplotlib axes to draw into (default: a new figure).

    Returns
    -------
    The matplotlib Figure.
    """
    checked_table("table", table, ("fdt", "snr_db", "error_rate", "error_rate_low", "error_rate_high"),
                  finite=("fdt", "snr_db", "error_rate", "error_rate_low", "error_rate_high"))
    if path is not None:
        checked_path(path)
    with style():
        fig, ax = on_axes(checked_axes(ax, 1)) if ax is not None else new_figure()
        draw_error_vs_snr(table, ax)
        size = f", {packet_bytes}-byte packets" if packet_bytes else ""
        ax.set_title(f"Jakes fading, {modulation.upper()}{size}")
        if len(fig.axes) == 1:
            fig.tight_layout()
        return finish(fig, path)


def draw_error_vs_snr(table: pd.DataFrame, ax) -> None:
    """The curves of :func:`plot_error_vs_snr` on the axes ``ax``: log error rate, 95% bands."""
    positive = table["error_rate"][table["error_rate"] > 0]
    floor = 0.3 * positive.min() if len(positive) else 1e-6
    for (fdt, group), marker in zip(table.groupby("fdt"), "osd^v<>"):
        g = group.sort_values("snr_db")
        ax.semilogy(g["snr_db"], g["error_rate"], marker=marker, markersize=4, label=f"fD·T = {fdt:g}")
        # The 95% band; its lower edge is clipped to the axis floor so it cannot stretch the scale.
        ax.fill_between(g["snr_db"], g["error_rate_low"].clip(lower=floor), g["error_rate_high"], alpha=0.2)
    ax.set_ylim(bottom=floor, top=1.5)
    ax.set_xlabel("average SNR per bit [dB]")
    ax.set_ylabel("average packet error rate")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
