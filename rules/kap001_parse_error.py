"""File that cannot be parsed.

## What it does
Reports a file kapsulint reads that cannot be parsed, or that nests deeper than kapsulint
follows (50,000 levels of HCL, 500 of YAML or JSON).

## Why is this bad
Terraform refuses the whole configuration when one file does not parse, and Helm refuses a values
file that is not valid YAML. A Jinja template saved as `.j2.tf` is read by Terraform too and
breaks it the same way. kapsulint still lints every other file, but it cannot see the footguns
hidden in the broken one, and rules about missing things stay silent for its module.

## Example
```hcl
resource "scaleway_k8s_pool" "apps" {
  node_type = "PRO2-S"
```

## Use instead
```hcl
resource "scaleway_k8s_pool" "apps" {
  node_type = "PRO2-S"
}
```

## References
- [Terraform configuration syntax](https://developer.hashicorp.com/terraform/language/syntax/configuration)
- [YAML 1.1 specification](https://yaml.org/spec/1.1/)
"""

ID = "KAP001"
NAME = "parse-error"
SEVERITY = "error"
# Reported by the engine while reading files: there is no check function.
