"""Which YAML files hold Kubernetes objects, decided by their content, not their name: a document
with a top-level ``apiVersion`` and ``kind`` is an object as ``kubectl apply`` reads it
(https://kubernetes.io/docs/concepts/overview/working-with-objects/#describing-a-kubernetes-object),
a ``kind: List`` holds more under ``items``. The command line gives this question to the engine
(``ScanOptions.yaml_kinds``), which reads such files as documents and nothing else of the YAML it
finds unnamed."""

from __future__ import annotations

import re

# At the start of a line: a top-level key of a block mapping (a document's own keys).
_API_VERSION = re.compile(r"^apiVersion:[ \t]*[\"']?[A-Za-z0-9][\w.\-/]*[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)
_KIND = re.compile(r"^kind:[ \t]*[\"']?([A-Z][A-Za-z0-9]*)[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)
_SHOWN_KINDS = 4


def yaml_kinds(text: str) -> str | None:
    """Why a YAML file is read: ``Kubernetes objects (Service, ConfigMap)`` when its documents
    carry a top-level ``apiVersion`` and ``kind``; None for any other YAML (a CI workflow, a
    Compose file, a chart's ``Chart.yaml``, which has no ``kind``)."""
    if not _API_VERSION.search(text):
        return None
    kinds = list(dict.fromkeys(match.group(1) for match in _KIND.finditer(text)))
    if not kinds:
        return None
    shown = ", ".join(kinds[:_SHOWN_KINDS]) + (", ..." if len(kinds) > _SHOWN_KINDS else "")
    return f"Kubernetes objects ({shown})"
