"""Admin kubeconfig written to disk or exposed.

## What it does
Reports a cluster's admin kubeconfig or token written to a local file, unmasked with `nonsensitive()`, or exported in a non-sensitive output of the data source.

## Why is this bad
The `kubeconfig` a `scaleway_k8s_cluster` exports holds the cluster admin token: `config_file`
is the whole kubeconfig file with the token inside, and `token` is the token itself. Whoever
reads it administers the cluster until the token is reset. Three patterns take it out of the
state into places that are easy to copy, archive or commit:

- a `local_file` or `local_sensitive_file` whose content is the kubeconfig (or a kubeconfig
  rebuilt from `host` and `token` with `templatefile()` or `yamlencode()`): a plain file in the
  working directory or in a CI job's workspace. `local_sensitive_file` hides the content from
  plan output, and its default `file_permission` is `0700` (the owner only) where `local_file`'s
  is `0777` (every user, less the umask); the message says which mode the file gets. Even a file
  only its owner can read is a plain-text admin credential that backups, CI artifacts and copies
  of the directory carry along.
- `nonsensitive()` around the kubeconfig in an output: the provider marks the resource's
  `kubeconfig` as sensitive (from version 2.12), and `nonsensitive()` removes that mark, so
  the token is printed by `terraform apply` and `terraform output`.
- an output of the `scaleway_k8s_cluster` data source's kubeconfig without `sensitive = true`:
  the data source's schema is copied from the resource's without the sensitive flag, so the
  token is printed. This was inferred from the provider's code, not stated by Scaleway.

Outputs of the resource's kubeconfig without `sensitive = true` are not reported: Terraform
already refuses them. A file or output holding only `host` or `cluster_ca_certificate` is not
reported either. For people, IAM-based kubeconfigs downloaded with the Scaleway CLI avoid
handing out the admin token at all.

The rule follows the content through locals, variables, module outputs and the `triggers` of
a `null_resource`, and through `data "template_file"` (its `template` and `vars` end up in
`rendered`, as with `templatefile()`). A `local-exec` provisioner whose command writes the token
or the kubeconfig file with a shell redirection (`> file`, `>> file`, `| tee file`; not `>
/dev/null`) is reported too. Outputs are judged in the modules no scanned module calls.

Source: Scaleway Terraform provider, `internal/services/k8s/cluster.go` (Sensitive
`kubeconfig`, PR #1800 in 2.12.0) and `cluster_data_source.go` (schema copied without
Sensitive); Scaleway documentation `manage-kubeconfig-with-iam.mdx` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/data-sources/k8s_cluster.md, https://github.com/scaleway/terraform-provider-scaleway/issues/4171).

## Example
```hcl
resource "local_file" "kubeconfig" {
  filename = "${path.root}/kubeconfig.yaml"
  content  = scaleway_k8s_cluster.main.kubeconfig[0].config_file
}

output "kubeconfig" {
  value = data.scaleway_k8s_cluster.main.kubeconfig[0].config_file
}
```

## Use instead
```hcl
# No file: configure the kubernetes and helm providers from the cluster's attributes, and let
# people fetch their own IAM kubeconfig: scw k8s kubeconfig install <cluster-id>

output "kubeconfig" {
  value     = data.scaleway_k8s_cluster.main.kubeconfig[0].config_file
  sensitive = true
}
```

## Fix
For an output: adds `sensitive = true` (or turns a written `sensitive = false` into `true`), and
when the output's own expression is `nonsensitive(...)`, drops that call. Safe: an output's
sensitivity changes no infrastructure; `terraform output NAME` and `terraform output -raw NAME`
still print the value for the jobs that read it, while plan and apply output show
`(sensitive value)`. No fix when `nonsensitive()` is applied elsewhere (in a local, a module),
and none for a file on disk: how the kubeconfig should reach its users instead (provider
arguments, IAM kubeconfigs) is a design choice.

## References
- [scaleway_k8s_cluster](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/resources/k8s_cluster)
- [scaleway_k8s_cluster data source](https://registry.terraform.io/providers/scaleway/scaleway/latest/docs/data-sources/k8s_cluster)
- [Manage a Kapsule kubeconfig with IAM](https://www.scaleway.com/en/docs/kubernetes/how-to/manage-kubeconfig-with-iam/)
- [Terraform: sensitive output values](https://developer.hashicorp.com/terraform/language/values/outputs#sensitive-suppressing-values-in-cli-output)
- [terraform-provider-scaleway#1790](https://github.com/scaleway/terraform-provider-scaleway/issues/1790)
"""

