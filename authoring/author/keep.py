"""Every editor keeps the old file until the new one is good.

`replace_checked` writes the new text to a temporary file beside the old one (`atomic.staged`), loads the
game with that file in the old one's place (or added, for a new file) and renames it over the old file only
when the game then has no error it did not have before; otherwise the temporary file goes and the old file
stays byte for byte. "No new error" rather than "no error": a designer fixing one scenario is not stopped by
another scenario's mistakes, yet an edit can never turn a project that validated into one that does not.
What counts is the caller's `check`: a set-up card is held to the loader and the set-up rules of its scenario;
a new scenario's skeleton (whose set-up is empty by design) and a map's registration to the loader (`loads`).
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

from authoring import atomic
from authoring.author.project import write_plan
from authoring.diagnostics import Diagnostic, Severity
from authoring.diagnostics.format import render_full
from authoring.errors import HexwrightError
from authoring.load import load_game
from authoring.load.project import GameFiles, display
from authoring.safepath import confine
from authoring.validate import validate_path


class NotWritten(HexwrightError):
    """The new text would add errors to the game: `diagnostics` holds them, `shown` the same rendered with
    the lines of the text that was not written (the file on disk still holds the old ones)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic], shown: str = ""):
        super().__init__(message)
        self.diagnostics, self.shown = diagnostics, shown


def replace_checked(
    files: GameFiles, path: Path, text: str, what: str, check: Check | None = None, new: bool = False
) -> list[Diagnostic]:
    """Put `text` in the game's file `path` (a scenario or map of `files`; with `new`, a scenario to add)
    atomically, only when `check` (default `loads`) finds no error in the game with it that it does not find
    without it; returns what `check` found with the new text.

    Raises `NotWritten` with the new errors (located in `path`) otherwise, `path` left as it was."""
    check = check or loads
    with atomic.staged(path, (text.encode("utf-8"),), inside=files.root, follow=True) as tmp:
        staged = check(_swapped(files, path, tmp, new))
        found = [_relocated(d, display(tmp), display(path)) for d in staged]
        if any(d.severity is Severity.ERROR for d in found):
            added = _added(check(files), found)
            if added:
                keys = {_key(d) for d in added}  # rendered now, while the text not written is there to quote
                shown = render_full([d for d in staged if _key(_relocated(d, display(tmp), display(path))) in keys])
                raise NotWritten(
                    f"{display(path)} was left as it was: {what} would add {len(added)} "
                    f"error{'' if len(added) == 1 else 's'}; nothing was written",
                    added,
                    shown.replace(display(tmp), display(path)),
                )
    return found


def replace_all_checked(files: GameFiles, texts: Mapping[Path, str], what: str, check: Check) -> list[Diagnostic]:
    """`replace_checked` for several files of the game at once (a hex two maps share, painted in both): each
    new text staged beside its file, the game checked with all of them, and all renamed or none."""
    with ExitStack() as stack:
        tmps = {
            path: stack.enter_context(atomic.staged(path, (text.encode("utf-8"),), inside=files.root, follow=True))
            for path, text in texts.items()
        }
        swapped = files
        for path, tmp in tmps.items():
            swapped = _swapped(swapped, path, tmp, False)
        staged = check(swapped)
        names = {display(tmp): display(path) for path, tmp in tmps.items()}
        found = [_relocated_all(d, names) for d in staged]
        if any(d.severity is Severity.ERROR for d in found):
            added = _added(check(files), found)
            if added:
                n = len(added)
                shown = ", ".join(names.values())
                raise NotWritten(f"{shown} left as they were: {what} would add {n} error{'' if n == 1 else 's'}", added)
    return found


def _relocated_all(d: Diagnostic, names: Mapping[str, str]) -> Diagnostic:
    for shown_tmp, shown in names.items():
        d = _relocated(d, shown_tmp, shown)
    return d


Check = Callable[[GameFiles], list[Diagnostic]]
"""What an edit is held to: the findings of a game's files (the edited file swapped in, or not)."""


