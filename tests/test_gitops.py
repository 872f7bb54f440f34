"""Charts installed by Argo CD, Flux and helmfile: which YAML is read as what, what --show-files and
the pre-commit hooks say of it, the Service the load balancer rules judge, and hostile input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint
from ruamel.yaml import YAML

from kapsulint.cli.command import main
from kapsulint.kapsule.yaml_kinds import yaml_kinds

ROOT = Path(__file__).resolve().parent.parent

APPLICATION = """apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: ingress
  namespace: argocd
spec:
  source:
    repoURL: https://kubernetes.github.io/ingress-nginx
    chart: ingress-nginx
    targetRevision: 4.12.1
    helm:
      valuesObject:
        controller:
          service:
            annotations:
              service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
"""

HELMFILE = """repositories:
  - name: ingress-nginx
    url: https://kubernetes.github.io/ingress-nginx
releases:
  - name: ingress
    chart: ingress-nginx/ingress-nginx
    version: 4.12.1
    values:
      - values/ingress.yaml.gotmpl
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("text", "name", "reason"),
    [
        (APPLICATION, "ingress.yaml", "Kubernetes objects (Application): Argo CD Applications"),
        ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\n", "r.yaml",
         "Kubernetes objects (HelmRelease): Flux HelmReleases"),
        (HELMFILE, "helmfile.yaml", "a helmfile (releases of charts)"),
        ("resources:\n  - release.yaml\n", "kustomization.yaml",
         "a Kustomization (named kustomization.yaml, as Kustomize finds it)"),
        ("resources: []\n", "Kustomization", "a Kustomization (named Kustomization, as Kustomize finds it)"),
        ("releases:\n  - v1.0\n", "changelog.yaml", None),  # no chart named
        ("resources:\n  - release.yaml\n", "resources.yaml", None),
    ],
)
def test_yaml_kinds_name_the_tool(text, name, reason):
    assert yaml_kinds(text, name) == reason


def test_show_files_says_why_each_gitops_file_was_read(tmp_path, monkeypatch):
    project = _project(tmp_path, {
        "apps/ingress.yaml": APPLICATION,
        "helmfile.yaml": HELMFILE,
        "values/ingress.yaml.gotmpl": "controller:\n  replicaCount: {{ .Values.replicas }}\n",
        "flux/Kustomization": "resources:\n  - release.yaml\n",
    })
    monkeypatch.chdir(project)
    lines = CliRunner().invoke(main, ["--show-files", "."], catch_exceptions=False).stdout.splitlines()
    assert "apps/ingress.yaml\tdocuments\tok\tits content: Kubernetes objects (Application): Argo CD Applications" \
        in lines
    assert "helmfile.yaml\tdocuments\tok\tits content: a helmfile (releases of charts)" in lines
    assert "flux/Kustomization\tdocuments\tok\tits content: a Kustomization (named Kustomization, as Kustomize " \
        "finds it)" in lines


@pytest.mark.parametrize("path", ["helmfile.yaml", "helmfile.d/10-ingress.yaml", "values/ingress.yaml.gotmpl",
                                  "apps/ingress.yml", "flux/Kustomization", "flux/kustomization.yaml"])
def test_the_hooks_pass_every_gitops_file(path):
    hooks = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for hook in hooks:
        assert re.search(hook["files"], path), (hook["id"], path)


def test_an_application_service_is_judged_on_its_annotations(tmp_path, monkeypatch):
    """The Scaleway annotation is the Kapsule evidence: the chart's default LoadBalancer Service
    without a reserved IP (KAP304, at the Application, where the default comes from) and PROXY
    sent to a controller that does not expect it (KAP303, at the annotation's value)."""
    project = _project(tmp_path, {"apps/ingress.yaml": APPLICATION})
    _, findings, _ = lint(project, ["--select", "KAP303,KAP304"], monkeypatch)
    got = sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)
    assert got == [("KAP303", "apps/ingress.yaml", 16, 78), ("KAP304", "apps/ingress.yaml", 1, 1)]
    assert all(f["message"].startswith("Application argocd/ingress") for f in findings)


def test_a_values_file_a_release_reads_is_not_judged_on_its_own(tmp_path, monkeypatch):
    values = "controller:\n  config:\n    use-proxy-protocol: 'true'\n    proxy-real-ip-cidr: 0.0.0.0/0\n"
    project = _project(tmp_path, {"helmfile.yaml": HELMFILE.replace("ingress.yaml.gotmpl", "ingress-values.yaml"),
                                  "values/ingress-values.yaml": values})
    _, findings, _ = lint(project, ["--select", "KAP302"], monkeypatch)
    assert [(f["path"], f["line"], f["message"].split(" (")[0]) for f in findings] == [
        ("values/ingress-values.yaml", 4, "helmfile.yaml release ingress")]


