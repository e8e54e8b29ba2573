"""`BuildContext`: everything a build's stages share, made once by `build.run` and passed down as an argument.

One `--jobs` value becomes `workers` here (how many forked workers a stage draws with); when the stages run
side by side (`side_by_side.run_stages`) each stage's context also carries the build's job tokens and the
stages beside it, so the module stage can take the set-up card pages the cards stage draws. Nothing below
the build asks about other stages: what a stage needs from another is handed to it from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from multiprocessing.synchronize import Event
from types import MappingProxyType

from authoring.products.stamps import Snapshot
from authoring.progress import SILENT, Progress
from authoring.workers import Tokens, Workers


@dataclass(frozen=True)
class SheetSettings:
    paper: str = "letter"
    counter_in: float | None = None  # default: the game's counter size
    bleed_mm: float = 1.5
    bleed_outer_only: bool = False
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    duplex: str = "long"
    cut_marks: str = "both"
    cut_lines: bool = False
    dpi: int = 300


CACHE_BUDGET = 2 << 30
"""Bytes the build folder's caches (`<build>/.cache`) may hold after a build before the least recently used
entries go: about a dozen full builds of a three-map game."""


@dataclass(frozen=True)
class BuildContext:
    """What the stages of one build share: the options, the workers a stage draws with (one `--jobs`
    value), the snapshot of the inputs the stamps speak for, the stage's progress, and the stages running
    beside this one (stage -> an event set when it ends; empty when the stages run one after another)."""

    sheets: SheetSettings = field(default_factory=SheetSettings)
    force: bool = False
    workers: Workers = field(default_factory=Workers.for_jobs)
    snapshot: Snapshot = field(default_factory=Snapshot)
    progress: Progress = SILENT
    beside: Mapping[str, Event] = field(default_factory=lambda: MappingProxyType({}))
    cache_budget: int = CACHE_BUDGET
    """Bytes the caches keep after the build (`products.store.trim`)."""

    @classmethod
    def of(
        cls, jobs: int = 0, force: bool = False, sheets: SheetSettings | None = None, cache_budget: int | None = None
    ) -> BuildContext:
        budget = CACHE_BUDGET if cache_budget is None else cache_budget
        return cls(sheets or SheetSettings(), force, Workers.for_jobs(jobs), cache_budget=budget)

    def for_stage(self, progress: Progress) -> BuildContext:
        return replace(self, progress=progress)

    def side_by_side(self, tokens: Tokens, ended: Mapping[str, Event]) -> BuildContext:
        """This context for a stage running beside `ended`'s stages, its jobs sharing `tokens`."""
        return replace(self, workers=Workers(self.workers.processes, tokens), beside=MappingProxyType(dict(ended)))

    def waiter(self, stage: str) -> Callable[[], object] | None:
        """Waits until `stage`, running beside this one, has ended; None when it is not running beside it."""
        ended = self.beside.get(stage)
        return None if ended is None else ended.wait
