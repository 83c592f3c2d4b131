"""Markov renewal-reward model of TCP Reno and NewReno over a two-state Markov channel.

zorzi-rao §4 analyse Tahoe and say Reno and NewReno "can be analyzed using similar techniques";
this is that analysis (docs/models.md, "Reno and NewReno", has the derivation). A cycle starts
when the sender is clean (nothing outstanding, no recovery) or right after a timeout, with state
X = (channel state of the previous slot, Wth, W): W = 1 after a timeout, W = the window left by
recovery otherwise. Phase 1 is the error-free stretch up to the first loss, as for Tahoe, from
W instead of 1. Phase 2, from that loss to the end of its recovery, depends on which packets of the
loss window are lost; the core computes it exactly from the loss patterns for each window class
(⌊Y⌋, ⌈Y/2⌉) (``tcpfade._core.FastRecoveryPhase2``, checked against a forward recursion over
protocol states, ``tcpfade._core.fast_recovery_phase2``) and assembles the embedded chain and its
rewards (``tcpfade._core.fast_recovery_cycle_model``): hundreds of small matrix products per point,
which numpy would spend its time dispatching.

The one approximation: phase 2 assumes the receiver holds nothing beyond the lost packet (a
"fresh" loss window). That is exact after a clean cycle start and after a timeout whose holes are
all refilled before the next loss; it is not when a loss strikes while the packets of an earlier
window are still being resent after a timeout.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import _core
from .channel import SlotMatrices
from .tahoe import REWARDS, CycleModel


def cycle_model(ch: SlotMatrices, *, newreno: bool, wmax: int, dupthresh: int, rto: int,
                progress: Callable[[float], None] | None = None) -> CycleModel:
    """The embedded chain over the reachable cycle-start states and its rewards (eq. (13)); ``progress`` gets the
    fraction done about every 0.1 s, and Ctrl-C stops the computation."""
    _, transition, rewards = _core.fast_recovery_cycle_model(ch.success.tolist(), ch.failure.tolist(), newreno,
                                                             wmax, dupthresh, rto, progress)
    return CycleModel(transition, {name: np.ascontiguousarray(rewards[:, i]) for i, name in enumerate(REWARDS)})
