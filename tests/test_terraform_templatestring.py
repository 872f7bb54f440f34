"""``templatestring`` renders the text of the reference it is given, with only the names it is
given (https://developer.hashicorp.com/terraform/language/functions/templatestring); answers
below are Terraform 1.11.4's, as recorded in ``oracle/eval/modules/templatestring``."""

from __future__ import annotations

from pathlib import Path

from oracle.compare import evaluate_directory


def test_templatestring_renders_a_referenced_template(tmp_path: Path) -> None:
    (tmp_path / "main.tf").write_text(
        'locals {\n  tpl = "Hi $${name}!%%{ for p in ports } $${p}%%{ endfor }"\n  bad = "$${"\n}\n',
        encoding="utf-8",
    )
    answers = evaluate_directory(tmp_path, [
        'templatestring(local.tpl, { name = "k", ports = [80, 443] })',
        'templatestring(local.tpl, { name = null, ports = [] })',
        "templatestring(local.bad, {})",
        'templatestring("$${x}", { x = 1 })',
    ])
    assert answers[0]["value"] == "Hi k! 80 443" and answers[0]["type"] == "string"
    # Terraform fails on these: kapsulint gives Unknown, never a value
    assert all(answer.get("unknown") for answer in answers[1:]), answers
