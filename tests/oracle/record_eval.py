"""Record what ``terraform console`` says every corpus expression evaluates to.

Usage: ``python -m tests.oracle.record_eval [NAME ...]`` from the repository root, with Terraform
on the PATH. It rewrites the golden of every case (or of the cases whose name contains one of the
NAMEs) and deletes goldens no case writes any more.

For each expression it asks the console three questions, each in a process of its own (the
console evaluates only the last line it reads from a pipe):

- ``jsonencode(EXPR)``: the value as Terraform's jsonencode writes it, kept as that text;
- ``type(EXPR)``: the type, as the console prints it (``type`` exists only in the console,
  https://developer.hashicorp.com/terraform/language/functions/type);
- ``EXPR``: what the console shows for the value itself, which tells a list from a tuple
  (``tolist([...])``) and a set from a list (``toset([...])``).

A golden entry is ``{"value", "type", "console"}``, with ``"sensitive": true`` when the value is
marked sensitive (its value is then recorded through ``nonsensitive``), or
``{"unknown": true, "type", "console"}`` when the console prints ``(known after apply)``, or
``{"error", "detail"}``: the first error's summary and its detail text (with ``"crashed": true``
when Terraform panicked after reporting it). When only jsonencode
fails (it cannot write an infinity), the error also has ``"encode_error": true``, the ``type`` and
the ``console`` text: kapsulint, which answers with jsonencode's text, must then say error or
Unknown. ``configuration_error`` is the first error the console reported before it evaluated
the expression all the same (a variable's failed validation).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

try:
    from .corpus import GOLDENS_DIR, Case, load_cases
except ImportError:  # run as a script, python tests/oracle/record_eval.py: its folder is on sys.path
    from corpus import GOLDENS_DIR, Case, load_cases

RECORDED_VERSION = "1.11.4"
UNKNOWN = "(known after apply)"
SENSITIVE = "(sensitive value)"
WORKERS = 8

# strconv.Quote escapes, which the console uses for a one-line string
# (https://pkg.go.dev/strconv#Quote).
_GO_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
               "\\": "\\", '"': '"'}
_GO_ESCAPE = re.compile(r'\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[abfnrtv\\"])')


class ConsoleError(Exception):
    """Terraform rejected the query: its first diagnostic's summary and detail."""

    def __init__(self, summary: str, detail: str, crashed: bool = False) -> None:
        super().__init__(summary)
        self.summary = summary
        self.detail = detail
        self.crashed = crashed


def unquote_go(text: str) -> str:
    """The string a Go double-quoted literal written by strconv.Quote stands for."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted string: {text!r}")

    def replace(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape[0] in "xuU":
            return chr(int(escape[1:], 16))
        return _GO_ESCAPES[escape]

    return _GO_ESCAPE.sub(replace, text[1:-1])


def parse_diagnostic(stderr: str) -> ConsoleError:
    """The error of the console's ``-no-color`` diagnostics that is about the query.

    Each diagnostic is ``Error: SUMMARY``, a blank line, the ``on <file> line N`` context lines, a
    blank line and the detail, wrapped at the terminal width (its lines are joined again). When
    the configuration has errors too, the console reports them first: the query's own error is
    the first one whose context is ``<console-input>``, else the first error.
    """
    errors: list[tuple[str, list[list[str]]]] = []
    for line in stderr.splitlines():
        if line.startswith("Error: "):
            errors.append((line[len("Error: "):].strip(), [[]]))
        elif line.startswith(("Warning: ", "!!!")):
            break
        elif errors and line.strip():
            errors[-1][1][-1].append(line.strip())
        elif errors and errors[-1][1][-1]:
            errors[-1][1].append([])
    if not errors:
        return ConsoleError(stderr.strip().splitlines()[0] if stderr.strip() else "no output", "")
    about_query = [error for error in errors
                   if any(paragraph and paragraph[0].startswith("on <console-input>") for paragraph in error[1])]
    summary, paragraphs = (about_query or errors)[0]
    detail = " ".join(" ".join(p) for p in paragraphs if p and not p[0].startswith("on "))
    # A panic inside a function comes with its Go stack, whose addresses change at every run.
    detail = detail.split(" goroutine ", 1)[0]
    return ConsoleError(summary, detail, crashed="TERRAFORM CRASH" in stderr)


def _strip_warning(stdout: str) -> str:
    """The console's answer without what it prints before it: a wait for the state lock, a configuration warning."""
    text = stdout.strip("\n")
    # A console that waits for its state lock (on a loaded machine) says so before answering.
    text = text.removeprefix("Acquiring state lock. This may take a few moments...").strip("\n")
    if text.startswith("Warning: "):
        _, _, text = text.partition("\n\n\n")
    return text.strip("\n")


