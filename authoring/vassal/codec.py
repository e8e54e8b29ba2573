"""VASSAL's text encodings: sequence escaping, trait nesting, commands and save-file obfuscation.

Mirrors VASSAL 3.6 `VASSAL.tools.SequenceEncoder`, `Decorator.getType/getState`,
`BasicCommandEncoder.encode(AddPiece)`, `GameModule.encode` and
`ObfuscatingOutputStream`, so the engine re-encodes what we write to the same bytes
(the checker's `canonical: true`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

TRAIT_SEPARATOR = "\t"
COMMAND_SEPARATOR = "\x1b"
ADD_PIECE_PREFIX = "+/"
ADD_PIECE_SEPARATOR = "/"
NULL_ID = "null"
OBFUSCATION_HEADER = "!VCSK"

_ESCAPE = "\\"
_QUOTE = "'"
_RISKY = (_ESCAPE, _QUOTE)

# java.awt.event.InputEvent: KeyStroke.getModifiers() reports old | new masks.
_SHIFT = 1 | 64
_CTRL = 2 | 128
_META = 4 | 256
_ALT = 8 | 512


class Definition(NamedTuple):
    """A piece's nested type and state strings, as the engine's `getType()`/`getState()`."""

    type: str
    state: str


def encode(fields: Sequence[str], delimiter: str) -> str:
    """Join `fields` like SequenceEncoder: escape the delimiter, quote risky fields.

    A field ending in a backslash cannot survive the engine's decoder (it would escape
    the next delimiter), so it is refused rather than silently corrupted.
    """
    if not fields:
        raise ValueError("VASSAL cannot encode an empty sequence")
    if len(delimiter) != 1 or delimiter in (_ESCAPE, _QUOTE):
        raise ValueError(f"Expected a one-character delimiter other than \\ and ' but received: {delimiter!r}")
    # Most sequences need nothing: no backslash or quote anywhere and one delimiter per join means no
    # field needs escaping or quoting, tested on the joined text with C-level string calls.
    joined = delimiter.join(fields)
    if _ESCAPE not in joined and _QUOTE not in joined and joined.count(delimiter) == len(fields) - 1:
        return joined
    return delimiter.join([field if _plain(field, delimiter) else _encode_field(field, delimiter) for field in fields])


def _plain(field: str, delimiter: str) -> bool:
    """Encoded as it is: no delimiter, no leading quote or backslash, no trailing backslash."""
    return delimiter not in field and not field.startswith(_RISKY) and not field.endswith(_ESCAPE)


def _encode_field(field: str, delimiter: str) -> str:
    if field.endswith(_ESCAPE) and not field.startswith(_ESCAPE):
        raise ValueError(f"VASSAL cannot encode a field ending in a backslash: {field!r}")
    escaped = field.replace(delimiter, _ESCAPE + delimiter)
    if field.startswith(_ESCAPE) or (field.startswith(_QUOTE) and field.endswith(_QUOTE)):
        return _QUOTE + escaped + _QUOTE
    return escaped


def decode(text: str, delimiter: str) -> list[str]:
    """Split `text` like SequenceEncoder.Decoder: `\\` + delimiter is literal, `'...'` unwrapped.

    A delimiter whose preceding character in `text` is a backslash is kept (the backslash dropped), so
    the text is cut at the other delimiters with C-level `split` and the pieces rejoined where one ends
    in a backslash: linear in the text's length."""
    pieces = text.split(delimiter)
    if len(pieces) == 1:
        return [_unquote(text)]
    fields: list[str] = []
    current: list[str] = []
    for piece in pieces[:-1]:
        if piece.endswith(_ESCAPE):
            current.append(piece[:-1] + delimiter)
        else:
            current.append(piece)
            fields.append(_unquote("".join(current)))
            current = []
    current.append(pieces[-1])
    fields.append(_unquote("".join(current)))
    return fields


def _unquote(token: str) -> str:
    if len(token) > 1 and token.startswith(_QUOTE) and token.endswith(_QUOTE):
        return token[1:-1]
    return token


def nest(parts: Sequence[str]) -> str:
    """Compose trait strings outermost first, as each Decorator wraps its inner piece."""
    if not parts:
        raise ValueError("A piece needs at least its basic piece")
    if not _whole(parts[-1]):
        raise ValueError(f"The innermost piece is not escaped, so it cannot hold a tab or be quoted: {parts[-1]!r}")
    result = parts[-1]
    for outer in reversed(parts[:-1]):
        result = encode([outer, result], TRAIT_SEPARATOR)
    return result


class Nesting:
    """`nest([*outer, inner])` for many `inner` strings around the same `outer` traits, in one string
    concatenation each: a set-up places thousands of pieces whose only changing trait is the innermost
    BasicPiece's state.

    An inner string with no tab, not starting with a quote or backslash and not ending with either
    goes through every level's escaping unchanged (escaping touches tabs only; quoting looks at the
    string's ends, and only the end comes from `inner`), so the result is the nest of a placeholder
    with the placeholder replaced. Any other inner string is nested the long way."""

    _HOLE = "\x00"

    def __init__(self, outer: Sequence[str]) -> None:
        self.outer = tuple(outer)
        template = nest([*self.outer, self._HOLE]) if not any(self._HOLE in part for part in self.outer) else ""
        self.prefix, hole, self.suffix = template.partition(self._HOLE)
        self.fast = bool(hole) and self._HOLE not in self.suffix

    def __call__(self, inner: str) -> str:
        if (
            self.fast
            and inner
            and TRAIT_SEPARATOR not in inner
            and self._HOLE not in inner
            and not inner.startswith(_RISKY)
            and not inner.endswith(_RISKY)
        ):
            return self.prefix + inner + self.suffix
        return nest([*self.outer, inner])


