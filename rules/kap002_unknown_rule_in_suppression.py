"""Suppression naming no known rule.

## What it does
Reports a suppression comment that names no known rule id, id prefix or rule name.

## Why is this bad
A typo in a suppression silences nothing, and the finding it was meant for keeps coming back, or
worse, the author believes a rule is silenced when it is not. Ids are permanent and renamed rule
names keep working, so an unknown name is almost always a typo.

## Example
```hcl
# kapsulint: ignore[KAP1O1] the letter O instead of a zero
```

## Use instead
```hcl
# kapsulint: ignore[KAP101] cluster is disposable
```

## References
- kapsulint README, section "Suppressions"
"""

ID = "KAP002"
NAME = "unknown-rule-in-suppression"
SEVERITY = "warning"
# Reported by the engine after suppressions are matched: there is no check function.
