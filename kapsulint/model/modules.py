"""The project model: Terraform modules, their blocks, and the values files, as written.

Built from the adapter's plain data. Nothing here evaluates an expression; see
:mod:`kapsulint.terraform.evaluate` for values and :mod:`kapsulint.model.instances` for module and resource instances.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from kapsulint.boundary import OUTSIDE, shown_path
from kapsulint.findings import Loc
from kapsulint.model.expressions import Expression
from kapsulint.parsing import computes
from kapsulint.parsing.sources import SourceFile
from kapsulint.terraform.documents import literal_to_val
from kapsulint.terraform.values import Val
from kapsulint.text import lazy_pattern


class Attribute:
    # One per argument of every file: slots, and locations made when first asked (most never are).
    __slots__ = ("_computes", "_loc", "_span", "_written", "expr", "name", "path")

    name: str
    expr: dict
    path: str

    def __init__(self, name: str, loc: Loc, expr: dict, path: str, span: Loc | None = None,
                 computes: bool | None = None) -> None:
        self.name = name
        self._loc: Loc | None = loc
        self.expr = expr
        self.path = path
        self._span = span
        self._written: dict | None = None
        self._computes = computes  # the parser's answer, when it gave one

    @classmethod
    def written(cls, raw: dict, path: str) -> Attribute:
        """The argument ``raw`` of a parsed body, in the file at ``path``."""
        attribute = cls.__new__(cls)
        attribute.name = raw["name"]
        attribute.expr = raw["expr"]
        attribute.path = path
        attribute._loc = attribute._span = None
        attribute._written = raw
        attribute._computes = raw.get("c")
        return attribute

    @property
    def loc(self) -> Loc:
        """The attribute's name."""
        loc = self._loc
        if loc is None:
            assert self._written is not None  # made by written()
            loc = self._loc = Loc.of(self.path, self._written["p"])
        return loc

    @property
    def span(self) -> Loc | None:
        """``name = value`` as written, when the parser kept it (HCL native syntax)."""
        if self._span is None and self._written is not None and "span" in self._written:
            self._span = Loc.of(self.path, self._written["span"])
        return self._span

    @property
    def computes(self) -> bool:
        """Whether the value calls a function or runs a ``for`` (in a template too): only such a
        value can read a file or use up an evaluation budget on its own."""
        if self._computes is None:
            self._computes = computes(self.expr)
        return self._computes

    @property
    def value_loc(self) -> Loc:
        return Loc.of(self.path, self.expr["p"])

    @property
    def expression(self) -> Expression:
        """The value as written, for :mod:`kapsulint.model.references` and its consumers."""
        return Expression(self.expr, self.path)

    @property
    def is_literal(self) -> bool:
        """Written as a literal (a string with no interpolation, a number, a bool or null)."""
        return self.expr.get("t") == "lit"

    @property
    def literal_value(self) -> object:
        """The literal as written; None when the attribute is not a literal (see ``is_literal``)."""
        return self.expr.get("v") if self.is_literal else None


class Block:
    type: str
    labels: list[str]
    loc: Loc  # the header line
    span: Loc
    path: str
    raw: dict

    def __init__(self, type: str, labels: list[str], loc: Loc, span: Loc, path: str, raw: dict) -> None:
        self.type = type
        self.labels = labels
        self.loc = loc
        self.span = span
        self.path = path
        self.raw = raw

    @property
    def attrs(self) -> dict[str, Attribute]:
        cached = self.__dict__.get("_attrs")
        if cached is None:
            cached = {}
            for a in self.raw["body"]["attrs"]:
                # attributes merged from an override file keep theirs
                cached[a["name"]] = Attribute.written(a, a.get("file", self.path))
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

    @property
    def computes(self) -> bool:
        """Whether an argument of this block or of a block nested in it (``dynamic`` ones, their
        ``for_each`` and ``content`` included) computes (see :attr:`Attribute.computes`)."""
        cached = self.__dict__.get("_computes")
        if cached is None:
            cached = False
            pending = [self.raw["body"]]
            while pending and not cached:
                body = pending.pop()
                cached = any(a["c"] if "c" in a else computes(a["expr"]) for a in body["attrs"])
                pending.extend(b["body"] for b in body["blocks"])
            self.__dict__["_computes"] = cached
        return cached

    def forget_derived(self) -> None:
        """Drop the attributes and blocks read from ``raw`` (an override file merged into it)."""
        for name in ("_attrs", "_blocks", "_children", "_computes"):
            self.__dict__.pop(name, None)

    def child(self, block_type: str) -> Block | None:
        found = self.children(block_type)
        return found[0] if found else None

    @property
    def body_span(self) -> Loc | None:
        """The text between the braces: from just after ``{`` to the ``}`` (exclusive).

        None when the parser did not keep where the braces are (JSON syntax, or a header whose
        ``{`` is not on the header line).
        """
        if self.path.endswith(".json") or self.loc.end_line != self.loc.line or self.span.end_column < 2:
            return None
        return Loc(self.path, self.loc.line, self.loc.end_column, self.span.end_line, self.span.end_column - 1)



