"""The parse cache: the adapter's plain data, keyed by content, in the user's cache directory.

An entry's key hashes the content, what it was parsed as, kapsulint's version, the adapter's
schema version and source, and the versions of python-hcl2, lark and ruamel.yaml, so an upgrade never reads
a stale entry. Entries are marshal data behind a header that repeats the key and holds the CRC-32
of the data, so a foreign, truncated or otherwise damaged entry is ignored and replaced; a file
nested deeper than marshal goes is stored as the flat rows of :func:`flatten`, so the cache and the
worker processes, which return entries, take whatever the parser takes. An entry that decodes is
still checked before it is used (:func:`valid_parse`, :func:`valid_template`,
:func:`valid_yaml_text`): one whose shape is not what the parser gives (an entry rewritten with a
valid checksum) is dropped and the text parsed again. A file's parse is checked once, not at every
run: its row records the checksum of the entry it was written or checked with (``checked``), and
an entry whose checksum is still that one is used as it is (:meth:`ParseCache.vouched`); one that
was rewritten since, whatever wrote it, carries another checksum and is checked again. They live in one SQLite database, ``parse.sqlite``:
one file per entry cost a file creation each (0.6 s of a 5 s cold run over 640 files), while a
database takes a run's new entries in one transaction and answers its lookups in a few queries. SQLite also gives what a shared cache
needs: atomic writes and concurrent runs that wait for each other's writes instead of clobbering
them. The database is kept under a size bound by evicting the least recently used entries. A
database that SQLite cannot read is replaced by an empty one; any other failure turns the cache
off for the run, never the lint. Findings are never cached: only what a parser said about a text.
"""

from __future__ import annotations

import hashlib
import marshal
import time
import zlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kapsulint import __version__, parsing
from kapsulint.cachedir import cache_dir
from kapsulint.parsing import SCHEMA_VERSION
from kapsulint.parsing.versions import DISTRIBUTIONS, installed_versions

if TYPE_CHECKING:
    import sqlite3

MAX_BYTES = 256 * 1024 * 1024
DATABASE = "parse.sqlite"
_MAGIC = b"KAPSULINT-CACHE\n"  # then the key, then the CRC-32 of the data (8 hex digits), each on a line
_DEEP_MAGIC = b"KAPSULINT-CACHE-FLAT\n"  # an entry stored as the rows of flatten()
_CHECKSUM = 9  # "%08x\n"
_TOUCH_AFTER = 3600.0  # an entry used within the hour is recent enough for eviction
_FLUSH_BYTES = 4 * 1024 * 1024  # new entries held in memory before they are written
_QUERY_KEYS = 500  # keys per lookup query (SQLite's bound on parameters is 999 in old builds)
_WAIT_SECONDS = 60.0  # how long a run waits for another run's write




@lru_cache(maxsize=1)
def toolchain() -> str:
    """Versions that change what the adapter produces: the parsers', and the adapter's own source
    (so a changed adapter never reads what an older one wrote, even at the same version number)."""
    versions = installed_versions()
    parts = [__version__, str(SCHEMA_VERSION), adapter_fingerprint()]
    parts += [f"{d}={versions.get(d, '?')}" for d in DISTRIBUTIONS]
    return ";".join(parts)


