"""Reading a scan's files: the parse cache first, then the parser, in parallel when it pays.

Files are read and hashed in discovery order, then looked up in the cache together. The others
are parsed in this process, or, above a threshold of uncached bytes, shared between this process
and ``jobs - 1`` worker processes as they go (so a warm run never starts one, and no process waits
long for another: :mod:`kapsulint.scan.parallel`). Workers return encoded cache entries, compact
to ship and stored as they are; results are put back in discovery order, so the report never
depends on scheduling. The survey of a lint by parts (:func:`prime_sources`) reads and looks up
a share of files at a time instead, and its workers, which parse the files it does not find and
asks for, start as soon as enough waits; the files it leaves are parsed by a :class:`Background`
while the groups are judged.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice

from kapsulint.boundary import Boundary
from kapsulint.parsing.sources import (
    FileReads,
    SourceFile,
    Unreadable,
    parser_name,
    skipped_source,
    source_from,
)
from kapsulint.scan.cache import ParseCache, decode_entry, encode_entry, valid_parse
from kapsulint.scan.parallel import Encoded, File, Received, Taken, parse_file

PARALLEL_THRESHOLD = 256 * 1024  # uncached bytes below which workers cost more than they save
MIN_SHARE = 128 * 1024  # a worker's start (an interpreter, lark, the grammar) pays for this much parsing
MAX_JOBS = 8
_LOOKUP_FILES = 500  # files whose stored entries are read from the cache together


def default_jobs() -> int:
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    return max(1, min(available, MAX_JOBS))


class Loaded:
    sources: dict[str, SourceFile]  # in discovery order
    unreadable: list[tuple[str, str]]
    cached: dict[str, str]  # path -> cache key, for the sources read from the cache

    def __init__(
        self,
        sources: dict[str, SourceFile] | None = None,
        unreadable: list[tuple[str, str]] | None = None,
    ) -> None:
        self.sources = {} if sources is None else sources
        self.unreadable = [] if unreadable is None else unreadable
        self.cached = {}


def load_sources(entries: list[tuple[str, str]], boundary: Boundary, cache: ParseCache, jobs: int,
                 reads: FileReads) -> Loaded:
    """Each file of ``entries`` (path, kind) read inside ``boundary`` through the run's ``reads``
    and parsed, from the cache when it holds it; a file above the boundary's ``max_size`` is
    skipped (KAP005)."""
    loaded = Loaded()
    results: dict[str, SourceFile] = {}
    read: list[File] = []
    for path, kind, content in _contents(entries, boundary, reads, loaded.unreadable):
        if content is None:
            results[path] = skipped_source(path, kind, boundary.max_size)
            continue
        key = cache.key(parser_name(path, kind), content) if cache.enabled else ""
        read.append((path, kind, content, key))
    # Files of the same content (the same key: the same parser too) share one parse, which the
    # model never changes: a monorepo's copied versions.tf is held once.
    shared: dict[str, dict] = {}
    coming: set[str] = set()  # keys of the files to parse
    pending = []
    same: list[File] = []  # files whose content is also a pending file's
    for start in range(0, len(read), _LOOKUP_FILES):  # a share of the stored entries in memory at a time
        chunk = read[start:start + _LOOKUP_FILES]
        stored = cache.lookup(key for _, _, _, key in chunk if key not in shared and key not in coming) \
            if cache.enabled else {}
        for path, kind, content, key in chunk:
            value = shared.get(key) if key else None
            if value is None and key in stored:
                blob = stored[key]
                value = decode_entry(key, blob)
                if value is not None and not cache.vouched(key, blob):  # checked once, not every run
                    if valid_parse(value, parser_name(path, kind)):
                        cache.vouch(key, blob)
                    else:
                        value = None
                if value is not None:
                    shared[key] = value
            if value is not None:
                results[path] = source_from(path, kind, value)
                loaded.cached[path] = key
            elif key in coming:  # another file of this content is parsed
                same.append((path, kind, content, key))
            else:  # not cached, or a damaged, foreign or malformed entry: parsed (and stored) again
                pending.append((path, kind, content, key))
                if key:
                    coming.add(key)
    del read
    parsed: dict[str, dict] = {}
    for (path, kind, _, key), (result, entry) in zip(pending, parse_all(pending, jobs)):
        results[path] = source_from(path, kind, result)
        if key and entry is not None:
            parsed[key] = result
            cache.put_entry(key, entry)  # written once a few megabytes are held: never all of them at once
    for path, kind, content, key in same:
        known = parsed.get(key)
        if known is None:  # an internal error is not shared: each file is parsed and reports its own
            known = parse_file((path, kind, content, key))[0]
        results[path] = source_from(path, kind, known)
    cache.flush()
    for path, _ in entries:
        if path in results:
            loaded.sources[path] = results[path]
    return loaded


def _contents(entries: list[tuple[str, str]], boundary: Boundary, reads: FileReads,
              unreadable: list[tuple[str, str]]) -> Iterator[tuple[str, str, bytes | None]]:
    """Each file of ``entries`` with its bytes read inside ``boundary`` (None above its
    ``max_size``); a file that cannot be read goes to ``unreadable`` with the reason."""
    for path, kind in entries:
        try:
            content = reads.read_bytes(path, boundary)
        except Unreadable as error:
            unreadable.append((path, str(error)))
            continue
        yield path, kind, content


class Primed:
    sources: dict[str, SourceFile]  # the files asked for, parsed
    sizes: dict[str, int]  # bytes of each file read
    unreadable: list[tuple[str, str]]
    deferred: list[File]  # with ``defer``: the files read whose content is neither cached nor parsed

    def __init__(self) -> None:
        self.sources = {}
        self.sizes = {}
        self.unreadable = []
        self.deferred = []


def prime_sources(entries: list[tuple[str, str]], boundary: Boundary, cache: ParseCache, jobs: int,
                  reads: FileReads, wanted: Callable[[str, str, bytes], bool], defer: bool = False) -> Primed:
    """Each file of ``entries`` read inside ``boundary`` and, when the cache does not hold it,
    parsed into the cache (in parallel when it pays, as :func:`load_sources` does); of the
    parses, only those of the files ``wanted(path, kind, content)`` asks for are kept. A lint by
    parts does this first, so that each part then reads its files from the cache. With
    ``defer``, only the files asked for are parsed: the others the cache does not hold are left
    in ``Primed.deferred``, for a :class:`Background` to parse while the parts are judged.

    Files are read and looked up a share at a time, and the workers start as soon as enough is
    left to parse: they parse the first shares while this process reads the next."""
    primed = Primed()
    asked: set[str] = set()
    parsing = _Parsing(jobs)
    coming: dict[str, list[File]] = {}  # key -> the other files of that content asked for
    contents = _contents(entries, boundary, reads, primed.unreadable)
    while chunk := list(islice(contents, _LOOKUP_FILES)):
        read: list[File] = []
        for path, kind, content in chunk:
            if content is None:
                continue  # above max-file-size: skipped, never parsed
            primed.sizes[path] = len(content)
            if wanted(path, kind, content):
                asked.add(path)
            read.append((path, kind, content, cache.key(parser_name(path, kind), content)))
        stored = cache.lookup(key for _, _, _, key in read if key not in coming)
        for file in read:
            path, kind, _, key = file
            if key in coming:
                coming[key].append(file)
                continue
            blob = stored.get(key)
            if blob is not None:
                value = decode_entry(key, blob) if path in asked else None
                if value is not None and not cache.vouched(key, blob) and not valid_parse(value, parser_name(path, kind)):
                    value = None  # parsed again, and stored again
                if path not in asked or value is not None:
                    if value is not None:
                        primed.sources[path] = source_from(path, kind, value)
                    continue
            if defer and path not in asked:
                primed.deferred.append(file)  # every path: the first one judged is parsed
                continue
            parsing.add(file)
            coming[key] = []
    primed.deferred = [file for file in primed.deferred if file[3] not in coming]
    for file, result, entry in parsing.done():
        key = file[3]
        if entry is not None:
            cache.put_entry(key, entry)
        for path, kind, _, _ in (file, *coming[key]):
            if path not in asked:
                continue
            if result is None:
                result = decode_entry(key, entry) if entry is not None else None
                if result is None:  # a worker's entry always decodes; were it damaged, parsed here
                    result = parse_file(file)[0]
            primed.sources[path] = source_from(path, kind, result)
    cache.flush()
    return primed


class _Parsing:
    """The files a read loop finds to parse, parsed as they are added. Worker processes start
    once PARALLEL_THRESHOLD waits, one more for each MIN_SHARE added, up to ``jobs``, and parse
    every file (this process none: it keeps none of the parser's memory). Below the threshold,
    :meth:`done` parses them here."""

    def __init__(self, jobs: int) -> None:
        import queue
        import threading

        self._jobs = jobs
        self._pending: list[File] = []
        self._places: deque[int] = deque()  # the files no worker took yet
        self._added = threading.Condition()
        self._closed = False
        self._bytes = 0
        self._workers: list = []
        self._arrived: queue.SimpleQueue[Received | None] = queue.SimpleQueue()

    def add(self, file: File) -> None:
        with self._added:
            self._places.append(len(self._pending))
            self._pending.append(file)
            self._added.notify()
        self._bytes += len(file[2])
        wanted = min(self._jobs, self._bytes // MIN_SHARE) if self._jobs >= 2 and self._bytes >= PARALLEL_THRESHOLD else 0
        if len(self._workers) < wanted:
            from kapsulint.scan.parallel import Worker

            self._workers.append(Worker(self._take, self._arrived.put))

    def _take(self) -> Taken | None:
        """The last file no worker took yet, once there is one; None once none is left to come."""
        with self._added:
            self._added.wait_for(lambda: self._places or self._closed)
            if not self._places:
                return None
            index = self._places.pop()
        return index, self._pending[index]

    def done(self) -> Iterator[tuple[File, dict | None, bytes | None]]:
        """Each file with its plain data (None when only its entry came back) and its cache entry
        (None when it may not be stored), as soon as it is parsed, in no set order."""
        with self._added:
            self._closed = True
            self._added.notify_all()
        running = len(self._workers)
        while running:
            received = self._arrived.get()
            if received is None:
                running -= 1
                continue
            file = self._pending[received[0]]
            encoded, cacheable = received[1]
            yield file, None, encoded if cacheable and file[3] else None
        left = [index for worker in self._workers for index in worker.result()[1]]
        for index in sorted([*left, *self._places]):  # what a failed worker did not return, what none took
            result, entry = _parsed(self._pending[index])
            yield self._pending[index], result, entry


class Background:
    """Files parsed into the cache behind this process's back while it does other work (a lint
    by parts judges its groups), in segments that it asks for in order (:meth:`ready`).

    One worker process takes files from the first segment not yet taken; when this process asks
    for a segment, it parses what the worker did not take of it, from its last file, then waits
    for what the worker took, and writes them all to the cache, where a project's lookups find
    them. A content is parsed once, at its first file taken (the others find its entry). One worker, not ``jobs - 1``: this process's work is the other share of the machine,
    and each worker adds its memory to the run's. Without a worker (``jobs`` below 2, too little
    to parse, a worker that could not start or failed) this process parses a segment when asked.
    The cache holds parses only, so how the files are shared never changes what a lint finds."""

    def __init__(self, segments: list[list[File]], cache: ParseCache, jobs: int) -> None:
        import queue
        import threading

        self._segments = [deque(range(len(files))) for files in segments]
        self._files: list[list[File | None]] = [list(files) for files in segments]
        self._cache = cache
        self._lock = threading.Lock()
        self._first = 0  # the first segment the worker may still take from
        self._with_worker: set[tuple[int, int]] = set()  # (segment, place) taken and not returned
        self._places: list[tuple[int, int]] = []  # what each index the worker was given stands for
        self._keys: set[str] = set()  # the contents taken, by either process
        self._arrived: queue.SimpleQueue[Received | None] = queue.SimpleQueue()
        self._running = False
        self._closed = False
        total = sum(len(content) for files in segments for _, _, content, _ in files)
        if jobs >= 2 and total >= PARALLEL_THRESHOLD:
            from kapsulint.scan.parallel import Worker

            self._running = True
            Worker(self._take, self._arrived.put)

    def _take(self) -> Taken | None:
        """The first file of the first segment with one left; None once none is left."""
        with self._lock:
            while not self._closed and self._first < len(self._segments):
                places = self._segments[self._first]
                if places:
                    place = places.popleft()
                    file = self._files[self._first][place]
                    if not self._first_of_content(self._first, place):
                        continue
                    assert file is not None  # let go only once parsed
                    self._with_worker.add((self._first, place))
                    self._places.append((self._first, place))
                    return len(self._places) - 1, file
                self._first += 1
        return None

    def _first_of_content(self, segment: int, place: int) -> bool:
        """Whether the file at ``place`` is the first of its content taken (under the lock); the
        others are let go."""
        file = self._files[segment][place]
        if file is None or file[3] in self._keys:
            self._files[segment][place] = None
            return False
        self._keys.add(file[3])
        return True

    def ready(self, segment: int) -> None:
        """Every file of the segments up to ``segment`` in the cache."""
        for earlier in range(min(segment + 1, len(self._segments))):
            places = self._segments[earlier]
            while True:
                with self._lock:
                    if not places:
                        break
                    place = places.pop()
                    if not self._first_of_content(earlier, place):
                        continue
                self._store(earlier, place, self._parse(earlier, place))
                self._collect(None)
        self._collect(segment)
        self._cache.flush()

    def finish(self) -> None:
        """Every file in the cache, and the worker gone (its memory with it)."""
        self.ready(len(self._segments) - 1)
        while self._running:
            self._receive(self._arrived.get())

    def close(self) -> None:
        """Give the worker nothing more, and let it go once it returned what it took (stored);
        what it did not take is parsed here if a segment is still asked for."""
        with self._lock:
            self._closed = True
        while self._running:
            self._receive(self._arrived.get())
        self._cache.flush()

    def _collect(self, segment: int | None) -> None:
        """Store what the worker returned; with ``segment``, wait until it holds nothing of the
        segments up to it."""
        import queue

        while self._running:
            with self._lock:
                waiting = segment is not None and any(taken <= segment for taken, _ in self._with_worker)
            if waiting:
                received = self._arrived.get()
            else:
                try:
                    received = self._arrived.get_nowait()
                except queue.Empty:
                    return
            self._receive(received)

    def _receive(self, received: Received | None) -> None:
        if received is None:  # the worker is done: what it took and did not return is parsed here
            with self._lock:
                self._running = False
                left, self._with_worker = sorted(self._with_worker), set()
            for segment, place in left:
                self._store(segment, place, self._parse(segment, place))
            return
        index, (entry, cacheable) = received
        segment, place = self._places[index]
        with self._lock:
            self._with_worker.discard((segment, place))
        # an internal error is never stored: the project that reads the file reports it
        self._store(segment, place, entry if cacheable else None)

    def _parse(self, segment: int, place: int) -> bytes | None:
        file = self._files[segment][place]
        return _parsed(file)[1] if file is not None else None

    def _store(self, segment: int, place: int, entry: bytes | None) -> None:
        """Put a file's entry in the cache and let its content go."""
        file = self._files[segment][place]
        if file is not None and entry is not None and file[3]:
            self._cache.put_entry(file[3], entry)
        self._files[segment][place] = None


