"""Suppression that silences nothing.

## What it does
Reports a suppression for a rule that ran in this invocation and silenced no finding.

## Why is this bad
A suppression that no longer matches anything hides the next real finding on that line or block
without anyone noticing. Like Ruff's unused `noqa` check, removing stale suppressions keeps
them meaningful. Only rules that ran are judged, so `--select` never makes a suppression look unused.

## Example
```hcl
# kapsulint: ignore[KAP201] the pool has create_before_destroy now
resource "scaleway_k8s_pool" "apps" {
  lifecycle {
    create_before_destroy = true
  }
}
```

## Use instead
Delete the comment.

## Fix
Removes the comment (its whole line when nothing else is on it). **Safe**: a comment is not
configuration, `terraform plan` is unchanged. A suppression that also names a rule that did not
run (a narrower `--select`), or an unknown one, is not removed: a full run may still need it.

## References
- kapsulint README, section "Suppressions"
- [Ruff RUF100 unused-noqa](https://docs.astral.sh/ruff/rules/unused-noqa/)
"""

ID = "KAP003"
NAME = "unused-suppression"
SEVERITY = "warning"
FIX = "safe"
# Reported by the engine after suppressions are matched: there is no check function.
