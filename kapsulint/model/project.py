"""The whole scan: files read, modules built and linked, module instances evaluated on demand."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from kapsulint.boundary import NOTE_KIND, OUTSIDE, shown_path
from kapsulint.errors import describe
from kapsulint.findings import Loc, Sensitive
from kapsulint.model import engines
from kapsulint.model.instances import (
    ModuleInstance,
    ResourceInstance,
    as_written,
    nested_blocks,
)
from kapsulint.model.modules import (
    DOWNLOAD_MISSING,
    LOCAL_EMPTY,
    LOCAL_MISSING,
    LOCAL_TOFU_ONLY,
    MANIFEST_UNREADABLE,
    NO_SOURCE,
    NOT_AN_ADDRESS,
    NOT_CONSTANT,
    NOT_DOWNLOADED,
    NOT_LISTED,
    OUTSIDE_REPOSITORY,
    UNRECOGNISED,
    Block,
    Duplicate,
    Module,
    ModuleCall,
    Resource,
    SourceFile,
    UnreadCall,
    ValuesFile,
    Variable,
    YamlDocuments,
    block_from,
    is_local_source,
    source_kind,
)
from kapsulint.model.options import ScanOptions, ScanScope
from kapsulint.model.plan_binding import PlanBinding, PlanMismatch, bind_plan
from kapsulint.model.variables import root_variable_values
from kapsulint.parsing.sources import FileReads, Unreadable, decode
from kapsulint.scan import discovery
from kapsulint.scan.cache import ParseCache, valid_template, valid_yaml_text
from kapsulint.scan.discovery import (
    Discovered,
    NotFollowed,
    discover,
    file_kind,
    in_chart,
    is_chart_values,
    relative_path,
)
from kapsulint.scan.loader import Loaded, load_sources, prime_sources
from kapsulint.scan.parallel import File
from kapsulint.terraform.budget import Budget
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.evaluate import EMPTY_SCOPE, Evaluator, Scope
from kapsulint.terraform.values import UNKNOWN, Val
from kapsulint.text import decoded, lf

_T = TypeVar("_T")
FILE_LEFT_OUT = "file-left-out"  # the blind spot of a file, or part of one, left out (KAP012)
# Files a release may read as values: YAML, and templates of it (helmfile's values.yaml.gotmpl,
# https://helmfile.readthedocs.io/en/latest/templating/, and Jinja's .j2).
VALUES_READ_SUFFIXES = (".yaml", ".yml", ".gotmpl", ".j2", ".jinja", ".jinja2")
MAX_MANIFEST_KEYS = 64  # module paths tried per local module (a diamond of calls doubles them at each level)
MAX_MANIFEST_DEPTH = 64  # local calls followed up from a module to the roots that reach it


class Survey(NamedTuple):
    """What :meth:`Project.survey` found: discovery's answer, the files a load reads (path, kind)
    and what their content said of the YAML ones, then, once the configuration files holding a
    ``module`` block are parsed into the cache, the module sources each calls (by path; None when
    the project is one to judge whole), the size of each file read, and the files read that
    neither the cache held nor the survey parsed (for a :class:`kapsulint.scan.loader.Background`)."""

    discovered: Discovered
    entries: list[tuple[str, str]]
    reasons: dict[str, str]
    calls: dict[str, list[str]] | None
    sizes: dict[str, int]
    deferred: tuple[File, ...] = ()


class Project:
    def __init__(self, options: ScanOptions, reads: FileReads | None = None, budget: Budget | None = None) -> None:
        """The project ``options`` describe, read through ``reads`` (the run's: ``--fix`` and
        ``--diff`` give every round's project theirs; by default, reads of its own). Its
        evaluation spends ``budget`` (the run's, which the projects of a lint by parts share; by
        default, one of its own)."""
        self.options = options
        self.root = options.root
        self.boundary = options.boundary
        self.reads = FileReads() if reads is None else reads
        self.files: dict[str, SourceFile] = {}
        self.modules: dict[str, Module] = {}
        self.values_files: list[ValuesFile] = []
        self.yaml_documents: list[YamlDocuments] = []  # YAML read for what its content holds
        self.yaml_reasons: dict[str, str] = {}  # path -> what its content said it holds
        self.unreadable: list[tuple[str, str]] = []
        self.template_sources: list[tuple[str, str]] = []  # (path, glob): left out, for --show-files
        self.not_followed: list[NotFollowed] = []  # links out of the repository, FIFOs: not read (KAP014)
        self.unread_calls: list[UnreadCall] = []  # module calls whose module was not read (KAP011)
        self.errors: list[tuple[str, str | None, str | None]] = []  # internal errors: (message, path, rule)
        self._instances: list[ModuleInstance] | None = None
        self._texts: dict[str, str | None] = {}
        self._templates: dict[str, dict | None] = {}
        self._downloaded: dict[str, dict[str, str]] = {}  # root dir -> modules.json key -> directory
        self._bad_manifests: set[str] = set()  # root dirs whose modules.json exists but cannot be read
        self._outside: set[str] = set()  # module directories that resolve outside the repository
        self._aliases: dict[str, str] = {}  # a module directory as a call names it -> the one read there
        self.cache = ParseCache.default(options.cache)
        self._memo: dict[object, Any] = {}
        self.budget = Budget(options.limits) if budget is None else budget  # what evaluating the run may cost
        self._notes: dict[tuple[str, Loc], str] = {}  # blind spots met while evaluating, first message kept
        self._cache_keys: dict[str, str] = {}  # path -> parse cache key, for the files read from the cache
        self.engines: dict[str, engines.Choice] = {}  # module directory -> the engine it is read as
        self.not_read: list[engines.NotRead] = []  # configuration files their module's engine leaves out
        self._sensitive_regions: dict[str, set[tuple[int, int, int, int]]] = {}
        self._sensitive_texts: set[str] = set()
        self._read_by_root: dict[str, set[str]] = {}  # root module path -> files its tree's functions read
        self.discovered = Discovered()  # what discovery found in the whole project (before any scope)

    # -- loading ------------------------------------------------------------------------------

    def load(self, survey: Survey | None = None) -> Project:
        """Read and link the project; with ``survey`` (of the whole project, with no scope), what
        it discovered and chose to read instead of walking the tree again."""
        scope = self.options.scope
        found = scope.discovered if scope is not None and scope.discovered is not None else None
        if survey is not None:
            found = survey.discovered
        if found is None:
            found = discover(self.root, self.boundary, self.options.excluded, tuple(self.options.values_globs),
                             self.options.templates)
        self.discovered = found
        if scope is not None:
            found = _within(found, scope)
        self.template_sources = found.templates
        for path, glob in found.templates:
            self.note(FILE_LEFT_OUT, Loc(path, 1, 1, 1, 2),
                      f"template source left out (it matches template-files `{glob}`): a generator renders it "
                      "into the Terraform that is applied, so no rule judged it; lint the rendered files, or name "
                      "it as a PATH to read it as it is")
        self._not_followed(found.not_followed)
        overrides: list[SourceFile] = []
        if survey is None:
            entries = self._entries(found)
        else:
            entries = survey.entries
            self.yaml_reasons.update(survey.reasons)
            self._mark_terragrunt(found)
        loaded = self._load(entries, self.options.jobs)
        configs: dict[str, list[SourceFile]] = {}
        for path, source in loaded.sources.items():
            if source.kind == "config":
                configs.setdefault(os.path.dirname(path), []).append(source)
                continue
            self.files[path] = source
            self._add_guarded(source, self._add)
        self.engines = engines.decide(configs, {d: m.lock for d, m in self.modules.items()}, self.options.engine,
                                      is_override_file)
        read = {s.path for d, sources in configs.items() for s in self._files_read(sources, self.engines[d])}
        self.unreadable.extend(self._not_left_out(found.unreadable + loaded.unreadable, configs))
        for path, source in loaded.sources.items():
            if path not in read:
                continue
            self.files[path] = source
            if is_override_file(path):
                overrides.append(source)
            else:
                self._add_guarded(source, self._add)
        for source in overrides:
            self._add_guarded(source, self._apply_override)
        for step in (self._load_called_local_modules, self._load_downloaded_modules, self._mark_terragrunt_trees,
                     self._link_calls, self._break_cycles, self._choose_roots):
            self._step_guarded(step)
        return self

    def _entries(self, found: Discovered) -> list[tuple[str, str]]:
        """The files of ``found`` to read, with their kinds: a Terragrunt file marks its module
        instead, chart values are read only when a release references them, and YAML candidates
        are read when their content says what they hold."""
        self._mark_terragrunt(found)
        entries = [(path, kind) for path, kind in found.files.items()
                   if kind != "terragrunt" and not (kind == "values" and is_chart_values(Path(path), self.boundary))]
        entries.extend((path, "documents") for path in self._documents_by_content(found.yaml_candidates))
        return entries

    def _mark_terragrunt(self, found: Discovered) -> None:
        for path, kind in found.files.items():
            if kind == "terragrunt":
                self._module(os.path.dirname(path)).terragrunt = True

    def survey(self, min_bytes: int) -> Survey:
        """What a lint by parts plans with, without building the model: what discovery finds in
        the whole project, the files it would read, and the module sources each configuration file
        calls. Only the files that may call a module are parsed (into the parse cache, where the
        groups find them); the others are read, for their size, and left to parse
        (``Survey.deferred``): a lint by parts parses them while it judges the first groups.

        Nothing is parsed, and the survey has no calls, for a project that only a lint of the whole
        judges (which then loads what the survey found): one whose files hold fewer than
        ``min_bytes``, with a path that cannot be read, with Terragrunt, or with YAML read for what
        it holds (Kubernetes objects, Argo CD, Flux: the domain relates them across the whole
        repository)."""
        found = discover(self.root, self.boundary, self.options.excluded, tuple(self.options.values_globs),
                         self.options.templates)
        self.discovered = found
        entries = self._entries(found)
        whole = Survey(found, entries, dict(self.yaml_reasons), None, {})
        if found.unreadable or any(kind == "terragrunt" for kind in found.files.values()) \
                or any(kind == "documents" for _, kind in entries) or _total_size(entries) < min_bytes:
            return whole
        budget = Budget(self.options.limits)
        calls: dict[str, list[str]] = {}

        def wanted(path: str, kind: str, content: bytes) -> bool:
            # HCL writes a block's type out; a JSON key spelt with escapes leaves a call out of
            # the plan, which the check of each group then catches (the whole is judged)
            return kind == "config" and b"module" in content

        primed = prime_sources(entries, self.boundary, self.cache, self.options.jobs, self.reads, wanted, defer=True)
        for path, source in primed.sources.items():
            sources = calls.setdefault(path, [])
            if not source.ok:
                continue
            for raw in source.parsed["body"]["blocks"]:
                if raw["type"] == "module":
                    called = call_source(block_from(raw, path), budget)
                    if called is not None:
                        sources.append(called)
        if primed.unreadable:
            return whole
        return whole._replace(calls=calls, sizes=primed.sizes, deferred=tuple(primed.deferred))

    def release(self) -> None:
        """Let the model go at once: its objects refer to each other (a module and its resources, an
        instance and its children), so reference counting alone never frees them, and a collection
        walks every one of them. This breaks those references; the project is unusable after it. A
        lint by parts releases each group's model before it builds the next."""
        pending = list(self._instances or ())
        while pending:
            instance = pending.pop()
            for children in instance.children.values():
                pending.extend(children)
            instance.__dict__.clear()
        for module in self.modules.values():
            for resource in module.resources.values():
                resource.__dict__.clear()
            module.__dict__.clear()
        self.__dict__.clear()

    def adopt_cached(self, other: Project) -> None:
        """Take the cache keys of the files ``other`` read from the cache, so that
        :meth:`forget_cached` here forgets them too (a lint by parts keeps this project)."""
        self._cache_keys.update(other._cache_keys)

    def _documents_by_content(self, candidates: list[str]) -> list[str]:
        """The YAML files, named neither as values nor as anything else, whose text says what they
        hold (``ScanOptions.yaml_kinds``, the domain's answer); the reason is kept for
        ``--show-files``. A file inside a Helm chart is a template, and one that cannot be read is
        left alone: nothing said it was ours."""
        classify = self.options.yaml_kinds
        if classify is None:
            return []
        kept = []
        charted: dict[str, bool] = {}  # directory -> inside a chart, asked once per directory
        for path in candidates:
            directory = os.path.dirname(path)
            if directory not in charted:
                charted[directory] = in_chart(Path(path), self.root, self.boundary)
            if charted[directory]:
                continue
            try:
                content = self.reads.read_bytes(path, self.boundary)
            except (Unreadable, OSError):
                continue
            if content is None:  # above max-file-size: not known to be ours
                continue
            reason = classify(lf(decoded(content, errors="replace")), os.path.basename(path))
            if reason is not None:
                self.yaml_reasons[path] = reason
                kept.append(path)
        return kept

    def _not_followed(self, found: list[NotFollowed]) -> None:
        """Links discovery did not follow and files that are not regular: kept for ``--show-files``,
        and each a blind spot at the path itself (KAP014), so that what was not read is said."""
        self.not_followed.extend(found)
        for item in found:
            if item.reason == OUTSIDE:
                message = (f"symbolic link to {shown_path(item.target)} not followed: it {OUTSIDE}, so what it "
                           "points to is not read")
            else:
                message = f"not read: it {item.reason}"
            self.note(NOTE_KIND, Loc(item.path, 1, 1, 1, 2), message)
    def _files_read(self, sources: list[SourceFile], choice: engines.Choice) -> list[SourceFile]:
        """The configuration files of one directory its engine reads; the others are kept in
        ``not_read`` (for ``--show-files``) and count nowhere: no finding, no suppression."""
        kept, left_out = engines.files_read([s.path for s in sources], choice.engine)
        self.not_read.extend(left_out)
        read = set(kept)
        return [s for s in sources if s.path in read]

    def _not_left_out(self, unreadable: list[tuple[str, str]],
                      configs: dict[str, list[SourceFile]]) -> list[tuple[str, str]]:
        """The unreadable files the engine of their directory would have read: a ``.tf`` file
        OpenTofu replaces is never opened, so it cannot fail to be."""
        kept = []
        for path, reason in unreadable:
            directory = os.path.dirname(path)
            choice = self.engines.get(directory)
            if choice is not None and path.endswith(discovery.CONFIG_SUFFIXES):
                names = [path, *(s.path for s in configs.get(directory, ()))]
                if path not in engines.files_read(names, choice.engine)[0]:
                    self.not_read.append(engines.NotRead(path, choice.engine, engines.tofu_twin(path)
                                                         if choice.engine == engines.OPENTOFU else None))
                    continue
            kept.append((path, reason))
        return kept

    def _load(self, entries: list[tuple[str, str]], jobs: int) -> Loaded:
        """Read and parse files (the cache first), keeping the cache key of each file read from the
        cache; the caller keeps what could not be read in ``unreadable`` (unless its engine would
        never have opened it)."""
        loaded = load_sources(entries, self.boundary, self.cache, jobs, self.reads)
        self._cache_keys.update(loaded.cached)
        return loaded

    def forget_cached(self, path: str | None = None) -> None:
        """Drop the cached parse of ``path`` (of every file, without one), if it was read from the
        cache: a bug met in a file may come from a damaged entry that passed the checks on read
        (they stop at the first node of each expression), and the next run then parses it again."""
        paths = [path] if path is not None else list(self._cache_keys)
        for each in paths:
            key = self._cache_keys.pop(each, None)
            if key is not None:
                self.cache.drop(key)

    def _step_guarded(self, step) -> None:
        """The project boundary: a bug while linking the modules is an internal error of the project
        (reported at its root, exit 2); the files read so far are still linted."""
        try:
            step()
        except Exception as error:
            self.errors.append((f"{step.__name__.strip('_').replace('_', ' ')} failed: {describe(error)}", None, None))
            self.forget_cached()

    def _add_guarded(self, source: SourceFile, add) -> None:
        """The file boundary: a bug while parsing or adding one file is an internal error for that
        file (reported, exit 2), and every other file is still read."""
        if source.internal is not None:
            self.errors.append((f"parsing failed: {source.internal}", source.path, None))
        try:
            add(source)
        except Exception as error:
            detail = describe(error)
            self.errors.append((f"loading failed: {detail}", source.path, None))
            self.forget_cached(source.path)

    def _module(self, directory: str) -> Module:
        module = self.modules.get(directory)
        if module is None:
            module = self.modules[directory] = Module(directory)
        return module

    def _add(self, source: SourceFile) -> None:
        directory = os.path.dirname(source.path)
        if source.kind == "values":
            self.values_files.append(ValuesFile(source))
            return
        if source.kind == "documents":
            self.yaml_documents.append(YamlDocuments(source, self.yaml_reasons.get(source.path, "")))
            return
        if source.kind == "lock":
            self._module(directory).lock = source
            return
        if source.kind == "tfvars":
            self._module(directory).tfvars.append(source)
            return
        module = self._module(directory)
        module.files.append(source)
        if source.ok:
            for raw in source.parsed["body"]["blocks"]:
                self._add_block(module, block_from(raw, source.path))

    def _add_block(self, module: Module, block) -> None:
        """One top-level block into its module. A second definition of an address is recorded
        (KAP006) and never replaces the first, which references resolve to; a later definition of
        a resource is kept under a key no reference can spell (``address#2``), so rules judge
        every block, each with instances of its own."""
        kind, labels = block.type, block.labels
        if kind in ("resource", "data") and len(labels) == 2:
            resource = Resource("managed" if kind == "resource" else "data", labels[0], labels[1], block, module)
            first = module.resources.get(resource.address)
            if first is None:
                module.resources[resource.address] = resource
            else:
                module.duplicates.append(Duplicate(resource.address, first.block.loc, block.loc))
                resource.definition = 2
                while f"{resource.address}#{resource.definition}" in module.resources:
                    resource.definition += 1
                module.resources[f"{resource.address}#{resource.definition}"] = resource
        elif kind == "variable" and labels:
            self._first(module, module.variables, labels[0], f"var.{labels[0]}", Variable(labels[0], block), block.loc)
        elif kind == "locals":
            for name, attribute in block.attrs.items():
                self._first(module, module.locals, name, f"local.{name}", attribute, attribute.loc)
        elif kind == "output" and labels:
            self._first(module, module.outputs, labels[0], f"output.{labels[0]}", block, block.loc)
        elif kind == "module" and labels:
            call = ModuleCall(labels[0], block, call_source(block, self.budget))
            self._first(module, module.calls, labels[0], f"module.{labels[0]}", call, block.loc)
        elif kind == "provider":
            alias = _literal(block, "alias")
            provider = next((p for p in module.providers if p.labels == labels and _literal(p, "alias") == alias), None)
            if provider is not None and labels:
                name = f"provider.{labels[0]}" + (f".{alias}" if alias is not None else "")
                module.duplicates.append(Duplicate(name, provider.loc, block.loc))
            module.providers.append(block)
        elif kind == "check" and labels:
            for nested in block.children("data"):  # scoped data sources: only the check's assertions read them
                if len(nested.labels) == 2:
                    scoped = Resource("data", nested.labels[0], nested.labels[1], nested, module)
                    module.check_data.setdefault(scoped.address, scoped)
        elif kind == "terraform":
            settings = block.children("backend") + block.children("cloud")
            if settings and (module.backends or module.clouds):
                backend = (module.backends + module.clouds)[0]
                module.duplicates.append(Duplicate("terraform.backend", backend.loc, settings[0].loc))
            module.terraform_blocks.append(block)

    @staticmethod
    def _first(module: Module, table: dict, name: str, address: str, item: object, loc) -> None:
        """``item`` under ``name`` unless the module already defines it (then a duplicate)."""
        kept = table.get(name)
        if kept is None:
            table[name] = item
            return
        first = kept.block.loc if isinstance(kept, (Variable, ModuleCall)) else kept.loc
        module.duplicates.append(Duplicate(address, first, loc))

    def _apply_override(self, source: SourceFile) -> None:
        """Terraform's override files: their blocks merge into the base blocks they name."""
        module = self._module(os.path.dirname(source.path))
        module.files.append(source)
        if not source.ok:
            return
        for raw in source.parsed["body"]["blocks"]:
            override = block_from(raw, source.path)
            if override.type == "locals":  # an override file's locals replace the base's
                module.locals.update(override.attrs)
                continue
            base = self._base_block(module, override)
            if base is None:
                self._add_block(module, override)
                continue
            base.raw = merged_block(base.raw, raw, source.path)
            base.forget_derived()
            if override.type == "module":  # an override may name another source
                module.calls[override.labels[0]].source = call_source(base, self.budget)

    def _base_block(self, module: Module, override):
        kind, labels = override.type, override.labels
        if kind in ("resource", "data") and len(labels) == 2:
            prefix = "data." if kind == "data" else ""
            found = module.resources.get(f"{prefix}{labels[0]}.{labels[1]}")
            return found.block if found else None
        if kind == "variable" and labels and labels[0] in module.variables:
            return module.variables[labels[0]].block
        if kind == "output" and labels:
            return module.outputs.get(labels[0])
        if kind == "module" and labels and labels[0] in module.calls:
            return module.calls[labels[0]].block
        if kind == "terraform" and module.terraform_blocks:
            return module.terraform_blocks[0]
        if kind == "provider" and labels:
            for block in module.providers:
                if block.labels == labels and block.attr("alias") is None and override.attr("alias") is None:
                    return block
        return None

    def _load_called_local_modules(self, pending: list[Module] | None = None) -> None:
        """Local module sources discovery did not reach (``source = "../modules/x"`` outside the
        root, or in a nested project, or inside a downloaded module), read to evaluate the calls,
        transitively: inside the repository only. A source that names a module already read under
        another path (through a link) is that module, read once."""
        real_paths: dict[str, str] = {}  # real directory -> module path, once a call needs it
        pending = list(self.modules.values()) if pending is None else pending
        while pending:
            module = pending.pop()
            for call in module.calls.values():
                if not (call.source and is_local_source(call.source)):
                    continue
                directory = os.path.normpath(os.path.join(module.path, call.source))
                if directory in self.modules or directory in self._aliases or directory in self._outside:
                    continue
                kind = self.boundary.kind(directory)
                if kind == "outside":
                    self._outside.add(directory)
                    continue
                if kind != "directory":
                    continue
                if not real_paths:
                    real_paths.update((self.boundary.real(path), path) for path, read in self.modules.items()
                                      if read.files)
                real = self.boundary.real(directory)
                if real in real_paths:
                    self._aliases[directory] = real_paths[real]
                    continue
                found = discover(Path(directory), self.boundary, recursive=False)
                self._not_followed([item for item in found.not_followed if item not in self.not_followed])
                files = [(path, kind) for path, kind in found.files.items() if kind == "config"]
                loaded = self._load(files, 1)
                sources = self._in_tree_of(module.path, directory, list(loaded.sources.values()))
                self.unreadable.extend(self._not_left_out(loaded.unreadable, {directory: sources}))
                for source in sources:
                    self.files[source.path] = source
                    self._add_guarded(source, self._add)
                real_paths[real] = directory
                pending.append(self._module(directory))

    def _in_tree_of(self, caller: str, directory: str, sources: list[SourceFile]) -> list[SourceFile]:
        """The files of ``directory``, a module read for a call from ``caller``, that the engine of
        the caller's tree reads (it reads the modules it calls with its own rules)."""
        choice = self.engines[caller]  # a caller has configuration files, so an engine
        tree = choice.tree or caller
        self.engines[directory] = engines.Choice(choice.engine, engines.CALLED, tree)
        return self._files_read(sources, self.engines[directory])

    def values_readers(self) -> dict[str, list[ResourceInstance]]:
        """Each file read as values, with the resource instances reading it (the domain's answer,
        given by ``ScanOptions.values_readers``); empty without it."""
        readers = self.options.values_readers
        return self.memo("values-readers", lambda: readers(self) if readers is not None else {})

    def add_read_values_files(self) -> None:
        """Read the YAML files releases read as values files, whatever their names (templates of
        YAML too: helmfile's ``.gotmpl``, Jinja's ``.j2``)."""
        self.add_values_files([p for p in self.values_readers() if p.endswith(VALUES_READ_SUFFIXES)])

    def add_values_files(self, paths: list[str]) -> None:
        """Values files found by what reads them (a ``helm_release``'s ``file()``), whatever their
        name: read like discovered ones, for their parse errors and suppression comments."""
        entries = [(path, "values") for path in paths
                   if path not in self.files and self.boundary.refusal(path) is None]  # the call said why
        loaded = self._load(entries, 1)
        self.unreadable.extend(loaded.unreadable)
        self.files.update(loaded.sources)

    def _load_downloaded_modules(self) -> None:
        """Remote modules Terraform downloaded, read from ``.terraform/modules`` when listed there
        (and the local modules they call, which a manifest written by hand may not list)."""
        downloaded: list[Module] = []
        for module in list(self.modules.values()):
            manifest = os.path.join(module.path, ".terraform", "modules", "modules.json")
            try:
                data = self.boundary.read(manifest)  # inside the repository, bounded as any file
                entries = json.loads(data)["Modules"] if data is not None else None
            except FileNotFoundError:
                continue
            except (OSError, ValueError, TypeError, KeyError):
                entries = None
            if not isinstance(entries, list):
                self._bad_manifests.add(module.path)
                continue
            self._downloaded.setdefault(module.path, {})
            for entry in entries:
                if not isinstance(entry, dict) or not entry.get("Key") or not isinstance(entry.get("Dir"), str):
                    continue
                directory = os.path.normpath(os.path.join(module.path, entry["Dir"]))
                if ".terraform" not in Path(directory).parts or directory in self.modules:
                    continue
                if self.boundary.kind(directory) == "outside":  # a link, or an absolute Dir
                    self._outside.add(directory)
                    self._downloaded.setdefault(module.path, {})[entry["Key"]] = directory
                    continue
                found = discover(Path(directory), self.boundary, recursive=False)
                files = [(path, kind) for path, kind in found.files.items() if kind == "config"]
                sources = list(self._load(files, 1).sources.values())
                for source in self._in_tree_of(module.path, directory, sources):
                    self._add_guarded(source, self._add)
                read = self.modules.setdefault(directory, Module(directory))
                read.downloaded = (module.path, entry["Key"])
                self._downloaded[module.path][entry["Key"]] = directory
                downloaded.append(read)
        self._load_called_local_modules(downloaded)

    def _mark_terragrunt_trees(self) -> None:
        marked = {Path(p) for p, m in self.modules.items() if m.terragrunt}
        if not marked:
            return
        for path, module in self.modules.items():
            tree = Path(path)
            if tree in marked or not marked.isdisjoint(tree.parents):  # the module or a directory above it
                module.terragrunt = True

    def _link_calls(self) -> None:
        """Each call to the module it names: a local directory, else the directory the root
        module's ``.terraform/modules/modules.json`` gives its key; every call left without a
        module is an :class:`UnreadCall`, with its reason."""
        local_callers: dict[str, list[tuple[Module, ModuleCall]]] = {}  # module path -> its local calls
        remote: list[tuple[Module, ModuleCall]] = []
        unread: list[tuple[Module, ModuleCall, str, str | None]] = []
        left_out = {os.path.dirname(item.path) for item in self.not_read}  # directories of files an engine ignores
        for module in list(self.modules.values()):
            for call in module.calls.values():
                if call.source is None:
                    reason = NO_SOURCE if call.block.attr("source") is None else NOT_CONSTANT
                    unread.append((module, call, reason, None))
                elif not is_local_source(call.source):
                    remote.append((module, call))
                elif not self._link_local(module, call, local_callers):
                    directory = os.path.normpath(os.path.join(module.path, call.source))
                    reason = (OUTSIDE_REPOSITORY if directory in self._outside else
                              LOCAL_TOFU_ONLY if directory in left_out else
                              LOCAL_EMPTY if self.boundary.kind(directory) == "directory" else LOCAL_MISSING)
                    unread.append((module, call, reason, None))
        keys: dict[str, list[tuple[str, str]]] = {}
        for module, call in remote:
            reasons = []
            for root, prefix in self._manifest_keys(module, local_callers, keys, set()):
                key = f"{prefix}.{call.name}" if prefix else call.name
                refused = self._link_downloaded(root, key, call)
                if refused is None:
                    break
                reasons.append((root, refused))
            else:
                root, reason = reasons[0]
                unread.append((module, call, NOT_AN_ADDRESS if source_kind(call.source) == UNRECOGNISED else reason,
                               root))
        for module, call, reason, manifest_root in unread:
            listed = self._manifest_keys(module, local_callers, keys, set())
            manifest = next((key for key in listed if key[0] == manifest_root), listed[0])
            via = None
            if ".terraform" in Path(module.path).parts:  # said at the call outside .terraform/ that leads here
                via = self._call_outside_downloads(*manifest)
            self.unread_calls.append(UnreadCall(module, call, reason, manifest, via))
        self.unread_calls.sort(key=lambda unread: (unread.call.block.loc.path, unread.call.block.loc.line))

    def _link_local(self, module: Module, call: ModuleCall,
                    local_callers: dict[str, list[tuple[Module, ModuleCall]]]) -> bool:
        directory = os.path.normpath(os.path.join(module.path, call.source or ""))
        if directory in self._outside:
            return False
        target = self.modules.get(self._aliases.get(directory, directory))
        if target is None or not target.files:
            return False
        call.target = target
        target.callers.append(call)
        local_callers.setdefault(target.path, []).append((module, call))
        return True

    def _link_downloaded(self, root: str, key: str, call: ModuleCall) -> str | None:
        """Link ``call`` to the module listed under ``key`` in the manifest of ``root``; None when
        linked, else why it could not be."""
        listed = self._downloaded.get(root)
        if listed is None:
            return MANIFEST_UNREADABLE if root in self._bad_manifests else NOT_DOWNLOADED
        directory = listed.get(key)
        if directory is None:
            return NOT_LISTED
        if directory in self._outside:
            return OUTSIDE_REPOSITORY
        target = self.modules.get(directory)
        if target is None or not target.files:
            return DOWNLOAD_MISSING
        call.target = target
        target.callers.append(call)
        return None

    def _manifest_keys(self, module: Module, local_callers: dict[str, list[tuple[Module, ModuleCall]]],
                       memo: dict[str, list[tuple[str, str]]], visiting: set[str]) -> list[tuple[str, str]]:
        """Where ``modules.json`` lists the calls of ``module``: (root directory, key of the module)
        pairs. A downloaded module has its own; a local module is listed under each root module that
        reaches it through local calls (``cluster.kapsule`` for call kapsule in the module that call
        cluster names), then under itself, as a root of its own (key "")."""
        if module.downloaded is not None:
            return [module.downloaded]
        found = memo.get(module.path)
        if found is not None:
            return found
        if len(visiting) >= MAX_MANIFEST_DEPTH:  # a chain of local calls deeper than any evaluation follows
            return [(module.path, "")]
        keys: list[tuple[str, str]] = []
        visiting.add(module.path)
        for caller, call in local_callers.get(module.path, ()):
            if caller.path in visiting:  # a cycle of local calls (Terraform refuses it)
                continue
            for root, prefix in self._manifest_keys(caller, local_callers, memo, visiting):
                key = (root, f"{prefix}.{call.name}" if prefix else call.name)
                if key not in keys and len(keys) < MAX_MANIFEST_KEYS:
                    keys.append(key)
        visiting.discard(module.path)
        keys.append((module.path, ""))
        memo[module.path] = keys
        return keys

    def _call_outside_downloads(self, root: str, key: str) -> ModuleCall | None:
        """The last call, following the module path ``key`` from the root module ``root``, that is
        written outside ``.terraform/`` (the one a user can see and suppress)."""
        module, found = self.modules.get(root), None
        for name in key.split("."):
            call = module.calls.get(name) if module is not None else None
            if call is None:
                break
            if ".terraform" not in Path(call.block.path).parts:
                found = call
            module = call.target
        return found

    def _break_cycles(self) -> None:
        """A call that closes a cycle of module calls is not followed (``call.cycle`` says which
        calls loop; KAP016 reports it). Terraform follows such a call without end and refuses the
        configuration; kapsulint reads the modules of the cycle once each, from their real root.

        Calls are walked depth first, from the modules that show they are applied (and the
        configured roots), then from the modules no one calls, then from the rest in path order: a
        call back into a module still on the walk's path closes a cycle. Dropping those calls, the
        back edges of the walk, leaves no cycle, and a root calling itself or called back by its
        own modules stays a root."""
        forced = self._forced_roots()
        order = sorted((m for m in self.modules.values() if m.files),
                       key=lambda m: (not (m.applied or m.path in forced), bool(m.callers), m.path))
        finished: set[str] = set()
        for start in order:
            if start.path in finished:
                continue
            walk = [(start, iter(list(start.calls.values())))]
            on_walk = {start.path: 0}  # module -> its position in walk
            taken: list[ModuleCall] = []  # taken[i] leads from walk[i] to walk[i + 1]
            while walk:
                module, calls = walk[-1]
                call = next(calls, None)
                if call is None:
                    walk.pop()
                    del on_walk[module.path]
                    finished.add(module.path)
                    if walk:
                        taken.pop()
                    continue
                target = call.target
                if target is None or target.path in finished:
                    continue
                if target.path in on_walk:
                    call.cycle = (*taken[on_walk[target.path]:], call)
                    call.target = None
                    target.callers.remove(call)
                    continue
                on_walk[target.path] = len(walk)
                taken.append(call)
                walk.append((target, iter(list(target.calls.values()))))

    def _forced_roots(self) -> set[str]:
        """The directories of configuration key ``root-modules``."""
        return {os.path.normpath(os.path.join(str(self.root), p)) for p in self.options.root_modules}

    def _choose_roots(self) -> None:
        forced = self._forced_roots()
        for module in self.modules.values():
            if not module.files:
                continue
            if module.path in forced:
                module.root = True
                continue
            module.root = module.applied and not module.callers

    # -- evaluation ---------------------------------------------------------------------------

    def top_instances(self) -> list[ModuleInstance]:
        """One instance per root module (with its tfvars) and per module no one calls."""
        if self._instances is None:
            self._instances = []
            for path in sorted(self.modules):
                module = self.modules[path]
                if not module.files or module.callers:
                    continue
                values = self._root_values(module) if module.root else {}
                self._instances.append(ModuleInstance(self, module, root_values=values))
        return self._instances

    def root_instance(self, directory: str) -> ModuleInstance:
        """The module in ``directory`` as a root module, with its tfvars and the run's variables."""
        module = self._module(os.path.normpath(directory))
        return ModuleInstance(self, module, root_values=self._root_values(module))

    def instances(self) -> Iterator[ModuleInstance]:
        """Every module instance, parents before children."""
        stack = list(reversed(self.top_instances()))
        while stack:
            instance = stack.pop()
            yield instance
            children = [c for name in instance.module.calls for c in instance.child_instances(name)]
            stack.extend(reversed(children))

    def resources(self, resource_type: str, mode: str = "managed") -> list[ResourceInstance]:
        """Every instance of a resource type across module instances (computed once per type).

        A block with no instance (``count = 0``, ``for_each`` over an empty collection) is given
        once as written (``written`` set, key Unknown): rules about a block's own arguments judge
        it, and rules about what exists skip it."""

        def collect() -> list[ResourceInstance]:
            found: list[ResourceInstance] = []
            for instance, resource in self.memo("resource-blocks", self._resource_blocks).get((resource_type, mode), ()):
                found.extend(instance.resource_instances(resource) or [as_written(instance, resource)])
            return found

        return self.memo(("resources", resource_type, mode), collect)

    def _resource_blocks(self) -> dict[tuple[str, str], list[tuple[ModuleInstance, Resource]]]:
        """Every resource block of every module instance by (type, mode), in instance order: one
        walk of the instances for all the types rules ask for (their instances expand on demand)."""
        blocks: dict[tuple[str, str], list[tuple[ModuleInstance, Resource]]] = {}
        for instance in self.instances():
            for resource in instance.module.resources.values():
                blocks.setdefault((resource.type, resource.mode), []).append((instance, resource))
        return blocks

    def shared_module(self, path: str) -> bool:
        """Whether the module in ``path`` is reached from more than one top-level module (root
        modules, modules no one calls), following the calls as written."""
        return path in self.memo("shared-modules", self._shared_modules)

    def _shared_modules(self) -> set[str]:
        reached: dict[str, set[str]] = {}
        for top in self.top_instances():
            pending, seen = [top.module], set()
            while pending:
                module = pending.pop()
                if module.path in seen:
                    continue
                seen.add(module.path)
                reached.setdefault(module.path, set()).add(top.module.path)
                pending.extend(call.target for call in module.calls.values() if call.target is not None)
        shared = {path for path, tops in reached.items() if len(tops) > 1}
        scope = self.options.scope
        return shared | scope.shared_modules if scope is not None else shared

    def complete_for(self, instance: ModuleInstance) -> bool:
        """Whether kapsulint saw everything that could supply what a rule finds missing for a
        subject in ``instance``: its root module and every module that root calls, transitively,
        were read whole, and every call among them leads to a scanned module.
        A broken file or an unresolved call in another root module changes nothing here."""
        root = instance.root.module
        return self.memo(("complete-for", root.path), lambda: self._tree_complete(root))

    def _tree_complete(self, root: Module) -> bool:
        unreadable = {os.path.dirname(path) for path, _ in self.unreadable}
        # a link not followed, with the name of a file Terraform would read there: unseen content
        unreadable.update(os.path.dirname(item.path) for item in self.not_followed
                          if file_kind(os.path.basename(item.path)) is not None)
        seen: set[str] = set()
        pending = [root]
        while pending:
            module = pending.pop()
            if module.path in seen:
                continue
            seen.add(module.path)
            if module.broken or module.path in unreadable:
                return False
            for call in module.calls.values():
                if call.cycle is not None:
                    continue  # back into a module of this tree, already judged
                if call.target is None:
                    return False
                pending.append(call.target)
        return True

    def record_read(self, root: str, path: str) -> None:
        """The tree of the root module at ``root`` read the file at ``path`` (``file()``,
        ``templatefile()``...): it belongs to that tree for :meth:`tree_files`."""
        self._read_by_root.setdefault(root, set()).add(path)

    def tree_files(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """Each top-level module (a root module, a module no one calls) with its tree: the
        directories of the modules it reaches through its calls, and the files of the project
        those modules hold, their functions read or their releases read as values. Meaningful
        once the run is judged (every expression is then evaluated, and every read made)."""
        by_directory: dict[str, list[str]] = {}
        for path in self.files:
            by_directory.setdefault(os.path.dirname(path), []).append(path)
        read_as_values: dict[str, set[str]] = {}
        for path, readers in self.values_readers().items():
            for reader in readers:
                read_as_values.setdefault(reader.module.root.module.path, set()).add(path)
        trees = {}
        for top in self.top_instances():
            directories: set[str] = set()
            pending = [top.module]
            while pending:
                module = pending.pop()
                if module.path in directories:
                    continue
                directories.add(module.path)
                pending.extend(call.target for call in module.calls.values() if call.target is not None)
            files = {path for directory in directories for path in by_directory.get(directory, ())}
            files |= self._read_by_root.get(top.module.path, set()) | read_as_values.get(top.module.path, set())
            trees[top.module.path] = (frozenset(directories), frozenset(files))
        return trees

    def untreed_paths(self, trees: dict[str, tuple[frozenset[str], frozenset[str]]]) -> list[str]:
        """The paths the project read, or left out with a finding or a note (its files, the paths
        it could not read, template sources, links not followed), that none of ``trees`` (from
        :meth:`tree_files`) holds."""
        held = {path for _, files in trees.values() for path in files}
        held.update(directory for directories, _ in trees.values() for directory in directories)
        paths = [*self.files, *(path for path, _ in self.unreadable), *(path for path, _ in self.template_sources),
                 *(item.path for item in self.not_followed)]
        return [path for path in paths if path not in held and os.path.dirname(path) not in held]

    def note(self, kind: str, loc: Loc, message: str) -> None:
        """A place the evaluation could not judge (a path outside the project, a budget run out)."""
        self._notes.setdefault((kind, loc), message)

    def blind_spots(self, kind: str) -> list[tuple[Loc, str]]:
        """Every place of ``kind`` the evaluation of the whole project could not judge, in order.

        Everything is evaluated first (once per run), so the answer does not depend on which
        rules ran before: a blind spot is reported whether or not a selected rule read the value."""
        self.memo("evaluate-everything", self._evaluate_everything)
        self.memo("values-files-left-out", self._note_values_files_left_out)
        return sorted((loc, message) for (found, loc), message in self._notes.items() if found == kind)

    def _evaluate_everything(self) -> bool:
        """Evaluate every expression that computes (calls a function, runs a ``for``), in every
        module instance: what only those can meet (a file outside the project, a budget run out)
        is then recorded whatever the rules read."""
        for instance in self.instances():
            module = instance.module
            for name, variable in module.variables.items():
                argument = instance.call.block.attr(name) if instance.call is not None else None
                default = variable.default
                if (argument is not None and argument.computes) or (
                        default is not None and default.computes):
                    instance.variable(name)
            for name, attribute in module.locals.items():
                if attribute.computes:
                    instance.local(name)
            for block in (*module.outputs.values(), *module.providers):
                _evaluate_block(instance, block, EMPTY_SCOPE)
            for resource in module.resources.values():
                for resource_instance in instance.resource_instances(resource) or [as_written(instance, resource)]:
                    for name, attribute in resource.block.attrs.items():
                        if attribute.computes:
                            resource_instance.arg(name)  # kept by the instance: what rules read again
                    _evaluate_block(instance, resource.block, resource_instance.scope, own_arguments=False)
        return True

    def _note_values_files_left_out(self) -> bool:
        """A note at each values file that is not YAML once its template expressions are seen,
        those releases read included; not at a Terraform template that only Terraform's own
        directives leave out and that a ``templatefile()`` renders: its rendering is judged."""
        self.add_read_values_files()
        for path in sorted(self.files):
            source = self.files[path]
            if source.kind != "values" or source.left_out is None:
                continue
            why, line, column, end_column, syntax = source.left_out
            if syntax == "terraform" and self.rendered_by_terraform(path):
                continue
            readers = sorted({r.address for r in self.values_readers().get(os.path.normpath(path), [])})
            read = f", nor the values {' and '.join(readers)} reads from it" if readers else ""
            self.note(FILE_LEFT_OUT, Loc(path, line, column, line, end_column),
                      f"values file left out: not YAML once its template expressions are seen ({why}), so no "
                      f"rule judged it{read}; render it and lint the rendered file (name it in `values-files` "
                      "if its name is not values*.yaml), or keep each template expression inside one value")
        return True

    def rendered_by_terraform(self, path: str) -> bool:
        """Whether a ``templatefile()`` of the scan renders the file at ``path`` (after the
        evaluation of :meth:`blind_spots`, or of the releases for ``--show-files``)."""
        return self._templates.get(os.path.normpath(path)) is not None

    def record_sensitive(self, value: Val) -> None:
        """Remember where the parts of ``value`` were written and their texts: it became sensitive
        (a sensitive variable or output, a value from the environment, ``sensitive()``, a
        ``set_sensitive`` entry), so no report prints them."""
        stack = [value]
        while stack:
            node = stack.pop()
            raw = node.raw
            if raw is UNKNOWN:
                continue
            spans = [(loc.path, loc.line, loc.column, loc.end_line, loc.end_column)
                     for loc in [node.loc, *(node.keylocs or {}).values()] if loc is not None]
            if isinstance(raw, str) and node.origin is not None:
                # a heredoc's or a file's text: its loc is the opening token, the text its lines
                path, offset = node.origin[0], node.origin[1]
                spans.append((path, offset + 1, 1, offset + raw.count("\n") + 1, len(raw) + 1))
            for path, line, column, end_line, end_column in spans:
                if path in self.files:
                    self._sensitive_regions.setdefault(path, set()).add((line, column, end_line, end_column))
            if isinstance(raw, str):
                self._sensitive_texts.add(raw)
                self._sensitive_texts.add(json.dumps(raw, ensure_ascii=False)[1:-1])
            elif isinstance(raw, dict):
                self._sensitive_texts.update(raw)
                stack.extend(raw.values())
            elif isinstance(raw, list):
                stack.extend(raw)
            if node.encoded is not None:
                stack.append(node.encoded)

    def sensitive(self) -> Sensitive:
        """What no report may print, once every variable of every module instance and every
        expression that computes (``sensitive()`` is a call) are evaluated, and the values the
        providers mark sensitive (``ScanOptions.provider_sensitive``) are recorded: a sensitive
        value no selected rule read is still masked in a message, a snippet or a diff, so what a
        report prints does not depend on which rules ran."""
        self.memo("evaluate-everything", self._evaluate_everything)
        for instance in self.instances():
            for name in instance.module.variables:
                try:
                    instance.variable(name)
                except Exception:
                    continue
        if self.options.provider_sensitive is not None:
            for value in self.options.provider_sensitive(self):
                self.record_sensitive(value)
        regions = {path: sorted(spans) for path, spans in self._sensitive_regions.items()}
        return Sensitive(regions, frozenset(self._sensitive_texts))

    def plan_binding(self) -> PlanBinding | None:
        """The plan given with ``--plan``, bound to the root module it was made in (computed once);
        None without a plan. Raises :class:`kapsulint.model.plan_binding.PlanMismatch` when the plan
        is not one of this configuration."""
        plan = self.options.plan
        if plan is None:
            return None
        directory = self.options.plan_directory or self.root

        def bind() -> PlanBinding | None:
            try:
                return bind_plan(self, plan, directory)
            except PlanMismatch:
                raise
            except Exception as error:
                self.errors.append((f"binding the plan failed: {describe(error)}", plan.path, None))
                return None

        binding: PlanBinding | None = self.memo("plan-binding", bind)
        return binding

    def memo(self, key: object, compute: Callable[[], _T]) -> _T:
        """A value derived from the whole project, computed once (rules share domain answers)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def _root_values(self, module: Module) -> dict[str, Val]:
        return root_variable_values(self.options, self.files, module, ModuleInstance(self, module))

    # -- file access for functions ------------------------------------------------------------

    def read_text(self, path: str) -> str | None:
        """The text of a file a configuration reads with ``file()``; None when unreadable, or not
        to be read (outside the repository, not a regular file, above max-file-size)."""
        if path not in self._texts:
            try:
                content = self.reads.read_bytes(path, self.boundary)
            except Unreadable:
                content = None
            self._texts[path] = decode(content)[0] if content is not None else None
        return self._texts[path]

    def source_lines(self, path: str) -> list[str] | None:
        """The lines of a file as the edits of a fix see them (see :meth:`FileReads.source_lines`)."""
        return self.reads.source_lines(path)

    def read_bytes(self, path: str) -> bytes | None:
        """The bytes of a file a configuration reads (``filebase64()``, hashes); None as for
        :meth:`read_text`."""
        try:
            return self.reads.read_bytes(path, self.boundary)
        except Unreadable:
            return None

    def template(self, path: str) -> dict | None:
        """A ``templatefile()`` template, parsed once; None when unreadable or broken."""
        if path not in self._templates:
            from kapsulint.parsing.hcl import HclSyntaxError, parse_expression
            from kapsulint.parsing.template import TemplateSyntaxError, parse_template

            text = self.read_text(path)
            node = None
            if text is not None:
                key = self.cache.key("template", text.encode()) if self.cache.enabled else ""
                cached = self.cache.get(key) if key else None
                if cached is not None and valid_template(cached):
                    node = cached["node"]
                else:
                    try:
                        node = parse_template(text, 1, 1, parse_expression)
                    except (TemplateSyntaxError, HclSyntaxError):
                        node = None
                    if key:
                        self.cache.put(key, {"node": node})
            self._templates[path] = node
        return self._templates[path]

    def parse_yaml_text(self, text: str, path: str | None = None) -> dict:
        """YAML text as the adapter's data (``docs``); raises YamlSyntaxError. Cached like files.

        When ``text`` is exactly the content of ``path``, a values file the scan already parsed
        (``values = [file("values.yaml")]``), that parse is reused instead of a second one."""
        from kapsulint.parsing.yaml import YamlSyntaxError
        from kapsulint.parsing.yaml_templates import dialect_of

        source = self.files.get(path) if path is not None else None
        if path is not None and source is not None and source.kind == "values" and source.ok \
                and self.read_text(path) == text:
            return source.parsed
        dialect = dialect_of(path)
        key = self.cache.key(f"yaml-text-{dialect}", text.encode()) if self.cache.enabled else ""
        cached = self.cache.get(key) if key else None
        if cached is None or not valid_yaml_text(cached):  # absent, or damaged: parsed (and stored) again
            try:
                cached = {"parsed": _parse_yaml_cached(text, dialect)}
            except YamlSyntaxError as error:
                cached = {"error": [error.message, error.line, error.column]}
            if key:
                self.cache.put(key, cached)
        if "error" in cached:
            raise YamlSyntaxError(*cached["error"])
        return cached["parsed"]

    def relative(self, path: str) -> str:
        try:
            return relative_path(path, str(self.root))
        except ValueError:
            return path



def _total_size(entries: list[tuple[str, str]]) -> int:
    """The bytes of the files ``entries`` name, as their status says (one that cannot be read
    counts nothing: reading it says why)."""
    total = 0
    for path, _ in entries:
        try:
            total += os.stat(path).st_size
        except OSError:
            continue
    return total


def _within(found: Discovered, scope: ScanScope) -> Discovered:
    """What discovery found, restricted to ``scope``."""
    kept = Discovered({path: kind for path, kind in found.files.items() if scope.holds(path)},
                      [(path, reason) for path, reason in found.unreadable if scope.holds(path)])
    kept.templates = [(path, glob) for path, glob in found.templates if scope.holds(path)]
    kept.not_followed = [item for item in found.not_followed if scope.holds(item.path)]
    kept.yaml_candidates = [path for path in found.yaml_candidates if scope.holds(path)]
    return kept


def _evaluate_block(instance: ModuleInstance, block: Block, scope: Scope, own_arguments: bool = True) -> None:
    """The computing arguments of ``block`` (unless ``own_arguments`` is false: a resource's own are
    read through its instance) and of its nested blocks, ``dynamic`` ones expanded."""
    pending: list[tuple[Block, Scope, bool]] = [(block, scope, own_arguments)]
    while pending:
        written, inner, arguments = pending.pop()
        if not written.computes:
            continue  # nothing below can meet a blind spot: no need to expand its dynamic blocks
        if arguments:
            for name, attribute in written.attrs.items():
                if attribute.computes:
                    instance.eval_attr(written, name, inner)
        types = {child.labels[0] if child.type == "dynamic" else child.type
                 for child in written.blocks if child.type != "dynamic" or child.labels}
        for child_type in sorted(types):
            pending.extend((nested.block, nested.scope, True)
                           for nested in nested_blocks(instance, written, child_type, inner))


def call_source(block: Block, budget: Budget) -> str | None:
    """A module call's ``source`` as Terraform reads it: a constant string (a literal, or a template
    of literals), decoded with no variables and no functions; None otherwise (Terraform refuses it)."""
    attribute = block.attr("source")
    if attribute is None:
        return None
    if attribute.is_literal:
        value = attribute.literal_value
        return value if isinstance(value, str) else None
    if _calls_a_function(attribute.expr):
        return None
    value = Evaluator(_NoReferences(), budget).eval(attribute.expr, attribute.path)
    return value.raw if isinstance(value.raw, str) else None


def _calls_a_function(node: object) -> bool:
    if isinstance(node, dict):
        return node.get("t") == "call" or any(_calls_a_function(value) for value in node.values())
    if isinstance(node, list):
        return any(_calls_a_function(item) for item in node)
    return False


class _NoReferences:
    """What a module's ``source`` may refer to: nothing. Terraform decodes it with no evaluation
    context: "Variables not allowed", "Function calls not allowed"
    (https://github.com/hashicorp/terraform/blob/v1.11.0/internal/configs/module_call.go)."""

    def resolve_root(self, root: str, steps: list, loc: Loc, scope: Scope) -> Val:
        raise EvalError("Variables not allowed")

    def resource_attribute(self, instance: object, steps: list, loc: Loc | None) -> Val:
        raise EvalError("Variables not allowed")

    def function_context(self, path: str) -> object:
        raise EvalError("Function calls not allowed")

    def note(self, kind: str, loc: Loc, message: str) -> None:
        """Nothing is read, so nothing is left unjudged."""


def _literal(block, name: str) -> object:
    """An argument written as a literal (``alias = "paris"``); None when absent or not a literal."""
    attribute = block.attr(name)
    return attribute.literal_value if attribute is not None else None


def is_override_file(path: str) -> bool:
    name = os.path.basename(path)
    stem = name.split(".", 1)[0]
    return stem == "override" or stem.endswith("_override")


def merged_block(base: dict, override: dict, path: str) -> dict:
    """An override block's raw data merged into its base's (attributes replace, nested blocks too),
    as a new block: parsed data is never changed, since files of the same content share it."""
    attrs = [{**a, "file": path} for a in override["body"]["attrs"]]
    blocks = [{**b, "file": path} for b in override["body"]["blocks"]]
    names = {a["name"] for a in attrs}
    types = {b["type"] for b in blocks}
    body = {"attrs": [a for a in base["body"]["attrs"] if a["name"] not in names] + attrs,
            "blocks": [b for b in base["body"]["blocks"] if b["type"] not in types] + blocks}
    return {**base, "body": body}


@lru_cache(maxsize=256)
def _parse_yaml_cached(text: str, dialect: str) -> dict:
    from kapsulint.parsing.yaml import parse_yaml

    return parse_yaml(text, dialect)
