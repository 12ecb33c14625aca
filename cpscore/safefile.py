"""Rewrite a file safely: locked, atomic, durable, and never through a trap.

:func:`rewrite` is the one primitive ``cpscore add`` uses to change a session
file.  It replaces the file's contents with ``change(current)`` so that:

* concurrent callers are serialised and none is lost: an exclusive lock is
  held from the read to the rename;
* a crash or a kill at any moment leaves either the old file or the new one,
  never a mix: the new bytes go to a temporary file beside the target, are
  flushed to disk, renamed over it, and the folder is flushed too;
* what the path is stays what it was: a symbolic link keeps pointing where it
  pointed (the write goes to its final target), the mode bits and the owner
  are kept;
* files that cannot be sessions are refused before anything is opened: a FIFO
  (opening one would block), a device, a socket, a folder, a dangling link, a
  file with several hard links (an atomic replace would split them), and a
  read-only file is never written.

The lock
--------
The lock is an exclusive ``fcntl.flock`` on a sidecar file
``.<name>.lock`` in the target's folder (``<name>`` is the final target's
name, so every link to one file shares one lock).  It is created with mode
``0o600`` (less the umask) and **kept afterwards**: removing a lock file
while another process waits on it would let two writers hold "the" lock on
two different files.  The lock is not on the session file itself because the
rename replaces that file, and a lock on a replaced inode protects nothing.

Acquisition blocks but is bounded: it polls with ``LOCK_NB`` and short sleeps
for up to ``lock_timeout`` seconds, then gives up with
:class:`~cpscore.errors.EnvironmentFailure`.  The kernel releases a flock when
the process holding it dies, however it dies, so a killed writer never blocks
the next one; the temporary files killed writers leave behind are removed by
the next writer, under the lock.

Why ``fcntl.flock`` and not the ``filelock`` package: it is in the standard
library (no new dependency), it is the very mechanism ``filelock`` uses on
POSIX underneath, and it is released by the kernel when the holder dies.  It
is POSIX only; where ``fcntl`` is missing, :func:`rewrite` raises
:class:`~cpscore.errors.EnvironmentFailure` saying safe appends need a POSIX
system.

Errors
------
Every message is one line, names the file as the caller gave it, says the
file is unchanged where that is true, and says how to fix it when it can.
:class:`~cpscore.errors.FileRefused` (bad input, exit code 2): not a regular
file, a dangling link, a missing folder, several hard links, an owner that
could not be kept.  :class:`~cpscore.errors.EnvironmentFailure` (exit code 1):
a read-only file or folder, a lock held too long, a failed read or write (a
full disk, an I/O error).  An exception raised by ``change`` is propagated
unchanged, with nothing written.  The module never prints or exits.

Imports of ``fcntl``, ``tempfile`` and ``time`` happen inside the functions,
so importing this module costs nothing at start-up.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

from cpscore.errors import EnvironmentFailure, FileRefused

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

__all__ = ["rewrite"]

import errno as _errno  # noqa: E402 - small, and already imported by os

#: Errors that say the path cannot name a file (too long, a file used as a folder, a loop).
_BAD_PATHS = {_errno.ENAMETOOLONG, _errno.ENOTDIR, _errno.ELOOP}

#: The characters ``tempfile.mkstemp`` draws its random part from.
_RANDOM_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
#: The shortest random part a leftover temporary file may have to be removed.
_SHORTEST_RANDOM = 6

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link that could not be followed"),
)


def rewrite(path: str, change: Callable[[bytes | None], bytes], *, lock_timeout: float = 30.0) -> None:
    """Replace the contents of `path` with change(current), where current is the file's
    bytes (None when the file does not exist yet), all under an exclusive lock held from
    the read to the rename, so concurrent callers are serialised and none is lost.

    ``path`` is resolved with :func:`os.path.realpath`: a symbolic link is
    kept and its final target rewritten.  The lock file ``.<name>.lock`` is
    created beside the target and kept.  ``lock_timeout`` bounds the wait for
    the lock, in seconds (0: one try).

    Raises :class:`~cpscore.errors.FileRefused` for a path that cannot be a
    session file and :class:`~cpscore.errors.EnvironmentFailure` when the
    machine fails the write; in both cases the file is unchanged.  Whatever
    ``change`` raises is propagated as it is, and nothing is written.
    """
    try:
        import fcntl
    except ImportError:
        raise EnvironmentFailure(
            f"cannot rewrite {path} safely: safe appends need a POSIX system (fcntl.flock is missing here); "
            "the file is unchanged"
        ) from None

    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    _check_folder(path, folder)
    found = _stat(path, target)
    if found is not None:
        _check(path, target, found)

    lock = _lock(fcntl, path, os.path.join(folder, f".{name}.lock"), lock_timeout)
    try:
        _remove_leftovers(folder, name)
        current, found = _read(path, target)
        new = change(current)
        if not isinstance(new, bytes | bytearray | memoryview):
            raise TypeError(f"change must return bytes, not {type(new).__name__}; {path} is unchanged")
        _write(path, target, folder, name, bytes(new), found)
    finally:
        os.close(lock)


def _check_folder(path: str, folder: str) -> None:
    """The target's folder exists, is a folder, and can take a temporary file."""
    try:
        found = os.stat(folder)
    except FileNotFoundError:
        raise FileRefused(f"{path}: the folder {folder} does not exist; create it first or check the path") from None
    except OSError as error:
        raise EnvironmentFailure(
            f"could not reach the folder of {path}: {_reason(error)}; the file is unchanged"
        ) from None
    if not stat.S_ISDIR(found.st_mode):
        raise FileRefused(f"{path}: {folder} is not a folder; check the path")
    if not _access(folder, os.W_OK | os.X_OK):
        raise EnvironmentFailure(
            f"cannot write in the folder {folder} of {path}, where the safe rewrite puts its temporary file; "
            "the file is unchanged; make the folder writable"
        )


