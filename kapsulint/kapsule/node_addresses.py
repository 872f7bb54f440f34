"""Node public IPs as a configuration reads them, and the resources that filter traffic by IP.

A pool exports its nodes with ``nodes[*].public_ip`` and ``nodes[*].public_ip_v6``, both
deprecated ("Please use the official Kubernetes provider and the kubernetes_nodes data source",
the provider's pool schema,
https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/internal/services/k8s/pool.go).
They are the addresses of the nodes at the last refresh: a node replaced by an upgrade, by
autohealing or by the autoscaler comes back with another address. The resources below hold
allow or deny lists of addresses (their ``ip``, ``ip_range`` or ``ip_subnet`` arguments, per the
provider's documentation of each:
https://github.com/scaleway/terraform-provider-scaleway/tree/v2.81.0/docs/resources).

:func:`node_ip_references` follows an expression through locals, variables (a module's caller
argument, else the default) and module outputs to the node IP attributes it reads.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.api import (
    Block,
    Expression,
    Loc,
    ModuleInstance,
    caller_argument,
    local_value,
    module_outputs,
    references,
    variable_default,
)

POOL = "scaleway_k8s_pool"
NODE_PUBLIC_IP_ATTRIBUTES = frozenset({"public_ip", "public_ip_v6"})
IP_FILTER_RESOURCES = frozenset({
    "scaleway_k8s_acl",  # acl_rules { ip }
    "scaleway_instance_security_group",  # inbound_rule / outbound_rule { ip, ip_range }
    "scaleway_instance_security_group_rules",
    "scaleway_rdb_acl",  # acl_rules { ip }
    "scaleway_lb_acl",  # match { ip_subnet }
    "scaleway_redis_cluster",  # acl { ip }
})
MAX_DEPTH = 24


class NodeIpReference(NamedTuple):
    loc: Loc  # where the pool's node attribute is read
    pool: str  # scaleway_k8s_pool.apps
    attribute: str  # public_ip or public_ip_v6


class NodeIpUse(NamedTuple):
    """An argument of a resource whose value is made from node public IPs."""

    name: str  # the argument (``ip``, ``ip_range``...)
    loc: Loc  # its value
    found: tuple[NodeIpReference, ...]


def node_ip_uses(block: Block, module: ModuleInstance) -> list[NodeIpUse]:
    """The arguments of ``block`` and of its nested blocks made from node public IPs: a reference
    to ``nodes[*].public_ip`` (through locals, variables, module outputs), a ``for`` expression
    over a pool's ``nodes`` reading ``public_ip`` of its element, or a ``dynamic`` block iterating
    over a pool's ``nodes`` whose content reads ``<iterator>.value.public_ip``."""
    uses: list[NodeIpUse] = []
    stack: list[tuple[Block, dict[str, list[NodeIpReference]]]] = [(block, {})]
    while stack:
        current, iterators = stack.pop()
        for name, attribute in current.attrs.items():
            expression = attribute.expression
            found = node_ip_references(module, expression)
            for ref in references(expression):
                if ref.root in iterators and NODE_PUBLIC_IP_ATTRIBUTES & set(ref.path):
                    found.extend(iterators[ref.root])
            if found:
                uses.append(NodeIpUse(name, expression.loc, tuple(dict.fromkeys(found))))
        for nested in current.blocks:
            scope = iterators
            if nested.type == "dynamic" and nested.labels:
                for_each = nested.attr("for_each")
                iterator = nested.attr("iterator")
                named = [ref.root for ref in references(iterator.expression)] if iterator is not None else []
                label = named[0] if named else None
                nodes = _node_collections(module, for_each.expression) if for_each is not None else []
                if nodes:
                    scope = {**iterators, str(label or nested.labels[0]): nodes}
            stack.append((nested, scope))
    return uses


def _node_collections(module: ModuleInstance, expression: Expression) -> list[NodeIpReference]:
    """The pools' ``nodes`` lists an expression is, as written (``scaleway_k8s_pool.apps.nodes``)."""
    return [NodeIpReference(ref.loc, f"{POOL}.{ref.path[0]}", "public_ip")
            for ref in references(expression)
            if not ref.bound and ref.root == POOL and len(ref.path) >= 2 and "nodes" in ref.path]


def node_ip_references(module: ModuleInstance, expression: Expression) -> list[NodeIpReference]:
    """The node public IP attributes ``expression`` reads, directly or through what it names."""
    found: list[NodeIpReference] = []
    _walk(module, expression, found, set(), 0)
    return found


def _walk(module: ModuleInstance, expression: Expression, found: list[NodeIpReference],
          seen: set[tuple[int, str, tuple[str, ...]]], depth: int) -> None:
    if depth > MAX_DEPTH:
        return
    written = references(expression)
    bound_ip = next((step for ref in written if ref.bound for step in ref.path if step in NODE_PUBLIC_IP_ATTRIBUTES), None)
    for ref in written:
        if ref.bound:
            continue
        path = ref.path
        if ref.root == POOL:
            named = [step for step in path[1:] if step in NODE_PUBLIC_IP_ATTRIBUTES] or (
                [bound_ip] if bound_ip is not None else [])  # [for n in pool.nodes : n.public_ip]
            if len(path) >= 2 and "nodes" in path and named:
                found.append(NodeIpReference(ref.loc, f"{POOL}.{path[0]}", named[0]))
            continue
        key = (id(module), ref.root, path[:1])
        if key in seen or not path:
            continue
        seen.add(key)
        if ref.root == "local":
            local = local_value(module, path[0])
            if local is not None:
                _walk(module, local, found, seen, depth + 1)
        elif ref.root == "var":
            argument = caller_argument(module, path[0])
            if argument is not None:
                _walk(argument[0], argument[1], found, seen, depth + 1)
            else:
                default = variable_default(module, path[0])
                if default is not None:
                    _walk(module, default, found, seen, depth + 1)
        elif ref.root == "module":
            for output in module_outputs(module, path):
                _walk(output.module, output.expression, found, seen, depth + 1)
