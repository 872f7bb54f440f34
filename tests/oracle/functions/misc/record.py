"""Record what ``terraform console`` says the cases of ``cases.txt`` evaluate to.

Usage: ``python tests/oracle/functions/misc/record.py`` with Terraform on the PATH; rewrites
``goldens.json`` beside it. Each expression is asked twice, each time in a fresh console process
(the console evaluates only the last line it reads): ``jsonencode(EXPR)`` gives the value as
Terraform's jsonencode writes it, ``type(EXPR)`` its type as the console prints it. The console
runs in a scratch directory holding the files of ``files.py``, so the file functions read them.

A golden entry is ``{"value": <jsonencode text>, "type": <type text>}``, ``{"error": <the
diagnostic's detail>}`` where Terraform fails, or ``{"console": <what the console prints>, "type":
...}`` for a value jsonencode cannot write (an infinity). Absolute paths of the scratch directory
are replaced by ``<BASE>``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from files import write_files  # noqa: E402

CASES = HERE / "cases.txt"
GOLDENS = HERE / "goldens.json"
INFINITY = "cannot serialize infinity as JSON"


def load_cases() -> list[str]:
    """The expressions of ``cases.txt``: one a line, blank lines and ``#`` comments skipped."""
    lines = CASES.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


class ConsoleError(Exception):
    """Terraform reported an error; the message is its diagnostic's detail, lines joined."""


def console(query: str, directory: Path) -> str:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TF_")}
    environment.update(TF_CLI_CONFIG_FILE="/dev/null", TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    # every process locks its state file: one state path per process (outside the directory the
    # file functions read) lets them run in parallel
    with tempfile.TemporaryDirectory(prefix="kapsulint-state-") as state:
        result = subprocess.run(["terraform", "console", "-no-color", f"-state={state}/terraform.tfstate"],
                                input=query + "\n", cwd=directory, env=environment, capture_output=True,
                                text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise ConsoleError(_detail(result.stderr))
    return result.stdout.rstrip("\n")


def _detail(stderr: str) -> str:
    """The detail paragraphs of the first ``Error:`` diagnostic (after its ``on ...`` lines)."""
    lines = stderr.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Error: ")), None)
    if start is None:
        return stderr.strip()
    paragraphs: list[list[str]] = [[]]
    for line in lines[start + 1:]:
        if line.startswith(("Error: ", "Warning: ")):
            break
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    kept = [p for p in paragraphs if p and not p[0].startswith("on ") and not p[0].startswith("(source")]
    return " ".join(" ".join(p) for p in kept) or lines[start][len("Error: "):]


def record(expression: str, directory: Path) -> dict[str, Any]:
    try:
        encoded = console(f"jsonencode({expression})", directory)
    except ConsoleError as error:
        if INFINITY not in str(error):
            return {"error": str(error)}
        entry: dict[str, Any] = {"console": console(expression, directory)}
    else:
        entry = {"value": json.loads(encoded)}
    entry["type"] = console(f"type({expression})", directory)
    return entry


def main() -> int:
    expressions = load_cases()
    with tempfile.TemporaryDirectory(prefix="kapsulint-misc-") as scratch:
        directory = Path(scratch).resolve()
        write_files(directory)
        with ThreadPoolExecutor(max_workers=8) as pool:
            entries = list(pool.map(lambda expression: record(expression, directory), expressions))
        text = json.dumps(dict(zip(expressions, entries)), indent=1, ensure_ascii=False)
        text = re.sub(re.escape(str(directory)), "<BASE>", text)
    GOLDENS.write_text(text + "\n", encoding="utf-8")
    errors = sum("error" in entry for entry in entries)
    print(f"{len(entries)} expressions recorded, {errors} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
