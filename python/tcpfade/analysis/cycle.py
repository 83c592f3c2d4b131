"""The embedded chain of TCP cycles over a two-state Markov channel and its rewards (zorzi-rao §4, eq. (13)),
for OldTahoe, Tahoe, Reno and NewReno.

A cycle runs from one loss detection to the next. Phase 1 is the error-free stretch up to the first loss, whose
window Y follows the window function w(n, W, Wth) of §4.2 (decision D3 of docs/models.md); phase 2 runs from that
loss to its detection and depends on Y only through its class (⌊Y⌋, ⌈Y/2⌉). The variants differ only in phase 2:

- Tahoe and OldTahoe (eqs. (20)-(24), with the timer of decision D2): a fast retransmit on the K-th duplicate ACK
  (Tahoe) or a timeout, from one forward recursion over the slots after the loss shared by every class;
- Reno and NewReno (derived in the same frame: zorzi-rao say they "can be analyzed using similar techniques"):
  exactly over the sets of packets the receiver holds, under one approximation (a "fresh" loss window: the
  receiver holds nothing beyond the lost packet when phase 2 starts; exact after a clean cycle start and after a
  timeout whose holes are refilled before the next loss).

The core builds the chain over the reachable cycle-start states (channel state of the previous slot, Wth, W) and
the expected rewards of a cycle out of each (``tcpfade._core.tahoe_cycle_model``,
``tcpfade._core.fast_recovery_cycle_model``; Rust module ``analysis::cycle``, phase 2 in ``analysis::tahoe`` and
``analysis::{fast_recovery, phase2}``): hundreds of small matrix products per point, which numpy would spend its
time dispatching. docs/models.md ("The renewal-reward analysis") has the derivation line by line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import _core
from .channel import SlotMatrices

#: Per-transition rewards: slots N_d, transmissions N_t, pessimistic and optimistic successes N_s, timeouts, fast
#: retransmits, losses and the sum of W over the losses.
REWARDS = ("slots", "transmissions", "successes_low", "successes_high", "timeouts", "fast_retransmits",
           "losses", "cwnd_at_loss_sum")


@dataclass(frozen=True)
class CycleModel:
    """Embedded chain P and expected rewards per transition out of each state (eq. (13))."""

    transition: np.ndarray
    rewards: dict[str, np.ndarray]


def cycle_model(ch: SlotMatrices, variant: str, *, wmax: int, dupthresh: int, rto: int,
                progress: Callable[[float], None] | None = None) -> CycleModel:
    """The embedded chain of ``variant`` ("oldtahoe", "tahoe", "reno" or "newreno") over the reachable
    cycle-start states and its rewards. Needs ``rto`` > ``wmax`` and a channel that loses packets (error rate > 0).
    ``progress`` gets the fraction done about every 0.1 s, and Ctrl-C stops the computation."""
    a, f = ch.success.tolist(), ch.failure.tolist()
    if variant in ("reno", "newreno"):
        _, transition, rewards = _core.fast_recovery_cycle_model(a, f, variant == "newreno", wmax, dupthresh, rto,
                                                                 progress)
    else:
        _, transition, rewards = _core.tahoe_cycle_model(a, f, wmax, dupthresh if variant == "tahoe" else None, rto,
                                                         progress)
    return CycleModel(transition, {name: np.ascontiguousarray(rewards[:, i]) for i, name in enumerate(REWARDS)})
