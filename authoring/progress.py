"""One progress interface for every build stage.

A stage receives a `Progress` and calls exactly two methods on it: `advance(done, total)` when a
counted piece of work finishes, and `note(message)` for a one-line status. Stages never receive a
bare callable, so there is one signature to get right and mypy checks every call (see
tests/cli/test_progress_types.py). The CLI supplies a terminal bar or a plain line per stage;
library callers and tests use `SILENT` or a `Recorder`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class Progress:
    """Receives a stage's progress; the base class ignores it (a silent run)."""

    def advance(self, done: int, total: int) -> None:
        """`done` of `total` units of work are finished (0 <= done <= total)."""

    def note(self, message: str) -> None:
        """A one-line status such as "drawing maps"."""

    def steps(self, total: int) -> Steps:
        """A counter for a stage made of `total` named steps: each `next(message)` notes and advances."""
        return Steps(self, total)


SILENT = Progress()


@dataclass
class Steps:
    """Named steps of a stage, each reported as a note and one unit of progress."""

    progress: Progress
    total: int
    done: int = 0

    def next(self, message: str) -> None:
        self.progress.note(message)
        self.progress.advance(self.done, self.total)
        self.done = min(self.done + 1, self.total)

    def finish(self) -> None:
        self.done = self.total
        self.progress.advance(self.done, self.total)


@dataclass
class Recorder(Progress):
    """Keeps every report, for tests and for callers that print a summary afterwards."""

    notes: list[str] = field(default_factory=list)
    advances: list[tuple[int, int]] = field(default_factory=list)

    def advance(self, done: int, total: int) -> None:
        self.advances.append((done, total))

    def note(self, message: str) -> None:
        self.notes.append(message)
