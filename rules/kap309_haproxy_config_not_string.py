"""HAProxy config value not a string.

## What it does
Reports a haproxytech ingress controller `controller.config` entry whose value is not a string.

## Why is this bad
The haproxytech `kubernetes-ingress` chart renders the `controller.config` map into the
controller's ConfigMap with `toYaml` and no quoting. A number (`maxconn: 2000`), a boolean
(`ssl-redirect: true`, or `yes`/`on`, which Helm's YAML 1.1 reader also takes as booleans), a
list or a map therefore lands in `ConfigMap.data`, which holds only strings, and the Kubernetes
API rejects the whole ConfigMap: the Helm release fails to install or upgrade, and the
controller keeps its previous settings or never starts. ingress-nginx quotes each value and is
not affected.

The value is judged after Terraform and Helm have read it: `yamlencode({ maxconn = 2000 })`
emits a number while `"2000"` stays a string, and a `set` entry with the default
`type = "auto"` turns `"true"`, `"false"` and integers such as `"42"` into a boolean or a number.
The API server's error text is known from other charts with the same template pattern; it was
not reproduced against this chart.

Values read: `helm_release` values, Argo CD Applications, Flux HelmReleases, helmfile releases, and
values files.

Sources: haproxytech/helm-charts `kubernetes-ingress/templates/controller-configmap.yaml`,
Helm strvals typing of `--set` values as used by terraform-provider-helm `getValues`
(https://github.com/haproxytech/helm-charts/tree/c5edba19/kubernetes-ingress/templates, https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).

## Example
```yaml
controller:
  config:
    maxconn: 2000
    ssl-redirect: true
```

## Use instead
```yaml
controller:
  config:
    maxconn: "2000"
    ssl-redirect: "true"
```
In a `set` entry, add `type = "string"`.

## Fix
Quotes the value where it is written: in a values file `maxconn: 2000` becomes
`maxconn: "2000"` and `ssl-redirect: yes` becomes `ssl-redirect: "true"` (the boolean Helm read),
in Terraform `maxconn = 2000` becomes `maxconn = "2000"` (in `yamlencode`, a local, a variable
default, a module argument or a tfvars file), and a `set` entry gets `type = "string"`. No fix
for a list or a map, for a value computed by an expression, or for a variable or local that
other expressions read too. Safe: the ConfigMap the chart renders holds the same text the
controller was meant to read, and a release whose apply failed on it can now be applied; no
other resource changes.

## References
- [haproxytech kubernetes-ingress chart](https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress)
- [HAProxy Kubernetes Ingress ConfigMap options](https://www.haproxy.com/documentation/kubernetes-ingress/community/configuration-reference/ingress/)
- [Helm: the format and limitations of --set](https://helm.sh/docs/intro/using_helm/#the-format-and-limitations-of---set)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Attribute,
    Edit,
    Finding,
    Fix,
    Loc,
    Project,
    Val,
    finding,
    fix,
    insert_after,
    literal_edit,
    references,
    replace_yaml_scalar,
    set_attribute,
    shown,
    written_text,
)
from kapsulint.kapsule import helm, helm_provider

ID = "KAP309"
NAME = "haproxy-config-not-string"
SEVERITY = "error"
FIX = "safe"


def check(project: Project) -> Iterator[Finding]:
    for subject in helm.values_subjects(project):
        chart = subject.controller
        if chart is None or chart.unquoted_config_path is None:
            continue
        config = subject.values.path(*chart.unquoted_config_path)
        if not config.known or not config.is_object:
            continue  # a string is rendered through tpl as written
        for key, value in config.items():
            kind = _kind(value.raw) if value.known else None
            if kind is None:
                continue
            loc = value.loc or config.key_loc(key) or subject.anchor
            path = ".".join(chart.unquoted_config_path + (key,))
            shown_value = "" if kind in ("a list", "a map") else f" ({shown(value)})"
            yield finding(
                loc,
                f"{subject.name}: {path} is {kind}{shown_value}; the {chart.key} chart writes it "
                "unquoted into a ConfigMap, which only holds strings, so the apply fails",
                subject=subject.name,
                instance=subject.instance_address,
                logical=f"{subject.name}.{path}",
                fix='write the value as a quoted string (in a set entry, add type = "string")',
                autofix=_quoted(project, subject, value),
            )


def _kind(raw: object) -> str | None:
    if raw is None or isinstance(raw, str):
        return None
    if isinstance(raw, bool):
        return "a boolean"
    if isinstance(raw, (int, float)):
        return "a number"
    if isinstance(raw, list):
        return "a list"
    if isinstance(raw, dict):
        return "a map"
    return None


def _quoted(project: Project, subject: helm.ValuesSubject, value: Val) -> Fix | None:
    """The value written as a string where it is written, or a set entry typed as one."""
    if value.loc is None or isinstance(value.raw, (list, dict)):
        return None
    text = _as_text(value.raw)
    written = written_text(project, value.loc) or ""
    if written.startswith('"') and not value.loc.path.endswith((".yaml", ".yml")):
        return _typed_string(project, subject, value.loc)  # a string that a set entry's type "auto" converts
    if _typed_default(project, value.loc):
        return None  # Terraform would convert the quoted default back to the variable's type
    edit = replace_yaml_scalar(project, value, f'"{text}"') or literal_edit(project, value, f'"{text}"')
    return fix("safe", f'write "{text}" as a string', edit)


def _typed_default(project: Project, loc: Loc) -> bool:
    """Whether ``loc`` is in the default of a variable whose type names number or bool."""
    for module in project.modules.values():
        for variable in module.variables.values():
            default = variable.default
            if default is None or default.path != loc.path or default.span is None:
                continue
            if (default.span.line, default.span.column) <= (loc.line, loc.column) and (
                    (loc.end_line, loc.end_column) <= (default.span.end_line, default.span.end_column)):
                return bool({"number", "bool"} & _type_names(variable.block.attr("type")))
    return False


def _type_names(written: Attribute | None) -> set[str]:
    """The type keywords a variable's ``type`` expression is written with (``list(number)``)."""
    return {reference.root for reference in references(written.expression)} if written is not None else set()


