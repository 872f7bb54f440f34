"""Where kapsulint keeps its caches: ``KAPSULINT_CACHE_DIR``, else the user's cache directory."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cache_dir() -> Path | None:
    """The cache directory, created if needed; None (no cache, never an error) when there is none
    to be had: no home directory (``HOME`` unset for a user the system does not know), a relative
    ``XDG_CACHE_HOME`` or ``HOME`` (the XDG specification says to ignore it: it would put the cache
    in the working directory, the linted tree), a path that is a file, a broken link, or a
    directory that cannot be created."""
    configured = os.environ.get("KAPSULINT_CACHE_DIR")
    try:
        if configured:
            directory = Path(configured).absolute()
        elif sys.platform == "darwin":
            directory = Path.home() / "Library" / "Caches" / "kapsulint"
        elif os.name == "nt":
            base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
            directory = Path(base) / "kapsulint" / "Cache"
        else:
            base = os.environ.get("XDG_CACHE_HOME", "")
            if not os.path.isabs(base):  # https://specifications.freedesktop.org/basedir-spec/latest/
                base = str(Path.home() / ".cache")
            directory = Path(base) / "kapsulint"
    except (RuntimeError, KeyError, OSError):  # Path.home(): no HOME and no password database entry
        return None
    if not directory.is_absolute():
        return None
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return directory if os.path.isdir(directory) else None
