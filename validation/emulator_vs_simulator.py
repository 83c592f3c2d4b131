"""The simulator against the kernel: Linux Reno (SACK off) over the emulated link against simulate_link on the same
link and channel (docs/validation/kernel.md, "The simulator against the kernel").

    python3 validation/emulator_vs_simulator.py            # about 33 minutes of real time (root needed)
    python3 validation/emulator_vs_simulator.py --quick    # one seed of a third of the length per row

For each row: the kernel's goodput over ``--seeds`` runs (mean and Student-t 95% interval over the runs, each with
its own channel seed), and simulate_link's by the same protocol (the mean and Student-t 95% interval of SIM_RUNS
runs of the same length and warm-up, each with its own seed: like with like, since where losses come in bursts
a long run's mean includes long backoff stalls that runs of a minute rarely meet): NewReno and Reno made as
Linux-like as the model allows (200 ms minimum RTO, 1 s initial RTO, 1 ms clock, 40 ms delayed ACKs, window growth
by the segments an ACK covers), NewReno with the papers' growth per ACK, and Reno with the papers' ns-2 timers.
Writes validation/emulator_vs_simulator.csv and prints a Markdown table. ``--simulate-only`` keeps the kernel's
columns of that file and recomputes the simulations.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import tcpfade
from tcpfade.tcp.profiles import LINUX as LINUX_PROFILE   # the linux profile's timers, as measured here

HERE = Path(__file__).resolve().parent

#: Linux's timers (RTO_MIN 200 ms, initial 1 s, 120 s maximum, 1 ms clock) and its 40-ms delayed ACK.
LINUX_TIMERS = {k: LINUX_PROFILE.values[k] for k in ("min_rto", "initial_rto", "max_rto", "clock_granularity",
                                                     "delayed_ack")}
#: ... and Linux's window growth by the segments an ACK covers (RFC 3465).
LINUX = dict(LINUX_TIMERS, byte_counting=LINUX_PROFILE.values["byte_counting"])
#: abouzeid's ns-2 defaults (simulate_link's): no minimum but two 10-ms ticks, an ACK per segment.
NS2 = dict(min_rto=0.02, initial_rto=3.0, max_rto=64.0, clock_granularity=0.01, delayed_ack=None)

A = dict(rate=125.0, tau=0.04, buffer=6, packet_bytes=1500)      # 1.5 Mb/s, μT = 5.5
B = dict(rate=100.0, tau=0.01, buffer=16, packet_bytes=1000)     # abouzeid Table III: 800 kb/s, β = 8
C = dict(rate=833.0, tau=0.02, buffer=18, packet_bytes=1500)     # 10 Mb/s, μT = 17.5


def rows() -> list[tuple[str, dict, object, float]]:
    """(name, link, channel, kernel run length [s])."""
    return [
        ("1.5 Mb/s, i.i.d. 1%", A, tcpfade.Bernoulli(0.01), 60.0),
        ("1.5 Mb/s, bursts of 5, 1%", A, tcpfade.GilbertElliott.from_burst(0.01, 5.0), 60.0),
        ("1.5 Mb/s, i.i.d. 3%", A, tcpfade.Bernoulli(0.03), 60.0),
        ("1.5 Mb/s, bursts of 5, 3%", A, tcpfade.GilbertElliott.from_burst(0.03, 5.0), 60.0),
        ("1.5 Mb/s, fading fD = 2.5 Hz, 3%", A, tcpfade.ThresholdFading(0.02, error_rate=0.03), 60.0),
        ("Table III fast (0.08 s / 0.02 s)", B, tcpfade.ContinuousTwoState(0.08, 0.02), 60.0),
        ("Table III moderate (0.8 s / 0.2 s)", B, tcpfade.ContinuousTwoState(0.8, 0.2), 60.0),
        ("Table III slow (8 s / 2 s)", B, tcpfade.ContinuousTwoState(8.0, 2.0), 120.0),
        ("10 Mb/s, i.i.d. 1%", C, tcpfade.Bernoulli(0.01), 60.0),
        ("10 Mb/s, bursts of 5, 1%", C, tcpfade.GilbertElliott.from_burst(0.01, 5.0), 60.0),
    ]


def interval(values: list[float]) -> tuple[float, float, float]:
    x = np.asarray(values, dtype=float)
    if x.size < 2:
        return float(x.mean()), math.nan, math.nan
    half = stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size)
    return float(x.mean()), float(x.mean() - half), float(x.mean() + half)


#: Simulated runs per row and setting, each as long as a kernel run.
SIM_RUNS = 50


def simulated(link: dict, channel, variant: str, timers: dict, duration: float, warmup: float) \
        -> tuple[float, float, float]:
    return interval([tcpfade.simulate_link(variant, channel=channel, duration=duration, warmup=warmup, seed=s,
                                           **link, **timers).goodput for s in range(1, SIM_RUNS + 1)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--simulate-only", action="store_true")
    parser.add_argument("--only", help="run only the rows whose name holds this text, and update them in the CSV")
    args = parser.parse_args()
    seeds, scale = (1, 1 / 3) if args.quick else (args.seeds, 1.0)
    kept = pd.read_csv(HERE / "emulator_vs_simulator.csv").set_index("row") if args.simulate_only else None
    out = []
    for name, link, channel, length in rows():
        if args.only and args.only not in name:
            continue
        if kept is not None:
            row = {"row": name, **{k: v for k, v in kept.loc[name].items() if k.startswith("kernel")}}
        else:
            kernel = [tcpfade.emulate("reno", channel=channel, duration=length * scale, warmup=5.0 * scale, seed=s,
                                      sack=False, **link) for s in range(1, seeds + 1)]
            k = interval([r.goodput for r in kernel])
            measured = [r.duration - r.warmup for r in kernel]
            row = {"row": name, "kernel": k[0], "kernel_low": k[1], "kernel_high": k[2],
                   "kernel_loss_rate": float(np.mean([r.channel_loss_rate for r in kernel])),
                   "kernel_timeouts_per_s": float(np.mean([(r.timeouts or 0) / m for r, m in zip(kernel, measured)])),
                   "kernel_retransmissions_per_s": float(np.mean([r.retransmissions / m
                                                                  for r, m in zip(kernel, measured)]))}
        for key, variant, settings in (("newreno_linux", "newreno", LINUX), ("reno_linux", "reno", LINUX),
                                       ("newreno_per_ack", "newreno", LINUX_TIMERS), ("reno_ns2", "reno", NS2)):
            g = simulated(link, channel, variant, settings, length * scale, 5.0 * scale)
            row.update({key: g[0], f"{key}_low": g[1], f"{key}_high": g[2]})
        out.append(row)
        print(f"{name}: kernel {row['kernel']:.3f}, NewReno Linux-like {row['newreno_linux']:.3f}, Reno Linux-like "
              f"{row['reno_linux']:.3f}, NewReno per-ACK growth {row['newreno_per_ack']:.3f}, Reno ns-2 timers "
              f"{row['reno_ns2']:.3f}", flush=True)
    frame = pd.DataFrame(out)
    if args.only:
        old = pd.read_csv(HERE / "emulator_vs_simulator.csv").set_index("row")
        new = frame.set_index("row")
        for column in new.columns:
            if column not in old.columns:
                old[column] = np.nan
        old.loc[new.index, new.columns] = new
        frame = old.reset_index()
        out = frame.to_dict("records")
    if not args.quick:
        frame.to_csv(HERE / "emulator_vs_simulator.csv", index=False)
    print()
    print("| link and channel | Linux Reno, no SACK (kernel) | NewReno, Linux-like | Reno, Linux-like | "
          "NewReno, Linux timers, growth per ACK | Reno, ns-2 timers (the papers') |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in out:
        def cell(key: str) -> str:
            return f"{r[key]:.3f} [{r[key + '_low']:.3f}, {r[key + '_high']:.3f}]"
        print(f"| {r['row']} | {cell('kernel')} | {cell('newreno_linux')} | {cell('reno_linux')} | "
              f"{cell('newreno_per_ack')} | {cell('reno_ns2')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
