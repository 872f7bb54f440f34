"""Values and manifests resolve by YAML 1.1 in every document, as go-yaml (Helm, kubectl) does:
an explicit ``---`` without a ``%YAML`` directive does not switch to YAML 1.2's rules."""

from __future__ import annotations

import pytest

from kapsulint.parsing.yaml import parse_values, parse_yaml


def _values(document: dict) -> dict:
    return {key["v"]: value.get("v") for key, value in document["items"]}


@pytest.mark.parametrize("start", ["", "---\n", "--- \n", "--- # values\n", "%YAML 1.1\n---\n"])
def test_yaml_1_1_scalars_whatever_starts_the_document(start):
    text = start + "a: yes\nb: on\nc: off\nd: no\ne: y\nf: 0777\ng: 1_000\nh: true\ni: ~\n"
    assert _values(parse_values(text)["docs"][0]) == {
        "a": True, "b": True, "c": False, "d": False, "e": True, "f": 511, "g": 1000, "h": True, "i": None}


def test_every_document_of_a_stream_resolves_alike():
    docs = parse_yaml("a: yes\n---\nb: yes\n---\nc: on\n...\n---\nd: off\n")["docs"]
    assert [_values(document) for document in docs] == [{"a": True}, {"b": True}, {"c": True}, {"d": False}]


def test_an_on_key_after_a_document_start_is_the_boolean_key_go_yaml_reads():
    """A boolean key is the string ``true`` once the mapping is JSON (sigs.k8s.io/yaml), in every
    document alike."""
    with_start = parse_yaml("---\nname: deploy\non:\n  push: {}\n")["docs"][0]
    without = parse_yaml("name: deploy\non:\n  push: {}\n")["docs"][0]
    assert [key["v"] for key, _ in with_start["items"]] == [key["v"] for key, _ in without["items"]] == [
        "name", "true"]


def test_quoted_and_tagged_scalars_stay_strings():
    text = "---\na: \"yes\"\nb: 'on'\nc: !!str off\n"
    assert _values(parse_values(text)["docs"][0]) == {"a": "yes", "b": "on", "c": "off"}
