"""Plots of channel models."""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from ._figure import checked_path, pyplot, save

if TYPE_CHECKING:
    import pandas as pd


def plot_error_vs_snr(table: pd.DataFrame, path: str | Path, *, packet_bytes: int | None = None,
                      modulation: str = "bpsk") -> Path:
    """Average packet error rate against average SNR, one curve per fD·T (zorzi-rao Fig. 7).

    ``table`` has columns ``fdt``, ``snr_db``, ``error_rate``, ``error_rate_low``, ``error_rate_high``. The figure
    is written to ``path`` (PNG, SVG or PDF by suffix); the path is returned.
    """
    out = checked_path(path)
    fig, ax = pyplot().subplots(figsize=(6, 4.5))
    draw_error_vs_snr(table, ax)
    size = f", packet size {packet_bytes} bytes" if packet_bytes else ""
    ax.set_title(f"Packet error rate vs average SNR (Jakes, {modulation.upper()}{size})", fontsize=10)
    fig.tight_layout()
    return save(fig, out)


def draw_error_vs_snr(table: pd.DataFrame, ax) -> None:
    """The curves of :func:`plot_error_vs_snr` on the axes ``ax``: log error rate, 95% bands."""
    positive = table["error_rate"][table["error_rate"] > 0]
    floor = 0.3 * positive.min() if len(positive) else 1e-6
    for (fdt, group), marker in zip(table.groupby("fdt"), "osd^v<>"):
        g = group.sort_values("snr_db")
        ax.semilogy(g["snr_db"], g["error_rate"], marker=marker, markersize=4, label=f"$f_D T$ = {fdt:g}")
        # The 95% band; its lower edge is clipped to the axis floor so it cannot stretch the scale.
        ax.fill_between(g["snr_db"], g["error_rate_low"].clip(lower=floor), g["error_rate_high"], alpha=0.2)
    ax.set_ylim(bottom=floor, top=1.5)
    ax.set_xlabel("average SNR per bit [dB]")
    ax.set_ylabel("average packet error rate")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
