"""The references an expression makes, as written: one walker for every consumer.

Some questions cannot be answered from evaluated values: where a cluster's kubeconfig goes
(the value is Unknown, and its ``ref`` names neither the field read nor the functions applied),
or whether a pool's name changes when the pool is replaced (it depends on which inputs the name
reads, not on their values). They read expressions as written, through the objects of this
module, never through the parser's nodes.

:func:`references` walks one expression and returns every :class:`Reference` in it, in source
order: ``var.x``, ``local.y``, ``module.m.out``, resources and data sources with their attribute
path, ``each``, ``count``, ``path``, ``terraform``, ``self``, and the names a ``for`` expression
or a template ``%{ for }`` directive binds (``bound``). Each reference says where it is written,
which functions its value passes through (outermost first: ``file()``, ``templatefile()``,
``yamldecode()``, ``base64decode()``...), and the attribute path the consumer reads from it
(``suffix``).

What it follows inside one expression: parentheses, conditionals (the test is read with no
suffix, both results with it), template interpolations and directives, function arguments, the
member of an object or tuple literal that the suffix names (else every member), and through
the functions that return their arguments (``try``, ``merge``, ``coalesce``...) with the suffix
kept; every other operand (an operator's, a ``for`` expression's collection and body, a splat
with an index after it) is read with no suffix. An index not written as a literal
(``var.pools[var.i]``) is a reference of its own, found before the traversal it indexes; the
traversal's step is then unknown (``*`` in :attr:`Reference.path`). The walk stops after
``MAX_STEPS`` nodes, so a generated expression cannot make it slow.

Across expressions, :func:`caller_argument`, :func:`variable_default`, :func:`local_value`,
:func:`module_outputs` and :func:`resource_argument` give the expression a reference leads to,
in the module instance it is evaluated in (a variable's argument is written in the caller);
tfvars and ``--var`` hold values, never expressions, so nothing is followed into them. A
consumer that follows them is a :class:`ReferenceWalk`: it says what each reference leads to
(:meth:`ReferenceWalk.reference`), and the walk keeps the guards: an expression already being
followed on the way there (a cycle of locals, say) is not followed again, the walk goes at
most ``MAX_DEPTH`` expressions deep and reads at most ``MAX_WALK_STEPS`` references, and
``incomplete`` says when a limit cut it short. What is not followed: the
contents of files read by ``file()`` or ``templatefile()`` (the walker reports the call, not the
template's references), attributes computed by a provider, and the values of iterations
(``each.value`` stays a reference to ``each``).
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterator
from typing import Generic, NamedTuple, TypeVar

from kapsulint.findings import Loc
from kapsulint.model.expressions import Expression, key_name, node_of
from kapsulint.model.instances import ModuleInstance
from kapsulint.model.modules import Block, Module, Resource, block_from
from kapsulint.model.project import Project

# Functions that return one of their arguments, or an object merged from them: a key asked of
# the result is a key of an argument (https://developer.hashicorp.com/terraform/language/functions).
PASS_THROUGH = frozenset(("try", "coalesce", "merge", "one", "tomap", "tolist", "toset", "sensitive", "nonsensitive"))
MAX_STEPS = 20_000  # nodes read in one walk of an expression
MAX_DEPTH = 40  # expressions followed one from the other, across expressions
MAX_WALK_STEPS = 20_000  # expressions and references read in one walk across expressions


class Step(NamedTuple):
    """One step of a traversal: ``.name`` (``attribute``) or ``[key]``; ``name`` is None for an
    index not written as a literal (``[var.i]``)."""

    name: str | None
    attribute: bool


class Reference(NamedTuple):
    """One reference written in an expression."""

    root: str  # "var", "local", "module", "data", "each", "count", "path", a resource type, a for name
    steps: tuple[Step, ...]
    splat: tuple[str, ...] | None  # the attribute names after ``[*]`` (``a.b[*].c``), None without splat
    suffix: tuple[str, ...]  # what the consumer reads from the value at this place
    calls: tuple[str, ...]  # the functions the value passes through, outermost first
    loc: Loc  # the whole traversal
    bound: bool  # a name bound by an enclosing ``for`` expression or ``%{ for }`` directive

    @property
    def path(self) -> tuple[str, ...]:
        """Every step's name (``*`` for an index not known as written), the splat's attributes,
        then the suffix: ``var.pools[var.i].name`` read for ``id`` is ``("pools", "*", "name", "id")``."""
        names = tuple("*" if step.name is None else step.name for step in self.steps)
        return names + (self.splat or ()) + self.suffix

    @property
    def known_path(self) -> tuple[str, ...]:
        """The names up to the first index not known as written, then the suffix when every step
        is known and there is no splat: the named value the reference certainly reads."""
        names: list[str] = []
        for step in self.steps:
            if step.name is None:
                return tuple(names)
            names.append(step.name)
        return tuple(names) + (() if self.splat is not None else self.suffix)

    @property
    def attributes(self) -> tuple[str, ...]:
        """The names of the ``.name`` steps (indexes and splat left out)."""
        return tuple(step.name for step in self.steps if step.attribute and step.name is not None)


def references(expression: Expression, suffix: tuple[str, ...] = ()) -> list[Reference]:
    """The references ``expression`` makes when the consumer reads ``suffix`` from its value."""
    walk = _Walk(expression.path)
    walk.expr(node_of(expression), tuple(suffix), (), frozenset())
    return walk.found


Context = TypeVar("Context")


class ReferenceWalk(Generic[Context]):
    """A walk from expressions to the expressions their references lead to, in module instances.

    A consumer subclasses it and says in :meth:`reference` what a reference leads to, calling
    :meth:`follow` for each expression it goes on with (or :meth:`enter` and :meth:`leave`
    around several); ``context`` is the consumer's own (the functions crossed, whose names the
    references are). The guards are the walk's: an expression followed under a ``key`` that is
    already being followed is a cycle and is not walked again; past ``MAX_DEPTH`` expressions
    deep or ``MAX_WALK_STEPS`` expressions and references read, nothing more is walked and
    ``incomplete`` is True.
    """

    def __init__(self) -> None:
        self.incomplete = False
        self._visiting: set[Hashable] = set()
        self._depth = 0
        self._steps = 0

    def walk(self, module: ModuleInstance, expression: Expression, suffix: tuple[str, ...], context: Context) -> None:
        """Each reference ``expression`` makes when ``suffix`` is read from its value, but the
        names a ``for`` binds, given to :meth:`reference`."""
        found = references(expression, suffix)
        self._steps += 1 + len(found)
        if self._steps > MAX_WALK_STEPS:
            self.incomplete = True
            return
        for ref in found:
            if not ref.bound:
                self.reference(module, ref, context)

    def reference(self, module: ModuleInstance, ref: Reference, context: Context) -> None:
        """What the consumer does with one reference of an expression evaluated in ``module``."""
        raise NotImplementedError

    def follow(self, key: Hashable, module: ModuleInstance, expression: Expression, suffix: tuple[str, ...],
               context: Context) -> bool:
        """Walk ``expression`` under ``key`` (what it is: the module instance, local, variable or
        output it defines); False when a guard refused it."""
        if not self.enter(key):
            return False
        try:
            self.walk(module, expression, suffix, context)
        finally:
            self.leave(key)
        return True

    def enter(self, key: Hashable) -> bool:
        """Start following what ``key`` names; False for a cycle, or past ``MAX_DEPTH`` (then
        ``incomplete``). Each True is ended by :meth:`leave`."""
        if key in self._visiting:
            return False
        if self._depth >= MAX_DEPTH:
            self.incomplete = True
            return False
        self._visiting.add(key)
        self._depth += 1
        return True

    def leave(self, key: Hashable) -> None:
        self._visiting.discard(key)
        self._depth -= 1


# -- where a reference leads -----------------------------------------------------------------------


def caller_argument(module: ModuleInstance, name: str) -> tuple[ModuleInstance, Expression] | None:
    """The argument the module call gives variable ``name``, in the caller's instance."""
    if module.call is None or module.parent is None:
        return None
    argument = module.call.block.attr(name)
    return (module.parent, argument.expression) if argument is not None else None


