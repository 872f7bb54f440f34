"""Values files with template expressions: read as YAML with each expression an Unknown part of its
value, or left out (KAP012) when the expressions change the YAML's structure.

A chart that passes some values through Helm's ``tpl`` makes ``"{{ .Release.Name }}"`` a common
sight in a values file; helmfile's ``.gotmpl``, Jinja's ``.j2`` and ``templatefile()`` make whole
files templates. Every other line of such a file is judged where it is written.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main
from kapsulint.parsing.sources import parse_content
from kapsulint.parsing.yaml import TemplatedYamlError, YamlSyntaxError, parse_values
from kapsulint.parsing.yaml_templates import PLACEHOLDER, find_actions, substitute


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def write(directory: Path, files: dict[str, str]) -> Path:
    (directory / ".git").mkdir(exist_ok=True)
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def located(findings: list[dict]) -> list[tuple[str, str, int, int]]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)


def show_files(directory: Path, monkeypatch) -> list[str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--show-files"], catch_exceptions=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout.splitlines()[1:]


# -- the acceptance case: five footguns and one {{ .Release.Name }} ----------------------------------

FIVE_FOOTGUNS = """\
    # ingress-nginx values for the shop cluster; the chart renders fullnameOverride with tpl.
    fullnameOverride: "{{ .Release.Name }}-ingress"
    controller:
      replicaCount: 2
      config:
        use-proxy-protocol: "true"
      service:
        type: LoadBalancer
        externalTrafficPolicy: Local
        annotations:
          service.beta.kubernetes.io/scw-loadbalancer-use-hostname: "true"
          service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v1: "true"
          service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
          service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm: round-robin
          service.beta.kubernetes.io/scw-loadbalancer-force-internal-ip: "true"
"""
# (rule, line, column): the use-proxy-protocol value, the Service type, the v1 annotation's value,
# the algorithm's value, the deprecated annotation's key
FIVE = [("KAP302", 6, 25), ("KAP304", 8, 11), ("KAP313", 12, 70), ("KAP316", 14, 75), ("KAP317", 15, 7)]
RELEASE = """\
    resource "helm_release" "ingress" {
      name       = "ingress-nginx"
      repository = "https://kubernetes.github.io/ingress-nginx"
      chart      = "ingress-nginx"
      version    = "4.11.3"
      values     = [file("${path.module}/helm/ingress.yaml")]
    }
