"""The command line (design.md §3). stdout carries the report and nothing else."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from kapsulint import __version__

FORMATS = ("text", "json", "sarif")
FAIL_LEVELS = {"error": 3, "warning": 2, "note": 1}


class UsageError(click.UsageError):
    exit_code = 2


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Report format on stdout.")
@click.option("--output", type=click.Path(path_type=Path), help="Write the report to FILE instead of stdout.")
@click.option("--select", help="Rule ids, prefixes (KAP3) or names to enable, comma-separated.")
@click.option("--extend-select", help="Rules to enable on top of the selection.")
@click.option("--ignore", help="Rules to disable.")
@click.option("--fail-on", type=click.Choice(tuple(FAIL_LEVELS)), help="Lowest severity that fails (default warning).")
@click.option("--exit-zero", is_flag=True, help="Findings never fail the run (errors of the run still exit 2).")
@click.option("--config", "config_path", type=click.Path(path_type=Path), help="Configuration file to use.")
@click.option("--var-file", "var_files", multiple=True, type=click.Path(path_type=Path),
              help="A tfvars file for the root modules (repeatable).")
@click.option("--var", "variables", multiple=True, metavar="NAME=VALUE", help="A variable for the root modules.")
@click.option("--env-vars", is_flag=True,
              help="Read TF_VAR_* environment variables (off by default: results never depend on the machine).")
@click.option("--list-rules", is_flag=True, help="List the rule catalogue.")
@click.option("--explain", metavar="RULE", help="Show one rule's documentation.")
@click.version_option(__version__, prog_name="kapsulint")
def main(paths, output_format, output, select, extend_select, ignore, fail_on, exit_zero, config_path,
         var_files, variables, env_vars, list_rules, explain) -> None:
    """Lint the Terraform code and Helm values that build Scaleway Kapsule clusters."""
    from kapsulint.settings import SettingsError, resolve_settings

    if list_rules:
        _list_rules(output_format)
        return
    if explain:
        _explain(explain)
        return
    cwd = Path.cwd()
    targets = [p if p.is_absolute() else cwd / p for p in paths] or [cwd]
    for target in targets:
        if not os.path.exists(target):
            _fail(f"cannot read {target}: no such file or directory")
        if not os.access(target, os.R_OK):
            _fail(f"cannot read {target}: permission denied")
    try:
        resolved = resolve_settings(
            targets=[Path(os.path.abspath(t)) for t in targets],
            explicit_paths=bool(paths),
            config_path=config_path,
            select=select,
            extend_select=extend_select,
            ignore=ignore,
            fail_on=fail_on,
            var_files=list(var_files),
            variables=list(variables),
            env_vars=env_vars,
        )
    except SettingsError as error:
        _fail(str(error))
    from kapsulint.reporters import ReportContext, render
    from kapsulint.registry import all_rules
    from kapsulint.runner import run

    result = run(resolved.settings)
    context = ReportContext(
        rules=list(all_rules()),
        cwd=str(cwd),
        repo_root=str(resolved.repo_root),
        version=__version__,
        notifications=result.errors,
        color=output is None and sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
        summary={"files": len(result.project.files)},
    )
    report = render(output_format, result.reported, context)
    if output is not None:
        try:
            output.write_text(report, encoding="utf-8")
        except OSError as error:
            _fail(f"cannot write {output}: {error.strerror}")
    else:
        click.echo(report, nl=False)
    if result.errors:
        sys.exit(2)
    threshold = FAIL_LEVELS[resolved.fail_on]
    failing = [f for f in result.reported if f.severity.rank >= threshold]
    sys.exit(1 if failing and not exit_zero else 0)


def _fail(message: str) -> None:
    click.echo(f"kapsulint: error: {message}", err=True)
    sys.exit(2)


def _list_rules(output_format: str) -> None:
    import json

    from kapsulint.registry import all_rules

    rules = all_rules()
    if output_format == "json":
        rows = [{"id": r.id, "name": r.name, "severity": r.severity.value, "summary": r.summary} for r in rules]
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(r.name) for r in rules)
    for rule in rules:
        click.echo(f"{rule.id}  {rule.name:<{width}}  {rule.severity.value:<7}  {rule.summary}")


def _explain(text: str) -> None:
    from kapsulint.registry import find_rule

    rule = find_rule(text)
    if rule is None:
        _fail(f"unknown rule: {text}")
    security = " (security)" if rule.security else ""
    click.echo(f"# {rule.id} {rule.name}\n\nSeverity: {rule.severity.value}{security}\n\n{rule.doc}")
