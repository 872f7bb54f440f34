"""What a scan reads and how: the options the command line and the configuration resolve to."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kapsulint.boundary import Boundary, repository_of
from kapsulint.model.plan import Plan
from kapsulint.scan.discovery import Discovered, TemplateFiles
from kapsulint.terraform.budget import Limits

ValuesReaders = Callable[[Any], dict[str, list]]
"""Each file read as Helm values, with the resource instances reading it: a question of the domain
(``helm_release``), asked of a project and given to the engine by the command line."""

YamlKinds = Callable[[str, str], "str | None"]  # (text, file name) -> why it is read
"""What a YAML file that is neither named nor read as values holds, from its text: a reason to
read it (``Kubernetes objects: Service``), or None to leave it unread. A question of the domain,
given to the engine by the command line; the engine reads such files as documents."""

ProviderSensitive = Callable[[Any], list]
"""The values a provider marks sensitive where the language does not (a ``helm_release``'s
``set_sensitive`` entries): a question of the domain, asked of a project and given to the engine
by the command line, so that what no report prints does not depend on which rules ran."""


class ScanScope:
    """A scan restricted to some files: those in ``directories`` (the modules of some root module
    trees) and ``files`` (what those trees read elsewhere, or files no tree reaches). Discovery
    still walks the whole project; what it finds outside the scope is not read, so the project
    judged is the part of the whole one these files make. Modules the scope's modules call are
    read as usual; ``shared_modules`` are the module directories the whole project reaches from
    more than one top-level module (instances there are labelled with their root as in the whole).
    ``discovered``, when given, is what discovery found in the whole project (the same files on
    disk and the same settings): the walk is not made again, the costliest step of a small scope.
    Nothing here checks that the part judges as the whole would: the caller proves it (each root
    tree's files, from ``Project.tree_files``, the same as in the whole project)."""

    directories: frozenset[str]
    files: frozenset[str]
    shared_modules: frozenset[str]
    discovered: Discovered | None

    def __init__(self, directories: frozenset[str], files: frozenset[str],
                 shared_modules: frozenset[str] = frozenset(), discovered: Discovered | None = None) -> None:
        self.directories = directories
        self.files = files
        self.shared_modules = shared_modules
        self.discovered = discovered

    def holds(self, path: str) -> bool:
        return path in self.files or path in self.directories or os.path.dirname(path) in self.directories


class ScanOptions:
    root: Path
    max_file_size: int
    root_modules: list[str]  # directories forced to be roots
    var_files: list[str]  # applied to every root, in order
    variables: dict[str, str]  # --var NAME=VALUE
    environment: dict[str, str]  # TF_VAR_* with --env-vars only
    excluded: object  # callable(path) -> bool
    values_globs: list[str]  # configuration key values-files
    templates: TemplateFiles | None  # configuration key template-files
    cache: bool  # --no-cache turns the parse cache off
    jobs: int  # processes that parse uncached files (--jobs)
    extra_node_types: list[str]  # configuration key extra-node-types
    today: datetime.date | None  # the lint date; None means today in UTC
    values_readers: ValuesReaders | None  # which files releases read as values (from the domain)
    yaml_kinds: YamlKinds | None  # which other YAML files are read, by content (from the domain)
    provider_sensitive: ProviderSensitive | None  # the values providers mark sensitive (from the domain)
    boundary: Boundary  # what may be read: the repository around root, max_file_size bytes per file
    limits: Limits  # the evaluation budgets (configuration keys max-expression-*, max-run-*)
    engine: str  # "terraform", "opentofu" or "auto": which files of a module are read (model/engines.py)
    plan: Plan | None  # --plan: the plan judged beside the code
    plan_directory: Path | None  # the directory the plan was made in (the first PATH)
    scope: ScanScope | None  # the part of the project read (the language server's re-judging); None: all

    def __init__(
        self,
        root: Path,
        max_file_size: int = 5 * 1024 * 1024,
        root_modules: list[str] | None = None,
        var_files: list[str] | None = None,
        variables: dict[str, str] | None = None,
        environment: dict[str, str] | None = None,
        excluded: object = None,
        values_globs: list[str] | None = None,
        templates: TemplateFiles | None = None,
        cache: bool = True,
        jobs: int = 1,
        extra_node_types: list[str] | None = None,
        today: datetime.date | None = None,
        values_readers: ValuesReaders | None = None,
        yaml_kinds: YamlKinds | None = None,
        provider_sensitive: ProviderSensitive | None = None,
        boundary: Boundary | None = None,
        limits: Limits | None = None,
        engine: str = "auto",
        plan: Plan | None = None,
        plan_directory: Path | None = None,
        scope: ScanScope | None = None,
    ) -> None:
        self.root = root
        self.max_file_size = max_file_size
        self.root_modules = [] if root_modules is None else root_modules
        self.var_files = [] if var_files is None else var_files
        self.variables = {} if variables is None else variables
        self.environment = {} if environment is None else environment
        self.excluded = excluded
        self.values_globs = [] if values_globs is None else values_globs
        self.templates = templates
        self.cache = cache
        self.jobs = jobs
        self.extra_node_types = [] if extra_node_types is None else extra_node_types
        self.today = today
        self.values_readers = values_readers
        self.yaml_kinds = yaml_kinds
        self.provider_sensitive = provider_sensitive
        self.boundary = Boundary(repository_of(root), max_file_size) if boundary is None else boundary
        self.limits = limits if limits is not None else Limits()
        self.engine = engine
        self.plan = plan
        self.plan_directory = plan_directory if plan_directory is not None else root
        self.scope = scope
