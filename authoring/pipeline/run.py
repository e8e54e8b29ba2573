"""`run(request)`: one build, top to bottom, as `hexwright build` runs it.

1. refuse a build folder that would lead outputs out of the project;
2. read every input once (`Snapshot`) and take each stage's digest; games whose stages are all up to date
   are not loaded at all: their warnings are quoted from the check that made them (`findings`);
3. load and check the other games (the collector paused, the games then kept out of its passes);
   any error: nothing is built; the warnings are kept for the builds that find nothing to do;
4. run each game's stages, side by side in forked processes when there are cores to share
   (`side_by_side.run_stages`), else one after another here;
5. drop the stamps of stages whose inputs were saved during the build;
6. trim the caches to their budget, least recently used entries first (never what this build used).

What happens is told to a `Listener` as it happens (the CLI prints it); the `Report` sums it up.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from authoring import runtime
from authoring.diagnostics import Diagnostic, has_errors
from authoring.diagnostics.format import counts
from authoring.load import LoadResult
from authoring.load.project import GameFiles
from authoring.pipeline import findings
from authoring.pipeline import stages as st
from authoring.pipeline.checked import load_checked
from authoring.pipeline.context import BuildContext
from authoring.pipeline.side_by_side import run_stages
from authoring.products.store import Trimmed, trim
from authoring.progress import SILENT, Progress
from authoring.safepath import refuse_build_tree, refuse_out_dir
from authoring.workers import can_fork

CLOCK_SLACK = 5.0
"""Seconds a cache file's time may lag the clock (file times may be coarser than it): an entry written up to
this long before the build's start counts as this build's. The record of use holds clock times, taken as they are."""


class Refused(Exception):
    """The build folder was refused; `fault`: it would lead outputs out of the project (a fault of the
    folder the game came with, not of its data), else an argument the user can change."""

    def __init__(self, reason: str, fault: bool) -> None:
        super().__init__(reason)
        self.reason, self.fault = reason, fault
        """`reason` as the check gave it (a `safepath.Unforcible` when --force would not help)."""


@dataclass(frozen=True)
class Request:
    """What to build: these `stages` of `games` (of the project at `root`) into `out` (None: <root>/build)."""

    root: Path
    games: Sequence[GameFiles]
    stages: tuple[str, ...] = st.STAGES
    out: Path | None = None
    context: BuildContext = field(default_factory=BuildContext)


@dataclass
class Report:
    """What a build did: games, files written (their bytes changed) and up to date, the warnings of the data
    it stands on (`validate`'s) and of the drawing; `errors`: the findings that stopped it before anything
    was built."""

    games: int = 0
    written: int = 0
    reused: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)
    errors: list[Diagnostic] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    trimmed: Trimmed = field(default_factory=Trimmed)
    """The cache entries the build removed to keep the caches within their budget."""

    def add(self, outputs: st.Outputs) -> None:
        """Count a stage's outputs: those whose bytes it changed as written, the others as up to date."""
        self.written += len(outputs.written)
        self.reused += len(outputs.paths) - len(outputs.written)

    def line(self) -> str:
        def n(count: int, what: str) -> str:
            return f"{count} {what}{'' if count == 1 else 's'}"

        cache = f", {self.trimmed}" if self.trimmed.entries else ""
        return (
            f"{n(self.games, 'game')}: {n(self.written, 'file')} written, {self.reused} up to date, "
            f"{n(counts(self.warnings)[1], 'warning')}{cache} ({time.monotonic() - self.started:.1f} s)"
        )


class Listener:
    """Told what a build does as it happens; the base class ignores it (a silent build)."""

    def stage(self, label: str) -> AbstractContextManager[Progress]:
        """Where the progress of one game's stage (`label`: "<game>: <stage>") is shown while it runs."""
        return _silent()

    def up_to_date(self, game_id: str) -> None:
        """Every stage of the game was up to date: it was not even loaded."""

    def quoted(self, game_id: str, warnings: Sequence[Diagnostic]) -> None:
        """The warnings of an up-to-date game, as the last check of the same data (and drawing) found them."""

    def outputs(self, outputs: st.Outputs) -> None:
        """A stage ended and left these outputs (`outputs.reused`: unchanged)."""

    def changed(self, paths: list[Path]) -> None:
        """These inputs were saved during the build: what they feed is made again next time."""


def output_lines(outputs: st.Outputs, shown: Callable[[Path], str]) -> list[str]:
    """What a stage left, as `build` and `watch` both say it: each file whose bytes it changed, or the
    outputs it reused (`shown`: a path as the user reads it)."""
    if outputs.reused:
        where = outputs.paths[0].parent if len(outputs.paths) > 1 else outputs.paths[0]
        return [f"  up to date: {shown(where)}"]
    return [f"  wrote {shown(p)}" for p in outputs.written]


def quoted_line(game_id: str, warnings: Sequence[Diagnostic]) -> str:
    """Says that an up-to-date game's warnings come from the check of the same data that built it."""
    n = counts(warnings)[1]
    return f"{game_id}: {n} warning{'' if n == 1 else 's'} quoted from the last check of the same data"


@contextmanager
def _silent() -> Iterator[Progress]:
    yield SILENT


def run(request: Request, listener: Listener | None = None) -> Report:
    """Build `request`; raises `Refused` for a build folder it must not write into."""
    tell = listener or Listener()
    report = Report(games=len(request.games))
    began = time.time()
    root, ctx, stages = request.root, request.context, request.stages
    out_root = request.out or root / "build"
    _refuse(refuse_out_dir(root, out_root, ctx.force, named=request.out is not None), fault=False)
    ids = [g.id for g in request.games]
    _refuse(refuse_build_tree(root, out_root, ids, stages, explicit=request.out is not None), fault=True)
    digests = {g.id: st.stage_digests(g, stages, ctx.sheets, ctx.snapshot) for g in request.games}
    quotes = {g.id: _quoted(g, stages, out_root / g.id, ctx, digests[g.id]) for g in request.games}
    stale = [
        g
        for g in request.games
        if ctx.force or quotes[g.id] is None or not st.fresh(g, stages, out_root / g.id, ctx.sheets, digests[g.id])
    ]
    for g in request.games:
        if g not in stale:
            tell.up_to_date(g.id)
            report.reused += len(st.fresh_outputs(g, stages, out_root / g.id, ctx.sheets))
            report.warnings += quotes[g.id] or []
            tell.quoted(g.id, quotes[g.id] or [])
    with runtime.kept(lambda: _load(stale, report)) as loaded:
        if report.errors:
            return report
        for r, found in loaded:  # art the data names outside the game's folders joins the digests now
            digests[r.valid_game.id] = st.stage_digests(r.files, stages, ctx.sheets, ctx.snapshot)
            build_game(r, found, stages, out_root / r.valid_game.id, ctx, digests[r.valid_game.id], tell, report)
        _unstamp_changed(ctx, [r for r, _ in loaded], stages, out_root, tell)
    report.trimmed = trim(cache_folders(out_root), ctx.cache_budget, began, CLOCK_SLACK)
    return report


def cache_folders(out_root: Path) -> list[Path]:
    """The caches' folders in the build folder (`<build>/.cache/*`), never through a link."""
    base = out_root / ".cache"
    if base.is_symlink() or not base.is_dir():
        return []
    return sorted(p for p in base.iterdir() if p.is_dir() and not p.is_symlink())


def _refuse(reason: str | None, fault: bool) -> None:
    if reason:
        raise Refused(reason, fault)


def _load(games: Sequence[GameFiles], report: Report) -> list[tuple[LoadResult, list[Diagnostic]]]:
    """Load and check the games (each with its findings); with any error, the findings go into
    `report.errors` and none is built."""
    loaded = [load_checked(files) for files in games]
    found = [d for _, diags in loaded for d in diags]
    if has_errors(found):
        report.errors = found
        return []
    return loaded


def _quoted(
    files: GameFiles, stages: tuple[str, ...], dest: Path, ctx: BuildContext, digests: dict[str, str]
) -> list[Diagnostic] | None:
    """The warnings of a game's data and of its stages' drawing as its last build recorded them for exactly
    these inputs (None: no such record, so the game is loaded and checked again)."""
    data = findings.quoted(findings.data_record(dest), st.data_digest(files, ctx.snapshot))
    if data is None:
        return None
    drawn: list[Diagnostic] = []
    if "sheets" in stages:
        target = st.stage_target(files.id, "sheets", dest, ctx.sheets)
        found = findings.quoted(findings.stage_record(target), digests["sheets"])
        if found is None:
            return None
        drawn += found
    return findings.merged(data, drawn)


def build_game(
    r: LoadResult,
    found: Sequence[Diagnostic],
    stages: tuple[str, ...],
    dest: Path,
    ctx: BuildContext,
    digests: dict[str, str],
    tell: Listener,
    report: Report,
) -> None:
    """One loaded game's stages, each told to `tell` as it ends. `found`: the game's findings (`validate`'s,
    free of errors), whose warnings the report counts with the drawing's and a later build quotes."""
    data = findings.warnings_of(found)
    findings.keep(findings.data_record(dest), st.data_digest(r.files, ctx.snapshot), data)

    def work(stage: str, context: BuildContext) -> st.Outputs:
        return st.BUILDERS[stage](r, dest, context, digests[stage])

    drawn: list[Diagnostic] = []
    for outputs in _stages(stages, work, ctx, lambda stage: tell.stage(f"{r.valid_game.id}: {stage}")):
        drawn += outputs.warnings
        report.add(outputs)
        tell.outputs(outputs)
    report.warnings += findings.merged(data, drawn)


def _stages(stages: tuple[str, ...], work, ctx: BuildContext, show) -> Iterator[st.Outputs]:
    """work(stage, context) in order: several stages side by side when there are cores to share, else one
    after the other here."""
    if len(stages) > 1 and ctx.workers.processes > 1 and can_fork():
        for _stage, outputs in run_stages(stages, work, ctx, show):
            yield cast(st.Outputs, outputs)
        return
    for stage in stages:
        with show(stage) as progress:
            outputs = work(stage, ctx.for_stage(progress))
        yield outputs


def _unstamp_changed(
    ctx: BuildContext, loaded: list[LoadResult], stages: tuple[str, ...], out_root: Path, tell: Listener
) -> None:
    """A data file saved during the build: the outputs drawn from it may hold its older bytes, so their
    stamps go and the next build makes them again."""
    changed = set(ctx.snapshot.changed())
    if not changed:
        return
    for r in loaded:
        for stage in stages:
            if changed & set(st.stage_files(r.files, stage)):
                st.forget_stage(r.valid_game.id, stage, out_root / r.valid_game.id, ctx.sheets)
        if changed & set(st.stage_files(r.files, "module")):  # every data file: the findings may be of older bytes
            findings.forget(findings.data_record(out_root / r.valid_game.id))
    tell.changed(sorted(changed))
