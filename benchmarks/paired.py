"""Paired start-up measure: two or more commands run alternately, medians of wall and CPU time.

    python benchmarks/paired.py --runs 20 -- "python -c pass" -- "kapsulint examples/"

Each round runs every command once, in the order given, so a machine whose load changes during
the measure slows them alike; the medians, and each command's ratio to the first, are printed.
The commands' output goes to the null device. A warm-up round runs first and is not counted.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import time


def measure(command: list[str]) -> tuple[float, float]:
    """(wall seconds, user + system CPU seconds) of one run of ``command``."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20, help="rounds counted (default 20)")
    parser.add_argument("commands", nargs="+", help="commands, each one shell-quoted string (after --)")
    args = parser.parse_args()
    commands = [shlex.split(text) for text in args.commands if text != "--"]
    for command in commands:
        measure(command)
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for _ in range(args.runs):
        for index, command in enumerate(commands):
            wall, cpu = measure(command)
            walls[index].append(wall)
            cpus[index].append(cpu)
    first_wall, first_cpu = statistics.median(walls[0]), statistics.median(cpus[0])
    for command, wall_times, cpu_times in zip(commands, walls, cpus):
        wall, cpu = statistics.median(wall_times), statistics.median(cpu_times)
        print(f"{shlex.join(command)}: wall {wall * 1000:.0f} ms ({wall / first_wall:.1f}x), "
              f"cpu {cpu * 1000:.0f} ms ({cpu / first_cpu:.1f}x)")


if __name__ == "__main__":
    main()
