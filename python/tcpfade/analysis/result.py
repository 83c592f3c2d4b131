"""The result of an analysis: the simulator's metrics, each as a (pessimistic, optimistic) pair."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .. import _validate as v
from .._record import Record, interval_columns
from .._stats import Interval

#: Metrics of :class:`AnalysisResult`, named as in :class:`tcpfade.SimulationResult`.
METRICS = ("throughput", "load", "successes_per_slot", "success_probability", "transmissions_per_delivered", "energy_efficiency",
           "energy_efficiency_full", "energy_efficiency_lower_bound", "timeouts_per_slot",
           "fast_retransmits_per_slot", "mean_cwnd_at_loss")

#: Metrics that do not depend on how successes are counted: the pair holds one value twice.
EXACT_METRICS = ("load", "successes_per_slot", "timeouts_per_slot", "fast_retransmits_per_slot", "mean_cwnd_at_loss")


class Bounds(NamedTuple):
    """A metric under the pessimistic and the optimistic count of successes (zorzi-rao §4.2).

    The pessimistic count is never above the true one, the optimistic count never below, so for
    throughput the pair is (lower, upper) and for transmissions per delivered packet (upper, lower).
    ``low``/``high`` give the interval whatever the direction.

    Attributes
    ----------
    pessimistic, optimistic : float
        The metric under each count.
    low, high : float
        The smaller and the larger of the two.

    Examples
    --------
    >>> b = tcpfade.Bounds(pessimistic=3.2, optimistic=2.9)     # transmissions per delivered packet
    >>> b.low, b.high
    (2.9, 3.2)
    """

    pessimistic: float
    optimistic: float

    @property
    def interval(self) -> Interval:
        """The pair as tcpfade's one interval type, ``Interval(low, high)``."""
        return Interval(self.low, self.high, "analytical bounds: the pessimistic and optimistic counts (zorzi-rao §4.2)")

    @property
    def low(self) -> float:
        """The smaller of the two."""
        return min(self.pessimistic, self.optimistic)

    @property
    def high(self) -> float:
        """The larger of the two."""
        return max(self.pessimistic, self.optimistic)

    def contains(self, value: float, tolerance: float = 0.0) -> bool:
        """Whether ``value`` lies in [low - tolerance, high + tolerance]."""
        return self.low - tolerance <= value <= self.high + tolerance


def metrics_from_rates(rates: dict[str, float], energy: float, w_active: float, w_idle: float) -> dict[str, Bounds]:
    """The metrics from long-run rewards per cycle (eq. (13)), energy from eqs. (14)-(18).

    ``rates`` holds slots, transmissions, successes_low, successes_high, timeouts,
    fast_retransmits, losses and cwnd_at_loss_sum, each the stationary mean per cycle.
    """
    d, t = rates["slots"], rates["transmissions"]

    def ratio(num: float, den: float) -> float:
        if den > 0:
            return num / den
        return math.nan if num == 0 else math.inf

    def pair(fn) -> Bounds:
        return Bounds(fn(rates["successes_low"]), fn(rates["successes_high"]))

    throughput = pair(lambda s: ratio(s, d))
    lambda0 = pair(lambda s: ratio(s, energy * t))

    def eq18(lam0: float, eta: float) -> float:
        if eta <= 0:
            return 0.0
        return lam0 * (1 - w_active / energy - (w_idle / energy) * (1 - eta) / eta)

    return {
        "throughput": throughput,
        "load": pair(lambda s: ratio(t, d)),
        "successes_per_slot": pair(lambda s: ratio(rates["successes_high"], d)),
        "success_probability": pair(lambda s: ratio(s, t)),
        "transmissions_per_delivered": pair(lambda s: ratio(t, s)),
        "energy_efficiency": lambda0,
        "energy_efficiency_full": pair(lambda s: ratio(s, (energy + w_active) * t + w_idle * (d - t))),
        "energy_efficiency_lower_bound": Bounds(eq18(lambda0.pessimistic, throughput.pessimistic),
                                                eq18(lambda0.optimistic, throughput.optimistic)),
        "timeouts_per_slot": pair(lambda s: ratio(rates["timeouts"], d)),
        "fast_retransmits_per_slot": pair(lambda s: ratio(rates["fast_retransmits"], d)),
        "mean_cwnd_at_loss": pair(lambda s: ratio(rates["cwnd_at_loss_sum"], rates["losses"])),
    }


