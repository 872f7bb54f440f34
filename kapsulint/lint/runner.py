"""One lint run: load the project, run the selected rules, apply suppressions and filters."""

from __future__ import annotations

import datetime as dt
import fnmatch
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from kapsulint.boundary import Boundary
from kapsulint.errors import describe
from kapsulint.findings import Finding, Loc, Sensitive, Severity
from kapsulint.lint.registry import INTERNAL_ERROR, UNREADABLE_PATH, Rule, by_id
from kapsulint.lint.suppressions import (
    Suppression,
    apply_suppressions,
    parse_suppressions,
    suppression_findings,
)
from kapsulint.model.instances import NestedBlock, ResourceInstance
from kapsulint.model.modules import Attribute, Block
from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project
from kapsulint.parsing.sources import FileReads
from kapsulint.scan.discovery import SkippingNestedProjects
from kapsulint.scan.loader import Background
from kapsulint.terraform.budget import Budget
from kapsulint.terraform.values import Val

if TYPE_CHECKING:
    from kapsulint.lint.parts import Claims, Plan, Unit
    from kapsulint.model.project import Survey
    from kapsulint.scan.discovery import Discovered


class PerPath(NamedTuple):
    """One ``[[per-path]]`` entry: for findings anchored under ``paths`` (globs relative to the
    project root), the rules ``ignore``d, the only rules ``select``ed (None: every rule), and
    ``severity`` levels by rule id."""

    paths: tuple[str, ...]
    ignore: frozenset[str]
    select: frozenset[str] | None
    severity: dict[str, str]

    def covers(self, relative: str) -> str | None:
        """The first glob that matches a path relative to the root, if any."""
        return next((glob for glob in self.paths if path_matches(relative, glob)), None)


def path_matches(relative: str, glob: str) -> bool:
    """``fnmatch`` on the path relative to the root (``*`` crosses ``/``), where a glob naming a
    directory (``tests``, ``tests/``) covers what is under it and a leading ``**/`` also matches
    at the root (``**/examples/*`` covers ``examples/a.tf``)."""
    relative = relative.replace(os.sep, "/")
    pattern = glob.strip().replace(os.sep, "/").removeprefix("./")
    if fnmatch.fnmatchcase(relative, pattern) or fnmatch.fnmatchcase(relative, pattern.rstrip("/") + "/*"):
        return True
    return pattern.startswith("**/") and path_matches(relative, pattern[3:])


class Settings:
    """One run's settings, resolved once from defaults, configuration and command line: what the
    scan reads (``scan``, given to the project as it is) and what the run reports."""

    scan: ScanOptions
    rules: list[Rule]
    paths: list[Path]  # report filters; empty = everything
    exclude: list[str]
    force_exclude: bool  # exclude explicit PATHs too, as Ruff does
    severity: dict[str, str]
    per_path_ignores: dict[str, list[str]]
    per_path: list[PerPath]
    inline_ignores: bool  # False with --no-inline-ignores (audits): comments suppress nothing

    def __init__(
        self,
        scan: ScanOptions,
        rules: list[Rule],
        paths: list[Path] | None = None,
        exclude: list[str] | None = None,
        force_exclude: bool = False,
        severity: dict[str, str] | None = None,
        per_path_ignores: dict[str, list[str]] | None = None,
        inline_ignores: bool = True,
        per_path: list[PerPath] | None = None,
    ) -> None:
        self.scan = scan
        self.rules = rules
        self.paths = [] if paths is None else paths
        self.exclude = [] if exclude is None else exclude
        self.force_exclude = force_exclude
        self.severity = {} if severity is None else severity
        self.per_path_ignores = {} if per_path_ignores is None else per_path_ignores
        self.per_path = [] if per_path is None else per_path
        self.inline_ignores = inline_ignores

    @property
    def root(self) -> Path:
        return self.scan.root


class Split(NamedTuple):
    """What a lint by parts read, for what a caller would otherwise ask its one project (the
    language server's partition, diagnostics and hover): each top-level module's tree
    (``Project.tree_files``), the files no tree holds, each file's comments and kind, and what
    discovery found."""

    trees: dict[str, tuple[frozenset[str], frozenset[str]]]
    rest: frozenset[str]
    comments: dict[str, list]
    kinds: dict[str, str]
    discovered: Discovered


