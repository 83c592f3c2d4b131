"""Why our WCDMA users' throughput falls at smaller block error rates than zorzi-rossi-mazzini's universal curve
(eqs. (3)-(6) with A = 1.39, B = 2.78, k = 0.03, α = 1.3): the same block error sequences (60-s runs of 90 users
at f_d = 6 Hz, TTI 1, target 5.5 dB in the ``--reference`` SIR, ``--seeds`` placements) fed to TCP NewReno with
the settings the paper does not give: the return path's delay (ack_delay), the timer's minimum (min_rto) and its
clock granularity; and the i.i.d. case (every user's errors shuffled in time, same P_e). For each: the P_e at which
the users' S crosses S(0)/2 = 0.46 (a logistic fit of S against log10 P_e over users with 1e-4 < P_e < 0.9,
pooled over the placements, and per placement with more than 5 such users: mean ± Student-t 95%) and the users'
RMS distance from the paper's curve. Writes validation/wcdma_curve_offset_<reference>.csv.

    python validation/wcdma_curve_offset.py [--seeds 10] [--reference bit]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import optimize, stats

from tcpfade import wcdma

HERE = Path(__file__).resolve().parent
S0 = 472 / 512
SETTINGS = [
    {"label": "default (ack_delay 50 ms, min_rto 1 s, 10-ms clock)"},
    {"label": "ack_delay 10 ms", "ack_delay": 0.01},
    {"label": "ack_delay 200 ms", "ack_delay": 0.2},
    {"label": "min_rto 0.2 s", "min_rto": 0.2},
    {"label": "min_rto 0.2 s, 100-ms clock", "min_rto": 0.2, "clock_granularity": 0.1},
    {"label": "min_rto 3 s", "min_rto": 3.0},
    {"label": "ack_delay 10 ms, min_rto 0.2 s", "ack_delay": 0.01, "min_rto": 0.2},
    {"label": "errors shuffled in time (i.i.d.)", "shuffle": True},
]


def crossing(pe: np.ndarray, s: np.ndarray) -> float:
    """P_e where S = S0 / 2 on a logistic fit S = S0 / (1 + (P_e / x50)^h); NaN unless at least 3 informative
    users lie on each side of S0 / 2 (a crossing the users do not reach would be an extrapolation)."""
    keep = (pe > 1e-4) & (pe < 0.9)
    lx, y = np.log10(pe[keep]), s[keep]
    if (y > S0 / 2).sum() < 3 or (y < S0 / 2).sum() < 3:
        return float("nan")

    def model(lx, l50, h):
        return S0 / (1 + 10 ** (h * (lx - l50)))

    with np.errstate(over="ignore"):
        (l50, _h), _ = optimize.curve_fit(model, lx, y, p0=[-1.3, 2.0], maxfev=20_000)
    return float(10 ** l50) if -10 < l50 < 0 else float("nan")


def users_of(seed: int, reference: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per setting, the users' (P_e, S) of one placement."""
    run = wcdma.simulate(users=90, doppler_hz=6.0, duration=60.0, seed=seed, sir_reference=reference)
    bep = run.block_error_probability
    rng = np.random.default_rng(np.random.SeedSequence([seed, 2]))
    bes = rng.random(bep.shape) < bep            # the chain's own coin flips (same seed, same draws)
    out = {}
    for setting in SETTINGS:
        kwargs = {k: v for k, v in setting.items() if k not in ("label", "shuffle")}
        shuffle = np.random.default_rng(5)
        users = []
        for u in range(run.parameters["users"]):
            seq = bes[u].copy()
            if setting.get("shuffle"):
                shuffle.shuffle(seq)
            r = wcdma.tcp_over_blocks(seq.astype(np.uint8), block_error_probability=bep[u], **kwargs)
            users.append((r.block_error_rate, r.throughput))
        pe, s = np.array(users).T
        if setting is SETTINGS[0]:       # the chain's own result, rebuilt from its block error sequences
            assert np.array_equal(s, run.to_frame().throughput.to_numpy())
        out[setting["label"]] = (pe, s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--reference", choices=wcdma.SIR_REFERENCES, default=wcdma.DEFAULT_SIR_REFERENCE)
    a = ap.parse_args()
    placements = [users_of(202 + k, a.reference) for k in range(a.seeds)]
    paper = optimize.brentq(lambda x: wcdma.universal_curve(x, 6.0, s0=S0) - S0 / 2, 1e-4, 0.9)
    rows = []
    for setting in SETTINGS:
        label = setting["label"]
        pe = np.concatenate([p[label][0] for p in placements])
        s = np.concatenate([p[label][1] for p in placements])
        keep = (pe > 1e-4) & (pe < 0.9)
        per = []
        for p in placements:
            x, y = p[label]
            if ((x > 1e-4) & (x < 0.9)).sum() > 5:
                try:
                    per.append(crossing(x, y))
                except RuntimeError:         # a fit that does not converge on a few users: left out, counted
                    pass
        per = np.array([x for x in per if np.isfinite(x)])
        half = float(stats.t.ppf(0.975, len(per) - 1) * per.std(ddof=1) / np.sqrt(len(per))) if len(per) > 1 \
            else float("nan")
        rms = float(np.sqrt(np.mean((s[keep] - wcdma.universal_curve(pe[keep], 6.0, s0=S0)) ** 2)))
        bias = float(np.mean(s[keep] - wcdma.universal_curve(pe[keep], 6.0, s0=S0)))
        rows.append({"reference": a.reference, "setting": label, "pe_at_half_throughput": crossing(pe, s),
                     "per_placement_mean": float(per.mean()) if len(per) else float("nan"),
                     "per_placement_half_width": half, "placements_fitted": len(per), "rms_from_paper": rms,
                     "mean_residual": bias, "users": int(keep.sum())})
        print(f"{label:<52} S = 0.46 at P_e {rows[-1]['pe_at_half_throughput']:.4f} pooled (users with S < 0.46: "
              f"{int((s[keep] < S0 / 2).sum())}), "
              f"{rows[-1]['per_placement_mean']:.4f} ± {half:.4f} over {len(per)} placements; RMS from the paper's "
              f"curve {rms:.3f} (mean residual {bias:+.3f}, {int(keep.sum())} users)", flush=True)
    print(f"the paper's curve at 6 Hz: S = 0.46 at P_e {paper:.4f} ({a.seeds} placements, SIR per {a.reference})")
    out = HERE / f"wcdma_curve_offset_{a.reference}.csv"
    pd.DataFrame(rows).assign(paper_pe_at_half_throughput=paper).to_csv(out, index=False)


if __name__ == "__main__":
    main()