def adapter_fingerprint() -> str:
    """A hash of the parsing adapter's modules (a few files, read in well under a millisecond)."""
    digest = hashlib.sha1()
    folder = Path(parsing.__file__).parent
    for path in sorted(folder.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def encode_entry(key: str, value: Any) -> bytes:
    """An entry as stored: the header, then the value as marshal data, or as the rows of
    :func:`flatten` when the value nests too deep for marshal (which refuses 2,000 levels of
    containers, https://docs.python.org/3/library/marshal.html; a file of some 700 nested
    brackets or 1,000 chained operators gets there). Raises ValueError for a value neither can
    store (never the adapter's plain data)."""
    header = key.encode() + b"\n"
    try:
        magic, data = _MAGIC, marshal.dumps(value)
    except ValueError:
        magic, data = _DEEP_MAGIC, marshal.dumps(flatten(value))
    return magic + header + b"%08x\n" % zlib.crc32(data) + data


def decode_entry(key: str, blob: bytes) -> Any | None:
    """The value of a stored entry; None when the entry is foreign (another key or format) or
    damaged (its data does not match its checksum, or does not decode)."""
    header = key.encode() + b"\n"
    deep = blob.startswith(_DEEP_MAGIC + header)
    if not deep and not blob.startswith(_MAGIC + header):
        return None
    start = len(_DEEP_MAGIC if deep else _MAGIC) + len(header)
    view = memoryview(blob)
    try:
        checksum = int(bytes(view[start:start + _CHECKSUM - 1]), 16)
    except ValueError:
        return None
    data = view[start + _CHECKSUM:]
    if blob[start + _CHECKSUM - 1:start + _CHECKSUM] != b"\n" or zlib.crc32(data) != checksum:
        return None
    try:
        value = marshal.loads(data)
        return unflatten(value) if deep else value
    except (EOFError, ValueError, TypeError, IndexError, KeyError, AttributeError):
        return None


def entry_checksum(key: str, blob: bytes) -> int | None:
    """The checksum in the header of ``key``'s entry ``blob`` (None when the header is not one);
    :func:`decode_entry` holds it to the data."""
    header = key.encode() + b"\n"
    if blob.startswith(_MAGIC + header):
        start = len(_MAGIC) + len(header)
    elif blob.startswith(_DEEP_MAGIC + header):
        start = len(_DEEP_MAGIC) + len(header)
    else:
        return None
    try:
        return int(blob[start:start + _CHECKSUM - 1], 16)
    except ValueError:
        return None


def flatten(value: Any) -> list[tuple[bool, list, list, list[int]]]:
    """``value``'s dicts and lists as flat rows, without recursion: row 0 is ``value`` itself. A
    row is ``(is_dict, keys, items, links)``: a dict's keys (empty for a list) and its items,
    where the item at each position in ``links`` is the number of another row. A container met
    twice is one row (marshal keeps such sharing too). A tuple of scalars (a span) is an item like
    a string. Raises ValueError for a value that holds another container (a set, a tuple of
    containers), which the adapter never produces."""
    if not isinstance(value, (dict, list)):
        raise ValueError(f"cannot flatten {type(value).__name__}")
    numbers = {id(value): 0}
    rows: list[Any] = [None]
    pending = [value]
    while pending:
        container = pending.pop()
        is_dict = isinstance(container, dict)
        items = list(container.values()) if isinstance(container, dict) else list(container)
        links = []
        for position, item in enumerate(items):
            if isinstance(item, (dict, list)):
                number = numbers.get(id(item))
                if number is None:
                    number = numbers[id(item)] = len(rows)
                    rows.append(None)
                    pending.append(item)
                items[position] = number
                links.append(position)
            elif isinstance(item, (set, frozenset)) or (
                    isinstance(item, tuple) and any(isinstance(x, (dict, list, tuple)) for x in item)):
                raise ValueError(f"cannot flatten {type(item).__name__}")
        rows[numbers[id(container)]] = (is_dict, list(container) if is_dict else [], items, links)
    return rows


def unflatten(rows: list[tuple[bool, list, list, list[int]]]) -> Any:
    """The value :func:`flatten` gave these rows for, without recursion."""
    containers: list[Any] = [{} if is_dict else [] for is_dict, _, _, _ in rows]
    for container, (is_dict, keys, items, links) in zip(containers, rows):
        for position in links:
            items[position] = containers[items[position]]
        if is_dict:
            container.update(zip(keys, items))
        else:
            container.extend(items)
    return containers[0]


# -- what a decoded entry must look like ------------------------------------------------------------
# Checked on every read, so they stay shallow where the model reads lazily: every block and argument
# of a file (what loading the project reads at once), the first node of each expression and
# document; deeper expression nodes are read by the evaluator only, and a run that fails on one
# drops the entry (``ParseCache.drop``) for the next run.


def valid_parse(result: Any, parser: str) -> bool:
    """Whether a cached parse result has the shape the parser gives for ``parser`` ("hcl",
    "config-json", "tfvars-json", "lock-json", "yaml", "yaml-jinja")."""
    if type(result) is not dict or "internal" in result:  # an internal error is never stored
        return False
    data, error, left_out = result.get("data"), result.get("error"), result.get("left_out", _ABSENT)
    if left_out is _ABSENT or not _valid_comments(result.get("comments")):
        return False
    if error is not None and not _valid_error(error):
        return False
    if left_out is not None and not (type(left_out) is list and len(left_out) == 5 and type(left_out[0]) is str
                                     and int is type(left_out[1]) is type(left_out[2]) is type(left_out[3])
                                     and type(left_out[4]) is str):
        return False
    if data is None:
        return (error is None) != (left_out is None)  # no data: the file's error, or why it was left out
    if type(data) is not dict or error is not None or left_out is not None:
        return False
    if parser.startswith("yaml"):
        docs = data.get("docs")
        return (type(docs) is list and type(data.get("templates", 0)) is int
                and all(_valid_node(doc) for doc in docs))
    return _valid_body(data.get("body"))


_ABSENT = object()


def valid_template(value: Any) -> bool:
    """A cached ``templatefile()`` template: ``{"node": node or None}``."""
    return type(value) is dict and "node" in value and (value["node"] is None or _valid_node(value["node"]))


def valid_yaml_text(value: Any) -> bool:
    """A cached parse of YAML text: ``{"parsed": {"docs": [...]}}`` or ``{"error": [message, line, column]}``."""
    if type(value) is not dict:
        return False
    if "error" in value:
        return _valid_error(value["error"])
    parsed = value.get("parsed")
    return type(parsed) is dict and type(parsed.get("docs")) is list and all(_valid_node(d) for d in parsed["docs"])


def _valid_error(error: Any) -> bool:
    return (type(error) is list and len(error) == 3 and type(error[0]) is str and type(error[1]) is int
            and type(error[2]) is int)


def _valid_comments(comments: Any) -> bool:
    if type(comments) is not list:
        return False
    for comment in comments:
        if (type(comment) is not dict or type(comment.get("line")) is not int
                or type(comment.get("column")) is not int or type(comment.get("text")) is not str
                or type(comment.get("own_line")) is not bool or type(comment.get("before_code")) is not bool
                or not (comment.get("next_line") is None or type(comment["next_line"]) is int)):
            return False
    return True


def _valid_position(p: Any) -> bool:
    return type(p) is tuple and len(p) == 4 and int is type(p[0]) is type(p[1]) is type(p[2]) is type(p[3])


def _valid_node(node: Any) -> bool:
    return type(node) is dict and type(node.get("t")) is str and _valid_position(node.get("p"))


def _valid_body(body: Any) -> bool:
    """A body's arguments and blocks, nested blocks included, without recursion. The checks are
    written out (no call per position): a warm run reads some 15,000 of them per 100 modules."""
    pending = [body]
    while pending:
        body = pending.pop()
        if type(body) is not dict:
            return False
        attrs, blocks = body.get("attrs"), body.get("blocks")
        if type(attrs) is not list or type(blocks) is not list:
            return False
        for attribute in attrs:
            if type(attribute) is not dict:
                return False
            p, expr, span = attribute.get("p"), attribute.get("expr"), attribute.get("span", _NO_SPAN)
            if (type(attribute.get("name")) is not str or type(attribute.get("c", False)) is not bool
                    or type(p) is not tuple or len(p) != 4 or not int is type(p[0]) is type(p[1]) is type(p[2]) is type(p[3])
                    or type(span) is not tuple or len(span) != 4
                    or not int is type(span[0]) is type(span[1]) is type(span[2]) is type(span[3])
                    or type(expr) is not dict or type(expr.get("t")) is not str):
                return False
            p = expr.get("p")
            if type(p) is not tuple or len(p) != 4 or not int is type(p[0]) is type(p[1]) is type(p[2]) is type(p[3]):
                return False
        for block in blocks:
            if type(block) is not dict:
                return False
            labels, p, span = block.get("labels"), block.get("p"), block.get("span")
            if (type(block.get("type")) is not str or type(labels) is not list
                    or type(p) is not tuple or len(p) != 4 or not int is type(p[0]) is type(p[1]) is type(p[2]) is type(p[3])
                    or type(span) is not tuple or len(span) != 4
                    or not int is type(span[0]) is type(span[1]) is type(span[2]) is type(span[3])):
                return False
            for label in labels:
                if type(label) is not str:
                    return False
            pending.append(block.get("body"))
    return True


_NO_SPAN = (1, 1, 1, 1)  # stands for an argument's optional span when it has none (JSON syntax)


class ParseCache:
    def __init__(self, directory: Path | None) -> None:
        """``directory`` is kapsulint's cache directory (None: no cache)."""
        self.directory = directory
        self._connection: sqlite3.Connection | None = None
        self._new: dict[str, bytes] = {}  # entries not yet written
        self._new_bytes = 0
        self._used: list[str] = []  # entries read whose last use is old: refreshed when writing
        self._checked: dict[str, int] = {}  # entry -> the checksum its row was checked with
        self._vouch: dict[str, int] = {}  # entries checked in this run: recorded when writing

    @classmethod
    def default(cls, enabled: bool = True) -> ParseCache:
        return cls(cache_dir() if enabled else None)

    @property
    def enabled(self) -> bool:
        return self.directory is not None

    @property
    def path(self) -> Path | None:
        return self.directory / DATABASE if self.directory is not None else None

    def key(self, namespace: str, content: bytes) -> str:
        digest = hashlib.sha256()
        digest.update(toolchain().encode())
        digest.update(b"\0" + namespace.encode() + b"\0")
        digest.update(content)
        return digest.hexdigest()

    # -- reading ------------------------------------------------------------------------------

    def lookup(self, keys: Iterable[str]) -> dict[str, bytes]:
        """The stored entries of ``keys`` (decode each with :func:`decode_entry`)."""
        wanted = [k for k in dict.fromkeys(keys) if k]
        found: dict[str, bytes] = {k: self._new[k] for k in wanted if k in self._new}
        wanted = [k for k in wanted if k not in found]
        if not wanted:
            return found
        connection = self._connect()
        if connection is None:
            return found
        stale = time.time() - _TOUCH_AFTER
        try:
            for start in range(0, len(wanted), _QUERY_KEYS):
                chunk = wanted[start:start + _QUERY_KEYS]
                marks = ",".join("?" * len(chunk))
                for key, blob, used, checked in connection.execute(
                    f"SELECT key, blob, used, checked FROM entries WHERE key IN ({marks})", chunk
                ):
                    found[key] = blob
                    if used < stale:
                        self._used.append(key)
                    if checked is not None:
                        self._checked[key] = checked
        except self._errors() as error:
            self._failed(error)
        return found

    def vouched(self, key: str, blob: bytes) -> bool:
        """Whether ``blob``, ``key``'s entry as :meth:`lookup` gave it, is the entry its row was
        written or last checked with (its checksum is the one recorded): then its shape need not be
        checked again. Any rewrite of the entry changes its checksum, so an entry rewritten since is
        never vouched for."""
        recorded = self._checked.get(key)
        return recorded is not None and recorded == entry_checksum(key, blob)

    def vouch(self, key: str, blob: bytes) -> None:
        """Record that ``key``'s entry ``blob`` passed the shape checks (written with the next flush)."""
        checksum = entry_checksum(key, blob)
        if checksum is not None and self.directory is not None:
            self._vouch[key] = checksum

    def get(self, key: str) -> Any | None:
        blob = self.lookup([key]).get(key)
        return decode_entry(key, blob) if blob is not None else None

    def drop(self, key: str) -> None:
        """Forget an entry (one whose data a run could not use): the next run parses it again."""
        self._new.pop(key, None)
        self._vouch.pop(key, None)
        self._checked.pop(key, None)
        if self.directory is None:
            return
        connection = self._connect()
        if connection is None:
            return
        try:
            with connection:
                connection.execute("DELETE FROM entries WHERE key = ?", (key,))
        except self._errors() as error:
            self._failed(error)

    # -- writing ------------------------------------------------------------------------------

    def put(self, key: str, value: Any) -> None:
        if self.directory is None:
            return
        try:
            blob = encode_entry(key, value)
        except ValueError:  # not marshallable: never the adapter's plain data, but never fatal
            return
        self.put_entry(key, blob)

    def put_entry(self, key: str, blob: bytes) -> None:
        """Store an entry already encoded with :func:`encode_entry` (as workers return them)."""
        if self.directory is None:
            return
        self._new[key] = blob
        self._new_bytes += len(blob)
        if self._new_bytes >= _FLUSH_BYTES:
            self.flush()

    def flush(self) -> None:
        """Write the new entries and the refreshed use times in one transaction; evict when the
        database grew past its bound."""
        if not self._new and not self._used and not self._vouch:
            return
        entries, self._new, self._new_bytes = self._new, {}, 0
        used, self._used = self._used, []
        vouched, self._vouch = self._vouch, {}
        connection = self._connect()
        if connection is None:
            return
        now = time.time()
        try:
            with connection:
                # A new entry is what the parser gave in this run: checked by construction.
                connection.executemany(
                    "INSERT OR REPLACE INTO entries (key, blob, size, used, checked) VALUES (?, ?, ?, ?, ?)",
                    [(key, blob, len(blob), now, entry_checksum(key, blob)) for key, blob in entries.items()],
                )
                connection.executemany("UPDATE entries SET used = ? WHERE key = ?", [(now, k) for k in used])
                connection.executemany("UPDATE entries SET checked = ? WHERE key = ?",
                                       [(checksum, k) for k, checksum in vouched.items() if k not in entries])
            if entries:
                self.evict()
        except self._errors() as error:
            self._failed(error)

    def evict(self, limit: int = MAX_BYTES) -> None:
        """Keep the entries under ``limit`` bytes, least recently used first (down to 80 %)."""
        connection = self._connect()
        if connection is None:
            return
        try:
            (total,) = connection.execute("SELECT total(size) FROM entries").fetchone()
            if total <= limit:
                return
            with connection:
                removed = 0
                rows = connection.execute("SELECT key, size FROM entries ORDER BY used").fetchall()
                doomed = []
                for key, size in rows:
                    if total - removed <= limit * 0.8:
                        break
                    doomed.append((key,))
                    removed += size
                connection.executemany("DELETE FROM entries WHERE key = ?", doomed)
        except self._errors() as error:
            self._failed(error)

    # -- the database -------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection | None:
        if self._connection is not None or self.directory is None:
            return self._connection
        import sqlite3

        path = self.directory / DATABASE
        for attempt in (1, 2):
            try:
                connection = sqlite3.connect(path, timeout=_WAIT_SECONDS, isolation_level="DEFERRED")
                connection.execute("PRAGMA synchronous = OFF")  # a cache: a lost write is a re-parse
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, blob BLOB NOT NULL, "
                    "size INTEGER NOT NULL, used REAL NOT NULL, checked INTEGER)"
                )
                _add_checked_column(connection)
                connection.execute("SELECT count(*) FROM entries WHERE key = ''").fetchone()
            except sqlite3.DatabaseError:
                if attempt == 2 or not _remove(path):  # not a database, or damaged: start afresh
                    self.directory = None
                    return None
                continue
            except (sqlite3.Error, OSError):
                self.directory = None
                return None
            self._connection = connection
            break
        return self._connection

    @staticmethod
    def _errors() -> tuple[type[BaseException], ...]:
        import sqlite3

        return (sqlite3.Error, OSError)

    def _failed(self, error: BaseException) -> None:
        """A database that fails mid-run (a full disk, a lock held too long): no cache for the rest
        of the run. A damaged one is removed so that the next run starts afresh."""
        import sqlite3

        if isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError):
            if self.path is not None:
                _remove(self.path)
        if self._connection is not None:
            self._connection.close()
        self._connection = None
        self.directory = None


def _add_checked_column(connection: sqlite3.Connection) -> None:
    """Give a database written before rows recorded their check (``checked``) the column; kapsulint
    versions that do not know it write NULL there, and their entries are checked as before."""
    import sqlite3

    try:
        connection.execute("SELECT checked FROM entries LIMIT 0")
        return
    except sqlite3.OperationalError:
        pass
    try:
        with connection:
            connection.execute("ALTER TABLE entries ADD COLUMN checked INTEGER")
    except sqlite3.OperationalError:  # another run added it meanwhile
        connection.execute("SELECT checked FROM entries LIMIT 0")


def _remove(path: Path) -> bool:
    try:
        path.unlink(missing_ok=True)
        Path(f"{path}-journal").unlink(missing_ok=True)
    except OSError:
        return False
    return True