import re
from collections.abc import Iterator

from kapsulint.api import (
    Block,
    Finding,
    Fix,
    Loc,
    Project,
    Related,
    ResourceInstance,
    combined,
    finding,
    fix,
    replace_value,
    set_attribute,
    unwrap_edit,
)
from kapsulint.kapsule import kubeconfig
from kapsulint.text import lazy_pattern

ID = "KAP402"
NAME = "kubeconfig-written-to-disk"
SEVERITY = "warning"
SECURITY = True
FIX = "safe"

FILE_RESOURCES = ("local_file", "local_sensitive_file")
CONTENT_ARGUMENTS = ("content", "sensitive_content", "content_base64")

FILE_FIX = (
    "do not write the admin kubeconfig to a file: configure the kubernetes/helm providers from "
    "the cluster's attributes, and use IAM kubeconfigs (scw k8s kubeconfig install) for people"
)
OUTPUT_FIX = "add sensitive = true to the output"
NONSENSITIVE_FIX = "drop nonsensitive() and add sensitive = true to the output"


# file_permission defaults (before the umask): hashicorp/local's local_file and local_sensitive_file
# (https://registry.terraform.io/providers/hashicorp/local/latest/docs/resources/file,
# https://registry.terraform.io/providers/hashicorp/local/latest/docs/resources/sensitive_file).
DEFAULT_FILE_PERMISSION = {"local_file": "0777", "local_sensitive_file": "0700"}
OTHERS_READ = 0o044  # the group and other read bits


def _exposure(instance: ResourceInstance) -> str:
    """Who can read the file, from its ``file_permission`` (written, else the resource's default)."""
    written = instance.arg("file_permission")
    default = written.raw is None
    text = DEFAULT_FILE_PERMISSION[instance.type] if default else (written.text() if written.known else None)
    mode = int(text, 8) if text is not None and re.fullmatch(r"0?[0-7]{3}", text.strip()) else None
    if mode is None:
        return "where whoever can read the file gets admin access"
    origin = f"its default file_permission {text}" if default else f"file_permission {text}"
    if mode & OTHERS_READ:
        return (f"where {origin} lets other users of the machine read it (less the umask): "
                "each of them gets admin access")
    return (f"readable only by its owner ({origin}), yet a plain-text admin credential on disk, "
            "in backups, CI artifacts and copies of the directory: whoever gets the file gets admin access")


def _what(use: kubeconfig.KubeconfigUse) -> str:
    if use.field == "token":
        return "admin token"
    return "admin kubeconfig"


def _related(uses: list[kubeconfig.KubeconfigUse], loc: Loc) -> list[Related]:
    return [Related(u.loc, f"read from {u.reference}") for u in uses if u.loc != loc]


def _files(project: Project) -> Iterator[Finding]:
    for resource_type in FILE_RESOURCES:
        for instance in project.resources(resource_type):
            block = instance.block
            for name in CONTENT_ARGUMENTS:
                attribute = block.attr(name)
                if attribute is None:
                    continue
                found = kubeconfig.uses_in(instance.module, attribute.expression)
                uses = [u for u in found if u.secret]
                fallback: ResourceInstance | None = None
                if not found:
                    # Reached only through something the walk does not follow: the evaluator's ref.
                    fallback = kubeconfig.refers_to_kubeconfig(instance.arg(name))
                if not uses and fallback is None:
                    continue
                address = instance.resource.address
                if uses:
                    source = uses[0].reference
                    what = _what(uses[0])
                elif fallback is not None:
                    source, what = f"{fallback.resource.address}.kubeconfig", "admin kubeconfig"
                else:
                    continue
                loc = attribute.value_loc
                yield finding(
                    loc,
                    f"{address} writes the {what} of the cluster ({source}) to a file on disk, "
                    + _exposure(instance),
                    subject=address,
                    instance=instance.address,
                    related=_related(uses, loc),
                    logical=f"{address}.{name}",
                    fix=FILE_FIX,
                )


