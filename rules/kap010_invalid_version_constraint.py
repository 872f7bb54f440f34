"""Version constraint Terraform refuses.

## What it does
Reports a `version` of `required_providers`, or a `required_version`, that Terraform refuses:
`"2.x"`, `"2.79.*"`, `"^2.0"`, `">= 2.0 < 3.0"` (two clauses without a comma), `"v2.0"` or `""`
for a provider, a `version` that is not a literal string, a pre-release in `required_version`.

## Why is this bad
Terraform reads version constraints as comma-separated clauses, each an optional operator (`=`,
`!=`, `>`, `>=`, `<`, `<=`, `~>`) and a version of up to three numbers, with an optional
pre-release (`2.0.0-rc1`). Wildcards, carets and ranges from other package managers are errors:
`terraform init` stops with "Invalid version constraint", so nothing is planned. A provider's
constraint must also be a literal string ("Version must be specified as a string") without a
`v` prefix, and `required_version` may not name a pre-release ("Prerelease version constraints
are not supported"). kapsulint never guesses what such a constraint meant (it is not read as
`2.0.0`): the version of that provider is unknown, and the rules that depend on it stay silent
until the constraint is fixed. What Terraform 1.11 accepts was recorded from `terraform init`
itself (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/version_constraint.go,
https://github.com/hashicorp/terraform/blob/v1.11.4/internal/configs/module.go).

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

from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Loc,
    Module,
    Project,
    core_constraint_problem,
    finding,
    parse_constraint,
)

ID = "KAP010"
NAME = "invalid-version-constraint"
SEVERITY = "error"

FIX_HINT = 'write comma-separated clauses of an operator and a version, such as "~> 2.40" or ">= 2.0, < 3.0"'


def check(project: Project) -> Iterator[Finding]:
    for path in sorted(project.modules):
        module = project.modules[path]
        for what, text, loc in _constraints(module):
            problem = _problem(what, text)
            if problem is None:
                continue
            shown = f'the version constraint "{text}"' if isinstance(text, str) else "a version that is not a string"
            yield finding(
                loc,
                f'{what} has {shown}, which Terraform refuses ("{problem}" at terraform init)',
                subject=f"{project.relative(path)}:{what}",
                logical=f"{project.relative(path)}:{what}.version",
                fix=_fix(problem),
            )


def _problem(what: str, text: str | None) -> str | None:
    """Terraform's error for a constraint, None when Terraform reads it."""
    if what == "required_version" and text is not None:  # always a literal string (_constraints)
        return core_constraint_problem(text)
    if text is None:
        return "Version must be specified as a string"
    return "Invalid version constraint" if parse_constraint(text) is None else None


def _fix(problem: str) -> str:
    if problem.startswith("Prerelease"):
        return "remove the pre-release part: a pre-release of Terraform matches constraints by its version core"
    if problem.startswith("Version must"):
        return 'write the constraint as a literal string, such as "~> 2.40"'
    return FIX_HINT


def _constraints(module: Module) -> Iterator[tuple[str, str | None, Loc]]:
    """(what, constraint, where it is written) of every constraint in the ``terraform`` blocks of
    a module: a literal string, or None for a provider's ``version`` written otherwise."""
    for terraform in module.terraform_blocks:
        required = terraform.attr("required_version")
        if required is not None and required.is_literal and isinstance(required.literal_value, str):
            yield "required_version", required.literal_value, required.value_loc
        for block in terraform.children("required_providers"):
            for name in sorted(block.attrs):
                _, version, _ = module.required_provider(name)
                if version is None:
                    continue
                value = version.literal_value
                yield f'provider "{name}"', value if isinstance(value, str) else None, version.value_loc