def loads(files: GameFiles) -> list[Diagnostic]:
    """The loader's findings: schemas, references, names (what a map or a new scenario's skeleton is held to)."""
    return list(load_game(files).diagnostics)


def _swapped(files: GameFiles, path: Path, tmp: Path, new: bool) -> GameFiles:
    """`files` with `tmp` read in place of `path` (added as a scenario when `new`)."""
    if new:
        return replace(files, scenarios=(*files.scenarios, tmp))

    def swap(paths: tuple[Path, ...]) -> tuple[Path, ...]:
        return tuple(tmp if p == path else p for p in paths)

    return replace(
        files,
        scenarios=swap(files.scenarios),
        maps=swap(files.maps),
        counters=swap(files.counters),
        standing_in=(*files.standing_in, path),  # read, in its new text: not a file nothing reads
    )


def _key(d: Diagnostic) -> tuple:
    return d.code, d.message, d.rule


def _added(before: list[Diagnostic], after: list[Diagnostic]) -> list[Diagnostic]:
    """The errors of `after` that `before` has not (each counted: a second copy of a finding is new)."""
    had = Counter(_key(d) for d in before if d.severity is Severity.ERROR)
    out = []
    for d in after:
        if d.severity is not Severity.ERROR:
            continue
        if had[_key(d)]:
            had[_key(d)] -= 1
        else:
            out.append(d)
    return out


def _relocated(d: Diagnostic, shown_tmp: str, shown: str) -> Diagnostic:
    """`d` with the temporary file's name replaced by the file's own (its location, related ones, message)."""

    def fix(loc):
        return loc._replace(file=shown) if loc is not None and loc.file == shown_tmp else loc

    return replace(
        d,
        loc=fix(d.loc),
        related=tuple(fix(r) for r in d.related),
        message=d.message.replace(shown_tmp, shown),
        help=d.help.replace(shown_tmp, shown),
    )


def write_project_checked(plan) -> list[Diagnostic]:
    """Write a new project's planned files (`plan.dest`, `plan.files`) only when it validates: they are written
    into a hidden folder beside `plan.dest`, validated there, then moved into `plan.dest`; with an error, the
    folder goes and nothing is written (`NotWritten`, the findings shown as in `plan.dest`). Returns the
    project's findings (warnings)."""

    dest = Path(plan.dest)
    stage = dest.parent / f".{dest.name}.{atomic.writer_name()}.{os.urandom(4).hex()}.tmp"
    try:
        write_plan(replace(plan, dest=stage, files={stage / p.relative_to(dest): c for p, c in plan.files.items()}))
        _, found, _ = validate_path(stage, rules=True)
        shown_stage, shown_dest = display(stage), display(dest)
        if any(d.severity is Severity.ERROR for d in found):
            errors = [d for d in found if d.severity is Severity.ERROR]
            raise NotWritten(
                f"{shown_dest}: the imported project would not validate ({len(errors)} "
                f"error{'' if len(errors) == 1 else 's'}); nothing was written",
                [_moved(d, shown_stage, shown_dest) for d in errors],
                render_full(errors).replace(shown_stage, shown_dest),
            )
        _move_into(stage, dest, [p.relative_to(dest) for p in plan.files])
        return [_moved(d, shown_stage, shown_dest) for d in found]
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _moved(d: Diagnostic, stage: str, dest: str) -> Diagnostic:
    def fix(loc):
        return loc._replace(file=loc.file.replace(stage, dest, 1)) if loc is not None else loc

    return replace(d, loc=fix(d.loc), related=tuple(fix(r) for r in d.related), message=d.message.replace(stage, dest))


def _move_into(stage: Path, dest: Path, files: list[Path]) -> None:
    """The validated files from `stage` into `dest`: the whole folder renamed when `dest` does not exist yet,
    else file by file (never through a link out of `dest`)."""

    if not dest.exists() and not dest.is_symlink():
        os.rename(stage, dest)
        return
    for rel in sorted(files):
        target = confine(dest, dest / rel, "project file")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.rename(stage / rel, target)
