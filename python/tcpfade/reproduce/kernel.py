"""The simulator against Linux's TCP: the project's own findings on the kernel (docs/validation/kernel.md), as a
reproducible entry with its claims checked, ``tcpfade reproduce kernel-vs-simulator``.

A small grid drawn from ``validation/emulator_vs_simulator.py``: the 1.5 Mb/s link (μ = 125 packets of 1500 bytes,
τ = 40 ms, B = 6) with i.i.d. losses of 1% and 3% and Gilbert-Elliott bursts of mean 5 packets at 3%. Linux Reno
(SACK off, timestamps on) runs over the emulated link, one transfer per seed, one after another: the kernel runs
in real time, and two at once would share the CPU and distort each other's timing. Against it, ``simulate_link``
by the same protocol (runs of the same length and warm-up, each with its own seed: like with like, since where
losses come in bursts goodput over a short run is heavy-tailed), NewReno and Reno made as Linux-like as the model
allows, and Reno with the papers' ns-2 timers. Every interval is a Student-t 95% interval over the runs; every
claim is judged on those intervals, never on pasted numbers.

The kernel's runs are not bit-reproducible (the kernel's TCP is not seeded, only the channel is), so the claims
are chosen and judged so that they are decided the same way run after run. Runs only where the emulator can
(root, /dev/net/tun, network namespaces); elsewhere ``tcpfade reproduce`` reports it skipped, with the reason.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from ..channels.markov import Bernoulli, GilbertElliott
from ..tcp.profiles import LINUX as LINUX_PROFILE
from .registry import Claim, Figure, Settings, Verdict, once_per_settings, register

PAPER = "kernel"
FIGURE_ID = "kernel-vs-simulator"

#: The 1.5 Mb/s link of validation/emulator_vs_simulator.py (μT = 5.5 packets).
LINK = dict(rate=125.0, tau=0.04, buffer=6, packet_bytes=1500)

IID_1, IID_3, BURSTS_3 = "i.i.d. 1%", "i.i.d. 3%", "bursts of 5, 3%"


def _channel(label: str):
    return {IID_1: Bernoulli(0.01), IID_3: Bernoulli(0.03), BURSTS_3: GilbertElliott.from_burst(0.03, 5.0)}[label]


CHANNELS = (IID_1, IID_3, BURSTS_3)

#: Linux's timers (RTO_MIN 200 ms, initial 1 s, 120 s maximum, 1 ms clock), its 40-ms delayed ACK and its window
#: growth by the segments an ACK covers (RFC 3465), as the "linux" profile states them; the profile's other parts
#: (IW10, limited transmit, NewReno's guard, the kernel's RTO estimator ``rto_rule``) are left out, as they were when
#: these claims were measured, and its refusal of "reno" would not let Reno run here.
LINUX = {k: LINUX_PROFILE.values[k] for k in ("min_rto", "initial_rto", "max_rto", "clock_granularity", "delayed_ack",
                                              "byte_counting")}
#: abouzeid's ns-2 defaults (simulate_link's): no minimum but two 10-ms ticks, an ACK per segment.
NS2 = dict(min_rto=0.02, initial_rto=3.0, max_rto=64.0, clock_granularity=0.01, delayed_ack=None)

KERNEL = "kernel Reno, no SACK"
MODELS = (("NewReno, Linux-like", "newreno", LINUX), ("Reno, Linux-like", "reno", LINUX),
          ("Reno, ns-2 timers", "reno", NS2))


def protocol(settings: Settings) -> dict[str, float | int]:
    """Kernel runs per channel, their length and warm-up [s], and simulated runs per channel and model. Full:
    validation/emulator_vs_simulator.py's protocol with five kernel runs (about 15 minutes of real time). Quick:
    six runs of 4 s per channel (about 85 s in all), 1.5 s of them warm-up: the simulator's slow start from one
    segment overshoots the buffer in its first second, and a shorter warm-up leaves that in the measurement (at
    i.i.d. 1%: 0.83 with 0.5 s, 0.93 with 1.5 s, 0.94 over 60 s)."""
    if settings.quick:
        return dict(kernel_runs=6, duration=4.0, warmup=1.5, simulated_runs=50)
    return dict(kernel_runs=5, duration=60.0, warmup=5.0, simulated_runs=50)


#: Measured time [s] a run needs for the burst findings to show: they rest on the long backoff stalls that a
#: burst clocked by packets causes when it also takes the retransmissions after a timeout, which runs of a few
#: seconds rarely meet (quick runs of 3 s gave the kernel 0.84 with bursts against 0.73 i.i.d.; 60-s runs 0.21
#: against 0.70). Shorter runs leave those claims undecided, saying why, instead of judging them on the wrong data.
LONG_ENOUGH = 30.0


def t_interval(values) -> tuple[float, float, float, float]:
    """Mean, Student-t 95% interval and standard deviation of independent runs (NaN interval for one run)."""
    x = np.asarray(values, dtype=float)
    mean = float(x.mean())
    if x.size < 2:
        return mean, math.nan, math.nan, math.nan
    sd = float(x.std(ddof=1))
    half = float(stats.t.ppf(0.975, x.size - 1)) * sd / math.sqrt(x.size)
    return mean, mean - half, mean + half, sd


def summary(metric: str, values) -> dict[str, float]:
    """``metric``'s mean over independent runs with its Student-t 95% interval and spread, as the columns
    :func:`lower` reads (``<metric>``, ``_low``, ``_high``, ``_sd``)."""
    mean, low, high, sd = t_interval(values)
    return {metric: mean, f"{metric}_low": low, f"{metric}_high": high, f"{metric}_sd": sd}


def _row(channel: str, model: str, goodputs, **extra) -> dict:
    return {"channel": channel, "model": model, **summary("goodput", goodputs), "runs": len(goodputs), **extra}


@once_per_settings
def _compute(settings: Settings, progress) -> pd.DataFrame:
    from .. import emulate, simulate_link

    p = protocol(settings)
    duration, warmup = p["duration"], p["warmup"]
    rows = []
    for label in CHANNELS:
        # One kernel run at a time, never on settings.map's threads: concurrent runs distort each other's timing.
        runs = []
        for i in range(1, p["kernel_runs"] + 1):
            progress(f"kernel {label} run {i}")
            runs.append(emulate("reno", channel=_channel(label), duration=duration, warmup=warmup,
                                seed=1000 * settings.seed + i, sack=False, **LINK))
        measured = duration - warmup
        rows.append(_row(label, KERNEL, [r.goodput for r in runs],
                         loss_rate=float(np.mean([r.channel_loss_rate for r in runs])),
                         retransmissions_per_s=float(np.mean([r.retransmissions / measured for r in runs])),
                         timeouts_per_s=float(np.mean([r.timeouts / measured for r in runs]))
                         if all(r.timeouts is not None for r in runs) else math.nan))
    # The simulations after the kernel's runs, so that their threads never share the CPU with an emulation.
    jobs = [(label, name, variant, timers) for label in CHANNELS for name, variant, timers in MODELS]

    def simulate(job) -> dict:
        label, name, variant, timers = job
        runs = [simulate_link(variant, channel=_channel(label), duration=duration, warmup=warmup,
                              seed=1000 * settings.seed + i, **LINK, **timers)
                for i in range(1, p["simulated_runs"] + 1)]
        return _row(label, name, [r.goodput for r in runs], loss_rate=float(np.mean([r.channel_loss_rate
                                                                                     for r in runs])),
                    timeouts_per_s=float(np.mean([r.timeouts_per_s for r in runs])))

    rows += settings.map(simulate, jobs, progress, label=lambda job: f"{job[1]} {job[0]}")
    frame = pd.DataFrame(rows)
    frame["duration"], frame["warmup"] = duration, warmup
    return frame


def _at(data: pd.DataFrame, channel: str, model: str) -> pd.Series:
    return data[(data.channel == channel) & (data.model == model)].iloc[0]


def _shown(r: pd.Series, metric: str = "goodput") -> str:
    return f"{r[metric]:.3f} [{r[metric + '_low']:.3f}, {r[metric + '_high']:.3f}] ({int(r.runs)} runs)"


def lower(data: pd.DataFrame, model: str, a: str, b: str, *, long_runs: bool = False,
          metric: str = "goodput") -> Verdict:
    """``metric`` (columns ``<metric>``, ``_low``, ``_high``, ``_sd`` and ``runs``) over channel ``a`` is lower than
    over ``b`` for ``model``: the Welch (Student-t) 95% interval of the difference of the means, from the runs'
    means, spreads and numbers, lies above 0 (holds), below 0 (fails) or holds 0 (undecided). ``long_runs``: a
    finding only runs of :data:`LONG_ENOUGH` seconds can show (undecided on shorter ones)."""
    x, y = _at(data, model=model, channel=a), _at(data, model=model, channel=b)
    va, vb = x[metric + "_sd"] ** 2 / x.runs, y[metric + "_sd"] ** 2 / y.runs
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (x.runs - 1) + vb ** 2 / (y.runs - 1)) if se > 0 else math.inf
    diff = y[metric] - x[metric]
    half = float(stats.t.ppf(0.975, df)) * se
    holds = True if diff - half > 0 else False if diff + half < 0 else None
    evidence = (f"{model}, {metric}: {a} {_shown(x, metric)}, {b} {_shown(y, metric)}; difference {diff:.3f} "
                f"[{diff - half:.3f}, {diff + half:.3f}] (Welch 95%)")
    measured = float(x.duration - x.warmup)
    if long_runs and measured < LONG_ENOUGH:
        return Verdict(None, f"{evidence}; not judged: runs of {measured:g} s measured are too short to meet the "
                             f"backoff stalls this finding rests on (at least {LONG_ENOUGH:g} s: the full protocol)")
    return Verdict(holds, evidence)


def overlaps(data: pd.DataFrame, channel: str, models: tuple[str, ...]) -> Verdict:
    """The kernel's interval at ``channel`` overlaps that of one of the simulated ``models``."""
    k = _at(data, channel, KERNEL)
    sims = [_at(data, channel, m) for m in models]
    met = [s.model for s in sims if s.goodput_low <= k.goodput_high and k.goodput_low <= s.goodput_high]
    return Verdict(bool(met), f"{channel}: kernel {_shown(k)}; " + "; ".join(f"{s.model} {_shown(s)}" for s in sims)
                   + (f"; overlapping: {', '.join(met)}" if met else "; none overlaps"))


