"""Trace channels: packet losses read from a file or an array, validated whole before use."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from .. import _validate as v
from .._io import write_file
from ..errors import TraceFormatError
from .base import SlotChannel

#: Trace file formats: text (0/1 characters, '#' comments), binary (one byte 0x00/0x01 per slot),
#: npy (a one-dimensional numpy array of 0/1).
TRACE_FORMATS = ("text", "binary", "npy")


FORMAT = v.Optional(v.Choice(TRACE_FORMATS))


def _format_for(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        return fmt
    return {".npy": "npy", ".bin": "binary", ".dat": "binary"}.get(path.suffix.lower(), "text")


def as_loss_array(losses: Any, name: str = "losses") -> np.ndarray:
    """Validate a 0/1 sequence and return it as a contiguous uint8 array (no copy when it already is one)."""
    allowed = "must be a one-dimensional array of 0 (received) and 1 (lost), one per slot"
    try:
        arr = np.asarray(losses)
    except (ValueError, TypeError, OverflowError) as exc:
        raise v.fail(name, losses, f"{allowed} ({exc})", kind=TraceFormatError) from None
    if arr.ndim != 1:
        raise v.fail(name, losses, f"{allowed}; this has shape {arr.shape}", kind=TraceFormatError)
    if arr.size == 0:
        raise v.fail(name, "an empty array", f"{allowed}, and hold at least one slot", kind=TraceFormatError)
    if arr.dtype == np.bool_:
        return np.ascontiguousarray(arr, dtype=np.uint8)
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise v.fail(name, losses, f"{allowed}; this holds {arr.dtype}", kind=TraceFormatError)
    bad = np.flatnonzero((arr != 0) & (arr != 1))
    if bad.size:
        i = int(bad[0])
        raise v.fail(name, losses, f"{allowed}; element {i} is {arr[i]!r}", kind=TraceFormatError)
    return np.ascontiguousarray(arr, dtype=np.uint8)


def _read_npy(p: Path) -> np.ndarray:
    """A .npy file, its header checked against the file's size before anything is allocated (a header may claim
    10^13 elements; a file may be empty or cut short)."""
    fmt = np.lib.format
    size = p.stat().st_size
    with open(p, "rb") as fh:
        try:
            version = fmt.read_magic(fh)
            reader = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}.get(version)
            if reader is None:
                raise ValueError(f"unsupported .npy version {version}")
            shape, fortran, dtype = reader(fh)
        except (ValueError, EOFError, OSError) as exc:
            raise TraceFormatError(f"{p}: line 1, field 1: not a valid .npy array ({exc or 'empty file'})") from None
        count = int(np.prod(shape, dtype=object)) if shape else 1
        if dtype.hasobject:
            raise TraceFormatError(f"{p}: line 1, field 1: a .npy array of Python objects is not a trace")
        needed = count * dtype.itemsize
        if fh.tell() + needed != size:
            raise TraceFormatError(f"{p}: line 1, field {fh.tell() + 1}: the header declares {count} elements of "
                                   f"{dtype.itemsize} bytes ({needed} bytes) but the file holds "
                                   f"{size - fh.tell()} bytes after it")
        v.memory("path", str(p), float(needed), f"a trace of {count} elements")
        try:
            arr = np.fromfile(fh, dtype=dtype, count=count).reshape(shape, order="F" if fortran else "C")
        except (ValueError, OSError) as exc:
            raise TraceFormatError(f"{p}: not a valid .npy array ({exc})") from None
    return arr


@v.checked(path=v.FilePath("exist"), fmt=FORMAT)
def load_trace(path: str | Path, fmt: str | None = None) -> np.ndarray:
    """Read a loss trace (see :data:`TRACE_FORMATS`; the format follows the suffix when not given).

    Parameters
    ----------
    path : the file.
    fmt : "text", "binary" or "npy" (default: from the suffix).

    Returns
    -------
    numpy.ndarray of uint8, 1 = lost.

    Raises
    ------
    TraceFormatError
        a malformed file (with the line and field); nothing of it is used.
    ParameterError
        a missing or unreadable path, an unknown format.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "t.npy"
    >>> _ = tcpfade.save_trace(path, [0, 1, 1, 0])
    >>> tcpfade.load_trace(path).tolist()
    [0, 1, 1, 0]
    """
    p = path
    kind = _format_for(p, fmt)
    v.memory("path", str(p), 2.0 * p.stat().st_size, f"reading a file of {p.stat().st_size} bytes")
    try:
        if kind == "npy":
            try:
                return as_loss_array(_read_npy(p), "array")
            except TraceFormatError as exc:
                if str(exc).startswith(f"{p}: "):
                    raise
                # The array's own fault, told as the file's: what it must be, without repeating its contents.
                raise TraceFormatError(f"{p}: {str(exc).split(' is not allowed: ', 1)[-1]}") from None
        if kind == "binary":
            return _core.parse_trace_binary(p.read_bytes())
        return _core.parse_trace_text(p.read_text(encoding="utf-8", errors="strict"))
    except UnicodeDecodeError as exc:
        error = TraceFormatError(f"{p}: not UTF-8 text at byte {exc.start} (use format='binary'?)")
        error.path = str(p)
        raise error from None
    except TraceFormatError as exc:
        error = exc if str(exc).startswith(f"{p}: ") else TraceFormatError(f"{p}: {exc}")
        error.path = str(p)
        raise error from None


@v.checked(path=v.FilePath("write"), fmt=FORMAT)
def save_trace(path: str | Path, losses: Any, fmt: str | None = None) -> Path:
    """Write a loss trace; the format follows the suffix when not given. Written to a temporary
    file first and renamed, so an interrupted write never leaves a half trace behind.

    Parameters
    ----------
    path : the file to write (its directory is created).
    losses : array-like of 0/1.
    fmt : as for :func:`load_trace`.

    Returns
    -------
    pathlib.Path, the file written.

    Raises
    ------
    ParameterError
        values other than 0 and 1, a path whose directory cannot be created, an unknown format.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = tcpfade.save_trace(pathlib.Path(tempfile.mkdtemp()) / "t.txt", [0, 1, 0])
    >>> tcpfade.load_trace(out).tolist()
    [0, 1, 0]
    """
    p = path
    kind = _format_for(p, fmt)
    arr = as_loss_array(losses)

    def write(target: Path) -> None:
        if kind == "npy":
            with open(target, "wb") as fh:
                np.save(fh, arr)
        elif kind == "binary":
            target.write_bytes(arr.tobytes())
        else:
            text = "".join("01"[x] for x in arr.tolist())
            lines = [text[i:i + 100] for i in range(0, len(text), 100)]
            target.write_text("# tcpfade loss trace: 1 = lost, 0 = received, one slot per character\n"
                              + "\n".join(lines) + "\n")

    return write_file(p, write, parameter="path")


@v.checked_fields(wrap=v.Flag(), interval=v.Optional(v.Real(1e-9, 1e6, words="must be a finite number in "
                                                                           "[1e-9, 1e6] (seconds per entry)")))
@dataclass(frozen=True)
class TraceChannel(SlotChannel):
    """A channel replaying a recorded loss sequence, one slot (or packet) per element, or one time interval per
    element (a block error sequence, such as a radio's TTIs).

    With ``wrap=False`` (the default) asking for more slots than the trace holds raises
    :class:`~tcpfade.errors.TraceExhaustedError`; with ``wrap=True`` it starts over.

    Parameters
    ----------
    losses : array-like of 0/1 (1 = lost), one per slot.
    wrap : start over at the end instead of raising.
    interval : for the link models (:func:`tcpfade.simulate_link`, the emulator): the seconds each element
        covers. A packet on the link in [t, t + d) is then lost when any element it overlaps is 1. None (the
        default): one element per packet sent, and per slot in :func:`tcpfade.simulate`, which refuses an
        interval.

    Raises
    ------
    ParameterError
        an empty trace, values other than 0 and 1.

    Examples
    --------
    >>> ch = tcpfade.TraceChannel([0, 0, 1, 0], wrap=True)
    >>> ch.trace(8, seed=0).tolist()
    [0, 0, 1, 0, 0, 0, 1, 0]
    """

    losses: np.ndarray = field(repr=False)
    wrap: bool = False
    interval: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "losses", as_loss_array(self.losses))

    @classmethod
    @v.checked(wrap=v.Flag())
    def from_file(cls, path: str | Path, fmt: str | None = None, *, wrap: bool = False) -> TraceChannel:
        """Trace channel from a file (see :func:`load_trace`)."""
        return cls(load_trace(path, fmt), wrap=wrap)

    @property
    def error_rate(self) -> float:
        """Fraction of lost slots in the trace."""
        return float(self.losses.mean())

    def _spec(self) -> dict[str, Any]:
        return {"kind": "trace", "losses": self.losses, "wrap": self.wrap}

    def link_spec(self, rate: float, clock: str = "time") -> dict[str, Any]:
        """With an ``interval``, a block error sequence in time; without, one element per packet sent. See
        :meth:`SlotChannel.link_spec`."""
        if self.interval is not None:
            return {"kind": "blocks", "errors": self.losses, "interval": self.interval, "wrap": self.wrap}
        return {"kind": "per-packet", "slot": self._spec()}

    def describe(self) -> dict[str, Any]:
        return {"kind": "trace", "slots": int(self.losses.size), "error_rate": self.error_rate, "wrap": self.wrap,
                **({"interval": self.interval} if self.interval is not None else {})}
