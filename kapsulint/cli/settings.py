"""Resolved settings: defaults, then the configuration file, then the command line.

Each resolved value remembers where it came from, for ``--show-settings``.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kapsulint.boundary import OUTSIDE, Boundary, git_top_level, repository_of
from kapsulint.cli.config import Config, ConfigError, find_config, load_config
from kapsulint.lint.registry import SelectionError, matching, selected, split_selectors

if TYPE_CHECKING:  # the engine and the domain are imported when settings are resolved, never to read them
    from kapsulint.lint.fixes import FixPolicy
    from kapsulint.lint.runner import PerPath, Settings
    from kapsulint.model.plan import Plan
    from kapsulint.terraform.budget import Limits

LEVELS = ("error", "warning", "note")
DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024


class SettingsError(ValueError):
    """A usage or configuration error (exit code 2)."""


class CommandLine:
    """What the command line said; None or empty means "not given"."""

    targets: list[Path]
    config_path: Path | None
    select: str | None
    extend_select: str | None
    ignore: str | None
    fail_on: str | None
    var_files: list[Path]
    variables: list[str]
    env_vars: bool
    force_exclude: bool
    inline_ignores: bool
    cache: bool
    jobs: int | None
    today: str | None  # --today YYYY-MM-DD
    fix: bool | None  # --fix
    unsafe_fixes: bool | None  # --unsafe-fixes
    engine: str | None  # --engine
    since: str | None  # --since REF
    config: Config | None  # a configuration already read, used instead of finding or loading one
    plan: Path | None  # --plan PLAN.json

    def __init__(
        self,
        targets: list[Path],
        config_path: Path | None = None,
        select: str | None = None,
        extend_select: str | None = None,
        ignore: str | None = None,
        fail_on: str | None = None,
        var_files: list[Path] | None = None,
        variables: list[str] | None = None,
        env_vars: bool = False,
        force_exclude: bool = False,
        inline_ignores: bool = True,
        cache: bool = True,
        jobs: int | None = None,
        today: str | None = None,
        fix: bool | None = None,
        unsafe_fixes: bool | None = None,
        engine: str | None = None,
        since: str | None = None,
        config: Config | None = None,
        plan: Path | None = None,
    ) -> None:
        self.targets = targets
        self.config_path = config_path
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore
        self.fail_on = fail_on
        self.var_files = [] if var_files is None else var_files
        self.variables = [] if variables is None else variables
        self.env_vars = env_vars
        self.force_exclude = force_exclude
        self.inline_ignores = inline_ignores
        self.cache = cache
        self.jobs = jobs
        self.today = today
        self.fix = fix
        self.unsafe_fixes = unsafe_fixes
        self.engine = engine
        self.since = since
        self.config = config
        self.plan = plan


class Resolved:
    settings: Settings
    config: Config
    repo_root: Path
    fail_on: str
    origins: dict[str, tuple[Any, str]]  # key -> (value, where it came from)
    fix: bool
    unsafe_fixes: bool
    fix_policy: FixPolicy
    since: str | None  # --since REF or the configuration's `since`

    def __init__(
        self,
        settings: Settings,
        config: Config,
        repo_root: Path,
        fail_on: str,
        origins: dict[str, tuple[Any, str]],
        fix: bool = False,
        unsafe_fixes: bool = False,
        fix_policy: FixPolicy | None = None,
        since: str | None = None,
    ) -> None:
        self.settings = settings
        self.config = config
        self.repo_root = repo_root
        self.fail_on = fail_on
        self.origins = origins
        self.fix = fix
        self.unsafe_fixes = unsafe_fixes
        if fix_policy is None:
            from kapsulint.lint.fixes import FixPolicy

            fix_policy = FixPolicy()
        self.fix_policy = fix_policy
        self.since = since


PER_PATH_KEYS = ("paths", "ignore", "select", "severity")


def _per_path(config: Config) -> list[PerPath]:
    """The ``[[per-path]]`` entries, checked: each names its ``paths`` (globs relative to the
    configuration file) and at least one of ``ignore``, ``select`` (ids, prefixes or names) and
    ``severity`` (a table of ids, prefixes or names to levels)."""
    from kapsulint.lint.runner import PerPath

    entries = []
    for number, entry in enumerate(config.get("per-path", []), 1):
        where = f"{config.path}: [[per-path]] entry {number}"
        if not isinstance(entry, dict):
            raise SettingsError(f"{where} must be a table")
        unknown = [key for key in entry if key not in PER_PATH_KEYS]
        if unknown:
            raise SettingsError(f"{where}: unknown key {', '.join(map(repr, unknown))} (valid keys: "
                                f"{', '.join(PER_PATH_KEYS)})")
        paths = entry.get("paths")
        if isinstance(paths, str):
            paths = [paths]
        if not paths or not isinstance(paths, list) or not all(isinstance(p, str) and p.strip() for p in paths):
            raise SettingsError(f"{where}: `paths` must be a glob or a list of globs")
        if not any(key in entry for key in ("ignore", "select", "severity")):
            raise SettingsError(f"{where}: give `ignore`, `select` or `severity` for its paths")
        try:
            ignore = frozenset(rule.id for selector in _strings(entry, "ignore", where) for rule in matching(selector))
            select = None
            if "select" in entry:
                select = frozenset(rule.id for selector in _strings(entry, "select", where)
                                   for rule in matching(selector))
            severity: dict[str, str] = {}
            levels = entry.get("severity", {})
            if not isinstance(levels, dict):
                raise SettingsError(f"{where}: `severity` must be a table of rules to levels")
            for selector, level in levels.items():
                if level not in LEVELS:
                    raise SettingsError(f"{where}: severity of {selector} must be error, warning or note")
                for rule in matching(selector):
                    severity[rule.id] = level
        except SelectionError as error:
            raise SettingsError(f"{where}: {error}") from None
        entries.append(PerPath(tuple(p.strip() for p in paths), ignore, select, severity))
    return entries


def _strings(entry: dict, key: str, where: str) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SettingsError(f"{where}: `{key}` must be a list of rule ids, prefixes or names")
    return value


def resolve_settings(cli: CommandLine) -> Resolved:
    # The engine and the composition root's domain answers (see docs/architecture.md), imported
    # here: a run replayed from the results cache, or one that only shows its settings' help,
    # never pays for them.
    from kapsulint.kapsule.helm import set_sensitive_values
    from kapsulint.kapsule.values_readers import values_readers
    from kapsulint.kapsule.yaml_kinds import yaml_kinds
    from kapsulint.lint.runner import Settings, left_out
    from kapsulint.model.engines import AUTO, ENGINES
    from kapsulint.model.options import ScanOptions
    from kapsulint.scan.discovery import TEMPLATE_FILES, TemplateFiles

    first = cli.targets[0]
    try:
        if cli.config is not None:
            config = cli.config
        else:
            found = cli.config_path or find_config(first)
            config = load_config(found) if found is not None else Config()
    except ConfigError as error:
        raise SettingsError(str(error)) from None
    start = first if first.is_dir() else first.parent
    git_root = git_top_level(start)
    # Without a configuration or a git top level, the PATHs themselves bound the project (a file's
    # directory for a file), never a parent working directory that may hold other projects.
    fallback = Path(os.path.commonpath([t if t.is_dir() else t.parent for t in cli.targets]))
    root = Path(os.path.abspath(config.directory or git_root or fallback))  # --config may be relative
    repo_root = git_root or root
    base = config.directory or root
    origins: dict[str, tuple[Any, str]] = {}
    in_config = f"configuration {config.path}"
    problems: list[str] = []  # the configuration's values that cannot be used, all said at once
    _check_selectors(config, problems)

    def pick(key: str, given: Any, default: Any) -> Any:
        """The command line's value, else the configuration's, else the default; origin noted."""
        if given not in (None, [], ""):
            origins[key] = (given, "command line")
            return given
        if key in config.values:
            origins[key] = (config.values[key], in_config)
            return config.values[key]
        origins[key] = (default, "default")
        return default

    origins["project-root"] = (str(root), in_config if config.path else
                               "git top level" if git_root else "PATH")
    origins["repository-root"] = (str(repo_root), "git top level" if git_root else "project root")
    try:
        select = pick("select", split_selectors(cli.select) if cli.select is not None else None, None)
        extend = split_selectors(cli.extend_select) + list(config.get("extend-select", []))
        ignore = split_selectors(cli.ignore) + list(config.get("ignore", []))
        origins["extend-select"] = (extend, _merged_origin(cli.extend_select, "extend-select", config, in_config))
        origins["ignore"] = (ignore, _merged_origin(cli.ignore, "ignore", config, in_config))
        rules = selected(select, extend, ignore)
    except SelectionError as error:
        raise SettingsError(str(error)) from None
    variables = {}
    for assignment in cli.variables:
        name, sep, value = assignment.partition("=")
        if not sep or not name:
            raise SettingsError(f"--var expects NAME=VALUE, got {assignment!r}")
        variables[name.strip()] = value
    severity = {}
    for key, level in config.get("severity", {}).items():
        if level not in LEVELS:
            problems.append(f"{config.path}: `severity` of {key} must be error, warning or note, got {level!r}")
            continue
        try:
            for rule in matching(key):
                severity[rule.id] = level
        except SelectionError as error:
            problems.append(f"{config.path}: `severity`: {error}")
    origins["severity"] = (severity, in_config if severity else "default")
    fail_on = pick("fail-on", cli.fail_on, "warning")
    if fail_on not in LEVELS:
        problems.append(f"{config.path}: `fail-on` must be error, warning or note, got {fail_on!r}")
        fail_on = "warning"
    extra_node_types = pick("extra-node-types", None, [])
    if not all(isinstance(name, str) for name in extra_node_types):
        problems.append(f"{config.path}: `extra-node-types` must be a list of strings")
        extra_node_types = []
    max_file_size = pick("max-file-size", None, DEFAULT_MAX_FILE_SIZE)
    boundary = Boundary(repository_of(root), int(max_file_size))
    config_var_files = []
    for written in config.get("var-files", []):
        path = str((base / written).resolve()) if isinstance(written, str) else None
        # The configuration is the repository's, as much as its code: its variables files are read
        # only inside the repository (a file named with --var-file is the user's choice).
        if path is None:
            problems.append(f"{config.path}: `var-files` must be a list of strings")
        elif not boundary.contains(path):
            problems.append(f"{config.path}: `var-files` entry {written!r} {OUTSIDE}; only --var-file may name "
                            "a variables file outside it")
        else:
            config_var_files.append(path)
    var_files = config_var_files + [str(p.resolve()) for p in cli.var_files]
    origins["var-files"] = (var_files, _merged_origin(cli.var_files, "var-files", config, in_config))
    root_modules = [os.path.relpath((base / p).resolve(), root) for p in pick("root-modules", None, [])]
    exclude = pick("exclude", None, [])
    limits = _limits(pick, config, problems)
    values_globs = pick("values-files", None, [])
    template_globs = pick("template-files", None, list(TEMPLATE_FILES))
    if not all(isinstance(glob, str) for glob in template_globs):
        problems.append(f"{config.path}: `template-files` must be a list of strings")
        template_globs = list(TEMPLATE_FILES)
    per_path_ignores = {k: list(v) for k, v in pick("per-path-ignores", None, {}).items()}
    per_path = _per_path(config)
    origins["per-path"] = ([{"paths": list(entry.paths), "ignore": sorted(entry.ignore),
                             "select": None if entry.select is None else sorted(entry.select),
                             "severity": entry.severity} for entry in per_path],
                           in_config if per_path else "default")
    origins["force-exclude"] = (cli.force_exclude, "command line" if cli.force_exclude else "default")
    origins["inline-ignores"] = (cli.inline_ignores, "default" if cli.inline_ignores else "command line")
    environment = {}
    if cli.env_vars:
        environment = {k[len("TF_VAR_"):]: v for k, v in os.environ.items() if k.startswith("TF_VAR_")}
    origins["env-vars"] = (sorted(environment), "command line" if cli.env_vars else "default")
    explicit = list(cli.targets)  # no PATH means the working directory, which filters the report too
    from kapsulint.scan.loader import default_jobs

    jobs = cli.jobs if cli.jobs is not None else default_jobs()
    if jobs < 1:
        raise SettingsError("--jobs must be at least 1")
    origins["jobs"] = (jobs, "command line" if cli.jobs is not None else "default (CPUs available, capped)")
    origins["cache"] = (cli.cache, "default" if cli.cache else "command line")
    engine = pick("engine", cli.engine, AUTO)
    if engine not in ENGINES:
        problems.append(f"{config.path}: `engine` must be one of {', '.join(ENGINES)}, got {engine!r}")
        engine = AUTO
    plan = _plan(cli, config, base, boundary)
    origins["plan"] = (plan.path if plan is not None else None,
                       "command line" if cli.plan is not None else in_config if plan is not None else "default")
    try:
        today = _lint_date(pick("today", cli.today, None), config)
    except SettingsError as error:
        if cli.today:
            raise
        problems.append(str(error))
        today = _lint_date(None, config)
    fix_policy = _fix_policy(config, pick, problems)
    invalid = config.error(problems)
    if invalid is not None:
        raise SettingsError(invalid)
    if "today" not in config.values and not cli.today:
        origins["today"] = (today.isoformat(), "default (today in UTC)")
    scan = ScanOptions(
        root=root,
        max_file_size=int(max_file_size),
        root_modules=root_modules,
        var_files=var_files,
        variables=variables,
        environment=environment,
        excluded=left_out(root, explicit, exclude, cli.force_exclude, boundary),
        values_globs=values_globs,
        templates=TemplateFiles(root, tuple(template_globs), explicit),
        cache=cli.cache,
        jobs=jobs,
        extra_node_types=extra_node_types,
        today=today,
        values_readers=values_readers,
        yaml_kinds=yaml_kinds,
        provider_sensitive=set_sensitive_values,
        boundary=boundary,
        limits=limits,
        engine=engine,
        plan=plan,
        plan_directory=first if first.is_dir() else first.parent,
    )
    settings = Settings(
        scan=scan,
        rules=rules,
        paths=explicit,
        exclude=exclude,
        force_exclude=cli.force_exclude,
        severity=severity,
        per_path_ignores=per_path_ignores,
        inline_ignores=cli.inline_ignores,
        per_path=per_path,
    )
    origins["rules"] = ([r.id for r in rules], "selection")
    fix = bool(pick("fix", cli.fix, False))
    unsafe_fixes = bool(pick("unsafe-fixes", cli.unsafe_fixes, False))
    since = pick("since", cli.since, None)
    return Resolved(settings, config, repo_root, fail_on, origins, fix, unsafe_fixes, fix_policy, since)


def settings_lines(resolved: Resolved) -> list[str]:
    """``--show-settings``: each resolved setting, its value and where it came from."""
    import json

    width = max(len(key) for key in resolved.origins)
    return [f"{key:<{width}}  {json.dumps(resolved.origins[key][0])}  ({resolved.origins[key][1]})"
            for key in sorted(resolved.origins)]


LIMIT_CEILING = 10
"""How far the configuration may raise an evaluation budget above its default."""


def _plan(cli: CommandLine, config: Config, base: Path, boundary: Boundary) -> Plan | None:
    """The plan of ``--plan``, else of the configuration's ``plan`` (relative to the configuration
    file, and inside the repository as every file the configuration names); read and checked here,
    so a file that is not a plan is a usage error."""
    from kapsulint.model.plan import PlanError, read_plan

    if cli.plan is not None:
        path, name = str(cli.plan.resolve()), str(cli.plan)
    elif "plan" in config.values:
        written = config.values["plan"]
        path, name = str((base / written).resolve()), written
        if not boundary.contains(path):
            raise SettingsError(f"{config.path}: `plan` {written!r} {OUTSIDE}; only --plan may name a plan outside it")
    else:
        return None
    try:
        return read_plan(path, name)
    except PlanError as error:
        raise SettingsError(str(error)) from None


def _check_selectors(config: Config, problems: list[str]) -> None:
    """The configuration's rule selectors (``select``, ``extend-select``, ``ignore``, the lists of
    ``per-path-ignores``): each one that names no rule is a problem, and is left out."""

    def usable(key: str, selectors: list) -> list:
        kept = []
        for selector in selectors:
            if not isinstance(selector, str):
                problems.append(f"{config.path}: `{key}` must be a list of strings, got {selector!r}")
                continue
            try:
                matching(selector)
            except SelectionError as error:
                problems.append(f"{config.path}: `{key}`: {error}")
                continue
            kept.append(selector)
        return kept

    for key in ("select", "extend-select", "ignore"):
        if key in config.values:
            config.values[key] = usable(key, config.values[key])
    if "per-path-ignores" in config.values:
        config.values["per-path-ignores"] = {
            pattern: usable(f"per-path-ignores.{pattern}", selectors if isinstance(selectors, list) else [selectors])
            for pattern, selectors in config.values["per-path-ignores"].items()}


def _limits(pick, config: Config, problems: list[str]) -> Limits:
    """The evaluation budgets: each configuration key ``max-expression-*`` and ``max-run-*``,
    else its default; every limit is positive and at most :data:`LIMIT_CEILING` times its default
    (the configuration file is the repository's, as much as its code: a pull request must not be
    able to lift the bounds that keep a run on its runner short)."""
    from kapsulint.terraform.budget import SETTINGS as BUDGET_SETTINGS
    from kapsulint.terraform.budget import Limits

    defaults = Limits()
    values = {}
    for key, field in BUDGET_SETTINGS.items():
        default = getattr(defaults, field)
        value = pick(key, None, default)
        if value <= 0:
            problems.append(f"{config.path}: `{key}` must be positive")
            value = default
        elif value > LIMIT_CEILING * default:
            problems.append(f"{config.path}: `{key}` may be at most {LIMIT_CEILING * default:,} "
                            f"({LIMIT_CEILING} times its default)")
            value = default
        values[field] = value
    return Limits(**values)


def _fix_policy(config: Config, pick, problems: list[str]) -> FixPolicy:
    """The configuration keys ``fixable``, ``unfixable``, ``extend-safe-fixes`` and
    ``extend-unsafe-fixes``, each a list of rule ids, prefixes or names, as in Ruff."""
    from kapsulint.lint.fixes import FixPolicy

    def rules(key: str, default: list[str] | None) -> set[str] | None:
        selectors = pick(key, None, default)
        if selectors is None:
            return None
        ids = set()
        for selector in selectors:
            if not isinstance(selector, str):
                problems.append(f"{config.path}: `{key}` must be a list of strings")
                continue
            try:
                ids |= {rule.id for rule in matching(selector)}
            except SelectionError as error:
                problems.append(f"{config.path}: `{key}`: {error}")
        return ids

    return FixPolicy(rules("fixable", None), rules("unfixable", []) or (),
                     rules("extend-safe-fixes", []) or (), rules("extend-unsafe-fixes", []) or ())


def _lint_date(given: Any, config: Config) -> datetime.date:
    """The lint date: ``--today`` or the configuration's ``today`` (a TOML date or "YYYY-MM-DD"),
    else today in UTC."""
    if given is None:
        return datetime.datetime.now(datetime.UTC).date()
    if isinstance(given, datetime.date) and not isinstance(given, datetime.datetime):
        return given
    if isinstance(given, str) and len(given) == 10:
        try:
            return datetime.date.fromisoformat(given)
        except ValueError:
            pass
    where = "--today" if config.values.get("today") is not given else f"{config.path}: `today`"
    raise SettingsError(f"{where} must be a date YYYY-MM-DD, got {given!r}")


def _merged_origin(given, key: str, config: Config, in_config: str) -> str:
    sources = []
    if key in config.values:
        sources.append(in_config)
    if given:
        sources.append("command line")
    return " + ".join(sources) or "default"