def console(query: str, directory: Path, case: Case) -> tuple[str, ConsoleError | None]:
    """What ``terraform console`` prints for one query in ``directory``, or ConsoleError.

    The second item is the configuration's error when the console reported one and still
    evaluated the query (a failed variable validation does that).
    """
    # Every process locks its state file: one state path per process lets them run in parallel.
    state = directory.parent / f"{uuid.uuid4().hex}.tfstate"
    arguments = ["terraform", "console", "-no-color", f"-state={state}"]
    arguments += [f"-var-file={path}" for path in case.var_files]
    arguments += [f"-var={assignment}" for assignment in case.variables]
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TF_")}
    environment.update(TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    result = subprocess.run(arguments, input=query + "\n", cwd=directory, env=environment,
                            capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise parse_diagnostic(result.stderr)
    configuration_error = parse_diagnostic(result.stderr) if "Error: " in result.stderr else None
    return _strip_warning(result.stdout), configuration_error


def record_expression(expression: str, directory: Path, case: Case) -> dict[str, Any]:
    """The golden entry of one expression."""
    try:
        encoded, configuration_error = console(f"jsonencode({expression})", directory, case)
    except ConsoleError as error:
        failed: dict[str, Any] = {"error": error.summary, "detail": error.detail}
        if error.crashed:
            failed["crashed"] = True
        try:
            # A value jsonencode cannot write (an infinity): the expression itself is valid.
            failed.update(type=console(f"type({expression})", directory, case)[0], encode_error=True,
                          console=console(expression, directory, case)[0])
        except ConsoleError:
            pass
        return failed
    entry: dict[str, Any] = {}
    if configuration_error is not None:
        entry["configuration_error"] = configuration_error.summary
    if encoded == SENSITIVE:
        entry["sensitive"] = True
        encoded, _ = console(f"nonsensitive(jsonencode({expression}))", directory, case)
    if encoded == UNKNOWN:
        entry["unknown"] = True
    else:
        entry["value"] = unquote_go(encoded)
    for key, query in (("type", f"type({expression})"), ("console", expression)):
        try:
            entry[key] = console(query, directory, case)[0]
        except ConsoleError as error:
            entry[f"{key}_error"] = error.summary
    return entry


def install_local_modules(directory: Path) -> None:
    """``terraform init`` for a case that calls local modules: the console refuses a module call
    it has not installed. Local sources only, no provider: nothing is downloaded."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TF_")}
    environment.update(TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    subprocess.run(["terraform", "init", "-backend=false", "-input=false", "-no-color"], cwd=directory,
                   env=environment, capture_output=True, text=True, timeout=300, check=True)


def terraform_version() -> str:
    output = subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True,
                            check=True, env={**os.environ, "TF_CLI_CONFIG_FILE": "/dev/null"})
    return json.loads(output.stdout)["terraform_version"]


def record_case(case: Case, pool: ThreadPoolExecutor, version: str) -> dict[str, Any]:
    """The golden of one case, written to its file."""
    with tempfile.TemporaryDirectory(prefix="kapsulint-oracle-") as scratch:
        directory = case.materialise(Path(scratch) / "module")
        if any('module "' in path.read_text(encoding="utf-8") for path in directory.glob("*.tf")):
            install_local_modules(directory)
        entries = list(pool.map(lambda expression: record_expression(expression, directory, case),
                                case.expressions))
    golden = {
        "terraform_version": version,
        "source": case.source.relative_to(GOLDENS_DIR.parent).as_posix(),
        "var_files": list(case.var_files),
        "vars": list(case.variables),
        "expressions": dict(zip(case.expressions, entries)),
    }
    case.golden_path.parent.mkdir(parents=True, exist_ok=True)
    case.golden_path.write_text(json.dumps(golden, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    return golden


def main(argv: list[str]) -> int:
    cases = load_cases()
    selected = [case for case in cases if not argv or any(name in case.name for name in argv)]
    version = terraform_version()
    if version != RECORDED_VERSION:
        print(f"warning: Terraform {version}, the goldens and README say {RECORDED_VERSION}", file=sys.stderr)
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        for case in selected:
            golden = record_case(case, pool, version)
            entries = golden["expressions"].values()
            errors = sum("error" in entry for entry in entries)
            unknown = sum(bool(entry.get("unknown")) for entry in entries)
            print(f"{case.name}: {len(entries)} expressions, {errors} errors, {unknown} unknown")
    if not argv:
        written = {case.golden_path for case in cases}
        for stale in GOLDENS_DIR.rglob("*.json"):
            if stale not in written:
                stale.unlink()
                print(f"removed {stale.relative_to(GOLDENS_DIR)}")
    print(f"Terraform {version}: {sum(len(case.expressions) for case in selected)} expressions recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
