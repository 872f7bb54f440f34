"""A plan as ``terraform show -json PLANFILE`` (or ``tofu show -json``) writes it: what Terraform
will do to each resource instance, the state it starts from and the configuration it was made of.

The format is Terraform's "JSON Output Format"
(https://developer.hashicorp.com/terraform/internals/json-format), written by
``internal/command/jsonplan`` (https://github.com/hashicorp/terraform/blob/v1.11.4/internal/command/jsonplan/plan.go):
format 1.0 from Terraform 1.1, 1.2 from Terraform 1.5 (and OpenTofu). A minor version only adds
fields, so every 1.x is read; another major is refused. Values are read as :class:`Val` trees:
``after_unknown`` leaves are Unknown, ``before_sensitive``/``after_sensitive`` (and a state's
``sensitive_values``) leaves are sensitive, so a message never prints them.

Nothing here knows a provider: a change is an address, its actions and its values.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from bisect import bisect_right
from collections.abc import Iterator
from fractions import Fraction
from typing import Any, NamedTuple

from kapsulint.boundary import Refused, read_regular, shown_path
from kapsulint.findings import Loc
from kapsulint.terraform.values import UNKNOWN, Val
from kapsulint.text import decoded, lazy_pattern

SUPPORTED_MAJOR = 1
MAX_PLAN_BYTES = 256 * 1024 * 1024  # a plan this large is refused, not read (a plan of 10,000 resources is ~50 MB)
MAX_VALUE_DEPTH = 64  # nesting below this in a planned value is read as Unknown

# The action lists of internal/command/jsonplan ``actionString`` (v1.11.4).
NO_OP = ("no-op",)
CREATE = ("create",)
READ = ("read",)
UPDATE = ("update",)
DELETE = ("delete",)
FORGET = ("forget",)
DELETE_THEN_CREATE = ("delete", "create")
CREATE_THEN_DELETE = ("create", "delete")
CREATE_THEN_FORGET = ("create", "forget")
REPLACEMENTS = (DELETE_THEN_CREATE, CREATE_THEN_DELETE, CREATE_THEN_FORGET)

# The action reasons of internal/command/jsonplan (v1.11.4). "Consumers should be resilient to
# encountering unrecognized values and treat them as an unspecified reason": an unknown one is None.
REPLACE_BECAUSE_TAINTED = "replace_because_tainted"
REPLACE_BECAUSE_CANNOT_UPDATE = "replace_because_cannot_update"
REPLACE_BY_REQUEST = "replace_by_request"
REPLACE_BY_TRIGGERS = "replace_by_triggers"
DELETE_BECAUSE_NO_RESOURCE_CONFIG = "delete_because_no_resource_config"
DELETE_BECAUSE_WRONG_REPETITION = "delete_because_wrong_repetition"
DELETE_BECAUSE_COUNT_INDEX = "delete_because_count_index"
DELETE_BECAUSE_EACH_KEY = "delete_because_each_key"
DELETE_BECAUSE_NO_MODULE = "delete_because_no_module"
DELETE_BECAUSE_NO_MOVE_TARGET = "delete_because_no_move_target"
READ_BECAUSE_CONFIG_UNKNOWN = "read_because_config_unknown"
READ_BECAUSE_DEPENDENCY_PENDING = "read_because_dependency_pending"
READ_BECAUSE_CHECK_NESTED = "read_because_check_nested"
ACTION_REASONS = frozenset({
    REPLACE_BECAUSE_TAINTED, REPLACE_BECAUSE_CANNOT_UPDATE, REPLACE_BY_REQUEST, REPLACE_BY_TRIGGERS,
    DELETE_BECAUSE_NO_RESOURCE_CONFIG, DELETE_BECAUSE_WRONG_REPETITION, DELETE_BECAUSE_COUNT_INDEX,
    DELETE_BECAUSE_EACH_KEY, DELETE_BECAUSE_NO_MODULE, DELETE_BECAUSE_NO_MOVE_TARGET,
    READ_BECAUSE_CONFIG_UNKNOWN, READ_BECAUSE_DEPENDENCY_PENDING, READ_BECAUSE_CHECK_NESTED,
})
# Reasons whose resource block (or module instance) is gone from the configuration.
CONFIGURATION_GONE = frozenset({DELETE_BECAUSE_NO_RESOURCE_CONFIG, DELETE_BECAUSE_NO_MODULE,
                                DELETE_BECAUSE_NO_MOVE_TARGET})

# Keys that tell a plan from the other documents `terraform show -json` writes.
_PLAN_KEYS = ("resource_changes", "planned_values", "configuration", "output_changes", "applyable", "prior_state")

Key = int | str | None
PathStep = str | int


class PlanError(ValueError):
    """A file that cannot be read as a plan; the message names it and says why."""


class ModuleStep(NamedTuple):
    """``module.NAME`` or ``module.NAME[KEY]`` in an address."""

    name: str
    key: Key


class Address(NamedTuple):
    """An absolute resource instance address: ``module.a["x"].scaleway_k8s_pool.this[0]``."""

    modules: tuple[ModuleStep, ...]
    mode: str  # "managed" or "data"
    type: str
    name: str
    key: Key

    @property
    def block(self) -> str:
        """The block's address in its module: ``scaleway_k8s_pool.this``, ``data.x.y``."""
        prefix = "data." if self.mode == "data" else ""
        return f"{prefix}{self.type}.{self.name}"

    @property
    def module_names(self) -> tuple[str, ...]:
        return tuple(step.name for step in self.modules)

    @property
    def text(self) -> str:
        """The address as Terraform writes it."""
        parts = [f"module.{step.name}{key_text(step.key)}" for step in self.modules]
        parts.append(self.block + key_text(self.key))
        return ".".join(parts)

    @property
    def module_text(self) -> str:
        return ".".join(f"module.{step.name}{key_text(step.key)}" for step in self.modules)


