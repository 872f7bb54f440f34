"""Where a cluster's kubeconfig goes: the references an expression makes to it.

``scaleway_k8s_cluster`` exports ``kubeconfig`` (a one-element list of ``config_file``, ``host``,
``cluster_ca_certificate`` and ``token``). On the resource it is Sensitive since provider 2.12;
on the data source it is not, because the data source schema is copied from the resource
without the Sensitive flag. ``cluster_ca_certificate`` is base64 and has to go through
``base64decode()`` before a kubernetes or helm provider can use it. Sources: TF
``internal/services/k8s/cluster.go``, ``cluster_data_source.go`` and ``docs/resources/k8s_cluster.md``
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/data-sources/k8s_cluster.md, https://github.com/scaleway/terraform-provider-scaleway/issues/4171; https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

Why a syntactic walk rather than the evaluated value: the evaluator gives Unknown for the
kubeconfig, and the ``ref`` that Unknown carries names only the cluster and ``kubeconfig``,
never the field, and never the functions applied on the way (``base64decode()`` and
``nonsensitive()`` of an Unknown keep its ``ref``; ``templatefile()`` and ``yamlencode()`` lose it
as soon as a second reference joins in). The questions here need both, so they read the
expressions as written and follow references the way the evaluator does: locals, variables
(the caller's argument, else the default; tfvars hold values, never references), module
outputs, and other resources' configured arguments (``null_resource.triggers``, the ``input`` of
a ``terraform_data``, the ``template`` and ``vars`` behind a ``data "template_file"``'s
``rendered``), keeping track of the attribute path still to apply and of every function
call crossed.
"""

from __future__ import annotations
from typing import NamedTuple


from kapsulint.api import Loc, ModuleInstance, ResourceInstance, Val
from kapsulint.kapsule.clusters import CLUSTER, CLUSTER_RESOURCES

KUBECONFIG = "kubeconfig"
FIELDS = ("config_file", "host", "cluster_ca_certificate", "token")
SECRET_FIELDS = ("config_file", "token")  # what gives admin access to the cluster
MAX_DEPTH = 40
MAX_STEPS = 20_000
# Functions that return one of their arguments, or an object merged from them: a key asked of
# the result is a key of the argument.
_PASS_THROUGH = ("try", "coalesce", "merge", "one", "tomap", "tolist", "toset", "sensitive", "nonsensitive")


class KubeconfigUse(NamedTuple):
    """One place where an expression reads a cluster's kubeconfig.

    ``field`` is the kubeconfig field read (``token``...), or None when the whole kubeconfig (or
    the whole cluster object) is read. ``calls`` are the functions the value went through, the
    outermost first. ``loc`` is where the reference to the cluster is written.
    """

    cluster: str  # the address of the cluster resource or data source, module path included
    data_source: bool
    field: str | None
    calls: tuple[str, ...]
    loc: Loc

    @property
    def secret(self) -> bool:
        """Whether it reads the admin token (directly, or inside the kubeconfig file)."""
        return self.field is None or self.field in SECRET_FIELDS

    @property
    def decoded(self) -> bool:
        return "base64decode" in self.calls

    @property
    def sensitive(self) -> bool:
        """Whether Terraform still treats the value as sensitive after the functions applied.

        The resource's kubeconfig is sensitive, the data source's is not; ``sensitive()`` and
        a sensitive variable mark it, ``nonsensitive()`` removes the mark.
        """
        marked = not self.data_source
        for name in reversed(self.calls):  # innermost first
            if name == "sensitive":
                marked = True
            elif name == "nonsensitive":
                marked = False
        return marked

    @property
    def through_nonsensitive(self) -> bool:
        return "nonsensitive" in self.calls

    @property
    def reference(self) -> str:
        field = f"[0].{self.field}" if self.field else ""
        return f"{self.cluster}.{KUBECONFIG}{field}"


def uses_in(module: ModuleInstance, node: dict | None, path: str, suffix: tuple[str, ...] = ()) -> list[KubeconfigUse]:
    """The kubeconfig reads of an expression node written in file ``path`` of ``module``;
    ``suffix`` is the attribute path read from its value (``("cluster_ca_certificate",)``)."""
    if node is None:
        return []
    walk = _Walk()
    walk.expr(module, node, path, tuple(suffix), (), frozenset())
    return walk.uses


