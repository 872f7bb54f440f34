"""A plan bound to the project: each planned change tied to the resource block, and where it can
be, the resource instance, that its address names in the root module the plan was made in.

The root module is the directory given as the first PATH when it holds configuration files; else
the one root module under it whose blocks the plan's configuration names (several: ambiguous).
An address is followed the way Terraform builds it: module calls and their instance keys, then
the block (``TYPE.NAME`` or ``data.TYPE.NAME``), then the instance key. A change whose block is not
found is ``ABSENT`` (the plan does not match the code) unless the plan itself says the block or its
module instance left the configuration (``CONFIGURATION_GONE``), or the way to it crosses a module
that was not read or a file that did not parse (``UNREAD``: nothing can be said there).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple, Protocol

from kapsulint.findings import Loc
from kapsulint.model.instances import ModuleInstance, ResourceInstance
from kapsulint.model.modules import Block, Module, Resource
from kapsulint.model.plan import Plan, PlannedChange
from kapsulint.terraform.values import UNKNOWN, Val

INSTANCE = "instance"  # the block and the instance of the same key
BLOCK = "block"  # the block, not the instance (its keys are Unknown, or differ from what kapsulint evaluates)
GONE = "gone"  # the plan says the configuration no longer holds it
ABSENT = "absent"  # not in the project: the plan does not match the code
UNREAD = "unread"  # behind a module not read, or a file that did not parse
MAX_MODULE_DEPTH = 50
MAX_TREE = 20_000  # module instances of one root's tree followed, at most


class PlanMismatch(ValueError):
    """The plan is not one of the configuration at the given directory; the message says so."""


class PlanProject(Protocol):
    """What binding needs of the project (:class:`kapsulint.model.project.Project`)."""

    modules: dict[str, Module]

    def top_instances(self) -> list[ModuleInstance]: ...

    def root_instance(self, directory: str) -> ModuleInstance: ...

    def relative(self, path: str) -> str: ...


class BoundChange:
    """A planned change and the place of the project it belongs to."""

    change: PlannedChange
    status: str  # INSTANCE, BLOCK, GONE, ABSENT or UNREAD
    module: ModuleInstance | None  # the module instance holding the block (the deepest reached)
    resource: Resource | None
    instance: ResourceInstance | None

    def __init__(self, change: PlannedChange, status: str, module: ModuleInstance | None,
                 resource: Resource | None = None, instance: ResourceInstance | None = None) -> None:
        self.change = change
        self.status = status
        self.module = module
        self.resource = resource
        self.instance = instance

    def __repr__(self) -> str:
        return f"BoundChange({self.change.text} {self.status})"

    @property
    def block(self) -> Block | None:
        return self.resource.block if self.resource is not None else None

    @property
    def loc(self) -> Loc:
        """Where a finding about this change points: the block's header, else the change in the plan file."""
        block = self.block
        return block.loc if block is not None else self.change.loc

    @property
    def subject(self) -> str:
        """The address the change names (its deposed object said), for messages and baselines."""
        deposed = f" (deposed object {self.change.deposed})" if self.change.deposed else ""
        return self.change.text + deposed

    def argument_loc(self, name: str) -> Loc | None:
        """Where the block writes argument (or nested block) ``name``, as written; None when it does not."""
        block = self.block
        if block is None:
            return None
        attribute = block.attr(name)
        if attribute is not None:
            return attribute.loc
        children = block.children(name)
        if children:
            return children[0].loc
        for dynamic in block.children("dynamic"):
            if dynamic.labels[:1] == [name]:
                return dynamic.loc
        return None

    def before(self, *path: str) -> Val:
        """A value before the action, masked where the plan or the project marks it sensitive."""
        return self._masked(self.change.before.path(*path), path)

    def after(self, *path: str) -> Val:
        """A value after the action (Unknown where known only after apply), masked likewise."""
        return self._masked(self.change.after.path(*path), path)

    def _masked(self, value: Val, path: tuple[str, ...]) -> Val:
        if path and self.instance is not None and not value.contains_sensitive() and self.instance.arg(path[0]).contains_sensitive():
            return value.with_sensitive()
        return value


