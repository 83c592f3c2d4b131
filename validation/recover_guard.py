"""The measured effect of RFC 6582's `recover` guard (§3.2 steps 2 and 4) on NewReno (BRIEF D10): the same
channel realisation (same seed) with and without it, so each pair's difference is the guard's alone. Slotted
model: Gilbert-Elliott channels from fading (Wmax = 24, K = 3, T0 = 100, 10^6 slots); link model: abouzeid's
link (μ = 100 packets/s, τ = 0.05 s, β = 1) over the time-clocked two-state channel. Ten seeds per point; the
interval is the paired mean's 95% t-interval. Writes validation/recover_guard.csv.

    python validation/recover_guard.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import tcpfade

HERE = Path(__file__).resolve().parent
SEEDS = range(10)


def paired(metric, run) -> dict[str, float]:
    """Relative change of ``metric`` with the guard, over SEEDS (mean and its 95% interval half-width)."""
    d = np.array([getattr(run(s, True), metric) / getattr(run(s, False), metric) - 1.0 for s in SEEDS])
    half = stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
    return {"change_percent": 100 * d.mean(), "ci_half_width_percent": 100 * half}


def main() -> None:
    rows = []
    for fdt in (0.01, 0.1):
        for pe in (0.01, 0.05, 0.1):
            ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
            rows.append({"model": "slotted", "point": f"fD·T = {fdt}, Pe = {pe}", **paired(
                "throughput", lambda s, g: tcpfade.simulate("newreno", ch, slots=10**6, seed=s, recover_guard=g))})
    for x, y in ((1.0, 0.1), (8.0, 2.0), (0.1, 0.01)):
        rows.append({"model": "link", "point": f"E[X] = {x} s, E[Y] = {y} s", **paired(
            "goodput", lambda s, g: tcpfade.simulate_link("newreno", rate=100, tau=0.05, beta=1, mean_good=x,
                                                          mean_bad=y, duration=2000, seed=s, recover_guard=g))})
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "recover_guard.csv", index=False, float_format="%.3f")
    print(table.to_string(index=False, float_format=lambda z: f"{z:+.2f}"))


if __name__ == "__main__":
    main()
