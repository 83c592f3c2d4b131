"""Packet-error channels: how a wireless link turns into packet successes and losses.

- :class:`Bernoulli`, :class:`GilbertElliott`: independent and two-state Markov losses per slot;
  :meth:`GilbertElliott.from_fading` maps Rayleigh fading (F, fD·T) to the chain (zorzi-rao eqs. 2-5).
- :class:`ThresholdFading`, :class:`BitLevelFading`: losses from a simulated Jakes fading process.
- :class:`TraceChannel`: losses replayed from a file or array.
- :class:`ContinuousTwoState`: the continuous-time good/bad channel of abouzeid §III / VDELDROP.
- :func:`fit_markov`: the hybrid fit of a Markov model to any trace.
"""

from .base import SlotChannel
from .continuous import LOSS_RULES, ContinuousTwoState
from .fading import (
    error_rate_from_fading_margin,
    fading_margin_from_error_rate,
    marcum_q,
    markov_from_fading,
)
from .fit import MarkovFit, fit_markov
from .jakes import (
    FADING_MODELS,
    MODULATIONS,
    BitLevelFading,
    ThresholdFading,
    bit_level_error_rate,
    fading_autocorrelation,
    fading_gain,
    snr_for_error_rate,
)
from .markov import Bernoulli, GilbertElliott
from .trace import TRACE_FORMATS, TraceChannel, load_trace, save_trace

__all__ = [
    "SlotChannel", "Bernoulli", "GilbertElliott", "ThresholdFading", "BitLevelFading", "TraceChannel",
    "ContinuousTwoState", "LOSS_RULES", "FADING_MODELS", "MODULATIONS", "TRACE_FORMATS", "MarkovFit", "fit_markov",
    "marcum_q", "markov_from_fading", "fading_margin_from_error_rate", "error_rate_from_fading_margin",
    "fading_gain", "fading_autocorrelation", "bit_level_error_rate", "snr_for_error_rate", "load_trace",
    "save_trace",
]
