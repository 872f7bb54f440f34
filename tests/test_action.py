"""The GitHub Action's script (action/run.sh), run as the runner runs a composite step: bash with
GitHub's options, the inputs in the environment, RUNNER_TEMP, GITHUB_ACTION_PATH and GITHUB_OUTPUT."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "action" / "run.sh"
CLUSTER = """\
resource "scaleway_k8s_cluster" "main" {
  name                        = "prod"
  version                     = "1.31"
  cni                         = "cilium"
  delete_additional_resources = true
}
"""
# Records its arguments, one JSON array per call, then behaves as told by STUB_EXIT.
RECORDER = f"""#!{sys.executable}
import json, os, sys
with open(os.environ["STUB_LOG"], "a") as log:
    log.write(json.dumps([os.path.basename(sys.argv[0]), *sys.argv[1:]]) + "\\n")
if sys.argv[1:] == ["--version"]:
    print("kapsulint, version 9.8.7")
sys.exit(int(os.environ.get("STUB_EXIT", "0")))
"""


def executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def step(tmp_path: Path, command: str, inputs: dict[str, str], path: str | None = None) -> subprocess.CompletedProcess:
    """One composite step: ``bash --noprofile --norc -eo pipefail`` (GitHub's bash), in the workspace."""
    workspace = tmp_path / "workspace"
    workspace.mkdir(exist_ok=True)
    env = {"PATH": path or os.environ["PATH"], "HOME": str(tmp_path), "GITHUB_WORKSPACE": str(workspace),
           "RUNNER_TEMP": str(tmp_path / "runner-temp"), "GITHUB_ACTION_PATH": str(ROOT),
           "GITHUB_OUTPUT": str(tmp_path / "output"), "STUB_LOG": str(tmp_path / "calls"),
           "KAPSULINT_CACHE_DIR": str(tmp_path / "cache"), "NO_COLOR": "1", **inputs}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(SCRIPT), command],
                          cwd=workspace, env=env, capture_output=True, text=True, timeout=120)


def calls(tmp_path: Path) -> list[list[str]]:
    return [json.loads(line) for line in (tmp_path / "calls").read_text().splitlines()]


def fake_venv(tmp_path: Path, kapsulint: str = RECORDER) -> None:
    executable(tmp_path / "runner-temp" / "kapsulint-venv" / "bin" / "kapsulint", kapsulint)


def test_the_action_steps_run_the_script_with_the_inputs_in_the_environment():
    action = YAML(typ="safe").load((ROOT / "action.yml").read_text())
    steps = action["runs"]["steps"]
    assert [s["run"] for s in steps] == ['"$GITHUB_ACTION_PATH/action/run.sh" install',
                                         '"$GITHUB_ACTION_PATH/action/run.sh" lint']
    assert steps[0]["env"] == {"KAPSULINT_VERSION": "${{ inputs.version }}"}
    assert steps[1]["env"]["KAPSULINT_ARGS"] == "${{ inputs.args }}"
    assert steps[1]["env"]["KAPSULINT_SINCE"] == "${{ inputs.since }}"
    assert steps[1]["env"]["KAPSULINT_PLAN"] == "${{ inputs.plan }}"
    assert set(action["inputs"]) == {"path", "args", "plan", "version", "sarif-file", "fail-on-findings", "since"}
    assert action["inputs"]["plan"]["default"] == ""


def test_the_plan_input_is_passed_as_one_argument(tmp_path):
    fake_venv(tmp_path)
    result = step(tmp_path, "lint", {"KAPSULINT_PLAN": "  plans/my plan.json \n", "KAPSULINT_ARGS": "--select\nKAP6",
                                     "KAPSULINT_PATHS": "infra/prod", "KAPSULINT_SARIF": "k.sarif"})
    assert result.returncode == 0, result.stderr
    assert calls(tmp_path) == [["kapsulint", "--format", "github", "--report", "sarif=k.sarif", "--plan",
                                "plans/my plan.json", "--select", "KAP6", "--", "infra/prod"]]


