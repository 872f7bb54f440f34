"""Go's regular expressions (RE2 syntax) translated to patterns of the ``regex`` module.

Terraform's ``regex``, ``regexall`` and ``replace`` compile their pattern with Go's ``regexp``
package. Go matches leftmost-first, as a backtracking engine would, so a Python engine gives the
same matches once the syntax is translated. The translation parses the pattern as Go's
``regexp/syntax`` does (https://github.com/golang/go/blob/go1.23.3/src/regexp/syntax/parse.go),
reports Go's error where Go rejects a pattern, and writes every construct in a form whose meaning
does not depend on Python's defaults:

- ``^``, ``$``, ``.`` follow the flags ``m`` and ``s`` as Go scopes them (a flag set by ``(?i)``
  lasts to the end of the enclosing group); ``$`` without ``m`` is the end of the text only;
- ``\\d``, ``\\s``, ``\\w``, ``\\b`` and the POSIX classes ``[[:alpha:]]`` are ASCII, as in Go;
- ``(?U)`` swaps greedy and lazy repetitions; ``\\Q...\\E`` is literal text; ``\\z`` ends the text;
- ``(?P<name>re)`` and ``(?<name>re)`` become plain groups, their names kept aside (Go allows
  names Python does not, such as ``1x``, and repeated names);
- ``\\pN``, ``\\p{Greek}`` use the engine's Unicode properties for Go's category and script
  names (Go's ``C`` has no ``Cn``).

Where an exact translation is not known the pattern raises :class:`Untranslatable`, and the
caller gives Unknown rather than risk a wrong answer: ``\\p`` under ``(?i)``, ``\\PC``, and
(through :attr:`Translation.folds` and :attr:`Translation.properties`) subjects whose characters Go's Unicode 15 tables may treat differently from the engine's.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import TYPE_CHECKING, NamedTuple

MAX_REPEAT = 1000
_MAX_RUNE = 0x10FFFF


if TYPE_CHECKING:
    import regex as engine

class GoSyntaxError(Exception):
    """Go rejects the pattern: ``code`` is its error code text, ``expr`` the offending part."""

    def __init__(self, code: str, expr: str) -> None:
        super().__init__(f"error parsing regexp: {code}: `{expr}`")
        self.code = code
        self.expr = expr


class Untranslatable(Exception):
    """The pattern is valid Go syntax that kapsulint cannot match exactly as Go does."""


class Translation(NamedTuple):
    compiled: engine.Pattern
    names: tuple[str, ...]
    """Go's ``SubexpNames()[1:]``: the name of each capture group, ``""`` when unnamed."""
    folds: bool
    """Case-insensitive somewhere: exact for ASCII subjects only."""
    properties: bool
    """Uses Unicode properties: exact for characters Unicode 15 assigns (Go's tables)."""

    def exact_for(self, subject: str) -> bool:
        """True when matching ``subject`` gives Go's answer."""
        if self.folds and not subject.isascii():
            return False
        if self.properties and not subject.isascii():
            return all(unicodedata.category(c) != "Cn" for c in subject)
        return True


@functools.lru_cache(maxsize=512)
def translate(pattern: str) -> Translation:
    """Go's pattern as a compiled ``regex`` pattern, :class:`GoSyntaxError` where Go rejects it,
    :class:`Untranslatable` where no exact translation is known."""
    parser = _Parser(pattern)
    text = parser.parse()
    import regex as engine  # on first use: its import is the library's dearest

    try:
        compiled = engine.compile(text, engine.VERSION0)
    except (engine.error, OverflowError, RecursionError) as error:  # a construct this module mistranslates
        raise Untranslatable(str(error)) from None
    return Translation(compiled, tuple(parser.names), parser.folds, parser.properties)


# Go's character class tables for the Perl and POSIX classes (regexp/syntax/perl_groups.go).
_Ranges = list[tuple[int, int]]


def _r(*pairs: str) -> _Ranges:
    return [(ord(p[0]), ord(p[-1])) for p in pairs]


