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

## References
- [haproxytech kubernetes-ingress chart](https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress)
- [HAProxy Kubernetes Ingress ConfigMap options](https://www.haproxy.com/documentation/kubernetes-ingress/community/configuration-reference/ingress/)
- [Helm: the format and limitations of --set](https://helm.sh/docs/intro/using_helm/#the-format-and-limitations-of---set)
"""

from kapsulint.api import Project, finding, shown
from kapsulint.kapsule import charts, helm

ID = "KAP309"
NAME = "haproxy-config-not-string"
SEVERITY = "error"


def check(project: Project):
    for subject in helm.values_subjects(project):
        if subject.controller is not charts.HAPROXYTECH:
            continue
        config = subject.values.path(*charts.HAPROXY_CONFIG_PATH)
        if not config.known or not config.is_object:
            continue  # a string is rendered through tpl as written
        for key, value in config.items():
            kind = _kind(value.raw) if value.known else None
            if kind is None:
                continue
            loc = value.loc or config.key_loc(key) or subject.anchor
            path = ".".join(charts.HAPROXY_CONFIG_PATH + (key,))
            shown_value = "" if kind in ("a list", "a map") else f" ({shown(value)})"
            yield finding(
                loc,
                f"{subject.name}: {path} is {kind}{shown_value}; the haproxytech chart writes it "
                "unquoted into a ConfigMap, which only holds strings, so the apply fails",
                subject=subject.name,
                instance=subject.instance_address,
                logical=f"{subject.name}.{path}",
                fix='write the value as a quoted string (in a set entry, add type = "string")',
            )


def _kind(raw) -> str | None:
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
