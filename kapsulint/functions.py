"""The Terraform functions Kapsule code uses; any other function gives Unknown.

Each function takes evaluated arguments and returns a :class:`Val`. Unknown arguments give an
Unknown result, except where Terraform itself can answer (``merge`` keeps the keys it knows,
``coalesce`` stops at the first known non-null value). Functions that only pick an element keep
that element's location, so a finding points where the value is written.
"""

from __future__ import annotations

import base64
import ipaddress
import json
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kapsulint.findings import Loc
from kapsulint.values import UNKNOWN, Val, unknown_from

if TYPE_CHECKING:
    from kapsulint.evaluate import Evaluator

Function = Callable[[list[Val], Loc, "Evaluator", str], Val]
FUNCTIONS: dict[str, Function] = {}


def function(*names: str, strict: bool = True) -> Callable[[Function], Function]:
    """Register a function; ``strict`` ones return Unknown as soon as any argument is Unknown."""

    def register(implementation: Function) -> Function:
        def wrapper(args: list[Val], loc: Loc, evaluator: Evaluator, path: str) -> Val:
            if strict and any(a.contains_unknown() for a in args):
                return unknown_from(*args, loc=loc)
            try:
                result = implementation(args, loc, evaluator, path)
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError):
                return Val(UNKNOWN, loc)
            if any(a.sensitive for a in args):
                result.sensitive = True
            return result

        for name in names:
            FUNCTIONS[name] = wrapper
        return implementation

    return register


def call_function(name: str, args: list[Val], loc: Loc, evaluator: Evaluator, path: str) -> Val:
    implementation = FUNCTIONS.get(name)
    if implementation is None:  # includes provider-defined functions (provider::scaleway::...)
        return unknown_from(*args, loc=loc)
    return implementation(args, loc, evaluator, path)


def _text(value: Val) -> str:
    text = value.text()
    if text is None:
        raise TypeError("not a string")
    return text


# -- files and templates ----------------------------------------------------------------------


@function("file")
def _file(args, loc, evaluator, path):
    target = _resolve(evaluator, path, _text(args[0]))
    content = evaluator.instance.project.read_text(target)
    if content is None:
        return Val(UNKNOWN, loc)
    return Val(content, loc, origin=(target, 0, 0))


@function("templatefile", strict=False)
def _templatefile(args, loc, evaluator, path):
    from kapsulint.evaluate import Scope

    if not args[0].known:
        return unknown_from(*args, loc=loc)
    target = _resolve(evaluator, path, _text(args[0]))
    template = evaluator.instance.project.template(target)
    if template is None:
        return Val(UNKNOWN, loc)
    variables = args[1] if len(args) > 1 else Val({})
    if not variables.known or variables.open:
        return unknown_from(variables, loc=loc)
    names = dict(variables.items())
    rendered = evaluator.eval_file_template(template, target, Scope(names))
    if not rendered.known:
        return unknown_from(rendered, loc=loc)
    return Val(rendered.raw, loc, origin=rendered.origin or (target, 0, 0), sensitive=rendered.sensitive)


def _resolve(evaluator, path: str, name: str) -> str:
    """Relative paths are relative to the working directory, which is the root module's."""
    if posixpath.isabs(name):
        return posixpath.normpath(name)
    return posixpath.normpath(str(Path(evaluator.instance.root.module.path, name)))


# -- encoding ---------------------------------------------------------------------------------


@function("yamlencode", strict=False)
def _yamlencode(args, loc, evaluator, path):
    value = args[0]
    if value.contains_unknown():
        return Val(UNKNOWN, loc, encoded=value)
    from kapsulint.encoding import to_yaml

    return Val(to_yaml(value.plain()), loc, encoded=value)


@function("jsonencode", strict=False)
def _jsonencode(args, loc, evaluator, path):
    value = args[0]
    if value.contains_unknown():
        return Val(UNKNOWN, loc, encoded=value)
    return Val(json.dumps(value.plain(), separators=(",", ":")), loc, encoded=value)


