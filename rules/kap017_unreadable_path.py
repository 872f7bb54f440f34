"""Path that cannot be read.

## What it does
Reports a file or a directory inside the project that kapsulint could not read (permission
denied, a broken or looping symbolic link, a file that vanished while the run read the tree, an
I/O error), at the file (line 1) or the directory.

## Why is this bad
What an unreadable path holds is not judged: its findings are missing, and rules about something
missing stay silent for its module, since the missing thing might be in it. A report with no
finding would then read as a clean result. Terraform refuses the same module: `terraform
validate` and `plan` stop with "Failed to read file ... could not be read" for a configuration
file they cannot read, and a directory no one can list hides any module below it.

The run goes on with everything else, then exits 2 (even with `--exit-zero`), and the path is a
finding in every report format; in SARIF the run's `executionSuccessful` is `false` with a tool
execution notification for the path, so GitHub code scanning shows that the analysis was
incomplete instead of a clean result.

## Example
A file the user running kapsulint may not read, or a symbolic link to a file that is not there:
```sh
chmod 000 network.tf
ln -s common/variables.tf variables.tf   # common/variables.tf does not exist
```

## Use instead
Make the path readable by the user that runs kapsulint (`chmod a+r network.tf`), fix or remove the
link, or, when the path is not part of the configuration (a database volume, a build output), add
it to `exclude` in `.kapsulint.toml` so that it is not read at all. The finding is reported under
any `--select`; ignore it by id or name (`--ignore KAP017`) to accept the blind spot.

## References
- [Terraform: files and directories of a module](https://developer.hashicorp.com/terraform/language/files)
- [SARIF 2.1.0: the invocation object, executionSuccessful and toolExecutionNotifications](https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html)
- kapsulint README, section "Usage" (exit codes)
"""

ID = "KAP017"
NAME = "unreadable-path"
SEVERITY = "error"
# Reported by the engine for each path the scan could not read: there is no check function.
