"""Which files a scan reads, and what kind each one is."""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import NamedTuple

from kapsulint.boundary import OUTSIDE, Boundary, not_regular

CONFIG_SUFFIXES = (".tf", ".tofu", ".tf.json", ".tofu.json")
TFVARS_SUFFIXES = (".tfvars", ".tfvars.json")
LOCK_FILE = ".terraform.lock.hcl"
TERRAGRUNT_FILE = "terragrunt.hcl"
CONFIG_FILE = ".kapsulint.toml"
YAML_SUFFIXES = (".yaml", ".yml")
# YAML without a suffix that a tool reads by name: Kustomize's ``Kustomization`` file
# (https://kubectl.docs.kubernetes.io/references/kustomize/glossary/#kustomization-root); and YAML
# templates a tool renders, such as helmfile v1's ``helmfile.yaml.gotmpl``
# (https://helmfile.readthedocs.io/en/latest/proposals/towards-1.0/).
YAML_NAMES = ("Kustomization",)
YAML_TEMPLATE_SUFFIXES = (".yaml.gotmpl", ".yml.gotmpl")
VALUES_PATTERNS = ("values*.yaml", "values*.yml", "*-values.yaml", "*-values.yml", "*.values.yaml", "*.values.yml")
# Sources of a template engine that only end in a Terraform suffix: a generator renders them into
# the Terraform that is applied (Jinja recommends the .jinja suffix and is often written .j2,
# https://jinja.palletsprojects.com/en/stable/templates/#template-file-extension; Go's
# text/template, https://pkg.go.dev/text/template, is written .tmpl or .tpl). Left out unless
# named as a PATH; configuration key template-files.
TEMPLATE_FILES = tuple(f"*.{engine}.{suffix}" for engine in ("j2", "jinja", "jinja2", "tmpl", "tpl", "gotmpl")
                       for suffix in ("tf", "tofu", "tf.json", "tofu.json"))
# Any other YAML file: read when its content says what it is (the question ScanOptions.yaml_kinds
# answers), and otherwise not at all.
YAML_CANDIDATE = "yaml"
SKIPPED_DIRECTORIES = {".git", ".terraform", ".hg", ".svn", "node_modules", ".venv", "__pycache__", ".tox"}


def file_kind(name: str) -> str | None:
    """"config", "tfvars", "lock", "values", "terragrunt" or None for a file name."""
    if name == LOCK_FILE:
        return "lock"
    if name == TERRAGRUNT_FILE:
        return "terragrunt"
    if name.endswith(CONFIG_SUFFIXES):
        return "config"
    if name.endswith(TFVARS_SUFFIXES):
        return "tfvars"
    if is_values_file_name(name):
        return "values"
    return None


def is_values_file_name(name: str) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in VALUES_PATTERNS)


class NotFollowed(NamedTuple):
    """A symbolic link discovery did not follow, or a file that is not a regular one."""

    path: str  # the link or the file, as found
    target: str | None  # what the link says, as written (None for a file that is no link)
    reason: str  # boundary.OUTSIDE, or why the file is not a regular one


class Discovered:
    files: dict[str, str]  # absolute path -> kind
    unreadable: list[tuple[str, str]]  # (path, reason)
    templates: list[tuple[str, str]]  # (path, the template-files glob it matches): left out
    not_followed: list[NotFollowed]  # links out of the repository, FIFOs and devices: not read
    yaml_candidates: list[str]  # other YAML files: read only when their content says what they are

    def __init__(
        self,
        files: dict[str, str] | None = None,
        unreadable: list[tuple[str, str]] | None = None,
    ) -> None:
        self.files = {} if files is None else files
        self.unreadable = [] if unreadable is None else unreadable
        self.templates = []
        self.not_followed = []
        self.yaml_candidates = []


