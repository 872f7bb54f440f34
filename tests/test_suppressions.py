"""Inline suppressions through the command line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from fixture_support import lint

# KAP101 fires on line 5 (column 33); KAP002 and KAP003 are selected so misuse shows up.
SELECT = ["--select", "KAP101,KAP002,KAP003"]


def cluster(name: str = "main", before: str = "", header: str = "", inside: str = "", on_flag: str = "") -> str:
    """A cluster block whose `delete_additional_resources = true` fires KAP101."""
    trailing = f" {header}" if header else ""
    flag = f" {on_flag}" if on_flag else ""
    return (
        f"{before}"
        f'resource "scaleway_k8s_cluster" "{name}" {{{trailing}\n'
        f'  name                        = "{name}"\n'
        f'  version                     = "1.35.2"\n'
        f'  cni                         = "cilium"\n'
        f"{inside}"
        f"  delete_additional_resources = true{flag}\n"
        f"}}\n"
    )


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n") if text.startswith("\n") else text, encoding="utf-8")
    return directory


def where(findings: list[dict]) -> list[tuple[str, str, int, int]]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)


def test_unsuppressed_baseline(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster()})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP101", "main.tf", 5, 33)]


def test_trailing_comment_covers_its_own_line(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] disposable cluster")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_trailing_comment_does_not_cover_the_next_line(tmp_path, monkeypatch):
    text = cluster().replace('cni                         = "cilium"',
                             'cni                         = "cilium" # kapsulint: ignore[KAP101] wrong line')
    write(tmp_path, {"main.tf": text})
    code, findings, _ = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP003", "main.tf", 4, 42), ("KAP101", "main.tf", 5, 33)]


def test_own_line_comment_covers_the_next_non_comment_line(tmp_path, monkeypatch):
    inside = "  # kapsulint: ignore[KAP101] disposable cluster\n  # another comment\n\n"
    write(tmp_path, {"main.tf": cluster(inside=inside)})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_own_line_comment_covers_only_the_next_line(tmp_path, monkeypatch):
    text = cluster().replace('  cni ', '  # kapsulint: ignore[KAP101] covers the cni line only\n  cni ')
    write(tmp_path, {"main.tf": text})
    code, findings, _ = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP003", "main.tf", 4, 3), ("KAP101", "main.tf", 6, 33)]


def test_comment_on_block_header_line_covers_the_block(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(header="# kapsulint: ignore[KAP101] disposable cluster")
                     + "\n" + cluster("other")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1, stderr
    # The second cluster (lines 8-13) is not covered.
    assert where(findings) == [("KAP101", "main.tf", 12, 33)]


def test_comment_just_above_block_header_covers_the_block(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(before="# kapsulint: ignore[KAP101] disposable cluster\n")
                     + "\n" + cluster("other")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP101", "main.tf", 13, 33)]


def test_block_suppression_covers_every_rule_and_line_in_the_block(tmp_path, monkeypatch):
    text = cluster(before="# kapsulint: ignore[KAP1] a throwaway cluster\n").replace('"1.35.2"', '"1.35"')
    write(tmp_path, {"main.tf": text})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP1,KAP003"], monkeypatch)
    assert (code, findings) == (0, []), stderr
    code, findings, _ = lint(tmp_path, ["--select", "KAP1", "--ignore", "KAP003"], monkeypatch)
    assert code == 0 and findings == []
    # Without the suppression, more than one KAP1xx rule fires inside the block.
    write(tmp_path, {"main.tf": text.split("\n", 1)[1]})
    code, findings, _ = lint(tmp_path, ["--select", "KAP1"], monkeypatch)
    assert code == 1 and len({f["rule"] for f in findings}) >= 2


def test_ignore_file_before_the_first_token_covers_the_file(tmp_path, monkeypatch):
    before = "# Copyright header\n\n# kapsulint: ignore-file[KAP101] every cluster here is disposable\n\n"
    write(tmp_path, {"main.tf": cluster(before=before) + "\n" + cluster("other"),
                     "other.tf": cluster("third")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1, stderr
    assert where(findings) == [("KAP101", "other.tf", 5, 33)]  # only its own file


def test_ignore_file_after_the_first_token_does_not_cover_the_file(tmp_path, monkeypatch):
    text = cluster() + "\n" + cluster("other") + "\n# kapsulint: ignore-file[KAP101] too late\n"
    write(tmp_path, {"main.tf": text})
    code, findings, _ = lint(tmp_path, [*SELECT, "--extend-select", "KAP009"], monkeypatch)
    assert code == 1
    # It suppresses nothing and says so (KAP009), rather than passing for an unused suppression.
    assert where(findings) == [("KAP009", "main.tf", 15, 1), ("KAP101", "main.tf", 5, 33),
                               ("KAP101", "main.tf", 12, 33)]


def test_ignore_file_after_the_first_token_never_covers_the_block_below(tmp_path, monkeypatch):
    text = cluster() + "\n# kapsulint: ignore-file[KAP101] too late\n" + cluster("other")
    write(tmp_path, {"main.tf": text})
    code, findings, _ = lint(tmp_path, [*SELECT, "--extend-select", "KAP009"], monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP009", "main.tf", 8, 1), ("KAP101", "main.tf", 5, 33),
                               ("KAP101", "main.tf", 13, 33)]


@pytest.mark.parametrize("comment, lack", [
    ("# kapsulint: ignore KAP101 no brackets", "the rules in brackets"),
    ("# kapsulint ignore[KAP101] no colon", "followed by a colon"),
    ("# kapsulint: ignroe[KAP101] typo", "`ignore` or `ignore-file` after `kapsulint:`"),
    ("// Kapsulint: ignore[KAP101] capital", "followed by a colon (lowercase)"),
])
def test_malformed_directive_is_reported_at_the_comment_and_suppresses_nothing(tmp_path, monkeypatch, comment,
                                                                                 lack):
    write(tmp_path, {"main.tf": cluster(on_flag=comment)})
    code, findings, _ = lint(tmp_path, [*SELECT, "--extend-select", "KAP009"], monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP009", "main.tf", 5, 38), ("KAP101", "main.tf", 5, 33)]
    message = next(f["message"] for f in findings if f["rule"] == "KAP009")
    assert "`kapsulint: ignore[RULE, ...] reason`" in message and lack in message


def test_prose_mentioning_kapsulint_is_not_a_directive(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(before="# kapsulint reports this cluster, on purpose\n")})
    code, findings, _ = lint(tmp_path, [*SELECT, "--extend-select", "KAP009"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 6, 33)]


def test_ids_prefixes_and_names_select_rules(tmp_path, monkeypatch):
    for selector in ("KAP101", "kap101", "KAP1", "KAP", "delete-additional-resources", "KAP999, KAP101"):
        write(tmp_path, {"main.tf": cluster(on_flag=f"# kapsulint: ignore[{selector}] reason")})
        code, findings, stderr = lint(tmp_path, ["--select", "KAP101,KAP003"], monkeypatch)
        assert (code, findings) == (0, []), (selector, findings, stderr)
    for selector in ("KAP2", "autohealing-disabled", "KAP1010"):
        write(tmp_path, {"main.tf": cluster(on_flag=f"# kapsulint: ignore[{selector}] reason")})
        code, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
        assert [f["rule"] for f in findings] == ["KAP101"], selector


def test_several_selectors_in_one_comment(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP201, delete-additional-resources] x")})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101,KAP002"], monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_double_slash_comments(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="// kapsulint: ignore[KAP101] disposable"),
                     "b.tf": cluster("b", before="// kapsulint: ignore[KAP101] disposable\n"),
                     "c.tf": "// kapsulint: ignore-file[KAP101] all of it\n" + cluster("c")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_hash_inside_a_string_is_not_a_suppression(tmp_path, monkeypatch):
    text = cluster().replace(
        "delete_additional_resources = true",
        'delete_additional_resources = "# kapsulint: ignore[KAP101]" != "" ? true : false',
    ).replace('name                        = "main"', 'name = "# kapsulint: ignore-file[KAP101]"')
    write(tmp_path, {"main.tf": text})
    code, findings, _ = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1
    assert [(f["rule"], f["line"]) for f in findings] == [("KAP101", 5)]


def test_hash_inside_a_heredoc_is_not_a_suppression(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": """
        resource "helm_release" "ingress" {
          name       = "ingress"
          chart      = "kubernetes-ingress"
          repository = "https://haproxytech.github.io/helm-charts"
          version    = "1.44.0"
          values = [<<-EOT
            # kapsulint: ignore-file[KAP302] in a heredoc
            controller:
              config:
                # kapsulint: ignore[KAP302] in a heredoc
                proxy-protocol: "0.0.0.0/0"
          EOT
          ]
        }
        """})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP302,KAP002,KAP003"], monkeypatch)
    assert code == 1, stderr
    assert [(f["rule"], f["line"]) for f in findings] == [("KAP302", 11)]


def test_until_date_is_accepted(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] until=2999-12-31 rebuilt next year")})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert (code, findings) == (0, []), stderr


def test_unknown_selector_gives_kap002_at_the_comment(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP1O1] typo")
                     + "\n# kapsulint: ignore[no-such-rule]\n" + cluster("other")})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP002"], monkeypatch)
    assert code == 1
    assert where(findings) == [
        ("KAP002", "main.tf", 5, 38),
        ("KAP002", "main.tf", 8, 1),
        ("KAP101", "main.tf", 5, 33),
        ("KAP101", "main.tf", 13, 33),
    ]
    kap002 = [f for f in findings if f["rule"] == "KAP002"]
    assert "KAP1O1" in kap002[0]["message"] and "no-such-rule" in kap002[1]["message"]
    assert kap002[0]["severity"] == "warning"
    assert kap002[0]["end_column"] > kap002[0]["column"]


def test_unused_suppression_gives_kap003_at_the_comment(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] needed").replace(
        '"cilium"', '"cilium"  # kapsulint: ignore[delete-additional-resources] not needed')})
    code, findings, _ = lint(tmp_path, SELECT, monkeypatch)
    assert code == 1
    assert where(findings) == [("KAP003", "main.tf", 4, 43)]
    assert "delete-additional-resources" in findings[0]["message"]


def test_kap003_only_for_rules_that_ran(tmp_path, monkeypatch):
    text = cluster(on_flag="# kapsulint: ignore[KAP101] needed").replace(
        '"cilium"', '"cilium" # kapsulint: ignore[KAP201] no pool here')
    write(tmp_path, {"main.tf": text})
    code, findings, stderr = lint(tmp_path, SELECT, monkeypatch)
    assert (code, findings) == (0, []), stderr
    # A suppression of a rule that ran and matched nothing is reported.
    code, findings, _ = lint(tmp_path, ["--select", "KAP1,KAP2,KAP003"], monkeypatch)
    assert ("KAP003", "main.tf", 4, 42) in where(findings)
    # Ignoring KAP003 silences it.
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP2", "--ignore", "KAP003"], monkeypatch)
    assert all(f["rule"] != "KAP003" for f in findings)


def test_suppressed_findings_do_not_fail_the_run(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] disposable")})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert (code, findings) == (0, [])


def test_yaml_comments_in_a_values_file(tmp_path, monkeypatch):
    select = ["--select", "KAP302,KAP002,KAP003"]
    write(tmp_path, {"values.yaml": 'controller:\n  config:\n    proxy-protocol: "0.0.0.0/0"\n'})
    code, findings, _ = lint(tmp_path, select, monkeypatch)
    assert where(findings) == [("KAP302", "values.yaml", 3, 21)]
    cases = {
        "trailing": 'controller:\n  config:\n    proxy-protocol: "0.0.0.0/0" # kapsulint: ignore[KAP302] lab\n',
        "own line": 'controller:\n  config:\n    # kapsulint: ignore[proxy-protocol-trusts-any-source] lab\n'
                    '    proxy-protocol: "0.0.0.0/0"\n',
        "file": '# kapsulint: ignore-file[KAP3] lab cluster\ncontroller:\n  config:\n'
                '    proxy-protocol: "0.0.0.0/0"\n',
    }
    for label, text in cases.items():
        write(tmp_path, {"values.yaml": text})
        code, findings, stderr = lint(tmp_path, select, monkeypatch)
        assert (code, findings) == (0, []), (label, findings, stderr)
    # A `#` inside a quoted YAML scalar is not a comment.
    write(tmp_path, {"values.yaml": 'controller:\n  config:\n    proxy-protocol: "0.0.0.0/0"\n'
                                    '    note: "x # kapsulint: ignore-file[KAP302]"\n'})
    code, findings, _ = lint(tmp_path, select, monkeypatch)
    assert where(findings) == [("KAP302", "values.yaml", 3, 21)]
    # Unknown and unused selectors in YAML comments are reported at the comment.
    write(tmp_path, {"values.yaml": 'controller:  # kapsulint: ignore[KAP3O2]\n'
                                    '  replicaCount: 2  # kapsulint: ignore[KAP302]\n'})
    code, findings, _ = lint(tmp_path, select, monkeypatch)
    assert where(findings) == [("KAP002", "values.yaml", 1, 14), ("KAP003", "values.yaml", 2, 20)]


def test_an_expired_suppression_brings_its_finding_back_with_kap004(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] until=2000-01-31 scripted cleanup")})
    _, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP003,KAP004"], monkeypatch)
    assert where(findings) == [("KAP004", "main.tf", 5, 38), ("KAP101", "main.tf", 5, 33)]


def test_a_suppression_until_a_future_date_still_silences(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(on_flag="# kapsulint: ignore[KAP101] until=2999-12-31 scripted cleanup")})
    _, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP003,KAP004"], monkeypatch)
    assert findings == []


def test_no_inline_ignores_reports_everything_and_judges_no_suppression(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": cluster(before="# kapsulint: ignore[KAP201] not a pool\n",
                                        on_flag="# kapsulint: ignore[KAP101] audited")})
    _, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP201,KAP003", "--no-inline-ignores"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 6, 33)]
