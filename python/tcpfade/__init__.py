"""tcpfade: TCP throughput and energy over wireless links with bursty (fading) errors.

The public API re-exports the channel models (:mod:`tcpfade.channels`), the TCP simulator
(:mod:`tcpfade.tcp`: :func:`simulate`, and :func:`simulate_link` for the event-driven link with a buffer), the
renewal-reward analyses (:mod:`tcpfade.analysis`: :func:`analyze`, and :func:`analyze_link` for the link) and the error hierarchy (:mod:`tcpfade.errors`). The engine is the Rust extension ``tcpfade._core``; users never need it.
"""

from . import errors
from ._core import __version__
from .channels import (
    Bernoulli,
    BitLevelFading,
    ContinuousTwoState,
    GilbertElliott,
    MarkovFit,
    ThresholdFading,
    TraceChannel,
    bit_level_error_rate,
    fit_markov,
    fading_autocorrelation,
    fading_gain,
    load_trace,
    marcum_q,
    markov_from_fading,
    save_trace,
    snr_for_error_rate,
)
from ._stats import Interval
from .errors import ParameterError, TcpfadeError
from .devices import Device
from .emulator import CommandResult, EmulationResult, emulate, emulate_command
from .tcp import (VARIANTS, LinkResult, SimulationResult, TransferResult, simulate, simulate_link, simulate_transfer,
                  simulate_transfers)

__all__ = [
    "__version__", "errors", "TcpfadeError", "ParameterError", "Bernoulli", "GilbertElliott", "ThresholdFading",
    "BitLevelFading", "TraceChannel", "ContinuousTwoState", "MarkovFit", "fit_markov", "marcum_q",
    "markov_from_fading", "fading_gain", "fading_autocorrelation", "bit_level_error_rate", "snr_for_error_rate",
    "load_trace", "save_trace", "simulate", "SimulationResult", "VARIANTS", "analyze", "AnalysisResult", "Bounds", "Interval",
    "ANALYZED_VARIANTS", "simulate_link", "LinkResult", "analyze_link", "LinkAnalysis", "simulate_transfer",
    "simulate_transfers", "TransferResult", "Device", "runs", "emulate", "EmulationResult", "emulate_command",
    "CommandResult",
]


#: Subpackages loaded on first use as attributes (``tcpfade.wcdma.simulate(...)`` after ``import tcpfade``), so
#: that ``import tcpfade`` stays light: they bring matplotlib, the WCDMA tables, SQLite, the figures' registry.
LAZY_SUBPACKAGES = ("wcdma", "plots", "sweep", "reproduce")


#: The analyses' names, loaded on first use: the renewal-reward analyses build their chains with scipy and take
#: a third of the package's own import time.
LAZY_ANALYSIS = ("ANALYZED_VARIANTS", "AnalysisResult", "Bounds", "LinkAnalysis", "analyze", "analyze_link")


def __getattr__(name: str):
    # tcpfade.runs (the in-memory sweep) on first use, so that `import tcpfade` stays light.
    if name == "runs":
        from .sweep.table import runs

        return runs
    if name in LAZY_ANALYSIS:
        from . import analysis

        return getattr(analysis, name)
    if name in LAZY_SUBPACKAGES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'tcpfade' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(LAZY_SUBPACKAGES) | set(LAZY_ANALYSIS) | {"runs"})
