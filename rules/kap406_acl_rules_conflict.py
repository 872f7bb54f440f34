"""ACL that sets both or neither of no_ip_allowed and acl_rules, or a rule the API refuses.

## What it does
Reports a `scaleway_k8s_acl` that writes both `no_ip_allowed` and `acl_rules`, or neither; an
`acl_rules` entry that sets both `ip` and `scaleway_ranges = true`; and a second entry with
`scaleway_ranges = true`.

## Why is this bad
The provider declares `no_ip_allowed` and `acl_rules` with `ExactlyOneOf`: exactly one of them
must be written, so an ACL with both (even `no_ip_allowed = false` beside rules) or with neither
fails validation, and `no_ip_allowed = true` beside rules also asks for two contradictory things
(full isolation and a list of allowed ranges). Within a rule, the provider's documentation says
that when `ip` is set, `scaleway_ranges` cannot be set to true, and that only one rule with
`scaleway_ranges = true` can be added: the API refuses the rule set at apply, after the plan
looked fine, and the cluster keeps the rules it had.

`no_ip_allowed = null` counts as unset. `acl_rules` made by a `dynamic` block whose `for_each`
kapsulint cannot compute may or may not exist, so the first two checks stay silent then. Findings
point at `no_ip_allowed` when both are written, at the resource block when neither is, and at the
offending `scaleway_ranges` in a rule.

Source: Scaleway Terraform provider, `internal/services/k8s/acl.go` (the `ExactlyOneOf` schema)
and `docs/resources/k8s_acl.md`
(https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_acl.md).

## Example
```hcl
resource "scaleway_k8s_acl" "main" {
  cluster_id    = scaleway_k8s_cluster.main.id
  no_ip_allowed = true

  acl_rules {
    ip = "203.0.113.0/24"
  }
}
```

## Use instead
```hcl
resource "scaleway_k8s_acl" "main" {
  cluster_id = scaleway_k8s_cluster.main.id

  acl_rules {
    ip = "203.0.113.0/24"
  }
}
```

## Fix
Removes `no_ip_allowed = false` written beside `acl_rules`: `false` asks for no isolation, so
the rules are what the author meant. Safe: the plan fails today, and after the fix the ACL holds
exactly the rules written.

Splits a rule with both `ip` and `scaleway_ranges = true`, when no other rule admits Scaleway's
ranges: `scaleway_ranges` leaves the rule, and a rule of its own is added at the end of the ACL
(`acl_rules { scaleway_ranges = true }`). Unsafe: the plan looked fine and the apply failed, so
applying the fix changes who may reach the API server; read the rules it leaves.

No fix for `no_ip_allowed = true` beside rules (full isolation or the listed ranges: the author
must choose), for an ACL with neither, for a rule made by a `dynamic` block, or for a second rule
with `scaleway_ranges = true` (which of the two to keep is the author's call).

## References
- [scaleway_k8s_acl](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_acl)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Loc,
    NestedBlock,
    Project,
    Related,
    ResourceInstance,
    finding,
    fix,
    insert_block,
    remove_attribute,
    shown_text,
)
from kapsulint.kapsule import access

ID = "KAP406"
NAME = "acl-rules-conflict"
SEVERITY = "error"
FIX = "sometimes"

SCALEWAY_RANGES_RULE = "acl_rules {\n  scaleway_ranges = true\n}\n"


def _rules_present(acl: ResourceInstance) -> bool | None:
    """Whether the ACL writes acl_rules: None when only a dynamic block of Unknown for_each could."""
    blocks = acl.nested("acl_rules")
    if acl.block.attr("acl_rules") is not None or any(not block.count_unknown for block in blocks):
        return True
    return None if blocks else False


def _exactly_one(project: Project, acl: ResourceInstance) -> Iterator[Finding]:
    address = acl.resource.address
    no_ip = acl.arg("no_ip_allowed")
    present = _rules_present(acl)
    if not no_ip.known or present is None:
        return
    if no_ip.raw is not None and present:
        written = acl.block.attr("no_ip_allowed")
        loc = no_ip.loc or (written.value_loc if written is not None else None)
        if loc is None:
            return
        autofix = None
        if no_ip.is_true():
            why = "full isolation contradicts the acl_rules it also lists, and the provider accepts only one of them"
        else:
            why = "the provider accepts exactly one of no_ip_allowed and acl_rules, even when no_ip_allowed is false"
            if written is not None and written.is_literal and written.value_loc == loc:
                autofix = fix("safe", "remove no_ip_allowed = false", remove_attribute(project, written))
        yield finding(
            loc,
            f"{address} sets no_ip_allowed = {'true' if no_ip.is_true() else shown_text(no_ip, str(no_ip.text()))} "
            f"and acl_rules: {why}",
            subject=address,
            instance=acl.address,
            logical=f"{address}.no_ip_allowed",
            fix="remove no_ip_allowed to keep the rules, or remove the acl_rules for full isolation",
            autofix=autofix,
        )
    elif no_ip.raw is None and not present:
        yield finding(
            acl.block.loc,
            f"{address} sets neither no_ip_allowed nor acl_rules: the provider requires exactly one of them",
            subject=address,
            instance=acl.address,
            logical=f"{address}.acl_rules",
            fix="add acl_rules for the ranges that need the API server, or no_ip_allowed = true",
        )


def _split(project: Project, acl: ResourceInstance, rule: NestedBlock, rules: list[NestedBlock]) -> Fix | None:
    """The rule's scaleway_ranges moved to a rule of its own, when no other rule admits them."""
    written = rule.block.attr("scaleway_ranges")
    if rule.dynamic or written is None or not written.is_literal:
        return None
    if any(other is not rule and other.arg("scaleway_ranges").is_true() for other in rules):
        return None
    return fix("unsafe", "move scaleway_ranges = true to an acl_rules entry of its own",
               remove_attribute(project, written), insert_block(project, acl.block, SCALEWAY_RANGES_RULE))


def _rule_problems(project: Project, acl: ResourceInstance) -> Iterator[Finding]:
    address = acl.resource.address
    first_ranges: Loc | None = None
    rules = acl.nested("acl_rules")
    for rule in rules:
        ranges = rule.arg("scaleway_ranges")
        if not ranges.is_true() or ranges.loc is None:
            continue
        ip = rule.arg("ip")
        if ip.known and isinstance(ip.raw, str) and ip.raw.strip():
            yield finding(
                ranges.loc,
                f"an acl_rules entry of {address} sets both ip and scaleway_ranges = true: "
                "a rule with an ip cannot also admit Scaleway's ranges",
                subject=address,
                instance=acl.address,
                related=[Related(ip.loc, "the ip of the same rule")] if ip.loc is not None else [],
                logical=f"{address}.acl_rules.scaleway_ranges",
                fix="split it into one rule with the ip and one rule with scaleway_ranges = true",
                autofix=_split(project, acl, rule, rules),
            )
        elif first_ranges is None:
            first_ranges = ranges.loc
        else:
            assert ranges.loc is not None  # a rule without a location is skipped above
            yield finding(
                ranges.loc,
                f"{address} has a second acl_rules entry with scaleway_ranges = true: only one such rule can be added",
                subject=address,
                instance=acl.address,
                related=[Related(first_ranges, "the first rule with scaleway_ranges = true")],
                logical=f"{address}.acl_rules.scaleway_ranges",
                fix="keep a single rule with scaleway_ranges = true",
            )


def check(project: Project) -> Iterator[Finding]:
    for acl in project.resources(access.ACL):
        yield from _exactly_one(project, acl)
        yield from _rule_problems(project, acl)
