"""Publication plots (matplotlib; PNG, SVG or PDF by the file suffix; the Agg backend unless a backend is already
in use)."""

from ._figure import FORMATS
from .channels import plot_error_vs_snr
from .tcp import plot_slot_trace, plot_window_trace

__all__ = ["FORMATS", "plot_error_vs_snr", "plot_slot_trace", "plot_window_trace"]
