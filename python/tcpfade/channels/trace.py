"""Trace channels: packet losses read from a file or an array, validated whole before use."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import _core
from .. import _validate as v
from ..errors import TraceFormatError
from .base import SlotChannel

#: Trace file formats: text (0/1 characters, '#' comments), binary (one byte 0x00/0x01 per slot),
#: npy (a one-dimensional numpy array of 0/1).
TRACE_FORMATS = ("text", "binary", "npy")


def _format_for(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        return v.choice("format", fmt, TRACE_FORMATS)
    return {".npy": "npy", ".bin": "binary", ".dat": "binary"}.get(path.suffix.lower(), "text")


def as_loss_array(losses: Any, name: str = "losses") -> np.ndarray:
    """Validate a 0/1 sequence and return it as a contiguous uint8 array (no copy when it already is one)."""
    arr = np.asarray(losses)
    if arr.ndim != 1:
        raise TraceFormatError(f"{name}: expected a one-dimensional array, got shape {arr.shape}")
    if arr.size == 0:
        raise TraceFormatError(f"{name}: the trace holds no slot")
    if arr.dtype == np.bool_:
        return np.ascontiguousarray(arr, dtype=np.uint8)
    if not (np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)):
        raise TraceFormatError(f"{name}: expected 0/1 numbers, got dtype {arr.dtype}")
    bad = np.flatnonzero((arr != 0) & (arr != 1))
    if bad.size:
        i = int(bad[0])
        raise TraceFormatError(f"{name}: element {i} is {arr[i]!r}; every slot must be 0 (received) or 1 (lost)")
    return np.ascontiguousarray(arr, dtype=np.uint8)


def load_trace(path: str | Path, fmt: str | None = None) -> np.ndarray:
    """Read a loss trace (see :data:`TRACE_FORMATS`; the format follows the suffix when not given)."""
    p = Path(path)
    kind = _format_for(p, fmt)
    if not p.is_file():
        raise v.fail("path", str(p), "must be an existing trace file")
    if kind == "npy":
        try:
            arr = np.load(p, allow_pickle=False)
        except ValueError as exc:
            raise TraceFormatError(f"{p}: not a valid .npy array ({exc})") from None
        return as_loss_array(arr, str(p))
    try:
        if kind == "binary":
            return _core.parse_trace_binary(p.read_bytes())
        return _core.parse_trace_text(p.read_text(encoding="utf-8", errors="strict"))
    except UnicodeDecodeError as exc:
        raise TraceFormatError(f"{p}: not UTF-8 text at byte {exc.start} (use format='binary'?)") from None
    except TraceFormatError as exc:
        raise TraceFormatError(f"{p}: {exc}") from None


def save_trace(path: str | Path, losses: Any, fmt: str | None = None) -> Path:
    """Write a loss trace; the format follows the suffix when not given. Written to a temporary
    file first and renamed, so an interrupted write never leaves a half trace behind."""
    p = Path(path)
    kind = _format_for(p, fmt)
    arr = as_loss_array(losses)
    tmp = p.with_name(p.name + ".part")
    if kind == "npy":
        with open(tmp, "wb") as fh:
            np.save(fh, arr)
    elif kind == "binary":
        tmp.write_bytes(arr.tobytes())
    else:
        text = "".join("01"[x] for x in arr.tolist())
        lines = [text[i:i + 100] for i in range(0, len(text), 100)]
        tmp.write_text("# tcpfade loss trace: 1 = lost, 0 = received, one slot per character\n" + "\n".join(lines) + "\n")
    tmp.replace(p)
    return p


@dataclass(frozen=True)
class TraceChannel(SlotChannel):
    """A channel replaying a recorded loss sequence, one slot per element.

    With ``wrap=False`` (the default) asking for more slots than the trace holds raises
    :class:`~tcpfade.errors.TraceExhaustedError`; with ``wrap=True`` it starts over.
    """

    losses: np.ndarray = field(repr=False)
    wrap: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "losses", as_loss_array(self.losses))
        if not isinstance(self.wrap, bool):
            raise v.fail("wrap", self.wrap, "must be True or False")

    @classmethod
    def from_file(cls, path: str | Path, fmt: str | None = None, *, wrap: bool = False) -> TraceChannel:
        """Trace channel from a file (see :func:`load_trace`)."""
        return cls(load_trace(path, fmt), wrap=wrap)

    @property
    def error_rate(self) -> float:
        """Fraction of lost slots in the trace."""
        return float(self.losses.mean())

    def _spec(self) -> dict[str, Any]:
        return {"kind": "trace", "losses": self.losses, "wrap": self.wrap}

    def describe(self) -> dict[str, Any]:
        return {"kind": "trace", "slots": int(self.losses.size), "error_rate": self.error_rate, "wrap": self.wrap}
