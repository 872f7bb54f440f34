"""Unreadable kapsulint directive.

## What it does
Reports a comment that starts like a kapsulint directive but cannot be read, and an `ignore-file`
placed after the first token of its file.

## Why is this bad
`# kapsulint: ignore KAP201` (no brackets), `# kapsulint ignore[KAP201]` (no colon) or an
`ignore-file` below the code look like suppressions and silence nothing: the finding the author
meant to acknowledge keeps failing the build, or a later reader believes it is silenced. Such a
comment suppresses nothing and is reported, saying which form kapsulint reads, as Ruff warns about
a `# noqa` directive it cannot parse.

## Example
```hcl
resource "scaleway_k8s_cluster" "lab" {
  delete_additional_resources = true # kapsulint: ignore KAP101 throwaway cluster
}
```

## Use instead
```hcl
resource "scaleway_k8s_cluster" "lab" {
  delete_additional_resources = true # kapsulint: ignore[KAP101] throwaway cluster
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
