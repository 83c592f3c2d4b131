"""The slotted TCP simulator (zorzi-rao §3-§5, chockalingam): zero bandwidth-delay product, one
packet per slot, ACKs at the end of the slot (decision D1-D4 of docs/models.md)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._record import Record, interval_columns
from .._watch import reporting
from ..channels.base import SlotChannel
from .._params import Model, Param
from .metrics import batch_interval, lambda_lower_bound, metric_functions
from .._params import REQUIRED
from .parameters import (BATCHES, CONFIDENCE, DUPTHRESH, no_probes, PROGRESS, SEED, SENDER, SLOT_VARIANTS, no_seconds,
                         WMAX, variant)
from .parameters import check_recovery_parts
from .parameters import VARIANTS as ALL_VARIANTS

if TYPE_CHECKING:
    import pandas as pd

#: TCP variants of the one sender (the Rust core's registry); the slotted model runs all but TCP-Probing.
VARIANTS = ALL_VARIANTS

#: The metrics every result carries, each with a confidence interval in ``result.ci``.
METRICS = ("throughput", "load", "successes_per_slot", "success_probability", "transmissions_per_delivered",
           "energy_efficiency",
           "energy_efficiency_full", "timeouts_per_slot", "fast_retransmits_per_slot", "mean_cwnd_at_loss")


def metric_ranges(energy: float) -> dict[str, tuple[float, float]]:
    """Where each metric's true value must lie (its interval is truncated there): shares of slots and of
    transmissions in [0, 1], at least one transmission per delivered packet, λ0 at most 1/E."""
    unit, rate = (0.0, 1.0), (0.0, math.inf)
    return {"throughput": unit, "load": unit, "successes_per_slot": unit, "success_probability": unit,
            "transmissions_per_delivered": (1.0, math.inf), "energy_efficiency": (0.0, 1.0 / energy),
            "energy_efficiency_full": rate, "timeouts_per_slot": unit, "fast_retransmits_per_slot": unit,
            "mean_cwnd_at_loss": (1.0, math.inf)}


@dataclass(frozen=True, repr=False)
class SimulationResult(Record):
    """Result of :func:`simulate`. Metrics are attributes; ``ci[name]`` is its confidence interval.

    Over D slots with T transmissions, S correct transmissions and N packets delivered in order, each of
    energy E (zorzi-rao §4.1, eqs. (14)-(18); :mod:`tcpfade.tcp.metrics`).

    Attributes
    ----------
    variant, slots, wmax, dupthresh, rto_slots, seed, transmit_energy, w_active, w_idle, confidence
        The call's parameters (``transmit_energy`` is E; ``w_active``, ``w_idle`` the circuit energies).
    throughput : float
        η = N/D, packets delivered per slot.
    load : float
        T/D, transmissions per slot.
    successes_per_slot, success_probability : float
        S/D and S/T.
    transmissions_per_delivered : float
        T/N.
    energy_efficiency : float
        λ0 = N/(E·T), eq. (14).
    energy_efficiency_full, energy_efficiency_lower_bound : float
        λ with circuit energy, eq. (15), and its eq. (18) bound.
    timeouts_per_slot, fast_retransmits_per_slot : float
        Recoveries per slot.
    mean_cwnd_at_loss : float
        Mean window at the lost transmissions (chockalingam Fig. 6); NaN without a loss.
    timeouts, fast_retransmits : int
        Their counts.
    ci : dict[str, tuple[float, float]]
        Each metric's batch-means confidence interval at ``confidence``.
    counts : dict[str, float]
        The raw totals the metrics are ratios of.
    channel : dict
        The channel's parameters.
    trace : pandas.DataFrame or None
        The per-slot trace, when ``trace_slots`` asked for one.

    Examples
    --------
    >>> r = tcpfade.simulate("tahoe", tcpfade.Bernoulli(0.01), wmax=6, slots=20_000, seed=1)
    >>> round(r.success_probability, 2)       # S/T: each transmission survives the channel with 1 - 0.01
    0.99
    >>> r.ci["throughput"][0] < r.throughput < r.ci["throughput"][1] and r.throughput <= r.load
    True
    >>> r.to_frame()[["variant", "throughput_low", "throughput", "throughput_high"]].shape
    (1, 4)
    """

    variant: str
    slots: int
    wmax: int
    dupthresh: int
    rto_slots: int
    seed: int
    transmit_energy: float
    w_active: float
    w_idle: float
    confidence: float
    throughput: float
    load: float
    successes_per_slot: float
    success_probability: float
    transmissions_per_delivered: float
    energy_efficiency: float
    energy_efficiency_full: float
    energy_efficiency_lower_bound: float
    timeouts_per_slot: float
    fast_retransmits_per_slot: float
    mean_cwnd_at_loss: float
    timeouts: int
    fast_retransmits: int
    counts: dict[str, float] = field(repr=False)
    ci: dict[str, tuple[float, float]] = field(repr=False)
    channel: dict[str, Any] = field(repr=False)
    trace: pd.DataFrame | None = field(default=None, repr=False)
    #: The sender's other parts as the run had them (the profile's where the call set none): a row names what ran.
    parameters: dict[str, Any] = field(default_factory=dict, repr=False)

    _headline = ("variant", "throughput", "energy_efficiency", "transmissions_per_delivered", "timeouts", "slots")
    _undefined = {"mean_cwnd_at_loss": "no packet was lost in this run (it is the mean window at loss instants)"}

    @property
    def rto(self) -> int:
        """Former name of :attr:`rto_slots` (one release, with a FutureWarning)."""
        import warnings

        warnings.warn("rto is now called rto_slots (T0 in slots; the old name goes in the next release)", FutureWarning,
                      stacklevel=2)
        return self.rto_slots

    def _row(self) -> dict[str, Any]:
        """Parameters, metrics and their confidence intervals (``<metric>_low``, ``<metric>_high``) as a flat dict
        (one row of a table)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in (
            "variant", "slots", "wmax", "dupthresh", "rto_slots", "seed", "transmit_energy", "w_active", "w_idle",
            "confidence", *METRICS, "energy_efficiency_lower_bound", "timeouts", "fast_retransmits")}
        for name, interval in self.ci.items():
            out.update(interval_columns(name, interval))
        out.update({f"channel_{k}": val for k, val in self.channel.items()})
        for key, value in self.parameters.items():
            out.setdefault(key, value)
        return out

    def plot_trace(self, path: str | Path | None = None, *, ax=None):
        """Draw the per-slot trace in the style of chockalingam Figs. 1-3 (:func:`tcpfade.plots.plot_slot_trace`):
        written to ``path`` when given (PNG, SVG or PDF), into ``ax`` (two axes) when given; returns the
        matplotlib Figure."""
        from ..plots.tcp import plot_slot_trace

        if self.trace is None:
            raise v.fail("trace_slots", 0, "simulate with trace_slots > 0 to plot a trace")
        return plot_slot_trace(self.trace, path, ax=ax, title=f"{self.variant}, Wmax = {self.wmax}, "
                                                              f"K = {self.dupthresh}, T0 = {self.rto_slots}")


