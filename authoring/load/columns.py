"""Spreadsheet columns matched to the names a file kind expects, as people actually save them.

Header names match whatever their case and spacing (`Set-up code`, `SETUP_CODE` and `setup_code`
are one column). Mistakes in the header row are reported once, at the header cell, never once per
row; a file whose first row is data is told so. Number cells that are not numbers are refused at
the cell with the type the column holds, and left out so that no second finding echoes them.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cache

from authoring.diagnostics import Diagnostic, Loc, Severity
from authoring.diagnostics.codes import HW_CSV_003, HW_CSV_005, HW_CSV_006, HW_CSV_007, HW_CSV_009
from authoring.diagnostics.limits import MAX_PER_FILE
from authoring.diagnostics.limits import summary as limit_summary
from authoring.load.cells import CsvCells, SheetCells, cell_problem
from authoring.load.resolve_counters import rows_to_counters
from authoring.load.schemas import counter_properties
from authoring.load.source import Source

_INT = re.compile(r"[-+]?[0-9]+\Z")
_NUMBER = re.compile(r"[-+]?([0-9]+([.,][0-9]*)?|[.,][0-9]+)\Z")  # 0.5, or 0,5 as many locales write it
_PRINTED = re.compile(r"[^A-Za-z]*\Z")  # 4, 3*, (2), [5], *, -: a printed value has no words in it


@dataclass(frozen=True)
class Columns:
    """What one kind of CSV file holds."""

    what: str  # "a counters CSV", for messages
    known: tuple[str, ...]  # the column names, as documented
    required: tuple[str, ...]
    integers: tuple[str, ...] = ()  # whole-number columns
    numbers: tuple[str, ...] = ()  # number columns
    face_values: bool = False  # STATE.VALUE columns (a counter face's printed values)
    face_fields: tuple[str, ...] = ()  # STATE.FIELD columns that are not values (a face's art)

    @property
    def example(self) -> str:
        extra = ("full.attack", "full.movement") if self.face_values else ()
        return ",".join((*self.required, *(k for k in self.known if k not in self.required), *extra)[:6])


def canonical(name: str) -> str:
    """A header name as compared: case, spaces, hyphens and underscores do not count."""
    return re.sub(r"[^a-z0-9.]", "", name.lower())


@cache
def counter_columns() -> Columns:
    """The counters CSV: one column per counter field of the counters schema (faces as STATE.VALUE).
    Process-wide: frozen, made from the bundled schema, which no process writes."""
    props = counter_properties()
    fields = tuple(k for k in props if k != "faces")
    face = props["faces"]["items"]["properties"]
    return Columns(
        "a counters CSV",
        fields,
        ("id",),
        integers=tuple(k for k in fields if props[k].get("type") == "integer"),
        numbers=tuple(k for k in fields if props[k].get("type") == "number"),
        face_values=True,
        face_fields=tuple(k for k in face if k not in ("state", "values")),
    )


CARD_COLUMNS = Columns("a set-up card CSV", ("hex", "unit", "state", "note"), ("hex", "unit"))


def conform(src: Source, spec: Columns, counters: bool = False) -> tuple[Source | None, list[Diagnostic]]:
    """`src` with its columns renamed to the expected names, and the findings; None when the
    header itself is wrong (every row would repeat the same mistake). With `counters`, the rows
    go straight into the YAML counters shape (`resolve_counters.rows_to_counters`), in one pass."""
    names = {canonical(k): k for k in spec.known}
    matched = [(raw, _match(raw, names, spec), col) for raw, col in src.header]
    if not any(new for _raw, new, _col in matched):
        cells = ", ".join(repr(raw) for raw, _new, _col in matched[:4])
        return None, [
            HW_CSV_005.at(
                f"the first row is not a header row: none of {cells} is a column name",
                Loc(src.path, src.header_line, 1),
                help=f"{spec.what} starts with a row of column names, for example `{spec.example}`",
            )
        ]
    diags = _header_findings(src, matched, spec)
    if diags:
        return None, diags
    rename = {raw: new for raw, new, _col in matched if new is not None}  # every column, once it has no finding
    rules = {raw: (new, _cell_rule(new, spec)) for raw, new in rename.items()}  # once per column, not per cell
    if counters:
        return rows_to_counters(src, rules, diags), diags
    return _renamed(src, rename, rules, diags), diags


def _match(raw: str, names: dict[str, str], spec: Columns) -> str | None:
    if canonical(raw) in names:
        return names[canonical(raw)]
    if spec.face_values and raw.count(".") == 1 and all(part.strip() for part in raw.split(".")):
        state, value = (re.sub(r"[\s-]+", "_", part.strip().lower()) for part in raw.split("."))
        return f"{state}.{value}"
    return None


def _header_findings(src: Source, matched: list[tuple[str, str | None, int]], spec: Columns) -> list[Diagnostic]:
    present = {new for _raw, new, _col in matched if new}
    missing = [k for k in spec.required if k not in present]
    diags: list[Diagnostic] = []
    suggested: set[str | None] = set()
    seen: dict[str, str] = {}
    for number, (raw, new, col) in enumerate(matched, 1):
        if len(diags) == MAX_PER_FILE:  # a header of 20,000 unknown columns: 200 findings and their count
            rest = sum(1 for raw, new, _col in matched[number - 1 :] if not raw or new is None or new in seen)
            if rest:
                diags.append(limit_summary(Severity.ERROR, Loc(src.path, src.header_line, col), rest))
            break
        if not raw:
            diags.append(
                HW_CSV_009.at(
                    f"the header row has no name in column {number}",
                    Loc(src.path, src.header_line, col),
                    help="write the column's name, or delete the column if it is not needed (its cells go with it)",
                )
            )
        elif new is None:
            pool = missing + [k for k in spec.known if k not in present and k not in missing]
            close = difflib.get_close_matches(canonical(raw), [canonical(k) for k in pool], n=1, cutoff=0.5)
            guess = next((k for k in pool if canonical(k) in close), None)
            suggested.add(guess)
            hint = (
                f"did you mean {guess!r}?"
                if guess
                else f"the columns are: {', '.join(spec.known)}"
                + (", and STATE.VALUE for each face's printed values" if spec.face_values else "")
            )
            diags.append(
                HW_CSV_006.at(
                    f"unknown column {raw!r} in the header row", Loc(src.path, src.header_line, col), help=hint
                )
            )
        elif new in seen:
            diags.append(
                HW_CSV_003.at(
                    f"column {raw!r} repeats column {seen[new]!r}",
                    Loc(src.path, src.header_line, col),
                    help="each column may appear once (names match whatever their case and spacing)",
                )
            )
        else:
            seen[new] = raw
    diags += [
        HW_CSV_007.at(
            f"the header row has no {k!r} column",
            Loc(src.path, src.header_line, 1),
            help=f"{spec.what} needs the columns {', '.join(spec.required)}",
        )
        for k in missing
        if k not in suggested
    ]
    if spec.face_values and not diags and not any(new and "." in new for _raw, new, _col in matched):
        diags.append(
            HW_CSV_007.at(
                "the header row has no face columns, so no counter has a face",
                Loc(src.path, src.header_line, 1),
                help="add a column STATE.VALUE for each printed value of each face, "
                "such as full.attack and full.movement",
            )
        )
    return diags


def _renamed(src: Source, rename: dict[str, str], rules: dict, diags: list[Diagnostic]) -> Source:
    header = tuple((rename[raw], col) for raw, col in src.header)
    assert isinstance(src.locs, CsvCells | SheetCells)  # rows as `parse_csv` or `parse_workbook` reads them
    names = [name for name, _col in header]
    out = Source(src.path, [], src.locs.renamed(names), {}, header, header_line=src.header_line, sheet=src.sheet)
    for i, row in enumerate(src.data):
        record = {}
        for raw, cell in row.items():
            name, rule = rules[raw]
            if rule is not None and not rule[0].match(cell):
                diags.append(cell_problem(src.path, src.locs[(i, raw)], name, cell, rule))
                continue
            record[name] = cell
        out.data.append(record)
    return out


def _cell_rule(name: str, spec: Columns) -> tuple[re.Pattern, str, str] | None:
    """What every cell of column `name` must match, what it then is, and the hint when it does not."""
    if name in spec.integers:
        return _INT, "a whole number", f"the {name!r} column holds whole numbers, such as 1 or 12"
    if name in spec.numbers:
        return _NUMBER, "a number", f"the {name!r} column holds numbers, such as 1 or 0.5 (or 0,5)"
    if spec.face_values and "." in name and name.split(".", 1)[1] not in spec.face_fields:
        return _PRINTED, "a number", "face values are numbers (4) or marks without words, such as '*', '(2)' or '3*'"
    return None