def key_text(key: Key) -> str:
    """``[0]``, ``["apps"]`` (HCL quoting, as Terraform's ``addrs`` writes it), or nothing."""
    if key is None:
        return ""
    if isinstance(key, int):
        return f"[{key}]"
    escaped = []
    for index, char in enumerate(key):
        if char in _ESCAPES:
            escaped.append(_ESCAPES[char])
        elif char in "$%" and key[index + 1:index + 2] == "{":
            escaped.append(char * 2)
        elif not char.isprintable():
            escaped.append(f"\\u{ord(char):04x}" if ord(char) < 65536 else f"\\U{ord(char):08x}")
        else:
            escaped.append(char)
    return '["' + "".join(escaped) + '"]'


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "\\": "\\\\"}
_UNESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_KEY = r'\[(?:(?P<{0}int>[0-9]+)|"(?P<{0}str>(?:[^"\\]|\\.)*)")\]'
_MODULE_STEP = lazy_pattern(rf"module\.(?P<name>{_NAME})(?:{_KEY.format('m')})?\.")
_RESOURCE = lazy_pattern(rf"(?P<data>data\.)?(?P<type>{_NAME})\.(?P<name>{_NAME})(?:{_KEY.format('r')})?")


def _unquote(text: str) -> str | None:
    out = []
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            code = text[index + 1:index + 2]
            if code in _UNESCAPES:
                out.append(_UNESCAPES[code])
                index += 2
                continue
            width = 4 if code == "u" else 8 if code == "U" else 0
            digits = text[index + 2:index + 2 + width]
            if width and re.fullmatch(r"[0-9a-fA-F]+", digits) and len(digits) == width and int(digits, 16) < 0x110000:
                out.append(chr(int(digits, 16)))
                index += 2 + width
                continue
            return None
        if char in "$%" and text[index + 1:index + 3] == char + "{":
            out.append(char)
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)


def _key(match: re.Match[str], prefix: str) -> tuple[bool, Key]:
    number, string = match.group(f"{prefix}int"), match.group(f"{prefix}str")
    if number is not None:
        return True, int(number)
    if string is not None:
        text = _unquote(string)
        return text is not None, text
    return True, None


