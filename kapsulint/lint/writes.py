"""Writing fixed files safely: where ``--fix`` may write, how it replaces a file, and its lock.

A file is written only when it is a regular file inside the repository (the git top level of the
project root, else the project root), reached from there without a symlink, not read-only, in a
directory that is not read-only, and writable by the user. Its directories are opened one by one
from the repository down, never following a symlink (``O_NOFOLLOW``), and every later step names
the file relative to the directory opened, so a directory swapped for a symlink meanwhile is
refused, not followed.

A file is replaced only while it holds the bytes its edits were computed from: the new text goes
to a temporary file beside it, then the original is compared again (its bytes, and its inode,
size and modification time) just before ``os.replace`` renames the temporary file over it. What
is left is the time between that last comparison and the rename, one system call: a program that
writes the file in place during it loses its write. Terminating signals are held back from the
creation of the temporary files until they are renamed or removed, so Python always removes them;
only ``kill -9`` (or a crash of the machine) can leave one, and the next ``--fix`` removes it.

One ``--fix`` runs at a time per repository: an exclusive ``flock`` on a lock file in the cache
directory (named after the repository's real path), or in the repository's top directory when
the cache directory cannot hold it. The lock file is removed when the lock is released.
"""

from __future__ import annotations

import hashlib
import os
import re
import signal
import stat
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kapsulint.cachedir import cache_dir

LOCK_TIMEOUT = 300.0  # seconds a --fix waits for another one on the same repository
_LOCK_POLL = 0.1
# The temporary file of a write: ``.NAME.XXXXXXXX.kapsulint-PID``, beside the file NAME (never a
# name Terraform or discovery reads: it does not end in .tf, .tfvars, .yaml...). Names without
# ``-PID`` are those of earlier versions.
_TEMPORARY = re.compile(r"\..+\.[a-z0-9_]{8}\.kapsulint(?:-(\d+))?")
STALE_AFTER = 10 * 60  # seconds after which a temporary file is stale whatever its process
_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_DIR_FD = os.open in os.supports_dir_fd and os.replace in os.supports_dir_fd and os.stat in os.supports_dir_fd
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class Refusal(Exception):
    """A file kapsulint does not write, and why (the message reads after the file's name)."""


class LockError(Exception):
    """The ``--fix`` lock could not be taken: another ``--fix`` of the repository held it for
    longer than the wait allows, or no lock file could be created."""


class _Target:
    """A file to write: its directory, opened from the repository down without a symlink (a
    descriptor, or None where the platform has no ``dir_fd``), its name there and its status."""

    def __init__(self, path: str, directory_fd: int | None, name: str, status: os.stat_result) -> None:
        self.path = path
        self.directory_fd = directory_fd
        self.name = name  # relative to directory_fd, or the whole path without it
        self.status = status

    def sibling(self, name: str) -> str:
        return name if self.directory_fd is not None else os.path.join(os.path.dirname(self.path), name)

    def close(self) -> None:
        if self.directory_fd is not None:
            os.close(self.directory_fd)
            self.directory_fd = None


def _open_directory(directory: str, boundary: str) -> int | None:
    """The directory ``directory`` (inside ``boundary``), opened from the boundary down, never
    through a symlink; raises Refusal. Without ``dir_fd`` support, checked by ``lstat`` only (None)."""
    relative = os.path.relpath(directory, boundary)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        raise Refusal("is outside the repository; kapsulint writes only inside it")
    parts = [] if relative == os.curdir else relative.split(os.sep)
    descriptor = None
    try:
        if _DIR_FD:
            descriptor = os.open(boundary, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
        for index, part in enumerate(parts):
            where = part if _DIR_FD else os.path.join(boundary, *parts[: index + 1])
            if stat.S_ISLNK(os.stat(where, dir_fd=descriptor, follow_symlinks=False).st_mode):
                raise Refusal(f"is reached through a symlink ({'/'.join(parts[: index + 1])}); kapsulint never "
                              "writes through one")
            if descriptor is not None:  # O_NOFOLLOW: a symlink put there since the stat is refused too
                inner = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=descriptor)
                os.close(descriptor)
                descriptor = inner
    except BaseException as error:
        if descriptor is not None:
            os.close(descriptor)
        if isinstance(error, OSError):
            raise Refusal(f"cannot be reached ({error.strerror or error})") from None
        raise
    return descriptor


