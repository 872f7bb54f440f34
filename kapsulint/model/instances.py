"""Module instances and resource instances: where expressions get their values.

A module is evaluated once per call with its caller's arguments (a root module with its tfvars,
a module no one calls with its defaults). Resources expand into instances by ``count`` or
``for_each``; a reference to another resource's argument evaluates to its configured value, and
anything the provider computes is Unknown carrying a reference back to that instance.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterator
from typing import Protocol

from kapsulint.boundary import OUTSIDE, Boundary, Refused, shown_path
from kapsulint.findings import Loc
from kapsulint.model.modules import Attribute, Block, Module, ModuleCall, Resource, Variable, declares_sensitive
from kapsulint.terraform.budget import Budget
from kapsulint.terraform.errors import EvalError, InvalidReference
from kapsulint.terraform.evaluate import EMPTY_SCOPE, Evaluator, Scope, index_value, iteration_pairs, number
from kapsulint.terraform.functions.names import suggestion
from kapsulint.terraform.typeexpr import NO_CONSTRAINT, convert_variable, parse_type_constraint, prepare_default
from kapsulint.terraform.values import UNKNOWN, Val, unknown_from


class ProjectFiles(Protocol):
    """What module instances need of the project: the files Terraform functions read, parsed once,
    and the run's evaluation budget."""

    budget: Budget

    def read_text(self, path: str) -> str | None: ...

    def read_bytes(self, path: str) -> bytes | None: ...

    def template(self, path: str) -> dict | None: ...

    def parse_yaml_text(self, text: str, path: str | None = None) -> dict: ...

    def note(self, kind: str, loc: Loc, message: str) -> None: ...

    @property
    def boundary(self) -> Boundary: ...

    def record_sensitive(self, value: Val) -> None: ...

    def record_read(self, root: str, path: str) -> None: ...

    def shared_module(self, path: str) -> bool: ...

    def relative(self, path: str) -> str: ...


MAX_MODULE_DEPTH = 16
MAX_EXPANDED = 1000  # instances expand_block gives a count or for_each; past it, which exist is not known
MAX_LISTED = 10_000  # files fileset() may walk before it gives Unknown
# A variable so named is sensitive to kapsulint even when not declared so: its value is never
# printed (Terraform would print it; kapsulint masks more, never less).
SECRET_NAME = re.compile(r"secret|token|password", re.IGNORECASE)