def variable_default(module: ModuleInstance, name: str) -> Expression | None:
    declared = module.module.variables.get(name)
    default = declared.default if declared is not None else None
    return default.expression if default is not None else None


def variable_is_sensitive(module: ModuleInstance, name: str) -> bool:
    declared = module.module.variables.get(name)
    return declared is not None and declared.sensitive


def local_value(module: ModuleInstance, name: str) -> Expression | None:
    attribute = module.module.locals.get(name)
    return attribute.expression if attribute is not None else None


class OutputValue(NamedTuple):
    """A module output a ``module.NAME...`` reference reads, in one instance of the module."""

    module: ModuleInstance
    name: str
    expression: Expression
    rest: tuple[str, ...]  # what is read from the output's value


def module_outputs(module: ModuleInstance, path: tuple[str, ...]) -> list[OutputValue]:
    """The outputs ``module.<path>`` reads, one per instance of the call (``path`` starts with
    the call's name; its instance key is skipped when the call has ``count`` or ``for_each``)."""
    call = module.module.calls.get(path[0]) if path else None
    if call is None:
        return []
    rest = path[1:]
    if call.block.attr("count") or call.block.attr("for_each"):
        rest = rest[1:]  # module.x["key"].output
    if not rest:
        return []
    found = []
    for child in module.child_instances(path[0]):
        output = child.module.outputs.get(rest[0])
        value = output.attr("value") if output is not None else None
        if value is not None:
            found.append(OutputValue(child, rest[0], value.expression, rest[1:]))
    return found


