"""Module calls that loop.

## What it does
Reports a module call that closes a cycle of module calls (a module calling itself with
`source = "./"`, a child module calling `../` back into its caller, or a longer loop), at the
call's `source`, naming the calls of the cycle.

## Why is this bad
Terraform installs a configuration's modules by following each call into the module it names,
then that module's calls, and so on. A cycle never ends: `terraform init` nests the module into
itself (`module.a.module.up.module.a.module.up...`) until the path of its module cache is too
long for the file system, and stops with "Failed to remove local module cache ... file name too
long"; `terraform validate` and `plan` refuse to run without the modules installed. Nothing is
planned or applied from such a root. A count or `for_each` of zero on the call does not help:
the calls are followed before any expression is evaluated.

kapsulint reads each module of the cycle once, from the root module that applies it, so the
findings of the root and of its modules are still reported, and does not follow the call that
closes the cycle (a module output read through it is unknown).

## Example
```hcl
# main.tf, the root module
module "network" {
  source = "./network"
}

# network/main.tf
module "root" {
  source = "../"
}
```

## Use instead
Call only modules below the one that calls them, or siblings that do not call back; move what
two modules both need into a third module that both call:
```hcl
# main.tf
module "network" {
  source = "./network"
}

module "cluster" {
  source     = "./cluster"
  network_id = module.network.id
}
```

## References
- [Terraform: module sources, local paths](https://developer.hashicorp.com/terraform/language/modules/sources#local-paths)
- [Terraform: terraform init installs the modules](https://developer.hashicorp.com/terraform/cli/commands/init#child-module-installation)
- [hashicorp/terraform#22648: terraform init should detect module cycles](https://github.com/hashicorp/terraform/issues/22648)
"""

import os
from collections.abc import Iterator

from kapsulint.api import (
    Finding,
    Loc,
    ModuleCall,
    Project,
    Related,
    finding,
)

ID = "KAP016"
NAME = "module-cycle"
SEVERITY = "error"

FIX_HINT = ("call only modules that do not call back; move what the modules of the cycle share into a "
            "module of its own that each of them calls")


def check(project: Project) -> Iterator[Finding]:
    for path in sorted(project.modules):
        module = project.modules[path]
        for call in module.calls.values():
            if call.cycle is None:
                continue
            loops = [(_caller(project, each), each) for each in call.cycle]
            steps = ", ".join(f'"{caller}" calls module.{each.name} ({_source_text(each)})' for caller, each in loops)
            back = loops[0][0]
            yield finding(
                _source_loc(call),
                f"module.{call.name} closes a cycle of module calls: {steps}, back into \"{back}\"; "
                "terraform init follows the calls without end and fails, so nothing can be planned "
                "from this configuration",
                subject=f"module.{call.name}",
                related=[Related(_source_loc(each), f'module.{each.name} in "{caller}", a call of the cycle')
                         for caller, each in loops[:-1]],
                logical=f"module.{call.name}.source",
                fix=FIX_HINT,
            )


def _caller(project: Project, call: ModuleCall) -> str:
    """The directory of the module that makes ``call``, relative to the project root."""
    return project.relative(os.path.dirname(call.block.path))


def _source_loc(call: ModuleCall) -> Loc:
    source = call.block.attr("source")
    return source.value_loc if source is not None else call.block.loc


def _source_text(call: ModuleCall) -> str:
    return f'"{call.source}"' if call.source is not None else "a source that is not a literal"
