"""What the store's atomic outputs ask of the file system, beyond opening and renaming files.

- **Locks that die with their holder** (``flock``). A writer holds one on its temporary output for its
  whole life, and one on the output it replaces: the next command that writes beside a temporary output
  tells a dead writer's leftovers (no lock: removed) from a live one's work (locked: left alone) by the lock,
  not by the process id in its name, which the system gives again to other processes. A forked worker does
  not keep its parent's locks (``_forget_in_child``), so a worker that outlives a killed parent does not
  keep a dead command's leftovers alive.
- **An atomic exchange** of two folders (``renameat2(RENAME_EXCHANGE)``, Linux): ``--overwrite`` puts the
  new output in place and the old one at the temporary name in one step, so no moment is without an
  output. Where the system has none, the old output is moved aside and the new one moved in; a writer
  killed between the two leaves the old one at ``.NAME.old-...``, which the next command puts back
  (``sweep``, ``recover``).
- **Fault injection** for the crash tests: ``TRUC_KILL_AT=replace`` kills the process (SIGKILL) between
  the two steps of a replacement, and ``TRUC_NO_EXCHANGE=1`` makes it use the two renames.

This module imports nothing else of ours.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import re
import shutil
import signal
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Final

TEMPORARY: Final = re.compile(r"\.(?P<name>.+)\.(?P<kind>tmp|old)-\d+-[0-9a-f]{8}")
"""The name of an output being written (``tmp``) or of an output being replaced (``old``, while the system
offers no atomic exchange), beside the output's own name: ``.NAME.tmp-PID-RANDOM``."""

KILL_AT: Final = "TRUC_KILL_AT"
NO_EXCHANGE: Final = "TRUC_NO_EXCHANGE"
"""The environment variables of fault injection (the module's docstring)."""


def temporary_beside(out: Path, kind: str) -> Path:
    """A hidden name beside ``out`` that no other command picks (``TEMPORARY``)."""
    return out.with_name(f".{out.name}.{kind}-{os.getpid()}-{uuid.uuid4().hex[:8]}")


def identity(path: Path) -> tuple[int, int] | None:
    """What tells one file or folder from another however it is reached (device and inode), links
    followed; None when there is nothing there or it cannot be read."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


_HELD: set[int] = set()
"""The descriptors this process holds a lock through (``hold``, ``track``)."""


def _forget_in_child() -> None:
    """In a forked child, close the descriptors of the parent's locks: the lock belongs to the open file,
    which the child's copies would keep locked after the parent's death."""
    for fd in _HELD:
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


os.register_at_fork(after_in_child=_forget_in_child)


def hold(path: Path, follow: bool = False) -> int | None:
    """Lock ``path`` (a file or a folder; a link is followed only when ``follow``) for this process until
    ``release``; the descriptor, or None when another process holds it. Raises ``OSError`` when it cannot
    be opened."""
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    fd = os.open(path, flags)
    if not lock(fd):
        os.close(fd)
        return None
    return fd


def lock(fd: int) -> bool:
    """Lock the open file ``fd`` for this process (until ``release``); False when another process holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    _HELD.add(fd)
    return True


def release(fd: int | None, close: bool = True) -> None:
    """Give up the lock taken through ``fd`` (closing it, unless its owner, such as a file object, will)."""
    if fd is None:
        return
    _HELD.discard(fd)
    if close:
        with contextlib.suppress(OSError):
            os.close(fd)


@contextlib.contextmanager
def folder_locked(folder: Path) -> Iterator[None]:
    """Hold ``folder`` itself locked while a command sweeps it (``sweep``) or makes its temporary output
    there and locks it: a sweep never sees a temporary output between its making and its lock. A folder
    that cannot be opened is not locked (what is then done in it fails with its own error)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def sweep(folder: Path) -> None:
    """Remove from ``folder`` the temporary outputs of commands that died (killed, out of memory, the
    machine stopped), and put back an output that was being replaced (``recover``). A temporary output
    whose writer lives is locked, and left alone. Call it inside ``folder_locked(folder)``."""
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return
    for name in names:
        match = TEMPORARY.fullmatch(name)
        if match is None:
            continue
        path = folder / name
        try:
            fd = hold(path)
        except OSError:  # gone meanwhile, or a link: not ours
            continue
        if fd is None:
            continue
        try:
            if identity_of_fd(fd) != _identity_here(path):
                continue
            if match["kind"] == "old":
                _put_back(path, folder / match["name"])
            else:
                remove(path)
        finally:
            release(fd)


def recover(out: Path) -> bool:
    """Put back the output ``out`` from an ``.old`` folder beside it that a killed ``--overwrite`` left
    (the system offered no atomic exchange); True when ``out`` exists afterwards. Raises
    ``BlockingIOError`` when such a folder is locked: a live command is replacing ``out`` right now."""
    folder = out.parent
    if not folder.is_dir():
        return False
    with folder_locked(folder):
        if out.exists():
            return True
        for name in sorted(os.listdir(folder)):
            match = TEMPORARY.fullmatch(name)
            if match is None or match["kind"] != "old" or match["name"] != out.name:
                continue
            try:
                fd = hold(folder / name)
            except OSError:
                continue
            if fd is None:
                raise BlockingIOError(errno.EWOULDBLOCK, f"{out} is being replaced")
            try:
                _put_back(folder / name, out)
            finally:
                release(fd)
        return out.exists()


def _put_back(old: Path, out: Path) -> None:
    """``old`` back at ``out`` when nothing is there, else removed. Truc Lab 0.x moved the old output into
    an ``old`` folder inside it."""
    inner = old / "old"
    source = inner if inner.is_dir() and os.listdir(old) == ["old"] else old
    if not os.path.lexists(out):
        with contextlib.suppress(OSError):
            os.rename(source, out)
    remove(old)


def identity_of_fd(fd: int) -> tuple[int, int]:
    status = os.fstat(fd)
    return status.st_dev, status.st_ino


def _identity_here(path: Path) -> tuple[int, int] | None:
    """``identity`` of ``path`` itself, not followed when it is a link."""
    try:
        status = path.lstat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def remove(path: Path) -> None:
    """Remove the file or folder ``path`` (not followed when it is a link), whatever stops it: a clean-up
    must not hide, by an error of its own, the error that called for it (on a read-only disk, removing a
    file that was never made fails with 'read-only file system')."""
    try:
        mode = path.lstat().st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


_RENAME_NOREPLACE: Final = 1
_RENAME_EXCHANGE: Final = 2
_AT_FDCWD: Final = -100
_UNSUPPORTED: Final = frozenset({errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP})


def _renameat2(source: Path, target: Path, flags: int) -> bool:
    """``renameat2(source, target, flags)``; False when the system or the file system does not offer it.
    Raises ``OSError`` for any other failure."""
    if os.environ.get(NO_EXCHANGE) == "1":
        return False
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        return False
    raise OSError(code, os.strerror(code), str(source), None, str(target))


def exchange(source: Path, target: Path) -> bool:
    """Swap the names ``source`` and ``target`` in one step; False when the system cannot."""
    return _renameat2(source, target, _RENAME_EXCHANGE)


def rename_new(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, which must not exist: ``FileExistsError`` when it does (in one step
    where the system offers it; else checked just before)."""
    if _renameat2(source, target, _RENAME_NOREPLACE):
        return
    if os.path.lexists(target):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.rename(source, target)


def fault(step: str) -> None:
    """Kill this process at ``step`` when ``TRUC_KILL_AT`` names it: the crash tests' hook."""
    if step in os.environ.get(KILL_AT, "").split(","):
        os.kill(os.getpid(), signal.SIGKILL)
