"""Internal error of kapsulint.

## What it does
Reports an internal error of kapsulint: a bug met while reading a file or while a rule judged the project, at the file (and, for a rule, the line of the block it was judging) where it happened.

## Why is this bad
An internal error means kapsulint did not finish its work: the file it met the bug in, or the
rule that failed, may hide findings, and rules about missing things stay silent for that file's
module. The run exits 2 even with `--exit-zero`, and the error is a finding in every report
format (text, JSON, SARIF, GitHub and GitLab), so a CI log or a code-scanning page shows where
kapsulint stopped instead of a clean result. Nothing in the linted code is wrong because of it.

## Example
A file whose parse raises an unexpected exception inside kapsulint, or a rule that meets a value
shape it did not expect.

## Use instead
Nothing to change in the configuration. Report the error with the file (or a small file that
reproduces it) and the message; until it is fixed, `exclude` the file in `.kapsulint.toml` if the
rest of the run must pass.

## References
- kapsulint README, section "Usage" (exit codes)
"""

ID = "KAP008"
NAME = "internal-error"
SEVERITY = "error"
# Reported by the engine for every internal error of the run: there is no check function.