class RunResult:
    findings: list[Finding]  # every finding, suppressed ones marked
    # The errors of the run, each an exit 2 and a SARIF notification: internal errors and the
    # paths that could not be read (KAP017, as reported): (message, path, rule)
    errors: list[tuple[str, str | None, str | None]]
    project: Project  # of a lint by parts, the one that surveyed it: it holds no file
    sensitive: Sensitive  # what no report prints (source snippets, diffs)
    split: Split | None  # what a lint by parts read (None: the project holds it)

    def __init__(
        self,
        findings: list[Finding],
        errors: list[tuple[str, str | None, str | None]],
        project: Project,
        sensitive: Sensitive | None = None,
        split: Split | None = None,
    ) -> None:
        self.findings = findings
        self.errors = errors
        self.project = project
        self.sensitive = Sensitive() if sensitive is None else sensitive
        self.split = split

    @property
    def reported(self) -> list[Finding]:
        return [f for f in self.findings if f.suppressed_by is None]


def left_out(root: Path, paths: list[Path], exclude: list[str], force_exclude: bool,
             boundary: Boundary) -> SkippingNestedProjects:
    """What the scan leaves out: ``exclude`` (explicit PATHs too with ``force_exclude``) and nested
    projects that no PATH names (their configuration files read inside ``boundary`` only)."""
    return SkippingNestedProjects(root, paths, boundary, _excluder(root, exclude, [] if force_exclude else paths))


def run(settings: Settings, reads: FileReads | None = None, by_parts: bool | None = None) -> RunResult:
    """One lint of the project ``settings`` describe, its files read through ``reads`` (the rounds
    of ``--fix`` and ``--diff`` share theirs; by default, the run's own). A large project is
    judged by parts (:func:`_run_by_parts`) unless ``by_parts`` is False; by default it is only
    when the run reads its own files (the rounds of ``--fix`` need the one project). Raises
    :class:`kapsulint.model.plan_binding.PlanMismatch` (a usage error) when the plan given with
    ``--plan`` is not one of the configuration it was given with."""
    survey = None
    if (reads is None if by_parts is None else by_parts) and _may_go_by_parts(settings):
        try:
            judged, survey = _run_by_parts(settings, reads)
        except Exception:  # a bug of the lint by parts costs its time, never the run: the whole is judged
            judged = None
        if judged is not None:
            return judged
    project = Project(settings.scan, reads).load(survey)
    project.plan_binding()  # a plan of another configuration stops the run before any rule
    try:
        return _judge(project, settings)
    except Exception:
        project.forget_cached()  # an unexpected failure may come from a damaged cache entry: parse again next time
        raise


def _may_go_by_parts(settings: Settings) -> bool:
    """Whether a run may judge by parts (:mod:`kapsulint.lint.parts`): a lint of the whole project
    read from disk with the parse cache on, without a plan, ``--var-file`` files (every root reads
    them), forced roots or a PATH other than the project root."""
    scan = settings.scan
    return (scan.cache and scan.scope is None and scan.plan is None and not scan.var_files and not scan.root_modules
            and all(path == settings.root for path in settings.paths))


def _run_by_parts(settings: Settings, reads: FileReads | None = None) -> tuple[RunResult | None, Survey]:
    """The lint of the whole project, made one group of parts at a time (each group's model freed
    before the next is built), and the survey it planned with; no lint when the project is small,
    does not split, or a group's model is not what the plan says, and only a lint of the whole
    (which loads what the survey found) judges it."""
    import gc

    from kapsulint.lint import parts

    reads = FileReads() if reads is None else reads
    surveyor = Project(settings.scan, reads)
    survey = surveyor.survey(parts.MIN_BYTES)
    if survey.calls is None or not surveyor.cache.enabled:
        return None, survey
    plan = parts.plan(survey, parts.UNIT_BYTES)
    deferred, survey = survey.deferred, survey._replace(deferred=())
    if plan is None or len(plan.units) < parts.MIN_GROUPS:
        return None, survey
    budget = Budget(settings.scan.limits)
    background = Background(parts.segments(plan, deferred), surveyor.cache, settings.scan.jobs)
    del deferred
    gc.freeze()  # what is alive now outlives the groups: the collections after each group skip it
    try:
        return _judge_groups(settings, survey, plan, surveyor, budget, reads, background), survey
    finally:
        background.close()
        gc.unfreeze()