#: Bytes one traced slot takes (the core's row and the DataFrame made of it).
TRACE_SLOT_BYTES = 96

#: Slot channels: what the slotted model's ``channel`` accepts.
SLOT_CHANNEL = v.Instance(SlotChannel, "must be a slot channel (GilbertElliott, Bernoulli, ThresholdFading, "
                                       "BitLevelFading or TraceChannel): the slotted model steps its channel once a "
                                       "packet; a ContinuousTwoState runs in time, in simulate_link or "
                                       "simulate_transfer")
#: The circuit energies of zorzi-rao eq. (14), shared by the simulation and the analysis.
ENERGY_PARAMETERS = (
    Param("transmit_energy", v.Optional(v.ENERGY), None, "Energy E of one transmission.",
          default_words="the channel's (F, or the SNR of the bit-level model; BRIEF D5), else 1"),
    Param("w_active", v.CIRCUIT_ENERGY, 0.0, "Circuit energy per active slot (zorzi-rao eq. (14))."),
    Param("w_idle", v.CIRCUIT_ENERGY, 0.0, "Circuit energy per idle slot (zorzi-rao eq. (14))."),
)
#: T0, the slotted model's fixed timeout in slots (BRIEF D2: no backoff).
RTO_SLOTS = Param("rto_slots", v.Integer(1, 2**40), 100, "Retransmission timeout T0, fixed, no backoff (BRIEF D2).",
                  "slots", old_names=("rto",))

