#!/usr/bin/env python3
"""Where one kapsulint run's memory goes: resident memory by phase, the parse data by node kind,
and what judging adds by type.

    python benchmarks/memory.py DIR [--state cold|warm|first] [--census] [--json FILE]
                                    [--markdown FILE] [-- KAPSULINT ARGS...]

DIR is the project (kapsulint runs with it as its working directory, as ``bench.py`` runs it);
the arguments after ``--`` are kapsulint's (default ``--format json . --exit-zero``). The cache
state is the one ``profile.py`` names: ``cold`` (a cache directory emptied of everything but the
grammar cache), ``warm`` (filled by one untimed run; a results-cache replay holds no project)
or ``first`` (an empty directory).
In the warm state the child runs twice, the second run measured: the results cache keys a run by
where its code is found, and a script's directory is not the console script's.

Two runs, each a fresh interpreter:

* the console script as users run it, its peak resident memory summed over the process and its
  worker processes (sampled every 10 ms, as ``bench.py`` samples it): the figure issue 27 sets a
  target for;
* the same command in a child that reads ``VmRSS`` and ``VmHWM`` (the process's own peak) of
  ``/proc/self/status`` at the phase boundaries: the files loaded (``load_sources``), the model
  built (``Project.load``), after each rule whose run grew the resident set, after judging and
  at the end. Its workers are not counted there (see the first run). With ``--census`` it also
  walks every file's parse data once judging has finished, by node kind (spans, literals,
  attributes, lists...), and counts the objects the garbage collector tracks, by type, before
  and after judging: what the rules and the evaluation keep. The census costs time, never
  memory the figures above include (it runs after their last reading).

Nothing of this lands in the package: the child wraps kapsulint's functions from outside.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_ARGS = ["--format", "json", ".", "--exit-zero"]
RULE_GROWTH = 1024 * 1024  # a rule whose run grows the resident set by this much gets a row of its own
TOP_TYPES = 20


def status() -> tuple[int, int]:
    """This process's resident set and its peak so far (VmRSS, VmHWM), in bytes."""
    rss = hwm = 0
    with open("/proc/self/status", "rb") as handle:
        for line in handle:
            if line.startswith(b"VmRSS:"):
                rss = int(line.split()[1]) * 1024
            elif line.startswith(b"VmHWM:"):
                hwm = int(line.split()[1]) * 1024
    return rss, hwm


# --------------------------------------------------------------------------------------------
# The child: one kapsulint run in this interpreter
# --------------------------------------------------------------------------------------------