def file_attributes(source: SourceFile) -> list[Attribute]:
    """The top-level arguments of a parsed file (a tfvars file's ``name = value`` lines)."""
    if not source.ok:
        return []
    return [Attribute(a["name"], Loc.of(source.path, a["p"]), a["expr"], source.path) for a in source.parsed["body"]["attrs"]]


def block_from(raw: dict, path: str) -> Block:
    return Block(raw["type"], raw["labels"], Loc.of(path, raw["p"]), Loc.of(path, raw["span"]), path, raw)


class Duplicate:
    """An address a module defines twice (Terraform refuses the module): KAP006."""

    address: str  # "scaleway_k8s_cluster.main", "data.x.y", "var.name", "local.name", "module.name", ...
    first: Loc
    second: Loc

    def __init__(self, address: str, first: Loc, second: Loc) -> None:
        self.address = address
        self.first = first
        self.second = second


class Resource:
    """A ``resource`` or ``data`` block."""

    mode: str  # "managed" or "data"
    type: str
    name: str
    block: Block
    module: Module
    definition: int  # 1 for the block references resolve to; 2, 3... for later ones of its address (KAP006)

    def __init__(self, mode: str, type: str, name: str, block: Block, module: Module, definition: int = 1) -> None:
        self.mode = mode
        self.type = type
        self.name = name
        self.block = block
        self.module = module
        self.definition = definition

    @property
    def address(self) -> str:
        prefix = "data." if self.mode == "data" else ""
        return f"{prefix}{self.type}.{self.name}"


def declares_sensitive(block: Block) -> bool:
    """A variable or output block written with ``sensitive = true``."""
    attribute = block.attr("sensitive")
    return bool(attribute and attribute.expr.get("t") == "lit" and attribute.expr.get("v") is True)


class Variable:
    name: str
    block: Block

    def __init__(self, name: str, block: Block) -> None:
        self.name = name
        self.block = block

    @property
    def default(self) -> Attribute | None:
        return self.block.attr("default")

    @property
    def sensitive(self) -> bool:
        return declares_sensitive(self.block)

    @property
    def type_expr(self) -> dict | None:
        attribute = self.block.attr("type")
        return attribute.expr if attribute else None

    @property
    def nullable(self) -> bool:
        """``nullable = false`` written as a literal; Terraform's default is true."""
        attribute = self.block.attr("nullable")
        return not (attribute and attribute.expr.get("t") == "lit" and attribute.expr.get("v") is False)


class ModuleCall:
    name: str
    block: Block
    source: str | None
    target: Module | None  # the module directory when scanned (local or from .terraform)
    # When this call closes a cycle of module calls (Terraform refuses the configuration): the
    # calls of the cycle, from the one that enters the module this call leads back to, ending with
    # this one. Such a call is never followed: its ``target`` is None.
    cycle: tuple[ModuleCall, ...] | None

    def __init__(self, name: str, block: Block, source: str | None, target: Module | None = None) -> None:
        self.name = name
        self.block = block
        self.source = source
        self.target = target
        self.cycle = None


