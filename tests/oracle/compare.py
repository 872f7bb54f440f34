"""Compare kapsulint's ``--eval`` answers with the values Terraform's console recorded.

Usage: ``python -m tests.oracle.compare [--messages] [NAME ...]`` from the repository root. It
runs kapsulint once per case (every expression of the case as a repeated ``--eval``) and prints,
by topic and by function, how many answers are the same as Terraform's, Unknown, wrong or agreed
errors, and how many agreed errors are not worded as Terraform words them (``--messages`` lists
them).

kapsulint's ``--eval`` answers are one JSON object per line, in the order of the expressions:
``{"expression": E, "value": V, "type": T}`` where V is the text Terraform's jsonencode writes,
embedded as it is (a JSON value, not a string holding it), ``{"expression": E, "unknown": true}``
or ``{"expression": E, "error": MESSAGE}``.

Categories (each a list of ``Outcome``):

- ``same``: the same value after parsing both JSON texts (numbers as decimals, so ``1`` and
  ``1.0`` are equal but a binary float is not a decimal one) and the same type text; or Unknown
  where Terraform's console also prints ``(known after apply)``;
- ``unknown``: Unknown where Terraform knows the value;
- ``wrong``: a known value or type that differs from Terraform's, a value where Terraform errors
  or knows it only after apply, or no answer at all;
- ``error_agreed``: both error (the messages need not match), or kapsulint errors where the
  console reported an error of the configuration (``configuration_error``) and answered anyway;
  of the errors both report, the summary lists those whose message is not Terraform's
  (:func:`same_message`: its summary and detail, ``SUMMARY: DETAIL``);
- ``error_unknown``: Unknown where Terraform errors, which is what a rule must see then;
- ``false_error``: an error where Terraform has a value;
- ``crash``: kapsulint failed with an internal error on the expression alone.
"""

from __future__ import annotations

import decimal
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

try:
    from .corpus import Case, load_cases, load_golden
except ImportError:  # run as a script, python tests/oracle/compare.py: its folder is on sys.path
    from corpus import Case, load_cases, load_golden

CATEGORIES = ("same", "unknown", "wrong", "error_agreed", "error_unknown", "false_error", "crash")
_CALL = re.compile(r"(?<![\w.:\"])([a-z][a-z0-9_]*)\s*\(")
_NOT_FUNCTIONS = frozenset({"if", "for", "in"})


class Outcome(NamedTuple):
    expression: str
    golden: dict[str, Any]
    answer: dict[str, Any] | None


def _parse_json(text: str) -> Any:
    return json.loads(text, parse_float=decimal.Decimal)


def canonical(value: Any) -> Any:
    """A form of a parsed JSON value where equal means equal in Terraform.

    Python's ``True == 1`` and ``1 == 1.0`` must not make a bool equal a number; all numbers
    become decimals, so an integer equals the same decimal written with a fraction.
    """
    if isinstance(value, bool) or value is None:
        return ("literal", value)
    if isinstance(value, (int, decimal.Decimal)):
        return ("number", decimal.Decimal(value))
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(canonical(item) for item in value))
    return ("object", tuple(sorted((key, canonical(item)) for key, item in value.items())))


def classify_one(golden: dict[str, Any], answer: dict[str, Any] | None,
                 revealed: dict[str, dict[str, Any] | None] | None = None) -> str:
    """The category of one answer against its golden entry.

    A sensitive value is printed masked, with no type: the answer must say ``sensitive`` where
    Terraform's console masks the value (wholly masked where the console prints only
    ``(sensitive value)``, else in part), and ``revealed`` holds the answers for
    ``nonsensitive(jsonencode(EXPR))`` (the value, as the golden recorded it) and
    ``nonsensitive(EXPR)`` (the type, when that unmasks it)."""
    if answer is None:
        return "wrong"
    if "crash" in answer:
        return "crash"
    if "error" in golden:
        if "error" in answer:
            return "error_agreed"
        return "error_unknown" if answer.get("unknown") else "wrong"
    if "error" in answer:
        # Terraform reported the configuration's error before it answered: an error is right too.
        return "error_agreed" if "configuration_error" in golden else "false_error"
    if answer.get("unknown"):
        return "same" if golden.get("unknown") else "unknown"
    if golden.get("unknown") or "value" not in answer:
        return "wrong"
    if bool(golden.get("sensitive")) != bool(answer.get("sensitive")):
        return "wrong"
    if golden.get("sensitive"):
        return _classify_sensitive(golden, answer, revealed or {})
    same_value = canonical(_parse_json(golden["value"])) == canonical(answer["value"])
    return "same" if same_value and answer.get("type") == golden.get("type") else "wrong"


