"""Which chart a release installs, or a values file is written for, among every chart module.

The charts are the ``CHART`` of every module of this package (but this one and modules whose name
starts with ``_``), found once, in module name order: adding a controller adds no line here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import kapsulint.kapsule.charts as package
from kapsulint.kapsule.charts import Chart, Path
from kapsulint.text import lazy_pattern

__all__ = ["charts", "controller_for_chart", "controller_from_values_keys", "controller_from_values", "values_paths"]


@cache
def charts() -> tuple[Chart, ...]:
    """Every chart kapsulint knows."""
    found = []
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda info: info.name):
        if info.name == "registry" or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        chart = getattr(module, "CHART", None)
        if not isinstance(chart, Chart):
            raise TypeError(f"{module.__name__} defines no CHART (a Chart)")
        found.append(chart)
    return tuple(found)


_VERSION_SUFFIX = lazy_pattern(r"-v?\d+\.\d+\.\d+[^/]*$")


def _chart_basename(chart: str) -> tuple[str, str | None]:
    """(chart name, repository alias or URL part) from a ``chart`` argument."""
    c = chart.strip().lower().rstrip("/")
    alias: str | None = None
    if "://" in c:
        alias = c.rsplit("/", 1)[0]
        c = c.rsplit("/", 1)[-1]
        if c.endswith(".tgz"):
            c = _VERSION_SUFFIX.sub("", c[: -len(".tgz")])
    elif "/" in c:
        alias, c = c.rsplit("/", 1)
        if c.endswith(".tgz"):
            c = _VERSION_SUFFIX.sub("", c[: -len(".tgz")])
    return c, alias


def _repository_chart(repository: str | None) -> Chart | None:
    if not repository:
        return None
    return next((chart for chart in charts() if chart.from_repository(repository)), None)


def controller_for_chart(chart: str | None, repository: str | None = None) -> Chart | None:
    """Which ingress controller chart a ``helm_release`` installs, from ``chart``/``repository``.

    The chart name decides; it may be written bare, as ``alias/name``, as an ``oci://`` reference
    or as a ``.tgz`` URL. A repository URL that belongs to another known chart makes the answer
    None (conflicting evidence); an unknown repository (a mirror) does not. Other charts of a known
    repository (CRD charts...) give None.
    """
    if not chart:
        return None
    name, alias = _chart_basename(chart)
    by_name = [c for c in charts() if name in c.chart_names]
    if len(by_name) != 1:
        return None
    found = by_name[0]
    for hint in (repository, alias):
        other = _repository_chart(hint)
        if other is not None and other is not found:
            return None
    return found


def values_paths(values: Mapping[str, Any]) -> set[Path]:
    """Every key path of a nested mapping (maps only; lists are leaves)."""
    out: set[Path] = set()
    stack: list[tuple[Path, Mapping[str, Any]]] = [((), values)]
    while stack:
        prefix, node = stack.pop()
        for k, v in node.items():
            if not isinstance(k, str):
                continue
            p = prefix + (k,)
            out.add(p)
            if isinstance(v, Mapping):
                stack.append((p, v))
    return out


def controller_from_values_keys(paths: Iterable[Path]) -> Chart | None:
    """The chart whose chart-specific keys appear in ``paths``, else None.

    A path matches an identifying path when it starts with it. None when no chart's keys appear,
    or when several charts' keys do.
    """
    prefixes = {tuple(p)[:n] for p in paths for n in range(1, len(tuple(p)) + 1)}
    hits = [chart for chart in charts() if not prefixes.isdisjoint(chart.identifying_paths)]
    return hits[0] if len(hits) == 1 else None


def controller_from_values(values: Mapping[str, Any]) -> Chart | None:
    """:func:`controller_from_values_keys` applied to a nested values mapping."""
    return controller_from_values_keys(values_paths(values))
