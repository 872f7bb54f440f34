"""Terraform's built-in functions: importing this package registers all of them."""

from kapsulint.terraform.functions.registry import FUNCTIONS, Call, Context, call
from kapsulint.terraform.functions import collections, maps, sets  # noqa: F401  (register their functions)
from kapsulint.terraform.functions import conversion  # noqa: F401  (registers its functions)
from kapsulint.terraform.functions import crypto, datetime, encoding, filesystem, network, numeric  # noqa: F401  (register their functions)
from kapsulint.terraform.functions import strings  # noqa: F401  (registers its functions)

__all__ = ["FUNCTIONS", "Call", "Context", "call"]
