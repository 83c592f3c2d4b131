"""What a reproducible figure is, the registry of them, and running one.

A :class:`Figure` knows its paper, its caption, how to compute its data (a pandas DataFrame, quick or
full), how to draw it, and the paper's claims about it as :class:`Claim` checks over that data. Running
it (:func:`reproduce`) writes ``<id>.csv``, ``<id>.png`` and ``<id>.svg`` and returns the verdicts.
"""

from __future__ import annotations

import math
import os
import re
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pandas as pd

from .. import _validate as v
from .._io import write_table
from ..errors import TcpfadeError
from .._watch import stop_on
from .._record import Record
from ..plots._figure import save, style

if TYPE_CHECKING:
    from matplotlib.figure import Figure

T = TypeVar("T")
R = TypeVar("R")


@v.checked_fields(quick=v.Flag(), seed=v.SEED, workers=v.Integer(1, 1024))
@dataclass(frozen=True)
class Settings:
    """How hard to work: ``quick`` trades accuracy for time (shorter simulations); ``workers`` threads run a
    figure's independent points at once (the simulations release the GIL). The data do not depend on
    ``workers``: every point has its own seed and the rows keep their order."""

    quick: bool = False
    seed: int = 1
    workers: int = field(default=1, compare=False)

    def slots(self, full: int) -> int:
        """Simulation length: ``full`` slots, a twentieth of it when quick."""
        return max(full // 20, 100_000) if self.quick else full

    def map(self, func: Callable[[T], R], items: Iterable[T], progress: Callable[[str], None] | None = None,
            label: Callable[[T], str] = str) -> list[R]:
        """``[func(x) for x in items]``, on up to ``workers`` threads, reporting ``label(x)`` to ``progress`` as
        each point is done. An error in one point, or Ctrl-C, is raised here and stops the others: those not yet
        started, and the simulations running on the threads within about 0.1 s (:func:`tcpfade._watch.stop_on`)."""
        items = list(items)
        note = progress or (lambda _message: None)
        if self.workers <= 1 or len(items) <= 1:
            out = []
            for x in items:
                out.append(func(x))
                note(label(x))
            return out
        stopping = threading.Event()

        def run(x: T) -> R:
            with stop_on(stopping):
                return func(x)

        pool = ThreadPoolExecutor(max_workers=min(self.workers, len(items)))
        try:
            futures = {pool.submit(run, x): i for i, x in enumerate(items)}
            results: list = [None] * len(items)
            pending = set(futures)
            while pending:
                # Wake up now and then: a Ctrl-C that the kernel handed to a worker thread is only raised
                # here when this thread runs Python code.
                done, pending = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in done:
                    i = futures[future]
                    results[i] = future.result()
                    note(label(items[i]))
            return results
        finally:
            stopping.set()   # a no-op when every point is done; else the running ones stop
            pool.shutdown(wait=False, cancel_futures=True)


def once_per_settings(compute: Callable[[Settings, Callable[[str], None]], pd.DataFrame]):
    """A figure's data, computed once per settings (the number of workers aside: it does not change the data):
    the simulations take seconds, and the report and the tests ask for the same figure twice."""
    import functools

    cache: dict[Settings, pd.DataFrame] = {}

    @functools.wraps(compute)
    def cached(settings: Settings, progress) -> pd.DataFrame:
        if settings not in cache:
            cache[settings] = compute(settings, progress)
        return cache[settings]

    return cached


@dataclass(frozen=True)
class Ablation:
    """One change measured on a figure's own data (BRIEF D14): our number before and after the change, the
    paper's, and whether the change brings ours to the paper's (``holds``, judged by the ablation with the
    claim's own tolerance). Only a disagreement beside an ablation that holds is called *explained*."""

    change: str
    before: float
    after: float
    paper: float
    holds: bool
    unit: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "holds", bool(self.holds))

    def __str__(self) -> str:
        u = f" {self.unit}" if self.unit else ""
        return (f"{self.change}: {self.before:.4g}{u} -> {self.after:.4g}{u} (paper {self.paper:.4g}{u}; "
                f"{'reaches' if self.holds else 'does not reach'} it)")