def _whole(text: str) -> bool:
    """`decode(text, TAB) == [text]` without decoding: no tab, and not a quoted token."""
    return TRAIT_SEPARATOR not in text and not (len(text) > 1 and text.startswith(_QUOTE) and text.endswith(_QUOTE))


def unnest(text: str) -> list[str]:
    """Split a nested type or state into per-trait strings, outermost first.

    Each level's escaping adds one backslash before every tab inside it, so trait k ends at the first tab
    after trait k-1 with at most k backslashes before it, and its own tabs lose k+1 backslashes: one pass
    over the text (`_unnest_levels`). Text that quoting could have touched (a trait starting with a quote,
    a quote at the end) is split level by level as the engine's decoder does."""
    fast = _unnest_levels(text)
    return fast if fast is not None else _unnest_by_level(text)


_TAB_RUN = re.compile(r"(\\*)\t")


def _unnest_levels(text: str) -> list[str] | None:
    if text.endswith(_QUOTE) or text.startswith(_QUOTE):
        return None
    parts: list[str] = []
    start = level = 0
    for match in _TAB_RUN.finditer(text):
        run = len(match.group(1))
        if run > level:
            continue
        if run < level or text.startswith(_QUOTE, match.end()):
            return None
        parts.append(_unescape_tabs(text[start : match.start()], level + 1))
        start, level = match.end(), level + 1
    parts.append(_unescape_tabs(text[start:], level + 1))
    return parts


def _unescape_tabs(field: str, passes: int) -> str:
    """`field` with `passes` backslashes fewer before each of its tabs (as many levels' decoding leave it)."""
    if TRAIT_SEPARATOR not in field:
        return field
    return _TAB_RUN.sub(lambda m: _ESCAPE * max(0, len(m.group(1)) - passes) + TRAIT_SEPARATOR, field)


def _unnest_by_level(text: str) -> list[str]:
    """The engine's way: cut the outer trait at the first unescaped tab, unescape the rest, repeat."""
    parts: list[str] = []
    while True:
        fields = decode(text, TRAIT_SEPARATOR)
        parts.append(fields[0])
        if len(fields) == 1:
            return parts
        text = fields[1]


def add_piece_command(type_: str, state: str, id: str = NULL_ID) -> str:
    """`+/ID/TYPE/STATE`: the text of a PieceSlot/PrototypeDefinition or a saved-game entry."""
    return ADD_PIECE_PREFIX + encode([id, type_, state], ADD_PIECE_SEPARATOR)


def parse_add_piece_command(command: str) -> tuple[str, Definition]:
    """Inverse of `add_piece_command`: (id, Definition)."""
    if not command.startswith(ADD_PIECE_PREFIX):
        raise ValueError(f"Expected a command starting with '+/' but received: {command[:20]!r}")
    fields = decode(command[len(ADD_PIECE_PREFIX) :], ADD_PIECE_SEPARATOR)
    if len(fields) != 3:
        raise ValueError(f"Expected 3 fields (id, type, state) but received: {len(fields)}")
    return fields[0], Definition(fields[1], fields[2])


def join_commands(commands: Sequence[str]) -> str:
    """Join commands with ESC, as GameModule.encode does for a compound command."""
    return encode(commands, COMMAND_SEPARATOR)


def split_commands(text: str) -> list[str]:
    """Inverse of `join_commands`."""
    return decode(text, COMMAND_SEPARATOR)


def obfuscate(text: str, key: int) -> str:
    """`!VCSK`, the key in two hex digits, then each UTF-8 byte XOR key in two hex digits."""
    if not 0 <= key <= 0xFF:
        raise ValueError(f"Expected a key in 0..255 but received: {key}")
    body = text.encode("utf-8").translate(_xor_table(key))
    return OBFUSCATION_HEADER + f"{key:02x}" + body.hex()


def deobfuscate(text: str) -> str:
    """Inverse of `obfuscate`; plain text (no header) is returned unchanged, as the engine does."""
    if not text.startswith(OBFUSCATION_HEADER):
        return text
    payload = bytes.fromhex(text[len(OBFUSCATION_HEADER) :])
    key, body = payload[0], payload[1:]
    return body.translate(_xor_table(key)).decode("utf-8")


@cache
def _xor_table(key: int) -> bytes:
    """byte -> byte ^ key, for `bytes.translate` (C speed; a generator per byte took a third of a second).
    Process-wide: a pure function of the key (immutable bytes)."""
    return bytes(byte ^ key for byte in range(256))


def java_bool(value: bool) -> str:
    """Java's `String.valueOf(boolean)`."""
    return "true" if value else "false"


def java_double(value: float) -> str:
    """Java's `String.valueOf(double)` for ordinary magnitudes (1e-3 .. 1e7)."""
    number = float(value)
    if number != 0 and not 1e-3 <= abs(number) < 1e7:
        raise ValueError(f"Expected a double between 1e-3 and 1e7 but received: {value!r}")
    return repr(number)


def key_stroke(code: int, *, ctrl: bool = False, shift: bool = False, alt: bool = False, meta: bool = False) -> str:
    """A keystroke as VASSAL stores it: `KEYCODE,MODIFIERS` (Java's combined modifier masks).

    `code` is a java.awt.event.KeyEvent VK_ code; for letters and digits it is the
    upper-case ASCII code (`ord("F")`).
    """
    modifiers = (_CTRL if ctrl else 0) | (_SHIFT if shift else 0) | (_ALT if alt else 0) | (_META if meta else 0)
    return f"{code},{modifiers}"
