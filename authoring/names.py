"""The one way hexwright turns ids into file names: inside a module and under `--out`.

Scheme (`file_name("setup", "seven-turn", "soviet", ext="png")` -> `setup.seven-turn.soviet.png`):

* a name is a fixed *kind* word, then each id part, joined by `.`, then the extension;
* inside a part, lowercase letters, digits and `-` stand for themselves; every other character
  (capitals, `_`, `.`, `+`, anything beyond ASCII) is written `_xx` (two hex digits of its code
  point) or `_uxxxxxx` (six) above U+00FF: `zz+1` -> `zz_2b1`, `zz_1` -> `zz_5f1`, `Zz` -> `_5az`;
* a part that would read as a Windows device name (`con`, `nul`, `com1`...) has its first
  character escaped the same way (`con` -> `_63on`).

Why it is injective: an encoded part never holds a `.`, so splitting a name on `.` gives back its
kind, its parts and its extension; each part decodes uniquely because `_` only ever starts an
escape and the escapes are prefix-free (`_` + two hex digits, or `_u` + six; `u` is not a hex
digit). Distinct kinds keep outputs of different sorts apart: a map whose id is `layout` is
`map.layout.png`, never the layout's `layout.png`.

Why it is portable: names use only `[a-z0-9._-]` (no capitals, so case-insensitive file systems
cannot merge two names), never end in `.` or a space, never start a device name, and a name
longer than `MAX_NAME` characters is refused (`NameTooLong`), which `validate` reports as a
located error before anything is built.
"""

from __future__ import annotations

import re

MAX_NAME = 200
"""Longest file name made (Windows allows 255 per path component; the rest is left for temporary suffixes)."""
MAX_PART = 90
"""Longest encoded id the loader accepts (HW-NAME-001): a kind and two ids always fit in MAX_NAME."""

_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
_KIND = re.compile(r"[a-z0-9][a-z0-9-]*\Z")
_EXT = re.compile(r"[a-z0-9]+(\.[a-z0-9]+)*\Z")
_DEVICES = frozenset(
    {
        "con",
        "prn",
        "aux",
        "nul",
        "conin$",
        "conout$",
        *(f"com{i}" for i in "0123456789¹²³"),
        *(f"lpt{i}" for i in "0123456789¹²³"),
    }
)


class NameTooLong(ValueError):
    """The file name derived from some ids is longer than `MAX_NAME`."""


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"_{code:02x}" if code <= 0xFF else f"_u{code:06x}"


def encode_part(part: str) -> str:
    """One id as a file-name part (injective; never empty, never holds '.')."""
    if not isinstance(part, str) or not part:
        raise ValueError(f"a file name part must be a non-empty string, not {part!r}")
    out = "".join(ch if ch in _PLAIN else _escape(ch) for ch in part)
    if out.lower() in _DEVICES:  # every plain part is lowercase already; escape the first letter
        out = _escape(out[0]) + out[1:]
    return out


def decode_part(encoded: str) -> str:
    """The id `encode_part` made `encoded` from (for tests and messages)."""
    out, i = [], 0
    while i < len(encoded):
        ch = encoded[i]
        if ch != "_":
            out.append(ch)
            i += 1
        elif encoded[i + 1 : i + 2] == "u":
            out.append(chr(int(encoded[i + 2 : i + 8], 16)))
            i += 8
        else:
            out.append(chr(int(encoded[i + 1 : i + 3], 16)))
            i += 3
    return "".join(out)


def file_name(kind: str, *parts: str, ext: str) -> str:
    """`kind.part1.part2.ext`, each part encoded; `kind` and `ext` are hexwright's own constants."""
    if not _KIND.match(kind):
        raise ValueError(f"a file kind must be lowercase letters, digits and '-', not {kind!r}")
    if not _EXT.match(ext):
        raise ValueError(f"an extension must be lowercase letters and digits, not {ext!r}")
    name = ".".join((kind if kind not in _DEVICES else encode_part(kind), *map(encode_part, parts), ext))
    if len(name) > MAX_NAME:
        raise NameTooLong(
            f"the file name made from {', '.join(map(repr, parts))} is {len(name)} characters long, "
            f"over the limit of {MAX_NAME}"
        )
    return name


def split_name(name: str) -> tuple[str, tuple[str, ...], str]:
    """(kind, decoded parts, ext) of a name `file_name` made with a one-word extension."""
    kind, *parts, ext = name.split(".")
    return kind, tuple(decode_part(p) for p in parts), ext


def dir_name(part: str) -> str:
    """A folder name for one id (a game's folder under `--out`)."""
    name = encode_part(part)
    if len(name) > MAX_NAME:
        raise NameTooLong(
            f"the folder name made from {part!r} is {len(name)} characters long, over the limit of {MAX_NAME}"
        )
    return name


def natural_key(text: str) -> tuple:
    """A sort key that orders the numbers inside an id by value: 'sov-3' before 'sov-29' before 'sov-30'."""
    return tuple((0, int(part), part) if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text) if part)


def id_words(ident: str) -> str:
    """An id as words for players: 'soviet-entry' -> 'Soviet entry', 'axis_supply_points' -> 'Axis supply points'."""
    text = re.sub(r"[_-]+", " ", ident).strip()
    return text[:1].upper() + text[1:]  # 'west-M' -> 'West M': the rest as written


_READABLE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def readable_part(ident: str) -> str:
    """An id as its designer wrote it when every character is portable (ASCII letters of either case,
    digits, '-', '_'); any other character written `_xx` as `encode_part` does ('Mo.1' -> 'Mo_2e1')."""
    return "".join(ch if ch in _READABLE else _escape(ch) for ch in ident)


def readable_names(ids) -> dict[str, str]:
    """Each id's file-name part, readable (`readable_part`) and unique even on a case-insensitive file
    system: ids that would share a name but for case (`m` and `M`) or escaping get `-2`, `-3`... in
    sorted order, the first one keeping its own spelling ('M' -> 'M', then 'm' -> 'm-2')."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for ident in sorted(ids):
        base = readable_part(ident)
        name, n = base, 2
        while name.casefold() in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name.casefold())
        out[ident] = name
    return out


def map_file_name(kind: str, map_id: str, all_ids, *extra: str, ext: str) -> str:
    """`<kind>-<map id>[.<extra>...].<ext>` for one of a game's maps (`map-M.png`, `tiles-M.letter.pdf`):
    the map's id as written, unique among `all_ids` whatever the file system's case rules."""
    if not _KIND.match(kind) or not _EXT.match(ext):
        raise ValueError(f"bad kind or extension: {kind!r}, {ext!r}")
    name = ".".join((f"{kind}-{readable_names(all_ids)[map_id]}", *map(encode_part, extra), ext))
    if len(name) > MAX_NAME:
        raise NameTooLong(
            f"the file name made from map {map_id!r} is {len(name)} characters long, over the limit of {MAX_NAME}"
        )
    return name