def _judge_groups(settings: Settings, survey: Survey, plan: Plan, surveyor: Project, budget: Budget,
                  reads: FileReads, background: Background) -> RunResult | None:
    """The groups of ``plan`` judged in order, then the rest, each once ``background`` parsed its
    files (a group heavier than a unit once it parsed them all); None as soon as one is not what
    the plan says."""
    import gc

    from kapsulint.lint import parts

    claims = parts.Claims()
    kept: list[Finding] = []
    regions: dict[str, list[tuple[int, int, int, int]]] = {}
    texts: set[str] = set()
    split = Split({}, frozenset(), {}, {}, survey.discovered)
    for index, unit in enumerate([*plan.units, None]):
        if unit is None:  # the rest: what no group holds
            background.finish()
            files = frozenset(path for path in (plan.rest | claims.untreed) if not claims.holds(path))
            if not files:
                break
            unit = parts.Unit(frozenset(), frozenset(), files)
        elif unit.weight > parts.UNIT_BYTES:
            background.finish()  # its model is the run's largest: judged with no worker beside it
        else:
            background.ready(index)
        judged = _judge_unit(settings, unit, survey.discovered, budget, claims, reads.with_overlay())
        if judged is None:
            return None
        project, result, trees = judged
        kept.extend(result.findings)
        split.trees.update(trees)
        for path, source in project.files.items():
            if claims.owned(path, bool(unit.tops)):
                split.kinds[path] = source.kind
                if source.comments:
                    split.comments[path] = source.comments
        if not unit.tops:
            split = split._replace(rest=frozenset(project.untreed_paths({})))
        for path, spans in result.sensitive.regions.items():
            regions.setdefault(path, []).extend(spans)
        texts.update(result.sensitive.texts)
        surveyor.adopt_cached(project)
        project.release()
        del project, result, judged
        gc.collect()  # what release() leaves (the console script turns collections off)
        _give_back_free_memory()
    limits = settings.scan.limits
    if budget.steps > limits.run_steps * 0.9 or budget.bytes > limits.run_bytes * 0.9 \
            or budget.regex_seconds > limits.run_regex_seconds * 0.9:
        return None  # near the run's budget, where the order of evaluation decides what runs out
    sensitive = Sensitive({path: sorted(spans) for path, spans in regions.items()}, frozenset(texts))
    for finding in kept:
        _mask(finding, sensitive)
    kept.sort(key=lambda f: f.sort_key)
    return RunResult(kept, [], surveyor, sensitive, split)


