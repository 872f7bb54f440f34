"""File, or part of one, that kapsulint left out.

## What it does
Reports a file kapsulint had to leave out, so that none of its rules judged it: a Helm values
file that is not YAML once its template expressions are seen, and a template source of Terraform
(`*.j2.tf` and the other `template-files` globs). It is a note: it never fails a run at the
default `--fail-on`, and it says where kapsulint could not look, so that "No findings" never hides
a file it did not read.

## Why is this bad
Values files are often templates: helmfile renders `values.yaml.gotmpl` with Go templates, Ansible
renders `.j2` files with Jinja, `templatefile()` renders `${...}` and `%{...}`, and many charts pass
some values through Helm's `tpl` function, so a values file holds strings like
`"{{ .Release.Name }}"`. kapsulint reads such a file as YAML with each template expression an
unknown part of the value it stands in: no rule fires on that value, and every other line is
judged with its exact position. A file is left out only when its template expressions change its
YAML structure, so that what it holds depends on how it is rendered: a control structure
(`{{- if }}`, `{{ range }}`, `{% for %}`, `%{ for }`) spanning lines of the YAML, an expression
that writes lines of its own (`{{ include "x" . | nindent 2 }}`, `{{ toYaml .Values.x }}` in place
of a mapping), or a text YAML cannot read even with its expressions as placeholders. The note
points at that expression. A Terraform template that a `helm_release` reads through
`templatefile()` is not reported for Terraform's own directives: kapsulint renders it as Terraform
does and judges the release's values.

A template source of Terraform is the input of a generator, left out by default (it would be a
parse error on every line the template touches); the note is at its first line.

Sources: Go's text/template (https://pkg.go.dev/text/template), Helm's `tpl` function
(https://helm.sh/docs/howto/charts_tips_and_tricks/#using-the-tpl-function), helmfile's templated
values (https://helmfile.readthedocs.io/en/latest/templating/), Jinja's template syntax
(https://jinja.palletsprojects.com/en/stable/templates/), Terraform's string templates
(https://developer.hashicorp.com/terraform/language/expressions/strings#string-templates).

## Example
```yaml
controller:
  service:
    type: LoadBalancer
{{- if .Values.reservedIp }}
    loadBalancerIP: {{ .Values.reservedIp }}
{{- end }}
```

## Use instead
Keep each template expression inside one value, which kapsulint reads as unknown and judges the
rest:
```yaml
controller:
  service:
    type: LoadBalancer
    loadBalancerIP: "{{ .Values.reservedIp }}"
```
or render the file (`helmfile write-values`, the tool that renders it) and lint the rendered
file, naming it with the `values-files` setting if its name is not `values*.yaml`. For a template
source of Terraform, lint the Terraform it renders, or name it as a PATH to read it as it is.
A note you accept can be suppressed (`# kapsulint: ignore-file[KAP012]` at the top of the file) or
ignored by path (`per-path-ignores`).

## References
- [Go text/template](https://pkg.go.dev/text/template)
- [Helm: using the tpl function](https://helm.sh/docs/howto/charts_tips_and_tricks/#using-the-tpl-function)
- [helmfile: templating](https://helmfile.readthedocs.io/en/latest/templating/)
- [Jinja template designer documentation](https://jinja.palletsprojects.com/en/stable/templates/)
- [Terraform string templates](https://developer.hashicorp.com/terraform/language/expressions/strings#string-templates)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding

ID = "KAP012"
NAME = "file-left-out"
SEVERITY = "note"
COUNTED_AS = ("file left out", "files left out")


def check(project: Project) -> Iterator[Finding]:
    for loc, message in project.blind_spots(NAME):
        yield finding(loc, message, subject=project.relative(loc.path), logical=f"{NAME}.{project.relative(loc.path)}")
