"""Plan that does not match the code.

## What it does
Reports, with `--plan`, a planned change whose resource block is not in the code linted, and a
block of the code that the plan's configuration does not hold.

## Why is this bad
The findings about planned actions (KAP6xx) are located at the block each change comes from and
judged with what the code says of it (its `lifecycle`, the arguments that force a replacement, the
Services that use a reserved IP). A plan made of other code cannot be judged that way: a plan of
another directory, or one made before the code changed (a branch rebased since, a plan file kept
from yesterday's run), describes actions that this code would not plan, and `terraform apply` of
that plan file is refused once the configuration changed ("Saved plan is stale").

kapsulint follows each address of `resource_changes` the way Terraform builds it (module calls and
their keys, the block, the instance key) from the directory given as PATH. A change whose block is
missing is reported at its address in the plan file, unless the plan says the block left the
configuration (`delete_because_no_resource_config`, `delete_because_no_module`,
`delete_because_no_move_target`, a `removed` block): those are deletions the KAP6xx rules judge.
A block of the code that the plan's `configuration` does not list is reported at its header (a
module call once, not each block inside it). Changes behind a module kapsulint did not read
(KAP011) or a file that did not parse (KAP001) are not judged. When none of the plan's resources
is in the code, kapsulint stops with exit code 2 and says so, instead of this finding.

## Example
```sh
cd infra/staging && terraform plan -out tfplan && terraform show -json tfplan > plan.json
kapsulint --plan infra/staging/plan.json infra/prod   # the plan of staging, judged against prod
```

## Use instead
Lint the plan with the code it was made of, from the directory it was made in:
```sh
cd infra/prod
terraform plan -out tfplan && terraform show -json tfplan > plan.json
kapsulint --plan plan.json .
```

## References
- [terraform show -json: JSON Output Format](https://developer.hashicorp.com/terraform/internals/json-format)
- [Terraform: resource addresses](https://developer.hashicorp.com/terraform/cli/state/resource-addressing)
- [terraform apply of a saved plan](https://developer.hashicorp.com/terraform/cli/commands/apply#apply-saved-plan-mode)
"""

from typing import Iterator

from kapsulint.api import ABSENT, Finding, Project, Related, finding, plan_binding

ID = "KAP018"
NAME = "plan-does-not-match"
SEVERITY = "warning"


def check(project: Project) -> Iterator[Finding]:
    binding = plan_binding(project)
    if binding is None:
        return
    name, where = binding.name, binding.directory
    for bound in binding.changes:
        if bound.status != ABSENT:
            continue
        change = bound.change
        module = bound.module
        inside = f"module {module.address}" if module is not None and module.address else f"the root module {where}"
        related: list[Related] = []
        if module is not None and module.call is not None:
            related.append(Related(module.call.block.loc, f"the module call {module.address} the plan goes through"))
        yield finding(
            change.loc,
            f"the plan {'/'.join(change.actions)} {change.text}, but {inside} defines no {change.address.block} "
            "(nor the module call on the way): the plan was made of other code (another directory, or before "
            "the code changed), so its actions there are not judged",
            subject=change.text,
            related=related,
            logical=f"plan.{change.text}",
            fix=f"make the plan again in {where} from this code, or lint the directory it was made in",
        )
    for block, address in binding.not_in_plan:
        yield finding(
            block.loc,
            f"{address} is not in the configuration of the plan {name}: the plan was made before this block "
            "was written, or of another configuration, so what applying the code would do to it is not judged",
            subject=address,
            logical=f"plan.not-in-plan.{address}",
            fix=f"make the plan again in {where} from this code",
        )