@function("yamldecode", "jsondecode")
def _decode(args, loc, evaluator, path):
    value = args[0]
    if value.encoded is not None:
        return value.encoded
    from kapsulint.encoding import decode_located

    decoded = decode_located(_text(value), value.origin, loc, evaluator.instance.project)
    return decoded if decoded is not None else Val(UNKNOWN, loc)


@function("base64encode")
def _base64encode(args, loc, evaluator, path):
    return Val(base64.b64encode(_text(args[0]).encode()).decode(), loc)


@function("base64decode")
def _base64decode(args, loc, evaluator, path):
    return Val(base64.b64decode(_text(args[0]).encode(), validate=True).decode(), loc)


# -- collections ------------------------------------------------------------------------------


@function("merge", strict=False)
def _merge(args, loc, evaluator, path):
    result: dict[str, Val] = {}
    keylocs: dict[str, Loc] = {}
    open_keys = False
    for arg in args:
        if arg.raw is None:
            continue
        if not arg.known:
            # An Unknown operand may set any key: the keys before it are no longer certain.
            result, keylocs, open_keys = {}, {}, True
            continue
        if not arg.is_object:
            return Val(UNKNOWN, loc)
        for key, value in arg.items():
            result[key] = value
            key_loc = arg.key_loc(key)
            if key_loc is not None:
                keylocs[key] = key_loc
        open_keys = open_keys or arg.open
    return Val(result, loc, keylocs=keylocs, open=open_keys)


@function("lookup", strict=False)
def _lookup(args, loc, evaluator, path):
    mapping, key = args[0], args[1]
    if not mapping.known or not key.known:
        return unknown_from(mapping, key, loc=loc)
    found = mapping.get(_text(key))
    if found.raw is None and not mapping.open and len(args) > 2:
        return args[2]
    return found


@function("concat", strict=False)
def _concat(args, loc, evaluator, path):
    items: list[Val] = []
    for arg in args:
        if not arg.known:
            return unknown_from(arg, loc=loc)
        items.extend(arg.elements())
    return Val(items, loc)


@function("flatten", strict=False)
def _flatten(args, loc, evaluator, path):
    result: list[Val] = []
    stack = [iter(args[0].elements())] if args[0].known else None
    if stack is None:
        return unknown_from(args[0], loc=loc)
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        if not item.known:
            return unknown_from(item, loc=loc)
        if item.is_list:
            stack.append(iter(item.elements()))
        else:
            result.append(item)
    return Val(result, loc)


@function("coalesce", strict=False)
def _coalesce(args, loc, evaluator, path):
    for arg in args:
        if not arg.known:
            return unknown_from(arg, loc=loc)
        if arg.raw is not None and arg.raw != "":
            return arg
    return Val(UNKNOWN, loc)


@function("element")
def _element(args, loc, evaluator, path):
    items = args[0].elements()
    index = int(args[1].raw)
    return items[index % len(items)]


@function("keys")
def _keys(args, loc, evaluator, path):
    mapping = args[0]
    return Val([Val(k, mapping.key_loc(k) or loc) for k in sorted(mapping.raw)], loc)


@function("values")
def _values(args, loc, evaluator, path):
    mapping = args[0]
    return Val([mapping.raw[k] for k in sorted(mapping.raw)], loc)


@function("length")
def _length(args, loc, evaluator, path):
    raw = args[0].raw
    if isinstance(raw, (list, dict, str)):
        return Val(len(raw), loc)
    raise TypeError


@function("contains")
def _contains(args, loc, evaluator, path):
    wanted = args[1].plain()
    return Val(any(item.plain() == wanted for item in args[0].elements()), loc)


@function("tolist", "toset")
def _tolist(args, loc, evaluator, path):
    if not args[0].is_list:
        raise TypeError
    return Val(args[0].elements(), args[0].loc or loc)


