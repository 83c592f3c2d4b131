"""The two-state Markov channel as the analysis sees it: one-slot success and failure matrices.

zorzi-rao eq. (1) writes the channel as a transition matrix M_c over {B, G}, with B a failure and
G a success. We allow each state its own loss probability (``GilbertElliott.loss_good`` /
``loss_bad``; a Bernoulli channel is the chain that never leaves G), so a slot's outcome does not
name the state. Every path probability of §4 is then a product of two 2 × 2 matrices,

    A[s, s'] = M[s, s'] (1 - loss[s'])     (move to s' and succeed there),
    F[s, s'] = M[s, s'] loss[s']            (move to s' and fail there),

with A + F = M. With the papers' losses (0 in G, 1 in B) A and F are M with the B or G column
zeroed, and e_s A^(n-2) ... reproduces α_C(n) of eq. (7) and the φ probabilities of §4.2.1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from ..channels.markov import Bernoulli, GilbertElliott



@dataclass(frozen=True)
class SlotMatrices:
    """M (channel step), A (step then success), F (step then failure); states 0 = G, 1 = B."""

    step: np.ndarray
    success: np.ndarray
    failure: np.ndarray
    #: Stationary probability that a slot fails (the channel's own ``error_rate``).
    error_rate: float

    @classmethod
    def from_channel(cls, channel: object) -> SlotMatrices:
        """The matrices of a :class:`GilbertElliott` or :class:`Bernoulli` channel."""
        if isinstance(channel, Bernoulli):
            p, q, loss = 1.0, 0.0, np.array([channel.error_rate, 1.0])
        elif isinstance(channel, GilbertElliott):
            p, q, loss = channel.p, channel.q, np.array([channel.loss_good, channel.loss_bad])
        else:
            raise v.fail("channel", type(channel).__name__,
                         "must be a two-state Markov channel (GilbertElliott or Bernoulli) for the analysis; "
                         "fit one to other channels with tcpfade.fit_markov(channel.trace(...))")
        step = np.array([[p, 1.0 - p], [1.0 - q, q]])
        return cls(step=step, success=step * (1.0 - loss)[None, :], failure=step * loss[None, :],
                   error_rate=float(channel.error_rate))
