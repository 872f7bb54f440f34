"""Record what Terraform gives for each expression of ``expressions.txt`` into ``goldens.json``.

Run where ``terraform`` (1.11) is on the PATH: ``python tests/oracle/functions/strings/record.py``.
For each expression it asks ``terraform console`` (in an empty scratch directory) for
``jsonencode(EXPR)`` and ``type(EXPR)``. A golden is ``{"value": <JSON text>, "type": <type text>}``,
``{"unknown": true}`` when the console answers ``(known after apply)``, or
``{"error": "<summary>: <detail>"}`` when Terraform reports an error.
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

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
UNKNOWN = "(known after apply)"


def expressions() -> list[str]:
    lines = (HERE / "expressions.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def console(expression: str) -> tuple[bool, str]:
    """(True, stdout) or (False, the error as "summary: detail"); each run in its own directory."""
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")
    with tempfile.TemporaryDirectory(prefix="kapsulint-oracle-") as directory:
        done = subprocess.run(
            ["terraform", "console", "-no-color"], input=expression + "\n", capture_output=True,
            text=True, cwd=directory, env=env, timeout=60,
        )
    if done.returncode == 0:
        return True, done.stdout.rstrip("\n")
    return False, error_text(ANSI.sub("", done.stderr))


def error_text(stderr: str) -> str:
    """Terraform's diagnostic as one line: the summary, then the detail's wrapped lines joined."""
    lines = [line.strip("│╷╵ ").rstrip() for line in stderr.splitlines()]
    summary, detail = "", []
    for line in lines:
        if line.startswith("Error: ") and not summary:
            summary = line[len("Error: "):]
        elif summary and line and not line.startswith("on <console-input>") and line != "(source code not available)":
            detail.append(line)
    text = " ".join(detail)
    if "panic in function implementation:" in text:  # keep Go's message, not its stack trace
        text = text.split(" goroutine ")[0] + "."
    return f"{summary}: {text}" if summary else stderr.strip()


def record(expression: str) -> dict:
    ok, value = console(f"jsonencode({expression})")
    if not ok:
        return {"error": value}
    if value == UNKNOWN:
        return {"unknown": True}
    ok, type_text = console(f"type({expression})")
    if not ok:
        return {"error": type_text}
    return {"value": json.loads(value), "type": type_text}


def main() -> int:
    cases = expressions()
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(record, cases))
    goldens = dict(zip(cases, results))
    version = subprocess.run(["terraform", "version"], capture_output=True, text=True,
                             env=dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")).stdout.splitlines()[0]
    out = {"terraform": version, "cases": goldens}
    (HERE / "goldens.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(goldens)} cases recorded with {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
