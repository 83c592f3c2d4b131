"""zorzi-rossi-mazzini, "Throughput and energy performance of TCP on a Wideband CDMA air interface": Figs. 1, 2
and 4 (throughput against block error probability, one point per user, for the Doppler frequency, the
interleaving depth and the network load), with the paper's universal curve, eqs. (3)-(6), overlaid.

Every point is a user of one run of the whole chain (:func:`tcpfade.wcdma.simulate`): the 25-cell uplink with
power control (Table 1), the calibrated block-error mapping, a block error sequence, TCP NewReno over the
bearer. Runs last 60 s, quick or not (a figure takes a few seconds; shorter runs make S too noisy to judge the
claims); seeds from the settings' seed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..wcdma import fit_universal_curve, simulate, universal_curve
from .registry import Claim, Figure, Settings, Verdict, register

PAPER = "zorzi-rossi-mazzini"
DOPPLERS = (2.0, 6.0, 20.0, 40.0)
TTIS = (1, 2, 4, 8)
LOADS = (80, 90, 100)
S0 = 472 / 512


def _duration(settings: Settings) -> float:
    return 60.0


def _users(settings: Settings, label: str, runs: list[dict], progress) -> pd.DataFrame:
    """One row per user of each run: its parameters, P_e and S."""
    def one(run):
        w = simulate(duration=_duration(settings), seed=settings.seed * 100 + run.pop("seed_offset"), **run)
        f = w.to_frame()
        for key, value in run.items():
            f[key] = value
        return f[["user", *run, "block_error_rate", "throughput", "atp", "mean_sir_db", "share_at_max_power"]]

    frames = settings.map(one, [dict(r) for r in runs], progress, lambda r: f"{label} {r}")
    return pd.concat(frames, ignore_index=True)


def _fig1(settings: Settings, progress) -> pd.DataFrame:
    return _users(settings, "Fig. 1", [{"users": 90, "doppler_hz": fd, "tti_frames": 1, "seed_offset": i}
                                       for i, fd in enumerate(DOPPLERS)], progress)


def _fig2(settings: Settings, progress) -> pd.DataFrame:
    # The same system run (same seed) for every TTI: only the interleaving differs.
    return _users(settings, "Fig. 2", [{"users": 90, "doppler_hz": 6.0, "tti_frames": k, "seed_offset": 10}
                                       for k in TTIS], progress)


def _fig4(settings: Settings, progress) -> pd.DataFrame:
    return _users(settings, "Fig. 4", [{"users": n, "doppler_hz": 6.0, "tti_frames": 1, "seed_offset": 20 + i}
                                       for i, n in enumerate(LOADS)], progress)


def _scatter(data: pd.DataFrame, fig, by: str, fmt: str, curve_dopplers) -> None:
    ax = fig.add_subplot(1, 1, 1)
    pe = np.logspace(-4, 0, 200)
    for i, (value, d) in enumerate(data.groupby(by)):
        x = np.clip(d.block_error_rate, 1e-4, 1)
        ax.plot(x, d.throughput, "o", color=f"C{i}", markersize=3, alpha=0.7, label=fmt.format(value))
    for i, fd in enumerate(curve_dopplers):
        ax.plot(pe, universal_curve(pe, fd, s0=S0), "--", color=f"C{i}" if len(curve_dopplers) > 1 else "k",
                linewidth=1, label=f"eqs. (3)-(6), f_d = {fd:g} Hz (the paper's A, B, k, α)")
    ax.set_xscale("log")
    ax.set_xlabel("average block error probability P_e (users below 1e-4 drawn at 1e-4)")
    ax.set_ylabel("TCP throughput S")
    ax.set_ylim(-0.02, 1.0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)


def _informative(d: pd.DataFrame) -> pd.DataFrame:
    """Users whose P_e says something about the curve's shape: between 1e-4 and 0.9."""
    return d[(d.block_error_rate > 1e-4) & (d.block_error_rate < 0.9)]


def _rms_from(fit, d: pd.DataFrame) -> float:
    pred = np.array([universal_curve(x, fd, s0=S0, A=fit.A, B=fit.B, k=fit.k, alpha=fit.alpha)
                     for x, fd in zip(d.block_error_rate, d.doppler_hz)])
    return float(np.sqrt(np.mean((d.throughput.to_numpy() - pred) ** 2)))


