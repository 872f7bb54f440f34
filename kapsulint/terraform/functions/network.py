"""Terraform's network functions: cidrhost, cidrnetmask, cidrsubnet, cidrsubnets.

Declared as in https://github.com/hashicorp/terraform/blob/v1.11.4/internal/lang/funcs/cidr.go,
over https://github.com/apparentlymart/go-cidr/blob/v1.1.0/cidr/cidr.go and Terraform's copy of
Go 1.16's address parser (which accepts leading zeros in IPv4 octets,
https://github.com/hashicorp/terraform/tree/v1.11.4/internal/ipaddr). Addresses are Go
``net.IP`` byte strings: 4 bytes for an IPv4 network, 16 for IPv6 (an IPv4-mapped IPv6 prefix
stays 16 bytes, and go-cidr treats it as Go does, oddities included). Arithmetic on
``big.Int`` (two's complement ``Or``, ``Uint64`` of the magnitude's low 64 bits) is reproduced,
so negative and oversized numbers give Terraform's answers, not a tidier one.
"""

from __future__ import annotations

from kapsulint.terraform.functions.numeric import INT64_RANGE, go_int
from kapsulint.terraform.functions.registry import Call, Param, argument_error, call_error, function
from kapsulint.terraform.types import NUMBER, STRING, ListType
from kapsulint.terraform.values import UNKNOWN, Val

_V4_IN_V6 = bytes(10) + b"\xff\xff"
_BIG = 0xFFFFFF
_UINT64 = (1 << 64) - 1


class Network:
    """Go's ``net.IPNet``: an address and a mask (None for the nil mask of a bad length)."""

    def __init__(self, ip: bytes | None, mask: bytes | None) -> None:
        self.ip = ip
        self.mask = mask

    def size(self) -> tuple[int, int]:
        """``IPMask.Size``: the prefix length and the mask's bits."""
        assert self.mask is not None
        value = int.from_bytes(self.mask, "big")
        return bin(value).count("1"), 8 * len(self.mask)

    def __str__(self) -> str:
        """``IPNet.String``."""
        ip = None if self.ip is None else _to4(self.ip) or (self.ip if len(self.ip) == 16 else None)
        mask = self.mask
        if ip is None or mask is None or len(mask) not in (4, 16) or (len(mask) == 4 and len(ip) != 4):
            return "<nil>"
        if len(mask) == 16 and len(ip) == 4:
            mask = mask[12:]
        return f"{ip_text(ip)}/{bin(int.from_bytes(mask, 'big')).count('1')}"

    def contains(self, ip: bytes) -> bool:
        """``IPNet.Contains``."""
        assert self.ip is not None and self.mask is not None
        own = _to4(self.ip) or self.ip
        mask = self.mask[12:] if len(self.mask) == 16 and len(own) == 4 else self.mask
        ip = _to4(ip) or ip
        if len(ip) != len(own):
            return False
        return all(a & m == b & m for a, b, m in zip(own, ip, mask))


class CIDRError(Exception):
    pass


def _to4(ip: bytes) -> bytes | None:
    if len(ip) == 4:
        return ip
    if len(ip) == 16 and ip[:12] == _V4_IN_V6:
        return ip[12:]
    return None


def _dtoi(text: str) -> tuple[int, int, bool]:
    n = i = 0
    while i < len(text) and "0" <= text[i] <= "9":
        n = n * 10 + ord(text[i]) - 48
        if n >= _BIG:
            return _BIG, i, False
        i += 1
    return (n, i, i > 0) if i else (0, 0, False)


def _xtoi(text: str) -> tuple[int, int, bool]:
    n = i = 0
    while i < len(text) and text[i] in "0123456789abcdefABCDEF":
        n = n * 16 + int(text[i], 16)
        if n >= _BIG:
            return 0, i, False
        i += 1
    return n, i, i > 0


def _parse_ipv4(text: str) -> bytes | None:
    octets = []
    for index in range(4):
        if not text:
            return None
        if index > 0:
            if text[0] != ".":
                return None
            text = text[1:]
        n, consumed, ok = _dtoi(text)
        if not ok or n > 0xFF:
            return None
        text = text[consumed:]
        octets.append(n)
    if text:
        return None
    return _V4_IN_V6 + bytes(octets)


def _parse_ipv6(text: str) -> bytes | None:
    ip = bytearray(16)
    ellipsis = -1
    if text.startswith("::"):
        ellipsis = 0
        text = text[2:]
        if not text:
            return bytes(ip)
    i = 0
    while i < 16:
        n, consumed, ok = _xtoi(text)
        if not ok or n > 0xFFFF:
            return None
        if consumed < len(text) and text[consumed] == ".":
            if (ellipsis < 0 and i != 12) or i + 4 > 16:
                return None
            ip4 = _parse_ipv4(text)
            if ip4 is None:
                return None
            ip[i:i + 4] = ip4[12:]
            text = ""
            i += 4
            break
        ip[i], ip[i + 1] = n >> 8, n & 0xFF
        i += 2
        text = text[consumed:]
        if not text:
            break
        if text[0] != ":" or len(text) == 1:
            return None
        text = text[1:]
        if text[0] == ":":
            if ellipsis >= 0:
                return None
            ellipsis = i
            text = text[1:]
            if not text:
                break
    if text:
        return None
    if i < 16:
        if ellipsis < 0:
            return None
        shift = 16 - i
        ip[ellipsis + shift:16] = ip[ellipsis:i]
        ip[ellipsis:ellipsis + shift] = bytes(shift)
    elif ellipsis >= 0:
        return None
    return bytes(ip)


