"""Terraform's hash and crypto functions: md5, sha1, sha256, sha512, base64sha256,
base64sha512, uuidv5; bcrypt, uuid and rsadecrypt give Unknown.

Declared as in https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/crypto.go.
A string is hashed as its UTF-8 bytes. ``uuidv5`` parses its namespace as
https://github.com/google/uuid/blob/v1.6.0/uuid.go (``Parse``) does.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from kapsulint.terraform.convert import go_quote
from kapsulint.terraform.functions.numeric import INT64_RANGE, go_int
from kapsulint.terraform.functions.registry import Call, Param, call_error, function
from kapsulint.terraform.types import NUMBER, STRING
from kapsulint.terraform.values import UNKNOWN, Val

if TYPE_CHECKING:
    from uuid import UUID


def _hex(digest: bytes) -> str:
    return digest.hex()


def _base64(digest: bytes) -> str:
    return base64.b64encode(digest).decode("ascii")


HASHES: dict[str, tuple[Callable[[bytes], hashlib._Hash], Callable[[bytes], str]]] = {
    "md5": (hashlib.md5, _hex),
    "sha1": (hashlib.sha1, _hex),
    "sha256": (hashlib.sha256, _hex),
    "sha512": (hashlib.sha512, _hex),
    "base64sha256": (hashlib.sha256, _base64),
    "base64sha512": (hashlib.sha512, _base64),
}
"""Each string hash function: its hash and how the digest is written. The file variants
(``filemd5``...) hash a file's bytes the same way."""


def hash_text(name: str, data: bytes) -> str:
    algorithm, text = HASHES[name]
    return text(algorithm(data).digest())


def _register_hash(name: str) -> None:
    @function(name, Param("str", STRING), returns=STRING)
    def _hash(args: list[Val], call: Call) -> Val:
        return Val(hash_text(name, args[0].raw.encode()), call.loc, type=STRING)


for _name in HASHES:
    _register_hash(_name)


_NAMESPACES = {"dns": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "url": "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
               "oid": "6ba7b812-9dad-11d1-80b4-00c04fd430c8", "x500": "6ba7b814-9dad-11d1-80b4-00c04fd430c8"}
"""RFC 4122's name spaces (appendix C), as text: the uuid module is imported only when used."""
_HEX = frozenset(b"0123456789abcdefABCDEF")


def go_uuid_parse(text: str) -> UUID:
    """google/uuid's ``Parse``, on the text's bytes: 36 with dashes, 45 with ``urn:uuid:``
    before them, 38 (the first and last byte, meant as braces, unchecked) or 32 hex digits;
    ValueError with its message otherwise."""
    from uuid import UUID

    data = text.encode()
    if len(data) == 32:
        if not set(data) <= _HEX:
            raise ValueError("invalid UUID format")
        return UUID(hex=data.decode())
    if len(data) == 36 + 9:
        if data[:9].lower() != b"urn:uuid:":
            raise ValueError(f"invalid urn prefix: {go_quote(data[:9].decode(errors='replace'))}")
        data = data[9:]
    elif len(data) == 36 + 2:
        data = data[1:]
    elif len(data) != 36:
        raise ValueError(f"invalid UUID length: {len(data)}")
    if any(data[i] != ord("-") for i in (8, 13, 18, 23)):
        raise ValueError("invalid UUID format")
    digits = data[:36].replace(b"-", b"")
    if len(digits) != 32 or not set(digits) <= _HEX:
        raise ValueError("invalid UUID format")
    return UUID(hex=digits.decode())


@function("uuidv5", Param("namespace", STRING), Param("name", STRING), returns=STRING)
def _uuidv5(args: list[Val], call: Call) -> Val:
    import uuid

    namespace_text = args[0].raw
    if namespace_text in _NAMESPACES:
        namespace = uuid.UUID(_NAMESPACES[namespace_text])
    else:
        try:
            namespace = go_uuid_parse(namespace_text)
        except ValueError as error:
            raise call_error(call.name, f"uuidv5() doesn't support namespace {namespace_text} ({error})") from None
    # uuid.uuid5 hashes the name's UTF-8 bytes after the namespace, as google/uuid's NewSHA1
    return Val(str(uuid.uuid5(namespace, args[1].raw)), call.loc, type=STRING)


@function("uuid", returns=STRING)
def _uuid(args: list[Val], call: Call) -> Val:
    # a new random UUID at every evaluation: no value to know before apply
    return Val(UNKNOWN, call.loc, type=STRING)


@function("bcrypt", Param("str", STRING), varparam=Param("cost", NUMBER), returns=STRING)
def _bcrypt(args: list[Val], call: Call) -> Val:
    # bcrypt salts every hash with random bytes: the text differs at each run, so Unknown;
    # the errors Terraform checks before hashing are still reported
    if len(args) > 1 and go_int(args[1]) is None:
        raise call_error(call.name, INT64_RANGE)
    if len(args) > 2:
        raise call_error(call.name, "bcrypt() takes no more than two arguments")
    return Val(UNKNOWN, call.loc, type=STRING)


@function("rsadecrypt", Param("ciphertext", STRING), Param("privatekey", STRING), returns=STRING)
def _rsadecrypt(args: list[Val], call: Call) -> Val:
    # needs a private key, which a configuration reads from a secret at plan time, and Go's
    # PKCS #1 and OpenSSH key parsing: kapsulint does not decrypt, so Unknown
    return Val(UNKNOWN, call.loc, type=STRING)
