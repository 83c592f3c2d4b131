"""TCP variants over the WCDMA uplink, side by side on one placement (zorzi-rossi-mazzini name "TCP versions other
than NewReno" as the next study; docs/validation/zorzi-rossi-mazzini.md, "Other TCP variants").

    python3 validation/wcdma_variants.py            # 90 users, 60 s, about 2 minutes
    python3 validation/wcdma_variants.py --quick    # 90 users, 20 s

One uplink run (one placement, one seed) and one block error sequence per user, shared by every variant: the only
difference between the columns is the TCP sender. For each variant: the users' mean throughput S with its Student-t
interval over the users, and for each variant against NewReno the mean paired difference (same user, same blocks)
with its interval. Writes validation/wcdma_variants.csv and docs/validation/wcdma_variants.png and prints a Markdown
table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent
VARIANTS = ("newreno", "reno", "tahoe", "oldtahoe")


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean and Student-t 95% interval over the users."""
    m = float(values.mean())
    half = float(stats.t.ppf(0.975, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size))
    return m, m - half, m + half


def study(users: int, duration: float, seed: int, target_sir_db: float, tti_frames: int = 1
          ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-user rows (user, variant, throughput, block error rate) and the summary table."""
    system = wcdma.simulate_system(users=users, duration=duration, seed=seed, target_sir_db=target_sir_db,
                                   progress=True)
    frames = []
    for name in VARIANTS:
        f = wcdma.tcp_over_system(system, tti_frames=tti_frames, variant=name).to_frame()
        frames.append(f.assign(variant=name, user=np.arange(len(f))))
    per_user = pd.concat(frames, ignore_index=True)
    wide = per_user.pivot(index="user", columns="variant", values="throughput")
    rows = []
    for name in VARIANTS:
        m, lo, hi = interval(wide[name].to_numpy())
        d, dlo, dhi = interval((wide[name] - wide["newreno"]).to_numpy()) if name != "newreno" else (0.0, 0.0, 0.0)
        rows.append({"variant": name, "mean_throughput": m, "low": lo, "high": hi, "minus_newreno": d,
                     "minus_newreno_low": dlo, "minus_newreno_high": dhi})
    return per_user, pd.DataFrame(rows)


def plot(per_user: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, marker in zip(VARIANTS, "os^v"):
        sub = per_user[per_user.variant == name]
        ax.scatter(sub.block_error_rate, sub.throughput, s=14, marker=marker, alpha=0.7, label=name)
    ax.set_xscale("symlog", linthresh=1e-3)
    ax.set_xlabel("block error rate P_e of the user")
    ax.set_ylabel("throughput S")
    ax.set_title("TCP variants over the same block errors (one placement)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target-sir-db", type=float, default=3.5,
                        help="the power control's target: 3.5 dB, the paper's optimum (Figs. 7-12), where blocks fail")
    args = parser.parse_args()
    users, duration = (90, 20.0) if args.quick else (90, 60.0)
    per_user, table = study(users, duration, args.seed, args.target_sir_db)
    suffix = "_quick" if args.quick else ""
    table.to_csv(HERE / f"wcdma_variants{suffix}.csv", index=False)
    plot(per_user, HERE.parent / "docs" / "validation" / f"wcdma_variants{suffix}.png")
    print(f"{users} users, {duration:g} s, seed {args.seed}, TTI 10 ms, target SIR {args.target_sir_db:g} dB (per bit)\n")
    print("| variant | mean S [95% CI over users] | S − NewReno's, same user [95% CI] |")
    print("| --- | --- | --- |")
    for r in table.itertuples():
        diff = "—" if r.variant == "newreno" else \
            f"{r.minus_newreno:+.4f} [{r.minus_newreno_low:+.4f}, {r.minus_newreno_high:+.4f}]"
        print(f"| {r.variant} | {r.mean_throughput:.4f} [{r.low:.4f}, {r.high:.4f}] | {diff} |")


if __name__ == "__main__":
    main()
