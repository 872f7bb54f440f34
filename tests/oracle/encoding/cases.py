"""The cases ``record.py`` asks Terraform about: numbers, arithmetic, encoders, decoders.

Each case is ``(kind, input)``. Numbers in encoder inputs are :class:`Num` so that their exact
decimal text reaches both Terraform (as an HCL literal) and the test (as JSON).
"""

from __future__ import annotations

import itertools


class Num:
    """A number written as ``text``, in HCL and in JSON alike."""

    def __init__(self, text: str) -> None:
        self.text = text


NUMBER_TEXTS = [
    "0", "1", "-1", "007", "+5", "5.", ".5", "0.1", "0.2", "0.3", "1e3", "1E3", "1e-3", "1.5e2",
    "2.5e-1", "1e20", "1e21", "1e100", "1e300", "1e-300", "1e-400", "123456789012345678901234567890",
    "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196",
    "0.000001", "0.0000001", "100000000000000000000000", "-0", "-0.0", "1p3", "1.5p-1", "0x10", "1_000",
    " 1", "1 ", "", ".", "e5", "1e", "1e+", "abc", "1.2.3", "--1", "Inf", "-Inf", "inf", "infinity",
    "NaN", "1e1000000000000", "9007199254740993", "18446744073709551616", "0.1e1", "1e0", "1e-0",
    "٣",
]  # fmt: skip

_OPERANDS = [
    "0", "1", "-1", "2", "3", "-5", "7", "0.1", "0.2", "0.3", "1.5", "-2.5", "5.5", "1e20", "1e300",
    "3", "0.7", "123456789.123456789",
]  # fmt: skip
_ARITHMETIC_PAIRS = sorted(set(itertools.combinations(sorted(set(_OPERANDS)), 2)))

_ENCODE_VALUES: list[object] = [
    None, True, False, 0, 1, -1, Num("0.1"), Num("1e20"), Num("1e-7"), Num("-0"), Num("1.5"),
    Num("123456789012345678901234567890"), "", "a", "hello world", "with \"quotes\"", "back\\slash",
    "<tag> & </tag>", "tab\there", "new\nline", "trailing\n", "two\n\n", "\n", "\nleading", " lead",
    "trail ", "café", "日本語", "emoji 😀", "\u2028", "\u2029", "\x7f", "\x01\x1f", "\r\n", "a\rb",
    "bom\ufeff", "nbsp\xa0", "nel\x85", "true", "null", "1", "0x10", "yes", "~", "- a", ": b",
    "#c", "a: b", "a #b", "'single'", "{}", "[]", "*alias", "&anchor", "!tag", "%x", "@x", "`x`",
    "...", "---", "multi\nline\ntext", "line \nspace before break", "tab\tin\nblock",
    "emoji\n😀\n", "  indented\nblock", "x" * 100, " ".join(["word"] * 30), " ".join(["w"] * 60),
    "a  " + " ".join(["word"] * 25) + "  double  spaces  " + " ".join(["word"] * 10),
    [], {}, [1, 2, 3], ["a", ["b", ["c"]]], [[]], [{}], [{"a": 1, "b": [1, 2]}, {"c": {}}],
    {"b": 1, "a": 2, "c": 3}, {"a": {"b": {"c": "d"}}}, {"a": [1, 2], "b": [], "c": {}},
    {"list": [{"name": "x", "value": [1, {"deep": None}]}]}, {"": "empty key"},
    {"key with spaces": 1, "key:colon": 2, "key\nnewline": 3, "é": 4, "<": 5},
    {"k" * 130: "long key"}, {"k" * 128: "key of 128"}, {"B": 1, "a": 2, "_": 3, "1": 4, "10": 5, "9": 6},
    {"m": "l1\nl2\n", "n": "l1\nl2", "o": "l1\n\n"}, [None, True, Num("2.5"), "s"],
    {"seq": [[1, 2], [3]], "map_in_seq": [{"a": {"b": 1}}]},
    {"long": " ".join(["word"] * 40), "nested": {"long": " ".join(["word"] * 40)}},
    [" ".join(["word"] * 40)], {"a": "line1\nline2", "b": {"c": "x\ny\n"}}, ["x\ny", ["p\nq\n"]],
    {"sensitive": "value ${not} interpolated %{ at all }"},
]  # fmt: skip