class Marks:
    """The readings of one run: (phase, seconds since the start, VmRSS, VmHWM)."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.rows: list[tuple[str, float, int, int]] = []

    def mark(self, phase: str) -> None:
        rss, hwm = status()
        self.rows.append((phase, time.perf_counter() - self.start, rss, hwm))


def plain_census(files) -> dict[str, tuple[int, int]]:
    """Bytes and objects of the parse data of ``files`` (SourceFile by path), by node kind: an
    expression or body node by its ``t`` (a dict without one by its first keys), spans (the
    ``p`` and ``span`` tuples), lists, other tuples, strings and the integers Python does not
    share. An object reached twice (a parse shared by files of the same content, an interned
    string) counts once."""
    seen: set[int] = set()
    found: dict[str, list[int]] = {}

    def add(kind: str, size: int) -> None:
        entry = found.setdefault(kind, [0, 0])
        entry[0] += size
        entry[1] += 1

    stack: list[tuple[object, bool]] = []
    for source in files.values():
        stack.append((source.data, False))
        stack.append((source.comments, False))
    while stack:
        item, in_span = stack.pop()
        if id(item) in seen or item is None or item is True or item is False:
            continue
        seen.add(id(item))
        size = sys.getsizeof(item)
        if isinstance(item, dict):
            kind = item.get("t")
            add(kind if isinstance(kind, str) else "dict of " + ",".join(sorted(map(str, item))[:3]), size)
            stack.extend((value, key in ("p", "span")) for key, value in item.items())
        elif isinstance(item, list):
            add("list", size)
            stack.extend((value, in_span) for value in item)
        elif isinstance(item, tuple):
            add("span" if in_span else "tuple", size)
            stack.extend((value, in_span) for value in item)
        elif isinstance(item, str):
            add("str", size)
        elif isinstance(item, int) and not -5 <= item <= 256:
            add("int", size)
        elif not isinstance(item, int):
            add(type(item).__name__, size)
    return {kind: (size, count) for kind, (size, count) in found.items()}


def type_census() -> dict[str, tuple[int, int]]:
    """Bytes and count of the objects the garbage collector tracks, by type name (an instance's
    ``__dict__`` counted with it)."""
    import gc

    found: dict[str, list[int]] = {}
    for item in gc.get_objects():
        size = sys.getsizeof(item)
        attributes = getattr(item, "__dict__", None) if not isinstance(item, type) else None
        if type(attributes) is dict:
            size += sys.getsizeof(attributes)
        entry = found.setdefault(type(item).__name__, [0, 0])
        entry[0] += size
        entry[1] += 1
    return {name: (size, count) for name, (size, count) in found.items()}


def child(out: Path, census: bool, kapsulint_args: list[str]) -> None:
    """One run of the command in this process; its readings written to ``out`` as JSON."""
    import gc

    gc.disable()  # as kapsulint's console script does
    marks = Marks()
    marks.mark("interpreter started")
    import kapsulint.lint.runner as runner
    import kapsulint.model.project as project_module

    marks.mark("lint modules imported")
    seen: dict[str, object] = {"project": None, "before judging": None}
    load_sources, load, judge = project_module.load_sources, project_module.Project.load, runner._judge

    def timed_load_sources(*args, **kwargs):
        loaded = load_sources(*args, **kwargs)
        marks.mark(f"files loaded ({len(loaded.sources)} files)")
        return loaded

    def timed_load(self, *args, **kwargs):
        built = load(self, *args, **kwargs)
        marks.mark("model built (Project.load)")
        return built

    def timed_judge(project, settings, *args, **kwargs):  # once per group of a lint by parts
        seen["project"] = project
        if census:
            seen["before judging"] = type_census()
        rules = list(settings.rules)
        settings.rules[:] = [rule if rule.check is None else rule._replace(check=_watched(rule, marks))
                             for rule in rules]
        try:
            result = judge(project, settings, *args, **kwargs)
        finally:
            settings.rules[:] = rules
        marks.mark("judged (every rule, suppressions, filters)")
        return result

    project_module.load_sources = timed_load_sources
    project_module.Project.load = timed_load
    runner._judge = timed_judge
    for stream in (sys.stdout, sys.stderr):  # as the console script: the results cache keys its runs by their streams
        stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]
    from kapsulint.cli.command import program

    program(kapsulint_args)  # the report goes to the parent's DEVNULL
    sys.stdout.flush()
    marks.mark("report written")
    result: dict[str, object] = {"marks": marks.rows, "project": seen["project"] is not None}
    if census and seen["project"] is not None:
        after = type_census()
        before = seen["before judging"] or {}
        result["judging_by_type"] = {name: (size - before.get(name, (0, 0))[0], count - before.get(name, (0, 0))[1])
                                     for name, (size, count) in after.items()}
        result["parse_data"] = plain_census(seen["project"].files)  # type: ignore[attr-defined]
    out.write_text(json.dumps(result), encoding="utf-8")


def _watched(rule, marks: Marks):
    """``rule.check`` marking the resident set after it when it grew it by RULE_GROWTH or more."""
    check = rule.check

    def watched(project):
        before = status()[0]
        produced = list(check(project))
        if status()[0] - before >= RULE_GROWTH:
            marks.mark(f"after rule {rule.id}")
        return produced

    return watched


# --------------------------------------------------------------------------------------------
# The parent: the cache state, the two runs, the report
# --------------------------------------------------------------------------------------------


def _bench():
    """bench.py, for clearing a cache directory and sampling a process tree's memory."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("kapsulint_bench", HERE / "bench.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def _env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, KAPSULINT_CACHE_DIR=str(cache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as bench.py: an installed package has its bytecode
    return env


def _prepare(bench, state: str, cache: Path, project: Path, kapsulint: str, kapsulint_args: list[str]) -> None:
    """The cache directory in ``state`` before a measured run."""
    if state == "first":
        shutil.rmtree(cache, ignore_errors=True)
        cache.mkdir()
        return
    if not any(cache.iterdir()):  # one untimed run: the grammar cache (cold), everything (warm)
        subprocess.run([kapsulint, *kapsulint_args], cwd=project, env=_env(cache), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    if state == "cold":
        bench.clear_parse_cache(cache)


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.1f}"


