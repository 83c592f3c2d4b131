"""The plot functions as a notebook uses them: into the caller's axes or a new figure, returned, written only when
asked, in one style, without touching pyplot's global state."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import tcpfade
from tcpfade.plots import plot_error_vs_snr, plot_slot_trace
from tcpfade.plots.sweep import plot_results


def _table():
    return pd.DataFrame({"fdt": [0.01] * 3 + [0.1] * 3, "snr_db": [10.0, 15.0, 20.0] * 2,
                         "error_rate": [0.3, 0.1, 0.03, 0.2, 0.05, 0.01],
                         "error_rate_low": [0.25, 0.08, 0.02, 0.15, 0.04, 0.008],
                         "error_rate_high": [0.35, 0.12, 0.04, 0.25, 0.06, 0.012]})


def test_plots_return_a_figure_draw_into_given_axes_and_write_only_when_asked(tmp_path):
    from matplotlib.figure import Figure

    fig = plot_error_vs_snr(_table())
    assert isinstance(fig, Figure) and len(fig.axes) == 1 and len(fig.axes[0].get_lines()) == 2
    assert not list(tmp_path.iterdir())
    # Into the caller's axes: the caller's figure comes back, with our curves on its axes.
    host = Figure(figsize=(8, 3))
    left, right = host.subplots(1, 2)
    assert plot_error_vs_snr(_table(), ax=right) is host and len(right.get_lines()) == 2 and not left.get_lines()
    runs = tcpfade.runs(tcpfade.simulate, variant=["tahoe", "newreno"],
                        channel=tcpfade.GilbertElliott.from_fading(error_rate=0.05, fdt=0.01), wmax=[6, 24],
                        slots=50_000, seeds=2)
    assert plot_results(runs, x="wmax", y="throughput", group=["variant"], ax=left) is host
    assert len(left.get_lines()) == 2
    out = tmp_path / "both.pdf"
    fig = plot_results(runs, out, x="wmax", y="throughput", group=["variant"])
    assert out.read_bytes()[:5] == b"%PDF-" and fig.axes[0].get_xlabel() == "wmax"
    r = tcpfade.simulate("tahoe", tcpfade.GilbertElliott.from_fading(error_rate=0.1, fdt=0.05), wmax=6,
                         slots=5_000, seed=3, trace_slots=60)
    top, bottom = host.subplots(2, 1)
    assert plot_slot_trace(r.trace, ax=(top, bottom)) is host and bottom.get_lines()


def test_saving_draws_once_a_format_and_leaves_the_callers_figure_as_it_was(tmp_path, monkeypatch):
    """A figure laid out by tight_layout() keeps a placeholder engine that made savefig draw it twice a format; saving
    sets it aside (one draw a format) and puts it back on the caller's figure."""
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    host = Figure()
    ax = host.subplots()
    host.tight_layout()
    draws = []
    original = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: (draws.append(1), original(self, renderer))[1])
    for suffix in ("png", "svg", "pdf"):
        assert plot_error_vs_snr(_table(), tmp_path / f"t.{suffix}", ax=ax) is host
    # A placeholder still (the plot's own tight_layout() makes a new one): not None, which would change what the
    # caller's next subplots_adjust() does.
    assert len(draws) == 3 and isinstance(host.get_layout_engine(), PlaceHolderLayoutEngine)


def test_the_publication_style_is_applied_and_pyplot_is_not_used():
    fig = plot_error_vs_snr(_table())
    ax = fig.axes[0]
    assert ax.xaxis.label.get_fontsize() == 9 and ax.title.get_fontsize() == 9
    assert ax.get_legend().get_frame_on() is False
    # pyplot keeps the figures it makes until closed; ours are never among them.
    import matplotlib.pyplot as plt

    assert all(plt.figure(n) is not fig for n in plt.get_fignums())


def test_bad_output_suffix_is_refused():
    with pytest.raises(tcpfade.ParameterError, match="suffix must be one of"):
        plot_error_vs_snr(_table(), "figure.jpg")
