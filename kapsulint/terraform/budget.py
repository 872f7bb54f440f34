"""What evaluation may cost: steps, bytes of values built and regular-expression time.

One :class:`Budget` belongs to one run (the project) and is threaded through every evaluator and
every function call. It counts three things, each with a limit per expression and a limit for
the whole run (:class:`Limits`):

- **steps**: expression nodes evaluated, and the elements of the arguments a function call walks
  (converting them, looking for Unknown and sensitive parts);
- **bytes**: the estimated size of the strings and collections built (:func:`size_of`), charged
  before the value is built wherever its size can be known first (``join`` sums its parts,
  ``range`` counts its elements), else as soon as it is;
- **regex seconds**: the work of matching regular expressions (bytes scanned times the pattern's
  instructions), in seconds at RE2's slowest rate, summed across calls: counted, not timed, so a
  note never depends on the machine's load.

An expression is one top-level evaluation (an attribute, a local, a variable's argument): the
locals and variables it reads are expressions of their own, so an expression's cost does not
depend on which of them some rule evaluated first. When a budget runs out
:class:`BudgetExceeded` stops the expression; its value is Unknown and the evaluator records a
located note saying which budget ran out (rule KAP015). ``try`` and ``can`` do not catch it:
Terraform would have an answer, kapsulint has none.
"""

from __future__ import annotations

from typing import NamedTuple

from kapsulint.findings import Loc
from kapsulint.terraform.values import Val

MIB = 1024 * 1024
NODE_BYTES = 128
"""What one value node costs beyond its text (the node, its location, its place in a collection)."""


class Limits(NamedTuple):
    """The budgets of one expression and of one run (the configuration keys in :data:`SETTINGS`)."""

    expression_steps: int = 200_000
    expression_bytes: int = 8 * MIB
    expression_regex_seconds: float = 1.0
    run_steps: int = 4_000_000
    run_bytes: int = 128 * MIB
    run_regex_seconds: float = 4.0


SETTINGS = {
    "max-expression-steps": "expression_steps",
    "max-expression-bytes": "expression_bytes",
    "max-expression-regex-seconds": "expression_regex_seconds",
    "max-run-steps": "run_steps",
    "max-run-bytes": "run_bytes",
    "max-run-regex-seconds": "run_regex_seconds",
}
"""Configuration key -> :class:`Limits` field."""

REGEX_WORK_PER_SECOND = 50_000_000
"""Bytes of text times instructions of the compiled pattern that RE2 is sure to match in a
second, on its slowest path (the NFA, for submatches over a long text): a match whose worst case
would take longer than the time left is refused before it starts, since a running match cannot
be interrupted."""

_WHAT = {"steps": "evaluation steps", "bytes": "bytes of values built", "regex": "seconds of regular-expression matching"}


class BudgetExceeded(Exception):
    """A budget ran out: ``kind`` is steps, bytes, regex, nodes or depth; ``scope`` expression or run.

    ``loc`` is the construct that ran out (a function call, a ``for``), or None for the
    expression being evaluated; ``what`` names the construct for the message ("`join()`",
    "this `for` expression")."""

    def __init__(self, kind: str, scope: str, limit: float, loc: Loc | None = None, what: str = "") -> None:
        super().__init__(kind, scope, limit)
        self.kind = kind
        self.scope = scope
        self.limit = limit
        self.loc = loc
        self.what = what

    @property
    def message(self) -> str:
        """The note's text: which budget, its limit, and how to raise it."""
        subject = self.what or "this expression"
        if self.kind == "nodes":
            return (f"{subject} expands to more than {self.limit:,} nodes after resolving aliases, the limit "
                    "values files have too: its value is Unknown and nothing that reads it is judged")
        if self.kind == "depth":
            return f"{subject} nests deeper than kapsulint can evaluate: its value is Unknown and nothing that reads it is judged"
        key = f"max-{self.scope}-{'regex-seconds' if self.kind == 'regex' else self.kind}"
        limit = f"{self.limit:g}" if self.kind == "regex" else f"{self.limit:,}"
        owner = "an expression" if self.scope == "expression" else "the whole run"
        return (f"{subject} ran out of the evaluation budget: more than {limit} {_WHAT[self.kind]} for {owner} "
                f"(configuration key `{key}`): its value is Unknown and nothing that reads it is judged")


