"""Terraform's filesystem functions: file, fileexists, fileset, filebase64, the file hashes,
templatefile, abspath, dirname, basename, pathexpand.

Declared as in https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/filesystem.go
(``crypto.go`` for the hashes, ``string.go`` for the checks of a template's variables). Paths
are Go's ``path/filepath`` on a Unix system; ``fileset`` globs as
https://github.com/bmatcuk/doublestar/blob/v1.1.5/doublestar.go does.

Files are read through the call's context (:class:`~kapsulint.terraform.functions.registry.Context`),
given the path as Terraform opens it (home expanded, cleaned), which the context reads from the
base directory when it is relative: without a context, or where it cannot read a file, the value
is Unknown. A context may offer more than
the protocol requires, and these functions use it when it does:

- ``refusal(path) -> str | None``: why the context will not read a path at all (it resolves
  outside the repository, it is a FIFO or a device), before anything else is asked of it: the
  value is then Unknown, and the call a blind spot (``context.note``, kind
  ``boundary.NOTE_KIND``) whose message names the path as written, never what is there;
- ``read_bytes(path) -> bytes | None``: a file's bytes (binary files, and invalid UTF-8 told apart
  from text);
- ``file_kind(path) -> "file" | "directory" | "missing" | None``: what is at a path, so that a
  missing file is Terraform's error rather than Unknown;
- ``list_files(directory) -> list[str] | None``: every regular file under a directory, as
  slash-separated paths relative to it (``fileset``); it raises ``boundary.Refused`` when the
  walk would leave the repository.

Anything that depends on the machine (the home directory of ``~``) is Unknown; a function that
would read there is a blind spot too.
"""

from __future__ import annotations

import base64
import posixpath

from kapsulint.boundary import NOTE_KIND, Refused, shown_path
from kapsulint.terraform.convert import go_quote
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions.crypto import HASHES, hash_text
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import BOOL, DYNAMIC, STRING, MapType, ObjectType, SetType, type_of
from kapsulint.terraform.values import UNKNOWN, Val


class _Unknowable(Exception):
    """The answer depends on what kapsulint cannot see: the value is Unknown."""


def go_clean(path: str) -> str:
    """Go's ``filepath.Clean`` (``posixpath.normpath`` keeps a leading ``//``; Go does not)."""
    cleaned = posixpath.normpath(path)
    return "/" + cleaned.lstrip("/") if cleaned.startswith("//") else cleaned


def go_dir(path: str) -> str:
    """Go's ``filepath.Dir``: everything before the last separator, cleaned."""
    return go_clean(path[: path.rfind("/") + 1])


def go_base(path: str) -> str:
    """Go's ``filepath.Base``: the last element, trailing slashes ignored; ``.`` for the empty
    string, ``/`` for a path of slashes only."""
    if not path:
        return "."
    path = path.rstrip("/")
    return path[path.rfind("/") + 1:] if path else "/"


def _expand_home(path: str) -> str:
    """go-homedir's ``Expand``: a leading ``~`` is the machine's home directory (Unknown)."""
    if not path.startswith("~"):
        return path
    if len(path) > 1 and path[1] not in "/\\":
        raise EvalError("cannot expand user-specific home dir")
    raise _Unknowable(path)


def _context(call: Call):
    if call.context is None:
        raise _Unknowable("no context")
    return call.context


_HOME = "starts with ~, the home directory of the machine running kapsulint, outside the repository"


def _written(path: Val) -> str:
    """The path argument as a message shows it: as written, unless it is sensitive."""
    return "(sensitive value)" if path.sensitive else shown_path(path.raw)


def _blind_spot(call: Call, arguments: tuple[Val, ...], reason: str) -> _Unknowable:
    """Record that ``call`` (given ``arguments``, the path first) did not read its path and why;
    the exception that makes it Unknown."""
    note = getattr(call.context, "note", None)
    if note is not None and call.loc is not None:
        shown = ", ".join(_written(argument) for argument in arguments)
        note(NOTE_KIND, call.loc, f"{call.name}({shown}) is Unknown: the path {reason}")
    return _Unknowable(arguments[0].raw)


def _resolve(call: Call, path: Val) -> str:
    """Terraform's ``openFile`` path, ``~`` expanded and cleaned; a relative path stays relative
    (the context reads it from the base directory, as Terraform reads it from its own). A path
    the context refuses to read (outside the repository, not a regular file) is a blind spot."""
    try:
        expanded = _expand_home(path.raw)
    except EvalError as error:
        raise call_error(call.name, f"failed to expand ~: {error}") from None
    except _Unknowable:
        raise _blind_spot(call, (path,), _HOME) from None
    return _allowed(call, (path,), go_clean(expanded))