def parse_address(text: str) -> Address | None:
    """An absolute resource instance address, or None when ``text`` is not one."""
    position = 0
    modules = []
    while text.startswith("module.", position):
        match = _MODULE_STEP.match(text, position)
        if match is None:
            return None
        ok, key = _key(match, "m")
        if not ok:
            return None
        modules.append(ModuleStep(match.group("name"), key))
        position = match.end()
    match = _RESOURCE.fullmatch(text, position)
    if match is None:
        return None
    ok, key = _key(match, "r")
    if not ok:
        return None
    mode = "data" if match.group("data") else "managed"
    if mode == "managed" and match.group("type") == "data":
        return None  # "data.x": a data source without a name (Terraform reserves the type name)
    return Address(tuple(modules), mode, match.group("type"), match.group("name"), key)


class Masks(NamedTuple):
    """Where a value is Unknown and where it is sensitive: ``true``, or the value's shape with
    ``true`` at the marked leaves (``after_unknown``, ``*_sensitive``)."""

    unknown: Any
    sensitive: Any


def to_val(value: Any, masks: Masks, loc: Loc, depth: int = 0) -> Val:
    """A JSON value as a :class:`Val` tree: Unknown where ``masks.unknown`` says so (including keys
    the value omits because they are Unknown), sensitive where ``masks.sensitive`` says so, every
    node located at ``loc``."""
    if masks.unknown is True or depth >= MAX_VALUE_DEPTH:
        return Val(UNKNOWN, loc, sensitive=masks.sensitive is True)
    if masks.sensitive is True:
        return _all_sensitive(to_val(value, Masks(masks.unknown, None), loc, depth))
    if isinstance(value, dict):
        members: dict[str, Val] = {}
        unknown = masks.unknown if isinstance(masks.unknown, dict) else {}
        sensitive = masks.sensitive if isinstance(masks.sensitive, dict) else {}
        for name in list(value) + [k for k in unknown if k not in value]:
            members[name] = to_val(value.get(name), Masks(unknown.get(name), sensitive.get(name)), loc, depth + 1)
        return Val(members, loc)
    if isinstance(value, list):
        unknown_items = masks.unknown if isinstance(masks.unknown, list) else []
        sensitive_items = masks.sensitive if isinstance(masks.sensitive, list) else []
        items = [
            to_val(item, Masks(_at(unknown_items, index), _at(sensitive_items, index)), loc, depth + 1)
            for index, item in enumerate(value)
        ]
        return Val(items, loc)
    return Val(value, loc)


