"""Resolved settings: the configuration file, then the command line on top (design.md §3, §9)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kapsulint.config import Config, ConfigError, find_config, load_config
from kapsulint.discovery import git_top_level
from kapsulint.registry import SelectionError, selected, split_selectors
from kapsulint.runner import Settings


class SettingsError(ValueError):
    """A usage or configuration error (exit code 2)."""


@dataclass
class Resolved:
    settings: Settings
    config: Config
    repo_root: Path
    fail_on: str


def resolve_settings(
    targets: list[Path],
    explicit_paths: bool,
    config_path: Path | None,
    select: str | None,
    extend_select: str | None,
    ignore: str | None,
    fail_on: str | None,
    var_files: list[Path],
    variables: list[str],
    env_vars: bool = False,
) -> Resolved:
    first = targets[0]
    try:
        found = config_path or find_config(first)
        config = load_config(found) if found is not None else Config()
    except ConfigError as error:
        raise SettingsError(str(error)) from None
    start = first if first.is_dir() else first.parent
    git_root = git_top_level(start)
    root = config.directory or git_root or Path.cwd()
    repo_root = git_root or root
    base = config.directory or root

    def from_config(key: str) -> list[str]:
        return list(config.get(key, []))

    try:
        selection = split_selectors(select) if select is not None else (
            from_config("select") if "select" in config.values else None
        )
        rules = selected(
            selection,
            split_selectors(extend_select) + from_config("extend-select"),
            split_selectors(ignore) + from_config("ignore"),
        )
    except SelectionError as error:
        raise SettingsError(str(error)) from None
    parsed_variables = {}
    for assignment in variables:
        name, sep, value = assignment.partition("=")
        if not sep or not name:
            raise SettingsError(f"--var expects NAME=VALUE, got {assignment!r}")
        parsed_variables[name.strip()] = value
    severity = {}
    for key, level in config.get("severity", {}).items():
        if level not in ("error", "warning", "note"):
            raise SettingsError(f"{config.path}: severity of {key} must be error, warning or note")
        try:
            from kapsulint.registry import matching

            for rule in matching(key):
                severity[rule.id] = level
        except SelectionError as error:
            raise SettingsError(f"{config.path}: {error}") from None
    level = fail_on or config.get("fail-on", "warning")
    if level not in ("error", "warning", "note"):
        raise SettingsError(f"{config.path}: fail-on must be error, warning or note")
    config_var_files = [str((base / p).resolve()) for p in from_config("var-files")]
    extra_node_types = from_config("extra-node-types")
    if not all(isinstance(name, str) for name in extra_node_types):
        raise SettingsError(f"{config.path}: `extra-node-types` must be a list of strings")
    settings = Settings(
        root=root,
        rules=rules,
        paths=targets if explicit_paths else [],
        exclude=from_config("exclude"),
        root_modules=[str((base / p).resolve().relative_to(root)) if (base / p).resolve().is_relative_to(root)
                      else str((base / p).resolve()) for p in from_config("root-modules")],
        var_files=config_var_files + [str(p.resolve()) for p in var_files],
        variables=parsed_variables,
        environment={k[len("TF_VAR_"):]: v for k, v in os.environ.items() if k.startswith("TF_VAR_")} if env_vars else {},
        max_file_size=int(config.get("max-file-size", 5 * 1024 * 1024)),
        severity=severity,
        values_globs=from_config("values-files"),
        per_path_ignores={k: list(v) for k, v in config.get("per-path-ignores", {}).items()},
        extra_node_types=extra_node_types,
    )
    return Resolved(settings, config, repo_root, level)