def uses_of_attribute(module: ModuleInstance, block, name: str) -> list[KubeconfigUse]:
    """The kubeconfig reads of the argument ``name`` of a block, as written."""
    attribute = block.attr(name)
    if attribute is None:
        return []
    return uses_in(module, attribute.expr, attribute.path)


def object_member(node: dict | None, key: str) -> dict | None:
    """The value node of ``key`` in an object written as a literal (``kubernetes = {...}``)."""
    while isinstance(node, dict) and node.get("t") == "paren":
        node = node.get("e")
    if not isinstance(node, dict) or node.get("t") != "object":
        return None
    for key_node, value in node.get("items", []):
        name = key_node.get("v") if key_node.get("t") == "lit" else key_node.get("name")
        if name == key:
            return value
    return None


def refers_to_kubeconfig(value: Val) -> ResourceInstance | None:
    """The cluster (resource or data source) whose ``kubeconfig`` an evaluated value comes from."""
    if value.ref is None:
        return None
    instance, attribute = value.ref
    if instance.type in CLUSTER_RESOURCES and attribute == KUBECONFIG:
        return instance
    return None


def _address(module: ModuleInstance, resource_address: str) -> str:
    return f"{module.address}.{resource_address}" if module.address else resource_address


class _Walk:
    def __init__(self) -> None:
        self.uses: list[KubeconfigUse] = []
        self._seen: set[tuple] = set()
        self._visiting: set[tuple] = set()
        self._depth = 0
        self._steps = 0

    # -- expressions --------------------------------------------------------------------------

    def expr(self, module, node, path, suffix, calls, bound) -> None:
        if not isinstance(node, dict) or "t" not in node:
            return
        self._steps += 1
        if self._steps > MAX_STEPS:
            return
        kind = node["t"]
        if kind in ("var", "attr", "index"):
            chain = _chain(node)
            if chain is not None:
                root, steps = chain
                for step_kind, step in steps:
                    if step_kind == "index" and not _literal(step):
                        self.expr(module, step, path, (), calls, bound)
                if root not in bound:
                    self.reference(module, node, path, root, steps, suffix, calls)
                return
            self.expr(module, node.get("obj"), path, (), calls, bound)
            if kind == "index":
                self.expr(module, node.get("key"), path, (), calls, bound)
            return
        if kind == "splat":
            chain = _chain(node["obj"])
            ops = node.get("ops", [])
            if chain is not None and all(op == "attr" for op, _ in ops):
                root, steps = chain
                if root not in bound:
                    steps = steps + [("attr", operand) for _, operand in ops]
                    self.reference(module, node, path, root, steps, suffix, calls)
                return
            self.expr(module, node["obj"], path, (), calls, bound)
            for op, operand in ops:
                if op != "attr":
                    self.expr(module, operand, path, (), calls, bound)
            return
        if kind == "lit":
            return
        if kind == "paren":
            self.expr(module, node["e"], path, suffix, calls, bound)
            return
        if kind == "call":
            name = node.get("name", "")
            inner = calls + (name,)
            kept = suffix if name in _PASS_THROUGH else ()
            for arg in node.get("args", []):
                self.expr(module, arg, path, kept, inner, bound)
            return
        if kind == "cond":
            self.expr(module, node["test"], path, (), calls, bound)
            self.expr(module, node["then"], path, suffix, calls, bound)
            self.expr(module, node["else"], path, suffix, calls, bound)
            return
        if kind == "object":
            if suffix:
                for key, value in node["items"]:
                    if key.get("t") == "lit" and str(key.get("v")) == suffix[0]:
                        self.expr(module, value, path, suffix[1:], calls, bound)
                        return
                    if key.get("t") == "var" and key.get("name") == suffix[0]:
                        self.expr(module, value, path, suffix[1:], calls, bound)
                        return
            for key, value in node["items"]:
                if key.get("t") not in ("lit", "var"):
                    self.expr(module, key, path, (), calls, bound)
                self.expr(module, value, path, (), calls, bound)
            return
        if kind == "tuple":
            items = node.get("items", [])
            if suffix and suffix[0].isdigit() and int(suffix[0]) < len(items):
                self.expr(module, items[int(suffix[0])], path, suffix[1:], calls, bound)
                return
            for item in items:
                self.expr(module, item, path, (), calls, bound)
            return
        if kind in ("tmpl", "tif", "tfor"):
            self._template(module, node, path, calls, bound)
            return
        if kind == "for":
            self.expr(module, node["coll"], path, (), calls, bound)
            inner = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            for part in ("key", "value", "cond"):
                self.expr(module, node.get(part), path, (), calls, inner)
            return
        # op and anything newer: every sub-expression counts.
        for value in node.values():
            if isinstance(value, dict):
                self.expr(module, value, path, (), calls, bound)
            elif isinstance(value, list):
                for item in value:
                    self.expr(module, item, path, (), calls, bound)

    def _template(self, module, node, path, calls, bound) -> None:
        kind = node["t"]
        if kind == "tmpl":
            parts = node["parts"]
        elif kind == "tif":
            self.expr(module, node["cond"], path, (), calls, bound)
            parts = list(node.get("then") or []) + list(node.get("else") or [])
        else:
            self.expr(module, node["coll"], path, (), calls, bound)
            bound = bound | {n for n in (node.get("kv"), node.get("vv")) if n}
            parts = node.get("body") or []
        for part in parts:
            if isinstance(part, dict):
                if part.get("t") in ("tif", "tfor"):
                    self._template(module, part, path, calls, bound)
                else:
                    self.expr(module, part, path, (), calls, bound)

    # -- references ---------------------------------------------------------------------------

    def reference(self, module, node, path, root, steps, suffix, calls) -> None:
        names: list[str] = []
        for kind, step in steps:
            if kind == "attr":
                names.append(step)
            elif _literal(step):
                names.append(str(step.get("v")))
            else:
                names.append("*")  # an instance key or index not known as written
        full = tuple(names) + tuple(suffix)
        if root == "var":
            self._variable(module, full, calls)
        elif root == "local":
            self._local(module, full, calls)
        elif root == "module":
            self._module_output(module, full, calls)
        elif root == "data":
            if len(full) >= 2:
                self._resource(module, node, path, f"data.{full[0]}.{full[1]}", full[0], full[2:], calls)
        elif root in ("path", "terraform", "self", "each", "count"):
            return
        elif full:
            self._resource(module, node, path, f"{root}.{full[0]}", root, full[1:], calls)

    def _enter(self, key: tuple) -> bool:
        if key in self._visiting or self._depth >= MAX_DEPTH:
            return False
        self._visiting.add(key)
        self._depth += 1
        return True

    def _leave(self, key: tuple) -> None:
        self._visiting.discard(key)
        self._depth -= 1

    def _variable(self, module, full, calls) -> None:
        if not full:
            return
        name, rest = full[0], full[1:]
        key = (id(module), "var", name, rest, calls)
        if not self._enter(key):
            return
        try:
            declared = module.module.variables.get(name)
            if declared is not None and declared.sensitive:
                calls = calls + ("sensitive",)
            argument = None
            if module.call is not None and module.parent is not None:
                argument = module.call.block.attr(name)
                if argument is not None:
                    self.expr(module.parent, argument.expr, argument.path, rest, calls, frozenset())
            if argument is None and declared is not None and declared.default is not None:
                default = declared.default
                self.expr(module, default.expr, default.path, rest, calls, frozenset())
        finally:
            self._leave(key)

    def _local(self, module, full, calls) -> None:
        attribute = module.module.locals.get(full[0]) if full else None
        if attribute is None:
            return
        key = (id(module), "local", full, calls)
        if not self._enter(key):
            return
        try:
            self.expr(module, attribute.expr, attribute.path, full[1:], calls, frozenset())
        finally:
            self._leave(key)

    def _module_output(self, module, full, calls) -> None:
        if len(full) < 2:
            return
        call = module.module.calls.get(full[0])
        if call is None:
            return
        rest = full[1:]
        if call.block.attr("count") or call.block.attr("for_each"):
            rest = rest[1:]  # module.x["key"].output
        if not rest:
            return
        for child in module.child_instances(full[0]):
            output = child.module.outputs.get(rest[0])
            value = output.attr("value") if output is not None else None
            if value is None:
                continue
            key = (id(child), "output", rest, calls)
            if not self._enter(key):
                continue
            try:
                self.expr(child, value.expr, value.path, rest[1:], calls, frozenset())
            finally:
                self._leave(key)

    def _resource(self, module, node, path, address, resource_type, rest, calls) -> None:
        resource = module.module.resources.get(address)
        if resource is None:
            return
        if (resource.block.attr("count") or resource.block.attr("for_each")) and rest:
            if rest[0] == "*" or rest[0] not in _attributes_of(resource):
                rest = rest[1:]  # the instance key
        if resource_type in CLUSTER_RESOURCES:
            self._cluster(module, node, path, resource, rest, calls)
            return
        if not rest:
            return
        argument = resource.block.attr(rest[0])
        remaining = rest[1:]
        if argument is None and resource.type == "terraform_data" and rest[0] == "output":
            argument = resource.block.attr("input")  # terraform_data's output mirrors its input
        if argument is None and resource.type == "template_file" and rest[0] == "rendered":
            self._rendered_template(module, resource, address, calls)
            return
        if argument is None:
            return
        key = (id(module), "resource", address, rest, calls)
        if not self._enter(key):
            return
        try:
            self.expr(module, argument.expr, argument.path, remaining, calls, frozenset())
        finally:
            self._leave(key)

    def _rendered_template(self, module, resource, address, calls) -> None:
        """``data "template_file"``'s ``rendered``: its ``template`` and every one of its ``vars``
        end up in the text, as with ``templatefile()``."""
        key = (id(module), "resource", address, ("rendered",), calls)
        if not self._enter(key):
            return
        try:
            for name in ("template", "vars"):
                argument = resource.block.attr(name)
                if argument is not None:
                    self.expr(module, argument.expr, argument.path, (), calls + ("templatefile",), frozenset())
        finally:
            self._leave(key)

    def _cluster(self, module, node, path, resource, rest, calls) -> None:
        field: str | None = None
        if rest:
            if rest[0] != KUBECONFIG:
                return  # another attribute of the cluster (id, apiserver_url...)
            after = [r for r in rest[1:] if not (r.isdigit() or r == "*")]
            if after:
                if after[0] not in FIELDS:
                    return
                field = after[0]
        data_source = resource.mode == "data"
        if data_source and resource.type != CLUSTER:
            return
        use = KubeconfigUse(
            cluster=_address(module, resource.address),
            data_source=data_source,
            field=field,
            calls=calls,
            loc=Loc.of(path, node["p"]),
        )
        if use not in self._seen:
            self._seen.add(use)
            self.uses.append(use)