def _give_back_free_memory() -> None:
    """Return the C heap's free pages to the system (glibc's ``malloc_trim``; nothing elsewhere):
    a group's model freed leaves them resident otherwise, and the next, larger one adds to them."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError, TypeError):  # not glibc (TypeError: Windows takes no None)
        return
    trim(0)


def _judge_unit(settings: Settings, unit: Unit, discovered: Discovered, budget: Budget, claims: Claims,
                reads: FileReads) -> tuple[Project, RunResult, dict[str, tuple[frozenset[str], frozenset[str]]]] | None:
    """One group of a lint by parts (:class:`kapsulint.lint.parts.Unit`), judged with the run's
    ``budget``, its findings unmasked and only those in the files the group holds kept; None when
    its model is not what the plan says (``claims``), or it met anything a lint by parts does not
    report alike (an internal error, a path it cannot read, a line for stderr)."""
    from kapsulint.model.options import ScanScope

    scan = settings.scan
    said: list[str] = []
    scan.scope = ScanScope(unit.directories, unit.files, frozenset(), discovered)
    try:
        project = Project(scan, reads, budget).load()
        if project.errors or project.unreadable:
            return None
        try:
            result = _judge(project, settings, said.append, masking=False)
        except Exception:
            project.forget_cached()
            return None
    finally:
        scan.scope = None
    if said or result.errors:
        return None
    trees = project.tree_files()
    if not claims.claim(unit, trees, project.untreed_paths(trees) if unit.tops else []):
        return None
    findings = []
    for finding in result.findings:
        path = finding.loc.path
        if claims.owned(path, bool(unit.tops)):
            findings.append(finding)
        elif not unit.tops or path not in claims.untreed:
            return None  # a finding where the group holds nothing
    result.findings = findings
    return project, result, trees


def _judge(project: Project, settings: Settings, say: Callable[[str], None] | None = None,
           masking: bool = True) -> RunResult:
    """The rules over ``project`` and what the run reports of their findings; ``say`` takes each
    line for stderr (by default, printed), and ``masking`` False leaves masking the findings with
    the run's sensitive values to the caller."""
    if say is None:
        def say(line: str) -> None:
            print(line, file=sys.stderr)

    for path, reason in project.unreadable:
        say(f"kapsulint: cannot read {path}: {reason}")
    errors: list[tuple[str, str | None, str | None]] = list(project.errors)
    internal: list[Finding] = []
    for message, error_path, _ in project.errors:
        shown = error_path or str(project.root)
        say(f"kapsulint: internal error in {shown}: {message}")
        internal.append(_internal_finding(Loc(shown, 1, 1, 1, 2), message, None))
    findings: list[Finding] = []
    ran = {rule.id for rule in settings.rules}
    for rule in settings.rules:
        if rule.check is None:
            continue
        try:
            produced = list(rule.check(project))
        except Exception as error:  # one rule's bug never stops the others
            detail = describe(error)
            loc = _failure_loc(error, project)
            project.forget_cached(loc.path if loc else None)  # in case the bug is a damaged cache entry
            errors.append((f"rule {rule.id} failed: {detail}", loc.path if loc else None, rule.id))
            where = f" at {loc.path}:{loc.line}" if loc else ""
            say(f"kapsulint: internal error in rule {rule.id} ({rule.name}){where}: {detail}")
            loc = loc or Loc(str(project.root), 1, 1, 1, 2)
            internal.append(_internal_finding(loc, f"rule {rule.id} ({rule.name}) failed: {detail}", rule.id))
            continue
        for finding in produced:
            finding.rule = rule.id
        findings.extend(produced)
    project.add_read_values_files()
    for given in _nothing_under(settings.paths, project):
        if not _yaml_not_values(given, project):
            say(f"kapsulint: {_nothing_read(given, project)}")
    findings.extend(_engine_findings(project))
    project.cache.flush()  # values texts and templates the rules parsed
    sensitive = project.sensitive()
    if masking:
        for finding in findings:
            _mask(finding, sensitive)
    findings = [f for f in findings if f.rule in ran]
    _definitions_apart(findings, project)
    findings = _merge_instances(findings)
    findings = [f for f in findings if ".terraform" not in f.loc.path or ".terraform" not in Path(f.loc.path).parts]
    if settings.inline_ignores:
        suppressions = _suppressions(project, errors, internal, say)
        apply_suppressions(findings, suppressions, dt.datetime.now(dt.UTC).date())
        findings.extend(f for f in suppression_findings(project, suppressions, ran) if f.rule in ran)
    _per_path_ignores(findings, settings)
    rules = by_id()
    for finding in findings:
        rule = rules[finding.rule]
        finding.name = rule.name
        finding.severity = Severity(settings.severity.get(rule.id, (finding.level or rule.severity).value))
    _per_path(findings, settings)
    # A finding in the plan file (a change whose block left the configuration) is always reported:
    # the plan was named, wherever it lies and whatever .gitignore says of it.
    plan_path = settings.scan.plan.path if settings.scan.plan is not None else None
    in_plan = [f for f in findings if f.loc.path == plan_path]
    findings = [f for f in findings if f.loc.path != plan_path]
    if settings.paths:
        paths = settings.paths
        if settings.force_exclude:
            paths = [p for p in paths if not is_excluded(p, settings.root, settings.exclude)]
        reported: dict[str, bool] = {}  # per file: the verdict depends on the path only
        kinds = [(path, path.is_dir()) for path in paths]
        for finding in findings:
            if finding.loc.path not in reported:
                reported[finding.loc.path] = _in_report(finding, kinds, project)
        findings = [f for f in findings if reported[f.loc.path]]
    findings = _not_gitignored(findings, settings.root, settings.scan.boundary) + in_plan
    # A path that could not be read fails the run: what it holds was not judged.
    errors.extend((f.message, f.loc.path, f.rule) for f in findings
                  if f.rule == UNREADABLE_PATH and f.suppressed_by is None)
    internal_rule = rules[INTERNAL_ERROR]
    for finding in internal:  # never filtered, ignored or suppressed: the run did not finish its work
        finding.rule, finding.name, finding.severity = internal_rule.id, internal_rule.name, internal_rule.severity
    findings.extend(internal)
    findings.sort(key=lambda f: f.sort_key)
    return RunResult(findings, errors, project, sensitive)


