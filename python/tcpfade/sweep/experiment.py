"""Experiment files: a sweep described in TOML and checked, every point of it, before anything runs.

An experiment file has up to four tables::

    [sweep]
    name = "reno-vs-tahoe"     # default: the file's name without .toml
    model = "simulate"         # "simulate" or "analyze"
    seed = 2026                # master seed (default 1); each point's seed derives from it
    replications = 3           # independent runs per point (simulate only; default 1)
    combine = "grid"           # "grid": every combination of the axes; "zip": the i-th value of each

    [fixed]                    # parameters every point shares
    wmax = 24
    fdt = 0.016                # channel = "fading" (the default) takes fdt and error_rate or fading_margin_db
    slots = 1_000_000

    [axes]                     # parameters that vary: a non-empty list each
    variant = ["tahoe", "reno"]
    error_rate = [0.01, 0.03, 0.1]

    [output]
    store = "results.sqlite"   # default: <name>.sqlite beside the file

A parameter is either fixed or an axis, never both. The parameters are those of :func:`tcpfade.simulate` or
:func:`tcpfade.analyze` (see :mod:`tcpfade.sweep.models`) plus the channel's. Every error names the file,
the line and the field, and nothing runs or is written until the whole file is right.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import json
import re
import sys
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import _validate as v
from ..errors import ParameterError, TcpfadeError
from . import models
from .store import ROW_COLUMNS, store_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


class ExperimentError(TcpfadeError, ValueError):
    """An experiment file is malformed: the message starts with ``file:line:`` and names the field."""

    def __init__(self, file: str, line: int | None, field: str, message: str) -> None:
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {field}: {message}")
        self.file, self.line, self.field, self.message = file, line, field, message


SECTIONS = {
    "sweep": {"name": str, "model": str, "seed": int, "replications": int, "combine": str},
    "fixed": None,   # model parameters
    "axes": None,    # lists of model parameters
    "output": {"store": str},
}


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its parameters, replication, derived seed and content address in the store."""

    params: dict[str, Any]
    replication: int
    seed: int
    key: str


class _Building(threading.local):
    """Set while :meth:`Experiment.from_dict` builds the experiment it has checked (per thread)."""
    active = False


_FROM_DICT = _Building()


