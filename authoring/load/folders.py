"""What a game's folders hold: the files each folder's data is read from, and those that nothing reads.

Every file in `maps/<game>/`, `counters/<game>/` and `scenarios/<game>/` (and below them) is read, or named
in a finding (HW-FILE-001): a counter table kept as a workbook, a backup copy (`counters.csv.bak`), Excel's
lock file (`~$counters.xlsx`) or a data file in a subfolder would otherwise be skipped without a word, and
what it holds be silently missing. Image files (PNG, JPEG, SVG) that no data names are left alone: an art
folder may well hold more pictures than the game shows. Hidden files and the desktop's own (`Thumbs.db`,
`desktop.ini`) are not the designer's and are passed over.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from types import MappingProxyType

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_FILE_001

YAML_EXTS = (".yaml", ".yml")
COUNTER_EXTS = (*YAML_EXTS, ".csv", ".tsv", ".txt", ".xlsx", ".ods")
"""Counter files: YAML, a spreadsheet's text table (CSV, tab-separated, Excel's "Unicode Text" `.txt`) or a
workbook (.xlsx, .ods: its first sheet)."""
ART_EXTS = (".png", ".jpg", ".jpeg", ".svg")
DATA_FOLDERS = ("maps", "counters", "scenarios")
_READS = MappingProxyType(
    {
        "maps": "map files (.yaml)",
        "counters": "counter files (.yaml, a workbook .xlsx or .ods, or a sheet saved as .csv, .tsv or Unicode Text)",
        "scenarios": "game.yaml, tables.yaml, scenario files (.yaml) and the rules summary game.yaml names",
    }
)
_WORKBOOKS = (".xlsm", ".xls", ".numbers")
"""Workbooks hexwright does not read (macro-enabled, the old binary format, Apple's): saved as .xlsx, .ods or CSV."""
_BACKUPS = (".bak", ".backup", ".old", ".orig", ".tmp", ".swp")
_SHEETS = (".csv", ".tsv", ".txt", ".xlsx", ".ods")
_DESKTOP = frozenset({"thumbs.db", "desktop.ini"})


def unread_files(root: Path, game_id: str, used: Iterable[Path], shown=os.path.relpath) -> list[Diagnostic]:
    """HW-FILE-001 for each file of the game's folders that is not in `used` (the files the game read)."""
    known = {os.path.realpath(p) for p in used}
    out = []
    for folder in DATA_FOLDERS:
        base = root / folder / game_id
        for path in game_files(base):
            if path.suffix.lower() in ART_EXTS or os.path.realpath(path) in known:
                continue
            what, hint = _kind(path, base, folder, game_id)
            out.append(HW_FILE_001.at(f"{path.name!r} is not read: {what}", Loc(shown(path)), help=hint))
    return out


def game_files(base: Path) -> list[Path]:
    """The regular files under `base`, in order, hidden files and folders and symbolic links to folders left out."""
    found: list[Path] = []
    if not base.is_dir():
        return found
    for top, dirs, names in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [
            Path(top, n)
            for n in sorted(names)
            if not n.startswith(".") and n.lower() not in _DESKTOP and os.path.isfile(os.path.join(top, n))
        ]
    return found


def _kind(path: Path, base: Path, folder: str, game_id: str) -> tuple[str, str]:
    """What the file seems to be, and what to do with it."""
    name, suffix, here = path.name, path.suffix.lower(), f"{folder}/{game_id}/"
    reads = f"hexwright reads {_READS[folder]} in {here}"
    if name.startswith("~$"):
        return "Excel's lock file of an open workbook", (
            "it goes away when Excel closes the workbook; if Excel is closed, delete it"
        )
    if suffix in _BACKUPS or name.endswith("~"):
        return "a backup copy", f"move it out of the game's folders ({reads})"
    if suffix in _WORKBOOKS:
        return "a workbook of a kind hexwright does not read", (
            f"save it as .xlsx or .ods (or the sheet as 'CSV UTF-8') in counters/{game_id}/, and keep this "
            "one outside the game's folders"
        )
    if path.parent != base and suffix in COUNTER_EXTS:
        return "a data file in a subfolder", f"move it up into {here}: {reads}, not in its subfolders"
    if folder == "scenarios" and suffix in _SHEETS:
        return f"set-up cards are not read from {here}", (
            "check a card with `hexwright check SCENARIO --card FILE`, or write it into the scenario with "
            f"`hexwright import-setup`; counter tables go in counters/{game_id}/"
        )
    kind = f"{suffix} files" if suffix else "files without an extension"
    return (
        f"hexwright reads no {kind} in {here}",
        f"{reads}: save it as one of those, or move it out of the game's folders",
    )
