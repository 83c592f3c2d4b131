"""Markov renewal-reward analysis of TCP over two-state Markov channels (zorzi-rao §4).

:func:`analyze` answers in milliseconds what :func:`tcpfade.simulate` answers in seconds, with a
pessimistic and an optimistic bound on the successes that count. Modules: :mod:`.channel` (the
one-slot success and failure matrices), :mod:`.cycle` (the embedded chain of every variant, built by the
core), :mod:`.renewal` (eq. (13)), :mod:`.result`.
:func:`analyze_link` (the package :mod:`.link`) is abouzeid §IV's analysis of the event-driven link with a buffer.
"""

from .analyze import ANALYZED_VARIANTS, analyze
from .link import LinkAnalysis, analyze_link
from .result import EXACT_METRICS, METRICS, AnalysisResult, Bounds, compare

__all__ = ["ANALYZED_VARIANTS", "analyze", "AnalysisResult", "Bounds", "METRICS", "EXACT_METRICS", "compare", "analyze_link",
           "LinkAnalysis"]
