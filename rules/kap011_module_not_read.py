"""Module call whose module was not read.

## What it does
Reports a `module` call whose module kapsulint did not read, at its `source`. The note is placed
where the blindness starts: the `source` value, inside the `module` block (the block's header when
there is no `source`), and says why:
- a registry, git, Mercurial, HTTP, S3 or GCS source that was not downloaded: the root module has
  no `.terraform/modules/modules.json`, the manifest does not list the call, or the directory it
  lists holds no configuration file;
- a local path (`./x`, `../x`) that is not a directory, or holds no `.tf`, `.tf.json`, `.tofu` or
  `.tofu.json` file (a git submodule not checked out), or only `.tofu` files while it is read as
  Terraform, which ignores them;
- a source that is not a constant string (`source = var.module_source`), or no address Terraform
  reads (`source = ".."`, `source = "modules/x"`: a local path starts with `./` or `../`):
  `terraform init` refuses both;
- a local source, or a `modules.json` entry, that resolves outside the repository.

kapsulint never downloads anything: it reads the modules `terraform init` wrote into
`.terraform/modules/` (the keys of `modules.json` follow the calls from the root module, so a
registry module called by a local module is found too). A call inside a downloaded module whose
own module was not downloaded is reported at the call outside `.terraform/` that leads to it, since
nothing under `.terraform/` is reported. One note per call, whatever its `count` or `for_each`.

## Why is this bad
A call whose module is not read is judged as Terraform would judge a module it cannot see yet:
its outputs are Unknown, so no rule fires on a value that passes through them; the resources it
would create are not linted; the arguments the call passes (listed in the message) are not judged
against the module's variables (a `kubernetes_version = "1.31"` past its end of support is not
seen); and rules about something missing (an ACL, a backend, a gateway) stay silent for the root
module that makes the call, since the module could supply it. A report with no finding would then
say nothing of what was not looked at: this note says where, and why. It never fails a run at the
default `fail-on`.

kapsulint reads only what lies inside the repository (the git top level of the project root,
else the project root): it lints pull requests on machines that hold secrets, and a module source
is as much the pull request's choice as a `file()` path is. A monorepo's `../modules` inside the
same repository stays readable, from a nested project root too.

## Example
```hcl
module "kapsule" {
  source  = "particuleio/kapsule/scaleway" # no .terraform/modules/ beside it
  version = "~> 1.0"

  kubernetes_version = "1.31"
}

module "network" {
  source     = "../../../platform/network" # outside the repository
  cluster_id = module.kapsule.cluster_id
}
```

## Use instead
Run `terraform get` (or `terraform init`) in the root module before linting, in CI after the
checkout: it writes the modules into `.terraform/modules/` and touches no state or provider. Keep
local modules inside the repository:
```hcl
module "network" {
  source     = "../modules/network"
  cluster_id = module.kapsule.cluster_id
}
```
A note that is expected (a module read by another pipeline) is suppressed like any finding, with a
comment on the `module` block's header.

## References
- [Terraform: module sources](https://developer.hashicorp.com/terraform/language/modules/sources)
- [Terraform: terraform init, child module installation](https://developer.hashicorp.com/terraform/cli/commands/init#child-module-installation)
- [Terraform: terraform get](https://developer.hashicorp.com/terraform/cli/commands/get)
- [Terraform: module blocks](https://developer.hashicorp.com/terraform/language/modules/syntax)
"""

from collections.abc import Iterator

from kapsulint.api import (
    DOWNLOAD_MISSING,
    LOCAL_EMPTY,
    LOCAL_MISSING,
    LOCAL_TOFU_ONLY,
    MANIFEST_UNREADABLE,
    NO_SOURCE,
    NOT_AN_ADDRESS,
    NOT_CONSTANT,
    NOT_DOWNLOADED,
    NOT_LISTED,
    OUTSIDE_REPOSITORY,
    Finding,
    Loc,
    ModuleCall,
    Project,
    UnreadCall,
    finding,
)

ID = "KAP011"
NAME = "module-not-read"
SEVERITY = "note"
COUNTED_AS = ("module call not read", "module calls not read")

