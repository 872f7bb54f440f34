"""Values of a root module's variables, in Terraform's precedence order.

Later sources win: ``terraform.tfvars``, ``terraform.tfvars.json``, ``*.auto.tfvars(.json)`` in
lexical order, then the configured ``var-files`` and ``--var-file``/``--var`` in command-line order.
Defaults are applied by the module instance when no source sets a variable.
"""

from __future__ import annotations

import os

from kapsulint.model.instances import ModuleInstance
from kapsulint.model.modules import Module
from kapsulint.model.options import ScanOptions
from kapsulint.parsing.hcl import HclSyntaxError, parse_expression
from kapsulint.parsing.sources import SourceFile, Unreadable, parse_named_source
from kapsulint.parsing.template import TemplateSyntaxError
from kapsulint.terraform.errors import EvalError
from kapsulint.terraform.typeexpr import parse_type_constraint
from kapsulint.terraform.values import UNKNOWN, Val


def tfvars_in_order(module: Module) -> list[SourceFile]:
    """The variables files Terraform loads by itself from a root module's directory, in its order;
    any other ``*.tfvars`` is loaded only when named (``--var-file``, configuration ``var-files``)."""
    return sorted((s for s in module.tfvars if auto_loaded(s.path)), key=_load_order)


def auto_loaded(path: str) -> bool:
    """Whether Terraform loads the variables file ``path`` without being told to:
    https://developer.hashicorp.com/terraform/language/values/variables#variable-definitions-tfvars-files"""
    return _load_order(path)[0] < 3


def _load_order(source: SourceFile | str) -> tuple[int, str]:
    name = os.path.basename(source if isinstance(source, str) else source.path)
    if name == "terraform.tfvars":
        return (0, name)
    if name == "terraform.tfvars.json":
        return (1, name)
    if name.endswith((".auto.tfvars", ".auto.tfvars.json")):
        return (2, name)
    return (3, name)


def root_variable_values(options: ScanOptions, files: dict[str, SourceFile], module: Module,
                         scratch: ModuleInstance) -> dict[str, Val]:
    """The values of a root module's variables; ``scratch`` is an instance of the module that
    evaluates them (tfvars may call functions), ``files`` the scan's files, where a configured
    variables file is kept once read."""
    values: dict[str, Val] = {}
    for name, text in options.environment.items():
        # the environment often carries credentials: its values are sensitive, wholly
        value = _cli_value(name, text, module, scratch)
        scratch.project.record_sensitive(value)
        scratch.project.record_sensitive(Val(text))
        values[name] = value.with_sensitive()
    sources = list(tfvars_in_order(module))
    for path in options.var_files:
        source = files.get(path)
        if source is None:
            try:
                source = parse_named_source(path, "tfvars", options.max_file_size)
            except Unreadable:
                continue
            files[path] = source
        sources.append(source)
    for source in sources:
        if not source.ok:
            continue
        for attribute in source.parsed["body"]["attrs"]:
            values[attribute["name"]] = scratch.eval(attribute["expr"], source.path)
    for name, text in options.variables.items():
        values[name] = _cli_value(name, text, module, scratch)
    return values


def _cli_value(name: str, text: str, module: Module, scratch) -> Val:
    """``--var NAME=VALUE`` as Terraform reads it: the string itself for a variable of a primitive
    type or with no ``type``, else an HCL expression (Unknown when it does not parse)."""
    declared = module.variables.get(name)
    if declared is None or declared.type_expr is None:
        return Val(text)
    try:
        path = declared.block.path
        mode = parse_type_constraint(declared.type_expr, lambda node: scratch.evaluator.eval_strict(node, path)).parsing_mode
    except EvalError:
        return Val(UNKNOWN)
    if mode == "literal":
        return Val(text)
    try:
        return scratch.eval(parse_expression(text), "<command line>")
    except (HclSyntaxError, TemplateSyntaxError):
        return Val(UNKNOWN)