def _one_curve(by: str, common: bool, tolerance: float = 0.12):
    """Each group's users within an RMS of ``tolerance`` of eqs. (3)-(6) fitted to the group (``common`` False) or
    to all groups at once (True: one curve whatever the group)."""
    def check(data: pd.DataFrame) -> Verdict:
        spread = {}
        everyone = _informative(data)
        shared = fit_universal_curve(everyone.block_error_rate.to_numpy(), everyone.throughput.to_numpy(),
                                     everyone.doppler_hz.to_numpy(), s0=S0) if common else None
        for value, d in data.groupby(by):
            d = _informative(d)
            fit = shared or fit_universal_curve(d.block_error_rate.to_numpy(), d.throughput.to_numpy(),
                                                d.doppler_hz.to_numpy(), s0=S0)
            spread[value] = (_rms_from(fit, d), len(d))
        ok = all(r <= tolerance for r, _ in spread.values())
        what = "one curve fitted to all" if common else "a curve fitted to each"
        return Verdict(ok, f"RMS distance from {what}: " + ", ".join(f"{k}: {r:.3f} ({n} users)"
                                                                     for k, (r, n) in spread.items()))
    return check


def _throughput_at(data: pd.DataFrame, pe: float = 0.05, window: float = 0.5) -> pd.Series:
    """Per Doppler, the mean S of users whose P_e lies within a factor 10^window of ``pe``."""
    sel = data[np.abs(np.log10(np.clip(data.block_error_rate, 1e-12, 1)) - np.log10(pe)) <= window]
    return sel.groupby("doppler_hz").throughput.mean()


def _slower_is_better(data: pd.DataFrame) -> Verdict:
    s = _throughput_at(data)
    ok = bool(s.get(2.0, np.nan) > s.get(40.0, np.nan))
    return Verdict(ok, "mean S of users with P_e within a factor 3 of 0.05: " + ", ".join(
        f"{fd:g} Hz: {v:.3f}" for fd, v in s.items()))


def _deeper_is_better(data: pd.DataFrame) -> Verdict:
    m = data.groupby("tti_frames").throughput.mean()
    pe = data.groupby("tti_frames").block_error_rate.mean()
    ok = bool(m.loc[8] > m.loc[1])
    return Verdict(ok, "mean S over the users: " + ", ".join(f"TTI {k}: {v:.3f} (mean P_e {pe.loc[k]:.3g})"
                                                              for k, v in m.items()))


def _load_unfair(data: pd.DataFrame) -> Verdict:
    bad = data.groupby("users").apply(lambda d: float((d.throughput < 0.5).mean()), include_groups=False)
    ok = bool(bad.loc[100] >= bad.loc[80])
    return Verdict(ok, "share of users with S < 0.5: " + ", ".join(f"{n} users: {v:.2f}" for n, v in bad.items()))


def _scatter_figure(number: str, label: str, caption: str, compute, by: str, fmt: str, dopplers, *claims: Claim):
    """Register a figure of users (P_e, S) grouped by ``by``, with eqs. (3)-(6) dashed at ``dopplers``."""
    register(Figure(id=f"zorzi-rossi-mazzini-{number}", paper=PAPER, label=label, caption=caption, compute=compute,
                    draw=lambda d, fig: _scatter(d, fig, by, fmt, dopplers), claims=claims))


_scatter_figure(
    "fig1", "Fig. 1",
    "TCP throughput against the average block error probability, one point per user (N_u = 90, TTI = 1, "
    "SIR_th = 5.5 + 0.5 dB) for f_d = 2, 6, 20, 40 Hz; dashed: eqs. (3)-(6) with the paper's parameters.",
    _fig1, "doppler_hz", "f_d = {:g} Hz", DOPPLERS,
    Claim("For a given Doppler the users lie along one curve (here: within an RMS of 0.12 of a fit of eqs. "
          "(3)-(6) to them).", "§3.1, Fig. 1", _one_curve("doppler_hz", common=False)),
    Claim("Slower fading gives a higher throughput at the same P_e.", "§3.1, Fig. 1", _slower_is_better))

_scatter_figure(
    "fig2", "Fig. 2",
    "TCP throughput against the average block error probability for inter-frame interleaving over 1, 2, 4 "
    "and 8 frames (N_u = 90, f_d = 6 Hz, SIR_th = 5.5 + 0.5 dB), the same system run for every depth.",
    _fig2, "tti_frames", "TTI = {} frame(s)", (6.0,),
    Claim("Deeper interleaving is beneficial (here: the users' mean throughput is higher with 8 frames than "
          "with 1).", "§3.2, Fig. 2", _deeper_is_better))

_scatter_figure(
    "fig4", "Figs. 3-4",
    "TCP throughput against the average block error probability for 80, 90 and 100 users (f_d = 6 Hz, "
    "TTI = 1, SIR_th = 5.5 + 0.5 dB); dashed: eqs. (3)-(6) at 6 Hz.",
    _fig4, "users", "N_u = {}", (6.0,),
    Claim("The curve is relatively insensitive to the load (here: every load's users within an RMS of 0.12 of "
          "one fit of eqs. (3)-(6) to all of them).", "§3.3, Fig. 4", _one_curve("users", common=True)),
    Claim("More users make the system less fair: more disadvantaged users (here: the share with S < 0.5 does not "
          "fall from 80 to 100 users).", "§3.3, Fig. 3", _load_unfair))