def _target(path: str, boundary: str) -> _Target:
    """The file at ``path`` if kapsulint may replace it; raises Refusal saying why not."""
    if not os.path.isabs(path) or os.path.normpath(path) != path:
        raise Refusal("is not a plain absolute path")
    directory, name = os.path.split(path)
    descriptor = _open_directory(directory, os.path.normpath(boundary))
    if descriptor is None:
        name = path
    try:
        try:
            status = os.stat(name, dir_fd=descriptor, follow_symlinks=False)
        except OSError as error:
            raise Refusal(f"cannot be read ({error.strerror or error})") from None
        mode = status.st_mode
        if stat.S_ISLNK(mode):
            raise Refusal("is a symlink; kapsulint never writes through one")
        if not stat.S_ISREG(mode):
            raise Refusal("is not a regular file")
        if not mode & 0o222:
            raise Refusal(f"is read-only (mode {stat.S_IMODE(mode):04o})")
        if not _may(os.W_OK, path, name, descriptor):
            raise Refusal("is not writable by this user")
        directory_mode = os.stat(directory).st_mode if descriptor is None else os.fstat(descriptor).st_mode
        if not directory_mode & 0o222:
            raise Refusal(f"is in a read-only directory (mode {stat.S_IMODE(directory_mode):04o})")
        if not _may(os.W_OK | os.X_OK, directory, directory, None):
            raise Refusal("is in a directory this user cannot write")
    except BaseException:
        if descriptor is not None:
            os.close(descriptor)
        raise
    return _Target(path, descriptor, name, status)


def _may(mode: int, path: str, name: str, directory_fd: int | None) -> bool:
    """``os.access`` of the file opened as ``name`` in ``directory_fd`` (at ``path``)."""
    if directory_fd is not None and os.access in os.supports_dir_fd:
        return os.access(name, mode, dir_fd=directory_fd)
    return os.access(path, mode)


def refusal(path: str, boundary: str) -> str | None:
    """Why kapsulint would not write ``path`` (after the file's name), or None when it may."""
    try:
        _target(path, boundary).close()
    except Refusal as refused:
        return str(refused)
    return None


class _Prepared:
    """A file's new text written to a temporary file beside it, not renamed yet."""

    def __init__(self, target: _Target, expected: bytes, temporary: str) -> None:
        self.target = target
        self.expected = expected
        self.temporary: str | None = temporary

    def discard(self) -> None:
        if self.temporary is not None:
            try:
                os.unlink(self.temporary, dir_fd=self.target.directory_fd)
            except OSError:
                pass
            self.temporary = None
        self.target.close()


def _identity(status: os.stat_result) -> tuple[int, int, int, int]:
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


def _holds(target: _Target, expected: bytes) -> bool:
    """Whether the file still is the one ``target`` found and holds exactly ``expected``."""
    try:
        handle = os.open(target.name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=target.directory_fd)
    except OSError:
        return False
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode) or _identity(status) != _identity(target.status):
            return False
        chunks = []
        while True:
            chunk = os.read(handle, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks) == expected
    finally:
        os.close(handle)


def _prepare(path: str, expected: bytes, data: bytes, boundary: str) -> _Prepared:
    """Check the file and write ``data`` to a temporary file beside it; raises Refusal."""
    target = _target(path, boundary)
    try:
        if not _holds(target, expected):
            raise Refusal("changed since kapsulint read it; left as it is")
        random = os.urandom(4).hex()
        temporary = target.sibling(f".{os.path.basename(path)}.{random}.kapsulint-{os.getpid()}")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
        try:
            handle = os.open(temporary, flags, 0o600, dir_fd=target.directory_fd)
        except OSError as error:
            raise Refusal(f"cannot be written ({error.strerror or error})") from None
    except BaseException:
        target.close()
        raise
    prepared = _Prepared(target, expected, temporary)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view):]
            _keep_owner(handle, target.status)
            os.chmod(handle if os.chmod in os.supports_fd else temporary, stat.S_IMODE(target.status.st_mode))
            os.fsync(handle)
        finally:
            os.close(handle)
    except OSError as error:
        prepared.discard()
        raise Refusal(f"cannot be written ({error.strerror or error})") from None
    except BaseException:
        prepared.discard()
        raise
    return prepared


