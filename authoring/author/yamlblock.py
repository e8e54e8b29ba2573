"""Text-level replacement of one side's list under a scenario's `setup:`, keeping the rest of the file intact.

Why text and not a YAML round trip: PyYAML drops comments and reflows flow mappings, and a designer's
scenario file is mostly comments and hand layout. Only the lines of `setup: <side>:` change; the
result is re-parsed and compared with what was meant before it may be written (`replace_side`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from authoring.load.source import SourceError, parse_yaml

_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]*\Z")
_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "y", "n"})
_TOP_KEY = re.compile(r"[^\s#-][^:]*:")


class BlockError(Exception):
    """The file's layout is one the text edit does not handle; says what to change."""


@dataclass(frozen=True)
class Edit:
    text: str
    dropped_comments: int


def scalar(value: str) -> str:
    """A value as YAML that reads back as exactly this string (plain when safe, else double-quoted)."""
    if _PLAIN.match(value) and value.lower() not in _WORDS:
        return value
    return json.dumps(value, ensure_ascii=False)


def entry_line(entry: dict) -> str:
    """One placement in the flow style of the bundled scenarios: {hex: "0301", units: [a, b], state: half}."""
    parts = [f"hex: {json.dumps(str(entry['hex']))}", f"units: [{', '.join(scalar(str(u)) for u in entry['units'])}]"]
    if entry.get("state"):
        parts.append(f"state: {scalar(str(entry['state']))}")
    if entry.get("note"):
        parts.append(f"note: {json.dumps(str(entry['note']), ensure_ascii=False)}")
    return "- {" + ", ".join(parts) + "}"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")


def block_end(lines: list[str], start: int, indent: int) -> int:
    """First line after `start` that is content at `indent` or less; trailing blank/comment lines stay outside."""
    end = start + 1
    last = start
    while end < len(lines):
        if _is_content(lines[end]):
            same_level_item = _indent(lines[end]) == indent and lines[end].lstrip().startswith("-")
            if _indent(lines[end]) <= indent and not same_level_item:
                break
            last = end
        end += 1
    return last + 1


def _find_setup(lines: list[str]) -> int | None:
    for i, line in enumerate(lines):
        if re.match(r"setup:\s*(#.*)?$", line):
            return i
        if re.match(r"setup:\s*\S", line):
            raise BlockError(
                "`setup:` is written on one line; write it as a block (one side per line) to import into it"
            )
    return None


def _side_lines(side: str, indent: int, entries: list[dict], entry_indent: int, comment: str = "") -> list[str]:
    head = " " * indent + f"{scalar(side)}:" + ("" if entries else " []") + (f"  {comment}" if comment else "")
    return [head] + [" " * entry_indent + entry_line(e) for e in entries]


def _rewrite(lines: list[str], side: str, entries: list[dict]) -> tuple[list[str], int]:
    setup = _find_setup(lines)
    if setup is None:
        at = next(
            (
                i
                for i, ln in enumerate(lines)
                if re.match(
                    r"(off_map|reinforcements|withdrawals|pools|options|"
                    r"victory|setup_rules|values):",
                    ln,
                )
            ),
            len(lines),
        )
        return lines[:at] + ["setup:"] + _side_lines(side, 2, entries, 4) + lines[at:], 0
    end = block_end(lines, setup, 0)
    keys = [
        i
        for i in range(setup + 1, end)
        if _is_content(lines[i])
        and not lines[i].lstrip().startswith("-")
        and _indent(lines[i]) == min(_indent(lines[j]) for j in range(setup + 1, end) if _is_content(lines[j]))
    ]
    key_indent = _indent(lines[keys[0]]) if keys else 2
    pattern = re.compile(rf"\s*{re.escape(side)}\s*:\s*(\[\s*\])?\s*(#.*)?$|\s*{re.escape(json.dumps(side))}\s*:")
    own = next((i for i in keys if pattern.match(lines[i])), None)
    if own is None:
        return lines[:end] + _side_lines(side, key_indent, entries, key_indent + 2) + lines[end:], 0
    if re.search(r":\s*[\[{]\s*[^\]\s]", lines[own]):
        raise BlockError(f"`setup: {side}:` is written inline; put one placement per line to import into it")
    stop = block_end(lines, own, _indent(lines[own]))
    body = lines[own + 1 : stop]
    first = next((ln for ln in body if _is_content(ln)), None)
    entry_indent = _indent(first) if first is not None else _indent(lines[own]) + 2
    lead = []
    for ln in body:
        if _is_content(ln):
            break
        lead.append(ln)
    dropped = sum(1 for ln in body[len(lead) :] if ln.strip().startswith("#") or "#" in ln.split("}")[-1])
    comment = re.search(r"(#.*)$", lines[own])
    new = _side_lines(side, _indent(lines[own]), entries, entry_indent, comment.group(1) if comment else "")
    return lines[:own] + new[:1] + lead + new[1:] + lines[stop:], dropped


def replace_side(text: str, side: str, entries: list[dict], display: str = "<scenario>") -> Edit:
    """The scenario text with `setup: <side>:` holding exactly `entries`; everything else byte-identical.

    Raises BlockError when the layout is not handled, or when the edited file would not read back
    as the old data with only that side changed (then nothing must be written)."""
    lines = text.split("\n")
    new_lines, dropped = _rewrite(lines, side, entries)
    new_text = "\n".join(new_lines)
    _verify(text, new_text, side, entries, display)
    return Edit(new_text, dropped)


def _verify(old: str, new: str, side: str, entries: list[dict], display: str) -> None:
    try:
        before, after = parse_yaml(old, display).data, parse_yaml(new, display).data
    except SourceError as exc:
        raise BlockError(f"the edited file would not parse ({exc}); nothing was written") from None
    want = [
        {k: (str(v) if k in ("hex", "state", "note") else [str(u) for u in v]) for k, v in e.items() if v}
        for e in entries
    ]
    got = [
        {k: (str(v) if k != "units" else [str(u) for u in v]) for k, v in e.items()}
        for e in ((after.get("setup") or {}).get(side) or [])
    ]
    rest_before = {k: v for k, v in before.items() if k != "setup"}
    rest_after = {k: v for k, v in after.items() if k != "setup"}
    others_before = {k: v for k, v in (before.get("setup") or {}).items() if k != side}
    others_after = {k: v for k, v in (after.get("setup") or {}).items() if k != side}
    if got != want or rest_before != rest_after or others_before != others_after:
        raise BlockError(
            "the text edit of `setup:` would change more than the set-up of "
            f"{side!r} (unusual layout?); nothing was written -- edit the file by hand"
        )
