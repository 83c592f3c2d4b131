"""What every result record of tcpfade shares: a flat ``to_dict()`` (one row of a table), ``to_frame()`` (that row,
or one row per item for records of many users or points), a short ``repr`` and an HTML table for notebooks.

One naming convention across the package: a metric ``m`` is a column ``m``; its interval is ``m_low`` and
``m_high`` (a simulation's confidence interval at its stated confidence, or an analysis's pessimistic and
optimistic bounds ordered by value), whatever the model, in results, sweeps' exports and the command line's
``--json`` and ``--csv``.
"""

from __future__ import annotations

import dataclasses
import html
import math
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import pandas as pd


def interval_columns(name: str, interval: tuple[float, float]) -> dict[str, float]:
    """``{name}_low`` and ``{name}_high`` of an interval or a pair of bounds (ordered by value; NaN stays)."""
    a, b = float(interval[0]), float(interval[1])
    if not (math.isnan(a) or math.isnan(b)) and a > b:
        a, b = b, a
    return {f"{name}_low": a, f"{name}_high": b}


def _short(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def channel_columns(described: dict[str, Any] | None) -> dict[str, Any]:
    """A run's channel as columns: ``channel_kind`` (``"none"`` for a run without channel losses) and
    ``channel_<parameter>`` for each scalar of the channel's ``describe()``; the same in every result."""
    if described is None:
        return {"channel_kind": "none"}
    return {f"channel_{k}": val for k, val in described.items() if isinstance(val, (int, float, str, bool))}


def channel_text(described: dict[str, Any] | None) -> str:
    """A run's channel for a human table, from the result's own ``channel`` (the channel's ``describe()``): its kind
    and every parameter, or that the run had no channel losses."""
    if described is None:
        return "none (no channel losses)"
    rest = ", ".join(f"{k}={_short(x)}" for k, x in described.items() if k != "kind")
    return f"{described.get('kind', '?')}({rest})"


def reasons_in_notes(notes: Any, column: str) -> list[str]:
    """The reasons that rows' ``notes`` (one text or an iterable of them, as :meth:`Record.to_dict` writes them:
    ``"a, b: why; c: why"``) give for ``column``, each once, sorted."""
    texts = [notes] if isinstance(notes, str) else list(notes)
    return sorted({part.split(": ", 1)[1] for text in texts if isinstance(text, str) and text
                   for part in text.split("; ") if ": " in part and column in part.split(": ", 1)[0].split(", ")})


class Record:
    """Mixin of the result dataclasses (declared with ``repr=False``, so that this ``repr`` is theirs).

    A subclass names in ``_headline`` the fields its short repr shows (its key parameters and metrics), in
    ``_undefined`` why each of its metrics can be NaN or infinite in a run, and may override :meth:`_row` (the
    default: every scalar field, and a ``channel`` field, the channel's ``describe()`` or None, as
    :func:`channel_columns`) and :meth:`to_frame`."""

    _headline: tuple[str, ...] = ()
    #: Why a metric can be NaN (undefined) or infinite in a run: metric -> reason, or -> (reason when NaN, reason
    #: when infinite). An interval's own ``note`` (in a ``ci`` dict) serves where the record has one. A record of
    #: measured metrics declares it (empty if none can be) and its rows always have ``notes``; one without (a
    #: sweep's report, a figure's summary) has the column only when a value is not finite.
    _undefined: ClassVar[dict[str, str | tuple[str, str]] | None] = None

    def _row(self) -> dict[str, Any]:
        names = {f.name for f in dataclasses.fields(self)}
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name != "channel" and isinstance(getattr(self, f.name), (int, float, str, bool, type(None)))}
        if "channel" in names:
            out.update(channel_columns(self.channel))   # type: ignore[attr-defined]
        return out

    def to_dict(self) -> dict[str, Any]:
        """The record as a flat dict (one row of a table): its parameters, metrics with their intervals
        (``<metric>_low``, ``<metric>_high``) and the channel's columns, then ``notes``: why each metric that is
        NaN or infinite in this run is so (empty when none is; a record without metrics, such as a sweep's report,
        has it only when one is), so that a table never holds an unexplained NaN.
        NaN stays the value of an undefined metric (pandas' missing value: a mean over runs skips it); ``--json``
        prints it as null and a CSV as an empty cell."""
        row = self._row()
        notes = self._notes(row)
        if notes or self._undefined is not None:
            row["notes"] = notes
        return row

    def why(self, metric: str, value: float) -> str:
        """Why ``metric`` is ``value`` (NaN or infinite) in this record: the reason its class declares, else its
        interval's note, else a general one. ``metric`` must name a column of :meth:`to_dict` (or a metric whose
        interval is one) and ``value`` be NaN or infinite."""
        from . import _validate as v

        row = self._row()
        if not isinstance(metric, str) or not (metric in row or f"{metric}_low" in row):
            raise v.fail("metric", metric, f"must name a column of this {type(self).__name__}'s to_dict()",
                         kind=v.ParameterTypeError if not isinstance(metric, str) else v.ParameterError)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isfinite(value):
            raise v.fail("value", value, "must be NaN or infinite: a finite value needs no reason",
                         kind=v.ParameterTypeError if not isinstance(value, (int, float)) else v.ParameterError)
        return self._reason(metric, float(value))

    def _reason(self, metric: str, value: float) -> str:
        why = (self._undefined or {}).get(metric)
        if isinstance(why, tuple):
            why = why[math.isinf(value)]
        intervals = getattr(self, "ci", None)
        note = getattr(intervals.get(metric), "note", None) if isinstance(intervals, dict) else None
        if why is None and note:
            why = note
        if why is None and metric.startswith("channel_"):
            why = "infinite in the channel's description (a state the channel never leaves)"
        return why or ("infinite in this run" if math.isinf(value)
                       else "undefined: nothing it is conditioned on happened in this run")

    def _notes(self, row: dict[str, Any]) -> str:
        said: dict[str, str] = {}
        for key, value in row.items():
            if not isinstance(value, float) or math.isfinite(value):
                continue
            base = key.rsplit("_", 1)[0]
            metric = base if f"{base}_low" in row and f"{base}_high" in row else key   # an interval's end: its metric
            if metric not in said:
                said[metric] = self._reason(metric, value)
        grouped: dict[str, list[str]] = {}
        for metric, why in said.items():
            grouped.setdefault(why, []).append(metric)
        return "; ".join(f"{', '.join(metrics)}: {why}" for why, metrics in grouped.items())

    def to_frame(self) -> pd.DataFrame:
        """:meth:`to_dict` as a one-row DataFrame."""
        import pandas as pd

        return pd.DataFrame([self.to_dict()])

    def _headline_items(self) -> list[tuple[str, str]]:
        row = self.to_dict()
        names = self._headline or tuple(row)[:6]
        items = []
        for name in names:
            bracket = (f"[{_short(row[f'{name}_low'])}, {_short(row[f'{name}_high'])}]"
                       if f"{name}_low" in row and f"{name}_high" in row else "")
            if name in row:
                text = (_short(row[name]) + " " + bracket).rstrip()
            else:                       # an analysis's metric: its bounds are the value
                text = bracket or _short(getattr(self, name, None))
            items.append((name, text))
        return items

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{k}={v}" for k, v in self._headline_items()) + ")"

    def _repr_html_(self) -> str:
        """A two-column table: the headline first, then every other column of :meth:`to_dict`."""
        row = self.to_dict()
        head = self._headline_items()
        shown = {k for k, _ in head} | {f"{k}_{s}" for k, _ in head for s in ("low", "high")}
        rest = [(k, _short(v)) for k, v in row.items() if k not in shown]
        cells = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                        for k, v in head)
        more = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                       for k, v in rest)
        details = (f"<details><summary>{len(rest)} more</summary><table>{more}</table></details>" if rest else "")
        return (f"<div><b>{html.escape(type(self).__name__)}</b> "
                "<span style='color:#666'>(brackets: a simulation's interval at its confidence, 95% unless set; "
                "an analysis's pessimistic and optimistic bounds, ordered by value)</span>"
                f"<table>{cells}</table>{details}</div>")