class UnreadCall(NamedTuple):
    """A module call whose module kapsulint did not read, and why (rule KAP011 reports each one).

    A call left unread is judged like any unresolved call: what the module would give is Unknown,
    and rules about something missing stay silent for the tree that holds it."""

    caller: Module  # the module holding the call
    call: ModuleCall
    reason: str  # one of UNREAD_REASONS
    # (root module directory, key of the caller in its .terraform/modules/modules.json: "" for the
    # root module itself, "cluster.kapsule" for module.cluster.module.kapsule): where a remote
    # source was looked up, and the caller's module path
    manifest: tuple[str, str] | None = None
    via: ModuleCall | None = None  # for a call inside .terraform/: the call outside it that reaches its module

    @property
    def address(self) -> str:
        """The call's module path from its root module (``module.kapsule.module.nodes``)."""
        key = self.manifest[1] if self.manifest is not None else ""
        return "".join(f"module.{name}." for name in key.split(".") if name) + f"module.{self.call.name}"

    @property
    def kind(self) -> str:
        """The kind of the call's source (``registry``, ``git``, ``local path``...: see :func:`source_kind`)."""
        return source_kind(self.call.source)

    @property
    def why(self) -> str:
        """Why the module was not read, in words: ``its source "../x" resolves outside the repository``."""
        source = f"its source {shown_path(self.call.source)}"
        if self.reason == OUTSIDE_REPOSITORY:
            return f"{source} {OUTSIDE}"
        if self.reason == NO_SOURCE:
            return "it has no source argument, which Terraform requires (terraform init refuses the call)"
        if self.reason == NOT_CONSTANT:
            return ("its source is not a constant string: Terraform refuses a variable or a function call there "
                    "(terraform init fails), so which module it names is not known")
        if self.reason == LOCAL_MISSING:
            return f"{source} is not a directory (terraform init fails: unreadable module directory)"
        if self.reason == LOCAL_TOFU_ONLY:
            return f"{source} holds only .tofu files, which Terraform ignores (--engine opentofu reads them)"
        if self.reason == LOCAL_EMPTY:
            return (f"{source} holds no configuration file (.tf, .tf.json, .tofu, .tofu.json): Terraform would read "
                    "a module that declares nothing (a git submodule not checked out looks so)")
        if self.reason == NOT_AN_ADDRESS:
            return (f"{source} is no module source address Terraform reads (a local path starts with ./ or ../, "
                    "a registry address is namespace/name/system): terraform init refuses it")
        what = f"{source} ({self.kind})"
        if self.reason == NOT_DOWNLOADED:
            return (f"{what} was not downloaded: `terraform init` writes .terraform/modules/, which kapsulint reads "
                    "(kapsulint never downloads)")
        if self.reason == MANIFEST_UNREADABLE:
            return (f"{what} could not be looked up: .terraform/modules/modules.json cannot be read; `terraform "
                    "init` writes it again")
        if self.reason == NOT_LISTED:
            return (f"{what} is not listed in .terraform/modules/modules.json: `terraform init` downloads it, and "
                    "kapsulint reads .terraform/modules/")
        if self.reason == DOWNLOAD_MISSING:
            return (f"{what} is listed in .terraform/modules/modules.json, but its directory holds no configuration "
                    "file: `terraform init` downloads it again")
        return self.reason


