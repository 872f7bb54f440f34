"""Sensitive stays sensitive: marks propagate as Terraform's do, and no report prints a marked value.

A value is sensitive when it comes from a ``sensitive = true`` variable (tfvars, default,
``--var``, a module argument), a ``sensitive = true`` output, ``sensitive()``, a ``set_sensitive``
entry or the environment (``TF_VAR_*`` with ``--env-vars``), or is computed from one. Each
end-to-end case puts a unique marker in the secret, runs every format, ``--statistics``,
``--diff``, ``--eval`` and ``--show-settings``, and looks for the marker (and for what each
function makes of it: upper case, base64, a digest...) in everything kapsulint printed.

What Terraform 1.11.4 answers is recorded under tests/oracle/eval (``modules/sensitive_marks``,
``sensitive_partial``, checked by tests/test_eval_conformance.py); what ``terraform plan`` said
about for_each and module outputs is quoted where it is used.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from kapsulint.cli.command import main
from kapsulint.findings import SENSITIVE_VALUE, Sensitive, masked_column
from kapsulint.model.options import ScanOptions
from kapsulint.model.project import Project
from kapsulint.parsing.hcl import parse_expression
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.functions import FUNCTIONS
from kapsulint.terraform.values import INHERITED, UNKNOWN, Val

MARKER = "ZQX9MARK7"  # upper case and digits: upper() leaves it as it is
FORMATS = ("text", "json", "sarif", "github", "gitlab")


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def deeply_marked(value: Val) -> bool:
    """Every node of ``value`` (and of the structure behind an encoded string) is marked."""
    stack = [value]
    while stack:
        node = stack.pop()
        if not node.sensitive:
            return False
        if isinstance(node.raw, dict):
            stack.extend(node.raw.values())
        elif isinstance(node.raw, list):
            stack.extend(node.raw)
        if node.encoded is not None:
            stack.append(node.encoded)
    return True


def marks_hold(value: Val) -> bool:
    """The invariant every value keeps: the members of a marked node are all marked."""
    stack = [(value, False)]
    while stack:
        node, inside = stack.pop()
        if inside and not node.sensitive:
            return False
        below = inside or bool(node.sensitive)
        members = node.raw.values() if isinstance(node.raw, dict) else node.raw if isinstance(node.raw, list) else ()
        stack.extend((member, below) for member in members)
    return True


# ---------------------------------------------------------------------------------------------
# the value model


def test_with_sensitive_marks_every_node_and_keeps_the_type() -> None:
    from kapsulint.terraform.types import STRING, ListType

    value = Val([Val("a"), Val([Val("b")])], type=ListType(ListType(STRING)))
    marked = value.with_sensitive()
    assert deeply_marked(marked) and marked.type == value.type
    assert marked.sensitive is True and marked.raw[0].sensitive == INHERITED
    assert not value.contains_sensitive()  # copy on write: the original is untouched


def test_nonsensitive_removes_the_whole_mark_and_keeps_the_parts_own() -> None:
    value = Val([Val("a", sensitive=True), Val("b")]).with_sensitive()
    cleared = value.without_sensitive()
    assert not cleared.sensitive and cleared.raw[0].sensitive is True and not cleared.raw[1].sensitive


# ---------------------------------------------------------------------------------------------
# every function, with a marked argument


# One call that succeeds per registered function: its arguments as HCL. A function that takes no
# argument has none to mark. ``templatestring`` reads its template from a reference.
SAMPLES: dict[str, list[str]] = {
    "abs": ["-3"], "abspath": ['"x"'], "alltrue": ["[true]"], "anytrue": ["[true]"],
    "base64decode": ['"aGk="'], "base64encode": ['"hi"'], "base64gzip": ['"hi"'], "base64sha256": ['"hi"'],
    "base64sha512": ['"hi"'], "basename": ['"a/b"'], "bcrypt": ['"hi"', "4"], "ceil": ["1.5"],
    "chomp": ['"a\\n"'], "chunklist": ['["a", "b"]', "1"], "cidrhost": ['"10.0.0.0/8"', "1"],
    "cidrnetmask": ['"10.0.0.0/8"'], "cidrsubnet": ['"10.0.0.0/8"', "8", "1"],
    "cidrsubnets": ['"10.0.0.0/8"', "8", "8"], "coalesce": ['""', '"a"'], "coalescelist": ["[]", '["a"]'],
    "compact": ['["a", ""]'], "concat": ['["a"]', '["b"]'], "contains": ['["a"]', '"a"'],
    "csvdecode": ['"a,b\\n1,2\\n"'], "dirname": ['"a/b"'], "distinct": ['["a", "a"]'],
    "element": ['["a", "b"]', "1"], "endswith": ['"ab"', '"b"'], "ephemeralasnull": ['{ a = ["x"] }'],
    "file": ['"hello.txt"'], "filebase64": ['"hello.txt"'], "filebase64sha256": ['"hello.txt"'],
    "filebase64sha512": ['"hello.txt"'], "fileexists": ['"hello.txt"'], "filemd5": ['"hello.txt"'],
    "fileset": ['"."', '"*.txt"'], "filesha1": ['"hello.txt"'], "filesha256": ['"hello.txt"'],
    "filesha512": ['"hello.txt"'], "flatten": ['[["a"], ["b"]]'], "floor": ["1.5"], "format": ['"%s!"', '"a"'],
    "formatdate": ['"YYYY"', '"2024-01-01T00:00:00Z"'], "formatlist": ['"%s!"', '["a", "b"]'],
    "indent": ["2", '"a\\nb"'], "index": ['["a", "b"]', '"b"'], "issensitive": ['"a"'],
    "join": ['","', '["a", "b"]'], "jsondecode": ['"{\\"a\\":[1]}"'], "jsonencode": ["{ a = [1] }"],
    "keys": ["{ a = 1, b = 2 }"], "length": ['["a", "b"]'], "log": ["8", "2"],
    "lookup": ['{ a = "x" }', '"a"', '"d"'], "lower": ['"A"'],
    "matchkeys": ['["a", "b"]', '["x", "y"]', '["y"]'], "max": ["1", "2"], "md5": ['"a"'],
    "merge": ["{ a = 1 }", "{ b = 2 }"], "min": ["1", "2"], "nonsensitive": ['"a"'], "one": ['["a"]'],
    "parseint": ['"11"', "2"], "pathexpand": ['"a/b"'], "plantimestamp": [], "pow": ["2", "3"],
    "range": ["3"], "regex": ['"[a-z]+"', '"ab1"'], "regexall": ['"[a-z]"', '"ab"'],
    "replace": ['"abc"', '"b"', '"x"'], "reverse": ['["a", "b"]'], "rsadecrypt": ['"aGk="', '"key"'],
    "sensitive": ['"a"'], "setintersection": ['["a", "b"]', '["b"]'], "setproduct": ['["a", "b"]', '["c"]'],
    "setsubtract": ['["a", "b"]', '["b"]'], "setunion": ['["a"]', '["b"]'], "sha1": ['"a"'],
    "sha256": ['"a"'], "sha512": ['"a"'], "signum": ["-2"], "slice": ['["a", "b", "c"]', "0", "2"],
    "sort": ['["b", "a"]'], "split": ['","', '"a,b"'], "startswith": ['"ab"', '"a"'],
    "strcontains": ['"ab"', '"b"'], "strrev": ['"ab"'], "substr": ['"abc"', "0", "2"], "sum": ["[1, 2]"],
    "templatefile": ['"greeting.tftpl"', '{ name = "x" }'], "templatestring": ["local.template", '{ name = "x" }'],
    "textdecodebase64": ['"aGk="', '"UTF-8"'], "textencodebase64": ['"hi"', '"UTF-8"'],
    "timeadd": ['"2024-01-01T00:00:00Z"', '"1h"'],
    "timecmp": ['"2024-01-01T00:00:00Z"', '"2024-01-02T00:00:00Z"'], "timestamp": [], "title": ['"ab"'],
    "tobool": ['"true"'], "tolist": ['["a"]'], "tomap": ['{ a = "x" }'], "tonumber": ['"1"'],
    "toset": ['["a"]'], "tostring": ["1"], "transpose": ['{ a = ["x"] }'], "trim": ['"xax"', '"x"'],
    "trimprefix": ['"ab"', '"a"'], "trimspace": ['" a "'], "trimsuffix": ['"ab"', '"b"'], "upper": ['"a"'],
    "urlencode": ['"a b"'], "uuid": [], "uuidv5": ['"dns"', '"a"'], "values": ["{ a = 1 }"],
    "yamldecode": ['"a: [1]"'], "yamlencode": ["{ a = [1] }"], "zipmap": ['["a"]', '["x"]'],
}
# an argument a reference must give, marked
MARKED_ARGUMENT = {("templatestring", 0): "local.marked_template"}


@pytest.fixture(scope="module")
def evaluate(tmp_path_factory):
    directory = write(tmp_path_factory.mktemp("functions"), {
        "main.tf": """\
            locals {
              template        = "Hello $${name}"
              marked_template = sensitive("Hello $${name}")
            }
            """,
        "hello.txt": "hello\n",
        "greeting.tftpl": "Hello ${name}\n",
    })
    project = Project(ScanOptions(root=directory, cache=False, jobs=1)).load()
    instance = project.root_instance(str(directory))

    def run(text: str) -> Val:
        return instance.evaluator.eval_strict(parse_expression(text), str(directory / "main.tf"))

    return run


def test_every_function_has_a_sample() -> None:
    assert set(SAMPLES) == set(FUNCTIONS)
    for name, arguments in SAMPLES.items():
        if not arguments:
            spec = FUNCTIONS[name]
            assert not spec.params and spec.varparam is None, f"{name} takes arguments: give it a sample"


def _calls(name: str) -> list[tuple[str, str]]:
    """(call with argument i marked as a whole, plain call) for each argument of ``name``."""
    arguments = SAMPLES[name]
    plain = f"{name}({', '.join(arguments)})"
    calls = []
    for index, argument in enumerate(arguments):
        marked = MARKED_ARGUMENT.get((name, index), f"sensitive({argument})")
        calls.append((f"{name}({', '.join(arguments[:index] + [marked] + arguments[index + 1:])})", plain))
    return calls


@pytest.mark.parametrize("name", sorted(n for n, spec in FUNCTIONS.items() if not spec.handles_marks and SAMPLES.get(n)))
def test_a_marked_argument_marks_the_whole_result(evaluate, name: str) -> None:
    for marked, plain in _calls(name):
        assert not evaluate(plain).contains_sensitive(), plain
        result = evaluate(marked)
        assert deeply_marked(result), (marked, result)


def test_the_functions_that_handle_marks_say_so() -> None:
    assert {n for n, spec in FUNCTIONS.items() if spec.handles_marks} == {"sensitive", "nonsensitive", "issensitive"}


@pytest.mark.parametrize("expression, sensitive", [
    ('sensitive({ a = ["x"] })', True),
    ('nonsensitive(sensitive({ a = ["x"] }))', False),
    ('issensitive(sensitive("x"))', False),
    ('nonsensitive(sensitive([sensitive("a"), "b"]))[0]', True),
])
def test_mark_handling_functions(evaluate, expression: str, sensitive: bool) -> None:
    value = evaluate(expression)
    assert (deeply_marked(value) if sensitive else not value.contains_sensitive()), value


# A non-function construct reading a marked value: its result is marked wholly (Terraform 1.11.4
# prints "(sensitive value)" for each of these: tests/oracle/eval/goldens/modules/sensitive_marks.json).
CONSTRUCTS = [
    'sensitive(["a", "b"])[0]', 'sensitive({ a = "x" }).a', 'sensitive({ a = "x" })["a"]',
    '{ (sensitive("k")) = 1 }', '[for x in sensitive(["a"]) : x]', '[for x in ["a"] : "c" if sensitive(true)]',
    '{ for k, v in sensitive({ a = 1 }) : v => k }', 'sensitive([{ n = "a" }])[*].n',
    'sensitive(true) ? "a" : "b"', 'false ? sensitive("a") : "b"', '"<${sensitive("a")}>"',
    '"%{ if sensitive(true) }a%{ endif }"', '"%{ for x in sensitive(["a"]) }${x}%{ endfor }"',
    'sensitive(1) + 1', '-sensitive(1)', '!sensitive(true)', 'sensitive(1) > 0', '["a", sensitive("b")] == ["a", "b"]',
    'tolist(sensitive(["a"]))', 'toset(["a", sensitive("b")])', 'jsondecode(jsonencode(sensitive(["a"])))[0]',
    'yamldecode("a: ${sensitive("x")}").a', 'csvdecode("n\\n${sensitive("x")}\\n")[0].n',
    'split(",", sensitive("a,b"))[0]', 'regexall("[a-z]", sensitive("ab"))[0]', 'keys(sensitive({ a = 1 }))[0]',
    'formatlist("%s", sensitive(["a"]))[0]', 'concat(sensitive(["a"]), ["b"])[1]',
]


@pytest.mark.parametrize("expression", CONSTRUCTS)
def test_constructs_mark_their_results_wholly(evaluate, expression: str) -> None:
    value = evaluate(expression)
    assert deeply_marked(value) and marks_hold(value), value


@pytest.mark.parametrize("expression, parts", [
    # Terraform keeps the marks per element here (sensitive_partial.json): the rest stays readable
    ('[sensitive("a"), "b"]', [True, False]),
    ('concat([sensitive("a")], ["b"])', [True, False]),
    ('values({ a = sensitive("x"), b = "y" })', [True, False]),
    ('tolist(["b", sensitive("a")])', [False, True]),
    ('true ? ["a", sensitive("b")] : []', [False, True]),
    ('[for x in ["a", sensitive("b")] : x]', [False, True]),
])
def test_collections_keep_the_marks_of_their_elements(evaluate, expression: str, parts: list[bool]) -> None:
    value = evaluate(expression)
    assert not value.sensitive and [bool(item.sensitive) for item in value.raw] == parts
    assert marks_hold(value)


def test_a_failing_call_withholds_the_sensitive_argument(evaluate) -> None:
    # terraform console 1.11.4: 'invalid CIDR expression: invalid CIDR address: Tok3n-Marker.'
    with pytest.raises(EvalError) as raised:
        evaluate(f'cidrhost(sensitive("{MARKER}"), 1)')
    assert MARKER not in str(raised.value) and str(raised.value).startswith("Error in function call")


# ---------------------------------------------------------------------------------------------
# end to end: a secret through each function family, from each source


# (expression of var.secret, what a leak of it would print besides the marker)
FAMILIES = {
    "strings": ('upper(trimspace(" ${var.secret} "))', []),
    "substr": ("substr(var.secret, 0, 9)", []),
    "split": ('split(",", var.secret)[0]', []),
    "join": ('join("-", [var.secret, "x"])', []),
    "replace": ('replace(var.secret, "MARK", "MARK")', []),
    "format": ('format("%s-x", var.secret)', []),
    "formatlist": ('formatlist("%s", [var.secret])[0]', []),
    "regex": ('regex("[A-Z0-9]+", var.secret)', []),
    "regexall": ('regexall("[A-Z0-9]+", var.secret)[0]', []),
    "collections": ('element(reverse(sort(distinct(concat(["a"], [var.secret])))), 0)', []),
    "keys": ("keys({ (var.secret) = 1 })[0]", []),
    "lookup": ('lookup({ a = var.secret }, "a")', []),
    "maps": ('merge({ a = "x" }, zipmap(["b"], [var.secret])).b', []),
    "sets": ('tolist(setunion([var.secret], []))[0]', []),
    "conversion": ("tostring(tolist(toset([var.secret]))[0])", []),
    "encoding": ("jsondecode(jsonencode([var.secret]))[0]", []),
    "yaml": ('yamldecode(yamlencode({ a = var.secret })).a', []),
    "csv": ('csvdecode("n\\n${var.secret}\\n")[0].n', []),
    "base64": ("base64encode(var.secret)", [base64.b64encode(MARKER.encode()).decode()]),
    "hash": ("sha256(var.secret)", [hashlib.sha256(MARKER.encode()).hexdigest()]),
    "crypto": ("md5(var.secret)", [hashlib.md5(MARKER.encode(), usedforsecurity=False).hexdigest()]),
    "lower": ("lower(var.secret)", [MARKER.lower()]),
    "template": ('"pool-${var.secret}"', []),
    "template-if": ('"%{ if var.secret != "" }${var.secret}%{ endif }"', []),
    "template-for": ('"%{ for c in [var.secret] }${c}%{ endfor }"', []),
    "for": ("[for c in [var.secret] : c][0]", []),
    "for-object": ("{ for c in [var.secret] : c => c }[var.secret]", []),
    "splat": ("([{ n = var.secret }][*].n)[0]", []),
    "conditional": ('var.secret == "" ? "none" : var.secret', []),
    "try": ("try(var.secret, \"x\")", []),
    "coalesce": ('coalesce("", var.secret)', []),
    "one": ("one([var.secret])", []),
}
NETWORK = ("cidrhost(var.cidr, 1)", ["10.77.0.1", "10.77.0.0/16"])
DATES = ('timeadd(var.when, "1h")', ["2087-05-01T11:00:00Z", "2087-05-01T10:00:00Z"])
NUMBERS = ('"n${var.number * 7}"', ["n33719", "4817"])


def _pools(expressions: dict[str, str]) -> str:
    blocks = []
    for name, expression in expressions.items():
        blocks.append(f"""
