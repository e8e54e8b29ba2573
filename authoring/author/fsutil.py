"""Small file helpers shared by the authoring commands: atomic writes, no-overwrite checks, suggestions."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from authoring.atomic import special_kind
from authoring.diagnostics.suggest import closest
from authoring.errors import HexwrightError, UsageError
from authoring.load import find_root
from authoring.load.project import display


def refuse_not_folder(dest: Path) -> None:
    """Stop (usage error, exit 2) when the folder of a new project exists as something else (a file, a FIFO...)."""
    if dest.exists() and not dest.is_dir():
        raise UsageError(f"{dest} is {special_kind(dest) or 'a file'}; give a folder for the new project")


def refuse_existing(paths: Iterable[Path], base: Path) -> None:
    """Stop (usage error, exit 2) before writing anything if any target, or a folder it needs, already exists
    (as a file, a FIFO, a socket or a device, in a folder's place)."""
    paths = list(paths)
    blocked = {q for p in paths for q in p.parents if q.is_relative_to(base) and q.exists() and not q.is_dir()}
    taken = sorted(
        str(p.relative_to(base)) if p.is_relative_to(base) else str(p) for p in [*paths, *blocked] if p.exists()
    )
    if taken:
        listed = ", ".join(taken[:5]) + (f" and {len(taken) - 5} more" if len(taken) > 5 else "")
        raise UsageError(
            f"{listed} already exist{'s' if len(taken) == 1 else ''} in {base}; hexwright never "
            "overwrites your files: pick another folder or name, or move them away first"
        )


def did_you_mean(value: str, known: Iterable[str], what: str) -> str:
    """`unknown <what> 'x'; did you mean 'y'?` or the list of valid values when nothing is close."""
    known = sorted(set(known))
    close = closest(value, known)
    if close:
        return f"unknown {what} {value!r}; did you mean {close!r}?"
    if not known:
        return f"unknown {what} {value!r}; there are none"
    return f"unknown {what} {value!r}; expected one of: {', '.join(known)}"


def real_target(path: Path) -> Path:
    """Where to write a data file: through a symbolic link to its target, so the link stays a link
    (the loader already refused links that leave the project, HW-PATH-010)."""

    real = Path(os.path.realpath(path))
    if not real.is_relative_to(os.path.realpath(find_root(path.parent))):
        raise HexwrightError(f"{display(path)} is a symbolic link to {str(real)!r}, outside the project folder")
    return real
