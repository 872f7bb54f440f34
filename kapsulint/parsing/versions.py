"""The installed versions of the parsers, which decide what the adapter produces (cache keys)."""

from __future__ import annotations

import os
import sys
from functools import lru_cache

DISTRIBUTIONS = ("python_hcl2", "lark", "ruamel_yaml")


@lru_cache(maxsize=1)
def installed_versions() -> dict[str, str]:
    """Versions of the parsers, read from the installed distributions' metadata directory names
    (importing the parsers, or importlib.metadata, costs start-up time)."""
    versions: dict[str, str] = {}
    for directory in sys.path:
        try:
            names = os.listdir(directory or ".")
        except OSError:
            continue
        for name in names:
            if not name.endswith(".dist-info"):
                continue
            distribution, _, version = name[: -len(".dist-info")].partition("-")
            if distribution in DISTRIBUTIONS:
                versions.setdefault(distribution, version)
        if len(versions) == len(DISTRIBUTIONS):
            break
    return versions
