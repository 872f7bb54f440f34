"""The parse cache and parallel parsing (no timed assertions: speed lives in benchmarks/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kapsulint.cache import ParseCache
from kapsulint.loader import PARALLEL_THRESHOLD

from fixture_support import lint

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = %s
}
"""


def entries(cache_dir: Path) -> list[Path]:
    return sorted(p for p in (cache_dir / "parse").rglob("*") if p.is_file() and not p.name.startswith(".tmp"))


def test_a_warm_run_reads_the_cache_and_an_edited_file_is_parsed_again(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(cache_dir))
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.tf").write_text(CLUSTER % "true")
    _, first, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert len(entries(cache_dir)) == 1
    _, warm, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert warm == first and len(first) == 1
    (project / "main.tf").write_text(CLUSTER % "false")
    _, edited, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    assert edited == []
    assert len(entries(cache_dir)) == 2


def test_corrupted_and_foreign_entries_are_ignored(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(cache_dir))
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.tf").write_text(CLUSTER % "true")
    _, expected, _ = lint(project, ["--select", "KAP101"], monkeypatch)
    (entry,) = entries(cache_dir)
    entry.write_bytes(entry.read_bytes()[:40])  # truncated
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == expected
    cache = ParseCache(cache_dir)
    key = entry.parent.name + entry.name
    assert cache.get(key) is not None  # rewritten after the corrupted read
    entry.write_bytes(b"KAPSULINT-CACHE\nsome-other-version\n" + entry.read_bytes().split(b"\n", 2)[2])
    assert cache.get(key) is None
    assert lint(project, ["--select", "KAP101"], monkeypatch)[1] == expected


def test_the_cache_key_depends_on_the_toolchain(tmp_path, monkeypatch):
    from kapsulint import cache as cache_module

    cache = ParseCache(tmp_path)
    key = cache.key("hcl", b"x = 1\n")
    cache_module.toolchain.cache_clear()
    monkeypatch.setattr(cache_module, "__version__", "999.0.0")
    try:
        assert cache.key("hcl", b"x = 1\n") != key
    finally:
        cache_module.toolchain.cache_clear()


def test_no_cache_writes_nothing(tmp_path, monkeypatch):
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(cache_dir))
    project = tmp_path / "project"
    project.mkdir()
    (project / "main.tf").write_text(CLUSTER % "true")
    lint(project, ["--select", "KAP101", "--no-cache"], monkeypatch)
    assert not (cache_dir / "parse").exists() or entries(cache_dir) == []


def test_eviction_keeps_the_cache_under_its_bound(tmp_path):
    cache = ParseCache(tmp_path)
    for index in range(20):
        cache.put(cache.key("hcl", str(index).encode()), {"data": "x" * 1000})
    cache.evict(limit=5000)
    assert sum(p.stat().st_size for p in entries(tmp_path)) <= 5000


def big_project(root: Path) -> Path:
    """A project above the parallel threshold: many modules, each with a footgun."""
    for index in range(120):
        module = root / f"m{index:03d}"
        module.mkdir(parents=True)
        body = CLUSTER.replace('"main"', f'"c{index}"') % ("true" if index % 3 == 0 else "false")
        pools = "".join(
            f'resource "scaleway_k8s_pool" "p{n}" {{\n  cluster_id = scaleway_k8s_cluster.c{index}.id\n'
            f'  name       = "p{n}"\n  node_type  = "{"PRO2-S" if n % 2 else "POP2-2C-8G"}"\n  size       = {n + 1}\n'
            f'  tags       = ["env=prod", "team=platform", "noprefix=tier=t{n}"]\n}}\n\n'
            for n in range(12)
        )
        (module / "main.tf").write_text(body + "\n" + pools)
    return root


def test_one_and_two_jobs_give_identical_reports(tmp_path, monkeypatch):
    project = big_project(tmp_path / "mono")
    size = sum(p.stat().st_size for p in project.rglob("*.tf"))
    assert size > PARALLEL_THRESHOLD
    _, one, _ = lint(project, ["--no-cache", "--jobs", "1"], monkeypatch)
    _, two, _ = lint(project, ["--no-cache", "--jobs", "2"], monkeypatch)
    assert one and one == two


def test_two_concurrent_runs_share_the_cache_safely(tmp_path):
    project = big_project(tmp_path / "mono")
    env = {"KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    command = [sys.executable, "-m", "kapsulint", "--format", "json", "--jobs", "1", str(project)]
    runs = [subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [1, 1], [o[1] for o in outputs]
    reports = [json.loads(out) for out, _ in outputs]
    assert reports[0] == reports[1]
    third = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, timeout=300)
    assert json.loads(third.stdout) == reports[0]