def _allowed(call: Call, arguments: tuple[Val, ...], resolved: str) -> str:
    """``resolved`` (the path the call's ``arguments`` give), unless the context refuses to read
    it: then a blind spot."""
    probe = getattr(_context(call), "refusal", None)
    reason = probe(resolved) if probe is not None else None
    if reason is not None:
        raise _blind_spot(call, arguments, reason)
    return resolved


def _kind(call: Call, resolved: str) -> str | None:
    probe = getattr(_context(call), "file_kind", None)
    return probe(resolved) if probe is not None else None


def _read(call: Call, argument: Val) -> bytes:
    """The bytes of the file at the path ``argument`` gives (as written in the call)."""
    path = argument.raw
    resolved = _resolve(call, argument)
    context = _context(call)
    reader = getattr(context, "read_bytes", None)
    if reader is not None:
        data = reader(resolved)
    else:
        text = context.read_file(resolved)
        data = None if text is None else text.encode("utf-8", "surrogateescape")
    if data is not None:
        return data
    kind = _kind(call, resolved)
    if kind == "missing":
        raise argument_error("path", f"no file exists at {go_quote(path)}; this function works only with files that "
                             "are distributed as part of the configuration source code, so if this file will be "
                             "created by a resource in this configuration you must instead obtain this result from "
                             "an attribute of that resource")
    if kind == "directory":
        raise argument_error("path", f"failed to read file: read {resolved}: is a directory")
    raise _Unknowable(path)


def _known(call: Call, compute) -> Val:
    """``compute()``, or Unknown of the function's type where kapsulint cannot know it."""
    try:
        return compute()
    except _Unknowable:
        return Val(UNKNOWN, call.loc, type=_RETURNS.get(call.name, STRING))


_RETURNS = {"fileexists": BOOL, "fileset": SetType(STRING), "templatefile": DYNAMIC}
"""The result types that are not a string."""


def _text(data: bytes, path: str, call: Call) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise call_error(call.name, f"contents of {go_quote(path)} are not valid UTF-8; use the filebase64 function to "
                         "obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) "
                         "to obtain file hashing results instead") from None


@function("file", Param("path", STRING, allow_unknown=True), returns=STRING)
def _file(args: list[Val], call: Call) -> Val:
    path = args[0].raw
    if path is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=STRING)
    return _known(call, lambda: Val(_text(_read(call, args[0]), path, call), call.loc, type=STRING))


@function("filebase64", Param("path", STRING, allow_unknown=True), returns=STRING)
def _filebase64(args: list[Val], call: Call) -> Val:
    path = args[0].raw
    if path is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=STRING)
    return _known(call, lambda: Val(base64.b64encode(_read(call, args[0])).decode("ascii"), call.loc, type=STRING))


def _register_file_hash(name: str) -> None:
    @function(f"file{name}", Param("path", STRING), returns=STRING)
    def _file_hash(args: list[Val], call: Call) -> Val:
        return _known(call, lambda: Val(hash_text(name, _hash_input(call, args[0])), call.loc, type=STRING))


def _hash_input(call: Call, path: Val) -> bytes:
    """The bytes the file hashes read; their errors are Go's ``os.Open`` and ``io.Copy``'s."""
    try:
        return _read(call, path)
    except EvalError:
        resolved = _resolve(call, path)
        if _kind(call, resolved) == "directory":
            raise call_error(call.name, f"read {resolved}: is a directory") from None
        raise call_error(call.name, f"open {resolved}: no such file or directory") from None


for _name in HASHES:
    _register_file_hash(_name)


@function("fileexists", Param("path", STRING, allow_unknown=True), returns=BOOL)
def _fileexists(args: list[Val], call: Call) -> Val:
    path = args[0].raw
    if path is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=BOOL)

    def exists() -> Val:
        resolved = _resolve(call, args[0])
        kind = _kind(call, resolved)
        if kind is None:
            context = _context(call)
            reader = getattr(context, "read_bytes", None) or context.read_file
            if reader(resolved) is None:
                raise _Unknowable(path)
            kind = "file"
        if kind == "directory":
            raise call_error(call.name, f"{go_quote(resolved)} is a directory, not a file")
        return Val(kind == "file", call.loc, type=BOOL)

    return _known(call, exists)


@function("templatefile", Param("path", STRING, allow_unknown=True),
          Param("vars", DYNAMIC, allow_unknown=True))
def _templatefile(args: list[Val], call: Call) -> Val:
    path, names = args
    if path.raw is UNKNOWN or names.contains_unknown():
        return Val(UNKNOWN, call.loc)

    def render() -> Val:
        text = _text(_read(call, path), path.raw, call)
        if not isinstance(type_of(names), (MapType, ObjectType)):
            raise argument_error("vars", "invalid vars value: must be a map")
        for name in names.raw:
            if not _valid_identifier(name):
                raise argument_error("vars", f"invalid template variable name {go_quote(name)}: must start with a "
                                     "letter, followed by zero or more letters, digits, and underscores")
        return _context(call).render_template(path.raw, text, dict(names.items()), call.loc)

    return _known(call, render)


