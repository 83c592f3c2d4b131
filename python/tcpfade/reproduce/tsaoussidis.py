"""tsaoussidis-badr Table 1 and Charts 1-5 recomputed: 5,242,880-byte transfers of Tahoe, Reno, NewReno and
TCP-Probing over VDELDROP on/off phases of mean 1 s and 10 s, drop rates 0 to 50% in the On phase; connection
time, goodput and byte overhead beside the paper's values, with Student-t intervals over the replications."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..channels.continuous import ContinuousTwoState
from ..tcp.metrics import batch_interval
from ..tcp.transfer import simulate_transfer
from .registry import Claim, Figure, Settings, Verdict, register

PAPER = "tsaoussidis-badr"
VARIANTS = ("tahoe", "reno", "newreno", "probing")
STANDARD = VARIANTS[:3]
RATES = (0.0, 0.01, 0.05, 0.1, 0.2, 1 / 3, 0.5)
PHASES = (1.0, 10.0)
#: Replications per cell, quick or not: four times the paper's five (the whole table takes about a second).
REPLICATIONS = 20
#: The ablation drawn beside the four: TCP-Probing whose decision always says Slow Start.
ABLATION = "probing-ss"

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

METRICS = (("time", "connection_time"), ("goodput", "goodput_bps"), ("overhead", "overhead_percent"))


def _slow_start(**_measurement) -> bool:
    """The ablation's decision: never Immediate Recovery."""
    return False


def _table1(settings: Settings, progress) -> pd.DataFrame:
    n = REPLICATIONS
    points = [(phase, rate, variant) for phase in PHASES for rate in RATES for variant in (*VARIANTS, ABLATION)]

    def cell(point):
        phase, rate, variant = point
        channel = ContinuousTwoState.on_off(phase, rate) if rate > 0 else None
        extra = {"decision": _slow_start} if variant == ABLATION else {}
        runs = [simulate_transfer("probing" if variant == ABLATION else variant, channel,
                                  seed=settings.seed * 1000 + s, **extra) for s in range(1, n + 1)]
        row = {"phase": phase, "drop_rate": rate, "variant": variant, "replications": n,
               "completed": sum(r.completed for r in runs),
               "immediate_recoveries": float(np.mean([r.immediate_recoveries for r in runs])),
               "slow_starts": float(np.mean([r.slow_starts for r in runs])),
               "timeouts": float(np.mean([r.timeouts for r in runs])),
               "energy_joules": float(np.mean([r.energy_joules for r in runs]))}
        published = TABLE1[(rate, variant)][PHASES.index(phase)] if variant in VARIANTS else (np.nan,) * 3
        for (name, field), paper in zip(METRICS, published):
            values = np.array([getattr(r, field) for r in runs], dtype=float)
            # The replications are independent: a Student-t interval, truncated at 0 (all three are positive).
            row[name] = float(values.mean())
            row[f"{name}_low"], row[f"{name}_high"] = batch_interval(row[name], values, 0.95, (0.0, np.inf))
            row[f"{name}_published"] = paper
        return row

    rows = settings.map(cell, points, progress, lambda p: f"Table 1 {p[0]:g}-s phases, rate {p[1]:.3g}, {p[2]}")
    return pd.DataFrame(rows)


_LABELS = {"tahoe": "Tahoe", "reno": "Reno", "newreno": "NewReno", "probing": "Probing",
           ABLATION: "Probing, Slow Start after every cycle"}
_UNITS = {"time": "connection time (s)", "goodput": "goodput (kbit/s)", "overhead": "overhead (%)"}