class ModuleInstance:
    def __init__(
        self,
        project: ProjectFiles,
        module: Module,
        address: str = "",
        parent: ModuleInstance | None = None,
        call: ModuleCall | None = None,
        call_scope: Scope = EMPTY_SCOPE,
        root_values: dict[str, Val] | None = None,
        written: bool = False,
        key: object = None,
    ) -> None:
        self.project = project
        self.key = key  # the call's instance key: None, an int (count), a str (for_each) or UNKNOWN
        self.written = written  # a module call with no instance, judged as written: no resource exists
        self.module = module
        self.address = address
        self.parent = parent
        self.call = call
        self.call_scope = call_scope
        self._context: FunctionContext | None = None
        self.root_values = root_values or {}
        self.evaluator = Evaluator(self, project.budget)
        self._variables: dict[str, Val] = {}
        self._locals: dict[str, Val] = {}
        self._arguments: dict[tuple[Attribute, Scope], Val] = {}
        self._in_progress: set[str] = set()
        self._resource_instances: dict[str, list[ResourceInstance]] = {}
        self.provider_versions: dict[tuple[str, str], object] = {}  # a root's, by (local name, source)
        self.children: dict[str, list[ModuleInstance]] = {}

    def __repr__(self) -> str:
        return f"ModuleInstance({self.address or '<root>'} {self.module.path})"

    @property
    def root(self) -> ModuleInstance:
        instance = self
        while instance.parent is not None:
            instance = instance.parent
        return instance

    @property
    def root_label(self) -> str:
        """`` (root infra/prod)`` when another root module reaches this instance's module too:
        Terraform's address is then the same under both roots, and the owner needs to know which
        ``terraform apply`` is meant (the root's path from the project root); else empty."""
        if self.parent is None or not self.project.shared_module(self.module.path):
            return ""
        return f" (root {self.project.relative(self.root.module.path)})"

    @property
    def depth(self) -> int:
        return 0 if self.parent is None else self.parent.depth + 1

    def eval(self, node: dict | None, path: str, scope: Scope = EMPTY_SCOPE) -> Val:
        return self.evaluator.eval(node, path, scope)

    def function_context(self, path: str) -> FunctionContext:
        """What ``file()``, ``templatefile()`` and the path functions need, for a call in ``path``."""
        if self._context is None:
            self._context = FunctionContext(self)
        return self._context

    def note(self, kind: str, loc: Loc, message: str) -> None:
        """A place this instance's evaluation could not judge, recorded with the project."""
        self.project.note(kind, loc, message)

    def eval_attr(self, block: Block, name: str, scope: Scope = EMPTY_SCOPE) -> Val:
        """An argument of ``block`` in ``scope``, evaluated once per scope: values never change,
        so the evaluation that looks for blind spots and every rule that asks again share it."""
        attribute = block.attr(name)
        if attribute is None:
            return Val(None)
        key = (attribute, scope)  # both compared by identity, and kept alive by the key
        value = self._arguments.get(key)
        if value is None:
            value = self._arguments[key] = self.eval(attribute.expr, attribute.path, scope)
        return value

    # -- names --------------------------------------------------------------------------------

    def variable(self, name: str) -> Val:
        if name in self._variables:
            return self._variables[name]
        key = "var." + name
        if key in self._in_progress:
            return Val(UNKNOWN)
        self._in_progress.add(key)
        try:
            value = self._variable(name)
        finally:
            self._in_progress.discard(key)
        self._variables[name] = value
        return value

    def _variable(self, name: str) -> Val:
        declared = self.module.variables.get(name)
        given: Val | None = None
        if self.call is not None:
            argument = self.call.block.attr(name)
            if argument is not None and self.parent is not None:
                given = self.parent.eval(argument.expr, argument.path, self.call_scope)
        elif name in self.root_values:
            given = self.root_values[name]
        if declared is None:
            value = given if given is not None else Val(UNKNOWN)
        else:
            try:
                value = self._typed(declared, given)
            except EvalError:  # Terraform refuses the value: nothing to judge
                value = Val(UNKNOWN, given.loc if given is not None else declared.block.loc)
        if (declared is not None and declared.sensitive) or SECRET_NAME.search(name):
            self.project.record_sensitive(value)
            value = value.with_sensitive()  # its declared type kept
        return value

    def _typed(self, declared: Variable, given: Val | None) -> Val:
        """A variable's value as Terraform prepares it: its type's ``optional()`` defaults applied,
        converted to its type, its default when it is not set (or null and not nullable)."""
        constraint = NO_CONSTRAINT
        if declared.type_expr is not None:
            written = declared.block.attr("type")
            path = written.path if written is not None else declared.block.path
            constraint = parse_type_constraint(declared.type_expr,
                                               lambda node: self.evaluator.eval_strict(node, path))
        default = None
        if declared.default is not None:
            written = declared.default
            default = prepare_default(self.evaluator.eval_strict(written.expr, written.path), constraint,
                                      declared.nullable)
        return convert_variable(given, constraint, name=declared.name, default=default, nullable=declared.nullable)

    def local(self, name: str) -> Val:
        if name in self._locals:
            return self._locals[name]
        key = "local." + name
        attribute = self.module.locals.get(name)
        if attribute is None or key in self._in_progress:
            return Val(UNKNOWN)
        self._in_progress.add(key)
        try:
            value = self.eval(attribute.expr, attribute.path)
        finally:
            self._in_progress.discard(key)
        self._locals[name] = value
        return value

    def resolve_root(self, root: str, steps: list, loc: Loc, scope: Scope) -> Val:
        """A reference ``root.steps...`` at ``loc``."""
        value, rest = self._resolve_head(root, steps, loc, scope)
        for step in rest:
            if isinstance(step, str):
                value = self.evaluator.get_attr(value, step)
            else:
                value = index_value(value, step)
        return value

    def _resolve_head(self, root: str, steps: list, loc: Loc, scope: Scope) -> tuple[Val, list]:
        """The value ``root`` and its first steps name, and the steps left to apply to it.

        References to what the module does not declare are :class:`InvalidReference`, as
        Terraform's reference checks make them (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/references.go)."""
        name = steps[0] if steps and isinstance(steps[0], str) else None
        if root == "var":
            if name is None or name not in self.module.variables:
                found = suggestion(name or "", self.module.variables)
                hint = f'Did you mean "{found}"?' if found else f'This variable can be declared with a variable "{name or ""}" {{}} block.'
                raise InvalidReference(f'Reference to undeclared input variable: An input variable with the name "{name or ""}" has '
                                       f"not been declared. {hint}")
            return self.variable(name), steps[1:]
        if root == "local":
            if name is None or name not in self.module.locals:
                found = suggestion(name or "", self.module.locals)
                hint = f' Did you mean "{found}"?' if found else ""
                raise InvalidReference(f'Reference to undeclared local value: A local value with the name "{name or ""}" has '
                                       f"not been declared.{hint}")
            return self.local(name), steps[1:]
        if root == "path":
            paths = {"module": posixpath.relpath(self.module.path, self.root.module.path),
                     "root": ".", "cwd": self.root.module.path}
            if name not in paths:
                raise InvalidReference(f'Invalid "path" attribute: The "path" object does not have an attribute named "{name or ""}".')
            return Val(paths[name], loc), steps[1:]
        if root == "module":
            if name is None or name not in self.module.calls:
                found = suggestion(name or "", sorted(self.module.calls), first_in_order=True)
                hint = f' Did you mean "{found}"?' if found else ""
                raise InvalidReference(f'Reference to undeclared module: No module call named "{name or ""}" is declared in '
                                       f"{self._display_path()}.{hint}")
            return self._module_output(name, steps[1:], loc)
        if root == "data":
            if len(steps) < 2 or not all(isinstance(s, str) for s in steps[:2]):
                raise InvalidReference("Invalid data resource reference.")
            resource = self.module.resources.get(f"data.{steps[0]}.{steps[1]}")
            if resource is None:
                raise InvalidReference(f'Reference to undeclared resource: A data resource "{steps[0]}" "{steps[1]}" has not '
                                      f'been declared in {self._display_path()}.')
            return self._resource_reference(resource, steps[2:], loc)
        if root == "terraform":
            if name != "workspace":
                raise InvalidReference(f'Invalid "terraform" attribute: The "terraform" object does not have an attribute named "{name or ""}".')
            return Val(UNKNOWN, loc), []  # the selected workspace is the machine's, not the code's
        if root == "count":
            raise InvalidReference('Reference to "count" in non-counted context.')
        if root == "each":
            raise InvalidReference('Reference to "each" in context without for_each.')
        if root == "self":
            raise InvalidReference('Invalid "self" reference: The "self" object is not available in this context.')
        if name is None:
            raise InvalidReference("Invalid reference: A reference to a resource type must be followed by at least "
                                   "one attribute access, specifying the resource name.")
        resource = self.module.resources.get(f"{root}.{name}")
        if resource is None:
            raise InvalidReference(f'Reference to undeclared resource: A managed resource "{root}" "{name}" has not been '
                                   f'declared in {self._display_path()}.')
        return self._resource_reference(resource, steps[1:], loc)

    def _display_path(self) -> str:
        """The module as Terraform's reference errors name it: "the root module", or its calls
        without instance keys (``module.a.module.b``)."""
        names: list[str] = []
        instance: ModuleInstance | None = self
        while instance is not None and instance.call is not None:
            names.append(f"module.{instance.call.name}")
            instance = instance.parent
        return ".".join(reversed(names)) or "the root module"

    # -- resources ----------------------------------------------------------------------------

    def resource_instances(self, resource: Resource) -> list[ResourceInstance]:
        if self.written:
            return []  # Project.resources gives each block once as written
        key = resource.address if resource.definition == 1 else f"{resource.address}#{resource.definition}"
        found = self._resource_instances.get(key)  # by definition: a duplicate block has instances of its own
        if found is None:
            if key in self._in_progress:
                return [ResourceInstance(self, resource, UNKNOWN, EMPTY_SCOPE)]
            self._in_progress.add(key)
            try:
                found = list(self._expand(resource))
            finally:
                self._in_progress.discard(key)
            self._resource_instances[key] = found
        return found

    def _expand(self, resource: Resource) -> Iterator[ResourceInstance]:
        for key, scope in expand_block(self, resource.block):
            yield ResourceInstance(self, resource, key, scope)

    def _resource_reference(self, resource: Resource, steps: list, loc: Loc) -> tuple[Val, list]:
        block = resource.block
        instances = self.resource_instances(resource)
        if block.attr("count") or block.attr("for_each"):
            if not steps or isinstance(steps[0], str):
                return Val(UNKNOWN, loc), []  # the whole collection of instances
            key = steps[0]
            steps = steps[1:]
            if not key.known:
                instance = ResourceInstance(self, resource, UNKNOWN, EMPTY_SCOPE)
            else:
                text = key.text()
                match = [i for i in instances if i.key is not UNKNOWN and str(i.key) == text]
                instance = match[0] if match else ResourceInstance(self, resource, UNKNOWN, EMPTY_SCOPE)
        else:
            instance = instances[0] if instances else ResourceInstance(self, resource, None, EMPTY_SCOPE)
        if not steps:
            return Val(UNKNOWN, loc, ref=(instance, None)), []
        return self.resource_attribute(instance, steps, loc), []

    def resource_attribute(self, instance: ResourceInstance, steps: list, loc: Loc | None) -> Val:
        """``steps`` into a resource instance: configured arguments, else Unknown with a ref."""
        name = steps[0]
        value = instance.arg(name) if isinstance(name, str) else Val(None)
        if value.raw is None and isinstance(name, str):
            blocks = instance.nested(name)
            if blocks:
                value = Val([b.value() for b in blocks], loc)
            else:
                value = Val(UNKNOWN, loc, ref=(instance, name))
        for step in steps[1:]:
            if not value.known:
                break
            value = value.get(step) if isinstance(step, str) else index_value(value, step)
        return value

    # -- modules ------------------------------------------------------------------------------

    def child_instances(self, call_name: str) -> list[ModuleInstance]:
        if call_name in self.children:
            return self.children[call_name]
        call = self.module.calls.get(call_name)
        instances: list[ModuleInstance] = []
        self.children[call_name] = instances
        if call is not None and call.target is not None and self.depth < MAX_MODULE_DEPTH:
            prefix = f"{self.address + '.' if self.address else ''}module.{call_name}"
            for key, scope in expand_block(self, call.block):
                suffix = "" if key is None else "[?]" if key is UNKNOWN else f"[{_key_text(key)}]"
                instances.append(ModuleInstance(self.project, call.target, prefix + suffix, self, call, scope,
                                                written=self.written, key=key))
            if not instances:  # count = 0, for_each over nothing: the module's blocks as written
                instances.append(ModuleInstance(self.project, call.target, prefix, self, call,
                                                unknown_iteration(call.block), written=True, key=UNKNOWN))
        return instances

    def _module_output(self, call_name: str, steps: list, loc: Loc) -> tuple[Val, list]:
        """``module.NAME`` followed by ``steps``: the output they name, and the steps left.

        A module call's value is an object of the module's outputs (with ``count``, a tuple of
        them; with ``for_each``, an object keyed by instance key), so a key or an output it does
        not have is Terraform's error for that object. A module kapsulint did not read, an output
        missing from a module read in part, an Unknown ``count`` or ``for_each``, and the whole
        value are Unknown."""
        call = self.module.calls.get(call_name)
        children = self.child_instances(call_name)
        if call is None or not children or self.written or not steps:
            return Val(UNKNOWN, loc), []
        if call.block.attr("count") is not None or call.block.attr("for_each") is not None:
            child = self._module_instance(call, children, steps[0])
            steps = steps[1:]
            if child is None or not steps:
                return Val(UNKNOWN, loc), []
        else:
            child = children[0]
        outputs = Val({name: Val(name) for name in child.module.outputs}, open=child.module.broken)
        name = _step(outputs, steps[0])  # a file that did not parse may declare what is missing
        if not name.known:
            return Val(UNKNOWN, loc), []
        output = child.module.outputs[name.raw]
        value = child.eval_attr(output, "value")
        if declares_sensitive(output):
            # Terraform 1.11 marks the value only when it is computed from a sensitive one;
            # what its author declared sensitive is never printed either
            self.project.record_sensitive(value)
            value = value.with_sensitive()
        return value, steps[1:]

    def _module_instance(self, call: ModuleCall, children: list[ModuleInstance], step) -> ModuleInstance | None:
        """The instance of a module call with ``count`` or ``for_each`` that ``step`` selects, with
        Terraform's error for a key the call has no instance for; None when that is not known."""
        if children[0].written:
            instances: list[ModuleInstance] = []  # count = 0, for_each over nothing
        elif any(c.address.endswith("[?]") for c in children) or len(children) >= MAX_EXPANDED:
            return None
        else:
            instances = children
        if call.block.attr("count") is not None:
            keys = Val([Val(position) for position in range(len(instances))])
        else:
            keys = Val({_iteration_key(child): Val(position) for position, child in enumerate(instances)})
        position = _step(keys, step)
        return instances[position.raw] if position.known else None


