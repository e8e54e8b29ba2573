"""How a data file's bytes become text: the encodings spreadsheet programs save in, told apart by a fixed rule.

1. A byte-order mark names the encoding: UTF-8 (Excel's "CSV UTF-8"), UTF-16 little- or big-endian
   (Excel's "Unicode text", LibreOffice's "Unicode"), UTF-32.
2. Without one, UTF-16 shows in its zero bytes (`_utf16_unmarked`), and bytes that are valid UTF-8
   are UTF-8 (LibreOffice, Google Sheets, Numbers).
3. Otherwise, where a legacy code page is allowed (CSV files), the file is Windows-1252 (Excel for
   Windows' "CSV") or Mac Roman (Excel for Mac's "CSV (Macintosh)"): the one whose reading of the
   non-ASCII bytes looks more like letters of words (`_plausibility`); a tie goes to Windows-1252.
   Both code pages decode almost any bytes, so only the text can tell them apart: Mac Roman puts
   accented small letters at 0x87-0x9F, where Windows-1252 has quotes, dashes, unassigned bytes and
   rare letters (Ž, š), and its 0xE5-0xFF are capitals and accents where Windows-1252 has small letters.

A statistical detector (charset-normalizer) was tried on such files and named cp1250, cp852 or
mac_iceland for a few accented names; a rule limited to what spreadsheets write is both right more
often and explainable in a message.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from dataclasses import dataclass
from types import MappingProxyType

SHEET_SUFFIXES = (".csv", ".tsv", ".txt")
"""What spreadsheet programs save text tables as: CSV, tab-separated, and Excel's "Unicode text" (.txt)."""


WORKBOOK_SUFFIXES = (".xlsx", ".ods")
"""The workbooks read as their first sheet (`authoring.workbooks`): Excel's and OpenDocument's."""


def is_sheet(path: str) -> bool:
    """Whether a file (by its name) is a spreadsheet's table (a text table or a workbook) rather than YAML."""
    return path.lower().endswith(SHEET_SUFFIXES + WORKBOOK_SUFFIXES)


NAMES = MappingProxyType(
    {
        "utf-8": "UTF-8",
        "utf-16-le": "UTF-16 (little-endian)",
        "utf-16-be": "UTF-16 (big-endian)",
        "utf-32-le": "UTF-32 (little-endian)",
        "utf-32-be": "UTF-32 (big-endian)",
        "cp1252": "Windows-1252 (Western European)",
        "mac-roman": "Mac Roman",
    }
)
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)  # UTF-32 LE starts like UTF-16 LE
_CODEC = MappingProxyType({"mac-roman": "mac_roman"})
_RARE = frozenset("ŠšŽžŒœŸƒÐðÞþÝýı")
"""Letters either code page has that Western text seldom holds: they count for neither reading."""
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


@dataclass(frozen=True)
class Decoded:
    text: str
    encoding: str
    """A key of NAMES."""
    legacy_at: int | None = None
    """Where a code page was assumed: the offset of the first byte that is not UTF-8."""
    bom: bool = False


class DecodeError(ValueError):
    """Bytes that are not text in the encoding they declare (or in UTF-8, where no code page is allowed)."""

    def __init__(self, message: str, offset: int, encoding: str):
        super().__init__(message)
        self.offset, self.encoding = offset, encoding


def decode(raw: bytes, legacy: bool = False) -> Decoded:
    """The text of `raw` by the rule above; `legacy` allows the code pages of step 3."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return Decoded(_strict(raw[len(bom) :], name, len(bom)), name, bom=True)
    unmarked = _utf16_unmarked(raw)
    if unmarked:
        return Decoded(_strict(raw, unmarked, 0, "its zero bytes"), unmarked)
    try:
        return Decoded(raw.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as exc:
        if not legacy:
            raise DecodeError(f"invalid UTF-8 byte 0x{raw[exc.start]:02x}", exc.start, "utf-8") from None
        first = exc.start
    readings = [(name, text) for name in ("cp1252", "mac-roman") if (text := _lenient(raw, name)) is not None]
    name, text = max(readings, key=lambda r: _plausibility(r[1]))  # max keeps the first of a tie: cp1252
    return Decoded(text, name, legacy_at=first)


def _utf16_unmarked(raw: bytes) -> str | None:
    """UTF-16 written without a byte-order mark, told by its zero bytes: text of Latin letters, digits and
    punctuation has a zero as every other byte (the second of each pair little-endian, the first big-endian),
    which no UTF-8 text has."""
    sample = raw[:2048]
    if b"\x00" not in sample or len(sample) < 4:
        return None
    pairs = len(sample) // 2
    first, second = sample[0 : pairs * 2 : 2].count(0), sample[1 : pairs * 2 : 2].count(0)
    if second >= 0.9 * pairs and first <= 0.1 * pairs:
        return "utf-16-le"
    if first >= 0.9 * pairs and second <= 0.1 * pairs:
        return "utf-16-be"
    return None


def _strict(raw: bytes, name: str, skip: int, told_by: str = "its byte-order mark") -> str:
    try:
        return raw.decode(name)
    except UnicodeDecodeError as exc:
        shown = raw[exc.start : exc.start + 2].hex(" ")
        raise DecodeError(
            f"invalid {NAMES[name]} bytes {shown} (the file is {NAMES[name]} by {told_by})", exc.start + skip, name
        ) from None


def _lenient(raw: bytes, name: str) -> str | None:
    try:
        return raw.decode(_CODEC.get(name, name))
    except UnicodeDecodeError:  # Windows-1252 leaves 0x81, 0x8d, 0x8f, 0x90 and 0x9d unassigned
        return None


def _plausibility(text: str) -> int:
    """How much the non-ASCII characters of `text` look like text: +1 for a letter of a word in a likely
    case (small, or a capital that does not follow a small letter) and for typographic punctuation where
    it goes (an apostrophe after a letter, quotes around a word, a dash between spaces, a degree sign after
    a digit); -1 for a capital inside a small-letter word, a spacing accent, a mathematical sign or a
    control character; 0 for anything else, such as a letter standing alone."""
    score = 0
    for m in _NON_ASCII.finditer(text):
        i, ch = m.start(), m.group()
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        kind = unicodedata.category(ch)
        if kind in ("Ll", "Lu"):
            if kind == "Lu" and before.isalpha() and before.islower():
                score -= 1
            elif ch not in _RARE and (before.isalpha() or after.isalpha()):
                score += 1
        elif ch in _PUNCTUATION:
            score += _PUNCTUATION[ch](before, after)
        elif kind in ("Sm", "Sk", "Lm", "Lo", "Cc", "Co", "Cn"):
            score -= 1
    return score


def _word(ch: str) -> bool:
    return ch.isalnum()


_PUNCTUATION = MappingProxyType(
    {
        "\u2019": lambda b, a: int(b.isalpha()),  # ’ in don’t, Guards’
        "\u2018": lambda b, a: int(_word(a) and not _word(b)),  # ‘word
        "\u201c": lambda b, a: int(_word(a) and not _word(b)),  # “word
        "\u201d": lambda b, a: int(not _word(a) and not b.isspace()),  # word”
        "\u2013": lambda b, a: int((b.isspace() or b.isdigit()) and (a.isspace() or a.isdigit())),  # 1941 – 1942
        "\u2014": lambda b, a: int(b.isspace() == a.isspace()),  # a—b, a — b
        "\u2026": lambda b, a: int(b.isalpha()),  # word…
        "\u00b0": lambda b, a: int(b.isdigit()),  # 12°
    }
)


def describe(name: str) -> str:
    return NAMES.get(name, name)
