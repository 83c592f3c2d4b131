"""tsaoussidis-badr Table 1: TCP-Probing's readings of best RTT side by side, and the testbed's unknowns one at a
time, each judged by its fit to the paper (mean |ln(ours/paper)| over a phase length's 24 lossy cells, of time
and of overhead; for the readings, of Probing's time over the best standard variant's, the paper's headline) and
by the claims of ``tcpfade reproduce tsaoussidis-table1`` that agree.

Defaults are chosen on the 1-s phases (the selection set) and the 10-s phases are reported as held out: the
paper's headline claims are about 10-s phases, so they are not what the choice was tuned to. The fit's own noise
is measured by running the defaults with other seeds.

    python validation/tsaoussidis_sensitivity.py [--replications 100] [--seeds 5]

Prints Markdown tables (docs/validation/tsaoussidis-badr.md, "TCP-Probing and finite transfers"). About 2.5
minutes on one core.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from tcpfade.reproduce import FIGURES
from tcpfade.reproduce.tsaoussidis_table import PHASES, RATES, READINGS, STANDARD, TABLE1, UNKNOWNS, VARIANTS, fit, table
from tcpfade.tcp.transfer import BEST_RTT

CLAIMS = FIGURES["tsaoussidis-table1"].claims


def relative_fit(data: pd.DataFrame, phase: float) -> float:
    """Mean |ln| of (Probing's time / the best standard variant's) ours over the paper's, over the six lossy rates."""
    errors = []
    for rate in RATES[1:]:
        d = data[(data.phase == phase) & np.isclose(data.drop_rate, rate)].set_index("variant")
        ours = d.time["probing"] / d.time[list(STANDARD)].min()
        paper = TABLE1[(rate, "probing")][PHASES.index(phase)][0] / min(
            TABLE1[(rate, v)][PHASES.index(phase)][0] for v in STANDARD)
        errors.append(abs(np.log(ours / paper)))
    return float(np.mean(errors))


def claims(data: pd.DataFrame) -> str:
    """Which claims agree, by number (1-based, in the figure's order)."""
    agree = [str(i + 1) for i, c in enumerate(CLAIMS) if c.check(data).holds]
    return f"{len(agree)}/{len(CLAIMS)} ({', '.join(agree)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replications", type=int, default=100)
    parser.add_argument("--seeds", type=int, default=5, help="seeds of the defaults, for the fit's noise")
    args = parser.parse_args()
    r = args.replications
    default = {"best_rtt": BEST_RTT[0]}
    base = table(1, r, [(v, v, default if v == "probing" else {}) for v in VARIANTS])

    print(f"## Readings of best RTT ({r} replications a cell, seed 1; selection: 1-s phases, held out: 10-s)\n")
    print("| reading | IR / SS per transfer (1 s, 10 s) | Probing at 33% / 50%, 10 s [s] | rel. fit 1 s | "
          "rel. fit 10 s | Probing cells' time fit 1 s / 10 s | claims agreeing |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, kw in READINGS.items():
        probing = table(1, r, [("probing", "probing", kw)])
        data = pd.concat([base[base.variant != "probing"], probing], ignore_index=True)
        counts = [f"{g.immediate_recoveries.mean():.0f} / {g.slow_starts.mean():.1f}"
                  for _, g in probing[probing.drop_rate > 0].groupby("phase")]
        p10 = probing[probing.phase == 10.0].set_index("drop_rate").time
        cells = [float(np.mean(np.abs(np.log(g.time / g.time_published))))
                 for _, g in data[(data.variant == "probing") & (data.drop_rate > 0)].groupby("phase")]
        print(f"| {name} | {', '.join(counts)} | {p10[1 / 3]:.1f} / {p10[0.5]:.1f} (paper 111.9 / 103.2) | "
              f"{relative_fit(data, 1.0):.3f} | {relative_fit(data, 10.0):.3f} | {cells[0]:.3f} / {cells[1]:.3f} | "
              f"{claims(data)} |", flush=True)

    print(f"\n## The testbed's unknowns, one change at a time ({r} replications a cell, seed 1)\n")
    print("| change | zero-loss row | time fit 1 s | overhead fit 1 s | time fit 10 s | overhead fit 10 s | "
          "claims agreeing |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    rows = {"none (the defaults)": {}, **UNKNOWNS}
    for name, kw in rows.items():
        data = base if not kw else table(1, r, [(v, v, {**kw, **(default if v == "probing" else {})})
                                               for v in VARIANTS])
        zero = data[data.drop_rate == 0]
        f1, f10 = fit(data, 1.0), fit(data, 10.0)
        print(f"| {name} | {zero.time.mean():.3f} s, {zero.overhead.mean():.2f}% | {f1['time']:.3f} | "
              f"{f1['overhead']:.3f} | {f10['time']:.3f} | {f10['overhead']:.3f} | {claims(data)} |", flush=True)

    print(f"\n## The fit's noise: the defaults with seeds 1-{args.seeds}\n")
    fits = []
    for seed in range(1, args.seeds + 1):
        data = base if seed == 1 else table(seed, r, [(v, v, default if v == "probing" else {}) for v in VARIANTS])
        f1, f10 = fit(data, 1.0), fit(data, 10.0)
        fits.append((f1["time"], f1["overhead"], f10["time"], f10["overhead"], relative_fit(data, 1.0),
                     relative_fit(data, 10.0)))
    fits = np.array(fits)
    names = ("time fit 1 s", "overhead fit 1 s", "time fit 10 s", "overhead fit 10 s", "rel. fit 1 s", "rel. fit 10 s")
    print("| metric | mean | standard deviation over seeds | range |")
    print("| --- | --- | --- | --- |")
    for k, name in enumerate(names):
        col = fits[:, k]
        print(f"| {name} | {col.mean():.3f} | {col.std(ddof=1):.3f} | {col.min():.3f} to {col.max():.3f} |")


if __name__ == "__main__":
    main()