def _step(value: Val, step) -> Val:
    """One step of a reference (an attribute name, or an index value) into ``value``."""
    return index_value(value, Val(step), attribute=True) if isinstance(step, str) else index_value(value, step)


def _iteration_key(instance: ModuleInstance) -> str:
    """The ``each.key`` of an instance of a module call with ``for_each``."""
    each = instance.call_scope.lookup("each")
    assert each is not None  # the scope of an instance of a call with for_each
    return each.raw["key"].text()


class FunctionContext:
    """The files and templates of the scan, as the Terraform functions of one module instance see them.

    Relative paths are relative to the working directory, which is the root module's. Rendered
    templates are kept by path so the call can place the text where the template file is."""

    def __init__(self, instance: ModuleInstance) -> None:
        self.instance = instance
        self.rendered: dict[str, Val] = {}

    def base_directory(self) -> str:
        return self.instance.root.module.path

    def module_directory(self) -> str:
        return self.instance.module.path

    def resolve(self, name: str) -> str:
        if posixpath.isabs(name):
            return posixpath.normpath(name)
        return posixpath.normpath(posixpath.join(self.base_directory(), name))

    def read_file(self, path: str) -> str | None:
        return self.instance.project.read_text(self._read(path))

    def read_bytes(self, path: str) -> bytes | None:
        return self.instance.project.read_bytes(self._read(path))

    def _read(self, path: str) -> str:
        """``path`` resolved, and recorded as read by this instance's root module tree."""
        target = self.resolve(path)
        self.instance.project.record_read(self.base_directory(), target)
        return target

    def refusal(self, path: str) -> str | None:
        """Why ``path`` is not read at all: outside the repository, or not a regular file."""
        return self.instance.project.boundary.refusal(self.resolve(path))

    def file_kind(self, path: str) -> str | None:
        kind = self.instance.project.boundary.kind(self.resolve(path))
        return kind if kind in ("file", "directory", "missing") else None

    def list_files(self, directory: str) -> list[str] | None:
        """Every regular file under ``directory`` (``fileset``), following links as Terraform's glob
        does, inside the repository only (``Refused`` naming the first link that leaves it); None
        past MAX_LISTED files or on a loop of links (where Terraform's walk never ends)."""
        boundary = self.instance.project.boundary
        found: list[str] = []
        pending: list[tuple[str, str, frozenset[str]]] = [(self.resolve(directory), "", frozenset())]
        while pending:
            folder, prefix, above = pending.pop()
            real = os.path.realpath(folder)
            if real in above:
                return None
            above = above | {real}
            try:
                entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
            except OSError:
                continue
            folders = []
            for entry in entries:
                name = prefix + entry.name
                kind = boundary.kind(entry.path) if entry.is_symlink() else (
                    "directory" if entry.is_dir(follow_symlinks=False) else
                    "file" if entry.is_file(follow_symlinks=False) else "special")
                if kind == "outside":
                    raise Refused(f"holds {shown_path(name)}, a link that {OUTSIDE}")
                if kind == "directory":
                    folders.append((entry.path, name + "/", above))
                elif kind == "file":
                    found.append(name)
            if len(found) > MAX_LISTED:
                return None
            pending.extend(reversed(folders))
        return found

    def note(self, kind: str, loc: Loc, message: str) -> None:
        self.instance.note(kind, loc, message)

    def record_sensitive(self, value: Val) -> None:
        self.instance.project.record_sensitive(value)

    def render_template(self, path: str, text: str, names: dict[str, Val], loc: Loc | None) -> Val:
        target = self._read(path)
        template = self.instance.project.template(target)
        if template is None:
            return Val(UNKNOWN, loc)
        rendered = self.instance.evaluator.eval_file_template(template, target, Scope(names))
        self.rendered[target] = rendered
        return rendered


