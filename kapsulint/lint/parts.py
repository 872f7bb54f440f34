"""How a lint by parts splits a large project: the root module trees that share nothing are judged
apart, a few at a time, each group's model freed before the next is built, so that the memory of a
run follows the largest group instead of the whole project.

A part is what judges apart (the language server's partition has the same notion): the root module
trees that share a module, with the files of their modules. Which trees share a module is known
before any model is built, from the ``source`` of every module call (Terraform takes only a
constant there), read by :meth:`kapsulint.model.project.Project.survey`: a top-level module is a
module directory no local call names, and its tree is every module directory its local calls reach.
A file that is not configuration (``tfvars``, a lock file, a values file) belongs to the module
directory nearest above it; the files under no module directory, and the files a group read but
none of its trees holds, are judged last, together, as the rest.

This is a plan, not a proof: what the model finds when it judges each group is checked against it
(:class:`Claims`), and the runner judges the whole project instead as soon as a check fails, so
the findings are always those of a lint of the whole.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from kapsulint.model.modules import is_local_source
from kapsulint.model.project import Survey
from kapsulint.scan.parallel import File

MIN_BYTES = 4 * 1024 * 1024
"""Projects that read fewer bytes are judged whole: their model fits in memory anyway, and a lint
by parts costs a survey and a model per group."""
UNIT_BYTES = 1024 * 1024
"""What a group of parts reads at most (a larger part is a group alone)."""
MIN_GROUPS = 2
"""Projects whose parts make fewer groups are judged whole."""


class Unit(NamedTuple):
    """What one lint of a group judges: its top-level modules, the module directories their calls
    reach, and the other files that belong to those directories (or, for the rest, the files no
    group holds); ``weight`` is the bytes they read."""

    tops: frozenset[str]
    directories: frozenset[str]
    files: frozenset[str]
    weight: int = 0


class Plan(NamedTuple):
    units: list[Unit]
    rest: frozenset[str]  # the files under no module directory of a part


def plan(survey: Survey, unit_bytes: int) -> Plan | None:
    """The groups a lint by parts judges, lightest first, each reading at most ``unit_bytes``
    unless a part alone reads more (those come last: a run judges them once nothing else runs
    beside it); None when the module calls leave a module directory out of every tree (a cycle),
    so that only a lint of the whole judges it."""
    config_bytes: dict[str, int] = {}
    for path, kind in survey.entries:
        if kind == "config":
            directory = os.path.dirname(path)
            config_bytes[directory] = config_bytes.get(directory, 0) + survey.sizes.get(path, 0)
    modules = sorted(config_bytes)
    targets: dict[str, set[str]] = {}
    for path, sources in (survey.calls or {}).items():
        directory = os.path.dirname(path)
        targets.setdefault(directory, set()).update(
            os.path.normpath(os.path.join(directory, source)) for source in sources if is_local_source(source))
    called = set().union(*targets.values())
    trees: dict[str, frozenset[str]] = {}
    for top in (directory for directory in modules if directory not in called):
        tree: set[str] = set()
        pending = [top]
        while pending:
            directory = pending.pop()
            if directory not in tree:
                tree.add(directory)
                pending.extend(targets.get(directory, ()))
        trees[top] = frozenset(tree)
    if not set(config_bytes) <= set().union(*trees.values()):
        return None
    groups = sharing(trees)
    group_of = {directory: index for index, group in enumerate(groups) for top in group for directory in trees[top]}
    owned: list[list[str]] = [[] for _ in groups]
    rest: list[str] = []
    nearest: dict[str, str | None] = {}
    for path in _paths(survey):
        if survey.discovered.files.get(path) == "config":
            continue  # held through its module directory
        owner = _nearest_module(os.path.dirname(path), config_bytes, nearest)
        (rest if owner is None else owned[group_of[owner]]).append(path)
    units: list[Unit] = []
    tops: set[str] = set()
    directories: set[str] = set()
    files: set[str] = set()
    size = 0
    for index, group in enumerate(groups):
        reached = frozenset().union(*(trees[top] for top in group))
        weight = sum(config_bytes.get(directory, 0) for directory in reached)
        weight += sum(survey.sizes.get(path, 0) for path in owned[index])
        if tops and size + weight > unit_bytes:  # a group never grows past the bound, a part may
            units.append(Unit(frozenset(tops), frozenset(directories), frozenset(files), size))
            tops, directories, files, size = set(), set(), set(), 0
        tops.update(group)
        directories |= reached
        files.update(owned[index])
        size += weight
    if tops:
        units.append(Unit(frozenset(tops), frozenset(directories), frozenset(files), size))
    units.sort(key=lambda unit: unit.weight)
    return Plan(units, frozenset(rest))


def segments(plan: Plan, files: Iterable[File]) -> list[list[File]]:
    """``files`` in the order a lint by parts judges them: those of each group of ``plan``, in its
    order, then the others (the rest's)."""
    group_of: dict[str, int] = {}
    for index, unit in enumerate(plan.units):
        group_of.update(dict.fromkeys(unit.directories, index))
        group_of.update(dict.fromkeys(unit.files, index))
    ordered: list[list[File]] = [[] for _ in range(len(plan.units) + 1)]
    for file in files:
        path = file[0]
        index = group_of.get(path, group_of.get(os.path.dirname(path), len(plan.units)))
        ordered[index].append(file)
    return ordered


def _paths(survey: Survey) -> list[str]:
    """Every path discovery found (what a scope restricts): the files, the template sources left
    out, the links not followed and the other YAML files."""
    found = survey.discovered
    return [*found.files, *(path for path, _ in found.templates), *(item.path for item in found.not_followed),
            *found.yaml_candidates]


def _nearest_module(directory: str, modules: dict[str, int], nearest: dict[str, str | None]) -> str | None:
    """The module directory ``directory`` is, or lies under most closely; None under none."""
    walked = []
    found: str | None = None
    while True:
        if directory in nearest:
            found = nearest[directory]
            break
        walked.append(directory)
        if directory in modules:
            found = directory
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    for each in walked:
        nearest[each] = found
    return found


def sharing(held: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The top-level modules grouped so that two whose trees hold one item (a module directory, a
    file) are in one group, each group in the order of its first top."""
    group_of: dict[str, str] = {top: top for top in held}

    def find(top: str) -> str:
        while group_of[top] != top:
            group_of[top] = group_of[group_of[top]]
            top = group_of[top]
        return top

    first_holder: dict[str, str] = {}
    for top in sorted(held):
        for item in held[top]:
            holder = first_holder.setdefault(item, top)
            if holder != top:
                group_of[find(top)] = find(holder)
    groups: dict[str, list[str]] = {}
    for top in sorted(held):
        groups.setdefault(find(top), []).append(top)
    return list(groups.values())


class Claims:
    """What the groups judged so far hold, to check each group's model against the plan: each
    module directory and file in one tree of one group only, and each finding in a file its group
    holds. A check that fails means the plan was wrong; the lint of the whole then decides."""

    directories: set[str]
    files: set[str]
    untreed: set[str]  # files some group read that none of its trees holds: the rest's
    last: tuple[frozenset[str], frozenset[str]]  # the directories and files of the last group claimed

    def __init__(self) -> None:
        self.directories = set()
        self.files = set()
        self.untreed = set()
        self.last = (frozenset(), frozenset())

    def holds(self, path: str) -> bool:
        return path in self.files or path in self.directories or os.path.dirname(path) in self.directories

    def owned(self, path: str, group: bool) -> bool:
        """Whether ``path`` is judged by the last group claimed (``group``), or by the rest: a
        file of its trees, or one no group holds."""
        if not group:
            return not self.holds(path)
        directories, files = self.last
        return path in files or path in directories or os.path.dirname(path) in directories

    def claim(self, unit: Unit, trees: dict[str, tuple[frozenset[str], frozenset[str]]],
              untreed: list[str]) -> bool:
        """Record a group's trees (:meth:`Project.tree_files`) and the files it read that no tree
        holds; False when the trees are not the plan's or reach what another group holds."""
        if set(trees) != unit.tops:
            return False
        directories = frozenset().union(*(tree for tree, _ in trees.values()))
        files = frozenset().union(*(held for _, held in trees.values()))
        if not directories.isdisjoint(self.directories) or not files.isdisjoint(self.files):
            return False
        self.directories |= directories
        self.files |= files
        self.untreed.update(untreed)
        self.last = (directories, files)
        return True
