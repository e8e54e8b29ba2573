"""Text from data files made safe to echo on a terminal.

A data file downloaded from a stranger can hold terminal control sequences (an OSC 8 link, a
title change, a cursor move, a bidirectional override that reorders what is shown). Anything
hexwright echoes from data (source snippets, values quoted in messages, names in `list`) goes
through `printable`, which writes such characters as visible escapes: `\\x1b`, `\\x9b`, `\\u202e`.
"""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, keep: str = "\t") -> str:
    """`text` with control characters (C0, DEL, C1), line and paragraph separators and bidirectional
    controls written as escapes; characters in `keep` (a tab, by default) are left as they are."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in keep or not _unsafe(ch) else _escape(ch) for ch in text)


def _unsafe(ch: str) -> bool:
    return ch in _BIDI or unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cf") and ch not in "\u200d\u00ad"