class ResourceInstance:
    """One instance of a resource block in one module instance, or the block as written when it
    has no instance (``written``: ``count = 0``, ``for_each`` over an empty collection)."""

    def __init__(self, module: ModuleInstance, resource: Resource, key, scope: Scope, written: bool = False) -> None:
        self.module = module
        self.resource = resource
        self.key = key  # None, an int (count), a str (for_each) or UNKNOWN
        self.scope = scope
        self.written = written  # no instance exists: judged by rules about its own arguments only
        self._args: dict[str, Val] = {}

    def __repr__(self) -> str:
        return f"ResourceInstance({self.address})"

    @property
    def provider_alias(self) -> str | None:
        """The alias of ``provider = NAME.ALIAS``; None for the default configuration."""
        attribute = self.block.attr("provider")
        return attribute.expression.last_attribute if attribute is not None else None

    @property
    def block(self) -> Block:
        return self.resource.block

    @property
    def type(self) -> str:
        return self.resource.type

    @property
    def address(self) -> str:
        prefix = self.module.address + "." if self.module.address else ""
        suffix = ""
        if self.key is UNKNOWN:
            suffix = "" if self.written else "[?]"
        elif self.key is not None:
            suffix = f"[{_key_text(self.key)}]"
        return f"{prefix}{self.resource.address}{suffix}{self.module.root_label}"

    def arg(self, name: str) -> Val:
        """The evaluated argument, ``Val(None)`` (with no location) when it is not written."""
        if name not in self._args:
            self._args[name] = self.module.eval_attr(self.resource.block, name, self.scope)
        return self._args[name]

    def nested(self, block_type: str) -> list[NestedBlock]:
        """The nested blocks of a type, ``dynamic`` ones expanded (Unknown iterations give one
        block whose iterator is Unknown, so its arguments evaluate to Unknown, and which says
        ``count_unknown``: it stands for zero or more blocks)."""
        return nested_blocks(self.module, self.resource.block, block_type, self.scope)

    def eval_in(self, block: Block | NestedBlock, name: str) -> Val:
        """An argument of a nested block, evaluated in this instance's (or its iteration's) scope."""
        if isinstance(block, NestedBlock):
            return block.arg(name)
        return self.module.eval_attr(block, name, self.scope)



