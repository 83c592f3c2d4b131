"""tsaoussidis-badr Table 1 and Charts 1-5 recomputed: 5,242,880-byte transfers of Tahoe, Reno, NewReno and
TCP-Probing over VDELDROP on/off phases of mean 1 s and 10 s, drop rates 0 to 50% in the On phase; connection
time, goodput and byte overhead beside the paper's values, with Student-t intervals over the replications."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..tcp.transfer import BEST_RTT
from .registry import Ablation, Claim, Figure, Settings, Verdict, once_per_settings, register
from .tsaoussidis_table import PHASES, RATES, READINGS, STANDARD, VARIANTS, table

#: The reading of best RTT the figure runs TCP-Probing with: the sender's default (docs/models.md says why).
DEFAULT_BEST_RTT = BEST_RTT[0]

PAPER = "tsaoussidis-badr"
#: Replications per cell, quick or not: twenty times the paper's five, enough that the intervals decide the
#: orderings the claims are about (the whole table takes about half a minute on one core).
REPLICATIONS = 100
#: The rows drawn beside the four variants: TCP-Probing under the other readings of best RTT, and with a decision
#: that always says Slow Start (:data:`.tsaoussidis_table.READINGS`).
ABLATIONS = {f"probing[{name}]": kw for name, kw in READINGS.items() if kw.get("best_rtt") != DEFAULT_BEST_RTT}
ABLATION = "probing[Slow Start always]"

METRICS = (("time", "connection_time"), ("goodput", "goodput_bps"), ("overhead", "overhead_percent"))


@once_per_settings
def _table1(settings: Settings, progress) -> pd.DataFrame:
    rows = [(v, v, {}) for v in VARIANTS] + [(label, "probing", kw) for label, kw in ABLATIONS.items()]

    def run(func, points):
        return settings.map(func, points, progress, lambda p: f"Table 1 {p[0]:g}-s phases, rate {p[1]:.3g}, {p[2]}")

    return table(settings.seed, REPLICATIONS, rows, run)


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
    """Probing's goodput (8·size / mean time) interval reaches the best standard variant's at every rate but 20%."""
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
    """Probing's mean overhead below every standard variant's at 33% and 50% (10-s phases)."""
    parts, ok = [], True
    for rate in (1 / 3, 0.5):
        d = _at(data, 10.0, rate)
        lowest = min(VARIANTS, key=lambda v: d.overhead[v])
        ok &= lowest == "probing"
        parts.append(f"{rate:.0%}: " + ", ".join(f"{_LABELS[v]} {d.overhead[v]:.2f}%" for v in VARIANTS))
    return Verdict(ok, "; ".join(parts))


def _time_ratio(data: pd.DataFrame, phase: float, rate: float) -> float:
    d = _at(data, phase, rate)
    return float(d.time["probing"] / min(d.time[v] for v in STANDARD))


def _probing_time_two_thirds(data: pd.DataFrame) -> Verdict:
    d = _at(data, 10.0, 1 / 3)
    ratio = _time_ratio(data, 10.0, 1 / 3)
    return Verdict(0.55 <= ratio <= 0.8, f"Probing's time / the best standard variant's at 33%: {ratio:.2f} "
                                         f"({d.time['probing']:.1f} s; the paper: 111.88 / 154.67 = 0.72)")


def _probing_best_at_high_rates_1s(data: pd.DataFrame) -> Verdict:
    """At 1-s phases and 33% and 50%, Probing's mean time and overhead are the lowest of the four (Chart 5)."""
    parts, ok = [], True
    for rate in (1 / 3, 0.5):
        d = _at(data, 1.0, rate)
        for name, unit in (("time", " s"), ("overhead", "%")):
            lowest = min(VARIANTS, key=lambda v: d[name][v])
            ok &= lowest == "probing"
            parts.append(f"{rate:.0%} {name}: " + ", ".join(f"{_LABELS[v]} {d[name][v]:.3g}{unit}" for v in VARIANTS))
    return Verdict(ok, "; ".join(parts))


def _reno_half_of_tahoe_at_50(data: pd.DataFrame) -> Verdict:
    """At 10-s phases and 50%, Reno's and NewReno's goodput at most 0.6 of the lower of Tahoe's and Probing's
    ("barely half"; the paper's ratios: 208/407 = 0.51 and 148/407 = 0.36)."""
    d = _at(data, 10.0, 0.5)
    floor = min(d.goodput["tahoe"], d.goodput["probing"])
    ratios = {v: d.goodput[v] / floor for v in ("reno", "newreno")}
    return Verdict(all(r <= 0.6 for r in ratios.values()),
                   ", ".join(f"{_LABELS[v]} {r:.2f}" for v, r in ratios.items())
                   + f" of min(Tahoe, Probing) = {floor / 1e3:.0f} kbit/s")


def _magnitudes(data: pd.DataFrame) -> Verdict:
    lossy = data[(data.drop_rate > 0) & data.variant.isin(VARIANTS)]
    ratio = lossy.time / lossy.time_published
    return Verdict(bool(((ratio > 1 / 3) & (ratio < 3.0)).all()),
                   f"our time / published over the {len(lossy)} lossy cells: median {ratio.median():.2f}, range "
                   f"{ratio.min():.2f} to {ratio.max():.2f}")


def _with_probing(data: pd.DataFrame, label: str) -> pd.DataFrame:
    """The figure's data with TCP-Probing's rows replaced by those of the ablation ``label``."""
    other = data[data.variant != "probing"]
    swapped = data[data.variant == label].assign(variant="probing")
    return pd.concat([other, swapped], ignore_index=True)


