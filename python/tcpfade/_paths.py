"""Files and directories as parameters: the rule for a path to read or to write (:class:`FilePath`) and why a path
cannot serve (``unreadable``, ``unwritable``, ``uncreatable``, ``unwritable_directory``), which the API's rules and
the command line's parameter types share. Checked before any work is done, so that no result is computed only to be
lost. :mod:`tcpfade._validate` re-exports them (``v.FilePath``, ``v.unwritable``, ...)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from ._validate import Rule, fail
from .errors import ParameterTypeError


class FilePath(Rule):
    """A path (str or os.PathLike). ``must="exist"``: an existing regular file; ``must="write"``: a file that
    can be created or replaced (its directory exists and is writable, and it is not a directory), checked before
    any work is done so that no result is computed only to be lost."""

    def __init__(self, must: str = "exist") -> None:
        self.must = must

    def describe(self) -> str:
        return "must be an existing file" if self.must == "exist" else \
            "must be a file path in an existing, writable directory"

    def check(self, name: str, value: Any) -> Path:
        if not isinstance(value, (str, os.PathLike)) or isinstance(value, bytes):
            raise fail(name, value, "must be a path (str or pathlib.Path)", kind=ParameterTypeError)
        try:
            p = Path(value)
            text = str(p)
        except (TypeError, ValueError):
            raise fail(name, value, "must be a path (str or pathlib.Path)", kind=ParameterTypeError) from None
        if not text or "\x00" in text:
            raise fail(name, value, "must be a non-empty path without NUL characters")
        try:
            why = unreadable(p) if self.must == "exist" else unwritable(p)
        except OSError as exc:   # a name longer than the file system allows, a loop of links, ...
            why = f"cannot be used: {exc.strerror or exc}"
        if why:
            raise fail(name, text, why)
        return p


# Why a path cannot serve (None: it can). The API's rules and the command line's parameter types share them.

def unreadable(path: Path) -> str | None:
    """Why ``path`` is not a file one can read."""
    if not path.is_file():
        return "must be an existing file" + (" (it is a directory)" if path.is_dir() else "")
    if not os.access(path, os.R_OK):
        return "must be a readable file (permission denied)"
    return None


class Destination(NamedTuple):
    """How a file is written to a path (:func:`destination`): ``how`` is ``"stream"`` (the path is this process's
    standard output or error, written through descriptor ``fd`` after what was printed there), ``"in_place"`` (a
    device, a FIFO, anything under /dev or /proc, or a file whose directory is closed to new files: opened and
    written), or ``"replace"`` (a regular file, new or not, written under a temporary name beside ``target`` and
    renamed over it); ``target`` is the path itself, or the file a symbolic link leads to."""

    how: str
    target: Path
    fd: int | None = None


def destination(path: Path) -> Destination:
    """How a file at ``path`` is written: the one rule :func:`unwritable` checks and ``tcpfade._io.write_file``
    follows. A symbolic link stays a link (its file is written, never the link replaced); a loop of links raises the
    system's OSError (ELOOP)."""
    if path.is_symlink():
        try:
            os.stat(path)
        except OSError as exc:   # a loop of links is an error here, not a file made in its place; a dangling link is
            if exc.errno == errno.ELOOP:   # the file to make
                raise
    fd = standard_stream(path)
    if fd is not None:
        return Destination("stream", path, fd)
    # Under /dev or /proc by its name or by where its links lead (a link to /dev, or into it).
    system = any(Path(p).parts[1:2] in (("dev",), ("proc",)) for p in (os.path.abspath(path), os.path.realpath(path)))
    if system or (path.exists() and not path.is_file()):
        return Destination("in_place", path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    if target.is_file() and os.access(target, os.W_OK) and not _renamable(target):
        return Destination("in_place", target)   # a file it may write but not replace
    return Destination("replace", target)


def streamed(path: Path) -> bool:
    """Whether a file at ``path`` goes to a stream or is written in place (standard output, a device, a FIFO), where a
    table is CSV whatever the name says; False for a path the system cannot look up (its write says why)."""
    try:
        return destination(path).how != "replace"
    except OSError:
        return False


def _renamable(target: Path) -> bool:
    """Whether a file may be renamed over the existing ``target``: its directory takes new files, and, if the directory
    is sticky (/tmp), the file or the directory is this user's (root may always)."""
    parent = target.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        return False
    if os.geteuid() == 0 or not parent.stat().st_mode & stat.S_ISVTX:
        return True
    return os.geteuid() in (target.stat().st_uid, parent.stat().st_uid)


def standard_stream(path: Path) -> int | None:
    """The descriptor, 1 or 2, whose file ``path`` is (a terminal, a pipe, the file a shell redirected it to), if
    any: written by name, such a file would be truncated under what was printed, or renamed away from the shell."""
    try:
        st = path.stat()
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


def unwritable(path: Path) -> str | None:
    """Why no file can be written at ``path`` (as :func:`destination` would write it): a directory, a directory that
    does not exist or is not writable, a file that exists and is not writable, a device other than the null device
    and the standard streams, a new name under /dev or /proc."""
    if path.is_dir():
        return "must be a file path, not a directory"
    how, target, _ = destination(path)
    if how == "stream":
        return None
    if how == "in_place":
        if not target.exists():
            if not target.parent.is_dir():
                return f"its directory {str(target.parent)!r} does not exist"
            return "is not there, and no file is made under /dev or /proc"
        if not os.access(target, os.W_OK):
            return "the file exists and is not writable"
        # The standard streams are "stream" above: of the other devices only the null device takes a table.
        if stat.S_ISCHR(target.stat().st_mode) and os.path.realpath(target) != os.path.realpath(os.devnull):
            return "is a device, not a file to write into"
        return None
    if target.is_dir():
        return "must be a file path, not a directory" + (f" (it leads to {str(target)!r})" if target != path else "")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        return f"its directory {str(parent)!r} does not exist (create it first)"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"its directory {str(parent)!r} is not writable"
    if target.exists() and not os.access(target, os.W_OK):
        return "the file exists and is not writable"
    # The temporary file's path: the directory, "/.tcpfade-", 8 random characters, ".part" and a suffix such as ".png".
    if len(os.fsencode(os.path.abspath(parent))) + 27 >= os.pathconf(parent, "PC_PATH_MAX"):
        return f"its directory's path is too long for the temporary file written beside it ({str(parent)!r})"
    space = os.statvfs(parent)
    if (space.f_bfree if os.geteuid() == 0 else space.f_bavail) == 0:
        return f"its file system is full ({str(parent)!r})"
    # The permission bits do not tell for root: a pseudo-file system (/proc, /sys) or a read-only mount says no only
    # when a file is made there.
    why = unwritable_directory(parent)
    return None if why is None else f"its directory {str(parent)!r}: {why}"


def uncreatable(path: Path) -> str | None:
    """Why ``path`` (and the directories above it that are missing) cannot be created, or, if it exists, written
    into: its nearest existing ancestor must be a writable directory."""
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        return f"cannot be created or written ({str(probe)!r} is not a writable directory)"
    return None


def unwritable_directory(path: Path) -> str | None:
    """Why no file can be created in the existing directory ``path``, found by creating (and removing) one: the
    permission bits do not tell for root, to whom a read-only mount or a pseudo-file system (/proc, /sys) says no only
    when asked."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        return f"no file can be created in it ({exc.strerror or exc})"
    return None


def path(name: str, value: object) -> "os.PathLike[str]":
    """A file system path: a non-empty str or an os.PathLike (a pathlib.Path), never a number, a bool or None."""
    if isinstance(value, os.PathLike) or (isinstance(value, str) and value):
        return Path(value)
    raise fail(name, value, "must be a file path (a non-empty str or a pathlib.Path)", kind=ParameterTypeError)
