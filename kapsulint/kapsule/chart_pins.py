"""Which exact chart version a fix may pin, and whether a version range admits it.

The version pinned is the newest release of an ingress controller chart that kapsulint's chart
facts (``charts``) were checked against, and only for a release that installs that chart from
its own repository (a mirror may hold other versions):

* haproxytech ``kubernetes-ingress`` 1.52.1
  (https://github.com/haproxytech/helm-charts/tree/kubernetes-ingress-1.52.1/kubernetes-ingress);
* ``ingress-nginx`` 4.15.1
  (https://github.com/kubernetes/ingress-nginx/blob/helm-chart-4.15.1/charts/ingress-nginx/values.yaml);
* ``traefik`` 41.3.0 (https://github.com/traefik/traefik-helm-chart/blob/v41.3.0/traefik/values.yaml).

Ranges are read as Helm reads ``--version``: Masterminds semver constraints
(https://github.com/Masterminds/semver/blob/v3.3.0/README.md, "Checking Version Constraints"),
``||`` between alternatives, ``,`` or a space between constraints that must all hold, ``a - b``,
``=``, ``!=``, ``>``, ``<``, ``>=``, ``<=``, ``~``, ``~>``, ``^`` and the wildcards ``x``, ``X``
and ``*``. A constraint this reading is not sure of (a caret on a 0.x version, a pre-release)
gives None: the range's answer is unknown and no version is pinned.
"""

from __future__ import annotations

import re

from kapsulint.kapsule import charts

Version = tuple[int, int, int]

CHECKED: dict[str, Version] = {
    charts.HAPROXYTECH.key: (1, 52, 1),
    charts.INGRESS_NGINX.key: (4, 15, 1),
    charts.TRAEFIK.key: (41, 3, 0),
}

_CONSTRAINT = re.compile(r"^(=|!=|>=|=>|<=|=<|>|<|~>|~|\^)?\s*v?([0-9xX*]+)(?:\.([0-9xX*]+))?(?:\.([0-9xX*]+))?$")
_TOKEN = re.compile(r"(?:!=|>=|=>|<=|=<|~>|[=<>~^])?\s*v?[0-9xX*]+(?:\.[0-9xX*]+){0,2}(?:[-+][0-9A-Za-z.-]*)?")
_WILD = frozenset(("x", "X", "*"))


def pinned_version(controller: charts.Controller | None, repository: str | None) -> Version | None:
    """The chart version a fix pins for ``controller`` installed from ``repository`` (a URL, or
    the ``oci://`` chart reference); None for another chart or repository."""
    if controller is None or repository is None:
        return None
    if not any(hint in repository.strip().lower() for hint in controller.repository_hints):
        return None
    return CHECKED.get(controller.key)


def admits(text: str, version: Version) -> bool | None:
    """Whether the Masterminds range ``text`` admits ``version``; None when unsure."""
    alternatives = [part.strip() for part in text.split("||")]
    answers = [_all_hold(part, version) for part in alternatives]
    if True in answers:
        return True
    return None if None in answers or not answers else False


def _all_hold(text: str, version: Version) -> bool | None:
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen:
        text = f">={hyphen.group(1)}, <={hyphen.group(2)}"
    tokens = list(_TOKEN.finditer(text))
    between = [text[a.end(): b.start()] for a, b in zip(tokens, tokens[1:])]
    if not tokens or text[: tokens[0].start()].strip() or text[tokens[-1].end():].strip():
        return None
    if any(gap.strip() not in ("", ",") for gap in between):
        return None
    results = [_holds(token.group(0), version) for token in tokens]
    if False in results:
        return False
    return None if None in results else True


def _holds(text: str, version: Version) -> bool | None:
    match = _CONSTRAINT.match(text.replace(" ", ""))
    if match is None:
        return None
    op = match.group(1) or "="
    parts = [p for p in match.groups()[1:] if p is not None]
    wild = next((i for i, p in enumerate(parts) if p in _WILD), len(parts))
    fixed = tuple(int(p) for p in parts[:wild])
    if any(p not in _WILD for p in parts[wild:]):
        return None
    low = fixed + (0,) * (3 - len(fixed))
    if op in ("=", "!="):
        if len(parts) < 3 and wild == len(parts):
            return None  # `=1.2`: an exact 1.2.0 or a wildcard, not read here
        inside = version[: len(fixed)] == fixed
        return inside if op == "=" else not inside
    if op in ("~", "~>"):
        if not fixed:
            return True
        keep = 1 if len(fixed) == 1 else 2
        return low <= version and version[:keep] == fixed[:keep]
    if op == "^":
        if not fixed or fixed[0] == 0:
            return None  # Masterminds narrows a caret on 0.x: not read here
        return low <= version and version[0] == fixed[0]
    if wild < len(parts) or len(fixed) < 3:  # `>1.2`, `<=1.x`: decided by the written prefix alone
        head = version[: len(fixed)]
        if head == fixed:  # `>=1.2` and `>=1.2.x` start at 1.2.0, `<1.2` ends before it
            return {">=": True, "=>": True, "<": False}.get(op)  # `>1.2`, `<=1.2`: read two ways
        return {">": head > fixed, ">=": head >= fixed, "=>": head >= fixed,
                "<": head < fixed, "<=": head <= fixed, "=<": head <= fixed}[op]
    return {">": version > low, ">=": version >= low, "=>": version >= low,
            "<": version < low, "<=": version <= low, "=<": version <= low}[op]
