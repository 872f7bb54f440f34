"""kapsulint: a linter for the Terraform code and Helm values that build Scaleway Kapsule clusters."""

__version__ = "0.1.0"
