"""The domain and the rules never read parser output: they hold Expression and Reference objects
(kapsulint.model.references), never the adapter's nodes (``attribute.expr``, ``block.raw``,
``node["t"]``, ``node.get("p")``, a values file's ``document``, a source's ``data``)."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHECKED = sorted([*(ROOT / "kapsulint" / "kapsule").rglob("*.py"), *(ROOT / "rules").glob("*.py")])
NODE_ATTRIBUTES = {"expr", "type_expr", "document", "data"}
NODE_KEYS = {"t", "p"}


def _reads(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in NODE_ATTRIBUTES:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Attribute) and node.attr == "raw":
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
            if "block" in name.lower():
                found.append(f"line {node.lineno}: {name}.raw")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in NODE_KEYS:
            found.append(f"line {node.lineno}: [{node.slice.value!r}]")
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value in NODE_KEYS
        ):
            found.append(f"line {node.lineno}: .get({node.args[0].value!r})")
    return found


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_parser_node_read(path):
    reads = _reads(ast.parse(path.read_text(encoding="utf-8")))
    assert reads == [], f"{path.relative_to(ROOT)} reads parser output: {reads}"
