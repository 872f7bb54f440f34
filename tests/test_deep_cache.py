"""The parse cache stores trees nested deeper than marshal goes, as flat rows, without recursion."""

from __future__ import annotations

import marshal
import zlib

import pytest

from kapsulint.scan.cache import decode_entry, encode_entry, flatten, unflatten


def nested(depth: int) -> dict:
    node: dict = {"t": "lit", "v": 1, "p": [1, 1, 1, 2]}
    for level in range(depth):
        node = {"t": "paren", "e": node, "p": [1, level, 1, level + 1], "items": [[node["p"], None, "x"]]}
    return {"data": {"body": node}, "error": None, "comments": [], "left_out": None}


def test_a_tree_marshal_refuses_round_trips_through_an_entry() -> None:
    value = nested(20_000)
    with pytest.raises(ValueError):
        marshal.dumps(value)
    entry = encode_entry("k", value)
    magic, key, checksum, data = entry.split(b"\n", 3)
    assert (magic, key, checksum) == (b"KAPSULINT-CACHE-FLAT", b"k", b"%08x" % zlib.crc32(data))
    assert flatten(decode_entry("k", entry)) == flatten(value)  # == itself would recurse
    assert decode_entry("other", entry) is None and decode_entry("k", entry[:-3]) is None


def test_a_shallow_tree_stays_plain_marshal() -> None:
    value = nested(10)
    entry = encode_entry("k", value)
    data = marshal.dumps(value)
    assert entry == b"KAPSULINT-CACHE\nk\n%08x\n" % zlib.crc32(data) + data and decode_entry("k", entry) == value


def test_shared_containers_stay_shared_and_order_is_kept() -> None:
    shared = [1, 2]
    value = {"b": shared, "a": [shared, {"z": 1, "y": shared}]}
    copy = unflatten(marshal.loads(marshal.dumps(flatten(value))))
    assert copy == value and list(copy) == ["b", "a"] and list(copy["a"][1]) == ["z", "y"]
    assert copy["b"] is copy["a"][0] is copy["a"][1]["y"]


def test_a_value_no_encoding_stores_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        encode_entry("k", nested(3_000) | {"extra": {1, 2}})