@dataclass(frozen=True)
class Verdict:
    """Whether a claim holds on our data (None: the data cannot decide), and the evidence. ``ablation`` is filled
    in by :func:`reproduce` for a claim that differs and names one."""

    holds: bool | None
    evidence: str
    ablation: Ablation | None = None
    #: Whether the claim's difference is a known one (:attr:`Claim.known_disagreement` is set).
    known: bool = False

    def __post_init__(self) -> None:
        if self.holds is not None:  # numpy booleans in, plain booleans out
            object.__setattr__(self, "holds", bool(self.holds))

    @property
    def status(self) -> str:
        """``agrees``, ``undecided``, or for a disagreement ``explained`` (an ablation on the figure's data moves
        our number to the paper's), ``not explained`` (a known difference whose cause is not measured) or
        ``unexpected`` (a difference nobody has looked at: :attr:`Claim.known_disagreement` is empty)."""
        if self.holds is None:
            return "undecided"
        if self.holds:
            return "agrees"
        if self.ablation is not None and self.ablation.holds:
            return "explained"
        return "not explained" if self.ablation is not None or self.known else "unexpected"


@dataclass(frozen=True)
class Claim:
    """A statement of the paper about a figure, and its check over the figure's data."""

    statement: str
    source: str
    check: Callable[[pd.DataFrame], Verdict]
    #: Set when we have found that our results differ from the paper here: what we found (the check must then
    #: fail; the report shows it). It is an *explanation* only beside :attr:`ablation` (BRIEF D14).
    known_disagreement: str = ""
    #: The one-change ablation, computed from the figure's data, that moves our number to the paper's.
    ablation: Callable[[pd.DataFrame], Ablation] | None = None

    def judge(self, data: pd.DataFrame) -> Verdict:
        """The check's verdict, with the ablation measured when the claim differs."""
        verdict = self.check(data)
        ablation = self.ablation(data) if verdict.holds is False and self.ablation is not None else None
        return Verdict(verdict.holds, verdict.evidence, ablation, known=bool(self.known_disagreement))


@dataclass(frozen=True)
class Figure:
    """A figure (or table) of a paper that tcpfade recomputes."""

    id: str
    paper: str
    label: str
    caption: str
    compute: Callable[[Settings, Callable[[str], None]], pd.DataFrame]
    draw: Callable[[pd.DataFrame, Figure], None]
    claims: tuple[Claim, ...] = ()
    notes: str = ""
    #: What the figure needs of the machine, as a check that returns why it cannot run here (None: it can). A
    #: figure measured on the kernel's TCP needs root, TUN and namespaces; elsewhere it is skipped, not failed.
    requires: Callable[[], str | None] | None = None

    def unavailable(self) -> str | None:
        """Why this figure cannot run on this machine, or None."""
        return None if self.requires is None else self.requires()


class FigureSkipped(TcpfadeError):
    """A figure that cannot run on this machine (:attr:`Figure.requires`): ``tcpfade reproduce`` reports it as
    "<id>: skipped: <why>" in one line and goes on with the others."""

    def __init__(self, figure_id: str, why: str) -> None:
        self.figure_id, self.why = figure_id, why
        super().__init__(f"{figure_id}: skipped: {why}")


@dataclass(frozen=True, repr=False)
class FigureResult(Record):
    """A reproduced figure: its data, the files written, the claims' verdicts, the time taken. ``to_frame()`` is
    the claims table (one row per claim), ``to_dict()`` the summary; ``data`` holds the figure's numbers."""

    figure: Figure
    data: pd.DataFrame
    files: dict[str, Path]
    verdicts: list[tuple[Claim, Verdict]] = field(default_factory=list)
    seconds: float = math.nan

    _headline = ("figure", "claims", "agree", "differ_explained", "differ_not_explained", "seconds")

    def _row(self) -> dict:
        """The figure's id, its claims counted by verdict, the seconds taken and the files written."""
        status = [vd.status for _, vd in self.verdicts]
        return {"figure": self.figure.id, "paper": self.figure.paper, "label": self.figure.label,
                "claims": len(status), "agree": status.count("agrees"), "differ_explained": status.count("explained"),
                "differ_not_explained": status.count("not explained"), "differ_unexpected": status.count("unexpected"),
                "undecided": status.count("undecided"), "seconds": self.seconds,
                **{f"file_{k}": str(p) for k, p in self.files.items()}}

    def to_frame(self) -> pd.DataFrame:
        """One row per claim: the statement, its source in the paper, our verdict and its status, the evidence,
        what we found where we differ, and the ablation that explains it (if one does)."""
        return pd.DataFrame([{"figure": self.figure.id, "claim": c.statement, "source": c.source,
                              "holds": vd.holds, "status": vd.status, "evidence": vd.evidence,
                              "why": c.known_disagreement, "ablation": "" if vd.ablation is None else str(vd.ablation)}
                             for c, vd in self.verdicts])


