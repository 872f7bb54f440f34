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


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def registry_monorepo(bench, tmp_path_factory):
    """Five roots: root 3 calls the shared local module, root 4 was never `terraform init`ed."""
    root = tmp_path_factory.mktemp("variant") / "monorepo"
    stats = bench.generate_monorepo(root, 5, variant="registry")
    return root, stats


def test_registry_variant_is_the_base_monorepo_plus_its_files(bench, registry_monorepo, tmp_path):
    root, stats = registry_monorepo
    base = tmp_path / "base"
    bench.generate_monorepo(base, 5)
    variant, original = _files(root), _files(base)
    assert {path: variant.get(path) for path in original} == original  # the base files, byte for byte

    again = tmp_path / "again"
    assert bench.generate_monorepo(again, 5, variant="registry") == stats
    assert _files(again) == variant  # deterministic

    assert stats.files == len(variant)
    assert stats.tf_files == sum(path.endswith(".tf") for path in variant)
    assert stats.downloaded_tf_files == sum(path.endswith(".tf") and "/.terraform/" in path for path in variant)
    assert stats.json_files == sum(path.endswith(".json") for path in variant)
    assert stats.bytes == sum(len(text) for text in variant.values())

    with pytest.raises(ValueError, match="unknown variant"):
        bench.generate_monorepo(tmp_path / "other", 1, variant="nope")


def test_registry_variant_is_valid_hcl_with_manifests_and_plans(bench, registry_monorepo):
    from kapsulint.model.plan import read_plan
    from kapsulint.parsing.hcl import parse_hcl

    root, _ = registry_monorepo
    tf = sorted(root.rglob("*.tf"))
    assert any(".terraform" in p.parts for p in tf)
    for path in tf:
        parsed = parse_hcl(path.read_text(encoding="utf-8"))  # raises on a syntax error
        assert parsed, path

    clusters = [root / "clusters" / bench.module_name(i) for i in range(5)]
    initialised = [c for c in clusters if (c / ".terraform").exists()]
    assert [clusters.index(c) for c in initialised] == [i for i in range(5) if bench.has_terraform_dir(i)] == [0, 1, 2, 3]
    for cluster in initialised:
        assert (cluster / "registry.tf").read_text().count('version = "') == 2
        entries = json.loads((cluster / ".terraform" / "modules" / "modules.json").read_text())["Modules"]
        keys = {entry["Key"] for entry in entries}
        assert {"", "pools", "pools.naming", "cert_manager", "cert_manager.dns"} <= keys
        assert ("extra_pool" in keys) == (cluster.name.endswith("0003"))
        for entry in entries:
            directory = cluster / entry["Dir"]
            assert directory.is_dir() and list(directory.glob("*.tf")), (cluster.name, entry)
            if entry["Key"] and not entry["Source"].startswith("."):
                assert entry["Source"].startswith("registry.terraform.io/") and entry["Version"]

    values = sorted(p.relative_to(root).as_posix() for p in root.rglob("helm/*.yaml"))
    assert len(values) == 10
    assert any("{{" in (root / path).read_text() for path in values)

    plans = sorted((root / "plans").iterdir())
    assert [p.stem for p in plans] == [bench.module_name(i) for i in bench.plan_roots(5)] == [bench.module_name(0)]
    plan = read_plan(str(plans[0]))
    assert plan.format_version == "1.2" and plan.has_configuration
    actions = {change.text: change.actions for change in plan.changes}
    assert actions["scaleway_k8s_pool.system"] == ("create", "delete")
    assert any(text.startswith("module.pools.scaleway_k8s_pool.this[") for text in actions)
    assert any(text.startswith("module.cert_manager.module.dns.") for text in actions)
    assert plan.prior(plan.changes[0].address) is not None


