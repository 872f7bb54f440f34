"""``kapsulint server``: a Language Server Protocol server over stdio.

It needs the ``server`` extra (pygls and lsprotocol), imported only when the server starts, so that
``kapsulint PATH`` never loads them. ``protocol.py`` speaks the protocol, ``folders.py`` lints a
workspace folder with the editor's unsaved buffers read in place of the files on disk, and
``convert.py`` turns findings, fixes and rule documentation into the protocol's shapes.
"""

from __future__ import annotations

import os
import sys

import click

INSTALL_HINT = "pip install 'kapsulint[server]'"
# Set in the environment of the server's own restart (:func:`with_system_allocator`), and taken out
# of it at once: the processes the server starts see the user's environment.
RESTARTED = "KAPSULINT_SERVER_RESTARTED"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--stdio", is_flag=True,
              help="Speak the protocol on stdin and stdout (the only transport, and the default; it also tells "
                   "`kapsulint server` from a PATH named server).")
def server_command(stdio: bool) -> None:
    """Start the kapsulint language server: diagnostics as you type, quick fixes, and the rule's
    documentation on hover, for any editor with a Language Server Protocol client."""
    try:
        from kapsulint.cli.server.protocol import serve
    except ImportError as error:  # the extra is not installed
        click.echo(f"kapsulint: error: the language server needs pygls and lsprotocol ({error}); install them "
                   f"with {INSTALL_HINT}", err=True)
        sys.exit(2)
    with_system_allocator()
    serve()


def with_system_allocator() -> None:
    """Restart this process once with ``PYTHONMALLOC=malloc``, on Linux with the GNU C library,
    unless the user chose an allocator.

    The server builds a model per lint and keeps only its findings. Python's own allocator gives
    memory back only in blocks of 1 MiB left entirely empty, and the few objects that outlive a
    lint are spread over most of the blocks its model filled: at 1,000 modules the server held
    three times the memory its objects used. The C library's allocator gives back every free page
    (``malloc_trim``, after each collection of the server)."""
    if os.environ.pop(RESTARTED, None) is not None:
        os.environ.pop("PYTHONMALLOC", None)
        return
    if not sys.platform.startswith("linux") or "PYTHONMALLOC" in os.environ or sys.flags.ignore_environment:
        return
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
    except (ValueError, OSError):  # another C library
        return
    environment = {**os.environ, "PYTHONMALLOC": "malloc", RESTARTED: "1"}
    sys.stdout.flush()
    try:
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], environment)
    except OSError:  # the restart failed: the server runs with the allocator it has
        return