def _outputs(project: Project) -> Iterator[Finding]:
    for instance in project.top_instances():
        module = instance.module
        where = project.relative(module.path)
        for name in sorted(module.outputs):
            block = module.outputs[name]
            if instance.eval_attr(block, "sensitive").is_true():
                continue
            uses = [u for u in kubeconfig.uses_of_attribute(instance, block, "value") if u.secret and not u.sensitive]
            if not uses:
                continue
            use = uses[0]
            if use.through_nonsensitive:
                how = "nonsensitive() removes the provider's sensitive mark"
            else:
                how = "the data source does not mark its kubeconfig sensitive"
            yield finding(
                block.loc,
                f'output "{name}" prints the {_what(use)} of the cluster ({use.reference}) in plan and '
                f"apply output: {how} and the output has no sensitive = true",
                subject=f"{where}:output.{name}",
                related=_related(uses, block.loc),
                logical=f"{where}:output.{name}",
                fix=NONSENSITIVE_FIX if use.through_nonsensitive else OUTPUT_FIX,
                autofix=_sensitive_output(project, block, use.through_nonsensitive),
            )


def _sensitive_output(project: Project, block: Block, through_nonsensitive: bool) -> Fix | None:
    """``sensitive = true`` on the output, and its ``nonsensitive()`` dropped when it wraps the value."""
    written = block.attr("sensitive")
    if written is None:
        added = set_attribute(project, block, "sensitive", "true")
        sensitive = added[0] if added is not None and len(added) == 1 else None
    elif written.is_literal and written.literal_value is False:
        sensitive = replace_value(project, written, "true")
    else:
        return None
    if not through_nonsensitive:
        return fix("safe", "add sensitive = true to the output", sensitive)
    value = block.attr("value")
    unwrapped = unwrap_edit(project, value, "nonsensitive") if value is not None else None
    edits = combined(project, sensitive, unwrapped)
    return fix("safe", "drop nonsensitive() and add sensitive = true to the output", edits)


_REDIRECT = lazy_pattern(r"(?<![-=<>0-9&])>>?(?![=&>])|\btee\b")
_DISCARDED = lazy_pattern(r">>?\s*/dev/null")


def _commands(project: Project) -> Iterator[Finding]:
    """``local-exec`` provisioners whose shell command writes a kubeconfig secret to a file
    (``echo '${...config_file}' > kubeconfig``, ``| tee``)."""
    seen: set[Loc] = set()
    for module in project.instances():
        for resource in module.module.resources.values():
            for provisioner in resource.block.children("provisioner"):
                attribute = provisioner.attr("command") if provisioner.labels[:1] == ["local-exec"] else None
                if attribute is None or attribute.value_loc in seen:
                    continue
                text = _DISCARDED.sub("", attribute.expression.written_text())
                if not _REDIRECT.search(text):
                    continue
                uses = [u for u in kubeconfig.uses_in(module, attribute.expression) if u.secret]
                if not uses:
                    continue
                seen.add(attribute.value_loc)
                address = resource.address
                loc = attribute.value_loc
                yield finding(
                    loc,
                    f"{address} writes the {_what(uses[0])} of the cluster ({uses[0].reference}) to a file "
                    "with a local-exec command (created with the shell's umask, usually readable by every "
                    "user of the machine): whoever can read it gets admin access",
                    subject=address,
                    related=_related(uses, loc),
                    logical=f"{address}.provisioner.local-exec.command",
                    fix=FILE_FIX,
                )


def check(project: Project) -> Iterator[Finding]:
    yield from _files(project)
    yield from _commands(project)
    yield from _outputs(project)