OUTSIDE_REPOSITORY = "outside-repository"
"""An unread call's reason: its source resolves outside the repository (``../../elsewhere``, a link)."""
NO_SOURCE = "no-source"
"""The call has no ``source`` argument (Terraform refuses it)."""
NOT_CONSTANT = "source-not-constant"
"""The ``source`` is not a constant string (``var.x``, a function call: Terraform refuses it)."""
LOCAL_MISSING = "local-path-missing"
"""A local source (``./x``, ``../x``) that is not a directory."""
LOCAL_EMPTY = "local-path-empty"
"""A local source whose directory holds no configuration file (a git submodule not checked out)."""
LOCAL_TOFU_ONLY = "local-path-tofu-only"
"""A local source whose directory holds only ``.tofu`` files, read as Terraform (which ignores them)."""
NOT_DOWNLOADED = "not-downloaded"
"""A remote source (registry, git, HTTP, S3, GCS...) with no ``.terraform/modules/modules.json``."""
MANIFEST_UNREADABLE = "manifest-unreadable"
"""A remote source whose root's ``modules.json`` exists but is not JSON kapsulint can read."""
NOT_LISTED = "not-in-manifest"
"""A remote source that ``modules.json`` does not list (``terraform init`` ran before the call was written)."""
DOWNLOAD_MISSING = "download-missing"
"""A remote source listed in ``modules.json`` whose directory is missing or holds no configuration file."""
NOT_AN_ADDRESS = "source-not-an-address"
"""A source no kind of Terraform's takes (``..``, ``modules/x`` without ``./``): terraform init refuses it."""
UNREAD_REASONS = (OUTSIDE_REPOSITORY, NO_SOURCE, NOT_CONSTANT, LOCAL_MISSING, LOCAL_EMPTY, LOCAL_TOFU_ONLY,
                  NOT_DOWNLOADED, MANIFEST_UNREADABLE, NOT_LISTED, DOWNLOAD_MISSING, NOT_AN_ADDRESS)

LOCAL_PREFIXES = ("./", "../")
"""How a local module source starts (Terraform's local paths; anything else is downloaded)."""
UNRECOGNISED = "unrecognised"
"""The kind of a source that is no address Terraform reads (``..``, ``modules/x``: terraform init refuses it)."""
_SCHEMES = {"git": "git", "hg": "Mercurial", "http": "HTTP archive", "https": "HTTP archive", "s3": "S3",
            "gcs": "GCS", "file": "file path"}
# Registry addresses, [hostname/]namespace/name/system[//subdirectory]:
# https://developer.hashicorp.com/terraform/language/modules/sources#terraform-registry
_REGISTRY_NAME = lazy_pattern(r"[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?\Z")
_REGISTRY_SYSTEM = lazy_pattern(r"[0-9a-z]{1,64}\Z")
_SCP_LIKE = lazy_pattern(r"[^/:]+:")  # git's host:path form (git@github.com:org/repo.git)


def is_local_source(source: str) -> bool:
    return source.startswith(LOCAL_PREFIXES)


def source_kind(source: str | None) -> str:
    """What a module source names, in the words of Terraform's module sources page
    (https://developer.hashicorp.com/terraform/language/modules/sources): ``local path``,
    ``registry``, ``git``, ``Mercurial``, ``HTTP archive``, ``S3``, ``GCS``, ``file path`` (an
    absolute path, copied by terraform init), ``remote`` (another URL), or :data:`UNRECOGNISED`
    for what is none of them and no detector of Terraform's takes (terraform init refuses it)."""
    if source is None:
        return "unknown"
    if is_local_source(source):
        return "local path"
    getter, separator, _ = source.partition("::")
    scheme, colon_slashes, _ = source.partition("://")
    if separator or colon_slashes:
        return _SCHEMES.get(getter if separator else scheme, "remote")
    if source.startswith(("github.com/", "bitbucket.org/", "git@")):
        return "git"
    host = source.split("/", 1)[0]
    if host.endswith(".amazonaws.com") and any(label == "s3" or label.startswith("s3-") for label in host.split(".")):
        return "S3"
    if source.startswith("www.googleapis.com/storage/"):
        return "GCS"
    if source.startswith("/"):
        return "file path"
    if _SCP_LIKE.match(source):
        return "git"
    parts = source.split("//", 1)[0].split("/")
    if len(parts) == 4 and parts[0]:  # a registry's hostname
        parts = parts[1:]
    if (len(parts) == 3 and _REGISTRY_NAME.match(parts[0]) and _REGISTRY_NAME.match(parts[1])
            and _REGISTRY_SYSTEM.match(parts[2])):
        return "registry"
    return UNRECOGNISED


