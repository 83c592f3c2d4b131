"""Analysis against simulation on the issue's grid (docs/validation/zorzi-rao.md, "Renewal-reward analysis").

Grid: variants x fD·T in {0.001, 0.016, 0.256} x P_E in {0.001, 0.01, 0.03, 0.1, 0.3} x Wmax in {6, 24}
x K in {1, 3} x T0 in {50, 100}; channel = two-state Markov chain of Rayleigh fading (zorzi-rao eqs. 2-5).
For each point: analysis bounds [pessimistic, optimistic] of the throughput against the simulation's 95%
batch-means interval (1e7 slots, 1e8 at P_E = 0.001), and the exact quantities (load, correct transmissions per slot, timeouts and fast
retransmits per slot, mean window at loss) against theirs.

    python validation/analysis_vs_simulation.py [--slots 1e7] [--variants tahoe,oldtahoe] [--csv out.csv]
"""

from __future__ import annotations

import argparse
import itertools
import time

import pandas as pd
from scipy import stats
from tqdm import tqdm

import tcpfade
from tcpfade.analysis import EXACT_METRICS

FDT = (0.001, 0.016, 0.256)
PE = (0.001, 0.01, 0.03, 0.1, 0.3)
WMAX = (6, 24)
K = (1, 3)
T0 = (50, 100)
BATCHES = 30
#: Student t quantiles of the 95% and 99.9% batch-means intervals (30 batches).
T95, T999 = stats.t.ppf(0.975, BATCHES - 1), stats.t.ppf(0.9995, BATCHES - 1)


def gap(value_lo: float, value_hi: float, lo: float, hi: float) -> float:
    """Distance between the interval [value_lo, value_hi] and [lo, hi] (0 when they overlap)."""
    return max(0.0, lo - value_hi, value_lo - hi)


def run(variants: list[str], slots: int, seed: int) -> pd.DataFrame:
    rows = []
    grid = list(itertools.product(variants, FDT, PE, WMAX, K, T0))
    for variant, fdt, pe, wmax, k, t0 in tqdm(grid, desc="grid", unit="point"):
        ch = tcpfade.GilbertElliott.from_fading(error_rate=pe, fdt=fdt)
        t = time.perf_counter()
        a = tcpfade.analyze(variant, ch, wmax=wmax, dupthresh=k, rto_slots=t0)
        analysis_ms = (time.perf_counter() - t) * 1e3
        # Rare losses make few loss events per batch; give them as many events as P_E = 0.01 gets.
        n = int(slots * max(1.0, 0.01 / pe))
        s = tcpfade.simulate(variant, ch, wmax=wmax, dupthresh=k, rto_slots=t0, slots=n, seed=seed, batches=BATCHES)
        lo, hi = s.ci["throughput"]
        row = dict(variant=variant, fdt=fdt, pe=pe, wmax=wmax, K=k, T0=t0,
                   pessimistic=a.throughput.pessimistic, optimistic=a.throughput.optimistic,
                   simulated=s.throughput, ci_low=lo, ci_high=hi,
                   throughput_gap=gap(lo, hi, a.throughput.low, a.throughput.high),
                   half_width=(hi - lo) / 2, analysis_ms=analysis_ms)
        # Exact quantities: deviation in standard errors of the batch mean (σ = CI half-width / t).
        worst, worst_name = 0.0, ""
        for name in EXACT_METRICS:
            clo, chi = s.ci[name]
            sigma = (chi - clo) / 2 / T95
            z = abs(a.bounds[name].optimistic - getattr(s, name)) / sigma if sigma > 0 else 0.0
            if z > worst:
                worst, worst_name = z, name
        row["exact_worst_z"], row["exact_worst_metric"] = worst, worst_name
        row["agrees"] = row["throughput_gap"] == 0.0 and worst <= T999
        rows.append(row)
    return pd.DataFrame(rows)


def markdown(df: pd.DataFrame) -> str:
    out = ["| variant | fD·T | P_E | Wmax | K | T0 | analysis [pess, opt] | simulation (95% CI) | agrees |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in df.itertuples():
        out.append(f"| {r.variant} | {r.fdt} | {r.pe} | {r.wmax} | {r.K} | {r.T0} | "
                   f"[{r.analysis_low:.4f}, {r.analysis_high:.4f}] | {r.simulated:.4f} [{r.simulated_low:.4f}, {r.simulated_high:.4f}] | "
                   f"{'yes' if r.agrees else '**no**'} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--slots", default="1e7")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--variants", default=",".join(tcpfade.ANALYZED_VARIANTS))
    ap.add_argument("--csv")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    df = run(args.variants.split(","), int(float(args.slots)), args.seed)
    if args.csv:
        df.to_csv(args.csv, index=False)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(markdown(df) + "\n")
    n, ok = len(df), int(df["agrees"].sum())
    print(f"{ok} of {n} points agree (throughput 95% CI overlaps the bounds; exact quantities within their "
          f"99.9% CI, |z| <= {T999:.2f})")
    print(f"throughput: {int((df.throughput_gap == 0).sum())} of {n} overlap; largest gap "
          f"{df.throughput_gap.max():.2e} ({(df.throughput_gap / df.half_width).max():.2f} half-widths)")
    worst = df.loc[df.exact_worst_z.idxmax()]
    print(f"exact quantities ({len(EXACT_METRICS)} per point): largest |z| {worst.exact_worst_z:.2f} "
          f"({worst.exact_worst_metric}); {int((df.exact_worst_z > T95).sum())} points with some |z| > {T95:.2f}")
    print(f"bounds width: median {(df.optimistic - df.pessimistic).median():.2e}, "
          f"max {(df.optimistic - df.pessimistic).max():.3f}")
    print(f"analysis time per point: median {df.analysis_ms.median():.2f} ms, max {df.analysis_ms.max():.2f} ms")
    bad = df[~df.agrees]
    if len(bad):
        print(bad.to_string())


if __name__ == "__main__":
    main()