@v.checked_fields()   # a missing or unknown argument: a ParameterTypeError naming it; the values: __post_init__
@dataclass(frozen=True)
class Experiment:
    """A checked experiment: what to run, where the results go. Build it with :func:`load_experiment` or
    :meth:`from_dict`."""

    name: str
    model: str
    seed: int
    replications: int
    combine: str
    fixed: dict[str, Any]
    axes: dict[str, list[Any]]
    store: Path
    source: str = "<experiment>"

    def __post_init__(self) -> None:
        # Built directly (not by from_dict): the same checks as a file gets, then its normalized values.
        if _FROM_DICT.active:
            return
        if not isinstance(self.source, str):
            raise v.fail("source", self.source, "must be a string (where the experiment comes from)",
                         kind=v.ParameterTypeError)
        sweep = {"name": self.name, "model": self.model, "seed": self.seed, "replications": self.replications,
                 "combine": self.combine}
        store = str(self.store) if isinstance(self.store, (str, Path)) else self.store
        checked = Experiment.from_dict({"sweep": sweep, "fixed": self.fixed, "axes": self.axes,
                                        "output": {"store": store}}, source=self.source)
        for f in ("name", "model", "seed", "replications", "combine", "fixed", "axes", "store"):
            object.__setattr__(self, f, getattr(checked, f))

    @classmethod
    @v.checked(data=v.Instance(dict, "must be a dict of the experiment's tables (parsed TOML)"),
               source=v.Instance(str, "must be a string (where the experiment comes from)"),
               text=v.Instance(str, "must be a string (the experiment's text)"),
               base=v.Optional(v.Instance((str, Path), "must be a directory's path (str or pathlib.Path)")))
    def from_dict(cls, data: dict[str, Any], *, source: str = "<experiment>", text: str = "",
                  base: Path | None = None) -> Experiment:
        """Check ``data`` (the parsed TOML) and build the experiment; ``text`` locates errors by line."""
        loc = _Locator(source, text)
        for section in data:
            if section not in SECTIONS:
                raise loc.error(None, section, f"unknown table [{section}]; allowed: "
                                               + ", ".join(f"[{s}]" for s in SECTIONS))
            if not isinstance(data[section], dict):
                raise loc.error(None, section, f"must be a table [{section}]")
        sweep, output = dict(data.get("sweep", {})), dict(data.get("output", {}))
        for section, table in (("sweep", sweep), ("output", output)):
            for key, value in table.items():
                if key not in SECTIONS[section]:
                    raise loc.error(section, key, "unknown key; allowed: " + ", ".join(SECTIONS[section]))
                # As checked: a whole number written 2.0 is the integer 2 from here on.
                table[key] = _check_type(loc, section, key, value, SECTIONS[section][key])
        if "model" not in sweep:
            raise loc.error("sweep", "model", "missing: model = " + " or ".join(f'"{m}"' for m in models.MODELS))
        model = sweep["model"]
        if model not in models.MODELS:
            raise loc.error("sweep", "model", f"{model!r} is not a model; allowed: " + ", ".join(models.MODELS))
        seed = sweep.get("seed", 1)
        if not 0 <= seed < 2**64:
            raise loc.error("sweep", "seed", f"{seed} is not allowed: must be an integer in [0, 2**64)")
        replications = sweep.get("replications", 1)
        if replications < 1 or (model == "analyze" and replications != 1):
            raise loc.error("sweep", "replications", f"{replications} is not allowed: must be >= 1"
                            + (" and 1 for analyze (the analysis is deterministic)" if model == "analyze" else ""))
        combine = sweep.get("combine", "grid")
        if combine not in ("grid", "zip"):
            raise loc.error("sweep", "combine", f"{combine!r} is not allowed: must be \"grid\" or \"zip\"")
        types = models.parameter_types(model)
        nullable = models.MODEL_OPTIONAL[model]
        choices = models.MODEL_CHOICES[model]
        tables = {section: _renamed(loc, section, dict(data.get(section, {})), models.former_names(model))
                  for section in ("fixed", "axes")}
        fixed = {k: _parameter(loc, "fixed", k, val, types, nullable=nullable, choices=choices)
                 for k, val in tables["fixed"].items()}
        axes: dict[str, list[Any]] = {}
        for key, values in tables["axes"].items():
            if key in fixed:
                raise loc.error("axes", key, "is also in [fixed]: a parameter is fixed or an axis, not both")
            if not isinstance(values, list):
                raise loc.error("axes", key, f"must be a list of values, got {values!r}")
            if not values:
                raise loc.error("axes", key, "is empty: an axis needs at least one value")
            axes[key] = [_parameter(loc, "axes", f"{key}[{i}]", val, types, name=key, nullable=nullable,
                                    choices=choices)
                         for i, val in enumerate(values)]
            if len(set(map(repr, axes[key]))) != len(axes[key]):
                raise loc.error("axes", key, "repeats a value (each point would be run twice)")
        if combine == "zip" and len({len(vals) for vals in axes.values()}) > 1:
            raise loc.error("sweep", "combine", "zip needs axes of equal length; got "
                            + ", ".join(f"{k}: {len(vals)}" for k, vals in axes.items()))
        sizes = [len(vals) for vals in axes.values()]
        points = math.prod(sizes) if combine == "grid" else (sizes[0] if sizes else 1)
        if points * replications > MAX_RUNS:
            # Refused before any point is built or checked: status, run and export would each walk every run.
            raise loc.error("sweep", "replications" if points == 1 else "axes",
                            f"{points:,} point{'s' if points != 1 else ''} × {replications:,} replications = "
                            f"{points * replications:,} runs "
                            f"is more than one experiment holds ({MAX_RUNS:,}): split it into several experiments")
        name = sweep.get("name") or (Path(source).stem if source != "<experiment>" else "experiment")
        store = Path(output.get("store", f"{name}.sqlite"))
        if base is not None and not store.is_absolute():
            store = Path(base) / store
        try:
            store = store_path("store", store)
        except ParameterError as exc:
            raise loc.error("output", "store", str(exc)) from None
        _FROM_DICT.active = True
        try:
            experiment = cls(name=name, model=model, seed=seed, replications=replications, combine=combine,
                             fixed=fixed, axes=axes, store=store, source=source)
        finally:
            _FROM_DICT.active = False
        experiment._check_points(loc)
        return experiment

    def parameter_sets(self) -> list[dict[str, Any]]:
        """The parameters of every point, in order (grid: the last axis varies fastest)."""
        names = list(self.axes)
        rows = itertools.product(*self.axes.values()) if self.combine == "grid" else zip(*self.axes.values())
        return [models.canonical(self.model, {**self.fixed, **dict(zip(names, row))}) for row in rows]

    def points(self) -> list[Point]:
        """Every run: each parameter set × replication, with its seed and store key."""
        identity = models.model_identity(self.model)
        out = []
        for params in self.parameter_sets():
            for r in range(self.replications):
                seed = point_seed(self.seed, self.model, params, r)
                out.append(Point(params=params, replication=r, seed=seed,
                                 key=_digest({"identity": identity, "params": params, "replication": r, "seed": seed})))
        return out

    def _check_points(self, loc: _Locator) -> None:
        """Run each point's own checks (the channel, then the call's arguments) without running it."""
        for params in self.parameter_sets():
            try:
                models.check_point(self.model, params)
            except ParameterError as exc:
                name = getattr(exc, "parameter", None) or str(exc).split(" = ")[0]
                if name in self.axes:
                    section = "axes"
                    detail = f" (at {name} = {params[name]!r})"
                elif name in self.fixed:
                    section, detail = "fixed", ""
                else:
                    section, detail = "fixed", " (not set: its default or its absence)"
                varying = ", ".join(f"{k} = {params[k]!r}" for k in self.axes)
                raise loc.error(section, name, f"{exc}{detail}" + (f"; the point: {varying}" if varying else "")) \
                    from None


