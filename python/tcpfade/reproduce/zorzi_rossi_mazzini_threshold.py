"""zorzi-rossi-mazzini Figs. 7-12 (§4): S, P_e, ATP and ACE of representative users against the power-control
threshold, over :data:`~.zrm_runs.PLACEMENTS` placements, each the same for every threshold; the
optimum threshold and what sets it (block errors of the target below it, users at maximum power above it).
The chain's runs and the figures' helpers are :mod:`.zrm_runs`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..wcdma import DEFAULT_SIR_REFERENCE
from .registry import Ablation, Claim, Figure, Settings, Verdict, register
from .zorzi_rossi_mazzini import PAPER
from .zrm_runs import (PLACEMENTS, cached, default_rows, mean_pm, placements, t_interval, tcp_settings, timer_ablation,
                       users)

#: Figs. 7-12's thresholds t (the paper's "SIR_th = t + 0.5 dB"), and two higher ones, where users saturate.
THRESHOLDS = (1.5, 2.5, 3.5, 4.0, 4.5, 5.0)
HIGHER_THRESHOLDS = (5.5, 6.5)
QUICK_THRESHOLDS = (3.5, 4.0, 4.5, 5.0, 6.5)


@cached
def _fig7(settings: Settings, progress) -> pd.DataFrame:
    # One placement, shadowing and fading (one seed) for every threshold: the users are the same users. Quick
    # runs the thresholds around the optimum and the highest only.
    grid = QUICK_THRESHOLDS if settings.quick else THRESHOLDS + HIGHER_THRESHOLDS
    return users(settings, "Figs. 7-12", [{"users": 120, "doppler_hz": 6.0, "target_sir_db": t, "placement": p,
                                            "seed_offset": 30, "tcp": tcp_settings(settings)}
                                           for p in placements(settings) for t in grid], progress)


# Figs. 7-12: the power-control threshold, for representative users.

def _curves(data: pd.DataFrame, column: str, tcp: str = "default") -> pd.DataFrame:
    """(placement, user) × thresholds table of ``column`` for one TCP setting."""
    d = data[data.tcp == tcp]
    return d.pivot(index=["placement", "user"], columns="target_sir_db", values=column).sort_index(axis=1)


def _first_placement(data: pd.DataFrame) -> pd.DataFrame:
    d = default_rows(data)
    return d[d.placement == d.placement.min()]


def representative_users(data: pd.DataFrame) -> dict[str, int]:
    """The rule that picks Figs. 7-12's users from all of them, in the first placement: the user with the best
    mean path gain to its base station (favourable propagation, like the paper's user 14); the one whose
    throughput falls most from its best threshold to the highest (like user 11); and those at the 90th and 75th
    percentiles of that fall (like users 33 and 114). Ties go to the lower user number."""
    d = _first_placement(data)
    s = d.pivot(index="user", columns="target_sir_db", values="throughput").sort_index(axis=1)
    fall = (s.max(axis=1) - s.iloc[:, -1]).sort_values(kind="stable", ascending=False)
    gain = d.drop_duplicates("user").set_index("user").serving_gain_db
    picks = {"best path gain": int(gain.idxmax()), "largest fall": int(fall.index[0])}
    for q in (0.9, 0.75):
        picks[f"fall, {round(q * 100)}th percentile"] = int(fall.index[int(round((1 - q) * (len(fall) - 1)))])
    return picks


def _draw_fig7(data: pd.DataFrame, fig) -> None:
    fig.set_size_inches(10.5, 7.0)
    picks = representative_users(data)
    first = _first_placement(data)
    panels = [("atp", "throughput", "Fig. 7: S against ATP"), ("ace", "throughput", "Fig. 8: S against ACE"),
              ("target_sir_db", "atp", "Fig. 9: ATP against t"), ("target_sir_db", "ace", "Fig. 10: ACE against t"),
              ("atp", "block_error_rate", "Fig. 11: P_e against ATP"),
              ("ace", "block_error_rate", "Fig. 12: P_e against ACE")]
    names = {"atp": "ATP [W]", "ace": "ACE [J/bit]", "throughput": "S", "block_error_rate": "P_e (floor 1e-6)",
             "target_sir_db": "threshold t [dB] (SIR_th = t + 0.5 dB)"}
    for n, (x, y, title) in enumerate(panels):
        ax = fig.add_subplot(2, 3, n + 1)
        for i, (why, user) in enumerate(picks.items()):
            d = first[first.user == user].sort_values("target_sir_db")
            yy = np.clip(d[y], 1e-6, None) if y == "block_error_rate" else d[y]
            ax.plot(d[x], yy, "o-", color=f"C{i}", markersize=3, linewidth=1, label=f"user {user} ({why})")
        if x != "target_sir_db":
            ax.set_xscale("log")
        else:   # the users' mean S over every placement, on a second axis
            m = default_rows(data).groupby("target_sir_db").throughput.mean()
            twin = ax.twinx()
            twin.plot(m.index, m.to_numpy(), "k:", linewidth=1)
            twin.set_ylabel("mean S, all placements (dotted)", fontsize=6)
            twin.tick_params(labelsize=6)
        if y in ("atp", "ace", "block_error_rate"):
            ax.set_yscale("log")
        ax.set_xlabel(names[x], fontsize=7)
        ax.set_ylabel(names[y], fontsize=7)
        ax.set_title(title, fontsize=8)
        ax.tick_params(labelsize=6)
        ax.grid(True, which="both", alpha=0.3)
    fig.axes[0].legend(fontsize=5)


def optimum(data: pd.DataFrame, tcp: str = "default") -> dict:
    """The threshold where the users' mean S (averaged over the placements) is largest, with the evidence: per
    threshold the mean S, its difference from the best's paired by placement, P_e, the share of slots at maximum
    power (each mean ± 95% over placements), and each placement's own best threshold."""
    d = data[data.tcp == tcp]
    per = d.groupby(["placement", "target_sir_db"])
    s = per.throughput.mean().unstack()
    pe, at_max = per.block_error_rate.mean().unstack(), per.share_at_max_power.mean().unstack()
    best = float(s.mean().idxmax())
    close = [float(t) for t in s.columns if sum(t_interval(s[t] - s[best])) >= 0]
    return {"best": best, "close": close, "per_placement": s.idxmax(axis=1).to_numpy(),
            "table": {float(t): (mean_pm(s[t]), mean_pm(s[t] - s[best]), mean_pm(pe[t]), mean_pm(100 * at_max[t]))
                      for t in s.columns}}


def _optimum_near(low: float, high: float):
    def check(data: pd.DataFrame) -> Verdict:
        o = optimum(data)
        m, h = t_interval(o["per_placement"])
        return Verdict(low <= o["best"] <= high, f"mean S over {data.placement.nunique()} placements of "
                       f"{data.user.nunique()} users is largest at t = {o['best']:g} dB (not significantly below "
                       f"it: {o['close']}; each placement's best t: {m:.2f} ± {h:.2f}); by t, S, S − S(best), "
                       f"P_e, % of slots at maximum power: " + "; ".join(
                           f"{t:g}: {a}, {b}, {c}, {e}%" for t, (a, b, c, e) in o["table"].items()))
    return check


def _power_grows(data: pd.DataFrame) -> Verdict:
    """ATP grows with the threshold for users that stay below maximum power (at it less than 10% of the time at
    both thresholds of a step); the steps where a user enters saturation are counted apart."""
    atp = _curves(data, "atp").to_numpy()
    at_max = _curves(data, "share_at_max_power").to_numpy()
    falls = atp[:, 1:] < atp[:, :-1]
    free = (at_max[:, 1:] < 0.1) & (at_max[:, :-1] < 0.1)
    median = _curves(data, "atp").median()
    return Verdict(not bool(np.any(falls & free)),
                   f"steps where the ATP of a user below maximum power falls: {int(np.sum(falls & free))} of "
                   f"{int(free.sum())} (and {int(np.sum(falls & ~free))} of {int((~free).sum())} steps of users "
                   f"reaching it); median ATP by t: " + ", ".join(f"{t:g}: {a:.3g} W" for t, a in median.items()))


def _two_behaviours(data: pd.DataFrame) -> Verdict:
    """Some users gain from every raise of the threshold, others fall past a breakpoint (beyond their
    interval)."""
    s = _curves(data, "throughput")
    half = (_curves(data, "throughput_high") - _curves(data, "throughput_low")) / 2
    rising = (s.iloc[:, -1] > s.iloc[:, 0] + half.iloc[:, 0] + half.iloc[:, -1]) & \
             (s.max(axis=1) - s.iloc[:, -1] <= half.iloc[:, -1])
    fall = s.max(axis=1) - s.iloc[:, -1]
    peak = s.to_numpy().argmax(axis=1)
    falling = (fall > 0.1) & (fall > half.to_numpy()[np.arange(len(s)), peak] + half.iloc[:, -1])
    per = pd.DataFrame({"rising": rising, "falling": falling}).groupby(level="placement").sum()
    return Verdict(bool(rising.any() and falling.any()), f"users whose S rises to the highest threshold: "
                   f"{int(rising.sum())}; users whose S falls by more than 0.1 (and their intervals) past a breakpoint:"
                   f" {int(falling.sum())} of {len(s)}; per placement {mean_pm(per.rising)} and {mean_pm(per.falling)}")


def _energy_spans_orders(data: pd.DataFrame) -> Verdict:
    data = default_rows(data)
    good = data[data.throughput >= 0.8]
    decades = float(np.log10(good.ace.max() / good.ace.min()))
    spread = float(good.throughput.max() - good.throughput.min())
    per = good.groupby("placement").ace.apply(lambda a: float(np.log10(a.max() / a.min())))
    return Verdict(decades >= 2 and spread <= 0.15, f"over the {len(good)} (user, threshold) points with S ≥ 0.8: "
                   f"S spans {spread:.3f}, ACE spans {decades:.1f} orders of magnitude ({mean_pm(per)} per placement)")


def _stuck(data: pd.DataFrame):
    """Users at maximum power half the time or more at the highest threshold, and that threshold."""
    at_max = _curves(data, "share_at_max_power")
    top = float(at_max.columns[-1])
    return at_max.index[at_max[top] >= 0.5], top


def _power_change(data: pd.DataFrame, column: str, tcp: str = "default") -> pd.Series:
    """Per stuck user, the change of ``column`` from 4 dB to the highest threshold [dB]."""
    stuck, top = _stuck(data)
    c = _curves(data, column, tcp)
    return 10 * np.log10(c.loc[stuck, top] / c.loc[stuck, 4.0])


def _saturated_power_flat(data: pd.DataFrame) -> Verdict:
    """ATP of the users at maximum power half the time or more at the highest threshold, from 4 dB up; beside it
    the mean of their power trace (as if always transmitting) and their S, which say why ATP moves."""
    stuck, top = _stuck(data)
    if len(stuck) == 0:
        return Verdict(None, "no user spends half its time at maximum power at the highest threshold")
    atp, trace = _power_change(data, "atp"), _power_change(data, "mean_power_w")
    s = _curves(data, "throughput").loc[stuck]
    return Verdict(bool(atp.abs().median() <= 1.0), f"{len(stuck)} users spend half the time or more at maximum "
                   f"power at t = {top:g} dB; from 4 to {top:g} dB their ATP changes by a median "
                   f"{atp.median():+.2f} dB ({atp.min():+.2f} to {atp.max():+.2f}), the mean of their power trace "
                   f"by {trace.median():+.2f} dB ({trace.min():+.2f} to {trace.max():+.2f}), their mean S from "
                   f"{s[4.0].mean():.3f} to {s[top].mean():.3f}")


def _whole_run_power(data: pd.DataFrame) -> Ablation:
    """D14 for the saturated users' power: the mean of their power trace over the whole run (the system's trace,
    as if TCP always transmitted) in place of eq. (2)'s ATP (power only while TCP sends)."""
    after = float(_power_change(data, "mean_power_w").median())
    return Ablation("power averaged over the whole run, not only while TCP sends (ATP of eq. (2))",
                    float(_power_change(data, "atp").median()), after, 0.0, abs(after) <= 1.0, "dB")


def _pe_minimum_is_s_maximum(data: pd.DataFrame) -> Verdict:
    s = _curves(data, "throughput")
    pe = _curves(data, "block_error_rate")
    fall = s.max(axis=1) - s.iloc[:, -1]
    interior = s.index[(fall > 0.05) & (s.to_numpy().argmax(axis=1) > 0)]
    if len(interior) == 0:
        return Verdict(None, "no user has a throughput maximum inside the grid")
    gap = np.abs(pe.loc[interior].to_numpy().argmin(axis=1) - s.loc[interior].to_numpy().argmax(axis=1))
    share = float(np.mean(gap <= 1))
    return Verdict(share >= 0.8, f"of {len(interior)} users with a throughput maximum inside the grid, "
                   f"{100 * share:.0f}% have their smallest P_e within one threshold of it")


_WHY_OPTIMUM = (
    "Our optimum is 4.5 dB (SIR per bit, D13), half a step above the paper's 3.5-4 dB; 4 dB is 1% below it. Its "
    "cause is the paper's: below it the block errors are the target's own (users below maximum power), above it "
    "users pinned at maximum power lose most blocks (57% of the users' summed P_e at 5 dB, 90% at 6.5). Our users "
    "saturate later than the paper's (beyond 5 dB, the paper's beyond 4): per coded symbol the optimum falls to "
    "0.5-1.5 dB instead (docs/validation/zorzi-rossi-mazzini.md). TCP's timer as Fig. 1 needs it does not move it.")

_WHY_SATURATED = (
    "Our users reach maximum power beyond 5 dB, not beyond 4 as the paper's: from 4 dB to the highest threshold "
    "their power trace rises (median +10 dB) and their ATP falls as TCP, its throughput collapsing, sends less. The "
    "same late saturation as the optimum's half step.")


register(Figure(
    id="zorzi-rossi-mazzini-fig7", paper=PAPER, label="Figs. 7-12",
    caption=f"N_u = 120, TTI = 1, f_d = 6 Hz, SIR_th = t + 0.5 dB for t = 1.5 to 5 dB (the paper's) and 5.5, "
            f"6.5 dB (where our users saturate), SIR per {DEFAULT_SIR_REFERENCE} (D13); {PLACEMENTS} placements, "
            f"each the same for every t. Users of the first placement chosen by representative_users: best path "
            f"gain, largest fall of S from its best threshold to the highest, and the 90th and 75th percentiles of "
            f"that fall; dotted, the mean S of all users. ATP counts the power only while TCP transmits; ACE = "
            f"ATP / (S · 103.4 kb/s).",
    compute=_fig7, draw=_draw_fig7,
    claims=(Claim("A higher threshold always costs more power: ATP grows with it (here: no user below maximum "
                  "power sees its ATP fall).", "§4, Fig. 9", _power_grows),
            Claim("Some users gain from every raise of the threshold; others gain up to a breakpoint and then "
                  "lose, from the interference.", "§4, Fig. 7", _two_behaviours),
            Claim("There is an optimal threshold close to 3.5-4 dB (here: the users' mean S over the placements is "
                  "largest at t in [3.5, 4] dB).", "§4 and §5, Figs. 7-8", _optimum_near(3.5, 4.0),
                  known_disagreement=_WHY_OPTIMUM,
                  ablation=timer_ablation(_optimum_near(3.5, 4.0), lambda d: optimum(d)["best"], 3.5, "dB")),
            Claim("Energy spans orders of magnitude where throughput varies little (here: over the points with "
                  "S ≥ 0.8, ACE spans two orders of magnitude or more while S spans 0.15 or less).",
                  "§4, Figs. 7-8", _energy_spans_orders),
            Claim("Users who suffer the interference reach the maximum power, and their power stays essentially "
                  "constant beyond 4 dB (here: the median change of their ATP from 4 dB to the highest threshold "
                  "within 1 dB, for users at maximum power half the time there).", "§4, Fig. 9",
                  _saturated_power_flat, known_disagreement=_WHY_SATURATED, ablation=_whole_run_power),
            Claim("P_e is smallest at the threshold where S is largest (here: within one threshold for 80% of "
                  "the users with an interior maximum).", "§4, Fig. 11", _pe_minimum_is_s_maximum))))
