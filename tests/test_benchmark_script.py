"""benchmarks/bench.py: its monorepo generator and its memory sampler (no timing assertions)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("kapsulint_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def test_generated_monorepo_is_valid_input(bench, tmp_path):
    repo = tmp_path / "monorepo"
    stats = bench.generate_monorepo(repo, 2)

    tf = sorted(repo.rglob("*.tf"))
    assert stats.tf_files == len(tf) > 10
    assert stats.tf_bytes == sum(len(p.read_bytes()) for p in tf)
    assert stats.values_files == 2
    assert (repo / "modules" / "pool" / "main.tf").is_file()
    for module in (repo / "clusters").iterdir():
        for name in ("versions.tf", "network.tf", "cluster.tf", "pools.tf", "ingress.tf", "values/ingress-values.yaml"):
            assert (module / name).is_file(), module / name

    # Deterministic: a second generation writes the same bytes.
    again = bench.generate_monorepo(tmp_path / "again", 2)
    assert again == stats
    for path in tf:
        assert (tmp_path / "again" / path.relative_to(repo)).read_bytes() == path.read_bytes()

    env = dict(os.environ, KAPSULINT_CACHE_DIR=str(tmp_path / "cache"))
    # kapsulint's project root is the working directory: lint from inside the monorepo.
    result = subprocess.run(
        [sys.executable, "-m", "kapsulint", "--format", "json", "."],
        cwd=repo, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)
    assert not [f for f in findings if f["rule"] == "KAP001"]
    assert {f["path"].split("/")[0] for f in findings} <= {"clusters", "modules"}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_process_tree_rss_sampler(bench):
    # A child that starts a grandchild, so the tree has two processes.
    code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)']); time.sleep(30)"
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 20
        while not bench.descendants(child.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bench.descendants(child.pid), "the grandchild never appeared"
        own = bench.rss_bytes(child.pid)
        assert own > 0
        assert bench.tree_rss_bytes(child.pid) > own

        with bench.PeakRssSampler(child.pid, interval=0.01) as sampler:
            time.sleep(0.1)
        assert sampler.samples >= 1
        assert sampler.peak > 0
    finally:
        for pid in bench.descendants(child.pid):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        child.kill()
        child.wait()
    assert bench.rss_bytes(child.pid) == 0  # gone: no RSS, no error