def _mask(finding: Finding, sensitive: Sensitive) -> None:
    """Mask what a rule quoted of a sensitive value without :func:`kapsulint.api.shown` (a text
    from the environment, a sensitive literal) in the message, related messages and fix hint,
    and drop edits that would write or show one: a fix is not offered where it touches a
    sensitive literal or its text holds a sensitive text."""
    if not sensitive:
        return
    finding.message = sensitive.text(finding.message)
    finding.related = tuple(related._replace(message=sensitive.text(related.message)) for related in finding.related)
    if finding.fix:
        finding.fix = sensitive.text(finding.fix)
    fix = finding.autofix
    if fix is not None and (sensitive.text(fix.description) != fix.description or any(
            sensitive.text(edit.content) != edit.content
            or sensitive.overlaps(edit.path, edit.line, edit.column, edit.end_line, edit.end_column)
            for edit in fix.edits)):
        finding.autofix = None


def _internal_finding(loc: Loc, message: str, rule_id: str | None) -> Finding:
    subject = rule_id or "parse"
    return Finding(loc, f"internal error: {message}", subject=subject, logical=f"internal-error.{subject}")


def _failure_loc(error: BaseException, project: Project) -> Loc | None:
    """Where a rule was when it failed: the innermost frame of the traceback that holds a located
    object of the scan (a block, an attribute, a value, a resource instance), if any."""
    frames = []
    trace = error.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame)
        trace = trace.tb_next
    for frame in reversed(frames):
        for value in frame.f_locals.values():
            loc = _loc_of(value)
            if loc is not None and loc.path in project.files and _well_formed(loc):
                return loc.one_line()
    return None


def _well_formed(loc: Loc) -> bool:
    """A location of five fields, numbers where numbers go (one built from a damaged cache entry
    may be neither, and the failure is then reported at the project root)."""
    return len(loc) == 5 and all(type(number) is int for number in loc[1:])


def _loc_of(value: object) -> Loc | None:
    if isinstance(value, Loc):
        return value
    if isinstance(value, ResourceInstance):
        return value.block.loc
    loc = getattr(value, "loc", None) if isinstance(value, (Block, Attribute, Val, NestedBlock)) else None
    return loc if isinstance(loc, Loc) else None


def _engine_findings(project: Project):
    for source in project.files.values():
        if source.error is not None:
            message, line, column = source.error
            yield Finding(Loc(source.path, line, column, line, column + 1), message, rule="KAP001",
                          logical="parse-error")
        elif source.skipped is not None:
            yield Finding(Loc(source.path, 1, 1, 1, 2), f"skipped: {source.skipped}", rule="KAP005",
                          logical="file-too-large")
    for path, reason in dict.fromkeys(project.unreadable):
        yield Finding(Loc(path, 1, 1, 1, 2), _unreadable_message(project, path, reason), rule=UNREADABLE_PATH,
                      logical="unreadable-path",
                      fix="make it readable by the user running kapsulint, or add it to `exclude` in "
                          ".kapsulint.toml when it is not part of the configuration")


def _unreadable_message(project: Project, path: str, reason: str) -> str:
    return (f"cannot read {project.relative(path)}: {reason}; nothing in it was judged, and rules about something "
            "missing stay silent for the module it belongs to")


def _definitions_apart(findings: list[Finding], project: Project) -> None:
    """A finding about a resource instance anchored in a later block of the same address (KAP006:
    ``resource "x" "a"`` written twice) judges that block: its logical address gets ``#2`` (``#3``),
    so its fingerprint never equals the first block's, whichever of the two is fixed first."""
    later = [resource for module in project.modules.values() for resource in module.resources.values()
             if resource.definition > 1]
    if not later:
        return
    for finding in findings:
        if not finding.instance:
            continue
        loc = finding.loc
        for resource in later:
            span = resource.block.span
            if (loc.path == span.path and span.line <= loc.line <= span.end_line
                    and _names(finding.instance, resource.address)):
                finding.logical = f"{finding.logical}#{resource.definition}"
                break


