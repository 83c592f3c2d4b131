"""Independent and two-state Markov (Gilbert-Elliott) packet-error channels."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .. import _validate as v
from .base import SlotChannel
from .fading import (
    ERROR_RATE,
    FADING_MARGIN,
    FADING_MARGIN_DB,
    FDT,
    error_rate_from_fading_margin,
    markov_from_fading,
    resolve_fading_margin,
)


@v.checked_fields(error_rate=v.PROBABILITY)
@dataclass(frozen=True)
class Bernoulli(SlotChannel):
    """Independent packet losses: each slot is lost with probability ``error_rate``.

    Parameters
    ----------
    error_rate : the loss probability of every slot, in [0, 1].

    Raises
    ------
    ParameterError
        an error rate outside [0, 1] or not a number.

    Examples
    --------
    >>> ch = tcpfade.Bernoulli(0.1)
    >>> round(float(ch.trace(100_000, seed=1).mean()), 2)
    0.1
    """

    error_rate: float

    def __post_init__(self) -> None:
        self._check()

    @property
    def mean_burst(self) -> float:
        """Mean length of a run of losses, 1 / (1 - ε)."""
        return math.inf if self.error_rate == 1 else 1.0 / (1.0 - self.error_rate)

    def _spec(self) -> dict[str, Any]:
        return {"kind": "bernoulli", "error_rate": float(self.error_rate)}

    def describe(self) -> dict[str, Any]:
        return {"kind": "bernoulli", "error_rate": self.error_rate, "mean_burst": self.mean_burst}


@v.checked_fields(p=v.PROBABILITY, q=v.PROBABILITY, loss_good=v.PROBABILITY, loss_bad=v.PROBABILITY,
                  fading_margin=v.Optional(FADING_MARGIN), fdt=v.Optional(FDT))
@dataclass(frozen=True)
class GilbertElliott(SlotChannel):
    """Two-state Markov packet-error channel (chockalingam eq. (1)).

    ``p`` = P(good -> good), ``q`` = P(bad -> bad); a packet is lost with probability
    ``loss_good`` in the good state and ``loss_bad`` in the bad state (0 and 1 by default, the
    papers' model). ``fading_margin`` and ``fdt`` are recorded when the chain was made from
    Rayleigh fading (:meth:`from_fading`), and are ``None`` otherwise.

    Parameters
    ----------
    p, q : P(good → good) and P(bad → bad), in [0, 1] (not both 1).
    loss_good, loss_bad : the loss probability in each state.
    fading_margin, fdt : recorded when the chain comes from fading (set by :meth:`from_fading`).

    Raises
    ------
    ParameterError
        a probability outside [0, 1], p = q = 1 (no stationary law).

    Examples
    --------
    >>> ch = GilbertElliott.from_fading(error_rate=0.1, fdt=0.01)
    >>> round(ch.q, 4), round(ch.mean_burst, 2), round(ch.fading_margin_db, 3)
    (0.9269, 13.67, 9.773)
    """

    p: float
    q: float
    loss_good: float = 0.0
    loss_bad: float = 1.0
    fading_margin: float | None = field(default=None, compare=False)
    fdt: float | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        self._check()

    # -- constructors -------------------------------------------------------------------------
    @classmethod
    @v.checked()
    def from_transitions(cls, p: float, q: float, *, loss_good: float = 0.0, loss_bad: float = 1.0) -> GilbertElliott:
        """Chain from its transition probabilities p = P(good->good), q = P(bad->bad)."""
        return cls(p=p, q=q, loss_good=loss_good, loss_bad=loss_bad)

    @classmethod
    @v.checked(error_rate=ERROR_RATE, mean_burst=v.Real(1.0))
    def from_burst(cls, error_rate: float, mean_burst: float) -> GilbertElliott:
        """Chain with stationary error rate ε and mean error-burst length B (slots).

        q = 1 - 1/B and, from chockalingam eq. (2), p = 1 - ε (1 - q) / (1 - ε).
        """
        eps, burst = error_rate, mean_burst
        q = 1.0 - 1.0 / burst
        if isinstance(burst, (int, float)) and not isinstance(burst, bool) and burst > 1.0 and not q < 1.0:
            raise v.fail("mean_burst", mean_burst, "is too long: q = 1 − 1/B rounds to 1 in double precision (an "
                                                   "endless burst); give at most 1e15")
        p_gb = eps * (1.0 - q) / (1.0 - eps)
        if p_gb > 1.0:
            raise v.fail(
                "mean_burst",
                mean_burst,
                f"must be >= error_rate / (1 - error_rate) = {eps / (1 - eps):.6g} for error_rate = {eps:g} "
                "(shorter bursts would need good runs shorter than one slot)",
            )
        return cls(p=1.0 - p_gb, q=q)

    @classmethod
    @v.checked(fdt=FDT, error_rate=v.Optional(ERROR_RATE), fading_margin_db=v.Optional(FADING_MARGIN_DB),
               fading_margin=v.Optional(FADING_MARGIN))
    def from_fading(
        cls,
        *,
        fdt: float,
        error_rate: float | None = None,
        fading_margin_db: float | None = None,
        fading_margin: float | None = None,
    ) -> GilbertElliott:
        """Chain of a Rayleigh fading channel, zorzi-rao eqs. (2)-(5).

        Give the normalized Doppler ``fdt`` = fD·T and exactly one of ``error_rate`` (ε, which sets
        F by eq. (2)), ``fading_margin_db`` or ``fading_margin`` (linear).
        """
        f = resolve_fading_margin(error_rate, fading_margin_db, fading_margin)
        p, q = markov_from_fading(f, fdt)
        return cls(p=p, q=q, fading_margin=f, fdt=float(fdt))

    # -- derived figures ----------------------------------------------------------------------
    @property
    def p_gb(self) -> float:
        """P(good -> bad) = 1 - p."""
        return 1.0 - self.p

    @property
    def p_bg(self) -> float:
        """P(bad -> good) = 1 - q."""
        return 1.0 - self.q

    @property
    def bad_probability(self) -> float:
        """Stationary probability of the bad state, (1 - p) / (2 - p - q) (chockalingam eq. (2))."""
        denominator = 2.0 - self.p - self.q
        return (1.0 - self.p) / denominator if denominator > 0 else 0.0

    @property
    def error_rate(self) -> float:
        """Stationary packet error rate: π_G loss_good + π_B loss_bad (eq. (2) for the defaults)."""
        pb = self.bad_probability
        rate = (1.0 - pb) * self.loss_good + pb * self.loss_bad
        # a convex combination of the two losses: keep it between them when rounding steps outside (1 + 2^-52)
        return min(max(rate, min(self.loss_good, self.loss_bad)), max(self.loss_good, self.loss_bad))

    @property
    def mean_burst(self) -> float:
        """Mean stay in the bad state, 1 / (1 - q): the mean error burst for the default losses."""
        return math.inf if self.q == 1 else 1.0 / (1.0 - self.q)

    @property
    def transmit_energy(self) -> float | None:
        """F (linear) when the chain came from fading (decision D5 of docs/models.md), else None."""
        return self.fading_margin

    @property
    def fading_margin_db(self) -> float | None:
        """Fading margin F in dB, when the chain came from fading."""
        return None if self.fading_margin is None else v.linear_to_db(self.fading_margin)

    @property
    def fading_error_rate(self) -> float | None:
        """1 - exp(-1/F), eq. (2), when the chain came from fading (equals ``error_rate``)."""
        return None if self.fading_margin is None else error_rate_from_fading_margin(self.fading_margin)

    def _spec(self) -> dict[str, Any]:
        return {
            "kind": "gilbert-elliott",
            "p": float(self.p),
            "q": float(self.q),
            "loss_good": float(self.loss_good),
            "loss_bad": float(self.loss_bad),
        }

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": "gilbert-elliott",
            "p": self.p,
            "q": self.q,
            "p_gb": self.p_gb,
            "p_bg": self.p_bg,
            "loss_good": self.loss_good,
            "loss_bad": self.loss_bad,
            "error_rate": self.error_rate,
            "mean_burst": self.mean_burst,
        }
        if self.fading_margin is not None:
            out.update(fdt=self.fdt, fading_margin=self.fading_margin, fading_margin_db=self.fading_margin_db)
        return out
