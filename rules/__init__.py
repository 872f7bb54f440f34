"""The built-in rules, one module per rule (installed as ``kapsulint.rules``)."""
