"""Parsing in worker processes, for a run with many uncached files.

A worker is a fresh interpreter running this module (``python -m kapsulint.scan.parallel``), not a
fork of the run. A fork starts with a copy of everything the run has loaded (the command line,
the rules, the domain layer) and that copy counts again in the memory of every worker, while a
fresh interpreter imports only the parsers. The run sends a worker its files (path, kind,
content and cache key, as marshal data on stdin) and reads back one encoded cache entry per file
on stdout, each written as soon as its file is parsed: a record of the entry's length (8 bytes,
little-endian), whether it may be cached (1 byte), then the entry. Neither side holds the whole
output as one block beside its entries: the worker keeps none of its entries, the run keeps each
as it arrives. A worker that fails in any way returns nothing; the run then parses its files
itself, so a worker's failure costs time, never a finding, and never prints a traceback.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable

File = tuple[str, str, bytes, str]  # path, kind, content, cache key
Encoded = tuple[bytes, bool]  # the encoded entry, and whether it may be cached (no internal error)


def parse_file(file: File) -> tuple[dict, bool]:
    """A file's plain data, and whether it may be cached (an internal error is a bug: never)."""
    from kapsulint.parsing.sources import parse_content

    path, kind, content, _ = file
    result = parse_content(path, kind, content)
    return result, "internal" not in result


_HEADER = 9  # a record's header: the entry's length (8 bytes, little-endian), then 1 when it may be cached


class Worker:
    """One worker process parsing one share of the files; ``result()`` waits for it."""

    def __init__(self, files: list[File], sink: Callable[[Encoded | None], None] | None = None) -> None:
        """Start parsing ``files``; with ``sink``, each entry is given to it as soon as it arrives
        (from the thread that reads them), then None once the worker is done, and
        :meth:`result` returns no entries, only whether the worker finished."""
        import subprocess  # only a run with many uncached files starts workers
        import threading

        self._sink = sink
        self._entries: list[Encoded] | None = None
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
        # The exchange runs in a thread so that this process parses its own share meanwhile.
        self._thread = threading.Thread(target=self._exchange, args=([marshal.dumps(files)],), daemon=True)
        self._thread.start()

    def _exchange(self, payload: list[bytes]) -> None:
        """Send the files (the worker reads them all before it writes), then read its records
        until it closes its output."""
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        entries: list[Encoded] | None = []
        try:
            process.stdin.write(payload.pop())  # let go once sent
            process.stdin.close()
            read = process.stdout.read
            while entries is not None:
                header = read(_HEADER)
                if not header:
                    break
                size = int.from_bytes(header[:8], "little")
                entry = read(size) if len(header) == _HEADER else b""
                if len(entry) != size or len(header) != _HEADER:
                    entries = None  # a record cut short: the worker died while writing it
                elif self._sink is not None:
                    self._sink((entry, header[8] == 1))
                else:
                    entries.append((entry, header[8] == 1))
        except (OSError, ValueError):
            entries = None
        finally:
            try:
                process.stdout.close()
            except OSError:
                pass
            process.wait()
            self._entries = entries
            if self._sink is not None:
                self._sink(None)

    def result(self) -> list[Encoded] | None:
        """The encoded entries, one per file in order; None when the worker failed."""
        if self._process is None:
            return None
        self._thread.join()
        entries, self._entries = self._entries, None  # its entries are all the run keeps of it
        if self._process.returncode != 0 or entries is None:
            return None
        return entries


def _environment() -> dict[str, str]:
    """The run's environment, with kapsulint importable wherever this copy of it was found."""
    environment = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = package_parent + (os.pathsep + existing if existing else "")
    return environment


def main() -> None:
    """The worker: files from stdin, one record per file to stdout as soon as it is parsed.
    Freed by reference counting alone, like the run that started it."""
    import gc

    from kapsulint.scan.cache import encode_entry

    gc.disable()
    files = marshal.loads(sys.stdin.buffer.read())
    write = sys.stdout.buffer.write
    files.reverse()
    while files:
        file = files.pop()  # each file's content let go once parsed
        result, cacheable = parse_file(file)
        entry = encode_entry(file[3], result)
        write(len(entry).to_bytes(8, "little") + (b"\x01" if cacheable else b"\x00"))
        write(entry)
    sys.stdout.buffer.flush()
    os._exit(0)  # nothing left to tear down


if __name__ == "__main__":
    main()
