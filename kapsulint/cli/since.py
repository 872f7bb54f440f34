"""``--since REF``: the findings the working tree adds to a git revision.

REF's tree is read from git's object database (``git ls-tree`` and ``git cat-file``, which apply no
filter, no hook and no attribute of the repository) into a directory of kapsulint's cache, never
into the user's tree, and linted there with the working tree's settings. A working tree finding
is new when REF has no finding of the same fingerprint (rule, path, logical address: never a line),
so a finding that moved with its block is not new and one in a file REF does not have is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO

SAFE_OPTIONS = (
    "--no-pager",
    "--no-replace-objects",
    "-c", "core.fsmonitor=false",
    "-c", f"core.hooksPath={os.devnull}",
    "-c", "core.untrackedCache=false",
    "-c", "protocol.allow=never",  # a partial clone's missing object is an error, never a fetch
    "-c", "credential.helper=",
    "-c", "core.pager=cat",
)
"""Options of every git command kapsulint runs: nothing the repository configures is executed."""

TREES_KEPT = 8
"""How many extracted revisions the cache keeps (the least recently used go first)."""

MAX_IGNORED_FILES = 20_000
"""How many of the working tree's ignored files are laid over REF's tree, at most."""

MARKER = ".git"
"""An empty file at the top of an extracted tree: it bounds the tree as a repository of its own, so
nothing above it (a configuration, a ``.git``) is taken for the tree's."""


class SinceError(ValueError):
    """``--since`` cannot be honoured (exit 2): no git repository, an unknown revision, no git."""


