"""Where a value is written as a literal, so that a fix edits it there and nowhere else.

A finding points at the place its value is written: the subject's own argument (or an element of
a list, a member of an object written there), a variable's default, a local, a module argument
or a tfvars assignment. A fix may replace that literal only when the change reaches nothing else:
a variable, a local or a module argument that more than one expression reads is left to its
author, since the fix would change every reader alike, and they may need different values.
A literal inside a conditional, an operator or a function that computes from it is not "where
the value is written" either: the fix is refused there.
"""

from __future__ import annotations

import os
from typing import Iterator

from kapsulint.findings import Edit, Loc
from kapsulint.model.edits import scan_lines, scanned, state_after
from kapsulint.model.modules import Attribute, Block, Module
from kapsulint.model.project import Project
from kapsulint.terraform.values import Val
from kapsulint.text import text_lines

# Functions that hand an argument's members on unchanged: a literal written inside one is still
# the value itself (https://developer.hashicorp.com/terraform/language/functions).
_PASS_THROUGH = frozenset(("yamlencode", "jsonencode", "merge", "tolist", "toset", "tomap", "concat"))
# Module call arguments that are Terraform's own, not the child module's variables.
_META_ARGUMENTS = frozenset(("source", "version", "count", "for_each", "providers", "depends_on"))

_Owner = tuple[str, str, Module | None]  # (kind, name, module whose references count)
_MAX_DEPTH = 20  # module arguments and locals followed from one value: a cycle is refused


def literal_edit(project: Project, value: Val, text: str) -> Edit | None:
    """An edit replacing the literal ``value`` was read from by ``text``; None when the value is
    not a literal written in a scanned HCL file, or when another expression reads it too, or when
    it is sensitive (the new text is made from it, and a diff would show it)."""
    if value.contains_sensitive():
        return None
    return _edit_at(project, value.loc, text, ("lit",))


def reference_edit(project: Project, value: Val, text: str) -> Edit | None:
    """An edit replacing the reference ``value`` was read from (``scaleway_lb_ip.x.id`` written
    as the whole value, or as a member of a list or object) by ``text``; None as for literals."""
    if value.contains_sensitive():
        return None
    return _edit_at(project, value.loc, text, ("attr", "index"))


def key_edit(project: Project, value: Val, key: str, text: str) -> Edit | None:
    """An edit replacing the key ``key`` of the object ``value`` where it is written (``"max-pods"``
    in ``kubelet_args = { "max-pods" = "60" }``) by ``text``, the ``=`` signs re-aligned; None as
    for literals."""
    if value.contains_sensitive():
        return None
    return _edit_at(project, value.key_loc(key), text, ("key",))


def _edit_at(project: Project, loc: Loc | None, text: str, kinds: tuple[str, ...]) -> Edit | None:
    if loc is None or loc.line != loc.end_line or loc.path.endswith(".json"):
        return None
    module = project.modules.get(os.path.dirname(loc.path))
    if module is None:
        return None
    for attribute, owner in _attributes(module):
        if attribute.path == loc.path and _holds(attribute.expr, loc, kinds):
            if not _read_once(owner):
                return None
            return _checked(project, loc, text)
    return None


def wrap_edit(project: Project, loc: Loc | None, function: str) -> Edit | None:
    """An edit wrapping the expression written at ``loc`` in a call: ``x`` becomes ``function(x)``."""
    written = written_text(project, loc) if loc is not None and not loc.path.endswith(".json") else None
    if not written:
        return None
    return _line_edit(project, loc, f"{function}({written})")


def unwrap_edit(project: Project, attribute: Attribute, function: str) -> Edit | None:
    """An edit replacing the attribute's expression ``function(x)`` by ``x``, as written; None
    when the expression is not one call of ``function`` with one argument."""
    node = attribute.expr
    if attribute.path.endswith(".json") or node.get("t") != "call" or node.get("name") != function:
        return None
    if len(node["args"]) != 1 or node.get("expand"):
        return None
    inner = written_text(project, Loc.of(attribute.path, node["args"][0]["p"]))
    if not inner:
        return None
    loc = attribute.value_loc
    return Edit(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, inner)