def cidr_mask(ones: int, bits: int) -> bytes | None:
    """``net.CIDRMask``: None (Go's nil) for a length out of range."""
    if bits not in (32, 128) or not 0 <= ones <= bits:
        return None
    return (((1 << ones) - 1) << (bits - ones)).to_bytes(bits // 8, "big")


def _apply_mask(ip: bytes, mask: bytes | None) -> bytes | None:
    """``IP.Mask``."""
    if mask is None:
        return None
    if len(mask) == 16 and len(ip) == 4 and mask[:12] == b"\xff" * 12:
        mask = mask[12:]
    if len(mask) == 4 and len(ip) == 16 and ip[:12] == _V4_IN_V6:
        ip = ip[12:]
    if len(ip) != len(mask):
        return None
    return bytes(a & b for a, b in zip(ip, mask))


def parse_cidr(text: str) -> Network:
    """``ipaddr.ParseCIDR``: the network (its address masked); CIDRError otherwise."""
    slash = text.find("/")
    if slash < 0:
        raise CIDRError(f"invalid CIDR address: {text}")
    address, length = text[:slash], text[slash + 1:]
    size = 4
    ip = _parse_ipv4(address)
    if ip is None:
        size, ip = 16, _parse_ipv6(address)
    n, consumed, ok = _dtoi(length)
    if ip is None or not ok or consumed != len(length) or n > 8 * size:
        raise CIDRError(f"invalid CIDR address: {text}")
    mask = cidr_mask(n, 8 * size)
    return Network(_apply_mask(ip, mask), mask)


def ip_text(ip: bytes) -> str:
    """``IP.String``: dotted for IPv4 (and IPv4-mapped), RFC 5952 for IPv6."""
    v4 = _to4(ip)
    if v4 is not None:
        return ".".join(str(octet) for octet in v4)
    groups = [ip[i] << 8 | ip[i + 1] for i in range(0, 16, 2)]
    best, best_length, start = -1, 1, None
    for index, group in enumerate(groups + [1]):
        if group == 0 and start is None:
            start = index
        elif group != 0 and start is not None:
            if index - start > best_length:
                best, best_length = start, index - start
            start = None
    text = [f"{group:x}" for group in groups]
    if best < 0:
        return ":".join(text)
    return ":".join(text[:best]) + "::" + ":".join(text[best + best_length:])


def _uint64(number: int) -> int:
    """``big.Int.Uint64``: the low 64 bits of the magnitude."""
    return abs(number) & _UINT64


def _int_to_ip(value: int, bits: int) -> bytes:
    """go-cidr's ``intToIP``: the magnitude's bytes into an address; Go panics (index out of
    range) when they do not fit, which Terraform reports as the call's failure."""
    data = abs(value).to_bytes((abs(value).bit_length() + 7) // 8, "big")
    if len(data) > bits // 8:
        raise CIDRError("panic in function implementation: runtime error: index out of range")
    return bytes(bits // 8 - len(data)) + data


def _insert(ip: bytes, number: int, prefix_length: int) -> bytes:
    """go-cidr's ``insertNumIntoIP`` (``big.Int.Or`` is two's complement, as Python's ``|``)."""
    total = 8 * len(ip)
    return _int_to_ip(int.from_bytes(ip, "big") | number << (total - prefix_length), total)


def host(network: Network, number: int) -> bytes:
    """go-cidr's ``HostBig``."""
    assert network.ip is not None
    parent, bits = network.size()
    maximum = (1 << (bits - parent)) - 1
    low = _uint64(number)
    checked = low - (1 << 64) if low >= 1 << 63 else low  # big.NewInt(int64(num.Uint64()))
    if number < 0:
        checked = -number - 1
        number = maximum - checked
    if checked > maximum:
        raise CIDRError(f"prefix of {parent} does not accommodate a host numbered {number}")
    return _insert(network.ip, number, 32 if _to4(network.ip) is not None else 128)


def subnet(network: Network, newbits: int, number: int) -> Network:
    """go-cidr's ``SubnetBig``."""
    assert network.ip is not None
    parent, bits = network.size()
    length = parent + newbits
    if length > bits:
        raise CIDRError(f"insufficient address space to extend prefix of {parent} by {newbits}")
    maximum = (1 << newbits) - 1 if 0 <= newbits < 64 else _UINT64
    if _uint64(number) > maximum:
        raise CIDRError(f"prefix extension of {newbits} does not accommodate a subnet numbered {number}")
    return Network(_insert(network.ip, number, length), cidr_mask(length, bits))


def _check4(ip: bytes) -> bytes:
    return _to4(ip) or ip


def _step(ip: bytes, delta: int) -> bytes:
    """go-cidr's ``Inc``/``Dec``: wrapping around at the address's width."""
    ip = _check4(ip)
    return ((int.from_bytes(ip, "big") + delta) % (1 << 8 * len(ip))).to_bytes(len(ip), "big")


def _is_zero(ip: bytes) -> bool:
    """``ip.Equal(net.IPv4zero) || ip.Equal(net.IPv6zero)``."""
    return not any(ip) and len(ip) in (4, 16)


def _last_address(network: Network) -> bytes:
    """go-cidr's ``AddressRange``, its last address."""
    assert network.ip is not None
    prefix, bits = network.size()
    if prefix == bits:
        return network.ip
    total = 8 * len(network.ip)
    return _int_to_ip(((1 << (total - prefix)) - 1) | int.from_bytes(network.ip, "big"), total)


def previous_subnet(network: Network, prefix_length: int) -> Network:
    assert network.ip is not None
    previous = _step(network.ip, -1)
    mask = cidr_mask(prefix_length, 8 * len(previous))
    return Network(_apply_mask(previous, mask), mask)


def next_subnet(network: Network, prefix_length: int) -> tuple[Network, bool]:
    last = _last_address(network)
    mask = cidr_mask(prefix_length, 8 * len(last))
    current = Network(_apply_mask(last, mask), mask)
    following = _step(_last_address(current), 1)
    return Network(_apply_mask(following, mask), mask), _is_zero(following)


def _big_int(value: Val, call: Call) -> int:
    """``gocty.FromCtyValue`` into a ``*big.Int``."""
    if not isinstance(value.raw, int):
        raise call_error(call.name, "value must be a whole number")
    return int(value.raw)


def _network(text: str, call: Call) -> Network:
    try:
        return parse_cidr(text)
    except CIDRError as error:
        raise call_error(call.name, f"invalid CIDR expression: {error}") from None


@function("cidrhost", Param("prefix", STRING), Param("hostnum", NUMBER), returns=STRING)
def _cidrhost(args: list[Val], call: Call) -> Val:
    number = _big_int(args[1], call)
    network = _network(args[0].raw, call)
    try:
        return Val(ip_text(host(network, number)), call.loc, type=STRING)
    except CIDRError as error:
        raise call_error(call.name, str(error)) from None


@function("cidrnetmask", Param("prefix", STRING), returns=STRING)
def _cidrnetmask(args: list[Val], call: Call) -> Val:
    network = _network(args[0].raw, call)
    assert network.ip is not None and network.mask is not None
    if _to4(network.ip) is None:
        raise call_error(call.name, f"IPv6 addresses cannot have a netmask: {args[0].raw}")
    return Val(ip_text(network.mask), call.loc, type=STRING)


@function("cidrsubnet", Param("prefix", STRING), Param("newbits", NUMBER), Param("netnum", NUMBER),
          returns=STRING)
def _cidrsubnet(args: list[Val], call: Call) -> Val:
    newbits = go_int(args[1])
    if newbits is None:
        raise call_error(call.name, INT64_RANGE)
    number = _big_int(args[2], call)
    network = _network(args[0].raw, call)
    try:
        return Val(str(subnet(network, newbits, number)), call.loc, type=STRING)
    except CIDRError as error:
        raise call_error(call.name, str(error)) from None


@function("cidrsubnets", Param("prefix", STRING), varparam=Param("newbits", NUMBER), returns=ListType(STRING))
def _cidrsubnets(args: list[Val], call: Call) -> Val:
    try:
        network = parse_cidr(args[0].raw)
    except CIDRError as error:
        raise argument_error("prefix", f"invalid CIDR expression: {error}") from None
    assert network.ip is not None
    if len(network.ip) == 16 and _to4(network.ip) is not None:
        # an IPv4-mapped prefix: go-cidr mixes 4- and 16-byte forms there (nil masks)
        return Val(UNKNOWN, call.loc, type=ListType(STRING))
    start = network.size()[0]
    if len(args) == 1:
        return Val([], call.loc, type=ListType(STRING))
    first = go_int(args[1])
    if first is None:
        raise argument_error("newbits", INT64_RANGE)
    current = previous_subnet(network, first + start)
    bits = 8 * len(network.ip)
    results = []
    for value in args[1:]:
        length = go_int(value)
        if length is None:
            raise argument_error("newbits", INT64_RANGE)
        if length < 1:
            raise argument_error("newbits", "must extend prefix by at least one bit")
        if length > 32:
            raise argument_error("newbits", "may not extend prefix by more than 32 bits")
        length += start
        if length > bits:
            protocol = "IPv4" if bits == 32 else "IPv6"
            raise argument_error("newbits", f"would extend prefix to {length} bits, which is too long for an {protocol} address")
        following, rollover = next_subnet(current, length)
        assert following.ip is not None
        if rollover or not network.contains(following.ip):
            raise argument_error("newbits", f"not enough remaining address space for a subnet with a prefix of {length} bits after {current}")
        current = following
        results.append(Val(str(current), call.loc, type=STRING))
    return Val(results, call.loc, type=ListType(STRING))