@function("tomap")
def _tomap(args, loc, evaluator, path):
    if not args[0].is_object:
        raise TypeError
    return args[0]


@function("distinct")
def _distinct(args, loc, evaluator, path):
    seen, items = [], []
    for item in args[0].elements():
        plain = item.plain()
        if plain not in seen:
            seen.append(plain)
            items.append(item)
    return Val(items, loc)


# -- strings ----------------------------------------------------------------------------------


@function("format")
def _format(args, loc, evaluator, path):
    from kapsulint.encoding import terraform_format

    return Val(terraform_format(_text(args[0]), [a.plain() for a in args[1:]]), loc)


@function("join")
def _join(args, loc, evaluator, path):
    return Val(_text(args[0]).join(_text(item) for arg in args[1:] for item in arg.elements()), loc)


@function("split")
def _split(args, loc, evaluator, path):
    return Val([Val(part, loc) for part in _text(args[1]).split(_text(args[0]))], loc)


@function("replace")
def _replace(args, loc, evaluator, path):
    import re

    text, search, replacement = _text(args[0]), _text(args[1]), _text(args[2])
    if len(search) > 1 and search.startswith("/") and search.endswith("/"):
        go_replacement = re.sub(r"\$\{?(\w+)\}?", r"\\g<\1>", replacement)
        return Val(re.sub(search[1:-1], go_replacement, text), loc)
    return Val(text.replace(search, replacement), loc)


@function("lower")
def _lower(args, loc, evaluator, path):
    return Val(_text(args[0]).lower(), loc)


@function("upper")
def _upper(args, loc, evaluator, path):
    return Val(_text(args[0]).upper(), loc)


@function("trimspace")
def _trimspace(args, loc, evaluator, path):
    return Val(_text(args[0]).strip(), loc)


@function("trimprefix")
def _trimprefix(args, loc, evaluator, path):
    return Val(_text(args[0]).removeprefix(_text(args[1])), loc)


@function("trimsuffix")
def _trimsuffix(args, loc, evaluator, path):
    return Val(_text(args[0]).removesuffix(_text(args[1])), loc)


@function("basename")
def _basename(args, loc, evaluator, path):
    return Val(posixpath.basename(_text(args[0])), loc)


@function("tostring")
def _tostring(args, loc, evaluator, path):
    if args[0].raw is None:
        return args[0]
    value = args[0]
    return Val(_text(value), value.loc or loc)


@function("tonumber")
def _tonumber(args, loc, evaluator, path):
    from kapsulint.evaluate import number

    value = number(args[0])
    if value is None:
        raise ValueError
    return Val(value, args[0].loc or loc)


@function("tobool")
def _tobool(args, loc, evaluator, path):
    value = args[0]
    if value.is_true():
        return Val(True, value.loc or loc)
    if value.is_false():
        return Val(False, value.loc or loc)
    raise ValueError


# -- network ----------------------------------------------------------------------------------


@function("cidrsubnet")
def _cidrsubnet(args, loc, evaluator, path):
    network = ipaddress.ip_network(_text(args[0]), strict=False)
    newbits, netnum = int(args[1].raw), int(args[2].raw)
    prefix = network.prefixlen + newbits
    if prefix > network.max_prefixlen or netnum >= 2**newbits:
        raise ValueError
    size = 2 ** (network.max_prefixlen - prefix)
    address = int(network.network_address) + netnum * size
    subnet = ipaddress.ip_network((address, prefix))
    return Val(str(subnet), loc)


@function("cidrhost")
def _cidrhost(args, loc, evaluator, path):
    network = ipaddress.ip_network(_text(args[0]), strict=False)
    number = int(args[1].raw)
    base = int(network.broadcast_address) + 1 + number if number < 0 else int(network.network_address) + number
    address = ipaddress.ip_address(base)
    if address not in network:
        raise ValueError
    return Val(str(address), loc)