def _valid_identifier(name: str) -> bool:
    """HCL's ``hclsyntax.ValidIdentifier``: a letter or ``_``, then letters, digits, ``_``, ``-``."""
    return name[:1].isidentifier() and ("_" + name[1:].replace("-", "_")).isidentifier()


@function("basename", Param("path", STRING), returns=STRING)
def _basename(args: list[Val], call: Call) -> Val:
    return Val(go_base(args[0].raw), call.loc, type=STRING)


@function("dirname", Param("path", STRING), returns=STRING)
def _dirname(args: list[Val], call: Call) -> Val:
    return Val(go_dir(args[0].raw), call.loc, type=STRING)


@function("abspath", Param("path", STRING), returns=STRING)
def _abspath(args: list[Val], call: Call) -> Val:
    # Go's filepath.Abs joins a relative path to the working directory: Terraform's is the
    # root module's directory
    path = args[0].raw

    def absolute() -> Val:
        if path.startswith("/"):
            return Val(go_clean(path), call.loc, type=STRING)
        base = _context(call).base_directory()
        return Val(go_clean(posixpath.join(posixpath.abspath(base), path)), call.loc, type=STRING)

    return _known(call, absolute)


@function("pathexpand", Param("path", STRING), returns=STRING)
def _pathexpand(args: list[Val], call: Call) -> Val:
    try:
        return _known(call, lambda: Val(_expand_home(args[0].raw), call.loc, type=STRING))
    except EvalError as error:
        raise call_error(call.name, str(error)) from None


class GlobError(Exception):
    """doublestar's ``ErrBadPattern``."""

    def __str__(self) -> str:
        return "syntax error in pattern"


_MAGIC = frozenset("*?[{\\")


def _index_unescaped(text: str, char: str) -> int:
    """doublestar's ``indexRuneWithEscaping``: ``char`` not right after a backslash."""
    end = text.find(char)
    if end > 0 and text[end - 1] == "\\":
        rest = _index_unescaped(text[end + 1:], char)
        return -1 if rest < 0 else rest + end + 1
    return end


def _split_unescaped(text: str, separator: str) -> list[str]:
    """doublestar's ``splitPathOnSeparator``: at each ``separator`` not escaped (braces are not
    looked at: ``{a/b,c}`` is split too)."""
    parts, start = [], 0
    if separator not in text:
        return [text]
    ends_empty = False
    while start < len(text):
        end = _index_unescaped(text[start:], separator)
        ends_empty = end >= 0
        end = start + end if end >= 0 else len(text)
        parts.append(text[start:end])
        start = end + 1
    if ends_empty:
        parts.append("")
    return parts


def match_component(pattern: str, name: str) -> bool:
    """doublestar v1.1.5's ``matchComponent``: ``*``, ``?``, ``[...]`` (``^`` negates),
    ``{a,b}`` and ``\\`` escapes within one path element; :class:`GlobError` for a malformed
    pattern (not raised from behind a ``*``, whose tries ignore errors)."""
    if not pattern:
        return not name
    if not name and pattern != "*":
        return False
    p = n = 0
    while p < len(pattern) and n < len(name):
        char = pattern[p]
        if char == "\\":
            p += 1
            if p >= len(pattern):
                raise GlobError()
            if pattern[p] != name[n]:
                return False
            p, n = p + 1, n + 1
        elif char == "*":
            p += 1
            if p >= len(pattern):
                return True
            return any(_match_quietly(pattern[p:], name[i:]) for i in range(n, len(name)))
        elif char == "[":
            p += 1
            end = _index_unescaped(pattern[p:], "]")
            if end < 0:
                raise GlobError()
            if not _class_matches(pattern[p:p + end], name[n]):
                return False
            p, n = p + end + 1, n + 1
        elif char == "{":
            p += 1
            end = _index_unescaped(pattern[p:], "}")
            if end < 0:
                raise GlobError()
            options = _split_unescaped(pattern[p:p + end], ",")
            rest = pattern[p + end + 1:]
            return any(match_component(option + rest, name[n:]) for option in options)
        elif char == "?" or char == name[n]:
            p, n = p + 1, n + 1
        else:
            return False
    rest = pattern[p:]
    return (p >= len(pattern) and n >= len(name)) or (n >= len(name) and rest == "*") or rest == "**"


def _match_quietly(pattern: str, name: str) -> bool:
    try:
        return match_component(pattern, name)
    except GlobError:
        return False