resource "scaleway_k8s_pool" "{name.replace('-', '_')}" {{
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = {expression}
  node_type   = {expression}
  size        = 1
  autohealing = true
  lifecycle {{
    create_before_destroy = true
  }}
}}
""")
    return "".join(blocks)


CLUSTER = """\
provider "scaleway" {}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35"
  cni                         = "cilium"
  type                        = "kapsule"
  private_network_id          = "11111111-1111-1111-1111-111111111111"
  delete_additional_resources = false
}

resource "scaleway_k8s_pool" "unfixed" {
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "DEV1-M"
  size        = 1
  autohealing = true
}
"""


def _expressions() -> dict[str, str]:
    everything = {name: expression for name, (expression, _) in FAMILIES.items()}
    everything.update(network=NETWORK[0], dates=DATES[0], numbers=NUMBERS[0])
    return everything


def _leaks() -> list[str]:
    leaks = [MARKER]
    for _, extra in FAMILIES.values():
        leaks.extend(extra)
    return leaks + NETWORK[1] + DATES[1] + NUMBERS[1]


VARIABLES = """\
variable "secret" {
  type      = string
  sensitive = true
}
variable "cidr" {
  type      = string
  sensitive = true
}
variable "when" {
  type      = string
  sensitive = true
}
variable "number" {
  type      = number
  sensitive = true
}
"""
VALUES = {"secret": MARKER, "cidr": "10.77.0.0/16", "when": "2087-05-01T10:00:00Z", "number": "4817"}


def _literal(name: str) -> str:
    return VALUES[name] if name == "number" else json.dumps(VALUES[name])


TFVARS = "".join(f"{name} = {_literal(name)}\n" for name in VALUES)


def _project(tmp_path: Path, source: str) -> tuple[Path, list[str], dict[str, str]]:
    """A project whose secrets come from ``source``; the extra arguments and environment to run it."""
    files = {"main.tf": CLUSTER + _pools(_expressions())}
    args: list[str] = []
    env: dict[str, str] = {}
    if source == "tfvars":
        files["variables.tf"] = VARIABLES
        files["terraform.tfvars"] = TFVARS
    elif source == "defaults":
        files["variables.tf"] = "".join(
            f'variable "{name}" {{\n  sensitive = true\n  default   = {_literal(name)}\n}}\n' for name in VALUES)
    elif source == "var":
        files["variables.tf"] = VARIABLES
        args = [item for name, value in VALUES.items() for item in ("--var", f"{name}={value}")]
    elif source == "env":
        # not declared sensitive: a value read from the environment is sensitive to kapsulint
        files["variables.tf"] = VARIABLES.replace("  sensitive = true\n", "")
        args = ["--env-vars"]
        env = {f"TF_VAR_{name}": value for name, value in VALUES.items()}
    elif source == "module":
        # the secrets reach a child module's plain variables from the root's sensitive ones
        files["variables.tf"] = VARIABLES
        files["terraform.tfvars"] = TFVARS
        files["pools/main.tf"] = VARIABLES.replace("  sensitive = true\n", "") + _pools(_expressions()).replace(
            "scaleway_k8s_cluster.main.id", '"11111111-1111-1111-1111-111111111111"')
        files["main.tf"] = CLUSTER + 'module "pools" {\n  source = "./pools"\n' + "".join(
            f"  {name} = var.{name}\n" for name in VALUES) + "}\n"
    elif source == "output":
        # a child's output declared sensitive, of plain values
        files["values/main.tf"] = "".join(
            f'output "{name}" {{\n  value     = {_literal(name)}\n  sensitive = true\n}}\n' for name in VALUES)
        files["main.tf"] = (CLUSTER + 'module "values" {\n  source = "./values"\n}\n'
                            + "locals {\n" + "".join(f"  {n} = module.values.{n}\n" for n in VALUES) + "}\n"
                            + _pools(_expressions()).replace("var.", "local."))
    elif source == "function":
        files["main.tf"] = (CLUSTER + "locals {\n" + "".join(f"  {name} = sensitive({_literal(name)})\n" for name in VALUES)
                            + "}\n" + _pools(_expressions()).replace("var.", "local."))
    write(tmp_path, files)
    return tmp_path, args, env


SOURCES = ("tfvars", "defaults", "var", "env", "module", "output", "function")


def _run(directory: Path, args: list[str], env: dict[str, str], monkeypatch) -> str:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, [*args, "--no-cache", "."], env=env, catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    return result.output


def _assert_hidden(output: str, what: str) -> None:
    for leak in _leaks():  # a number as a word: it may be part of a digest
        pattern = rf"(?<![0-9a-f]){leak}(?![0-9a-f])" if leak.isdigit() else re.escape(leak)
        found = re.search(pattern, output, re.IGNORECASE)
        assert found is None, f"{what} prints {leak!r}:\n{output}"


@pytest.mark.parametrize("source", SOURCES)
def test_no_output_prints_a_secret(tmp_path, monkeypatch, source: str) -> None:
    directory, args, env = _project(tmp_path, source)
    outputs = {}
    for format_name in FORMATS:
        outputs[format_name] = _run(directory, [*args, "--format", format_name], env, monkeypatch)
    outputs["statistics"] = _run(directory, [*args, "--statistics"], env, monkeypatch)
    outputs["unsafe"] = _run(directory, [*args, "--unsafe-fixes", "--format", "json"], env, monkeypatch)
    monkeypatch.chdir(directory)
    diff = CliRunner().invoke(main, [*args, "--diff", "--unsafe-fixes", "--no-cache", "."], env=env)
    outputs["diff"] = diff.output
    for what, output in outputs.items():
        _assert_hidden(output, f"{source}: {what}")
    # the findings are there, and say the value is sensitive
    findings = json.loads(outputs["json"])
    pools = [f for f in findings if f["rule"] == "KAP204"]
    assert len(pools) >= len(_expressions()) and all(SENSITIVE_VALUE in f["message"] for f in pools)
    assert "+    create_before_destroy = true" in outputs["diff"]  # the pool without a secret is still fixed


@pytest.mark.parametrize("source", SOURCES)
def test_eval_prints_sensitive_value(tmp_path, monkeypatch, source: str) -> None:
    directory, args, env = _project(tmp_path, source)
    prefix = "local." if source in ("output", "function") else "var."
    expressions = [expression.replace("var.", prefix) for expression in _expressions().values()]
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, [*args, *(item for e in expressions for item in ("--eval", e)), "."], env=env)
    assert result.exit_code == 0, result.output
    _assert_hidden(result.output, f"{source}: --eval")
    for line in result.output.splitlines():
        answer = json.loads(line)
        assert answer.get("sensitive") is True and answer["value"] == SENSITIVE_VALUE, answer
        assert "type" not in answer


def test_eval_masks_like_terraform_console(tmp_path, monkeypatch) -> None:
    """``terraform console`` 1.11.4 prints ``[(sensitive value), "x"]`` for a tuple holding a
    sensitive string, ``(sensitive value)`` for a sensitive variable, the value for
    ``nonsensitive()`` of it (sensitive_marks.json)."""
    write(tmp_path, {"variables.tf": VARIABLES, "terraform.tfvars": TFVARS,
                     "list.tf": 'variable "l" {\n  type      = list(string)\n  sensitive = true\n'
                                '  default   = ["1", "2"]\n}\n'})
    expressions = ["var.secret", '[var.secret, "x"]', "nonsensitive(var.secret)", "var.l == tolist([\"1\", \"2\"])",
                   'nonsensitive(var.l == tolist(["1", "2"]))', "nonsensitive(var.l)", 'cidrhost(var.secret, 1)']
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, [*(item for e in expressions for item in ("--eval", e)), "."])
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert answers[0] == {"expression": "var.secret", "sensitive": True, "value": SENSITIVE_VALUE}
    assert answers[1]["value"] == [SENSITIVE_VALUE, "x"]
    assert answers[2] == {"expression": "nonsensitive(var.secret)", "value": MARKER, "type": "string"}
    assert answers[3]["sensitive"] is True
    # the declared type survives the mark: Terraform says true
    assert answers[4] == {"expression": answers[4]["expression"], "value": True, "type": "bool"}
    assert answers[5]["type"] == "list(string)"
    assert MARKER not in answers[6]["error"]


# ---------------------------------------------------------------------------------------------
# snippets, related locations, fixes


def test_snippet_masks_the_secret_written_in_tfvars(tmp_path, monkeypatch) -> None:
    """KAP202 anchors at the literal in terraform.tfvars: its line is shown with the secret masked,
    the marker under it, the rest of the line kept."""
    write(tmp_path, {
        "main.tf": CLUSTER.replace('resource "scaleway_k8s_pool" "unfixed"', 'resource "scaleway_k8s_pool" "other"')
        + """
