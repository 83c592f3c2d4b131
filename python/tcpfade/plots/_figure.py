"""Writing figures: one place for the allowed formats and the crash-safe save."""

from __future__ import annotations

import sys
from pathlib import Path

#: Figure formats, chosen by the file suffix.
FORMATS = (".png", ".svg", ".pdf")


def pyplot():
    """matplotlib's pyplot, imported on first use (it costs a quarter of a second, which every command would pay
    otherwise). When nothing has imported pyplot yet the non-interactive Agg backend is chosen, so writing
    files never needs a display or a GUI toolkit (and threads may draw); a notebook's or a script's own backend,
    already in place, is left alone."""
    if "matplotlib.pyplot" not in sys.modules:
        import matplotlib

        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def on_axes(ax):
    """(figure, axes) of axes already checked by :func:`checked_axes`."""
    return ax.figure, ax


def checked_path(path: str | Path) -> Path:
    """The output path, or a ParameterError when its suffix is not one of :data:`FORMATS` or its directory does
    not exist (checked before anything is drawn)."""
    import os

    from .. import _validate as v

    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise v.fail("path", path, "must be a file path (str or pathlib.Path)", kind=v.ParameterTypeError)
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise v.fail("path", str(path), f"the suffix must be one of {', '.join(FORMATS)}")
    why = v.unwritable(out)
    if why:
        raise v.fail("path", str(path), why)
    return out


def checked_table(name: str, table, columns: tuple[str, ...], finite: tuple[str, ...] = ()):
    """``table`` when it is a DataFrame with rows and every one of ``columns``; else a ParameterError naming
    ``name`` and what is missing (a plot refuses before it draws); the ``finite`` columns, those that set an axis'
    limits, must hold finite numbers."""
    from .. import _validate as v

    if not hasattr(table, "columns") or not hasattr(table, "iloc"):
        raise v.fail(name, table, "must be a pandas DataFrame", kind=v.ParameterTypeError)
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise v.fail(name, f"a table with columns {list(table.columns)[:8]}",
                     f"needs the columns {', '.join(columns)} (missing: {', '.join(missing)})")
    if len(table) == 0:
        raise v.fail(name, "an empty table", "must have at least one row")
    import numpy as np

    for c in finite:   # axes cannot be scaled to NaN or ±inf (matplotlib's ValueError, found by the fuzzer)
        try:
            values = np.asarray(table[c], dtype=float)
        except (TypeError, ValueError):
            raise v.fail(name, f"a table whose column {c!r} holds {table[c].dtype} values",
                         "must hold numbers in the columns it plots") from None
        if values.dtype.kind in "fc" and not np.isfinite(values).all():
            raise v.fail(name, f"a table whose column {c!r} holds NaN or infinite values",
                         "must hold finite numbers in the columns it plots")
    return table


def checked_axes(ax, count: int):
    """``count`` matplotlib axes as given (one Axes, or a sequence of ``count``), or a ParameterTypeError."""
    from .. import _validate as v

    axes = [ax] if count == 1 and hasattr(ax, "figure") else ax
    try:
        axes = list(axes)
    except TypeError:
        axes = None
    if axes is None or len(axes) != count or not all(hasattr(a, "figure") for a in axes):
        raise v.fail("ax", ax, f"must be {'one matplotlib Axes' if count == 1 else f'{count} matplotlib Axes'}",
                     kind=v.ParameterTypeError)
    return axes[0] if count == 1 else axes


#: How figures are written: PNG at 300 dpi; SVG and PDF as vectors whose text stays text (searchable, editable,
#: in the document's font), not outlines.
SAVE_STYLE = {"savefig.dpi": 300, "svg.fonttype": "none", "pdf.fonttype": 42}

#: One publication style for every figure tcpfade draws: type sizes that stay legible when a 7-inch figure goes
#: into one column of a two-column paper, light grids, legends without frames.
STYLE = {"font.size": 9, "axes.titlesize": 9, "axes.labelsize": 9, "legend.fontsize": 8, "xtick.labelsize": 8,
         "ytick.labelsize": 8, "lines.linewidth": 1.3, "lines.markersize": 4, "grid.alpha": 0.3,
         "legend.frameon": False, "figure.dpi": 100}


def style():
    """A context in which figures are made and drawn in :data:`STYLE`."""
    import matplotlib

    return matplotlib.rc_context(STYLE)


def new_figure(figsize=(6.0, 4.2), **subplots):
    """A figure (and its axes, ``subplots`` as for ``Figure.subplots``) made without pyplot: nothing global is
    touched, no GUI backend is needed, a notebook shows it once (the returned figure), and threads may draw."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize)
    return fig, fig.subplots(**subplots)


def finish(fig, path: str | Path | None):
    """Lay ``fig`` out, save it to ``path`` when given (PNG, SVG or PDF by suffix), and return it."""
    if path is not None:
        out = checked_path(path)
        save(fig, out, close=False)
    return fig


def save(fig, out: Path, *, close: bool = True) -> Path:
    """Save ``fig`` to a temporary name and rename it, so a crash never leaves half a file; close it unless
    ``close`` is False (to save it again in another format)."""
    import matplotlib

    from .._io import write_file

    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    def write(target: Path) -> None:
        # After tight_layout() a figure keeps a placeholder engine, and savefig draws the whole figure once more before
        # each format only to run it: set aside while saving (and put back: the figure may be the caller's), the files
        # are the same (measured: the PNG byte for byte, the SVG but for its random ids) and a figure saved in three
        # formats is drawn three times, not six.
        engine = fig.get_layout_engine()
        placeholder = isinstance(engine, PlaceHolderLayoutEngine)
        if placeholder:
            fig.set_layout_engine(None)
        try:
            with matplotlib.rc_context(SAVE_STYLE):
                fig.savefig(target, format=out.suffix.lstrip(".").lower())
        finally:
            if placeholder:
                fig.set_layout_engine(engine)

    try:
        return write_file(out, write, parameter="path", temporary_suffix=out.suffix)
    finally:
        if close and "matplotlib.pyplot" in sys.modules:
            pyplot().close(fig)   # a pyplot figure would stay in pyplot's list; one made by new_figure is not in it