def _at(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else None


def _all_sensitive(value: Val) -> Val:
    raw = value.raw
    if isinstance(raw, dict):
        raw = {name: _all_sensitive(member) for name, member in raw.items()}
    elif isinstance(raw, list):
        raw = [_all_sensitive(item) for item in raw]
    return Val(raw, value.loc, sensitive=True)


class PlannedChange:
    """One entry of ``resource_changes``: an action on one object of one resource instance."""

    address: Address
    text: str  # the address as the plan writes it
    previous_address: Address | None
    deposed: str | None
    provider_name: str
    actions: tuple[str, ...]
    reason: str | None  # None: no reason given, or one this version does not know
    replace_paths: tuple[tuple[PathStep, ...], ...]
    index: int  # its position in resource_changes

    def __init__(self, entry: dict[str, Any], address: Address, index: int, plan: Plan) -> None:
        change = entry["change"]
        self.address = address
        self.text = entry["address"]
        previous = entry.get("previous_address")
        self.previous_address = parse_address(previous) if isinstance(previous, str) else None
        deposed = entry.get("deposed")
        self.deposed = deposed if isinstance(deposed, str) else None
        provider = entry.get("provider_name")
        self.provider_name = provider if isinstance(provider, str) else ""
        self.actions = tuple(change["actions"])
        reason = entry.get("action_reason")
        self.reason = reason if reason in ACTION_REASONS else None
        self.replace_paths = _paths(change.get("replace_paths"))
        self.index = index
        self._plan = plan
        self._change = change
        self._values: dict[str, Val] = {}

    def __repr__(self) -> str:
        return f"PlannedChange({self.text} {'/'.join(self.actions)})"

    @property
    def loc(self) -> Loc:
        """Where this change is written in the plan file (its address)."""
        return self._plan.change_loc(self.index)

    @property
    def before(self) -> Val:
        """The object before the action (null for a create), sensitive leaves marked."""
        return self._value("before", "before_sensitive", None)

    @property
    def after(self) -> Val:
        """The object after the action (null for a delete): Unknown where ``after_unknown`` says
        so, sensitive leaves marked."""
        return self._value("after", "after_sensitive", self._change.get("after_unknown"))

    def _value(self, key: str, sensitive_key: str, unknown: Any) -> Val:
        cached = self._values.get(key)
        if cached is None:
            cached = to_val(self._change.get(key), Masks(unknown, self._change.get(sensitive_key)), self.loc)
            self._values[key] = cached
        return cached

    @property
    def creates(self) -> bool:
        """A new object comes into existence (a create or either replacement)."""
        return "create" in self.actions

    @property
    def deletes(self) -> bool:
        """An object is destroyed (a delete or a replacement; never a forget)."""
        return "delete" in self.actions

    @property
    def is_replacement(self) -> bool:
        return self.actions in REPLACEMENTS

    @property
    def is_delete(self) -> bool:
        """Destroyed and not replaced."""
        return self.actions == DELETE

    @property
    def create_before_destroy(self) -> bool | None:
        """For a replacement, whether the new object is created first; None otherwise."""
        if not self.is_replacement:
            return None
        return self.actions[0] == "create"

    @property
    def is_update(self) -> bool:
        return self.actions == UPDATE

    @property
    def is_read(self) -> bool:
        return self.actions == READ

    @property
    def is_no_op(self) -> bool:
        return self.actions == NO_OP

    @property
    def is_forget(self) -> bool:
        return "forget" in self.actions

    @property
    def configuration_gone(self) -> bool:
        """The plan says the block or module instance is no longer in the configuration."""
        return self.reason in CONFIGURATION_GONE or self.actions == FORGET

    @property
    def replacing_arguments(self) -> tuple[str, ...]:
        """The top-level arguments of the ``replace_paths`` (the provider's "forces replacement"),
        in order, once each."""
        names: list[str] = []
        for path in self.replace_paths:
            if path and isinstance(path[0], str) and path[0] not in names:
                names.append(path[0])
        return tuple(names)


def _paths(value: Any) -> tuple[tuple[PathStep, ...], ...]:
    if not isinstance(value, list):
        return ()
    paths = []
    for path in value:
        if isinstance(path, list) and path and all(isinstance(s, (str, int)) and not isinstance(s, bool) for s in path):
            paths.append(tuple(path))
    return tuple(paths)


class StateResource(NamedTuple):
    """A resource instance of ``prior_state``: its values as the state holds them."""

    address: Address
    values: Val


class Plan:
    """A plan file read: its changes, prior state, configuration and timestamp."""

    path: str  # absolute
    format_version: str
    terraform_version: str | None
    timestamp: datetime.datetime | None  # when the plan was made, in UTC
    changes: list[PlannedChange]
    configuration_blocks: frozenset[tuple[tuple[str, ...], str]]  # (module call names, block address)
    configuration_modules: frozenset[tuple[str, ...]]  # the module calls the configuration holds
    has_configuration: bool

    def __init__(self, path: str, text: str, document: dict[str, Any]) -> None:
        self.path = path
        self._text = text
        self._locs: list[Loc] | None = None
        self.format_version = document["format_version"]
        version = document.get("terraform_version")
        self.terraform_version = version if isinstance(version, str) else None
        self.timestamp = _timestamp(document.get("timestamp"))
        self.changes = []
        entries = document.get("resource_changes")
        for index, entry in enumerate(entries if isinstance(entries, list) else []):
            address = _entry_address(entry)
            if address is not None:
                self.changes.append(PlannedChange(entry, address, index, self))
        self._state = _state_resources(document.get("prior_state"), self.loc_of_file())
        configuration = document.get("configuration")
        root_module = configuration.get("root_module") if isinstance(configuration, dict) else None
        self.has_configuration = isinstance(root_module, dict)
        blocks: set[tuple[tuple[str, ...], str]] = set()
        modules: set[tuple[str, ...]] = set()
        if isinstance(root_module, dict):
            _configuration_blocks(root_module, (), blocks, modules)
        self.configuration_blocks = frozenset(blocks)
        self.configuration_modules = frozenset(modules)

    def __repr__(self) -> str:
        return f"Plan({self.path}, {len(self.changes)} changes)"

    def loc_of_file(self) -> Loc:
        return Loc(self.path, 1, 1, 1, 2)

    def prior(self, address: Address) -> Val | None:
        """The prior state's values of a resource instance; None when the state has none."""
        found = self._state.get(address.text)
        return found.values if found is not None else None

    def change_loc(self, index: int) -> Loc:
        """Where ``resource_changes[index]`` writes its address in the plan file."""
        if self._locs is None:
            self._locs = _change_locations(self.path, self._text)
        if index < len(self._locs):
            return self._locs[index]
        return self.loc_of_file()


def _entry_address(entry: Any) -> Address | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("address"), str):
        return None
    change = entry.get("change")
    if not isinstance(change, dict) or not isinstance(change.get("actions"), list):
        return None
    if not all(isinstance(action, str) for action in change["actions"]):
        return None
    address = parse_address(entry["address"])
    if address is None:
        return None
    index = entry.get("index")
    if isinstance(index, (int, str)) and not isinstance(index, bool):
        address = address._replace(key=index)
    return address