_PERL: dict[str, _Ranges] = {
    "d": _r("09"),
    "s": _r("\t\n", "\f\r", "  "),
    "w": _r("09", "AZ", "__", "az"),
}
_POSIX: dict[str, _Ranges] = {
    "alnum": _r("09", "AZ", "az"),
    "alpha": _r("AZ", "az"),
    "ascii": [(0, 0x7F)],
    "blank": _r("\t\t", "  "),
    "cntrl": [(0, 0x1F), (0x7F, 0x7F)],
    "digit": _r("09"),
    "graph": _r("!~"),
    "lower": _r("az"),
    "print": _r(" ~"),
    "punct": _r("!/", ":@", "[`", "{~"),
    "space": _r("\t\r", "  "),
    "upper": _r("AZ"),
    "word": _r("09", "AZ", "__", "az"),
    "xdigit": _r("09", "AF", "af"),
}

# Go 1.23's unicode.Categories; "C" is Cc|Cf|Co|Cs there (no Cn), unlike the engine's C.
_CATEGORIES = {
    "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd",
    "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z",
    "Zl", "Zp", "Zs",
}
# Go 1.23's unicode.Scripts (Unicode 15.0.0),
# https://github.com/golang/go/blob/go1.23.3/src/unicode/tables.go
_SCRIPTS = {
    "Adlam", "Ahom", "Anatolian_Hieroglyphs", "Arabic", "Armenian", "Avestan", "Balinese",
    "Bamum", "Bassa_Vah", "Batak", "Bengali", "Bhaiksuki", "Bopomofo", "Brahmi", "Braille",
    "Buginese", "Buhid", "Canadian_Aboriginal", "Carian", "Caucasian_Albanian", "Chakma",
    "Cham", "Cherokee", "Chorasmian", "Common", "Coptic", "Cuneiform", "Cypriot",
    "Cypro_Minoan", "Cyrillic", "Deseret", "Devanagari", "Dives_Akuru", "Dogra", "Duployan",
    "Egyptian_Hieroglyphs", "Elbasan", "Elymaic", "Ethiopic", "Georgian", "Glagolitic",
    "Gothic", "Grantha", "Greek", "Gujarati", "Gunjala_Gondi", "Gurmukhi", "Han", "Hangul",
    "Hanifi_Rohingya", "Hanunoo", "Hatran", "Hebrew", "Hiragana", "Imperial_Aramaic",
    "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Javanese", "Kaithi",
    "Kannada", "Katakana", "Kawi", "Kayah_Li", "Kharoshthi", "Khitan_Small_Script", "Khmer",
    "Khojki", "Khudawadi", "Lao", "Latin", "Lepcha", "Limbu", "Linear_A", "Linear_B", "Lisu",
    "Lycian", "Lydian", "Mahajani", "Makasar", "Malayalam", "Mandaic", "Manichaean", "Marchen",
    "Masaram_Gondi", "Medefaidrin", "Meetei_Mayek", "Mende_Kikakui", "Meroitic_Cursive",
    "Meroitic_Hieroglyphs", "Miao", "Modi", "Mongolian", "Mro", "Multani", "Myanmar",
    "Nabataean", "Nag_Mundari", "Nandinagari", "New_Tai_Lue", "Newa", "Nko", "Nushu",
    "Nyiakeng_Puachue_Hmong", "Ogham", "Ol_Chiki", "Old_Hungarian", "Old_Italic",
    "Old_North_Arabian", "Old_Permic", "Old_Persian", "Old_Sogdian", "Old_South_Arabian",
    "Old_Turkic", "Old_Uyghur", "Oriya", "Osage", "Osmanya", "Pahawh_Hmong", "Palmyrene",
    "Pau_Cin_Hau", "Phags_Pa", "Phoenician", "Psalter_Pahlavi", "Rejang", "Runic", "Samaritan",
    "Saurashtra", "Sharada", "Shavian", "Siddham", "SignWriting", "Sinhala", "Sogdian",
    "Sora_Sompeng", "Soyombo", "Sundanese", "Syloti_Nagri", "Syriac", "Tagalog", "Tagbanwa",
    "Tai_Le", "Tai_Tham", "Tai_Viet", "Takri", "Tamil", "Tangsa", "Tangut", "Telugu", "Thaana",
    "Thai", "Tibetan", "Tifinagh", "Tirhuta", "Toto", "Ugaritic", "Vai", "Vithkuqi", "Wancho",
    "Warang_Citi", "Yezidi", "Yi", "Zanabazar_Square",
}
_WORD = "[0-9A-Za-z_]"
# Characters the engine folds onto ASCII letters though Go does not (or the reverse).
_FOLD_EXTRA = {"s": 0x17F, "k": 0x212A}


