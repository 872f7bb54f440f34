"""The project model: Terraform modules, their blocks, and the values files, as written.

Built from the adapter's plain data. Nothing here evaluates an expression; see
:mod:`kapsulint.evaluate` for values and :mod:`kapsulint.instances` for module and resource instances.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kapsulint.findings import Loc


@dataclass
class SourceFile:
    """One file the scan read (or tried to)."""

    path: str
    kind: str  # "config", "tfvars", "lock", "values"
    data: dict | None = None  # the adapter's output; None when unreadable, skipped or broken
    error: tuple[str, int, int] | None = None  # (message, line, column) of a syntax error
    skipped: str | None = None  # why the file was not parsed: above max-file-size (KAP005)
    template: bool = False  # a values file with template markers: rendered where read, never linted alone
    comments: list = field(default_factory=list)
    internal: str | None = None  # an unexpected exception while parsing (a bug): an internal error, exit 2

    @property
    def ok(self) -> bool:
        return self.data is not None and self.error is None

    @property
    def incomplete(self) -> bool:
        """Broken, skipped or unread: what it holds is not known."""
        return not self.ok and not self.template


@dataclass
class Attribute:
    name: str
    loc: Loc  # the attribute's name
    expr: dict
    path: str

    @property
    def value_loc(self) -> Loc:
        return Loc.of(self.path, self.expr["p"])

    @property
    def is_literal(self) -> bool:
        """Written as a literal (a string with no interpolation, a number, a bool or null)."""
        return self.expr.get("t") == "lit"

    @property
    def literal_value(self) -> object:
        """The literal as written; None when the attribute is not a literal (see ``is_literal``)."""
        return self.expr.get("v") if self.is_literal else None


@dataclass
class Block:
    type: str
    labels: list[str]
    loc: Loc  # the header line
    span: Loc
    path: str
    raw: dict

    @property
    def attrs(self) -> dict[str, Attribute]:
        cached = self.__dict__.get("_attrs")
        if cached is None:
            cached = {}
            for a in self.raw["body"]["attrs"]:
                path = a.get("file", self.path)  # attributes merged from an override file keep theirs
                cached[a["name"]] = Attribute(a["name"], Loc.of(path, a["p"]), a["expr"], path)
            self.__dict__["_attrs"] = cached
        return cached

    def attr(self, name: str) -> Attribute | None:
        attrs = self.__dict__.get("_attrs")  # the hottest question rules ask: no property call
        return (attrs if attrs is not None else self.attrs).get(name)

    @property
    def blocks(self) -> list[Block]:
        cached = self.__dict__.get("_blocks")
        if cached is None:
            cached = [block_from(b, b.get("file", self.path)) for b in self.raw["body"]["blocks"]]
            self.__dict__["_blocks"] = cached
        return cached

    def children(self, block_type: str) -> list[Block]:
        by_type = self.__dict__.get("_children")
        if by_type is None:
            by_type = self.__dict__["_children"] = {}
            for block in self.blocks:
                by_type.setdefault(block.type, []).append(block)
        return list(by_type.get(block_type, ()))

    def forget_derived(self) -> None:
        """Drop the attributes and blocks read from ``raw`` (an override file merged into it)."""
        for name in ("_attrs", "_blocks", "_children"):
            self.__dict__.pop(name, None)

    def child(self, block_type: str) -> Block | None:
        found = self.children(block_type)
        return found[0] if found else None



def block_from(raw: dict, path: str) -> Block:
    return Block(raw["type"], raw["labels"], Loc.of(path, raw["p"]), Loc.of(path, raw["span"]), path, raw)


@dataclass
class Resource:
    """A ``resource`` or ``data`` block."""

    mode: str  # "managed" or "data"
    type: str
    name: str
    block: Block
    module: Module

    @property
    def address(self) -> str:
        prefix = "data." if self.mode == "data" else ""
        return f"{prefix}{self.type}.{self.name}"


@dataclass
class Variable:
    name: str
    block: Block

    @property
    def default(self) -> Attribute | None:
        return self.block.attr("default")

    @property
    def sensitive(self) -> bool:
        attribute = self.block.attr("sensitive")
        return bool(attribute and attribute.expr.get("t") == "lit" and attribute.expr.get("v") is True)

    @property
    def type_expr(self) -> dict | None:
        attribute = self.block.attr("type")
        return attribute.expr if attribute else None


@dataclass
class ModuleCall:
    name: str
    block: Block
    source: str | None
    target: Module | None = None  # the module directory when scanned (local or from .terraform)


@dataclass
class Module:
    """A directory of Terraform configuration files."""

    path: str  # absolute directory
    files: list[SourceFile] = field(default_factory=list)
    tfvars: list[SourceFile] = field(default_factory=list)
    lock: SourceFile | None = None
    resources: dict[str, Resource] = field(default_factory=dict)  # by address
    variables: dict[str, Variable] = field(default_factory=dict)
    locals: dict[str, Attribute] = field(default_factory=dict)
    outputs: dict[str, Block] = field(default_factory=dict)
    calls: dict[str, ModuleCall] = field(default_factory=dict)
    providers: list[Block] = field(default_factory=list)
    terraform_blocks: list[Block] = field(default_factory=list)
    terragrunt: bool = False
    callers: list[ModuleCall] = field(default_factory=list)
    root: bool = False
    downloaded: tuple[str, str] | None = None  # (root directory, key) in .terraform/modules/modules.json

    @property
    def broken(self) -> bool:
        """A file of this module failed to parse, was skipped or unreadable: absence is uncertain."""
        return any(f.incomplete for f in self.files)

    @property
    def name(self) -> str:
        return Path(self.path).name

    @property
    def backends(self) -> list[Block]:
        return [b for t in self.terraform_blocks for b in t.children("backend")]

    @property
    def clouds(self) -> list[Block]:
        return [b for t in self.terraform_blocks for b in t.children("cloud")]

    def required_provider(self, local_name: str) -> tuple[str | None, Attribute | None, Loc | None]:
        """(source, version constraint attribute, loc) from ``required_providers``."""
        for terraform in self.terraform_blocks:
            for required in terraform.children("required_providers"):
                attribute = required.attr(local_name)
                if attribute is None:
                    continue
                expr = attribute.expr
                if expr.get("t") == "object":
                    source = version = None
                    for key, value in expr["items"]:
                        if key.get("v") == "source" and value.get("t") == "lit":
                            source = value["v"]
                        if key.get("v") == "version" and value.get("t") == "lit":
                            version = Attribute("version", Loc.of(self.path, key["p"]), value, attribute.path)
                    return source, version, attribute.loc
                if expr.get("t") == "lit":  # legacy: name = "version constraint"
                    return None, attribute, attribute.loc
        return None, None, None


@dataclass
class ValuesFile:
    """A standalone Helm values file found by name or referenced by a release."""

    source: SourceFile

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def document(self) -> dict | None:
        if not self.source.ok:
            return None
        docs = self.source.data["docs"]
        return docs[0] if docs else {"t": "object", "items": [], "p": [1, 1, 1, 1]}
