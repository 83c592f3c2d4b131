"""Following and stopping long simulations and analyses.

The core calls back about every 0.1 s of a run (``crates/tcpfade-core/src/watch.rs``): it lets Python
handle its signals, so Ctrl-C stops a run at once, and calls the callback built here, which reports the
fraction done to the caller's ``progress`` and stops the run when the work it belongs to was interrupted on
another thread. Signals reach only the main thread, so a simulation on a worker thread (a sweep in this
process, a reproduction's points) is stopped through an event instead: :func:`stop_on`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from . import _validate as v
from .errors import RunStopped

T = TypeVar("T")

#: The event that stops the simulations run in this context (thread), if any.
_stop_event: ContextVar[threading.Event | None] = ContextVar("tcpfade_stop_event", default=None)


@contextmanager
def stop_on(event: threading.Event) -> Iterator[None]:
    """Within this block (in this thread), a simulation raises :class:`~tcpfade.errors.RunStopped` within
    about 0.1 s of ``event`` being set."""
    token = _stop_event.set(event)
    try:
        yield
    finally:
        _stop_event.reset(token)


@contextmanager
def reporting(progress: bool | Callable[[float], object] | None, description: str
              ) -> Iterator[Callable[[float], None] | None]:
    """The callback a long computation hands the core, for the duration of the call.

    ``progress`` is None (or False), a callable that takes the fraction done (0 to 1), or True for a progress bar
    (``tqdm.auto``: on stderr, or a widget in a notebook) that appears once the run has lasted a second, so short
    runs print nothing, and is cleared when the run ends. The callback checks the stop event of the calling
    context first (:func:`stop_on`). None when there is nothing to report or check: the core still lets Python
    see Ctrl-C."""
    if progress is True:
        from tqdm.auto import tqdm

        with tqdm(total=100, desc=description, unit="%", delay=1.0, leave=False, dynamic_ncols=True,
                  bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}") as bar:
            yield _checked(lambda done: bar.update(int(done * 100) - bar.n))
            bar.update(100 - bar.n)
        return
    if progress is False or progress is None:
        yield _checked(None)
        return
    if not callable(progress):
        raise v.fail("progress", type(progress).__name__, "must be True (a progress bar), a callable taking the "
                     "fraction done (0 to 1), or None")
    yield _checked(progress)
    # The core reports as it goes (every so many events), so its last report may fall well short of the end: the
    # caller learns that the work is done from a last report of 1.0, made only when it ended without an error.
    progress(1.0)


def _checked(progress: Callable[[float], object] | None) -> Callable[[float], None] | None:
    """``progress`` after the stop event of the calling context, if there is one."""
    event = _stop_event.get()
    if event is None:
        return progress
    def report(done: float) -> None:
        if event.is_set():
            raise RunStopped("stopped: the work this simulation was part of was interrupted")
        if progress is not None:
            progress(done)

    return report


def interruptible(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` in a helper thread, waited for in slices of 0.25 s: Ctrl-C reaches Python only between
    bytecodes of the main thread, so a long LAPACK call made there would hold it until it returns. Here the wait
    ends at once with KeyboardInterrupt; the helper finishes its call (it cannot be stopped) and its result is
    dropped. Called from any other thread, or for short work, just call ``fn``."""
    if threading.current_thread() is not threading.main_thread():
        return fn(*args)
    box: dict[str, object] = {}

    def work() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:      # handed to the caller as it was
            box["error"] = exc

    helper = threading.Thread(target=work, name="tcpfade-solve", daemon=True)
    helper.start()
    while helper.is_alive():
        helper.join(0.25)
    if "error" in box:
        raise box["error"]
    return box["value"]
