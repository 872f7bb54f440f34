"""benchmarks/realworld/run.py: its pure parts (no corpus, no subprocess)."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "realworld" / "run.py"


@pytest.fixture(scope="module")
def run():
    spec = importlib.util.spec_from_file_location("kapsulint_realworld", RUN)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


SHOWN = (
    "# project root: . (the PATH itself)\n"
    "infra/main.tf\tconfig\tok\troot module\n"
    "infra/terraform.tfvars\ttfvars\tok\troot module\n"
    "infra/broken.tf\tconfig\terror\troot module\n"
    "helm/values.yaml\tvalues\tok\tnamed values*.yaml, read by helm_release.ingress (infra/main.tf:1)\n"
    "# left out: vendor/clone\n"
)


def test_show_files_lines_are_path_kind_state(run):
    files = run.shown_files(SHOWN)
    assert files == [
        ("infra/main.tf", "config", "ok"),
        ("infra/terraform.tfvars", "tfvars", "ok"),
        ("infra/broken.tf", "config", "error"),
        ("helm/values.yaml", "values", "ok"),
    ]
    assert Counter(kind for _, kind, _ in files) == {"config": 2, "tfvars": 1, "values": 1}


def _finding(rule: str, path: str, line: int, message: str = "m") -> dict:
    return {"rule": rule, "path": path, "line": line, "column": 1, "message": message}


def test_any_difference_breaks_isolation(run):
    alone = [_finding("KAP301", "main.tf", 3), _finding("KAP401", "main.tf", 9, 'root "."')]
    same = [_finding("KAP301", "main.tf", 3), _finding("KAP401", "main.tf", 9, 'root "owner+name"')]
    assert not run.breaks_isolation(run.isolation(alone, same, "owner+name"))
    silent = run.isolation(alone, same[1:], "owner+name")
    assert [f["rule"] for f in silent["silent_in_tree"]] == ["KAP301"]
    assert run.breaks_isolation(silent)
    extra = run.isolation(alone, [*same, _finding("KAP304", "main.tf", 5)], "owner+name")
    assert run.breaks_isolation(extra) and extra["new_in_tree"][0]["rule"] == "KAP304"
    changed = run.isolation(alone, [same[0], _finding("KAP401", "main.tf", 9, "other")], "owner+name")
    assert run.breaks_isolation(changed) and len(changed["changed"]) == 1


def test_tree_messages_are_read_as_the_repository_alone_writes_them(run):
    assert run.as_alone('root module "a+b" creates x', "a+b") == 'root module "." creates x'
    assert run.as_alone('root module "a+b/infra" creates x', "a+b") == 'root module "infra" creates x'
    assert run.as_alone("module.k.pool.x (root a+b), module.k.pool.x (root a+b/prod)", "a+b") == (
        "module.k.pool.x (root .), module.k.pool.x (root prod)")


def test_tree_findings_are_made_relative_to_the_repository(run):
    found = [_finding("KAP101", "a+b/main.tf", 1), _finding("KAP101", "a+bc/main.tf", 1),
             _finding("KAP101", "c+d/x/main.tf", 2)]
    assert [f["path"] for f in run.relative(found, "a+b")] == ["main.tf"]


def test_manifest_rows(run, tmp_path):
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("repository\tcommit\tpaths\tkind\tnote\n"
                        f"owner/name\t{'a' * 40}\tinfra,helm/values.yaml\tterraform\ta note\n", encoding="utf-8")
    (repo,) = run.read_manifest(manifest)
    assert (repo.slug, repo.paths, repo.kind) == ("owner+name", ["infra", "helm/values.yaml"], "terraform")


def test_audit_counts_only_findings_still_reported(run, tmp_path):
    audit = tmp_path / "audit.tsv"
    audit.write_text("repository\tpath\tline\trule\tverdict\treason\n"
                     "owner/name\tmain.tf\t3\tKAP301\tcorrect\tshared pool\n"
                     "owner/name\tmain.tf\t7\tKAP304\twrong\tno Service\n", encoding="utf-8")
    lint = run.Lint([_finding("KAP301", "main.tf", 3)], "", 1, 0.1)
    verdicts, gone = run.read_audit(audit, {"owner/name": {"alone": lint}})
    assert verdicts == {"KAP301": Counter(correct=1)}
    assert [(g["rule"], g["verdict"]) for g in gone] == [("KAP304", "wrong")]


def test_manifest_categories_are_an_optional_last_column(run, tmp_path):
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text("repository\tcommit\tpaths\tkind\tnote\tcategories\n"
                        f"a/gitops\t{'a' * 40}\t.\tterraform\tnote\targocd,manifests\n"
                        f"b/plain\t{'b' * 40}\t.\tvalues\tnote\t\n", encoding="utf-8")
    gitops, plain = run.read_manifest(manifest)
    assert (gitops.categories, plain.categories) == (["argocd", "manifests"], [])
    old = tmp_path / "old.tsv"
    old.write_text(f"repository\tcommit\tpaths\tkind\tnote\nc/old\t{'c' * 40}\t.\tterraform\tnote\n", encoding="utf-8")
    assert run.read_manifest(old)[0].categories == []


def test_category_table_counts_repositories_findings_and_blind_spots(run):
    repos = [run.Repo("a/gitops", "a" * 40, ["."], "terraform", "", ["argocd", "flux"]),
             run.Repo("b/flux", "b" * 40, ["."], "terraform", "", ["flux"]),
             run.Repo("c/gone", "c" * 40, ["."], "terraform", "", ["flux"])]
    results = {"a/gitops": {"alone": run.Lint([_finding("KAP304", "app.yaml", 4)], "", 0, 0.1)},
               "b/flux": {"alone": run.Lint([_finding("KAP012", "hr.yaml", 2), _finding("KAP302", "hr.yaml", 9)],
                                            "", 0, 0.1)}}
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in run.categories(repos, results)
            if line.startswith("| ") and not line.startswith("| category")}
    # category, what, repositories, linted, findings alone, blind-spot notes, partly unread, which
    assert rows["flux"][2:7] == ["3", "2", "3", "1", "1"]
    assert rows["argocd"][2:7] == ["1", "1", "1", "0", "0"]
    assert rows["helmfile"][2] == "0" and rows["helmfile"][7] == "none found |"
