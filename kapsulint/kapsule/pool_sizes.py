"""A pool's size bounds after the provider's defaults.

Source: Scaleway Terraform provider, ``internal/services/k8s/pool.go`` and
``docs/resources/k8s_pool.md`` (https://github.com/scaleway/terraform-provider-scaleway/blob/v2.81.0/docs/resources/k8s_pool.md): ``size`` is required; ``min_size``
defaults to 1 when ``size`` > 0, else 0; ``max_size`` defaults to ``size``; ``autoscaling``
defaults to false. ``null`` counts as unset.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from kapsulint.api import Loc, Val, number
from kapsulint.kapsule.clusters import Pool


class Bound(NamedTuple):
    """One of ``size``, ``min_size``, ``max_size`` as the provider will send it.

    ``value`` is None when it cannot be known. ``defaulted`` is True when the attribute is unset
    and the value is the provider's default; ``loc`` is then where the default came from (the
    ``size`` value), else where the value is written. ``sensitive`` when the value it comes from
    is (a message then does not print it).
    """

    name: str
    value: int | Fraction | None
    loc: Loc | None
    defaulted: bool = False
    sensitive: bool = False

    @property
    def known(self) -> bool:
        return self.value is not None


class PoolBounds(NamedTuple):
    size: Bound
    min_size: Bound
    max_size: Bound


def _written(pool: Pool, name: str) -> tuple[Val, Loc | None]:
    value = pool.instance.arg(name)
    loc = value.loc
    if loc is None:
        attribute = pool.instance.block.attr(name)
        if attribute is not None:
            loc = attribute.value_loc
    return value, loc


def _as_number(value: Val) -> int | Fraction | None:
    if not value.known or value.raw is None:
        return None
    return number(value)


def bounds(pool: Pool) -> PoolBounds:
    """``size``, ``min_size`` and ``max_size`` of a pool, defaults applied (None = Unknown)."""
    size_val, size_loc = _written(pool, "size")
    size = Bound("size", _as_number(size_val), size_loc, sensitive=size_val.contains_sensitive())

    min_val, min_loc = _written(pool, "min_size")
    if min_val.known and min_val.raw is None:
        value = None if size.value is None else (1 if size.value > 0 else 0)
        min_size = Bound("min_size", value, size.loc, defaulted=True, sensitive=size.sensitive)
    else:
        min_size = Bound("min_size", _as_number(min_val), min_loc, sensitive=min_val.contains_sensitive())

    max_val, max_loc = _written(pool, "max_size")
    if max_val.known and max_val.raw is None:
        max_size = Bound("max_size", size.value, size.loc, defaulted=True, sensitive=size.sensitive)
    else:
        max_size = Bound("max_size", _as_number(max_val), max_loc, sensitive=max_val.contains_sensitive())
    return PoolBounds(size, min_size, max_size)
