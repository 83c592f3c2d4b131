"""tsaoussidis-badr Table 1 as data: the published values, the transfers that recompute a cell, the paper's own
statistics (connection time, goodput = 8·size / mean time, overhead), and the fit of a whole table to the paper's.

The testbed's unknowns and TCP-Probing's readings of *best RTT* are named configurations (:data:`READINGS`,
:data:`UNKNOWNS`): each is a set of :func:`tcpfade.simulate_transfer` keywords, so a sensitivity study is a loop
over them (``validation/tsaoussidis_sensitivity.py``; docs/validation/tsaoussidis-badr.md has its figures).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from ..channels.continuous import ContinuousTwoState
from .._stats import batch_interval
from ..tcp.transfer import SIZE_BYTES, simulate_transfer

VARIANTS = ("tahoe", "reno", "newreno", "probing")
STANDARD = VARIANTS[:3]
RATES = (0.0, 0.01, 0.05, 0.1, 0.2, 1 / 3, 0.5)
PHASES = (1.0, 10.0)

#: Table 1 as published: (drop rate, variant) → (time, goodput, overhead %) for 1-s phases, then 10-s phases.
TABLE1 = {
    (0.0, "tahoe"): ((40.000, 1_048_576, 1.48), (40.00, 1_048_576, 1.48)),
    (0.0, "reno"): ((40.000, 1_048_576, 1.48), (40.00, 1_048_576, 1.48)),
    (0.0, "newreno"): ((40.000, 1_048_576, 1.48), (40.00, 1_048_576, 1.48)),
    (0.0, "probing"): ((40.000, 1_048_576, 1.48), (40.00, 1_048_576, 1.48)),
    (0.01, "tahoe"): ((53.591, 782_650, 1.92), (57.52, 729_215, 2.06)),
    (0.01, "reno"): ((62.970, 666_079, 2.13), (53.02, 791_020, 1.91)),
    (0.01, "newreno"): ((51.003, 822_369, 1.80), (70.02, 598_996, 3.48)),
    (0.01, "probing"): ((53.260, 787_426, 1.92), (50.87, 824_514, 1.90)),
    (0.05, "tahoe"): ((79.198, 529_598, 2.69), (75.06, 558_766, 2.13)),
    (0.05, "reno"): ((77.127, 543_820, 2.76), (76.42, 548_857, 2.39)),
    (0.05, "newreno"): ((79.734, 526_037, 2.76), (78.18, 536_524, 3.76)),
    (0.05, "probing"): ((81.002, 517_802, 2.82), (67.47, 621_654, 2.17)),
    (0.1, "tahoe"): ((126.023, 332_822, 3.70), (89.16, 470_415, 2.45)),
    (0.1, "reno"): ((107.944, 388_561, 3.44), (90.05, 465_783, 2.73)),
    (0.1, "newreno"): ((118.079, 355_213, 3.76), (87.35, 480_162, 3.61)),
    (0.1, "probing"): ((124.086, 338_015, 3.49), (58.87, 712_468, 1.87)),
    (0.2, "tahoe"): ((192.219, 218_205, 4.74), (95.81, 437_796, 2.61)),
    (0.2, "reno"): ((146.059, 287_164, 3.93), (135.55, 309_421, 2.96)),
    (0.2, "newreno"): ((210.476, 199_277, 5.09), (104.56, 401_155, 3.71)),
    (0.2, "probing"): ((191.146, 219_482, 4.42), (110.12, 381_137, 2.58)),
    (1 / 3, "tahoe"): ((445.242, 94_203, 6.44), (154.67, 271_176, 2.59)),
    (1 / 3, "reno"): ((374.421, 112_021, 6.54), (186.83, 224_498, 3.07)),
    (1 / 3, "newreno"): ((257.884, 162_643, 5.55), (166.89, 251_326, 3.86)),
    (1 / 3, "probing"): ((258.228, 162_443, 4.71), (111.88, 374_893, 2.52)),
    (0.5, "tahoe"): ((532.897, 78_708, 7.57), (101.01, 415_247, 2.36)),
    (0.5, "reno"): ((870.334, 48_192, 8.51), (201.18, 208_488, 2.82)),
    (0.5, "newreno"): ((697.130, 60_165, 6.93), (283.44, 147_977, 3.71)),
    (0.5, "probing"): ((402.877, 104_128, 5.90), (103.15, 406_621, 2.02)),
}


def paper_goodput(mean_time: float, size_bytes: int = SIZE_BYTES) -> float:
    """Goodput as tsaoussidis-badr §4 computes it: "Original Data / Connection Time" in bit/s, the data being the
    whole transfer and the time the replications' mean (8·size / mean time). It is not the mean of each run's
    goodput: by Jensen's inequality that mean is larger whenever the times vary."""
    return 8.0 * size_bytes / mean_time


def _own_probes(*, rtt1: float, rtt2: float, last_rtt: float, **_: Any) -> bool:
    """The reading before BRIEF D12: best RTT included the cycle's own probes, so the lower bound could not fail
    and only "both RTTs <= last RTT" decided. Kept as a callable, for the side-by-side table only."""
    return max(rtt1, rtt2) <= last_rtt


def _slow_start(**_measurement: Any) -> bool:
    """The ablation's decision: never Immediate Recovery."""
    return False