class Budget:
    """The counters of one run, and the ceilings of the expression being evaluated.

    Counters are run totals; each ceiling is the lower of the run's limit and what the current
    expression may still use. :meth:`enter` and :meth:`leave` bracket an expression: what a
    nested expression (a local read on the way) used is not charged to the one that read it."""

    __slots__ = ("byte_ceiling", "bytes", "limits", "regex_ceiling", "regex_seconds", "step_ceiling", "steps")

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits if limits is not None else Limits()
        self.steps = 0
        self.bytes = 0
        self.regex_seconds = 0.0
        self.step_ceiling = self.limits.run_steps
        self.byte_ceiling = self.limits.run_bytes
        self.regex_ceiling = self.limits.run_regex_seconds

    # -- expressions ---------------------------------------------------------------------------

    def enter(self) -> tuple:
        """Start an expression; returns what :meth:`leave` needs to resume the enclosing one."""
        limits = self.limits
        steps, used_bytes, seconds = self.steps, self.bytes, self.regex_seconds
        saved = (steps, used_bytes, seconds, self.step_ceiling, self.byte_ceiling, self.regex_ceiling)
        # min() written out: every expression evaluated passes here twice
        steps += limits.expression_steps
        self.step_ceiling = steps if steps < limits.run_steps else limits.run_steps
        used_bytes += limits.expression_bytes
        self.byte_ceiling = used_bytes if used_bytes < limits.run_bytes else limits.run_bytes
        seconds += limits.expression_regex_seconds
        self.regex_ceiling = seconds if seconds < limits.run_regex_seconds else limits.run_regex_seconds
        return saved

    def leave(self, saved: tuple) -> None:
        """End an expression: the enclosing one's ceilings move by what this one used."""
        steps, used_bytes, seconds, step_ceiling, byte_ceiling, regex_ceiling = saved
        limits = self.limits
        step_ceiling += self.steps - steps
        self.step_ceiling = step_ceiling if step_ceiling < limits.run_steps else limits.run_steps
        byte_ceiling += self.bytes - used_bytes
        self.byte_ceiling = byte_ceiling if byte_ceiling < limits.run_bytes else limits.run_bytes
        regex_ceiling += self.regex_seconds - seconds
        self.regex_ceiling = regex_ceiling if regex_ceiling < limits.run_regex_seconds else limits.run_regex_seconds

    # -- charges -------------------------------------------------------------------------------

    def step(self, count: int = 1, loc: Loc | None = None, what: str = "") -> None:
        """Charge ``count`` steps; :class:`BudgetExceeded` past the ceiling."""
        self.steps += count
        if self.steps > self.step_ceiling:
            self.steps_exceeded(loc, what)

    def steps_exceeded(self, loc: Loc | None = None, what: str = "") -> None:
        """Raise for the steps budget (the evaluator counts its own steps inline, then calls this)."""
        run = self.step_ceiling >= self.limits.run_steps  # the run's limit is the one that binds
        raise BudgetExceeded("steps", "run" if run else "expression",
                             self.limits.run_steps if run else self.limits.expression_steps, loc, what)

    def spend(self, amount: int, loc: Loc | None, what: str) -> None:
        """Charge ``amount`` bytes for a value about to be built (or just built); past the ceiling
        nothing is charged and :class:`BudgetExceeded` is raised."""
        if self.bytes + amount > self.byte_ceiling:
            run = self.byte_ceiling >= self.limits.run_bytes
            raise BudgetExceeded("bytes", "run" if run else "expression",
                                 self.limits.run_bytes if run else self.limits.expression_bytes, loc, what)
        self.bytes += amount

    def walk(self, value: Val, loc: Loc | None, what: str) -> None:
        """Charge a step per node of ``value`` (a shared part each time it appears), counted no
        further than the steps left: what comparing it element by element may cost."""
        left = self.step_ceiling - self.steps
        count = 0
        stack = [value]
        while stack and count <= left:
            raw = stack.pop().raw
            count += 1
            if type(raw) is list:
                stack.extend(raw)
            elif type(raw) is dict:
                stack.extend(raw.values())
        self.step(count, loc, what)

    def room(self) -> int:
        """The bytes the current expression may still build."""
        return max(0, self.byte_ceiling - self.bytes)

    def spend_size(self, value: Val, loc: Loc | None, what: str) -> None:
        """Charge the size of ``value`` (measured no further than the room left)."""
        self.spend(size_of(value, self.room() + 1), loc, what)

    def regex_timer(self, loc: Loc | None, what: str) -> RegexTimer:
        """A ``with`` block around the matching of one function call: refused when the budget is
        spent, its work charged at the end; :meth:`RegexTimer.check` before each match."""
        timer = RegexTimer(self, loc, what)
        timer.check()
        return timer


class RegexTimer:
    """The regular-expression work of one function call, charged to its budget in seconds at
    :data:`REGEX_WORK_PER_SECOND`, never by the clock: the same configuration gives the same notes
    on a loaded machine as on an idle one."""

    __slots__ = ("budget", "charged", "loc", "what")

    def __init__(self, budget: Budget, loc: Loc | None, what: str) -> None:
        self.budget = budget
        self.loc = loc
        self.what = what
        self.charged = 0.0

    def __enter__(self) -> RegexTimer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.budget.regex_seconds += self.charged

    def check(self, work: int = 0) -> None:
        """:class:`BudgetExceeded` once the work charged, this call's so far included, and the
        worst case of a match of ``work`` (bytes times instructions) still to come pass the
        ceiling. RE2 is linear, so that worst case bounds the match."""
        budget = self.budget
        spent = budget.regex_seconds + self.charged + work / REGEX_WORK_PER_SECOND
        if spent >= budget.regex_ceiling:
            run = budget.regex_ceiling >= budget.limits.run_regex_seconds
            raise BudgetExceeded("regex", "run" if run else "expression",
                                 budget.limits.run_regex_seconds if run else budget.limits.expression_regex_seconds,
                                 self.loc, self.what)

    def charge(self, work: int) -> None:
        """Charge a match that scanned ``work`` (bytes times instructions)."""
        self.charged += work / REGEX_WORK_PER_SECOND


def text_bytes(length: int) -> int:
    """The estimated size of a string value of ``length`` characters."""
    return NODE_BYTES + length


def size_of(value: Val, cap: int) -> int:
    """The estimated size of ``value`` with every shared part counted each time it appears (as
    it would be encoded or flattened); the walk stops once the size passes ``cap``."""
    total = 0
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        raw = pop().raw
        total += NODE_BYTES
        if type(raw) is str:
            total += len(raw)
        elif type(raw) is list:
            extend(raw)
        elif type(raw) is dict:
            for key in raw:
                total += len(key)
            extend(raw.values())
        if total > cap:
            return total
    return total
