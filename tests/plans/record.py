"""Record the plan format from Terraform itself: each scenario applies a configuration of
``terraform_data`` resources (the built-in provider, so ``terraform init`` downloads nothing),
changes it, plans with ``terraform plan -out``, and keeps ``terraform show -json`` of that plan in
``tests/plans/recorded/<scenario>.json`` (indented, Terraform's key order kept).

    python tests/plans/record.py            # every scenario
    python tests/plans/record.py delete     # only the scenarios whose name contains a NAME

Needs ``terraform`` on the PATH (the recordings name the version that wrote them). Nothing is
downloaded and nothing outside a temporary directory is written but the recordings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
RECORDED = HERE / "recorded"

# A state another configuration reads through terraform_remote_state (backend "local").
REMOTE = {
    "main.tf": 'output "cluster_name" {\n  value = "prod"\n}\n',
}
REMOTE_STATE = """\
data "terraform_remote_state" "network" {
  backend = "local"
  config = {
    path = "${path.module}/../remote/terraform.tfstate"
  }
}
"""


class Scenario(NamedTuple):
    """``before`` is applied (None: an empty state), then ``after`` is planned with ``plan_args``,
    after ``between`` (terraform commands run on the applied state, e.g. a taint)."""

    name: str
    what: str
    before: dict[str, str] | None
    after: dict[str, str]
    between: tuple[tuple[str, ...], ...] = ()
    plan_args: tuple[str, ...] = ()
    apply_may_fail: bool = False


def data(name: str, body: str) -> str:
    return f'resource "terraform_data" "{name}" {{\n{body}}}\n'


SCENARIOS = (
    Scenario("create", 'actions ["create"]: a new object; after_unknown marks id and output',
             None, {"main.tf": data("pool", '  input = "apps"\n')}),
    Scenario("no-op", 'actions ["no-op"]: nothing changes',
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  input = "apps"\n')}),
    Scenario("update", 'actions ["update"]: input changes in place (output becomes unknown)',
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  input = "web"\n')}),
    Scenario("delete", 'actions ["delete"], action_reason delete_because_no_resource_config',
             {"main.tf": data("pool", '  input = "apps"\n') + data("kept", '  input = "x"\n')},
             {"main.tf": data("kept", '  input = "x"\n')}),
    Scenario("destroy", 'actions ["delete"] with no action_reason: terraform plan -destroy',
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  input = "apps"\n')}, plan_args=("-destroy",)),
    Scenario("replace-delete-then-create",
             'actions ["delete", "create"], action_reason replace_because_cannot_update, replace_paths',
             {"main.tf": data("pool", '  triggers_replace = { node_type = "PRO2-S" }\n')},
             {"main.tf": data("pool", '  triggers_replace = { node_type = "PRO2-M" }\n')}),
    Scenario("replace-create-then-delete",
             'actions ["create", "delete"] (create_before_destroy), replace_because_cannot_update',
             {"main.tf": data("pool", '  triggers_replace = { node_type = "PRO2-S" }\n'
                              '  lifecycle {\n    create_before_destroy = true\n  }\n')},
             {"main.tf": data("pool", '  triggers_replace = { node_type = "PRO2-M" }\n'
                              '  lifecycle {\n    create_before_destroy = true\n  }\n')}),
    Scenario("replace-because-tainted", "action_reason replace_because_tainted (terraform taint)",
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  input = "apps"\n')},
             between=(("taint", "terraform_data.pool"),)),
    Scenario("replace-by-request", "action_reason replace_by_request (terraform plan -replace)",
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  input = "apps"\n')},
             plan_args=("-replace=terraform_data.pool",)),
    Scenario("replace-by-triggers", "action_reason replace_by_triggers (lifecycle replace_triggered_by)",
             {"main.tf": data("cluster", '  input = "1.31"\n')
              + data("pool", '  input = "apps"\n  lifecycle {\n    replace_triggered_by = [terraform_data.cluster]\n  }\n')},
             {"main.tf": data("cluster", '  input = "1.32"\n')
              + data("pool", '  input = "apps"\n  lifecycle {\n    replace_triggered_by = [terraform_data.cluster]\n  }\n')}),
    Scenario("delete-because-wrong-repetition",
             "action_reason delete_because_wrong_repetition (a block without for_each given one)",
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": data("pool", '  for_each = toset(["apps"])\n  input    = each.key\n')}),
    Scenario("delete-because-count-index", "action_reason delete_because_count_index (count 2 to 1)",
             {"main.tf": data("pool", '  count = 2\n  input = "pool-${count.index}"\n')},
             {"main.tf": data("pool", '  count = 1\n  input = "pool-${count.index}"\n')}),
    Scenario("delete-because-each-key", "action_reason delete_because_each_key (a for_each key removed)",
             {"main.tf": data("pool", '  for_each = toset(["apps", "web"])\n  input    = each.key\n')},
             {"main.tf": data("pool", '  for_each = toset(["apps"])\n  input    = each.key\n')}),
    Scenario("delete-because-no-module", "action_reason delete_because_no_module (a module instance removed)",
             {"main.tf": 'module "pools" {\n  source   = "./pools"\n  for_each = toset(["a", "b"])\n  name     = each.key\n}\n',
              "pools/main.tf": 'variable "name" {}\n' + data("this", '  count = 1\n  input = var.name\n')},
             {"main.tf": 'module "pools" {\n  source   = "./pools"\n  for_each = toset(["a"])\n  name     = each.key\n}\n',
              "pools/main.tf": 'variable "name" {}\n' + data("this", '  count = 1\n  input = var.name\n')}),
    Scenario("delete-because-no-move-target",
             "action_reason delete_because_no_move_target (a moved block to an address with no configuration)",
             {"main.tf": data("old", '  input = "apps"\n')},
             {"main.tf": 'moved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n'}),
    Scenario("moved", "previous_address: a moved block renames the address, actions no-op",
             {"main.tf": data("old", '  input = "apps"\n')},
             {"main.tf": 'moved {\n  from = terraform_data.old\n  to   = terraform_data.new\n}\n'
              + data("new", '  input = "apps"\n')}),
    Scenario("forget", 'actions ["forget"] (a removed block with destroy = false)',
             {"main.tf": data("pool", '  input = "apps"\n')},
             {"main.tf": 'removed {\n  from = terraform_data.pool\n  lifecycle {\n    destroy = false\n  }\n}\n'}),
    Scenario("read-because-config-unknown",
             'actions ["read"], action_reason read_because_config_unknown (a data source whose configuration is unknown)',
             {"main.tf": "# nothing yet\n"},
             {"main.tf": data("state_path", '  input = "${path.module}/../remote/terraform.tfstate"\n')
              + 'data "terraform_remote_state" "network" {\n  backend = "local"\n  config = {\n'
                '    path = terraform_data.state_path.output\n  }\n}\n'}),
    Scenario("read-because-dependency-pending",
             "action_reason read_because_dependency_pending (depends_on a resource with changes pending)",
             {"main.tf": data("cluster", '  input = "1.31"\n') + REMOTE_STATE},
             {"main.tf": data("cluster", '  input = "1.32"\n')
              + REMOTE_STATE.replace("  backend", "  depends_on = [terraform_data.cluster]\n  backend")}),
    Scenario("read-because-check-nested", "action_reason read_because_check_nested (a data source in a check block)",
             {"main.tf": data("cluster", '  input = "1.31"\n')},
             {"main.tf": data("cluster", '  input = "1.31"\n') + 'check "network" {\n  '
              + REMOTE_STATE.replace("\n", "\n  ").rstrip() + '\n  assert {\n'
                '    condition     = data.terraform_remote_state.network.outputs.cluster_name == "prod"\n'
                '    error_message = "unexpected cluster name"\n  }\n}\n'}),
    Scenario("sensitive", "before_sensitive and after_sensitive: a sensitive variable in input",
             {"main.tf": 'variable "token" {\n  type      = string\n  sensitive = true\n  default   = "old-secret"\n}\n'
              + data("kubeconfig", '  input = { host = "api.example", token = var.token }\n')},
             {"main.tf": 'variable "token" {\n  type      = string\n  sensitive = true\n  default   = "new-secret"\n}\n'
              + data("kubeconfig", '  input = { host = "api.example", token = var.token }\n')}),
    Scenario("module-keys", 'addresses in modules with for_each and count keys: module.pools["a"].terraform_data.this[0]',
             {"main.tf": 'module "pools" {\n  source   = "./pools"\n  for_each = toset(["a"])\n  name     = each.key\n}\n',
              "pools/main.tf": 'variable "name" {}\n'
              + data("this", '  count            = 1\n  triggers_replace = "${var.name}-PRO2-S"\n')},
             {"main.tf": 'module "pools" {\n  source   = "./pools"\n  for_each = toset(["a"])\n  name     = each.key\n}\n',
              "pools/main.tf": 'variable "name" {}\n'
              + data("this", '  count            = 1\n  triggers_replace = "${var.name}-PRO2-M"\n')}),
    Scenario("deposed",
             'deposed: a create_before_destroy replacement whose create failed leaves the old object deposed, '
             'deleted by the next plan',
             {"main.tf": data("pool", '  triggers_replace = "a"\n  lifecycle {\n    create_before_destroy = true\n  }\n')},
             {"main.tf": data("pool", '  triggers_replace = "b"\n  lifecycle {\n    create_before_destroy = true\n  }\n'
                              '  provisioner "local-exec" {\n    command = "exit 1"\n  }\n')},
             between=(("apply", "-auto-approve", "-input=false"),), apply_may_fail=True),
)


def terraform(directory: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CHECKPOINT_DISABLE": "1", "TF_IN_AUTOMATION": "1", "TF_INPUT": "0"}
    result = subprocess.run(["terraform", *args], cwd=directory, env=env, capture_output=True, text=True, check=False,
                            timeout=300)
    if check and result.returncode != 0:
        raise RuntimeError(f"terraform {' '.join(args)} in {directory} failed:\n{result.stdout}{result.stderr}")
    return result


def write(directory: Path, files: dict[str, str]) -> None:
    for name in list(directory.glob("*.tf")) + list(directory.glob("*/*.tf")):
        name.unlink()
    for name, text in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def record(scenario: Scenario, workspace: Path) -> dict[str, object]:
    directory = workspace / "scenarios" / scenario.name
    directory.mkdir(parents=True)
    if scenario.before is not None:
        write(directory, scenario.before)
        terraform(directory, "init", "-input=false")
        terraform(directory, "apply", "-auto-approve", "-input=false")
    for command in scenario.between:
        if command[0] == "apply":  # the changed configuration, applied (it may fail, as planned)
            write(directory, scenario.after)
            terraform(directory, "init", "-input=false")
        terraform(directory, *command, check=not scenario.apply_may_fail)
    write(directory, scenario.after)
    terraform(directory, "init", "-input=false")
    terraform(directory, "plan", "-input=false", "-out=tfplan", *scenario.plan_args)
    shown = terraform(directory, "show", "-json", "tfplan")
    plan: dict[str, object] = json.loads(shown.stdout)
    return plan


def main(names: list[str]) -> int:
    version = terraform(Path.cwd(), "version", "-json")
    print(f"recording with terraform {json.loads(version.stdout)['terraform_version']}", file=sys.stderr)
    chosen = [s for s in SCENARIOS if not names or any(n in s.name for n in names)]
    RECORDED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="kapsulint-plans-") as temporary:
        workspace = Path(temporary)
        remote = workspace / "scenarios" / "remote"
        remote.mkdir(parents=True)
        write(remote, REMOTE)
        terraform(remote, "init", "-input=false")
        terraform(remote, "apply", "-auto-approve", "-input=false")
        for scenario in chosen:
            plan = record(scenario, workspace)
            target = RECORDED / f"{scenario.name}.json"
            target.write_text(json.dumps(plan, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
            print(f"{target.relative_to(HERE)}: {scenario.what}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
