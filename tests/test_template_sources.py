"""Template sources: ``*.j2.tf`` and its siblings are inputs of a generator, left out by default.

A file named ``network.j2.tf`` holds Jinja (``{% if %}``, ``{{ name }}``) that a generator renders
into the Terraform the owner applies; read as it is, it is KAP001 on every line Jinja touches. As
Ruff and TFLint leave out what their users never give to the tool, kapsulint leaves such files out,
says so in ``--show-files`` and with a KAP012 note (tests/test_templated_values.py), and reads them
when they are named as a PATH or when the configuration key ``template-files`` no longer matches them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint, main

PLAIN = """\
resource "scaleway_vpc_private_network" "nodes" {
  name = "nodes"
}
"""

JINJA = """\
resource "scaleway_vpc_private_network" "extra" {
{% if production %}
  name = "{{ network_name }}"
{% endif %}
}
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _project(tmp_path: Path, template: str = "network.j2.tf", config: str = "") -> Path:
    project = tmp_path / "project"
    (project / "infra").mkdir(parents=True)
    (project / ".kapsulint.toml").write_text(textwrap.dedent(config), encoding="utf-8")
    (project / "infra" / "main.tf").write_text(PLAIN, encoding="utf-8")
    (project / "infra" / template).write_text(JINJA, encoding="utf-8")
    return project


@pytest.mark.parametrize("name", ["network.j2.tf", "network.jinja.tf", "network.jinja2.tf", "network.tmpl.tf",
                                  "network.tpl.tf", "network.j2.tofu", "network.j2.tf.json"])
def test_template_sources_are_left_out_by_default(tmp_path, monkeypatch, name):
    project = _project(tmp_path, name)
    code, findings, _ = lint(project, ["--select", "KAP001"], monkeypatch)
    assert (code, findings) == (0, [])


def test_show_files_says_why_a_template_source_is_left_out(tmp_path, monkeypatch):
    project = _project(tmp_path)
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["--show-files"], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert any(line.startswith("infra/main.tf\tconfig\tok\t") for line in lines)
    assert ("# left out: infra/network.j2.tf (a template source, matched by template-files *.j2.tf; "
            "name it as a PATH to lint it)") in lines
    assert not any(line.startswith("infra/network.j2.tf\t") for line in lines)


def test_a_template_source_named_as_a_path_is_read(tmp_path, monkeypatch):
    project = _project(tmp_path)
    code, findings, _ = lint(project, ["--select", "KAP001", "infra/network.j2.tf"], monkeypatch)
    assert code == 1
    assert [(f["path"], f["line"], f["column"], f["rule"]) for f in findings] == [
        ("infra/network.j2.tf", 2, 1, "KAP001")]


def test_template_files_empty_reads_every_file(tmp_path, monkeypatch):
    project = _project(tmp_path, config='template-files = []\n')
    code, findings, _ = lint(project, ["--select", "KAP001"], monkeypatch)
    assert code == 1
    assert [(f["path"], f["line"], f["column"]) for f in findings] == [("infra/network.j2.tf", 2, 1)]


def test_template_files_takes_patterns_of_the_project(tmp_path, monkeypatch):
    project = _project(tmp_path, "network.gen.tf", config='template-files = ["*.gen.tf"]\n')
    code, findings, _ = lint(project, ["--select", "KAP001"], monkeypatch)
    assert (code, findings) == (0, [])
    (project / "infra" / "other.j2.tf").write_text(JINJA, encoding="utf-8")
    code, findings, _ = lint(project, ["--select", "KAP001"], monkeypatch)
    assert [f["path"] for f in findings] == ["infra/other.j2.tf"]


def test_template_files_must_be_a_list_of_strings(tmp_path, monkeypatch):
    project = _project(tmp_path, config='template-files = "*.j2.tf"\n')
    code, _, stderr = lint(project, [], monkeypatch)
    assert code == 2
    assert "template-files" in stderr
