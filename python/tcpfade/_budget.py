"""The budget of one request: how much memory and expected run time a call may imply before it is refused up front
(instead of aborting on allocation, swapping, or running for days), from the machine, the process's limits and the
environment (``TCPFADE_MEMORY_LIMIT``, ``TCPFADE_WORK_LIMIT``). :mod:`tcpfade._validate` re-exports what its callers use
(``v.memory``, ``v.work``, ``v.SPEED``)."""

from __future__ import annotations

import math
import os
from typing import Any


def _fail(name: str, value: object, allowed: str) -> Any:
    from ._validate import fail   # _validate imports this module: the error is built there, at the call

    return fail(name, value, allowed)


def _physical_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return 8 << 30


def _limit(variable: str, default: float, unit: str) -> float:
    """A resource limit from the environment variable ``variable`` (a positive number of ``unit``, such as 8e9 or
    86400), else ``default``. Read at each request, so that setting it after ``import tcpfade`` takes effect; a
    value that is not a positive number is refused in one line, naming the variable."""
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise _fail(variable, text, f"must be a positive number of {unit} (or unset for the default)")
    return value


def memory_limit() -> float:
    """Largest allocation one request may imply [bytes]: half the machine's memory (or of the process's address-space
    limit, `ulimit -v`), or the environment variable
    ``TCPFADE_MEMORY_LIMIT``. Above it, the request is refused at once with the size named, instead of aborting the
    process (Rust aborts on allocation failure) or swapping for hours."""
    return _limit("TCPFADE_MEMORY_LIMIT", min(_physical_memory(), _address_space_limit()) // 2, "bytes")


def _address_space_limit() -> int:
    """The process's address-space limit (``ulimit -v``) in bytes, or a very large number when it has none: a run
    allowed half the machine would still fail inside a smaller limit, with the allocator's error."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return 1 << 62
    return 1 << 62 if soft == resource.RLIM_INFINITY or soft <= 0 else int(soft)


def work_limit() -> float:
    """Longest a single request may be expected to run [s of this machine's time]: a day, or the environment
    variable ``TCPFADE_WORK_LIMIT``. Anything the rates below put beyond it is refused up front: it is a mistake (a
    timer of 1e-17 s, a default duration made from a mean of 1e300 s), and Ctrl-C is a poor way to learn that."""
    return _limit("TCPFADE_WORK_LIMIT", 86_400.0, "seconds")


#: Conservative throughputs of the engines (the benchmarks measure 2-4 times more), used to turn a request's
#: size into an expected time: slots of the slotted simulator, events of the link simulator, steps of a channel,
#: packets of the link analysis' climb, slots of the Tahoe analysis' phase 1 (measured: 1.2e8 per second).
SPEED = {"slots": 1e8, "events": 1e7, "channel steps": 5e7, "samples": 3e7, "bit samples": 2e8, "climb packets": 2e7,
         "phase-1 slots": 5e7}


def _human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:.3g} {unit}"
        n /= 1024
    return f"{n:.3g} PiB"  # pragma: no cover


def memory(name: str, value: object, nbytes: float, what: str, hint: str = "") -> None:
    """Refuse a request whose ``what`` would take ``nbytes`` of memory beyond :func:`memory_limit` (``hint``, if
    given, says what to do instead, after the figures)."""
    limit = memory_limit()
    if not math.isfinite(nbytes) or nbytes > limit:
        raise _fail(name, value, f"{what} would need {_human_bytes(nbytes)} of memory; this machine allows "
                                f"{_human_bytes(limit)} per request{hint}")


def work(name: str, value: object, steps: float, unit: str, what: str, hint: str = "") -> None:
    """Refuse a request that implies ``steps`` of ``unit`` (a key of :data:`SPEED`) beyond
    :func:`work_limit` of expected run time."""
    seconds = steps / SPEED[unit] if math.isfinite(steps) else math.inf
    limit = work_limit()
    if not seconds <= limit:
        cost = f"{steps:.3g} {unit}, about {seconds / 86_400:.3g} days of computing" if math.isfinite(seconds) \
            else f"more {unit} than a double counts"
        raise _fail(name, value, f"{what} implies {cost} (the limit is {limit / 86_400:g} day of "
                                f"expected run time){hint}")
