"""Parse conformance: kapsulint accepts exactly the HCL files Terraform accepts.

Every file under ``tests/oracle/parse/`` has the verdict ``terraform fmt -check`` gave for it,
recorded in ``verdicts.json`` by ``tests/oracle/record_parse.py`` (Terraform is not needed here).
Each file goes through the loader's own parse function: a file Terraform parses must parse (no
KAP001, no internal error); a file Terraform rejects must be a located syntax error (KAP001).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kapsulint.parsing.sources import parse_content

CORPUS = Path(__file__).parent / "oracle" / "parse"
RECORDED = json.loads((CORPUS / "verdicts.json").read_text(encoding="utf-8"))


def kapsulint_verdict(path: Path) -> tuple[bool, str]:
    """(parses, detail) as the loader sees the file."""
    result = parse_content(str(path), "config", path.read_bytes())
    if result.get("internal"):
        return False, f"internal error: {result['internal']}"
    if result["error"] is not None:
        message, line, column = result["error"]
        assert line >= 1 and column >= 1, result["error"]
        return False, f"{line}:{column}: {message}"
    return True, ""


def test_recorded_with_terraform_1_11() -> None:
    assert RECORDED["terraform_version"].startswith("1.11.")
    assert len(RECORDED["verdicts"]) >= 1000
    assert set(RECORDED["verdicts"]) == {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*.tf")}


# No deviation is kept: the recorded files nest at most 5,000 levels (1,000, 2,000 and 5,000 of each
# construct), within the documented limit (README, "Known limits"; kapsulint/parsing/hcl.py).


@pytest.mark.parametrize("group", ["hand", "mutated", "generated"])
def test_verdicts_identical(group: str) -> None:
    """One test per group, listing every differing file (one test per file would cost seconds)."""
    differing = []
    for name, recorded in sorted(RECORDED["verdicts"].items()):
        if not name.startswith(group + "/"):
            continue
        parses, detail = kapsulint_verdict(CORPUS / name)
        assert not detail.startswith("internal error"), f"{name}: {detail}"
        if parses != recorded["parses"]:
            terraform = "parses" if recorded["parses"] else f"{recorded.get('line')}: {recorded['message']}"
            differing.append(f"{name}: terraform {terraform}; kapsulint {'parses' if parses else detail}")
    assert not differing, f"{len(differing)} verdicts differ:\n" + "\n".join(differing)


TEMPLATES = json.loads((CORPUS / "templates.json").read_text(encoding="utf-8"))


def _render(node: dict, scope: dict) -> object:
    """Just enough of template evaluation for the recorded templates: literals, tuples, names,
    ``if`` and ``for`` directives. What this test checks is the shape the parser gives them."""
    kind = node["t"]
    if kind == "lit":
        return node["v"]
    if kind == "tuple":
        return [_render(item, scope) for item in node["items"]]
    if kind == "var":
        return scope[node["name"]]
    if kind == "tmpl":
        return _render_parts(node["parts"], scope)
    raise AssertionError(f"no {kind} node in the recorded templates")


def _render_parts(parts: list, scope: dict) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part["t"] == "tif":
            out.append(_render_parts(part["then"] if _render(part["cond"], scope) else part["else"], scope))
        elif part["t"] == "tfor":
            for item in _render(part["coll"], scope):
                out.append(_render_parts(part["body"], {**scope, part["vv"]: item}))
        else:
            out.append(str(_render(part, scope)))
    return "".join(out)


def test_templates_render_as_terraform_renders_them() -> None:
    """Heredoc indentation (``<<-``) and strip markers, which the parser applies."""
    from kapsulint.parsing.hcl import parse_hcl

    assert TEMPLATES["terraform_version"] == RECORDED["terraform_version"]
    differing = []
    for name, case in sorted(TEMPLATES["templates"].items()):
        node = parse_hcl(f"x = {case['expression']}\n")["body"]["attrs"][0]["expr"]
        value = _render(node, {})
        if value != case["value"]:
            differing.append(f"{name}: terraform {case['value']!r}, kapsulint {value!r}")
    assert not differing, "\n".join(differing)


def test_a_flush_heredoc_keeps_positions_and_says_what_it_removed() -> None:
    from kapsulint.parsing.hcl import parse_hcl

    node = parse_hcl('x = <<-EOT\n    a: ${v}\n    b: 1\n    EOT\n')["body"]["attrs"][0]["expr"]
    assert node["heredoc"] == {"line": 2, "indent": 4}
    assert node["parts"][0] == "a: "
    assert node["parts"][1] == {"t": "var", "name": "v", "p": (2, 10, 2, 11)}


def test_number_literals_keep_their_text() -> None:
    from kapsulint.parsing.hcl import parse_hcl

    attrs = parse_hcl("a = 0.1\nb = -1.5e-3\nc = 1e20\nd = 7\ne = - -2.50\n")["body"]["attrs"]
    assert [(a["expr"]["v"], a["expr"].get("num")) for a in attrs] == [
        (0.1, "0.1"), (-0.0015, "-1.5e-3"), (1e20, "1e20"), (7, None), (2.5, "2.50")]
    assert attrs[1]["expr"]["p"] == (2, 5, 2, 12)



def _nested_heredocs(depth: int) -> str:
    """``a = <<EOT`` holding ``${<<EOT`` ... ``depth`` heredocs of one marker, each in the last."""
    text = "<<EOT\nx\nEOT\n"
    for _ in range(depth - 1):
        text = f"<<EOT\n${{{text}}}\nEOT\n"
    return f"a = {text}"


def test_heredocs_nest_in_heredocs_of_their_marker_to_any_depth_below_the_limit() -> None:
    from kapsulint.parsing.hcl import parse_hcl

    node = parse_hcl(_nested_heredocs(40))["body"]["attrs"][0]["expr"]
    for level in range(1, 40):
        assert node["heredoc"]["line"] == level + 1 and node["parts"][1] == "\n", node
        node = node["parts"][0]
    assert node == {"t": "lit", "v": "x\n", "p": (40, 3, 40, 8), "heredoc": {"line": 41, "indent": 0}}


def test_heredocs_nested_past_their_limit_are_a_located_syntax_error() -> None:
    from kapsulint.parsing.hcl import MAX_HEREDOC_DEPTH, HclSyntaxError, parse_hcl

    with pytest.raises(HclSyntaxError) as raised:
        parse_hcl(_nested_heredocs(MAX_HEREDOC_DEPTH + 20))
    assert (raised.value.message, raised.value.line, raised.value.column) == (
        f"heredocs nested deeper than {MAX_HEREDOC_DEPTH} levels", MAX_HEREDOC_DEPTH + 1, 3)


def test_an_error_in_a_heredoc_sequence_is_located_in_the_file() -> None:
    from kapsulint.parsing.hcl import HclSyntaxError, parse_hcl

    with pytest.raises(HclSyntaxError) as raised:
        parse_hcl("b = 1\na = <<EOT\nxx ${ <<EOT\n  ${ (1 }\nEOT\n}\nEOT\n")
    assert (raised.value.line, raised.value.column) == (4, 8)  # the end of `(1 `, before `}`


CHAINS = {  # no bracket stays open in these, yet each term nests the tree one level deeper
    "add": ("1 + ", "1", 4), "conditional": ("true ? 1 : ", "1", 11), "index": ("[0]", "", 3),
    "attribute": (".a", "", 2), "not": ("!", "true", 1), "directive": ("%{ if true }", "", 12),
}


@pytest.mark.parametrize("chain", sorted(CHAINS))
def test_an_operator_chain_counts_each_term_as_a_level(chain: str) -> None:
    """Terraform parses chains of 50,000 terms; past MAX_DEPTH, KAP001 at the term that goes past
    it, before the tree is built (a 1,000,000-term chain would take a minute and a gigabyte)."""
    from kapsulint.parsing.hcl import MAX_DEPTH

    term, end, width = CHAINS[chain]
    start = {"index": "x", "attribute": "x", "directive": '"'}.get(chain, "")
    close = '"' if chain == "directive" else ""
    for count, parses in ((1_000, True), (1_000_000, False)):
        terms = term * count + end + ("%{ endif }" * count if chain == "directive" else "")
        result = parse_content("main.tf", "config", f"b = 1\na = {start}{terms}{close}\n".encode())
        assert not result.get("internal") and (result["error"] is None) == parses, (chain, count, result["error"])
    message, line, column = result["error"]
    assert message == f"nesting deeper than {MAX_DEPTH} levels" and line == 2
    assert (column - 5 - len(start)) // width in (MAX_DEPTH - 1, MAX_DEPTH), column  # the last term counted
