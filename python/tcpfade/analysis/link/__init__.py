"""The abouzeid-Roy-Azizoglu analysis of TCP Reno over a fading link with a buffer (abouzeid §IV).

The channel alternates between good and bad states of exponential durations (E[X] = 1/λ0, E[Y] = 1/λ1)
independently of TCP. A *sampled* good state starts when TCP first gets a packet through after a bad state;
W_n is the window then, W'_n the window when the good state ends. Under the paper's approximations 1-5
(§IV-B: one bad visit per round, the bad visit's origin uniform over the round, a linear increase from W = 1
after a timeout, ...) these form embedded Markov chains, and Markov renewal-reward theory gives the goodput.

During a sampled good state the window follows Lakshman and Madhow's deterministic evolution (Tables I-II): from
w up to w_p = B + μT (linear in time while below μT, "phase A"; as the link's busy time above it, "phase B"),
then buffer overflow, halving and typical cycles from w_p/2 to w_p. With V ~ Exp(λ0) the rest of the good state:

- E[N | W_n = w] (eqs. 4-6): Σ over packets of P(V > the packet's time), the typical cycles summed as a
  geometric series;
- P[W'_n = w' | W_n = w] (§IV-E): P(V falls while the window is w');
- the outcome of the bad visit at window w' (eqs. 7-9): no loss (NL), triple duplicate (TD, the window halves)
  or timeout (TO, the window restarts at 1), which gives the next W (eqs. 10-11);
- the effective bad duration (eqs. 12-16): E[Y | NL] and E[Y | TD], and for a timeout Z, the time until a
  retransmission finds the channel good, the timer doubling up to 64 times (eq. 13 for the chance that the
  channel has become good after δ);
- the goodput ρ = E[N] / (E[V] + E[U]) / μ (eq. 19).

Two readings of §IV (``reading=``):

- ``"paper"``: the equations as printed, with eq. (2)'s timer Δ(w') = max(w', μT)/μ, fresh at every visit.
- ``"refined"`` (default): the same chains with the timer TCP actually runs and the buffer's delay, three
  changes that the simulator showed to be needed (docs/models.md, "The abouzeid analysis"):
  1. Δ(w') = R(w') + max(G, 4·D): RFC 6298's SRTT + 4·RTTVAR with the RTT R(w') = max(T, w'/μ) and D the
     mean absolute deviation of the RTT samples, one a round, over the windows' stationary law; the first
     timeout comes τ after the visit begins (the last ACK restarts the timer), after a channel known to be
     bad until the TD would have been triggered.
  2. Karn's rule: a backoff persists until a segment sent once is acknowledged, so a good state that starts
     after a timeout carries the backoff until go-back-N has resent the outstanding segments and sent a new
     one; the chain's state carries (backoff, outstanding) for those states.
  3. Packets are counted when the link sends them, not when TCP does: those queued at the bad visit's start
     are lost while the channel is bad and delivered after it.

With ``recovery="rounds"`` (refined only) a TD is followed by the variant's own recovery of the L packets the
visit destroyed (L's law from the visit's length), round by round: NewReno's L rounds, Reno's second halving or
its stall until the timer. Eq. (10) halves once and goes on, which overestimates Reno by up to 30% where visits
cost several packets of a window (abouzeid Fig. 6's links).

docs/models.md records the choices the paper leaves to [22]: integer windows, the halving to ⌊w/2⌋, Γ's
density in eqs. (7)-(8), and Z's law with the correct interval at each retransmission (eq. (15) as printed
reuses P_Δ).

Modules, one way (each imports only those above it): :mod:`.climb` (the good state's climb, eqs. (4)-(6)),
:mod:`.visits` (a bad visit's outcome and cost, eqs. (7)-(16)), :mod:`.persistence` (Karn's rule),
:mod:`.recovery` (the recovery rounds), :mod:`.chain` (the expanded chain and its solve) and :mod:`.analyze`
(:func:`analyze_link` and :class:`LinkAnalysis`).
"""

from .analyze import (LINK_ANALYSIS, MAX_BACKOFF, READINGS, RECOVERIES, RULES, LinkAnalysis, analyze_link,
                      link_analysis_arguments)
from .chain import LinkChain

__all__ = ["analyze_link", "link_analysis_arguments", "LinkAnalysis", "LinkChain", "READINGS", "RECOVERIES",
           "MAX_BACKOFF", "RULES"]
