"""Paired start-up measure: two or more commands run alternately, medians of wall and CPU time.

    python benchmarks/paired.py --runs 20 -- "python -c pass" -- "kapsulint examples/"
    python benchmarks/paired.py --runs 15 --cwd monorepo-100 \\
        -- "KAPSULINT_CACHE_DIR=/tmp/c-old old/bin/kapsulint ." \\
        -- "KAPSULINT_CACHE_DIR=/tmp/c-new new/bin/kapsulint ."

Each round runs every command once, in the order given, so a machine whose load changes during
the measure slows them alike; the medians, and each command's ratio to the first, are printed.
Leading ``NAME=VALUE`` words of a command set environment variables for that command only (as a
shell does); ``--env NAME=VALUE`` sets one for every command, ``--cwd DIR`` runs every command in
DIR. The commands' output goes to the null device. A warm-up round runs first and is not counted.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import statistics
import subprocess
import time

_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def split_command(text: str) -> tuple[dict[str, str], list[str]]:
    """The leading ``NAME=VALUE`` words of ``text`` as an environment, and the command after them."""
    words = shlex.split(text)
    environment: dict[str, str] = {}
    while words and _ASSIGNMENT.match(words[0]):
        name, _, value = words.pop(0).partition("=")
        environment[name] = value
    if not words:
        raise SystemExit(f"no command in {text!r}")
    return environment, words


def measure(command: list[str], environment: dict[str, str] | None = None,
            cwd: str | None = None) -> tuple[float, float]:
    """(wall seconds, user + system CPU seconds) of one run of ``command``."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=environment, cwd=cwd)
    _, _, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="rounds counted (default 20)")
    parser.add_argument("--cwd", default=None, help="directory every command runs in (default: this one)")
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                        help="environment variable set for every command (repeatable)")
    parser.add_argument("commands", nargs="+", help="commands, each one shell-quoted string (after --)")
    args = parser.parse_args()
    shared = dict(os.environ)
    for assignment in args.env:
        if not _ASSIGNMENT.match(assignment):
            parser.error(f"--env takes NAME=VALUE, not {assignment!r}")
        name, _, value = assignment.partition("=")
        shared[name] = value
    parsed = [split_command(text) for text in args.commands if text != "--"]
    commands = [words for _, words in parsed]
    environments = [{**shared, **own} for own, _ in parsed]
    for command, environment in zip(commands, environments):
        measure(command, environment, args.cwd)
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for _ in range(args.runs):
        for index, (command, environment) in enumerate(zip(commands, environments)):
            wall, cpu = measure(command, environment, args.cwd)
            walls[index].append(wall)
            cpus[index].append(cpu)
    first_wall, first_cpu = statistics.median(walls[0]), statistics.median(cpus[0])
    for (own, _), command, wall_times, cpu_times in zip(parsed, commands, walls, cpus):
        wall, cpu = statistics.median(wall_times), statistics.median(cpu_times)
        label = shlex.join([f"{name}={value}" for name, value in own.items()] + command)
        print(f"{label}: wall {wall * 1000:.0f} ms ({wall / first_wall:.3f}x), "
              f"cpu {cpu * 1000:.0f} ms ({cpu / first_cpu:.3f}x)")


if __name__ == "__main__":
    main()
