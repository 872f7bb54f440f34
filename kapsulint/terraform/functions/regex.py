"""Go's regular expressions (RE2 syntax), checked as Go parses them and matched by RE2.

Terraform's ``regex``, ``regexall`` and ``replace`` compile their pattern with Go's ``regexp``
package, a port of RE2: matching takes time linear in the text, leftmost-first, with the same
syntax and semantics as RE2 itself (https://github.com/google/re2/wiki/Syntax). kapsulint
matches with RE2 (the ``google-re2`` bindings), so a pattern that makes a backtracking engine
take exponential time (``(a|aa)+$``) costs what it costs Terraform.

Go and C++ RE2 accept slightly different patterns, so a pattern is first parsed as Go's
``regexp/syntax`` parses it (https://github.com/golang/go/blob/go1.23.3/src/regexp/syntax/parse.go):
Go's error where Go rejects it (``\\C``, which RE2 alone accepts; a repetition nested too
deep), the capture groups' names (``(?P<name>re)`` and ``(?<name>re)``, Go's
``SubexpNames``), and whether it folds case or uses Unicode classes. Only then is it compiled by
RE2, with RE2's default options: those of Go's ``regexp.Compile`` (Perl classes, ``\\b``,
``^``/``$`` at the text's ends unless ``(?m)``, ``.`` not matching a newline unless ``(?s)``,
ASCII ``\\d``, ``\\s``, ``\\w`` and ``\\b``, ``(?U)``, ``\\Q...\\E``).

RE2 and Go 1.23 may hold different versions of Unicode's tables. A match is trusted only for
subjects whose characters are assigned in the Unicode version Python knows when the pattern folds
case or uses a Unicode class (:meth:`Translation.exact_for`); elsewhere the caller gives Unknown.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Any, NamedTuple

MAX_REPEAT = 1000
_MAX_RUNE = 0x10FFFF


class GoSyntaxError(Exception):
    """Go rejects the pattern: ``code`` is its error code text, ``expr`` the offending part."""

    def __init__(self, code: str, expr: str) -> None:
        super().__init__(f"error parsing regexp: {code}: `{expr}`")
        self.code = code
        self.expr = expr


class Untranslatable(Exception):
    """The pattern is valid Go syntax that kapsulint cannot match exactly as Go does."""


class Translation(NamedTuple):
    compiled: Any
    """The pattern compiled by RE2, matching UTF-8 bytes."""
    names: tuple[str, ...]
    """Go's ``SubexpNames()[1:]``: the name of each capture group, ``""`` when unnamed."""
    unicode: bool
    """Folds case or uses a Unicode class: exact for characters whose tables agree."""
    size: int
    """RE2's count of the program's instructions: a match costs at most the text's bytes times this."""

    def exact_for(self, subject: str) -> bool:
        """True when matching ``subject`` gives Go's answer."""
        return not self.unicode or subject.isascii() or _assigned(subject)


def _assigned(text: str) -> bool:
    """Every character of ``text`` is assigned in the Unicode version Python knows: Go's and
    RE2's tables agree on those (case folding of an assigned character never changes)."""
    return all(unicodedata.category(c) != "Cn" for c in text)


@functools.lru_cache(maxsize=512)
def translate(pattern: str) -> Translation:
    """Go's pattern compiled by RE2, :class:`GoSyntaxError` where Go rejects it,
    :class:`Untranslatable` where kapsulint cannot match it as Go does."""
    parser = _Parser(pattern)
    parser.parse()
    unicode = parser.folds or parser.properties
    if unicode and not pattern.isascii() and not _assigned(pattern):
        raise Untranslatable("a character the Unicode tables may not agree on")
    import re2  # on first use: most runs match no regular expression

    options = re2.Options()
    options.log_errors = False  # an error is an exception here, never a line on stderr
    try:
        compiled = re2.compile(pattern.encode(), options)
    except re2.error as error:  # beyond RE2's own limits (its memory for one program)
        raise Untranslatable(str(error)) from None
    return Translation(compiled, tuple(parser.names), unicode, compiled.programsize)


# Go 1.23's unicode.Categories (Go's "C" is Cc|Cf|Co|Cs) and unicode.Scripts (Unicode 15.0.0),
# https://github.com/golang/go/blob/go1.23.3/src/unicode/tables.go
_CATEGORIES = {
    "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N",
    "Nd", "Nl", "No", "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So",
    "Z", "Zl", "Zp", "Zs",
}
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
_POSIX = {"alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
          "space", "upper", "word", "xdigit"}
_PERL = "dsw"