def _names(instance: str, address: str) -> bool:
    """Whether an instance address (``module.a.x.b["k"] (root infra)``) is one of ``address``'s."""
    at = instance.find(address)
    while at >= 0:
        before = instance[at - 1] if at else "."
        after = instance[at + len(address):at + len(address) + 1]
        if before == "." and after in ("", "[", " "):
            return True
        at = instance.find(address, at + 1)
    return False


def _merge_instances(findings: list[Finding]) -> list[Finding]:
    """One finding per rule, location and subject; the instances it covers are listed."""
    merged: dict[tuple, Finding] = {}
    for finding in findings:
        key = (finding.rule, finding.loc, finding.subject)
        kept = merged.get(key)
        if kept is None:
            merged[key] = kept = finding
        if finding.instance and finding.instance not in kept.instances:
            kept.instances.append(finding.instance)
    for finding in merged.values():
        if len(finding.instances) == 1 and finding.instances[0] == finding.subject:
            finding.instances = []
    return list(merged.values())


def _suppressions(project: Project, errors: list[tuple[str, str | None, str | None]],
                  internal: list[Finding], say: Callable[[str], None]) -> list[Suppression]:
    """The suppression comments of every file; a bug while reading one file's comments is an
    internal error at that file (its comments suppress nothing), and the run goes on."""
    found = []
    for source in project.files.values():
        if not source.comments:
            continue
        try:
            found.extend(parse_suppressions(source))
        except Exception as error:
            project.forget_cached(source.path)
            message = f"reading suppressions failed: {describe(error)}"
            errors.append((message, source.path, None))
            say(f"kapsulint: internal error in {source.path}: {message}")
            internal.append(_internal_finding(Loc(source.path, 1, 1, 1, 2), message, None))
    return found


def _per_path_ignores(findings: list[Finding], settings: Settings) -> None:
    from kapsulint.lint.registry import matching

    for pattern, selectors in settings.per_path_ignores.items():
        ids = {r.id for s in selectors for r in matching(s)}
        for finding in findings:
            relative = os.path.relpath(finding.loc.path, settings.root)
            if finding.rule in ids and fnmatch.fnmatch(relative, pattern) and finding.suppressed_by is None:
                finding.suppressed_by = f"per-path-ignores: {pattern}"


def _per_path(findings: list[Finding], settings: Settings) -> None:
    """``[[per-path]]``: in order, each entry covering a finding's file ignores its rule, drops it
    when the entry selects other rules only, or sets its severity (a later entry wins)."""
    if not settings.per_path:
        return
    for finding in findings:
        if finding.suppressed_by is not None:
            continue
        relative = os.path.relpath(finding.loc.path, settings.root)
        for entry in settings.per_path:
            glob = entry.covers(relative)
            if glob is None:
                continue
            if finding.rule in entry.ignore or (entry.select is not None and finding.rule not in entry.select):
                finding.suppressed_by = f"per-path: {glob}"
                break
            level = entry.severity.get(finding.rule)
            if level is not None:
                finding.severity = Severity(level)


def _excluder(root: Path, patterns: list[str], explicit: list[Path]):
    """Whether discovery skips a path. As with Ruff, what the command line names is read even when
    ``exclude`` matches it or a directory above it (unless --force-exclude, which passes no explicit
    paths here): a named file, and a named directory, whose own entries ``exclude`` still judges."""
    if not patterns:
        return None
    files = {p for p in explicit if not p.is_dir()}
    directories = [p for p in explicit if p.is_dir()]

    def excluded(path: Path) -> bool:
        if path in files or any(path in named.parents for named in explicit):
            return False  # a named file, or a directory on the way to what is named
        named = [d for d in directories if d == path or d in path.parents]
        if not named:
            return is_excluded(path, root, patterns)
        deepest = max(named, key=lambda d: len(d.parts))
        below = [path, *path.parents[:len(path.parts) - len(deepest.parts) - 1]] if path != deepest else []
        return any(_matches(step, root, patterns) for step in below)

    return excluded


def _matches(path: Path, root: Path, patterns: list[str]) -> bool:
    """Whether a pattern names ``path`` itself (its path from ``root`` or its name)."""
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        return False
    return any(fnmatch.fnmatch(relative, p.rstrip("/")) or fnmatch.fnmatch(path.name, p.rstrip("/")) for p in patterns)


