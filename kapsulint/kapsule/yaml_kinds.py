"""Which YAML files hold Kubernetes objects, GitOps releases or a helmfile, decided by their
content, not their name: a document with a top-level ``apiVersion`` and ``kind`` is an object as
``kubectl apply`` reads it
(https://kubernetes.io/docs/concepts/overview/working-with-objects/#describing-a-kubernetes-object),
a ``kind: List`` holds more under ``items``; Argo CD ``Application``s, Flux ``HelmRelease``s and the
ConfigMaps, Secrets and source objects they name are such objects. A helmfile has no ``kind``: a
top-level ``releases`` list whose entries name a ``chart``
(https://helmfile.readthedocs.io/en/latest/#configuration). The one name that decides is
Kustomize's own: it reads ``kustomization.yaml``, ``kustomization.yml`` or ``Kustomization`` in a
directory whatever it holds (``apiVersion`` and ``kind`` are optional there,
https://kubectl.docs.kubernetes.io/references/kustomize/glossary/#kustomization), so those names
are read as kustomizations. The command line gives this question to the engine
(``ScanOptions.yaml_kinds``), which reads such files as documents and nothing else of the YAML it
finds unnamed."""

from __future__ import annotations

import re

from kapsulint.text import lazy_pattern

# At the start of a line: a top-level key of a block mapping (a document's own keys).
_API_VERSION = lazy_pattern(r"^apiVersion:[ \t]*[\"']?[A-Za-z0-9][\w.\-/]*[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)
_KIND = lazy_pattern(r"^kind:[ \t]*[\"']?([A-Z][A-Za-z0-9]*)[\"']?[ \t]*(?:#.*)?$", re.MULTILINE)
_RELEASES = lazy_pattern(r"^releases:[ \t]*(?:#.*)?$", re.MULTILINE)
_CHART = lazy_pattern(r"^[ \t]*(?:-[ \t]+)?chart:[ \t]*\S", re.MULTILINE)
_SHOWN_KINDS = 4
KUSTOMIZATION_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
HELMFILE = "a helmfile"
KUSTOMIZATION = "a Kustomization"
_TOOLS = (("Application", "Argo CD"), ("ApplicationSet", "Argo CD"), ("HelmRelease", "Flux"))


def yaml_kinds(text: str, name: str = "") -> str | None:
    """Why a YAML file (named ``name``) is read: ``Kubernetes objects (Service, ConfigMap)`` when
    its documents carry a top-level ``apiVersion`` and ``kind`` (the GitOps tool named when an
    object is its release), ``a helmfile (releases of charts)``, ``a Kustomization (...)`` for
    Kustomize's file names; None for any other YAML (a CI workflow, a Compose file, a chart's
    ``Chart.yaml``, which has no ``kind``)."""
    if name in KUSTOMIZATION_NAMES:
        return f"{KUSTOMIZATION} (named {name}, as Kustomize finds it)"
    if _API_VERSION.search(text):
        kinds = list(dict.fromkeys(match.group(1) for match in _KIND.finditer(text)))
        if kinds:
            shown = ", ".join(kinds[:_SHOWN_KINDS]) + (", ..." if len(kinds) > _SHOWN_KINDS else "")
            tools = [f"{tool} {kind}s" for kind, tool in _TOOLS if kind in kinds]
            return f"Kubernetes objects ({shown})" + (f": {' and '.join(tools)}" if tools else "")
    if _RELEASES.search(text) and _CHART.search(text):
        return f"{HELMFILE} (releases of charts)"
    return None