def _draw(data: pd.DataFrame, fig) -> None:
    axes = fig.subplots(3, 2, sharex=True)
    for col, phase in enumerate(PHASES):
        sub = data[data.phase == phase]
        for row, (name, _field) in enumerate(METRICS):
            ax = axes[row][col]
            scale = 1e-3 if name == "goodput" else 1.0
            for k, variant in enumerate(VARIANTS):
                d = sub[sub.variant == variant]
                x = d.drop_rate.to_numpy() * 100
                ax.errorbar(x, d[name] * scale, yerr=[(d[name] - d[f"{name}_low"]) * scale,
                                                      (d[f"{name}_high"] - d[name]) * scale],
                            fmt="o-", color=f"C{k}", markersize=3, capsize=2, linewidth=1,
                            label=f"{_LABELS[variant]} (tcpfade)")
                ax.plot(x, d[f"{name}_published"] * scale, "s--", color=f"C{k}", markerfacecolor="none",
                        markersize=4, linewidth=0.6, label=f"{_LABELS[variant]} (Table 1)")
            d = sub[sub.variant == ABLATION]
            ax.plot(d.drop_rate.to_numpy() * 100, d[name] * scale, ":", color="0.4", linewidth=1,
                    label=f"{_LABELS[ABLATION]} (tcpfade)")
            ax.set_ylabel(_UNITS[name], fontsize=7)
            ax.tick_params(labelsize=6)
            ax.grid(True, alpha=0.3)
            if row == 0:
                ax.set_title(f"mean On/Off phase {phase:g} s", fontsize=8)
            if row == 2:
                ax.set_xlabel("drop rate in the On phase (%)", fontsize=7)
    axes[0][0].legend(fontsize=5, ncol=2)


def _at(data: pd.DataFrame, phase: float, rate: float) -> pd.DataFrame:
    return data[(data.phase == phase) & np.isclose(data.drop_rate, rate)].set_index("variant")


def _zero_loss(data: pd.DataFrame) -> Verdict:
    d = _at(data, 10.0, 0.0)
    ok = bool(((d.time - 40.0).abs() < 5e-4).all() and (d.overhead.round(2) == 1.48).all())
    return Verdict(ok, "; ".join(f"{_LABELS[v]}: {d.time[v]:.3f} s, {d.overhead[v]:.3f}%" for v in VARIANTS))


def _probing_no_worse_at_10s(data: pd.DataFrame) -> Verdict:
    """Probing's goodput interval reaches the best standard variant's mean at every rate but 20%."""
    parts, ok = [], True
    for rate in RATES[1:]:
        d = _at(data, 10.0, rate)
        best = max(STANDARD, key=lambda v: d.goodput[v])
        holds = d.goodput_high["probing"] >= d.goodput[best] or rate == 0.2
        ok &= bool(holds)
        parts.append(f"{rate:.0%}: Probing {d.goodput['probing'] / 1e3:.0f} [{d.goodput_low['probing'] / 1e3:.0f}, "
                     f"{d.goodput_high['probing'] / 1e3:.0f}] vs {_LABELS[best]} {d.goodput[best] / 1e3:.0f} kbit/s")
    return Verdict(ok, "; ".join(parts))


def _ordering_of_standard(data: pd.DataFrame) -> Verdict:
    """At 10-s phases: Reno's goodput the best of the three standard variants at 1% and 5% (or not
    distinguishable from the best), Tahoe's at 33% and 50%."""
    parts, ok = [], True
    for rate, expected in ((0.01, "reno"), (0.05, "reno"), (1 / 3, "tahoe"), (0.5, "tahoe")):
        d = _at(data, 10.0, rate)
        best = max(STANDARD, key=lambda v: d.goodput[v])
        holds = best == expected or d.goodput_high[expected] >= d.goodput[best]
        ok &= bool(holds)
        parts.append(f"{rate:.0%}: best {_LABELS[best]} {d.goodput[best] / 1e3:.0f}, {_LABELS[expected]} "
                     f"{d.goodput[expected] / 1e3:.0f} [{d.goodput_low[expected] / 1e3:.0f}, "
                     f"{d.goodput_high[expected] / 1e3:.0f}] kbit/s")
    return Verdict(ok, "; ".join(parts))


