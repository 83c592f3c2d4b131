"""TCP over packet-error channels: OldTahoe, Tahoe, Reno, NewReno and TCP-Probing, slot by slot
(:func:`simulate`), over a link with a buffer (:func:`simulate_link`) and as finite transfers from SYN to the
last ACK (:func:`simulate_transfer`).

The endpoints are the Rust core's sans-IO sender and receiver (docs/models.md, "TCP"); this
package runs them and turns counts into the papers' metrics.
"""

from .link import LinkResult, simulate_link
from .slotted import VARIANTS, SimulationResult, simulate
from .transfer import TransferResult, simulate_transfer, simulate_transfers

__all__ = ["VARIANTS", "SimulationResult", "simulate", "LinkResult", "simulate_link", "TransferResult",
           "simulate_transfer", "simulate_transfers"]