def parse_all(pending: list[File], jobs: int) -> Iterator[tuple[dict, bytes | None]]:
    """Each file's plain data and its cache entry (None for an internal error, a bug: never
    stored, or without a cache key), in order, one at a time (so that the caller stores each entry
    and lets it go). Above the threshold, up to ``jobs - 1`` worker processes (none for less than
    MIN_SHARE to parse) take files from the end of the list while this process parses from its
    start, until they meet (:mod:`kapsulint.scan.parallel`)."""
    count = _processes(pending, jobs)
    if count < 2:
        yield from map(_parsed, pending)
        return
    from kapsulint.scan.parallel import Worker

    places = deque(range(len(pending)))
    workers = [Worker(_taker(places, pending)) for _ in range(count - 1)]
    parsed_here = 0
    while True:
        try:
            index = places.popleft()
        except IndexError:
            break
        parsed_here += 1
        yield _parsed(pending[index])  # the first files, in order: the workers take from the end
    received: dict[int, Encoded] = {}
    for worker in workers:
        received.update(worker.result()[0])
    for index in range(parsed_here, len(pending)):
        file = pending[index]
        record = received.pop(index, None)  # each entry let go once the caller stored it
        if record is None:  # taken by a worker that failed: parsed here
            yield _parsed(file)
            continue
        entry, cacheable = record
        decoded = decode_entry(file[3], entry)
        # a worker's own entry always decodes; were it damaged, the file is parsed here
        yield _parsed(file) if decoded is None else (decoded, entry if cacheable and file[3] else None)


def _processes(pending: list[File], jobs: int) -> int:
    """How many processes parse ``pending``: one below the threshold, else up to ``jobs``, each
    with MIN_SHARE to parse at least."""
    total = sum(len(content) for _, _, content, _ in pending)
    if jobs < 2 or total < PARALLEL_THRESHOLD or len(pending) < 2:
        return 1
    return max(1, min(jobs, total // MIN_SHARE))


def _taker(places: deque[int], pending: list[File]) -> Callable[[], Taken | None]:
    """What a worker takes: the last file no one took yet (deque operations are atomic)."""

    def take() -> Taken | None:
        try:
            index = places.pop()
        except IndexError:
            return None
        return index, pending[index]

    return take


def _parsed(file: File) -> tuple[dict, bytes | None]:
    result, cacheable = parse_file(file)
    key = file[3]
    if not cacheable or not key:
        return result, None
    try:
        return result, encode_entry(key, result)
    except ValueError:  # a value no encoding stores (never the adapter's plain data): not cached
        return result, None
