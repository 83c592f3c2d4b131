"""``tcpfade.analyze``: TCP over a two-state Markov channel by Markov renewal-reward analysis
(zorzi-rao §4), in milliseconds and with bounds, instead of simulating."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import _validate as v
from .._params import REQUIRED, Model, Param
from ..tcp.parameters import DUPTHRESH, no_probes, no_seconds, PROGRESS, SLOT_VARIANTS, WMAX, variant
from ..tcp.slotted import ENERGY_PARAMETERS, RTO_SLOTS
from .._watch import reporting
from ..channels.base import SlotChannel
from .cycle import cycle_model
from .channel import SlotMatrices
from .renewal import ReducibleChain, reward_rates
from .result import METRICS, AnalysisResult, Bounds, metrics_from_rates

#: Variants the analysis covers.
ANALYZED_VARIANTS: tuple[str, ...] = SLOT_VARIANTS


def _lossless_rates() -> dict[str, float]:
    # No loss ever: one new packet delivered per slot, forever (a single endless cycle).
    return {"slots": 1.0, "transmissions": 1.0, "successes_low": 1.0, "successes_high": 1.0, "timeouts": 0.0,
            "fast_retransmits": 0.0, "losses": 0.0, "cwnd_at_loss_sum": 0.0}


#: :func:`analyze`'s parameters: the slotted model's (:data:`tcpfade.tcp.slotted.SLOTTED`) that the analysis
#: covers, with the bounds its state space allows.
ANALYSIS = Model("analyze", (
    variant(REQUIRED, ANALYZED_VARIANTS, 'TCP variant: "oldtahoe", "tahoe", "reno" or "newreno".',
            no_probes("the slotted model") | no_seconds("the slotted model", "simulate_link")),
    Param("channel", v.Instance(SlotChannel, "must be a GilbertElliott or Bernoulli channel"),
          doc="GilbertElliott or Bernoulli (fit other channels with tcpfade.fit_markov).", positional=True, cli=False,
          sweep=False),
    WMAX.but(rule=v.Integer(1, 4096), default=24,
             doc="Receiver's window Wmax (at most 4096; 128 for Reno and NewReno). Tahoe's time grows as Wmax³: "
                 "0.24 ms at 24, 15 ms at 128, 0.9 s at 512."),
    DUPTHRESH.but(doc="Duplicate-ACK threshold K (K >= Wmax: fast retransmit never triggers)."),
    RTO_SLOTS.but(rule=v.Integer(1, 2**32 - 1),
                  doc="Timeout T0; must exceed Wmax (the timer outlasts the window sent after a loss)."),
    *ENERGY_PARAMETERS,
), doc="The slotted model over a two-state Markov channel as a Markov renewal-reward process (zorzi-rao §4).")

#: Bytes the Reno and NewReno analyses keep per slot of the timer (the channel's step matrix to each power).
BYTES_PER_RTO_SLOT = 40

#: Bytes the Tahoe and OldTahoe analyses hold per Wmax²: A^k F and A^k for every k of the longest phase 1 (about
#: Wmax²/2 of each, 32 bytes apiece) and the dense chain of about 2 Wmax states, three copies of it at the solve.
BYTES_PER_WMAX_SQUARED = 32 + 3 * 8 * 4

@ANALYSIS.entry()
def analysis_arguments(variant: str, channel: SlotChannel, *, wmax: int, dupthresh: int, rto_slots: int,
                       transmit_energy: float | None, w_active: float, w_idle: float) -> dict[str, object]:
    """Check the arguments of :func:`analyze` without analysing: the same errors, and the arguments normalized
    (defaults filled in). A sweep checks every point with it before running."""
    name = variant
    SlotMatrices.from_channel(channel)  # the channel must be two-state Markov
    rto = rto_slots
    if rto <= wmax:
        raise v.fail("rto_slots", rto, f"must be > wmax (= {wmax}) for the analysis: the timer must outlast the "
                                 "window sent after a loss")
    if name in ("reno", "newreno") and wmax > 128:
        raise v.fail("wmax", wmax, f"must be <= 128 for the {name} analysis (the held set is a 128-bit mask)")
    if name in ("reno", "newreno"):
        v.memory("rto_slots", rto, float(rto + 2) * BYTES_PER_RTO_SLOT, f"the {name} analysis with a timer of {rto} slots")
    else:
        v.memory("wmax", wmax, BYTES_PER_WMAX_SQUARED * float(wmax) ** 2, f"the {name} analysis at Wmax = {wmax}")
        # Phase 1 is walked slot by slot from each of about 2 Wmax start states, up to Wmax²/2 slots each.
        v.work("wmax", wmax, float(wmax) ** 3, "phase-1 slots", f"the {name} analysis at Wmax = {wmax}")
    energy = transmit_energy if transmit_energy is not None else (channel.transmit_energy or 1.0)
    return {"variant": name, "wmax": wmax, "dupthresh": dupthresh, "rto_slots": rto_slots,
            "transmit_energy": v.ENERGY.check("transmit_energy", energy), "w_active": w_active, "w_idle": w_idle}


@ANALYSIS.entry(PROGRESS.but(doc="True for a progress bar (shown once the analysis has lasted a second; Reno at "
                                     "Wmax = 128 takes about 0.1 s), or a callable that gets the fraction done (0 to "
                                     "1). Ctrl-C stops the analysis either way."))
def analyze(variant: str, channel: SlotChannel, *, wmax: int, dupthresh: int, rto_slots: int,
            transmit_energy: float | None, w_active: float, w_idle: float,
            progress: bool | Callable[[float], object] | None) -> AnalysisResult:
    """Throughput, load and energy efficiency of a TCP bulk transfer, computed (not simulated).

    The slotted model of :func:`tcpfade.simulate` (decision D1-D4 of docs/models.md) over a two-state Markov channel, solved
    as a Markov renewal-reward process (zorzi-rao §4, eq. (13)); docs/models.md has the derivation.
    Tahoe and OldTahoe follow the paper; Reno and NewReno are derived in the same frame, with their
    phase 2 computed exactly over protocol states under one approximation (fresh loss windows).
    Each metric is a :class:`~tcpfade.analysis.Bounds` pair (pessimistic, optimistic) from the two
    ways of counting successes of zorzi-rao §4.2; load, timeouts, fast retransmits and the mean
    window at loss instants do not depend on the count (both entries equal).

    Parameters
    ----------
    {parameters}

    Examples
    --------
    >>> import tcpfade
    >>> ch = tcpfade.GilbertElliott.from_fading(error_rate=0.03, fdt=0.001)
    >>> r = tcpfade.analyze("tahoe", ch, wmax=6, dupthresh=3, rto_slots=100)
    >>> round(r.throughput.pessimistic, 3), round(r.throughput.optimistic, 3)
    (0.946, 0.946)

    Returns
    -------
    AnalysisResult: every metric as :class:`Bounds` (pessimistic, optimistic), the chain's size.

    Raises
    ------
    ParameterError
        an unknown or unanalysed variant, a channel that is not a two-state Markov chain, a parameter out of range.
    """
    a = analysis_arguments.unchecked(variant, channel, wmax=wmax, dupthresh=dupthresh, rto_slots=rto_slots,
                                     transmit_energy=transmit_energy, w_active=w_active, w_idle=w_idle)
    name, wmax, k, t0 = a["variant"], a["wmax"], a["dupthresh"], a["rto_slots"]
    energy, w_a, w_i = a["transmit_energy"], a["w_active"], a["w_idle"]
    matrices = SlotMatrices.from_channel(channel)

    if matrices.error_rate == 0.0:
        rates, states = _lossless_rates(), 1
    else:
        try:
            with reporting(progress, "analysis") as report:
                model = cycle_model(matrices, name, wmax=wmax, dupthresh=k, rto=t0, progress=report)
                if report is not None:
                    report(0.9)
                rates, states = reward_rates(model.transition, model.rewards), model.transition.shape[0]
        except (np.linalg.LinAlgError, ReducibleChain):
            # A state whose loss probability rounds away (1 − 1e-300 is 1) yet is left with probability 0: runs of
            # correct slots never end in double precision, though the error rate is not 0.
            raise v.fail("channel", channel, "its losses are too rare for the analysis in double precision (a "
                         "state loses with probability below 1e-16 and is never left); treat it as lossless or use "
                         "loss probabilities of 1e-15 or more") from None
    metrics = metrics_from_rates(rates, energy, w_a, w_i)
    return AnalysisResult(variant=name, wmax=wmax, dupthresh=k, rto_slots=t0, transmit_energy=energy, w_active=w_a,
                          w_idle=w_i, **{m: metrics[m] for m in METRICS}, states=states,
                          mean_cycle=rates["slots"], channel=channel.describe())