def resource_argument(resource: Resource, name: str) -> Expression | None:
    """The argument ``name`` as written in a resource or data block (None for a nested block or
    an attribute the provider computes)."""
    attribute = resource.block.attr(name)
    return attribute.expression if attribute is not None else None


def is_expanded(resource: Resource) -> bool:
    """Whether the block has ``count`` or ``for_each``: a reference to it names an instance key."""
    return bool(resource.block.attr("count") or resource.block.attr("for_each"))


def expression_at(project: Project, loc: Loc) -> Expression | None:
    """The expression written exactly at ``loc`` (the location an evaluated value carries), or None."""
    by_path = _BY_LOCATION.setdefault(project, {})
    nodes = by_path.get(loc.path)
    if nodes is None:
        nodes = by_path[loc.path] = {}
        source = project.files.get(loc.path)
        if source is not None and source.data is not None:
            for node in _nodes(source.data):
                span = node.get("p")
                if isinstance(span, (list, tuple)) and len(span) == 4 and "t" in node:
                    nodes.setdefault(tuple(span), node)
    found = nodes.get((loc.line, loc.column, loc.end_line, loc.end_column))
    return Expression(found, loc.path) if found is not None else None


_BY_LOCATION: weakref.WeakKeyDictionary[Project, dict[str, dict[tuple[int, ...], dict]]] = weakref.WeakKeyDictionary()


def _nodes(data) -> Iterator[dict]:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


# -- the walk ----------------------------------------------------------------------------------------


class _Walk:
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Reference] = []
        self._steps = 0

    def expr(self, node, suffix: tuple[str, ...], calls: tuple[str, ...], bound: frozenset[str]) -> None:
        if not isinstance(node, dict) or "t" not in node:
            return
        self._steps += 1
        if self._steps > MAX_STEPS:
            return
        kind = node["t"]
        if kind in ("var", "attr", "index"):
            chain = _chain(node)
            if chain is None:
                self.expr(node.get("obj"), (), calls, bound)
                if kind == "index":
                    self.expr(node.get("key"), (), calls, bound)
                return
            self._reference(node, chain, None, suffix, calls, bound)
        elif kind == "splat":
            chain = _chain(node["obj"])
            ops = _splat_steps(node.get("ops", []))
            if chain is not None and all(op == "attr" for op, _ in ops):
                self._reference(node, chain, tuple(operand for _, operand in ops), suffix, calls, bound)
                return
            self.expr(node["obj"], (), calls, bound)
            for op, operand in ops:
                if op != "attr":
                    self.expr(operand, (), calls, bound)
        elif kind == "lit":
            return
        elif kind == "paren":
            self.expr(node["e"], suffix, calls, bound)
        elif kind == "call":
            name = node.get("name", "").removeprefix("core::")  # core::NAME is the built-in NAME
            kept = suffix if name in PASS_THROUGH else ()
            for arg in node.get("args", []):
                self.expr(arg, kept, calls + (name,), bound)
        elif kind == "cond":
            self.expr(node["test"], (), calls, bound)
            self.expr(node["then"], suffix, calls, bound)
            self.expr(node["else"], suffix, calls, bound)
        elif kind == "object":
            if suffix:
                for key, value in node["items"]:
                    if key_name(key) == suffix[0]:
                        self.expr(value, suffix[1:], calls, bound)
                        return
            for key, value in node["items"]:
                if key.get("t") not in ("lit", "var"):
                    self.expr(key, (), calls, bound)
                self.expr(value, (), calls, bound)
        elif kind == "tuple":
            items = node.get("items", [])
            if suffix and suffix[0].isdigit() and int(suffix[0]) < len(items):
                self.expr(items[int(suffix[0])], suffix[1:], calls, bound)
                return
            for item in items:
                self.expr(item, (), calls, bound)
        elif kind in ("tmpl", "tif", "tfor"):
            self._template(node, calls, bound)
        elif kind == "for":
            self.expr(node["coll"], (), calls, bound)
            inner = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            for part in ("key", "value", "cond"):
                self.expr(node.get(part), (), calls, inner)
        else:  # operators and anything newer: every sub-expression counts
            for value in node.values():
                if isinstance(value, dict):
                    self.expr(value, (), calls, bound)
                elif isinstance(value, list):
                    for item in value:
                        self.expr(item, (), calls, bound)

    def _template(self, node: dict, calls: tuple[str, ...], bound: frozenset[str]) -> None:
        kind = node["t"]
        if kind == "tmpl":
            parts = node["parts"]
        elif kind == "tif":
            self.expr(node["cond"], (), calls, bound)
            parts = list(node.get("then") or []) + list(node.get("else") or [])
        else:
            self.expr(node["coll"], (), calls, bound)
            bound = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            parts = node.get("body") or []
        for part in parts:
            if isinstance(part, dict):
                self.expr(part, (), calls, bound)

    def _reference(self, node: dict, chain, splat, suffix, calls, bound) -> None:
        root, raw_steps = chain
        steps: list[Step] = []
        for kind, step in raw_steps:
            if kind == "attr":
                steps.append(Step(step, True))
            elif isinstance(step, dict) and step.get("t") == "lit":
                steps.append(Step(str(step.get("v")), False))
            else:
                self.expr(step, (), calls, bound)  # the key is a reference of its own
                steps.append(Step(None, False))
        self.found.append(
            Reference(root, tuple(steps), splat, suffix, calls, Loc.of(self.path, node["p"]), root in bound)
        )


