"""Services outside charts: which YAML files are read by content, what --show-files says of them,
and the Service model's answers for each source."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main
from kapsulint.kapsule.yaml_kinds import yaml_kinds

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    service.beta.kubernetes.io/scw-loadbalancer-zone: fr-par-1
spec:
  type: LoadBalancer
"""


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (SERVICE, "Kubernetes objects (Service)"),
        ("apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: Service\n", "Kubernetes objects (ConfigMap, Service)"),
        ("apiVersion: 'v1'\nkind: \"List\"\nitems: []\n", "Kubernetes objects (List)"),
        ("apiVersion: v2\nname: chart\nversion: 1.0.0\n", None),  # a Chart.yaml has no kind
        ("on: push\njobs:\n  build:\n    kind: Service\n", None),  # kind nested, no apiVersion
        ("services:\n  web:\n    image: nginx\n", None),
        ("  apiVersion: v1\n  kind: Service\n", None),  # not a document's own keys
    ],
)
def test_yaml_kinds_reads_the_content(text, reason):
    assert yaml_kinds(text) == reason


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_show_files_says_why_a_manifest_was_read(tmp_path, monkeypatch):
    project = _project(tmp_path, {
        "deploy/web.yaml": SERVICE,
        "compose.yaml": "services:\n  web:\n    image: nginx\n",
        "chart/Chart.yaml": "apiVersion: v2\nname: chart\nversion: 1.0.0\n",
        "chart/templates/service.yaml": SERVICE.replace("name: web", "name: {{ .Release.Name }}"),
    })
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["--show-files", "."], catch_exceptions=False)
    lines = result.stdout.splitlines()
    assert "deploy/web.yaml\tdocuments\tok\tits content: Kubernetes objects (Service)" in lines
    assert not any(line.startswith(("compose.yaml", "chart/")) for line in lines)


def test_a_broken_manifest_is_a_parse_error_and_other_yaml_is_not_read(tmp_path, monkeypatch):
    project = _project(tmp_path, {
        "broken.yaml": "apiVersion: v1\nkind: Service\nmetadata: [\n",
        "workflow.yml": "on: [push\n",
    })
    code, findings, _ = lint(project, [], monkeypatch)
    assert [(f["rule"], f["path"]) for f in findings] == [("KAP001", "broken.yaml")]
    assert code == 1


def test_a_file_a_manifest_resource_reads_is_judged_there_once(tmp_path, monkeypatch):
    """``kubernetes_manifest`` and ``kubectl_manifest`` read the file: each judges the Service it
    applies, and the file is not judged a second time on its own."""
    project = _project(tmp_path, {
        "web.yaml": SERVICE,
        "main.tf": 'resource "kubernetes_manifest" "web" {\n'
                   '  manifest = yamldecode(file("${path.module}/web.yaml"))\n}\n'
                   'resource "kubectl_manifest" "web" {\n  yaml_body = file("${path.module}/web.yaml")\n}\n',
    })
    _, findings, _ = lint(project, ["--select", "KAP304"], monkeypatch)
    got = sorted((f["path"], f["line"], f["column"], f["message"].split(":")[0]) for f in findings)
    assert got == [("web.yaml", 8, 9, "kubectl_manifest.web (Service web)"),
                   ("web.yaml", 8, 9, "kubernetes_manifest.web (Service web)")]


def test_the_object_is_named_with_its_namespace(tmp_path, monkeypatch):
    project = _project(tmp_path, {"k8s/web.yaml": SERVICE.replace("  name: web\n", "  name: web\n  namespace: edge\n")})
    _, findings, _ = lint(project, ["--select", "KAP304"], monkeypatch)
    assert [(f["line"], f["column"], f["message"].split(":")[0]) for f in findings] == [
        (9, 9, "k8s/web.yaml (Service edge/web)")]


