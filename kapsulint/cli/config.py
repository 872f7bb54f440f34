"""Configuration: ``.kapsulint.toml``, or ``[tool.kapsulint]`` in ``pyproject.toml``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kapsulint.boundary import read_regular

MAX_CONFIG_SIZE = 1024 * 1024
"""A configuration file is read to at most this many bytes (a regular file only): it is the
repository's, read before max-file-size is known."""

KEYS = {
    "select": list,
    "extend-select": list,
    "ignore": list,
    "per-path-ignores": dict,
    "per-path": list,  # [[per-path]] tables: paths, and ignore, select or severity for them
    "severity": dict,
    "fail-on": str,
    "exclude": list,
    "root-modules": list,
    "var-files": list,
    "values-files": list,
    "template-files": list,
    "extra-node-types": list,
    "max-file-size": int,
    "max-expression-steps": int,  # the evaluation budgets (kapsulint.terraform.budget.Limits)
    "max-expression-bytes": int,
    "max-expression-regex-seconds": float,
    "max-run-steps": int,
    "max-run-bytes": int,
    "max-run-regex-seconds": float,
    "engine": str,  # "terraform", "opentofu" or "auto", as --engine
    "plan": str,  # as --plan: the JSON of `terraform show -json PLANFILE`
    "today": object,  # a TOML date or a "YYYY-MM-DD" string, checked by settings
    "fix": bool,  # as --fix
    "unsafe-fixes": bool,  # as --unsafe-fixes
    "fixable": list,  # rules whose fixes may be applied (default: all)
    "unfixable": list,  # rules whose fixes are never applied
    "extend-safe-fixes": list,  # rules whose unsafe fixes count as safe
    "extend-unsafe-fixes": list,  # rules whose safe fixes count as unsafe
    "since": str,  # as --since: report only what the working tree adds to this git revision
}


_KINDS = {list: "a list", dict: "a table", str: "a string", int: "an integer", float: "a number",
          bool: "true or false"}


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


class Config:
    path: Path | None  # the file it came from
    values: dict[str, Any]  # the keys that can be used (an unknown or ill-typed one is left out)
    problems: list[str]  # what cannot be used, each naming the file and the key
    unknown_keys: bool  # some key is unknown: the error then lists the valid keys

    def __init__(self, path: Path | None = None, values: dict[str, Any] | None = None,
                 problems: list[str] | None = None, unknown_keys: bool = False) -> None:
        self.path = path
        self.values = {} if values is None else values
        self.problems = [] if problems is None else problems
        self.unknown_keys = unknown_keys

    def error(self, more: list[str]) -> str | None:
        """Every problem of the configuration, its own and ``more`` (the values settings could not
        use), as one message; None when there is none."""
        problems = self.problems + more
        if not problems:
            return None
        if self.unknown_keys:
            problems.append(f"valid keys: {', '.join(sorted(KEYS))}")
        return "\n".join(problems)

    @property
    def directory(self) -> Path | None:
        return self.path.parent if self.path is not None else None

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


def find_config(start: Path) -> Path | None:
    """The nearest ``.kapsulint.toml``, or ``pyproject.toml`` with ``[tool.kapsulint]``, upward."""
    directory = start if start.is_dir() else start.parent
    for candidate in (directory, *directory.parents):
        dedicated = candidate / ".kapsulint.toml"
        if dedicated.is_file():
            return dedicated
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            import tomllib  # here: most runs find no configuration, and never pay for the import

            try:
                data = tomllib.loads(_text(pyproject))
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                continue
            if "kapsulint" in data.get("tool", {}):
                return pyproject
    return None


def load_config(path: Path) -> Config:
    import tomllib

    try:
        data = tomllib.loads(_text(path))
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("kapsulint", {})
    problems: list[str] = []
    tool = data.get("tool")
    if isinstance(tool, dict) and "kapsulint" in tool:
        problems.append(f"{path}: `[tool.kapsulint]` is the table pyproject.toml holds kapsulint's keys in; "
                        f"{path.name} holds them at the top level: remove the `[tool.kapsulint]` line")
        data = {key: value for key, value in data.items() if key != "tool"}
    unknown = [key for key in data if key not in KEYS]
    problems += unknown_key_lines(path, unknown)
    values = {}
    for key, value in data.items():
        if key not in KEYS:
            continue
        expected = KEYS[key]
        whole_seconds = expected is float and isinstance(value, int) and not isinstance(value, bool)
        if not whole_seconds and (not isinstance(value, expected) or (isinstance(value, bool) and expected in (int, float))):
            problems.append(f"{path}: `{key}` must be {_KINDS[expected]}, got {value!r}")  # whole seconds: an int
            continue
        values[key] = value
    return Config(path, values, problems, bool(unknown))


def _text(path: Path) -> str:
    """A configuration file's text; ``OSError`` when it is not a regular file or is too large."""
    data = read_regular(str(path), MAX_CONFIG_SIZE)
    if data is None:
        raise OSError(f"larger than {MAX_CONFIG_SIZE} bytes")
    return data.decode("utf-8")


def unknown_key_lines(path: Path, unknown: list[str]) -> list[str]:
    """Every unknown key, each with the closest valid one (as Ruff does)."""
    import difflib  # only when a diff or a suggestion is asked for

    lines = []
    for key in unknown:
        close = difflib.get_close_matches(key.replace("_", "-").lower(), KEYS, n=1, cutoff=0.6)
        hint = f" (did you mean `{close[0]}`?)" if close else ""
        lines.append(f"{path}: unknown configuration key `{key}`{hint}")
    return lines