def _stat(path: str, target: str) -> os.stat_result | None:
    """The target's status without opening it (None: it does not exist yet)."""
    try:
        return os.lstat(target)
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileRefused(
                f"{path}: a symbolic link to {target}, which does not exist; the link is unchanged; "
                "fix the link or give the path of the file itself"
            ) from None
        return None
    except OSError as error:
        if error.errno in _BAD_PATHS:  # the path itself is wrong: the input's fault
            raise FileRefused(f"{_short(path)}: {_reason(error)}; check the path") from None
        raise EnvironmentFailure(f"could not read {path}: {_reason(error)}; the file is unchanged") from None


def _check(path: str, target: str, found: os.stat_result) -> None:
    """Refuse a target that is not a regular file, has several hard links, or is read-only."""
    if not stat.S_ISREG(found.st_mode):
        kind = next((kind for test, kind in _KINDS if test(found.st_mode)), "a special file")
        raise FileRefused(
            f"{path}: not a regular file ({kind}); it was left untouched; give the path of a session file"
        )
    if found.st_nlink > 1:
        raise FileRefused(
            f"{path}: the file has {found.st_nlink} hard links, and an atomic rewrite would split them; "
            f"the file is unchanged; copy it to a file of its own (cp {path} NEW) and use that"
        )
    if os.geteuid() == 0:
        # root may write anything, so os.access says yes: a file nobody may
        # write is read-only on purpose
        read_only = found.st_mode & 0o222 == 0
    else:
        read_only = not _access(target, os.W_OK)
    if read_only:
        raise EnvironmentFailure(
            f"{path} is read-only; the file is unchanged; make it writable (chmod u+w {path}) and try again"
        )


def _access(where: str, mode: int) -> bool:
    if os.access in os.supports_effective_ids:
        return os.access(where, mode, effective_ids=True)
    return os.access(where, mode)


