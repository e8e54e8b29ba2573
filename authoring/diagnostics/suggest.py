"""'Did you mean' hints: the known name nearest a mistyped one."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


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
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def suggest(value: str, known: Iterable[str]) -> str:
    known = sorted(set(known))
    close = closest(value, known)
    if close:
        return f"did you mean {close!r}?"
    if len(known) <= 12:
        return f"known ids: {', '.join(known)}" if known else "none are declared"
    return f"{len(known)} ids are declared; check the spelling"