def discover(root: Path, boundary: Boundary, excluded=None, values_globs: tuple[str, ...] = (),
             templates: TemplateFiles | None = None, recursive: bool = True) -> Discovered:
    """Walk ``root``, skipping VCS and tool directories, reading each directory once.

    A symbolic link is followed only to a target inside ``boundary`` (the repository); any other is
    kept in ``not_followed``, as is a file of a kind kapsulint reads that is not a regular one (a
    FIFO, a device). A link to a directory of the walked tree is not followed either: that
    directory is walked under its own path, once. ``excluded`` (a predicate on paths) drops files
    and directories; ``values_globs`` (configuration key ``values-files``) names more values files,
    relative to root; ``templates`` leaves out the sources of a template engine (configuration key
    ``template-files``); ``recursive=False`` lists ``root`` alone. Paths stay strings while
    walking: most entries are not ours, and a Path per entry costs more than the walk itself.
    """
    found = Discovered()
    seen: set[tuple[int, int]] = set()
    walked = os.path.realpath(root)
    walked_prefix = walked if walked.endswith(os.sep) else walked + os.sep
    stack = [str(root)]
    while stack:
        directory = stack.pop()
        try:
            status = os.stat(directory)
        except OSError as error:  # its parent lists it but may not be searched (mode r--)
            found.unreadable.append((directory, error.strerror or str(error)))
            continue
        identity = (status.st_dev, status.st_ino)  # a directory reached again through a link
        if identity in seen:
            continue
        seen.add(identity)
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as error:
            found.unreadable.append((directory, error.strerror or str(error)))
            continue
        subdirectories = []
        for entry in entries:
            try:
                is_link = entry.is_symlink()
                refusal = boundary.refusal(entry.path) if is_link else None
                if refusal == OUTSIDE:  # nothing more is asked of what lies outside
                    if entry.name not in SKIPPED_DIRECTORIES and not _excludes_file(excluded, entry.path):
                        found.not_followed.append(NotFollowed(entry.path, _link_text(entry.path), OUTSIDE))
                    continue
                is_dir = entry.is_dir()
                is_file = entry.is_file()
            except OSError as error:
                found.unreadable.append((entry.path, error.strerror or str(error)))
                continue
            if is_dir:
                if is_link and _below(os.path.realpath(entry.path), walked, walked_prefix):
                    continue  # walked under its own path
                if (recursive and entry.name not in SKIPPED_DIRECTORIES
                        and not (excluded and excluded(Path(entry.path)))):
                    subdirectories.append(entry.path)
                continue
            kind = file_kind(entry.name)
            if kind is None and values_globs and _matches(Path(entry.path), root, values_globs):
                kind = "values"
            if kind is None and (entry.name.endswith(YAML_SUFFIXES + YAML_TEMPLATE_SUFFIXES)
                                 or entry.name in YAML_NAMES):
                kind = YAML_CANDIDATE
            if kind is None or (excluded and _excludes_file(excluded, entry.path)):
                continue
            if kind == YAML_CANDIDATE:
                if is_file:  # read only if its content says what it is: nothing is said of the others
                    found.yaml_candidates.append(entry.path)
                continue
            matched = templates.match(entry.path, entry.name) if templates and kind == "config" else None
            if matched is not None:
                found.templates.append((entry.path, matched))
                continue
            if not is_file:
                if refusal is not None:  # a link to a FIFO or a device inside
                    found.not_followed.append(NotFollowed(entry.path, _link_text(entry.path), refusal))
                elif is_link:
                    found.unreadable.append((entry.path, "broken symbolic link"))
                else:
                    _special(found, entry)
                continue
            found.files[entry.path] = kind
        stack.extend(reversed(subdirectories))
    return found


def _below(real: str, walked: str, walked_prefix: str) -> bool:
    return real == walked or real.startswith(walked_prefix)


def _link_text(path: str) -> str | None:
    try:
        return os.readlink(path)
    except OSError:
        return None


def _special(found: Discovered, entry: os.DirEntry) -> None:
    """A FIFO, a device or a socket with the name of a file kapsulint reads: not read, and said."""
    try:
        mode = entry.stat(follow_symlinks=False).st_mode
    except OSError:
        return  # gone since the directory was listed
    found.not_followed.append(NotFollowed(entry.path, None, not_regular(mode)))


def _excludes_file(excluded, path: str) -> bool:
    """Files are asked only of the configured exclusion: a nested project is a directory."""
    inner = excluded.excluded if isinstance(excluded, SkippingNestedProjects) else excluded
    return inner is not None and inner(Path(path))


def relative_path(path: str, root: str) -> str:
    """``os.path.relpath(path, root)``, without its cost (two ``abspath`` and a split of both) for
    the common case: an absolute, normalised ``path`` under an absolute ``root``, whose relative path
    is then its tail. Raises ValueError as ``relpath`` does."""
    if root.startswith(os.sep) and path.startswith(root):
        prefix = root if root.endswith(os.sep) else root + os.sep
        if path.startswith(prefix) and len(path) > len(prefix) and "//" not in path and "/." not in path \
                and not path.endswith(os.sep) and "//" not in root and "/." not in root:
            return path[len(prefix):]
    return os.path.relpath(path, root)


