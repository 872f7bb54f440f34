"""Terraform's evaluation core: values, types, conversions and functions, independent of Scaleway."""
