"""The layers of docs/architecture.md, checked from the code's own imports.

Every ``import`` and ``from ... import`` counts, at module level or inside a function: a lazy import
is still an arrow. A layer may import itself and the layers below it; the table is the document's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Bottom up, as docs/architecture.md draws them.
LAYERS = ("base", "parsing", "terraform", "scan", "model", "api", "kapsule", "rules", "lint", "reporters", "cli")
# What a layer may import besides itself and base, where the document narrows "everything below".
NARROWER = {
    "scan": {"parsing"},
    "api": {"terraform", "model"},
    "kapsule": {"api"},
    "rules": {"api", "kapsule"},
    "reporters": {"lint"},
}
BASE_MODULES = {"__init__", "findings", "errors", "cachedir", "boundary", "text"}


def layer_of(module: str) -> str | None:
    """The layer of a dotted module name of kapsulint, or None for anything else."""
    parts = module.split(".")
    if parts[0] != "kapsulint":
        return None
    if len(parts) == 1 or parts[1] in BASE_MODULES:
        return "base"
    if parts[1] == "__main__":
        return "cli"
    return parts[1] if parts[1] in LAYERS else f"unknown:{parts[1]}"


def sources() -> list[tuple[str, Path]]:
    """Every module of the package, with its dotted name (``rules/`` is installed as kapsulint.rules)."""
    found = []
    for path in sorted((ROOT / "kapsulint").rglob("*.py")):
        found.append((".".join(path.relative_to(ROOT).with_suffix("").parts), path))
    for path in sorted((ROOT / "rules").glob("*.py")):
        found.append((f"kapsulint.rules.{path.stem}", path))
    return found


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import in the file, wherever it stands."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
    return found


def allowed(source: str, target: str) -> bool:
    if target in (source, "base"):
        return True
    if source in NARROWER:
        return target in NARROWER[source]
    return LAYERS.index(target) < LAYERS.index(source)


def test_every_module_belongs_to_a_layer():
    unknown = [name for name, _ in sources() if (layer_of(name) or "").startswith("unknown")]
    assert not unknown, f"modules outside the layers of docs/architecture.md: {unknown}"


def test_no_import_crosses_the_layers():
    crossing = []
    for name, path in sources():
        source = layer_of(name)
        for line, target_module in imports(path):
            target = layer_of(target_module)
            if target is not None and not target.startswith("unknown") and not allowed(source, target):
                crossing.append(f"{path.relative_to(ROOT)}:{line}: {source} imports {target} ({target_module})")
    assert not crossing, "imports against the layers:\n" + "\n".join(sorted(set(crossing)))


def test_no_import_circle_between_modules():
    names = {name for name, _ in sources()}
    graph: dict[str, set[str]] = {}
    for name, path in sources():
        targets = set()
        for _, module in imports(path):
            while module and module not in names:
                module = module.rpartition(".")[0]
            if module and module != name and not name.startswith(module + "."):
                targets.add(module)
        graph[name] = {t for t in targets if not t.endswith("__init__")}
    state: dict[str, int] = {}
    circle: list[str] = []

    def visit(node: str, stack: list[str]) -> bool:
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                circle.extend(stack[stack.index(target):] + [target] if target in stack else [node, target])
                return True
            if state.get(target) is None and visit(target, stack + [target]):
                return True
        state[node] = 2
        return False

    for name in sorted(graph):
        if state.get(name) is None and visit(name, [name]):
            break
    assert not circle, "import circle: " + " -> ".join(circle)


def test_at_most_ten_modules_directly_in_the_package():
    top = sorted(p.name for p in (ROOT / "kapsulint").glob("*.py"))
    assert len(top) <= 10, top


@pytest.mark.parametrize("source, target, expected", [
    ("rules", "model", False), ("kapsule", "terraform", False), ("parsing", "scan", False),
    ("model", "scan", True), ("cli", "kapsule", True), ("reporters", "model", False),
])
def test_the_table_reads_as_the_document_says(source, target, expected):
    assert allowed(source, target) is expected