class _Parser:
    """Go's ``parse`` over the pattern: Go's errors, the groups' names, and what the pattern
    uses that the Unicode tables decide (case folding, ``\\p`` classes)."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.names: list[str] = []
        self.folds = False
        self.properties = False
        self.flags: frozenset[str] = frozenset()  # of i, m, s, U; Go's default is none of them

    def parse(self) -> None:
        self.sequence(top=True)

    def sequence(self, top: bool) -> int:
        """Alternatives up to a ``)`` (left for the caller) or the end of the pattern; returns
        the largest product of the counted repetitions nested in them (Go limits it to 1000)."""
        pattern = self.pattern
        weights: list[int] = []  # of the items of the current alternative
        weight = 1
        last_repeat: int | None = None  # where the previous token began, when it was a repetition
        while self.pos < len(pattern):
            char = pattern[self.pos]
            start = self.pos
            repeated = False
            if char == "|":
                weight = max([weight, *weights])
                weights = []
                self.pos += 1
            elif char == ")":
                if top:
                    raise GoSyntaxError("unexpected )", pattern)
                break
            elif char == "(":
                group = self.group()
                if group is not None:
                    weights.append(group)
            elif char in "*+?":
                self.pos += 1
                self.repeat(weights, char, 0, 0, start, last_repeat)
                repeated = True
            elif char == "{" and (bounds := self.repeat_bounds()) is not None:
                low, high, self.pos = bounds
                if low < 0 or low > MAX_REPEAT or high > MAX_REPEAT or (high >= 0 and low > high):
                    raise GoSyntaxError("invalid repeat count", pattern[start:self.pos])
                self.repeat(weights, "{", low, high, start, last_repeat)
                repeated = True
            elif char in "^$.":
                weights.append(1)
                self.pos += 1
            elif char == "[":
                self.char_class()
                weights.append(1)
            elif char == "\\":
                weights.extend(self.escape())
            else:
                self.literal(ord(char))
                weights.append(1)
                self.pos += 1
            last_repeat = start if repeated else None
        return max([weight, *weights])

    def literal(self, code: int) -> None:
        if "i" in self.flags and (code >= 0x80 or chr(code).isalpha()):
            self.folds = True

    def repeat(self, weights: list[int], op: str, low: int, high: int, start: int, last: int | None) -> None:
        """Go's ``parser.repeat``: the last item repeated, or Go's error."""
        pattern = self.pattern
        if self.pos < len(pattern) and pattern[self.pos] == "?":
            self.pos += 1
        if last is not None:
            raise GoSyntaxError("invalid nested repetition operator", pattern[last:self.pos])
        if not weights:
            raise GoSyntaxError("missing argument to repetition operator", pattern[start:self.pos])
        if op == "{":
            count = high if high >= 0 else low
            weight = count * weights[-1]
            if (low >= 2 or high >= 2) and weight > MAX_REPEAT:
                raise GoSyntaxError("invalid repeat count", pattern[start:self.pos])
            weights[-1] = weight

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

    def group(self) -> int | None:
        """A group at ``(`` (Go's ``parsePerlFlags`` for ``(?``); None for ``(?flags)``."""
        pattern, start = self.pattern, self.pos
        if not pattern.startswith("(?", start):
            self.names.append("")
            self.pos = start + 1
            return self.close()
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
            return self.close()
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
                weight = self.close()
                self.flags = outer
                return weight
            else:
                break
        raise GoSyntaxError("invalid or unsupported Perl syntax", pattern[start:i])

    def close(self) -> int:
        """The body of a group and its ``)``; flags set inside end with it."""
        outer = self.flags
        weight = self.sequence(top=False)
        if self.pos >= len(self.pattern):
            raise GoSyntaxError("missing closing )", self.pattern)
        self.pos += 1
        self.flags = outer
        return weight

    def escape(self) -> list[int]:
        """An escape outside a class: an assertion, a class, or literal characters (the weight of
        each item it stands for)."""
        pattern, start = self.pattern, self.pos
        kind = pattern[start + 1] if start + 1 < len(pattern) else ""
        if kind in ("A", "z", "b", "B"):
            self.pos += 2
            return [1]
        if kind == "C":
            raise GoSyntaxError("invalid escape sequence", "\\C")
        if kind == "Q":
            end = pattern.find("\\E", start + 2)
            literal = pattern[start + 2:] if end < 0 else pattern[start + 2:end]
            self.pos = len(pattern) if end < 0 else end + 2
            for char in literal:
                self.literal(ord(char))
            return [1] * len(literal)
        if self.class_escape():
            return [1]
        self.literal(self.char_escape())
        return [1]

    def class_escape(self) -> bool:
        """A ``\\p``/``\\P`` or Perl class (``\\d``...) at ``self.pos``."""
        pattern, start = self.pattern, self.pos
        kind = pattern[start + 1] if start + 1 < len(pattern) else ""
        if kind in ("p", "P"):
            self.unicode_class()
            return True
        if kind and kind.lower() in _PERL:
            self.pos += 2
            if "i" in self.flags:
                self.folds = True
            return True
        return False

    def unicode_class(self) -> None:
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
        name = name.removeprefix("^")
        if name != "Any" and name not in _CATEGORIES and name not in _SCRIPTS:
            raise GoSyntaxError("invalid character class range", sequence)
        self.properties = True

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

    def char_class(self) -> None:
        """Go's ``parseClass`` at ``self.pos`` (a ``[``)."""
        pattern, start = self.pattern, self.pos
        whole = pattern[start:]
        self.pos = start + 1
        if self.pos < len(pattern) and pattern[self.pos] == "^":
            self.pos += 1
        first = True
        while self.pos >= len(pattern) or pattern[self.pos] != "]" or first:
            if self.pos >= len(pattern):
                raise GoSyntaxError("missing closing ]", whole)
            first = False
            rest = pattern[self.pos:]
            if rest.startswith("[:") and len(rest) > 2 and (end := rest.find(":]", 2)) >= 0:
                name = rest[: end + 2]
                if name[2:-2].removeprefix("^") not in _POSIX:
                    raise GoSyntaxError("invalid character class range", name)
                self.pos += end + 2
                continue
            if rest.startswith("\\") and self.class_escape():
                continue
            low_start = self.pos
            low = self.class_char(whole)
            if self.pos + 1 < len(pattern) and pattern[self.pos] == "-" and pattern[self.pos + 1] != "]":
                self.pos += 1
                if self.class_char(whole) < low:
                    raise GoSyntaxError("invalid character class range", pattern[low_start:self.pos])
        if "i" in self.flags:
            self.folds = True
        self.pos += 1

    def class_char(self, whole: str) -> int:
        """Go's ``parseClassChar``: one character of a class, escaped or not."""
        pattern = self.pattern
        if self.pos >= len(pattern):
            raise GoSyntaxError("missing closing ]", whole)
        if pattern[self.pos] == "\\":
            return self.char_escape()
        self.pos += 1
        return ord(pattern[self.pos - 1])