WRONG_SHAPES = {
    "apps/a.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: nope\n---\n"
                   "apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec:\n  sources: 5\n  source: [1]\n---\n"
                   "apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec:\n  sources:\n    - 3\n"
                   "    - chart: x\n      helm: []\n    - chart: y\n      helm:\n        valueFiles: x\n"
                   "        parameters: {a: 1}\n        values: [1]\n        valuesObject: 7\n"
                   "    - path: ../../..\n      helm:\n        valueFiles: [$nope/x.yaml, /etc/passwd, 5, '']\n"
                   "        parameters: [{name: '[', value: 1}, 3, {value: x}]\n",
    "flux/r.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: 3\nspec:\n"
                   "  chart: {spec: [1]}\n  chartRef: {kind: OCIRepository, name: [x]}\n"
                   "  valuesFrom: {kind: ConfigMap}\n  values: [1]\n---\n"
                   "apiVersion: helm.toolkit.fluxcd.io/v2beta2\nkind: HelmRelease\nmetadata: {name: r}\nspec:\n"
                   "  valuesFrom:\n    - 3\n    - {kind: Secret, name: s}\n    - {kind: ConfigMap, name: c, "
                   "targetPath: 5}\n    - {kind: ConfigMap, name: c, valuesKey: v}\n",
    "flux/s.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  values.yaml: '%%%'\n---\n"
                   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  values.yaml: '- a list'\n"
                   "  v: 'a: [b'\n",
    "flux/kustomization.yaml": "configMapGenerator: 7\nsecretGenerator:\n  - name: [x]\n  - name: c2\n"
                               "    files: [5, 'a=', '=b', ../../../../etc/hostname]\n    literals: [x, 3]\n",
    "helmfile.yaml": "releases:\n  - chart: x\n    values: {a: 1}\n    set: 3\n  - 5\n  - chart: [y]\n"
                     "    values: [3, null, 'http://x/values.yaml', {a: 1}]\n"
                     "    set: [{name: a, values: [1]}, {value: 1}, 4, {name: '{', value: x}]\n",
    "helmfile.d/broken.yaml": "releases:\n  - chart: x\n{{ if .Values.x }}\n  - chart: y\n{{ end }}\n",
}


def test_gitops_objects_of_every_wrong_shape_never_crash(tmp_path, monkeypatch):
    """Specs, sources, valuesFrom entries, generators and helmfile entries of the wrong type: a
    located note or nothing, never a traceback, and nothing outside the repository is read."""
    project = _project(tmp_path / "project", WRONG_SHAPES)
    (project / ".git").mkdir()
    code, findings, stderr = lint(project, [], monkeypatch)
    assert code in (0, 1), stderr
    assert "Traceback" not in stderr and not any(f["rule"] == "KAP008" for f in findings)
    notes = [f for f in findings if f["rule"] == "KAP019"]
    assert notes and all(f["line"] >= 1 for f in notes)
    assert not any("passwd" in f["message"] and "resolves outside" not in f["message"] for f in notes)


def test_a_huge_values_string_and_a_self_referencing_kustomization_are_bounded(tmp_path, monkeypatch):
    big = "".join(f"    k{i}: {i}\n" for i in range(20_000))
    application = APPLICATION.replace("      valuesObject:\n", "      values: |\n" + big.replace("    ", "        ")
                                      + "      valuesObject:\n")
    project = _project(tmp_path, {
        "apps/ingress.yaml": application,
        "kustomization.yaml": "resources: [.]\nconfigMapGenerator:\n  - name: loop\n    files: [kustomization.yaml]\n",
        "release.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: r}\nspec:\n"
                        "  valuesFrom:\n    - {kind: ConfigMap, name: loop, valuesKey: kustomization.yaml}\n",
    })
    code, findings, stderr = lint(project, ["--select", "KAP019,KAP302,KAP303"], monkeypatch)
    assert "Traceback" not in stderr and code in (0, 1)
    assert [f["rule"] for f in findings if f["rule"] != "KAP019"] == ["KAP303"]


def test_a_values_file_only_a_gitops_release_reads_is_read_for_its_comments_and_errors(tmp_path, monkeypatch):
    """Named by no pattern, the file is read because the helmfile reads it: its suppression
    comments count, its parse error is reported (with the note at the reference), and naming it
    as a PATH reports what is anchored there."""
    values = ("controller:\n  config:\n    use-proxy-protocol: 'true'\n"
              "    proxy-real-ip-cidr: 0.0.0.0/0 # kapsulint: ignore[KAP302] trusted edge network\n")
    project = _project(tmp_path, {
        "helmfile.yaml": HELMFILE.replace("values/ingress.yaml.gotmpl", "config/ingress.yaml")
                                 .replace("    values:\n", "    values:\n      - config/broken.yaml\n"),
        "config/ingress.yaml": values,
        "config/broken.yaml": "controller: [unclosed\n",
    })
    (project / ".git").mkdir()  # the project root of a PATH is its repository's top
    code, findings, stderr = lint(project, ["--select", "KAP001,KAP003,KAP019,KAP302"], monkeypatch)
    assert sorted((f["rule"], f["path"], f["line"]) for f in findings) == [
        ("KAP001", "config/broken.yaml", 1), ("KAP019", "helmfile.yaml", 9)]
    _, named, stderr = lint(project, ["--select", "KAP302", "--no-inline-ignores", "config/ingress.yaml"], monkeypatch)
    assert [(f["path"], f["line"]) for f in named] == [("config/ingress.yaml", 4)]
    assert "no Terraform or values file found" not in stderr


def test_values_from_a_secret_are_never_printed(tmp_path, monkeypatch):
    project = _project(tmp_path, {
        "release.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: ingress}\n"
                        "spec:\n  chart:\n    spec: {chart: ingress-nginx}\n"
                        "  valuesFrom:\n    - {kind: Secret, name: ingress}\n",
        "secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: ingress}\nstringData:\n  values.yaml: |\n"
                       "    controller:\n      config:\n        use-proxy-protocol: 'true'\n"
                       "        proxy-real-ip-cidr: 0.0.0.0/0\n",
    })
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["--select", "KAP302", "."], catch_exceptions=False)
    assert "secret.yaml:9:29: KAP302" in result.stdout
    assert "0.0.0.0/0" not in result.stdout and "(sensitive value)" in result.stdout
