"""``kapsulint server``: a Language Server Protocol server over stdio.

It needs the ``server`` extra (pygls and lsprotocol), imported only when the server starts, so that
``kapsulint PATH`` never loads them. ``protocol.py`` speaks the protocol, ``folders.py`` lints a
workspace folder with the editor's unsaved buffers read in place of the files on disk, and
``convert.py`` turns findings, fixes and rule documentation into the protocol's shapes.
"""

from __future__ import annotations

import sys

import click

INSTALL_HINT = "pip install 'kapsulint[server]'"


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
    serve()
