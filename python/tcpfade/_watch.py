"""Following and stopping long simulations.

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

from . import _validate as v
from .errors import RunStopped

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


def core_callback(progress: Callable[[float], object] | None) -> Callable[[float], None] | None:
    """What a simulation hands the core: the caller's ``progress`` (checked to be callable), after the stop
    event of the calling context. None when there is neither (the core still lets Python see Ctrl-C)."""
    if progress is not None and not callable(progress):
        raise v.fail("progress", type(progress).__name__, "must be a callable taking the fraction done (0 to 1), "
                     "or None")
    event = _stop_event.get()
    if progress is None and event is None:
        return None

    def report(done: float) -> None:
        if event is not None and event.is_set():
            raise RunStopped("stopped: the work this simulation was part of was interrupted")
        if progress is not None:
            progress(done)

    return report
