"""Pool replacement: what happens to a pool's arguments when Terraform replaces it.

A change to a ForceNew argument (``pool_options.POOL_REPLACING_ARGUMENTS``) replaces the pool. With
``lifecycle { create_before_destroy = true }`` the new pool exists beside the old one for a
while, and the Kapsule API refuses two pools of one name in a cluster, so the name has to change
with the replacement: the provider generates one when ``name`` is absent (from 2.78), otherwise
the written name must depend on a replacing input (node_type, zone...) or on a ``random_*``
resource. Sources: TF ``docs/resources/k8s_pool.md`` and ``pool.go`` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md).

The questions here read expressions as written (the adapter's nodes, see
:mod:`kapsulint.parsing`) and follow references through locals, variable defaults, module
caller arguments, module outputs and other resources' configured arguments.
"""

from __future__ import annotations
from typing import NamedTuple


from kapsulint.api import Block, ModuleInstance, ResourceInstance
from kapsulint.kapsule import pool_options

RANDOM_RESOURCE_PREFIX = "random_"  # the hashicorp/random provider's resources
# References that name an instance, never its configuration: they stay the same on replacement.
INSTANCE_IDENTITY = (("each", "key"), ("count", "index"))
MAX_DEPTH = 40


def create_before_destroy(block: Block) -> bool:
    """Whether a resource block, as written, has ``lifecycle { create_before_destroy = true }``.

    Terraform requires a literal there (meta-arguments are not evaluated), so only a literal true
    counts; anything else is absent.
    """
    for lifecycle in block.children("lifecycle"):
        attribute = lifecycle.attr("create_before_destroy")
        if attribute is None or attribute.expr.get("t") != "lit":
            continue
        value = attribute.expr.get("v")
        if value is True or (isinstance(value, str) and value.strip().lower() == "true"):
            return True
    return False


def name_follows_replacement(instance: ResourceInstance, attribute: str = "name") -> bool | None:
    """Whether the argument ``attribute`` of a pool changes when the pool is replaced.

    True when its expression, followed through locals, variables, module arguments and outputs,
    reaches a ``random_*`` resource, names a replacing argument (``var.node_type``,
    ``each.value.zone``...), or shares an input with one of the pool's replacing arguments (the
    name uses ``var.type`` and ``node_type = var.type``). ``each.key`` and ``count.index`` identify
    the instance and never count. False when none of that holds; None when the argument is not
    written or the expression could not be followed to its end.
    """
    written = instance.block.attr(attribute)
    if written is None:
        return None
    owner = instance.resource.address
    name_walk = _Walk(exclude=attribute)
    name_walk.expr(instance.module, written.expr, owner)
    if name_walk.random or name_walk.names_replacing_argument:
        return True
    inputs_walk = _Walk(exclude=attribute)
    for argument in sorted(pool_options.POOL_REPLACING_ARGUMENTS - {attribute}):
        other = instance.block.attr(argument)
        if other is not None:
            inputs_walk.expr(instance.module, other.expr, owner)
    if _overlap(name_walk.inputs, inputs_walk.inputs):
        return True
    if name_walk.incomplete:
        return None
    return False


class _Input(NamedTuple):
    """A named value an expression reads (``var.x``, ``local.y.z``, ``each.value.type``, another
    resource's attribute), followed further or not. ``context`` says whose names these are
    (module instance, and the block binding ``each``/``count``)."""

    context: str
    path: tuple[str, ...]


def _overlap(names: set[_Input], inputs: set[_Input]) -> bool:
    for a in names:
        if a.path[:2] in INSTANCE_IDENTITY:
            continue
        for b in inputs:
            if a.context != b.context:
                continue
            shortest = min(len(a.path), len(b.path))
            if a.path[:shortest] == b.path[:shortest]:
                return True
    return False


def _context(module: ModuleInstance, owner: str = "") -> str:
    return f"{module.module.path}|{module.address}|{owner}"


