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
expressions as written (the references :func:`kapsulint.api.references` finds, with the functions
crossed) and follow them the way the evaluator does: locals, variables
(the caller's argument, else the default; tfvars hold values, never references), module
outputs, and other resources' configured arguments (``null_resource.triggers``, the ``input`` of
a ``terraform_data``, the ``template`` and ``vars`` behind a ``data "template_file"``'s
``rendered``), keeping track of the attribute path still to apply and of every function
call crossed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from kapsulint.api import (
    Block,
    Expression,
    Loc,
    ModuleInstance,
    Reference,
    ReferenceWalk,
    Resource,
    ResourceInstance,
    Val,
    caller_argument,
    is_expanded,
    local_value,
    module_outputs,
    resource_argument,
    variable_default,
    variable_is_sensitive,
)
from kapsulint.kapsule.clusters import CLUSTER, CLUSTER_RESOURCES

KUBECONFIG = "kubeconfig"
FIELDS = ("config_file", "host", "cluster_ca_certificate", "token")
SECRET_FIELDS = ("config_file", "token")  # what gives admin access to the cluster


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


def uses_in(module: ModuleInstance, expression: Expression | None, suffix: tuple[str, ...] = ()) -> list[KubeconfigUse]:
    """The kubeconfig reads of an expression evaluated in ``module``; ``suffix`` is the
    attribute path read from its value (``("cluster_ca_certificate",)``)."""
    if expression is None:
        return []
    walk = _Walk()
    walk.walk(module, expression, tuple(suffix), ())
    return walk.uses


def uses_of_attribute(module: ModuleInstance, block: Block, name: str) -> list[KubeconfigUse]:
    """The kubeconfig reads of the argument ``name`` of a block, as written."""
    attribute = block.attr(name)
    if attribute is None:
        return []
    return uses_in(module, attribute.expression)


def refers_to_kubeconfig(value: Val) -> ResourceInstance | None:
    """The cluster (resource or data source) whose ``kubeconfig`` an evaluated value comes from."""
    if value.ref is None:
        return None
    instance: ResourceInstance
    instance, attribute = value.ref
    if instance.type in CLUSTER_RESOURCES and attribute == KUBECONFIG:
        return instance
    return None


def _address(module: ModuleInstance, resource_address: str) -> str:
    return f"{module.address}.{resource_address}" if module.address else resource_address


