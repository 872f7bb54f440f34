"""Helm provider v2 syntax on v3.

## What it does
Reports Helm provider v2 block syntax (`set {}`, `set_list {}`, `set_sensitive {}`,
`kubernetes {}`...) in a configuration that uses the Helm provider 3.x.

## Why is this bad
Helm provider 3.0.0 moved to the Terraform Plugin Framework and changed its schema: in
`helm_release` (and the `helm_template` data source), `set`, `set_list` and `set_sensitive` are
now lists of objects (`set = [{ name = ..., value = ... }]`), `postrender` a single object; in
`provider "helm"`, `kubernetes` and `experiments` are single objects (`kubernetes = { ... }`) and
`registry` blocks became the `registries` list. Terraform refuses the old block form at
`terraform plan`, so nothing is applied until every block is rewritten. The Kapsule example in the
Scaleway provider's documentation still uses the v2 blocks, which makes copying it onto a current
provider a common way to hit this; `dynamic "set"` blocks are v2 syntax too.

The provider version is read from `.terraform.lock.hcl`; without a lock file it is the newest
known release the `required_providers` constraints admit (what `terraform init` installs: `>=
2.11.0` or no constraint at all means 3.x). A constraint Terraform refuses (`"2.x"`) leaves the
version unknown and the rule silent (KAP010 reports the constraint). Files in JSON syntax
(`.tf.json`) are not checked: JSON has one form for blocks and attributes, which Terraform tells
apart by the provider's schema.

Sources: terraform-provider-helm `docs/guides/v3-upgrade-guide.md` and
`helm/resource_helm_release.go` (v3.1.2); terraform-provider-scaleway
`docs/resources/k8s_cluster.md` (https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/docs/guides/v3-upgrade-guide.md, https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_cluster.md).

## Example
```hcl
provider "helm" {
  kubernetes {
    host = scaleway_k8s_cluster.main.kubeconfig[0].host
  }
}

resource "helm_release" "ingress" {
  set {
    name  = "controller.service.type"
    value = "LoadBalancer"
  }
}
```
with `hashicorp/helm` 3.0.2 in the lock file.

## Use instead
```hcl
provider "helm" {
  kubernetes = {
    host = scaleway_k8s_cluster.main.kubeconfig[0].host
  }
}

resource "helm_release" "ingress" {
  set = [{
    name  = "controller.service.type"
    value = "LoadBalancer"
  }]
}
```
or keep the blocks and constrain the provider to `~> 2.17`.

## Fix
Rewrites the blocks in the v3 form where they are written: `kubernetes {`, `experiments {` and
`postrender {` become `kubernetes = {` (and so on); the `set`, `set_list`, `set_sensitive`
blocks of one resource become one list, `set = [{ ... }, { ... }]`, and `registry` blocks the
`registries` list, laid out as `terraform fmt` lays out such a list. Comments, the order of the
entries and their arguments stay as written (a comment between two blocks moves into the next
entry). No fix for `dynamic` blocks (a `for` expression is the author's to write), a block
holding nested blocks (`exec` in `kubernetes`), blocks of one type that other blocks or
arguments separate, or a block whose braces share their lines with other code. Safe: the
arguments and their values are unchanged, only written in the schema the installed provider
reads; before the fix, no plan runs at all.

## References
- [Helm provider v3 upgrade guide](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/guides/v3-upgrade-guide)
- [helm_release](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release)
"""

import itertools
from collections.abc import Iterator

from kapsulint.api import Block, Edit, Finding, Fix, Loc, ModuleInstance, Project, finding, fix, text_lines
from kapsulint.kapsule import helm_provider

ID = "KAP312"
NAME = "helm-v2-syntax-on-v3"
SEVERITY = "error"
FIX = "safe"
# v2 block types whose blocks become one list, by the v3 attribute's name
_LISTS = {"set": "set", "set_list": "set_list", "set_sensitive": "set_sensitive", "registry": "registries"}


