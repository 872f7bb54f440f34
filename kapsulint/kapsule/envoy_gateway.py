"""Envoy Gateway's data plane Service, as its ``EnvoyProxy`` resources describe it."""

from __future__ import annotations

from typing import Iterator

from kapsulint.api import Project


def services(project: Project) -> Iterator:
    return iter(())
