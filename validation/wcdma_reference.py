"""The evidence for the default SIR reference (decision D13) from zorzi-rossi-mazzini's Fig. 1: at the paper's
5.5-dB target with 90 users (f_d = 6 Hz, TTI 1, 60 s) how the users spread over P_e, per reference, over 10
placements (seeds 1000 + k, the placements of validation/wcdma_threshold.py). The paper's Fig. 1 has users from
P_e ≈ 1e-3 to ≈ 1 (S from its ceiling to about 0). Per reference: the users with P_e above 1e-3, above 0.1 and
S below 0.5, the share of slots at maximum power, and the users' P_e quantiles (mean ± Student-t 95% over the
placements). Writes validation/wcdma_reference.csv.

    python validation/wcdma_reference.py [--seeds 10]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent


def half_width(x) -> float:
    x = np.asarray(x, dtype=float)
    return float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    a = ap.parse_args()
    rows = []
    for reference in wcdma.SIR_REFERENCES:
        for k in range(1, a.seeds + 1):
            f = wcdma.simulate(users=90, target_sir_db=5.5, duration=60.0, seed=1000 + k,
                               sir_reference=reference).to_frame()
            pe = f.block_error_rate
            rows.append({"reference": reference, "placement": k, "users_pe_above_1e-3": int((pe > 1e-3).sum()),
                         "users_pe_above_0.1": int((pe > 0.1).sum()), "users_s_below_half": int((f.throughput < 0.5).sum()),
                         "share_at_max_power": f.share_at_max_power.mean(), "pe_median": pe.median(),
                         "pe_90th": pe.quantile(0.9), "pe_max": pe.max(), "mean_throughput": f.throughput.mean()})
            print(rows[-1], flush=True)
    d = pd.DataFrame(rows)
    d.to_csv(HERE / "wcdma_reference.csv", index=False)
    print(f"\n90 users, target 5.5 dB, 6 Hz, 60 s, {a.seeds} placements (mean ± 95%):")
    for reference, g in d.groupby("reference", sort=False):
        print(f"SIR per {reference}: " + "; ".join(f"{c} {g[c].mean():.3g} ± {half_width(g[c]):.2g}"
                                                    for c in d.columns[2:]))


if __name__ == "__main__":
    main()
