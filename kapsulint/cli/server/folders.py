"""A workspace folder of the language server: its settings, and one lint of it with the editor's
unsaved buffers read in place of the files on disk.

A folder is linted as ``kapsulint FOLDER`` lints it: the configuration is discovered upward from the
folder, the project root is the configuration's directory or the git top level, and the settings
the client sends (``select``, ``extend-select``, ``ignore``, ``unsafe-fixes``, ``today``, ``config``)
take the place of the command line's flags, so they override the configuration file.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from kapsulint.cli.settings import CommandLine, Resolved, SettingsError, resolve_settings, settings_lines
from kapsulint.findings import Finding, Loc, Severity
from kapsulint.lint.parts import sharing
from kapsulint.text import decoded

if TYPE_CHECKING:
    from kapsulint.model.project import Project
    from kapsulint.scan.discovery import Discovered

# The client's setting keys, by the command line flag they stand for; camelCase is accepted too.
SETTING_KEYS = ("select", "extend-select", "ignore", "unsafe-fixes", "today", "config")


class Judgement:
    """What one lint of a folder found, kept for diagnostics, code actions and hover."""

    findings: dict[str, list[Finding]]  # reported (not suppressed) findings, by real path
    texts: dict[str, str]  # the buffers read in place of the files, by real path
    comments: dict[str, list[dict]]  # each file's comments (line, column, text), for hover on a suppression
    kinds: dict[str, str]  # each file's kind (config, tfvars, lock, values)
    unsafe_fixes: bool
    repository: str

    def __init__(self, findings: dict[str, list[Finding]], texts: dict[str, str],
                 comments: dict[str, list[dict]] | None = None, kinds: dict[str, str] | None = None,
                 unsafe_fixes: bool = False, repository: str = "") -> None:
        self.findings = findings
        self.texts = texts
        self.comments = {} if comments is None else comments
        self.kinds = {} if kinds is None else kinds
        self.unsafe_fixes = unsafe_fixes
        self.repository = repository


class Folder:
    """One workspace folder (or, for a file opened outside every folder, the file's directory)."""

    path: str  # the folder's real path
    name: str
    settings: dict[str, Any]  # the client's settings for this folder, kebab-case keys
    judgement: Judgement | None  # the last lint
    # the last lint that split the project into parts, and how: the next lint judges only the
    # parts its changes reach (the judgement published may be an older one, a lint superseded)
    basis: Basis | None
    share: float  # the share of the project's files the last lint read (1: the whole project)
    generation: int  # bumped by every change that calls for a new lint
    scanned: bool  # the first scan ran
    forgotten: int  # bumped by forget_parts (a compaction then does not bring the basis back)

    def __init__(self, path: str, name: str = "", settings: dict[str, Any] | None = None) -> None:
        self.path = os.path.realpath(path)
        self.name = name or os.path.basename(self.path)
        self.settings = {} if settings is None else settings
        self.judgement = None
        self.basis = None
        self.share = 1.0
        self.generation = 0
        self.scanned = False
        self.forgotten = 0

    def holds(self, path: str) -> bool:
        return path == self.path or path.startswith(self.path.rstrip(os.sep) + os.sep)

    def resolve(self) -> Resolved:
        """The folder's settings as ``kapsulint FOLDER`` with the client's settings as flags would
        resolve them; :class:`SettingsError` for a setting or a configuration that is wrong."""
        return resolve_settings(command_line(Path(self.path), self.settings))

    def lint(self, buffers: dict[str, str]) -> Judgement:
        """Lint the folder with ``buffers`` (text by real path) read in place of those files.

        When the last lint split the project into parts (:class:`Partition`), only what the
        buffers changed since then reaches is judged again (:meth:`Partition.plan`); a lint that
        changes nothing judges the parts it left stale. Otherwise the whole project is linted.

        Raises :class:`SettingsError`; any other failure is the caller's to report (KAP008)."""
        resolved = self.resolve()
        shown = settings_lines(resolved)
        basis, self.basis, self.share = self.basis, None, 1.0  # kept again once this lint has finished
        if basis is not None and basis.partition.settings == shown:
            plan = basis.partition.plan(changed_paths(basis.judgement.texts, buffers), self.holds, basis.stale)
            if plan is not None:
                judged = self._lint_parts(resolved, buffers, basis, *plan)
                if judged is not None:
                    return judged
        from kapsulint.lint.runner import run

        resolved.settings.scan.scope = None  # a lint of parts that did not hold may have set one
        result = run(resolved.settings, reads_with_buffers(encoded(buffers)), by_parts=True)
        resolved.fix_policy.annotate(result.findings)
        by_path = reported_by_path(result.findings)
        split = result.split
        if split is None:
            files = result.project.files
            comments = {path: source.comments for path, source in files.items() if source.comments}
            kinds = {path: source.kind for path, source in files.items()}
        else:  # judged by parts: what they read
            comments, kinds = split.comments, split.kinds
        judgement = Judgement(by_path, dict(buffers), comments, kinds, resolved.unsafe_fixes, str(resolved.repo_root))
        found = Partition.of(result.project, by_path, shown) if split is None else \
            Partition.of_trees(split.trees, split.rest, by_path, shown, split.discovered)
        if found is not None:
            self.basis = Basis(judgement, found, frozenset())
        return judgement

    @property
    def stale(self) -> bool:
        """Whether the last lint left parts whose shared files a lint of the whole part must judge."""
        return self.basis is not None and bool(self.basis.stale)

    def _lint_parts(self, resolved: Resolved, buffers: dict[str, str], basis: Basis, whole: frozenset[int],
                    alone: frozenset[str]) -> Judgement | None:
        """Lint the parts ``whole`` and the root trees ``alone`` only, keeping every other file's
        findings; None when what was linted no longer splits as the partition says (a call, a
        ``file()`` or a values file added or dropped): only a lint of the whole project is then right."""
        from kapsulint.lint.runner import run
        from kapsulint.model.options import ScanScope

        partition, previous = basis.partition, basis.judgement
        stale = (basis.stale - whole) | {partition.part_of_top[top] for top in alone}
        if not whole and not alone:
            judgement = Judgement(previous.findings, dict(buffers), previous.comments, previous.kinds,
                                  resolved.unsafe_fixes, str(resolved.repo_root))
            self.basis, self.share = Basis(judgement, partition, stale), 0.0
            return judgement
        trees = {top: tree for index in whole for top, tree in partition.parts[index].trees.items()}
        trees.update((top, partition.trees[top]) for top in alone)
        rest = next((partition.parts[index].files for index in whole if not partition.parts[index].tops), frozenset())
        scan = resolved.settings.scan
        scan.scope = ScanScope(frozenset().union(*(directories for directories, _ in trees.values())),
                               frozenset().union(rest, *(files for _, files in trees.values())),
                               partition.shared_modules, partition.discovered)
        result = run(resolved.settings, reads_with_buffers(encoded(buffers)))
        if result.project.errors or result.project.tree_files() != trees \
                or frozenset(result.project.untreed_paths(trees)) != rest:
            return None
        resolved.fix_policy.annotate(result.findings)
        alone_parts = {partition.part_of_top[top] for top in alone}

        def replaced(path: str) -> bool:
            part = partition.part_of(path)
            return part in whole or (part in alone_parts and partition.private_top(path) in alone)

        by_path = {}
        for path, findings in reported_by_path(result.findings).items():
            if replaced(path):
                by_path[path] = findings
            elif partition.part_of(path) not in alone_parts:
                return None  # a finding where no part judged here is: the partition does not hold
        files = result.project.files

        replacing = {path for path in previous.kinds.keys() | previous.findings.keys() if replaced(path)}

        def kept(table: dict) -> dict:
            return {path: value for path, value in table.items() if path not in replacing}

        judgement = Judgement(
            {**kept(previous.findings), **by_path}, dict(buffers),
            {**kept(previous.comments),
             **{path: source.comments for path, source in files.items() if source.comments and replaced(path)}},
            {**kept(previous.kinds), **{path: source.kind for path, source in files.items() if replaced(path)}},
            resolved.unsafe_fixes, str(resolved.repo_root))
        self.basis = Basis(judgement, partition, stale)
        self.share = len(files) / max(len(previous.kinds), 1)
        return judgement

    def forget_parts(self) -> None:
        """The next lint judges the whole project (the settings, or files on disk, changed)."""
        self.basis = None
        self.forgotten += 1


Tree = tuple[frozenset[str], frozenset[str]]  # a root module tree's module directories and files


class Part:
    """One part of a project that judges apart from the others: the root module trees that share
    a module or a file (a module two roots call merges their findings in it), with what they hold,
    or the files no tree holds (values and manifests read by nothing, ``tfvars`` of no module)."""

    tops: tuple[str, ...]  # the top-level modules of its trees (none: the files no tree holds)
    trees: dict[str, Tree]  # Project.tree_files of its tops
    directories: frozenset[str]  # the modules of its trees
    files: frozenset[str]  # the files of its trees, or the files no tree holds

    def __init__(self, trees: dict[str, Tree], files: frozenset[str]) -> None:
        self.tops = tuple(sorted(trees))
        self.trees = trees
        self.directories = frozenset().union(*(directories for directories, _ in trees.values()))
        self.files = files


class Partition:
    """How a lint of the whole project splits it into parts (:class:`Part`), so that a later lint
    judges again only what a change reaches.

    A part's findings are those of a lint of that part alone: a root tree reaches only its own
    modules and files, and the rules judge a root module with the modules it calls, so trees that
    share nothing judge apart; trees that share a module are one part, since a finding in the
    shared module merges the instances of every tree (and its message may name them all). A file
    of one tree only (private to it) holds findings of that tree only: a change to it is judged
    by a lint of that tree alone (the modules shared with other trees labelled as the whole
    labels them), which leaves the part's shared files stale until a lint of the whole part.

    No partition (every lint a lint of the whole) when a file holds findings but no part does,
    with a plan or ``--var-file`` files (every root reads them), or with Terragrunt (whose
    configuration above a module marks it)."""

    settings: list[str]  # the resolved settings it holds for (``--show-settings``)
    parts: list[Part]
    trees: dict[str, Tree]  # every top-level module's tree
    part_of_top: dict[str, int]
    shared_modules: frozenset[str]  # module directories in more than one tree
    owners: dict[str, int]  # a file's part
    directories: dict[str, int]  # a module directory's part
    private_files: dict[str, str]  # a file of a part of several trees that one tree only holds -> that tree
    private_directories: dict[str, str]  # the same for module directories
    discovered: Discovered  # what discovery found in the whole project, walked again only for a whole lint

    def __init__(self, parts: list[Part], settings: list[str], discovered: Discovered) -> None:
        self.settings = settings
        self.discovered = discovered
        self.parts = parts
        self.trees = {top: tree for part in parts for top, tree in part.trees.items()}
        self.part_of_top = {top: index for index, part in enumerate(parts) for top in part.tops}
        self.owners, self.directories, self.private_files, self.private_directories = {}, {}, {}, {}
        holders: dict[str, int] = {}
        for directories, _ in self.trees.values():
            for directory in directories:
                holders[directory] = holders.get(directory, 0) + 1
        self.shared_modules = frozenset(directory for directory, count in holders.items() if count > 1)
        for index, part in enumerate(parts):
            self.owners.update(dict.fromkeys(part.files, index))
            self.directories.update(dict.fromkeys(part.directories, index))
            if len(part.tops) < 2:
                continue
            file_holders = Counter(path for _, files in part.trees.values() for path in files)
            for top, (directories, files) in part.trees.items():
                self.private_files.update((path, top) for path in files if file_holders[path] == 1)
                self.private_directories.update((path, top) for path in directories if holders[path] == 1)

    @staticmethod
    def of(project: Project, findings: dict[str, list[Finding]], settings: list[str]) -> Partition | None:
        options = project.options
        if options.plan is not None or options.var_files or project.errors \
                or any(module.terragrunt for module in project.modules.values()):
            return None
        trees = project.tree_files()
        return Partition.of_trees(trees, frozenset(project.untreed_paths(trees)), findings, settings,
                                  project.discovered)

    @staticmethod
    def of_trees(trees: dict[str, Tree], rest: frozenset[str], findings: dict[str, list[Finding]],
                 settings: list[str], discovered: Discovered) -> Partition | None:
        """The partition of a project whose top-level modules have ``trees`` and whose other files
        are ``rest``; None when a file holds findings no part holds."""
        groups = sharing({top: (*directories, *files) for top, (directories, files) in trees.items()})
        parts = [Part({top: trees[top] for top in group}, frozenset().union(*(trees[top][1] for top in group)))
                 for group in groups]
        partition = Partition([*parts, Part({}, rest)], settings, discovered)
        if any(partition.part_of(path) is None for path in findings):
            return None
        return partition

    def part_of(self, path: str) -> int | None:
        found = self.owners.get(path, self.directories.get(path))
        return found if found is not None else self.directories.get(os.path.dirname(path))

    def private_top(self, path: str) -> str | None:
        """The one tree holding ``path`` in a part of several trees; None when it is shared (or in a
        part of one tree, or in none)."""
        if path in self.owners:
            return self.private_files.get(path)
        return self.private_directories.get(path, self.private_directories.get(os.path.dirname(path)))

    def plan(self, changed: set[str], in_folder, stale: frozenset[int]) -> tuple[frozenset[int], frozenset[str]] | None:
        """What a lint after the ``changed`` files judges: parts whole, and trees alone (a change
        private to one tree of a part of several); with no change, the ``stale`` parts. None when a
        changed file belongs to no part (a new file, a lock file, the configuration) and only a
        lint of the whole project is right. A file outside the folder no part holds is read by none."""
        whole: set[int] = set()
        alone: set[str] = set()
        for path in changed:
            if os.path.basename(path) in WHOLE_PROJECT_FILES:
                return None
            part = self.part_of(path)
            if part is None:
                if in_folder(path):
                    return None
                continue
            top = self.private_top(path)
            if top is None:
                whole.add(part)
            else:
                alone.add(top)
        alone = {top for top in alone if self.part_of_top[top] not in whole}
        if not whole and not alone:
            whole = set(stale)
        return frozenset(whole), frozenset(alone)


class Basis(NamedTuple):
    """The last lint that split the project, for the next one: its judgement (not always the one
    published: a superseded lint's is not), the partition, and the parts whose shared files were
    left stale by a lint of one of their trees alone."""

    judgement: Judgement
    partition: Partition
    stale: frozenset[int]


WHOLE_PROJECT_FILES = (".kapsulint.toml", "pyproject.toml", ".terraform.lock.hcl", ".gitignore", "modules.json")


def changed_paths(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """The files whose text as a lint reads it differs between two sets of buffers (a buffer
    opened or closed with the text on disk changes nothing)."""
    changed = set()
    for path in before.keys() | after.keys():
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None or new is None:
            on_disk = disk_text(path)
            if on_disk is not None and on_disk == (new if old is None else old):
                continue
        changed.add(path)
    return changed


def disk_text(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return decoded(handle.read(), errors="replace")
    except OSError:
        return None


def encoded(buffers: dict[str, str]) -> dict[str, bytes]:
    return {path: text.encode("utf-8") for path, text in buffers.items()}


def reported_by_path(findings: list[Finding]) -> dict[str, list[Finding]]:
    """The findings not suppressed, by the path they are anchored in (in the run's order)."""
    by_path: dict[str, list[Finding]] = {}
    for finding in findings:
        if finding.suppressed_by is None:
            by_path.setdefault(finding.loc.path, []).append(finding)
    return by_path


def internal_error_judgement(folder: Folder, buffers: dict[str, str], message: str) -> Judgement:
    """A lint that failed: a KAP008 finding at the top of each open buffer of the folder."""
    findings = {path: [Finding(Loc(path, 1, 1, 1, 2), f"internal error: {message}", rule="KAP008",
                               name="internal-error", severity=Severity.ERROR, logical="internal-error.server")]
                for path in buffers if folder.holds(path)}
    return Judgement(findings, dict(buffers))


def reads_with_buffers(buffers: dict[str, bytes]):
    """How one lint reads the files: ``buffers`` (bytes by absolute real path) in place of those
    files for the whole project evaluation, the others from disk. The one place the server reaches
    the parser's reads (``--diff`` reads its fixed texts the same way)."""
    from kapsulint.parsing.sources import FileReads

    reads = FileReads()
    reads.set_overlay(buffers)
    return reads


def client_settings(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """The client's settings with kebab-case keys (``unsafeFixes`` is ``unsafe-fixes``), and the
    keys that are not settings of kapsulint."""
    if not isinstance(raw, dict):
        return {}, []
    if isinstance(raw.get("kapsulint"), dict):  # {"kapsulint": {...}}, as some clients nest them
        raw = raw["kapsulint"]
    if isinstance(raw.get("settings"), dict):  # initializationOptions: {"settings": {...}}
        raw = raw["settings"]
    settings, unknown = {}, []
    for key, value in raw.items():
        kebab = "".join(f"-{c.lower()}" if c.isupper() else c for c in str(key))
        if kebab in SETTING_KEYS:
            settings[kebab] = value
        else:
            unknown.append(str(key))
    return settings, unknown


def command_line(target: Path, settings: dict[str, Any]) -> CommandLine:
    """The command line ``kapsulint TARGET`` with the client's settings as its flags."""

    def selectors(key: str) -> str | None:
        value = settings.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            return value
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return ",".join(value)
        raise SettingsError(f"the client setting `{key}` must be a string or a list of strings, got {value!r}")

    unsafe = settings.get("unsafe-fixes")
    if unsafe is not None and not isinstance(unsafe, bool):
        raise SettingsError(f"the client setting `unsafe-fixes` must be true or false, got {unsafe!r}")
    today = settings.get("today")
    if today is not None and not isinstance(today, str):
        raise SettingsError(f"the client setting `today` must be a date YYYY-MM-DD, got {today!r}")
    config = settings.get("config")
    if config is not None and not isinstance(config, str):
        raise SettingsError(f"the client setting `config` must be a path, got {config!r}")
    return CommandLine(
        targets=[target],
        config_path=Path(target, os.path.expanduser(config)) if config else None,
        select=selectors("select"),
        extend_select=selectors("extend-select"),
        ignore=selectors("ignore"),
        today=today,
        unsafe_fixes=unsafe,
    )
