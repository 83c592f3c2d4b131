"""Continuous-time two-state channel (abouzeid §III; VDELDROP of tsaoussidis §4)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import _core
from .. import _validate as v

#: Loss rules: "any-instant" (abouzeid §III: each state met may corrupt the packet, with p0/p1) and
#: "vdeldrop" (the packet is dropped with the drop rate of the state it meets at its start).
LOSS_RULES = ("any-instant", "vdeldrop")


#: Mean sojourns accepted (s, or any unit used consistently): positive and finite, within what a double holds
#: with room for sums of many of them.
MEAN_SOJOURN = v.Real(1e-12, 1e12, words="must be a finite number in [1e-12, 1e12]")


@v.checked_fields(mean_good=MEAN_SOJOURN, mean_bad=MEAN_SOJOURN, loss_rule=v.Choice(LOSS_RULES),
                  loss_good=v.PROBABILITY, loss_bad=v.PROBABILITY)
@dataclass(frozen=True)
class ContinuousTwoState:
    """Alternating good/bad channel in continuous time, evolving whatever the sender does.

    Good sojourns are exponential with mean ``mean_good`` = E[X], bad ones with mean
    ``mean_bad`` = E[Y] (seconds, or any unit used consistently). ``loss_good`` and ``loss_bad``
    are abouzeid's p0 and p1 under ``loss_rule="any-instant"`` and VDELDROP's drop rates r_i under
    ``loss_rule="vdeldrop"``.

    Parameters
    ----------
    mean_good, mean_bad : E[X] and E[Y], the mean good and bad durations.
    loss_rule : "any-instant" (a packet is lost if the channel is bad at any instant of it) or "vdeldrop" (the
        state at its start decides, with the drop rates below).
    loss_good, loss_bad : loss probabilities in each state.

    Raises
    ------
    ParameterError
        a mean duration not positive and finite, an unknown loss_rule, a loss probability outside [0, 1].

    Examples
    --------
    >>> ch = tcpfade.ContinuousTwoState(mean_good=0.8, mean_bad=0.2)
    >>> round(ch.bad_fraction, 3)
    0.2
    """

    mean_good: float
    mean_bad: float
    loss_rule: str = "any-instant"
    loss_good: float = 0.0
    loss_bad: float = 1.0

    @classmethod
    @v.checked(mean_phase=MEAN_SOJOURN, drop_rate=v.PROBABILITY, mean_off=v.Optional(MEAN_SOJOURN))
    def on_off(cls, mean_phase: float, drop_rate: float, mean_off: float | None = None) -> ContinuousTwoState:
        """VDELDROP's on/off error phases (tsaoussidis-badr §4): "Off" (good) and "On" (bad) sojourns of mean
        ``mean_off`` (default ``mean_phase``) and ``mean_phase`` seconds; no drops in the Off phase, a share
        ``drop_rate`` of the segments dropped in the On phase, each judged by the phase it starts in."""
        return cls(mean_good=mean_phase if mean_off is None else mean_off, mean_bad=mean_phase,
                   loss_rule="vdeldrop", loss_good=0.0, loss_bad=drop_rate)

    @property
    def bad_fraction(self) -> float:
        """Long-run fraction of time in the bad state, f = E[Y] / (E[X] + E[Y]) (abouzeid eq. (1))."""
        return self.mean_bad / (self.mean_good + self.mean_bad)

    @v.checked(duration=v.NON_NEGATIVE)
    def loss_probability(self, duration: float) -> float:
        """Probability that a packet of length ``duration``, sent at a time independent of the
        channel, is lost.

        any-instant: starting good (prob. 1-f) the packet meets only the good state with
        probability exp(-d/E[X]), else both; likewise from bad with exp(-d/E[Y]). It survives each
        state met with probability 1 - p_state. vdeldrop: (1-f) r0 + f r1.
        """
        d = duration
        f = self.bad_fraction
        if self.loss_rule == "vdeldrop":
            return (1 - f) * self.loss_good + f * self.loss_bad
        s0, s1 = 1.0 - self.loss_good, 1.0 - self.loss_bad
        stay_good = math.exp(-d / self.mean_good)
        stay_bad = math.exp(-d / self.mean_bad)
        survive = (1 - f) * (stay_good * s0 + (1 - stay_good) * s0 * s1) + f * (stay_bad * s1 + (1 - stay_bad) * s0 * s1)
        return 1.0 - survive

    def _args(self) -> tuple[float, float]:
        return float(self.mean_good), float(self.mean_bad)

    def _channel_steps(self, name: str, value: object, horizon: float) -> None:
        """Refuse a query whose horizon would take the channel through too many good/bad visits."""
        v.work(name, value, 2.0 * horizon / (self.mean_good + self.mean_bad), "channel steps",
               f"a channel followed to t = {horizon:.3g}")

    def check_packet_window(self, name: str, value: object, window: float) -> None:
        """Refuse packets lasting ``window`` seconds that would each span more good and bad visits than memory
        holds: the channel keeps every visit a packet's time covers (a later packet may start inside it), 2·window /
        (E[X] + E[Y]) of them, at 16 bytes each and twice that while its queue grows."""
        visits = 2.0 * window / (self.mean_good + self.mean_bad) + 4.0
        v.memory(name, value, 32.0 * visits, f"the channel's good and bad visits within one packet's {window:.3g} s "
                                             f"({visits:.3g} of them)")

    @v.checked(starts=v.TIMES, duration=v.NON_NEGATIVE, seed=v.SEED)
    def packet_losses(self, starts, duration: float, *, seed: int) -> np.ndarray:
        """Loss (1) or not (0) of packets starting at ``starts`` (non-decreasing), each lasting
        ``duration``, on the channel realization fixed by ``seed``."""
        if starts.size:
            last = float(starts[-1])
            name, value = ("duration", duration) if duration > last else ("starts", f"an array ending at {last:.6g}")
            self._channel_steps(name, value, last + duration)
            self.check_packet_window("duration", duration, duration)
        return _core.continuous_packet_losses(*self._args(), self.loss_rule, float(self.loss_good),
                                              float(self.loss_bad), starts, duration, seed)

    @v.checked(times=v.TIMES, seed=v.SEED)
    def states(self, times, *, seed: int) -> np.ndarray:
        """State (0 good, 1 bad) at ``times`` (non-decreasing) of the realization fixed by ``seed``."""
        if times.size:
            self._channel_steps("times", f"an array ending at {times[-1]:.6g}", float(times[-1]))
        return _core.continuous_states(*self._args(), times, seed)

    @v.checked(window=v.POSITIVE, windows=v.Integer(0), seed=v.SEED)
    def bad_time(self, window: float, windows: int, *, seed: int) -> np.ndarray:
        """Time spent bad in each of ``windows`` consecutive windows of length ``window`` from 0."""
        v.memory("windows", windows, 8.0 * windows, f"{windows} windows")
        self._channel_steps("window", window, window * windows)
        self.check_packet_window("window", window, window)
        return _core.continuous_bad_time(*self._args(), window, windows, seed)

    def link_spec(self, rate: float, clock: str = "time") -> dict[str, Any]:
        """What the event-driven drivers build this channel from (``channel/clocked.rs``): in real time, idle or
        not (abouzeid §III), or with ``clock="packets"`` advanced only by packet times (ns-2's original model)."""
        return {"kind": "continuous", "mean_good": self.mean_good, "mean_bad": self.mean_bad,
                "loss_rule": self.loss_rule, "loss_good": self.loss_good, "loss_bad": self.loss_bad,
                "packet_clock": clock == "packets"}

    def describe(self) -> dict[str, Any]:
        """Parameters and the bad-time fraction as a dict."""
        return {"kind": "continuous-two-state", "mean_good": self.mean_good, "mean_bad": self.mean_bad,
                "loss_rule": self.loss_rule, "loss_good": self.loss_good, "loss_bad": self.loss_bad,
                "bad_fraction": self.bad_fraction}