def _timestamp(value: Any) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.astimezone(datetime.UTC)


def _state_resources(state: Any, loc: Loc) -> dict[str, StateResource]:
    found: dict[str, StateResource] = {}
    values = state.get("values") if isinstance(state, dict) else None
    pending = [values.get("root_module")] if isinstance(values, dict) else []
    seen = 0
    while pending and seen < 100_000:
        module = pending.pop()
        seen += 1
        if not isinstance(module, dict):
            continue
        for resource in module.get("resources") or []:
            if not isinstance(resource, dict) or not isinstance(resource.get("address"), str):
                continue
            address = parse_address(resource["address"])
            if address is None:
                continue
            value = to_val(resource.get("values"), Masks(None, resource.get("sensitive_values")), loc)
            found[address.text] = StateResource(address, value)
        children = module.get("child_modules")
        if isinstance(children, list):
            pending.extend(children)
    return found


def _configuration_blocks(module: dict[str, Any], path: tuple[str, ...], blocks: set[tuple[tuple[str, ...], str]],
                          modules: set[tuple[str, ...]]) -> None:
    pending = [(module, path)]
    while pending and len(modules) < 100_000:
        current, names = pending.pop()
        modules.add(names)
        for resource in current.get("resources") or []:
            if isinstance(resource, dict) and isinstance(resource.get("address"), str):
                blocks.add((names, resource["address"]))
        calls = current.get("module_calls")
        if isinstance(calls, dict):
            for name, call in calls.items():
                if isinstance(call, dict) and isinstance(call.get("module"), dict):
                    pending.append((call["module"], (*names, name)))
                elif isinstance(name, str):
                    modules.add((*names, name))


# -- reading ---------------------------------------------------------------------------------------


def read_plan(path: str, name: str | None = None) -> Plan:
    """Read the plan at ``path``; :class:`PlanError` naming the file (as ``name``, how the user
    wrote it, when given) when it is not one."""
    shown = shown_path(name if name is not None else path)
    try:
        data = read_regular(path, MAX_PLAN_BYTES)
    except Refused as refused:
        raise PlanError(f"cannot read plan {shown}: it {refused}") from None
    except OSError as error:
        raise PlanError(f"cannot read plan {shown}: {error.strerror or error}") from None
    if data is None:
        raise PlanError(f"cannot read plan {shown}: larger than {MAX_PLAN_BYTES // (1024 * 1024)} MiB")
    try:
        text = decoded(data)
    except UnicodeDecodeError:
        raise PlanError(f"{shown} is not a plan: it is not UTF-8 text ({_HOW})") from None
    try:
        document = json.loads(text, parse_float=_number, parse_constant=_constant)
    except (ValueError, RecursionError) as error:
        detail = str(error).splitlines()[0][:120] if str(error) else type(error).__name__
        raise PlanError(f"{shown} is not a plan: it is not JSON ({detail}); {_HOW}") from None
    check_document(document, shown)
    return Plan(os.path.abspath(path), text, document)


