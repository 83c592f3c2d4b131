"""The abouzeid §IV analysis term by term against the simulator: goodput, the outcome shares of a bad visit, the
effective bad duration E[U], the base RTO and the backoff multiplier in force when a sampled good state ends,
for both analysis models ("refined", "paper") and Reno and NewReno simulations (five seeds of the default
length each). Points: the five Table III rows, a phase-A point (window below μT), a TD-dominated one and two
with β < 1.
Writes validation/link_analysis_terms.csv and prints it as a Markdown table.

    python validation/link_analysis_terms.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

import tcpfade

HERE = Path(__file__).resolve().parent
TABLE3 = dict(rate=100, tau=0.01, beta=8)
POINTS = [
    ("Table III fast", dict(TABLE3, mean_good=0.08, mean_bad=0.02)),
    ("Table III moderate", dict(TABLE3, mean_good=0.8, mean_bad=0.2)),
    ("Table III slow (8 s)", dict(TABLE3, mean_good=8.0, mean_bad=2.0)),
    ("Table III slow (80 s)", dict(TABLE3, mean_good=80.0, mean_bad=20.0)),
    ("Table III slow (800 s)", dict(TABLE3, mean_good=800.0, mean_bad=200.0)),
    ("phase A (muT 11, beta 1.5)", dict(rate=100, tau=0.1, beta=1.5, mean_good=1.0, mean_bad=0.1)),
    ("few losses a visit (f = 1%)", dict(rate=100, tau=0.1, buffer=44, mean_good=2.97, mean_bad=0.03)),
    ("beta 0.5 (muT 25)", dict(rate=250, tau=0.1, beta=0.5, mean_good=1.0, mean_bad=0.05)),
    ("beta 0.3 (muT 11)", dict(rate=100, tau=0.1, beta=0.3, mean_good=2.0, mean_bad=0.2)),
]
TERMS = ("goodput", "p_timeout", "mean_effective_bad", "mean_rto_at_bad", "mean_backoff_at_bad")


def main() -> None:
    rows = []
    for label, kw in tqdm(POINTS, unit="point"):
        for model in ("refined", "paper"):
            a = tcpfade.analyze_link(**kw, model=model)
            rows.append({"point": label, "source": f"analysis ({model})", **{t: getattr(a, t) for t in TERMS}})
        for variant in ("reno", "newreno"):
            runs = [tcpfade.simulate_link(variant, seed=s, **kw) for s in range(1, 6)]
            rows.append({"point": label, "source": f"simulation ({variant})",
                         **{t: float(np.mean([getattr(r, t) for r in runs])) for t in TERMS}})
    data = pd.DataFrame(rows)
    data.to_csv(HERE / "link_analysis_terms.csv", index=False)
    print("| point | source | goodput | P_TO | E[U] (s) | RTO at a visit (s) | backoff at a visit |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in data.itertuples():
        print(f"| {r.point} | {r.source} | {r.goodput:.4f} | {r.p_timeout:.3f} | {r.mean_effective_bad:.4g} | "
              f"{r.mean_rto_at_bad:.3f} | {r.mean_backoff_at_bad:.2f} |")


if __name__ == "__main__":
    main()
