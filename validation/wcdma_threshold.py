"""Where zorzi-rossi-mazzini's optimal power-control threshold lies in our uplink, and why (Figs. 7-12): the
users' mean throughput, block error rate, time at maximum power and ATP against the threshold t
(SIR_th = t + 0.5 dB), at the paper's load (120 users) and at half of it (60), f_d = 6 Hz, TTI = 1, 60 s, one
seed for every t (the same placement, shadowing and fading). Writes validation/wcdma_threshold.csv.

    python validation/wcdma_threshold.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent
THRESHOLDS = (-1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.0, 4.5, 5.0)


def main() -> None:
    rows = []
    for users in (120, 60):
        for t in THRESHOLDS:
            f = wcdma.simulate(users=users, target_sir_db=t, duration=60.0, seed=101).to_frame()
            rows.append({"users": users, "target_sir_db": t, "mean_throughput": f.throughput.mean(),
                         "median_throughput": f.throughput.median(), "mean_block_error_rate": f.block_error_rate.mean(),
                         "median_block_error_rate": f.block_error_rate.median(),
                         "share_at_max_power": f.share_at_max_power.mean(), "median_atp_w": f.atp.median(),
                         "users_with_throughput_below_0.5": int((f.throughput < 0.5).sum())})
            print({k: (round(float(x), 4) if isinstance(x, float) else x) for k, x in rows[-1].items()}, flush=True)
    table = pd.DataFrame(rows)
    table.to_csv(HERE / "wcdma_threshold.csv", index=False)
    for users, d in table.groupby("users"):
        best = d.loc[d.mean_throughput.idxmax()]
        print(f"{users} users: mean S largest at t = {best.target_sir_db:g} dB ({best.mean_throughput:.3f}); "
              f"from 1.5 to 5 dB mean S {np.interp(1.5, d.target_sir_db, d.mean_throughput):.3f} -> "
              f"{d.mean_throughput.iloc[-1]:.3f}, median ATP x{d.median_atp_w.iloc[-1] / np.interp(1.5, d.target_sir_db, d.median_atp_w):.1f}")


if __name__ == "__main__":
    main()