"""


def test_five_footguns_beside_a_release_name_named_as_a_path(tmp_path, monkeypatch):
    write(tmp_path, {"values.yaml": FIVE_FOOTGUNS})
    code, findings, stderr = lint(tmp_path, ["values.yaml"], monkeypatch)
    assert located(findings) == [(rule, "values.yaml", line, column) for rule, line, column in FIVE], stderr
    assert code == 1
    assert show_files(tmp_path, monkeypatch) == [
        "values.yaml\tvalues\tok (template expressions read as unknown)\tnamed values*.yaml"]


def test_five_footguns_beside_a_release_name_read_by_a_release(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": RELEASE, "helm/ingress.yaml": FIVE_FOOTGUNS})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP3,KAP0"], monkeypatch)
    assert located(findings) == [(rule, "helm/ingress.yaml", line, column) for rule, line, column in FIVE], stderr
    assert {f["message"].split(":")[0].split(" ")[0] for f in findings} == {"helm_release.ingress"}
    _, named, _ = lint(tmp_path, ["--select", "KAP3,KAP0", "helm/ingress.yaml"], monkeypatch)
    assert located(named) == located(findings)


def test_the_findings_are_those_of_the_file_without_its_template(tmp_path, monkeypatch):
    write(tmp_path, {"values.yaml": FIVE_FOOTGUNS.replace("{{ .Release.Name }}", "shop")})
    _, plain, _ = lint(tmp_path, [], monkeypatch)
    assert [(f["rule"], f["line"], f["column"], f["end_column"]) for f in plain] == [
        (rule, line, column, end) for rule, line, column, end in _with_ends(tmp_path, monkeypatch)]


def _with_ends(tmp_path: Path, monkeypatch) -> list[tuple[str, int, int, int]]:
    write(tmp_path, {"values.yaml": FIVE_FOOTGUNS})
    _, findings, _ = lint(tmp_path, [], monkeypatch)
    return [(f["rule"], f["line"], f["column"], f["end_column"]) for f in findings]


# -- a chart's values in the style of Traefik's, with strings passed through tpl -------------------

TPL_VALUES = """\
    # Default values for an ingress chart in the style of Traefik's, kept in the platform repository.
    # Strings marked "tpl" are rendered by the chart with Helm's tpl function.
    image:
      repository: traefik
      # -- defaults to appVersion (tpl)
      tag: "{{ .Chart.AppVersion }}"
    deployment:
      replicas: 2
      podAnnotations:
        release: "{{ .Release.Name }}"
        checksum/static: '{{ include "traefik.fullname" . | sha256sum }}'
    providers:
      kubernetesIngress:
        publishedService:
          enabled: true
          # -- namespace/name of the Service to publish (tpl)
          pathOverride: "{{ .Release.Namespace }}/{{ template \\"traefik.fullname\\" . }}"
    additionalArguments:
      - "--entryPoints.websecure.proxyProtocol.trustedIPs=0.0.0.0/0"
      - "--log.level={{ .Values.logLevel | default \\"INFO\\" }}"
    env:
      - name: POD_NAMESPACE
        value: "{{ .Release.Namespace }}"
    ports:
      websecure:
        port: 8443
        exposedPort: 443
        proxyProtocol:
          insecure: true
    service:
      type: LoadBalancer
      annotations:
        service.beta.kubernetes.io/scw-loadbalancer-proxy-protocol-v2: "true"
        service.beta.kubernetes.io/scw-loadbalancer-use-hostname: "true"
        service.beta.kubernetes.io/scw-loadbalancer-send-proxy-v2: "true"
        service.beta.kubernetes.io/scw-loadbalancer-health-check-type: "{{ .Values.healthCheckType }}"
      labels:
        app.kubernetes.io/instance: "{{ .Release.Name }}-{{ .Release.Namespace }}"
    extraObjects:
      - apiVersion: v1
        kind: ConfigMap
        metadata:
          name: "{{ .Release.Name }}-extra"
        data:
          note: |
            Rendered by {{ .Chart.Name }} {{ .Chart.Version }}.
            {{- if .Values.debug }}
            debug: on
            {{- end }}
