"""Address defined twice in one module.

## What it does
Reports an address a module defines twice: two `resource` or `data` blocks with the same type and name, two `variable`, `output` or `module` blocks with the same name, a local value set in two `locals` blocks, two `provider` blocks with the same name and alias, or two backends.

## Why is this bad
Terraform refuses such a module before planning ("Duplicate resource configuration", "Duplicate
variable declaration", "Duplicate local value definition", "Duplicate provider
configuration", "Duplicate backend configuration"...), so nothing it holds can be
applied. The duplicate usually comes from a pasted documentation snippet or a copied file, and
the two blocks rarely say the same thing: the one a reader looks at is not always the one they
think Terraform would keep.

kapsulint reports the second definition (in the order Terraform reads the files: by name within
the module), points at the first in `related`, and still judges every resource block with the
other rules, each on its own (its instances, its positions, a fingerprint of its own), so a
`delete_additional_resources = true` in either one is reported where it is written. References
resolve to the first definition.

A folder whose files are standalone examples is not reported: documentation and CI folders hold
files that are each copied or applied on their own (`terraform apply` of one file copied into an
empty directory), and such a folder is never meant as one module. kapsulint reads a folder so
when it has two files or more, all read whole, each written as a root configuration of its own
(a `provider` or `terraform` block in every file), every file defines every address defined more
than once there (each file redefines the same set), and no file refers to a block, variable,
local, output or module call that only another file defines. A folder where one file uses what
another defines is one module, and its duplicates are reported. The other rules still judge
every block of such a folder, each on its own.

## Example
```hcl
resource "scaleway_k8s_cluster" "main" {
  name = "prod"
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  delete_additional_resources = true
}
```

## Use instead
Keep one block per address, or rename one of them:
```hcl
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  delete_additional_resources = false
}
```

## References
- [Terraform: resource blocks](https://developer.hashicorp.com/terraform/language/resources/syntax)
- [Terraform's duplicate checks (configs/module.go at v1.11.4)](https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/module.go)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, Related, finding, separate_examples

ID = "KAP006"
NAME = "duplicate-definition"
SEVERITY = "error"


def check(project: Project) -> Iterator[Finding]:
    for path in sorted(project.modules):
        module = project.modules[path]
        if separate_examples(module):
            continue  # a folder of standalone example files, each copied or applied on its own
        for duplicate in module.duplicates:
            where = project.relative(duplicate.first.path)
            yield finding(
                duplicate.second,
                f"{duplicate.address} is defined twice in this module (first at {where}:{duplicate.first.line}): "
                "Terraform refuses the module",
                subject=duplicate.address,
                related=[Related(duplicate.first, f"the first definition of {duplicate.address}")],
                logical=f"{duplicate.address}.duplicate",
                fix="remove one of the two definitions, or rename one",
            )
