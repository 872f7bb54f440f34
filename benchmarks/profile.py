#!/usr/bin/env python3
"""Where one kapsulint run's time goes: a table of phases, then cProfile's top entries.

    python benchmarks/profile.py DIR [--state warm|cold|first|edited] [--cache-dir CACHE]
                                     [--edit FILE] [--top 25] [--runs 1] [-- KAPSULINT ARGS...]

DIR is the project (kapsulint runs with it as its working directory, as ``bench.py`` runs it);
the arguments after ``--`` are kapsulint's (default ``--format json . --exit-zero``). The cache
state of the measured run:

* ``warm``: a cache directory filled by one untimed run;
* ``cold``: the same, emptied of everything but the grammar cache before each run;
* ``first``: an empty cache directory before each run;
* ``edited``: warm, then one ``.tf`` file changed before each run (``--edit FILE``, default the
  middle one in path order), restored after it, as bench.py's "warm after one edit";
* ``--cache-dir CACHE``: that directory, as it is (the state is not touched).

Each measured run is a fresh interpreter (``--child``), so that imports count as they do for a
user. The phase run wraps kapsulint's own functions from outside, by replacing them on their
module or class when the module is imported (nothing of this lands in the package): the time of
a call counts for the innermost phase it is in, so every phase is exclusive of the ones inside it
(the imports made during discovery count as imports). A second run, not wrapped, runs under
cProfile for the top entries by ``tottime``. Workers that parse cache misses in parallel are
other processes: the parent's wait for them is the "parsing" phase, and cProfile does not see
their work.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_ARGS = ["--format", "json", ".", "--exit-zero"]

# (module, function or Class.method, phase): the entry points a run goes through. A name missing
# from the package (renamed, or a module not imported by this run) is listed under the table.
WRAPPED = [
    ("kapsulint.lint.registry", "all_rules", "rule registry"),
    ("kapsulint.scan.discovery", "discover", "discovery"),
    ("kapsulint.model.project", "Project._documents_by_content", "discovery"),
    ("kapsulint.scan.loader", "load_sources", "cache reads and decoding"),
    ("kapsulint.scan.cache", "ParseCache.lookup", "cache reads and decoding"),
    ("kapsulint.scan.loader", "parse_all", "parsing (cache misses)"),
    ("kapsulint.scan.cache", "ParseCache.flush", "cache writes"),
    ("kapsulint.model.project", "Project.__init__", "model build"),
    ("kapsulint.model.project", "Project.load", "model build"),
    ("kapsulint.model.instances", "ModuleInstance.resource_instances", "instances (count, for_each, calls)"),
    ("kapsulint.model.instances", "ModuleInstance.child_instances", "instances (count, for_each, calls)"),
    ("kapsulint.terraform.evaluate", "Evaluator.eval", "evaluation"),
    ("kapsulint.terraform.evaluate", "Evaluator.eval_strict", "evaluation"),
    ("kapsulint.model.plan", "read_plan", "plan reading"),
    ("kapsulint.model.project", "Project.plan_binding", "plan binding"),
    ("kapsulint.lint.runner", "_judge", "judging (suppressions, filters, masking)"),
    ("kapsulint.lint.runner", "_engine_findings", "engine findings (KAP0xx)"),
    ("kapsulint.reporters", "render", "reporting"),
]
RULE_PREFIX = "kapsulint.rules.kap"  # every rule module's check(): "rules and domain"
PHASE_ORDER = ["imports", "command line and settings", "rule registry", "discovery", "cache reads and decoding",
               "parsing (cache misses)", "cache writes", "model build", "instances (count, for_each, calls)",
               "evaluation", "rules and domain", "engine findings (KAP0xx)",
               "judging (suppressions, filters, masking)", "plan reading", "plan binding", "reporting"]


# --------------------------------------------------------------------------------------------
# The child: one kapsulint run in this interpreter
# --------------------------------------------------------------------------------------------


class Phases:
    """Exclusive time per phase: a stack of phases, the clock charged to the innermost one."""

    def __init__(self, base: str) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.stack = [base]
        self.mark = time.perf_counter()

    def enter(self, phase: str) -> None:
        now = time.perf_counter()
        top = self.stack[-1]
        self.seconds[top] = self.seconds.get(top, 0.0) + now - self.mark
        self.stack.append(phase)
        self.calls[phase] = self.calls.get(phase, 0) + 1
        self.mark = now

    def leave(self) -> None:
        now = time.perf_counter()
        top = self.stack.pop()
        self.seconds[top] = self.seconds.get(top, 0.0) + now - self.mark
        self.mark = now

    def close(self) -> None:
        while self.stack:
            self.leave()

    def timed(self, function, phase: str):
        """``function`` charging its time to ``phase``; a generator function per resumption."""
        import functools
        import inspect

        if inspect.isgeneratorfunction(function):
            @functools.wraps(function)
            def timed_generator(*args, **kwargs):
                generator = function(*args, **kwargs)
                while True:
                    self.enter(phase)
                    try:
                        item = next(generator)
                    except StopIteration as stop:
                        return stop.value
                    finally:
                        self.leave()
                    yield item
            return timed_generator

        @functools.wraps(function)
        def timed_call(*args, **kwargs):
            if self.stack[-1] == phase:  # a recursive call: already charged
                return function(*args, **kwargs)
            self.enter(phase)
            try:
                return function(*args, **kwargs)
            finally:
                self.leave()
        return timed_call


def _patch(module, dotted: str, phases: Phases, phase: str) -> bool:
    owner = module
    *path, name = dotted.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            return False
    raw = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if raw is None:
        return False
    if isinstance(raw, staticmethod):
        setattr(owner, name, staticmethod(phases.timed(raw.__func__, phase)))
    elif isinstance(raw, classmethod):
        setattr(owner, name, classmethod(phases.timed(raw.__func__, phase)))
    elif callable(raw):
        setattr(owner, name, phases.timed(raw, phase))
    else:
        return False
    return True


def install(phases: Phases) -> set[str]:
    """Wrap the entry points of WRAPPED as their modules are imported, and charge imports to
    "imports"; returns the set the run fills with what was wrapped."""
    import importlib._bootstrap as bootstrap

    wanted: dict[str, list[tuple[str, str]]] = {}
    for module_name, dotted, phase in WRAPPED:
        wanted.setdefault(module_name, []).append((dotted, phase))
    done: set[str] = set()
    original = bootstrap._find_and_load

    def after_load(name: str) -> None:
        module = sys.modules.get(name)
        if module is None:
            return
        for dotted, phase in wanted.pop(name, ()):
            if _patch(module, dotted, phases, phase):
                done.add(f"{name}.{dotted}")
        if name.startswith(RULE_PREFIX) and name not in done and _patch(module, "check", phases, "rules and domain"):
            done.add(name)

    def find_and_load(name, import_):
        if phases.stack[-1] == "imports":
            module = original(name, import_)
        else:
            phases.enter("imports")
            try:
                module = original(name, import_)
            finally:
                phases.leave()
        after_load(name)
        return module

    bootstrap._find_and_load = find_and_load
    return done


def child(mode: str, out: Path, kapsulint_args: list[str]) -> None:
    """One run of kapsulint in this process; what it measured is written to ``out`` as JSON
    (phases) or pstats (cprofile)."""
    import gc

    devnull = open(os.devnull, "w")  # noqa: SIM115 (the report goes nowhere until the process ends)
    sys.argv = ["kapsulint", *kapsulint_args]
    start = time.perf_counter()
    phases = profiler = None
    if mode == "phases":
        phases = Phases("command line and settings")
        wrapped = install(phases)
    else:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    stdout, sys.stdout = sys.stdout, devnull
    try:
        gc.disable()  # as kapsulint's console script does
        from kapsulint.cli.command import main

        main()
    except SystemExit:
        pass
    finally:
        sys.stdout = stdout
    took = time.perf_counter() - start
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(out))
        return
    phases.close()
    missing = [f"{m}.{d}" for m, d, _ in WRAPPED if f"{m}.{d}" not in wrapped]
    out.write_text(json.dumps({"seconds": phases.seconds, "calls": phases.calls, "in_process": took,
                               "not_wrapped": missing}), encoding="utf-8")


# --------------------------------------------------------------------------------------------
# The parent: cache states, child runs, the report
# --------------------------------------------------------------------------------------------


def _bench():
    """bench.py, for clearing a cache directory and for its one-file edit."""
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


def _run_child(mode: str, project: Path, cache: Path, out: Path, kapsulint_args: list[str]) -> float:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", mode, "--out", str(out), "--", *kapsulint_args]
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=project, env=_env(cache), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"profile.py: the measured run failed ({proc.returncode}):\n{proc.stderr.decode(errors='replace')[-3000:]}")
    return took


def _interpreter_start(runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _middle_tf(project: Path) -> Path:
    files = sorted(p for p in project.rglob("*.tf") if not {".terraform", ".git"} & set(p.relative_to(project).parts))
    if not files:
        sys.exit(f"profile.py: no .tf file under {project} to edit")
    return files[len(files) // 2]


def _top_entries(stats_path: Path, top: int, sort: str) -> str:
    import io
    import pstats

    text = io.StringIO()
    stats = pstats.Stats(str(stats_path), stream=text)
    stats.strip_dirs().sort_stats(sort).print_stats(top)
    lines = text.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    total = next((line.strip() for line in lines if "function calls" in line), "")
    return "\n".join([total, ""] + lines[start:]).rstrip()


def report(project: Path, state: str, kapsulint_args: list[str], measured: list[dict], walls: list[float],
           interpreter: float, top_text: str, top: int, sort: str) -> str:
    seconds: dict[str, float] = {}
    for phase in {p for m in measured for p in m["seconds"]}:
        seconds[phase] = statistics.median(m["seconds"].get(phase, 0.0) for m in measured)
    calls = measured[0]["calls"]
    wall = statistics.median(walls)
    in_process = statistics.median(m["in_process"] for m in measured)
    outside = wall - interpreter - in_process
    lines = [f"# Profile of `kapsulint {' '.join(kapsulint_args)}` in {project}", "",
             f"Cache state: {state}; {len(measured)} run(s) of the phase timer (medians), one under cProfile.", "",
             "| phase | seconds | share of the wall time | wrapped calls |", "|---|---:|---:|---:|",
             f"| interpreter start (`python -c pass`, a process of its own) | {interpreter:.3f} | "
             f"{interpreter / wall:.0%} | |"]
    for phase in PHASE_ORDER + sorted(set(seconds) - set(PHASE_ORDER)):
        if phase in seconds:
            count = calls.get(phase, "")
            lines.append(f"| {phase} | {seconds[phase]:.3f} | {seconds[phase] / wall:.0%} | {count} |")
    lines.append(f"| outside the phases (this script's own start and exit) | {outside:.3f} | "
                 f"{outside / wall:.0%} | |")
    lines.append(f"| **wall time of the run** | **{wall:.3f}** | 100% | |")
    missing = measured[0]["not_wrapped"]
    if missing:
        lines += ["", "Not wrapped (not in this version, or not imported by this run): "
                  + ", ".join(f"`{name}`" for name in missing) + "."]
    lines += ["", "The phase timer costs about a microsecond per wrapped call (the column above); the "
              "cProfile run is slower than an unprofiled one, its shares are what to read.", "",
              f"## cProfile, top {top} by {sort}", "", "```", top_text, "```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    if sys.path and Path(sys.path[0]).resolve() == HERE:
        sys.path.pop(0)  # this file is named like the standard library's profile, which cProfile imports
    raw = sys.argv[1:] if argv is None else argv
    own, kapsulint_args = (raw[: raw.index("--")], raw[raw.index("--") + 1:]) if "--" in raw else (raw, [])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", nargs="?", type=Path, help="the project directory (the run's working directory)")
    parser.add_argument("--state", choices=["warm", "cold", "first", "edited"], default="warm",
                        help="the cache state of the measured run (default warm)")
    parser.add_argument("--cache-dir", type=Path, help="use this KAPSULINT_CACHE_DIR as it is (overrides --state)")
    parser.add_argument("--edit", type=Path, help="with --state edited: the file changed before each run")
    parser.add_argument("--top", type=int, default=25, help="cProfile entries shown (default 25)")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (default tottime)")
    parser.add_argument("--runs", type=int, default=1, help="runs of the phase timer, medians shown (default 1)")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    parser.add_argument("--child", choices=["phases", "cprofile"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(own)
    kapsulint_args = kapsulint_args or DEFAULT_ARGS
    if args.child:
        child(args.child, args.out, kapsulint_args)
        os._exit(0)  # as kapsulint's console script: no teardown of the model at exit
    if args.project is None or not args.project.is_dir():
        parser.error("give the project directory")
    project = args.project.resolve()
    bench = _bench()
    work = Path(tempfile.mkdtemp(prefix="kapsulint-profile-"))
    try:
        cache = args.cache_dir.resolve() if args.cache_dir else work / "cache"
        state = f"as found in {cache}" if args.cache_dir else args.state
        edit = None
        if not args.cache_dir:
            cache.mkdir()
            if args.state != "first":  # filled (its grammar cache written in place, see bench.py)
                subprocess.run([sys.executable, "-m", "kapsulint", *kapsulint_args], cwd=project, env=_env(cache),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            if args.state == "edited":
                edit = bench.OneEdit((args.edit or _middle_tf(project)).resolve())
                state += f" (`{edit.path.relative_to(project)}` changed before each run)"

        def prepare() -> None:
            if args.cache_dir:
                return
            if args.state == "cold":
                bench.clear_parse_cache(cache)
            elif args.state == "first":
                shutil.rmtree(cache)
                cache.mkdir()
            elif edit is not None:
                edit.apply()

        def measure(mode: str, out: Path) -> float:
            prepare()
            try:
                return _run_child(mode, project, cache, out, kapsulint_args)
            finally:
                if edit is not None:
                    edit.restore()

        measured, walls = [], []
        for number in range(max(1, args.runs)):
            out = work / f"phases-{number}.json"
            walls.append(measure("phases", out))
            measured.append(json.loads(out.read_text(encoding="utf-8")))
        stats = work / "run.pstats"
        measure("cprofile", stats)
        text = report(project, state, kapsulint_args, measured, walls, _interpreter_start(),
                      _top_entries(stats, args.top, args.sort), args.top, args.sort)
        print(text)
        if args.markdown:
            args.markdown.write_text(text, encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