def report(project: Path, state: str, kapsulint_args: list[str], peak: int, seconds: float, measured: dict) -> str:
    lines = [f"# Memory of `kapsulint {' '.join(kapsulint_args)}` in {project}", "",
             f"Cache state: {state}. Peak resident memory of the console script, summed over the process "
             f"and its worker processes: **{_megabytes(peak)} MB** ({seconds:.2f} s).", "",
             "## Resident memory of the run's own process, by phase", "",
             "| phase | seconds | VmRSS MB | VmHWM MB |", "|---|---:|---:|---:|"]
    for phase, at, rss, hwm in measured["marks"]:
        lines.append(f"| {phase} | {at:.2f} | {_megabytes(rss)} | {_megabytes(hwm)} |")
    if not measured["project"]:
        lines += ["", "No project was built (the results cache replayed the run)."]
    data = measured.get("parse_data")
    if data:
        total = sum(size for size, _ in data.values())
        lines += ["", f"## Parse data held at the end of judging: {_megabytes(total)} MB", "",
                  "| node kind | MB | objects | share |", "|---|---:|---:|---:|"]
        for kind, (size, count) in sorted(data.items(), key=lambda item: -item[1][0]):
            lines.append(f"| {kind} | {_megabytes(size)} | {count} | {size / total:.0%} |")
    grown = measured.get("judging_by_type")
    if grown:
        top = sorted(grown.items(), key=lambda item: -item[1][0])[:TOP_TYPES]
        lines += ["", f"## What judging added, by type (objects the garbage collector tracks, top {TOP_TYPES})", "",
                  "| type | MB | objects |", "|---|---:|---:|"]
        lines += [f"| {name} | {_megabytes(size)} | {count} |" for name, (size, count) in top if size > 0]
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    own, kapsulint_args = (raw[: raw.index("--")], raw[raw.index("--") + 1:]) if "--" in raw else (raw, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", nargs="?", type=Path, help="the project directory (the run's working directory)")
    parser.add_argument("--state", choices=["cold", "warm", "first"], default="cold",
                        help="the cache state of the measured runs (default cold)")
    parser.add_argument("--census", action="store_true",
                        help="also count the parse data by node kind and what judging adds by type (slower)")
    parser.add_argument("--json", type=Path, help="also write the readings as JSON to this file")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    parser.add_argument("--kapsulint", help="the kapsulint executable (default: the one beside this Python)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(own)
    kapsulint_args = kapsulint_args or DEFAULT_ARGS
    if args.child:
        child(args.out, args.census, kapsulint_args)
        return 0
    if args.project is None or not args.project.is_dir():
        parser.error("the project directory is required")
    project = args.project.resolve()
    kapsulint = args.kapsulint or str(Path(sys.executable).with_name("kapsulint"))
    bench = _bench()
    with tempfile.TemporaryDirectory(prefix="kapsulint-memory-") as work:
        cache, out = Path(work) / "cache", Path(work) / "child.json"
        cache.mkdir()
        _prepare(bench, args.state, cache, project, kapsulint, kapsulint_args)
        ran = bench.run_command([kapsulint, *kapsulint_args], env=_env(cache), sample_memory=True, cwd=project,
                                ok_codes=(0, 1, 2))
        _prepare(bench, args.state, cache, project, kapsulint, kapsulint_args)
        command = [sys.executable, str(Path(__file__).resolve()), "--child", "--out", str(out),
                   *(["--census"] if args.census else []), "--", *kapsulint_args]
        for _ in range(2 if args.state == "warm" else 1):  # warm: the child's own run recorded first (the
            # results cache keys a run by where its code is found, which differs from the console script's)
            proc = subprocess.run(command, cwd=project, env=_env(cache), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, check=False)
        if proc.returncode != 0 or not out.exists():
            sys.exit(f"memory.py: the measured run failed ({proc.returncode}):\n"
                     f"{proc.stderr.decode(errors='replace')[-3000:]}")
        measured = json.loads(out.read_text(encoding="utf-8"))
    measured["peak"], measured["seconds"] = ran.peak, ran.seconds
    text = report(project, args.state, kapsulint_args, ran.peak or 0, ran.seconds, measured)
    print(text)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(measured, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
