"""Edits the bench makes to a copy of a game, as a designer would save them: text in, text out, one place each.

Typhoon's maps M and N share a column (M's column 01 is N's column 39, 2.1): a hex there must have the same
terrain in both files, so an edit of one is made in both (`shared_hexes`); an edit inside a map (`interior_hexes`)
touches a hex that no other map shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import yaml


def substitute(path: Path, pattern: re.Pattern, new: str) -> None:
    """`pattern`'s one match in `path` with its group 2 replaced by `new` (groups 1 and 3 kept)."""
    text, count = pattern.subn(lambda m: m.group(1) + new + m.group(3), path.read_text(encoding="utf-8"))
    if count != 1:
        raise RuntimeError(f"{path}: the bench's edit matched {count} places")
    path.write_text(text, encoding="utf-8")


def drop(text: str, label: str, section: str) -> str:
    """`text` with the quoted hex id `label` taken out of its list in the top-level `section` (one place)."""
    start = text.index(f"\n{section}:")
    end = next((m.start() for m in re.finditer(r"\n\S", text[start + 1 :])), len(text)) + start + 1
    part = text[start:end]
    new, count = re.subn(rf'"{label}",\s*|,\s*"{label}"(?=\s*\])', "", part, count=1)
    if count != 1:
        raise RuntimeError(f"{label} is in no list of {section}")
    return text[:start] + new + text[end:]


def interior_hexes(text: str, margin: int = 3) -> Iterator[str]:
    """The hexes of a map's terrain lists at least `margin` hexes from each of its edges (no other map shows
    them or their neighbours), in order."""
    data = yaml.safe_load(text)
    grid = data["grid"]
    for labels in data["terrain"].values():
        for label in labels:
            col, row = int(label[-4:-2]), int(label[-2:])
            if margin < col <= grid["columns"] - margin and margin < row <= grid["rows"] - margin:
                yield label


def shared_hexes(m_text: str, n_text: str) -> Iterator[tuple[str, str]]:
    """(M01rr, N39rr) pairs of the column M and N share, inside its rows, with the same terrain in both lists."""
    m, n = yaml.safe_load(m_text)["terrain"], yaml.safe_load(n_text)["terrain"]
    for kind, labels in m.items():
        for label in labels:
            twin = f"N39{label[-2:]}"
            if label.startswith("M01") and 1 < int(label[-2:]) < 53 and twin in n.get(kind, ()):
                yield label, twin


def river_lines(text: str) -> list[str]:
    """Map M's river hexsides between two hexes off column 01, as their lines in the file."""
    return [
        line
        for line in re.findall(
            r'    - \["M\d{4}", "M\d{4}"\]\n', text.split("\nhexsides:", 1)[1].split("  major-river:")[0]
        )
        if '"M01' not in line
    ]