def _keep_owner(handle: int, status: os.stat_result) -> None:
    """Give the new file the original's owner and group where this user may (root may: a --fix run
    as root leaves a user's file theirs); else its group where it may; else its own."""
    if not hasattr(os, "fchown"):
        return
    for owner in (status.st_uid, -1):
        try:
            os.fchown(handle, owner, status.st_gid)
            return
        except OSError:
            continue


def _commit(prepared: _Prepared) -> None:
    """Rename the temporary file over the original if it still holds what was read; raises Refusal."""
    target = prepared.target
    if not _holds(target, prepared.expected):
        raise Refusal("changed while kapsulint was writing it; left as it is")
    assert prepared.temporary is not None  # a prepared write is committed before it is discarded
    try:
        os.replace(prepared.temporary, target.name, src_dir_fd=target.directory_fd,
                   dst_dir_fd=target.directory_fd)
    except OSError as error:
        raise Refusal(f"cannot be written ({error.strerror or error})") from None
    prepared.temporary = None
    if target.directory_fd is not None:
        try:
            os.fsync(target.directory_fd)  # the rename itself reaches the disk
        except OSError:
            pass


def replace_files(changes: dict[str, tuple[bytes, bytes]], boundary: str) -> dict[str, str]:
    """Replace each file of ``changes`` (path -> (the bytes it must hold, its new bytes)), all or
    nothing: the files refused, with why. When one is refused before any rename, none is written;
    when a rename is refused after others (the file changed in between), those are put back."""
    refused: dict[str, str] = {}
    prepared: list[_Prepared] = []
    with _signals_held():
        try:
            for path, (expected, data) in changes.items():
                try:
                    prepared.append(_prepare(path, expected, data, boundary))
                except Refusal as refusal_:
                    refused[path] = str(refusal_)
            if refused:
                return refused
            done: list[tuple[str, bytes, bytes]] = []
            for item in prepared:
                try:
                    _commit(item)
                except Refusal as refusal_:
                    refused[item.target.path] = str(refusal_)
                    break
                done.append((item.target.path, changes[item.target.path][1], item.expected))
            for path, written, original in done if refused else ():
                try:  # no fix is left half applied
                    prepared.append(_prepare(path, written, original, boundary))
                    _commit(prepared[-1])
                except Refusal as refusal_:
                    refused[path] = f"holds part of a fix: {refusal_}"
            return refused
        finally:
            for item in prepared:
                item.discard()


def remove_stale_temporaries(directories: set[str], boundary: str) -> list[str]:
    """Remove the temporary files of kapsulint's naming left in ``directories`` by a write that
    never finished (its process is gone, or it is older than STALE_AFTER); the paths removed."""
    removed = []
    now = time.time()
    for directory in sorted(directories):
        try:
            descriptor = _open_directory(directory, os.path.normpath(boundary))
        except Refusal:
            continue
        try:
            names = os.listdir(descriptor if descriptor is not None else directory)
            for name in names:
                match = _TEMPORARY.fullmatch(name)
                if match is None:
                    continue
                where = name if descriptor is not None else os.path.join(directory, name)
                try:
                    status = os.stat(where, dir_fd=descriptor, follow_symlinks=False)
                    if not stat.S_ISREG(status.st_mode):
                        continue
                    if now - status.st_mtime < STALE_AFTER and _alive(match.group(1)):
                        continue
                    os.unlink(where, dir_fd=descriptor)
                except OSError:
                    continue
                removed.append(os.path.join(directory, name))
        except OSError:
            pass
        finally:
            if descriptor is not None:
                os.close(descriptor)
    return removed


