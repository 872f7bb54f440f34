#!/usr/bin/env python3
"""An experiment for issue 27: judge a project one part at a time, and compare with the whole.

    python benchmarks/parts.py DIR [--unit-tops 50] [--json FILE]

A part is what the language server judges apart (``cli/server/folders.py``, ``Partition``): the
root module trees that share a module or a file, or the files no tree holds. This script measures
what judging the parts one after the other, each freed before the next, would hold, against one
lint of the whole project, with the parse cache the whole lint filled (so both read the same
parse data; what a cold run's parsing costs is not in either figure):

* a child lints the whole project as the server's ``Folder.lint`` does (``run()`` and the
  partition of its project), and writes the partition and the reported findings;
* a second child lints the parts, grouped into units of at most ``--unit-tops`` root trees
  (the largest part alone when it has more), each with the part's ``ScanScope``, collecting the
  garbage after each unit (the console script runs without collections: a project's objects
  refer to each other, so only a collection frees one), and checks that each unit's project holds
  the trees the partition says (as the server does before it trusts a part's findings).

It prints each child's peak resident memory (``VmHWM``) and time, the number of units, and
whether the reported findings (rule, path, line, column, message) are the same. Nothing of this
is in the package: it was the evidence for the run's own lint by parts (``kapsulint/lint/parts.py``),
which plans its groups before any model is built; the whole lint here is forced (``by_parts=False``).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def peak() -> int:
    """This process's peak resident set (VmHWM), in bytes."""
    with open("/proc/self/status", "rb") as handle:
        for line in handle:
            if line.startswith(b"VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def _reported(findings) -> list[list]:
    return sorted([f.rule, f.loc.path, f.loc.line, f.loc.column, f.message]
                  for f in findings if f.suppressed_by is None)


def whole(project: Path, out: Path) -> None:
    """The whole lint, its partition and its reported findings, to ``out`` (pickle)."""
    import gc

    gc.disable()  # as kapsulint's console script does
    from kapsulint.cli.server.folders import Folder, Partition, reported_by_path
    from kapsulint.lint.runner import run

    start = time.perf_counter()
    folder = Folder(str(project))
    resolved = folder.resolve()
    result = run(resolved.settings, by_parts=False)
    partition = Partition.of(result.project, reported_by_path(result.findings), [])
    seconds = time.perf_counter() - start
    parts = None if partition is None else [(part.trees, part.files, bool(part.tops)) for part in partition.parts]
    with open(out, "wb") as handle:
        pickle.dump({"seconds": seconds, "peak": peak(), "findings": _reported(result.findings), "parts": parts,
                     "shared": None if partition is None else partition.shared_modules,
                     "discovered": None if partition is None else partition.discovered}, handle)


def units_of(parts: list, unit_tops: int) -> list[list]:
    """The parts grouped, largest first, into units of at most ``unit_tops`` root trees (a part
    larger than that is a unit of its own; the files no tree holds count as one tree)."""
    units: list[list] = []
    current: list = []
    size = 0
    for part in sorted(parts, key=lambda part: -max(len(part[0]), 1)):
        weight = max(len(part[0]), 1)
        if current and size + weight > unit_tops:
            units.append(current)
            current, size = [], 0
        current.append(part)
        size += weight
    if current:
        units.append(current)
    return units


def by_parts(project: Path, partition: Path, unit_tops: int, out: Path) -> None:
    """The parts' lints, one unit at a time; their findings and the figures to ``out`` (JSON)."""
    import gc

    gc.disable()
    from kapsulint.cli.server.folders import Folder
    from kapsulint.lint.runner import run
    from kapsulint.model.options import ScanScope

    with open(partition, "rb") as handle:
        given = pickle.load(handle)
    start = time.perf_counter()
    folder = Folder(str(project))
    findings: list[list] = []
    units = units_of(given["parts"], unit_tops)
    held = True
    for unit in units:
        trees = {top: tree for part_trees, _, _ in unit for top, tree in part_trees.items()}
        files = frozenset().union(*(part_files for _, part_files, _ in unit))
        directories = frozenset().union(*(directories for directories, _ in trees.values()))
        resolved = folder.resolve()
        resolved.settings.scan.scope = ScanScope(directories, files, given["shared"], given["discovered"])
        result = run(resolved.settings)
        held = held and result.project.tree_files() == trees
        findings.extend(_reported(result.findings))
        del result, resolved
        gc.collect()  # the unit's project refers to itself: only a collection frees it
    out.write_text(json.dumps({"seconds": time.perf_counter() - start, "peak": peak(), "units": len(units),
                               "held": held, "findings": sorted(findings)}), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("project", type=Path, help="the project directory")
    parser.add_argument("--unit-tops", type=int, default=50, help="root trees per unit at most (default 50)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    parser.add_argument("--child", choices=["whole", "parts"], help=argparse.SUPPRESS)
    parser.add_argument("--partition", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    project = args.project.resolve()
    if args.child == "whole":
        whole(project, args.out)
        return 0
    if args.child == "parts":
        by_parts(project, args.partition, args.unit_tops, args.out)
        return 0
    with tempfile.TemporaryDirectory(prefix="kapsulint-parts-") as work:
        env = dict(os.environ, KAPSULINT_CACHE_DIR=str(Path(work) / "cache"))
        partition, parts_out = Path(work) / "partition.pickle", Path(work) / "parts.json"
        for command in (["--child", "whole", "--out", str(partition)],
                        ["--child", "parts", "--partition", str(partition), "--unit-tops", str(args.unit_tops),
                         "--out", str(parts_out)]):
            if command[1] == "parts" and pickle.loads(partition.read_bytes())["parts"] is None:
                sys.exit("parts.py: the project does not split into parts (a plan, --var-file, Terragrunt, "
                         "an internal error, or a finding no part holds)")
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(project), *command],
                                  cwd=project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            if proc.returncode != 0:
                sys.exit(f"parts.py: a child failed ({proc.returncode}):\n{proc.stderr.decode(errors='replace')[-3000:]}")
        judged_whole = pickle.loads(partition.read_bytes())
        judged_parts = json.loads(parts_out.read_text(encoding="utf-8"))
    same = judged_whole["findings"] == judged_parts["findings"]
    figures = {"whole": {"seconds": judged_whole["seconds"], "peak": judged_whole["peak"],
                         "findings": len(judged_whole["findings"])},
               "parts": {"seconds": judged_parts["seconds"], "peak": judged_parts["peak"],
                         "findings": len(judged_parts["findings"]), "units": judged_parts["units"],
                         "parts": len(judged_whole["parts"]), "held": judged_parts["held"]},
               "same_findings": same}
    print(f"# Judging {project} by parts\n")
    print("| lint | peak resident memory | seconds | findings reported |\n|---|---:|---:|---:|")
    print(f"| the whole project | {judged_whole['peak'] / 1e6:.1f} MB | {judged_whole['seconds']:.2f} | "
          f"{len(judged_whole['findings'])} |")
    print(f"| {len(judged_whole['parts'])} parts in {judged_parts['units']} units of at most {args.unit_tops} "
          f"trees | {judged_parts['peak'] / 1e6:.1f} MB | {judged_parts['seconds']:.2f} | "
          f"{len(judged_parts['findings'])} |")
    print(f"\nSame reported findings: {'yes' if same else 'no'}. Every unit held the trees of its parts: "
          f"{'yes' if judged_parts['held'] else 'no'}.")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