variable "pool_name" {
  type      = string
  sensitive = true
}
resource "scaleway_k8s_pool" "named" {
  cluster_id  = scaleway_k8s_cluster.main.id
  name        = var.pool_name
  node_type   = "DEV1-M"
  size        = 1
  autohealing = true
  lifecycle {
    create_before_destroy = true
  }
}
""",
        "terraform.tfvars": f'pool_name = "{MARKER}" # the pool\n',
    })
    output = _run(tmp_path, ["--select", "KAP202"], {}, monkeypatch)
    assert MARKER not in output
    lines = output.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("terraform.tfvars:1:13: KAP202"))
    assert lines[at + 1] == f"    1 | pool_name = {SENSITIVE_VALUE} # the pool"
    assert lines[at + 2] == "      |             " + "^" * len(SENSITIVE_VALUE)


def test_a_fix_that_would_write_a_sensitive_value_is_not_offered(tmp_path, monkeypatch) -> None:
    """KAP102 rewrites "1.35.2" to "1.35": not when the version is a sensitive variable's."""
    write(tmp_path, {
        "main.tf": CLUSTER.replace('version                     = "1.35"', "version = var.cluster_version")
        + """
resource "scaleway_k8s_cluster" "auto" {
  name               = "auto"
  version            = var.cluster_version
  cni                = "cilium"
  type               = "kapsule"
  private_network_id = "11111111-1111-1111-1111-111111111111"
  auto_upgrade {
    enable                        = true
    maintenance_window_start_hour = 3
    maintenance_window_day        = "monday"
  }
}
variable "cluster_version" {
  type      = string
  sensitive = true
  default   = "1.35.2"
}
""",
    })
    findings = json.loads(_run(tmp_path, ["--select", "KAP102", "--format", "json"], {}, monkeypatch))
    assert findings and all(f["edits"] == [] and f["fixable"] is None for f in findings)
    for found in findings:  # neither the version nor the minor read out of it
        assert "1.35.2" not in json.dumps(found) and 'version = "1.35"' not in json.dumps(found)


