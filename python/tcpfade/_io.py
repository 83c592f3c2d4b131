"""Writing what a user computed, safely: every file tcpfade writes goes through :func:`write_file`.

- A regular file is written under a temporary name beside it and renamed at the end, so an interrupted write
  never leaves half a file and an old file stays whole until the new one is.
- A path that exists and is not a regular file (``/dev/full``, a FIFO), and any path under ``/dev`` or ``/proc``
  (``/dev/stdout`` is a link to ``/proc/self/fd/1``, whatever the shell redirected it to), is written in place:
  renaming over it would replace the device, or the system's link, with a file.
- A symbolic link elsewhere stays a link: the file it points to is written, under a temporary name beside that file.
- A path that is this process's standard output or error (``/dev/stdout``, the terminal, or the file or pipe the shell
  redirected it to) is written through that stream, after what was printed on it: opened again by name, a file
  redirected to would be truncated and written over from its start.
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
        system = Path(os.path.abspath(out)).parts[1:2] in (("dev",), ("proc",))
        special = system or (out.exists() and not out.is_file())
        # The link's own file is replaced, never the link (a rename over it would turn it into a plain file).
        target = Path(os.path.realpath(out)) if out.is_symlink() and not special else out
        directory = special or target.parent.is_dir()
    except OSError as exc:          # a name too long to look up, say
        raise _refused(parameter, out, exc) from None
    if special:
        stream = _standard_stream(out)
        try:
            if stream is None:
                write(out)
            else:
                _write_through(stream, write, temporary_suffix)
        except OSError as exc:
            raise _refused(parameter, out, exc) from None
        return out
    if not directory:
        raise v.fail(parameter, str(out), f"its directory {str(target.parent)!r} does not exist")
    tmp = target.with_name(target.name + ".part" + temporary_suffix)
    try:
        write(tmp)
        tmp.replace(target)
    except OSError as exc:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise _refused(parameter, out, exc) from None
    return out


def _standard_stream(out: Path) -> int | None:
    """The descriptor, 1 or 2, whose file ``out`` is (a terminal, a pipe, the file a shell redirected it to), if any."""
    try:
        st = out.stat()
    except OSError:
        return None
    for fd in (1, 2):
        try:
            f = os.fstat(fd)
        except OSError:
            continue
        if (f.st_dev, f.st_ino) == (st.st_dev, st.st_ino):
            return fd
    return None


def _write_through(fd: int, write: Callable[[Path], object], temporary_suffix: str) -> None:
    """``write`` into a temporary file, then its bytes onto descriptor ``fd`` after what Python printed there."""
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d) / ("stream" + temporary_suffix)
        write(tmp)
        for printed in (sys.stdout, sys.stderr):
            if printed is not None:
                printed.flush()
        with tmp.open("rb") as src:
            while chunk := src.read(1 << 16):
                view = memoryview(chunk)
                while view:
                    view = view[os.write(fd, view):]


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
