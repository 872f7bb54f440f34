"""Scaleway API keys written into configuration.

A Scaleway API key is an access key (``SCW`` followed by 17 upper-case letters or digits, the
identifier) and a secret key (a UUID, the secret). The provider reads them from its
``access_key``/``secret_key`` arguments, from ``SCW_ACCESS_KEY``/``SCW_SECRET_KEY`` or from the
Scaleway configuration file; the S3 backend used with Scaleway Object Storage takes
``access_key``/``secret_key`` too. Scaleway's documentation names an access key and a secret key
(https://www.scaleway.com/en/docs/iam/concepts/#api-key) but does not state their shapes: the
shapes above are those of the keys Scaleway issues.

The questions here read values as written (literal strings of variable defaults and tfvars
files, nested objects included) and never return the secret itself, only where it is written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import Expression, Loc, Module, Project, SourceFile, file_attributes
from kapsulint.text import lazy_pattern

ACCESS_KEY = re.compile(r"SCW[A-Z0-9]{17}")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
SECRET_NAME = lazy_pattern(r"secret", re.IGNORECASE)
CREDENTIAL_ARGUMENTS = ("access_key", "secret_key")

# Sample values from documentation and RFCs, never real keys.
_EXAMPLES = {
    "123e4567-e89b-12d3-a456-426614174000",  # RFC 4122 / Wikipedia
    "123e4567-e89b-12d3-a456-426655440000",
    "12345678-1234-1234-1234-123456789012",
    "12345678-1234-5678-1234-567812345678",  # Python's uuid documentation
    "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee",
}


# Template and documentation placeholders: Ansible/Jinja/Helm "{{ name }}", "<YOUR_SECRET_KEY>",
# an escaped Terraform interpolation "$${name}" (the string "${name}"), "%NAME%", "__NAME__",
# "xxx", "changeme", "your-...", "replace-me", "todo", "redacted", "***", "...".
_TEMPLATE = re.compile(r"\{\{.*\}\}|^<[^<>]+>$|\$\{[^}]*\}|^%\w+%$|^__\w+__$|^@@?\w+@@?$|\{\w+\}$")
_WORDS = re.compile(
    r"x{3,}|change[-_ ]?me|replace[-_ ]?(?:me|this)|your[-_ ]|todo|fixme|redacted|placeholder|"
    r"example|dummy|\*{3,}|\.{3}|secret[-_ ]?key|access[-_ ]?key|fill[-_ ]?in|insert[-_ ]",
    re.IGNORECASE,
)


def is_placeholder(text: str) -> bool:
    """A template or documentation placeholder, never a key: ``SCWXXXXXXXXXXXXXXXXX``,
    ``00000000-0000-...``, a known sample, ``{{ aws_access_key }}``, ``<YOUR_SECRET_KEY>``,
    ``${...}``, ``changeme``..."""
    stripped = text.strip()
    if _TEMPLATE.search(stripped) or _WORDS.search(stripped):
        return True
    body = stripped[3:] if stripped.startswith("SCW") else stripped
    body = body.replace("-", "").lower()
    return len(set(body)) <= 2 or stripped.lower() in _EXAMPLES


def is_access_key(text: str) -> bool:
    return ACCESS_KEY.fullmatch(text.strip()) is not None


def is_uuid(text: str) -> bool:
    return UUID.fullmatch(text.strip()) is not None


def key_kind(text: str, names: tuple[str, ...]) -> str | None:
    """"access key" or "secret key" when a literal looks like a real one under those names."""
    if is_placeholder(text):
        return None
    if is_access_key(text):
        return "access key"
    if is_uuid(text) and any(SECRET_NAME.search(n) for n in names):
        return "secret key"
    return None


class WrittenKey(NamedTuple):
    """A Scaleway key written as a literal: where, under which names, and which kind."""

    loc: Loc
    names: tuple[str, ...]  # the variable or tfvars name, then the keys of nested objects
    kind: str

    @property
    def name(self) -> str:
        return ".".join(self.names)


def keys_in_literal(expression: Expression, names: tuple[str, ...]) -> Iterator[WrittenKey]:
    """Key-shaped string literals in an expression as written (objects and lists walked)."""
    for where, text, loc in expression.string_literals(names):
        found = key_kind(text, where)
        if found is not None:
            yield WrittenKey(loc, where, found)


def variable_default_keys(module: Module) -> Iterator[WrittenKey]:
    for name in sorted(module.variables):
        default = module.variables[name].default
        if default is not None:
            yield from keys_in_literal(default.expression, (name,))


def tfvars_files(project: Project) -> list[SourceFile]:
    """Every tfvars file the scan read (auto-loaded or not) and every ``--var-file``."""
    project.top_instances()  # reads the --var-file files given on the command line
    found: dict[str, SourceFile] = {}
    for source in project.files.values():
        if source.kind == "tfvars" and source.ok:
            found[source.path] = source
    for module in project.modules.values():
        for source in module.tfvars:
            if source.ok:
                found[source.path] = source
    return [found[p] for p in sorted(found)]


def tfvars_keys(source: SourceFile) -> Iterator[WrittenKey]:
    for attribute in file_attributes(source):
        yield from keys_in_literal(attribute.expression, (attribute.name,))


def is_code_file(path: str) -> bool:
    """A Terraform configuration file (not tfvars, not the command line)."""
    return path.endswith((".tf", ".tf.json", ".tofu", ".tofu.json"))


def written_as_string(project: Project, loc: Loc) -> bool:
    """Whether the text at ``loc`` is a string written in quotes or a heredoc (not a function's
    result, such as ``file()``)."""
    text = project.read_text(loc.path)
    if text is None:
        return False
    lines = text.split("\n")
    if loc.line > len(lines):
        return False
    return lines[loc.line - 1][loc.column - 1:].startswith(('"', "<<"))
