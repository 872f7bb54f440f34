"""Suppression past its until date.

## What it does
Reports a suppression whose `until=` date has passed; the findings it silenced are reported again.

## Why is this bad
A suppression with an expiry date is a promise: "this footgun is known and will be fixed by then".
Once the date has passed, the finding comes back so the promise is kept or renewed on purpose,
instead of the suppression quietly living forever. The date is inclusive and read in UTC.

## Example
```hcl
# kapsulint: ignore[KAP201] until=2025-01-31 pool recreated by hand
resource "scaleway_k8s_pool" "apps" {
```

## Use instead
Fix the finding and delete the comment, or move the date forward with a reason:
```hcl
# kapsulint: ignore[KAP201] until=2027-03-31 migration to generated pool names planned in Q1
```

## References
- kapsulint README, section "Suppressions"
"""

ID = "KAP004"
NAME = "expired-suppression"
SEVERITY = "warning"
# Reported by the engine after suppressions are matched: there is no check function.