#: :func:`simulate`'s parameters (zorzi-rao §3-§5, BRIEF D1-D4).
SLOTTED = Model("simulate", (
    variant(REQUIRED, SLOT_VARIANTS, 'TCP variant: "oldtahoe", "tahoe", "reno" or "newreno".',
            no_probes("the slotted model") | no_seconds("the slotted model")),
    Param("channel", SLOT_CHANNEL, doc="Any slot channel (GilbertElliott, ThresholdFading, ...).", positional=True,
          cli=False, sweep=False),
    WMAX.but(default=24), DUPTHRESH, RTO_SLOTS,
    Param("slots", v.Integer(1), 1_000_000, "Length of the run; memory does not grow with it.", "slots"),
    SEED.but(doc="Seed of the channel and of ACK losses."), *(p for p in SENDER if p.name not in ("wmax", "dupthresh")),
    Param("ack_loss", v.PROBABILITY, 0.0, "ACK loss probability (zorzi-rao footnote 1)."),
    Param("ack_delay_slots", v.Integer(0, 1 << 20), 0, "Extra ACK delay (zorzi-rao footnote 2).", "slots",
          old_names=("ack_delay",)),
    BATCHES.but(default=30),
    Param("trace_slots", v.Integer(0, 1 << 28), 0, "Keep a per-slot trace of the first trace_slots slots "
          "(result.trace).", "slots", sweep=False),
    *ENERGY_PARAMETERS, CONFIDENCE,
), doc="The slotted model (zorzi-rao §3-§5, chockalingam): one packet per slot, ACKs at the end of the slot.")


@SLOTTED.entry()
def simulation_arguments(variant: str, channel: SlotChannel, **given: Any) -> dict[str, Any]:
    """Check the arguments of :func:`simulate` without simulating: the same errors, raised the same way,
    and the arguments normalized (defaults filled in). A sweep checks every point with it. The result is what the
    core's binding reads, by field name."""
    a = {"variant": variant, **given}
    check_recovery_parts(a)
    if a.get("rack"):
        raise v.fail("rack", True, "the slotted model's timer is a fixed T0 in slots with no SRTT (BRIEF D2) and every "
                                   "ACK returns within its slot, while RACK-TLP's timers come from RTT estimates "
                                   "(reo_wnd = min_RTT/4, PTO = 2·SRTT, RFC 8985 §6.2 and §7.2); simulate it with "
                                   "simulate_link or simulate_transfer")
    if a.get("hystart"):
        raise v.fail("hystart", True, "the slotted model's clock counts slots and every ACK returns within its slot, "
                                      "while HyStart++ judges rises in the round-trip time against thresholds in "
                                      "milliseconds (4-16 ms, RFC 9406 §4.3); simulate it with simulate_link or "
                                      "simulate_transfer")
    if a.get("cwnd_limited"):
        raise v.fail("cwnd_limited", True, "the slotted sender always fills its window (its receiver advertises Wmax "
                                           "and it has data without end) and it skips error-free stretches a round at "
                                           "a time, so a rule for a sender that does not fill cwnd has nothing to act "
                                           "on there; simulate it with simulate_link or simulate_transfer")
    slots, batches, trace_slots = a["slots"], a["batches"], a["trace_slots"]
    if getattr(channel, "interval", None) is not None:
        raise v.fail("channel", f"a TraceChannel with interval = {channel.interval:g} s",
                     "the slotted model takes one element per slot: give interval=None (an interval in seconds is "
                     "for the link models)")
    if slots < batches:
        raise v.fail("slots", slots, f"must be >= batches (= {batches}): each batch of the confidence intervals "
                                     "needs a slot at least (give fewer batches for a shorter run)")
    cost = channel._slot_cost()
    v.work("slots", slots, slots * cost, "slots", f"a run of {slots} slots" + (
        f" on this channel (each costs {cost:g} plain slots: its fading simulator)" if cost > 1 else ""))
    v.memory("trace_slots", trace_slots, float(min(trace_slots, slots)) * TRACE_SLOT_BYTES,
             f"a trace of {trace_slots} slots")
    energy = a["transmit_energy"] if a["transmit_energy"] is not None else (channel.transmit_energy or 1.0)
    a.update(initial_ssthresh=float(a["wmax"]) if a["initial_ssthresh"] is None else a["initial_ssthresh"],
             transmit_energy=v.ENERGY.check("transmit_energy", energy))
    return a


