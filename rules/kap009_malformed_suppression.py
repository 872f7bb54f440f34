"""Unreadable kapsulint directive.

## What it does
Reports a comment that starts like a kapsulint directive but cannot be read, an `ignore-file`
placed after the first token of its file, and a suppression whose expiry cannot be read: an
`until=` date that does not exist or is not written `YYYY-MM-DD` (`until=2027-13-45`,
`until=2027-6-30`), or an expiry written otherwise (`until:2027-06-30`, `until=` with no date).

## Why is this bad
`# kapsulint: ignore KAP201` (no brackets), `# kapsulint ignore[KAP201]` (no colon) or an
`ignore-file` below the code look like suppressions and silence nothing: the finding the author
meant to acknowledge keeps failing the build, or a later reader believes it is silenced. An
expiry that cannot be read would otherwise make the suppression permanent (the date taken as part
of the justification), so such a suppression fails closed: it silences nothing until the date is
written as kapsulint reads it. Such a
comment suppresses nothing and is reported, saying which form kapsulint reads, as Ruff warns about
a `# noqa` directive it cannot parse.

## Example
```hcl
resource "scaleway_k8s_cluster" "lab" {
  delete_additional_resources = true # kapsulint: ignore KAP101 throwaway cluster
}

resource "scaleway_k8s_cluster" "demo" {
  delete_additional_resources = true # kapsulint: ignore[KAP101] until=2027-6-30 demo week
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "lab" {
  delete_additional_resources = true # kapsulint: ignore[KAP101] throwaway cluster
}

resource "scaleway_k8s_cluster" "demo" {
  delete_additional_resources = true # kapsulint: ignore[KAP101] until=2027-06-30 demo week
}
```

## References
- kapsulint README, section "Suppressions"
- [Ruff: error suppression, `noqa` directives](https://docs.astral.sh/ruff/linter/#error-suppression)
"""

ID = "KAP009"
NAME = "malformed-suppression"
SEVERITY = "warning"
# Reported by the engine while it reads suppression comments: there is no check function.
