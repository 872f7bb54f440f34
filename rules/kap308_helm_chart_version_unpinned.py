"""Helm chart version not pinned.

## What it does
Reports a `helm_release` that installs a chart from a repository without pinning one exact
chart `version`; likewise a chart of a Helm repository or OCI registry installed by an Argo CD
Application (`targetRevision` a range), a Flux HelmRelease (`spec.chart.spec.version` absent or a
range, an `OCIRepository` without a tag or with a `semver` range) or a helmfile release
(`version` absent or a range).

## Why is this bad
Without `version`, the Helm provider installs the newest chart the repository holds when the
release is created, and records it: a later plan keeps that version. Which chart runs therefore
depends on the day of the install: a new environment, a recreated cluster or a replaced release
gets whatever was published last, not the chart that was tested. On a Kapsule cluster that means
the ingress controller, and the load balancer Service it owns, can differ between environments
built from the same code: new defaults, renamed values keys (the haproxytech chart dropped its
`prometheus` Service port in 1.44.3 and added an `admin` one on the same 6060 port in 1.44.4), a
new controller image. A range (`~1.52`, `^1.0`, `>= 1.40`, `1.52.x`) floats the same way, and
the provider v3 compares the chart it found with the configured string, so a range is expected
to end in "Planned version is different from configured version" (read from the provider
code, not run).

Charts installed from a local directory, a Git path or a chart archive URL carry their version
with them and are not checked; nor is `chart = "alias/name"` without `repository`, which cannot be told
apart from a local path.

Outside Terraform nothing records the version first resolved: Flux resolves a HelmRelease's
range (or `*` when absent) again at every interval of its chart and upgrades the release, Argo CD
resolves `targetRevision` again at every refresh and installs the newest match at the next sync,
and each `helmfile apply` or `sync` passes the range to Helm again. A range there moves the
cluster to a new chart without a change in the repository.

Sources: terraform-provider-helm `resource_helm_release.go` (`version` is optional and
computed: the chart resolved at install is kept in the state) and the chart's history
(https://github.com/haproxytech/helm-charts/blob/c5edba19/kubernetes-ingress/values.yaml, https://github.com/hashicorp/terraform-provider-helm/blob/v3.1.2/helm/resource_helm_release.go).

## Example
```hcl
resource "helm_release" "ingress" {
  name       = "haproxy-ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "~> 1.52"
}
```

## Use instead
```hcl
resource "helm_release" "ingress" {
  name       = "haproxy-ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.52.1"
}
```

## Fix
Pins the newest version of the chart that kapsulint's chart facts were checked against
(haproxytech `kubernetes-ingress` 1.52.1, `ingress-nginx` 4.15.1, `traefik` 41.3.0), for a
release that installs one of these charts from its own repository: `version = "~> 1.52"`
becomes `version = "1.52.1"` where the range is written (the release, a variable default, a
local, a module argument or a tfvars file), and a release without `version` gets one. No fix
for another chart, a mirror repository, a range that does not admit that version (the author
asked for another line of releases) or one whose reading is uncertain, and a variable or local
other expressions read too, or a release block whose instances (`for_each`, a module called
twice) install different charts, nor for a release written for Argo CD, Flux or helmfile. Unsafe: the chart installed today may be another version, and
`terraform plan` then upgrades (or downgrades) the release to the pinned one, which may change
the controller and its load balancer Service.

## References
- [helm_release: version](https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release#version-1)
- [Helm: helm install --version](https://helm.sh/docs/helm/helm_install/)
- [Flux: HelmChart version and interval](https://fluxcd.io/flux/components/source/helmcharts/#version)
- [Argo CD: tracking strategies for Helm](https://argo-cd.readthedocs.io/en/stable/user-guide/tracking_strategies/#helm)
- [helmfile: release version](https://helmfile.readthedocs.io/en/latest/#configuration)
"""

from collections.abc import Iterator

from kapsulint.api import (
    Edit,
    Finding,
    Fix,
    Loc,
    Project,
    ResourceInstance,
    Val,
    finding,
    fix,
    insert_after,
    literal_edit,
    set_attribute,
    shown,
)
from kapsulint.kapsule import chart_pins, charts, helm, helm_provider
from kapsulint.kapsule.gitops import release as gitops_release
from kapsulint.kapsule.gitops import releases as gitops_releases

ID = "KAP308"
NAME = "helm-chart-version-unpinned"
SEVERITY = "warning"
FIX = "unsafe"