def _attributes_of(resource) -> set[str]:
    names = set(resource.block.attrs)
    names.update(b.type for b in resource.block.blocks)
    names.update((KUBECONFIG, "id", "output", "triggers"))
    return names


def _literal(node) -> bool:
    return isinstance(node, dict) and node.get("t") == "lit"


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


CA_CERTIFICATE = "cluster_ca_certificate"


def ca_certificate_places(block):
    """(anchor loc, expression node, file, suffix) of each place a ``helm`` or ``kubernetes``
    provider block takes ``cluster_ca_certificate`` from: the kubernetes provider's argument, the
    helm provider 2.x ``kubernetes {}`` block, or its 3.x ``kubernetes = {...}`` object (the
    suffix names the member when that object comes whole from elsewhere)."""
    label = block.labels[0]
    if label == "kubernetes":
        attribute = block.attr(CA_CERTIFICATE)
        if attribute is not None:
            yield attribute.value_loc, attribute.expr, attribute.path, ()
        return
    for nested in block.children("kubernetes"):  # helm provider 2.x
        attribute = nested.attr(CA_CERTIFICATE)
        if attribute is not None:
            yield attribute.value_loc, attribute.expr, attribute.path, ()
    attribute = block.attr("kubernetes")  # helm provider 3.x
    if attribute is not None:
        member = object_member(attribute.expr, CA_CERTIFICATE)
        if member is not None:
            yield Loc.of(attribute.path, member["p"]), member, attribute.path, ()
        elif attribute.expr.get("t") != "object":
            yield attribute.value_loc, attribute.expr, attribute.path, (CA_CERTIFICATE,)
