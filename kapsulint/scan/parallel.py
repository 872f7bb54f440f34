"""Parsing in worker processes, for a run with many uncached files.

A worker is a fresh interpreter running this module (``python -m kapsulint.scan.parallel``), not a
fork of the run. A fork starts with a copy of everything the run has loaded (the command line,
the rules, the domain layer) and that copy counts again in the memory of every worker, while a
fresh interpreter imports only the parsers.

Files are shared as they are parsed, not cut into shares beforehand: parsing costs differ by
kind and by file (a YAML file costs several times a Terraform file of its size), so fixed shares
of equal bytes left one process waiting for the other for seconds. The run and its workers take
files from one list, the run from its start and the workers from its end, until none is left;
each worker is sent a file (path, kind, content and cache key, as marshal data behind its length
on 8 bytes, little-endian) while it parses the one before, and writes back one record per file as
soon as it is parsed: the entry's length (8 bytes, little-endian), whether it may be cached (1
byte), then the entry. Neither side holds a block of all its files or entries. A worker that fails
in any way keeps the records it wrote whole; the run parses every file it took and did not
return, so a worker's failure costs time, never a finding, and never prints a traceback.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable

File = tuple[str, str, bytes, str]  # path, kind, content, cache key
Encoded = tuple[bytes, bool]  # the encoded entry, and whether it may be cached (no internal error)
Taken = tuple[int, File]  # a file and its place in the run's list
Received = tuple[int, Encoded]  # a file's place and its entry


def parse_file(file: File) -> tuple[dict, bool]:
    """A file's plain data, and whether it may be cached (an internal error is a bug: never)."""
    from kapsulint.parsing.sources import parse_content

    path, kind, content, _ = file
    result = parse_content(path, kind, content)
    return result, "internal" not in result


def prepare_parsers() -> None:
    """Load the parsers (lark's tables, ruamel.yaml) by parsing two empty files: a failure to load
    them is found again, and reported, at the first real file."""
    parse_file(("prepare.tf", "config", b"", ""))
    parse_file(("prepare.yaml", "values", b"", ""))


_HEADER = 9  # a record's header: the entry's length (8 bytes, little-endian), then 1 when it may be cached
_AHEAD_BYTES = 128 * 1024
"""What a worker is sent ahead of what it returned (at least one file more): enough that it never
waits for this process's threads, which get the interpreter only between its parsing, and little
enough that no process is left with much to parse once the others are done."""


class Worker:
    """One worker process parsing the files it takes with ``take`` (None once none is left).

    With ``sink``, each entry is given to it as soon as it arrives (from the thread that reads
    them), then None once the worker is done; otherwise :meth:`result` returns them."""

    def __init__(self, take: Callable[[], Taken | None], sink: Callable[[Received | None], None] | None = None) -> None:
        import subprocess  # only a run with many uncached files starts workers
        import threading

        self._take = take
        self._sink = sink
        self._sent: list[int] = []  # the places of the files sent, in order
        self._sizes: list[int] = []  # and their sizes
        self._ahead = 0  # bytes sent and not returned
        self._received: list[Received] = []
        self._answered = 0
        self._stopped = False
        try:
            self._process: subprocess.Popen | None = subprocess.Popen(
                [sys.executable, "-m", "kapsulint.scan.parallel"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=_environment(),
            )
        except OSError:
            self._process = None
            if sink is not None:
                sink(None)
            return
        self._room = threading.Condition()
        # Files go out in one thread and entries come back in another, so that neither pipe can
        # fill while the other side waits; this process parses files of its own meanwhile.
        self._threads = [threading.Thread(target=self._feed, daemon=True),
                         threading.Thread(target=self._read, daemon=True)]
        for thread in self._threads:
            thread.start()

    def _feed(self) -> None:
        """Send the files taken while fewer than ``_AHEAD_BYTES`` wait, then close."""
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            while True:
                with self._room:
                    self._room.wait_for(lambda: self._stopped or self._ahead < _AHEAD_BYTES)
                    if self._stopped:
                        break
                taken = self._take()  # may wait for the run to find more files to parse
                if taken is None:
                    break
                size = len(taken[1][2])
                with self._room:
                    self._sent.append(taken[0])
                    self._sizes.append(size)
                    self._ahead += size + 1
                data = marshal.dumps(taken[1])
                process.stdin.write(len(data).to_bytes(8, "little") + data)
                process.stdin.flush()
        except (OSError, ValueError):
            pass
        finally:
            try:
                process.stdin.close()
            except OSError:
                pass

    def _read(self) -> None:
        """Read the records until the worker closes its output or one is cut short."""
        process = self._process
        assert process is not None and process.stdout is not None
        read = process.stdout.read
        try:
            while True:
                header = read(_HEADER)
                if not header:
                    break
                size = int.from_bytes(header[:8], "little")
                entry = read(size) if len(header) == _HEADER else b""
                if len(entry) != size or len(header) != _HEADER or self._answered >= len(self._sizes):
                    break  # a record cut short (the worker died while writing it), or one never asked for
                received = (self._sent[self._answered], (entry, header[8] == 1))
                with self._room:
                    self._ahead -= self._sizes[self._answered] + 1
                    self._answered += 1
                    self._room.notify()
                if self._sink is not None:
                    self._sink(received)
                else:
                    self._received.append(received)
        except (OSError, ValueError):
            pass
        finally:
            with self._room:
                self._stopped = True
                self._room.notify()  # a feeder waiting for room stops
            try:
                process.stdout.close()
            except OSError:
                pass
            process.wait()
            if self._sink is not None:
                self._sink(None)

    def result(self) -> tuple[list[Received], list[int]]:
        """Once the worker is done: the entries it returned (none with a sink), and the places of
        the files it took and did not return (parsed by the run)."""
        if self._process is None:
            return [], []
        for thread in self._threads:
            thread.join()
        received, self._received = self._received, []
        return received, self._sent[self._answered:]


def _environment() -> dict[str, str]:
    """The run's environment, with kapsulint importable wherever this copy of it was found."""
    environment = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = package_parent + (os.pathsep + existing if existing else "")
    return environment


def main() -> None:
    """The worker: each file from stdin as it comes, its record to stdout as soon as it is
    parsed. Freed by reference counting alone, like the run that started it."""
    import gc

    from kapsulint.scan.cache import encode_entry

    gc.disable()
    prepare_parsers()  # while the run still reads the files it sends
    read = sys.stdin.buffer.read
    output = sys.stdout.buffer
    while True:
        header = read(8)
        if len(header) != 8:
            break
        file = marshal.loads(read(int.from_bytes(header, "little")))
        result, cacheable = parse_file(file)
        entry = encode_entry(file[3], result)
        output.write(len(entry).to_bytes(8, "little") + (b"\x01" if cacheable else b"\x00"))
        output.write(entry)
        output.flush()  # the run sends the next file once this one is back
    os._exit(0)  # nothing left to tear down


if __name__ == "__main__":
    main()
