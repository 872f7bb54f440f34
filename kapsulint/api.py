"""Everything a rule may use from the engine. Rules import only this and :mod:`kapsulint.kapsule`.

A rule is a module in ``rules/`` with a docstring under the fixed headings (``registry.DOC_HEADINGS``), the
constants ``ID``, ``NAME``, ``SEVERITY`` (and ``SECURITY = True`` for security rules), and a
pure ``check(project)`` generator of :class:`Finding` objects.

A rule that fixes sets ``FIX = "safe" | "unsafe" | "sometimes"`` and a ``## Fix`` section after
``## Use instead``, and passes ``autofix=fix("safe", "what it does", edit, ...)`` to
:func:`finding`, with edits from the builders below (``replace_value``, ``remove_attribute``,
``set_attribute``, ``insert_block``, ``remove_text``, ``replace_yaml_scalar``), each given the
project first: an edit is made on the text of the file its run reads. A builder returns None where
it cannot edit (JSON syntax, a position it does not know), and ``fix`` then returns None: the
finding is reported as not fixable there.

An expression as written is an :class:`Expression` (``attribute.expression``): its location, a
literal, an object member, its :func:`references` and where they lead (``caller_argument``,
``variable_default``, ``local_value``, ``module_outputs``, ``resource_argument``). A block's
``raw`` and an attribute's ``expr`` are the parser's nodes and belong to the engine: rules and the
domain never read them (``tests/test_parser_output.py``).
"""

from __future__ import annotations

from kapsulint.findings import (
    SENSITIVE_VALUE,
    Applicability,
    Edit,
    Finding,
    Fix,
    FixKind,
    Loc,
    Related,
    Severity,
)
from kapsulint.model.edits import (
    insert_after,
    insert_block,
    remove_attribute,
    remove_text,
    replace_key,
    replace_value,
    replace_yaml_text,
    set_attribute,
)
from kapsulint.model.expressions import Expression
from kapsulint.model.instances import ModuleInstance, NestedBlock, ResourceInstance
from kapsulint.model.modules import (
    DOWNLOAD_MISSING,
    LOCAL_EMPTY,
    LOCAL_MISSING,
    LOCAL_TOFU_ONLY,
    MANIFEST_UNREADABLE,
    NO_SOURCE,
    NOT_AN_ADDRESS,
    NOT_CONSTANT,
    NOT_DOWNLOADED,
    NOT_LISTED,
    OUTSIDE_REPOSITORY,
    Attribute,
    Block,
    Module,
    ModuleCall,
    Resource,
    SourceFile,
    UnreadCall,
    ValuesFile,
    file_attributes,
)
from kapsulint.model.plan import Address, Plan, PlannedChange
from kapsulint.model.plan_binding import (
    ABSENT,
    BLOCK,
    GONE,
    INSTANCE,
    UNREAD,
    BoundChange,
    PlanBinding,
)
from kapsulint.model.project import Project
from kapsulint.model.providers import (
    ProviderVersion,
    provider_config,
    resolve_provider_version,
)
from kapsulint.model.references import (
    OutputValue,
    Reference,
    ReferenceWalk,
    Step,
    caller_argument,
    expression_at,
    is_expanded,
    local_value,
    module_outputs,
    references,
    resource_argument,
    separate_examples,
    variable_default,
    variable_is_sensitive,
)
from kapsulint.model.versions import (
    Version,
    as_version,
    core_constraint_problem,
    parse_constraint,
    parse_version,
)
from kapsulint.model.written import (
    combined,
    key_edit,
    literal_edit,
    reference_edit,
    unwrap_edit,
    wrap_edit,
    written_text,
)
from kapsulint.terraform.documents import decode_located, literal_to_val
from kapsulint.terraform.evaluate import iteration_pairs, number
from kapsulint.terraform.values import UNKNOWN, Val, unknown_from
from kapsulint.text import text_lines


def finding(
    loc: Loc,
    message: str,
    *,
    subject: str = "",
    instance: str | None = None,
    related: tuple[Related, ...] | list[Related] = (),
    fix: str | None = None,
    logical: str = "",
    secret: bool = False,
    level: Severity | None = None,
    autofix: Fix | None = None,
    counted_as: tuple[str, str] | None = None,
) -> Finding:
    """A finding at ``loc`` (cut to one line). ``subject`` names the object judged, ``logical`` its
    address and attribute path for fingerprints (never a line number or a value); ``secret`` when
    the anchored text is a credential, so no reporter echoes the source line; ``level`` when this
    finding is more (or less) severe than the rule's ``SEVERITY`` (a configured severity still wins).
    ``autofix`` the edits that fix it (see :func:`fix`); a rule leaves it out when it cannot fix here.
    ``counted_as`` (one, several) words a blind spot's kind in the summary, when this finding's
    kind is narrower than its rule's ``COUNTED_AS``."""
    return Finding(
        loc=loc.one_line(),
        message=message,
        subject=subject,
        instance=instance,
        related=tuple(related),
        fix=fix,
        logical=logical or subject,
        secret=secret,
        level=level,
        autofix=autofix,
        counted_as=counted_as,
    )