def _as_text(raw: object) -> str:
    """The text Helm would have rendered for a boolean or a number."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, float) and raw.is_integer():
        return str(int(raw))
    return str(raw)


def _typed_string(project: Project, subject: helm.ValuesSubject, loc: Loc) -> Fix | None:
    """``type = "string"`` added to the set entry whose value is written at ``loc``."""
    if subject.release is None:
        return None
    instance = subject.release.instance
    for entry in helm_provider.set_entries(instance):
        if entry.value.loc != loc or (entry.type.known and entry.type.raw is not None):
            continue
        edit: Edit | tuple[Edit, ...] | None
        if entry.as_block:
            blocks = [block for block in instance.resource.block.children(entry.kind)
                      if (attribute := block.attr("value")) is not None and attribute.value_loc == loc]
            edit = set_attribute(project, blocks[0], "type", '"string"') if len(blocks) == 1 else None
        else:
            span = _item_span(instance.arg(entry.kind), loc)
            edit = insert_after(project, loc.path, span, "type", '"string"') if span is not None else None
        return fix("safe", 'add type = "string" to the set entry', edit)
    return None


def _item_span(listed: Val, loc: Loc) -> Loc | None:
    """The span of the list item ``value = ...`` whose value is written at ``loc``, key included."""
    for item in listed.elements() if listed.known and listed.is_list else []:
        key = item.key_loc("value") if item.known and item.is_object else None
        if key is not None and key.path == loc.path and item.get("value").loc == loc:
            return Loc(loc.path, key.line, key.column, loc.end_line, loc.end_column)
    return None
