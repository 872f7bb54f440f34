"""The errors Terraform reports while evaluating an expression."""


class EvalError(Exception):
    """An error Terraform would report; its message is Terraform's summary of it.

    Raised inside evaluation and caught by ``try``/``can``; where nothing catches it the value is
    Unknown for the rules, and ``--eval`` prints the message.
    """


class InvalidReference(EvalError):
    """A reference to something the module does not declare (``var.nope``, ``aws_x.y``, ``self``).

    Terraform checks references before it evaluates anything, so this error stands even in the
    branch a conditional does not take and inside ``try``/``can``."""
