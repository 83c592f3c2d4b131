"""Writing what a user computed, safely: every file tcpfade writes goes through :func:`write_file`.

Where and how a path is written is one rule, ``tcpfade._paths.destination``, which the check before a run
(``unwritable``) follows too, so that no result is computed only to be lost:

- A regular file is written under a temporary name of its own beside it and renamed at the end, so an interrupted
  write (an error, Ctrl-C) never leaves half a file, an old file stays whole until the new one is, and no temporary
  file is left behind. A symbolic link stays a link: the file it leads to is the one replaced.
- A path that is this process's standard output or error (``/dev/stdout``, the terminal, or the file or pipe the
  shell redirected it to, by any name) is written through that descriptor, after what was printed on it: written by
  name, a redirected file would be truncated under what was printed, or renamed away from the shell.
- A path that exists and is not a regular file (``/dev/null``, a FIFO; any other device is refused), anything under
  ``/dev`` or ``/proc`` by its name or through a link (never a new file there), and a writable file that may not be
  replaced (its directory takes no new files, or is sticky and neither it nor the file is the user's) is written in
  place. A replaced file keeps its mode, and, when root replaces it, its owner; a hard link to it is not followed.
- A write the operating system refuses (a full disk, a read-only place, a name too long, a missing directory, a loop
  of links) is a :class:`~tcpfade.errors.ParameterError` naming the parameter that gave the path, with the system's
  reason.

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
    """Call ``write(target)`` to write ``path`` (see the module doc); ``temporary_suffix`` ends the temporary file's
    name, for writers that choose the format by suffix (matplotlib). Returns ``path`` as a Path."""
    out = Path(path)
    try:
        how, target, fd = v.destination(out)
        if how == "replace" and not target.parent.is_dir():
            raise v.fail(parameter, str(out), f"its directory {str(target.parent)!r} does not exist")
    except OSError as exc:          # a name too long to look up, a loop of links
        raise _refused(parameter, out, exc) from None
    try:
        if how == "stream":
            _write_through(fd, write, temporary_suffix)
        elif how == "in_place":
            if not target.exists():
                raise v.fail(parameter, str(out), "is not there, and no file is made under /dev or /proc")
            write(target)
        else:
            _replace(target, write, temporary_suffix)
    except BrokenPipeError:
        raise   # a reader that stopped reading (| head): as when printing to it, not a fault of the path
    except OSError as exc:
        raise _refused(parameter, out, exc) from None
    return out


def _replace(target: Path, write: Callable[[Path], object], temporary_suffix: str) -> None:
    """``write`` a temporary file beside ``target`` (a name of its own, short whatever the target's, so a user's file
    is never taken for it), then rename it over ``target``; the temporary file goes, whatever stops the write."""
    import tempfile

    handle, name = tempfile.mkstemp(prefix=".tcpfade-", suffix=".part" + temporary_suffix, dir=target.parent)
    tmp = Path(name)
    try:
        try:   # mkstemp's file is private (0600): the result gets the mode the file had, or a new file's under the umask
            old = target.stat() if target.exists() else None
            if old is not None and os.geteuid() == 0:
                os.fchown(handle, old.st_uid, old.st_gid)   # root rewriting a user's file leaves it the user's
            os.fchmod(handle, old.st_mode & 0o7777 if old is not None else 0o666 & ~_umask())
        finally:
            os.close(handle)
        write(tmp)
        tmp.replace(target)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
    """Write ``frame`` to ``out`` as CSV or Parquet by its suffix (one of :data:`TABLE_FORMATS`; standard output, a
    device or a FIFO gets CSV whatever its name), through :func:`write_file`; ``parameter`` is the name an error
    gives."""
    out = Path(out)
    if out.suffix.lower() == ".parquet" and not v.streamed(out):
        try:
            import pyarrow  # noqa: F401
        except ImportError as exc:
            raise v.fail(parameter, str(out), f"Parquet needs pyarrow (pip install 'tcpfade[parquet]'): {exc}") from None
        return write_file(out, lambda p: frame.to_parquet(p, index=False), parameter=parameter)
    return write_file(out, lambda p: frame.to_csv(p, index=False), parameter=parameter)


def write_text(text: str, out: str | os.PathLike, parameter: str) -> Path:
    """Write ``text`` (UTF-8) to ``out`` through :func:`write_file`."""
    return write_file(out, lambda p: Path(p).write_text(text, encoding="utf-8"), parameter=parameter)
