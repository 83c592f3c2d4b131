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
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from .. import __version__
from .. import _validate as v
from .experiment import Experiment, Point
from .models import model_identity, run_point
from .store import Store


@dataclass(frozen=True)
class SweepReport:
    """What a run did: points in the experiment, already in the store, computed now, and failed (with the
    error of each; they are not stored, so a rerun tries them again)."""

    total: int
    skipped: int
    computed: int
    failed: list[tuple[dict[str, Any], str]] = field(default_factory=list)


def run_sweep(experiment: Experiment, *, workers: int | None = None, dask: str | None = None, force: bool = False,
              progress: bool = True) -> SweepReport:
    """Compute every point of ``experiment`` missing from its store (all of them with ``force``).

    workers : local processes (default: all cores; 1 runs in this process). Ignored with ``dask``.
    dask : address of a running Dask scheduler ("tcp://host:8786"); needs ``pip install 'tcpfade[dask]'``.
    """
    if workers is not None:
        workers = v.integer("workers", workers, 1, 4096)
    store = Store(experiment.store)
    points = experiment.points()
    done = set() if force else store.keys()
    todo = [p for p in points if p.key not in done]
    tasks = [{"index": i, "model": experiment.model, "params": p.params, "seed": p.seed} for i, p in enumerate(todo)]
    failed: list[tuple[dict[str, Any], str]] = []
    if not tasks:
        return SweepReport(total=len(points), skipped=len(points), computed=0)
    identity = model_identity(experiment.model)
    results: queue.Queue = queue.Queue()
    processes = min(workers or os.cpu_count() or 1, len(tasks))
    backend = _dask(dask) if dask else _local(processes) if processes > 1 else _serial
    feeder = threading.Thread(target=_feed, args=(backend, tasks, results), daemon=True)
    feeder.start()
    computed = 0
    with store.writer() as writer, tqdm(total=len(tasks), desc=experiment.name, unit="point", disable=not progress,
                                        dynamic_ncols=True) as bar:
        remaining = len(tasks)
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
            writer.add(_row(experiment, identity, point, outcome), replace=force)
            computed += 1
    return SweepReport(total=len(points), skipped=len(points) - len(todo), computed=computed, failed=failed)


def _row(experiment: Experiment, identity: str, point: Point, outcome: dict[str, Any]) -> dict[str, Any]:
    return {"key": point.key, "experiment": experiment.name, "model": experiment.model, "identity": identity,
            "version": __version__, "params": point.params, "replication": point.replication, "seed": point.seed,
            "metrics": outcome["metrics"], "intervals": outcome["intervals"], "seconds": outcome["seconds"]}


Backend = Callable[[list[dict[str, Any]]], Iterator[tuple[int, dict[str, Any] | None, str | None]]]


def _feed(backend: Backend, tasks: list[dict[str, Any]], results: queue.Queue) -> None:
    """Run the backend in a thread, so the main thread can commit on time while waiting for results."""
    try:
        for index, outcome, error in backend(tasks):
            results.put(("error", (index, error)) if error else ("done", (index, outcome)))
    except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
        results.put(("fatal", exc))


def _guarded(task: dict[str, Any]) -> tuple[int, dict[str, Any] | None, str | None]:
    """``run_point`` that reports a point's error instead of raising it (the others go on)."""
    try:
        return task["index"], run_point(task), None
    except Exception as exc:  # noqa: BLE001 - any failure of one point is that point's result
        return task["index"], None, f"{type(exc).__name__}: {exc}"


def _serial(tasks: list[dict[str, Any]]):
    for task in tasks:
        yield _guarded(task)


def _local(workers: int) -> Backend:
    def run(tasks: list[dict[str, Any]]):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_guarded, task) for task in tasks]
            for future in as_completed(futures):
                yield future.result()
    return run


def _dask(address: str) -> Backend:
    try:
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise v.fail("dask", address, "needs the distributed package: pip install 'tcpfade[dask]'") from None

    def run(tasks: list[dict[str, Any]]):
        try:
            client = Client(address, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise v.fail("dask", address, f"no Dask scheduler answers there ({exc})") from None
        with client:
            futures = client.map(_guarded, tasks, pure=False)
            for future in dask_completed(futures):
                yield future.result()
    return run
