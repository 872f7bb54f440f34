"""The console script: the results cache first (``cli/results.py``), then the lint command
(``cli/lint.py``, click), imported only when the run is not replayed.

``main``, the click command, and the other names of ``cli/lint.py`` are importable from here too.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any


def __getattr__(name: str) -> Any:
    """The names of the click command's module (``main``, ``Invocation``, ``FORMATS``...), imported
    when first asked for, so that a replayed run never imports click."""
    if name.startswith("__"):
        raise AttributeError(name)
    from kapsulint.cli import lint

    try:
        return getattr(lint, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def program(args: list[str]) -> int:
    """The command run on ``args``, as the console script runs it; its exit code. A plain lint
    run whose inputs are unchanged since it was recorded prints its recorded output instead."""
    from kapsulint.cli.results import run

    return run(args, lambda: lint_command(args))


def lint_command(args: list[str]) -> int:
    """The click command on ``args``; its exit code (a message given as the exit, on stderr)."""
    from kapsulint.cli.lint import main

    try:
        main(args)
    except SystemExit as exit_request:
        if isinstance(exit_request.code, str):
            print(exit_request.code, file=sys.stderr)
        return exit_request.code if isinstance(exit_request.code, int) else (0 if exit_request.code is None else 2)
    return 0


def entry() -> None:
    """The console script: run the command, then leave without tearing the model down.

    Freeing a large project's objects one by one at interpreter exit costs seconds (as mypy found,
    and works around the same way); the report is flushed first, so nothing is lost.
    """
    gc.disable()  # for good: main() then leaves it off, and no collection runs before the exit
    for stream in (sys.stdout, sys.stderr):
        # A terminal or a locale that cannot write a character (LC_ALL=C with PYTHONUTF8=0, a
        # PYTHONIOENCODING=ascii): the character is written as an escape, never an exception.
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    code = program(sys.argv[1:])
    from kapsulint.cli.results import silence

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # the reader has gone: what was left to write goes nowhere
            silence(stream)
    os._exit(code)

