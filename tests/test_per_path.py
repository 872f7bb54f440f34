"""[[per-path]] settings: globs that ignore, select or set the severity of rules where they match."""

from __future__ import annotations

import shutil

from fixture_support import FIXTURES, lint

from kapsulint.lint.runner import path_matches

CASE = FIXTURES / "KAP113" / "fires-every-pool-empty" / "main.tf"


def _project(tmp_path, config: str):
    for folder in ("infra", "tests/ci", "examples/demo"):
        (tmp_path / folder).mkdir(parents=True)
        shutil.copy(CASE, tmp_path / folder / "main.tf")
    (tmp_path / ".kapsulint.toml").write_text(config, encoding="utf-8")
    return tmp_path


def _by_folder(findings: list[dict]) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for f in findings:
        found.setdefault(f["path"].split("/main.tf")[0], {})[f["rule"]] = f["severity"]
    return found


def test_entries_ignore_select_and_set_severity_under_their_globs(tmp_path, monkeypatch):
    project = _project(tmp_path, """
[[per-path]]
paths = ["tests/"]
ignore = ["KAP401"]

[[per-path]]
paths = ["**/demo/*"]
select = ["KAP1"]
severity = { KAP113 = "note" }
""")
    code, findings, stderr = lint(project, [], monkeypatch)
    assert code == 1, stderr
    found = _by_folder(findings)
    assert found["infra"]["KAP401"] == "error" and found["infra"]["KAP113"] == "error"
    assert "KAP401" not in found["tests/ci"] and found["tests/ci"]["KAP113"] == "error"
    assert set(found["examples/demo"]) <= {f"KAP1{n:02d}" for n in range(100)}
    assert found["examples/demo"]["KAP113"] == "note"


def test_a_later_entry_sets_the_severity_an_earlier_one_set(tmp_path, monkeypatch):
    project = _project(tmp_path, """
[[per-path]]
paths = ["examples"]
severity = { KAP113 = "warning" }

[[per-path]]
paths = ["examples/demo/main.tf"]
severity = { mutualized-cluster-without-nodes = "note" }
""")
    _, findings, _ = lint(project, [], monkeypatch)
    assert _by_folder(findings)["examples/demo"]["KAP113"] == "note"


def test_bad_entries_are_configuration_errors_that_name_them(tmp_path, monkeypatch):
    for text, words in (
        ('[[per-path]]\npaths = ["tests/"]\nignor = ["KAP401"]\n', "unknown key 'ignor'"),
        ('[[per-path]]\nignore = ["KAP401"]\n', "`paths` must be a glob"),
        ('[[per-path]]\npaths = ["tests/"]\n', "give `ignore`, `select` or `severity`"),
        ('[[per-path]]\npaths = ["tests/"]\nignore = ["KAP999"]\n', "unknown rule"),
        ('[[per-path]]\npaths = ["tests/"]\nseverity = { KAP401 = "low" }\n', "must be error, warning or note"),
        ('per-path = ["tests/"]\n', "entry 1 must be a table"),
    ):
        folder = tmp_path / str(abs(hash(text)))
        folder.mkdir()
        code, _, stderr = lint(_project(folder, text), [], monkeypatch)
        assert code == 2 and "[[per-path]]" in stderr and words in stderr, (text, stderr)


def test_globs_cover_directories_and_a_leading_double_star_matches_at_the_root():
    assert path_matches("tests/ci/main.tf", "tests/")
    assert path_matches("tests/ci/main.tf", "tests")
    assert path_matches("examples/main.tf", "**/examples/*")
    assert path_matches("a/examples/b/main.tf", "**/examples/*")
    assert not path_matches("infra/main.tf", "tests/")
    assert not path_matches("contests/main.tf", "tests")


DEMO_ROOT = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "demo"
  version                     = "1.35"
  cni                         = "cilium"
  delete_additional_resources = true
}

resource "scaleway_k8s_pool" "gpu" {
  cluster_id = scaleway_k8s_cluster.main.id
  node_type  = "L4-1-24G"
  size       = 50
}

provider "scaleway" {
  region = "fr-par"
}
"""


def _readme_recipes() -> str:
    readme = (FIXTURES.parent / "README.md").read_text(encoding="utf-8")
    after = readme.split("Recipes:\n\n```toml\n", 1)[1]
    return after.split("```\n", 1)[0]


def test_the_readme_recipes_quiet_what_tests_examples_and_demos_choose_and_keep_the_rest(tmp_path, monkeypatch):
    folders = ("infra", "modules/cluster/tests/ci", "test", "examples/basic", "apps/demos/chat")
    for folder in folders:
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "main.tf").write_text(DEMO_ROOT, encoding="utf-8")
    (tmp_path / ".kapsulint.toml").write_text(_readme_recipes(), encoding="utf-8")
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert code == 1, stderr
    found = _by_folder(findings)
    chosen = {"KAP101", "KAP106", "KAP214"}
    assert chosen | {"KAP104", "KAP401"} <= set(found["infra"])
    for tests in ("modules/cluster/tests/ci", "test"):
        assert not (chosen | {"KAP401"}) & set(found[tests]) and found[tests]["KAP104"] == "error"
    assert not chosen & set(found["apps/demos/chat"])
    assert found["apps/demos/chat"]["KAP104"] == "error" and found["apps/demos/chat"]["KAP401"] == "error"
    assert set(found["examples/basic"].values()) == {"note"} and chosen <= set(found["examples/basic"])
