"""The runs behind zorzi-rossi-mazzini's figures, shared by :mod:`.zorzi_rossi_mazzini` (Figs. 1-6) and
:mod:`.zorzi_rossi_mazzini_threshold` (Figs. 7-12): the placements and TCP settings a figure runs, one row per
user of each run of the chain, the Student-t summaries, and the ablation with TCP's timer as Fig. 1 needs it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..wcdma import DEFAULT_SIR_REFERENCE, simulate_system, tcp_over_system
from .registry import Ablation, Settings

#: User placements (seeds) per figure: every claim is judged over them (QUICK_PLACEMENTS with --quick).
PLACEMENTS = 10
QUICK_PLACEMENTS = 3

#: TCP as the paper's curve needs it (docs/validation/zorzi-rossi-mazzini.md, Fig. 1's offset): 10-ms return path,
#: 0.2-s timer floor.
#: Figures 1 and 7-12 also run it on the same block errors, for the ablations of their claims.
TIMER_FIT = {"ack_delay": 0.01, "min_rto": 0.2}
TIMER_NAME = "ack 10 ms, min RTO 0.2 s"
TCP_SETTINGS = {"default": {}, TIMER_NAME: TIMER_FIT}
COLUMNS = ["block_error_rate", "throughput", "throughput_low", "throughput_high", "atp", "ace", "mean_sir_db",
           "mean_power_w", "serving_gain_db", "share_at_max_power"]


def run_seconds(settings: Settings) -> float:
    # Quick runs are shorter, but not below 30 s: a timeout's back-off weighs too much on S in shorter runs (at
    # 15 s the users' RMS from the paper's curve at 6 Hz is 0.18, at 60 s 0.045).
    return 30.0 if settings.quick else 60.0


def placements(settings: Settings) -> range:
    return range(QUICK_PLACEMENTS if settings.quick else PLACEMENTS)


def tcp_settings(settings: Settings) -> tuple[str, ...]:
    """The TCP settings a figure runs: the default, and in full runs the ablation's (:data:`TIMER_FIT`)."""
    return ("default",) if settings.quick else tuple(TCP_SETTINGS)


def cached(compute):
    """A figure's computation made once per settings (Figs. 1 and 5-6 share theirs; a report and the tests ask
    for each figure more than once)."""
    cache: dict[Settings, pd.DataFrame] = {}

    def once(settings: Settings, progress) -> pd.DataFrame:
        if settings not in cache:
            cache[settings] = compute(settings, progress)
        return cache[settings]

    once.__wrapped__ = compute
    return once


def t_interval(x) -> tuple[float, float]:
    """Mean and Student-t 95% half-width of ``x`` (finite values; NaN half-width for fewer than two)."""
    x = np.asarray(x, dtype=float)
    x = x[np.isfinite(x)]
    if len(x) < 2:
        return (float(x.mean()) if len(x) else float("nan")), float("nan")
    return float(x.mean()), float(stats.t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / np.sqrt(len(x)))


def mean_pm(x, spec: str = ".3f") -> str:
    m, h = t_interval(x)
    return f"{m:{spec}} ± {h:{spec}}"


def users(settings: Settings, label: str, runs: list[dict], progress) -> pd.DataFrame:
    """One row per user of each run, for each TTI in the run's ``ttis`` and each TCP setting in its ``tcp``:
    its placement, the run's parameters, P_e, S, ATP, ACE and the uplink's summary. A run is one uplink
    (:func:`simulate_system`, seed from the settings, the run's ``seed_offset`` and its placement)."""
    duration = run_seconds(settings)

    def one(run):
        run = dict(run)
        placement, offset = run.pop("placement"), run.pop("seed_offset")
        ttis, tcps = run.pop("ttis", (1,)), run.pop("tcp", ("default",))
        run.setdefault("sir_reference", DEFAULT_SIR_REFERENCE)
        system = simulate_system(duration=duration, seed=settings.seed * 100_000 + offset * 100 + placement, **run)
        frames = []
        for k in ttis:
            for name in tcps:
                f = tcp_over_system(system, tti_frames=k, **TCP_SETTINGS[name]).to_frame()
                f["placement"], f["tti_frames"], f["tcp"] = placement, k, name
                for key, value in run.items():
                    f[key] = value
                frames.append(f[["placement", "user", "tti_frames", "tcp", *run, *COLUMNS]])
        return pd.concat(frames, ignore_index=True)

    frames = settings.map(one, [dict(r) for r in runs], progress,
                          lambda r: f"{label} placement {r['placement']} " + ", ".join(
                              f"{k} {v}" for k, v in r.items() if k not in ("placement", "seed_offset", "tcp")))
    return pd.concat(frames, ignore_index=True)


def default_rows(data: pd.DataFrame) -> pd.DataFrame:
    """The rows of the default TCP settings and SIR reference (the others are ablations)."""
    return data[(data.tcp == "default") & (data.sir_reference == DEFAULT_SIR_REFERENCE)]


def as_default(data: pd.DataFrame, tcp: str) -> pd.DataFrame:
    """The figure's data with the rows of TCP setting ``tcp`` in place of the default's (an ablation's data)."""
    return data[(data.tcp == tcp) & (data.sir_reference == DEFAULT_SIR_REFERENCE)].assign(tcp="default")


def timer_ablation(check, measure, paper: float, unit: str = ""):
    """D14: the claim's check on the same block errors with TCP's timer as the paper's curve needs it
    (:data:`TIMER_FIT`, the cause of Fig. 1's offset); ``measure`` gives our number before and after."""
    def ablation(data: pd.DataFrame) -> Ablation:
        swapped = as_default(data, TIMER_NAME)
        if swapped.empty:       # a quick run does not make the ablation's runs
            return Ablation("TCP's timer as Fig. 1 needs it (not run: --quick)", measure(data), float("nan"),
                            paper, False, unit)
        return Ablation("TCP with a 10-ms ACK delay and a 0.2-s minimum RTO "
                        "(docs/validation/zorzi-rossi-mazzini.md, Fig. 1)",
                        measure(data), measure(swapped), paper, bool(check(swapped).holds), unit)
    return ablation
