"""The Terraform JSON adapter (kapsulint.parsing.json): shapes and exact spans."""

from __future__ import annotations

import pytest

from kapsulint.parsing.hcl import parse_hcl
from kapsulint.parsing.json import JsonSyntaxError, parse_terraform_json, parse_tfvars_json


def _attrs(body: dict) -> dict:
    return {a["name"]: a for a in body["attrs"]}


def _without_spans(node):
    """A copy of a node tree without its spans, to compare with the HCL adapter's (iterative)."""
    holder: dict = {}
    stack = [(node, holder, "root")]
    while stack:
        item, parent, key = stack.pop()
        if isinstance(item, dict):
            copy: object = {}
            stack.extend((v, copy, k) for k, v in item.items() if k != "p")
        elif isinstance(item, list):
            copy = [None] * len(item)
            stack.extend((v, copy, i) for i, v in enumerate(item))
        else:
            copy = item
        parent[key] = copy
    return holder["root"]


RESOURCE = """\
{
  "resource": {
    "scaleway_k8s_pool": {
      "main": {
        "node_type": "pro2_xxs",
        "size": 3,
        "autohealing": true,
        "tags": ["a", 1.5],
        "lifecycle": {
          "prevent_destroy": true
        }
      }
    }
  }
}
"""


def test_resource_block_labels_and_spans():
    body = parse_terraform_json(RESOURCE)["body"]
    assert body["attrs"] == []
    [block] = body["blocks"]
    assert block["t"] == "block"
    assert block["type"] == "resource"
    assert block["labels"] == ["scaleway_k8s_pool", "main"]
    assert block["label_spans"] == [(3, 5, 3, 24), (4, 7, 4, 13)]
    assert block["p"] == (4, 7, 4, 16)  # `"main": {`
    assert block["span"] == (4, 7, 12, 8)


def test_resource_attributes_exact_spans():
    [block] = parse_terraform_json(RESOURCE)["body"]["blocks"]
    attrs = _attrs(block["body"])
    assert list(attrs) == ["node_type", "size", "autohealing", "tags"]
    node_type = attrs["node_type"]
    assert node_type["t"] == "attribute"
    assert node_type["p"] == (5, 9, 5, 20)
    assert node_type["span"] == (5, 9, 5, 32)
    assert node_type["expr"] == {"t": "lit", "v": "pro2_xxs", "p": (5, 22, 5, 32)}
    assert attrs["size"]["expr"] == {"t": "lit", "v": 3, "p": (6, 17, 6, 18)}
    assert attrs["autohealing"]["expr"] == {"t": "lit", "v": True, "p": (7, 24, 7, 28)}
    assert attrs["tags"]["expr"] == {
        "t": "tuple",
        "items": [{"t": "lit", "v": "a", "p": (8, 18, 8, 21)}, {"t": "lit", "v": 1.5, "p": (8, 23, 8, 26), "num": "1.5"}],
        "p": (8, 17, 8, 27),
    }


def test_nested_lifecycle_block():
    [block] = parse_terraform_json(RESOURCE)["body"]["blocks"]
    [lifecycle] = block["body"]["blocks"]
    assert lifecycle["type"] == "lifecycle"
    assert lifecycle["labels"] == [] and lifecycle["label_spans"] == []
    assert lifecycle["p"] == (9, 9, 9, 23)
    assert lifecycle["span"] == (9, 9, 11, 10)
    [attribute] = lifecycle["body"]["attrs"]
    assert attribute["name"] == "prevent_destroy"
    assert attribute["p"] == (10, 11, 10, 28)
    assert attribute["expr"] == {"t": "lit", "v": True, "p": (10, 30, 10, 34)}


def test_unknown_object_key_is_an_attribute_and_objects_keep_key_spans():
    text = '{"resource": {"a": {"b": {"labels": {"k": null}}}}}'
    [block] = parse_terraform_json(text)["body"]["blocks"]
    assert block["body"]["blocks"] == []
    [attribute] = block["body"]["attrs"]
    assert attribute["expr"] == {
        "t": "object",
        "items": [[{"t": "lit", "v": "k", "p": (1, 38, 1, 41)}, {"t": "lit", "v": None, "p": (1, 43, 1, 47)}]],
        "p": (1, 37, 1, 48),
    }


def test_template_string():
    text = '{"output": {"o": {"value": "${var.x}", "name": "a-\\"${var.y}"}}}'
    [block] = parse_terraform_json(text)["body"]["blocks"]
    attrs = _attrs(block["body"])
    assert attrs["value"]["expr"] == {
        "t": "tmpl",
        "parts": [{"t": "attr", "obj": {"t": "var", "name": "var", "p": (1, 31, 1, 34)}, "name": "x",
                   "p": (1, 31, 1, 36)}],
        "p": (1, 28, 1, 38),
        "single": True,
    }
    # The string node spans its quotes; the escape `\"` is mapped back to its two columns.
    name = attrs["name"]["expr"]
    assert name["p"] == (1, 48, 1, 62)
    assert name["parts"][0] == 'a-"'
    assert name["parts"][1]["p"] == (1, 55, 1, 60)