def _ablation(check, measure, paper: float, unit: str = ""):
    """An ablation for a claim about TCP-Probing: Probing's rows swapped for one ablation row at a time, in the
    order of :data:`ABLATIONS`; the first under which the claim's own check holds explains the difference (its
    number before and after, ``measure`` of the data), else the last tried, which does not."""
    def ablate(data: pd.DataFrame) -> Ablation:
        before = measure(data)
        for label in ABLATIONS:
            swapped = _with_probing(data, label)
            ablation = Ablation(f"TCP-Probing as {label}", before, measure(swapped), paper, check(swapped).holds, unit)
            if ablation.holds:
                break
        return ablation
    return ablate


def _overhead_margin(data: pd.DataFrame) -> float:
    """Probing's overhead minus the lowest standard variant's at 50%, 10-s phases [percentage points]."""
    d = _at(data, 10.0, 0.5)
    return float(d.overhead["probing"] - min(d.overhead[v] for v in STANDARD))


def _goodput_shortfall(data: pd.DataFrame) -> float:
    """Probing's goodput over the best standard variant's, the lowest over the rates but 20% (10-s phases)."""
    return min(_at(data, 10.0, r).goodput["probing"] / max(_at(data, 10.0, r).goodput[v] for v in STANDARD)
               for r in RATES[1:] if r != 0.2)


_SEE = (" Measured: docs/validation/tsaoussidis-badr.md, 'TCP-Probing and finite transfers' (readings and testbed "
        "unknowns).")
_PROBING_FOUND = ("Probing's deficit is not its decision: of the readings of best RTT (earlier, probes, data, own "
                  "probes included) and a Slow-Start-always decision, none makes the claim hold, and neither does "
                  "any testbed unknown tried one at a time." + _SEE)
_STANDARD_FOUND = ("Our three standard variants stay within a few percent of each other where the paper's differ by "
                   "up to 2.8x (10-s phases, 50%: Tahoe 101 s, Reno 201 s, NewReno 283 s); no testbed unknown tried "
                   "one at a time separates them." + _SEE)

register(Figure(
    id="tsaoussidis-table1", paper=PAPER, label="Table 1 and Charts 1-5",
    caption="5,242,880-byte transfers over VDELDROP on/off phases (mean 1 s and 10 s, drops in the On phase only, "
            "on both hosts), 20-byte headers, delayed ACKs, MSS 2028 B, 1.0695 Mb/s link; tcpfade means with 95% "
            f"intervals over {REPLICATIONS} replications (solid; goodput = 8·size / mean time, as the paper's) and "
            "the paper's Table 1 (dashed, open squares); dotted: Probing whose decision always says Slow Start.",
    compute=_table1, draw=_draw,
    claims=(
        Claim("Without losses every variant takes 40.000 s with 1.48% overhead.", "Table 1, rows 0.1-0.4",
              _zero_loss),
        Claim("Connection times of the paper's order of magnitude: within a factor 3 in every lossy cell.", "Table 1",
              _magnitudes),
        Claim("With 10-s phases Probing's goodput is no worse than the best standard variant's (its interval "
              "reaches that mean), except at 20%.", "§4.1, Chart 2", _probing_no_worse_at_10s,
              known_disagreement="At 1% Probing's goodput is 1% below NewReno's, outside its interval with 100 "
                                 "replications (the paper's five could not resolve 1%). " + _PROBING_FOUND,
              ablation=_ablation(_probing_no_worse_at_10s, _goodput_shortfall, 1.0)),
        Claim("With 10-s phases Reno is the best of the three standard variants at low rates (1%, 5%) and Tahoe at "
              "high rates (33%, 50%), or not distinguishable from the best (its interval reaches the best mean).",
              "§4.1, Chart 2", _ordering_of_standard, known_disagreement=_STANDARD_FOUND),
        Claim("With 10-s phases Probing's overhead is the lowest at 33% and 50%.", "§4.1, Chart 3",
              _probing_overhead_lowest,
              known_disagreement="No reading of best RTT makes Probing's overhead the lowest; of the testbed's "
                                 "unknowns one does, an ACK per segment (no delayed ACKs), but it breaks the "
                                 "zero-loss row (1.98% against 1.48%) and worsens the overhead fit of every other "
                                 "cell, so it is not taken as the explanation." + _SEE,
              ablation=_ablation(_probing_overhead_lowest, _overhead_margin, 2.02 - 2.36, "pp at 50%")),
        Claim("With 10-s phases Probing's connection time at 33% is about 2/3 of the best standard variant's "
              "(0.55 to 0.8).", "§4.2, Chart 4", _probing_time_two_thirds),
        Claim("With 1-s phases, at 33% and 50%, Probing's connection time and overhead are the lowest of the four.",
              "§4.2, Chart 5", _probing_best_at_high_rates_1s, known_disagreement=_PROBING_FOUND,
              ablation=_ablation(_probing_best_at_high_rates_1s, lambda d: _time_ratio(d, 1.0, 0.5), 0.76)),
        Claim("With 10-s phases at 50%, Reno's and NewReno's goodput is barely half of Tahoe's and Probing's (at "
              "most 0.6 of the lower).", "§4.1, Table 1 rows 6.1-6.4", _reno_half_of_tahoe_at_50,
              known_disagreement=_STANDARD_FOUND),
    ),
))