@dataclass(frozen=True, repr=False)
class AnalysisResult(Record):
    """Result of :func:`tcpfade.analyze`: each metric a :class:`Bounds` (pessimistic, optimistic).

    Metric names and definitions are those of :class:`tcpfade.SimulationResult`
    (:mod:`tcpfade.tcp.metrics`), with the counted successes S in place of delivered packets:
    throughput S/D, success probability S/T, transmissions per delivered packet T/S, λ0 = S/(E T),
    λ of eq. (15) and its eq. (18) bound. The optimistic count is every correct transmission, so
    ``throughput.optimistic`` equals ``successes_per_slot`` (an exact metric, as the simulator's).
    ``states`` is the size of the embedded chain, ``mean_cycle`` the mean cycle length in slots.

    Attributes
    ----------
    variant, wmax, dupthresh, rto_slots, transmit_energy, w_active, w_idle
        The call's parameters.
    throughput, load, successes_per_slot, success_probability, transmissions_per_delivered : Bounds
        S/D, T/D, S/D, S/T and T/S under the two counts.
    energy_efficiency, energy_efficiency_full, energy_efficiency_lower_bound : Bounds
        λ0 (eq. (14)), λ (eq. (15)) and its eq. (18) bound.
    timeouts_per_slot, fast_retransmits_per_slot, mean_cwnd_at_loss : Bounds
        Recoveries per slot and the mean window at a loss.
    states : int
        States of the embedded Markov chain.
    mean_cycle : float
        Mean renewal cycle [slots].
    channel : dict
        The channel's parameters.

    Examples
    --------
    >>> ch = tcpfade.GilbertElliott.from_burst(0.02, 1 / 0.98)      # i.i.d. errors, 2%
    >>> a = tcpfade.analyze("tahoe", ch, wmax=6)
    >>> round(a.success_probability.optimistic, 6)                 # every correct transmission: 1 - 0.02
    0.98
    >>> a.throughput.low <= a.throughput.high
    True
    """

    variant: str
    wmax: int
    dupthresh: int
    rto_slots: int
    transmit_energy: float
    w_active: float
    w_idle: float
    throughput: Bounds
    load: Bounds
    successes_per_slot: Bounds
    success_probability: Bounds
    transmissions_per_delivered: Bounds
    energy_efficiency: Bounds
    energy_efficiency_full: Bounds
    energy_efficiency_lower_bound: Bounds
    timeouts_per_slot: Bounds
    fast_retransmits_per_slot: Bounds
    mean_cwnd_at_loss: Bounds
    states: int
    mean_cycle: float
    channel: dict[str, Any] = field(repr=False)

    _headline = ("variant", "throughput", "energy_efficiency", "transmissions_per_delivered", "states")
    _undefined = {**dict.fromkeys(("transmissions_per_delivered", "energy_efficiency_lower_bound"),
                                  "infinite: the chain delivers nothing (every transmission lost)"),
                  "success_probability": "undefined: the chain transmits nothing",
                  "mean_cwnd_at_loss": "undefined: the chain never loses a packet (the mean window at loss instants)"}

    @property
    def rto(self) -> int:
        """Former name of :attr:`rto_slots` (one release, with a FutureWarning)."""
        import warnings

        warnings.warn("rto is now called rto_slots (T0 in slots; the old name goes in the next release)", FutureWarning,
                      stacklevel=2)
        return self.rto_slots

    @property
    def bounds(self) -> dict[str, Bounds]:
        """Every metric by name."""
        return {name: getattr(self, name) for name in METRICS}

    def _row(self) -> dict[str, Any]:
        """Parameters and metrics as a flat dict: each metric's bounds as ``<metric>_low`` and ``<metric>_high``
        (ordered by value: for throughput the pessimistic bound is the low one, for transmissions per delivered
        packet the high one; :class:`Bounds` keeps which is which)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in (
            "variant", "wmax", "dupthresh", "rto_slots", "transmit_energy", "w_active", "w_idle", "states", "mean_cycle")}
        for name, value in self.bounds.items():
            out.update(interval_columns(name, value))
        out.update({f"channel_{k}": val for k, val in self.channel.items()})
        return out


@v.checked()
def compare(analysis: AnalysisResult, simulation: Any) -> Any:
    """Analysis and simulation side by side: one row per metric, as a pandas DataFrame.

    Columns: analysis_low, analysis_high (the analysis's bounds, ordered by value), simulated,
    simulated_low, simulated_high (the simulation's confidence interval), ``agrees``: whether the interval
    overlaps the bounds (None where a side is not finite), and ``note``: why a value is NaN or infinite, if one is.
    The simulator counts every correct transmission in ``success_probability``, which is the
    analysis's optimistic count.
    """
    import pandas as pd

    from .. import _validate as v
    from ..tcp.slotted import SimulationResult

    if not isinstance(analysis, AnalysisResult):
        raise v.fail("analysis", analysis, "must be an AnalysisResult (tcpfade.analyze)", kind=v.ParameterTypeError)
    if not isinstance(simulation, SimulationResult):
        raise v.fail("simulation", simulation, "must be a SimulationResult (tcpfade.simulate)",
                     kind=v.ParameterTypeError)
    # Side by side only what describes the same TCP over the same channel: a mismatch would read as disagreement.
    for name in ("variant", "wmax", "dupthresh", "rto_slots", "transmit_energy", "w_active", "w_idle", "channel"):
        ours, theirs = getattr(analysis, name, None), getattr(simulation, name, None)
        if ours != theirs:
            raise v.fail("simulation", f"a run with {name} = {theirs!r}",
                         f"must be of the analysis' own set-up ({name} = {ours!r}): compare the same TCP over the same "
                         "channel")
    rows = []
    for name in METRICS:
        bounds = getattr(analysis, name)
        value = getattr(simulation, name)
        lo, hi = simulation.ci.get(name, (value, value))
        agrees = bool(lo <= bounds.high and hi >= bounds.low) if math.isfinite(lo) and math.isfinite(hi) else None
        # A value that is NaN or infinite on either side carries its reason (each record's own), as a row's notes do.
        odd = [(who, x) for who, x in (("analysis", bounds.low), ("analysis", bounds.high), ("simulation", value))
               if not math.isfinite(x)]
        note = "; ".join(dict.fromkeys(f"{who}: {(analysis if who == 'analysis' else simulation).why(name, x)}"
                                       for who, x in odd))
        rows.append({"metric": name, "analysis_low": bounds.low, "analysis_high": bounds.high,
                     "simulated": value, "simulated_low": lo, "simulated_high": hi, "agrees": agrees, "note": note})
    return pd.DataFrame(rows).set_index("metric")
