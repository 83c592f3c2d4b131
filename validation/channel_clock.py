"""How much a channel clocked by packets (ns-2's original two-state model) changes TCP's goodput against the
time-clocked channel of abouzeid §III, on abouzeid Fig. 5's link (μ = 100 packets/s, τ = 0.1 s, β = 4: B = 44,
w_p = 55) for f = 1% and 10% over a range of E[Y] (E[X] = E[Y](1 − f)/f). Three seeds per point, each of the
default length (1000 · max(t_p, E[X] + E[Y])). Writes validation/channel_clock.csv and .png.

    python validation/channel_clock.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

import tcpfade
from tcpfade.plots._figure import pyplot, save

HERE = Path(__file__).resolve().parent
MEAN_BAD = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
SEEDS = (1, 2, 3)


def main() -> None:
    rows = []
    points = [(f, y, clock) for f in (0.01, 0.10) for y in MEAN_BAD for clock in ("time", "packets")]
    for f, y, clock in tqdm(points, unit="point"):
        x = y * (1 - f) / f
        runs = [tcpfade.simulate_link("reno", rate=100, tau=0.1, beta=4, mean_good=x, mean_bad=y, seed=s,
                                      channel_clock=clock) for s in SEEDS]
        g = np.array([r.goodput for r in runs])
        rows.append({"f": f, "mean_bad": y, "mean_good": x, "clock": clock, "goodput": g.mean(),
                     "goodput_sd": g.std(ddof=1), "timeouts_per_s": np.mean([r.timeouts_per_s for r in runs]),
                     "duration": runs[0].duration})
    data = pd.DataFrame(rows)
    data.to_csv(HERE / "channel_clock.csv", index=False)
    fig, ax = pyplot().subplots(figsize=(7, 4.5))
    for i, f in enumerate((0.01, 0.10)):
        for clock, style in (("time", "-"), ("packets", "--")):
            d = data[(data.f == f) & (data.clock == clock)]
            ax.errorbar(d.mean_bad, d.goodput, yerr=d.goodput_sd, color=f"C{i}", linestyle=style, marker="o",
                        markersize=3, capsize=2, label=f"f = {f:.0%}, channel clocked by {clock}")
    ax.set_xscale("log")
    ax.set_xlabel("mean bad duration E[Y] (s)")
    ax.set_ylabel("goodput (normalized by μ)")
    ax.set_title("TCP Reno, μ = 100 packets/s, τ = 0.1 s, β = 4 (abouzeid Fig. 5's link)", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, HERE / "channel_clock.png")
    print(data.pivot_table(index=["f", "mean_bad"], columns="clock", values="goodput").round(4).to_string())


if __name__ == "__main__":
    main()