class _Walk(ReferenceWalk[tuple[str, ...]]):
    """The kubeconfig reads an expression reaches; the context is the functions crossed on the
    way to it, outermost first."""

    def __init__(self) -> None:
        super().__init__()
        self.uses: list[KubeconfigUse] = []
        self._seen: set[KubeconfigUse] = set()

    def reference(self, module: ModuleInstance, ref: Reference, context: tuple[str, ...]) -> None:
        calls = context + ref.calls
        root, full = ref.root, ref.path
        if root == "var":
            self._variable(module, full, calls)
        elif root == "local":
            self._local(module, full, calls)
        elif root == "module":
            self._module_output(module, full, calls)
        elif root == "data":
            if len(full) >= 2:
                self._resource(module, ref.loc, f"data.{full[0]}.{full[1]}", full[0], full[2:], calls)
        elif root in ("path", "terraform", "self", "each", "count"):
            return
        elif full:
            self._resource(module, ref.loc, f"{root}.{full[0]}", root, full[1:], calls)

    def _variable(self, module: ModuleInstance, full: tuple[str, ...], calls: tuple[str, ...]) -> None:
        if not full:
            return
        name, rest = full[0], full[1:]
        if variable_is_sensitive(module, name):
            calls = calls + ("sensitive",)
        key = (id(module), "var", name, rest, calls)
        argument = caller_argument(module, name)
        if argument is not None:
            self.follow(key, argument[0], argument[1], rest, calls)
            return
        default = variable_default(module, name)
        if default is not None:
            self.follow(key, module, default, rest, calls)

    def _local(self, module: ModuleInstance, full: tuple[str, ...], calls: tuple[str, ...]) -> None:
        value = local_value(module, full[0]) if full else None
        if value is not None:
            self.follow((id(module), "local", full, calls), module, value, full[1:], calls)

    def _module_output(self, module: ModuleInstance, full: tuple[str, ...], calls: tuple[str, ...]) -> None:
        for output in module_outputs(module, full):
            key = (id(output.module), "output", (output.name, *output.rest), calls)
            self.follow(key, output.module, output.expression, output.rest, calls)

    def _resource(self, module: ModuleInstance, loc: Loc, address: str, resource_type: str, rest: tuple[str, ...],
                  calls: tuple[str, ...]) -> None:
        resource = module.module.resources.get(address)
        if resource is None:
            return
        if is_expanded(resource) and rest:
            if rest[0] == "*" or rest[0] not in _attributes_of(resource):
                rest = rest[1:]  # the instance key
        if resource_type in CLUSTER_RESOURCES:
            self._cluster(module, loc, resource, rest, calls)
            return
        if not rest:
            return
        argument = resource_argument(resource, rest[0])
        if argument is None and resource.type == "terraform_data" and rest[0] == "output":
            argument = resource_argument(resource, "input")  # terraform_data's output mirrors its input
        if argument is None and resource.type == "template_file" and rest[0] == "rendered":
            self._rendered_template(module, resource, address, calls)
            return
        if argument is not None:
            self.follow((id(module), "resource", address, rest, calls), module, argument, rest[1:], calls)

    def _rendered_template(self, module: ModuleInstance, resource: Resource, address: str, calls: tuple[str, ...]) -> None:
        """``data "template_file"``'s ``rendered``: its ``template`` and every one of its ``vars``
        end up in the text, as with ``templatefile()``."""
        key = (id(module), "resource", address, ("rendered",), calls)
        if not self.enter(key):
            return
        try:
            for name in ("template", "vars"):
                argument = resource_argument(resource, name)
                if argument is not None:
                    self.walk(module, argument, (), calls + ("templatefile",))
        finally:
            self.leave(key)

    def _cluster(self, module: ModuleInstance, loc: Loc, resource: Resource, rest: tuple[str, ...], calls: tuple[str, ...]) -> None:
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
            loc=loc,
        )
        if use not in self._seen:
            self._seen.add(use)
            self.uses.append(use)


def _attributes_of(resource: Resource) -> set[str]:
    names = set(resource.block.attrs)
    names.update(b.type for b in resource.block.blocks)
    names.update((KUBECONFIG, "id", "output", "triggers"))
    return names


CA_CERTIFICATE = "cluster_ca_certificate"


def ca_certificate_places(block: Block) -> Iterator[tuple[Loc, Expression, tuple[str, ...]]]:
    """(anchor loc, expression, suffix) of each place a ``helm`` or ``kubernetes`` provider block
    takes ``cluster_ca_certificate`` from: the kubernetes provider's argument, the helm provider
    2.x ``kubernetes {}`` block, or its 3.x ``kubernetes = {...}`` object (the suffix names the
    member when that object comes whole from elsewhere)."""
    label = block.labels[0]
    if label == "kubernetes":
        attribute = block.attr(CA_CERTIFICATE)
        if attribute is not None:
            yield attribute.value_loc, attribute.expression, ()
        return
    for nested in block.children("kubernetes"):  # helm provider 2.x
        attribute = nested.attr(CA_CERTIFICATE)
        if attribute is not None:
            yield attribute.value_loc, attribute.expression, ()
    attribute = block.attr("kubernetes")  # helm provider 3.x
    if attribute is not None:
        written = attribute.expression
        member = written.member(CA_CERTIFICATE)
        if member is not None:
            yield member.loc, member, ()
        elif not written.is_object:
            yield attribute.value_loc, written, (CA_CERTIFICATE,)
