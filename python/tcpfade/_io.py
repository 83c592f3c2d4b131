"""Writing what a user computed, safely: every file tcpfade writes goes through :func:`write_file`.

- A regular file is written under a temporary name beside it and renamed at the end, so an interrupted write
  never leaves half a file and an old file stays whole until the new one is.
- A path that exists and is not a regular file (``/dev/stdout``, ``/dev/full``, a FIFO) is written in place:
  renaming over it would replace the device with a file.
- A write the operating system refuses (a full disk, a read-only place, a name too long, a missing directory)
  is a :class:`~tcpfade.errors.ParameterError` naming the parameter that gave the path, with the system's
  reason; the temporary file is removed.

This module sits below every subpackage (channels, runs, sweeps, plots, reproductions all write through it).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from . import _validate as v

if TYPE_CHECKING:
    import pandas as pd

#: Table formats :func:`write_table` writes, by suffix.
TABLE_FORMATS = (".csv", ".parquet")


def write_file(path: str | os.PathLike, write: Callable[[Path], object], *, parameter: str,
               temporary_suffix: str = "") -> Path:
    """Call ``write(target)`` to write ``path`` (see the module doc); ``temporary_suffix`` is added after
    ``.part`` for writers that choose the format by suffix (matplotlib). Returns ``path`` as a Path."""
    out = Path(path)
    try:
        special = out.exists() and not out.is_file()
        directory = special or out.parent.is_dir()
    except OSError as exc:          # a name too long to look up, say
        raise _refused(parameter, out, exc) from None
    if special:
        try:
            write(out)
        except OSError as exc:
            raise _refused(parameter, out, exc) from None
        return out
    if not directory:
        raise v.fail(parameter, str(out), f"its directory {str(out.parent)!r} does not exist")
    tmp = out.with_name(out.name + ".part" + temporary_suffix)
    try:
        write(tmp)
        tmp.replace(out)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise _refused(parameter, out, exc) from None
    return out


def _refused(parameter: str, out: Path, exc: OSError) -> Exception:
    return v.fail(parameter, str(out), f"cannot be written: {exc.strerror or exc}")


def write_table(frame: pd.DataFrame, out: str | os.PathLike, parameter: str) -> Path:
    """Write ``frame`` to ``out`` as CSV or Parquet by its suffix (one of :data:`TABLE_FORMATS`; a device such as
    ``/dev/stdout`` gets CSV), through :func:`write_file`; ``parameter`` is the name an error gives."""
    out = Path(out)
    if out.suffix.lower() == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError as exc:
            raise v.fail(parameter, str(out), f"Parquet needs pyarrow (pip install 'tcpfade[parquet]'): {exc}") from None
        return write_file(out, lambda p: frame.to_parquet(p, index=False), parameter=parameter)
    return write_file(out, lambda p: frame.to_csv(p, index=False), parameter=parameter)


def write_text(text: str, out: str | os.PathLike, parameter: str) -> Path:
    """Write ``text`` (UTF-8) to ``out`` through :func:`write_file`."""
    return write_file(out, lambda p: Path(p).write_text(text, encoding="utf-8"), parameter=parameter)
