"""The results cache: a whole lint run's output, replayed when nothing that reaches it changed.

A plain lint run (no ``--fix``, ``--diff``, ``--since``, ``--output``, ``--report``,
``--write-baseline``, ``--no-cache``, nor any option that shows something other than findings)
records what it printed, on stdout and on stderr in order, and its exit code, under a key, with the
inputs it read. The next identical run checks those inputs and, when none changed, prints what was
recorded and exits with the same code, without importing the command line's parser, the model, the
rules or the reporters: that is the cost of a warm run of a small project.

The key hashes everything a run reads besides files: the command line as given (arguments, in
order), the working directory, the real path of each PATH, kapsulint's code (its version, the interpreter's, and the size and
time of every file of the package and of the rules, so an edited editable install misses, and of the
directories of ``sys.path``, where an installed or upgraded dependency changes the directory), the
lint date (today in UTC: KAP009 and KAP110 read it), the environment a run reads (``TF_VAR_*``,
``KAPSULINT_*``, ``NO_COLOR``) and the streams' kind (a terminal gets colours) and encoding.

The inputs are what the run read, as it read them: every file it opened and every directory it
listed (an audit hook, https://docs.python.org/3/library/sys.html#sys.addaudithook, sees each
``open``, ``os.scandir`` and ``os.listdir``), whatever read it (discovery, the loader, a ``file()``
function, the configuration, a ``.gitignore``, a values file, ``modules.json``, a plan, a baseline),
a file that was missing included; and the places the configuration and the git top level are
looked for, above each PATH. A file is checked by its status (size, times, inode), then, when that
differs or was too recent to tell, by a SHA-256 digest of its content; a directory by its status,
then by its listing (names, kinds, link targets). A run during which an input changed stores
nothing. Runs that end in an error of the run (exit 2) are never stored.

Entries are files under ``results/`` in the cache directory, one per key, written atomically (a
temporary file renamed over the entry), each behind a header that repeats its key and a CRC-32 of
its data: a damaged, truncated or foreign entry is ignored (and replaced by the next run). What is
stored is the printed output, which never holds a sensitive value (the reporters mask them), the
paths and digests of the inputs, and digests of the key's parts (never the values of ``--var`` or of
the environment). The directory is kept under :data:`MAX_BYTES` by removing the least recently
used entries.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import stat
import sys
import time
import zlib
from collections.abc import Callable

VERSION = 1
DIRECTORY = "results"
MAX_BYTES = 64 * 1024 * 1024
"""The results directory's bound: entries beyond it are removed, least recently used first."""
_MAGIC = b"KAPSULINT-RESULTS\n"
_RECENT_NS = 2_000_000_000
"""A status whose change time is this close to when it was recorded may hide a later change made
within the file system's time granularity: such a file is checked by its content."""
_TOUCH_AFTER = 3600.0

VALUE_OPTIONS = frozenset({"--format", "--select", "--extend-select", "--ignore", "--fail-on", "--config",
                           "--var-file", "--var", "--jobs", "-j", "--today", "--engine", "--plan", "--baseline"})
FLAG_OPTIONS = frozenset({"--exit-zero", "--env-vars", "--no-inline-ignores", "--force-exclude",
                          "--sarif-include-suppressed", "--statistics", "-q", "--quiet"})
"""The options of a plain lint run; any other option (``--no-cache`` among them) is not cached."""
SYSTEM_DIRECTORIES = ("/proc", "/sys", "/dev")
"""Never inputs of a lint (what the machine is, as the number of CPUs for workers)."""
ENVIRONMENT_PREFIXES = ("TF_VAR_", "KAPSULINT_")
ENVIRONMENT_NAMES = ("NO_COLOR",)
PROBED_NAMES = (".kapsulint.toml", "pyproject.toml", ".git")
"""Looked for in each PATH's directory and every directory above it (the configuration, the git
top level), found or not."""

_ABSENT = "absent"
_OUTPUT, _ERROR = 1, 2

Status = tuple[int, int, int, int, int, int]  # mode, device, inode, size, mtime_ns, ctime_ns