def test_registry_variant_lints_with_its_blind_spots_and_plan(bench, registry_monorepo, tmp_path):
    root, _ = registry_monorepo
    env = dict(os.environ, KAPSULINT_CACHE_DIR=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-m", "kapsulint", "--format", "json", "."],
                            cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    findings = json.loads(result.stdout)
    assert not [f for f in findings if f["rule"] in ("KAP001", "KAP008")]
    not_read = sorted((f["path"], f["line"]) for f in findings if f["rule"] == "KAP011")
    uninitialised = f"clusters/{bench.module_name(4)}/registry.tf"
    assert [path for path, _ in not_read] == [uninitialised, uninitialised]  # the downloaded modules were read

    name = bench.module_name(0)
    planned = subprocess.run([sys.executable, "-m", "kapsulint", "--format", "json", "--plan", f"plans/{name}.json",
                              f"clusters/{name}"], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert planned.returncode in (0, 1), planned.stderr
    assert not [f for f in json.loads(planned.stdout) if f["rule"] in ("KAP018", "KAP001", "KAP008")]


def test_one_edit_changes_the_file_each_time_and_restores_it(bench, tmp_path):
    from kapsulint.parsing.hcl import parse_hcl

    path = tmp_path / "main.tf"
    path.write_text('locals {\n  name = "a"\n}\n', encoding="utf-8")
    original = path.read_bytes()
    edit = bench.OneEdit(path)
    seen = set()
    for _ in range(3):
        edit.apply()
        text = path.read_text(encoding="utf-8")
        assert text.startswith(original.decode()) and text not in seen
        seen.add(text)
        parse_hcl(text)
        edit.restore()
        assert path.read_bytes() == original


def test_profile_phases_are_exclusive_and_follow_generators(tmp_path):
    spec = importlib.util.spec_from_file_location("kapsulint_profile", BENCH.with_name("profile.py"))
    profile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(profile)
    phases = profile.Phases("base")

    def inner():
        return 1

    def items():
        yield timed_inner()
        yield timed_inner()

    timed_inner = phases.timed(inner, "inner")
    timed_items = phases.timed(items, "outer")
    assert phases.timed(timed_inner, "inner")() == 1  # the same phase entered again is charged once
    assert list(timed_items()) == [1, 1]
    assert phases.stack == ["base"]
    phases.close()
    assert phases.calls == {"inner": 3, "outer": 3}  # two resumptions that yield and the one that ends
    assert set(phases.seconds) == {"base", "inner", "outer"}
    assert all(seconds >= 0 for seconds in phases.seconds.values())


def test_profile_script_reports_phases_and_cprofile(tmp_path):
    project = Path(__file__).resolve().parents[1] / "examples" / "production"
    out = tmp_path / "profile.md"
    result = subprocess.run([sys.executable, str(BENCH.with_name("profile.py")), str(project), "--state", "first",
                             "--top", "5", "--markdown", str(out)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout == out.read_text(encoding="utf-8") + "\n"  # the same report, printed
    rows = {line.split(" | ")[0].lstrip("| "): line for line in result.stdout.splitlines() if line.startswith("| ")}
    for phase in ("imports", "discovery", "evaluation", "rules and domain", "reporting", "**wall time of the run**"):
        assert phase in rows, phase
    assert "## cProfile, top 5 by tottime" in result.stdout
    assert "ncalls  tottime" in result.stdout


def _memory_script():
    spec = importlib.util.spec_from_file_location("kapsulint_memory", BENCH.with_name("memory.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_memory_census_counts_parse_data_by_kind_and_shared_parses_once():
    from kapsulint.parsing.sources import SourceFile

    memory = _memory_script()
    expression = {"t": "lit", "v": 1000, "p": (1, 5, 1, 9)}
    data = {"attrs": [{"t": "attribute", "name": "a", "p": (1, 1, 1, 2), "expr": expression,
                       "span": (1, 1, 1, 9)}], "blocks": []}
    files = {"/p/a.tf": SourceFile("/p/a.tf", "config", data),
             "/p/b.tf": SourceFile("/p/b.tf", "config", data),  # the same content: one parse, counted once
             "/p/c.tf": SourceFile("/p/c.tf", "config", error=("broken", 1, 1))}
    census = memory.plain_census(files)
    counts = {kind: count for kind, (_, count) in census.items()}
    assert counts == {"dict of attrs,blocks": 1, "attribute": 1, "lit": 1, "span": 3, "list": 5, "int": 1,
                      "str": 3}
    # three lists are the files' comment lists, two the body's attrs and blocks; 1000 is not a shared
    # int; the strings are the values "attribute", "a" and "lit" (keys are the dicts' own)
    assert census["span"][0] == 3 * sys.getsizeof((1, 1, 1, 2))
    assert census["lit"][0] == sys.getsizeof(expression)


def test_memory_script_reports_resident_memory_by_phase(bench, tmp_path):
    repo = tmp_path / "monorepo"
    stats = bench.generate_monorepo(repo, 2)
    out, readings = tmp_path / "memory.md", tmp_path / "memory.json"
    result = subprocess.run([sys.executable, str(BENCH.with_name("memory.py")), str(repo), "--state", "cold",
                             "--census", "--markdown", str(out), "--json", str(readings)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout == out.read_text(encoding="utf-8") + "\n"  # the same report, printed
    measured = json.loads(readings.read_text(encoding="utf-8"))
    assert measured["project"] is True and measured["peak"] > 0
    phases = [row[0] for row in measured["marks"]]
    assert phases[0] == "interpreter started" and phases[-1] == "report written"
    assert f"files loaded ({stats.files} files)" in phases  # every file of the monorepo read at the start
    assert phases.index("model built (Project.load)") < phases.index("judged (every rule, suppressions, filters)")
    seconds = [row[1] for row in measured["marks"]]
    assert seconds == sorted(seconds)
    for _, _, rss, hwm in measured["marks"]:
        assert 0 < rss <= hwm
    peaks = [row[3] for row in measured["marks"]]
    assert peaks == sorted(peaks)  # a process's peak never falls
    assert {"span", "attribute", "block", "lit"} <= set(measured["parse_data"])
    assert measured["judging_by_type"]["Val"][1] > 0  # judging evaluated values
    for heading in ("## Resident memory of the run's own process, by phase", "## Parse data held at the end of judging",
                    "## What judging added, by type"):
        assert heading in result.stdout


def test_memory_script_says_when_the_results_cache_replayed(tmp_path):
    project = Path(__file__).resolve().parents[1] / "examples" / "production"
    readings = tmp_path / "memory.json"
    result = subprocess.run([sys.executable, str(BENCH.with_name("memory.py")), str(project), "--state", "warm",
                             "--json", str(readings)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    measured = json.loads(readings.read_text(encoding="utf-8"))
    assert measured["project"] is False
    assert "No project was built (the results cache replayed the run)." in result.stdout
    assert "parse_data" not in measured


def _parts_script():
    spec = importlib.util.spec_from_file_location("kapsulint_parts", BENCH.with_name("parts.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_parts_are_grouped_largest_first_into_units_of_at_most_the_given_trees():
    parts = _parts_script()
    given = [({"a": 1}, frozenset(), True), ({f"b{i}": 1 for i in range(5)}, frozenset(), True),
             ({}, frozenset({"x"}), False), ({"c": 1, "d": 1}, frozenset(), True)]
    units = parts.units_of(given, 3)
    assert [[len(trees) for trees, _, _ in unit] for unit in units] == [[5], [2, 1], [0]]
    # the part of five trees is a unit of its own; the files no tree holds weigh one tree
    assert sum(len(unit) for unit in units) == len(given)


def test_parts_script_judges_the_monorepo_by_parts_with_the_whole_findings(bench, tmp_path):
    repo = tmp_path / "monorepo"
    bench.generate_monorepo(repo, 8)
    figures = tmp_path / "parts.json"
    result = subprocess.run([sys.executable, str(BENCH.with_name("parts.py")), str(repo), "--unit-tops", "2",
                             "--json", str(figures)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    measured = json.loads(figures.read_text(encoding="utf-8"))
    assert measured["same_findings"] is True and measured["parts"]["held"] is True
    assert measured["whole"]["findings"] == measured["parts"]["findings"] > 0
    assert measured["parts"]["units"] >= 2 and measured["parts"]["parts"] >= measured["parts"]["units"]
    assert measured["whole"]["peak"] > 0 and measured["parts"]["peak"] > 0
    assert "Same reported findings: yes. Every unit held the trees of its parts: yes." in result.stdout
