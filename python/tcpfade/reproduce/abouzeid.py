"""abouzeid-Roy-Azizoglu, "TCP over a wireless fading link with queueing": Table III so far.

Setup of §V-C: μ = 100 packets/s, τ = 0.01 s, 1 KB packets, β = 8 (B = 16, w_p = 18), f = 0.2 (E[X] = 4E[Y]),
TCP Reno, the channel evolving in continuous time (§III). The simulation is `tcpfade.simulate_link` with ns-2's
timers of the paper's time, five seeds per row of the default length (1000·max(t_p, E[X] + E[Y]): §V's
heuristic); the analysis is the §IV draft (`tcpfade.analysis.link`), shown beside it. Both run at full length in
quick mode too: the rows' spread is what the claims judge.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..analysis.link import analyze_link
from ..tcp import simulate_link
from ..tcp.link import ideal_cycle
from .registry import Claim, Figure, Settings, Verdict, register

PAPER = "abouzeid"
#: Table III: (regime, E[X], E[Y], published ρ). The ρ column is the paper's; it is what we check against.
TABLE3 = (("fast", 0.08, 0.02, 0.1591), ("moderate", 0.8, 0.2, 0.5367), ("slow", 8.0, 2.0, 0.6973),
          ("slow", 80.0, 20.0, 0.7189), ("slow", 800.0, 200.0, 0.7480))
LINK = {"rate": 100.0, "tau": 0.01, "beta": 8.0}
SEEDS = (1, 2, 3, 4, 5)


_TABLE3: dict[Settings, pd.DataFrame] = {}


def _table3(settings: Settings, progress) -> pd.DataFrame:
    """The rows, computed once per settings (the simulations take 20 s)."""
    if settings not in _TABLE3:
        _TABLE3[settings] = _compute_table3(settings, progress)
    return _TABLE3[settings]


def _compute_table3(settings: Settings, progress) -> pd.DataFrame:
    rows = []
    for regime, ex, ey, rho in TABLE3:
        progress(f"Table III E[X]={ex:g}")
        runs = [simulate_link("reno", mean_good=ex, mean_bad=ey, seed=settings.seed * 1000 + s, **LINK)
                for s in SEEDS]
        g = np.array([r.goodput for r in runs])
        half = stats.t.ppf(0.975, len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
        analysis = analyze_link(mean_good=ex, mean_bad=ey, **LINK)
        r0 = runs[0]
        rows.append({"regime": regime, "mean_good": ex, "mean_bad": ey, "D": ex + ey, "published": rho,
                     "simulated": g.mean(), "simulated_low": g.mean() - half, "simulated_high": g.mean() + half,
                     "analysis": analysis.goodput, "rtt_max": r0.buffer / r0.rate + r0.tau,
                     "t_p": ideal_cycle(r0.rate, r0.round_trip, r0.buffer), "ceiling": analysis.goodput_ceiling,
                     "duration": r0.duration})
    return pd.DataFrame(rows)


def _draw_table3(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(data.D, data.published, "ks", label="published ρ (Table III)")
    ax.errorbar(data.D, data.simulated, yerr=[data.simulated - data.simulated_low,
                                              data.simulated_high - data.simulated],
                fmt="o-", color="C0", capsize=3, label="simulation (5 seeds, 95% interval)")
    ax.plot(data.D, data.analysis, "^--", color="C1", label="analysis §IV (draft: timer of eq. (2))")
    ax.axhline(float(data.ceiling.iloc[0]), color="0.6", linestyle=":", label="(1 − f) ρ_ideal, eq. (20)")
    ax.axvline(float(data.rtt_max.iloc[0]), color="0.8", linewidth=0.8)
    ax.axvline(float(data.t_p.iloc[0]), color="0.8", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("D = E[X] + E[Y] (s); grey lines: RTT_max and t_p")
    ax.set_ylabel("goodput ρ (normalized by μ)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def _within(column: str, tolerance: float = 0.05):
    def check(data: pd.DataFrame) -> Verdict:
        off = data[column] / data.published - 1
        text = ", ".join(f"D={d:g}: {v:.4f} ({o:+.1%})" for d, v, o in zip(data.D, data[column], off))
        return Verdict(bool((off.abs() <= tolerance).all()), f"{column} against the published ρ: {text}")
    return check


def _rule_numbers(data: pd.DataFrame) -> Verdict:
    rtt, tp = float(data.rtt_max.iloc[0]), float(data.t_p.iloc[0])
    return Verdict(abs(rtt - 0.17) < 5e-4 and abs(tp - 1.215) < 5e-4, f"RTT_max = {rtt:.4f} s, t_p = {tp:.4f} s")


def _fast_fading_deleterious(data: pd.DataFrame) -> Verdict:
    values = data.simulated.to_numpy()
    return Verdict(bool(np.all(np.diff(values) > 0)),
                   "simulated ρ from fast to slow: " + ", ".join(f"{v:.4f}" for v in values))


register(Figure(
    id="abouzeid-table3", paper=PAPER, label="Table III",
    caption="Goodput for different fading rates at the same f = 0.2: μ = 100 packets/s, τ = 0.01 s, 1 KB packets, "
            "β = 8 (B = 16), TCP Reno; the published ρ, our simulation (five seeds) and the §IV analysis.",
    compute=_table3, draw=_draw_table3,
    claims=(
        Claim("With μ = 100, τ = 0.01 s, K = 1 KB and β = 8, t_p = 1.215 s and RTT_max = 0.17 s.", "§V-C",
              _rule_numbers),
        Claim("For the same f, fast fading is deleterious relative to slow and moderate fading: ρ grows with D.",
              "§V-C, Table III", _fast_fading_deleterious),
        Claim("Simulated goodput within 5% of the published ρ at every fading rate (issue 7's bar).", "Table III",
              _within("simulated"),
              known_disagreement="Four rows are within 4%; the slowest (E[X] = 800 s) simulates 5-6.5% above the "
                                 "published 0.748 (0.786 with these seeds, 0.796 with others), near the ceiling "
                                 "0.8 of the paper's own eq. (20), which 0.748 lies 6.5% below. Timeouts after each "
                                 "200-s bad visit add about 10 s to it, too little to reach 0.748; the cause is "
                                 "not established (docs/validation.md)."),
        Claim("Analysis within 5% of the published ρ at every fading rate (issue 7's bar).", "Table III",
              _within("analysis"),
              known_disagreement="The §IV analysis is a draft: with eq. (2)'s timer (the current RTT) it is 3.3× too "
                                 "high at fast fading. The simulator with a fixed timeout near the RTT gives the "
                                 "analysis' value; with RFC 6298's RTO (SRTT + 4 RTTVAR, queueing makes it several "
                                 "RTTs) it gives Table III's (docs/validation.md)."),
    ),
))
