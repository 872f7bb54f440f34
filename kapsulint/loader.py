"""Reading a scan's files: the parse cache first, then the parser, in parallel when it pays.

Files are read and hashed in discovery order. Cached files cost a lookup; the others are parsed
in this process, or, above a threshold of uncached bytes, shared between this process and
``jobs - 1`` worker processes. Workers return the adapter's plain data; results are put back in
discovery order, so the report never depends on scheduling.
"""

from __future__ import annotations

import marshal
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from kapsulint.cache import ParseCache
from kapsulint.model import SourceFile
from kapsulint.sources import Unreadable, parse_content, parser_name, read_bytes, skipped_source, source_from

PARALLEL_THRESHOLD = 256 * 1024  # uncached bytes below which workers cost more than they save
MAX_JOBS = 8


def default_jobs() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    return max(1, min(available, MAX_JOBS))


@dataclass
class Loaded:
    sources: dict[str, SourceFile] = field(default_factory=dict)  # in discovery order
    unreadable: list[tuple[str, str]] = field(default_factory=list)


def load_sources(entries: list[tuple[str, str]], max_size: int, cache: ParseCache, jobs: int) -> Loaded:
    loaded = Loaded()
    results: dict[str, SourceFile] = {}
    pending: list[tuple[str, str, bytes, str]] = []  # path, kind, content, cache key
    with _Workers(jobs - 1, _total_size(entries) if jobs > 1 else 0) as workers:
        for path, kind in entries:
            try:
                content = read_bytes(path, max_size)
            except Unreadable as error:
                loaded.unreadable.append((path, str(error)))
                continue
            if content is None:
                results[path] = skipped_source(path, kind, max_size)
                continue
            key = cache.key(parser_name(path, kind), content) if cache.enabled else ""
            cached = cache.get(key) if key else None
            if cached is not None:
                results[path] = source_from(path, kind, cached)
            else:
                pending.append((path, kind, content, key))
        for (path, kind, _, _), result in zip(pending, workers.parse(pending, cache)):
            results[path] = source_from(path, kind, result)
    if pending:
        cache.evict()
    for path, _ in entries:
        if path in results:
            loaded.sources[path] = results[path]
    return loaded


def _total_size(entries: list[tuple[str, str]]) -> int:
    total = 0
    for path, _ in entries:
        try:
            total += os.path.getsize(path)
        except OSError:
            continue
    return total


def parse_and_remember(pending: list[tuple[str, str, bytes, str]], directory: str | None) -> list[dict]:
    """Parse files and store each result in the cache (an internal error is a bug: not stored)."""
    cache = ParseCache(Path(directory) if directory else None, subdirectory=False)
    results = []
    for path, kind, content, key in pending:
        result = parse_content(path, kind, content)
        if key and "internal" not in result:
            cache.put(key, result)
        results.append(result)
    return results


class _Workers:
    """Worker processes started before the files are read, so they are ready when the parse starts
    (fork on Linux: they inherit the loaded modules). Started only when the scan is large enough
    that its uncached part could pass the threshold."""

    def __init__(self, count: int, total_bytes: int) -> None:
        self.count = count if total_bytes >= PARALLEL_THRESHOLD else 0
        self.pool = None

    def __enter__(self) -> _Workers:
        if self.count > 0:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            method = "fork" if sys.platform.startswith("linux") else "spawn"
            self.pool = ProcessPoolExecutor(max_workers=self.count, mp_context=multiprocessing.get_context(method))
            for _ in range(self.count):
                self.pool.submit(int)  # start each worker now
        return self

    def __exit__(self, *exc_info) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    def parse(self, pending: list[tuple[str, str, bytes, str]], cache: ParseCache) -> list[dict]:
        directory = str(cache.directory) if cache.directory is not None else None
        total = sum(len(content) for _, _, content, _ in pending)
        if self.pool is None or total < PARALLEL_THRESHOLD or len(pending) < 2:
            return parse_and_remember(pending, directory)
        shares = _shares(pending, self.count + 1, total)
        results: list[dict | None] = [None] * len(pending)
        futures = [
            (share, self.pool.submit(_parse_batch, [pending[i] for i in share], directory)) for share in shares[1:]
        ]
        for index, result in zip(shares[0], parse_and_remember([pending[i] for i in shares[0]], directory)):
            results[index] = result
        for share, future in futures:
            for index, result in zip(share, marshal.loads(future.result())):
                results[index] = result
        return results  # type: ignore[return-value]


def _shares(pending: list, jobs: int, total: int) -> list[list[int]]:
    """Contiguous shares of about equal bytes, one per process; this process takes the first."""
    target = total / jobs
    shares: list[list[int]] = [[]]
    size = 0
    for index, (_, _, content, _) in enumerate(pending):
        if size >= target and len(shares) < jobs:
            shares.append([])
            size = 0
        shares[-1].append(index)
        size += len(content)
    return [share for share in shares if share] or [[]]


def _parse_batch(batch: list[tuple[str, str, bytes, str]], directory: str | None) -> bytes:
    """A worker's job; marshal data is smaller and faster to ship back than pickled dicts. The
    worker frees by reference counting alone, like the run that started it."""
    import gc

    gc.disable()
    return marshal.dumps(parse_and_remember(batch, directory))
