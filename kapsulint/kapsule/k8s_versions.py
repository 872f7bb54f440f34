"""The ``scaleway_k8s_version`` data source, as the Scaleway provider reads it.

Its ``name`` argument is what the author asks for (``"latest"``, ``"1.35.2"``), but the provider
overwrites it at read time with the API's name of the version found, always a full release
``x.y.z``: the read calls ``ListVersions`` for ``"latest"`` (the newest version) or
``GetVersion`` otherwise, then ``d.Set("name", version.Name)``, and fails with "version name must
contain 3 parts" on any other form. Since v2.63.0 the data source also exports
``major_minor_only``, that release's minor line ``x.y`` (``VersionNameWithoutPatch``), added for
clusters under auto-upgrade. Source: the provider's
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/k8s_version_data_source.go
and pull request https://github.com/scaleway/terraform-provider-scaleway/pull/3458 (first
released in v2.63.0), checked 2026-12-01.

:func:`version_source` says whether an argument's value is one of those attributes, followed as
written through variables (a module's caller argument or the default), locals and module
outputs; a value that passes through a function or an operator is not followed.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import (
    Expression,
    Loc,
    ModuleInstance,
    ResourceInstance,
    caller_argument,
    local_value,
    module_outputs,
    references,
    variable_default,
)

DATA_SOURCE = "scaleway_k8s_version"
RELEASE_ATTRIBUTE = "name"  # overwritten with the resolved release x.y.z
MINOR_ATTRIBUTE = "major_minor_only"  # the resolved release's x.y, from v2.63.0
MAX_HOPS = 32


class VersionSource(NamedTuple):
    """The data source attribute a value is, and where that reference is written."""

    address: str  # data.scaleway_k8s_version.latest
    attribute: str  # RELEASE_ATTRIBUTE or MINOR_ATTRIBUTE
    loc: Loc  # the traversal data.scaleway_k8s_version.latest.name

    @property
    def is_release(self) -> bool:
        """Whether the value is a full release x.y.z (``name``, as the provider sets it)."""
        return self.attribute == RELEASE_ATTRIBUTE

    @property
    def minor_reference(self) -> str:
        """The same data source's minor line: ``data.scaleway_k8s_version.latest.major_minor_only``."""
        return f"{self.address}.{MINOR_ATTRIBUTE}"


def version_source(instance: ResourceInstance, argument: str = "version") -> VersionSource | None:
    """The ``scaleway_k8s_version`` attribute the argument ``argument`` of ``instance`` is, as
    written (``version = data.scaleway_k8s_version.latest.name``, or through ``var.version`` whose
    caller passes it); None when it is written otherwise, or when a hop leads to a value with no
    expression (tfvars, ``--var``) or to several places."""
    written = instance.block.attr(argument)
    if written is None:
        return None
    module: ModuleInstance = instance.module
    expression: Expression | None  # None once a hop leads to a value with no expression
    expression = written.expression
    for _ in range(MAX_HOPS):
        if not expression.is_traversal:
            return None
        found = [ref for ref in references(expression) if not ref.bound]
        if len(found) != 1:
            return None
        ref = found[0]
        path = ref.known_path
        if ref.root == "data":
            if len(path) < 3 or path[0] != DATA_SOURCE or path[-1] not in (RELEASE_ATTRIBUTE, MINOR_ATTRIBUTE):
                return None
            if len(path) > 4 or (len(path) == 4 and ref.steps[2].attribute):
                return None  # data.x.y[key].name at most
            return VersionSource(f"data.{path[0]}.{path[1]}", path[-1], ref.loc)
        if len(path) != 1 and ref.root != "module":
            return None
        if ref.root == "local":
            expression = local_value(module, path[0])
        elif ref.root == "var":
            if (module.call is None or module.parent is None) and path[0] in module.root_values:
                return None  # a value from tfvars or --var
            argument_of_call = caller_argument(module, path[0])
            if argument_of_call is not None:
                module, expression = argument_of_call
            else:
                expression = variable_default(module, path[0])
        elif ref.root == "module":
            outputs = module_outputs(module, path)
            if len(outputs) != 1 or outputs[0].rest:
                return None
            module, expression = outputs[0].module, outputs[0].expression
        else:
            return None
        if expression is None:
            return None
    return None