def test_diff_masks_a_sensitive_literal_shown_around_an_edit(tmp_path, monkeypatch) -> None:
    write(tmp_path, {
        "main.tf": CLUSTER.replace("  size        = 1\n  autohealing = true\n}\n",
                                   f'  size        = 1\n  autohealing = true\n  tags        = [var.token]\n}}\n'
                                   f'variable "token" {{\n  default   = "{MARKER}"\n  sensitive = true\n}}\n'),
    })
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["--diff", "--no-cache", "."])
    assert "+    create_before_destroy = true" in result.stdout
    assert MARKER not in result.stdout and SENSITIVE_VALUE in result.stdout


def test_a_sensitive_for_each_expands_to_no_known_instance(tmp_path, monkeypatch) -> None:
    """terraform plan 1.11.4 refuses ``for_each = toset([var.secret])`` ("Sensitive values, or
    values derived from sensitive values, cannot be used as for_each arguments"): no instance
    address shows a key, and a map whose values only are sensitive still expands."""
    write(tmp_path, {
        "variables.tf": VARIABLES, "terraform.tfvars": TFVARS,
        "main.tf": CLUSTER + """
resource "scaleway_k8s_pool" "keyed" {
  for_each    = toset([var.secret])
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = "unknown-${each.key}"
  size        = 1
  autohealing = true
}
resource "scaleway_k8s_pool" "valued" {
  for_each    = { a = var.secret }
  cluster_id  = scaleway_k8s_cluster.main.id
  node_type   = each.value
  size        = 1
  autohealing = true
}
""",
    })
    findings = json.loads(_run(tmp_path, ["--format", "json"], {}, monkeypatch))
    assert MARKER not in json.dumps(findings)
    instances = {f["rule"]: f.get("instances") for f in findings if "keyed" in f["message"]}
    assert instances == {"KAP201": ["scaleway_k8s_pool.keyed[?]"]}  # its node_type is Unknown: no KAP204
    valued = [f for f in findings if f["rule"] == "KAP204"]
    assert [(f["instances"], SENSITIVE_VALUE in f["message"]) for f in valued] == [
        (['scaleway_k8s_pool.valued["a"]'], True)]


