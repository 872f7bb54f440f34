"""Module call whose module was not read.

## What it does
Reports a `module` call whose module kapsulint did not read, at its `source`. Today that is a
local source that resolves outside the repository (`source = "../../elsewhere/network"`, or a
path through a symbolic link that leads out of it), or a call whose
`.terraform/modules/modules.json` entry does.

## Why is this bad
kapsulint reads only what lies inside the repository (the git top level of the project root,
else the project root): it lints pull requests on machines that hold secrets, and a module
source is as much the pull request's choice as a `file()` path is. A monorepo's `../modules`
inside the same repository stays readable, from a nested project root too.

A call whose module is not read is judged as Terraform would judge a module it cannot see yet:
its outputs are Unknown, so no rule fires on a value that passes through them; the resources it
would create are not linted; the arguments the call passes (listed in the message) are not
judged against the module's variables; and rules about something missing (an ACL, a backend, a
gateway) stay silent for the root module that makes the call, since the module could supply
it. This note says where, so that a clean report never hides what was not looked at.

## Example
```hcl
module "network" {
  source     = "../../../platform/network" # outside the repository
  cluster_id = scaleway_k8s_cluster.main.id
}
```

## Use instead
Keep local modules inside the repository (a `modules/` directory beside the roots), or publish
them and call them from a registry or a git source with a pinned version:
```hcl
module "network" {
  source     = "../modules/network"
  cluster_id = scaleway_k8s_cluster.main.id
}
```

## References
- [Terraform: module sources, local paths](https://developer.hashicorp.com/terraform/language/modules/sources#local-paths)
- [Terraform: module blocks](https://developer.hashicorp.com/terraform/language/modules/syntax)
"""

from kapsulint.api import OUTSIDE_REPOSITORY, Project, finding

ID = "KAP011"
NAME = "module-not-read"
SEVERITY = "note"
COUNTED_AS = ("module call not read", "module calls not read")

META_ARGUMENTS = frozenset({"source", "version", "count", "for_each", "providers", "depends_on"})
FIXES = {OUTSIDE_REPOSITORY: "keep the module inside the repository, or call it from a registry or a git source"}
"""The one-line fix of each reason a module is not read (``UnreadCall.reason``)."""


def check(project: Project):
    for unread in project.unread_calls:
        call = unread.call
        source = call.block.attr("source")
        arguments = sorted(name for name in call.block.attrs if name not in META_ARGUMENTS)
        if arguments:
            plural = len(arguments) > 1
            judged = (f"the argument{'s' if plural else ''} {', '.join(arguments)} of this call "
                      f"{'were' if plural else 'was'} not judged against the module")
        else:
            judged = "nothing the module declares is judged"
        yield finding(
            source.value_loc if source is not None else call.block.loc,
            f'module "{call.name}" was not read: {unread.why}; {judged}, and rules about something missing '
            "stay silent for the root module that calls it",
            subject=f"module.{call.name}",
            logical=f"module.{call.name}.{unread.reason}",
            fix=FIXES.get(unread.reason),
        )
