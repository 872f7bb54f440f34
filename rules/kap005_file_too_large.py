"""File skipped as too large.

## What it does
Reports a file that kapsulint skipped because it is larger than `max-file-size` (5 MB by default).

## Why is this bad
A generated or vendored file of that size is rarely hand-written Terraform or Helm values, and
reading it would slow every run. A skipped file is not linted, and rules about missing things stay
silent for its module, so the skip is reported rather than hidden.

## Example
A 12 MB `generated.tf.json` in a module directory.

## Use instead
Exclude the file in `.kapsulint.toml` (`exclude = ["generated.tf.json"]`), or raise
`max-file-size` if the file must be linted.

## References
- kapsulint README, section "Configuration"
"""

ID = "KAP005"
NAME = "file-too-large"
SEVERITY = "warning"
# Reported by the engine while reading files: there is no check function.
