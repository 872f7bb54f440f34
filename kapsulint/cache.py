"""The parse cache: the adapter's plain data, keyed by content, in the user's cache directory.

An entry's key hashes the content, what it was parsed as, kapsulint's version, the adapter's
schema version and the versions of python-hcl2, lark and ruamel.yaml, so an upgrade never reads
a stale entry. Entries are marshal data behind a header that repeats the key (a corrupted or
foreign entry is ignored and replaced), written atomically (temporary file, then rename), and
the directory is kept under a size bound by evicting the least recently used entries. Findings
are never cached: only what a parser said about a text.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from kapsulint import __version__
from kapsulint.cachedir import cache_dir
from kapsulint.parsing import SCHEMA_VERSION

MAX_BYTES = 256 * 1024 * 1024
_MAGIC = b"KAPSULINT-CACHE\n"
_TOUCH_AFTER = 3600.0  # an entry used within the hour is recent enough for eviction


_DISTRIBUTIONS = ("python_hcl2", "lark", "ruamel_yaml")


@lru_cache(maxsize=1)
def toolchain() -> str:
    """Versions that change what the adapter produces, read from the installed distributions'
    metadata directory names (importing the parsers, or importlib.metadata, costs start-up time)."""
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
            if distribution in _DISTRIBUTIONS:
                versions.setdefault(distribution, version)
        if len(versions) == len(_DISTRIBUTIONS):
            break
    parts = [__version__, str(SCHEMA_VERSION)] + [f"{d}={versions.get(d, '?')}" for d in _DISTRIBUTIONS]
    return ";".join(parts)


class ParseCache:
    def __init__(self, directory: Path | None, subdirectory: bool = True) -> None:
        """``directory`` is kapsulint's cache directory (entries go in its ``parse/``), or with
        ``subdirectory=False`` the entries' directory itself."""
        if directory is not None and subdirectory:
            directory = directory / "parse"
        self.directory = directory

    @classmethod
    def default(cls, enabled: bool = True) -> ParseCache:
        return cls(cache_dir() if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    def key(self, namespace: str, content: bytes) -> str:
        digest = hashlib.sha256()
        digest.update(toolchain().encode())
        digest.update(b"\0" + namespace.encode() + b"\0")
        digest.update(content)
        return digest.hexdigest()

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / key[:2] / key[2:]

    def get(self, key: str) -> Any | None:
        if self.directory is None:
            return None
        path = self._path(key)
        try:
            with open(path, "rb") as handle:
                blob = handle.read()
                modified = os.fstat(handle.fileno()).st_mtime
        except OSError:
            return None
        header = _MAGIC + key.encode() + b"\n"
        if not blob.startswith(header):
            return None
        try:
            value = marshal.loads(blob[len(header):])
        except (EOFError, ValueError, TypeError):
            return None
        if time.time() - modified > _TOUCH_AFTER:
            try:
                os.utime(path)  # recently used: eviction goes by modification time
            except OSError:
                pass
        return value

    def put(self, key: str, value: Any) -> None:
        if self.directory is None:
            return
        path = self._path(key)
        try:
            blob = _MAGIC + key.encode() + b"\n" + marshal.dumps(value)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(handle, "wb") as out:
                out.write(blob)
            os.replace(temporary, path)
        except (OSError, ValueError):
            return

    def evict(self, limit: int = MAX_BYTES) -> None:
        """Keep the cache under ``limit`` bytes, oldest entries first."""
        if self.directory is None:
            return
        entries = []
        total = 0
        try:
            for bucket in os.scandir(self.directory):
                if not bucket.is_dir():
                    continue
                for entry in os.scandir(bucket.path):
                    stat = entry.stat()
                    entries.append((stat.st_mtime, stat.st_size, entry.path))
                    total += stat.st_size
        except OSError:
            return
        if total <= limit:
            return
        for _, size, path in sorted(entries):
            try:
                os.remove(path)
            except OSError:
                continue
            total -= size
            if total <= limit * 0.8:
                break