JSON_TEXTS = [
    '{"a": 1}', '{"b": 2, "a": 1}', "[1, 2, 3]", '"x"', "1", "1.5", "1e400", "-0", "0.1",
    "123456789012345678901234567890.5", "true", "false", "null", '{"a": null}', "[]", "{}",
    '{"a": 1, "a": 2}', '{"a": {"b": [1, {"c": "d"}]}}', '"\\u00e9\\n\\t\\"\\\\\\/"', '"\\ud83d\\ude00"',
    '"\\ud800"', " [1] ", "[1,]", '{"a":1,}', "{'a': 1}", "01", "1.", ".5", "+1", "NaN", "Infinity",
    "a: 1", "", "   ", "[1] [2]", '"unterminated', "// comment\n1", "[1, 2", '{"a" 1}', "tru",
    '"tab\there"', '"\\x41"', "1E2", "1e-2", "-1.5e+3", '{"": 1}', '[{"a": []}, {}]', "\ufeff1",
    '{"a": 1, "b": {"a": 2, "a": 3}}', '"日本"', "100000000000000000000000000",
    "1e1000000000000", "-", "[", '"\\u0000"', '{"a":1}\n', "1.0", "-0.0", "1E+2", '"\\ud83d\\u0041"',
    '{"a":[1,{"b":null}],"a":{"c":true}}', "[[[[[[[[[[1]]]]]]]]]]", '{"a":1,"a":"x"}', '{"a":"x","a":1}',
    '{"a":"5","a":1}', '{"a":{"b":1},"a":{"c":2}}', '{"a":{"b":1},"a":{"b":2,"c":2}}', '{"a":[1],"a":[1,2]}',
    '{"a":1,"a":null}', '{"a":null,"a":1}', '{"a":true,"a":"x"}', '{"a":"true","a":false}',
    '{"a":[1],"a":["x"]}', '{"a":"yes","a":true}', '"\\u2028"', '"<>&"', "0", "-1",
]  # fmt: skip

YAML_TEXTS = [
    "a: 1", "010", "0o10", "0x10", "0b101", "-0b101", "+12", "1_000", "1e3", "1.5", ".5", "5.", "-0",
    ".inf", "-.inf", ".nan", "yes", "no", "on", "off", "y", "n", "Y", "True", "TRUE", "tRuE", "null",
    "Null", "~", "", "---", "a:", "a: ~", "2001-12-14", "2001-12-14T21:59:43.10Z",
    "2001-12-14 21:59:43.10", "2001-12-14t21:59:43.10-05:00", "2001-1-2", "12:30:00", "1:20",
    "'010'", '"yes"', "!!str 010", "!!int 010", "!!int 0x1F", "!!float 1", "!!bool yes",
    "!!bool maybe", "!!null x", "!!binary aGVsbG8=", "!!binary not-base64!", "!custom x",
    "!!timestamp 2001-12-14", "a: 1\na: 2", "a: 1\nb: 2\nc: [1, 2]", "- a\n- b\n- c: d",
    "a: &x 1\nb: *x", "base: &b {x: 1, y: 2}\nderived:\n  <<: *b\n  y: 3",
    "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3", "<<: {a: 1}", "--- 1\n--- 2",
    "--- 1\n...", "a: |\n  line1\n  line2\n", "a: >\n  folded\n  text\n", "a: |-\n  x\n",
    "a: |+\n  x\n\n", "? complex\n: key", "[1, 2, {a: b}]", "{a: 1, b: [x, y]}", "'single ''quoted'''",
    '"double \\"quoted\\" \\t \\u00e9"', "a: 'multi\n  line'", "a: b: c", "a: [1, 2", "\t- tab",
    "key: value # comment", "# only comment", "a:\n  - 1\n  - 2\nb:\n  c: d", "1: one\n2: two",
    "true: yes\nnull: ~", "[a, b]: c", "{a: 1}: b", "a: *undefined", "&anchor a", "- &x [1, 2]\n- *x",
    "0.1", "123456789012345678901234567890", "1e400", "0x8000000000000000", "0xFFFFFFFFFFFFFFFF",
    "-0x10", "0o777", "-", "- ", ".", "...", "'", "a: 'b", "%YAML 1.2\n---\na: 1", "日本: 語",
    "a: \u00e9", "a: 1\n---\n", "a:\n  b:\n    c:\n      d: deep", "- - - nested", "{}", "[]",
    "a: {}", "a: []", "  leading: indent", "a: 0.000001", "a: 1e-7", "a: +.inf", "a: -.5",
    "!!int 1_000", "!!float .5", "!!int y", "!!null y", "!!int abc", "!!str [1]", "!!map {a: 1}",
    "!!seq [1]", '"<<": {a: 1}', "a: 1\n<<: {a: 2}", "<<: {a: 2}\na: 1", "a: &x [*x]",
    "2001-12-14T21:59:43+00:00", "2001-02-30", "2001-12-14T21:59:43", "2001-12-14 21:59:43.10 -5",
    "2000-02-29", "1999-13-01", "a: >-\n  10\n", "a: |\n  10\n", "1.50: x", "0o10: x", "y: n",
    "!!binary |\n  aGVs\n  bG8=\n", "? [a]\n: b", "- !!str", "%YAML 1.1\n---\na: 1", "--- |\n  x\n",
    'a: "\\x41\\u263A"', ".5e3", "+.5", "-.5", "..5", "+", "1.0", "1.00", "00", "-0.0", "0e0", "1e+3",
    "0xG", "0x_1", "0o8", "12:30", "1.5e", "1e5.5", "+0x10", "0X10", "0O10", "-00", "- -1\n- +1",
    "'': empty", "a: !!str", "a: !!null", "a: 'yes'", "a: \"1\"", "a: null\nb: Null\nc: NULL\nd: nULL",
    "a: |\n  yes\n", "'yes': 1", "a: !!int '10'", "a: \"10\"", "0000-02-29", "2001-12-14t21:59:43,5+01:30", "2001-12-14T21:59:43.123456789012Z",
    "2001-12-14T25:00:00Z", "2001-12-14 21:59:43", "2001-12-14T21:59:43+0500", "20011-12-14", "2001-12-14T1:2:3Z",
    "2001-12-14T21:59:43-00:00", "2001-12-14T21:59:43+23:59", "1900-02-29", "a: 1_2_3", "a: 0b1_0", "a: 1__0", "a: _1", "a: 1_", "a: 1.5_0", "a: 12e03", "a: .1e2",
]  # fmt: skip


