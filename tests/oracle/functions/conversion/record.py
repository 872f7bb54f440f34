"""Record what ``terraform console`` says the conversion cases evaluate to.

Usage, from the repository root with Terraform on the PATH:
``python tests/oracle/functions/conversion/record.py``. It rewrites ``goldens.json`` from
``cases.txt`` (one expression a line, ``#`` comments) and ``variables.json`` (typed variables:
a ``variables.tf`` text, the ``-var`` arguments, and the expressions to evaluate with them).

For each expression the console is asked ``jsonencode(EXPR)`` and ``type(EXPR)``, each in a
process of its own (the console evaluates only the last line it reads from a pipe). A golden
entry is ``{"value", "type"}`` (``"sensitive": true`` when the value is marked sensitive; its
value is then read as ``nonsensitive(jsonencode(EXPR))``), ``{"unknown": true, "type"}`` when the
console prints ``(known after apply)``, or ``{"error", "detail"}``: the first error's
summary and detail.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SENSITIVE = "(sensitive value)"
UNKNOWN = "(known after apply)"
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_GO_ESCAPE = re.compile(r'\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[abfnrtv\\"])')
_NAMED = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", '"': '"'}


class ConsoleError(Exception):
    def __init__(self, summary: str, detail: str) -> None:
        super().__init__(summary)
        self.summary, self.detail = summary, detail


def console(query: str, config: str, variables: list[str]) -> str:
    """The console's answer to ``query`` in a module of ``config`` (the text of its
    ``variables.tf``), or :class:`ConsoleError`. Each call has a directory of its own: parallel
    consoles in one directory fight over its state lock."""
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")
    args = ["terraform", "console"] + [f"-var={assignment}" for assignment in variables]
    with tempfile.TemporaryDirectory() as directory:
        if config:
            Path(directory, "variables.tf").write_text(config, encoding="utf-8")
        done = subprocess.run(args, input=query + "\n", capture_output=True, text=True, cwd=directory, env=env,
                              timeout=120)
    if done.returncode != 0 or "Error: " in done.stderr:
        raise _error(_ANSI.sub("", done.stderr))
    return done.stdout.rstrip("\n")


def _error(stderr: str) -> ConsoleError:
    lines = [line[2:] if line.startswith("│ ") else line.lstrip("│") for line in stderr.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Error: "))
    summary = lines[start][len("Error: "):].strip()
    body = []
    for line in lines[start + 1:]:
        if line.startswith("╵"):
            break
        body.append(line)
    # the detail follows the blank line after the source location
    paragraphs = "\n".join(body).strip("\n").split("\n\n")
    detail_parts = [p for p in paragraphs[1:] if p.strip()] if len(paragraphs) > 1 else []
    detail = " ".join(" ".join(part.split()) for part in detail_parts)
    return ConsoleError(summary, detail)


def _unquote(text: str) -> str:
    assert text.startswith('"') and text.endswith('"'), text
    def replace(match: re.Match) -> str:
        code = match.group(1)
        return _NAMED[code] if code in _NAMED else chr(int(code[1:], 16))
    return _GO_ESCAPE.sub(replace, text[1:-1])


def record(expression: str, config: str, variables: list[str]) -> dict:
    try:
        shown = console(f"jsonencode({expression})", config, variables)
        entry: dict = {}
        if shown == SENSITIVE:
            entry["sensitive"] = True
            shown = console(f"nonsensitive(jsonencode({expression}))", config, variables)
        if shown == UNKNOWN:
            entry["unknown"] = True
        else:
            entry["value"] = _unquote(shown)
        entry["type"] = console(f"type({expression})", config, variables)
        return entry
    except ConsoleError as error:
        return {"error": error.summary, "detail": error.detail}


def expressions() -> list[str]:
    lines = (HERE / "cases.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def main() -> None:
    cases = expressions()
    groups = json.loads((HERE / "variables.json").read_text(encoding="utf-8"))
    with ThreadPoolExecutor(16) as pool:
        plain = dict(zip(cases, pool.map(lambda e: record(e, "", []), cases)))
        jobs = [(group["name"], run["name"], expression, group["variables"], run["vars"])
                for group in groups for run in group["runs"] for expression in group["expressions"]]
        answers = list(pool.map(lambda job: record(job[2], job[3], job[4]), jobs))
    typed: dict = {}
    for (group, run, expression, _, _), answer in zip(jobs, answers):
        typed.setdefault(group, {}).setdefault(run, {})[expression] = answer
    out = {"terraform": _version(), "expressions": plain, "variables": typed}
    (HERE / "goldens.json").write_text(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def _version() -> str:
    done = subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True,
                          env=dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null"))
    return json.loads(done.stdout)["terraform_version"]


if __name__ == "__main__":
    main()
