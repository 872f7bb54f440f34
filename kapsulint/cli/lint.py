"""The lint command (click): flags in, one Invocation record, exit code out. stdout carries the
report and nothing else. The console script (``cli/command.py``) runs it, or replays its output
from the results cache (``cli/results.py``)."""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import click

from kapsulint import __version__

FORMATS = ("text", "concise", "json", "sarif", "github", "gitlab")
FAIL_LEVELS = {"error": 3, "warning": 2, "note": 1}
ISSUES = "https://github.com/kapsulint/kapsulint/issues"
FIX_MARKS: dict[str | None, str] = {"safe": "[*]", "unsafe": "[!]", "sometimes": "[~]"}
"""--list-rules' mark of a rule's fix: safe (--fix applies it), unsafe (only with --unsafe-fixes),
or safe in some cases and unsafe in others."""
FIX_LEGEND = (("[*]", "safe fix (--fix)"), ("[!]", "unsafe fix (--fix --unsafe-fixes)"),
              ("[~]", "safe or unsafe, by case"))


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    _out(f"kapsulint, version {__version__}")
    ctx.exit()


SERVER = "server"
SERVER_OPTIONS = ("--stdio", "-h", "--help")


def server_requested(args: list[str]) -> bool:
    """Whether the arguments ask for the language server rather than a lint.

    ``kapsulint server`` starts the server when nothing named ``server`` exists in the working
    directory; where a file or directory of that name exists, it lints it, as it always did, unless
    ``--stdio`` is given (``kapsulint server --stdio`` always starts the server, and is what editors
    are configured with). Any lint option or second PATH after ``server`` makes it a lint; ``./server``
    always names the path.
    """
    if not args or args[0] != SERVER or not all(arg in SERVER_OPTIONS for arg in args[1:]):
        return False
    return "--stdio" in args[1:] or not os.path.lexists(SERVER)


class _Command(click.Command):
    """The lint command, which hands ``kapsulint server`` to the language server (see :func:`server_requested`)."""

    # click types its main by overloads on standalone_mode; this one forwards every argument as given
    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,  # type: ignore[override]
             **extra: Any) -> Any:
        given = list(sys.argv[1:] if args is None else args)
        if server_requested(given):
            from kapsulint.cli.server import server_command

            return server_command.main(given[1:], prog_name=f"{prog_name or 'kapsulint'} {SERVER}", **extra)
        return super().main(given, prog_name, **extra)


