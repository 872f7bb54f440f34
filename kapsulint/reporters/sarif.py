"""SARIF 2.1.0 for GitHub code scanning (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).

The log is built from sarif-om's classes and written by the small serializer below: sarif-om's
attrs classes carry python names, each attribute's ``metadata["schema_property_name"]`` gives the
SARIF one. None values and values equal to the schema default are left out, except ``level``
(results, rule default configurations, notifications), which is always written.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path

import attr
import sarif_om

from kapsulint.findings import Edit, Finding, Fix, Loc, Severity
from kapsulint.lint.fingerprints import fingerprints, report_path
from kapsulint.lint.registry import REPOSITORY
from kapsulint.reporters import ReportContext

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "kapsulint/v1"
MAX_RESULTS = 25_000  # GitHub code scanning: results per run
MAX_DESCRIPTION = 1024  # GitHub code scanning: short and full description length


# (class, python attribute) pairs written even when equal to the schema default
_ALWAYS_WRITTEN = {
    (sarif_om.Result, "level"),
    (sarif_om.ReportingConfiguration, "level"),
    (sarif_om.Notification, "level"),
}


def render(findings: list[Finding], context: ReportContext) -> str:
    rules = list(context.rules)
    rule_index: dict[str, int] = {}
    for index, rule in enumerate(rules):
        rule_index.setdefault(rule.id, index)

    fingerprints = _fingerprints(findings, context)

    chosen = [
        (position, finding)
        for position, finding in enumerate(findings)
        if finding.suppressed_by is None or context.include_suppressed
    ]
    # Most severe first (unsuppressed before suppressed at equal severity), otherwise input order.
    chosen.sort(key=lambda item: (-item[1].severity.rank, item[1].suppressed_by is not None, item[0]))
    left_out = max(0, len(chosen) - MAX_RESULTS)
    chosen = chosen[:MAX_RESULTS]

    results = [
        _result(finding, fingerprints[position], rule_index, context) for position, finding in chosen
    ]

    notifications = [
        _notification(message, path, rule, context, "error") for message, path, rule in context.notifications
    ]
    # Each place kapsulint could not judge is a result and a note of the run (SARIF 2.1.0 §3.20.21,
    # toolExecutionNotifications: "conditions relevant to the execution of the tool").
    blind = {rule.id for rule in rules if rule.blind_spot}
    notifications += [_notification(finding.message, finding.loc.path, finding.rule, context, "note", finding.loc)
                      for finding in findings if finding.rule in blind and finding.suppressed_by is None]
    if left_out:
        notifications.append(
            _notification(
                f"{left_out} result(s) were left out of this SARIF report: GitHub code scanning accepts "
                f"at most {MAX_RESULTS} results per run (the most severe were kept).",
                None,
                None,
                context,
                "warning",
            )
        )

    invocation = sarif_om.Invocation(
        execution_successful=not context.notifications,
        tool_execution_notifications=notifications or None,
    )
    driver = sarif_om.ToolComponent(
        name="kapsulint",
        version=context.version,
        semantic_version=context.version,
        information_uri=REPOSITORY,
        rules=[_rule(rule, context.version) for rule in rules],
    )
    run = sarif_om.Run(
        tool=sarif_om.Tool(driver=driver),
        invocations=[invocation],
        original_uri_base_ids={SRCROOT: sarif_om.ArtifactLocation(uri=_root_uri(context.repo_root))},
        column_kind="unicodeCodePoints",
        results=results,
    )
    log = sarif_om.SarifLog(schema_uri=SCHEMA_URI, version=SARIF_VERSION, runs=[run])
    data = to_json(log)
    ordered = {key: data.pop(key) for key in ("$schema", "version") if key in data}
    ordered.update(data)
    return json.dumps(ordered, indent=2) + "\n"


# --- serializer -----------------------------------------------------------------------------------


def to_json(value):
    """A sarif-om object (or list/dict of them) as plain JSON data, with SARIF property names."""
    if attr.has(type(value)):
        out: dict = {}
        names = set()
        for field in attr.fields(type(value)):
            names.add(field.name)
            item = getattr(value, field.name)
            if item is None:
                continue
            if (type(value), field.name) not in _ALWAYS_WRITTEN and _is_default(field, item):
                continue
            out[field.metadata.get("schema_property_name", field.name)] = to_json(item)
        # Property bags carry free-form keys ("security-severity", "instances") as extra attributes.
        for key, item in vars(value).items():
            if key not in names and item is not None:
                out[key] = to_json(item)
        return out
    if isinstance(value, dict):
        return {str(key): to_json(item) for key, item in value.items() if item is not None}
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    return value


def _is_default(field, value) -> bool:
    default = field.default
    if default is attr.NOTHING:
        return False
    if isinstance(default, attr.Factory):  # type: ignore[arg-type]  # a class at run time; the stubs call it a function
        default = default.factory() if not default.takes_self else attr.NOTHING
    if default is None or default is attr.NOTHING:
        return False
    return isinstance(value, bool) == isinstance(default, bool) and value == default


# --- rules ----------------------------------------------------------------------------------------


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _rule(rule, version: str) -> sarif_om.ReportingDescriptor:
    sections = rule.sections
    summary = rule.summary or rule.name or rule.id
    title = rule.title or summary
    full = sections.get("What it does", "").strip() or summary
    doc = rule.doc.strip() or full
    tags = ["kapsulint"]
    if rule.security:
        tags.append("security")
    if rule.family:
        tags.append(rule.family)
    properties = sarif_om.PropertyBag(tags=tags)
    if rule.security_severity is not None:
        setattr(properties, "security-severity", rule.security_severity)
    return sarif_om.ReportingDescriptor(
        id=rule.id,
        name=rule.name or None,
        short_description=sarif_om.MultiformatMessageString(text=_clip(title)),
        full_description=sarif_om.MultiformatMessageString(text=_clip(full)),
        help=sarif_om.MultiformatMessageString(text=doc, markdown=doc),
        help_uri=rule.help_uri(version),
        default_configuration=sarif_om.ReportingConfiguration(level=Severity(rule.severity).value),
        properties=properties,
    )


# --- results --------------------------------------------------------------------------------------


def _result(finding: Finding, fingerprint: str, rule_index: dict[str, int], context) -> sarif_om.Result:
    related = [
        sarif_om.Location(
            id=number,
            physical_location=_physical(item.loc, context),
            message=sarif_om.Message(text=item.message) if item.message else None,
        )
        for number, item in enumerate(finding.related, start=1)
    ]
    properties = None
    if finding.instances:
        properties = sarif_om.PropertyBag()
        properties.instances = list(finding.instances)
    suppressions = None
    if context.include_suppressed:
        if finding.suppressed_by is None:
            suppressions = []
        else:
            suppressions = [
                sarif_om.Suppression(kind="inSource", justification=finding.suppressed_by or None)
            ]
    return sarif_om.Result(
        rule_id=finding.rule or None,
        rule_index=rule_index.get(finding.rule, -1),
        level=finding.severity.value,
        message=sarif_om.Message(text=result_message(finding)),
        locations=[sarif_om.Location(physical_location=_physical(finding.loc, context))],
        related_locations=related or None,
        partial_fingerprints={FINGERPRINT_KEY: fingerprint},
        suppressions=suppressions,
        properties=properties,
        fixes=[_fix(finding.autofix, context)] if finding.autofix is not None else None,
    )


def _fix(fix: Fix, context) -> sarif_om.Fix:
    """A result's fix: its edits by file (SARIF 2.1.0 §3.55; an insertion deletes an empty region)."""
    by_path: dict[str, list[Edit]] = {}
    for edit in fix.edits:
        by_path.setdefault(edit.path, []).append(edit)
    changes = [
        sarif_om.ArtifactChange(
            artifact_location=_artifact(path, context),
            replacements=[
                sarif_om.Replacement(
                    deleted_region=sarif_om.Region(start_line=e.line, start_column=e.column, end_line=e.end_line,
                                                   end_column=e.end_column),
                    inserted_content=sarif_om.ArtifactContent(text=e.content) if e.content else None,
                )
                for e in edits
            ],
        )
        for path, edits in by_path.items()
    ]
    return sarif_om.Fix(artifact_changes=changes,
                        description=sarif_om.Message(text=f"{fix.description} ({fix.applicability})"))


