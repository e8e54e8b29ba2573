"""Command-line arguments that may name a path: telling a path from an id, and saying what a path names
when it names nothing (always the path as the user typed it: relative, absolute or `./`)."""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

DATA_SUFFIXES = (".yaml", ".yml", ".csv")
_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")


class PathError(LookupError):
    """An argument written as a path names no file, or none of a game; the message ends with a hint."""


def _separators() -> tuple[str, ...]:
    return tuple(s for s in ("/", os.sep, os.altsep) if s)


def looks_like_path(arg: str) -> bool:
    """True when `arg` is written as a path: a separator, a leading `.`, or a data file's extension."""
    return any(s in arg for s in _separators()) or arg.startswith(".") or arg.lower().endswith(DATA_SUFFIXES)


def game_and_scenario(arg: str, game_ids: list[str]) -> tuple[str, str] | None:
    """(game, scenario) when `arg` is written GAME/SCENARIO: one `/` between two ids, the first a game of
    the project or, failing that, no folder here (so `bfn/seven-turn` still gets "no game 'bfn'")."""
    head, sep, tail = arg.partition("/")
    if not sep or not _ID.match(head) or not _ID.match(tail) or tail.lower().endswith(DATA_SUFFIXES):
        return None
    if head in game_ids or not Path(head).exists():
        return head, tail
    return None


def help_line(hint: str) -> str:
    return f"\n  = help: {hint}"


def missing(arg: str, expect: str) -> PathError:
    """`path 'ARG' does not exist` and a hint: the nearest name in its folder, or the folder that is missing."""
    folder, name = os.path.split(arg)
    if folder and not os.path.isdir(folder):
        return PathError(f"path {arg!r} does not exist: there is no folder {folder!r}" + help_line(expect))
    try:
        names = sorted(os.listdir(folder or "."))
    except OSError:
        names = []
    stems = {os.path.splitext(n)[0]: n for n in reversed(names)}  # compared without the shared extension
    close = difflib.get_close_matches(os.path.splitext(name)[0], list(stems), n=1, cutoff=0.6)
    if close:
        return PathError(
            f"path {arg!r} does not exist"
            + help_line(f"did you mean {os.path.join(folder, stems[close[0]])!r}? {expect}")
        )
    return PathError(f"path {arg!r} does not exist" + help_line(expect))


def outside(arg: str, root: Path) -> PathError:
    """An existing path that no game of the project around it (`root`) holds."""
    if not (root / "scenarios").is_dir():
        where = "no folder at or above it holds scenarios/"
    else:
        shown = str(root) if os.path.isabs(arg) else os.path.relpath(root)
        where = "the project around it is " + ("the working folder" if shown == "." else shown)
    return PathError(
        f"{arg!r} is not in a game ({where})"
        + help_line(
            "a game is the folder scenarios/<game>/ with a game.yaml, and its files in "
            "maps/<game>/ and counters/<game>/; `hexwright init DIR` makes one"
        )
    )
