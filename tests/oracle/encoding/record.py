"""Record what Terraform answers for every case of ``cases.py`` into ``goldens.json``.

Run from the repository root where Terraform is installed (``terraform version`` is written into
the goldens)::

    python tests/oracle/encoding/record.py

Each case is evaluated by ``terraform console`` in an empty scratch directory, wrapped in
``base64encode(...)`` so that the text Terraform produced comes back byte for byte. Decoder
inputs reach Terraform through ``base64decode`` for the same reason.
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from cases import Num, all_cases  # noqa: E402


def hcl_string(text: str) -> str:
    """``text`` as an HCL quoted string literal."""
    out = []
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F or 0x80 <= code < 0xA0 or code in (0x2028, 0x2029, 0xFEFF):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    return '"' + "".join(out).replace("${", "$${").replace("%{", "%%{") + '"'


def to_hcl(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, Num):
        return value.text
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return hcl_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(to_hcl(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{hcl_string(k)} = {to_hcl(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def to_json(value: object) -> str:
    """The case's value as JSON, numbers as their exact text (the test reads them exactly)."""
    if isinstance(value, Num):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(to_json(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(k)}:{to_json(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def expression(kind: str, data: object) -> str:
    """The console expression whose value is the text to compare."""
    if kind == "parse":
        inner = f"tostring(tonumber({hcl_string(data)}))"
    elif kind == "arithmetic":
        if data[0] == "neg":
            inner = f"tostring(-({data[1]}))"
        else:
            inner = f"tostring(({data[0]}) {data[1]} ({data[2]}))"
    elif kind == "pow":
        base, exponent, op, other = data
        inner = f"pow({base}, {exponent})" + (f" {op} {other}" if op else "")
        inner = f"tostring({inner})"
    elif kind in ("jsonencode", "yamlencode"):
        inner = f"{kind}({to_hcl(data)})"
    else:
        encoded = base64.b64encode(data.encode("utf-8")).decode("ascii")
        inner = f'jsonencode({kind}(base64decode("{encoded}")))'
    return f"base64encode({inner})"


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def ask(expr: str) -> dict:
    env = dict(os.environ, TF_CLI_CONFIG_FILE="/dev/null")
    with tempfile.TemporaryDirectory() as scratch:
        run = subprocess.run(
            ["terraform", "console", "-no-color"], input=expr + "\n", capture_output=True, text=True, cwd=scratch, env=env
        )
    if run.returncode == 0:
        out = run.stdout.strip()
        return {"output": base64.b64decode(json.loads(out)).decode("utf-8")}
    lines = [_ANSI.sub("", line).lstrip("│╷╵ ").rstrip() for line in run.stderr.splitlines()]
    lines = [line for line in lines if line and "CLI configuration" not in line and "terraformrc" not in line]
    start = next(i for i, line in enumerate(lines) if line.startswith("Error: "))
    summary = lines[start][len("Error: ") :]
    detail = " ".join(line for line in lines[start + 1 :] if not line.startswith(("on <console-input>", "(source code")))
    return {"error": f"{summary}: {detail}"}


def main() -> None:
    version = json.loads(subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True).stdout)
    cases = all_cases()
    exprs = [expression(kind, data) for kind, data in cases]
    with ThreadPoolExecutor(max_workers=os.cpu_count() * 2) as pool:
        answers = list(pool.map(ask, exprs))
    goldens = []
    for (kind, data), expr, answer in zip(cases, exprs, answers):
        entry: dict = {"kind": kind}
        if kind in ("jsonencode", "yamlencode"):
            entry["value"] = to_json(data)
        else:
            entry["input"] = data
        entry["expression"] = expr
        entry.update(answer)
        goldens.append(entry)
    document = {"terraform": version["terraform_version"], "cases": goldens}
    (HERE / "goldens.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(goldens)} cases, {sum('error' in g for g in goldens)} errors, Terraform {version['terraform_version']}")


if __name__ == "__main__":
    main()