def test_set_sensitive_values_are_masked(tmp_path, monkeypatch) -> None:
    """``set_sensitive`` values, which the Helm provider marks: KAP316 and KAP302 judge them and
    print neither; KAP312 offers no rewrite of those blocks, whose new text would hold them."""
    write(tmp_path, {
        "main.tf": f"""\
            resource "helm_release" "haproxy" {{
              name       = "haproxy"
              repository = "https://haproxytech.github.io/helm-charts"
              chart      = "kubernetes-ingress"
              version    = "1.44.3"
              set {{
                name  = "controller.service.type"
                value = "LoadBalancer"
              }}
              set_sensitive {{
                name  = "controller.service.annotations.service\\\\.beta\\\\.kubernetes\\\\.io/scw-loadbalancer-sticky-sessions"
                value = "{MARKER}cookie"
              }}
              set_sensitive {{
                name  = "controller.config.proxy-protocol"
                value = "0.0.0.0/0"
              }}
            }}
            """,
    })
    for format_name in FORMATS:
        _assert_hidden(_run(tmp_path, ["--format", format_name], {}, monkeypatch), f"set_sensitive {format_name}")
    findings = json.loads(_run(tmp_path, ["--format", "json"], {}, monkeypatch))
    masked = {f["rule"] for f in findings if SENSITIVE_VALUE in f["message"]}
    assert {"KAP316", "KAP302"} <= masked
    rewrites = [f for f in findings if f["rule"] == "KAP312"]
    assert [f["line"] for f in rewrites if f["fixable"]] == [6]  # the plain set block only
    monkeypatch.chdir(tmp_path)
    diff = CliRunner().invoke(main, ["--diff", "--no-cache", "."]).output
    assert "set = [" in diff and "0.0.0.0/0" not in diff
    _assert_hidden(diff, "set_sensitive --diff")


