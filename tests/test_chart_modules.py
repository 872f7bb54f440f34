"""Nothing outside ``kapsulint/kapsule/charts/`` names an ingress controller chart.

Adding a controller is one module of ``kapsulint.kapsule.charts`` (and its fixtures): the rules and
the rest of the domain ask the ``Chart`` protocol and never branch on a chart. This test holds
that line. What it scans:

* every file of the package (``kapsulint/**``) outside ``kapsulint/kapsule/charts/``, and every
  rule module (``rules/*.py``); a file that is not UTF-8 text (the pickled parser tables) is left
  out, and the test says which;
* in a Python file: every identifier (names, attributes, definitions, arguments, keywords, import
  paths and aliases), every string constant (docstrings and f-string parts included; adjacent
  literals and a ``+`` of constant strings are read joined) and every comment; any other file as
  text;
* a rule module's own docstring is the one part left out: it is the rule's documentation, which
  the README renders and which says which charts the rule judges and cites their sources.

A chart is named by its key, a chart name or its module's name, in any case and with any
separators (``ingress-nginx``, ``ingress_nginx``, ``IngressNginx`` and ``INGRESS_NGINX`` alike),
read from every chart module the registry finds, plus ``haproxytech``, ``ingress-nginx`` and
``traefik`` themselves, so the check neither needs editing for a new chart nor passes when the
registry finds none.
"""

from __future__ import annotations

import ast
import io
import pkgutil
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHARTS_PACKAGE = ROOT / "kapsulint" / "kapsule" / "charts"


def _normal(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def chart_words() -> frozenset[str]:
    """Every way a chart is named, normalised (lower case, letters and digits only)."""
    from kapsulint.kapsule.charts import registry

    words = {"haproxytech", "ingressnginx", "traefik"}
    for chart in registry.charts():
        words.add(_normal(chart.key))
        words.update(_normal(name) for name in chart.chart_names)
    words.update(_normal(info.name) for info in pkgutil.iter_modules([str(CHARTS_PACKAGE)])
                 if info.name != "registry" and not info.name.startswith("_"))
    return frozenset(words)


def _folded(node: ast.AST) -> str | None:
    """A string expression made of constants only (``"a" + "b"``), joined; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _folded(node.left), _folded(node.right)
        return left + right if left is not None and right is not None else None
    return None


def python_texts(source: str, *, skip_module_docstring: bool = False) -> list[tuple[int, str]]:
    """(line, text) of every identifier, string constant and comment of a Python source."""
    tree = ast.parse(source)
    skipped: ast.AST | None = None
    if skip_module_docstring and tree.body and isinstance(tree.body[0], ast.Expr) and _folded(tree.body[0].value):
        skipped = tree.body[0].value
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if node is skipped:
            continue
        text = _folded(node)
        if text is not None:
            found.append((line, text))
        elif isinstance(node, ast.Name):
            found.append((line, node.id))
        elif isinstance(node, ast.Attribute):
            found.append((line, node.attr))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append((line, node.name))
        elif isinstance(node, ast.arg):
            found.append((line, node.arg))
        elif isinstance(node, ast.keyword) and node.arg:
            found.append((line, node.arg))
        elif isinstance(node, ast.alias):
            found.extend((line, name) for name in (node.name, node.asname) if name)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((line, node.module))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            found.extend((line, name) for name in node.names)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
    return found


def namings(path: Path, words: frozenset[str]) -> list[str]:
    """Where ``path`` names a chart, as ``file:line: text`` (empty when it names none)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        pieces = python_texts(text, skip_module_docstring=path.parent == ROOT / "rules")
    else:
        pieces = list(enumerate(text.splitlines(), start=1))
    relative = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return [f"{relative}:{line}: {piece[:80]!r}" for line, piece in pieces
            if any(word in _normal(piece) for word in words)]


def scanned_files() -> tuple[list[Path], list[Path]]:
    """(files scanned, files left out as not UTF-8 text)."""
    scanned, left_out = [], []
    candidates = [p for p in sorted((ROOT / "kapsulint").rglob("*")) if p.is_file()]
    candidates += sorted((ROOT / "rules").glob("*.py"))
    for path in candidates:
        if path.is_relative_to(CHARTS_PACKAGE) or "__pycache__" in path.parts:
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            left_out.append(path)
            continue
        scanned.append(path)
    return scanned, left_out


def test_no_module_outside_the_charts_package_names_a_chart():
    words = chart_words()
    scanned, left_out = scanned_files()
    assert [p.relative_to(ROOT).as_posix() for p in left_out] == ["kapsulint/parsing/hcl2-lalr.pickle.gz"]
    assert any(p.parent == ROOT / "rules" for p in scanned) and any(p.name == "proxy_ports.py" for p in scanned)
    found = [line for path in scanned for line in namings(path, words)]
    assert not found, "chart named outside kapsulint/kapsule/charts/ (ask the Chart protocol):\n" + "\n".join(found)


def test_every_chart_module_is_seen_naming_its_chart():
    """The scanner finds the names where they are meant to be: in each chart's own module."""
    words = chart_words()
    modules = [p for p in CHARTS_PACKAGE.glob("*.py") if p.stem not in ("__init__", "registry")]
    assert len(modules) >= 3
    for module in modules:
        assert namings(module, words), f"{module.name} names no chart: the scanner reads nothing"


def test_each_way_of_naming_a_chart_is_caught(tmp_path):
    words = chart_words()
    samples = {
        "identifier": "if controller is HAPROXYTECH:\n    pass\n",
        "attribute": "x = charts.INGRESS_NGINX\n",
        "import": "from kapsulint.kapsule.charts.traefik import CHART\n",
        "class name": "class IngressNginxPorts:\n    pass\n",
        "argument": "def f(traefik_ports):\n    return 1\n",
        "keyword": "f(haproxytech=1)\n",
        "string": 'key = "ingress-nginx"\n',
        "joined literals": 'key = ("ingress-" "nginx")\n',
        "added literals": 'key = "haproxy" + "tech"\n',
        "f-string": 'key = f"{name} Traefik"\n',
        "docstring": 'def f():\n    """Read the traefik ports."""\n',
        "comment": "x = 1  # the haproxytech chart\n",
    }
    for what, source in samples.items():
        path = tmp_path / f"{what.replace(' ', '_')}.py"
        path.write_text(source, encoding="utf-8")
        assert namings(path, words), f"a chart named by {what} is not caught"
    clean = tmp_path / "clean.py"
    clean.write_text('"""Ask the chart."""\nkey = chart.key  # every chart\n', encoding="utf-8")
    assert namings(clean, words) == []
