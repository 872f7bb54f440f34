"""Unescaped dot or comma in a Helm set entry.

## What it does
Reports a `helm_release` `set`, `set_list` or `set_sensitive` entry whose name leaves the dots of
an annotation, label or selector key unescaped, or whose value holds an unescaped comma.

## Why is this bad
The Helm provider hands each entry to Helm's `--set` parser as `name=value`. That parser reads a
`.` in the name as a step into a nested map and a `,` in the value as the start of the next
`name=value` pair; a backslash before either makes it literal. So:

- `name = "controller.service.annotations.service.beta.kubernetes.io/scw-loadbalancer-zone"`
  does not set the Scaleway zone annotation: it builds maps named `service`, `beta`,
  `kubernetes` under `annotations`, and the Service gets a broken annotation instead of the one
  the Scaleway cloud controller manager reads (the same goes for `labels`, `nodeSelector`,
  `podAnnotations`, `podLabels`, `matchLabels` and other `...Annotations`/`...Labels` maps, whose
  keys such as `kubernetes.io/os` hold dots);
- `value = "10.0.0.0/8,192.168.0.0/16"` is cut after the first range and Helm reads
  `192.168.0.0/16` as a key with no value: installing the release fails. `type = "string"` does not
  protect commas, only the typing of the value. In a `set_list`, the items are joined with commas
  into a `{...}` list, so an item holding a comma becomes two items.

In HCL the backslash itself is escaped, so the name is written
`"controller.service.annotations.service\\\\.beta\\\\.kubernetes\\\\.io/scw-loadbalancer-zone"`
and the value `"10.0.0.0/8\\\\,192.168.0.0/16"`. A `{a,b}` list value is left alone, and so are
entries with the provider v3 `type = "literal"`, which are read as YAML rather than by the
`--set` parser (read from the provider code, not run).

Sources: terraform-provider-helm `getValues` and its documentation ("escape the `{}`, `[]`, `.`,
and `,` characters twice"), Helm's documentation of `--set`
(https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).

## Example
```hcl
set = [{
  name  = "controller.service.annotations.service.beta.kubernetes.io/scw-loadbalancer-zone"
  value = "fr-par-2"
}, {
  name  = "controller.config.proxy-protocol"
  value = "172.16.0.0/22,10.0.0.0/8"
  type  = "string"
}]
```

## Use instead
```hcl
set = [{
  name  = "controller.service.annotations.service\\\\.beta\\\\.kubernetes\\\\.io/scw-loadbalancer-zone"
  value = "fr-par-2"
}, {
  name  = "controller.config.proxy-protocol"
  value = "172.16.0.0/22\\\\,10.0.0.0/8"
  type  = "string"
}]
```
or pass such settings in `values = [yamlencode({...})]`, where no escaping is needed.

## Fix
Escapes the name or value where it is written (the entry, or the variable, local, module
argument or tfvars file it comes from): the dots of the annotation, label or selector key in the
name become `\\\\.`, and each comma of a `set` or `set_sensitive` value becomes `\\\\,`. No fix
for a comma in a `set_list` item (the author may have meant two items, which is what Helm makes
of it today), a value that already holds a backslash or starts a `{...}` list, a name holding
quotes or interpolations, and a variable or local other expressions read too. Unsafe: Helm then
gets the key or the value that was meant, so the chart renders what it dropped or cut (an
annotation the Service lacked, say), which may update or move the load balancer.

## References
- [helm_release: set](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release#set-1)
- [Helm: the format and limitations of --set](https://helm.sh/docs/intro/using_helm/#the-format-and-limitations-of---set)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Fix,
    Project,
    Val,
    finding,
    fix,
    literal_edit,
    written_text,
)
from kapsulint.kapsule import helm, helm_provider

ID = "KAP311"
NAME = "helm-set-unescaped"
SEVERITY = "error"
FIX = "unsafe"


def check(project: Project) -> Iterator[Finding]:
    for release in helm.releases(project):
        instance = release.instance
        address = instance.resource.address
        for entry in helm_provider.set_entries(instance):
            if entry.type_text in (None, "literal"):
                continue
            name = entry.name.text() if entry.name.known else None
            label = f'{entry.kind} "{name}"' if name is not None else entry.kind
            if name is not None:
                split = helm_provider.split_flat_key(name)
                if split is not None:
                    yield finding(
                        entry.name_loc,
                        f'{address}: {label} splits the {split.map_key} key "{split.key}" at its '
                        "unescaped dots, so Helm builds nested maps instead of that one key",
                        subject=address,
                        instance=instance.address,
                        logical=f"{address}.{entry.kind}.{name}.name",
                        fix=f'escape the dots: name = "{helm_provider.hcl_escaped(split.escaped_name)}"',
                        autofix=_escaped_name(project, entry.name, split.escaped_name),
                    )
            for value in _comma_values(entry):
                if entry.kind == "set_list":
                    consequence = "Helm splits that item into separate list elements"
                else:
                    consequence = ("Helm cuts the value there and reads the rest as another key, so the "
                                   "release fails or gets a stray key")
                yield finding(
                    value.loc or entry.value_loc,
                    f"{address}: the value of {label} holds an unescaped comma; {consequence}",
                    subject=address,
                    instance=instance.address,
                    logical=f"{address}.{entry.kind}.{name}.value",
                    fix='escape each comma as "\\\\," in HCL, or pass the value through values = [yamlencode(...)]',
                    autofix=_escaped_commas(project, entry, value),
                )


def _comma_values(entry: helm_provider.SetEntry) -> list[Val]:
    """The values (or ``set_list`` items) of an entry that Helm would cut at a comma."""
    value = entry.value
    if not value.known:
        return []
    if entry.kind == "set_list":
        items = value.elements() if value.is_list else []
        return [item for item in items
                if item.known and isinstance(item.raw, str) and helm_provider.unescaped_commas(item.raw)]
    if isinstance(value.raw, str) and helm_provider.unescaped_commas(value.raw):
        return [value]
    return []


def _escaped_name(project: Project, name: Val, escaped: str) -> Fix | None:
    """The name rewritten with its key's dots escaped, where the name is written."""
    if any(mark in escaped for mark in ('"', "${", "%{", "\n")):
        return None
    text = helm_provider.hcl_escaped(escaped)
    return fix("unsafe", f'write name = "{text}"', literal_edit(project, name, f'"{text}"'))


def _escaped_commas(project: Project, entry: helm_provider.SetEntry, value: Val) -> Fix | None:
    """The value's commas escaped in the literal as written (a set_list item is left alone)."""
    if entry.kind == "set_list" or value.loc is None or value.raw.lstrip().startswith("{"):
        return None
    written = written_text(project, value.loc)
    if not written or not written.startswith('"') or "\\" in written:
        return None
    text = written.replace(",", "\\\\,")
    return fix("unsafe", "escape each comma of the value", literal_edit(project, value, text))