def is_excluded(path: Path, root: Path, patterns: list[str]) -> bool:
    try:
        relative = path.relative_to(root).as_posix()
    except ValueError:
        return False
    return any(
        fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(path.name, p) or relative.startswith(p.rstrip("/") + "/")
        for p in patterns
    )


def _not_gitignored(findings: list[Finding], root: Path, boundary: Boundary) -> list[Finding]:
    """Findings in files .gitignore ignores are not reported (they are still read), except a path
    that could not be read: ignored files count for evaluation (tfvars), so the run still failed."""
    from kapsulint.scan.gitignore import GitIgnore

    ignore = GitIgnore(root, boundary)
    verdicts: dict[str, bool] = {}
    kept = []
    for finding in findings:
        if finding.rule == UNREADABLE_PATH:
            kept.append(finding)
            continue
        path = finding.loc.path
        if path not in verdicts:
            verdicts[path] = ignore.ignored(path)
        if not verdicts[path]:
            kept.append(finding)
    return kept


def _in_report(finding: Finding, paths: list[tuple[Path, bool]], project: Project) -> bool:
    """Findings under a directory PATH, in a file PATH, or in a module the report covers (``paths``:
    each PATH and whether it is a directory)."""
    location = Path(finding.loc.path)
    for path, is_directory in paths:
        if is_directory:
            if path == location or path in location.parents:
                return True
        elif location == path:
            return True
    return str(location.parent) in _reported_modules([path for path, _ in paths], project)


def _reported_modules(paths: list[Path], project: Project) -> set[str]:
    """The modules whose findings are reported: the module holding a file PATH, the modules of the
    releases that read a values file PATH, and the local modules outside the root that those or the
    modules under a directory PATH call."""

    def collect() -> set[str]:
        readers = project.values_readers()
        modules: set[str] = set()
        for path in paths:
            if not path.is_dir():
                if _is_module_file(path, project):
                    modules.add(str(path.parent))
                modules.update(r.module.module.path for r in readers.get(str(path), []))
        callers = [m for m in project.modules.values()
                   if m.path in modules or any(p.is_dir() and (p == Path(m.path) or p in Path(m.path).parents)
                                               for p in paths)]
        while callers:
            for call in callers.pop().calls.values():
                target = call.target
                if target is not None and target.path not in modules and _outside(target.path, project.root):
                    modules.add(target.path)
                    callers.append(target)
        return modules

    return project.memo(("runner.reported-modules", tuple(paths)), collect)


def _outside(path: str, root: Path) -> bool:
    return not (Path(path) == root or root in Path(path).parents)


def _nothing_under(paths: list[Path], project: Project) -> list[Path]:
    """The PATHs under which no file was read (said on stderr; the run still exits 0)."""
    read = [*project.files, *(p for p, _ in project.unreadable)]  # unreadable: said already
    return [path for path in paths if not any(_holds(path, f) for f in read)]


def _holds(path: Path, file: str) -> bool:
    """Whether ``file`` is the PATH ``path`` or lies under it (a Path made only when asked)."""
    read = Path(file)
    return read == path or path in read.parents


def _yaml_not_values(path: Path, project: Project) -> bool:
    """A YAML file PATH that is not a values file (a CI workflow, ``.pre-commit-config.yaml``):
    pre-commit passes every changed YAML file, since only kapsulint can tell values files, so
    reading nothing from one is the expected outcome and goes unsaid."""
    return (path.suffix.lower() in (".yaml", ".yml") and path.is_file()
            and not any(n.path == str(path) for n in project.not_read))


def _nothing_read(path: Path, project: Project) -> str:
    """What stderr says of a PATH under which nothing was read: a file its module's engine left
    out is named as such."""
    where = os.path.relpath(path)
    left_out = next((n for n in project.not_read if n.path == str(path)), None)
    if left_out is None:
        return f"no Terraform or values file found under {where}"
    if left_out.replaced_by is not None:
        return (f"{where} is not read: {os.path.basename(left_out.replaced_by)} replaces it under OpenTofu "
                f"(--engine terraform reads it)")
    return f"{where} is not read: Terraform ignores .tofu files (--engine opentofu reads it)"


def _is_module_file(path: Path, project: Project) -> bool:
    module = project.modules.get(str(path.parent))
    return module is not None and bool(module.files)
