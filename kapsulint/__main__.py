"""Entry point for ``python -m kapsulint``."""

from kapsulint.cli import entry

entry()