_HOW = "make one with `terraform plan -out tfplan && terraform show -json tfplan > plan.json`"


def check_document(document: Any, shown: str) -> None:
    """Refuse what is not a plan of a format this version reads, naming the file."""
    if not isinstance(document, dict):
        raise PlanError(f"{shown} is not a plan: its JSON is not an object; {_HOW}")
    version = document.get("format_version")
    if not isinstance(version, str):
        what = "a state file" if "lineage" in document or "serial" in document else "JSON without format_version"
        raise PlanError(f"{shown} is not a plan: it is {what}; {_HOW}")
    if not any(key in document for key in _PLAN_KEYS):
        what = "the JSON of a state" if "values" in document else "not the JSON of a plan"
        raise PlanError(f"{shown} is not a plan: it is {what}; {_HOW}")
    match = re.fullmatch(r"([0-9]+)\.([0-9]+)", version)
    if match is None:
        raise PlanError(f"{shown}: plan format_version {json.dumps(version[:40])} is not a version of the plan format")
    major = int(match.group(1))
    if major != SUPPORTED_MAJOR:
        older = " (Terraform 1.0 and older)" if major == 0 else ""
        raise PlanError(f"{shown}: plan format {version}{older} is not supported: kapsulint reads format "
                        f"{SUPPORTED_MAJOR}.x (Terraform 1.1 and later, OpenTofu)")
    changes = document.get("resource_changes")
    if changes is not None and not isinstance(changes, list):
        raise PlanError(f"{shown} is not a plan: resource_changes is not a list")


def _number(text: str) -> Fraction | float:
    """A JSON number with a fraction or exponent: exact, unless its exponent is beyond any value a
    provider writes (then a float, which may be infinite)."""
    exponent = re.search(r"[eE]([+-]?[0-9]+)$", text)
    if (exponent is not None and abs(int(exponent.group(1))) > 400) or len(text) > 400:
        return float(text)
    return Fraction(text)


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


# -- where each change is written --------------------------------------------------------------------

_TOKEN = lazy_pattern(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')


def _change_locations(path: str, text: str) -> list[Loc]:
    """The location of each ``resource_changes`` entry's address value in the plan's text, in
    order: a scan of the JSON's strings and brackets (the document is known to be valid JSON)."""
    newlines = [index for index, char in enumerate(text) if char == "\n"]
    found: list[Loc] = []
    depth = 0
    in_changes = False
    changes_depth = 0
    want_address = False
    for token in _iter_tokens(text):
        value, start = token
        if value in "{[":
            depth += 1
            continue
        if value in "}]":
            depth -= 1
            if in_changes and depth < changes_depth:
                in_changes = False
            continue
        # a string: a key when followed by ':'
        end = start + len(value)
        is_key = _next_non_blank(text, end) == ":"
        if is_key and depth == 1 and value == '"resource_changes"':
            in_changes = True
            changes_depth = 2
        elif in_changes and is_key and depth == changes_depth + 1 and value == '"address"':
            want_address = True
        elif want_address and not is_key:
            line = bisect_right(newlines, start)
            column = start - (newlines[line - 1] + 1 if line else 0) + 1
            found.append(Loc(path, line + 1, column, line + 1, column + len(value)))
            want_address = False
    return found


def _iter_tokens(text: str) -> Iterator[tuple[str, int]]:
    for match in _TOKEN.finditer(text):
        yield match.group(), match.start()


def _next_non_blank(text: str, index: int) -> str:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return text[index:index + 1]


__all__ = [
    "ACTION_REASONS",
    "Address",
    "CONFIGURATION_GONE",
    "MAX_PLAN_BYTES",
    "ModuleStep",
    "Plan",
    "PlanError",
    "PlannedChange",
    "StateResource",
    "key_text",
    "parse_address",
    "read_plan",
    "to_val",
]