class TemplateFiles:
    """The ``template-files`` globs, on a file's name or its path relative to root, and the files
    named as PATHs, which are read whatever their name (as Ruff reads a file it is given)."""

    def __init__(self, root: Path, globs: tuple[str, ...], named: list[Path]) -> None:
        self.root = str(root)
        self.globs = globs
        self.named = {os.path.abspath(p) for p in named}
        # One pattern for all globs: most files match none, and are rejected in one step.
        self._any = re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs)) if globs else None

    def __bool__(self) -> bool:
        return bool(self.globs)

    def match(self, path: str, name: str) -> str | None:
        """The first glob ``path`` matches, unless it is named as a PATH."""
        if self._any is None:
            return None
        relative = relative_path(path, self.root).replace(os.sep, "/")
        if not (self._any.match(name) or self._any.match(relative)) or os.path.abspath(path) in self.named:
            return None
        return next((g for g in self.globs if fnmatch.fnmatchcase(name, g) or fnmatch.fnmatchcase(relative, g)),
                    None)


class SkippingNestedProjects:
    """``excluded`` extended to leave out nested projects: a directory below ``root`` holding its own
    configuration (another project, a vendored clone), unless a PATH in ``named`` is in it. The
    directories left out are kept in ``left_out``, for ``--show-files``."""

    def __init__(self, root: Path, named: list[Path], boundary: Boundary, excluded=None) -> None:
        self.root = root
        self.named = named
        self.boundary = boundary
        self.excluded = excluded
        self.left_out: list[Path] = []

    def __call__(self, path: Path) -> bool:
        if self.excluded is not None and self.excluded(path):
            return True
        if path == self.root or not holds_configuration(path, self.boundary):
            return False
        if any(p == path or path in p.parents for p in self.named):
            return False
        self.left_out.append(path)
        return True


def holds_configuration(directory: Path, boundary: Boundary) -> bool:
    """A ``.kapsulint.toml``, or a ``pyproject.toml`` with a ``[tool.kapsulint]`` table, in ``directory``
    (either read only inside the repository)."""
    folder = str(directory)  # strings, not Path joins: asked of every directory walked
    if boundary.kind(os.path.join(folder, CONFIG_FILE)) == "file":
        return True
    try:
        data = boundary.read(os.path.join(folder, "pyproject.toml"))
        text = data.decode("utf-8") if data is not None else ""
    except (OSError, UnicodeDecodeError):
        return False
    if "kapsulint" not in text:  # most pyproject.toml files: no TOML parse
        return False
    import tomllib

    try:
        return "kapsulint" in tomllib.loads(text).get("tool", {})
    except tomllib.TOMLDecodeError:
        return False


def _matches(path: Path, root: Path, globs: tuple[str, ...]) -> bool:
    return matching_glob(str(path), root, globs) is not None


def matching_glob(path: str, root: Path, globs: tuple[str, ...]) -> str | None:
    """The first ``values-files`` glob (relative to root) that ``path`` matches."""
    try:
        relative = Path(path).relative_to(root).as_posix()
    except ValueError:
        return None
    return next((pattern for pattern in globs if fnmatch.fnmatch(relative, pattern)), None)


def is_chart_values(path: Path, boundary: Boundary) -> bool:
    """A chart's own defaults or CI values: beside a ``Chart.yaml``, or in a chart's ``ci/``."""
    directory = path.parent
    if boundary.kind(directory / "Chart.yaml") == "file":
        return True
    return directory.name == "ci" and boundary.kind(directory.parent / "Chart.yaml") == "file"


def in_chart(path: Path, root: Path, boundary: Boundary) -> bool:
    """Inside a Helm chart (a ``Chart.yaml`` in its directory or one above it, up to ``root``):
    its templates are Go templates that Helm renders, not objects as written."""
    directory = path.parent
    # Asked once: each directory walked up from one strictly below root is root or below it too.
    below = directory != root and root in directory.parents
    while True:
        if boundary.kind(directory / "Chart.yaml") == "file":
            return True
        if not below or directory == root or directory.parent == directory:
            return False
        directory = directory.parent
