"""Rebuild the parser tables shipped in the package: ``python -m kapsulint.parsing.build_tables``.

Run after a change to the grammar patches, the post-lexer or the parser options, or a new lark;
tests/test_grammar_cache.py fails until the file is rebuilt and committed."""

from __future__ import annotations

from kapsulint.parsing import grammar_cache, hcl


def main() -> None:
    """Build the tables from the installed python-hcl2 grammar and lark, and write them."""
    lark = hcl._import_lark()
    grammar, options = hcl.grammar_and_options()
    grammar_cache.write(lark.Lark(grammar, **options), grammar, options, lark.__version__)
    print(f"wrote {grammar_cache.SHIPPED}")


if __name__ == "__main__":
    main()