def _lock(fcntl: ModuleType, path: str, lock_path: str, timeout: float) -> int:
    """Open the lock file and take an exclusive flock on it, waiting at most
    ``timeout`` seconds.  Returns the open descriptor (closing it unlocks)."""
    import time

    flags = os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        try:
            handle = os.open(lock_path, os.O_RDWR | os.O_CREAT | flags, 0o600)
        except PermissionError:
            handle = os.open(lock_path, os.O_RDONLY | flags)  # another user's lock file: flock works read-only
    except OSError as error:
        raise EnvironmentFailure(
            f"could not open the lock file {lock_path} for {path}: {_reason(error)}; the file is unchanged"
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise EnvironmentFailure(
                f"the lock file {lock_path} for {path} is not a regular file; the file is unchanged; "
                "remove it and try again"
            )
        deadline = time.monotonic() + timeout
        pause = 0.001
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return handle
            except BlockingIOError:
                pass
            except OSError as error:
                raise EnvironmentFailure(f"could not lock {path}: {_reason(error)}; the file is unchanged") from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EnvironmentFailure(
                    f"another cpscore add holds the lock on {path} for over {timeout:g} s; the file is unchanged; "
                    "wait for it to finish (or stop it) and try again"
                )
            time.sleep(min(pause, remaining))
            pause = min(pause * 2, 0.05)
    except BaseException:
        os.close(handle)
        raise


def _remove_leftovers(folder: str, name: str) -> None:
    """Remove ``.<name>.<random>.tmp`` files that killed writers left behind.

    Called under the lock, so no live writer of this file has one.  Only
    regular files whose random part looks like ``tempfile.mkstemp``'s (at
    least six of its characters, no dot) are removed.  Best effort: a
    leftover that cannot be removed does not stop the rewrite."""
    prefix, suffix = f".{name}.", ".tmp"
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for entry in names:
        if not (entry.startswith(prefix) and entry.endswith(suffix)):
            continue
        middle = entry[len(prefix) : len(entry) - len(suffix)]
        if len(middle) < _SHORTEST_RANDOM or not _RANDOM_CHARACTERS.issuperset(middle):
            continue
        leftover = os.path.join(folder, entry)
        try:
            if stat.S_ISREG(os.lstat(leftover).st_mode):
                os.unlink(leftover)
        except OSError:
            pass


def _read(path: str, target: str) -> tuple[bytes | None, os.stat_result | None]:
    """Under the lock: check the target again (it may have been created or
    replaced meanwhile) and read it.  Returns its bytes and status, or
    ``(None, None)`` when it does not exist."""
    found = _stat(path, target)
    if found is None:
        return None, None
    _check(path, target, found)
    try:
        # O_NONBLOCK: should a FIFO have been put there since the check, opening it does not block
        handle = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        with open(handle, "rb") as file:
            found = os.fstat(handle)
            _check(path, target, found)
            return file.read(), found
    except OSError as error:
        raise EnvironmentFailure(f"could not read {path}: {_reason(error)}; the file is unchanged") from None


def _write(path: str, target: str, folder: str, name: str, data: bytes, found: os.stat_result | None) -> None:
    """Write ``data`` to a temporary file beside the target, keep the mode and
    owner of the existing file, flush it, rename it over the target and flush
    the folder.  On any failure the temporary file is removed."""
    import tempfile

    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    except OSError as error:
        raise EnvironmentFailure(f"could not write {path}: {_reason(error)}; the file is unchanged") from None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
        if found is None:
            os.fchmod(handle, 0o666 & ~_umask())  # a new file gets the usual mode, not mkstemp's 0o600
        else:
            mine = os.fstat(handle)
            if (mine.st_uid, mine.st_gid) != (found.st_uid, found.st_gid):
                try:
                    os.fchown(handle, found.st_uid, found.st_gid)
                except PermissionError:
                    raise FileRefused(
                        f"{path}: could not keep its owner ({found.st_uid}:{found.st_gid}) when rewriting it; "
                        "the file is unchanged; run the command as that user"
                    ) from None
            os.fchmod(handle, found.st_mode & 0o7777)  # after fchown, which clears set-user-ID bits
        os.fsync(handle)
        os.close(handle)
        handle = -1
        os.replace(temporary, target)
    except BaseException as error:
        if handle >= 0:
            try:
                os.close(handle)
            except OSError:
                pass
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise EnvironmentFailure(f"could not write {path}: {_reason(error)}; the file is unchanged") from None
        raise
    _sync_folder(path, folder)


def _sync_folder(path: str, folder: str) -> None:
    """Flush the folder, so the rename itself survives a power cut."""
    import errno

    try:
        handle = os.open(folder, os.O_RDONLY | os.O_CLOEXEC)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
    except OSError as error:
        if error.errno in (errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
            return  # a file system that cannot flush folders
        raise EnvironmentFailure(
            f"{path} was rewritten, but its folder could not be flushed to disk: {_reason(error)}; "
            "the change may be lost if the machine stops now"
        ) from None


def _umask() -> int:
    """The process's umask, read without changing it where Linux allows."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o077)  # the restrictive value, should a thread create a file meanwhile
    os.umask(mask)
    return mask


def _short(path: str) -> str:
    return path if len(path) <= 80 else path[:40] + "..." + path[-30:]


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__