def check(project: Project) -> Iterator[Finding]:
    releases = helm.releases(project)
    pins: dict[int, set[charts.Version | None]] = {}  # the versions each written block would be pinned to, by its instances
    for release in releases:
        pins.setdefault(id(release.instance.block), set()).add(_pinned(release))
    for release in releases:
        instance = release.instance
        if helm_provider.chart_from_repository(instance) is not True:
            continue
        version = instance.arg("version")
        if not version.known:
            continue
        address = instance.resource.address
        chart = instance.arg("chart")
        chart_name = shown(chart) if chart.known and chart.raw is not None else "its chart"
        text = version.text()
        if version.raw is None:
            loc = instance.block.loc
            message = (f"{address} installs {chart_name} with no version: each install takes the newest "
                       "chart in the repository, so a new environment or a reinstall gets a chart nobody tested")
        elif text is not None and not text.strip():
            loc = version.loc or _attr_loc(instance) or instance.block.loc
            message = f"{address} installs {chart_name} with an empty version: the newest chart is installed"
        elif text is not None and helm_provider.is_version_range(text):
            loc = version.loc or _attr_loc(instance) or instance.block.loc
            message = (f"{address} installs {chart_name} from a version range {shown(version)}: "
                       "which chart is installed depends on what the repository holds at install time")
        else:
            continue
        yield finding(
            loc,
            message,
            subject=address,
            instance=instance.address,
            logical=f"{address}.version",
            fix='pin one exact chart version: version = "<major>.<minor>.<patch>"',
            autofix=_pin(project, release, version) if len(pins[id(instance.block)]) == 1 else None,
        )
    yield from _gitops(project)


# What each tool does with a range, or with no version, once the release exists: it resolves the
# version again, so a chart nobody tested reaches the cluster without a change in the repository.
_RANGE = {
    gitops_release.ARGOCD: "Argo CD resolves the range again at every refresh, and the next sync installs the "
                           "newest chart it admits, one nobody tested",
    gitops_release.FLUX: "Flux resolves the range again at every chart interval and upgrades the release to the "
                         "newest chart it admits, one nobody tested",
    gitops_release.HELMFILE: "every helmfile apply or sync installs the newest chart the range admits, one nobody "
                             "tested",
}
_NO_VERSION = {
    gitops_release.ARGOCD: "the next sync installs whatever chart the repository holds",
    gitops_release.FLUX: "Flux takes the newest chart in the repository and upgrades the release to each new one "
                         "at its chart interval",
    gitops_release.HELMFILE: "every helmfile apply or sync installs the newest chart in the repository",
}


def _gitops(project: Project) -> Iterator[Finding]:
    """Charts of a repository installed by Argo CD, Flux or helmfile: the version as written."""
    for release in gitops_releases.releases(project):
        version = release.version.written
        if not release.from_repository or not version.known:
            continue
        chart_name = f'"{release.chart}"' if release.chart else "its chart"
        text = release.version_text
        if version.raw is None:
            if not release.version.newest_when_absent:
                continue
            loc = release.anchor
            message = f"{release.name} installs {chart_name} with no version: {_NO_VERSION[release.tool]}"
        elif text is not None and not text.strip():
            loc = version.loc or release.anchor
            message = f"{release.name} installs {chart_name} with an empty version: the newest chart is installed"
        elif text is not None and helm_provider.is_version_range(text):
            loc = version.loc or release.anchor
            message = (f"{release.name} installs {chart_name} from a version range {shown(version)}: "
                       f"{_RANGE[release.tool]}")
        else:
            continue
        yield finding(loc, message, subject=release.name, logical=f"{release.name}.version",
                      fix="pin one exact chart version")


def _attr_loc(instance: ResourceInstance) -> Loc | None:
    attribute = instance.block.attr("version")
    return attribute.value_loc if attribute is not None else None


def _pinned(release: helm.Release) -> charts.Version | None:
    """The chart version a fix would pin for this release (None: none)."""
    chart, repository = release.instance.arg("chart"), release.instance.arg("repository")
    source = repository.text() if repository.known and repository.raw is not None else None
    if source is None and chart.known and (chart.text() or "").strip().lower().startswith("oci://"):
        source = chart.text()
    return chart_pins.pinned_version(release.controller, source)


def _pin(project: Project, release: helm.Release, version: Val) -> Fix | None:
    """Pin the checked chart version where the version is written, or add it to the release; the
    caller leaves it out when the instances of one block (count, for_each, a module called twice)
    install different charts."""
    instance = release.instance
    pinned = _pinned(release)
    if pinned is None:
        return None
    text = ".".join(str(part) for part in pinned)
    written = version.text() if version.raw is not None else None
    if written is not None and written.strip() and chart_pins.admits(written, pinned) is not True:
        return None
    if version.raw is None and instance.block.attr("version") is None:
        after = instance.block.attr("chart")  # where a release's version is usually written
        edit: Edit | tuple[Edit, ...] | None = None
        if after is not None and after.span is not None and after.path == instance.block.path:
            edit = insert_after(project, after.path, after.span, "version", f'"{text}"')
        edit = edit or set_attribute(project, instance.block, "version", f'"{text}"')
    else:
        edit = literal_edit(project, version, f'"{text}"')
    return fix("unsafe", f'pin version = "{text}"', edit)