def test_the_hooks_pass_a_manifest_and_naming_it_reports_its_services(tmp_path, monkeypatch):
    import re

    from ruamel.yaml import YAML

    hooks = YAML(typ="safe").load((Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml").read_text())
    for hook in hooks:
        assert re.search(hook["files"], "deploy/ingress-service.yml"), hook["id"]
    project = _project(tmp_path, {"deploy/ingress-service.yml": SERVICE, "other/web.yaml": SERVICE})
    _, findings, _ = lint(project, ["--select", "KAP304", "deploy/ingress-service.yml"], monkeypatch)
    assert [(f["path"], f["line"]) for f in findings] == [("deploy/ingress-service.yml", 8)]


def test_objects_of_every_wrong_shape_never_crash(tmp_path, monkeypatch):
    """Metadata, specs, ports, annotations, List items, EnvoyProxy providers, Gateway listeners,
    policy targets and Kustomization patches of the wrong type: judged where they can be, never a
    traceback, and no patch path is followed anywhere."""
    import shutil

    project = tmp_path / "project"
    shutil.copytree(Path(__file__).resolve().parent / "projects" / "hostile-manifests", project)
    code, findings, stderr = lint(project, [], monkeypatch)
    assert code in (0, 1), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert {f["rule"] for f in findings} <= {"KAP304", "KAP307"}
    assert all(f["path"] == "objects.yaml" for f in findings)


EG_CLASS = """apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: eg
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef:
    group: gateway.envoyproxy.io
    kind: EnvoyProxy
    name: proxy
    namespace: envoy-gateway-system
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata:
  name: proxy
  namespace: envoy-gateway-system
spec:
  provider:
    type: Kubernetes
    kubernetes:
      envoyService:
        annotations:
          service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm: {proxy}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: web
  namespace: envoy-gateway-system
spec:
  gatewayClassName: eg
  infrastructure:
    annotations:
      service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm: {gateway}
  listeners:
    - name: http
      port: 80
      protocol: HTTP
"""


@pytest.mark.parametrize(
    ("proxy", "gateway", "expected"),
    [
        ("leastconn", "random", []),  # the EnvoyProxy's value is the one on the Service
        ("random", "leastconn", [(24, 79, "gateway.yaml (Gateway envoy-gateway-system/web, Envoy Gateway)")]),
    ],
)
def test_envoy_gateway_puts_the_envoy_proxy_annotations_over_the_gateway_infrastructure(
        tmp_path, monkeypatch, proxy, gateway, expected):
    project = _project(tmp_path, {"gateway.yaml": EG_CLASS.format(proxy=proxy, gateway=gateway)})
    _, findings, _ = lint(project, ["--select", "KAP316"], monkeypatch)
    assert [(f["line"], f["column"], f["message"].split(":")[0]) for f in findings] == expected


def test_a_gateway_class_written_twice_leaves_its_gateways_unjudged(tmp_path, monkeypatch):
    gateway = ("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: web\nspec:\n"
               "  gatewayClassName: edge\n  infrastructure:\n    annotations:\n"
               "      service.beta.kubernetes.io/scw-loadbalancer-zone: fr-par-1\n")
    klass = ("apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: edge\n"
             "spec:\n  controllerName: {}\n")
    project = _project(tmp_path, {
        "gateway.yaml": gateway,
        "a/class.yaml": klass.format("istio.io/gateway-controller"),
        "b/class.yaml": klass.format("gateway.envoyproxy.io/gatewayclass-controller"),
    })
    _, findings, _ = lint(project, ["--select", "KAP304"], monkeypatch)
    assert findings == []
    (project / "b" / "class.yaml").unlink()
    _, findings, _ = lint(project, ["--select", "KAP304"], monkeypatch)
    assert [(f["path"], f["line"], f["column"], f["message"].split(":")[0]) for f in findings] == [
        ("gateway.yaml", 8, 5, "gateway.yaml (Gateway web, Istio)")]


def test_gateways_of_every_wrong_shape_never_crash(tmp_path, monkeypatch):
    shapes = [
        "  gatewayClassName: 3\n",
        "  gatewayClassName: istio\n  infrastructure: [a, b]\n",
        "  gatewayClassName: istio\n  infrastructure:\n    annotations: text\n",
        "  gatewayClassName: nginx\n  infrastructure:\n    annotations: [1]\n  listeners: text\n",
        "  gatewayClassName: istio\n  addresses: text\n  infrastructure:\n    annotations:\n"
        "      service.beta.kubernetes.io/scw-loadbalancer-zone: fr-par-1\n",
        "  gatewayClassName: istio\n  addresses: []\n  listeners: [{port: x}]\n  infrastructure:\n    annotations:\n"
        "      service.beta.kubernetes.io/scw-loadbalancer-zone: fr-par-1\n",
    ]
    documents = [f"apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: g{n}\nspec:\n{shape}"
                 for n, shape in enumerate(shapes)]
    documents.append("apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: [x]\nspec: 1\n")
    project = _project(tmp_path, {"objects.yaml": "---\n".join(documents)})
    code, findings, stderr = lint(project, [], monkeypatch)
    assert code in (0, 1), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    # an Unknown address may be the reserved one; no address is none, whatever the listeners hold
    assert [(f["rule"], f["line"], f["column"]) for f in findings] == [("KAP304", 55, 5)]


def test_kustomizations_of_every_wrong_shape_never_crash(tmp_path, monkeypatch):
    """Resources, patches and targets of the wrong type, a patch file that is missing or not a
    map, and two kustomizations that include each other: never a traceback; the Service is
    judged as written where no rendering is followed."""
    service = SERVICE
    project = _project(tmp_path, {
        "base/service.yaml": service,
        "base/kustomization.yaml": "resources: [service.yaml, ../loop, 3, {a: b}]\npatches: text\n",
        "loop/kustomization.yaml": "resources: [../base]\n",
        "odd/kustomization.yaml": "resources: ../base\npatchesStrategicMerge: [missing.yaml, 4]\n"
                                  "patches: [3, {path: [x]}, {patch: 'a: [', target: text}]\npatchesJson6902: [x]\n",
    })
    code, findings, stderr = lint(project, ["--select", "KAP304"], monkeypatch)
    assert code in (0, 1), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert [(f["path"], f["line"], f["column"]) for f in findings] == [("base/service.yaml", 8, 9)]
