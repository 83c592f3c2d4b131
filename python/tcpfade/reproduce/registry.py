"""What a reproducible figure is, the registry of them, and running one.

A :class:`Figure` knows its paper, its caption, how to compute its data (a pandas DataFrame, quick or
full), how to draw it, and the paper's claims about it as :class:`Claim` checks over that data. Running
it (:func:`reproduce`) writes ``<id>.csv``, ``<id>.png`` and ``<id>.svg`` and returns the verdicts.
"""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .. import _validate as v
from ..plots._figure import plt, save


@dataclass(frozen=True)
class Settings:
    """How hard to work: ``quick`` trades accuracy for time (shorter simulations)."""

    quick: bool = False
    seed: int = 1

    def slots(self, full: int) -> int:
        """Simulation length: ``full`` slots, a twentieth of it when quick."""
        return max(full // 20, 100_000) if self.quick else full


@dataclass(frozen=True)
class Verdict:
    """Whether a claim holds on our data (None: the data cannot decide), and the evidence."""

    holds: bool | None
    evidence: str

    def __post_init__(self) -> None:
        if self.holds is not None:  # numpy booleans in, plain booleans out
            object.__setattr__(self, "holds", bool(self.holds))


@dataclass(frozen=True)
class Claim:
    """A statement of the paper about a figure, and its check over the figure's data."""

    statement: str
    source: str
    check: Callable[[pd.DataFrame], Verdict]
    #: Set when we have found that our results differ from the paper here, and why (the check must then
    #: fail; the report shows the explanation).
    known_disagreement: str = ""


@dataclass(frozen=True)
class Figure:
    """A figure (or table) of a paper that tcpfade recomputes."""

    id: str
    paper: str
    label: str
    caption: str
    compute: Callable[[Settings, Callable[[str], None]], pd.DataFrame]
    draw: Callable[[pd.DataFrame, plt.Figure], None]
    claims: tuple[Claim, ...] = ()
    notes: str = ""


@dataclass(frozen=True)
class FigureResult:
    """A reproduced figure: its data, the files written, the claims' verdicts, the time taken."""

    figure: Figure
    data: pd.DataFrame
    files: dict[str, Path]
    verdicts: list[tuple[Claim, Verdict]] = field(default_factory=list)
    seconds: float = math.nan


#: Every figure tcpfade reproduces, by id (``<paper>-fig<N>`` or ``<paper>-table<N>``).
FIGURES: dict[str, Figure] = {}


def register(figure: Figure) -> Figure:
    """Add ``figure`` to :data:`FIGURES` (ids are unique)."""
    if figure.id in FIGURES:
        raise ValueError(f"figure {figure.id} registered twice")
    FIGURES[figure.id] = figure
    return figure


def reproduce(figure_id: str, out_dir: str | Path = ".", *, quick: bool = False, seed: int = 1,
              progress: Callable[[str], None] | None = None) -> FigureResult:
    """Recompute one figure: write ``<id>.csv``, ``<id>.png`` and ``<id>.svg`` into ``out_dir`` and check
    the paper's claims on the data. ``quick`` runs shorter simulations (wider confidence intervals)."""
    name = v.choice("figure", figure_id, tuple(FIGURES))
    figure = FIGURES[name]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    data = figure.compute(Settings(quick=quick, seed=v.seed(seed)), progress or (lambda _msg: None))
    files = {"csv": out / f"{name}.csv"}
    tmp = files["csv"].with_name(files["csv"].name + ".part")
    data.to_csv(tmp, index=False)
    tmp.replace(files["csv"])
    for suffix in ("png", "svg"):
        fig = plt.figure(figsize=(7.0, 4.8))
        figure.draw(data, fig)
        fig.suptitle(f"{figure.paper} {figure.label} (tcpfade{', quick' if quick else ''})", fontsize=10)
        fig.text(0.5, 0.005, textwrap.fill(figure.caption, 120), ha="center", va="bottom", fontsize=7)
        fig.tight_layout(rect=(0, 0.07, 1, 1))
        files[suffix] = save(fig, out / f"{name}.{suffix}")
    verdicts = [(claim, claim.check(data)) for claim in figure.claims]
    return FigureResult(figure, data, files, verdicts, time.perf_counter() - start)
