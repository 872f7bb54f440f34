"""Path not read: outside the repository, or not a regular file.

## What it does
Reports a path kapsulint did not read because it leads outside the repository or is not a
regular file. That is the path of a file function (`file`, `filebase64`, `fileexists`, `fileset`,
`templatefile`, `filemd5`, `filesha1`, `filesha256`, `filesha512`, `filebase64sha256`,
`filebase64sha512`) that resolves outside the repository, starts with `~`, or names a FIFO or a
device; and a symbolic link that discovery did not follow because it leads out of the repository
(or a FIFO or a device with the name of a file kapsulint reads), reported at the link itself.

## Why is this bad
kapsulint lints pull requests on machines that hold secrets, and its reports are read by many.
A path written in the code is read only when its real path, after every symbolic link, lies
inside the repository (the git top level of the project root, else the project root), and only
when it is a regular file. Anything else could reveal the machine to whoever reads the report:
`file("/proc/self/environ")` holds every environment variable of the run, `file("../../.ssh/id_rsa")`
a key, and a `node_type` or a pool `name` read from such a file would be echoed in a finding.
`file("/dev/zero")` or a FIFO would never end. A directory link to `/` or to the system's
temporary directory would have kapsulint lint other projects.

So the value of such a call is Unknown (no rule fires on it; `fileexists` of an outside path is
Unknown too, since its answer would describe the machine), and the link is not followed. This
note says where, so that a clean report never hides what was not looked at. The message names the
path as written, never what lies there. A directory where a file is expected inside the
repository keeps Terraform's error, as does a missing file.

Terraform itself reads any path its process may open; the configuration usually means a file
distributed with the code, which belongs in the repository.

## Example
```hcl
locals {
  settings = yamldecode(file("${path.module}/../../platform/settings.yaml")) # outside the repository
}
```

## Use instead
Keep the files the configuration reads inside the repository, and point symbolic links only at
targets inside it:
```hcl
locals {
  settings = yamldecode(file("${path.module}/settings.yaml"))
}
```
A value that must come from the machine is a variable (`TF_VAR_...`, `-var`), which kapsulint
reads with `--env-vars` or `--var` and always masks in its reports. A note at a link that is
meant to lead out (a developer's local checkout of another repository) is silenced with
`per-path-ignores`, since a link holds no comment.

## References
- [Terraform: file function](https://developer.hashicorp.com/terraform/language/functions/file)
- [Terraform: fileset function](https://developer.hashicorp.com/terraform/language/functions/fileset)
- [Terraform: filesystem and workspace info (path.module)](https://developer.hashicorp.com/terraform/language/expressions/references#filesystem-and-workspace-info)
- [GitHub: keeping your GitHub Actions and workflows secure](https://securitylab.github.com/resources/github-actions-preventing-pwn-requests/)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding

ID = "KAP014"
NAME = "path-outside-project"
SEVERITY = "note"
COUNTED_AS = ("path outside the project", "paths outside the project")


def check(project: Project) -> Iterator[Finding]:
    for loc, message in project.blind_spots(NAME):
        yield finding(loc, message, subject=NAME)