@click.command(cls=_Command, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Report format on stdout; concise is one line per finding, then the summary.")
@click.option("--output", type=click.Path(path_type=Path), help="Write the report to FILE instead of stdout.")
@click.option("--report", "reports", multiple=True, metavar="FORMAT=PATH",
              help="Also write a report in FORMAT to PATH (repeatable), so CI lints once.")
@click.option("--select", help="Rule ids, prefixes (KAP3) or names to enable, comma-separated; an unknown one exits 2 "
                   "and names the closest ids and names.")
@click.option("--extend-select", help="Rules to enable on top of the selection.")
@click.option("--ignore", help="Rules to disable.")
@click.option("--fail-on", type=click.Choice(tuple(FAIL_LEVELS)), help="Lowest severity that fails (default warning).")
@click.option("--exit-zero", is_flag=True, help="Findings never fail the run (errors of the run still exit 2).")
@click.option("--config", "config_path", type=click.Path(path_type=Path), help="Configuration file to use; its problems (unknown keys, each with the closest valid "
                   "key, and values that cannot be used) are all said at once, and exit 2.")
@click.option("--var-file", "var_files", multiple=True, type=click.Path(path_type=Path),
              help="A tfvars file for the root modules (repeatable); one that cannot be read exits 2.")
@click.option("--var", "variables", multiple=True, metavar="NAME=VALUE", help="A variable for the root modules.")
@click.option("--env-vars", is_flag=True,
              help="Read TF_VAR_* environment variables (off by default: results never depend on the machine).")
@click.option("--no-inline-ignores", is_flag=True, help="Ignore suppression comments (audits); KAP003 and KAP009 are off then.")
@click.option("--force-exclude", is_flag=True, help="Apply `exclude` to the files and directories named on the command line too.")
@click.option("--since", metavar="REF",
              help="Report only the findings the working tree adds to the git revision REF (a branch, tag "
                   "or commit): REF's tree, read from git, is linted too, and its findings are left out "
                   "by fingerprint, so code that moved is not new.")
@click.option("--baseline", "baseline_path", type=click.Path(path_type=Path),
              help="Report only findings that are not in this baseline file.")
@click.option("--write-baseline", "write_baseline_path", type=click.Path(path_type=Path),
              help="Record today's findings in this baseline file instead of reporting them; says how many "
                   "on stderr and exits 0.")
@click.option("--sarif-include-suppressed", is_flag=True,
              help="Keep suppressed findings in SARIF, each result with a `suppressions` array.")
@click.option("--statistics", is_flag=True, help="Show counts per rule instead of the findings (text, or JSON with --format json).")
@click.option("-q", "--quiet", is_flag=True, help="Print the findings and nothing else (no summary).")
@click.option("--show-files", is_flag=True,
              help="Show the project root, then each file read with its kind, state and why it was read, and exit.")
@click.option("--show-settings", is_flag=True, help="Show the resolved settings and where each came from, and exit.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the caches (parsed files, and the results of unchanged runs).")
@click.option("--jobs", "-j", type=int, help="Processes that parse uncached files (default: the CPUs available).")
@click.option("--today", metavar="YYYY-MM-DD",
              help="The lint date for date-dependent rules (KAP110; default: today in UTC).")
@click.option("--engine", type=click.Choice(("terraform", "opentofu", "auto")),
              help="How .tf and .tofu files combine: as Terraform reads them (it ignores .tofu files), as "
                   "OpenTofu does (a .tofu file replaces the .tf file of the same name), or auto (default: "
                   "OpenTofu for a root module tree whose root has a .tofu file, an OpenTofu lock file or "
                   "state encryption).")
@click.option("--plan", "plan_path", type=click.Path(path_type=Path), metavar="PLAN.json",
              help="Also judge the planned actions of a plan (`terraform show -json PLANFILE`), made in the "
                   "directory of the first PATH (KAP6xx); a file that is not a plan exits 2.")
@click.option("--fix", is_flag=True, help="Apply the safe fixes in place, then report what is left.")
@click.option("--unsafe-fixes", is_flag=True,
              help="Also apply (with --fix) or show as fixable the unsafe fixes: those that update or "
                   "replace infrastructure.")
@click.option("--diff", is_flag=True,
              help="Print the unified diff that --fix would apply and change nothing; exits 1 when it "
                   "would change something (implies --fix-only).")
@click.option("--fix-only", is_flag=True, help="Apply fixes and report nothing else; exits 0 unless the run failed.")
@click.option("--list-rules", is_flag=True, help="List the rule catalogue.")
@click.option("--explain", metavar="RULE", help="Show one rule's documentation.")
@click.option("--eval", "evals", multiple=True, metavar="EXPRESSION",
              help="Evaluate EXPRESSION in the root module of PATH (a directory, default .) as Terraform "
                   "would, print it as a JSON line, and exit (repeatable).")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and exit.")
def main(**options: Any) -> None:
    """Lint the Terraform code and Helm values that build Scaleway Kapsule clusters.

    `kapsulint server --stdio` starts the language server instead (the server extra).
    """
    given = Invocation(**options)  # by name: an option without its field (or the reverse) fails here
    # The cyclic garbage collector is paused for the command: a run allocates millions of
    # short-lived objects, freed by reference counting, and collections over the growing model
    # cost up to two thirds of the time on large monorepos.
    collecting = gc.isenabled()
    gc.disable()
    stderr = sys.stderr
    sys.stderr = PrintableStream(stderr)
    try:
        _lint(given)
    except BrokenPipeError:  # a write to a closed stdout that no helper took: the output is over, and it went well
        _silence_stdout()
        sys.exit(0)
    except (click.exceptions.Exit, click.ClickException, click.Abort):
        raise
    except Exception as error:
        _internal_error(error)
    finally:
        sys.stderr = stderr
        if collecting:
            gc.enable()


class Invocation(NamedTuple):
    """The command line as given: one field per option of :func:`main`, by the option's name.

    Made once, from click's options; :func:`_lint` resolves it with the configuration file and
    the defaults (``cli/settings.py``, with the origin of each setting)."""

    paths: tuple[Path, ...]
    output_format: str
    output: Path | None
    reports: tuple[str, ...]
    select: str | None
    extend_select: str | None
    ignore: str | None
    fail_on: str | None
    exit_zero: bool
    config_path: Path | None
    var_files: tuple[Path, ...]
    variables: tuple[str, ...]
    env_vars: bool
    no_inline_ignores: bool
    force_exclude: bool
    since: str | None
    baseline_path: Path | None
    write_baseline_path: Path | None
    sarif_include_suppressed: bool
    statistics: bool
    quiet: bool
    show_files: bool
    show_settings: bool
    no_cache: bool
    jobs: int | None
    today: str | None
    engine: str | None
    plan_path: Path | None
    fix: bool
    unsafe_fixes: bool
    diff: bool
    fix_only: bool
    list_rules: bool
    explain: str | None
    evals: tuple[str, ...]


def _internal_error(error: BaseException) -> None:
    """An exception nothing else caught: one line on stderr, and exit 2 (the report of what was
    judged, in the formats that could still be written, is out already)."""
    from kapsulint.errors import describe

    detail = " ".join(describe(error).split())
    click.echo(f"kapsulint: internal error: {detail} (a bug in kapsulint, not in the code it read: please "
               f"report it at {ISSUES} with the command line and, if you can, the files that reproduce it)",
               err=True)
    sys.exit(2)


class PrintableStream(io.TextIOBase):
    """stderr as kapsulint writes to it: the characters a terminal would act on escaped (paths and
    values in messages come from the input), and a reader that has gone (``2>&1 | head -1``) taken
    quietly, so that the run still ends with its own exit code."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        from kapsulint.reporters import printable_lines

        try:
            self._stream.write(printable_lines(text))
        except BrokenPipeError:
            _silence(self._stream)
        return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            _silence(self._stream)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]  # the wrapped stream's, read when asked
        return getattr(self._stream, "encoding", None) or "utf-8"

    @property
    def errors(self) -> str | None:  # type: ignore[override]  # the wrapped stream's, read when asked
        return getattr(self._stream, "errors", None)


def _out(text: str, nl: bool = True) -> None:
    """Write to stdout. A reader that has gone (``kapsulint . | head -1``) ends the output quietly:
    stdout is pointed at the null device, as Python's documentation recommends
    (https://docs.python.org/3/library/signal.html#note-on-sigpipe), and the run goes on to the
    exit code it would have had."""
    try:
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()


def _silence_stdout() -> None:
    _silence(sys.stdout)


def _silence(stream) -> None:
    """Point the descriptor under ``stream`` at the null device, so that what is still buffered (and
    the interpreter's last flush) goes nowhere instead of raising again."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (an in-memory stream): nothing to point
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _lint(given: Invocation) -> None:
    from kapsulint.cli.settings import CommandLine, SettingsError, resolve_settings

    if given.list_rules:
        _list_rules(given.output_format)
        return
    if given.explain:
        _explain(given.explain)
        return
    extra_reports = [_parse_report(item) for item in given.reports]
    paths = given.paths
    cwd = _working_directory(paths)
    targets = [Path(os.path.abspath(p)) for p in paths] or [cwd]
    for target in targets:
        if not os.path.exists(target):
            _fail(f"cannot read {target}: no such file or directory")
        if not os.access(target, os.R_OK):
            _fail(f"cannot read {target}: permission denied")
    try:
        resolved = resolve_settings(command_line := CommandLine(
            targets=targets,
            config_path=given.config_path,
            select=given.select,
            extend_select=given.extend_select,
            ignore=given.ignore,
            fail_on=given.fail_on,
            var_files=list(given.var_files),
            variables=list(given.variables),
            env_vars=given.env_vars,
            force_exclude=given.force_exclude,
            inline_ignores=not given.no_inline_ignores,
            cache=not given.no_cache,
            jobs=given.jobs,
            today=given.today,
            fix=given.fix or None,
            unsafe_fixes=given.unsafe_fixes or None,
            engine=given.engine,
            plan=given.plan_path,
            since=given.since,
        ))
    except SettingsError as error:
        _fail(str(error))
    _check_var_files(resolved, [p.resolve() for p in given.var_files])
    if resolved.fix or resolved.since:  # the configuration's: not a plain lint run, never replayed
        from kapsulint.cli.results import decline

        decline()
    if given.show_settings:
        _show_settings(resolved)
        return
    from kapsulint.lint.runner import run
    from kapsulint.parsing.sources import FileReads

    if given.show_files:
        _show_files(resolved, cwd)
        return
    if given.evals:
        _evaluate(resolved, targets[0], list(given.evals))
        return
    repo_root = str(resolved.repo_root)
    baseline = None
    if given.baseline_path is not None:
        from kapsulint.lint.baseline import BaselineError, read_baseline

        try:
            baseline = read_baseline(given.baseline_path)
        except BaselineError as error:
            _fail(str(error))
    known = _since(resolved, command_line, cwd)
    hiding = [(fingerprints, why) for fingerprints, why in
              ((baseline, f"in the baseline {given.baseline_path}"), (known, f"already in {resolved.since} (--since)"))
              if fingerprints is not None]
    hidden: dict[str, int] = {}

    def lint(reads: FileReads | None = None):
        """One run, its files read through ``reads`` (by default, its own), the baseline's findings
        and REF's (--since) left out (and counted)."""
        from kapsulint.model.plan_binding import PlanMismatch

        try:
            linted = run(resolved.settings, reads)
        except PlanMismatch as error:
            _fail(str(error))
        linted.findings = _left_out(linted.findings, hiding, hidden, repo_root, cwd)
        return linted

    policy = resolved.fix_policy
    unsafe = resolved.unsafe_fixes
    write_baseline_path = given.write_baseline_path
    if (resolved.fix or given.diff or given.fix_only) and write_baseline_path is None:
        result = _apply_fixes(lint, policy, unsafe, given, resolved, cwd)
    else:
        result = lint()
    findings = result.findings
    policy.annotate(findings)
    reported = [f for f in findings if f.suppressed_by is None]
    if write_baseline_path is not None:
        _write_baseline(write_baseline_path, reported, repo_root, cwd, result.errors)
        return
    output_format = given.output_format
    if given.output is not None or given.quiet or output_format not in ("text", "concise"):
        _say_hidden(hidden)  # the text summary says it otherwise
    from kapsulint.lint.registry import all_rules
    from kapsulint.reporters import ReportContext, render

    plan = resolved.settings.scan.plan

    def context(to_terminal: bool) -> ReportContext:
        return ReportContext(
            rules=list(all_rules()),
            cwd=str(cwd),
            repo_root=repo_root,
            version=__version__,
            notifications=result.errors,
            color=to_terminal and sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
            include_suppressed=given.sarif_include_suppressed,
            quiet=given.quiet,
            unsafe_fixes=unsafe,
            boundary=resolved.settings.scan.boundary,
            sensitive=result.sensitive,
            hidden=[(count, why) for why, count in hidden.items() if count],
            unshown=frozenset({plan.path} if plan is not None else ()),
        )

    # (format, path or None for stdout, counts instead of findings): the report, then --report's
    wanted = [(output_format, given.output, given.statistics and output_format in ("text", "concise", "json")),
              *((format_name, path, False) for format_name, path in extra_reports)]
    failed: list[Exception] = []
    for format_name, path, counts in wanted:
        try:  # one format's bug never costs the others: the SARIF still reaches code scanning
            if counts:
                text = _statistics(reported, format_name, unsafe)
            else:
                text = render(format_name, findings, context(path is None))
        except Exception as error:
            failed.append(error)
            continue
        _write(text, path, resolved.repo_root, resolved.settings.scan.boundary)
    if failed:
        result.project.forget_cached()  # in case the bug is a damaged cache entry: parsed again next time
        raise failed[0]
    if result.errors:
        sys.exit(2)
    explicit = {os.path.normpath(t) for t in targets} if paths else set()
    if any(os.path.normpath(path) in explicit for path, _ in result.project.unreadable):
        sys.exit(2)  # an explicit PATH that cannot be read (its line is on stderr already)
    threshold = FAIL_LEVELS[resolved.fail_on]
    failing = [f for f in reported if f.severity.rank >= threshold]
    sys.exit(1 if failing and not given.exit_zero else 0)


def _left_out(findings, hiding, hidden: dict[str, int], repo_root: str, cwd: Path):
    """``findings`` without those of each (fingerprints, why) of ``hiding``; ``hidden`` counts the
    reported ones each left out, for the summary."""
    from kapsulint.lint.baseline import new_findings

    for fingerprints, why in hiding:
        kept = new_findings(findings, fingerprints, repo_root, str(cwd))
        hidden[why] = sum(f.suppressed_by is None for f in findings) - sum(f.suppressed_by is None for f in kept)
        findings = kept
    return findings


def _say_hidden(hidden: dict[str, int]) -> None:
    """On stderr, how many findings the baseline and --since left out (for the formats whose
    summary does not say it)."""
    for why, count in hidden.items():
        if count:
            click.echo(f"kapsulint: {count} finding{'s' if count != 1 else ''} {why} not reported", err=True)


def _since(resolved, command_line, cwd: Path) -> set[str] | None:
    """With --since REF (or the configuration's ``since``), the fingerprints of REF's findings."""
    if not resolved.since:
        return None
    from kapsulint.cli.since import SinceError, known_fingerprints

    try:
        return known_fingerprints(resolved, command_line, resolved.since, cwd)
    except SinceError as error:
        _fail(str(error))
    except OSError as error:
        _fail(f"--since cannot write REF's tree: {error.strerror or error}")
    return None


def _working_directory(paths) -> Path:
    """The working directory. One that was removed under the run is a usage error, unless every
    PATH is absolute: the run then works from the first PATH (its directory, for a file), and
    reports paths relative to it."""
    try:
        return Path.cwd()
    except OSError:  # FileNotFoundError: removed; PermissionError: no longer searchable
        pass
    if not paths or not all(os.path.isabs(p) for p in paths):
        _fail("the working directory no longer exists; run kapsulint from an existing directory, or give "
              "each PATH as an absolute path")
    first = Path(paths[0])
    directory = first if first.is_dir() else first.parent
    try:
        os.chdir(directory)
    except OSError as error:
        _fail(f"the working directory no longer exists, and {directory} cannot be entered: {error.strerror}")
    click.echo(f"kapsulint: the working directory no longer exists; paths are shown relative to {directory}",
               err=True)
    return directory


def _apply_fixes(lint, policy, unsafe: bool, fixing: Invocation, resolved, cwd: Path):
    """Fix (or with --diff, print what fixing would change); exits unless findings are reported."""
    from kapsulint.lint.fixes import fix_rounds, unified_diff
    from kapsulint.lint.writes import LockError

    repository = str(resolved.repo_root)
    try:
        outcome = fix_rounds(lint, policy, unsafe, repository, write=not fixing.diff)
    except LockError as error:
        _fail(str(error))
    for path in outcome.removed:
        click.echo(f"kapsulint: removed {os.path.relpath(path, cwd)}, a temporary file left by an interrupted --fix",
                   err=True)
    for refused in outcome.refused:
        where = f"{os.path.relpath(refused.finding.loc.path, cwd)}:{refused.finding.loc.line}"
        click.echo(f"kapsulint: not fixed: {where}: {refused.finding.rule}: {refused.reason}", err=True)
    errors = outcome.result.errors
    for path, reason in sorted(outcome.unwritten.items()):
        left = outcome.not_applied.get(path, 0)
        fixes = f"; {left} fix{'es' if left != 1 else ''} not applied" if left else ""
        verb = "would not write" if fixing.diff else "not written"
        click.echo(f"kapsulint: error: {verb}: {os.path.relpath(path, cwd)} {reason}{fixes}", err=True)
        errors.append((f"{verb}: the file {reason}{fixes}", path, None))  # an error of the run: exit 2
    count = outcome.count
    plural = "s" if count != 1 else ""
    if fixing.diff:
        base = str(resolved.settings.root)
        if any(os.path.relpath(path, base).split(os.sep)[0] == os.pardir for path in outcome.texts):
            base = repository  # a fixed module of the repository beside the project: paths from the top
            click.echo(f"kapsulint: the diff applies from the repository root {os.path.relpath(base, cwd)}",
                       err=True)
        _out(unified_diff(outcome.originals, outcome.texts, base, outcome.sensitive), nl=False)
        click.echo(f"Would fix {count} finding{plural}.", err=True)
        sys.exit(2 if errors else 1 if outcome.texts else 0)
    click.echo(f"Fixed {count} finding{plural}.", err=True)
    if fixing.fix_only:
        sys.exit(2 if errors else 0)
    return outcome.result


def _parse_report(item: str) -> tuple[str, Path]:
    format_name, sep, path = item.partition("=")
    if not sep or format_name not in FORMATS or not path:
        _fail(f"--report expects FORMAT=PATH with FORMAT one of {', '.join(FORMATS)}, got {item!r}")
    return format_name, Path(path)


def _write(report: str, output: Path | None, repository: Path, boundary) -> None:
    if output is None:
        _out(report, nl=False)
        return
    _output_directory(output, repository, boundary)
    try:
        output.write_text(report, encoding="utf-8")
    except OSError as error:
        _fail(f"cannot write {output}: {error.strerror}")


def _output_directory(output: Path, repository: Path, boundary) -> None:
    """Create the missing directories above a report file (--output, --report). A path inside the
    repository must stay inside it after every symbolic link: a link the repository holds
    (``reports -> ~/.ssh``) is never written through; a path elsewhere is the user's to name."""
    from kapsulint.boundary import OUTSIDE

    absolute = os.path.abspath(output)
    relative = os.path.relpath(absolute, os.path.abspath(repository))
    if relative != os.pardir and not relative.startswith(os.pardir + os.sep) and not boundary.contains(absolute):
        _fail(f"cannot write {output}: it {OUTSIDE} through a symbolic link")
    try:
        os.makedirs(os.path.dirname(absolute), exist_ok=True)
    except OSError as error:
        _fail(f"cannot write {output}: cannot create its directory: {error.strerror or error}")


def _fail(message: str) -> NoReturn:
    click.echo(f"kapsulint: error: {message}", err=True)
    sys.exit(2)


def _check_var_files(resolved, given: list[Path]) -> None:
    """A variables file that cannot be read is a usage error, as it is for ``terraform plan``."""
    for name in resolved.settings.scan.var_files:
        path = Path(name)
        origin = "--var-file" if path in given else f"var-files in {resolved.config.path}"
        if not path.is_file():
            _fail(f"cannot read variables file {path} ({origin}): no such file")
        if not os.access(path, os.R_OK):
            _fail(f"cannot read variables file {path} ({origin}): permission denied")


def _write_baseline(path: Path, findings, repo_root: str, cwd: Path, errors) -> None:
    """Record the findings, say so on stderr, and exit 0 (2 when the run itself had errors)."""
    from kapsulint.lint.baseline import write_baseline

    try:
        write_baseline(path, findings, repo_root, str(cwd))
    except OSError as error:
        _fail(f"cannot write baseline {path}: {error.strerror}")
    count = len(findings)
    click.echo(f"kapsulint: recorded {count} finding{'s' if count != 1 else ''} in baseline {path}", err=True)
    sys.exit(2 if errors else 0)


def _statistics(findings, output_format: str, unsafe: bool) -> str:
    """Counts per rule; the places kapsulint could not judge (blind spots) are also counted apart,
    by kind (``blind_spot`` in JSON, a last line in text)."""
    from collections import Counter

    from kapsulint.lint.registry import by_id
    from kapsulint.reporters.text import applicable, blind_spot_kinds

    rules = by_id()
    counts = Counter((f.rule, f.name, f.severity.value) for f in findings)
    fixable = {f.rule for f in findings if applicable(f, unsafe)}
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    blind = [f for f in findings if f.rule in rules and rules[f.rule].blind_spot]
    if output_format == "json":
        import json

        rows = [{"rule": rule, "name": name, "severity": severity, "count": count, "fixable": rule in fixable,
                 "blind_spot": rule in rules and rules[rule].blind_spot}
                for (rule, name, severity), count in ordered]
        return json.dumps(rows, indent=2) + "\n"
    lines = [f"{count:>5}  {rule}  {'[*] ' if rule in fixable else ''}{name}  ({severity})"
             for (rule, name, severity), count in ordered]
    lines.append(f"{sum(counts.values()):>5}  total")
    if blind:
        kinds = ", ".join(f"{count} {words}" for count, words in blind_spot_kinds(blind, rules))
        lines.append(f"{len(blind):>5}  could not judge: {kinds}")
    return "\n".join(lines) + "\n"


def _show_files(resolved, cwd: Path) -> None:
    from kapsulint.cli.show_files import (
        engine_left_out,
        engine_lines,
        file_state,
        not_read,
        why_read,
    )
    from kapsulint.model.project import Project
    from kapsulint.reporters import printable as shown

    options = resolved.settings.scan
    project = Project(options).load()
    project.add_read_values_files()
    failed = {path for _, path, _ in project.errors}
    root, origin = resolved.origins["project-root"]
    _out(f"# project root: {shown(os.path.relpath(root, cwd))} ({origin})")
    for path in sorted(project.files):
        source = project.files[path]
        state = "internal-error" if path in failed else file_state(project, source)
        why = why_read(project, path)
        _out(f"{shown(os.path.relpath(path, cwd))}\t{source.kind}\t{state}\t{shown(why)}")
    for path, reason in dict.fromkeys(project.unreadable):
        _out(f"# cannot read: {shown(os.path.relpath(path, cwd))} ({reason})")
    for line in engine_lines(project, resolved.origins["engine"][1], str(cwd)) + engine_left_out(project, str(cwd)):
        _out(shown(line))
    for path, glob in project.template_sources:
        _out(f"# left out: {shown(os.path.relpath(path, cwd))} (a template source, matched by template-files "
             f"{shown(glob)}; name it as a PATH to lint it)")
    for directory in sorted(options.excluded.left_out):
        relative = os.path.relpath(directory, cwd)
        _out(f"# left out: {shown(relative)} (a project of its own; name it as a PATH to lint it)")
    for line in not_read(project, str(cwd)):
        _out(shown(line))


def _evaluate(resolved, target: Path, expressions: list[str]) -> None:
    from kapsulint.cli.console import (
        evaluate_lines,
        no_module_message,
        parse_expressions,
    )
    from kapsulint.model.project import Project

    if not target.is_dir():
        _fail(f"--eval evaluates in a module directory; {target} is not a directory")
    parsed = parse_expressions(expressions)
    project = Project(resolved.settings.scan).load()
    missing = no_module_message(project, str(target))
    if missing is not None:  # terraform console evaluates there too, in an empty root module
        click.echo(f"kapsulint: {missing}; evaluating in an empty module, as terraform console does", err=True)
    for line in evaluate_lines(project, str(target), parsed):
        _out(line)
    unparsed = [expression.text for expression in parsed if expression.syntax_error is not None]
    if unparsed:
        _fail("--eval " + ", ".join(repr(text) for text in unparsed) + " does not parse")


def _show_settings(resolved) -> None:
    from kapsulint.cli.settings import settings_lines

    for line in settings_lines(resolved):
        _out(line)


def _list_rules(output_format: str) -> None:
    import json

    from kapsulint.lint.registry import all_rules

    rules = all_rules()
    if output_format == "json":
        rows = [{"id": r.id, "name": r.name, "severity": r.severity.value, "summary": r.summary, "fixable": r.fix}
                for r in rules]
        _out(json.dumps(rows, indent=2))
        return
    width = max(len(r.name) for r in rules)
    for rule in rules:
        mark = FIX_MARKS.get(rule.fix, "   ")
        _out(f"{rule.id}  {mark} {rule.name:<{width}}  {rule.severity.value:<7}  {rule.summary}")
    _out("; ".join(f"{mark} {words}" for mark, words in FIX_LEGEND))


def _explain(text: str) -> None:
    from kapsulint.lint.registry import did_you_mean, find_rule

    rule = find_rule(text)
    if rule is None:
        _fail(f"unknown rule: {text}{did_you_mean(text)}")
    _out(rule.explanation)

