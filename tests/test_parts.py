"""A lint by parts (kapsulint/lint/parts.py) prints what a lint of the whole project prints: the
same bytes on stdout and stderr and the same exit code, on the benchmark's monorepo after seeded
edits and on projects written to split or not, with the thresholds lowered so that every project
that splits is judged one part at a time (a --no-cache run is always a lint of the whole). Every
fixture case is compared so in tests/test_results_cache.py, whose cached runs judge by parts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fixture_support import case_config, cases, copy_case
from test_results_cache import _change_a_value, _edit_a_values_file, _generate_monorepo, program

from kapsulint.lint import parts, runner


@pytest.fixture
def judged_by_parts(monkeypatch) -> list[int]:
    """Every project that splits is judged by parts, each part alone; the list counts the runs
    that were."""
    monkeypatch.setattr(parts, "MIN_BYTES", 0)
    monkeypatch.setattr(parts, "UNIT_BYTES", 0)
    monkeypatch.setattr(parts, "MIN_GROUPS", 1)
    counted: list[int] = []
    by_parts = runner._run_by_parts

    def counting(settings, reads=None):
        judged, survey = by_parts(settings, reads)
        if judged is not None:
            counted.append(len(judged.findings))
        return judged, survey

    monkeypatch.setattr(runner, "_run_by_parts", counting)
    return counted


def _same_as_whole(project: Path, args: list[str], monkeypatch, env: dict | None = None) -> None:
    """A run (judged by parts where the project splits) prints what --no-cache, a lint of the
    whole, prints."""
    split = program(project, args, monkeypatch, env)
    assert not split.replayed
    whole = program(project, ["--no-cache", *args], monkeypatch, env)
    assert (split.code, split.stdout, split.stderr) == (whole.code, whole.stdout, whole.stderr), args


def test_most_fixture_cases_split(tmp_path, monkeypatch, judged_by_parts):
    """The comparison of every fixture case (tests/test_results_cache.py) is not vacuous: most of a
    sample of the cases are judged by parts."""
    sample = cases()[::15]
    for index, case in enumerate(sample):
        config = case_config(case)
        project = copy_case(case, tmp_path / str(index))
        program(project, ["--format", "json", *config.get("args", [])], monkeypatch, config.get("env"))
    assert len(judged_by_parts) >= len(sample) // 2, (len(judged_by_parts), len(sample))


def test_a_monorepo_after_seeded_edits_judged_by_parts_prints_what_the_whole_prints(tmp_path, monkeypatch,
                                                                                   judged_by_parts):
    root = tmp_path / "monorepo"
    _generate_monorepo(root, 12, seed=28)
    rng = random.Random(28)
    args = ["--format", "json"]
    _same_as_whole(root, args, monkeypatch)
    for _ in range(4):
        rng.choice([_change_a_value, _edit_a_values_file])(root, rng)
        _same_as_whole(root, args, monkeypatch)
    assert len(judged_by_parts) == 5
    assert judged_by_parts[0] > 0


def test_a_module_two_groups_would_share_makes_them_one(tmp_path, monkeypatch, judged_by_parts):
    """Roots that call one module are one part: its findings merge the instances of both."""
    (tmp_path / "modules" / "pool").mkdir(parents=True)
    (tmp_path / "modules" / "pool" / "main.tf").write_text(
        'variable "type" {}\nresource "scaleway_k8s_pool" "p" {\n  cluster_id = "x"\n  name = "p"\n'
        '  node_type = var.type\n  size = 1\n}\n', encoding="utf-8")
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        call = 'module "pool" {\n  source = "../modules/pool"\n  type = "DEV1-M"\n}\n' if name != "c" else ""
        (tmp_path / name / "main.tf").write_text(call + 'resource "scaleway_k8s_cluster" "k" {\n  name = "k"\n'
                                                 '  version = "1.31"\n  cni = "cilium"\n'
                                                 '  delete_additional_resources = true\n}\n', encoding="utf-8")
    _same_as_whole(tmp_path, ["--format", "json"], monkeypatch)
    assert judged_by_parts


def test_a_plan_that_does_not_hold_falls_back_to_the_whole(tmp_path, monkeypatch, judged_by_parts):
    """A module directory reached by a call no survey can read (a cycle) leaves the plan out: the
    whole project is judged, with the same output."""
    for name, other in (("a", "b"), ("b", "a")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "main.tf").write_text(f'module "m" {{\n  source = "../{other}"\n}}\n', encoding="utf-8")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "main.tf").write_text('resource "scaleway_k8s_cluster" "k" {\n  name = "k"\n'
                                            '  delete_additional_resources = true\n}\n', encoding="utf-8")
    _same_as_whole(tmp_path, ["--format", "json"], monkeypatch)
    assert not judged_by_parts


@pytest.mark.parametrize("parsed_by", ["survey", "background"])
def test_a_worker_that_fails_leaves_the_rest_of_its_share_to_the_run(tmp_path, monkeypatch, judged_by_parts,
                                                                    parsed_by):
    """The survey parses the files that may call a module, and a worker beside the groups parses
    the others; either stores each entry as its worker sends it. A worker that dies after some
    records gave those (each whole), and the run parses what it did not send."""
    from test_cache import big_project

    from kapsulint.scan import parallel

    real = parallel.Worker
    started: list[int] = []

    class Dying(real):  # the real worker, killed once its first record came back
        def __init__(self, take, sink=None):
            mine = len(started)

            def first_kills(record):
                if record is not None and not started[mine]:
                    started[mine] += 1
                    assert self._process is not None
                    self._process.kill()
                if sink is not None:
                    sink(record)

            started.append(0)
            super().__init__(take, first_kills)

    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path / "cache"))  # nothing parsed before
    project = big_project(tmp_path / "mono")
    if parsed_by == "survey":  # a file that names a module is parsed by the survey
        for path in project.rglob("*.tf"):
            path.write_text("# no module is called here\n" + path.read_text())
    whole = program(project, ["--no-cache", "--format", "json"], monkeypatch)
    monkeypatch.setattr(parallel, "Worker", Dying)
    split = program(project, ["--format", "json", "--jobs", "2"], monkeypatch)
    assert (split.code, split.stdout, split.stderr) == (whole.code, whole.stdout, whole.stderr)
    assert judged_by_parts
    # the survey starts a worker per job (this process reads), the groups one beside them
    assert started == ([1, 1] if parsed_by == "survey" else [1])


def test_groups_are_judged_while_a_worker_parses_the_next_ones_and_a_heavy_one_with_none(tmp_path, monkeypatch,
                                                                                       running_workers):
    """The survey parses the files that may call a module; the others are parsed by one worker
    while the groups are judged, lightest first. A part heavier than a group's bound is judged
    once every file is parsed and the worker is gone, its memory with it. The findings are those
    of a lint of the whole."""
    from kapsulint.scan import loader

    root = tmp_path / "monorepo"
    _generate_monorepo(root, 100, seed=31)
    total = sum(path.stat().st_size for path in root.rglob("*") if path.is_file())
    monkeypatch.setattr(parts, "MIN_BYTES", 0)
    monkeypatch.setattr(parts, "UNIT_BYTES", total // 8)
    monkeypatch.setattr(loader, "PARALLEL_THRESHOLD", 0)
    judged: list[tuple[bool, int]] = []  # (heavier than the bound, workers running) per group
    judge_unit = runner._judge_unit

    def judging(settings, unit, *rest):
        judged.append((unit.weight > parts.UNIT_BYTES, len(running_workers)))
        return judge_unit(settings, unit, *rest)

    monkeypatch.setattr(runner, "_judge_unit", judging)
    _same_as_whole(root, ["--format", "json", "--jobs", "2"], monkeypatch)
    light = [workers for heavy, workers in judged[:-1] if not heavy]  # the last is the rest
    assert len(light) >= 4 and light[0] == 1  # the first groups are judged beside the worker
    assert [workers for heavy, workers in judged if heavy] == [0]
    assert judged[-1] == (False, 0)


def test_the_plan_groups_trees_that_share_a_module_and_gives_each_file_to_the_module_above_it():
    from kapsulint.model.project import Survey
    from kapsulint.scan.discovery import Discovered

    files = {"/r/a/main.tf": "config", "/r/b/main.tf": "config", "/r/c/main.tf": "config",
             "/r/m/main.tf": "config", "/r/a/values/x.yaml": "values", "/r/c/terraform.tfvars": "tfvars",
             "/r/k8s/values.yaml": "values"}
    entries = list(files.items())
    calls = {"/r/a/main.tf": ["../m", "registry.example/x/y/z"], "/r/b/main.tf": ["../m"]}
    survey = Survey(Discovered(files), entries, {}, calls, dict.fromkeys(files, 100))
    found = parts.plan(survey, 0)
    assert found is not None
    # lightest first: c reads its main.tf and its tfvars, a and b their files and m's
    assert [(unit.tops, unit.weight) for unit in found.units] == [(frozenset({"/r/c"}), 200),
                                                                  (frozenset({"/r/a", "/r/b"}), 400)]
    assert found.units[1].directories == frozenset({"/r/a", "/r/b", "/r/m"})
    assert found.units[1].files == frozenset({"/r/a/values/x.yaml"})
    assert found.units[0].files == frozenset({"/r/c/terraform.tfvars"})
    assert found.rest == frozenset({"/r/k8s/values.yaml"})
    deferred = [(path, kind, b"", "") for path, kind in entries]
    assert [[file[0] for file in segment] for segment in parts.segments(found, deferred)] == [
        ["/r/c/main.tf", "/r/c/terraform.tfvars"],
        ["/r/a/main.tf", "/r/b/main.tf", "/r/m/main.tf", "/r/a/values/x.yaml"],
        ["/r/k8s/values.yaml"],
    ]  # each group's files in the order it is judged, then the rest's
    assert len(parts.plan(survey, 10_000).units) == 1  # parts grouped up to the bound
    through_b = Survey(Discovered(files), entries, {}, {**calls, "/r/m/main.tf": ["../a"]}, {})
    assert parts.plan(through_b, 0).units[0].tops == frozenset({"/r/b", "/r/c"})  # b reaches m, then a
    cycle = Survey(Discovered(files), entries, {}, {"/r/a/main.tf": ["../m"], "/r/m/main.tf": ["../a"]}, {})
    assert parts.plan(cycle, 0) is None  # a and m call each other, and nothing else calls them


def test_the_language_server_judges_a_folder_by_parts_as_it_judges_it_whole(tmp_path, monkeypatch):
    """A folder's first lint by parts gives the server the judgement (findings, comments, kinds)
    and the partition a lint of the whole gives, and an edit is then judged from that partition."""
    from kapsulint.cli.server.folders import Folder

    root = tmp_path / "monorepo"
    _generate_monorepo(root, 8, seed=29)

    splits: list[bool] = []
    by_parts = runner._run_by_parts

    def counting(settings, reads=None):
        judged, survey = by_parts(settings, reads)
        splits.append(judged is not None and judged.split is not None)
        return judged, survey

    def first_lint(split: bool):
        with monkeypatch.context() as scoped:
            if split:
                scoped.setattr(parts, "MIN_BYTES", 0)
                scoped.setattr(parts, "UNIT_BYTES", 0)
                scoped.setattr(runner, "_run_by_parts", counting)
            folder = Folder(str(root))
            return folder, folder.lint({})

    whole_folder, whole = first_lint(False)
    split_folder, split = first_lint(True)
    assert splits == [True]
    assert whole_folder.basis is not None and split_folder.basis is not None
    assert _shown(split.findings) == _shown(whole.findings)
    assert split.comments == whole.comments and split.kinds == whole.kinds
    assert [(part.trees, part.files) for part in split_folder.basis.partition.parts] == \
        [(part.trees, part.files) for part in whole_folder.basis.partition.parts]
    cluster = next(path for path in split.kinds if path.endswith("cluster.tf"))
    with open(cluster, encoding="utf-8") as handle:
        edited = {cluster: handle.read().replace("auto_upgrade", "auto_upgrade_x", 1)}
    assert _shown(split_folder.lint(edited).findings) == _shown(whole_folder.lint(edited).findings)


def _shown(findings: dict) -> dict:
    """What a diagnostic and its quick fix show of each finding, by path."""
    return {path: [(f.rule, tuple(f.loc), f.message, f.severity, f.instances, f.related, f.fix,
                    None if f.autofix is None else (f.autofix.description, f.autofix.edits)) for f in found]
            for path, found in findings.items()}


def test_a_project_judged_whole_is_walked_once(tmp_path, monkeypatch):
    """The survey's discovery is the run's: a project too small to split is not walked again."""
    from kapsulint.model import project as project_module

    (tmp_path / "main.tf").write_text('resource "scaleway_k8s_cluster" "k" {\n  name = "k"\n'
                                      '  delete_additional_resources = true\n}\n', encoding="utf-8")
    walks: list[str] = []
    real_discover = project_module.discover

    def counted(root, *args, **kwargs):
        walks.append(str(root))
        return real_discover(root, *args, **kwargs)

    monkeypatch.setattr(project_module, "discover", counted)
    run = program(tmp_path, ["--format", "json"], monkeypatch)
    assert run.code == 1 and b"KAP101" in run.stdout
    assert walks == [str(tmp_path)]


def test_a_sensitive_value_of_one_group_is_masked_in_the_findings_of_another(tmp_path, monkeypatch,
                                                                            judged_by_parts):
    """Masking uses the sensitive values of the whole run, whichever group found them: a text
    that is sensitive in one root is masked where another root's finding quotes it."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "main.tf").write_text('variable "version_secret" {\n  default   = "1.29.1"\n'
                                            '  sensitive = true\n}\n', encoding="utf-8")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "main.tf").write_text(
        'resource "scaleway_k8s_cluster" "k" {\n  name    = "k"\n  version = "1.29.1"\n  cni     = "cilium"\n'
        '  auto_upgrade {\n    enable                        = true\n    maintenance_window_start_hour = 3\n'
        '    maintenance_window_day        = "any"\n  }\n  delete_additional_resources = false\n}\n', encoding="utf-8")
    _same_as_whole(tmp_path, ["--format", "json"], monkeypatch)
    assert judged_by_parts
    run = program(tmp_path, ["--format", "json", "--select", "KAP102"], monkeypatch)
    assert b"(sensitive value)" in run.stdout and b"1.29.1" not in run.stdout
