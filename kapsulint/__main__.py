"""Entry point for ``python -m kapsulint``."""

from kapsulint.cli.command import entry

entry()
