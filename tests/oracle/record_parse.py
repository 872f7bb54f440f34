"""Record Terraform's parse verdict for every file of the parse conformance corpus.

Usage, from the repository root, where Terraform is installed::

    .venv/bin/python tests/oracle/record_parse.py

The corpus is ``tests/oracle/parse/hand/`` (one construct per file, written by hand, and a few
whole Kapsule configurations, ``real-*.tf``), ``tests/oracle/parse/mutated/`` (those configurations
with one random edit each: a character deleted or inserted, a newline after an operator, the file
cut short, CRLF newlines) and
``tests/oracle/parse/generated/`` (rewritten by this script: files drawn by hypothesis from a small
grammar of HCL constructs, with a fixed seed, so a re-recording yields the same files). Every file
goes through ``terraform fmt -check -no-color FILE``, which only parses (hclwrite over the hclsyntax
scanner and parser, https://github.com/hashicorp/terraform/blob/v1.11.4/internal/command/fmt.go):
exit 0 (formatted) and 3 (parses, not formatted) mean the file parses; exit 2 with an ``Error:``
diagnostic means a syntax error. Any other outcome stops the recording.

The verdicts go to ``tests/oracle/parse/verdicts.json``: the Terraform version and, per file
(relative to ``tests/oracle/parse/``), ``{"parses": bool}`` plus, for a syntax error, the first
diagnostic's summary and line. The values of TEMPLATES, from ``terraform console``, go to
``tests/oracle/parse/templates.json``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "parse"
GENERATED = CORPUS / "generated"
VERDICTS = CORPUS / "verdicts.json"
GENERATED_COUNT = 600

TEMPLATES_GOLDEN = CORPUS / "templates.json"

_LOCATION = re.compile(r"^\s*on .* line (\d+)")

# Template expressions whose value the parser shapes (heredoc indentation, strip markers): their
# value is recorded from ``terraform console`` as the string ``jsonencode`` gives.
TEMPLATES = {
    'flush-min': '<<-EOT\n    hello\n  world\n    EOT\n',
    'flush-col0': '<<-EOT\n    hello\nworld\n    EOT\n',
    'flush-blank': '<<-EOT\n    hello\n\n      world\n    EOT\n',
    'flush-spaces-line': '<<-EOT\n    hello\n  \n      world\n    EOT\n',
    'flush-tabs': '<<-EOT\n\thello\n\t\tworld\n\tEOT\n',
    'flush-close-less': '<<-EOT\n    x\n  EOT\n',
    'flush-close-col0': '<<-EOT\n    x\nEOT\n',
    'flush-interp-line': '<<-EOT\n  a ${"x"}\n    b\n  EOT\n',
    'flush-interp-start': '<<-EOT\n    a\n  ${"x"}\n  EOT\n',
    'flush-interp-only-less': '<<-EOT\n    a\n${"x"}\n    EOT\n',
    'flush-for': '<<-EOT\n    %{ for x in ["a","b"] ~}\n    ${x}\n    %{ endfor ~}\n    EOT\n',
    'flush-if': '<<-EOT\n  %{ if true }\n  yes\n  %{ endif }\n  EOT\n',
    'flush-strip-if': '<<-EOT\n  a:\n    %{~ if true ~}\n    b: 1\n    %{~ endif ~}\n  EOT\n',
    'for-strip-right': '<<EOT\n%{ for x in ["a","b"] ~}\n  ${x}\n%{ endfor ~}\nEOT\n',
    'for-strip-both': '<<EOT\n  %{~ for x in ["a","b"] ~}\n  - ${x}\n  %{~ endfor ~}\nEOT\n',
    'for-nostrip': '<<EOT\n%{ for x in ["a","b"] }\n  ${x}\n%{ endfor }\nEOT\n',
    'for-yaml': '<<EOT\nlist:\n%{ for x in ["a","b"] ~}\n  - ${x}\n%{ endfor ~}\nother: 1\nEOT\n',
    'interp-strip-heredoc': '<<EOT\nhello\n${~ "x" ~}\nworld\nEOT\n',
    'close-indented': '<<EOT\n  x\n  EOT\n',
    'close-trailing-space': '<<EOT\nx\nEOT  \n',
    'empty': '<<EOT\nEOT\n',
    'empty-flush': '<<-EOT\nEOT\n',
    'blank-lines': '<<EOT\n\n\nEOT\n',
    'str-strip': '"a  ${~ "b" ~}  c"',
    'str-strip-escaped-nl': '"a\\n ${~ "b" ~} \\nc"',
    'str-dir-strip': '"%{ if true ~}  x  %{~ endif }"',
    'str-dir-else-strip': '"%{ if false }a%{~ else ~}  b  %{ endif }"',
    'str-for-strip': '"%{ for x in ["a","b"] ~} ${x} %{~ endfor }"',
    'heredoc-escape-literal': '<<EOT\nback\\nslash $${a} %%{b}\nEOT\n',
    'heredoc-unicode-indent': '<<-EOT\n  é\n   ü\n  EOT\n',
    'flush-strip-for-yaml': '<<-EOT\n  items:\n  %{~ for x in ["a","b"] }\n    - ${x}\n  %{~ endfor }\n  EOT\n',
}



def terraform_version() -> str:
    out = subprocess.run(["terraform", "version", "-json"], capture_output=True, text=True, check=True,
                         env=_environment())
    return json.loads(out.stdout)["terraform_version"]


def _environment() -> dict[str, str]:
    return {**os.environ, "TF_CLI_CONFIG_FILE": os.devnull, "CHECKPOINT_DISABLE": "1"}


def verdict(path: Path) -> dict:
    """Terraform's verdict on one file."""
    run = subprocess.run(["terraform", "fmt", "-check", "-no-color", str(path)], capture_output=True,
                         env=_environment())
    if run.returncode in (0, 3):
        return {"parses": True}
    errors = run.stderr.decode("utf-8", "replace").splitlines()
    summaries = [line[len("Error: "):].strip() for line in errors if line.startswith("Error: ")]
    if run.returncode != 2 or not summaries:
        raise RuntimeError(f"{path}: unexpected terraform fmt outcome {run.returncode}: {run.stderr!r}")
    lines = [int(m.group(1)) for m in map(_LOCATION.match, errors) if m]
    result: dict = {"parses": False, "message": summaries[0]}
    if lines:
        result["line"] = lines[0]
    return result


