"""`calibrate --write`: the fitted registration into a map file's `art:` block, as a text edit.

As in `yamlblock`, text and not a YAML round trip, so the designer's comments and layout stay: only the
lines of `hex_size`, `origin`, `stretch` and `rotation` under `art:` change, each keeping its end-of-line
comment at its column; a key not there yet is added after the last of them (or after `image:`). Line ends
(LF or CRLF) stay as they were. The edited text is parsed back and must hold the old data but for those
keys, which must hold the new values; otherwise nothing is written.
"""

from __future__ import annotations

import re

from authoring.author.yamlblock import BlockError, block_end
from authoring.load.source import SourceError, parse_yaml

KEYS = ("hex_size", "origin", "stretch", "rotation")
_ART = re.compile(r"art[ \t]*:")
_KEY = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*|\"[^\"]*\"|'[^']*')[ \t]*:(?:[ \t]|$)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


def _comment_at(line: str) -> int | None:
    """Column of the line's end comment: a `#` after white space and outside quotes."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None


def _key_spans(lines: list[str], art: int, end: int) -> tuple[int, dict[str, tuple[int, int]]]:
    """The indent of `art:`'s keys and, for each key, its lines [first, stop)."""
    body = [i for i in range(art + 1, end) if _is_content(lines[i])]
    indent = min((_indent(lines[i]) for i in body), default=2)
    spans = {}
    for i in body:
        m = _KEY.match(lines[i])
        if _indent(lines[i]) == indent and m:
            spans[m.group(1).strip("\"'")] = (i, block_end(lines, i, indent))
    return indent, spans


def _line(indent: int, key: str, value: str, old: str | None) -> str:
    text = " " * indent + f"{key}: {value}"
    at = _comment_at(old) if old is not None else None
    if at is None:
        return text
    comment = old[at:].rstrip("\r")
    return text + " " * max(2, at - len(text)) + comment


def set_registration(text: str, fields: dict[str, str], display: str = "<map>") -> str:
    """The map file's text with `fields` (key -> YAML value text) under its top-level `art:` block."""
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    art = next((i for i, ln in enumerate(lines) if _ART.match(ln)), None)
    if art is None:
        raise BlockError("the map file has no top-level `art:` block")
    if _is_content(lines[art][lines[art].index(":") + 1 :]):
        raise BlockError(
            "`art:` is written on one line; write it as a block (one key per line) "
            "for the registration to be written into it"
        )
    indent, spans = _key_spans(lines, art, block_end(lines, art, 0))
    for key in fields:
        if key in spans:
            first, stop = spans[key]
            lines[first:stop] = [_line(indent, key, fields[key], lines[first])]
        else:
            after = max((spans[k][1] for k in (*KEYS, "image") if k in spans), default=art + 1)
            lines.insert(after, _line(indent, key, fields[key], None))
        indent, spans = _key_spans(lines, art, block_end(lines, art, 0))
    new = nl.join(lines)
    _verify(text, new, fields, display)
    return new


def _verify(old: str, new: str, fields: dict[str, str], display: str) -> None:
    try:
        before, after = parse_yaml(old, display).data, parse_yaml(new, display).data
        want = parse_yaml("".join(f"{k}: {v}\n" for k, v in fields.items()), "<registration>").data
    except SourceError as exc:
        raise BlockError(f"the edited file would not parse ({exc}); nothing was written") from None
    expected = dict(before)
    expected["art"] = {**before.get("art", {}), **want}
    if after != expected:
        raise BlockError(
            "the text edit of `art:` would change more than its registration (unusual layout?); "
            "nothing was written -- paste the lines by hand"
        )
