"""Running a sweep: the points the store lacks, on a local process pool (all cores by default), in this
process (``workers=1``) or on an existing Dask cluster, with a progress bar, each result committed to the
store as it arrives.

Each point's seed comes from the master seed and the point's identity (:func:`point_seed`), and every
point is computed by the same function (:func:`tcpfade.sweep.models.run_point`), so the store's rows are
the same whatever the backend, the number of workers or the order in which they finish.
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from .. import __version__
from .. import _validate as v
from .._record import Record
from .._watch import stop_on
from .experiment import Experiment, Point
from .models import backend_workers, model_identity, run_point
from .store import Store


@dataclass(frozen=True, repr=False)
class SweepReport(Record):
    """What a run did: points in the experiment, already in the store, computed now, and failed (with the
    error of each; they are not stored, so a rerun tries them again). ``to_frame()`` lists the failed points."""

    total: int
    skipped: int
    computed: int
    failed: list[tuple[dict[str, Any], str]] = field(default_factory=list)

    _headline = ("total", "skipped", "computed", "failures")

    def _row(self) -> dict[str, Any]:
        """The counts: total, skipped (already stored), computed, failures."""
        return {"total": self.total, "skipped": self.skipped, "computed": self.computed,
                "failures": len(self.failed)}

    def to_frame(self):
        """One row per failed point: its parameters and the error."""
        import pandas as pd

        return pd.DataFrame([{**params, "error": error} for params, error in self.failed])


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_sweep`: the workers are stopped, every point finished before it is in the store,
    and a rerun computes only the rest. ``report`` says how far the run got."""

    def __init__(self, report: SweepReport, store: str) -> None:
        self.report = report
        missing = report.total - report.skipped - report.computed - len(report.failed)
        super().__init__(f"interrupted: {report.computed} points computed and kept in {store}, {missing} not "
                         "computed; run the sweep again to compute them")


@v.checked(experiment=v.Instance(Experiment, "must be an Experiment (tcpfade.sweep.load_experiment)"),
           dask=v.Optional(v.Instance(str, "must be a Dask scheduler's address (a string)")), force=v.Flag())
def run_sweep(experiment: Experiment, *, workers: int | None = None, dask: str | None = None, force: bool = False,
              progress: bool = True) -> SweepReport:
    """Compute every point of ``experiment`` missing from its store (all of them with ``force``).

    Parameters
    ----------
    experiment : Experiment
        The experiment (:func:`load_experiment`).
    workers : int, optional
        Local processes (default: all cores; 1 runs in this process). Ignored with ``dask``. The ``emulate`` model
        runs in this process only (1, its default): kernel runs take real time and distort each other's timing when
        they share the CPU; ``workers`` > 1 or ``dask`` is refused, and so is a machine that cannot run the emulator
        (:class:`tcpfade.errors.EmulatorError`), before any point runs.
    dask : str, optional
        Address of a running Dask scheduler ("tcp://host:8786"); needs ``pip install 'tcpfade[dask]'``.
    force : bool
        Recompute points already in the store.
    progress : bool
        Draw a progress bar.

    Notes
    -----
    Ctrl-C stops the run at once and raises :class:`SweepInterrupted` (a KeyboardInterrupt): the worker
    processes are terminated (or the Dask futures cancelled), the points they were computing are dropped and
    every point finished before is committed. With ``workers=1`` the simulation being run stops within about
    0.1 s (an analysis being run finishes first: seconds at most), its result discarded.
    """
    if workers is not None:
        workers = v.integer("workers", workers, 1, 4096)
    progress = v.Flag().check("progress", progress)
    force = v.Flag().check("force", force)
    store = Store(experiment.store)
    # A point written twice (two spellings of one name, canonical alike) is one run: computed once, placed first.
    place: dict[str, int] = {}
    points = []
    for i, p in enumerate(experiment.points()):
        if p.key not in place:
            place[p.key] = i // experiment.replications
            points.append(p)
    done = set() if force else store.keys()
    todo = [p for p in points if p.key not in done]
    tasks = [{"index": i, "model": experiment.model, "params": p.params, "seed": p.seed} for i, p in enumerate(todo)]
    failed: list[tuple[dict[str, Any], str]] = []
    if not tasks:
        return SweepReport(total=len(points), skipped=len(points), computed=0)
    # Before any point runs: a model may refuse these workers, or this machine (the emulator: one at a time, root).
    workers = backend_workers(experiment.model, workers, dask)
    identity = model_identity(experiment.model)
    results: queue.Queue = queue.Queue()
    processes = min(workers or os.cpu_count() or 1, len(tasks))
    backend = _Dask(dask) if dask else _Local(processes) if processes > 1 else _Serial()
    feeder = threading.Thread(target=_feed, args=(backend, tasks, results), daemon=True)
    computed = 0

    def report() -> SweepReport:
        return SweepReport(total=len(points), skipped=len(points) - len(todo), computed=computed, failed=failed)

    with store.writer() as writer, tqdm(total=len(tasks), desc=experiment.name, unit="point", disable=not progress,
                                        dynamic_ncols=True) as bar:
        feeder.start()
        remaining = len(tasks)
        try:
            while remaining:
                try:
                    kind, payload = results.get(timeout=0.25)
                except queue.Empty:
                    writer.commit_if_due()
                    continue
                if kind == "fatal":
                    raise payload
                remaining -= 1
                bar.update(1)
                index, outcome = payload
                point: Point = todo[index]
                if kind == "error":
                    failed.append((point.params, outcome))
                    continue
                writer.add(_row(experiment, identity, point, outcome, place[point.key]), replace=force)
                computed += 1
        except KeyboardInterrupt:
            backend.stop()
            raise SweepInterrupted(report(), str(experiment.store)) from None
        except BaseException:
            backend.stop()
            raise
    return report()