"""


def test_a_chart_values_file_passing_values_through_tpl_is_judged_around_them(tmp_path, monkeypatch):
    write(tmp_path, {"deploy/traefik/values.yaml": TPL_VALUES})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    path = "deploy/traefik/values.yaml"
    assert [(f["rule"], f["line"], f["column"], f["end_column"]) for f in findings] == [
        ("KAP302", 19, 5, 65),  # the additionalArguments item trusting 0.0.0.0/0
        ("KAP302", 29, 17, 21),  # proxyProtocol.insecure: true
        ("KAP304", 31, 9, 21),  # type: LoadBalancer, no reserved IP
        ("KAP317", 35, 5, 62),  # the deprecated send-proxy-v2 key
    ], stderr
    assert {f["path"] for f in findings} == {path} and code == 1
    # the health check type is the template, Unknown: KAP316 judges it once it is written
    invalid = TPL_VALUES.replace('"{{ .Values.healthCheckType }}"', "tcpp")
    write(tmp_path, {path: invalid})
    _, findings, _ = lint(tmp_path, ["--select", "KAP316"], monkeypatch)
    assert located(findings) == [("KAP316", path, 36, 68)]


# -- what the adapter reads ------------------------------------------------------------------------


def _items(node: dict) -> dict:
    return {key["v"]: value for key, value in node["items"]}


def test_template_scalars_are_unknown_in_place():
    text = textwrap.dedent("""\
        a: {{ .Values.x }}
        b: "{{ .x }}"
        c: prefix-{{ .x }}
        d: fr-par-1/{{ .id }}
        e: 'it''s {{ .x }}'
        f: |
          {{ .x }}
        g: 42
        h: {{- .x -}}
        i: ${var.zone}
        j: "%{ if x }a%{ else }b%{ endif }"
        k: "$${literal}"
    """)
    document = parse_values(text)["docs"][0]
    values = _items(document)
    assert values["a"] == {"t": "unknown", "p": (1, 4, 1, 19)}
    assert values["b"] == {"t": "unknown", "p": (2, 4, 2, 14), "str": True}
    assert values["c"] == {"t": "unknown", "p": (3, 4, 3, 19)}  # prefix-0 may be anything once rendered
    assert values["d"] == {"t": "unknown", "p": (4, 4, 4, 22), "str": True}  # a "/" is in no number or boolean
    assert values["e"]["str"] and values["f"]["str"]
    assert values["f"]["p"] == (6, 4, 6, 5)  # a block scalar is cut to its indicator, as without templates
    assert values["g"] == {"t": "lit", "v": 42, "p": (8, 4, 8, 6)}
    assert values["h"]["t"] == values["i"]["t"] == values["j"]["t"] == "unknown"
    assert values["k"] == {"t": "lit", "v": "$${literal}", "p": (12, 4, 12, 17)}  # Terraform's escape
    assert "open" not in document


def test_a_key_holding_a_template_opens_its_mapping():
    document = parse_values("service:\n  {{ .Values.key }}: Local\n  type: LoadBalancer\n")["docs"][0]
    service = _items(document)["service"]
    assert service["open"] is True
    assert [key["v"] for key, _ in service["items"]] == ["type"]
    assert "open" not in document


def test_a_merge_of_a_template_opens_the_mapping():
    document = parse_values("base: &base\n  a: 1\nservice:\n  <<: {{ .Values.common }}\n  b: 2\n")["docs"][0]
    assert _items(document)["service"]["open"] is True


@pytest.mark.parametrize("text", [
    "controller:\n  replicaCount: 2\n  service:\n    type: LoadBalancer\n",
    "a: [1, 2]\nb: {c: d}\nkey: 'quoted # not a comment'  # a comment\n",
])
def test_the_plain_reading_of_a_file_without_templates_is_unchanged(text):
    assert parse_values(text)["templates"] == 0
    assert find_actions(text, "go") == []


def test_every_other_node_keeps_its_line_and_column():
    templated = textwrap.dedent("""\
        name: "{{ .Release.Name }}"
        controller:
          {{/* a comment on its own line */}}
          image: {{ .Values.image }} # trailing comment
          multi: {{ include "x"
            (dict "a" 1) }}
          service:
            type: LoadBalancer
            ports: [80, {{ .Values.port }}, 443]
          tail: done
    """)
    plain = textwrap.dedent("""\
        name: "shop-abcdefghijklmnop"
        controller:

          image: traefik:v3.2.1-abcdefghi # trailing comment
          multi: abcdefghijklmnopqr

          service:
            type: LoadBalancer
            ports: [80, "abcdefghijklmnop", 443]
          tail: done
    """)

    def scalars(text: str) -> dict:
        found = {}
        stack = [parse_values(text)["docs"][0]]
        while stack:
            node = stack.pop()
            if node["t"] == "object":
                for key, value in node["items"]:
                    found[key["v"]] = key["p"]
                    stack.append(value)
            elif node["t"] == "tuple":
                stack.extend(node["items"])
            elif node["t"] == "lit" and node["v"] in (80, 443, "LoadBalancer", "done"):
                found[node["v"]] = node["p"]
        return found

    assert scalars(templated) == {k: v for k, v in scalars(plain).items() if k in scalars(templated)}
    assert {"type", "ports", "tail", 80, 443, "LoadBalancer", "done"} <= set(scalars(templated))
    comments = parse_values(templated)["comments"]
    assert comments == [[4, 30, "# trailing comment"]]


def test_placeholders_keep_the_length_and_lines_of_every_action():
    text = 'a: {{ include "x"\n  . }} tail\nb: "{{ "}}" }}"\n{{/* gone */}}\n'
    actions = find_actions(text, "go")
    assert [text[a.start:a.end] for a in actions] == ['{{ include "x"\n  . }}', '{{ "}}" }}', "{{/* gone */}}"]
    readable = substitute(text, actions)
    assert len(readable) == len(text) and readable.count("\n") == text.count("\n")
    assert readable.split("\n") == ["a: " + PLACEHOLDER * 14, "       tail", 'b: "' + PLACEHOLDER * 10 + '"', " " * 14, ""]


@pytest.mark.parametrize(("text", "dialect", "line", "column", "why"), [
    ("a: 1\n{{- if .Values.b }}\nb: 2\n{{- end }}\n", "go", 2, 1, "is a control structure on a line of its own"),
    ("list:\n{{- range .Values.items }}\n  - {{ . }}\n{{- end }}\n", "go", 2, 1, "control structure"),
    ("a:\n  {{- with .Values.a }}\n  b: {{ .b }}\n  {{- end }}\n", "go", 2, 3, "control structure"),
    ("a: \"{{ if .x }}\"\nb: \"{{ end }}\"\n", "go", 1, 5, "is not held in one value"),
    ("a: \"{{ if .x }}yes\"\n", "go", 1, 5, "is never closed"),
    ("a: \"{{ end }}\"\n", "go", 1, 5, "closes no control structure"),
    ("{{ toYaml .Values.traefik }}\n", "go", 1, 1, "in place of the file's mapping"),
    ("controller:\n  {{- include \"common\" . | nindent 2 }}\n  replicaCount: 2\n", "go", 2, 3,
     "on a line of its own where YAML expects a key"),
    ("service:\n  type: LoadBalancer\n    {{ include \"more\" . | nindent 2 }}\n", "go", 3, 5,
     "writes lines of its own inside a value"),
    ("a: {{ .x }}\nb: [\n", "go", 1, 4, "leaves YAML that cannot be read (invalid YAML at line 2"),
    ("{{ define \"x\" }}a: 1{{ end }}\n", "go", 1, 1, "is not held in one value"),
    ("ips:\n%{ for ip in ips ~}\n  - ${ip}\n%{ endfor ~}\n", "go", 2, 1, "control structure"),
    ("a: 1\n{% if prod %}\nb: 2\n{% endif %}\n", "jinja", 2, 1, "control structure"),
    ("a:\n{% for x in xs %}\n  - {{ x }}\n{% endfor %}\n", "jinja", 2, 1, "control structure"),
])
def test_a_text_not_yaml_once_its_templates_are_seen_is_left_out_at_the_expression(text, dialect, line, column, why):
    with pytest.raises(TemplatedYamlError) as raised:
        parse_values(text, dialect)
    assert (raised.value.line, raised.value.column) == (line, column)
    assert why in raised.value.message
    assert raised.value.message.startswith("`")


@pytest.mark.parametrize(("text", "dialect"), [
    ("config: |\n  {{- if .Values.x }}\n  a: 1\n  {{- end }}\n", "go"),  # inside one block scalar
    ("a: \"{{ range .x }}{{ . }},{{ end }}\"\n", "go"),  # a control structure inside one value
    ("{{/* the file's title */}}\na: 1\n{{- /*\n  two lines\n*/ -}}\nb: 2\n", "go"),  # comments alone
    ("a: 1 # {{ if .x }} commented out, never closed\n# {{- range .y }}\n", "go"),  # actions in comments
    ("annotations:\n  {{ toYaml .Values.annotations | nindent 4 }}\nb: 1\n", "go"),  # a whole value
    ("{# the title #}\n{% set replicas = 2 %}\na: {{ replicas }}\nb: \"{% if x %}y{% endif %}\"\n", "jinja"),
    ("a: 1\nb: \"{{ unclosed\"\n", "go"),  # an opener that never closes is text
])
def test_templates_that_keep_the_yaml_are_read(text, dialect):
    parse_values(text, dialect)


def test_jinja_delimiters_only_in_jinja_files():
    assert parse_values("a: '{% if x %}'\n")["templates"] == 0  # Go's dialect: text
    assert parse_values("a: '{% if x %}'\n", "go")["docs"][0]["items"][0][1]["t"] == "lit"
    with pytest.raises(TemplatedYamlError):
        parse_values("a: '{% if x %}'\n", "jinja")


def test_a_genuine_yaml_error_without_templates_stays_a_syntax_error():
    with pytest.raises(YamlSyntaxError) as raised:
        parse_values("a: 1\nb: [\n")
    assert not isinstance(raised.value, TemplatedYamlError)


def test_a_key_that_is_a_list_is_a_syntax_error_not_an_internal_one():
    with pytest.raises(YamlSyntaxError) as raised:
        parse_values("controller:\n  [a, b]: 1\n")
    assert (raised.value.line, raised.value.column) == (2, 3)


def test_the_parse_result_says_left_out_and_keeps_the_comments_for_suppressions():
    text = b"# kapsulint: ignore-file[KAP012] rendered by helmfile\na: 1\n{{- if .x }}\nb: 2\n{{- end }}\n"
    result = parse_content("/p/values.yaml", "values", text)
    assert result["data"] is None and result["error"] is None
    assert result["left_out"][1:] == [3, 1, 13, "go"]
    assert [c["line"] for c in result["comments"]] == [1]


# -- the project: notes, suppressions, releases, --show-files ----------------------------------------


def test_a_left_out_values_file_is_a_note_that_never_fails_the_run(tmp_path, monkeypatch):
    write(tmp_path, {"values.yaml": """\
        controller:
          service:
            type: LoadBalancer
        {{- if .Values.reservedIp }}
            loadBalancerIP: {{ .Values.reservedIp }}
        {{- end }}
    """})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert [(f["rule"], f["severity"], f["line"], f["column"], f["end_column"]) for f in findings] == [
        ("KAP012", "note", 4, 1, 29)]
    message = findings[0]["message"]
    assert "`{{- if .Values.reservedIp }}` at line 4" in message and "render it" in message
    assert code == 0 and stderr == ""
    code, again, _ = lint(tmp_path, ["--fail-on", "note"], monkeypatch)  # from the parse cache
    assert code == 1 and again == findings
    assert show_files(tmp_path, monkeypatch) == [
        "values.yaml\tvalues\tleft out (not YAML once its template expressions are seen: line 4)\tnamed values*.yaml"]


def test_a_left_out_file_suppresses_its_note_with_a_comment(tmp_path, monkeypatch):
    write(tmp_path, {"values.yaml": "# kapsulint: ignore-file[KAP012] rendered by helmfile\n{{ toYaml .Values }}\n"})
    code, findings, _ = lint(tmp_path, ["--select", "KAP012,KAP003"], monkeypatch)
    assert findings == [] and code == 0


def test_a_release_reading_a_left_out_file_is_named_and_its_values_are_unknown(tmp_path, monkeypatch):
    left_out = FIVE_FOOTGUNS.replace("      replicaCount: 2\n", "    {{- if .Values.ha }}\n      replicaCount: 2\n"
                                     "    {{- end }}\n")
    write(tmp_path, {"main.tf": RELEASE, "helm/ingress.yaml": left_out})
    code, findings, _ = lint(tmp_path, ["--select", "KAP3,KAP012"], monkeypatch)
    assert [(f["rule"], f["path"], f["line"], f["column"]) for f in findings] == [
        ("KAP012", "helm/ingress.yaml", 4, 1)]
    assert "nor the values helm_release.ingress reads from it" in findings[0]["message"]
    assert code == 0


def test_a_gotmpl_file_read_by_a_release_is_read_as_values(tmp_path, monkeypatch):
    release = RELEASE.replace("helm/ingress.yaml", "helm/ingress.yaml.gotmpl")
    write(tmp_path, {"main.tf": release, "helm/ingress.yaml.gotmpl": FIVE_FOOTGUNS})
    _, findings, _ = lint(tmp_path, ["--select", "KAP3,KAP012"], monkeypatch)
    assert located(findings) == [(rule, "helm/ingress.yaml.gotmpl", line, column) for rule, line, column in FIVE]
    assert show_files(tmp_path, monkeypatch)[0] == (
        "helm/ingress.yaml.gotmpl\tvalues\tok (template expressions read as unknown)\tread by helm_release.ingress "
        "(main.tf:1)")


TERRAFORM_TEMPLATE = """\
    controller:
      service:
        annotations:
          service.beta.kubernetes.io/scw-loadbalancer-zone: fr-par-1
        loadBalancerSourceRanges:
    %{ for cidr in ranges ~}
          - ${cidr}
    %{ endfor ~}