def _class_matches(runes: str, char: str) -> bool:
    if not runes:
        raise GlobError()
    negated = runes[0] == "^"
    index, matched = (1 if negated else 0), False
    while index < len(runes):
        low = runes[index]
        if low == "-":
            raise GlobError()
        index += 1
        if low == "\\":
            if index >= len(runes):
                raise GlobError()
            low, index = runes[index], index + 1
        high = low
        if index < len(runes) and runes[index] == "-":
            index += 1
            if index >= len(runes):
                raise GlobError()
            high = runes[index]
            if high == "-":
                raise GlobError()
            index += 1
            if high == "\\":
                if index >= len(runes):
                    raise GlobError()
                high, index = runes[index], index + 1
        if low <= char <= high:
            matched = True
    return matched != negated


Tree = dict[str, "Tree | None"]  # a directory's entries: a subdirectory's tree, or None for a file


def _tree(files: list[str]) -> Tree:
    root: Tree = {}
    for file in files:
        node = root
        *directories, name = file.split("/")
        for directory in directories:
            child = node.setdefault(directory, {})
            if child is None:  # a name both a file and a directory: not a real listing
                raise _Unknowable(file)
            node = child
        node[name] = None
    return root


def glob(tree: Tree, components: list[str], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """doublestar v1's ``doGlob`` over a listing: the paths (as element tuples) it finds."""
    index = 0
    while index < len(components) and not _MAGIC & set(components[index]):
        index += 1
    node: Tree | None = tree
    for name in components[:index]:
        if not isinstance(node, dict) or name not in node:
            return []
        node = node[name]
    prefix = prefix + tuple(components[:index])
    if index >= len(components):
        return [prefix]
    if not isinstance(node, dict):
        return []
    found: list[tuple[str, ...]] = []
    last = index + 1 >= len(components)
    if components[index] == "**":
        for name, child in node.items():
            if child is not None:
                if last:
                    found.append(prefix + (name,))
                found += glob(child, components[index:], prefix + (name,))
            elif last:
                found.append(prefix + (name,))
        if last:
            return found
        index += 1
        last = index + 1 >= len(components)
    for name, child in node.items():
        if match_component(components[index], name):
            if last:
                found.append(prefix + (name,))
            elif child is not None:
                found += glob(child, components[index + 1:], prefix + (name,))
    return found


@function("fileset", Param("path", STRING, allow_unknown=True), Param("pattern", STRING, allow_unknown=True),
          returns=SetType(STRING))
def _fileset(args: list[Val], call: Call) -> Val:
    directory, pattern = args[0].raw, args[1].raw
    if directory is UNKNOWN or pattern is UNKNOWN:
        return Val(UNKNOWN, call.loc, type=SetType(STRING))

    def matches() -> Val:
        arguments = (args[0], args[1])
        root = go_clean(directory)
        full = go_clean(posixpath.join(root, pattern))
        relative = _inside(root, full)
        if relative is None:
            # the pattern leaves the directory: outside what is listed; a blind spot where the
            # directory it reaches before its first wildcard is refused
            _allowed(call, arguments, _fixed_prefix(full))
            raise _Unknowable(full)
        lister = getattr(_context(call), "list_files", None)
        try:
            files = lister(_allowed(call, arguments, root)) if lister is not None else None
        except Refused as refused:
            raise _blind_spot(call, arguments, refused.reason) from None
        if files is None:
            raise _Unknowable(root)
        tree = _tree(files)
        try:
            found = glob(tree, _split_unescaped(relative, "/"))
        except GlobError as error:
            raise call_error(call.name, f"failed to glob pattern {go_quote(full)}: {error}") from None
        names = sorted({"/".join(path) for path in found if _is_file(tree, path)})
        return Val([Val(name, call.loc, type=STRING) for name in names], call.loc, type=SetType(STRING))

    return _known(call, matches)


def _fixed_prefix(path: str) -> str:
    """The directory of ``path`` before its first component holding a wildcard."""
    components = path.split("/")
    fixed = next((index for index, part in enumerate(components) if _MAGIC & set(part)), len(components))
    return "/".join(components[:fixed]) or ("/" if path.startswith("/") else ".")


def _inside(root: str, path: str) -> str | None:
    """``path`` relative to the directory ``root`` (both cleaned), None if it is not below it."""
    if root == ".":
        return None if path == ".." or path.startswith(("../", "/")) or path == "." else path
    prefix = root if root.endswith("/") else root + "/"
    return path[len(prefix):] if path.startswith(prefix) and len(path) > len(prefix) else None


def _is_file(tree: Tree, path: tuple[str, ...]) -> bool:
    node: Tree | None = tree
    for name in path:
        if not isinstance(node, dict) or name not in node:
            return False
        node = node[name]
    return node is None