class PlanBinding:
    """The plan's changes bound to the project, and the blocks of the project the plan lacks."""

    plan: Plan
    name: str  # the plan file as messages name it (from the project root, else its file name)
    root: ModuleInstance
    directory: str  # the root module's directory, as messages name it
    changes: list[BoundChange]
    not_in_plan: list[tuple[Block, str]]  # (block, its address) the plan's configuration does not hold

    def __init__(self, plan: Plan, name: str, root: ModuleInstance, directory: str, changes: list[BoundChange],
                 not_in_plan: list[tuple[Block, str]]) -> None:
        self.plan = plan
        self.name = name
        self.root = root
        self.directory = directory
        self.changes = changes
        self.not_in_plan = not_in_plan

    def of_type(self, resource_type: str, mode: str = "managed") -> list[BoundChange]:
        return [b for b in self.changes if b.change.address.type == resource_type and b.change.address.mode == mode]


class _Tree(NamedTuple):
    """A module of the root's tree as written: its call names from the root and the module."""

    names: tuple[str, ...]
    module: Module
    calls: tuple[Block, ...]  # the call blocks leading to it
    path: frozenset[str]  # the module directories on the way (a module reached again is a cycle)


def bind_plan(project: PlanProject, plan: Plan, directory: Path) -> PlanBinding:
    """Bind ``plan`` to the root module at ``directory`` (see the module docstring); raises
    :class:`PlanMismatch` when none of the plan's resources is in the project there."""
    root = _choose_root(project, plan, directory)
    changes = [_bind(root, change) for change in plan.changes]
    binding = PlanBinding(plan, _plan_name(project, plan), root, project.relative(root.module.path),
                          changes, _not_in_plan(root, plan))
    _check_match(binding)
    return binding


def _choose_root(project: PlanProject, plan: Plan, directory: Path) -> ModuleInstance:
    wanted = os.path.normpath(str(directory))
    tops = project.top_instances()
    for instance in tops:
        if instance.module.path == wanted:
            return instance
    module = project.modules.get(wanted)
    if module is not None and module.files:
        return project.root_instance(wanted)  # a module another one calls, planned as a root
    candidates = [i for i in tops if _under(i.module.path, wanted)]
    scored = sorted(((_score(i.module, plan), i) for i in candidates), key=lambda pair: -pair[0])
    shown = _shown(wanted)
    if not scored or scored[0][0] == 0:
        raise PlanMismatch(f"{_shown(plan.path)} does not match the configuration at {shown}: no root module "
                           f"there defines {_examples(_planned(plan))}; give as PATH the directory the plan was made in")
    if len(scored) > 1 and scored[1][0] == scored[0][0]:
        names = ", ".join(_shown(i.module.path) for score, i in scored[:3] if score == scored[0][0])
        raise PlanMismatch(f"{_shown(plan.path)} matches several root modules under {shown} ({names}); "
                           "give as PATH the directory the plan was made in")
    return scored[0][1]


