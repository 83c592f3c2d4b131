"""The interface shared by every slot-clocked channel."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _core
from .. import _validate as v


class SlotChannel:
    """A packet-error channel that moves one step per packet slot (decision D1 of docs/models.md).

    Subclasses describe themselves with ``_spec()``, a dict the Rust core turns into the model;
    the core validates it, so constructing a channel in Python fails early with the same message
    a simulation would give.
    """

    def _spec(self) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def link_spec(self, rate: float, clock: str = "time") -> dict[str, Any]:
        """What the event-driven drivers (link, transfer, emulator) build this channel from
        (``channel/clocked.rs``): a slot channel takes one step per packet sent; the fading channels override this
        to evolve in real time. ``rate`` is the packets per second whose packet time T = 1/rate makes fD·T a
        Doppler frequency, ``clock`` "time" (real time) or "packets" (one step per packet)."""
        return {"kind": "per-packet", "slot": self._spec()}

    def _check(self) -> None:
        """Validate by building the core model (zero slots)."""
        _core.slot_trace(self._spec(), 0, 0)

    def _slot_cost(self) -> float:
        """Channel steps one slot costs (fading samples for the bit-level model), for :func:`_validate.work`."""
        return 1.0

    @v.checked(slots=v.Integer(0), seed=v.SEED, states=v.Flag())
    def trace(self, slots: int, *, seed: int, states: bool = False):
        """Simulate ``slots`` slots.

        Returns a ``uint8`` array with 1 where a packet sent in that slot is lost; with
        ``states=True`` a pair ``(losses, states)``, states being 0 (good) / 1 (bad) per slot
        (for models without states, the loss itself).
        """
        v.memory("slots", slots, slots * (2 if states else 1), f"a trace of {slots} slots")
        v.work("slots", slots, slots * self._slot_cost(), "channel steps", f"a trace of {slots} slots")
        losses, st = _core.slot_trace(self._spec(), slots, seed, states)
        return (losses, st) if states else losses

    @property
    def transmit_energy(self) -> float | None:
        """Energy of one transmission implied by the channel (decision D5 of docs/models.md): the fading margin F for
        channels made from fading, the average SNR for the bit-level model; None otherwise."""
        return None

    def describe(self) -> dict[str, Any]:
        """The channel's parameters and derived figures as a plain dict."""
        return {k: val for k, val in self._spec().items() if not isinstance(val, np.ndarray)}