def terraform_message(golden: dict[str, Any]) -> str:
    """The error of a golden entry as kapsulint words one: ``SUMMARY: DETAIL`` (the summary alone
    when there is no detail)."""
    detail = golden.get("detail") or ""
    return f"{golden['error']}: {detail}" if detail else golden["error"]


def same_message(golden: dict[str, Any], answer: dict[str, Any]) -> bool:
    """Whether kapsulint's error is Terraform's, spaces aside (the recorder joins the lines the
    console wrapped with one space)."""
    return " ".join(answer["error"].split()) == " ".join(terraform_message(golden).split())


def differing_messages(categories: dict[str, list[Outcome]]) -> list[Outcome]:
    """The agreed errors whose message is not Terraform's (an error of the configuration aside)."""
    return [outcome for outcome in categories["error_agreed"]
            if "error" in outcome.golden and not same_message(outcome.golden, outcome.answer)]


def _classify_sensitive(golden: dict[str, Any], answer: dict[str, Any],
                        revealed: dict[str, dict[str, Any] | None]) -> str:
    wholly = golden.get("console") == SENSITIVE
    if wholly != (answer["value"] == SENSITIVE):
        return "wrong"
    encoded = revealed.get("value")
    if encoded is None or "value" not in encoded or not isinstance(encoded["value"], str):
        return "unknown" if encoded is not None and encoded.get("unknown") else "wrong"
    if canonical(_parse_json(golden["value"])) != canonical(_parse_json(encoded["value"])):
        return "wrong"
    plain = revealed.get("type")
    if plain is not None and "type" in plain and plain["type"] != golden.get("type"):
        return "wrong"
    return "same"


SENSITIVE = "(sensitive value)"


def revealing(expression: str) -> dict[str, str]:
    """The expressions that show a sensitive answer's value and type (see ``classify_one``)."""
    return {"value": f"nonsensitive(jsonencode({expression}))", "type": f"nonsensitive({expression})"}


def classify(goldens: dict[str, dict[str, Any]], answers: Iterable[dict[str, Any]]) -> dict[str, list[Outcome]]:
    """Every golden expression in one category of ``CATEGORIES``; answers are matched by expression."""
    by_expression = {answer["expression"]: answer for answer in answers}
    result: dict[str, list[Outcome]] = {category: [] for category in CATEGORIES}
    for expression, golden in goldens.items():
        answer = by_expression.get(expression)
        revealed = {key: by_expression.get(text) for key, text in revealing(expression).items()}
        result[classify_one(golden, answer, revealed)].append(Outcome(expression, golden, answer))
    return result


def _run_kapsulint(directory: Path | str, expressions: Sequence[str], var_files: Sequence[str],
                   variables: Sequence[str]) -> subprocess.CompletedProcess[str]:
    arguments = [sys.executable, "-m", "kapsulint"]
    for expression in expressions:
        arguments += ["--eval", expression]
    for path in var_files:
        arguments += ["--var-file", path]
    for assignment in variables:
        arguments += ["--var", assignment]
    arguments.append(".")
    return subprocess.run(arguments, cwd=directory, capture_output=True, text=True, check=False)