def test_show_settings_names_environment_variables_without_values(tmp_path, monkeypatch) -> None:
    write(tmp_path, {"variables.tf": VARIABLES})
    env = {f"TF_VAR_{name}": value for name, value in VALUES.items()}
    output = _run(tmp_path, ["--show-settings", "--env-vars", "--var", f"secret={MARKER}"], env, monkeypatch)
    assert "secret" in output
    _assert_hidden(output, "--show-settings")


def test_sensitive_record_masks_regions_and_texts() -> None:
    record = Sensitive({"a.tf": [(1, 7, 1, 13)]}, {MARKER, "ab"})
    text, spans = record.line("a.tf", 1, 'key = "hunt" + other')
    assert text == f"key = {SENSITIVE_VALUE} + other" and spans == [(7, 13)]
    after = len(SENSITIVE_VALUE) - 6
    assert [masked_column(spans, c) for c in (1, 7, 9, 13, 15)] == [1, 7, 7, 13 + after, 15 + after]
    assert masked_column(spans, 13, end=True) == 7 + len(SENSITIVE_VALUE)
    assert record.text(f"x {MARKER} y ab") == f"x {SENSITIVE_VALUE} y ab"  # two letters are too short to match
    assert record.overlaps("a.tf", 1, 9, 1, 9) and not record.overlaps("a.tf", 1, 13, 1, 13)
    assert record.overlaps("a.tf", 1, 1, 1, 8) and not record.overlaps("a.tf", 1, 1, 1, 7)
    assert not Sensitive()


