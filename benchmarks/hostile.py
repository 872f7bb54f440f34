"""Wall time and peak memory of kapsulint on hostile evaluations (tests/hostile/budget_cases.py).

Each case is linted as a child process (``--select KAP015 --format json --no-cache``), as the
hostile-input tests do; this prints, per case, the wall time, the child's peak resident memory
and where KAP015 noted the budget that ran out. The tests assert the notes and the memory; the
times belong here. Run it on an idle machine: other work skews wall times.

    python benchmarks/hostile.py [--runs 3] [CASE ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from pathlib import Path

CASES_FILE = Path(__file__).resolve().parents[1] / "tests" / "hostile" / "budget_cases.py"


def load_cases():
    spec = importlib.util.spec_from_file_location("kapsulint_budget_cases", CASES_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per case; the median is printed")
    parser.add_argument("cases", nargs="*", help="names of the cases to run (default: all)")
    args = parser.parse_args(argv)
    cases = load_cases()
    chosen = [case for case in cases.CASES if not args.cases or case.name in args.cases]
    print(f"| case | wall s (median of {args.runs}) | peak MB | KAP015 at (line, column) | as expected |")
    print("|---|---:|---:|---|---|")
    for case in chosen:
        outcomes = [cases.run_case(case, timeout=300) for _ in range(args.runs)]
        seconds = statistics.median(outcome.seconds for outcome in outcomes)
        peak = max(outcome.peak_bytes for outcome in outcomes) / 1e6
        notes = outcomes[-1].notes
        expected = "yes" if all(o.notes == list(case.notes) and o.returncode == 0 for o in outcomes) else "NO"
        print(f"| {case.name} | {seconds:.2f} | {peak:.0f} | {', '.join(map(str, notes)) or 'none'} | {expected} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
