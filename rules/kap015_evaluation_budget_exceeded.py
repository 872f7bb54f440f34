"""Evaluation budget exceeded.

## What it does
Reports an expression that kapsulint stopped evaluating because it ran out of an evaluation
budget: evaluation steps, bytes of values built, time spent matching regular expressions, or
nodes of a decoded YAML or JSON document.

## Why is this bad
kapsulint runs on code it does not trust (pull requests, in CI runners that hold secrets), so
every evaluation is bounded: a few lines of Terraform can ask for gigabytes (three nested
`join`s over `range(1024)`), for hours of work (loops of loops), or expand a YAML alias bomb
inside `yamldecode`. Terraform itself would try to compute such a value; kapsulint stops when
a budget runs out, and the value is Unknown. No rule fires on an Unknown value, so whatever
depended on it was not judged: this note says where that happened, so that "no findings" never
hides a place kapsulint did not look.

Each expression (an argument, a local, a variable's value, an output) has its own budgets, and
the whole run has budgets of its own, so the notes do not depend on which rules ran first. The
note sits on the construct that ran out (the function call, the `for` expression, the template)
or, for steps, on the expression. Its message names the budget, its limit, and the
configuration key that raises it. The limits and their defaults are listed in the README
("Limits"). Regular-expression time is counted, not measured: each match is charged the bytes it
scanned times the pattern's instructions, at RE2's slowest rate, so a loaded or slow machine runs
out exactly where another does.

## Example
```hcl
locals {
  # 1024 numbers joined (4 KiB), used as the separator of 1024 of them (4 MiB), used as the
  # separator of 1024 again: 4 GiB
  sep  = join(join(",", range(1024)), range(1024))
  huge = join(local.sep, range(1024))
}
```

## Use instead
Build values of the size the configuration needs. When a real configuration needs more than
the defaults allow, raise the limit the message names in `.kapsulint.toml`:

```toml
max-expression-bytes = 33554432
```

## References
- [Terraform functions](https://developer.hashicorp.com/terraform/language/functions)
- [RE2 syntax, the regular expressions Terraform uses](https://github.com/google/re2/wiki/Syntax)
- [YAML alias bombs ("billion laughs")](https://en.wikipedia.org/wiki/Billion_laughs_attack)
"""

from collections.abc import Iterator

from kapsulint.api import Finding, Project, finding

ID = "KAP015"
NAME = "evaluation-budget-exceeded"
SEVERITY = "note"
COUNTED_AS = ("evaluation budget run out", "evaluation budgets run out")


def check(project: Project) -> Iterator[Finding]:
    for loc, message in project.blind_spots(NAME):
        yield finding(loc, message)
