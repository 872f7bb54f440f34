"""Where kapsulint keeps its caches: ``KAPSULINT_CACHE_DIR``, else the user's cache directory."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cache_dir() -> Path | None:
    """The cache directory, created if needed; None when it cannot be created."""
    configured = os.environ.get("KAPSULINT_CACHE_DIR")
    if configured:
        directory = Path(configured)
    elif sys.platform == "darwin":
        directory = Path.home() / "Library" / "Caches" / "kapsulint"
    elif os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        directory = Path(base) / "kapsulint" / "Cache"
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        directory = Path(base) / "kapsulint"
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return directory