def _escape_char(code: int) -> str:
    """One character, written so that it means itself anywhere in a pattern or class."""
    char = chr(code)
    if char.isascii() and char.isalnum():
        return char
    return f"\\U{code:08x}"


def _normalise(ranges: _Ranges) -> _Ranges:
    merged: _Ranges = []
    for lo, hi in sorted(ranges):
        if merged and lo <= merged[-1][1] + 1:
            if hi > merged[-1][1]:
                merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return merged


def _negate(ranges: _Ranges) -> _Ranges:
    result: _Ranges = []
    next_lo = 0
    for lo, hi in _normalise(ranges):
        if next_lo <= lo - 1:
            result.append((next_lo, lo - 1))
        next_lo = hi + 1
    if next_lo <= _MAX_RUNE:
        result.append((next_lo, _MAX_RUNE))
    return result


def _ascii_folded(ranges: _Ranges) -> _Ranges:
    """An ASCII class closed under Go's simple case folding (letters both cases, ſ, K)."""
    result = list(ranges)
    for lo, hi in ranges:
        for code in range(max(lo, 0x41), min(hi, 0x7A) + 1):
            char = chr(code)
            if char.isalpha():
                result.append((ord(char.swapcase()), ord(char.swapcase())))
                extra = _FOLD_EXTRA.get(char.lower())
                if extra:
                    result.append((extra, extra))
    return _normalise(result)


class _Class:
    """A character class being built: explicit ranges plus engine property items."""

    def __init__(self) -> None:
        self.ranges: _Ranges = []
        self.items: list[str] = []

    def text(self, negated: bool) -> str:
        body = "".join(
            _escape_char(lo) if lo == hi else f"{_escape_char(lo)}-{_escape_char(hi)}"
            for lo, hi in _normalise(self.ranges)
        ) + "".join(self.items)
        if not body:
            return "[\\U00000000-\\U0010ffff]" if negated else "(?!)"
        return f"[{'^' if negated else ''}{body}]"


class _Item(NamedTuple):
    """One parsed element of a sequence: its translation and the product of the counted
    repetitions nested in it (Go limits that product to 1000)."""

    text: str
    weight: int = 1