def cacheable(args: list[str]) -> list[str] | None:
    """The PATHs of a plain lint run's arguments, or None when the arguments ask for anything else
    (an unknown or unlisted option, ``--``, ``kapsulint server``, a value missing)."""
    paths: list[str] = []
    waiting = False
    for arg in args:
        if waiting:
            waiting = False
            continue
        if arg.startswith("-") and arg != "-":
            name, sep, _ = arg.partition("=")
            if name in VALUE_OPTIONS and (sep or name == arg):
                waiting = not sep
            elif arg.startswith("-j") and arg[2:].isdigit():
                pass
            elif arg not in FLAG_OPTIONS:
                return None
            continue
        if arg == "-" or (not paths and arg == "server"):
            return None
        paths.append(arg)
    return None if waiting else paths


def _status(status: os.stat_result) -> Status:
    return (status.st_mode, status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def _lstatus(path: str) -> Status | None:
    try:
        return _status(os.lstat(path))
    except OSError:
        return None


def _directory_status(path: str) -> Status | None:
    """A listed directory's status, through a link (the link itself is an entry of its parent's
    listing, or a PATH, whose real path is in the key)."""
    try:
        return _status(os.stat(path))
    except OSError:
        return None


def _file_digest(path: str, status: Status) -> str:
    """What a file is: a regular file's SHA-256, another kind, or a link's target and what the
    link leads to (a link's own status says nothing of its target's content: it is always read)."""
    mode = status[0]
    if stat.S_ISLNK(mode):
        target = _lstatus(os.path.realpath(path))
        leads = _ABSENT if target is None else _file_digest(os.path.realpath(path), target)
        return f"link:{os.readlink(path)}:{leads}"
    if not stat.S_ISREG(mode):
        return f"kind:{stat.S_IFMT(mode)}"
    with open(path, "rb") as handle:
        return "sha256:" + hashlib.file_digest(handle, "sha256").hexdigest()


def _listing_digest(path: str) -> str:
    """A directory's entries: each name, its kind (not following links) and a link's target."""
    digest = hashlib.sha256()
    with os.scandir(path) as entries:
        rows = []
        for entry in entries:
            kind = "l" if entry.is_symlink() else "d" if entry.is_dir(follow_symlinks=False) else "f"
            target = os.readlink(entry.path) if kind == "l" else ""
            rows.append(f"{entry.name}\0{kind}\0{target}")
    for row in sorted(rows):
        digest.update(row.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def _probe(path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return _ABSENT
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


class _Recorder:
    """What one run reads, seen by the audit hook: each path with its status when first read."""

    def __init__(self, excluded: tuple[str, ...]) -> None:
        self.excluded = excluded
        self.files: dict[str, Status | None] = {}
        self.directories: dict[str, Status | None] = {}
        self.incomplete = False  # an input the hook could not note

    def opened(self, target: object, flags: object) -> None:
        if not isinstance(flags, int) or flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC):
            return
        path = self._path(target)
        if path is not None and path not in self.files:
            self.files[path] = _lstatus(path)

    def listed(self, target: object) -> None:
        path = self._path(target if target is not None else ".")
        if path is not None and path not in self.directories:
            self.directories[path] = _directory_status(path)

    def _path(self, target: object) -> str | None:
        if isinstance(target, int) or target is None:
            return None
        try:
            path = os.path.abspath(os.fsdecode(target))  # type: ignore[arg-type]  # str, bytes or a PathLike
        except (TypeError, ValueError, OSError):
            return None
        if os.path.join(path, "").startswith(self.excluded) or f"{os.sep}__pycache__{os.sep}" in path:
            return None
        return path


_recording: _Recorder | None = None
_hooked = False
_declined = False


def _audit(event: str, args: tuple) -> None:
    recorder = _recording
    if recorder is None:
        return
    try:
        if event == "open":
            recorder.opened(args[0], args[2] if len(args) > 2 else None)
        elif event in ("os.scandir", "os.listdir"):
            recorder.listed(args[0] if args else None)
    except Exception:  # never the run's failure: the run is then not recorded
        recorder.incomplete = True


class _Tee:
    """A stream written through as is, each write also kept in ``chunks`` (in order, by stream)."""

    def __init__(self, stream, which: int, chunks: list[tuple[int, str]]) -> None:
        self._stream = stream
        self._which = which
        self._chunks = chunks
        self.broken = False

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self._chunks.append((self._which, text))
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self.broken = True
            raise

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self.broken = True
            raise

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return self._stream.encoding

    @property
    def errors(self) -> str | None:
        return self._stream.errors


def _package_directories() -> list[str]:
    """Where kapsulint's code is: the package and the rules (a directory of their own in a
    development install)."""
    import importlib.util

    import kapsulint

    directories = [os.path.dirname(os.path.abspath(kapsulint.__file__))]
    spec = importlib.util.find_spec("kapsulint.rules")
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        location = os.path.abspath(location)
        if not location.startswith(directories[0] + os.sep):
            directories.append(location)
    return directories


def _code_identity(digest, directories: list[str]) -> None:
    """kapsulint's code as the key sees it: the interpreter, the version, each file of the package
    and the rules by name, size and times, and each directory of ``sys.path`` by its status."""
    from kapsulint import __version__

    digest.update(f"{VERSION}\0{__version__}\0{sys.version}\0{sys.executable}\0".encode())
    pending = list(directories)
    while pending:
        directory = pending.pop()
        with os.scandir(directory) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.name == "__pycache__":
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                status = entry.stat()
                digest.update(f"{entry.path}\0{status.st_size}\0{status.st_mtime_ns}\0{status.st_ino}\n".encode())
    for directory in sys.path:
        digest.update(f"{directory}\0{_lstatus(directory or '.')}\n".encode("utf-8", "surrogateescape"))


def _excluded(targets: list[str], cwd: str, own: list[str]) -> tuple[str, ...]:
    """The directories whose files are never inputs: the interpreter's and the libraries' (the
    entries of ``sys.path`` but the working directory), kapsulint's code and its cache, and the
    system's; none that holds a PATH (a project linted inside one of them is still read)."""
    candidates = [p for p in sys.path if p and os.path.abspath(p) != cwd] + own + list(SYSTEM_DIRECTORIES)
    prefixes = dict.fromkeys(os.path.join(os.path.abspath(p), "") for p in candidates)
    return tuple(p for p in prefixes if not any(os.path.join(t, "").startswith(p) for t in targets))


class Lookup:
    """One plain lint run's place in the cache: its key, and the entry recorded under it."""

    def __init__(self, directory: str, key: str, paths: list[str], excluded: tuple[str, ...]) -> None:
        self.directory = directory
        self.key = key
        self.paths = paths
        self.excluded = excluded
        self.entry_path = os.path.join(directory, key)

    @classmethod
    def start(cls, args: list[str]) -> Lookup | None:
        """The lookup of a run of ``args``, or None when it is not cached (not a plain lint run, no
        cache directory, a stream that cannot take every character)."""
        paths = cacheable(args)
        if paths is None:
            return None
        for stream in (sys.stdout, sys.stderr):
            encoding = (getattr(stream, "encoding", None) or "ascii").lower().replace("-", "").replace("_", "")
            if encoding in ("ascii", "usascii", "ansix3.41968", "646"):
                return None  # click rewraps such a stream: what it writes is not what this one would
        from kapsulint.cachedir import cache_dir

        base = cache_dir()
        if base is None:
            return None
        try:
            cwd = os.getcwd()
            directories = _package_directories()
            digest = hashlib.sha256()
            _code_identity(digest, directories)
        except (OSError, ValueError):
            return None
        today = time.strftime("%Y-%m-%d", time.gmtime())
        environment = sorted((k, v) for k, v in os.environ.items()
                             if k.startswith(ENVIRONMENT_PREFIXES) or k in ENVIRONMENT_NAMES)
        streams = [(s.isatty(), getattr(s, "encoding", None), getattr(s, "errors", None))
                   for s in (sys.stdout, sys.stderr)]
        targets = [os.path.abspath(p) for p in paths] or [cwd]
        real = [os.path.realpath(p) for p in targets]  # a link above the project, pointed elsewhere
        digest.update(repr((args, cwd, real, today, environment, streams)).encode("utf-8", "surrogateescape"))
        return cls(os.path.join(str(base), DIRECTORY), digest.hexdigest(), targets,
                   _excluded(targets, cwd, [str(base), *directories]))

    # -- reading ------------------------------------------------------------------------------

    def replayable(self) -> dict | None:
        """The recorded entry, when it exists and every input it names is as it was; None
        otherwise (the run then happens, and records)."""
        entry = self._read()
        if entry is None:
            return None
        try:
            fresh = self._unchanged(entry)
        except (OSError, ValueError, TypeError, IndexError):
            return None
        if fresh is None:
            return None
        if fresh:
            self._store(entry)  # statuses that were too recent to trust are now known good
        else:
            self._touch()
        return entry

    def _read(self) -> dict | None:
        try:
            with open(self.entry_path, "rb") as handle:
                data = handle.read()
        except OSError:
            return None
        header = _MAGIC + self.key.encode() + b"\n"
        if not data.startswith(header) or len(data) < len(header) + 9:
            return None
        checksum, body = data[len(header):len(header) + 9], data[len(header) + 9:]
        if checksum != b"%08x\n" % zlib.crc32(body):
            return None
        try:
            entry = marshal.loads(body)
        except (EOFError, ValueError, TypeError):
            return None
        return entry if _valid(entry) else None

    def _unchanged(self, entry: dict) -> bool | None:
        """None when an input changed; else whether a status was refreshed (True) or all were
        trusted as recorded (False)."""
        trusted_before = entry["recorded"] - _RECENT_NS
        refreshed = False
        for row in entry["files"]:
            path, recorded, digest = row
            status = _lstatus(path)
            if status is None:
                if digest != _ABSENT:
                    return None
                continue
            if digest == _ABSENT:
                return None
            if (recorded is not None and tuple(recorded) == status and status[5] < trusted_before
                    and not stat.S_ISLNK(status[0])):
                continue
            if _file_digest(path, status) != digest:
                return None
            row[1] = status
            refreshed = True
        for row in entry["directories"]:
            path, recorded, digest = row
            status = _directory_status(path)
            if status is None or digest == _ABSENT:
                if status is None and digest == _ABSENT:
                    continue
                return None
            if not stat.S_ISDIR(status[0]):
                return None
            if recorded is not None and tuple(recorded) == status and status[5] < trusted_before:
                continue
            if _listing_digest(path) != digest:
                return None
            row[1] = status
            refreshed = True
        for path, kind in entry["probes"]:
            if _probe(path) != kind:
                return None
        return refreshed

    def _touch(self) -> None:
        try:
            if time.time() - os.stat(self.entry_path).st_mtime > _TOUCH_AFTER:
                os.utime(self.entry_path)
        except OSError:
            pass

    # -- recording ----------------------------------------------------------------------------

    def record(self, run: Callable[[], int]) -> int:
        """Run the command, recording what it reads and prints; store the entry when the run was a
        plain one that ended in findings or none (exit 0 or 1) and no input changed meanwhile."""
        global _recording, _hooked, _declined
        if not _hooked:
            sys.addaudithook(_audit)
            _hooked = True
        started = time.time_ns()
        chunks: list[tuple[int, str]] = []
        stdout, stderr = sys.stdout, sys.stderr
        out, err = _Tee(stdout, _OUTPUT, chunks), _Tee(stderr, _ERROR, chunks)
        recorder = _Recorder(self.excluded)
        _declined = False
        sys.stdout, sys.stderr = out, err
        _recording = recorder
        try:
            code = run()
        finally:
            _recording = None
            sys.stdout, sys.stderr = stdout, stderr
        if code in (0, 1) and not (_declined or recorder.incomplete or out.broken or err.broken):
            try:
                entry = self._entry(recorder, chunks, code, started)
            except Exception:  # an input that cannot be read again: nothing stored
                entry = None
            if entry is not None:
                self._store(entry)
        return code

    def _entry(self, recorder: _Recorder, chunks: list[tuple[int, str]], code: int, started: int) -> dict | None:
        """The entry of a run that started at ``started``; None when an input changed during it
        (its status when the run first read it differs from its status now, or its change time
        is after the start)."""
        files: list[list] = []
        for path, seen in sorted(recorder.files.items()):
            status = _lstatus(path)
            if status != seen or (status is not None and status[5] >= started):
                return None
            files.append([path, status, _ABSENT if status is None else _file_digest(path, status)])
        directories: list[list] = []
        for path, seen in sorted(recorder.directories.items()):
            status = _directory_status(path)
            if status != seen or (status is not None and (not stat.S_ISDIR(status[0]) or status[5] >= started)):
                return None
            directories.append([path, status, _ABSENT if status is None else _listing_digest(path)])
        probes = []
        for path in dict.fromkeys(self._probed()):
            probes.append([path, _probe(path)])
        return {"version": VERSION, "recorded": time.time_ns(), "files": files, "directories": directories,
                "probes": probes, "output": chunks, "exit": code}

    def _probed(self):
        """The paths whose existence decides the run before it reads anything: each PATH, and the
        configuration's and the git top level's places above it (as given and as its real path)."""
        for path in self.paths:
            yield path
            start = path if os.path.isdir(path) else os.path.dirname(path)
            for base in dict.fromkeys((start, os.path.realpath(start))):
                directory = base
                while True:
                    for name in PROBED_NAMES:
                        yield os.path.join(directory, name)
                    parent = os.path.dirname(directory)
                    if parent == directory:
                        break
                    directory = parent

    def _store(self, entry: dict) -> None:
        """Write the entry atomically (a temporary file renamed over it), then keep the directory
        within its bound; any failure leaves the cache as it was."""
        entry["recorded"] = time.time_ns()
        try:
            body = marshal.dumps(entry)
            data = _MAGIC + self.key.encode() + b"\n" + b"%08x\n" % zlib.crc32(body) + body
            os.makedirs(self.directory, exist_ok=True)
            temporary = f"{self.entry_path}.{os.getpid()}.tmp"
            with open(temporary, "wb") as handle:
                handle.write(data)
            os.replace(temporary, self.entry_path)
            if self.key.startswith("0"):  # one write in sixteen: the bound is kept without a scan per run
                _evict(self.directory)
        except Exception:  # the cache is left as it was, never the run's failure
            try:
                os.unlink(f"{self.entry_path}.{os.getpid()}.tmp")
            except OSError:
                pass


def decline() -> None:
    """Called by the run once its settings are known to make it other than a plain lint (the
    configuration's ``fix`` or ``since``): nothing of it is stored."""
    global _declined
    _declined = True


def _valid(entry: object) -> bool:
    """Whether a decoded entry has the shape :meth:`Lookup.record` writes."""
    if not isinstance(entry, dict) or entry.get("version") != VERSION:
        return False
    if not isinstance(entry.get("recorded"), int) or entry.get("exit") not in (0, 1):
        return False
    rows = [entry.get("files"), entry.get("directories")]
    for table in rows:
        if not isinstance(table, list) or not all(
                isinstance(row, list) and len(row) == 3 and isinstance(row[0], str) and isinstance(row[2], str)
                and (row[1] is None or (isinstance(row[1], tuple) and len(row[1]) == 6)) for row in table):
            return False
    probes, output = entry.get("probes"), entry.get("output")
    if not isinstance(probes, list) or not all(isinstance(p, list) and len(p) == 2 and
                                               all(isinstance(x, str) for x in p) for p in probes):
        return False
    return isinstance(output, list) and all(
        isinstance(c, tuple) and len(c) == 2 and c[0] in (_OUTPUT, _ERROR) and isinstance(c[1], str) for c in output)


def _write_chunks(chunks: list[tuple[int, str]]) -> None:
    """The recorded output, written as the run wrote it; a reader that has gone ends that stream
    quietly, as it does for the run."""
    for which, text in chunks:
        stream = sys.stdout if which == _OUTPUT else sys.stderr
        try:
            stream.write(text)
            stream.flush()
        except BrokenPipeError:
            silence(stream)


def silence(stream) -> None:
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _evict(directory: str) -> None:
    """Remove the least recently used entries while the directory holds more than MAX_BYTES."""
    with os.scandir(directory) as entries:
        rows = [(entry.stat().st_mtime, entry.stat().st_size, entry.path) for entry in entries if entry.is_file()]
    total = sum(size for _, size, _ in rows)
    for _, size, path in sorted(rows):
        if total <= MAX_BYTES:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size


def run(args: list[str], command: Callable[[], int]) -> int:
    """The command's exit code: replayed from the cache when it can be, else ``command()`` run
    (and recorded, when it is a plain lint run)."""
    try:
        lookup = Lookup.start(args)
        entry = lookup.replayable() if lookup is not None else None
    except Exception:  # a cache that fails costs the run its speed, never its result
        lookup, entry = None, None
    if entry is None:
        return command() if lookup is None else lookup.record(command)
    try:
        _write_chunks(entry["output"])
    except OSError as error:  # as the command says it when it cannot write its report
        sys.stderr.write(f"kapsulint: error: cannot write the report: {error.strerror or error}\n")
        return 2
    return entry["exit"]
