"""Publication plots (matplotlib, Agg backend: PNG, SVG or PDF by the file suffix)."""

from ._figure import FORMATS
from .channels import plot_error_vs_snr
from .tcp import plot_slot_trace

__all__ = ["FORMATS", "plot_error_vs_snr", "plot_slot_trace"]
