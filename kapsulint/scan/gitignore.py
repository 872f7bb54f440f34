"""``.gitignore`` rules, which decide what is reported (never what is read: ignored tfvars and
``.terraform/modules`` still count for evaluation)."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from kapsulint.boundary import Boundary
from kapsulint.scan.discovery import relative_path


def _pattern_regex(pattern: str) -> re.Pattern:
    """A gitignore glob as a regex over a path relative to the .gitignore's directory."""
    anchored = "/" in pattern.rstrip("/")
    pattern = pattern.strip("/")
    parts = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index):
            parts.append("(?:.*/)?")
            index += 3
            continue
        if pattern.startswith("/**", index) and index + 3 == len(pattern):
            parts.append("/.*")
            index += 3
            continue
        if char == "*":
            parts.append("[^/]*")
        elif char == "?":
            parts.append("[^/]")
        elif char == "[":
            close = pattern.find("]", index)
            if close < 0:
                parts.append(re.escape(char))
            else:
                parts.append(pattern[index : close + 1].replace("[!", "[^"))
                index = close
        else:
            parts.append(re.escape(char))
        index += 1
    body = "".join(parts)
    prefix = "" if anchored else "(?:.*/)?"
    return re.compile(f"^{prefix}{body}(?:/.*)?$")


class GitIgnore:
    """The .gitignore files of a tree, read lazily; only explicit patterns, no global excludes."""

    def __init__(self, root: Path, boundary: Boundary) -> None:
        self.root = root
        self.boundary = boundary  # a .gitignore is read inside the repository only
        self._real_root: str | None = None
        self._root = str(root)

    @cache  # noqa: B019 (one instance per run, which the cache must not outlive anyway)
    def _rules(self, directory: str) -> tuple[tuple[re.Pattern, bool, bool], ...]:
        try:
            data = self.boundary.read(os.path.join(directory, ".gitignore"))
        except OSError:
            return ()
        if data is None:
            return ()
        lines = data.decode("utf-8", errors="replace").splitlines()
        rules = []
        for line in lines:
            line = line.rstrip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            try:
                regex = _pattern_regex(line)
            except re.error:  # a bracket expression Python cannot read (``[z-a]``): git matches nothing with it
                continue
            rules.append((regex, negated, line.endswith("/")))
        return tuple(rules)

    def ignored(self, path: str) -> bool:
        """Whether ``path`` (a file under root) is ignored; the deepest matching rule wins."""
        try:
            relative = relative_path(path, self._root)  # relpath: of the absolute paths
            if relative == os.pardir or relative.startswith(os.pardir + os.sep):
                # not below root as written: perhaps through a link to the root (macOS /var, /private/var)
                if self._real_root is None:
                    self._real_root = os.path.realpath(self.root)
                relative = os.path.relpath(os.path.realpath(path), self._real_root)
        except (ValueError, OSError):
            return False
        if relative == os.curdir or relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return False
        verdict = False
        directory = str(self.root)
        parts = relative.split(os.sep)
        for depth in range(len(parts)):
            rules = self._rules(directory)
            if rules:
                rest = "/".join(parts[depth:])
                for regex, negated, only_dirs in rules:
                    target = rest if not only_dirs else "/".join(parts[depth:-1])
                    if target and regex.match(target):
                        verdict = not negated
            directory = os.path.join(directory, parts[depth]) if directory != os.curdir else parts[depth]  # as Path's /
        return verdict