def _renamed(loc: _Locator, section: str, table: dict[str, Any], former: dict[str, str]) -> dict[str, Any]:
    """``table`` with parameters given by a former name under their new one, each with a FutureWarning (for one
    release, as the API and the command line); both names at once is an error."""
    for old, new in former.items():
        if old in table:
            if new in table:
                raise loc.error(section, old, f"is the former name of {new}; give {new} only")
            warnings.warn(f"{loc.source}: {section}.{old} is now called {new} (the old name goes in the next "
                          "release)", FutureWarning, stacklevel=4)
            table[new] = table.pop(old)
    return table


@v.checked(master=v.SEED, model=v.Choice(models.MODELS),
           params=v.Instance(dict, "must be a dict of the point's parameters"), replication=v.Integer(0))
def point_seed(master: int, model: str, params: dict[str, Any], replication: int) -> int:
    """A point's seed: from the master seed and the point's identity only, so it is the same whatever the
    number of workers, their order or the backend."""
    return seed_from(master, model, params, replication)


def seed_from(master: int, name: str, params: dict[str, Any], replication: int) -> int:
    """:func:`point_seed` for any callable's ``name`` (``tcpfade.runs`` of a user's function), unchecked: the
    callers have checked the master seed and built ``params``."""
    payload = {"master": master, "model": name, "params": params, "replication": replication}
    try:
        digest = _digest(payload)
    except (TypeError, ValueError):   # a value JSON cannot hold (bytes, an array, NaN is held), or a key not a string
        raise v.fail("params", params, "must hold only numbers, strings, booleans, lists and dicts with string "
                                       "keys (what an experiment file can say)") from None
    return int(digest[:16], 16) >> 1


#: The most runs (points × replications) one experiment holds: its status, run and export each walk them all (about
#: 15 000 a second), so a million is about a minute of bookkeeping before any simulation.
MAX_RUNS = 1_000_000

#: The largest experiment file read (a file of axes and values: a megabyte is thousands of them).
MAX_EXPERIMENT_BYTES = 16 << 20