class NestedBlock:
    """A nested block of a resource instance, with the scope its arguments evaluate in.

    ``dynamic``: made by a ``dynamic`` block; ``count_unknown``: made by one whose ``for_each`` is
    Unknown, so it stands for zero or more blocks (its iterator is Unknown).
    """

    def __init__(
        self, module: ModuleInstance, block: Block, scope: Scope, dynamic: bool = False, count_unknown: bool = False,
    ) -> None:
        self.module = module
        self.block = block
        self.scope = scope
        self.dynamic = dynamic
        self.count_unknown = count_unknown

    def __getattr__(self, name: str):  # reads like the Block it wraps: loc, attrs, attr(), children()
        return getattr(self.block, name)

    def arg(self, name: str) -> Val:
        return self.module.eval_attr(self.block, name, self.scope)

    def nested(self, block_type: str) -> list[NestedBlock]:
        return nested_blocks(self.module, self.block, block_type, self.scope)

    def value(self) -> Val:
        """The block as an object value (what a reference to it reads)."""
        values = {name: self.module.eval(a.expr, a.path, self.scope) for name, a in self.block.attrs.items()}
        keylocs = {name: a.loc for name, a in self.block.attrs.items()}
        for child_type in {c.type for c in self.block.blocks if c.type != "dynamic"}:
            values[child_type] = Val([b.value() for b in self.nested(child_type)], self.block.loc)
        return Val(values, self.block.loc, keylocs=keylocs, open=True)


