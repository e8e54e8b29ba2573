"""Shared helpers for resolving references: located errors with "did you mean" hints."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from authoring.budget import length_problem
from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import HW_LIMIT_001, HW_REF_001, HW_SIZE_001, CodeInfo
from authoring.diagnostics.limits import MAX_PER_FILE
from authoring.diagnostics.suggest import suggest
from authoring.lengths import parse_length
from authoring.load.source import Source

MAX_ERRORS_PER_FILE = MAX_PER_FILE


def length_in(text: str | float | None, default: float) -> float:
    """A schema-checked length such as '0.625in', '5/8' or '16mm', in inches."""
    inches = parse_length(text) if text not in (None, "") else None
    return default if inches is None else inches


@dataclass
class Ctx:
    """Collects diagnostics while one file is resolved."""

    src: Source
    diags: list[Diagnostic] = field(default_factory=list)
    follow_on: Callable[[Diagnostic], bool] | None = None
    """Errors that only follow from another file's failure: left out, and not counted against the cap."""

    def loc(self, path: tuple) -> Loc:
        return self.src.loc(path)

    def error(self, code: CodeInfo, message: str, path: tuple, help: str = "") -> None:
        """Record an error; past MAX_ERRORS_PER_FILE, one summary instead (a 10^6-hex list must not print 10^6 lines)."""
        if len(self.diags) > MAX_ERRORS_PER_FILE:
            return
        if self.follow_on is not None and self.follow_on(code.at(message)):
            return
        if len(self.diags) == MAX_ERRORS_PER_FILE:
            self.diags.append(
                HW_LIMIT_001.at(
                    f"more than {MAX_ERRORS_PER_FILE} errors in this file; the rest are not shown",
                    self.src.loc(()),
                    help="fix the errors above first",
                )
            )
            return
        self.diags.append(code.at(message, self.src.loc(path), help=help, path=path))

    def length(self, path: tuple, default: float, what: str, limits: tuple[float, float]) -> float:
        """The length at `path` in inches (`default` when absent); out of `limits` or unreadable, an error
        (HW-SIZE-001) and `default`, so that later checks still run."""
        value = self.src.data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        problem = length_problem(value, what, limits)
        if problem:
            lo, hi = limits
            self.error(
                HW_SIZE_001, problem, path, help=f"write a length from {lo:g}in to {hi:g}in, e.g. '5/8in' or '16mm'"
            )
            return default
        return length_in(value, default)

    def ref(self, value, known, what: str, path: tuple, code: CodeInfo = HW_REF_001) -> bool:
        """Check that `value` names one of `known`; report with a suggestion when it does not."""
        if value is None or str(value) in known:
            return True
        self.error(code, f"unknown {what} {str(value)!r}", path, help=suggest(str(value), known))
        return False
