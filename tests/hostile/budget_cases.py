"""Hostile evaluations: a few lines each that ask for gigabytes, hours or an alias bomb.

Each case is a one-file project and the places where KAP015 (evaluation-budget-exceeded) must
note it, as (line, column). ``run_case`` lints it in a child process, as a user's run would, and
measures the child's wall time and peak memory; ``tests/hostile/test_budgets.py`` asserts on
the outcome and the memory, ``benchmarks/hostile.py`` prints the figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import NamedTuple


class Case(NamedTuple):
    name: str
    text: str  # main.tf
    notes: tuple[tuple[int, int], ...]  # where KAP015 points, (line, column)
    evaluations: tuple[tuple[str, str], ...] = ()  # (--eval EXPRESSION, its JSON line's answer)


def _alias_bomb(levels: int) -> str:
    """A YAML document of ``levels`` levels of ten aliases each: 10 ** levels strings expanded."""
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * 10) + "]")
    return json.dumps("\n".join(lines))


FOUR_KIB = 'join(",", range(1024))'  # "0,1,...,1023": 4,009 characters

CASES = [
    Case("regex-60-backtracking-calls",
         'locals {\n'
         '  subject = "${join("", [for i in range(40) : "a"])}b"\n'
         '  # exponential for a backtracking engine, linear for RE2 as for Terraform\n'
         '  slow = [for i in range(60) : regexall("(a|aa)+$", local.subject)]\n'
         '}\n',
         (),
         (("length(flatten(local.slow))", '"value": 0'),)),
    Case("regex-nested-loops",
         'locals {\n'
         '  numbers = range(1024)\n'
         '  slow    = [for i in local.numbers : [for j in local.numbers : can(regex("(a|aa)+$", "aaab"))]]\n'
         '}\n',
         ((3, 13),)),
    Case("regex-time-summed-across-calls",
         'locals {\n'
         '  text  = format("%8000000s", "")\n'
         '  # a thousand scans of 8 MB: seconds of RE2, far past the second an expression may take\n'
         '  scans = [for i in range(1024) : regexall("\\\\s+x", local.text)]\n'
         '}\n',
         ((4, 35),)),
    Case("regex-one-slow-match",  # submatches over 8 MB: the worst case is refused before it starts
         'locals {\n'
         '  text  = format("%8000000s", "")\n'
         '  match = regex("(( |b){20}c| )*$", local.text)\n'
         '}\n',
         ((3, 11),)),
    Case("join-nested-4-gib",
         'locals {\n'
         '  joined = join(join(join(",", range(1024)), range(1024)), range(1024))\n'
         '}\n',
         ((2, 12),)),
    Case("yamldecode-alias-bomb-7-levels",
         f'locals {{\n  document = yamldecode({_alias_bomb(7)})\n}}\n',
         ((2, 14),)),
    Case("yamldecode-alias-bomb-10-levels",
         f'locals {{\n  document = yamldecode({_alias_bomb(10)})\n}}\n',
         ((2, 14),)),
    Case("formatlist-wide",
         'locals {\n  lines = formatlist("%999999d", range(1024))\n}\n',
         ((2, 11),)),
    Case("replace-everywhere",
         f'locals {{\n  text  = {FOUR_KIB}\n  wider = replace(local.text, "", local.text)\n}}\n',
         ((3, 11),)),
    Case("strrev-long-unicode",
         'locals {\n  text     = format("%1000000s", "\u00e9")\n  reversed = strrev(local.text)\n}\n',
         ((3, 14),)),
    Case("format-huge-width",
         'locals {\n  padded = format("%10000000d", 1)\n}\n',
         ((2, 12),)),
    Case("range-huge-bounds",  # Terraform itself refuses more than 1024 values: Unknown, no note
         'locals {\n  numbers = range(100000000)\n}\n',
         (),
         (("local.numbers", '"unknown": true'),)),
    Case("setproduct-cube",
         'locals {\n  cube = setproduct(range(1024), range(1024), range(1024))\n}\n',
         ((2, 10),)),
    Case("flatten-nested-ranges",
         'locals {\n  flat = flatten([for i in range(1024) : [for j in range(1024) : range(1024)]])\n}\n',
         ((2, 66),)),  # the innermost range() whose million numbers no longer fit
    Case("deep-for",
         'locals {\n  deep = ' + "".join(f"[for x{i} in [1] : " for i in range(3000)) + "1" + "]" * 3000 + '\n}\n',
         ((2, 10),)),
    Case("recursion-through-locals",
         'locals {\n  l0 = ["x"]\n'
         + "".join(f"  l{i} = [local.l{i - 1}, local.l{i - 1}]\n" for i in range(1, 41))
         + '  encoded = jsonencode(local.l40)\n}\n',
         ((17, 9), (33, 9))),  # l15 runs out; its Unknown doubles again up to l31
    Case("jsonencode-huge",
         'locals {\n  text = format("%7000s", "")\n  wide = [for i in range(1024) : local.text]\n'
         '  both = [jsonencode(local.wide), jsonencode(local.wide)]\n}\n',
         ((4, 35),)),  # the second encoding: the first used most of the room
    Case("distinct-many-strings",  # in linear time: go-cty compares every pair, a set need not
         'locals {\n  names  = [for i in range(512) : [for j in range(16) : "${i}-${j}"]]\n'
         '  flat   = flatten(local.names)\n  unique = distinct(local.flat)\n}\n',
         (),
         (("length(local.unique)", '"value": 8192'),)),
    Case("equality-of-big-collections",
         'locals {\n  a    = [for i in range(1024) : "${i}"]\n  b    = [for i in range(1024) : "${i}"]\n'
         '  same = [for i in range(1024) : local.a == local.b]\n}\n',
         ((4, 34),)),  # the comparison: each walks a thousand elements
    Case("csvdecode-wide",
         f'locals {{\n  row   = {FOUR_KIB}\n  text  = join("\\n", [for i in range(512) : local.row])\n'
         '  table = csvdecode(local.text)\n}\n',
         ((4, 11),)),
    Case("templatestring-loop",
         f'locals {{\n  text     = {FOUR_KIB}\n'
         '  template = "%%{ for i in range(1024) }%%{ for j in range(4) }$${text}%%{ endfor }%%{ endfor }"\n'
         '  rendered = templatestring(local.template, { text = local.text })\n}\n',
         ((4, 14),)),
]


class Outcome(NamedTuple):
    returncode: int
    notes: list[tuple[int, int]]  # KAP015's (line, column), in order
    seconds: float
    peak_bytes: int  # the child's maximum resident set size
    evaluations: list[str]  # the --eval JSON lines


def run_case(case: Case, timeout: float = 60.0) -> Outcome:
    """Lint ``case`` in a fresh directory as a child process (``--select KAP015``, JSON, no
    cache), then run its ``--eval`` questions; the figures are the lint's."""
    with tempfile.TemporaryDirectory(prefix="kapsulint-hostile-") as directory:
        root = Path(directory) / case.name
        root.mkdir()
        (root / "main.tf").write_text(case.text, encoding="utf-8")
        returncode, stdout, seconds, peak = _child(
            [sys.executable, "-m", "kapsulint", "--select", "KAP015", "--format", "json", "--no-cache", str(root)],
            timeout)
        findings = json.loads(stdout) if stdout.strip().startswith("[") else []
        notes = [(f["line"], f["column"]) for f in findings if f["rule"] == "KAP015"]
        evaluations = []
        for expression, _ in case.evaluations:
            _, line, _, _ = _child([sys.executable, "-m", "kapsulint", "--no-cache", "--eval", expression, str(root)],
                                   timeout)
            evaluations.append(line.strip())
    return Outcome(returncode, notes, seconds, peak, evaluations)


def _child(command: list[str], timeout: float) -> tuple[int, str, float, int]:
    """Run ``command``: (exit code, stdout, wall seconds, peak resident bytes of that child
    alone, from ``wait4``); killed after ``timeout`` seconds (exit code -9 then)."""
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                   env=dict(os.environ, PYTHONUTF8="1"))
        killer = threading.Timer(timeout, process.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            killer.cancel()
        seconds = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        out.seek(0)
        stdout = out.read().decode("utf-8", "replace")
    return process.returncode, stdout, seconds, usage.ru_maxrss * 1024