def _draw(data: pd.DataFrame, fig) -> None:
    ax = fig.add_subplot(1, 1, 1)
    models = [KERNEL, *(m[0] for m in MODELS)]
    width = 0.8 / len(models)
    for i, model in enumerate(models):
        part = data[data.model == model].set_index("channel").loc[list(CHANNELS)]
        x = np.arange(len(CHANNELS)) + (i - (len(models) - 1) / 2) * width
        err = np.vstack([part.goodput - part.goodput_low, part.goodput_high - part.goodput]).clip(min=0)
        ax.bar(x, part.goodput, width, yerr=err, capsize=3, label=model,
               color="0.25" if model == KERNEL else f"C{i}", alpha=0.9)
    ax.set_xticks(np.arange(len(CHANNELS)), [f"1.5 Mb/s, {c}" for c in CHANNELS])
    ax.set_ylabel("goodput (of the link)")
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8, loc="upper right")


def _machine() -> str | None:
    from ..emulator import machine_problem

    return machine_problem()


register(Figure(
    id=FIGURE_ID, paper=PAPER, label="the simulator against Linux's TCP",
    caption="Goodput of Linux Reno (SACK off) over the emulated 1.5 Mb/s link (μ = 125 packets/s of 1500 bytes, "
            "τ = 40 ms, B = 6) with i.i.d. losses of 1% and 3% and bursts of mean 5 packets at 3%, against "
            "simulate_link on the same link and channel: NewReno and Reno with Linux-like timers, delayed ACKs and "
            "byte counting, and Reno with the papers' ns-2 timers. Bars: means of runs of the same length, each "
            "with its own seed; error bars: Student-t 95% intervals over the runs.",
    compute=_compute, draw=_draw,
    claims=(
        Claim("Bursts clocked by packets give the kernel's TCP lower goodput than i.i.d. losses at the same loss "
              "rate (3%), as they do the simulator's: a burst that waits for the next packet also takes the "
              "retransmissions sent after a timeout.", "docs/validation/kernel.md, the papers' findings",
              lambda d: lower(d, KERNEL, BURSTS_3, IID_3, long_runs=True)),
        Claim("The Linux-like simulator finds the same: bursts of 5 at 3% give lower goodput than i.i.d. 3%.",
              "docs/validation/kernel.md, the papers' findings",
              lambda d: lower(d, "NewReno, Linux-like", BURSTS_3, IID_3, long_runs=True)),
        Claim("At i.i.d. 1% the kernel's interval overlaps the Linux-like simulation's (of Reno or NewReno).",
              "docs/validation/kernel.md, where they agree",
              lambda d: overlaps(d, IID_1, ("NewReno, Linux-like", "Reno, Linux-like"))),
        Claim("More losses, less goodput: i.i.d. 3% gives the kernel lower goodput than i.i.d. 1%.",
              "docs/validation/kernel.md, table", lambda d: lower(d, KERNEL, IID_3, IID_1)),
    ),
    notes="The kernel's runs are real time and not bit-reproducible (only the channel is seeded); its intervals come "
          "from the runs. The full grid and its discussion: validation/emulator_vs_simulator.py and "
          "docs/validation/kernel.md.",
    requires=_machine,
))
