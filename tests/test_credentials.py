"""Which literals are Scaleway keys and which are placeholders (KAP404)."""

from __future__ import annotations

import pytest

from kapsulint.kapsule import credentials


@pytest.mark.parametrize(
    "text",
    [
        "{{ aws_access_key }}",
        "{{scw_secret_key}}",
        "<YOUR_SECRET_KEY>",
        "${SCW_SECRET_KEY}",
        "%SCW_SECRET_KEY%",
        "__SCW_SECRET_KEY__",
        "xxx",
        "SCWXXXXXXXXXXXXXXXXX",
        "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx",
        "00000000-0000-0000-0000-000000000000",
        "changeme",
        "CHANGE_ME",
        "replace-me",
        "your-access-key",
        "TODO",
        "<redacted>",
        "********",
        "",
    ],
)
def test_placeholders_are_not_keys(text):
    assert credentials.is_placeholder(text)
    assert credentials.key_kind(text, ("secret_key",)) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [("SCW1A2B3C4D5E6F7G8H9", "access key"), ("8c1f2a7e-4b3d-4e9a-a1c5-93d27e6b0f44", "secret key")],
)
def test_key_shapes_are_keys(text, kind):
    assert not credentials.is_placeholder(text)
    assert credentials.key_kind(text, ("scw_secret_key",)) == kind
