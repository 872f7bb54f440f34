"""Internal errors: a bug caught at one file or one rule, so that the rest of the run goes on."""

from __future__ import annotations


def describe(error: BaseException) -> str:
    """The exception in one line, as Python would end its traceback with it."""
    import traceback  # only runs that meet a bug pay for the import

    return "".join(traceback.format_exception_only(type(error), error)).strip()
