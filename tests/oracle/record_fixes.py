"""Record Terraform's ``terraform fmt -check`` verdict on the files of every fix case.

Usage, from the repository root, where Terraform is installed::

    .venv/bin/python tests/oracle/record_fixes.py

A fix case is a fixture folder whose ``case.toml`` has ``fix = "safe"`` or ``"unsafe"``; its
``FILE.fixed`` files are what ``--fix`` must make of ``FILE``. Each Terraform file of a case and
each ``.fixed`` file goes through ``terraform fmt -check -no-color`` (as its original name, in a
directory of its own): exit 0 means formatted, 3 means it parses but fmt would change it
(https://developer.hashicorp.com/terraform/cli/commands/fmt). The verdicts go to
``tests/oracle/fixes.json`` with each file's SHA-256, so a changed file without a new verdict
fails ``tests/test_fixes.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
VERDICTS = Path(__file__).resolve().parent / "fixes.json"
TERRAFORM_SUFFIXES = (".tf", ".tfvars", ".tofu")


def fix_cases() -> list[Path]:
    cases = []
    for config in sorted(FIXTURES.glob("KAP*/*/case.toml")):
        if "fix" in tomllib.loads(config.read_text(encoding="utf-8")):
            cases.append(config.parent)
    return cases


def checked_files(case: Path) -> list[Path]:
    """The case's Terraform files and their ``.fixed`` versions."""
    return sorted(p for p in case.rglob("*") if p.is_file()
                  and p.name.removesuffix(".fixed").endswith(TERRAFORM_SUFFIXES))


def verdict(path: Path) -> bool:
    name = path.name.removesuffix(".fixed")
    with tempfile.TemporaryDirectory() as directory:
        shutil.copyfile(path, os.path.join(directory, name))
        env = {**os.environ, "TF_CLI_CONFIG_FILE": "/dev/null", "CHECKPOINT_DISABLE": "1"}
        done = subprocess.run(["terraform", "fmt", "-check", "-no-color", name], cwd=directory, env=env,
                              capture_output=True, text=True)
    if done.returncode not in (0, 3):
        raise SystemExit(f"terraform fmt failed on {path}: {done.stderr}")
    return done.returncode == 0


def main() -> None:
    version = subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True, check=True)
    files = {}
    for case in fix_cases():
        for path in checked_files(case):
            files[path.relative_to(FIXTURES).as_posix()] = {
                "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                "formatted": verdict(path),
            }
    data = {"terraform": json.loads(version.stdout)["terraform_version"], "files": files}
    VERDICTS.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