#: Every figure tcpfade reproduces, by id (``<paper>-fig<N>`` or ``<paper>-table<N>``).
FIGURES: dict[str, Figure] = {}


def paper_order(ids: Iterable[str]) -> list[str]:
    """Figure ids in the order of the papers: papers as registered, then each paper's tables and figures by
    number (``zorzi-rao-fig2`` before ``zorzi-rao-fig10``)."""
    papers = list(dict.fromkeys(FIGURES[i].paper for i in FIGURES))

    def key(figure_id: str):
        figure = FIGURES[figure_id]
        match = re.search(r"-(table|fig)(\d+)$", figure_id)
        kind, number = (match.group(1), int(match.group(2))) if match else ("z", 0)
        return papers.index(figure.paper), kind != "table", number, figure_id

    return sorted(ids, key=key)


def register(figure: Figure) -> Figure:
    """Add ``figure`` to :data:`FIGURES` (ids are unique)."""
    if figure.id in FIGURES:
        raise ValueError(f"figure {figure.id} registered twice")
    FIGURES[figure.id] = figure
    return figure


@v.checked()
def reproduce(figure_id: str, out_dir: str | Path = ".", *, quick: bool = False, seed: int = 1,
              progress: Callable[[str], None] | None = None, workers: int | None = None) -> FigureResult:
    """Recompute one figure: write ``<id>.csv``, ``<id>.png`` (300 dpi), ``<id>.svg`` and ``<id>.pdf`` into
    ``out_dir`` (the current directory unless given; created if its parent exists) and check the paper's claims on the data. The images carry no title or caption (a paper or the
    report sets them: :attr:`Figure.caption`). ``quick`` runs shorter simulations (wider confidence intervals);
    ``workers`` threads (default: all cores) run its independent points at once, with the same data. A figure
    this machine cannot run (:attr:`Figure.requires`) raises :class:`FigureSkipped` before anything is written."""
    name = v.choice("figure", figure_id, tuple(FIGURES))
    threads = (os.cpu_count() or 1) if workers is None else v.integer("workers", workers, 1, 4096)
    figure = FIGURES[name]
    why = figure.unavailable()
    if why is not None:
        raise FigureSkipped(name, why)
    out = v.path("out_dir", out_dir)
    made = False
    try:
        if not out.is_dir() and not out.parent.is_dir():
            raise v.fail("out_dir", str(out), f"its parent directory {str(out.parent)!r} does not exist (create it "
                                              "first)")
        made = not out.is_dir()
        out.mkdir(exist_ok=True)
    except OSError as exc:
        raise v.fail("out_dir", str(out), f"cannot be created ({exc.strerror or exc})") from None
    # Before the work, not after it: a figure's computation can take minutes.
    why = v.unwritable_directory(out) or next(
        (f"{target.name}: {reason}" for target in (out / f"{name}.{suffix}" for suffix in ("csv", "png", "svg", "pdf"))
         if (reason := v.unwritable(target))), None)
    if why:
        if made:   # a directory made only to be refused is not left behind
            try:
                out.rmdir()
            except OSError:
                pass
        raise v.fail("out_dir", str(out), why)
    start = time.perf_counter()
    settings = Settings(quick=quick, seed=v.seed(seed), workers=threads)
    data = figure.compute(settings, progress or (lambda _msg: None))
    files = {"csv": write_table(data, out / f"{name}.csv", "out_dir")}
    from matplotlib.figure import Figure as MplFigure

    with style():
        fig = MplFigure(figsize=(7.0, 4.8))      # no pyplot: nothing global, threads may draw
        figure.draw(data, fig)
        fig.tight_layout()
    for suffix in ("png", "svg", "pdf"):
        files[suffix] = save(fig, out / f"{name}.{suffix}", close=suffix == "pdf")
    verdicts = [(claim, claim.judge(data)) for claim in figure.claims]
    return FigureResult(figure, data, files, verdicts, time.perf_counter() - start)