def test_a_plan_input_of_several_lines_is_refused(tmp_path):
    fake_venv(tmp_path)
    result = step(tmp_path, "lint", {"KAPSULINT_PLAN": "a.json\nb.json", "KAPSULINT_SARIF": "k.sarif"})
    assert result.returncode == 2 and "one path" in result.stderr
    assert not (tmp_path / "calls").exists()


def test_the_real_kapsulint_judges_a_plan(tmp_path):
    import shutil

    fake_venv(tmp_path, f"#!/bin/sh\nexec {sys.executable} -m kapsulint \"$@\"\n")
    workspace = tmp_path / "workspace"
    (workspace / ".git").mkdir(parents=True)
    shutil.copytree(ROOT / "fixtures" / "KAP601" / "fires-node-type-change-deletes-first", workspace / "infra")
    result = step(tmp_path, "lint", {"KAPSULINT_PATHS": "infra", "KAPSULINT_PLAN": "infra/plan.json",
                                     "KAPSULINT_ARGS": "--select\nKAP601", "KAPSULINT_SARIF": "k.sarif",
                                     "KAPSULINT_FAIL": "false"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("::warning file=infra/main.tf,line=15,"), result.stdout
    results = json.loads((workspace / "k.sarif").read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["KAP601"]


def test_args_and_paths_are_passed_intact_one_per_line(tmp_path):
    fake_venv(tmp_path)
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "KAP1-notes.txt").write_text("a file a glob would expand to\n")
    result = step(tmp_path, "lint", {
        "KAPSULINT_ARGS": "--select\nKAP1,KAP2\n  --ignore  \nKAP1*\n\n--var\nname=two words\r\n",
        "KAPSULINT_PATHS": "infra/my env\n*.tf\n", "KAPSULINT_SARIF": "out.sarif", "KAPSULINT_FAIL": "true"})
    assert result.returncode == 0, result.stderr
    assert calls(tmp_path) == [["kapsulint", "--format", "github", "--report", "sarif=out.sarif", "--select",
                                "KAP1,KAP2", "--ignore", "KAP1*", "--var", "name=two words", "--",
                                "infra/my env", "*.tf"]]


def test_empty_inputs_lint_the_workspace(tmp_path):
    fake_venv(tmp_path)
    result = step(tmp_path, "lint", {"KAPSULINT_ARGS": "", "KAPSULINT_PATHS": "", "KAPSULINT_SARIF": "k.sarif"})
    assert result.returncode == 0, result.stderr
    assert calls(tmp_path) == [["kapsulint", "--format", "github", "--report", "sarif=k.sarif", "--", "."]]


def test_exit_status_follows_fail_on_findings(tmp_path):
    fake_venv(tmp_path)
    inputs = {"KAPSULINT_SARIF": "k.sarif", "STUB_EXIT": "1"}
    assert step(tmp_path, "lint", {**inputs, "KAPSULINT_FAIL": "true"}).returncode == 1
    assert step(tmp_path, "lint", {**inputs, "KAPSULINT_FAIL": "false"}).returncode == 0
    assert step(tmp_path, "lint", {**inputs, "KAPSULINT_FAIL": "false", "STUB_EXIT": "2"}).returncode == 2


def test_the_real_kapsulint_annotates_and_writes_sarif(tmp_path):
    fake_venv(tmp_path, f"#!/bin/sh\nexec {sys.executable} -m kapsulint \"$@\"\n")
    workspace = tmp_path / "workspace"
    (workspace / ".git").mkdir(parents=True)  # actions/checkout's clone: its top level is the root
    (workspace / "my infra").mkdir()
    (workspace / "my infra" / "main.tf").write_text(CLUSTER)
    result = step(tmp_path, "lint", {"KAPSULINT_PATHS": "my infra", "KAPSULINT_ARGS": "--select\nKAP101,KAP102",
                                     "KAPSULINT_SARIF": "k.sarif", "KAPSULINT_FAIL": "false"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("::warning file=my infra/main.tf,line=5,"), result.stdout
    results = json.loads((workspace / "k.sarif").read_text())["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["KAP101"]


def test_since_is_passed_as_one_revision(tmp_path):
    fake_venv(tmp_path)
    result = step(tmp_path, "lint", {"KAPSULINT_SINCE": "  origin/main \n", "KAPSULINT_ARGS": "--quiet",
                                     "KAPSULINT_SARIF": "k.sarif"})
    assert result.returncode == 0, result.stderr
    assert calls(tmp_path) == [["kapsulint", "--format", "github", "--report", "sarif=k.sarif", "--since",
                                "origin/main", "--quiet", "--", "."]]


def test_a_since_input_of_several_lines_is_refused(tmp_path):
    fake_venv(tmp_path)
    result = step(tmp_path, "lint", {"KAPSULINT_SINCE": "main\nHEAD", "KAPSULINT_SARIF": "k.sarif"})
    assert result.returncode == 2 and "one git revision" in result.stderr
    assert not (tmp_path / "calls").exists()


def test_the_real_kapsulint_with_since_annotates_only_the_new_finding(tmp_path):
    fake_venv(tmp_path, f"#!/bin/sh\nexec {sys.executable} -m kapsulint \"$@\"\n")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "main.tf").write_text(CLUSTER)
    environment = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1"}
    for command in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@example.com",
                                                  "commit", "-q", "-m", "first"]):
        subprocess.run(["git", *command], cwd=workspace, env=environment, check=True, capture_output=True)
    (workspace / "dev.tf").write_text(CLUSTER.replace('"main"', '"dev"'))
    result = step(tmp_path, "lint", {"KAPSULINT_SINCE": "HEAD", "KAPSULINT_ARGS": "--select\nKAP101",
                                     "KAPSULINT_SARIF": "k.sarif", "KAPSULINT_FAIL": "false"})
    assert result.returncode == 0, result.stderr
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert len(annotations) == 1 and annotations[0].startswith("::warning file=dev.tf,line=5,"), result.stdout
    results = json.loads((workspace / "k.sarif").read_text())["runs"][0]["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in results] == [
        ("KAP101", "dev.tf")]


def test_install_passes_the_version_requirement_intact_and_outputs_the_version(tmp_path):
    bin_directory = tmp_path / "bin"
    # python3 -m venv DIR makes DIR/bin/python and DIR/bin/kapsulint recorders.
    executable(bin_directory / "python3", f"""#!{sys.executable}
import os, sys
from pathlib import Path
assert sys.argv[1:3] == ["-m", "venv"], sys.argv
for name in ("python", "kapsulint"):
    target = Path(sys.argv[3], "bin", name)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(open(os.environ["RECORDER"]).read())
    target.chmod(0o755)
""")
    (tmp_path / "recorder.py").write_text(RECORDER)
    path = f"{bin_directory}:{os.environ['PATH']}"
    inputs = {"RECORDER": str(tmp_path / "recorder.py"),
              "KAPSULINT_VERSION": "kapsulint @ git+https://github.com/kapsulint/kapsulint@0123abc"}
    result = step(tmp_path, "install", inputs, path)
    assert result.returncode == 0, result.stderr
    assert calls(tmp_path) == [
        ["python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
         "kapsulint @ git+https://github.com/kapsulint/kapsulint@0123abc"],
        ["kapsulint", "--version"],
    ]
    assert (tmp_path / "output").read_text() == "version=9.8.7\n"
    (tmp_path / "calls").unlink()
    assert step(tmp_path, "install", {**inputs, "KAPSULINT_VERSION": ""}, path).returncode == 0
    assert calls(tmp_path)[0][-1] == str(ROOT)  # the Action's own checkout