class _Walk:
    """Collects the inputs of expressions, and whether they reach a random or replacing name."""

    def __init__(self, exclude: str) -> None:
        self.replacing = pool_options.POOL_REPLACING_ARGUMENTS - {exclude}
        self.inputs: set[_Input] = set()
        self.random = False
        self.names_replacing_argument = False
        self.incomplete = False
        self._visiting: set[tuple] = set()
        self._depth = 0

    # -- expressions --------------------------------------------------------------------------

    def expr(
        self,
        module: ModuleInstance,
        node,
        owner: str,
        suffix: tuple[str, ...] = (),
        bound: frozenset[str] = frozenset(),
    ) -> None:
        if not isinstance(node, dict) or "t" not in node:
            return
        kind = node["t"]
        if kind in ("var", "attr", "index"):
            chain = _chain(node)
            if chain is not None:
                root, steps = chain
                if root in bound:
                    for step in steps:  # keys of an index into a for variable
                        if step[0] == "index":
                            self.expr(module, step[1], owner, (), bound)
                    return
                self.reference(module, root, steps, owner, suffix, bound)
                return
            self.expr(module, node.get("obj"), owner, (), bound)
            if kind == "index":
                self.expr(module, node.get("key"), owner, (), bound)
            return
        if kind == "lit":
            return
        if kind == "paren":
            self.expr(module, node["e"], owner, suffix, bound)
            return
        if kind == "cond":
            self.expr(module, node["test"], owner, (), bound)
            self.expr(module, node["then"], owner, suffix, bound)
            self.expr(module, node["else"], owner, suffix, bound)
            return
        if kind == "object":
            if suffix:
                for key, value in node["items"]:
                    if key.get("t") == "lit" and str(key.get("v")) == suffix[0]:
                        self.expr(module, value, owner, suffix[1:], bound)
                        return
            for key, value in node["items"]:
                if key.get("t") != "lit":
                    self.expr(module, key, owner, (), bound)
                self.expr(module, value, owner, (), bound)
            return
        if kind in ("tmpl", "tif", "tfor"):
            self._template(module, node, owner, bound)
            return
        if kind == "for":
            self.expr(module, node["coll"], owner, (), bound)
            inner = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            for part in ("key", "value", "cond"):
                self.expr(module, node.get(part), owner, (), inner)
            return
        if kind == "splat":
            self.expr(module, node["obj"], owner, (), bound)
            for op, operand in node.get("ops", []):
                if op != "attr":
                    self.expr(module, operand, owner, (), bound)
            return
        # call, op, tuple and anything newer: every sub-expression counts.
        for value in node.values():
            if isinstance(value, dict):
                self.expr(module, value, owner, (), bound)
            elif isinstance(value, list):
                for item in value:
                    self.expr(module, item, owner, (), bound)

    def _template(self, module: ModuleInstance, node: dict, owner: str, bound: frozenset[str]) -> None:
        kind = node["t"]
        if kind == "tmpl":
            parts = node["parts"]
        elif kind == "tif":
            self.expr(module, node["cond"], owner, (), bound)
            parts = list(node.get("then") or []) + list(node.get("else") or [])
        else:
            self.expr(module, node["coll"], owner, (), bound)
            bound = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            parts = node.get("body") or []
        for part in parts:
            if isinstance(part, dict):
                self.expr(module, part, owner, (), bound)

    # -- references ---------------------------------------------------------------------------

    def reference(
        self,
        module: ModuleInstance,
        root: str,
        steps: list[tuple[str, object]],
        owner: str,
        suffix: tuple[str, ...],
        bound: frozenset[str],
    ) -> None:
        names: list[str] = []
        cut = False
        for kind, step in steps:
            if kind == "attr":
                if not cut:
                    names.append(step)  # type: ignore[arg-type]
                continue
            key = step if isinstance(step, dict) else {}
            if key.get("t") == "lit" and not cut:
                names.append(str(key.get("v")))
            else:
                cut = True
                self.expr(module, key, owner, (), bound)
        path = tuple(names) + (() if cut else suffix)
        attrs = [s for k, s in steps if k == "attr"]

        if root in ("each", "count"):
            self._flag(attrs)
            self.inputs.add(_Input(_context(module, owner), (root, *path)))
            return
        # A named value is an input in itself: the name and a replacing argument that both read
        # local.instance_type change together, even when that local is a plain literal.
        self.inputs.add(_Input(_context(module), (root, *path)))
        if root == "var":
            self._flag(attrs)
            self._variable(module, path)
            return
        if root == "local":
            self._flag(attrs)
            self._local(module, path)
            return
        if root == "module":
            self._flag(attrs[1:])
            self._module_output(module, path)
            return
        if root == "data":
            self._flag(attrs[2:])
            if len(path) >= 2:
                self._resource(module, f"data.{path[0]}.{path[1]}", steps[2:], path[2:], root, path)
            else:
                self._leaf(module, root, path)
            return
        if root in ("path", "terraform", "self"):
            self._leaf(module, root, path)
            return
        if root.startswith(RANDOM_RESOURCE_PREFIX):
            self.random = True
            return
        self._flag(attrs[1:])
        if path:
            self._resource(module, f"{root}.{path[0]}", steps[1:], path[1:], root, path)
        else:
            self._leaf(module, root, path)

    def _flag(self, attrs: list) -> None:
        if any(isinstance(a, str) and a in self.replacing for a in attrs):
            self.names_replacing_argument = True

    def _leaf(self, module: ModuleInstance, root: str, path: tuple[str, ...]) -> None:
        self.inputs.add(_Input(_context(module), (root, *path)))

    def _enter(self, key: tuple) -> bool:
        if key in self._visiting:
            return False
        if self._depth >= MAX_DEPTH:
            self.incomplete = True
            return False
        self._visiting.add(key)
        self._depth += 1
        return True

    def _leave(self, key: tuple) -> None:
        self._visiting.discard(key)
        self._depth -= 1

    def _variable(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        if not path:
            self._leaf(module, "var", path)
            return
        name, rest = path[0], path[1:]
        key = (id(module), "var", name)
        if not self._enter(key):
            return
        try:
            followed = False
            if module.call is not None and module.parent is not None:
                argument = module.call.block.attr(name)
                if argument is not None:
                    self.expr(module.parent, argument.expr, "call:" + module.address, rest)
                    followed = True
            elif name in module.root_values:
                self._leaf(module, "var", path)  # from tfvars or --var: a value, no expression
                followed = True
            declared = module.module.variables.get(name)
            if declared is not None and declared.default is not None:
                self.expr(module, declared.default.expr, "", rest)
                followed = True
            if not followed:
                self._leaf(module, "var", path)
        finally:
            self._leave(key)

    def _local(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        attribute = module.module.locals.get(path[0]) if path else None
        if attribute is None:
            self._leaf(module, "local", path)
            return
        key = (id(module), "local", path[0])
        if not self._enter(key):
            return
        try:
            self.expr(module, attribute.expr, "", path[1:])
        finally:
            self._leave(key)

    def _module_output(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        if len(path) < 2:
            self._leaf(module, "module", path)
            return
        call = module.module.calls.get(path[0])
        rest = path[1:]
        if call is not None and (call.block.attr("count") or call.block.attr("for_each")):
            rest = rest[1:]  # module.x["key"].output
        children = module.child_instances(path[0]) if call is not None else []
        followed = False
        for child in children:
            output = child.module.outputs.get(rest[0]) if rest else None
            value = output.attr("value") if output is not None else None
            if value is None:
                continue
            key = (id(child), "output", rest[0])
            if not self._enter(key):
                continue
            try:
                self.expr(child, value.expr, "", rest[1:])
                followed = True
            finally:
                self._leave(key)
        if not followed:
            self._leaf(module, "module", path)

    def _resource(
        self,
        module: ModuleInstance,
        address: str,
        steps: list[tuple[str, object]],
        rest: tuple[str, ...],
        root: str,
        path: tuple[str, ...],
    ) -> None:
        resource = module.module.resources.get(address)
        if resource is None:
            self._leaf(module, root, path)
            return
        if (resource.block.attr("count") or resource.block.attr("for_each")) and steps and steps[0][0] == "index":
            rest = rest[1:]
        argument = resource.block.attr(rest[0]) if rest else None
        if argument is None:  # computed by the provider, or a nested block: an input of its own
            self._leaf(module, root, path)
            return
        key = (id(module), "resource", address, rest[0])
        if not self._enter(key):
            return
        try:
            self.expr(module, argument.expr, address, rest[1:])
        finally:
            self._leave(key)


def _chain(node: dict) -> tuple[str, list[tuple[str, object]]] | None:
    """``a.b[k].c`` as (root name, [("attr", "b"), ("index", k node), ("attr", "c")])."""
    steps: list[tuple[str, object]] = []
    current = node
    while current.get("t") in ("attr", "index"):
        if current["t"] == "attr":
            steps.append(("attr", current["name"]))
        else:
            steps.append(("index", current["key"]))
        current = current["obj"]
    if current.get("t") != "var":
        return None
    steps.reverse()
    return current["name"], steps
