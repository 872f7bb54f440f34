"""Kapsule's support calendar of Kubernetes minor versions, as dated facts.

Source: Scaleway documentation, "Version support policy"
(https://www.scaleway.com/en/docs/kubernetes/reference-content/version-support-policy/; the page's
table as published in
https://github.com/scaleway/docs-content/blob/main/pages/kubernetes/reference-content/version-support-policy.mdx,
checked 2026-12-01). The table has three dates per minor: its release, its "end of support"
(kept here as ``deprecation``: the day it leaves the creation options) and its "end of life"
(kept here as ``end_of_support``: the day Scaleway stops supporting it and upgrades clusters). At
deprecation a version "is removed from cluster creation option"; at end of support it "is not
supported anymore, clusters will be automatically upgraded to the next supported minor version":
"Scaleway operates an upgrade to the latest patch version of the next supported minor version
within the next 30 days". The edition checked on 2026-12-01 names 1.33 to 1.36 (1.36 released
2026-07-07, 1.35 on 2026-01-19); 1.31 and 1.32 come from the edition of 2025-10-01, 1.30 and 1.27
to 1.29 from earlier editions of the same table (1.27 to 1.29 give only "February 2025" for their
deprecation, kept as its first day). 1.37 and later are in no edition read: their dates are not
known, so nothing is judged about them (KAP013 notes them). Every minor older than 1.27 ended
before these tables.
"""

from __future__ import annotations

import datetime
import enum
from typing import Literal, NamedTuple

from kapsulint.kapsule import version_features

FACTS_DATE = datetime.date(2026, 12, 1)  # the day the table these dates come from was checked


# Where a minor stands on a day: still supported, deprecated (no new cluster), or past its end of support.
SupportStatus = Literal["end-of-support", "deprecated", "supported"]


class Support(NamedTuple):
    deprecation: datetime.date
    end_of_support: datetime.date


_D = datetime.date
CALENDAR: dict[tuple[int, int], Support] = {
    (1, 27): Support(_D(2025, 2, 1), _D(2025, 4, 7)),
    (1, 28): Support(_D(2025, 2, 1), _D(2025, 4, 7)),
    (1, 29): Support(_D(2025, 2, 1), _D(2025, 4, 7)),
    (1, 30): Support(_D(2025, 7, 9), _D(2025, 9, 9)),
    (1, 31): Support(_D(2025, 12, 2), _D(2026, 2, 2)),
    (1, 32): Support(_D(2026, 3, 24), _D(2026, 5, 24)),
    (1, 33): Support(_D(2026, 9, 4), _D(2026, 11, 4)),
    (1, 34): Support(_D(2026, 9, 29), _D(2026, 11, 29)),
    (1, 35): Support(_D(2027, 1, 19), _D(2027, 3, 19)),
    (1, 36): Support(_D(2027, 7, 7), _D(2027, 9, 7)),
}
OLDEST_LISTED = min(CALENDAR)
NEWEST_LISTED = max(CALENDAR)


def knows(minor: tuple[int, int]) -> bool:
    """Whether the calendar places ``minor``: a 1.x listed, or older than every listed one (those
    ended before the oldest listed did); not one newer than the newest listed, or not 1.x."""
    return minor[0] == 1 and (minor in CALENDAR or minor < OLDEST_LISTED)


class State(str, enum.Enum):  # noqa: UP042 - str() of a member stays as it was (StrEnum changes it)
    """Where a minor stands in the calendar on a day."""

    SUPPORTED = "supported"
    DEPRECATED = "deprecated"  # no new cluster can use it
    END_OF_SUPPORT = "end-of-support"  # Scaleway upgrades the cluster within 30 days


class Status(NamedTuple):
    """A minor's state on a day, and its dates (None for a minor older than every listed one)."""

    state: State
    dates: Support | None


def status(minor: tuple[int, int], today: datetime.date) -> Status | None:
    """The minor's state and dates on ``today``; None when the facts do not know the version
    (:func:`knows`)."""
    if not knows(minor):
        return None
    if minor < OLDEST_LISTED:  # ended before the oldest listed minor did
        return Status(State.END_OF_SUPPORT, None) if today >= CALENDAR[OLDEST_LISTED].end_of_support else None
    dates = CALENDAR[minor]
    if today >= dates.end_of_support:
        return Status(State.END_OF_SUPPORT, dates)
    if today >= dates.deprecation:
        return Status(State.DEPRECATED, dates)
    return Status(State.SUPPORTED, dates)


def next_supported_minor(minor: tuple[int, int], today: datetime.date) -> tuple[int, int] | None:
    """The minor after ``minor`` when Kapsule offers it (the calendar or the recorded API offers
    list it) and it is not deprecated or past its end of support on ``today`` (a minor the
    calendar does not date yet counts as supported); None otherwise. An upgrade moves one minor."""
    following = (minor[0], minor[1] + 1)
    if following not in CALENDAR and following not in version_features.FEATURE_GATES:
        return None
    judged = status(following, today)
    return None if judged is not None and judged.state is not State.SUPPORTED else following