def test_template_nodes_match_the_hcl_adapter():
    value = "%{ if var.a }x-${var.b}%{ else }y%{ endif }"
    from_json = parse_terraform_json('{"locals": {"v": "' + value + '"}}')
    from_hcl = parse_hcl('locals {\n  v = "' + value + '"\n}\n')
    json_expr = from_json["body"]["blocks"][0]["body"]["attrs"][0]["expr"]
    hcl_expr = from_hcl["body"]["blocks"][0]["body"]["attrs"][0]["expr"]
    assert _without_spans(json_expr) == _without_spans(hcl_expr)
    assert json_expr["parts"][0]["cond"]["p"] == (1, 25, 1, 30)


def test_escaped_dollar_is_a_literal():
    text = '{"locals": {"v": "$${x}"}}'
    [attribute] = parse_terraform_json(text)["body"]["blocks"][0]["body"]["attrs"]
    assert attribute["expr"] == {"t": "lit", "v": "${x}", "p": (1, 18, 1, 25)}


MODULE = """\
{
  "module": {
    "network": {
      "source": "./modules/network",
      "count": "${var.n}",
      "depends_on": ["scaleway_vpc.main"]
    }
  }
}
"""


def test_module_block():
    [block] = parse_terraform_json(MODULE)["body"]["blocks"]
    assert block["type"] == "module"
    assert block["labels"] == ["network"]
    assert block["label_spans"] == [(3, 5, 3, 14)]
    assert block["p"] == (3, 5, 3, 17)
    assert block["span"] == (3, 5, 7, 6)
    attrs = _attrs(block["body"])
    assert attrs["source"]["expr"] == {"t": "lit", "v": "./modules/network", "p": (4, 17, 4, 36)}
    assert attrs["count"]["expr"]["single"] is True
    # depends_on holds bare references, as in HCL.
    [reference] = attrs["depends_on"]["expr"]["items"]
    assert reference == {"t": "attr", "obj": {"t": "var", "name": "scaleway_vpc", "p": (6, 23, 6, 35)},
                         "name": "main", "p": (6, 23, 6, 40)}


TERRAFORM = """\
{
  "terraform": {
    "backend": {
      "s3": {
        "bucket": "state"
      }
    },
    "required_providers": {
      "kubernetes": {"source": "hashicorp/kubernetes", "version": "~> 2.0"}
    }
  }
}
"""


def test_terraform_backend_and_required_providers():
    [terraform] = parse_terraform_json(TERRAFORM)["body"]["blocks"]
    assert terraform["type"] == "terraform" and terraform["labels"] == []
    assert terraform["p"] == (2, 3, 2, 17)
    assert terraform["span"] == (2, 3, 11, 4)
    backend, required = terraform["body"]["blocks"]
    assert backend["type"] == "backend"
    assert backend["labels"] == ["s3"]
    assert backend["label_spans"] == [(4, 7, 4, 11)]
    assert backend["p"] == (4, 7, 4, 14)
    assert backend["span"] == (4, 7, 6, 8)
    assert _attrs(backend["body"])["bucket"]["expr"] == {"t": "lit", "v": "state", "p": (5, 19, 5, 26)}
    # required_providers' members are attributes, even one named like a nested block.
    assert required["type"] == "required_providers"
    assert required["body"]["blocks"] == []
    [kubernetes] = required["body"]["attrs"]
    assert kubernetes["name"] == "kubernetes"
    assert kubernetes["p"] == (9, 7, 9, 19)
    assert kubernetes["expr"]["t"] == "object"
    assert [key["v"] for key, _ in kubernetes["expr"]["items"]] == ["source", "version"]


PROVIDERS = """\
{
  "provider": [
    {"scaleway": {"zone": "fr-par-1"}},
    {"scaleway": {"alias": "ams", "zone": "nl-ams-1"}}
  ],
  "resource": {"helm_release": {"r": {"set": [
    {"name": "a", "value": "1"},
    {"name": "b", "value": "2"}
  ]}}}
}
"""


def test_provider_as_array():
    providers = [b for b in parse_terraform_json(PROVIDERS)["body"]["blocks"] if b["type"] == "provider"]
    assert [p["labels"] for p in providers] == [["scaleway"], ["scaleway"]]
    assert [p["label_spans"] for p in providers] == [[(3, 6, 3, 16)], [(4, 6, 4, 16)]]
    assert [p["p"] for p in providers] == [(3, 6, 3, 19), (4, 6, 4, 19)]
    assert [p["span"] for p in providers] == [(3, 6, 3, 38), (4, 6, 4, 54)]
    assert list(_attrs(providers[1]["body"])) == ["alias", "zone"]


