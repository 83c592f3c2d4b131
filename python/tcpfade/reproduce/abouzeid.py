"""abouzeid-Roy-Azizoglu, "TCP over a wireless fading link with queueing": Table III, Figs. 4-9.

Setup of §V-C: μ = 100 packets/s, τ = 0.01 s, 1 KB packets, β = 8 (B = 16, w_p = 18), f = 0.2 (E[X] = 4E[Y]),
TCP Reno, the channel evolving in continuous time (§III). The simulation is `tcpfade.simulate_link` with ns-2's
timers of the paper's time, five seeds per row of the default length (1000·max(t_p, E[X] + E[Y]): §V's
heuristic); the analysis is `tcpfade.analyze_link`, its refined model (RFC 6298's timer with Karn's rule, packets
counted at the link) and, where it tells something, the §IV equations as printed (``reading="paper"``). Both run at
full length in quick mode too: the rows' spread is what the claims judge.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..analysis.link import analyze_link
from ..tcp import simulate_link
from ..tcp.link import ideal_cycle
from .registry import Ablation, Claim, Figure, Settings, Verdict, once_per_settings, register

PAPER = "abouzeid"
#: Table III: (regime, E[X], E[Y], published ρ). The ρ column is the paper's; it is what we check against.
TABLE3 = (("fast", 0.08, 0.02, 0.1591), ("moderate", 0.8, 0.2, 0.5367), ("slow", 8.0, 2.0, 0.6973),
          ("slow", 80.0, 20.0, 0.7189), ("slow", 800.0, 200.0, 0.7480))
LINK = {"rate": 100.0, "tau": 0.01, "beta": 8.0}
SEEDS = (1, 2, 3, 4, 5)


@once_per_settings
def _table3(settings: Settings, progress) -> pd.DataFrame:
    rows = []
    for regime, ex, ey, rho in TABLE3:
        def run(s, ex=ex, ey=ey):
            return simulate_link("reno", mean_good=ex, mean_bad=ey, seed=settings.seed * 1000 + s, **LINK)

        runs = settings.map(run, SEEDS, progress, lambda s, ex=ex: f"Table III E[X]={ex:g} seed {s}")
        g = np.array([r.goodput for r in runs])
        half = stats.t.ppf(0.975, len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
        analysis = analyze_link(mean_good=ex, mean_bad=ey, **LINK)
        as_printed = analyze_link(mean_good=ex, mean_bad=ey, reading="paper", **LINK)
        r0 = runs[0]
        rows.append({"regime": regime, "mean_good": ex, "mean_bad": ey, "D": ex + ey, "published": rho,
                     "simulated": g.mean(), "simulated_low": g.mean() - half, "simulated_high": g.mean() + half,
                     "analysis": analysis.goodput, "analysis_paper": as_printed.goodput, "rtt_max": r0.buffer / r0.rate + r0.tau,
                     "t_p": ideal_cycle(r0.rate, r0.round_trip, r0.buffer), "ceiling": analysis.goodput_ceiling,
                     "duration": r0.duration})
    return pd.DataFrame(rows)


def _draw_table3(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(data.D, data.published, "ks", label="published ρ (Table III)")
    ax.errorbar(data.D, data.simulated, yerr=[data.simulated - data.simulated_low,
                                              data.simulated_high - data.simulated],
                fmt="o-", color="C0", capsize=3, label="simulation (5 seeds, 95% interval)")
    ax.plot(data.D, data.analysis, "^--", color="C1", label="analysis §IV (refined)")
    ax.plot(data.D, data.analysis_paper, "v:", color="C2", label="analysis §IV as printed (eq. (2)'s timer)")
    ax.axhline(float(data.ceiling.iloc[0]), color="0.6", linestyle=":", label="(1 − f) ρ_ideal, eq. (20)")
    ax.axvline(float(data.rtt_max.iloc[0]), color="0.8", linewidth=0.8)
    ax.axvline(float(data.t_p.iloc[0]), color="0.8", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xlabel("D = E[X] + E[Y] (s); grey lines: RTT_max and t_p")
    ax.set_ylabel("goodput ρ (normalized by μ)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


#: The Table III row judged against eq. (20)'s ceiling (1 − f) ρ_ideal instead of the published ρ, and how close:
#: the published 0.748 lies 6.1% below the paper's own ceiling, which no timer can cost (docs/validation/abouzeid.md).
CEILING_ROW_D, CEILING_TOLERANCE = 1000.0, 0.02


def _within(column: str, tolerance: float = 0.05):
    """Each row within ``tolerance`` of the published ρ, but the slowest within CEILING_TOLERANCE of the ceiling."""
    def check(data: pd.DataFrame) -> Verdict:
        at_ceiling = data.D == CEILING_ROW_D
        reference = data.published.where(~at_ceiling, data.ceiling)
        off = data[column] / reference - 1
        ok = (off.abs() <= tolerance) & ~at_ceiling | (off.abs() <= CEILING_TOLERANCE) & at_ceiling
        text = ", ".join(f"D={d:g}: {v:.4f} ({o:+.1%}{' of the ceiling' if c else ''})"
                         for d, v, o, c in zip(data.D, data[column], off, at_ceiling))
        return Verdict(bool(ok.all()), f"{column} against the published ρ (the slowest row against eq. (20)): {text}")
    return check


def _table3_simulated(data: pd.DataFrame) -> Ablation:
    """The §IV analysis replaced by the simulation of the same link (no approximation 2) in the fast row."""
    fast = data.iloc[0]
    return Ablation("the fast row's ρ by simulation instead of the analysis' approximation 2", fast.analysis,
                    fast.simulated, fast.published, _within("simulated")(data).holds)


def _rule_numbers(data: pd.DataFrame) -> Verdict:
    rtt, tp = float(data.rtt_max.iloc[0]), float(data.t_p.iloc[0])
    return Verdict(abs(rtt - 0.17) < 5e-4 and abs(tp - 1.215) < 5e-4, f"RTT_max = {rtt:.4f} s, t_p = {tp:.4f} s")


def _at_ceiling(data: pd.DataFrame) -> Verdict:
    row = data.iloc[-1]
    off = {k: float(row[k] / row.ceiling - 1) for k in ("analysis", "simulated")}
    return Verdict(all(abs(o) <= 0.02 for o in off.values()),
                   f"D = {row.D:g} s: ceiling {row.ceiling:.4f}, analysis {row.analysis:.4f} ({off['analysis']:+.1%}), "
                   f"simulation {row.simulated:.4f} ({off['simulated']:+.1%}); published {row.published:.4f} "
                   f"({row.published / row.ceiling - 1:+.1%})")


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
        Claim("Simulated goodput within 5% of the published ρ at every fading rate; the slowest row (D = 1000 s) "
              "within 2% of eq. (20)'s ceiling (1 − f) ρ_ideal instead: the published 0.748 lies 6.1% below that "
              "ceiling, which no timer can cost, about two standard deviations of the paper's 10^5-s run "
              "(docs/validation/abouzeid.md).", "Table III, eq. (20)", _within("simulated")),
        Claim("Analysis within 5% of the published ρ at every fading rate; the slowest row (D = 1000 s) within 2% "
              "of eq. (20)'s ceiling instead, as for the simulation.", "Table III, eq. (20)",
              _within("analysis"),
              known_disagreement="Rows 2-4 are within 4%. The fast row (D = 0.1 s < RTT_max) is 6.8% low: several "
                                 "bad visits fall in a round there, which approximation 2 counts as visits of "
                                 "different rounds, so the model is the lower bound §IV-B says it is (6.3% below the "
                                 "simulation's 0.1583 ± 0.0021 from 20 long runs). The equations as printed, "
                                 "with eq. (2)'s timer, give 0.528 in the fast row, 3.3× too high "
                                 "(docs/validation/abouzeid.md).", ablation=_table3_simulated),
        Claim("For D ≫ 10 t_p the goodput is eq. (20)'s (1 − f) ρ_ideal (here: analysis and simulation within 2% of "
              "it at D = 1000 s; the timeouts after a 200-s bad visit cost ~1% of the cycle).", "§V-C, eq. (20)",
              _at_ceiling),
    ),
))


# -- Figs. 4 and 5: simulation and analysis over the i.i.d. and the correlated channel --

SEEDS_CURVES = (1, 2, 3)


def _curve_point(settings: Settings, link: dict, mean_good: float, mean_bad: float, variant: str = "reno") -> dict:
    runs = [simulate_link(variant, mean_good=mean_good, mean_bad=mean_bad, seed=settings.seed * 1000 + s, **link)
            for s in SEEDS_CURVES]
    g = np.array([r.goodput for r in runs])
    half = stats.t.ppf(0.975, len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
    a = analyze_link(mean_good=mean_good, mean_bad=mean_bad, **link)
    return {"mean_good": mean_good, "mean_bad": mean_bad, "simulated": g.mean(), "simulated_low": g.mean() - half,
            "simulated_high": g.mean() + half, "analysis": a.goodput, "ceiling": a.goodput_ceiling,
            "loss_rate": float(np.mean([r.channel_loss_rate for r in runs]))}


FIG4_LINK = {"rate": 100.0, "tau": 0.1, "buffer": 13}   # beta = 1.2, w_p = 25
FIG4_MEAN_GOOD = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
#: "E[Y] set infinitesimally small": a millionth of a second, far below a packet time (10 ms).
IID_MEAN_BAD = 1e-6


@once_per_settings
def _fig4(settings: Settings, progress) -> pd.DataFrame:
    return pd.DataFrame(settings.map(lambda ex: _curve_point(settings, FIG4_LINK, ex, IID_MEAN_BAD), FIG4_MEAN_GOOD,
                                     progress, lambda ex: f"Fig. 4 E[X]={ex:g}"))


FIG5_LINK = {"rate": 100.0, "tau": 0.1, "buffer": 44}   # beta = 4, w_p = 55
FIG5_MEAN_BAD = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
#: (f, E[Y]) where NewReno is simulated too (the ablation of the "within 0.1" claim).
FIG5_NEWRENO = ((0.01, 0.01), (0.01, 0.03))


@once_per_settings
def _fig5(settings: Settings, progress) -> pd.DataFrame:
    def point(p):
        f, ey = p
        row = {"f": f, **_curve_point(settings, FIG5_LINK, ey * (1 - f) / f, ey)}
        # The ablation of the "within 0.1" claim: NewReno simulated at the two points where Reno is more than 0.1
        # below the analysis (several losses in one window, which §IV's TD repairs with one halving).
        row["simulated_newreno"] = (_curve_point(settings, FIG5_LINK, ey * (1 - f) / f, ey, "newreno")["simulated"]
                                    if (f, ey) in FIG5_NEWRENO else np.nan)
        return row

    points = [(f, ey) for f in (0.01, 0.10) for ey in FIG5_MEAN_BAD]
    return pd.DataFrame(settings.map(point, points, progress, lambda p: f"Fig. 5 f={p[0]:g} E[Y]={p[1]:g}"))


def _draw_curves(data: pd.DataFrame, fig, *, x: str, xlabel: str, group: str | None = None) -> None:
    ax = fig.add_subplot(1, 1, 1)
    groups = data.groupby(group) if group else [(None, data)]
    for i, (key, g) in enumerate(groups):
        label = f" (f = {key:.0%})" if key is not None else ""
        ax.errorbar(g[x], g.simulated, yerr=[g.simulated - g.simulated_low, g.simulated_high - g.simulated],
                    fmt="o-", color=f"C{i}", capsize=2, markersize=3, label=f"simulation{label}")
        ax.plot(g[x], g.analysis, "^--", color=f"C{i}", markersize=4, label=f"analysis §IV{label}")
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("goodput ρ (normalized by μ)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def _under_then_over(points: int, x: str):
    """The analysis below the simulation at the first ``points`` points (high loss), above it at the last
    ``points`` (low loss); the paper does not say where it crosses."""
    def check(data: pd.DataFrame) -> Verdict:
        parts, holds = [], True
        for key, g in (data.groupby("f") if "f" in data else [(None, data)]):
            g = g.sort_values(x)
            under = (g.analysis < g.simulated).iloc[:points]
            over = (g.analysis > g.simulated).iloc[-points:]
            holds &= bool(under.all() and over.all())
            tag = f"f={key:g}: " if key is not None else ""
            parts.append(tag + ", ".join(f"{v:g}: {a:.3f} vs {s:.3f}" for v, a, s in zip(g[x], g.analysis, g.simulated)))
        return Verdict(holds, "analysis vs simulation at " + x + " = " + "; ".join(parts))
    return check


def _close(data: pd.DataFrame) -> Verdict:
    gap = (data.analysis - data.simulated).abs()
    return Verdict(bool((gap < 0.1).all()), f"largest |analysis − simulation| {gap.max():.3f} (criterion 0.1, the "
                                            f"paper's Fig. 6 measure); within 0.1 at {int((gap < 0.1).sum())} of "
                                            f"{len(gap)} points")


def _fig5_newreno(data: pd.DataFrame) -> Ablation:
    """The simulated TCP's recovery, Reno → NewReno, where the analysis is more than 0.1 above Reno: the largest
    |analysis − simulation| before and after (the paper's criterion: 0.1)."""
    swapped = data.assign(simulated=data.simulated_newreno.fillna(data.simulated))
    gap = lambda d: float((d.analysis - d.simulated).abs().max())  # noqa: E731
    return Ablation("the largest |analysis - simulation| with NewReno instead of Reno simulated at f = 1%, E[Y] = 10 "
                    "and 30 ms", gap(data), gap(swapped), 0.1, _close(swapped).holds)


def _saturates(data: pd.DataFrame) -> Verdict:
    """Saturation: the goodput keeps rising with E[Y] but gains less over the last decade of E[Y] than over the
    one before, and stays below (1 − f) ρ_ideal."""
    parts, holds = [], True
    for f, g in data.groupby("f"):
        g = g.set_index("mean_bad").sort_index()
        rising = bool(np.all(np.diff(g.simulated.to_numpy()) > -0.01))
        gain_before = g.simulated[1.0] - g.simulated[0.1]
        gain_last = g.simulated[10.0] - g.simulated[1.0]
        ceiling = float(g.ceiling.iloc[-1])
        holds &= rising and gain_last < gain_before and g.simulated[10.0] <= ceiling
        parts.append(f"f={f:g}: {g.simulated[0.1]:.3f}, {g.simulated[1.0]:.3f}, {g.simulated[10.0]:.3f} at E[Y] = "
                     f"0.1, 1, 10 s; (1 − f) ρ_ideal = {ceiling:.3f}")
    return Verdict(holds, "; ".join(parts))


register(Figure(
    id="abouzeid-fig4", paper=PAPER, label="Fig. 4",
    caption="Goodput against E[X] for random (i.i.d.) packet loss (E[Y] = 1 µs): μ = 100 packets/s, β = 1.2, "
            "τ = 0.1 s, B = 13, w_p = 25, 1 KB packets, TCP Reno; simulation (three seeds, 95% interval) and the "
            "§IV analysis.",
    compute=_fig4, draw=lambda d, fig: _draw_curves(d, fig, x="mean_good", xlabel="mean good duration E[X] (s)"),
    claims=(
        Claim("The model gives accurate goodput predictions over a wide range of E[X].", "§V-B, Fig. 4", _close),
        Claim("For high loss rates (small E[X]) the analysis slightly underestimates the goodput, for low loss "
              "rates it slightly overestimates it.", "§V-B, Fig. 4", _under_then_over(2, "mean_good")),
    ),
))

register(Figure(
    id="abouzeid-fig5", paper=PAPER, label="Fig. 5",
    caption="Goodput against E[Y] for correlated loss, f = 1% and 10% (E[X] = E[Y](1 − f)/f): μ = 100 packets/s, "
            "β = 4, τ = 0.1 s, B = 44, w_p = 55, 1 KB packets, TCP Reno; simulation and the §IV analysis.",
    compute=_fig5,
    draw=lambda d, fig: _draw_curves(d, fig, x="mean_bad", xlabel="mean bad duration E[Y] (s)", group="f"),
    claims=(
        Claim("For a fixed f the goodput saturates as E[Y] and E[X] grow, below (1 − f) ρ_ideal (eq. (20); here: "
              "rising, with a smaller gain from E[Y] = 1 to 10 s than from 0.1 to 1 s).", "§V-C, Fig. 5", _saturates),
        Claim("As for i.i.d. loss, the analysis slightly underestimates the goodput for small E[Y] and slightly "
              "overestimates it for large E[Y] (here: within 0.1 everywhere).", "§V-B, Fig. 5", _close,
              known_disagreement="The direction is the paper's (below the simulation at E[Y] = 1 ms, above from "
                                 "10 ms), but at f = 1% and E[Y] = 10-30 ms the analysis is 0.14-0.18 above: a bad "
                                 "visit loses a few packets of one window there, which §IV's TD repairs with one "
                                 "halving, as NewReno does (NewReno simulated: 0.79 and 0.93 against the analysis' "
                                 "0.77 and 0.96), while Reno halves again or stalls (docs/validation/abouzeid.md).",
              ablation=_fig5_newreno),
    ),
))


# -- Figs. 7 and 8: the effective bad duration, and the outcome of a bad visit by window --

FIG7_LINK = {"rate": 1e6 / (1500 * 8), "tau": 0.1, "beta": 1.3}   # C = 1 Mb/s, K = 1.5 kB
FIG7_MEAN_BAD = tuple(round(0.001 + 0.005 * k, 3) for k in range(20))   # 1 to 96 ms in steps of 5 ms
#: §V-C: the largest E[U]/E[Y] the paper reports, by E[X] [s] (30 at 80 ms, 74 "for smaller E[X]": 50 ms).
PUBLISHED_FIG7_RATIO = {0.05: 74, 0.08: 30}


@once_per_settings
def _fig7(settings: Settings, progress) -> pd.DataFrame:
    def point(p):
        ex, ey = p
        r = simulate_link("reno", mean_good=ex, mean_bad=ey, seed=settings.seed, duration=5000.0, **FIG7_LINK)
        a = analyze_link(mean_good=ex, mean_bad=ey, **FIG7_LINK)
        return {"mean_good": ex, "mean_bad": ey, "simulated": r.mean_effective_bad, "analysis": a.mean_effective_bad}

    points = [(ex, ey) for ex in (0.05, 0.08) for ey in FIG7_MEAN_BAD]
    return pd.DataFrame(settings.map(point, points, progress, lambda p: f"Fig. 7 E[X]={p[0]:g} E[Y]={p[1]:g}"))


def _draw_fig7(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    for i, (ex, g) in enumerate(data.groupby("mean_good")):
        ax.plot(g.mean_bad * 1e3, g.simulated, "o-", color=f"C{i}", markersize=3, label=f"simulation, E[X] = {ex:g} s")
        ax.plot(g.mean_bad * 1e3, g.analysis, "^--", color=f"C{i}", markersize=3,
                label=f"analysis §IV, E[X] = {ex:g} s")
    ey = data.mean_bad.unique()
    ax.plot(ey * 1e3, ey, "k:", label="E[U] = E[Y]")
    # The paper's numbers (§V-C): E[U] "as high as 30 times" E[Y] at E[X] = 80 ms, 74 times at the smaller E[X].
    for i, (ex, times) in enumerate(PUBLISHED_FIG7_RATIO.items()):
        ax.plot(ey * 1e3, times * ey, linestyle=(0, (6, 3)), color=f"C{i}", linewidth=0.8, alpha=0.7,
                label=f"the paper's largest ratio at E[X] = {ex:g} s: E[U] = {times} E[Y]")
    ax.set_yscale("log")
    ax.set_xlabel("mean bad duration E[Y] (ms)")
    ax.set_ylabel("mean effective bad duration E[U] (s)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)


def _many_times(column: str):
    def check(data: pd.DataFrame) -> Verdict:
        ratio = data[column] / data.mean_bad
        by_x = {ex: float(ratio[data.mean_good == ex].max()) for ex in (0.05, 0.08)}
        smaller_higher = bool((ratio[data.mean_good == 0.05].to_numpy() > ratio[data.mean_good == 0.08].to_numpy()).all())
        return Verdict(by_x[0.08] >= 30 and smaller_higher,
                       f"{column}: largest E[U]/E[Y] {by_x[0.08]:.0f} at E[X] = 0.08 s, {by_x[0.05]:.0f} at 0.05 s; "
                       f"the smaller E[X] higher at every E[Y]: {smaller_higher}")
    return check


register(Figure(
    id="abouzeid-fig7", paper=PAPER, label="Fig. 7",
    caption="Mean effective bad duration against the mean bad duration: C = 1 Mb/s, 1.5 kB packets (μ = 83.3 "
            "packets/s), τ = 0.1 s, β = 1.3, E[X] = 50 and 80 ms, TCP Reno; simulation (5000 s each) and the §IV "
            "analysis; thin dashed: the largest ratios E[U]/E[Y] the paper reports (30 at 80 ms, 74 at 50 ms).",
    compute=_fig7, draw=_draw_fig7,
    claims=(
        Claim("The effective bad duration can be many times the physical one: up to 30 times at E[X] = 80 ms, and "
              "more for smaller E[X] (by simulation).", "§V-C, Fig. 7", _many_times("simulated")),
        Claim("The same by the analysis.", "§V-C, Fig. 7", _many_times("analysis")),
    ),
))


FIG8_LINK = {"rate": 1e6 / (500 * 8), "tau": 0.1, "beta": 1.3}   # C = 1 Mb/s, K = 500 B: μT = 26
#: §V-C: the outcome shares the paper gives for w2 ≥ μT, and the window where its P_TO starts to fall.
PUBLISHED_FIG8_LIMIT = {"triple_duplicate": 0.86, "timeout": 0.14}
PUBLISHED_FIG8_PTO_TURN = 10


@once_per_settings
def _fig8(settings: Settings, progress) -> pd.DataFrame:
    progress("Fig. 8")
    a = analyze_link(mean_good=0.08, mean_bad=0.001, **FIG8_LINK)
    r = simulate_link("reno", mean_good=0.08, mean_bad=0.001, seed=settings.seed, duration=20000.0, **FIG8_LINK)
    counts = r.outcomes_by_window[: a.max_window]
    rows = []
    for w in range(1, a.max_window + 1):
        c = counts[w - 1]
        n = c.sum()
        rows.append({"window": w, "mu_T": a.pipe, **{f"analysis_{k}": float(a.outcome[k][w - 1])
                                                     for k in ("no_loss", "triple_duplicate", "timeout")},
                     "simulated_visits": n,
                     **{f"simulated_{k}": (c[i] / n if n >= 30 else np.nan)
                        for i, k in enumerate(("no_loss", "triple_duplicate", "timeout"))}})
    return pd.DataFrame(rows)


def _draw_fig8(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    for i, (k, name) in enumerate((("no_loss", "P_NL"), ("triple_duplicate", "P_TD"), ("timeout", "P_TO"))):
        ax.plot(data.window, data[f"analysis_{k}"], "-", color=f"C{i}", label=f"{name}, analysis §IV")
        ax.plot(data.window, data[f"simulated_{k}"], "o", color=f"C{i}", markersize=3,
                label=f"{name}, simulation (windows with ≥ 30 visits)")
    mu_t = float(data.mu_T.iloc[0])
    ax.axvline(mu_t, color="0.7", linewidth=0.8)
    # The paper's numbers (§V-C): P_TD ≈ 0.86 and P_TO ≈ 0.14 for w2 ≥ μT; P_TO turns down at w2 = 10.
    # Drawn as black marks, not lines: our analysis lies on them and would hide a line.
    marks = np.arange(np.ceil(mu_t) + 2, float(data.window.max()) + 1, 6)
    for marker, (name, value) in (("D", ("P_TD", PUBLISHED_FIG8_LIMIT["triple_duplicate"])),
                                  ("s", ("P_TO", PUBLISHED_FIG8_LIMIT["timeout"]))):
        ax.plot(marks, np.full(len(marks), value), marker, markerfacecolor="none", markeredgecolor="k",
                markersize=5, zorder=5, label=f"the paper's {name} ≈ {value:g} for w2 ≥ μT")
    ax.axvline(PUBLISHED_FIG8_PTO_TURN, color="C2", linestyle=(0, (1, 3)), linewidth=0.8,
               label=f"the paper's P_TO turns down at w2 = {PUBLISHED_FIG8_PTO_TURN}")
    ax.set_xlabel("window w2 at the end of the sampled good state (grey: μT)")
    ax.set_ylabel("probability of the outcome")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def _fig8_trends(data: pd.DataFrame) -> Verdict:
    below = data[data.window < data.mu_T]
    td, nl = below.analysis_triple_duplicate.to_numpy(), below.analysis_no_loss.to_numpy()
    above = data[data.window > data.mu_T + 1]
    holds = bool(np.all(np.diff(td) >= 0) and np.all(np.diff(nl) <= 0) and (above.analysis_no_loss == 0).all())
    return Verdict(holds, f"analysis below μT: P_TD from {td[0]:.3f} to {td[-1]:.3f}, P_NL from {nl[0]:.3f} to "
                          f"{nl[-1]:.3f}; P_NL = 0 above μT")


def _fig8_limit(data: pd.DataFrame) -> Verdict:
    above = data[data.window > data.mu_T + 1]
    td, to = float(above.analysis_triple_duplicate.mean()), float(above.analysis_timeout.mean())
    return Verdict(abs(td - PUBLISHED_FIG8_LIMIT["triple_duplicate"]) < 0.005
                   and abs(to - PUBLISHED_FIG8_LIMIT["timeout"]) < 0.005, f"above μT: P_TD {td:.3f}, P_TO {to:.3f}")


def _fig8_peak(data: pd.DataFrame) -> Verdict:
    below = data[data.window < data.mu_T]
    peak = int(below.window.iloc[int(np.argmax(below.analysis_timeout.to_numpy()))])
    return Verdict(5 <= peak <= 15, f"the analysis' P_TO peaks at w2 = {peak} below μT = {data.mu_T.iloc[0]:.0f}")


register(Figure(
    id="abouzeid-fig8", paper=PAPER, label="Fig. 8",
    caption="Probabilities of the outcomes of a bad visit (no loss, triple duplicate, timeout) against the window w2 "
            "at the end of the sampled good state: C = 1 Mb/s, 500-byte packets (μ = 250 packets/s, μT = 26), "
            "τ = 0.1 s, β = 1.3, E[X] = 80 ms, E[Y] = 1 ms, TCP Reno; the §IV analysis, and the simulation's "
            "shares where a window saw at least 30 visits; black marks and the dotted line: the paper's numbers (P_TD "
            "≈ 0.86 and P_TO ≈ 0.14 above μT, P_TO falling from w2 = 10).",
    compute=_fig8, draw=_draw_fig8,
    claims=(
        Claim("P_TD grows with w2 and P_NL falls, reaching zero once w2 ≥ μT (no idle time left in the round).",
              "§V-C, Fig. 8", _fig8_trends),
        Claim("For w2 ≥ μT and E[Y] ≪ T, P_TD ≈ e^(−3/(μE[X])) = 0.86 and P_TO ≈ 0.14.", "§V-C, Fig. 8",
              _fig8_limit),
        Claim("P_TO first rises with w2, then falls from about w2 = 10 on (here: its peak below μT lies between 5 and "
              "15).", "§V-C, Fig. 8", _fig8_peak,
              known_disagreement="With eqs. (7)-(8) as printed, P_TO = 1 − P_NL − P_TD rises linearly up to μT: "
                                 "P_NL falls by 1/(μT) per window and P_TD grows by 0.86/(μT). The paper's figure "
                                 "must come from a form of eq. (8) it does not print (docs/validation/abouzeid.md)."),
    ),
))


# -- Fig. 9: the packet size --

FIG9_PACKET_KB = (0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0)
FIG9_C, FIG9_TAU, FIG9_BETA = 1e6, 0.1, 1.6     # C = 1 Mb/s, τ = 0.1 s, β = 1.6
FIG9_MEAN_BAD, FIG9_F = 0.01, 0.01              # E[Y] = 0.01 s, f = 1%


@once_per_settings
def _fig9(settings: Settings, progress) -> pd.DataFrame:
    ex = FIG9_MEAN_BAD * (1 - FIG9_F) / FIG9_F

    def point(kb):
        size = int(kb * 1000)
        link = {"rate": FIG9_C / (size * 8), "tau": FIG9_TAU, "beta": FIG9_BETA}
        runs = [simulate_link("reno", packet_bytes=size, mean_good=ex, mean_bad=FIG9_MEAN_BAD,
                              seed=settings.seed * 1000 + s, duration=2000.0, **link) for s in SEEDS_CURVES]
        a = analyze_link(mean_good=ex, mean_bad=FIG9_MEAN_BAD, **link)
        windows = [(np.arange(1, 257) @ r.outcomes_by_window.sum(axis=1)) / r.outcomes_by_window.sum()
                   for r in runs]
        return {"packet_kb": kb, "rate": link["rate"],
                "simulated_kbps": float(np.mean([r.goodput_bps for r in runs])) / 1e3,
                "analysis_kbps": a.goodput * link["rate"] * size * 8 / 1e3,
                "simulated_window": float(np.mean(windows)),
                "analysis_window": float(np.arange(1, a.max_window + 1) @ a.window_bad),
                "simulated_effective_bad": float(np.mean([r.mean_effective_bad for r in runs])),
                "analysis_effective_bad": a.mean_effective_bad}

    return pd.DataFrame(settings.map(point, FIG9_PACKET_KB, progress, lambda kb: f"Fig. 9 {kb:g} kB"))


def _draw_fig9(data: pd.DataFrame, fig) -> None:
    panels = (("kbps", "goodput (kb/s)"), ("window", "mean W' at the end of a sampled good state (packets)"),
              ("effective_bad", "mean effective bad duration E[U] (s)"))
    for i, (column, label) in enumerate(panels):
        ax = fig.add_subplot(1, 3, i + 1)
        ax.plot(data.packet_kb, data[f"simulated_{column}"], "o-", color="C0", markersize=3, label="simulation")
        ax.plot(data.packet_kb, data[f"analysis_{column}"], "^--", color="C1", markersize=3, label="analysis §IV")
        ax.set_xlabel("packet size (kB)")
        ax.set_ylabel(label, fontsize=7)
        ax.tick_params(labelsize=7)
        ax.grid(True, alpha=0.3)
        if i == 0:
            ax.legend(fontsize=6)


def _monotone(column: str, rising: bool):
    def check(data: pd.DataFrame) -> Verdict:
        parts, holds = [], True
        for source in ("simulated", "analysis"):
            values = data[f"{source}_{column}"].to_numpy()
            ok = bool(np.all(np.diff(values) > 0) if rising else np.all(np.diff(values) < 0))
            holds &= ok
            parts.append(f"{source}: " + ", ".join(f"{v:.4g}" for v in values))
        return Verdict(holds, f"{column} at {', '.join(f'{k:g}' for k in data.packet_kb)} kB: " + "; ".join(parts))
    return check


register(Figure(
    id="abouzeid-fig9", paper=PAPER, label="Fig. 9",
    caption="The packet size: goodput, mean window at the end of a sampled good state and mean effective bad "
            "duration against the packet size, C = 1 Mb/s, τ = 0.1 s, β = 1.6, E[Y] = 0.01 s, f = 1%, TCP Reno; "
            "simulation (three seeds of 2000 s) and the §IV analysis.",
    compute=_fig9, draw=_draw_fig9,
    claims=(
        Claim("A larger packet size always gives a higher throughput, for the same fading rate.", "§V-C, Fig. 9",
              _monotone("kbps", rising=True),
              known_disagreement="The simulation agrees (326 kb/s at 0.25 kB to 716 kb/s at 4 kB). The analysis "
                                 "flattens and falls by 2% from 2 to 4 kB, where μT drops to 5.2 and 4.1: below the "
                                 "μT > 5 the paper itself requires of its analysis (§V-B, the window's "
                                 "discretization)."),
        Claim("The mean window (in packets) at the end of a sampled good state falls as the packet size grows.",
              "§V-C, Fig. 9", _monotone("window", rising=False)),
        Claim("The effective bad duration is inversely proportional to the packet size (here: it falls as the "
              "packet size grows).", "§V-C, Fig. 9", _monotone("effective_bad", rising=False),
              known_disagreement="Both our simulation and the analysis find the effective bad duration growing "
                                 "with the packet size (simulation 0.036 s at 0.25 kB to 0.092 s at 4 kB): the "
                                 "timer scales with the round trip, which grows with the transmission time of a "
                                 "packet, and a larger packet is more likely to meet a bad state. What makes the "
                                 "paper's fall is not established (docs/validation/abouzeid.md)."),
    ),
))


# -- Fig. 6: 100 random experiments --

def _fig6_parameters(rng: np.random.Generator, count: int) -> list[dict]:
    """abouzeid §V-B's draws: K ∈ {0.5, 1, 1.5} kB, C ~ U[1, 1000] kb/s, μT ~ U[5, 20], β ~ U[1, 2],
    E[X] ~ U[T, 50T], f ~ U[0.001, 0.3]; τ = T − 1/μ (a draw giving τ < 0 is drawn again)."""
    out = []
    while len(out) < count:
        size = int(rng.choice([500, 1000, 1500]))
        rate = rng.uniform(1e3, 1e6) / (size * 8)
        pipe = rng.uniform(5.0, 20.0)
        t = pipe / rate
        if t - 1.0 / rate < 0:
            continue
        beta = rng.uniform(1.0, 2.0)
        ex = rng.uniform(t, 50 * t)
        f = rng.uniform(0.001, 0.30)
        out.append({"packet_bytes": size, "rate": rate, "tau": t - 1.0 / rate, "beta": beta, "mean_good": ex,
                    "mean_bad": ex * f / (1 - f), "f": f, "pipe": pipe})
    return out


@once_per_settings
def _fig6(settings: Settings, progress) -> pd.DataFrame:
    count, seeds = (20, 2) if settings.quick else (100, 5)   # the paper: 100 experiments, five runs each

    def experiment(p):
        link = {k: p[k] for k in ("rate", "tau", "beta")}
        runs = {v: [simulate_link(v, mean_good=p["mean_good"], mean_bad=p["mean_bad"],
                                  seed=settings.seed * 1000 + s, **link) for s in range(seeds)]
                for v in ("reno", "newreno")}
        a = analyze_link(mean_good=p["mean_good"], mean_bad=p["mean_bad"], **link)
        printed = analyze_link(mean_good=p["mean_good"], mean_bad=p["mean_bad"], reading="paper", **link)
        rounds = {v: analyze_link(v, mean_good=p["mean_good"], mean_bad=p["mean_bad"], recovery="rounds", **link)
                  for v in ("reno", "newreno")}
        return {**p, "simulated": float(np.mean([r.goodput for r in runs["reno"]])),
                "simulated_newreno": float(np.mean([r.goodput for r in runs["newreno"]])), "analysis": a.goodput,
                "analysis_paper": printed.goodput, "analysis_rounds": rounds["reno"].goodput,
                "analysis_rounds_newreno": rounds["newreno"].goodput}

    experiments = list(enumerate(_fig6_parameters(np.random.default_rng(settings.seed), count), start=1))
    return pd.DataFrame(settings.map(lambda e: experiment(e[1]), experiments, progress,
                                     lambda e: f"Fig. 6 experiment {e[0]}"))


def _draw_fig6(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    ax.plot(data.analysis_paper, data.simulated, "x", markersize=3, color="0.6",
            label="the equations as printed (eq. (2)'s timer)")
    ax.plot(data.analysis, data.simulated, "o", markersize=4, color="C0", label="experiments (refined analysis)")
    if "analysis_rounds" in data:
        ax.plot(data.analysis_rounds, data.simulated, "s", markersize=3, color="C3",
                label='refined, recovery="rounds"')
    ax.plot([0, 1], [0, 1], "k-", linewidth=0.8, label="45° line")
    ax.fill_between([0, 1], [-0.1, 0.9], [0.1, 1.1], color="0.85", label="±0.1")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("goodput by the §IV analysis")
    ax.set_ylabel("goodput by simulation (mean of the runs)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)


def _fig6_share(measure: str, bound: float, paper: float):
    def share(column: str, data: pd.DataFrame, against: str = "simulated") -> float:
        gap = (data[column] - data[against]).abs()
        if measure == "normalized":
            gap = gap / data[against]
        return float((gap < bound).mean())

    def check(data: pd.DataFrame) -> Verdict:
        ours = share("analysis", data)
        return Verdict(ours >= paper - 0.05, f"{measure} |analysis − simulation| < {bound:g} in {ours:.0%} of "
                                             f"{len(data)} experiments (the paper: {paper:.0%}; the equations as "
                                             f"printed: {share('analysis_paper', data):.0%}); the analysis is above "
                                             f"the simulation in {float((data.analysis > data.simulated).mean()):.0%}; "
                                             f"against NewReno runs: {share('analysis', data, 'simulated_newreno'):.0%}; "
                                             f"with recovery=\"rounds\": {share('analysis_rounds', data):.0%} (Reno), "
                                             f"{share('analysis_rounds_newreno', data, 'simulated_newreno'):.0%} "
                                             f"(NewReno)")
    return check


def _fig6_rounds(measure: str, bound: float, paper: float):
    """The analysis with recovery="rounds" (each variant's recovery of several losses in one window) in place of
    eq. (10)'s one halving: the share of experiments within the bound before and after."""
    check = _fig6_share(measure, bound, paper)

    def ablate(data: pd.DataFrame) -> Ablation:
        def share(column: str) -> float:
            gap = (data[column] - data.simulated).abs()
            return float(((gap / data.simulated if measure == "normalized" else gap) < bound).mean())
        swapped = data.assign(analysis=data.analysis_rounds)
        return Ablation(f'the share of experiments within {bound:g} ({measure}) with the analysis\' recovery="rounds" '
                        'instead of eq. (10)', share("analysis"),
                        share("analysis_rounds"), paper, check(swapped).holds)
    return ablate


_FIG6_WHY = ("§IV's TD halves the window once and goes on (eq. (10)), which is neither variant's recovery when a "
             "bad visit destroys several packets of a window: Reno halves again or stalls until its timer, NewReno "
             "spends a round per lost packet. The default analysis keeps eq. (10) and is above the Reno simulation "
             "in almost every experiment. With recovery=\"rounds\" (docs/models.md) the analysis follows each "
             "variant's recovery, and its shares (last figures of the line) exceed the paper's. The equations as "
             "printed, with eq. (2)'s timer, do worse.")

register(Figure(
    id="abouzeid-fig6", paper=PAPER, label="Fig. 6",
    caption="Goodput by simulation against goodput by the §IV analysis for experiments drawn at random as in §V-B "
            "(packet 0.5-1.5 kB, C 1-1000 kb/s, μT 5-20, β 1-2, E[X] T-50T, f 0.001-0.3), TCP Reno; 100 "
            "experiments of five runs each (quick: 20 of two).",
    compute=_fig6, draw=_draw_fig6,
    claims=(
        Claim("In 99% of the experiments the analysis deviates from the simulation by less than 0.1.", "§V-B, Fig. 6",
              _fig6_share("absolute", 0.1, 0.99), known_disagreement=_FIG6_WHY,
              ablation=_fig6_rounds("absolute", 0.1, 0.99)),
        Claim("In 84% of the experiments the normalized error is below 10%.", "§V-B, Fig. 6",
              _fig6_share("normalized", 0.1, 0.84), known_disagreement=_FIG6_WHY,
              ablation=_fig6_rounds("normalized", 0.1, 0.84)),
    ),
))
