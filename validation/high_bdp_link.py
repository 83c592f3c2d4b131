"""A high bandwidth-delay-product link analysed and simulated: 100 Mb/s, a 100 ms round trip, 1500-byte packets
(μ = 8333 packets/s, μT ≈ 834) and a buffer of one pipe (β = 1), so w_p = B + μT = 1668 windows. Before the link
analysis was solved sparsely it refused such a link (its dense chain would have had 11,676 states).

For three fading channels (abouzeid's two-state channel, E[X] and E[Y] below), the refined analysis with the
paper's recovery (eq. (10)) and with the variants' recovery rounds, against Reno and NewReno simulations (five seeds
of the default length, 1.25e5 s each) with their 95% confidence interval over the seeds (t-distribution).
Writes validation/high_bdp_link.csv and prints it as a Markdown table.

    python validation/high_bdp_link.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.stats
from tqdm import tqdm

import tcpfade

HERE = Path(__file__).resolve().parent
#: 100 Mb/s of 1500-byte packets, τ = 100 ms, a buffer of one pipe.
LINK = dict(rate=1e8 / (1500 * 8), tau=0.1, packet_bytes=1500, beta=1)
#: (label, E[X], E[Y]) [s]: long good states with short fades, the same ten times faster, and long fades.
CHANNELS = [("slow, short fades", 10.0, 0.01), ("fast, short fades", 1.0, 0.001), ("slow, long fades", 30.0, 0.1)]
SEEDS = range(1, 6)


def main() -> None:
    rows = []
    for label, ex, ey in tqdm(CHANNELS, unit="channel"):
        row = {"channel": label, "mean_good": ex, "mean_bad": ey}
        for name, kw in (("analysis", {}), ("analysis_rounds_reno", {"recovery": "rounds"}),
                         ("analysis_rounds_newreno", {"recovery": "rounds", "variant": "newreno"})):
            start = time.perf_counter()
            a = tcpfade.analyze_link(kw.pop("variant", "reno"), **LINK, mean_good=ex, mean_bad=ey, **kw)
            row[name], row[f"{name}_seconds"] = a.goodput, time.perf_counter() - start
            row["max_window"] = a.max_window
        for variant in ("reno", "newreno"):
            runs = [tcpfade.simulate_link(variant, **LINK, mean_good=ex, mean_bad=ey, seed=s).goodput for s in SEEDS]
            half = scipy.stats.t.ppf(0.975, len(runs) - 1) * np.std(runs, ddof=1) / np.sqrt(len(runs))
            row[f"simulated_{variant}"] = float(np.mean(runs))
            row[f"simulated_{variant}_low"], row[f"simulated_{variant}_high"] = np.mean(runs) - half, np.mean(runs) + half
        rows.append(row)
    data = pd.DataFrame(rows)
    data.to_csv(HERE / "high_bdp_link.csv", index=False)
    print("| channel (E[X], E[Y]) | analysis, eq. (10) | analysis, Reno's rounds | simulated Reno | "
          "analysis, NewReno's rounds | simulated NewReno |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in data.itertuples():
        print(f"| {r.channel} ({r.mean_good:g} s, {r.mean_bad:g} s) | {r.analysis:.4f} ({r.analysis_seconds:.2f} s) | "
              f"{r.analysis_rounds_reno:.4f} | {r.simulated_reno:.4f} [{r.simulated_reno_low:.4f}, "
              f"{r.simulated_reno_high:.4f}] | {r.analysis_rounds_newreno:.4f} | {r.simulated_newreno:.4f} "
              f"[{r.simulated_newreno_low:.4f}, {r.simulated_newreno_high:.4f}] |")


if __name__ == "__main__":
    main()
