"""Publication plots (matplotlib, Agg backend: PNG, SVG or PDF by the file suffix)."""

from .channels import plot_error_vs_snr

__all__ = ["plot_error_vs_snr"]
