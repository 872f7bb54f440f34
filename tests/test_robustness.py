"""Never crash, never hang, never touch (issue 7): hostile inputs, the error story, read-only runs.

Each input has a test and its outcome. Exit codes and stdout/stderr follow the README's exit codes; KAP001
(parse-error) and KAP005 (file-too-large) follow their rule documentation.
"""

from __future__ import annotations

import hashlib
import json
import os
import textwrap
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from fixture_support import lint

from kapsulint.cli.command import main
from kapsulint.lint import registry

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))

CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.35.2"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """Each test parses with an empty cache of its own, outside every linted tree."""
    monkeypatch.setenv("KAPSULINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def write(directory: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return directory


def where(findings: list[dict]) -> list[tuple]:
    return sorted((f["rule"], f["path"], f["line"], f["column"]) for f in findings)


def kap001(findings: list[dict]) -> list[tuple]:
    return [(f["path"], f["line"], f["column"], f["message"]) for f in findings if f["rule"] == "KAP001"]


def sarif(directory: Path, args: list[str], monkeypatch) -> tuple[int, dict, str]:
    monkeypatch.chdir(directory)
    result = CliRunner().invoke(main, ["--format", "sarif", *args], catch_exceptions=False)
    log = json.loads(result.stdout)
    jsonschema.validators.validator_for(SCHEMA)(SCHEMA).validate(log)
    return result.exit_code, log, result.stderr


# -- bytes that are not text -----------------------------------------------------------------------


def test_non_utf8_byte_is_kap001_at_that_byte(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": 'locals {\n  name = "caf\xc3\xa9 \xff"\n}\n'.encode("latin-1")})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    # `  name = "café ` is 15 code points: the bad byte is the 16th.
    assert kap001(findings) == [("main.tf", 2, 16, "invalid UTF-8 byte at offset 25")]
    assert code == 1 and stderr == ""


def test_binary_content_is_kap001_at_the_first_byte(tmp_path, monkeypatch):
    write(tmp_path, {"logo.tf": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00"})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert kap001(findings) == [("logo.tf", 1, 1, "invalid UTF-8 byte at offset 0")]
    assert code == 1 and stderr == ""


def test_nul_bytes_are_kap001_at_the_first_nul(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": b'locals {\n  a = "x\x00y"\n}\n'})
    code, findings, _ = lint(tmp_path, [], monkeypatch)
    assert kap001(findings) == [("main.tf", 2, 9, "NUL byte (binary content?) at offset 17")]
    assert code == 1


def test_the_first_bad_byte_wins_when_a_nul_comes_before_invalid_utf8(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": b"a\nbc\x00d\xffe\n"})
    _, findings, _ = lint(tmp_path, [], monkeypatch)
    assert kap001(findings) == [("main.tf", 2, 3, "NUL byte (binary content?) at offset 4")]


def test_bom_and_crlf_are_read_normally(tmp_path, monkeypatch):
    crlf = CLUSTER.replace("\n", "\r\n")
    write(tmp_path, {
        "main.tf": b"\xef\xbb\xbf" + crlf.encode(),
        "json/main.tf.json": b"\xef\xbb\xbf" + json.dumps({"resource": {"scaleway_k8s_cluster": {"main": {
            "name": "prod", "version": "1.35.2", "cni": "cilium", "delete_additional_resources": True,
        }}}}, indent=2).replace("\n", "\r\n").encode(),
        "values.yaml": b"\xef\xbb\xbfcontroller:\r\n  replicaCount: 2\r\n  bad: [\r\n",
    })
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [
        ("KAP001", "values.yaml", 3, 8),  # unclosed: at the last character, CRLF counted as one line end
        ("KAP101", "json/main.tf.json", 8, 40),
        ("KAP101", "main.tf", 5, 33),
    ]
    assert code == 1 and stderr == ""


def test_empty_files_give_nothing(tmp_path, monkeypatch):
    write(tmp_path, {
        "main.tf": "",
        "blank.tf": "\n\n   \n",
        "comments.tf": "# nothing here\n// nor here\n/* nor here */\n",
        "terraform.tfvars": "",
        "values.yaml": "",
        "prod-values.yaml": "# only a comment\n",
        "nothing.values.yaml": "---\n",
    })
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert findings == [] and code == 0 and stderr == ""


def test_an_empty_tf_json_file_is_kap001_as_terraform_rejects_it(tmp_path, monkeypatch):
    # HCL's JSON parser has no value to read ("Missing JSON value"): Terraform fails too.
    write(tmp_path, {"main.tf.json": ""})
    _, findings, _ = lint(tmp_path, [], monkeypatch)
    assert [(f[0], f[1], f[2]) for f in kap001(findings)] == [("main.tf.json", 1, 1)]


# -- nesting ---------------------------------------------------------------------------------------


def deep_hcl(depth: int) -> dict[str, str]:
    """One file per construct, nested ``depth`` levels in a ``locals`` block (a block in a resource)."""
    def local(name: str, expression: str) -> str:
        return f"locals {{\n  {name} = {expression}\n}}\n"

    return {
        "tuples.tf": local("x", "[" * depth + "]" * depth),
        "objects.tf": local("y", "{ a = " * depth + "1" + " }" * depth),
        "parens.tf": local("z", "(" * depth + "1" + ")" * depth),
        "calls.tf": local("c", "abs(" * depth + "1" + ")" * depth),
        "interpolations.tf": local("i", '"${' * depth + "1" + '}"' * depth),
        "directives.tf": local("d", '"' + "%{ if true }" * depth + "x" + "%{ endif }" * depth + '"'),
        "fors.tf": local("f", "[for v in " * depth + "[1]" + " : v]" * depth),
        "sums.tf": local("s", "1 + " * depth + "1"),
        "conditionals.tf": local("q", "true ? 1 : " * depth + "2"),
        "indexes.tf": local("n", "local.x" + "[0]" * depth),
        "blocks.tf": 'resource "a" "b" {\n' + "b {\n" * depth + "}\n" * (depth + 1),
    }


@pytest.mark.parametrize("depth", [1_000, 20_000])
def test_hcl_nested_as_deep_as_terraform_parses_lints_through_the_cache_and_the_workers(
        tmp_path, monkeypatch, depth):
    """Terraform 1.11 parses each of these 50,000 levels deep. The parse cache stores what marshal
    cannot (it refuses 2,000 levels), worker processes return it (at 20,000 levels, four of them
    are above the threshold where workers start), the evaluator gives Unknown past its own bound
    and no rule crashes: the second run, from the cache, finds what the first found."""
    from kapsulint.scan.loader import PARALLEL_THRESHOLD

    files = deep_hcl(depth)
    if depth == 20_000:  # every construct at 1,000; the slowest to parse are left out at 20,000
        files = {name: files[name] for name in ("tuples.tf", "objects.tf", "sums.tf", "blocks.tf")}
        assert sum(map(len, files.values())) > PARALLEL_THRESHOLD
    write(tmp_path, files)
    runs = [lint(tmp_path, ["--jobs", "2"], monkeypatch) for _ in range(2)]
    for code, findings, stderr in runs:
        assert [f for f in findings if f["rule"] in ("KAP001", "KAP008")] == [] and stderr == ""
        assert code == 0
    assert runs[0] == runs[1]


def test_hcl_nesting_is_kap001_past_the_limit_never_a_crash_or_a_hang(tmp_path, monkeypatch):
    """A million levels (a few MB of brackets) stop at the 50,001st, located: no RecursionError,
    no MemoryError, no minute spent building a tree nobody can evaluate."""
    from kapsulint.parsing.hcl import MAX_DEPTH

    files = {name: deep_hcl(1_000_000)[name] for name in ("tuples.tf", "parens.tf", "sums.tf")}
    files.update({name: deep_hcl(MAX_DEPTH + 10)[name] for name in ("objects.tf", "blocks.tf")})  # 5 MB at 1M
    write(tmp_path, files)
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    found = {f[0]: f for f in kap001(findings)}
    assert set(found) == set(files) and code == 1 and stderr == ""
    for path, line, _column, message in found.values():
        assert message == f"nesting deeper than {MAX_DEPTH} levels" and line >= 2, path
    # the 50,001st `[`: the `locals` block is a level, then `  x = ` and 49,999 more
    assert found["tuples.tf"][1:3] == (2, MAX_DEPTH + 6)
    assert found["blocks.tf"][1:3] == (MAX_DEPTH + 1, 3)  # the `{` of the 50,000th `b`


@pytest.mark.parametrize("depth", [2_000, 5_000])
def test_deep_tf_json_nesting_is_kap001_past_500_levels(tmp_path, monkeypatch, depth):
    write(tmp_path, {"main.tf.json": '{"locals": {"x": ' + "[" * depth + "]" * depth + "}}"})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    # The 501st level is the 499th `[`: the document and "locals" are two levels.
    assert kap001(findings) == [("main.tf.json", 1, 516, "nesting deeper than 500 levels")]
    assert code == 1 and stderr == ""


@pytest.mark.parametrize("depth", [2_000, 5_000])
def test_deep_yaml_nesting_is_kap001_past_500_levels(tmp_path, monkeypatch, depth):
    files = {
        "block-values.yaml": "- " * depth + "x\n",
        "mapping-values.yaml": "a: " + "{b: " * depth + "1" + "}" * depth + "\n",
    }
    expected = {
        "block-values.yaml": (1, 1001, "nesting deeper than 500 levels"),
        "mapping-values.yaml": (1, 2000, "nesting deeper than 500 levels"),
    }
    if depth == 5_000:
        # Over 1,024 unclosed brackets on one line, ruamel.yaml's scanner spends seconds looking
        # for a simple key (quadratic up to its 1,024-character key limit), so once only.
        files["flow-values.yaml"] = "a: " + "[" * depth + "]" * depth + "\n"
        expected["flow-values.yaml"] = (1, 503, "nesting deeper than 500 levels")
    write(tmp_path, files)
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert {f[0]: f[1:] for f in kap001(findings)} == expected
    assert code == 1 and stderr == ""


def test_a_recursion_error_in_a_parser_is_caught_at_the_file(tmp_path, monkeypatch):
    from kapsulint.parsing import hcl

    real = hcl.parse_hcl

    def recursing(text):
        if "recurse" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return real(text)

    monkeypatch.setattr(hcl, "parse_hcl", recursing)
    write(tmp_path, {"a.tf": "locals { recurse = 1 }\n", "b.tf": CLUSTER})
    code, findings, stderr = lint(tmp_path, ["--no-cache", "--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP001", "a.tf", 1, 1), ("KAP101", "b.tf", 5, 33)]
    assert code == 1 and stderr == ""


# -- sizes and expansion ---------------------------------------------------------------------------


def test_a_file_above_max_file_size_is_kap005_and_not_read(tmp_path, monkeypatch):
    write(tmp_path, {
        ".kapsulint.toml": "max-file-size = 200\n",
        "big.tf": CLUSTER + "# padding\n" * 20,
        "big-values.yaml": "a: " + "x" * 300 + "\n",
        "small.tf": "locals { a = 1 }\n",
    })
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert where(findings) == [("KAP005", "big-values.yaml", 1, 1), ("KAP005", "big.tf", 1, 1)]
    assert all("above max-file-size (200 bytes)" in f["message"] for f in findings)
    assert code == 1 and stderr == ""


def test_a_yaml_alias_bomb_is_capped(tmp_path, monkeypatch):
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    write(tmp_path, {"values.yaml": "\n".join(lines) + "\n", "ok-values.yaml": "a: &x [1, 2]\nb: *x\n"})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    (bomb,) = kap001(findings)
    assert bomb[0] == "values.yaml" and "after expanding aliases" in bomb[3]
    assert code == 1 and stderr == ""


def test_yaml_tags_never_construct_objects(tmp_path, monkeypatch):
    canary = tmp_path / "pwned"
    write(tmp_path, {
        "values.yaml": f"""\
            a: !!python/object/apply:os.system ["touch {canary}"]
            b: !!python/object/new:os.system ["touch {canary}"]
            c: !!python/name:os.system
            d: !!binary aGVsbG8=
            e: !!set {{x, y}}
            f: !custom {{k: v}}
        """,
        "main.tf": f"""\
            resource "helm_release" "x" {{
              name       = "x"
              repository = "https://example.com"
              chart      = "x"
              version    = "1.0.0"
              values     = [file("${{path.module}}/values.yaml"), yamlencode(yamldecode("a: !!python/object/apply:os.system [touch {canary}]"))]
            }}
        """,
    })
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert not canary.exists()
    assert not (tmp_path / "touch").exists()
    assert kap001(findings) == [] and stderr == "" and code in (0, 1)


@pytest.mark.parametrize(("text", "line", "what"), [
    ("- a\n- b\n", 1, "a list"),
    ("just a string\n", 1, "a scalar"),
    ("42\n", 1, "a scalar"),
    ("# header\n---\n[1, 2]\n", 3, "a list"),
])
def test_a_values_document_that_is_not_a_mapping_is_kap001(tmp_path, monkeypatch, text, line, what):
    write(tmp_path, {"values.yaml": text})
    code, findings, _ = lint(tmp_path, [], monkeypatch)
    assert kap001(findings) == [("values.yaml", line, 1, f"a values file must be a mapping, this document is {what}")]
    assert code == 1


def test_null_and_mapping_values_documents_are_fine(tmp_path, monkeypatch):
    write(tmp_path, {"values.yaml": "~\n", "a-values.yaml": "{}\n", "b-values.yaml": "a: 1\n---\n- only the first document counts\n"})
    code, findings, _ = lint(tmp_path, [], monkeypatch)
    assert findings == [] and code == 0


# -- the file tree ---------------------------------------------------------------------------------


def test_symlink_loops_are_visited_once_and_the_run_ends(tmp_path, monkeypatch):
    write(tmp_path, {"stack/main.tf": CLUSTER})
    os.symlink("..", tmp_path / "stack" / "parent")
    os.symlink(str(tmp_path / "stack"), tmp_path / "stack" / "self")
    os.symlink("b.tf", tmp_path / "a.tf")
    os.symlink("a.tf", tmp_path / "b.tf")
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    # The directory links are read once; the two files linked to each other cannot be read (KAP017).
    assert where(findings) == [("KAP017", "a.tf", 1, 1), ("KAP017", "b.tf", 1, 1), ("KAP101", "stack/main.tf", 5, 33)]
    lines = stderr.splitlines()
    assert len(lines) == 2 and all("symbolic links" in line for line in lines)
    assert {Path(line.split("cannot read ")[1].split(":")[0]).name for line in lines} == {"a.tf", "b.tf"}
    assert code == 2


def test_a_broken_symlink_is_kap017_and_the_run_goes_on(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    os.symlink("nowhere.tf", tmp_path / "dangling.tf")
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP017", "dangling.tf", 1, 1), ("KAP101", "main.tf", 5, 33)]
    assert stderr == f"kapsulint: cannot read {tmp_path / 'dangling.tf'}: broken symbolic link\n"
    assert code == 2


def test_a_permission_denied_file_is_kap017_and_the_run_goes_on(tmp_path, monkeypatch):
    from kapsulint import boundary

    write(tmp_path, {"main.tf": CLUSTER, "secret.tf": "locals { a = 1 }\n"})
    denied = str(tmp_path / "secret.tf")
    real_read = boundary.read_regular

    def guarded_read(path, *args, **kwargs):
        if os.path.realpath(path) == os.path.realpath(denied):
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path, *args, **kwargs)

    monkeypatch.setattr(boundary, "read_regular", guarded_read)
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP017", "secret.tf", 1, 1), ("KAP101", "main.tf", 5, 33)]
    assert stderr == f"kapsulint: cannot read {denied}: Permission denied\n"
    assert code == 2
    # Named on the command line, the same file makes the run exit 2, after the report.
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101", "secret.tf", "main.tf"], monkeypatch)
    assert where(findings) == [("KAP017", "secret.tf", 1, 1), ("KAP101", "main.tf", 5, 33)]
    assert stderr == f"kapsulint: cannot read {denied}: Permission denied\n"
    assert code == 2


def test_a_permission_denied_directory_is_kap017_and_the_run_goes_on(tmp_path, monkeypatch):
    from kapsulint.scan import discovery

    write(tmp_path, {"main.tf": CLUSTER, "locked/main.tf": CLUSTER})
    locked = str(tmp_path / "locked")
    real_scandir = os.scandir

    def guarded_scandir(path):
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(discovery.os, "scandir", guarded_scandir)
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP017", "locked", 1, 1), ("KAP101", "main.tf", 5, 33)]
    assert stderr == f"kapsulint: cannot read {locked}: Permission denied\n"
    assert code == 2
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101", "locked"], monkeypatch)
    assert where(findings) == [("KAP017", "locked", 1, 1)]
    assert stderr == f"kapsulint: cannot read {locked}: Permission denied\n"
    assert code == 2


def test_an_unreadable_explicit_path_exits_2(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    os.symlink("nowhere.tf", tmp_path / "dangling.tf")
    code, _, stderr = lint(tmp_path, ["dangling.tf"], monkeypatch)
    assert code == 2 and "cannot read" in stderr and "dangling.tf" in stderr


def test_directories_with_file_names_are_ignored(tmp_path, monkeypatch):
    write(tmp_path, {"x.tf/main.tf": CLUSTER, "values.yaml/readme.txt": "x", "y.tf.json/.keep": ""})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [("KAP101", "x.tf/main.tf", 5, 33)]  # a directory, walked, never parsed
    assert code == 1 and stderr == ""


def test_a_jinja_template_in_a_plain_tf_file_is_kap001(tmp_path, monkeypatch):
    # a *.j2.tf file is a template source, left out (tests/test_template_sources.py); a plain .tf
    # file is read by Terraform as it is
    write(tmp_path, {"cluster.tf": """\
        resource "scaleway_k8s_cluster" "main" {
          name = "{{ cluster_name }}"
        {% if dedicated %}
          type = "kapsule-dedicated-4"
        {% endif %}
        }
    """})
    code, findings, _ = lint(tmp_path, [], monkeypatch)
    assert [(f[0], f[1], f[2]) for f in kap001(findings)] == [("cluster.tf", 3, 1)]
    assert code == 1


def test_templated_values_files_that_yaml_cannot_read_are_left_out_never_kap001(tmp_path, monkeypatch):
    write(tmp_path, {
        "values.yaml": "controller:\n  replicaCount: {{ .Values.replicas }}\n  bad: [\n",
        "prod-values.yaml": "controller: ${replicas}\n  : :\n",
    })
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert [(f["rule"], f["path"], f["line"], f["column"], f["severity"]) for f in findings] == [
        ("KAP012", "prod-values.yaml", 1, 13, "note"), ("KAP012", "values.yaml", 2, 17, "note")]
    assert code == 0 and stderr == ""


def test_paths_with_spaces_and_non_ascii_characters(tmp_path, monkeypatch):
    write(tmp_path, {"prod env/clüster ünïcode/main file.tf": CLUSTER, "vålues dir/values.yaml": "- x\n"})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert where(findings) == [
        ("KAP001", "vålues dir/values.yaml", 1, 1),
        ("KAP101", "prod env/clüster ünïcode/main file.tf", 5, 33),
    ]
    assert code == 1 and stderr == ""
    code, findings, _ = lint(tmp_path, ["--select", "KAP101", "prod env/clüster ünïcode/main file.tf"], monkeypatch)
    assert where(findings) == [("KAP101", "prod env/clüster ünïcode/main file.tf", 5, 33)]
    code, log, _ = sarif(tmp_path, ["--select", "KAP101"], monkeypatch)
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"])
    assert uris == ["prod%20env/cl%C3%BCster%20%C3%BCn%C3%AFcode/main%20file.tf", "v%C3%A5lues%20dir/values.yaml"]


# -- evaluation ------------------------------------------------------------------------------------


def test_provider_defined_functions_are_unknown(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": """\
        locals {
          flag = provider::scaleway::some_flag("x", 1)
        }

        resource "scaleway_k8s_cluster" "main" {
          name                        = provider::scaleway::name_of(local.flag)
          version                     = "1.35.2"
          cni                         = "cilium"
          delete_additional_resources = local.flag
        }
    """})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert findings == [] and code == 0 and stderr == ""


def test_dynamic_blocks(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": """\
        variable "windows" {
          default = [{ day = "monday", hour = 3 }]
        }

        resource "scaleway_k8s_cluster" "main" {
          name                        = "prod"
          version                     = "1.35"
          cni                         = "cilium"
          delete_additional_resources = false

          dynamic "auto_upgrade" {
            for_each = var.windows
            iterator = w
            content {
              enable                        = true
              maintenance_window_day        = w.value.day
              maintenance_window_start_hour = w.value.hour
            }
          }
          dynamic "open_id_connect_config" {
            for_each = provider::scaleway::oidc()
            content {
              issuer_url = open_id_connect_config.value
              dynamic "nested" {
                for_each = open_id_connect_config.value
                content {}
              }
            }
          }
        }
    """})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP1"], monkeypatch)
    assert stderr == "" and code in (0, 1)
    # auto_upgrade comes from the dynamic block: the minor version "1.35" is accepted (no KAP103).
    assert "KAP103" not in {f["rule"] for f in findings}
    assert "KAP001" not in {f["rule"] for f in findings}


def test_thousands_of_resources_in_one_file(tmp_path, monkeypatch):
    pools = "".join(f"""