@SLOTTED.entry(PROGRESS)
def simulate(variant: str, channel: SlotChannel, *, progress: bool | Callable[[float], object] | None = None,
             **given: Any) -> SimulationResult:
    """Simulate a TCP bulk transfer over ``channel`` on the slotted model.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    SimulationResult: the metrics, their confidence intervals (``ci``), counts and the trace when asked.

    Raises
    ------
    ParameterError
        an unknown variant, a parameter out of its range (named with its value), a run that would not fit in
        memory or time.

    Examples
    --------
    >>> ch = tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01)
    >>> r = tcpfade.simulate("newreno", ch, slots=200_000, seed=1)
    >>> 0.8 < r.throughput < 0.95 and r.ci["throughput"][0] <= r.throughput <= r.ci["throughput"][1]
    True
    """
    a = simulation_arguments.unchecked(variant, channel, **given)   # the entry has checked them
    name, wmax, k, t0, n, energy = a["variant"], a["wmax"], a["dupthresh"], a["rto_slots"], a["slots"], a["transmit_energy"]
    w_a, w_i, level = a["w_active"], a["w_idle"], a["confidence"]
    with reporting(progress, "slots") as report:
        raw = _core.simulate_slotted(channel._spec(), a, report)
    fields = raw["fields"]
    totals = dict(zip(fields, raw["totals"]))
    per_batch = {f: raw["batches"][:, i] for i, f in enumerate(fields)}
    functions = metric_functions(energy, w_a, w_i)
    point = {m: float(functions[m](totals)) for m in METRICS}
    ranges = metric_ranges(energy)
    ci = {m: batch_interval(point[m], functions[m](per_batch), level, ranges[m]) for m in METRICS}
    trace = None
    if raw["trace"] is not None:
        import pandas as pd

        trace = pd.DataFrame(raw["trace"])
        trace["seq"] = trace["seq"].astype("Int64").where(trace["seq"] >= 0)
    return SimulationResult(
        variant=name, slots=n, wmax=wmax, dupthresh=k, rto_slots=t0, seed=a["seed"], transmit_energy=energy,
        w_active=w_a, w_idle=w_i, confidence=level, **point,
        energy_efficiency_lower_bound=lambda_lower_bound(point["energy_efficiency"], point["throughput"], energy,
                                                         w_a, w_i),
        timeouts=int(totals["timeouts"]), fast_retransmits=int(totals["fast_retransmits"]), counts=totals, ci=ci,
        channel=channel.describe(), trace=trace,
        parameters={p.name: a[p.name] for p in SENDER if p.name not in ("wmax", "dupthresh") and p.name in a})
