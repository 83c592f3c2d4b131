"""Exceptions raised by tcpfade.

Every error tcpfade raises derives from :class:`TcpfadeError`. Errors about user input also derive
from :class:`ValueError`, so code that already catches ``ValueError`` keeps working. The Rust core
maps its one error type onto these classes; a panic in the core arrives as :class:`InternalError`
(never a crash of the interpreter).
"""

from __future__ import annotations

import re


class TcpfadeError(Exception):
    """Base class of every tcpfade error.

    Examples
    --------
    >>> try:
    ...     tcpfade.simulate("vegas", tcpfade.Bernoulli(0.01), seed=1)
    ... except tcpfade.TcpfadeError as error:
    ...     print(type(error).__name__, "|", error)
    ParameterError | variant = 'vegas' is not allowed: must be one of ...
    """


class ParameterError(TcpfadeError, ValueError):
    """A parameter is outside its allowed range. The message names it, its value and what is allowed.

    Examples
    --------
    >>> tcpfade.Bernoulli(1.5)
    Traceback (most recent call last):
    ...
    tcpfade.errors.ParameterError: error_rate = 1.5 is not allowed: must be a probability in [0, 1]
    """


    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        # The parameter the message names ("name = value is not allowed: ..."), also for an error raised by the core,
        # whose message is all it carries; tcpfade's own checks set it again where they raise.
        match = re.match(r"([A-Za-z_][A-Za-z0-9_]*) = ", str(args[0])) if args else None
        self.parameter: str | None = match[1] if match else None


class ParameterTypeError(ParameterError, TypeError):
    """A parameter has the wrong kind of value (a string for a number, a tuple for a channel) or is missing.
    Also a ``TypeError``, so code that catches either keeps working."""


class TraceFormatError(TcpfadeError, ValueError):
    """A trace file or array is malformed. The message gives the line and field; nothing was read."""


class TraceExhaustedError(TcpfadeError):
    """A trace channel was asked for more slots than it holds (and ``wrap`` is off)."""


class EmulatorError(TcpfadeError, RuntimeError):
    """The link emulator cannot run on this machine (it needs root, ``/dev/net/tun`` and network namespaces), or
    the operating system refused one of its steps. The message says what was missing and what would fix it;
    whatever the emulator had set up has been removed."""


class InternalError(TcpfadeError, RuntimeError):
    """A bug inside tcpfade (a panic in the Rust core). Please report it with the call that raised it."""


class RunStopped(KeyboardInterrupt):
    """A simulation stopped because the work it was part of was interrupted: Ctrl-C in a sweep or a
    reproduction that ran it on another thread (:func:`tcpfade._watch.stop_on`). Like Ctrl-C itself it is a
    KeyboardInterrupt, so code that catches errors (``except Exception``) does not swallow it."""


class InertParameterWarning(UserWarning):
    """A setting given explicitly that the run does not read: it refines a part that is off (``prr_bound`` with
    ``prr=False``) or a variant other than the one run (``cubic_alpha`` for reno). The result is as without it; the
    warning says why, so that a misplaced setting is never ignored in silence. A loop or a sweep that sets it for every
    point on purpose may filter it (``warnings.simplefilter("ignore", InertParameterWarning)``)."""


__all__ = [
    "TcpfadeError",
    "InertParameterWarning",
    "ParameterError",
    "ParameterTypeError",
    "TraceFormatError",
    "TraceExhaustedError",
    "EmulatorError",
    "InternalError",
    "RunStopped",
]
