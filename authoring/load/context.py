"""Shared helpers for resolving references: located errors with "did you mean" hints."""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable, Iterable

from authoring.diagnostics import Diagnostic, Loc, error
from authoring.diagnostics.limits import MAX_PER_FILE
from authoring.lengths import parse_length
from authoring.load.source import Source

MAX_ERRORS_PER_FILE = MAX_PER_FILE


def length_in(text: str | float | None, default: float) -> float:
    """A schema-checked length such as '0.625in', '5/8' or '16mm', in inches."""
    inches = parse_length(text) if text not in (None, "") else None
    return default if inches is None else inches


def closest(value: str, known: Iterable[str]) -> str | None:
    """The known value nearest `value` (letter case aside), or None when none is near: similar by difflib's
    ratio, or one typing slip away (a letter changed, added, dropped or two swapped: 'a5' -> 'a4', which
    the ratio of so short a word misses)."""
    by_fold = {k.casefold(): k for k in sorted(set(known), reverse=True)}
    folded = str(value).casefold()
    close = difflib.get_close_matches(folded, sorted(by_fold), n=1, cutoff=0.6)
    if not close:
        close = [k for k in sorted(by_fold) if _one_slip(folded, k)][:1]
    return by_fold[close[0]] if close else None


def _one_slip(a: str, b: str) -> bool:
    """True when `b` is `a` with one letter changed, added or dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def suggest(value: str, known: Iterable[str]) -> str:
    known = sorted(set(known))
    close = closest(value, known)
    if close:
        return f"did you mean {close!r}?"
    if len(known) <= 12:
        return f"known ids: {', '.join(known)}" if known else "none are declared"
    return f"{len(known)} ids are declared; check the spelling"


@dataclass
class Ctx:
    """Collects diagnostics while one file is resolved."""

    src: Source
    diags: list[Diagnostic] = field(default_factory=list)
    follow_on: Callable[[Diagnostic], bool] | None = None
    """Errors that only follow from another file's failure: left out, and not counted against the cap."""

    def loc(self, path: tuple) -> Loc:
        return self.src.loc(path)

    def error(self, code: str, message: str, path: tuple, help: str = "") -> None:
        """Record an error; past MAX_ERRORS_PER_FILE, one summary instead (a 10^6-hex list must not print 10^6 lines)."""
        if len(self.diags) > MAX_ERRORS_PER_FILE:
            return
        if self.follow_on is not None and self.follow_on(error(code, message)):
            return
        if len(self.diags) == MAX_ERRORS_PER_FILE:
            self.diags.append(error("HW-LIMIT-001", f"more than {MAX_ERRORS_PER_FILE} errors in this file; "
                                    "the rest are not shown", self.src.loc(()), help="fix the errors above first"))
            return
        self.diags.append(error(code, message, self.src.loc(path), help=help, path=path))

    def length(self, path: tuple, default: float, what: str, limits: tuple[float, float]) -> float:
        """The length at `path` in inches (`default` when absent); out of `limits` or unreadable, an error
        (HW-SIZE-001) and `default`, so that later checks still run."""
        from authoring.load.budget import length_problem
        value = self.src.data
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        problem = length_problem(value, what, limits)
        if problem:
            lo, hi = limits
            self.error("HW-SIZE-001", problem, path, help=f"write a length from {lo:g}in to {hi:g}in, e.g. '5/8in' or '16mm'")
            return default
        return length_in(value, default)

    def ref(self, value, known, what: str, path: tuple, code: str = "HW-REF-001") -> bool:
        """Check that `value` names one of `known`; report with a suggestion when it does not."""
        if value is None or str(value) in known:
            return True
        self.error(code, f"unknown {what} {str(value)!r}", path, help=suggest(str(value), known))
        return False
