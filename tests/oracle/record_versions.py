"""Record how Terraform reads version constraints: which provider version ``terraform init``
selects, and which ``required_version`` constraints it accepts.

Usage, from the repository root, where Terraform is installed (no network is used)::

    .venv/bin/python tests/oracle/record_versions.py

Provider constraints: for every constraint of PROVIDER_CONSTRAINTS, a root module that requires
``scaleway/scaleway`` with that ``version`` is initialised with ``terraform init -plugin-dir``
against a local directory holding placeholder packages of the versions in MIRROR (pre-releases
among them). ``init`` only selects and copies the packages, it never runs them: the version it
writes to ``.terraform.lock.hcl`` is the newest of MIRROR the constraint admits, as it would be
from the registry (https://developer.hashicorp.com/terraform/cli/commands/init#plugin-dir). A
constraint Terraform refuses, or one that admits none of MIRROR, gives the error's summary and
its first line of detail.

``required_version``: for every constraint of REQUIRED_VERSIONS, ``terraform init -backend=false``
in a module holding only ``terraform { required_version = ... }``: ``ok`` when the running
Terraform satisfies it, else the error's summary and detail ("Unsupported Terraform Core
version", "Invalid required_version constraint" for a pre-release, "Invalid version constraint").

The verdicts go to ``tests/oracle/versions/verdicts.json`` with the Terraform version.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

VERDICTS = Path(__file__).resolve().parent / "versions" / "verdicts.json"

MIRROR = (
    "1.9.0", "2.0.0-alpha.1", "2.0.0-beta", "2.0.0-rc1", "2.0.0-rc2", "2.0.0", "2.0.1", "2.1.0-beta1",
    "2.1.0", "2.54.0-rc1", "2.54.0", "3.0.0-rc.1",
)

PROVIDER_CONSTRAINTS = (
    # exact pins, with and without an operator, pre-releases and build metadata
    "2.0.0", "= 2.0.0", "=2.0.0", "2.0", "2", "= 2", "1.9", "02.0", " 2.0.0", "2.0.0 ",
    "2.0.0-rc1", "= 2.0.0-rc1", "= 2.0.0-rc1 ", "2.54.0-rc1", "3.0.0-rc.1", "2.0.0-alpha.1",
    "2.0.0-rc.1", "2.0.0-RC1", "2.0.0-0", "2.0.0-01", "2.0.0+abc", "2.0.0-rc1+abc",
    # a pre-release in a range: ranges admit releases only
    ">= 2.0.0-rc1, < 2.1.0", ">=2.0.0-rc1,<2.1.0", ">= 2.0.0-rc1", ">= 2.54.0-rc1", "> 2.0.0-rc1, < 2.0.1",
    ">= 2.0.0-rc1, < 2.0.0", "<= 2.0.0-rc2", "< 2.0.0", "< 2.1.0", "> 2.0.0-beta, < 2.0.0-rc2",
    "~> 2.0.0-rc1", "~> 2.0.0-beta", "~> 2.54.0-rc1", "~> 2.1.0-beta1", "!= 2.0.0-rc1, ~> 2.0.0",
    # a pre-release pinned beside a range: admitted only when the range holds it too
    "2.0.0-rc1, >= 2.0.0", "2.0.0-rc1, < 2.0.1", "2.0.0-rc1, >= 2.0.0-beta", "2.0.0-rc1, < 2.0.0-rc2",
    "2.0.0-alpha.1, < 2.0.0-beta", "2.0.0-beta, > 2.0.0-alpha.1", "2.0.0-rc1, 2.0.0-rc1",
    "2.0.0-rc1, 2.0.0-rc2", "2.0.0-rc1, != 2.0.0-rc1",
    # releases only
    "~> 2.0", "~> 2", "~>2", "~> 2.0.0", "> 2.0", ">=2.0", "!= 2.0.0", ">= 2.0, < 3.0", "~> 2.1, != 2.54.0",
    "> 2.0.0, < 2.0.1", "~> 2.0.0-beta+build.5", "3.0.0-rc.1, < 3.0.0",
    # syntax Terraform refuses
    "", " ", "v2.0.0", "= v2.0.0", ">=  2.0", "> = 2.0", "2.0.0.0", "2.x", "2.0.*", "^2.0", ">= 2.0 < 3.0",
    "~> 2.0,", "=> 2.0", "=< 2.0", "2.0.0-", "2.0.0-rc_1", "latest",
)

REQUIRED_VERSIONS = (
    ">= 1.0", "~> 1.11", "~> 1.11.0", ">= 1.11.4", "> 1.11.4", "< 1.11.4", "1.11.4", "= 1.11.4", "!= 1.11.4",
    ">= 1.5, < 2.0", "~> 1.9.0", "v1.11.4", ">= v1.5", "1.11", ">= 1.11.4.0", ">= 1.11.0-rc1",
    "1.11.4-beta1", "~> 1.11.0-alpha", ">= 1.11.4+abc", "", "1.x", "^1.11", ">= 1.0 < 2.0", "=> 1.0",
    ">= v1.5.0, < 1.12.0.0",
)

_ERROR = re.compile(r"^Error: (.+)$")


def main() -> None:
    version = _terraform_version()
    with tempfile.TemporaryDirectory(prefix="kapsulint-versions-") as scratch:
        mirror = Path(scratch) / "mirror"
        for item in MIRROR:
            folder = mirror / "registry.terraform.io" / "scaleway" / "scaleway" / item / "linux_amd64"
            folder.mkdir(parents=True)
            binary = folder / f"terraform-provider-scaleway_v{item}"
            binary.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
            binary.chmod(0o755)
        with ThreadPoolExecutor(max_workers=4) as pool:
            providers = dict(zip(PROVIDER_CONSTRAINTS,
                                 pool.map(lambda text: _provider_verdict(text, mirror), PROVIDER_CONSTRAINTS)))
            core = dict(zip(REQUIRED_VERSIONS, pool.map(_required_version_verdict, REQUIRED_VERSIONS)))
    data = {"terraform": version, "mirror": list(MIRROR), "providers": providers, "required_version": core}
    VERDICTS.parent.mkdir(parents=True, exist_ok=True)
    VERDICTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(providers)} provider constraints, {len(core)} required_version constraints -> {VERDICTS}")


def _terraform_version() -> str:
    out = subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["terraform_version"]


def _provider_verdict(constraint: str, mirror: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="kapsulint-provider-") as folder:
        Path(folder, "main.tf").write_text(
            "terraform {\n  required_providers {\n    scaleway = {\n      source  = \"scaleway/scaleway\"\n"
            f"      version = {json.dumps(constraint)}\n    }}\n  }}\n}}\n", encoding="utf-8")
        out = _run(["terraform", "init", f"-plugin-dir={mirror}", "-input=false", "-no-color"], folder)
        lock = Path(folder, ".terraform.lock.hcl")
        if lock.is_file():
            selected = re.search(r'^\s*version\s*=\s*"([^"]+)"', lock.read_text(encoding="utf-8"), re.MULTILINE)
            return {"selected": selected.group(1) if selected else None}
        return _error(out)


def _required_version_verdict(constraint: str) -> dict:
    with tempfile.TemporaryDirectory(prefix="kapsulint-core-") as folder:
        Path(folder, "main.tf").write_text(
            f"terraform {{\n  required_version = {json.dumps(constraint)}\n}}\n", encoding="utf-8")
        out = _run(["terraform", "init", "-backend=false", "-input=false", "-no-color"], folder)
        if "Terraform has been successfully initialized" in out:
            return {"ok": True}
        return _error(out)


def _run(command: list[str], folder: str) -> str:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1",
                               "HOME": folder})
    return done.stdout + done.stderr


def _error(out: str) -> dict:
    """The last error's summary (the first is the generic "problems during initialisation" when
    the configuration is invalid) and its first line of detail after the source excerpt."""
    lines = [line.strip(" │╷╵") for line in out.splitlines()]
    found = [(index, match.group(1)) for index, line in enumerate(lines) if (match := _ERROR.match(line))]
    if not found:
        raise RuntimeError(f"neither a selection nor an error:\n{out}")
    index, summary = found[-1]
    detail = ""
    for line in lines[index + 1:]:
        text = line.strip()
        if not text or text.startswith(("on ", "(", "├", "│")) or re.match(r"^\d+:", text):
            continue
        detail = text
        break
    return {"error": summary, "detail": detail}


if __name__ == "__main__":
    main()