def _probing_overhead_lowest(data: pd.DataFrame) -> Verdict:
    parts, ok = [], True
    for rate in (1 / 3, 0.5):
        d = _at(data, 10.0, rate)
        lowest = min(VARIANTS, key=lambda v: d.overhead[v])
        ok &= lowest == "probing"
        parts.append(f"{rate:.0%}: " + ", ".join(f"{_LABELS[v]} {d.overhead[v]:.2f}%" for v in VARIANTS))
    return Verdict(ok, "; ".join(parts))


def _probing_time_two_thirds(data: pd.DataFrame) -> Verdict:
    d = _at(data, 10.0, 1 / 3)
    ratio = d.time["probing"] / min(d.time[v] for v in STANDARD)
    return Verdict(0.55 <= ratio <= 0.8, f"Probing's time / the best standard variant's at 33%: {ratio:.2f} "
                                         f"({d.time['probing']:.1f} s; the paper: 111.88 / 154.67 = 0.72)")


def _magnitudes(data: pd.DataFrame) -> Verdict:
    lossy = data[(data.drop_rate > 0) & data.variant.isin(VARIANTS)]
    ratio = lossy.time / lossy.time_published
    return Verdict(bool(((ratio > 1 / 3) & (ratio < 3.0)).all()),
                   f"our time / published over the {len(lossy)} lossy cells: median {ratio.median():.2f}, range "
                   f"{ratio.min():.2f} to {ratio.max():.2f}")


_WHY = ("Our TCP-Probing takes Immediate Recovery after nearly every cycle (0.2 Slow Starts in 57 cycles a transfer "
        "at 33%, 10-s phases): its probes are header-only, so on a link whose round trip is the serialization of "
        "data segments their RTTs are far below the last RTT, and the paper's rule [best RTT, last RTT] passes. "
        "Resuming with the whole window inside an On phase then costs timeouts (39 a transfer against NewReno's 15 "
        "at 33%). With a decision that always says Slow Start (the dotted ablation) Probing takes 82.8 s at 33% "
        "(0.58 of NewReno's 142.5 s; the paper: 0.72) and 83.4 s at 50%, the conservative behaviour the paper "
        "describes at high rates. docs/validation.md has the measurements.")

register(Figure(
    id="tsaoussidis-table1", paper=PAPER, label="Table 1 and Charts 1-5",
    caption="5,242,880-byte transfers over VDELDROP on/off phases (mean 1 s and 10 s, drops in the On phase only, "
            "on both hosts), 20-byte headers, delayed ACKs, MSS 2028 B, 1.0695 Mb/s link; tcpfade means with 95% "
            "intervals over the replications (solid) and the paper's Table 1 (dashed, open squares).",
    compute=_table1, draw=_draw,
    claims=(
        Claim("Without losses every variant takes 40.000 s with 1.48% overhead.", "Table 1, rows 0.1-0.4",
              _zero_loss),
        Claim("Connection times of the paper's order of magnitude: within a factor 3 in every lossy cell.", "Table 1",
              _magnitudes),
        Claim("With 10-s phases Probing's goodput is no worse than the best standard variant's (its interval "
              "reaches that mean), except at 20%.", "§4.1, Chart 2", _probing_no_worse_at_10s,
              known_disagreement=_WHY),
        Claim("With 10-s phases Reno is the best of the three standard variants at low rates (1%, 5%) and Tahoe at "
              "high rates (33%, 50%), or not distinguishable from the best (its interval reaches the best mean).",
              "§4.1, Chart 2", _ordering_of_standard),
        Claim("With 10-s phases Probing's overhead is the lowest at 33% and 50%.", "§4.1, Chart 3",
              _probing_overhead_lowest, known_disagreement=_WHY),
        Claim("With 10-s phases Probing's connection time at 33% is about 2/3 of the best standard variant's "
              "(0.55 to 0.8).", "§4.2, Chart 4", _probing_time_two_thirds, known_disagreement=_WHY),
    ),
))