def _splat_steps(ops: list) -> list:
    """A splat's attribute and index steps, those of the splats it applies to each element
    (``a[*].b[*].c``) in their place."""
    steps: list = []
    pending = list(reversed(ops))
    while pending:
        op, operand = pending.pop()
        if op == "splat":
            pending.extend(reversed(operand))
        else:
            steps.append((op, operand))
    return steps


def _chain(node: dict) -> tuple[str, list[tuple[str, object]]] | None:
    """``a.b[k].c`` as (root name, [("attr", "b"), ("index", k node), ("attr", "c")])."""
    steps: list[tuple[str, object]] = []
    current = node
    while isinstance(current, dict) and current.get("t") in ("attr", "index"):
        if current["t"] == "attr":
            steps.append(("attr", current["name"]))
        else:
            steps.append(("index", current["key"]))
        current = current["obj"]
    if not isinstance(current, dict) or current.get("t") != "var":
        return None
    steps.reverse()
    return current["name"], steps


# -- folders of standalone examples ----------------------------------------------------------------


def separate_examples(module: Module) -> bool:
    """Whether a module's files are separate examples rather than one module: it has two files or
    more, all read whole, each written as a root configuration of its own (it holds a
    ``provider`` or ``terraform`` block); some address is defined more than once, and every file
    defines every such address (each file redefines the same set); and no file refers to a
    block, variable, local, output or module call that only another file defines. Documentation and CI folders
    are written so (each file is copied, or applied, on its own); Terraform would refuse the
    folder as a module all the same."""
    duplicated = {duplicate.address for duplicate in module.duplicates}
    files = [source for source in module.files if source.ok]
    if len(files) < 2 or len(files) != len(module.files) or module.broken or not duplicated:
        return False
    defined: dict[str, set[str]] = {}
    blocks: dict[str, list[Block]] = {}
    for source in files:
        found = [block_from(raw, source.path) for raw in source.parsed["body"]["blocks"]]
        if not any(block.type in ("provider", "terraform") for block in found):
            return False
        blocks[source.path] = found
        defined[source.path] = {address for block in found for address in _addresses(block)}
    if any(not duplicated <= addresses for addresses in defined.values()):
        return False
    everywhere = set().union(*defined.values())
    for path, found in blocks.items():
        for block in found:
            for expression in _expressions(block):
                for ref in references(expression):
                    address = _address_of(ref)
                    if address is not None and address in everywhere and address not in defined[path]:
                        return False
    return True


def _addresses(block: Block) -> Iterator[str]:
    kind, labels = block.type, block.labels
    if kind == "resource" and len(labels) == 2:
        yield f"{labels[0]}.{labels[1]}"
    elif kind == "data" and len(labels) == 2:
        yield f"data.{labels[0]}.{labels[1]}"
    elif kind in ("variable", "output", "module") and labels:
        yield f"{'var' if kind == 'variable' else kind}.{labels[0]}"
    elif kind == "locals":
        yield from (f"local.{name}" for name in block.attrs)
    elif kind == "provider" and labels:
        alias = block.attr("alias")
        suffix = f".{alias.literal_value}" if alias is not None and alias.is_literal else ""
        yield f"provider.{labels[0]}{suffix}"
    elif kind == "terraform" and (block.children("backend") or block.children("cloud")):
        yield "terraform.backend"


def _expressions(block: Block) -> Iterator[Expression]:
    stack = [block]
    while stack:
        current = stack.pop()
        for attribute in current.attrs.values():
            yield attribute.expression
        stack.extend(current.blocks)


def _address_of(ref: Reference) -> str | None:
    """The address a reference names in its module (``var.x``, ``data.t.n``, ``t.n``...)."""
    path = ref.path
    if ref.bound or not path or ref.root in ("each", "count", "path", "terraform", "self"):
        return None
    if ref.root in ("var", "local", "module"):
        return f"{ref.root}.{path[0]}"
    if ref.root == "data":
        return f"data.{path[0]}.{path[1]}" if len(path) >= 2 else None
    return f"{ref.root}.{path[0]}"
