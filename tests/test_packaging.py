"""Packaging: the wheel holds the engine and `kapsulint.rules`, nothing else, and a
wheel installed (not editable) in a fresh virtual environment gives exactly the checkout's findings.
Also checks the pre-commit hook's `files` pattern against discovery's file kinds."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 600

# Never copied into the build tree: VCS data, environments, caches, earlier build output.
_NOT_SOURCES = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
    ".pytest_cache", ".hypothesis", ".mypy_cache", ".ruff_cache", ".tox",
)


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, **kwargs)
    if result.returncode != 0:
        pytest.fail(f"{command} exited {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PYTHONNOUSERSITE"] = "1"
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory) -> Path:
    """A copy of the checkout: the build never writes into the checkout, and the wheel, the
    expected module list and the fixtures all come from one moment of the tree."""
    source = tmp_path_factory.mktemp("wheel") / "src"
    shutil.copytree(ROOT, source, ignore=_NOT_SOURCES, symlinks=True)
    return source


@pytest.fixture(scope="module")
def wheel(snapshot) -> Path:
    """The wheel, built once per session from the snapshot."""
    base, source = snapshot.parent, snapshot
    out = base / "dist"
    if importlib.util.find_spec("build") is not None:
        command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(source)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(source)]
    _run(command, cwd=base, env=_clean_env())
    wheels = sorted(out.glob("kapsulint-*.whl"))
    assert len(wheels) == 1, f"expected one kapsulint wheel in {out}: {sorted(p.name for p in out.iterdir())}"
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel (not editable). The dependencies come from the current
    environment through a plain path line in a .pth file: that directory is only appended to
    sys.path, not made a site dir, so its `__editable__` .pth/finder for kapsulint is never run."""
    venv = tmp_path_factory.mktemp("venv") / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
          "--no-index", str(wheel)], env=_clean_env())
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     env=_clean_env()).stdout.strip())
    assert site.resolve().is_relative_to(venv.resolve()), site
    current = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (site / "zz_kapsulint_test_dependencies.pth").write_text("".join(f"{p}\n" for p in current), encoding="utf-8")
    return venv


def _wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_wheel_contents(wheel, snapshot):
    names = _wheel_names(wheel)
    assert "kapsulint/rules/__init__.py" in names
    assert any(re.fullmatch(r"kapsulint/rules/kap[^/]*\.py", n) for n in names), names
    for name in names:
        assert not name.startswith(("tests/", "fixtures/", "rules/", "examples/")), name
    top = {name.split("/", 1)[0] for name in names}
    assert {t for t in top if not re.fullmatch(r"kapsulint(-[^/]+\.dist-info)?", t)} == set(), top
    # Every module of the checkout is in the wheel (a subpackage missing from
    # [tool.setuptools] packages would be dropped silently otherwise).
    wanted = {f"kapsulint/{p.relative_to(snapshot / 'kapsulint').as_posix()}"
              for p in (snapshot / "kapsulint").rglob("*.py")}
    wanted |= {f"kapsulint/rules/{p.relative_to(snapshot / 'rules').as_posix()}"
               for p in (snapshot / "rules").rglob("*.py")}
    assert sorted(wanted - set(names)) == []
    assert "kapsulint/parsing/hcl2-lalr.pickle.gz" in names  # the shipped parser tables
    with zipfile.ZipFile(wheel) as archive:
        entry_points = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert re.search(r"^kapsulint\s*=\s*kapsulint\.cli\.command:entry\s*$", entry_points, re.M), entry_points


def _lint(command: list[str], project: Path, cache: Path) -> tuple[int, list[dict], str]:
    result = subprocess.run([*command, "--format", "json", "--select", "ALL"], cwd=project,
                            env=_clean_env(KAPSULINT_CACHE_DIR=str(cache)),
                            capture_output=True, text=True, timeout=TIMEOUT)
    findings = json.loads(result.stdout) if result.stdout.startswith("[") else None
    assert isinstance(findings, list), f"{command} exited {result.returncode}\n{result.stderr}\n{result.stdout[:500]}"
    # The KAP017 fixtures are links that lead nowhere: an error of the run (exit 2), and the only one.
    errors = {f["rule"] for f in findings if f["rule"] in ("KAP008", "KAP017")}
    assert (result.returncode, errors) in ((0, set()), (1, set()), (2, {"KAP017"})), \
        f"{command} exited {result.returncode}\n{result.stderr}"
    return result.returncode, findings, result.stderr


