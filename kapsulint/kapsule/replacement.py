"""Pool replacement: what happens to a pool's arguments when Terraform replaces it.

A change to an argument the provider marks ForceNew replaces the pool: which ones depends on the
provider version (:mod:`kapsulint.kapsule.replacement_facts`, :func:`pool_replacing_arguments`). With
``lifecycle { create_before_destroy = true }`` the new pool exists beside the old one for a
while, and the Kapsule API refuses two pools of one name in a cluster, so the name has to change
with the replacement: the provider generates one when ``name`` is absent (from 2.78), otherwise
the written name must depend on a replacing input (node_type, zone...) or on a ``random_*``
resource. Sources: the provider's documentation and schema
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md,
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go).

The questions here read expressions as written (the references :func:`kapsulint.api.references`
finds) and follow them through locals, variable defaults, module caller arguments, module outputs
and other resources' configured arguments.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import (
    Block,
    ModuleInstance,
    Reference,
    ReferenceWalk,
    ResourceInstance,
    Step,
    Version,
    caller_argument,
    is_expanded,
    local_value,
    module_outputs,
    resource_argument,
    variable_default,
)
from kapsulint.kapsule import replacement_facts
from kapsulint.kapsule.clusters import DefaultPoolInstance

RANDOM_RESOURCE_PREFIX = "random_"  # the hashicorp/random provider's resources
# References that name an instance, never its configuration: they stay the same on replacement.
INSTANCE_IDENTITY = (("each", "key"), ("count", "index"))


def create_before_destroy(block: Block) -> bool:
    """Whether a resource block, as written, has ``lifecycle { create_before_destroy = true }``.

    Terraform requires a literal there (meta-arguments are not evaluated), so only a literal true
    counts; anything else is absent.
    """
    for lifecycle in block.children("lifecycle"):
        attribute = lifecycle.attr("create_before_destroy")
        if attribute is None or not attribute.is_literal:
            continue
        value = attribute.literal_value
        if value is True or (isinstance(value, str) and value.strip().lower() == "true"):
            return True
    return False


def pool_replacing_arguments(version: Version | None) -> frozenset[str]:
    """The pool arguments whose change replaces a pool at provider ``version``; when the version is
    not known (or newer than the facts), every argument that replaces a pool in some release checked."""
    known = replacement_facts.replacing_arguments(replacement_facts.POOL, version)
    return known if known is not None else replacement_facts.ever_replacing(replacement_facts.POOL)


# Replacing arguments a pool name need not follow: a new cluster (``cluster_id``, or ``region``,
# which only a new cluster changes) holds no pool of the old name.
NAME_NEED_NOT_FOLLOW = frozenset({"cluster_id", "region"})


def name_follows_replacement(instance: ResourceInstance, attribute: str = "name",
                             version: Version | None = None) -> bool | None:
    """Whether the argument ``attribute`` of a pool changes whenever the pool is replaced at
    provider ``version``: True when it follows every replacing argument written in the block
    (:func:`arguments_name_misses` finds none), False when it misses one, None when that cannot
    be told."""
    missed = arguments_name_misses(instance, attribute, version)
    return None if missed is None else not missed


def arguments_name_misses(instance: ResourceInstance | DefaultPoolInstance, attribute: str = "name",
                          version: Version | None = None) -> tuple[str, ...] | None:
    """The replacing arguments at provider ``version`` (:func:`pool_replacing_arguments`) written
    in the pool block (``node_type``, ``zone``, the root volume...; not ``cluster_id`` or
    ``region``) whose change leaves the argument ``attribute`` as it was, sorted.

    The name follows an argument when its expression, followed through locals, variables, module
    arguments and outputs, names that argument (``var.node_type``, ``each.value.zone``...) while
    the argument is not a literal, or shares an input with the argument's expression (the name
    uses ``var.type`` and ``node_type = var.type``); a name reaching a ``random_*`` resource follows
    them all. ``each.key`` and ``count.index`` identify the instance and never count. An argument
    written as a literal is followed by nothing: changing it keeps the name. None when the
    argument ``attribute`` is not written, or when its expression could not be followed to its
    end and some argument looks missed.
    """
    written = instance.block.attr(attribute)
    if written is None:
        return None
    owner = instance.resource.address
    replacing = pool_replacing_arguments(version) - {attribute}
    name_walk = _Walk(replacing)
    name_walk.walk(instance.module, written.expression, (), owner)
    if name_walk.random:
        return ()
    missed = []
    for argument in sorted(replacing - NAME_NEED_NOT_FOLLOW):
        other = instance.block.attr(argument)
        if other is None:
            continue
        if other.is_literal:
            missed.append(argument)
            continue
        if argument in name_walk.flagged:
            continue
        inputs_walk = _Walk(replacing)
        inputs_walk.walk(instance.module, other.expression, (), owner)
        if not _overlap(name_walk.inputs, inputs_walk.inputs):
            missed.append(argument)
    if missed and name_walk.incomplete:
        return None
    return tuple(missed)


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


class _Walk(ReferenceWalk[str]):
    """Collects the inputs of expressions, and whether they reach a random or replacing name; the
    context is the block whose ``each`` and ``count`` the references name (its address, or
    ``call:`` and the module instance's for a module call's arguments)."""

    def __init__(self, replacing: frozenset[str]) -> None:
        super().__init__()
        self.replacing = replacing
        self.inputs: set[_Input] = set()
        self.random = False
        self.flagged: set[str] = set()  # the replacing arguments the expression names

    def reference(self, module: ModuleInstance, ref: Reference, owner: str) -> None:
        root, steps, path, attrs = ref.root, ref.steps, ref.known_path, ref.attributes
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

    def _flag(self, attrs: tuple[str, ...]) -> None:
        self.flagged.update(a for a in attrs if isinstance(a, str) and a in self.replacing)

    def _leaf(self, module: ModuleInstance, root: str, path: tuple[str, ...]) -> None:
        self.inputs.add(_Input(_context(module), (root, *path)))

    def _variable(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        if not path:
            self._leaf(module, "var", path)
            return
        name, rest = path[0], path[1:]
        key = (id(module), "var", name)
        if not self.enter(key):
            return
        try:
            followed = False
            argument = caller_argument(module, name)
            if argument is not None:
                self.walk(argument[0], argument[1], rest, "call:" + module.address)
                followed = True
            elif (module.call is None or module.parent is None) and name in module.root_values:
                self._leaf(module, "var", path)  # from tfvars or --var: a value, no expression
                followed = True
            default = variable_default(module, name)
            if default is not None:
                self.walk(module, default, rest, "")
                followed = True
            if not followed:
                self._leaf(module, "var", path)
        finally:
            self.leave(key)

    def _local(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        value = local_value(module, path[0]) if path else None
        if value is None:
            self._leaf(module, "local", path)
            return
        self.follow((id(module), "local", path[0]), module, value, path[1:], "")

    def _module_output(self, module: ModuleInstance, path: tuple[str, ...]) -> None:
        followed = False
        for output in module_outputs(module, path):
            key = (id(output.module), "output", output.name)
            followed = self.follow(key, output.module, output.expression, output.rest, "") or followed
        if not followed:
            self._leaf(module, "module", path)

    def _resource(
        self,
        module: ModuleInstance,
        address: str,
        steps: tuple[Step, ...],
        rest: tuple[str, ...],
        root: str,
        path: tuple[str, ...],
    ) -> None:
        resource = module.module.resources.get(address)
        if resource is None:
            self._leaf(module, root, path)
            return
        if is_expanded(resource) and steps and not steps[0].attribute:
            rest = rest[1:]
        argument = resource_argument(resource, rest[0]) if rest else None
        if argument is None:  # computed by the provider, or a nested block: an input of its own
            self._leaf(module, root, path)
            return
        self.follow((id(module), "resource", address, rest[0]), module, argument, rest[1:], address)