def combined(project: Project, outer: Edit | None, inner: Edit | None) -> tuple[Edit, ...] | None:
    """Two edits of one fix as edits that do not overlap: ``inner`` applied inside ``outer``'s
    new text when ``outer`` rewrites the lines around it (a builder re-aligning a run of
    attributes); None when they overlap otherwise."""
    if outer is None or inner is None:
        return None
    if outer.path != inner.path or (inner.end_line, inner.end_column) <= (outer.line, outer.column) or (
            (outer.end_line, outer.end_column) <= (inner.line, inner.column)):
        return outer, inner
    if (inner.line, inner.column) < (outer.line, outer.column) or (
            (outer.end_line, outer.end_column) < (inner.end_line, inner.end_column)):
        return None
    old = written_text(project, Loc(inner.path, inner.line, inner.column, inner.end_line, inner.end_column))
    if not old or outer.content.count(old) != 1:
        return None
    return (outer._replace(content=outer.content.replace(old, inner.content)),)


def written_text(project: Project, loc: Loc) -> str | None:
    """The text of the file at ``loc`` (line ends as ``\\n``); None when the file cannot be read
    or no longer holds that region."""
    source = project.read_text(loc.path)
    if source is None:
        return None
    lines = text_lines(source)
    if loc.line < 1 or loc.end_line > len(lines) or loc.end_column - 1 > len(lines[loc.end_line - 1]):
        return None
    if loc.line == loc.end_line:
        return lines[loc.line - 1][loc.column - 1: loc.end_column - 1]
    middle = lines[loc.line: loc.end_line - 1]
    return "\n".join([lines[loc.line - 1][loc.column - 1:], *middle, lines[loc.end_line - 1][: loc.end_column - 1]])


def _checked(project: Project, loc: Loc, text: str) -> Edit | None:
    """The edit, when the text on disk at ``loc`` is still there, with no interpolation."""
    written = written_text(project, loc)
    if not written or "${" in written or "%{" in written:
        return None
    return _line_edit(project, loc, text)


def _line_edit(project: Project, loc: Loc, text: str) -> Edit:
    """Replace a region of one line. When the line's ``=`` or trailing comment is aligned with
    those of the lines around it, the chain is re-aligned as ``terraform fmt`` aligns assign and
    comment cells (https://github.com/hashicorp/hcl/blob/v2.23.0/hclwrite/format.go), so a
    formatted file stays formatted; otherwise only the region changes."""
    plain = Edit(loc.path, loc.line, loc.column, loc.end_line, loc.end_column, text)
    lines = project.source_lines(loc.path)
    if lines is None or loc.line != loc.end_line or loc.line > len(lines) or "\n" in text:
        return plain
    index = loc.line - 1
    new = list(lines)
    new[index] = replaced = lines[index][: loc.column - 1] + text + lines[index][loc.end_column - 1:]
    first, last = index, index + 1
    before, states = scanned(project, lines)
    same_state = state_after(new[index:index + 1], states[index]) == states[index + 1]
    for kind in ("equals", "comment"):
        cell = getattr(before[index], kind)
        if cell is None or loc.column - 1 >= cell:
            continue  # the edit is after this cell: its column does not move
        start, end = _chain(before, index, kind)
        if not _aligned(lines, before, start, end, kind):
            continue  # not aligned as fmt aligns it: the author's layout is kept
        if same_state:  # only the chain's lines are read again
            window = scan_lines(new[start:end], states[start])
            infos = {start + offset: info for offset, info in enumerate(window)}
        else:
            infos = dict(enumerate(scan_lines(new)))
        width = max(len(new[i][: getattr(infos[i], kind)].rstrip()) for i in range(start, end)) + 1
        for i in range(start, end):
            at = getattr(infos[i], kind)
            head = new[i][:at].rstrip()
            new[i] = head + " " * (width - len(head)) + new[i][at:]
        first, last = min(first, start), max(last, end)
    if new[index] == replaced and all(new[i] == lines[i] for i in range(first, last) if i != index):
        return plain
    if last == len(new):  # the chain ends a file without a final newline
        return Edit(loc.path, first + 1, 1, last, len(lines[last - 1]) + 1, "\n".join(new[first:last]))
    return Edit(loc.path, first + 1, 1, last + 1, 1, "".join(line + "\n" for line in new[first:last]))


def _chain(infos: list, index: int, kind: str) -> tuple[int, int]:
    """The run of consecutive lines around ``index`` that have a ``kind`` cell."""
    start, end = index, index + 1
    while start > 0 and getattr(infos[start - 1], kind) is not None:
        start -= 1
    while end < len(infos) and getattr(infos[end], kind) is not None:
        end += 1
    return start, end


def _aligned(lines: list[str], infos: list, start: int, end: int, kind: str) -> bool:
    """Whether the run's cells start where ``terraform fmt`` puts them."""
    width = max(len(lines[i][: getattr(infos[i], kind)].rstrip()) for i in range(start, end)) + 1
    return all(getattr(infos[i], kind) == width for i in range(start, end))