def _alive(pid_text: str | None) -> bool:
    """Whether the process that wrote a temporary file may still be writing it."""
    if pid_text is None or os.name == "nt":
        return True  # an earlier version's name (or Windows, where signal 0 is Ctrl-C): its age decides
    pid = int(pid_text)
    if pid == os.getpid():
        return False  # this process writes its temporary files while holding the lock, never leaves one
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OverflowError, OSError):  # another user's process, or a number no process has here
        return True
    return True


@contextmanager
def _signals_held() -> Iterator[None]:
    """Terminating signals wait until the block ends (where the platform can hold them back)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def terminating_raises() -> Iterator[None]:
    """SIGTERM and SIGHUP end the process by an exception (exit 128 + the signal's number), as
    SIGINT does with KeyboardInterrupt, so that every ``finally`` runs: temporary files and the
    lock file are removed. Outside the main thread (where Python runs no handler), signals are
    left as they are."""

    def leave(number: int, frame) -> None:
        raise SystemExit(128 + number)

    previous = {}
    for number in _SIGNALS:
        if number == getattr(signal, "SIGINT", None) or signal.getsignal(number) is signal.SIG_IGN:
            continue
        try:
            previous[number] = signal.signal(number, leave)
        except ValueError:  # not the main thread
            break
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def lock_files(boundary: str) -> list[str]:
    """Where the lock of a repository's ``--fix`` may live, in order of preference."""
    real = os.path.realpath(boundary)
    key = hashlib.sha256(real.encode("utf-8", "surrogateescape")).hexdigest()[:32]
    candidates = []
    directory = cache_dir()
    if directory is not None:
        candidates.append(str(directory / "locks" / f"fix-{key}.lock"))
    candidates.append(os.path.join(real, ".kapsulint-fix.lock"))
    return candidates


@contextmanager
def fix_lock(boundary: str, timeout: float | None = None) -> Iterator[str]:
    """Hold the repository's ``--fix`` lock (its file's path is given); waits for another holder at
    most ``timeout`` seconds (LOCK_TIMEOUT by default), then raises LockError. The lock is
    released when the block ends, whatever ends it (and by the system if the process dies)."""
    wait = LOCK_TIMEOUT if timeout is None else timeout
    failures = []
    for path in lock_files(boundary):
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            descriptor = _acquire(path, time.monotonic() + wait, boundary)
        except OSError as error:
            failures.append(f"{path}: {error.strerror or error}")
            continue
        try:
            yield path
        finally:
            try:
                os.unlink(path)  # still holding it: whoever waits sees the file gone and takes a new one
            except OSError:
                pass
            os.close(descriptor)
        return
    raise LockError(f"cannot create the --fix lock of {boundary} ({'; '.join(failures)})")


def _acquire(path: str, deadline: float, boundary: str) -> int:
    said = False
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o600)
        try:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode) or status.st_nlink > 1 or status.st_size > 64:
                raise OSError(f"{path} is not a lock file of kapsulint")
            if _try_lock(descriptor) and _still_at(descriptor, path):
                os.ftruncate(descriptor, 0)
                os.write(descriptor, f"{os.getpid()}\n".encode())
                return descriptor
            holder = _holder(descriptor)
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)
        if time.monotonic() >= deadline:
            raise LockError(f"another kapsulint --fix{holder} still holds the lock of {boundary} "
                              f"({path}); try again when it has finished")
        if not said:
            print(f"kapsulint: waiting for another kapsulint --fix{holder} of {boundary} to finish",
                  file=sys.stderr)
            said = True
        time.sleep(_LOCK_POLL)


def _try_lock(descriptor: int) -> bool:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined,unused-ignore]  # Windows only
        except OSError:
            return False
        return True
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _still_at(descriptor: int, path: str) -> bool:
    """Whether the locked file is still the one at ``path`` (a holder removes it on release)."""
    try:
        current = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    locked = os.fstat(descriptor)
    return (current.st_dev, current.st_ino) == (locked.st_dev, locked.st_ino)


def _holder(descriptor: int) -> str:
    try:
        text = os.pread(descriptor, 32, 0).decode("ascii", "replace").strip()
    except (OSError, AttributeError):
        return ""
    return f" (process {text})" if text.isdigit() else ""