def test_repeated_nested_blocks_from_an_array():
    [resource] = [b for b in parse_terraform_json(PROVIDERS)["body"]["blocks"] if b["type"] == "resource"]
    sets = resource["body"]["blocks"]
    assert [s["type"] for s in sets] == ["set", "set"]
    # Objects on lines of their own are headed by their `{`.
    assert [s["p"] for s in sets] == [(7, 5, 7, 6), (8, 5, 8, 6)]
    assert [s["span"] for s in sets] == [(7, 5, 7, 32), (8, 5, 8, 32)]
    assert _attrs(sets[1]["body"])["name"]["expr"]["v"] == "b"


LOCALS = """\
{
  "//": "a comment",
  "locals": {
    "//": "also a comment",
    "env": "prod",
    "lifecycle": {"a": 1}
  }
}
"""


def test_locals_members_are_attributes():
    result = parse_terraform_json(LOCALS)
    assert result["comments"] == []
    [block] = result["body"]["blocks"]
    assert block["type"] == "locals" and block["labels"] == []
    assert block["p"] == (3, 3, 3, 14)
    assert block["span"] == (3, 3, 7, 4)
    assert block["body"]["blocks"] == []
    env, lifecycle = block["body"]["attrs"]
    assert env["name"] == "env"
    assert env["p"] == (5, 5, 5, 10)
    assert env["span"] == (5, 5, 5, 18)
    assert env["expr"] == {"t": "lit", "v": "prod", "p": (5, 12, 5, 18)}
    assert lifecycle["expr"]["t"] == "object"


def test_bom_crlf_and_numbers():
    text = '\ufeff{\r\n  "locals": {"a": -2, "b": 1.0, "c": 2.5e1, "d": "\\u00e9x"}\r\n}\r\n'
    [block] = parse_terraform_json(text)["body"]["blocks"]
    attrs = _attrs(block["body"])
    assert attrs["a"]["expr"] == {"t": "lit", "v": -2, "p": (2, 19, 2, 21)}
    assert attrs["b"]["expr"]["v"] == 1 and isinstance(attrs["b"]["expr"]["v"], int)
    assert attrs["c"]["expr"]["v"] == 25.0 and isinstance(attrs["c"]["expr"]["v"], float)
    assert attrs["d"]["expr"] == {"t": "lit", "v": "éx", "p": (2, 50, 2, 59)}


def test_tfvars_json_keys_are_attributes():
    body = parse_tfvars_json('{"tags": {"a": "${x}"}, "n": 1}')["body"]
    assert body["blocks"] == []
    tags, n = body["attrs"]
    assert tags["expr"]["items"][0][1] == {"t": "lit", "v": "${x}", "p": (1, 16, 1, 22)}
    assert n["expr"] == {"t": "lit", "v": 1, "p": (1, 30, 1, 31)}


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ('{\n  "a": 1\n  "b": 2\n}\n', "unexpected string: expected `,` or `}`", 3, 3),
        ('{\n  "locals": {"a": 1\n', "unexpected end of input: expected `,` or `}`", 2, 19),
        ("", "unexpected end of input: expected a JSON object", 1, 1),
        ('{"a" 1}', "unexpected number: expected `:`", 1, 6),
        ('{"a": [1,]}', "unexpected `]`: expected a value after `,`", 1, 10),
        ('{"a": 1,}', "unexpected `}`: expected a string key after `,`", 1, 9),
        ('{"a": "x}', "unterminated string", 1, 7),
        ('{"a": "\\q"}', "invalid escape `\\q` in a string", 1, 8),
        ('{"a": 01}', "invalid number `01`", 1, 7),
        ('{} x', "unexpected `x`: expected end of input", 1, 4),
        ("[]", "the root of a Terraform JSON file must be an object", 1, 1),
        ('{"locals": {"a": "%{ if x }"}}', "unclosed template directive", 1, 19),
        ('{"resource": {"a": 1}}', "expected an object for the `resource` block `a`", 1, 20),
    ],
)
def test_syntax_error_positions(text, message, line, column):
    with pytest.raises(JsonSyntaxError) as caught:
        parse_terraform_json(text)
    assert (caught.value.message, caught.value.line, caught.value.column) == (message, line, column)


def test_error_inside_a_template_points_into_the_string():
    with pytest.raises(JsonSyntaxError) as caught:
        parse_terraform_json('{"locals": {"a": "${var.}"}}')
    assert caught.value.line == 1
    assert 19 <= caught.value.column <= 26  # within the string


def test_deep_nesting_is_an_error_not_a_recursion_error():
    depth = 5000
    text = '{"locals": {"a": ' + "[" * depth + "]" * depth + "}}"
    with pytest.raises(JsonSyntaxError) as caught:
        parse_terraform_json(text)
    assert caught.value.message == "nesting deeper than 500 levels"
    # `{` and `{` are levels 1 and 2; the 501st level is the 499th `[`, at column 17 + 499.
    assert (caught.value.line, caught.value.column) == (1, 17 + 499)


def test_nesting_of_500_levels_is_accepted():
    text = '{"locals": {"a": ' + "[" * 498 + "]" * 498 + "}}"
    [block] = parse_terraform_json(text)["body"]["blocks"]
    assert block["body"]["attrs"][0]["expr"]["t"] == "tuple"
