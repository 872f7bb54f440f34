"""A parse leaves nothing that only a collection frees: a run and its parsing workers turn
collections off, so what a parse leaves in a reference cycle stays for the whole run."""

from __future__ import annotations

import gc

import pytest

from kapsulint.parsing.sources import parse_content

VALUES = b"controller:\n  replicaCount: 2\n  service:\n    annotations:\n      a: 'b'\n---\nother: [1, 2]\n"
CONFIG = b'resource "scaleway_k8s_pool" "p" {\n  name = "p"\n  tags = [for t in var.tags : upper(t)]\n}\n'


@pytest.mark.parametrize(("path", "kind", "content"), [("values.yaml", "values", VALUES),
                                                       ("main.tf", "config", CONFIG),
                                                       ("templated-values.yaml", "values",
                                                        b"image: {{ .Values.image }}\nport: 80\n")])
def test_a_parse_leaves_no_cycle(path, kind, content):
    parse_content(path, kind, content)  # the parsers loaded
    gc.collect()
    gc.disable()
    try:
        results = [parse_content(path, kind, content) for _ in range(20)]
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert results[0]["error"] is None and all(result == results[0] for result in results)
