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
    for (path, kind, _, key), result in zip(pending, _parse_all(pending, jobs)):
        if key and "internal" not in result:  # an internal error is a bug, never remembered
            cache.put(key, result)
        results[path] = source_from(path, kind, result)
    cache.evict()
    for path, _ in entries:
        if path in results:
            loaded.sources[path] = results[path]
    return loaded


def _parse_all(pending: list[tuple[str, str, bytes, str]], jobs: int) -> list[dict]:
    total = sum(len(content) for _, _, content, _ in pending)
    if jobs <= 1 or total < PARALLEL_THRESHOLD or len(pending) < 2:
        return [parse_content(path, kind, content) for path, kind, content, _ in pending]
    return _parse_in_parallel(pending, jobs, total)


def _parse_in_parallel(pending: list[tuple[str, str, bytes, str]], jobs: int, total: int) -> list[dict]:
    """This process parses one share; ``jobs - 1`` workers parse the others, in batches."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    context = multiprocessing.get_context(method)
    shares = _shares(pending, jobs, total)
    results: list[dict | None] = [None] * len(pending)
    with ProcessPoolExecutor(max_workers=jobs - 1, mp_context=context) as pool:
        futures = []
        for share in shares[1:]:
            batch = [(pending[i][0], pending[i][1], pending[i][2]) for i in share]
            futures.append((share, pool.submit(_parse_batch, batch)))
        for index in shares[0]:
            path, kind, content, _ = pending[index]
            results[index] = parse_content(path, kind, content)
        for share, future in futures:
            for index, result in zip(share, marshal.loads(future.result())):
                results[index] = result
    return results  # type: ignore[return-value]


def _shares(pending: list, jobs: int, total: int) -> list[list[int]]:
    """Contiguous shares of about equal bytes; the first (this process's) a little smaller, since
    the workers start while it parses."""
    target = total / jobs
    shares: list[list[int]] = [[]]
    size = 0
    for index, (_, _, content, _) in enumerate(pending):
        if size >= target * (0.9 if len(shares) == 1 else 1.0) and len(shares) < jobs:
            shares.append([])
            size = 0
        shares[-1].append(index)
        size += len(content)
    return [share for share in shares if share] or [[]]


def _parse_batch(batch: list[tuple[str, str, bytes]]) -> bytes:
    """A worker's job; marshal data is smaller and faster to ship back than pickled dicts."""
    return marshal.dumps([parse_content(path, kind, content) for path, kind, content in batch])
