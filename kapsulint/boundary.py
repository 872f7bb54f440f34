"""The repository boundary: what kapsulint may read on behalf of the code it lints, and how much.

kapsulint runs on pull requests nobody vetted, on machines that hold secrets. Whatever the code
names (a ``file()`` path, a module source, a symbolic link discovery meets, a ``.gitignore``), it
is read only when its real path, after every symbolic link, lies inside the repository: the git
top level of the project root, else the project root. It is read only when it is a regular file
(never a FIFO, a device or a socket, which could block or never end), and never more than
``max_size + 1`` bytes of it, whatever ``stat`` says (``/proc`` files report a size of 0, a file
may grow while it is read). One :class:`Boundary` is made per run, from the resolved options,
and handed to everything that reads.

Files the user names on the command line (``--var-file``) are the user's choice: they are read
with :func:`read_regular`, bounded the same way, wherever they are.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from kapsulint.text import decoded

OUTSIDE = "resolves outside the repository"
"""Why a path is not read, when its real path leaves the boundary."""
NOTE_KIND = "path-outside-project"
"""The blind spot (rule KAP014's name) a path kapsulint did not read is recorded as."""
_SHOWN = 120  # characters of a path a message shows

_CHUNK = 64 * 1024
_OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
# O_NONBLOCK: opening a FIFO returns at once (it is then refused) instead of waiting for a writer.
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


class Refused(OSError):
    """A path kapsulint does not read: outside the repository, or not a regular file."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def not_regular(mode: int) -> str:
    """Why a file of this ``st_mode`` is not read: ``is a FIFO, not a regular file``."""
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    return f"is {kind}, not a regular file"


def shown_path(path: str | None) -> str:
    """A path as written, for a message: quoted, control characters escaped, cut when long."""
    if path is None:
        return "(unknown)"
    cut = path if len(path) <= _SHOWN else path[:_SHOWN] + "..."
    return json.dumps(cut, ensure_ascii=False)


def git_top_level(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding ``.git`` (a directory, or the file of
    a worktree or submodule)."""
    for directory in (start, *start.parents):
        if (directory / ".git").exists():
            return directory
    return None


def repository_of(project_root: Path) -> Path:
    """The boundary of a project: the git top level of its real path, else the project root."""
    real = Path(os.path.realpath(project_root))
    return git_top_level(real) or real


class Boundary:
    """The repository (``root``, a real path) and the size above which a file is not read."""

    root: str
    max_size: int

    def __init__(self, root: str | Path, max_size: int) -> None:
        self.root = os.path.realpath(root)
        self.max_size = max_size
        self._prefix = self.root if self.root.endswith(os.sep) else self.root + os.sep
        self._directories: dict[str, str] = {}  # directory as given -> its real path

    def __repr__(self) -> str:
        return f"Boundary({self.root!r}, {self.max_size})"

    def holds(self, real: str) -> bool:
        """Whether the real path ``real`` is the repository or lies inside it."""
        return real == self.root or real.startswith(self._prefix)

    def real(self, path: str | Path) -> str:
        """``path`` with every symbolic link resolved: its directory's real path (resolved once per
        directory), then its last component's link, if it is one."""
        directory, name = os.path.split(os.fspath(path))
        if name in ("", os.curdir, os.pardir):
            return os.path.realpath(path)
        candidate = os.path.join(self._real_directory(directory), name)
        return os.path.realpath(candidate) if os.path.islink(candidate) else candidate

    def _real_directory(self, directory: str) -> str:
        real = self._directories.get(directory)
        if real is None:
            parent, name = os.path.split(directory)
            if name in ("", os.curdir, os.pardir) or parent == directory:
                real = os.path.realpath(directory or os.curdir)
            else:
                candidate = os.path.join(self._real_directory(parent), name)
                real = os.path.realpath(candidate) if os.path.islink(candidate) else candidate
            self._directories[directory] = real
        return real

    def contains(self, path: str | Path) -> bool:
        """Whether ``path``, after every symbolic link, lies inside the repository."""
        return self.holds(self.real(path))

    def kind(self, path: str | Path) -> str:
        """What ``path`` is, as far as kapsulint may know: ``"outside"`` (its real path leaves the
        repository: nothing more is asked), ``"file"``, ``"directory"``, ``"special"`` (a FIFO,
        a device, a socket), ``"missing"``, or ``"unreadable"`` (``stat`` failed otherwise)."""
        real = self.real(path)
        if not self.holds(real):
            return "outside"
        try:
            mode = os.stat(real).st_mode
        except FileNotFoundError:
            return "missing"
        except OSError:
            return "unreadable"
        if stat.S_ISREG(mode):
            return "file"
        return "directory" if stat.S_ISDIR(mode) else "special"

    def refusal(self, path: str | Path) -> str | None:
        """Why ``path`` is not read (``resolves outside the repository``, ``is a FIFO, not a regular
        file``), or None: a regular file or a directory inside, or nothing there at all."""
        real = self.real(path)
        if not self.holds(real):
            return OUTSIDE
        try:
            mode = os.stat(real).st_mode
        except OSError:
            return None
        return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else not_regular(mode)

    def read(self, path: str) -> bytes | None:
        """The bytes of the file at ``path``, or None when it holds more than ``max_size`` bytes.

        Raises :class:`Refused` for a path outside the repository or not a regular file, and
        ``OSError`` when it cannot be read. The directory's real path is resolved once per
        directory; the file itself is opened without following a link, and a link is resolved
        and checked before its target is opened."""
        directory, name = os.path.split(path)
        real_directory = self._real_directory(directory)
        if not self.holds(real_directory):
            raise Refused(OUTSIDE)
        candidate = os.path.join(real_directory, name)
        try:
            return read_regular(candidate, self.max_size, follow=False)
        except Refused:
            raise
        except OSError:
            if not os.path.islink(candidate):
                raise
        real = os.path.realpath(candidate)  # the file is a link: what it leads to must be inside too
        if not self.holds(real):
            raise Refused(OUTSIDE)
        return read_regular(real, self.max_size, follow=False)

    def read_text(self, path: str) -> str | None:
        """The text of a file inside the repository (UTF-8, a BOM dropped, bad bytes replaced);
        None when it is refused, too large or unreadable. For reports, never for parsing."""
        try:
            data = self.read(path)
        except OSError:
            return None
        return None if data is None else decoded(data, errors="replace")


def read_regular(path: str, max_size: int, follow: bool = True) -> bytes | None:
    """The bytes of the regular file at ``path`` (read to at most ``max_size + 1`` bytes), or None
    when it holds more than ``max_size``; :class:`Refused` when it is not a regular file.

    ``follow=False`` refuses to open a symbolic link (``OSError``). Nothing else is checked: the
    caller decides whether the path may be read (see :class:`Boundary`)."""
    handle = os.open(path, _OPEN_FLAGS | (0 if follow else _NO_FOLLOW))
    try:
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            raise Refused(not_regular(status.st_mode))
        limit = max_size + 1
        chunks: list[bytes] = []
        total = 0
        want = min(limit, status.st_size + 1)  # one read for a file whose size is right
        while total < limit:
            chunk = os.read(handle, max(1, min(want, limit - total)))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            want = _CHUNK
    finally:
        os.close(handle)
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    return None if len(data) > max_size else data