#: TCP-Probing's readings of best RTT (§3.1), as keywords of :func:`simulate_transfer`: the three the sender
#: offers, the one before D12 (the cycle's own probes included: the rule's lower bound cannot fail) and a decision
#: that always says Slow Start (Probing without Immediate Recovery).
READINGS: dict[str, dict[str, Any]] = {
    "probes": {"best_rtt": "probes"},
    "earlier": {"best_rtt": "earlier"},
    "data": {"best_rtt": "data"},
    "own probes included": {"decision": _own_probes},
    "Slow Start always": {"decision": _slow_start},
}

#: The testbed's unknowns (§4 gives the workload, not the stack or the link), each as one change from our
#: defaults: where VDELDROP drops, delayed ACKs and their rule (the x-kernel's TCP is BSD's, whose TCP_REASS ACKs at once
#: while its reassembly queue holds data), the timer (a BSD-style 500-ms clock for the x-kernel; the
#: minimum and initial RTO), the header bytes, and what the link's rate meters.
UNKNOWNS: dict[str, dict[str, Any]] = {
    "VDELDROP on the sender only": {"drop_acks": False},
    "losses on the air": {"loss_on_air": True},
    "an ACK per segment": {"delayed_ack": None},
    "a segment filling part of a gap ACKed at once (BSD)": {"delayed_ack_rule": "rfc5681"},
    "500-ms clock": {"clock_granularity": 0.5},
    "minimum RTO 0.2 s": {"min_rto": 0.2},
    "minimum and initial RTO 3 s": {"min_rto": 3.0, "initial_rto": 3.0},
    "initial RTO 3 s": {"initial_rto": 3.0},
    "40-byte headers": {"header_bytes": 40},
    "payload metered at 2^20 bit/s": {"metering": "payload", "rate_bps": float(2 ** 20)},
}


def transfers(variant: str, phase: float, rate: float, seeds: Iterable[int], **kwargs: Any) -> list:
    """One cell of Table 1: a transfer per seed of ``variant`` over VDELDROP's on/off phases of mean ``phase`` s
    with ``rate`` of the segments dropped in the On phase (none when ``rate`` is 0)."""
    channel = ContinuousTwoState.on_off(phase, rate) if rate > 0 else None
    return [simulate_transfer(variant, channel, seed=s, **kwargs) for s in seeds]


def cell(runs: list, confidence: float = 0.95) -> dict[str, float]:
    """A cell's statistics over its replications: mean connection time and overhead with Student-t intervals,
    goodput = 8·size / mean time with the time's interval carried through that decreasing map (exact for a
    monotone function of one mean), and the mean counts of the recovery events."""
    size = runs[0].size_bytes
    row: dict[str, float] = {"replications": len(runs), "completed": sum(r.completed for r in runs)}
    for name, field in (("time", "connection_time"), ("overhead", "overhead_percent")):
        values = np.array([getattr(r, field) for r in runs], dtype=float)
        row[name] = float(values.mean())
        row[f"{name}_low"], row[f"{name}_high"] = batch_interval(row[name], values, confidence, (0.0, math.inf))
    row["goodput"] = paper_goodput(row["time"], size)
    row["goodput_low"] = paper_goodput(row["time_high"], size)
    row["goodput_high"] = paper_goodput(row["time_low"], size) if row["time_low"] > 0 else math.inf
    for name in ("timeouts", "immediate_recoveries", "slow_starts", "probe_cycles", "energy_joules"):
        row[name] = float(np.mean([getattr(r, name) for r in runs]))
    return row


def table(seed: int, replications: int, rows: Iterable[tuple[str, str, dict[str, Any]]],
          run: Callable[[Callable, list], list] | None = None, phases: Iterable[float] = PHASES,
          rates: Iterable[float] = RATES, **common: Any) -> pd.DataFrame:
    """Table 1 recomputed: for each phase, rate and ``(label, variant, keywords)`` of ``rows``, ``replications``
    transfers with seeds ``seed·1000 + 1 …`` (the same seeds, so the same channel phases, in every row of a
    cell), summarized by :func:`cell`, beside the published values where the row is one of the paper's
    variants under its own name. ``common`` keywords go to every transfer; ``run(func, points)`` maps the
    points (default: in order)."""
    points = [(phase, rate, label, variant, {**common, **kw}) for phase in phases for rate in rates
              for label, variant, kw in rows]
    seeds = range(seed * 1000 + 1, seed * 1000 + replications + 1)

    def one(point):
        phase, rate, label, variant, kw = point
        row = {"phase": phase, "drop_rate": rate, "variant": label,
               **cell(transfers(variant, phase, rate, seeds, **kw))}
        published = TABLE1[(rate, label)][PHASES.index(phase)] if label in VARIANTS else (math.nan,) * 3
        for name, paper in zip(("time", "goodput", "overhead"), published):
            row[f"{name}_published"] = paper
        return row

    rows_out = (run or (lambda f, xs: [f(x) for x in xs]))(one, points)
    return pd.DataFrame(rows_out)


def fit(data: pd.DataFrame, phase: float) -> dict[str, float]:
    """The fit of one phase length's lossy cells to the paper's: mean |ln(ours/paper)| of connection time and of
    overhead over the 24 cells (six rates × four variants); 0 is a perfect fit, 0.1 about 10% off on average."""
    d = data[(data.phase == phase) & (data.drop_rate > 0) & data.variant.isin(VARIANTS)]
    return {"time": float(np.mean(np.abs(np.log(d.time / d.time_published)))),
            "overhead": float(np.mean(np.abs(np.log(d.overhead / d.overhead_published)))), "cells": len(d)}
