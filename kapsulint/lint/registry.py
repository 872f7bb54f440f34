"""The rule registry: every module of ``kapsulint.rules``, with metadata from its constants and docstring."""

from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache
from types import ModuleType
from typing import Callable, Iterable, Iterator, NamedTuple

from kapsulint import __version__
from kapsulint.errors import describe
from kapsulint.findings import Finding, Severity

DOC_HEADINGS = ("What it does", "Why is this bad", "Example", "Use instead", "References")
FIX_HEADING = "Fix"  # after "Use instead"; required when the rule sets FIX, absent otherwise
FIX_KINDS = ("safe", "unsafe", "sometimes")  # a rule's FIX: its fixes are safe, unsafe, or either by case
ALWAYS_SELECTED = ("KAP001", "KAP005", "KAP017")  # run under any selection unless ignored by name or id
INTERNAL_ERROR = "KAP008"  # an internal error of the run: reported under any selection, never ignored
UNREADABLE_PATH = "KAP017"  # a path of the project the scan could not read: an error of the run
# The blind spots: notes for places kapsulint could not judge (a module not read, a file left out, a
# fact missing, a path outside the project, an evaluation budget run out). They are findings like
# any other (selected, ignored, suppressed, baselined), counted apart in the text summary and
# ``--statistics``, and listed as SARIF tool execution notifications.
BLIND_SPOTS = ("KAP011", "KAP012", "KAP013", "KAP014", "KAP015")
REPOSITORY = "https://github.com/kapsulint/kapsulint"
# A rule's family, by the first digit of its number (design of the catalogue: KAP1xx cluster, ...).
FAMILIES = {"0": "engine", "1": "cluster", "2": "pools", "3": "ingress", "4": "state-and-access", "5": "network",
            "6": "plan"}


class SelectionError(ValueError):
    """A selector that names no rule, id prefix or rule name."""


class Rule(NamedTuple):
    id: str
    name: str
    severity: Severity
    security: bool
    doc: str
    check: Callable[..., Iterator[Finding]] | None
    module: str
    fix: str | None = None  # FIX: "safe", "unsafe" or "sometimes"; None when the rule never fixes
    counted_as: tuple[str, str] | None = None  # COUNTED_AS: a blind spot's kind in the summary (one, several)

    @property
    def blind_spot(self) -> bool:
        """A note for a place kapsulint could not judge (``BLIND_SPOTS``)."""
        return self.id in BLIND_SPOTS

    @property
    def headings(self) -> tuple[str, ...]:
        """The docstring's headings, in order, for this rule."""
        if self.fix is None:
            return DOC_HEADINGS
        at = DOC_HEADINGS.index("Use instead") + 1
        return (*DOC_HEADINGS[:at], FIX_HEADING, *DOC_HEADINGS[at:])

    @property
    def family(self) -> str | None:
        """The catalogue family ("pools" for KAP2xx), a SARIF tag."""
        return FAMILIES.get(self.id[3]) if self.id.startswith("KAP") and len(self.id) > 3 else None

    def help_uri(self, version: str = __version__) -> str:
        """The rule's entry in the README of a release (its ``v<version>`` tag), this one by default."""
        return f"{docs_uri(version)}#{self.id.lower()}"

    @property
    def sections(self) -> dict[str, str]:
        return doc_sections(self.doc)

    @property
    def title(self) -> str:
        """The problem in a few words, the docstring's first line ("Pool without create_before_destroy").

        SARIF's ``shortDescription`` and GitHub's alert title; the summary when the docstring has none.
        """
        head = self.doc.split("\n## ", 1)[0].strip()
        return head.splitlines()[0].strip().rstrip(".") if head and not head.startswith("##") else self.summary

    @property
    def summary(self) -> str:
        text = " ".join(self.sections.get("What it does", "").split())
        match = re.match(r"(.+?[.!?])(\s|$)", text)
        return match.group(1) if match else text

    @property
    def security_severity(self) -> str | None:
        if not self.security:
            return None
        return "8.0" if self.severity is Severity.ERROR else "5.5"


def docs_uri(version: str) -> str:
    """The README of a release (its ``v<version>`` tag), where the rule table is."""
    return f"{REPOSITORY}/blob/v{version}/README.md"


def doc_sections(doc: str) -> dict[str, str]:
    """The docstring's ``## Heading`` sections, by heading."""
    sections: dict[str, str] = {}
    current = None
    lines: list[str] = []
    for line in doc.splitlines():
        match = re.match(r"^##\s+(.+?)\s*$", line)
        if match:
            if current is not None:
                sections[current] = "\n".join(lines).strip()
            current, lines = match.group(1), []
        elif current is not None:
            lines.append(line)
    if current is not None:
        sections[current] = "\n".join(lines).strip()
    return sections


