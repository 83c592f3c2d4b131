"""TCP over packet-error channels: simulation (and, later, analysis) of OldTahoe, Tahoe, Reno, NewReno.

The endpoints are the Rust core's sans-IO sender and receiver (docs/models.md, "TCP"); this
package runs them and turns counts into the papers' metrics.
"""

from .link import LinkResult, simulate_link
from .slotted import VARIANTS, SimulationResult, simulate

__all__ = ["VARIANTS", "SimulationResult", "simulate", "LinkResult", "simulate_link"]