class Module:
    """A directory of Terraform configuration files."""

    path: str  # absolute directory
    files: list[SourceFile]
    tfvars: list[SourceFile]
    lock: SourceFile | None
    resources: dict[str, Resource]  # by address; a later definition of one under "address#n" (n from 2)
    check_data: dict[str, Resource]  # data sources nested in check blocks, by address (scoped to their check)
    variables: dict[str, Variable]
    locals: dict[str, Attribute]
    outputs: dict[str, Block]
    calls: dict[str, ModuleCall]
    providers: list[Block]
    terraform_blocks: list[Block]
    terragrunt: bool
    callers: list[ModuleCall]
    root: bool
    downloaded: tuple[str, str] | None  # (root directory, key) in .terraform/modules/modules.json
    duplicates: list[Duplicate]  # second definitions of an address, in reading order

    def __init__(
        self,
        path: str,
        files: list[SourceFile] | None = None,
        tfvars: list[SourceFile] | None = None,
        lock: SourceFile | None = None,
        resources: dict[str, Resource] | None = None,
        variables: dict[str, Variable] | None = None,
        locals: dict[str, Attribute] | None = None,
        outputs: dict[str, Block] | None = None,
        calls: dict[str, ModuleCall] | None = None,
        providers: list[Block] | None = None,
        terraform_blocks: list[Block] | None = None,
        terragrunt: bool = False,
        callers: list[ModuleCall] | None = None,
        root: bool = False,
        downloaded: tuple[str, str] | None = None,
    ) -> None:
        self.path = path
        self.files = [] if files is None else files
        self.tfvars = [] if tfvars is None else tfvars
        self.lock = lock
        self.resources = {} if resources is None else resources
        self.variables = {} if variables is None else variables
        self.locals = {} if locals is None else locals
        self.outputs = {} if outputs is None else outputs
        self.calls = {} if calls is None else calls
        self.providers = [] if providers is None else providers
        self.terraform_blocks = [] if terraform_blocks is None else terraform_blocks
        self.terragrunt = terragrunt
        self.callers = [] if callers is None else callers
        self.root = root
        self.downloaded = downloaded
        self.duplicates: list[Duplicate] = []
        self.check_data: dict[str, Resource] = {}

    @property
    def applied(self) -> bool:
        """Whether the module shows it is applied as a root: a provider block, a backend or ``cloud``
        block, a lock file or a tfvars file."""
        return bool(self.providers or self.backends or self.clouds or self.lock or self.tfvars)

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
                        if key.get("v") == "version":  # any value: Terraform wants a literal string
                            version = Attribute("version", Loc.of(self.path, key["p"]), value, attribute.path)
                    return source, version, attribute.loc
                if expr.get("t") == "lit":  # legacy: name = "version constraint"
                    return None, attribute, attribute.loc
        return None, None, None


class YamlDocuments:
    """A YAML file read for what its content says it holds (Kubernetes objects...), whatever its
    name: every document, located; ``reason`` is what the content said."""

    source: SourceFile
    reason: str

    def __init__(self, source: SourceFile, reason: str) -> None:
        self.source = source
        self.reason = reason
        self._documents: list[Val] | None = None

    @property
    def path(self) -> str:
        return self.source.path

    def documents(self) -> list[Val]:
        """Each document as a located value (an empty one as null); none when the file could not
        be read or parsed. Made once (values never change; the GitOps readers and the Kubernetes
        objects each ask), a new list each time."""
        if not self.source.ok:
            return []
        if self._documents is None:
            fallback = Loc(self.path, 1, 1, 1, 2)
            self._documents = [literal_to_val(document, (self.path, 0, 0), fallback)
                               for document in self.source.parsed["docs"]]
        return list(self._documents)


class ValuesFile:
    """A standalone Helm values file found by name or referenced by a release."""

    source: SourceFile

    def __init__(self, source: SourceFile) -> None:
        self.source = source

    @property
    def path(self) -> str:
        return self.source.path

    def value(self) -> Val | None:
        """The file's first document as a located value (an empty file: an empty map); None when
        the file could not be read or parsed."""
        document = self.document
        if document is None:
            return None
        return literal_to_val(document, (self.path, 0, 0), Loc(self.path, 1, 1, 1, 2))

    @property
    def document(self) -> dict | None:
        if not self.source.ok:
            return None
        docs = self.source.parsed["docs"]
        return docs[0] if docs else {"t": "object", "items": [], "p": [1, 1, 1, 1]}