def _holds(node: dict, loc: Loc, kinds: tuple[str, ...]) -> bool:
    """Whether ``node`` is an expression of ``kinds`` at ``loc``, or a list, object or
    pass-through call holding one (iterative: expressions nest deeply)."""
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.get("t")
        if kind in kinds and _at(current, loc):
            return True
        if kind == "tuple":
            stack.extend(current["items"])
        elif kind == "object":
            if "key" in kinds and any(item[0].get("t") == "lit" and _at(item[0], loc) for item in current["items"]):
                return True
            stack.extend(item[1] for item in current["items"])
        elif kind == "paren":
            stack.append(current["e"])
        elif kind == "call" and current.get("name") in _PASS_THROUGH and not current.get("expand"):
            stack.extend(current["args"])
    return False


def _at(node: dict, loc: Loc) -> bool:
    """Whether ``node`` is written exactly at ``loc``."""
    return list(node.get("p", ())) == [loc.line, loc.column, loc.end_line, loc.end_column]


def _blocks(block: Block) -> Iterator[Block]:
    yield block
    for child in block.blocks:
        yield from _blocks(child)


def _attributes(module: Module) -> Iterator[tuple[Attribute, _Owner | None]]:
    """Every attribute of the module, with what reading it depends on (None: the block's own)."""
    for resource in module.resources.values():
        for block in _blocks(resource.block):
            for attribute in block.attrs.values():
                yield attribute, None
    for block in [*module.providers, *module.outputs.values()]:
        for nested in _blocks(block):
            for attribute in nested.attrs.values():
                yield attribute, None
    for name, variable in module.variables.items():
        if variable.default is not None:
            yield variable.default, ("var", name, module)
    for name, attribute in module.locals.items():
        yield attribute, ("local", name, module)
    for call in module.calls.values():
        for name, attribute in call.block.attrs.items():
            if name not in _META_ARGUMENTS:
                yield attribute, ("var", name, call.target)
    for source in module.tfvars:
        if source.data is None:
            continue
        for raw in source.data["body"]["attrs"]:
            yield Attribute(raw["name"], Loc.of(source.path, raw["p"]), raw["expr"], source.path), (
                "var", raw["name"], module)


def _read_once(owner: _Owner | None, depth: int = 0) -> bool:
    """Whether the value of the variable or local ``owner`` names reaches exactly one expression:
    read once, and when that reader passes it on whole (a module argument, a local), read once
    there too."""
    if owner is None:
        return True
    kind, name, target = owner
    if target is None or depth > _MAX_DEPTH:
        return False  # a module kapsulint did not read: its uses are unknown
    readers = _readers(target, kind, name)
    if len(readers) != 1:
        return False
    return _read_once(readers[0], depth + 1)


def _readers(module: Module, kind: str, name: str) -> list[_Owner | None]:
    """Each reference to ``var.NAME`` or ``local.NAME`` in the module, as where its value goes
    next: the variable a module argument sets, the local it defines, or None (an expression that
    uses it)."""
    found: list[_Owner | None] = []
    for local, attribute in module.locals.items():
        found += [("local", local, module)] * _count(attribute.expr, kind, name)
    for call in module.calls.values():
        for argument, attribute in call.block.attrs.items():
            onward = None if argument in _META_ARGUMENTS else ("var", argument, call.target)
            found += [onward] * _count(attribute.expr, kind, name)
        for nested in call.block.blocks:
            found += [None] * sum(_count(a.expr, kind, name) for b in _blocks(nested) for a in b.attrs.values())
    blocks = [resource.block for resource in module.resources.values()]
    blocks += [*module.providers, *module.outputs.values(), *(v.block for v in module.variables.values())]
    for block in blocks:
        for nested in _blocks(block):
            found += [None] * sum(_count(attribute.expr, kind, name) for attribute in nested.attrs.values())
    return found


def _count(node: object, kind: str, name: str) -> int:
    """The ``kind.name`` traversals in an expression (iterative: expressions nest deeply)."""
    count, stack = 0, [node]
    while stack:
        current = stack.pop()
        if isinstance(current, list):
            stack.extend(current)
        elif isinstance(current, dict):
            target = current.get("obj")
            if (current.get("t") == "attr" and current.get("name") == name and isinstance(target, dict)
                    and target.get("t") == "var" and target.get("name") == kind):
                count += 1
                continue
            stack.extend(item for item in current.values() if isinstance(item, (dict, list)))
    return count