def nested_blocks(module: ModuleInstance, parent: Block, block_type: str, scope: Scope) -> list[NestedBlock]:
    found = [NestedBlock(module, b, scope) for b in parent.children(block_type)]
    for dynamic in parent.children("dynamic"):
        if not dynamic.labels or dynamic.labels[0] != block_type:
            continue
        content = dynamic.child("content")
        if content is None:
            continue
        iterator_attr = dynamic.attr("iterator")
        iterator = iterator_attr.expr.get("name", block_type) if iterator_attr is not None else block_type
        collection = module.eval_attr(dynamic, "for_each", scope)
        pairs = iteration_pairs(collection)
        if pairs is None:
            unknown = unknown_from(collection)
            names = {iterator: Val({"key": unknown, "value": unknown})}
            found.append(NestedBlock(module, content, scope.child(names), dynamic=True, count_unknown=True))
            continue
        for key, item in pairs:
            if collection.is_list:
                key = Val(int(key.raw)) if isinstance(key.raw, int) else key
            iteration = Val({"key": key, "value": item})
            if collection.sensitive:  # the blocks generated from a sensitive collection are sensitive
                iteration = iteration.with_sensitive()
            found.append(NestedBlock(module, content, scope.child({iterator: iteration}), dynamic=True))
    return found


