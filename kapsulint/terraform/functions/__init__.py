"""Terraform's built-in functions: importing this package registers all of them."""

from kapsulint.terraform.functions.registry import FUNCTIONS, Call, Context, call

__all__ = ["FUNCTIONS", "Call", "Context", "call"]