"""


def test_a_terraform_template_rendered_by_templatefile_is_judged_rendered_not_left_out(tmp_path, monkeypatch):
    release = RELEASE.replace('file("${path.module}/helm/ingress.yaml")',
                              'templatefile("${path.module}/helm/ingress.yaml", { ranges = ["203.0.113.0/24"] })')
    write(tmp_path, {"main.tf": release, "helm/ingress.yaml": TERRAFORM_TEMPLATE})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP304,KAP012"], monkeypatch)
    assert [(f["rule"], f["path"]) for f in findings] == [("KAP304", "main.tf")], stderr  # the chart's default type
    assert show_files(tmp_path, monkeypatch)[0] == (
        "helm/ingress.yaml\tvalues\trendered by templatefile() (not YAML before it is rendered: line 6)\t"
        "read by helm_release.ingress (main.tf:1)")
    # read with file(), Terraform renders nothing: the same text is a blind spot
    write(tmp_path, {"main.tf": RELEASE})
    _, findings, _ = lint(tmp_path, ["--select", "KAP304,KAP012"], monkeypatch)
    assert [(f["rule"], f["path"], f["line"], f["column"]) for f in findings] == [
        ("KAP012", "helm/ingress.yaml", 6, 1)]


def test_go_templates_left_in_a_templatefile_template_are_still_a_blind_spot(tmp_path, monkeypatch):
    release = RELEASE.replace('file("${path.module}/helm/ingress.yaml")',
                              'templatefile("${path.module}/helm/ingress.yaml", { ranges = [] })')
    text = TERRAFORM_TEMPLATE + "    {{- if .Values.extra }}\n    extra: true\n    {{- end }}\n"
    write(tmp_path, {"main.tf": release, "helm/ingress.yaml": text})
    _, findings, _ = lint(tmp_path, ["--select", "KAP012"], monkeypatch)
    assert [(f["line"], f["column"]) for f in findings] == [(9, 1)]


# -- template sources of Terraform ---------------------------------------------------------------------

JINJA_TF = 'resource "scaleway_vpc_private_network" "extra" {\n{% if production %}\n  name = "x"\n{% endif %}\n}\n'


def test_each_template_source_is_a_note_at_its_first_line(tmp_path, monkeypatch):
    files = {"main.tf": 'resource "scaleway_vpc_private_network" "nodes" {\n  name = "nodes"\n}\n'}
    files.update({f"generated/net{index:03}.j2.tf": JINJA_TF for index in range(200)})
    write(tmp_path, files)
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert len(findings) == 200 and {(f["rule"], f["line"], f["column"], f["severity"]) for f in findings} == {
        ("KAP012", 1, 1, "note")}
    assert sorted(f["path"] for f in findings) == sorted(p for p in files if p.endswith(".j2.tf"))
    assert "template-files `*.j2.tf`" in findings[0]["message"]
    assert code == 0 and stderr == ""
    # named as a PATH, a template source is read as it is (here KAP001: Jinja is not HCL); the others
    # of its module are still notes
    code, findings, _ = lint(tmp_path, ["generated/net007.j2.tf"], monkeypatch)
    named = [(f["rule"], f["line"]) for f in findings if f["path"] == "generated/net007.j2.tf"]
    assert named == [("KAP001", 2)] and len(findings) == 200 and code == 1