def as_written(instance: ModuleInstance, resource: Resource) -> ResourceInstance:
    """A resource block with no instance, as written: its key and ``count.index`` or ``each.*``
    are Unknown, so every argument that depends on them is Unknown."""
    return ResourceInstance(instance, resource, UNKNOWN, unknown_iteration(resource.block), written=True)


def unknown_iteration(block: Block) -> Scope:
    """The scope of a block with ``count`` or ``for_each`` whose iteration is not known."""
    if block.attr("count") is not None:
        return Scope({"count": Val({"index": Val(UNKNOWN)})})
    return Scope({"each": Val({"key": Val(UNKNOWN), "value": Val(UNKNOWN)})})


def expand_block(instance: ModuleInstance, block: Block) -> Iterator[tuple[object, Scope]]:
    """(key, scope) for each instance of a block with ``count`` or ``for_each``."""
    count = block.attr("count")
    for_each = block.attr("for_each")
    if count is not None:
        value = instance.eval(count.expr, count.path)
        total = number(value) if value.known else None
        if total is None:
            yield UNKNOWN, Scope({"count": Val({"index": Val(UNKNOWN)})})
            return
        for index in range(min(int(total), MAX_EXPANDED)):
            yield index, Scope({"count": Val({"index": Val(index, value.loc)})})
        return
    if for_each is not None:
        value = instance.eval(for_each.expr, for_each.path)
        # Terraform refuses a sensitive for_each, whose keys would show in instance addresses
        # ("Invalid for_each argument", terraform plan 1.11.4): its instances are Unknown
        pairs = None if value.sensitive else iteration_pairs(value)
        if pairs is None:
            unknown = unknown_from(value)
            yield UNKNOWN, Scope({"each": Val({"key": unknown, "value": unknown})})
            return
        for key, item in pairs:
            if value.is_list:  # a set of strings: each.key and each.value are the element
                key = item
            yield key.text(), Scope({"each": Val({"key": key, "value": item})})
        return
    yield None, EMPTY_SCOPE


def _key_text(key) -> str:
    return str(key) if isinstance(key, int) else json.dumps(key)


def _key_text_from(text: str | None, key: Val) -> str:
    if isinstance(key.raw, (int, float)) and not isinstance(key.raw, bool):
        return str(int(key.raw))
    return json.dumps(text)