class _Parser:
    """Go's ``parse`` over the pattern, emitting the translation as it goes."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.names: list[str] = []
        self.folds = False
        self.properties = False
        self.flags: frozenset[str] = frozenset()  # of i, m, s, U; Go's default is none of them

    def parse(self) -> str:
        return self.sequence(top=True).text

    def sequence(self, top: bool) -> _Item:
        """Alternatives up to a ``)`` (left for the caller) or the end of the pattern."""
        pattern = self.pattern
        branches: list[str] = []
        items: list[_Item] = []
        weight = 1
        last_repeat: int | None = None  # where the previous token began, when it was a repetition
        while self.pos < len(pattern):
            char = pattern[self.pos]
            start = self.pos
            repeated = False
            if char == "|":
                branches.append("".join(item.text for item in items))
                weight = max([weight] + [item.weight for item in items])
                items = []
                self.pos += 1
            elif char == ")":
                if top:
                    raise GoSyntaxError("unexpected )", pattern)
                break
            elif char == "(":
                group = self.group()
                if group is not None:
                    items.append(group)
            elif char in "*+?":
                self.pos += 1
                self.repeat(items, char, 0, 0, start, last_repeat)
                repeated = True
            elif char == "{" and (bounds := self.repeat_bounds()) is not None:
                low, high, self.pos = bounds
                if low < 0 or low > MAX_REPEAT or high > MAX_REPEAT or (high >= 0 and low > high):
                    raise GoSyntaxError("invalid repeat count", pattern[start:self.pos])
                self.repeat(items, "{", low, high, start, last_repeat)
                repeated = True
            elif char == "^":
                items.append(_Item("(?m:^)" if "m" in self.flags else "\\A"))
                self.pos += 1
            elif char == "$":
                items.append(_Item("(?m:$)" if "m" in self.flags else "\\Z"))
                self.pos += 1
            elif char == ".":
                items.append(_Item("(?s:.)" if "s" in self.flags else "[^\\n]"))
                self.pos += 1
            elif char == "[":
                items.append(_Item(self.char_class()))
            elif char == "\\":
                items.extend(self.escape())
            else:
                items.append(self.literal(ord(char)))
                self.pos += 1
            last_repeat = start if repeated else None
        branches.append("".join(item.text for item in items))
        weight = max([weight] + [item.weight for item in items])
        return _Item("|".join(branches), weight)

    def literal(self, code: int) -> _Item:
        if "i" not in self.flags or (code < 0x80 and not chr(code).isalpha()):
            return _Item(_escape_char(code))
        self.folds = True
        if code in (0x130, 0x131):
            raise Untranslatable("dotted or dotless i under (?i)")
        return _Item(f"(?i:{_escape_char(code)})")

    def repeat(self, items: list[_Item], op: str, low: int, high: int, start: int, last: int | None) -> None:
        """Go's ``parser.repeat``: the last item repeated, or Go's error."""
        pattern = self.pattern
        lazy = "U" in self.flags
        if self.pos < len(pattern) and pattern[self.pos] == "?":
            self.pos += 1
            lazy = not lazy
        if last is not None:
            raise GoSyntaxError("invalid nested repetition operator", pattern[last:self.pos])
        if not items:
            raise GoSyntaxError("missing argument to repetition operator", pattern[start:self.pos])
        atom = items[-1]
        weight = atom.weight
        if op == "{":
            quantifier = f"{{{low}}}" if low == high else f"{{{low},}}" if high < 0 else f"{{{low},{high}}}"
            count = high if high >= 0 else low
            weight = count * atom.weight
            if (low >= 2 or high >= 2) and weight > MAX_REPEAT:
                raise GoSyntaxError("invalid repeat count", pattern[start:self.pos])
        else:
            quantifier = op
        items[-1] = _Item(f"(?:{atom.text}){quantifier}{'?' if lazy else ''}", weight)

    def repeat_bounds(self) -> tuple[int, int, int] | None:
        """Go's ``parseRepeat`` at a ``{``: (min, max or -1, end), min -1 when too big, or None
        when the brace is a literal."""
        pattern = self.pattern

        def number(i: int) -> tuple[int, int] | None:
            j = i
            while j < len(pattern) and "0" <= pattern[j] <= "9":
                j += 1
            if j == i or (j - i >= 2 and pattern[i] == "0"):
                return None
            return (int(pattern[i:j]) if j - i <= 8 else -1), j

        first = number(self.pos + 1)
        if first is None:
            return None
        low, i = first
        high = low
        if i < len(pattern) and pattern[i] == ",":
            i += 1
            if i < len(pattern) and pattern[i] == "}":
                high = -1
            else:
                second = number(i)
                if second is None:
                    return None
                high, i = second
                if high < 0:
                    low = -1
        if i >= len(pattern) or pattern[i] != "}":
            return None
        return low, high, i + 1

    def group(self) -> _Item | None:
        """A group at ``(`` (Go's ``parsePerlFlags`` for ``(?``); None for ``(?flags)``."""
        pattern, start = self.pattern, self.pos
        if not pattern.startswith("(?", start):
            self.names.append("")
            self.pos = start + 1
            return self.close(capture=True)
        rest = pattern[start:]
        if (len(rest) > 4 and rest[2] == "P" and rest[3] == "<") or (len(rest) > 3 and rest[2] == "<"):
            end = rest.find(">")
            if end < 0:
                raise GoSyntaxError("invalid named capture", rest)
            name = rest[4 if rest[2] == "P" else 3:end]
            if not name or not all(c == "_" or (c.isascii() and c.isalnum()) for c in name):
                raise GoSyntaxError("invalid named capture", rest[: end + 1])
            self.names.append(name)
            self.pos = start + end + 1
            return self.close(capture=True)
        i = start + 2
        flags = set(self.flags)
        negate = saw = False
        while i < len(pattern):
            char = pattern[i]
            i += 1
            if char in "imsU":
                (flags.discard if negate else flags.add)(char)
                saw = True
            elif char == "-" and not negate:
                negate, saw = True, False
            elif char in ":)" and (saw or not negate):
                self.pos = i
                if char == ")":
                    self.flags = frozenset(flags)
                    return None
                outer, self.flags = self.flags, frozenset(flags)
                item = self.close(capture=False)
                self.flags = outer
                return item
            else:
                break
        raise GoSyntaxError("invalid or unsupported Perl syntax", pattern[start:i])

    def close(self, capture: bool) -> _Item:
        """The body of a group and its ``)``; flags set inside end with it."""
        outer = self.flags
        inner = self.sequence(top=False)
        if self.pos >= len(self.pattern):
            raise GoSyntaxError("missing closing )", self.pattern)
        self.pos += 1
        self.flags = outer
        return _Item(f"({inner.text})" if capture else f"(?:{inner.text})", inner.weight)

    def escape(self) -> list[_Item]:
        """An escape outside a class: an assertion, a class, or literal characters."""
        pattern, start = self.pattern, self.pos
        kind = pattern[start + 1] if start + 1 < len(pattern) else ""
        assertions = {
            "A": "\\A",
            "z": "\\Z",
            "b": f"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))",
            "B": f"(?:(?<={_WORD})(?={_WORD})|(?<!{_WORD})(?!{_WORD}))",
        }
        if kind in assertions:
            self.pos += 2
            return [_Item(assertions[kind])]
        if kind == "C":
            raise GoSyntaxError("invalid escape sequence", "\\C")
        if kind == "Q":
            end = pattern.find("\\E", start + 2)
            literal = pattern[start + 2:] if end < 0 else pattern[start + 2:end]
            self.pos = len(pattern) if end < 0 else end + 2
            return [self.literal(ord(c)) for c in literal]
        cls = _Class()
        if self.class_escape(cls):
            return [_Item(self.class_text(cls, negated=False))]
        return [self.literal(self.char_escape())]

    def class_text(self, cls: _Class, negated: bool) -> str:
        if "i" not in self.flags:
            return cls.text(negated)
        self.folds = True
        if any(lo <= 0x131 and hi >= 0x130 for lo, hi in cls.ranges):
            raise Untranslatable("dotted or dotless i under (?i)")
        return f"(?i:{cls.text(negated)})"

    def group_ranges(self, ranges: _Ranges, negated: bool) -> _Ranges:
        """A Perl or POSIX class, folded under ``(?i)`` and negated as Go does (fold, then
        negate); a folded negation leaves out the Turkish i's, which no ASCII text holds."""
        if "i" not in self.flags:
            return _negate(ranges) if negated else ranges
        folded = _ascii_folded(ranges)
        if not negated:
            return folded
        return _negate(folded + [(0x130, 0x131)])

    def class_escape(self, cls: _Class) -> bool:
        """A ``\\p``/``\\P`` or Perl class (``\\d``...) at ``self.pos``, added to ``cls``."""
        pattern, start = self.pattern, self.pos
        kind = pattern[start + 1] if start + 1 < len(pattern) else ""
        if kind in ("p", "P"):
            self.unicode_class(cls, kind == "P")
            return True
        if kind.lower() in _PERL:
            self.pos += 2
            cls.ranges.extend(self.group_ranges(_PERL[kind.lower()], kind.isupper()))
            return True
        return False

    def unicode_class(self, cls: _Class, negated: bool) -> None:
        """Go's ``parseUnicodeClass``: Go 1.23 knows ``Any``, its categories and its scripts."""
        pattern, start = self.pattern, self.pos
        i = start + 2
        if i < len(pattern) and pattern[i] == "{":
            end = pattern.find("}", start)
            if end < 0:
                raise GoSyntaxError("invalid character class range", pattern[start:])
            sequence, name = pattern[start:end + 1], pattern[i + 1:end]
        else:
            end = min(i, len(pattern) - 1)
            sequence, name = pattern[start:i + 1], pattern[i:i + 1]
        self.pos = end + 1
        if name.startswith("^"):
            negated, name = not negated, name[1:]
        if name == "Any":
            cls.ranges.extend([] if negated else [(0, _MAX_RUNE)])
            return
        if name != "C" and name not in _CATEGORIES and name not in _SCRIPTS:
            raise GoSyntaxError("invalid character class range", sequence)
        if "i" in self.flags:
            raise Untranslatable("Unicode class under (?i)")
        self.properties = True
        if name == "C":
            if negated:
                raise Untranslatable("\\PC")
            cls.items.extend("\\p{%s}" % c for c in ("Cc", "Cf", "Co", "Cs"))
        else:
            cls.items.append(("\\P{%s}" if negated else "\\p{%s}") % name)

    def char_escape(self) -> int:
        """Go's ``parseEscape`` at ``self.pos`` (a backslash): the character it stands for."""
        pattern, start = self.pattern, self.pos
        if start + 1 >= len(pattern):
            raise GoSyntaxError("trailing backslash at end of expression", "")
        char = pattern[start + 1]
        i = start + 2

        def invalid(end: int) -> GoSyntaxError:
            return GoSyntaxError("invalid escape sequence", pattern[start:end])

        octal = "01234567"
        hexdigits = "0123456789abcdefABCDEF"
        if char.isascii() and not char.isalnum():
            self.pos = i
            return ord(char)
        if char in octal and (char == "0" or (i < len(pattern) and pattern[i] in octal)):
            value = int(char)
            for _ in range(2):
                if i < len(pattern) and pattern[i] in octal:
                    value = value * 8 + int(pattern[i])
                    i += 1
            self.pos = i
            return value
        if char == "x" and i < len(pattern):
            if pattern[i] == "{":
                i += 1
                value = digits = 0
                while True:
                    if i >= len(pattern):
                        raise invalid(i)
                    c = pattern[i]
                    i += 1
                    if c == "}":
                        break
                    if c not in hexdigits:
                        raise invalid(i)
                    value, digits = value * 16 + int(c, 16), digits + 1
                    if value > _MAX_RUNE:
                        raise invalid(i)
                if digits == 0:
                    raise invalid(i)
                self.pos = i
                return value
            pair = pattern[i:i + 2]
            if len(pair) < 2 or any(c not in hexdigits for c in pair):
                raise invalid(i + len(pair))
            self.pos = i + 2
            return int(pair, 16)
        controls = {"a": 7, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
        if char in controls:
            self.pos = i
            return controls[char]
        raise invalid(i)

    def char_class(self) -> str:
        """Go's ``parseClass`` at ``self.pos`` (a ``[``)."""
        pattern, start = self.pattern, self.pos
        whole = pattern[start:]
        self.pos = start + 1
        negated = self.pos < len(pattern) and pattern[self.pos] == "^"
        if negated:
            self.pos += 1
        cls = _Class()
        first = True
        while self.pos >= len(pattern) or pattern[self.pos] != "]" or first:
            if self.pos >= len(pattern):
                raise GoSyntaxError("missing closing ]", whole)
            first = False
            rest = pattern[self.pos:]
            if rest.startswith("[:") and len(rest) > 2 and (end := rest.find(":]", 2)) >= 0:
                name = rest[: end + 2]
                inner = name[2:-2]
                group = _POSIX.get(inner[1:] if inner.startswith("^") else inner)
                if group is None:
                    raise GoSyntaxError("invalid character class range", name)
                cls.ranges.extend(self.group_ranges(group, inner.startswith("^")))
                self.pos += end + 2
                continue
            if rest.startswith("\\") and self.class_escape(cls):
                continue
            low_start = self.pos
            low = self.class_char(whole)
            high = low
            if self.pos + 1 < len(pattern) and pattern[self.pos] == "-" and pattern[self.pos + 1] != "]":
                self.pos += 1
                high = self.class_char(whole)
                if high < low:
                    raise GoSyntaxError("invalid character class range", pattern[low_start:self.pos])
            cls.ranges.append((low, high))
        self.pos += 1
        return self.class_text(cls, negated)

    def class_char(self, whole: str) -> int:
        """Go's ``parseClassChar``: one character of a class, escaped or not."""
        pattern = self.pattern
        if self.pos >= len(pattern):
            raise GoSyntaxError("missing closing ]", whole)
        if pattern[self.pos] == "\\":
            return self.char_escape()
        self.pos += 1
        return ord(pattern[self.pos - 1])