META_ARGUMENTS = frozenset({"source", "version", "count", "for_each", "providers", "depends_on"})
FIXES = {OUTSIDE_REPOSITORY: "keep the module inside the repository, or call it from a registry or a git source",
         NO_SOURCE: "give the call its source argument",
         NOT_CONSTANT: "write the source as a literal string, as Terraform requires",
         NOT_AN_ADDRESS: 'write a local path with its "./" or "../" (source = "./.."), or a registry or git address',
         LOCAL_MISSING: "correct the path, or check out the directory it names",
         LOCAL_TOFU_ONLY: 'read it as OpenTofu does (--engine opentofu, or engine = "opentofu"), or give it the '
                          ".tf files Terraform reads",
         LOCAL_EMPTY: "check out the module's files (`git submodule update --init` for a submodule), "
                      "or correct the path"}
"""The one-line fix of each reason a module is not read (``UnreadCall.reason``); the reasons of a
remote source are fixed by ``terraform init`` in the root module (:func:`_fix`)."""
DOWNLOAD_REASONS = frozenset({NOT_DOWNLOADED, MANIFEST_UNREADABLE, NOT_LISTED, DOWNLOAD_MISSING})
SHOWN_ARGUMENTS = 8  # argument names a message lists before it counts the rest


def check(project: Project) -> Iterator[Finding]:
    nested: dict[int, list[UnreadCall]] = {}
    for unread in project.unread_calls:
        if unread.via is not None:
            nested.setdefault(id(unread.via), []).append(unread)
        else:
            yield _direct(project, unread)
    for group in nested.values():
        yield _through(project, group)


def _direct(project: Project, unread: UnreadCall) -> Finding:
    call = unread.call
    arguments = sorted(name for name in call.block.attrs if name not in META_ARGUMENTS)
    if arguments:
        plural = len(arguments) > 1
        judged = (f"the argument{'s' if plural else ''} {_names(arguments)} of this call "
                  f"{'were' if plural else 'was'} not judged against the module")
    else:
        judged = "nothing the module declares is judged"
    return finding(
        _anchor(unread.call),
        f'module "{call.name}" was not read: {unread.why}; {judged}, and rules about something missing '
        "stay silent for the root module that calls it",
        subject=f"module.{call.name}",
        logical=f"module.{call.name}.{unread.reason}",
        fix=_fix(project, unread),
    )


def _through(project: Project, group: list[UnreadCall]) -> Finding:
    """The calls inside downloaded modules that the call ``group[0].via`` leads to."""
    via, first = group[0].via, group[0]
    assert via is not None  # the calls are grouped by the call that leads to them
    if len(group) == 1:
        what = f"a module it calls was not: {first.address}, {first.why}"
    else:
        what = (f"{len(group)} modules it calls were not ({_names([unread.address for unread in group])}): "
                f"{first.address}, {first.why}")
    return finding(
        _anchor(via),
        f'module "{via.name}" was read, but {what}; what {"they" if len(group) > 1 else "it"} would create is '
        "not linted, and rules about something missing stay silent for the root module that calls it",
        subject=f"module.{via.name}",
        logical=f"module.{via.name}.module-not-read",
        fix=_init(project, first.manifest[0]) if first.manifest is not None else None,
    )


def _anchor(call: ModuleCall) -> Loc:
    source = call.block.attr("source")
    return source.value_loc if source is not None else call.block.loc


def _fix(project: Project, unread: UnreadCall) -> str | None:
    if unread.reason in DOWNLOAD_REASONS and unread.manifest is not None:
        return _init(project, unread.manifest[0])
    return FIXES.get(unread.reason)


def _init(project: Project, root: str) -> str:
    return (f'run `terraform get` (or `terraform init`) in the root module "{project.relative(root)}": it writes '
            "the modules into .terraform/modules/ and touches no state; then run kapsulint again")


def _names(arguments: list[str]) -> str:
    if len(arguments) <= SHOWN_ARGUMENTS:
        return ", ".join(arguments)
    shown = SHOWN_ARGUMENTS - 1
    return f"{', '.join(arguments[:shown])} and {len(arguments) - shown} more"