def _row(experiment: Experiment, identity: str, point: Point, outcome: dict[str, Any], place: int) -> dict[str, Any]:
    return {"key": point.key, "experiment": experiment.name, "model": experiment.model, "identity": identity,
            "version": __version__, "params": point.params, "replication": point.replication, "seed": point.seed,
            "metrics": outcome["metrics"], "intervals": outcome["intervals"], "seconds": outcome["seconds"],
            "master_seed": experiment.seed, "point": place}


def _feed(backend: _Backend, tasks: list[dict[str, Any]], results: queue.Queue) -> None:
    """Run the backend in a thread, so the main thread can commit on time while waiting for results (and
    answer Ctrl-C at once)."""
    try:
        for index, outcome, error in backend.run(tasks):
            results.put(("error", (index, error)) if error else ("done", (index, outcome)))
    except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
        if not backend.stopping.is_set():
            results.put(("fatal", exc))


def _guarded(task: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str | None]:
    """``run_point`` that reports a point's error instead of raising it (the others go on)."""
    try:
        return task["index"], run_point(task), None
    except Exception as exc:  # noqa: BLE001 - any failure of one point is that point's result
        return task["index"], None, f"{type(exc).__name__}: {exc}"


class _Backend:
    """Where the points run: ``run(tasks)`` yields ``_guarded``'s results as they finish; ``stop()`` (from the
    main thread) ends the run as soon as it can."""

    def __init__(self) -> None:
        self.stopping = threading.Event()

    def run(self, tasks: list[dict[str, Any]]) -> Iterator[tuple[int, dict[str, Any] | None, str | None]]:
        raise NotImplementedError

    def stop(self) -> None:
        self.stopping.set()


class _Serial(_Backend):
    """In this process (on the feeder thread), one point after another. Stopping ends the simulation being run
    within about 0.1 s (:func:`tcpfade._watch.stop_on`; an analysis finishes, in seconds at most)."""

    def run(self, tasks):
        with stop_on(self.stopping):
            for task in tasks:
                if self.stopping.is_set():
                    return
                yield _guarded(task)


def _ignore_interrupt(runner: int | None = None) -> None:
    """Worker initializer: Ctrl-C reaches the whole process group, and the runner alone answers it. On Linux the
    worker also asks the kernel for SIGTERM when the runner dies (prctl PR_SET_PDEATHSIG), so a runner killed
    alone (SIGKILL, an OOM kill) does not leave workers computing for nobody; no library offers this, hence
    ctypes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if runner is None or not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return
    if os.getppid() != runner:   # the runner died before the request took effect
        os._exit(1)


class _Local(_Backend):
    """A process pool. Stopping cancels the points not started and terminates the workers: they ignore SIGINT
    (the runner answers it), so a running point would otherwise hold the user as long as it lasts."""

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def run(self, tasks):
        with ProcessPoolExecutor(max_workers=self.workers, initializer=_ignore_interrupt,
                                 initargs=(os.getpid(),)) as pool:
            self.pool = pool
            if self.stopping.is_set():   # stopped before the pool existed
                self.stop()
            futures = [pool.submit(_guarded, task) for task in tasks]
            for future in as_completed(futures):
                yield future.result()

    def stop(self) -> None:
        super().stop()
        pool = self.pool
        if pool is None:
            return
        terminate = getattr(pool, "terminate_workers", None)   # Python >= 3.14
        if terminate is not None:
            terminate()
            return
        # Before 3.14 the executor has no public way to end a running task: end its worker processes (taken
        # before shutdown, which forgets them).
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()


def _distributed(address: str):
    """distributed's Client and as_completed, or a clear error when the package is missing."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise v.fail("dask", address, "needs the distributed package: pip install 'tcpfade[dask]'") from None
    return Client, as_completed


#: How long a Dask client waits for the scheduler to answer [s] before the address is refused.
CONNECT_TIMEOUT = 20.0


def dask_client(address: str):
    """A Dask client connected to the scheduler at ``address``, and distributed's ``as_completed``; a clear error
    when the package is missing or no scheduler answers (within :data:`CONNECT_TIMEOUT`)."""
    Client, as_completed = _distributed(address)
    try:
        return Client(address, timeout=CONNECT_TIMEOUT), as_completed
    except (OSError, TimeoutError) as exc:
        raise v.fail("dask", address, f"no Dask scheduler answers there ({exc})") from None
    except ValueError as exc:   # distributed's parse of the address: "missing port number", an unknown protocol
        raise v.fail("dask", address, f"is not a scheduler's address such as tcp://host:8786 ({exc})") from None


class _Dask(_Backend):
    """An existing Dask cluster; stopping cancels the futures."""

    def __init__(self, address: str) -> None:
        super().__init__()
        _distributed(address)       # refused before anything starts when the package is missing
        self.address = address
        self.client, self.futures = None, []

    def run(self, tasks):
        client, self._completed = dask_client(self.address)
        with client:
            self.client = client
            self.futures = client.map(_guarded, tasks, pure=False)
            for future in self._completed(self.futures):
                if self.stopping.is_set():
                    return
                yield future.result()

    def stop(self) -> None:
        super().stop()
        if self.client is not None and self.futures:
            self.client.cancel(self.futures)