def _under(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _score(module: Module, plan: Plan) -> int:
    wanted = plan.configuration_blocks or frozenset((c.address.module_names, c.address.block) for c in plan.changes)
    present = {(tree.names, address) for tree in _tree(module)
               for address in (*tree.module.resources, *tree.module.check_data)}
    return len(wanted & present)


def _tree(module: Module) -> list[_Tree]:
    """The modules of a root's tree as written, each once per call path."""
    found: list[_Tree] = []
    pending = [_Tree((), module, (), frozenset({module.path}))]
    while pending and len(found) < MAX_TREE:
        current = pending.pop()
        found.append(current)
        if len(current.names) >= MAX_MODULE_DEPTH:
            continue
        for name, call in current.module.calls.items():
            if call.target is not None and call.target.path not in current.path:
                pending.append(_Tree((*current.names, name), call.target, (*current.calls, call.block),
                                     current.path | {call.target.path}))
    return found


def _bind(root: ModuleInstance, change: PlannedChange) -> BoundChange:
    address = change.address
    module = root
    for step in address.modules:
        call = module.module.calls.get(step.name)
        if call is None:
            return BoundChange(change, _missing(change, module.module), module)
        if call.target is None or call.target.broken:
            return BoundChange(change, UNREAD, module)
        children = module.child_instances(step.name)
        if not children:  # nested too deep to expand
            return BoundChange(change, UNREAD, module)
        exact = [child for child in children if _same_key(child.key, step.key)]
        module = exact[0] if exact else children[0]
        if not exact:
            return _bind_block(change, module, exact_module=False)
    return _bind_block(change, module, exact_module=True)


def _bind_block(change: PlannedChange, module: ModuleInstance, exact_module: bool) -> BoundChange:
    resource = _block(module.module, change.address.block)
    if resource is None:
        return BoundChange(change, _missing(change, module.module), module)
    if exact_module:
        for instance in module.resource_instances(resource):
            if _same_key(instance.key, change.address.key):
                return BoundChange(change, INSTANCE, module, resource, instance)
    return BoundChange(change, BLOCK, module, resource)


def _block(module: Module, address: str) -> Resource | None:
    """A resource or data block of a module by address, a data source nested in a ``check`` too."""
    return module.resources.get(address) or module.check_data.get(address)


def _missing(change: PlannedChange, module: Module) -> str:
    if change.configuration_gone:
        return GONE
    return UNREAD if module.broken else ABSENT


def _same_key(ours: object, theirs: object) -> bool:
    if ours is UNKNOWN:
        return False
    if ours is None or theirs is None:
        return ours is theirs
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return False
    if isinstance(ours, int) and isinstance(theirs, int):
        return ours == theirs
    return isinstance(ours, str) and isinstance(theirs, str) and ours == theirs


def _not_in_plan(root: ModuleInstance, plan: Plan) -> list[tuple[Block, str]]:
    """Blocks of the root's tree that the plan's configuration does not hold: the plan was made
    before they were written, or of another configuration. A module call the configuration does
    not hold is one entry (its blocks are not listed)."""
    if not plan.has_configuration:
        return []
    missing: list[tuple[Block, str]] = []
    for tree in _tree(root.module):
        if tree.names not in plan.configuration_modules:
            if tree.names and tree.names[:-1] in plan.configuration_modules and tree.calls:
                address = ".".join(f"module.{name}" for name in tree.names)
                missing.append((tree.calls[-1], address))
            continue
        if tree.module.broken:
            continue
        prefix = "".join(f"module.{name}." for name in tree.names)
        for address, resource in (*tree.module.resources.items(), *tree.module.check_data.items()):
            if "#" in address:  # a second definition (KAP006)
                continue
            if (tree.names, address) not in plan.configuration_blocks:
                missing.append((resource.block, prefix + address))
    return missing


def _check_match(binding: PlanBinding) -> None:
    plan = binding.plan
    found = [b for b in binding.changes if b.status in (INSTANCE, BLOCK)]
    needed = [b for b in binding.changes if b.status == ABSENT]
    shown = _shown(binding.root.module.path)
    if not found and needed:
        what = (f"the resource instance it plans for ({_examples([b.change.text for b in needed])}) is" if len(needed) == 1
                else f"none of the {len(needed)} resource instances it plans for "
                     f"({_examples([b.change.text for b in needed])}) is")
        raise PlanMismatch(f"{_shown(plan.path)} does not match the configuration at {shown}: {what} "
                           "not defined there; give as PATH the directory the plan was made in")
    defined = [r for tree in _tree(binding.root.module) for r in tree.module.resources.values()]
    if not plan.changes and not plan.configuration_blocks and defined and plan.has_configuration:
        raise PlanMismatch(f"{_shown(plan.path)} plans for no resource, while the configuration at {shown} "
                           f"defines {len(defined)}: it is the plan of another configuration")


def _shown(path: str) -> str:
    """A path as an error message on stderr names it: from the working directory."""
    return os.path.relpath(path)


def _plan_name(project: PlanProject, plan: Plan) -> str:
    relative = project.relative(plan.path)
    return relative if not relative.startswith("..") else os.path.basename(plan.path)


def _planned(plan: Plan) -> list[str]:
    """The addresses a plan names: its changes, else its configuration's blocks."""
    return [c.address.text for c in plan.changes] or [
        ".".join([*(f"module.{n}" for n in calls), address]) for calls, address in plan.configuration_blocks]


def _examples(addresses: list[str]) -> str:
    names = sorted(set(addresses))
    if not names:
        return "no resource"
    shown = ", ".join(names[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


__all__ = [
    "ABSENT",
    "BLOCK",
    "BoundChange",
    "GONE",
    "INSTANCE",
    "PlanBinding",
    "PlanMismatch",
    "UNREAD",
    "bind_plan",
]
