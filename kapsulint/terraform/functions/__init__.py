"""Terraform's built-in functions: importing this package registers all of them."""

from kapsulint.terraform.functions import (  # noqa: F401  (importing them registers their functions)
    collections,
    conversion,
    crypto,
    datetime,
    encoding,
    filesystem,
    maps,
    network,
    numeric,
    sets,
    strings,
)
from kapsulint.terraform.functions.registry import FUNCTIONS, Call, Context, call

__all__ = ["FUNCTIONS", "Call", "Context", "call"]