def check(project: Project) -> Iterator[Finding]:
    for module in helm_provider.module_instances(project):
        resolved = helm_provider.helm_provider_version(module)
        if resolved is None or helm_provider.is_helm_v3(resolved.version) is not True:
            continue
        fixes = _fixes(project, module)
        for block in helm_provider.v2_blocks(module):
            yield finding(
                block.loc,
                f"{block.owner} writes `{block.block_type}` as a block, which the Helm provider "
                f"{resolved.text} ({resolved.origin}) refuses: v3 writes {block.v3_form}",
                subject=block.owner,
                instance=f"{module.address}.{block.owner}" if module.address and block.resource else None,
                logical=f"{block.owner}.{block.block_type}",
                fix=f"write {block.v3_form}, or constrain hashicorp/helm to ~> 2.17 and lock it",
                autofix=fixes.get(block.loc),
            )


def _fixes(project: Project, module: ModuleInstance) -> dict[Loc, Fix | None]:
    """The fix of each v2 block of the module, by its header: a block's group is fixed at once."""
    owners = [(resource.block, "helm_template" if resource.mode == "data" else resource.type)
              for resource in module.module.resources.values()
              if resource.type in ("helm_release", "helm_template")]
    owners += [(provider, "provider") for provider in module.module.providers
               if provider.labels and provider.labels[0] == "helm"]
    fixes: dict[Loc, Fix | None] = {}
    for owner, kind in owners:
        for block_type in {child.type for child in owner.blocks}:
            if (kind, block_type) not in helm_provider.HELM_V2_BLOCKS_INVALID_ON_V3:
                continue
            group = owner.children(block_type)
            dynamic = any(child.labels[:1] == [block_type] for child in owner.children("dynamic"))
            written = owner.attr(_LISTS.get(block_type, block_type)) is not None
            nested = any(block.blocks for block in group)
            edit = None if dynamic or written or nested else _rewrite(project, block_type, group)
            found = fix("safe", f"write {block_type} in the provider v3 form", edit)
            for block in group:
                fixes[block.loc] = found
    return fixes


def _rewrite(project: Project, block_type: str, group: list[Block]) -> Edit | None:
    """One edit replacing the consecutive blocks of ``group`` by their v3 attribute."""
    path = group[0].path
    source = project.read_text(path) if not path.endswith(".json") else None
    if source is None or any(block.path != path or block.body_span is None for block in group):
        return None
    lines = text_lines(source)
    group = sorted(group, key=lambda block: block.loc.line)
    found = [_parts(lines, block) for block in group]
    parts = [part for part in found if part is not None]
    if len(parts) != len(found):
        return None
    indent = parts[0][0]
    between: list[list[str]] = [[]]  # comment lines between two blocks move into the next entry
    for before, after in itertools.pairwise(group):
        gap = [line.strip() for line in lines[before.span.end_line: after.loc.line - 1] if line.strip()]
        if any(not line.startswith(("#", "//")) for line in gap):
            return None  # an argument or another block is written between two blocks of the group
        between.append([f"{indent}  {line}" for line in gap])
    name = _LISTS.get(block_type)
    if name is None:
        if len(group) != 1:
            return None
        _, comment, body = parts[0]
        out = [f"{indent}{block_type} = {{{comment}", *body, f"{indent}}}"]
    else:
        out = [f"{indent}{name} = [{{{parts[0][1]}", *parts[0][2]]
        for (_, comment, body), comments in zip(parts[1:], between[1:]):
            out += [f"{indent}  }}, {{{comment}", *comments, *body]
        out.append(f"{indent}}}]")
    last = group[-1].span
    return Edit(path, group[0].loc.line, 1, last.end_line + 1, 1, "".join(line + "\n" for line in out))


def _parts(lines: list[str], block: Block) -> tuple[str, str, list[str]] | None:
    """(indent, trailing comment of the header, body lines) of a block written over its own
    lines: ``type {`` alone on the first (a comment may follow) and ``}`` alone on the last."""
    header, span = lines[block.loc.line - 1], block.span
    if span.end_line <= block.loc.line or span.end_line > len(lines):
        return None
    indent = header[: len(header) - len(header.lstrip())]
    rest = header[block.loc.end_column - 1:]
    if header[len(indent): block.loc.end_column - 1].split() != [block.type, "{"]:
        return None  # a labelled block, or the header is not `type {` as written
    if rest.strip() and not rest.strip().startswith(("#", "//")):
        return None
    if lines[span.end_line - 1].strip() != "}":
        return None
    comment = " " + rest.strip() if rest.strip() else ""
    return indent, comment, lines[block.loc.line: span.end_line - 1]