resource "scaleway_k8s_pool" "p{index}" {{
  cluster_id = scaleway_k8s_cluster.main.id
  name       = "p{index}"
  node_type  = "DEV1-M"
  size       = 1
}}
""" for index in range(3_000))
    write(tmp_path, {"main.tf": CLUSTER + pools})
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert stderr == "" and code == 1
    per_pool = {f["rule"] for f in findings if f["line"] > 7}
    assert per_pool  # the pools are judged ...
    for rule in per_pool:  # ... every one of them, each finding once
        assert len([f for f in findings if f["rule"] == rule]) == 3_000


def test_a_cycle_between_locals_ends(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER.replace("= true", "= local.a") + """
locals {
  a = local.b
  b = local.c
  c = !local.a
  d = [for x in local.d : x]
}
"""})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert findings == [] and code == 0 and stderr == ""


def test_a_huge_for_expression_stops_at_the_evaluation_budget(tmp_path, monkeypatch):
    big = "[" + ", ".join(str(i) for i in range(10_000)) + "]"
    write(tmp_path, {
        # 10,000 ** 3 additions: only the budget ends this expression's evaluation.
        "huge/main.tf": CLUSTER.replace("= true", "= length(local.huge) > 0") + f"""
locals {{
  big  = {big}
  huge = [for a in local.big : [for b in local.big : [for c in local.big : a + b + c]]]
}}
""",
        # Another module's expressions have budgets of their own.
        "other/main.tf": CLUSTER.replace("= true", "= local.flag") + "locals {\n  flag = !false\n}\n",
    })
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101,KAP015"], monkeypatch)
    assert stderr == "" and code == 1
    # Past the budget the value is Unknown (no finding, a note where it ran out); the other
    # module is judged as usual.
    assert where(findings) == [("KAP015", "huge/main.tf", 10, 10), ("KAP101", "other/main.tf", 8, 10)]


def test_a_lower_budget_makes_values_unknown_instead_of_waiting(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER.replace("= true", "= length([for i in local.l : i]) > 0") + """
locals {
  l = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
}
"""})
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP015"], monkeypatch)
    assert where(findings) == [("KAP101", "main.tf", 5, 33)]
    (tmp_path / ".kapsulint.toml").write_text("max-expression-steps = 10\n", encoding="utf-8")
    code, findings, _ = lint(tmp_path, ["--select", "KAP101,KAP015"], monkeypatch)
    # past the budget the value is Unknown: no finding, and a note at the local that ran out
    assert where(findings) == [("KAP015", "main.tf", 9, 7)] and code == 0


# -- the error story: internal errors at the file and rule boundaries ------------------------------


def _raising_rule(rule_id: str):
    def check(project):
        raise ValueError("rule bug")
        yield  # pragma: no cover

    rules = tuple(r._replace(check=check) if r.id == rule_id else r for r in registry.all_rules())
    return rules


def test_a_rule_that_raises_is_reported_and_the_others_still_run(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    rules = _raising_rule("KAP104")
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    code, findings, stderr = lint(tmp_path, [], monkeypatch)
    assert code == 2
    assert ("KAP101", "main.tf", 5, 33) in where(findings)  # the full report is still written
    assert "KAP104" not in {f["rule"] for f in findings}
    (failure,) = [f for f in findings if f["rule"] == "KAP008"]  # a finding in every format
    assert failure["path"] == "." and "rule KAP104 (missing-private-network) failed" in failure["message"]
    assert stderr.splitlines() == [
        "kapsulint: internal error in rule KAP104 (missing-private-network): ValueError: rule bug"]
    code, log, _ = sarif(tmp_path, [], monkeypatch)
    assert code == 2
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notes = invocation["toolExecutionNotifications"]
    (note,) = [n for n in notes if n["level"] == "error"]  # the others: places not judged (KAP013 on 1.35)
    assert note["associatedRule"]["id"] == "KAP104"
    assert "ValueError: rule bug" in note["message"]["text"]
    assert any(r["ruleId"] == "KAP101" for r in log["runs"][0]["results"])


def test_a_parser_that_raises_on_one_file_is_reported_and_the_others_still_run(tmp_path, monkeypatch):
    from kapsulint.parsing import hcl

    real = hcl.parse_hcl

    def buggy(text):
        if "trigger" in text:
            raise KeyError("adapter bug")
        return real(text)

    monkeypatch.setattr(hcl, "parse_hcl", buggy)
    write(tmp_path, {"a.tf": "locals { trigger = 1 }\n", "b/main.tf": CLUSTER, "c.tf": "locals {\n"})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 2
    assert where(findings) == [("KAP001", "c.tf", 1, 8), ("KAP008", "a.tf", 1, 1), ("KAP101", "b/main.tf", 5, 33)]
    assert stderr.splitlines() == [
        f"kapsulint: internal error in {tmp_path / 'a.tf'}: parsing failed: KeyError: 'adapter bug'"]
    code, log, _ = sarif(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 2
    (note,) = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "a.tf"
    assert "KeyError" in note["message"]["text"]
    # The failure is never cached: with the parser fixed, the file is read again.
    monkeypatch.setattr(hcl, "parse_hcl", real)
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 1 and stderr == ""


def test_a_failure_while_adding_a_file_to_the_project_is_caught_at_the_file(tmp_path, monkeypatch):
    from kapsulint.model import project as project_module

    real = project_module.Project._add_block

    def buggy(self, module, block):
        if block.labels and block.labels[-1] == "trigger":
            raise TypeError("model bug")
        return real(self, module, block)

    monkeypatch.setattr(project_module.Project, "_add_block", buggy)
    write(tmp_path, {"a/main.tf": 'variable "trigger" {}\n', "b/main.tf": CLUSTER})
    code, findings, stderr = lint(tmp_path, ["--select", "KAP101"], monkeypatch)
    assert code == 2
    assert where(findings) == [("KAP008", "a/main.tf", 1, 1), ("KAP101", "b/main.tf", 5, 33)]
    assert stderr.splitlines() == [
        f"kapsulint: internal error in {tmp_path / 'a' / 'main.tf'}: loading failed: TypeError: model bug"]


def test_exit_zero_never_hides_an_internal_error(tmp_path, monkeypatch):
    write(tmp_path, {"main.tf": CLUSTER})
    rules = _raising_rule("KAP101")
    monkeypatch.setattr(registry, "all_rules", lambda: rules)
    code, _, _ = lint(tmp_path, ["--exit-zero"], monkeypatch)
    assert code == 2


def test_kap005_is_listed_and_explained(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    listed = CliRunner().invoke(main, ["--list-rules", "--format", "json"])
    assert {"id": "KAP005", "name": "file-too-large"}.items() <= next(
        r for r in json.loads(listed.stdout) if r["id"] == "KAP005").items()
    explained = CliRunner().invoke(main, ["--explain", "KAP005"])
    assert explained.exit_code == 0 and explained.stdout.startswith("# KAP005 file-too-large")


# -- read-only ---------------------------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, str]:
    """Every path under root (directories too) with the hash of its content or link target."""
    found = {}
    for directory, names, files in os.walk(root):
        for name in names + files:
            path = Path(directory, name)
            relative = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[relative] = "link:" + os.readlink(path)
            elif path.is_dir():
                found[relative] = "dir"
            else:
                found[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_a_lint_changes_nothing_in_the_linted_tree(tmp_path, monkeypatch):
    project = write(tmp_path / "repo", {
        ".git/HEAD": "ref: refs/heads/main\n",
        ".gitignore": "secret/\n",
        ".kapsulint.toml": "exclude = [\"vendor\"]\n",
        "main.tf": CLUSTER,
        "broken.tf": "locals {\n",
        "helm.tf": """\
            resource "helm_release" "nginx" {
              name       = "ingress-nginx"
              repository = "https://kubernetes.github.io/ingress-nginx"
              chart      = "ingress-nginx"
              values     = [file("${path.module}/values.yaml"), templatefile("${path.module}/t.tftpl", {})]
            }
        """,
        "t.tftpl": "controller: {}\n",
        "values.yaml": "controller:\n  kind: DaemonSet\n",
        "charts/c/Chart.yaml": "name: c\n",
        "charts/c/values.yaml": "a: 1\n",
        "modules/pool/main.tf": 'variable "x" {}\n',
        "terraform.tfvars": "x = 1\n",
        "vendor/x.tf": "locals {\n",
        "secret/x.tf": CLUSTER,
        "big.tf": "# " + "x" * 6_000_000 + "\n",
        "binary.tf": b"\x00\x01",
    })
    os.symlink("..", project / "modules" / "loop")
    outside = tmp_path / "out"
    outside.mkdir()
    before = snapshot(project)
    runs = [
        [],
        ["--format", "sarif", "--output", str(outside / "report.sarif")],
        ["--write-baseline", str(outside / "baseline.json")],
        ["--baseline", str(outside / "baseline.json"), "--report", f"json={outside / 'r.json'}"],
        ["--no-cache", "--statistics"],
        ["--show-files"],
        ["main.tf"],
    ]
    for args in runs:
        code, _, _ = lint(project, args, monkeypatch)
        assert code in (0, 1), args
        assert snapshot(project) == before, args
    assert (outside / "report.sarif").is_file() and (outside / "baseline.json").is_file()
    assert sorted(p.name for p in outside.iterdir()) == ["baseline.json", "r.json", "report.sarif"]