def _rule_from(module: ModuleType) -> Rule | None:
    rule_id = getattr(module, "ID", None)
    if not isinstance(rule_id, str):
        return None
    import inspect

    return Rule(
        id=rule_id,
        name=module.NAME,
        severity=Severity(module.SEVERITY),
        security=bool(getattr(module, "SECURITY", False)),
        doc=inspect.cleandoc(module.__doc__ or ""),
        check=getattr(module, "check", None),
        module=module.__name__,
        fix=_fix_kind(module),
        counted_as=_counted_as(module),
    )


def _unloadable(module_name: str, error: Exception) -> Rule | None:
    """A rule whose module failed to import (``kap201_pool_without_...``): it stays selectable and
    its check raises the import's error, so every report carries it as KAP008 at the run's root."""
    match = re.fullmatch(r"kap(\d{3})_(\w+)", module_name)
    if match is None:
        return None
    detail = describe(error)

    def check(project):
        raise RuntimeError(f"the rule's module could not be imported: {detail}")

    return Rule(id=f"KAP{match.group(1)}", name=match.group(2).replace("_", "-"), severity=Severity.ERROR,
                security=False, doc="", check=check, module=f"kapsulint.rules.{module_name}")


def _counted_as(module: ModuleType) -> tuple[str, str] | None:
    words = getattr(module, "COUNTED_AS", None)
    if words is None:
        return None
    if not (isinstance(words, tuple) and len(words) == 2 and all(isinstance(w, str) and w for w in words)):
        raise ValueError(f"{module.__name__}: COUNTED_AS must be (one, several), such as "
                         '("module call not read", "module calls not read")')
    return words


def _fix_kind(module: ModuleType) -> str | None:
    kind = getattr(module, "FIX", None)
    if kind is not None and kind not in FIX_KINDS:
        raise ValueError(f"{module.__name__}: FIX must be one of {', '.join(FIX_KINDS)}, not {kind!r}")
    return kind


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    import kapsulint.rules as package

    rules = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("_"):
            continue
        try:
            rule = _rule_from(importlib.import_module(f"{package.__name__}.{info.name}"))
        except Exception as error:  # a broken rule module is an internal error of that rule, not of the run
            rule = _unloadable(info.name, error)
        if rule is not None:
            rules.append(rule)
    return tuple(sorted(rules, key=lambda r: r.id))


def by_id() -> dict[str, Rule]:
    return {rule.id: rule for rule in all_rules()}


def find_rule(text: str) -> Rule | None:
    """A rule by id or name (case-insensitive id)."""
    for rule in all_rules():
        if rule.id == text.upper() or rule.name == text:
            return rule
    return None


def matching(selector: str) -> list[Rule]:
    """Rules an id, an id prefix (``KAP3``), a name, or ``ALL`` designates; raises SelectionError."""
    text = selector.strip()
    if text.upper() == "ALL":
        return list(all_rules())
    upper = text.upper()
    found = [r for r in all_rules() if r.name == text or (re.fullmatch(r"KAP\d{0,3}", upper) and r.id.startswith(upper))]
    if not found:
        raise SelectionError(f"unknown rule, prefix or name: {selector}{did_you_mean(text)}")
    return found


def did_you_mean(text: str) -> str:
    """`` (did you mean KAP201 or ...?)`` with the closest ids and names, or nothing."""
    import difflib

    ids = [r.id for r in all_rules()]
    names = [r.name for r in all_rules()]
    close = difflib.get_close_matches(text.upper(), ids, n=3, cutoff=0.6)
    close += difflib.get_close_matches(text.lower(), names, n=3, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean {', '.join(close[:-1]) + ' or ' if len(close) > 1 else ''}{close[-1]}?)"


def split_selectors(values: Iterable[str] | str | None) -> list[str]:
    if values is None:
        return []
    if isinstance(values, str):
        values = [values]
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def selected(select: list[str] | None, extend: list[str], ignore: list[str]) -> list[Rule]:
    """The rules a selection enables: engine rules stay unless ignored explicitly."""
    chosen = {r.id for r in all_rules()} if select is None else {r.id for s in select for r in matching(s)}
    chosen |= {r.id for s in extend for r in matching(s)}
    explicitly_ignored: set[str] = set()
    for selector in ignore:
        rules = matching(selector)
        chosen -= {r.id for r in rules}
        if len(rules) == 1 and selector.strip().upper() in (rules[0].id, rules[0].name.upper()):
            explicitly_ignored.add(rules[0].id)
    for always in ALWAYS_SELECTED:
        if always in by_id() and always not in explicitly_ignored:
            chosen.add(always)
    return [r for r in all_rules() if r.id in chosen]
