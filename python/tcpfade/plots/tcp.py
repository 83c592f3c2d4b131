"""Plots of TCP runs."""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from ._figure import checked_path, pyplot, save

if TYPE_CHECKING:
    import pandas as pd


def plot_slot_trace(trace: pd.DataFrame, path: str | Path, *, title: str = "") -> Path:
    """Per-slot trace in the style of chockalingam Figs. 1-3: transmitted packet id per slot
    (top; 0 = idle, so ids are shown from 1 as in the paper; lost transmissions marked) and W, Wth
    (bottom)."""
    out = checked_path(path)
    fig, (top, bottom) = pyplot().subplots(2, 1, figsize=(8, 6), sharex=True)
    slot = trace["slot"].to_numpy() + 1
    packet_id = trace["seq"].fillna(-1).to_numpy(dtype=float) + 1
    top.step(slot, packet_id, where="mid", color="0.3", linewidth=1)
    sent = packet_id > 0
    lost = trace["lost"].to_numpy() & sent
    top.plot(slot[sent & ~lost], packet_id[sent & ~lost], "o", markersize=3, label="received")
    top.plot(slot[lost], packet_id[lost], "x", color="red", markersize=6, label="lost")
    retx = trace["retransmission"].to_numpy()
    top.plot(slot[retx], packet_id[retx], "s", markerfacecolor="none", markersize=6, label="retransmission")
    top.set_ylabel("Tx packet id (0 = idle)")
    top.legend(loc="upper left", fontsize=8)
    top.grid(alpha=0.3)
    bottom.step(slot, trace["cwnd"], where="post", label="W[i]")
    bottom.step(slot, trace["ssthresh"], where="post", linestyle="--", label="W$_{th}$[i]")
    bottom.set_xlabel("time i [packet slots]")
    bottom.set_ylabel("window [packets]")
    bottom.legend(loc="upper left", fontsize=8)
    bottom.grid(alpha=0.3)
    if title:
        top.set_title(title, fontsize=10)
    fig.tight_layout()
    return save(fig, out)