def test_installed_wheel_matches_checkout(installed, snapshot, tmp_path):
    python = installed / "bin" / "python"
    script = installed / "bin" / "kapsulint"
    assert script.is_file(), "the wheel installed no kapsulint console script"

    # The installed kapsulint, rules included, is the wheel's copy, not the checkout's.
    probe = _run([str(python), "-c",
                  "import kapsulint, kapsulint.rules, kapsulint.cli.command; "
                  "import sys; print(kapsulint.__file__); print(kapsulint.rules.__file__); "
                  "print(*[m for m in (getattr(f, '__module__', '') for f in sys.meta_path) if 'editable' in m])"],
                 cwd=tmp_path, env=_clean_env())
    venv = installed.resolve()
    lines = probe.stdout.splitlines()
    assert len(lines) == 3 and not lines[2].strip(), f"an editable finder is active: {lines}"
    for line in lines[:2]:
        assert Path(line).resolve().is_relative_to(venv), f"{line} is not inside {venv}"

    # All cases in one project, one run per side.
    project = tmp_path / "project"
    cases = sorted(p for p in (snapshot / "fixtures").glob("*/*") if p.is_dir())
    assert cases, f"no fixture cases under {ROOT / 'fixtures'}"
    for case in cases:
        shutil.copytree(case, project / "cases" / f"{case.parent.name}__{case.name}", symlinks=True)

    wheel_code, wheel_findings, wheel_err = _lint([str(script)], project, tmp_path / "cache-wheel")
    tree_code, tree_findings, tree_err = _lint([sys.executable, "-m", "kapsulint"], project,
                                               tmp_path / "cache-checkout")

    def key(f: dict) -> tuple:
        return f["rule"], f["path"], f["line"], f["column"]

    assert tree_findings, f"the checkout found nothing in the fixtures\n{tree_err}"
    wheel_set, tree_set = {key(f) for f in wheel_findings}, {key(f) for f in tree_findings}
    assert sorted(tree_set - wheel_set) == [], f"missing from the wheel's run\n{wheel_err}"
    assert sorted(wheel_set - tree_set) == [], f"only in the wheel's run\n{wheel_err}"
    assert wheel_code == tree_code

    # The installed catalogue has one rule per rule module of the snapshot (compared with the
    # snapshot, not the live checkout, which may gain rules while the suite runs).
    listing = _run([str(script), "--list-rules", "--format", "json"], cwd=tmp_path, env=_clean_env()).stdout
    modules = {f"KAP{m.group(1)}" for p in (snapshot / "rules").glob("kap*.py")
               if (m := re.match(r"kap(\d{3})_", p.name))}
    assert {rule["id"] for rule in json.loads(listing)} == modules


def test_pre_commit_hook_files_pattern():
    from ruamel.yaml import YAML

    from kapsulint.scan.discovery import file_kind

    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [h["id"] for h in hooks] == ["kapsulint", "kapsulint-fix"]  # the second runs --fix
    hook = hooks[0]
    assert hook["entry"] == "kapsulint" and hook["language"] == "python"
    assert hook["pass_filenames"] is True and hook["require_serial"] is True
    pattern = re.compile(hook["files"])
    names = [
        "main.tf", "mod/x.tf.json", "a.tofu", "a.tofu.json", "prod.tfvars", "b/prod.tfvars.json",
        ".terraform.lock.hcl", "env/.terraform.lock.hcl", "values.yaml", "h/values.yml",
        "h/values-prod.yaml", "h/ingress-values.yml", "h/ingress.values.yaml", "h/x.values.yml",
        "README.md", "main.tf.bak", "x.tfstate", "terraform.lock.hcl", "h/myvalues.yaml",
        "values/app.yaml", "chart/Chart.yaml", "a.hcl", "values.json",
    ]
    for name in names:
        kind = file_kind(name.rsplit("/", 1)[-1])
        # Every YAML file: one a helm_release reads is a values file whatever its name.
        wanted = kind not in (None, "terragrunt") or name.endswith((".yaml", ".yml"))
        assert bool(pattern.search(name)) == wanted, (name, kind)