def _environment() -> dict[str, str]:
    """The environment of git: none of the ``GIT_*`` variables a hook or a shell may have set
    (``GIT_DIR``, ``GIT_INDEX_FILE``, ``GIT_EXTERNAL_DIFF``, ``GIT_SSH_COMMAND``...), no prompt."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environment.update(GIT_TERMINAL_PROMPT="0", GIT_NO_LAZY_FETCH="1", GIT_OPTIONAL_LOCKS="0",
                       LC_ALL="C")
    return environment


def _run_git(repository: Path, *arguments: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *SAFE_OPTIONS, "-C", str(repository), *arguments],
                              capture_output=True, env=_environment(), stdin=subprocess.DEVNULL)
    except FileNotFoundError:
        raise SinceError("--since needs git, and git is not on the PATH") from None
    except OSError as error:
        raise SinceError(f"--since cannot run git: {error.strerror or error}") from None


def _failure(completed: subprocess.CompletedProcess, repository: Path, command: str) -> SinceError:
    detail = completed.stderr.decode("utf-8", "replace").strip().splitlines()
    return SinceError(f"--since: git {command} failed in {repository}: {detail[0] if detail else completed.returncode}")


def _git(repository: Path, *arguments: str) -> bytes:
    completed = _run_git(repository, *arguments)
    if completed.returncode != 0:
        raise _failure(completed, repository, arguments[0])
    return completed.stdout


def revision(repository: Path | None, ref: str) -> str:
    """The commit REF names in ``repository``, as 40 (or 64) hex digits."""
    if repository is None or not (repository / ".git").exists():
        raise SinceError("--since compares with a git revision, and PATH is not in a git repository")
    if not ref or ref.startswith("-"):
        raise SinceError(f"--since expects a git revision (a branch, a tag or a commit), got {ref!r}")
    completed = _run_git(repository, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if completed.returncode != 0 and completed.stderr.strip():  # not a revision question: git's own refusal
        raise _failure(completed, repository, "rev-parse")
    if completed.returncode != 0:
        raise SinceError(f"--since: unknown git revision {ref!r} in {repository} (a branch, a tag or a "
                         "commit; a shallow clone may not have it: fetch it first)")
    commit = completed.stdout.decode("ascii", "replace").strip()
    if not commit or any(c not in "0123456789abcdef" for c in commit):
        raise SinceError(f"--since: git gave no commit for {ref!r}")
    return commit


class TreeEntry:
    """One entry of ``git ls-tree -r --long``: a blob (a file or a link) or a submodule."""

    mode: str
    kind: str
    object_id: str
    size: int
    path: str

    def __init__(self, mode: str, kind: str, object_id: str, size: int, path: str) -> None:
        self.mode = mode
        self.kind = kind
        self.object_id = object_id
        self.size = size
        self.path = path


def _entries(repository: Path, commit: str) -> list[TreeEntry]:
    out = _git(repository, "ls-tree", "-r", "-z", "--long", "--full-tree", commit)
    entries = []
    for record in out.split(b"\0"):
        if not record:
            continue
        head, _, name = record.partition(b"\t")
        mode, kind, object_id, size = head.decode("ascii").split()
        path = os.fsdecode(name)
        if _safe_relative(path):
            entries.append(TreeEntry(mode, kind, object_id, int(size) if size.isdigit() else 0, path))
    return entries


def _safe_relative(path: str) -> bool:
    """A tree path that stays inside the extracted tree and names no ``.git``."""
    parts = path.split("/")
    return all(part not in ("", ".", "..") and part.lower() != ".git" and "\0" not in part
               and os.sep not in part for part in parts)


def extract(repository: Path, commit: str, into: Path, max_file_size: int) -> None:
    """Write REF's tree under ``into``: each file with its content, each link as a link (the scan
    follows none out of the tree), a submodule as an empty directory. A file larger than the scan
    reads is written as a sparse file of its size, so it is refused as the working tree's is."""
    entries = _entries(repository, commit)
    into.mkdir(parents=True, exist_ok=True)
    readers: dict[str, list[TreeEntry]] = {}  # object id -> the entries holding it
    for entry in entries:
        target = into.joinpath(*entry.path.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        if entry.kind == "commit":
            target.mkdir(exist_ok=True)
        elif entry.kind == "blob" and entry.size > max_file_size and entry.mode != "120000":
            with open(target, "wb") as handle:
                handle.truncate(entry.size)
        elif entry.kind == "blob":
            readers.setdefault(entry.object_id, []).append(entry)
    for object_id, content in _blobs(repository, list(readers)):  # written as git streams them
        for entry in readers[object_id]:
            target = into.joinpath(*entry.path.split("/"))
            if entry.mode != "120000":
                target.write_bytes(content)
                continue
            try:
                os.symlink(os.fsdecode(content), target)
            except (OSError, ValueError):  # an empty target or one holding NUL: no link git could check out
                pass
    (into / MARKER).write_bytes(b"")


def _blobs(repository: Path, object_ids: list[str]) -> Iterator[tuple[str, bytes]]:
    """(object id, content) of each of ``object_ids``, raw (``git cat-file --batch`` applies no
    filter), one at a time."""
    unique = list(dict.fromkeys(object_ids))
    if not unique:
        return
    try:
        process = subprocess.Popen(["git", *SAFE_OPTIONS, "-C", str(repository), "cat-file", "--batch"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   env=_environment())
    except OSError as error:
        raise SinceError(f"--since cannot run git: {error.strerror or error}") from None
    assert process.stdout is not None  # opened with stdout=PIPE

    def feed(stream: IO[bytes]) -> None:
        try:
            for object_id in unique:
                stream.write(object_id.encode("ascii") + b"\n")
            stream.close()
        except OSError:  # git stopped reading: its output says why
            pass

    writer = threading.Thread(target=feed, args=(process.stdin,), daemon=True)
    writer.start()
    try:
        for object_id in unique:
            header = process.stdout.readline().split()
            if len(header) != 3 or header[1] != b"blob":
                raise SinceError(f"--since: git cat-file cannot read object {object_id} in {repository}")
            content = _read_exactly(process.stdout, int(header[2]))
            process.stdout.read(1)  # the newline after the content
            yield object_id, content
    finally:
        process.stdout.close()
        process.kill()  # done, or stopped early: git has nothing more to say
        process.wait()
        writer.join()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    chunks = []
    left = size
    while left:
        chunk = stream.read(left)
        if not chunk:
            raise SinceError("git cat-file stopped before the end of an object")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


class Tree:
    """REF's tree on disk for the time of a run (``with``), with the working tree's ignored files
    laid over it (a ``.terraform/modules/`` that ``terraform init`` downloaded, a gitignored
    ``terraform.tfvars``: what the working tree is linted with, and no part of the change). REF's
    own files are extracted once per commit into the cache and linked into a directory of the run;
    without a cache, everything goes to a temporary directory. Both are removed after the run."""

    def __init__(self, repository: Path, commit: str, max_file_size: int, cached: bool) -> None:
        self.repository = repository
        self.commit = commit
        self.max_file_size = max_file_size
        self.cached = cached
        self._run: str | None = None

    def __enter__(self) -> Path:
        from kapsulint.cachedir import cache_dir

        directory = cache_dir() if self.cached else None
        if directory is None:
            self._run = tempfile.mkdtemp(prefix="kapsulint-since-")
            root = Path(self._run) / "tree"
            extract(self.repository, self.commit, root, self.max_file_size)
        else:
            pristine = _cached_tree(directory / "since", self.repository, self.commit, self.max_file_size)
            self._run = tempfile.mkdtemp(prefix="run-", dir=directory / "since")
            root = Path(self._run) / "tree"
            shutil.copytree(pristine, root, symlinks=True, copy_function=_link_or_copy)
        _lay_ignored_files(self.repository, root, self.max_file_size)
        return root

    def __exit__(self, *_exc) -> None:
        if self._run is not None:
            shutil.rmtree(self._run, ignore_errors=True)


def _link_or_copy(source: str, target: str) -> None:
    """A file of the cached tree in the run's tree: a hard link (the run only reads it)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _lay_ignored_files(repository: Path, tree: Path, max_file_size: int) -> None:
    """Copy the working tree's ignored files (``git ls-files --others --ignored``) into ``tree``:
    regular files only, no larger than the scan reads, whose real path stays inside the
    repository, outside the directories discovery skips, never over a file of REF, at most
    :data:`MAX_IGNORED_FILES`."""
    import sys

    from kapsulint.boundary import Boundary, read_regular
    from kapsulint.scan.discovery import SKIPPED_DIRECTORIES

    boundary = Boundary(repository, max_file_size)
    skipped = SKIPPED_DIRECTORIES - {".terraform"}  # never discovered (node_modules, .venv): not copied
    listed = _git(repository, "ls-files", "-z", "--others", "--ignored", "--exclude-standard")
    names = [os.fsdecode(name) for name in listed.split(b"\0") if name]
    laid = 0
    for name in names:
        if not _safe_relative(name) or not skipped.isdisjoint(name.split("/")[:-1]):
            continue
        source = repository.joinpath(*name.split("/"))
        target = tree.joinpath(*name.split("/"))
        if os.path.lexists(target) or not boundary.contains(source):
            continue
        if laid == MAX_IGNORED_FILES:
            print(f"kapsulint: --since: {len(names) - laid} ignored files or more left out of REF's tree "
                  f"(at most {MAX_IGNORED_FILES:,} are laid over it)", file=sys.stderr)
            return
        try:
            data = read_regular(str(source), max_file_size, follow=False)
        except OSError:  # a link, a FIFO, a file gone or unreadable: not laid over
            continue
        if data is None:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        laid += 1


def _cached_tree(trees: Path, repository: Path, commit: str, max_file_size: int) -> Path:
    """``trees/<commit>-<size bound>``, extracted once (into a directory of its own, renamed into
    place, so a concurrent run never sees half a tree), the oldest trees beyond
    :data:`TREES_KEPT` removed."""
    final = trees / f"{commit}-{max_file_size}"
    if not (final / MARKER).is_file():
        trees.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix="building-", dir=trees))
        try:
            extract(repository, commit, building, max_file_size)
            try:
                os.rename(building, final)
            except OSError:  # another run put it there first, or a damaged one is in the way
                if not (final / MARKER).is_file():
                    shutil.rmtree(final, ignore_errors=True)
                    os.rename(building, final)
        finally:
            shutil.rmtree(building, ignore_errors=True)
    os.utime(final)
    _evict(trees, keep=final)
    return final


def _evict(trees: Path, keep: Path) -> None:
    def used(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    others = sorted((p for p in _children(trees) if p != keep), key=used, reverse=True)
    for stale in others[TREES_KEPT - 1:]:
        shutil.rmtree(stale, ignore_errors=True)


def _children(directory: Path) -> Iterator[Path]:
    try:
        yield from (p for p in directory.iterdir() if p.is_dir() and not p.is_symlink())
    except OSError:
        return


def mapped(path: Path, repository: Path, tree: Path) -> Path | None:
    """``path`` of the working tree at its place in REF's tree; None when it lies outside the
    repository."""
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(repository))
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return Path(os.path.normpath(tree / relative))


def existing(path: Path, tree: Path) -> Path:
    """``path``, else its nearest parent that REF's tree has (a file the change adds is linted
    in REF as its directory, or the tree)."""
    while path != tree and not os.path.lexists(path):
        path = path.parent
    return path


def known_fingerprints(resolved, command_line, ref: str, cwd: Path) -> set[str]:
    """The fingerprints of the findings REF has, linted with the working tree's settings: its
    configuration (as the working tree has it), PATHs, variables, selection and lint date."""
    import copy
    import io
    import sys

    from kapsulint.cli.config import Config
    from kapsulint.cli.settings import SettingsError, resolve_settings
    from kapsulint.lint.fingerprints import fingerprints
    from kapsulint.lint.runner import run

    repository = resolved.repo_root
    commit = revision(repository, ref)
    scan = resolved.settings.scan
    with Tree(repository, commit, scan.max_file_size, scan.cache) as tree:
        root = mapped(resolved.settings.root, repository, tree)
        config_path = resolved.config.path
        in_tree = mapped(config_path, repository, tree) if config_path is not None else tree / ".kapsulint.toml"
        if root is None or in_tree is None:
            raise SinceError("--since lints REF's tree with the configuration, and the configuration "
                             f"{config_path} lies outside the repository {repository}")
        given = copy.copy(command_line)
        given.config = Config(in_tree, resolved.config.values)
        given.targets = [existing(mapped(t, repository, tree) or tree, tree) for t in command_line.targets]
        given.var_files = [_var_file(p, repository, tree) for p in command_line.var_files]
        given.today = resolved.settings.scan.today.isoformat()
        given.plan = None  # a plan is of the working tree: its findings (KAP6xx) are the change's
        try:
            settings = resolve_settings(given).settings
        except SettingsError as error:
            raise SinceError(f"--since: REF's tree cannot be linted with these settings: {error}") from None
        stderr = sys.stderr
        sys.stderr = io.StringIO()  # REF's own messages (a PATH it does not have) are not the run's
        try:
            result = run(settings)
        finally:
            sys.stderr = stderr
        known = [f for f in result.findings if f.suppressed_by is None]
        cwd_in_tree = mapped(cwd, repository, tree) or tree
        return set(fingerprints(known, str(tree), str(cwd_in_tree)))


def _var_file(path: Path, repository: Path, tree: Path) -> Path:
    """A ``--var-file`` for REF: REF's copy of a file of the repository, else the file named."""
    absolute = path.resolve()
    in_tree = mapped(absolute, repository, tree)
    return in_tree if in_tree is not None and in_tree.is_file() else absolute