def result_message(finding: Finding) -> str:
    """The message, its fix hint, and a link to every related location: GitHub code scanning shows
    related locations only where ``message.text`` embeds them as ``[text](id)``, see
    https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
    and SARIF 2.1.0 §3.11.6, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html"""
    text = finding.message or finding.name or finding.rule
    if finding.fix:
        text += f"\n\nFix: {finding.fix}"
    links = [f"[{_link_text(item.message or 'related location')}]({number})"
             for number, item in enumerate(finding.related, start=1)]
    if links:
        text += "\n\nSee: " + "; ".join(links)
    return text


def _link_text(text: str) -> str:
    """Text of an embedded link: brackets and backslashes escaped (SARIF 2.1.0 §3.11.6)."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def _physical(loc: Loc, context) -> sarif_om.PhysicalLocation:
    region = loc.one_line()
    return sarif_om.PhysicalLocation(
        artifact_location=_artifact(loc.path, context),
        region=sarif_om.Region(
            start_line=region.line,
            start_column=region.column,
            end_line=region.line,
            end_column=max(region.end_column, region.column + 1),
        ),
    )


def _notification(message: str, path: str | None, rule: str | None, context, level: str,
                  loc: Loc | None = None) -> sarif_om.Notification:
    locations = None
    if loc is not None:
        locations = [sarif_om.Location(physical_location=_physical(loc, context))]
    elif path:
        locations = [sarif_om.Location(physical_location=sarif_om.PhysicalLocation(artifact_location=_artifact(path, context)))]
    return sarif_om.Notification(
        message=sarif_om.Message(text=message),
        level=level,
        locations=locations,
        associated_rule=sarif_om.ReportingDescriptorReference(id=rule) if rule else None,
    )


# --- paths and fingerprints -----------------------------------------------------------------------


def _artifact(path: str, context) -> sarif_om.ArtifactLocation:
    """A file's location relative to the repository root (``%SRCROOT%``), never an absolute URI of
    the machine that ran kapsulint (see ``report_path``)."""
    relative = report_path(path, context.repo_root, context.cwd)
    # Quoted from the file name's own bytes: one that is not UTF-8 stays the file it names.
    return sarif_om.ArtifactLocation(uri=urllib.parse.quote(os.fsencode(relative), safe="/"), uri_base_id=SRCROOT)


def _root_uri(repo_root: str) -> str:
    uri = Path(os.path.abspath(repo_root)).as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _fingerprints(findings: list[Finding], context) -> list[str]:
    return fingerprints(findings, context.repo_root, context.cwd)