def test_unknown_operands_keep_their_marks(evaluate) -> None:
    value = evaluate('sensitive(["a"])[0] == "a" ? timestamp() : "x"')
    assert value.raw is UNKNOWN and value.sensitive
    assert evaluate('upper(sensitive(timestamp()))').sensitive


DOMAIN = """\
variable "gate" {
  type      = string
  sensitive = true
}
variable "kubelet" {
  type      = map(string)
  sensitive = true
}
variable "acl_ip" {
  type      = string
  sensitive = true
}
variable "lb_algorithm" {
  type      = string
  sensitive = true
}
variable "values_yaml" {
  type      = string
  sensitive = true
}

resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.34"
  cni                         = "cilium"
  type                        = "kapsule"
  private_network_id          = "11111111-1111-1111-1111-111111111111"
  delete_additional_resources = false
  feature_gates               = [var.gate]
}

resource "scaleway_k8s_acl" "main" {
  cluster_id = scaleway_k8s_cluster.main.id
  acl_rules {
    ip = var.acl_ip
  }
}

resource "scaleway_k8s_pool" "apps" {
  cluster_id   = scaleway_k8s_cluster.main.id
  node_type    = "POP2-4C-16G"
  size         = 3
  autohealing  = true
  kubelet_args = var.kubelet
  lifecycle {
    create_before_destroy = true
  }
}

resource "kubernetes_service_v1" "api" {
  metadata {
    name = "api"
    annotations = {
      "service.beta.kubernetes.io/scw-loadbalancer-forward-port-algorithm" = var.lb_algorithm
    }
  }
  spec {
    type = "LoadBalancer"
    port {
      port = 443
    }
  }
}

resource "helm_release" "ingress" {
  name       = "haproxy-ingress"
  repository = "https://haproxytech.github.io/helm-charts"
  chart      = "kubernetes-ingress"
  version    = "1.52.1"
  values     = [var.values_yaml, yamlencode({ controller = { config = { "proxy-protocol" = var.acl_ip } } })]
}
"""
DOMAIN_TFVARS = f"""\
gate         = "{MARKER}Gate"
kubelet      = {{ "{MARKER}-flag" = "1" }}
acl_ip       = "0.0.0.0/0"
lb_algorithm = "{MARKER}-robin"
values_yaml  = <<-EOT
  controller:
    service:
      type: LoadBalancer
      annotations:
        service.beta.kubernetes.io/scw-loadbalancer-sticky-sessions: {MARKER}cookie
EOT
"""


def test_domain_rules_mask_what_they_read(tmp_path, monkeypatch) -> None:
    """Feature gates (KAP111), kubelet_args keys (KAP207), an ACL rule (KAP403), annotation values
    (KAP316, from an attribute and from a sensitive values document), PROXY trust (KAP302): each
    rule fires on the sensitive value and prints none of it, nor a suggestion close to it."""
    write(tmp_path, {"main.tf": CLUSTER.split("resource", 1)[0] + DOMAIN, "terraform.tfvars": DOMAIN_TFVARS})
    outputs = {name: _run(tmp_path, ["--format", name], {}, monkeypatch) for name in FORMATS}
    for name, output in outputs.items():
        _assert_hidden(output, name)
    findings = json.loads(outputs["json"])
    fired = {f["rule"] for f in findings if SENSITIVE_VALUE in f["message"]}
    assert {"KAP111", "KAP207", "KAP403", "KAP316", "KAP302"} <= fired, sorted((f["rule"], f["message"]) for f in findings)
    for found in findings:
        assert "0.0.0.0/0" not in found["message"] or found["rule"] not in ("KAP302", "KAP403"), found
