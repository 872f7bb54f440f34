"""The README's rule table, generated from the registry (``python -m kapsulint.lint.docs README.md``)."""

from __future__ import annotations

import sys
from pathlib import Path

from kapsulint.lint.registry import all_rules

START = "<!-- rules:start -->"
END = "<!-- rules:end -->"


def rule_table() -> str:
    lines = ["| id | name | severity | fix | summary |", "|---|---|---|---|---|"]
    for rule in all_rules():
        security = " (security)" if rule.security else ""
        summary = rule.summary.replace("|", "\\|")
        lines.append(f"| <a id=\"{rule.id.lower()}\"></a>{rule.id} | `{rule.name}` | {rule.severity.value}{security} "
                     f"| {rule.fix or ''} | {summary} |")
    return "\n".join(lines)


def with_table(readme: str) -> str:
    """The README text with the generated table between its markers."""
    head, start, rest = readme.partition(START)
    _, end, tail = rest.partition(END)
    if not start or not end:
        raise ValueError(f"README lacks the {START} and {END} markers")
    return f"{head}{START}\n{rule_table()}\n{END}{tail}"


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "README.md")
    path.write_text(with_table(path.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    main()
