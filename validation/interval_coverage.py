"""How often the slotted simulator's 95% batch-means interval for throughput covers the true value, over 300
seeds a point (NewReno, Wmax = 24, K = 3, T0 = 100, 30 batches (the default), the Rayleigh-fading Markov channel of
zorzi-rao). The true value is taken as the mean of the 300 point estimates (all runs have the same length, so
that is the pooled ratio), whose own standard error is a seventeenth of one run's. Also: the spread of the
point estimates across seeds against the batch standard errors, and the timeouts a run. Writes
validation/interval_coverage.csv.

    python validation/interval_coverage.py
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from tqdm import tqdm

import tcpfade

HERE = Path(__file__).resolve().parent
RUNS = 300
BATCHES = 30
#: (P_E, fD·T, slots): rare losses at two fading speeds and two lengths, then more frequent losses.
POINTS = ((0.001, 0.016, 200_000), (0.001, 0.016, 2_000_000), (0.001, 0.256, 200_000), (0.001, 0.001, 2_000_000),
          (0.01, 0.016, 200_000), (0.1, 0.016, 200_000))


def coverage(error_rate: float, fdt: float, slots: int) -> dict:
    channel = tcpfade.GilbertElliott.from_fading(error_rate=error_rate, fdt=fdt)
    runs = [tcpfade.simulate("newreno", channel, wmax=24, dupthresh=3, rto_slots=100, slots=slots, seed=s,
                            batches=BATCHES)
            for s in range(RUNS)]
    points = np.array([r.throughput for r in runs])
    low, high = (np.array([r.ci["throughput"][i] for r in runs]) for i in (0, 1))
    truth = points.mean()
    hits = int(((low <= truth) & (truth <= high)).sum())
    c_low, c_high = stats.binomtest(hits, RUNS).proportion_ci(0.95, method="exact")   # Clopper-Pearson
    batch_se = (high - low) / 2 / stats.t.ppf(0.975, BATCHES - 1)
    timeouts = np.array([r.timeouts for r in runs])
    return {"error_rate": error_rate, "fdt": fdt, "slots": slots, "coverage": hits / RUNS,
            "coverage_low": float(c_low), "coverage_high": float(c_high),
            "across_seed_sd": float(points.std(ddof=1)), "rms_batch_se": float(math.sqrt((batch_se**2).mean())),
            "median_batch_se": float(np.median(batch_se)), "timeouts_per_run": float(timeouts.mean()),
            "runs_without_timeout": float((timeouts == 0).mean())}


def main() -> None:
    rows = [coverage(*p) for p in tqdm(POINTS, unit="point")]
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "interval_coverage.csv", index=False)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda x: f"{x:.4g}"))


if __name__ == "__main__":
    main()
