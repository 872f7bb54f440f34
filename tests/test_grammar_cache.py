"""The HCL parser's tables shipped in the package: they match the grammar, a fresh installation
parses without building them, and anything that does not match is ignored, never trusted."""

from __future__ import annotations

import gzip
import os
import pickle
import subprocess
import sys
from pathlib import Path

from kapsulint.parsing import grammar_cache, hcl

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_tables_are_those_of_the_grammar_and_lark_installed():
    lark = hcl._import_lark()
    grammar, options = hcl.grammar_and_options()
    with gzip.open(grammar_cache.SHIPPED, "rb") as stream:
        shipped = stream.readline().rstrip(b"\n").decode("ascii")
    assert shipped == grammar_cache.key(grammar, options, lark.__version__), (
        "the grammar, its patches or lark changed: regenerate the shipped tables with "
        "`python -m kapsulint.parsing.build_tables` and commit kapsulint/parsing/hcl2-lalr.pickle.gz")
    assert grammar_cache.load(lark, grammar, options) is not None


def test_a_fresh_installation_parses_without_building_the_grammar(tmp_path):
    """Without the shipped tables, the first parse builds them and writes lark's cache file."""
    cache = tmp_path / "cache"
    code = "from kapsulint.parsing.hcl import parse_hcl; print(parse_hcl('a = 1\\n')['body']['attrs'][0]['name'])"
    env = {**os.environ, "KAPSULINT_CACHE_DIR": str(cache)}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "a"
    assert sorted(cache.glob("grammar-*")) == []


def test_tables_for_another_grammar_or_lark_are_ignored():
    lark = hcl._import_lark()
    grammar, options = hcl.grammar_and_options()
    assert grammar_cache.load(lark, grammar + "\n// changed\n", options) is None
    assert grammar_cache.key(grammar, options, "1.0.0") != grammar_cache.key(grammar, options, lark.__version__)
    other = {**options, "start": ["start"]}
    assert grammar_cache.load(lark, grammar, other) is None


def test_a_damaged_or_missing_file_is_ignored(tmp_path):
    lark = hcl._import_lark()
    grammar, options = hcl.grammar_and_options()
    assert grammar_cache.load(lark, grammar, options, tmp_path / "missing.gz") is None
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(grammar_cache.SHIPPED.read_bytes()[:4000])
    assert grammar_cache.load(lark, grammar, options, truncated) is None


def test_a_file_naming_a_class_is_refused(tmp_path):
    """The tables are plain data: a pickle that would build an object is not loaded."""
    lark = hcl._import_lark()
    grammar, options = hcl.grammar_and_options()
    hostile = tmp_path / "hostile.gz"
    header = grammar_cache.key(grammar, options, lark.__version__).encode("ascii") + b"\n"
    hostile.write_bytes(gzip.compress(header + pickle.dumps(Path("x"))))
    assert grammar_cache.load(lark, grammar, options, hostile) is None