def evaluate_directory(directory: Path | str, expressions: Sequence[str], var_files: Sequence[str] = (),
                       variables: Sequence[str] = ()) -> list[dict[str, Any]]:
    """kapsulint's answers for ``expressions`` in the root module ``directory``, in one process.

    ``var_files`` are relative to ``directory``, where kapsulint runs. An answer's ``value`` is
    parsed with decimal numbers, as ``classify`` expects. kapsulint answers every expression,
    one that does not parse with an error line (and exit 2). When the process fails otherwise
    (a crash), the expressions are split in halves until the failing ones run alone; one that
    fails by itself is answered ``{"expression", "error", "exit": 2}`` or
    ``{"expression", "crash", "exit"}`` with the last line of kapsulint's stderr.
    """
    result = _run_kapsulint(directory, expressions, var_files, variables)
    if result.returncode in (0, 2):
        answers = [_parse_json(line) for line in result.stdout.splitlines() if line.strip()]
        if len(answers) == len(expressions):
            return answers
    if len(expressions) == 1:
        lines = result.stderr.strip().splitlines()
        message = lines[-1] if lines else f"exit {result.returncode}"
        key = "error" if result.returncode == 2 else "crash"
        return [{"expression": expressions[0], key: message, "exit": result.returncode}]
    half = len(expressions) // 2
    return (evaluate_directory(directory, expressions[:half], var_files, variables)
            + evaluate_directory(directory, expressions[half:], var_files, variables))


def run_case(case: Case) -> dict[str, list[Outcome]]:
    """kapsulint's answers for one case, classified against the case's golden."""
    golden = load_golden(case)["expressions"]
    with tempfile.TemporaryDirectory(prefix="kapsulint-oracle-") as scratch:
        directory = case.materialise(Path(scratch) / "module")
        expressions = list(golden)
        expressions += [text for expression, entry in golden.items() if entry.get("sensitive")
                        for text in revealing(expression).values() if text not in golden]
        answers = evaluate_directory(directory, expressions, case.var_files, case.variables)
    return classify(golden, answers)


def function_of(expression: str) -> str | None:
    """The first built-in function an expression calls, to group results by function."""
    for match in _CALL.finditer(expression):
        if match.group(1) not in _NOT_FUNCTIONS:
            return match.group(1)
    return None


def summarise(results: dict[str, dict[str, list[Outcome]]], show_messages: bool = False) -> str:
    """A table of categories per topic, then per function, the count of error messages that are
    not Terraform's (each of them with ``show_messages``), then the wrong answers."""
    by_topic: dict[str, Counter[str]] = defaultdict(Counter)
    by_function: dict[str, Counter[str]] = defaultdict(Counter)
    for topic, categories in results.items():
        for category, outcomes in categories.items():
            for outcome in outcomes:
                by_topic[topic][category] += 1
                by_function[function_of(outcome.expression) or "(no call)"][category] += 1
    lines = []
    for title, table in (("topic", by_topic), ("function", by_function)):
        lines.append(f"{title:<44}" + "".join(f"{category:>13}" for category in CATEGORIES))
        for key in sorted(table):
            lines.append(f"{key:<44}" + "".join(f"{table[key][category]:>13}" for category in CATEGORIES))
        lines.append("")
    total = Counter()
    for counts in by_topic.values():
        total.update(counts)
    known = sum(total.values())
    lines.append(f"{'total':<44}" + "".join(f"{total[category]:>13}" for category in CATEGORIES))
    lines.append(f"{known} expressions; wrong {total['wrong']}, unknown {total['unknown']}, crash {total['crash']}")
    differing = {topic: differing_messages(categories) for topic, categories in results.items()}
    agreed = sum(1 for categories in results.values() for o in categories["error_agreed"] if "error" in o.golden)
    lines.append(f"error messages: {agreed - sum(map(len, differing.values()))} of {agreed} agreed errors "
                 f"say what Terraform says, {sum(map(len, differing.values()))} differ")
    if show_messages:
        for topic, outcomes in differing.items():
            for outcome in outcomes:
                lines.append(f"MESSAGE {topic}: {outcome.expression}\n"
                             f"  terraform: {terraform_message(outcome.golden)}\n"
                             f"  kapsulint: {outcome.answer['error']}")
    for topic, categories in results.items():
        for category in ("wrong", "crash"):
            for outcome in categories[category]:
                lines.append(f"{category.upper()} {topic}: {outcome.expression}\n"
                             f"  terraform: {json.dumps(outcome.golden)}\n"
                             f"  kapsulint: {json.dumps(outcome.answer, default=str)}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    show_messages = "--messages" in argv
    names = [argument for argument in argv if argument != "--messages"]
    cases = [case for case in load_cases() if not names or any(name in case.name for name in names)]
    results = {case.name: run_case(case) for case in cases}
    print(summarise(results, show_messages))
    return 1 if any(categories["wrong"] or categories["crash"] for categories in results.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
