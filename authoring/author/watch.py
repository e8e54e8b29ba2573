"""`hexwright watch`: re-check and rebuild a game whenever one of its data files is saved.

Polls file modification times (stat of a few dozen files twice a second costs nothing) rather
than using OS notifications: no new dependency, and it behaves the same on every platform, on
network drives and with editors that save by writing a new file and renaming it over the old.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from authoring.diagnostics import Diagnostic, Severity, has_errors
from authoring.diagnostics.format import render_concise, render_full
from authoring.diagnostics.summary import summarised
from authoring.load import LoadResult, discover, load_game
from authoring.load.folders import game_files
from authoring.load.project import display
from authoring.load.reads import Reads
from authoring.pipeline import BuildContext, build_game, stage_digests
from authoring.pipeline.context import CACHE_BUDGET
from authoring.pipeline.run import CLOCK_SLACK, Listener, Report, cache_folders, output_lines
from authoring.products.store import trim
from authoring.progress import SILENT, Progress
from authoring.validate import findings

Emit = Callable[[str], None]
DATA_DIRS = ("scenarios", "maps", "counters")
ALL_STAGES = ("module", "sheets", "maps", "cards", "charts")
Snapshot = dict[Path, tuple[int, int]]


def scan(root: Path, games: tuple[str, ...] = ()) -> Snapshot:
    """(mtime_ns, size) of every file in the game folders of the project (or of the named games): data and
    art, and the files the load names as not read (HW-FILE-001), so that adding or removing one is a change."""
    out: Snapshot = {}
    for folder in DATA_DIRS:
        base = root / folder
        for gdir in sorted(base.iterdir()) if base.is_dir() else ():
            if not gdir.is_dir() or (games and gdir.name not in games):
                continue
            for p in game_files(gdir):
                try:
                    st = p.stat()
                except OSError:  # deleted since the folder was listed: the next scan sees it gone
                    continue
                out[p] = (st.st_mtime_ns, st.st_size)
    return out


def changed(old: Snapshot, new: Snapshot) -> list[Path]:
    """Files added, removed or modified between two scans, sorted."""
    return sorted(p for p in old.keys() | new.keys() if old.get(p) != new.get(p))


def stages_for(path: Path, root: Path) -> set[str]:
    """Which outputs a changed file can alter: the manifest feeds everything, tables only the charts."""
    folder = path.relative_to(root).parts[0]
    if folder == "maps":
        return {"maps", "module", "cards"}
    if folder == "counters":
        return {"sheets", "module", "cards"}
    if path.name == "game.yaml":
        return set(ALL_STAGES)
    if path.name == "tables.yaml":
        return {"charts", "module"}
    return {"module", "cards"}


@dataclass
class Cycle:
    """What one check-and-build round found and made."""

    changed: list[Path]
    diagnostics: list[Diagnostic]
    built: list[Path] = field(default_factory=list)
    new: int = 0
    fixed: int = 0

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@dataclass
class Watcher:
    """Holds the last scan and the last findings; `step` does one poll, `cycle` one check-and-build."""

    root: Path
    games: tuple[str, ...] = ()
    stages: tuple[str, ...] = ALL_STAGES
    out: Path | None = None
    emit: Emit = print
    build: bool = True
    snapshot: Snapshot = field(default_factory=dict)
    previous: set = field(default_factory=set)
    cache_budget: int = CACHE_BUDGET
    """Bytes the build folder's caches keep after each round's build (`products.store.trim`)."""
    reads: Reads = field(default_factory=Reads)
    """The files read by each game's last check: a save parses only the files it changed."""

    def start(self) -> Cycle:
        """The first round: check and build everything (outputs that are up to date are reused)."""
        self.snapshot = scan(self.root, self.games)
        return self.cycle([], set(self.stages))

    def step(self) -> Cycle | None:
        """Poll once; when files changed, re-check and rebuild what they feed."""
        new = scan(self.root, self.games)
        paths = changed(self.snapshot, new)
        self.snapshot = new
        if not paths:
            return None
        wanted = set().union(*(stages_for(p, self.root) for p in paths)) & set(self.stages)
        return self.cycle(paths, wanted)

    def cycle(self, paths: list[Path], wanted: set[str]) -> Cycle:
        for p in paths:
            self.emit(f"changed: {display(p)}" + ("" if p.exists() else " (deleted)"))
        per_game = self.check()
        diags = [d for _, found in per_game for d in found]
        report = Cycle(paths, diags)
        keys = {(d.code, d.message, str(d.loc)) for d in diags if d.severity is not Severity.INFO}
        report.new, report.fixed = len(keys - self.previous), len(self.previous - keys)
        self.previous = keys
        self._report(report, first=not paths)
        if self.build and wanted:
            self._build_all(per_game, wanted, report)
        return report

    def check(self) -> list[tuple[LoadResult, list[Diagnostic]]]:
        """Each watched game loaded, with its loader and rules-engine findings."""
        out = []
        for files in discover(self.root):
            if self.games and files.id not in self.games:
                continue
            r = load_game(files, reads=self.reads)
            out.append((r, findings(r)))
        return out

    def _report(self, c: Cycle, first: bool) -> None:
        if c.diagnostics:
            self.emit(render_full(c.diagnostics))
        else:
            self.emit("All checks passed.")
        if not first:
            self.emit(f"({c.new} new, {c.fixed} fixed since the last check)")

    def _build_all(self, per_game: list[tuple[LoadResult, list[Diagnostic]]], wanted: set[str], c: Cycle) -> None:
        """Build what the saved files feed, told as `build` tells it, and close with its summary line."""
        began = time.time()
        out = self.out or self.root / "build"
        report = Report(games=len(per_game))
        for r, found in per_game:
            c.built += self._build(r, found, wanted, out, report)
        drawn = [d for d in report.warnings if d not in c.diagnostics]  # the check above listed the others
        if drawn:
            self.emit(render_concise(summarised(drawn), drawn))
        report.trimmed = trim(cache_folders(out), self.cache_budget, began, CLOCK_SLACK)
        self.emit(report.line())

    def _build(
        self, result: LoadResult, found: list[Diagnostic], wanted: set[str], out: Path, report: Report
    ) -> list[Path]:
        """One game's stages (`build.build_game`, as `hexwright build` runs them); the files whose bytes changed."""
        if has_errors(found):
            self.emit(f"{result.files.id}: nothing rebuilt until the errors above are fixed")
            return []

        stages = tuple(s for s in ALL_STAGES if s in wanted)
        ctx = BuildContext()
        told = _Told(self.emit)
        try:
            digests = stage_digests(result.files, stages, ctx.sheets, ctx.snapshot)
            build_game(result, found, stages, out / result.files.id, ctx, digests, told, report)
        except Exception as exc:  # noqa: BLE001 - a failed build must not stop the watcher
            self.emit(f"{result.files.id}: build failed: {type(exc).__name__}: {exc}")
        return told.written

    def run(self, interval: float = 0.5, rounds: int | None = None) -> None:
        """Poll until interrupted (or for `rounds` polls); waits for a save to settle before checking."""
        self.start()
        self.emit(f"watching {display(self.root)} for changes (Ctrl-C to stop)")
        n = 0
        while rounds is None or n < rounds:
            time.sleep(interval)
            n += 1
            if changed(self.snapshot, scan(self.root, self.games)):
                time.sleep(min(interval, 0.2))  # let an editor finish writing
                self.step()


class _Told(Listener):
    """A watch round's build told as `hexwright build` tells it: a line per stage, then the files it wrote."""

    def __init__(self, emit: Emit) -> None:
        self.emit, self.written = emit, []

    @contextmanager
    def stage(self, label: str) -> Iterator[Progress]:
        self.emit(label)
        yield SILENT

    def outputs(self, outputs) -> None:
        self.written += list(outputs.written)
        for line in output_lines(outputs, lambda p: display(Path(p))):
            self.emit(line)