_EXTRA_ARITHMETIC = [
    ["0", "/", "0"], ["0", "%", "0"], ["5", "%", "0"], ["-5", "%", "0"], ["-0", "%", "3"], ["-4", "%", "2"],
    ["0", "*", "-1"], ["-0", "+", "-0"], ["-0", "-", "0"], ["0", "-", "-0"], ["-0", "*", "-1"], ["0", "/", "-3"],
    ["1e200", "+", "1"], ["1e154", "+", "1"], ["1e155", "*", "1e155"], ["2", "/", "3"], ["-2", "/", "3"],
    ["1", "/", "1e300"], ["10", "%", "0.3"], ["-10", "%", "0.3"], ["1e30", "%", "7"], ["1e300", "%", "0.1"],
    ["0.1", "*", "0.1"], ["0.1", "*", "3"], ["1", "-", "0.9"], ["1e-300", "*", "1e-300"], ["7", "%", "-0.5"],
    ["123456789012345678901234567890", "*", "987654321098765432109876543210"],
]  # fmt: skip


def _arithmetic() -> list[tuple[str, object]]:
    cases: list[tuple[str, object]] = [("arithmetic", case) for case in _EXTRA_ARITHMETIC]
    for a, b in _ARITHMETIC_PAIRS:
        for op in ("+", "-", "*", "/", "%"):
            cases.append(("arithmetic", [a, op, b]))
        cases.append(("arithmetic", [b, "%", a]))
        cases.append(("arithmetic", [b, "/", a]))
    for a in ["0", "1", "-1", "0.1", "-0", "1e300"]:
        cases.append(("arithmetic", ["neg", a]))
    for a, b in [("1", "1"), ("0.1", "0.10"), ("-0", "0"), ("1", "2"), ("0.3", "0.30000000000000000000000001"), ("1e20", "100000000000000000001")]:
        for op in ("==", "!=", "<", "<=", ">", ">="):
            cases.append(("arithmetic", [a, op, b]))
    return cases


def _float64() -> list[tuple[str, object]]:
    """``pow`` goes through Go's float64; only operands whose result Python computes alike."""
    cases: list[tuple[str, object]] = []
    for base, exponent in [("2", "0.5"), ("3", "0.5"), ("2", "10"), ("10", "25"), ("2", "-1"), ("10", "-2")]:
        cases.append(("pow", [base, exponent, None, None]))
        cases.append(("pow", [base, exponent, "+", "1"]))
        cases.append(("pow", [base, exponent, "*", "3"]))
        cases.append(("pow", [base, exponent, "+", "pow(3, 0.5)"]))
    return cases


def all_cases() -> list[tuple[str, object]]:
    cases: list[tuple[str, object]] = [("parse", text) for text in NUMBER_TEXTS]
    cases += _arithmetic()
    cases += _float64()
    cases += [("jsonencode", value) for value in _ENCODE_VALUES]
    cases += [("yamlencode", value) for value in _ENCODE_VALUES]
    cases += [("jsondecode", text) for text in JSON_TEXTS]
    cases += [("yamldecode", text) for text in YAML_TEXTS]
    return cases