def plan_binding(project: Project) -> PlanBinding | None:
    """The plan given with ``--plan`` (``terraform show -json``), each change bound to the block of
    its address (:class:`BoundChange`: ``status`` INSTANCE, BLOCK, GONE, ABSENT or UNREAD); None
    when the run has no plan. A rule about planned actions yields nothing without one."""
    return project.plan_binding()


def fix(applicability: Applicability, description: str, *edits: Edit | tuple[Edit, ...] | None) -> Fix | None:
    """A fix of ``edits`` (single edits or the tuples ``set_attribute`` returns); None when any
    builder refused (returned None), so a finding is never half fixed."""
    flat: list[Edit] = []
    for edit in edits:
        if edit is None:
            return None
        flat.extend(edit if isinstance(edit, tuple) and not isinstance(edit, Edit) else (edit,))
    if not flat or applicability not in ("safe", "unsafe"):
        return None
    return Fix(applicability, tuple(flat), description)


def replace_yaml_scalar(project: Project, value: Val, text: str) -> Edit | None:
    """Replace a scalar of a values file, by its value's location, with ``text`` (YAML); None when
    the value was not read from a values file (``yamlencode`` in Terraform, a default), or is
    sensitive (the new text is made from it)."""
    if value.contains_sensitive():
        return None
    return replace_yaml_text(project, value.loc, text)


def shown(value: Val) -> str:
    """A value as a message may print it: a value sensitive in any part prints
    ``(sensitive value)``, as Terraform prints it. Every value a message, a related location or
    a fix hint quotes goes through here (or :func:`shown_text`)."""
    if value.contains_sensitive():
        return SENSITIVE_VALUE
    text = value.text()
    if text is None:
        return "(a structure)" if value.known else "(unknown)"
    if len(text) > 60:
        text = text[:57] + "..."
    return f'"{text}"' if isinstance(value.raw, str) else text


def shown_text(value: Val, text: str) -> str:
    """``text``, made from ``value`` (a minor version read out of it, a node type normalised, a
    suggestion close to it), as a message, a related location or a fix hint may print it:
    ``(sensitive value)`` when ``value`` is sensitive in any part."""
    return SENSITIVE_VALUE if value.contains_sensitive() else text


__all__ = [
    "ABSENT",
    "BLOCK",
    "DOWNLOAD_MISSING",
    "GONE",
    "INSTANCE",
    "LOCAL_EMPTY",
    "LOCAL_MISSING",
    "LOCAL_TOFU_ONLY",
    "MANIFEST_UNREADABLE",
    "NOT_AN_ADDRESS",
    "NOT_CONSTANT",
    "NOT_DOWNLOADED",
    "NOT_LISTED",
    "NO_SOURCE",
    "OUTSIDE_REPOSITORY",
    "SENSITIVE_VALUE",
    "UNKNOWN",
    "UNREAD",
    "Address",
    "Applicability",
    "Attribute",
    "Block",
    "BoundChange",
    "Edit",
    "Expression",
    "Finding",
    "Fix",
    "FixKind",
    "Loc",
    "Module",
    "ModuleCall",
    "ModuleInstance",
    "NestedBlock",
    "OutputValue",
    "Plan",
    "PlanBinding",
    "PlannedChange",
    "Project",
    "ProviderVersion",
    "Reference",
    "ReferenceWalk",
    "Related",
    "Resource",
    "ResourceInstance",
    "Severity",
    "SourceFile",
    "Step",
    "UnreadCall",
    "Val",
    "ValuesFile",
    "Version",
    "as_version",
    "caller_argument",
    "combined",
    "core_constraint_problem",
    "decode_located",
    "expression_at",
    "file_attributes",
    "finding",
    "fix",
    "insert_after",
    "insert_block",
    "is_expanded",
    "iteration_pairs",
    "key_edit",
    "literal_edit",
    "literal_to_val",
    "local_value",
    "module_outputs",
    "number",
    "parse_constraint",
    "parse_version",
    "plan_binding",
    "provider_config",
    "reference_edit",
    "references",
    "remove_attribute",
    "remove_text",
    "replace_key",
    "replace_value",
    "replace_yaml_scalar",
    "resolve_provider_version",
    "resource_argument",
    "separate_examples",
    "set_attribute",
    "shown",
    "shown_text",
    "text_lines",
    "unknown_from",
    "unwrap_edit",
    "variable_default",
    "variable_is_sensitive",
    "wrap_edit",
    "written_text",
]
