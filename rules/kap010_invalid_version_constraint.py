"""Version constraint Terraform refuses.

## What it does
Reports a `version` of `required_providers`, or a `required_version`, written in a syntax
Terraform refuses: `"2.x"`, `"2.79.*"`, `"^2.0"`, `">= 2.0 < 3.0"` (two clauses without a comma).

## Why is this bad
Terraform reads version constraints as comma-separated clauses, each an optional operator (`=`,
`!=`, `>`, `>=`, `<`, `<=`, `~>`) and a version of up to three numbers. Wildcards, carets and
ranges from other package managers are errors: `terraform init` stops with "Invalid version
constraint", so nothing is planned. kapsulint never guesses what such a constraint meant (it is
not read as `2.0.0`): the version of that provider is unknown, and the rules that depend on it
stay silent until the constraint is fixed.

## Example
```hcl
terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = "2.x"
    }
  }
}
```

## Use instead
```hcl
terraform {
  required_providers {
    scaleway = {
      source  = "scaleway/scaleway"
      version = "~> 2.0"
    }
  }
}
```

## References
- [Terraform version constraints](https://developer.hashicorp.com/terraform/language/expressions/version-constraints)
- [Terraform provider requirements](https://developer.hashicorp.com/terraform/language/providers/requirements)
"""

from typing import Iterator

from kapsulint.api import Loc, Project, finding, parse_constraint

ID = "KAP010"
NAME = "invalid-version-constraint"
SEVERITY = "error"

FIX_HINT = 'write comma-separated clauses of an operator and a version, such as "~> 2.40" or ">= 2.0, < 3.0"'


def check(project: Project):
    for path in sorted(project.modules):
        module = project.modules[path]
        for what, text, loc in _constraints(module):
            if parse_constraint(text) is not None:
                continue
            yield finding(
                loc,
                f'{what} has the version constraint "{text}", which Terraform refuses ("Invalid version '
                'constraint" at terraform init)',
                subject=f"{project.relative(path)}:{what}",
                logical=f"{project.relative(path)}:{what}.version",
                fix=FIX_HINT,
            )


def _constraints(module) -> Iterator[tuple[str, str, Loc]]:
    """(what, constraint, where the string is written) of every literal constraint in the
    ``terraform`` blocks of a module."""
    for terraform in module.terraform_blocks:
        required = terraform.attr("required_version")
        if required is not None and required.is_literal and isinstance(required.literal_value, str):
            yield "required_version", required.literal_value, required.value_loc
        for block in terraform.children("required_providers"):
            for name in sorted(block.attrs):
                _, version, _ = module.required_provider(name)
                if version is None or not version.is_literal or not isinstance(version.literal_value, str):
                    continue
                yield f'provider "{name}"', version.literal_value, version.value_loc
