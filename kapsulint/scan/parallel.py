"""Parsing in worker processes, for a run with many uncached files.

A worker is a fresh interpreter running this module (``python -m kapsulint.scan.parallel``), not a
fork of the run. A fork starts with a copy of everything the run has loaded (the command line,
the rules, the domain layer) and that copy counts again in the memory of every worker, while a
fresh interpreter imports only the parsers. The run sends a worker its files (path, kind,
content and cache key, as marshal data on stdin) and reads back one encoded cache entry per file
on stdout. A worker that fails in any way returns nothing; the run then parses its files itself,
so a worker's failure costs time, never a finding, and never prints a traceback.
"""

from __future__ import annotations

import marshal
import os
import sys

File = tuple[str, str, bytes, str]  # path, kind, content, cache key
Encoded = tuple[bytes, bool]  # the encoded entry, and whether it may be cached (no internal error)


def parse_file(file: File) -> tuple[dict, bool]:
    """A file's plain data, and whether it may be cached (an internal error is a bug: never)."""
    from kapsulint.parsing.sources import parse_content

    path, kind, content, _ = file
    result = parse_content(path, kind, content)
    return result, "internal" not in result


class Worker:
    """One worker process parsing one share of the files; ``result()`` waits for it."""

    def __init__(self, files: list[File]) -> None:
        import subprocess  # only a run with many uncached files starts workers
        import threading

        self._output: bytes | None = None
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
            return
        # The exchange runs in a thread so that this process parses its own share meanwhile.
        self._thread = threading.Thread(target=self._exchange, args=(marshal.dumps(files),), daemon=True)
        self._thread.start()

    def _exchange(self, payload: bytes) -> None:
        assert self._process is not None
        try:
            self._output, _ = self._process.communicate(payload)
        except (OSError, ValueError):
            self._output = None

    def result(self) -> list[Encoded] | None:
        """The encoded entries, one per file in order; None when the worker failed."""
        if self._process is None:
            return None
        self._thread.join()
        if self._process.returncode != 0 or not self._output:
            return None
        output, self._output = self._output, None  # its entries are all the run keeps of it
        try:
            encoded = marshal.loads(output)
        except (EOFError, ValueError, TypeError):
            return None
        return encoded if isinstance(encoded, list) else None


def _environment() -> dict[str, str]:
    """The run's environment, with kapsulint importable wherever this copy of it was found."""
    environment = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    existing = environment.get("PYTHONPATH")
    environment["PYTHONPATH"] = package_parent + (os.pathsep + existing if existing else "")
    return environment


def main() -> None:
    """The worker: files from stdin, encoded entries to stdout. Freed by reference counting
    alone, like the run that started it."""
    import gc

    from kapsulint.scan.cache import encode_entry

    gc.disable()
    encoded = []
    for file in marshal.loads(sys.stdin.buffer.read()):
        result, cacheable = parse_file(file)
        encoded.append((encode_entry(file[3], result), cacheable))
    sys.stdout.buffer.write(marshal.dumps(encoded))
    sys.stdout.buffer.flush()
    os._exit(0)  # nothing left to tear down


if __name__ == "__main__":
    main()
