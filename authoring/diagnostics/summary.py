"""Repeated findings of one kind cut to the first few and one that counts the rest (issue 30: an imported
project's build printed 127 alike art warnings, a module's import thousands of per-piece ones).

A finding's kind is its code and its message with the quoted names and the numbers blanked, so
"'a.png' is 40 x 40 px" and "'b.png' is 52 x 52 px" are one kind.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from authoring.diagnostics.record import Diagnostic, Severity

SUMMARY_AFTER = 5
"""Findings of one kind shown one by one; past this many, the first SHOWN and a count."""
SHOWN = 3

_VARYING = re.compile(r"'[^']*'|\"[^\"]*\"|\d+")
T = TypeVar("T")


def kind(message: str) -> str:
    """The message with its quoted names and its numbers blanked."""
    return _VARYING.sub("_", message)


def cut(
    items: Iterable[T], key: Callable[[T], str], message: Callable[[T], str], counted: Callable[[T, str], T]
) -> list[T]:
    """`items` with each kind (`key`) of more than SUMMARY_AFTER cut to its first SHOWN and one item,
    `counted(next item, text)`, whose text counts the rest and quotes the next one's `message`."""
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    out: list[T] = []
    for group in groups.values():
        if len(group) <= SUMMARY_AFTER:
            out += group
            continue
        out += group[:SHOWN]
        nxt = group[SHOWN]
        out.append(
            counted(
                nxt, f"{len(group) - SHOWN} more like the {SHOWN} above ({len(group)} in all), the next: {message(nxt)}"
            )
        )
    return out


def summarised(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Warnings and notes of one code and kind cut as `cut` does; every error is kept."""
    return cut(
        diags,
        lambda d: d.code + "\0" + kind(d.message) if d.severity is not Severity.ERROR else str(id(d)),
        lambda d: d.message,
        lambda d, text: dataclasses.replace(d, message=text),
    )
