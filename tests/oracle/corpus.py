"""The evaluation corpus: which expressions are evaluated where, with which variables.

Layout (under ``tests/oracle/eval/``):

- ``<topic>.txt``: one expression per line, evaluated in an empty directory. Blank lines and
  lines starting with ``#`` are skipped.
- ``modules/<name>/``: a root module without resources or providers, and its expression files.
  Without a ``runs.toml``, ``expressions.txt`` is evaluated with the module's own tfvars. A
  ``runs.toml`` lists runs, each ``[[run]]`` with ``name``, ``expressions`` (a file name, which
  must match ``expressions*.txt``: those files are not copied with the module), and
  optionally ``var_files`` (paths relative to the module) and ``vars`` (``NAME=VALUE`` strings),
  passed to Terraform as ``-var-file`` and ``-var``, and to kapsulint as ``--var-file`` and
  ``--var``.

Each case writes one golden file: ``goldens/<topic>.json`` or ``goldens/modules/<name>.json``
(``goldens/modules/<name>.<run>.json`` for a run not named ``default``).
"""

from __future__ import annotations

import json
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EVAL_DIR = Path(__file__).resolve().parent / "eval"
MODULES_DIR = EVAL_DIR / "modules"
GOLDENS_DIR = EVAL_DIR / "goldens"


@dataclass(frozen=True)
class Case:
    """One set of expressions evaluated in one directory with one set of variables."""

    name: str
    source: Path
    directory: Path | None
    expressions: tuple[str, ...]
    var_files: tuple[str, ...] = ()
    variables: tuple[str, ...] = ()

    @property
    def golden_path(self) -> Path:
        return GOLDENS_DIR / f"{self.name}.json"

    def materialise(self, target: Path) -> Path:
        """Copy the case's module (nothing, for a topic file) into ``target``; return it.

        Both Terraform and kapsulint evaluate a copy outside the repository, so neither sees the
        rest of the checkout and absolute paths never depend on where the checkout lives.
        """
        if self.directory is None:
            target.mkdir(parents=True, exist_ok=True)
        else:
            shutil.copytree(self.directory, target, ignore=shutil.ignore_patterns("expressions*.txt", "runs.toml"))
        return target


def read_expressions(path: Path) -> tuple[str, ...]:
    """The expressions of a corpus file, in order; a duplicate is an error of the corpus."""
    expressions: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        expression = line.strip()
        if not expression or expression.startswith("#"):
            continue
        if expression in seen:
            raise ValueError(f"{path}:{number}: duplicate expression {expression!r}")
        seen.add(expression)
        expressions.append(expression)
    return tuple(expressions)


def _module_cases(module: Path) -> list[Case]:
    runs_file = module / "runs.toml"
    runs: list[dict[str, Any]]
    if runs_file.exists():
        runs = tomllib.loads(runs_file.read_text(encoding="utf-8"))["run"]
    else:
        runs = [{"name": "default", "expressions": "expressions.txt"}]
    cases = []
    for run in runs:
        suffix = "" if run["name"] == "default" else f".{run['name']}"
        source = module / run["expressions"]
        cases.append(Case(
            name=f"modules/{module.name}{suffix}",
            source=source,
            directory=module,
            expressions=read_expressions(source),
            var_files=tuple(run.get("var_files", ())),
            variables=tuple(run.get("vars", ())),
        ))
    return cases


def load_cases() -> list[Case]:
    """Every case of the corpus, topic files first, in name order."""
    cases = [Case(name=path.stem, source=path, directory=None, expressions=read_expressions(path))
             for path in sorted(EVAL_DIR.glob("*.txt"))]
    for module in sorted(path for path in MODULES_DIR.iterdir() if path.is_dir()):
        cases.extend(_module_cases(module))
    return cases


def load_golden(case: Case) -> dict[str, Any]:
    """The recorded golden of a case: ``terraform_version``, ``expressions`` and more."""
    return json.loads(case.golden_path.read_text(encoding="utf-8"))
