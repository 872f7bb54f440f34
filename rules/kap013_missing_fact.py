"""A fact a rule needed is missing.

## What it does
Reports a written version that kapsulint's facts do not reach, so the rules that depend on it could not judge: a chart `version` older than every version the chart facts cover, a Kubernetes minor outside the support calendar or the recorded API offers, a provider pre-release of the release that brought a feature, a version kapsulint cannot order.

## Why is this bad
Nothing is wrong with the code for this reason alone: it is a note (severity `note`, it never
fails a run at the default `--fail-on`). But kapsulint's rules judge some values by version, from
facts checked against the versions that were read: the ingress charts' defaults (Service type
and ports, node selector) from the oldest chart version checked on (haproxytech 1.40.0,
ingress-nginx 4.0.0, traefik 41.0.0), Kapsule's support calendar up to its newest listed minor,
the Kubernetes features the Kapsule API offers for the minors recorded, the first provider
release of each resource or argument. Where a written version falls outside those facts the
rules stay silent, and without this note that silence would read as "nothing to report": an
ingress-nginx pinned to `"v1.2.1"` on a shared-vCPU pool gets no KAP301, a cluster on a minor
newer than the calendar no KAP110.

The note sits where the version is written (the release's `version`, the cluster's `version` or
the variable or tfvars value that sets it, the lock file's `version`, the constraint that pins a
pre-release), once per written value, and names the rules that could not judge and what the
facts hold. Values no fact is needed for stay silent: a chart kapsulint has no facts for at all, a
cluster that sets no feature gates (the API offers are then not read), `version = "latest"`
(always the newest minor), a provider version newer than every release the facts list (its
features are those of the newest). Versions are ordered as Terraform orders provider versions
(https://developer.hashicorp.com/terraform/language/expressions/version-constraints) and as Helm
orders chart versions (https://github.com/Masterminds/semver/blob/v3.3.0/README.md): a
pre-release such as `4.0.0-beta.1` sorts before 4.0.0, and `v1.2.1` is 1.2.1.

Sources of the facts: the chart values at the versions named in kapsulint's chart facts (for
example https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml),
Scaleway's version support policy
(https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/), the
Kapsule API's version list
(https://www.scaleway.com/en/developers/api/kubernetes/#path-versions-list-all-available-versions)
and the provider's releases (https://github.com/scaleway/terraform-provider-scaleway/releases).

## Example
```hcl
resource "helm_release" "ingress" {
  name       = "ingress-nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "v1.2.1"
}
```

## Use instead
A version the facts cover, when upgrading the chart is the plan (it changes the release):
```hcl
resource "helm_release" "ingress" {
  name       = "ingress-nginx"
  repository = "https://kubernetes.github.io/ingress-nginx"
  chart      = "ingress-nginx"
  version    = "4.15.1"
}
```
Otherwise keep the version and suppress the note where it is written
(`# kapsulint: ignore[KAP013] old chart, judged by hand`), or baseline it.

## References
- [Helm: helm install --version and --devel](https://helm.sh/docs/helm/helm_install/)
- [Terraform version constraints](https://developer.hashicorp.com/terraform/language/expressions/version-constraints)
- [Kapsule version support policy](https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/)
"""

from collections.abc import Iterable, Iterator

from kapsulint.api import Finding, Project, finding
from kapsulint.kapsule import missing_facts

ID = "KAP013"
NAME = "missing-fact"
SEVERITY = "note"
COUNTED_AS = ("fact missing for a version", "facts missing for versions")


def check(project: Project) -> Iterator[Finding]:
    for missing in missing_facts.missing_facts(project):
        yield finding(
            missing.loc,
            f"{missing.said}, so {_and(missing.rules)} could not judge {_subjects(missing.subjects)}",
            subject=missing.subjects[0],
            logical=f"{missing.logical}.missing-fact",
            fix=missing.fix,
            counted_as=missing.kind,
        )


def _and(rules: Iterable[str]) -> str:
    items = list(rules)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _subjects(subjects: tuple[str, ...]) -> str:
    shown = list(subjects[:3])
    if len(subjects) > 3:
        shown.append(f"{len(subjects) - 3} more")
    return _and(shown)