def template_value(item: tuple[str, str]) -> tuple[str, dict]:
    """``jsonencode(EXPRESSION)`` in ``terraform console``, in a scratch module."""
    name, expression = item
    with tempfile.TemporaryDirectory() as scratch:
        Path(scratch, "main.tf").write_text(f"locals {{\n  x = jsonencode({expression})\n}}\n", encoding="utf-8")
        run = subprocess.run(["terraform", "console"], input="local.x\n", cwd=scratch, capture_output=True,
                             text=True, env=_environment())
    if run.returncode != 0:
        raise RuntimeError(f"{name}: terraform console failed: {run.stderr}")
    return name, {"expression": expression, "value": json.loads(json.loads(run.stdout.strip()))}


def generate() -> None:
    """Rewrite ``generated/`` with GENERATED_COUNT distinct files drawn from the grammar."""
    if GENERATED.exists():
        shutil.rmtree(GENERATED)
    GENERATED.mkdir(parents=True)
    for number, text in enumerate(draw_files(GENERATED_COUNT)):
        (GENERATED / f"gen-{number:04d}.tf").write_bytes(text.encode("utf-8"))


def draw_files(count: int) -> list[str]:
    """``count`` distinct files drawn by hypothesis, derandomized: the same files every time."""
    from hypothesis import HealthCheck, given, settings

    found: dict[str, None] = {}

    @settings(max_examples=count * 20, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(_body())
    def collect(text: str) -> None:
        if len(found) < count:
            found.setdefault(text)

    collect()
    return list(found)


def _body():
    """A file: attributes and blocks, with separators that are sometimes wrong on purpose."""
    from hypothesis import strategies as st

    expression = _expression(st)
    name = st.sampled_from(["a", "b_c", "d-e", "null", "true", "for", "in", "if", "é", "x1"])
    label = st.one_of(name, st.sampled_from(['"l"', '"${x}"', '""', '"a\\nb"']))
    attribute = st.tuples(name, _gap(st), expression).map(lambda t: f"{t[0]} ={t[1]}{t[2]}")
    block = st.tuples(name, st.lists(label, max_size=2), st.sampled_from(["{}", "{\n}", "{\n  k = 1\n}", "{ k = 1 }"]),
                      st.sampled_from([" ", " /* c */ ", "\n"])).map(
        lambda t: t[3].join([t[0], *t[1], t[2]]))
    item = st.one_of(attribute, attribute, block)
    end = st.sampled_from(["\n", "\n", "", " # c\n", " ", "\n\n", "\r\n", " /* c\n */\n"])
    return st.lists(st.tuples(item, end), min_size=1, max_size=3).map(lambda items: "".join(a + b for a, b in items))


def _gap(st):
    return st.sampled_from([" ", " ", " ", "", "\n", " /* c */ ", " # c\n"])


def _expression(st):
    """Expression text from HCL's native syntax, glued with gaps that may hold newlines."""
    return st.recursive(_atom(st), lambda inner: _compound(st, inner), max_leaves=6)


def _atom(st):
    return st.sampled_from([
        "1", "0.5", "1e3", "1.5e-3", "-1", "x", "null", "true", "false", "for", "é", "a-b", '"s"', '""',
        '"${x}"', '"${~ x ~}"', '"a${x}b"', '"$${x}"', '"%%{x}"', '"\\n\\u00e9"', '"\\q"', '"\\U00300000"',
        '"%{ if x }y%{ endif }"', '"%{~ for v in l ~}${v}%{~ endfor ~}"', '"%{ else }"', '"${"',
        "<<EOT\nh ${x}\nEOT\n", "<<-EOT\n  h\n  EOT\n", "<<EOT\nh\nEOT", "[]", "{}", "x.y", "x.0", "x.0.1",
        "x[0]", "x.*.y", "x[*].y", "x.*.*", "x[*][*]", "p::f(1)", "f()", "f(x...)",
        "a·b", "a‿b", "a²", "क्ष", "a\u200db", "<<EOT\n${<<EOT\ni\nEOT\n}\nEOT\n", "<<EOT\n${\nEOT\n}\nEOT\n",
        "<<EOT\ncat <<EOT\nEOT\n", "<<EOT\nx\ry\nEOT\n", "<<EOT\r\nx\r\nEOT\r\n", "<<-EOT\n\t%{ if x ~}\n\ty\n\t%{ endif }\n\tEOT\n",
        '"$$${x}"', '"%%%{x}"', '"${ {a = 1}.a }"', '"${"}"}"', "\ufeffx",
    ])


def _compound(st, inner):
    gap = _gap(st)
    unary = st.tuples(st.sampled_from(["!", "-", "!!", "- -"]), inner).map(lambda t: t[0] + t[1])
    binary = st.tuples(inner, gap, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||"]),
                       gap, inner).map(lambda t: "".join(t))
    cond = st.tuples(inner, gap, inner, gap, inner).map(lambda t: f"{t[0]}{t[1]}?{t[2]}:{t[3]}{t[4]}")
    paren = st.tuples(gap, inner, gap).map(lambda t: f"({''.join(t)})")
    tuple_ = st.lists(st.tuples(inner, gap), max_size=3).flatmap(
        lambda items: st.sampled_from([",", ", ", ",\n", " "]).map(
            lambda sep: "[" + sep.join(a + b for a, b in items) + "]"))
    key = st.sampled_from(["k", "null", "for", "in", '"q"', "(x)", "1"])
    object_ = st.lists(st.tuples(key, st.sampled_from([" = ", ": ", "="]), inner), max_size=3).flatmap(
        lambda items: st.sampled_from([", ", "\n", " ", ",\n"]).map(
            lambda sep: "{" + sep.join(a + b + c for a, b, c in items) + "}"))
    call = st.tuples(st.sampled_from(["f", "p::f", "a::b::f"]), st.lists(inner, max_size=3),
                     st.sampled_from([",", ",\n", ", "]), st.sampled_from(["", ",", "..."])).map(
        lambda t: f"{t[0]}({t[2].join(t[1])}{t[3] if t[1] else ''})")
    for_ = st.tuples(st.sampled_from(["x", "k, v", "for", "k,"]), gap, inner, gap, inner,
                     st.sampled_from(["", " if x", "\nif x"]), st.booleans()).map(
        lambda t: (f"{{for {t[0]} in {t[2]} :{t[3]}{t[4]} => {t[4]}{t[5]}}}" if t[6]
                   else f"[for {t[0]} in {t[2]} :{t[1]}{t[4]}{t[5]}]"))
    traversal = st.tuples(inner, st.sampled_from([".a", "[0]", ".0", ".*", "[*]", ".*.b", ".null", "[\n0]"])).map(
        lambda t: t[0] + t[1])
    return st.one_of(unary, binary, cond, paren, tuple_, object_, call, for_, traversal)


def main() -> None:
    generate()
    files = sorted(p for p in CORPUS.rglob("*.tf"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(verdict, files))
    verdicts = {p.relative_to(CORPUS).as_posix(): r for p, r in zip(files, results)}
    document = {"terraform_version": terraform_version(), "command": "terraform fmt -check -no-color FILE",
                "verdicts": verdicts}
    VERDICTS.write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        templates = dict(pool.map(template_value, TEMPLATES.items()))
    TEMPLATES_GOLDEN.write_text(json.dumps({"terraform_version": document["terraform_version"], "templates": templates},
                                           indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    rejected = sum(not r["parses"] for r in results)
    print(f"{len(files)} files, {len(files) - rejected} parse, {rejected} rejected -> {VERDICTS}")


if __name__ == "__main__":
    main()
