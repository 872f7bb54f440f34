"""Can a pod land on a pool? nodeSelector, required node affinity and tolerations against a pool.

Three-valued: True (it can), False (it cannot), None (kapsulint cannot tell: a label value or a
taint is Unknown, or a selector names a label no pool is known to carry, which nodes may get
from elsewhere). Semantics follow Kubernetes' scheduler: every nodeSelector entry must match,
one of the required affinity terms must match (each term's expressions all), and every
NoSchedule/NoExecute taint must be tolerated.
"""

from __future__ import annotations


from kapsulint.api import UNKNOWN, Val
from kapsulint.kapsule.charts import Chart, ChartPin
from kapsulint.kapsule.clusters import Pool

_BLOCKING_EFFECTS = ("NoSchedule", "NoExecute")


class PodPlacement:
    """Where the controller's pods may run, as its values say."""

    node_selector: Val  # an object, or null
    affinity: Val
    tolerations: Val

    def __init__(self, node_selector: Val, affinity: Val, tolerations: Val) -> None:
        self.node_selector = node_selector
        self.affinity = affinity
        self.tolerations = tolerations

    @property
    def known(self) -> bool:
        return not any(v.contains_unknown() for v in (self.node_selector, self.affinity, self.tolerations))


def placement_of(values: Val, controller: Chart, chart_version: ChartPin) -> PodPlacement:
    """The controller pods' placement from its values, the chart's default selector when unset."""
    selector = values.path(*controller.node_selector_path)
    if selector.raw is None:
        default = controller.default(controller.default_node_selector, chart_version)
        selector = Val({k: Val(v) for k, v in default.items()}) if default is not None else Val(UNKNOWN)
    elif not selector.is_object:
        selector = Val(UNKNOWN)
    return PodPlacement(selector, values.path(*controller.affinity_path), values.path(*controller.tolerations_path))


class PoolNodes:
    """The labels and taints of one pool's nodes."""

    pool: Pool
    labels: dict[str, object]
    labels_complete: bool
    taints: list[tuple[str, str, str]]
    taints_complete: bool

    def __init__(
        self,
        pool: Pool,
        labels: dict[str, object],
        labels_complete: bool,
        taints: list[tuple[str, str, str]],
        taints_complete: bool,
    ) -> None:
        self.pool = pool
        self.labels = labels
        self.labels_complete = labels_complete
        self.taints = taints
        self.taints_complete = taints_complete

    @classmethod
    def of(cls, pool: Pool) -> PoolNodes:
        labels, labels_complete = pool.labels()
        taints, taints_complete = pool.taints()
        return cls(pool, labels, labels_complete, taints, taints_complete)


def _and(values) -> bool | None:
    result: bool | None = True
    for value in values:
        if value is False:
            return False
        if value is None:
            result = None
    return result


def _or(values) -> bool | None:
    result: bool | None = False
    for value in values:
        if value is True:
            return True
        if value is None:
            result = None
    return result


class Matcher:
    def __init__(self, pools: list[PoolNodes]) -> None:
        self.pools = pools
        self.carried = {key for p in pools for key in p.labels}

    def _label(self, nodes: PoolNodes, key: str) -> tuple[bool | None, object]:
        """(present?, value): presence None when unknown."""
        if key in nodes.labels:
            return True, nodes.labels[key]
        if key not in self.carried:
            return None, UNKNOWN  # no pool is known to carry it: it may come from elsewhere
        return (False if nodes.labels_complete else None), UNKNOWN

    def selector_matches(self, nodes: PoolNodes, selector: Val) -> bool | None:
        results = []
        for key, wanted in selector.items():
            present, value = self._label(nodes, key)
            if present is not True:
                results.append(present)
                continue
            if value is UNKNOWN or not wanted.known:
                results.append(None)
            else:
                results.append(str(value) == (wanted.text() or ""))
        return _and(results)

    def expression_matches(self, nodes: PoolNodes, expression: Val) -> bool | None:
        key = expression.get("key").text()
        operator = expression.get("operator").text()
        values = [v.text() for v in expression.get("values").elements()]
        if key is None or operator is None:
            return None
        present, value = self._label(nodes, key)
        if operator == "Exists":
            return present
        if operator == "DoesNotExist":
            return None if present is None else not present
        if present is None or (present and value is UNKNOWN):
            return None
        if operator == "In":
            return bool(present) and str(value) in values
        if operator == "NotIn":
            return not present or str(value) not in values
        if operator in ("Gt", "Lt"):
            if not present:
                return False
            try:
                number, limit = int(str(value)), int(values[0] or "")
            except (ValueError, IndexError):
                return False
            return number > limit if operator == "Gt" else number < limit
        return None

    def affinity_matches(self, nodes: PoolNodes, affinity: Val) -> bool | None:
        required = affinity.path("nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
        if required.raw is None:
            return True
        terms = required.get("nodeSelectorTerms").elements()
        if not terms:
            return True
        return _or(
            _and(self.expression_matches(nodes, e) for e in term.get("matchExpressions").elements())
            for term in terms
        )

    def tolerated(self, nodes: PoolNodes, tolerations: Val) -> bool | None:
        results = []
        for key, value, effect in nodes.taints:
            if effect not in _BLOCKING_EFFECTS:
                continue
            results.append(any(_tolerates(t, key, value, effect) for t in tolerations.elements()))
        if not nodes.taints_complete:
            results.append(None)
        return _and(results)

    def can_land(self, nodes: PoolNodes, placement: PodPlacement) -> bool | None:
        return _and([
            self.selector_matches(nodes, placement.node_selector),
            self.affinity_matches(nodes, placement.affinity),
            self.tolerated(nodes, placement.tolerations),
        ])


def _tolerates(toleration: Val, key: str, value: str, effect: str) -> bool:
    wanted_effect = toleration.get("effect").text()
    if wanted_effect and wanted_effect != effect:
        return False
    operator = toleration.get("operator").text() or "Equal"
    wanted_key = toleration.get("key").text()
    if operator == "Exists":
        return not wanted_key or wanted_key == key
    return wanted_key == key and (toleration.get("value").text() or "") == value
