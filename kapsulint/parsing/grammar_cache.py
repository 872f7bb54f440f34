"""The HCL parser's LALR tables, shipped pre-built in the package (``hcl2-lalr.pickle.gz``).

Building the tables from the grammar costs every fresh installation (a pre-commit hook's first
run, a CI job without a cache) 0.2-0.4 s. The shipped file holds lark's own serialisation of the
parser (``Lark.save``), which is plain data: no class is pickled, so it reads the same on every
Python version, and the unpickler below refuses any class anyway. Its first line is a key over
everything the tables depend on: the patched grammar text (so python-hcl2's grammar, whatever its
version, and kapsulint's patches), the options that shape the tables, and lark's version. When the
key differs (another python-hcl2 or lark installed, or a grammar patch not yet regenerated), the
file is ignored and the parser is built as before, into kapsulint's cache directory.

Regenerate after changing the grammar or its patches::

    python -m kapsulint.parsing.build_tables
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import pickle
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).with_name("hcl2-lalr.pickle.gz")

# Options lark accepts when loading a saved parser (lark.lark._LOAD_ALLOWED_OPTIONS): the
# callbacks, given again at load. Every other option shapes the tables and is in the key.
_GIVEN_AT_LOAD = frozenset({"postlex", "transformer", "lexer_callbacks"})


def key(grammar: str, options: dict[str, Any], lark_version: str) -> str:
    """The hex digest naming one set of tables. The post-lexer's ``always_accept`` terminals are
    part of it: lark builds the contextual lexer's states with them."""
    shaping = {name: value for name, value in options.items() if name not in _GIVEN_AT_LOAD}
    postlex = options.get("postlex")
    always_accept = sorted(getattr(postlex, "always_accept", ()))
    text = json.dumps([grammar, repr(sorted(shaping.items())), always_accept, lark_version])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _DataOnly(pickle.Unpickler):
    """An unpickler that loads plain data only (dicts, lists, strings, numbers)."""

    def find_class(self, module: str, name: str):
        raise pickle.UnpicklingError(f"the shipped grammar tables name a class ({module}.{name})")


def load(lark: Any, grammar: str, options: dict[str, Any], path: Path = SHIPPED):  # -> lark.Lark | None
    """The parser from the shipped tables, or None when they are missing, unreadable or built for
    another grammar, option set or lark version."""
    expected = key(grammar, options, lark.__version__).encode("ascii")
    try:
        with gzip.open(path, "rb") as stream:
            if stream.readline().rstrip(b"\n") != expected:
                return None
            data = _DataOnly(stream).load()
        given = {name: value for name, value in options.items() if name in _GIVEN_AT_LOAD}
        return lark.Lark.__new__(lark.Lark)._load(data, **given)
    except Exception:  # a damaged file only costs the build it was meant to save
        return None


def write(parser: Any, grammar: str, options: dict[str, Any], lark_version: str, path: Path = SHIPPED) -> None:
    """Save ``parser`` (built from ``grammar`` with ``options``) with its key. lark orders the
    tables differently from one build to the next, so only the key line is stable."""
    tables = io.BytesIO()
    parser.save(tables, exclude_options=_GIVEN_AT_LOAD)
    body = key(grammar, options, lark_version).encode("ascii") + b"\n" + tables.getvalue()
    path.write_bytes(gzip.compress(body, compresslevel=9, mtime=0))
