"""Helm values documents combined as Helm combines them: coalescing (maps merge deeply, a null
deletes a key, anything else replaces) and ``--set``-style paths, every value keeping where it is
written. Shared by every source of a release's values (``helm_release``, Argo CD, Flux,
helmfile). Sources: https://helm.sh/docs/chart_template_guide/values_files/,
https://github.com/helm/helm/blob/v3.17.0/pkg/chartutil/coalesce.go.
"""

from __future__ import annotations

from kapsulint.api import UNKNOWN, Loc, Val
from kapsulint.kapsule import strvals


def merge(base: Val, override: Val) -> Val:
    """Helm's coalescing of two values documents: maps merge, anything else replaces."""
    if not override.known:
        return Val({}, base.loc, keylocs={}, open=True)
    if not base.is_object or not override.is_object:
        return override
    result = dict(base.raw)
    keylocs = dict(base.keylocs or {})
    for key, value in override.items():
        if value.raw is None:
            result.pop(key, None)
            continue
        if key in result and result[key].is_object and value.is_object:
            result[key] = merge(result[key], value)
        else:
            result[key] = value
        key_loc = override.key_loc(key)
        if key_loc is not None:
            keylocs[key] = key_loc
    return Val(result, base.loc, keylocs=keylocs, open=base.open or override.open)


class _Container:
    """A copy of one container on a ``set`` entry's path, filled before its value is made."""

    __slots__ = ("keylocs", "loc", "open", "raw")

    def __init__(self, raw: dict[str, Val] | list[Val], loc: Loc | None, keylocs: dict[str, Loc] | None,
                 open: bool) -> None:
        self.raw = raw
        self.loc = loc
        self.keylocs = keylocs
        self.open = open

    @classmethod
    def copy_of(cls, child: Val, next_step: strvals.Step, loc: Loc | None) -> _Container:
        if isinstance(next_step, int):
            return cls(list(child.raw) if child.is_list else [], child.loc or loc, None, False)
        if child.is_object:
            return cls(dict(child.raw), child.loc, dict(child.keylocs or {}), child.open)
        return cls({}, loc, {}, False)

    def value(self) -> Val:
        return Val(self.raw, self.loc, keylocs=self.keylocs, open=self.open)


def apply_set(values: Val, path: tuple[strvals.Step, ...], value: Val, name_loc: Loc | None) -> Val:
    """``values`` with ``path`` (map keys and list indexes) set to ``value``: the containers on the
    path are copies, ``values`` itself is left as it was."""
    if not path:
        return values
    containers = [_Container(dict(values.raw) if values.is_object else {}, values.loc, dict(values.keylocs or {}),
                             values.open)]
    for position, step in enumerate(path):
        current = containers[-1]
        last = position == len(path) - 1
        if isinstance(step, int):
            if not isinstance(current.raw, list):
                current.raw = []
            while len(current.raw) <= step:
                current.raw.append(Val(None, name_loc))
            if not last:
                containers.append(_Container.copy_of(current.raw[step], path[position + 1], name_loc))
            continue
        if not isinstance(current.raw, dict):
            current.raw, current.keylocs = {}, {}
        if last:
            if name_loc is not None:
                current.keylocs = current.keylocs or {}
                current.keylocs[step] = name_loc
        else:
            containers.append(_Container.copy_of(current.raw.get(step, Val(None, name_loc)), path[position + 1],
                                                 name_loc))
            if current.keylocs is not None and name_loc is not None:
                current.keylocs.setdefault(step, name_loc)
    built = value
    for container, step in zip(reversed(containers), reversed(path)):  # the innermost first
        if isinstance(container.raw, list):  # a list's index or a map's key, as the walk down made it
            assert isinstance(step, int)
            container.raw[step] = built
        else:
            container.raw[str(step)] = built
        built = container.value()
    return built


def set_line(values: Val, name: str, value: Val, *, as_string: bool = False, name_loc: Loc | None = None) -> Val:
    """``values`` with one ``--set name=value`` entry applied (``--set-string`` with
    ``as_string``), as Helm's strvals reads it, each value read located where ``value`` is
    written. An Unknown value is set as it is at the path the name gives; a line strvals refuses
    leaves the values open (Unknown keys)."""
    opened = Val(values.raw, values.loc, keylocs=values.keylocs, open=True) if values.is_object else \
        Val({}, values.loc, keylocs={}, open=True)
    written = value.text() if value.known and value.raw is not None and not (value.is_object or value.is_list) \
        else None
    if written is None:
        named = strvals.parse(f"{name}=")
        if named is None or len(named) != 1:
            return opened
        return apply_set(values, named[0].path, Val(UNKNOWN, value.loc), name_loc)
    assignments = strvals.parse(f"{name}={written}", as_string=as_string)
    if assignments is None:
        return opened
    for assignment in assignments:
        read = assignment.value
        if read == written and isinstance(read, str):
            located = value
        elif isinstance(read, list):
            located = Val([Val(item, value.loc) for item in read], value.loc)
        else:
            located = Val(read, value.loc)
        if value.contains_sensitive():
            located = located.with_sensitive()
        values = apply_set(values, assignment.path, located, name_loc)
    return values