@v.checked()
def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file (TOML). Relative store paths are relative to the file."""
    path = v.path("path", path)
    if path.exists() and not path.is_file():   # a directory, or a device such as /dev/full that never ends
        raise ExperimentError(str(path), None, "file", "is not a regular file")
    if path.is_file() and path.stat().st_size > MAX_EXPERIMENT_BYTES:
        raise ExperimentError(str(path), None, "file", f"holds {path.stat().st_size} bytes: an experiment file is "
                                                       f"text of at most {MAX_EXPERIMENT_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ExperimentError(str(path), None, "file", f"cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        if exc.object.startswith(b"SQLite format 3\x00"):
            raise ExperimentError(str(path), None, "file", "is a sweep's store (SQLite), not an experiment file: give "
                                                           "the experiment's .toml file, which names its store") from None
        line = exc.object[:exc.start].count(b"\n") + 1
        raise ExperimentError(str(path), line, "file", f"is not UTF-8 text (byte {exc.start}: "
                                                       f"{exc.object[exc.start:exc.start + 1]!r})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise ExperimentError(str(path), int(match.group(1)) if match else None, "syntax",
                              f"not valid TOML: {exc}") from None
    return Experiment.from_dict(data, source=str(path), text=text, base=path.parent)


def _digest(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _check_type(loc: _Locator, section: str, key: str, value: Any, kind: type, name: str | None = None,
                choice: str | None = None) -> Any:
    if kind is int and isinstance(value, float) and math.isfinite(value) and value.is_integer():
        value = int(value)   # a count written 1e6, or 1.0: whole, as the API and the command line take it
    ok = (isinstance(value, int) and not isinstance(value, bool)) if kind is int else \
        (isinstance(value, (int, float)) and not isinstance(value, bool)) if kind is float else isinstance(value, kind)
    if not ok:
        want = {int: "an integer", float: "a number", str: "a string", bool: "true or false"}.get(
            kind, f"a {kind.__name__}")
        names = f": {choice.removeprefix('must be ')}" if choice else ""   # the names a choice takes
        raise loc.error(section, key, f"{value!r} is not allowed: must be {want}{names}", name=name)
    if kind is float:
        try:
            return float(value)
        except OverflowError:   # an integer beyond any float (Python's TOML reader keeps its digits)
            raise loc.error(section, key, f"{value} is not allowed: must be a number within a float's range",
                            name=name) from None
    return value


def _parameter(loc: _Locator, section: str, key: str, value: Any, types: dict[str, type],
               name: str | None = None, nullable: frozenset[str] = frozenset(),
               choices: dict[str, str] | None = None) -> Any:
    name = name or key
    if name in nullable and isinstance(value, str) and value.strip().lower() == "none":
        return None   # TOML has no null: "none" is the parameter's None (a profile's value set aside)
    if name not in types and name in ROW_COLUMNS:
        # The sweep writes these columns itself; a parameter of that name would shadow them in every export.
        raise loc.error(section, name, f"{name!r} is a column every row has (" + ", ".join(ROW_COLUMNS)
                        + "), set by the sweep itself" + ("; the master seed is [sweep] seed" if name == "seed" else "")
                        + "; allowed parameters: " + ", ".join(sorted(types)), name=name)
    if name not in types:
        raise loc.error(section, key, "unknown parameter; allowed: " + ", ".join(sorted(types)), name=name)
    return _check_type(loc, section, key, value, types[name], name=name, choice=(choices or {}).get(name))


class _Locator:
    """Finds the line of ``key`` in ``[section]`` of the file's text (tomllib does not keep positions; the
    experiment tables are flat, so a line scan is exact for them)."""

    def __init__(self, source: str, text: str) -> None:
        self.source, self.lines = source, text.splitlines()

    def line(self, section: str | None, key: str) -> int | None:
        """The line that defines ``key`` in ``[section]`` (bare, quoted or dotted: ``key =``, ``"key" =``,
        ``key.sub =``), or the header ``[section.key]`` / ``[[section]]`` of a sub-table or array of tables."""
        current = None
        name = re.escape(key)
        key_line = re.compile(rf"""(?:{name}|"{name}"|'{name}')\s*[=.]""")
        dotted = re.compile(rf"""(?:{re.escape(section or '')}|"{re.escape(section or '')}")\s*\.\s*"""
                            rf"""(?:{name}|"{name}"|'{name}')\s*[=.]""") if section else None
        for number, raw in enumerate(self.lines, 1):
            stripped = raw.split("#", 1)[0].strip()
            header = re.fullmatch(r"\[\[?\s*([^\]]+?)\s*\]\]?", stripped)
            if header:
                current = header.group(1).replace('"', "").replace("'", "").replace(" ", "")
                if section is None and current.split(".")[0] == key:
                    return number
                if section is not None and current == f"{section}.{key}":
                    return number
                continue
            if current == section and key_line.match(stripped):
                return number
            if current is None and dotted is not None and dotted.match(stripped):
                return number
        return None

    def error(self, section: str | None, key: str, message: str, name: str | None = None) -> ExperimentError:
        """The error at ``section.key``; a key the file does not have is located at its table's header."""
        field = key if section is None else f"{section}.{key}"
        line = self.line(section, name or key)
        if line is None and section is not None:
            line = self.line(None, section)
        return ExperimentError(self.source, line, field, message)
