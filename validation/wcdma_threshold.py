"""Where zorzi-rossi-mazzini's optimal power-control threshold lies (Figs. 7-12, §4), per SIR reference (decision
D13), over 10 user placements, and what sets it: per threshold t (SIR_th = t + 0.5 dB), the users' mean
throughput S, mean block error probability P_e, the share of slots at maximum power, the users at maximum power
more than half the time and their S and P_e beside the others'. 120 users, f_d = 6 Hz, TTI = 1, 60 s; placement
k (seed 1000 + k) is the same at every t (only the power control differs). Intervals are Student-t 95% over the
placements (paired over t for differences). Writes validation/wcdma_threshold.csv (one row per reference, t and
placement).

    python validation/wcdma_threshold.py [--seeds 10] [--reference bit symbol]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent
#: The paper's thresholds 1.5-5 dB, and beyond them where a reference's optimum could lie.
THRESHOLDS = {"symbol": (-0.5, 0.5, 1.5, 2.5, 3.5, 4.0, 4.5, 5.0), "bit": (1.5, 2.5, 3.5, 4.0, 4.5, 5.0, 5.5, 6.5)}


def run(reference: str, t: float, placement: int, users: int = 120, duration: float = 60.0) -> dict:
    f = wcdma.simulate(users=users, target_sir_db=t, duration=duration, seed=1000 + placement,
                       sir_reference=reference).to_frame()
    stuck = f.share_at_max_power > 0.5
    return {"reference": reference, "target_sir_db": t, "placement": placement,
            "mean_throughput": f.throughput.mean(), "mean_block_error_rate": f.block_error_rate.mean(),
            "share_at_max_power": f.share_at_max_power.mean(), "users_mostly_at_max": int(stuck.sum()),
            "throughput_mostly_at_max": f.throughput[stuck].mean() if stuck.any() else np.nan,
            "throughput_others": f.throughput[~stuck].mean() if (~stuck).any() else np.nan,
            "pe_mostly_at_max": f.block_error_rate[stuck].mean() if stuck.any() else np.nan,
            "pe_others": f.block_error_rate[~stuck].mean() if (~stuck).any() else np.nan,
            "users_below_half": int((f.throughput < 0.5).sum()), "median_atp_w": f.atp.median()}


def half_width(x) -> float:
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    return float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def nanmean(x) -> float:
    x = np.asarray(x, dtype=float)
    return float(x[np.isfinite(x)].mean()) if np.isfinite(x).any() else float("nan")


def summarize(table: pd.DataFrame) -> None:
    for reference, d in table.groupby("reference", sort=False):
        s = d.pivot(index="placement", columns="target_sir_db", values="mean_throughput")
        best = float(s.mean().idxmax())
        argmax = s.idxmax(axis=1)
        print(f"\nreference {reference}: mean S over {len(s)} placements largest at t = {best:g} dB; per placement "
              f"the best t is {argmax.mean():.2f} ± {half_width(argmax):.2f} dB (values {sorted(argmax.tolist())})")
        print("   t | mean S       | S(t) - S(best), paired | mean P_e        | slots at max | users >½ at max | "
              "S of those / others | P_e of those / others")
        for t, g in d.groupby("target_sir_db"):
            diff = s[t] - s[best]
            print(f"{t:4g} | {g.mean_throughput.mean():.3f} ± {half_width(g.mean_throughput):.3f} | "
                  f"{diff.mean():+.3f} ± {half_width(diff):.3f}        | "
                  f"{g.mean_block_error_rate.mean():.4f} ± {half_width(g.mean_block_error_rate):.4f} | "
                  f"{100 * g.share_at_max_power.mean():5.1f} ± {100 * half_width(g.share_at_max_power):4.1f}% | "
                  f"{g.users_mostly_at_max.mean():5.1f} ± {half_width(g.users_mostly_at_max):4.1f}     | "
                  f"{nanmean(g.throughput_mostly_at_max):.3f} / {g.throughput_others.mean():.3f}       | "
                  f"{nanmean(g.pe_mostly_at_max):.3f} / {g.pe_others.mean():.5f}")
        close = [t for t in s.columns if t != best and (s[t] - s[best]).mean() + half_width(s[t] - s[best]) >= 0]
        print(f"thresholds not significantly below the best (paired 95%): {close or 'none'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--reference", nargs="+", choices=wcdma.SIR_REFERENCES, default=["bit", "symbol"])
    ap.add_argument("--summary-only", action="store_true", help="summarize the CSV without running")
    a = ap.parse_args()
    out = HERE / "wcdma_threshold.csv"
    if not a.summary_only:
        rows = []
        for reference in a.reference:
            for placement in range(1, a.seeds + 1):
                for t in THRESHOLDS[reference]:
                    rows.append(run(reference, t, placement))
                    print({k: (round(float(x), 4) if isinstance(x, float) else x) for k, x in rows[-1].items()},
                          flush=True)
                pd.DataFrame(rows).to_csv(out, index=False)
    summarize(pd.read_csv(out))


if __name__ == "__main__":
    main()
