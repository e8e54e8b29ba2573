"""Diagnostics as records (house style 7): what went wrong, where, and how to fix it.

Rendering lives in `diagnostics.format`; checks only ever yield these records, made by the catalogue's
constants (`codes.HW_STACK_001.at(message, loc)`), so that a code and its severity are written once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Loc(NamedTuple):
    """A position in a source file: 1-based line and column (0 when unknown), and where the value there ends
    when the loader knows it (`end_col` is the column just past its last character; 0 when unknown).

    A named tuple rather than a frozen dataclass: loading a large game makes one for every unit,
    hexside and counter it reads, and a tuple is built in C (same fields, order, hash and repr)."""

    file: str
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.col}"
        return self.file


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. `code` is stable once released; `rule` cites the rulebook section it enforces."""

    severity: Severity
    code: str
    message: str
    loc: Loc | None = None
    help: str = ""
    rule: str = ""
    path: tuple = ()
    related: tuple[Loc, ...] = field(default=())
    hex: str = ""

    @property
    def sort_key(self) -> tuple:
        loc = self.loc or Loc("")
        return (loc.file, loc.line, loc.col, self.code, self.message)


def has_errors(diags) -> bool:
    return any(d.severity is Severity.ERROR for d in diags)


def sorted_diagnostics(diags) -> list[Diagnostic]:
    return sorted(diags, key=lambda d: d.sort_key)
