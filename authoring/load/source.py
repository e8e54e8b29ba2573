"""Read YAML and CSV into plain data plus a map from JSON path to source position.

PyYAML's libyaml composer gives nodes with line/column marks; we build Python values from
those nodes ourselves so that: duplicate keys are errors (never last-one-wins), hex ids such as
0201 stay strings (YAML 1.1 would read them as octal), `yes`/`no` stay strings, and alias bombs
and deep nesting are refused with a clear error instead of exhausting memory.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeAlias

import yaml

from authoring.diagnostics import Diagnostic, Loc
from authoring.diagnostics.codes import (
    HW_CSV_001,
    HW_CSV_002,
    HW_CSV_004,
    HW_IO_001,
    HW_IO_002,
    HW_IO_003,
    HW_IO_004,
    HW_TEXT_001,
    HW_TEXT_002,
    HW_TEXT_003,
    HW_YAML_001,
    HW_YAML_002,
    HW_YAML_003,
    HW_YAML_005,
    HW_YAML_006,
    HW_YAML_007,
    HW_YAML_008,
    HW_YAML_009,
    HW_YAML_010,
    CodeInfo,
)
from authoring.load.cells import CsvCells, SheetCells, cell_starts
from authoring.load.nodes import KeyPositions, NodeTree, ValuePositions
from authoring.readfile import MAX_INPUT_BYTES, FileRefused, read_limited
from authoring.textcodec import Decoded, DecodeError, decode, describe, is_sheet
from authoring.workbooks import WorkbookError, is_workbook, read_sheet

MAX_FILE_BYTES = MAX_INPUT_BYTES
MAX_DEPTH = 64
MAX_NODES = 1_000_000
MAX_INT_DIGITS = 18
MAX_TEXT = 10_000
"""Longest text of any value (the schema sets tighter limits per field: 100 printed, 200 names, 4,000 notes)."""
PRESCAN_BYTES = 256 * 1024  # larger files (and any with anchors) are counted before they are composed

if TYPE_CHECKING:  # one class to the checker; at run time libyaml's, where PyYAML was built with it
    _Base: TypeAlias = yaml.SafeLoader
else:
    _Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_KIND_TAGS = MappingProxyType(
    {
        yaml.ScalarNode: "tag:yaml.org,2002:str",
        yaml.SequenceNode: "tag:yaml.org,2002:seq",
        yaml.MappingNode: "tag:yaml.org,2002:map",
    }
)


class _Loader(_Base):
    """libyaml's parser and composer without YAML 1.1 implicit typing: `_scalar` types plain
    scalars itself (0201 stays a string, `yes` is not true), so guessing tags is wasted work."""

    def resolve(self, kind, value, implicit):
        return _KIND_TAGS[kind]

    # The composer calls these two around every node, for YAML path resolvers, which we never
    # register: a C callable that ignores its arguments saves two Python calls a node.
    descend_resolver = staticmethod(slice)  # slice(parent, index): any two objects, no effect
    ascend_resolver = staticmethod(tuple)  # tuple(): no arguments, no effect


_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)\Z")
_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\Z")
_NULL = frozenset({"", "~", "null", "Null", "NULL"})
_BOOL = MappingProxyType({"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False})
_STR = "tag:yaml.org,2002:str"
_TYPED_START = frozenset("0123456789+-.~nNtTfF")
"""First characters of every plain scalar `_scalar` may type (null, bool, int, float): any other stays text."""
_new_loc = tuple.__new__
"""`_new_loc(Loc, (file, line, col, end_line, end_col))`: a Loc built in C, without the named tuple's Python `__new__`
(a large game makes one for each of its units)."""
_STD_TAGS = frozenset(
    {
        f"tag:yaml.org,2002:{t}"
        for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "merge", "value", "yaml")
    }
)


@dataclass
class Source:
    """A parsed file: its data and the positions of every value (and of mapping keys)."""

    path: str
    data: Any
    """The values as YAML or CSV gave them (dicts, lists, text, numbers, booleans, None). `Any`, since their shape
    is the schema's of the file's kind: validation proves it before a resolver reads them."""
    locs: Mapping[tuple, tuple[int, int]] = field(
        default_factory=dict
    )  # YAML: `nodes.ValuePositions`; CSV: `cells.CsvCells`
    key_locs: Mapping[tuple, tuple[int, int]] = field(default_factory=dict)  # YAML: `nodes.KeyPositions`
    header: tuple[tuple[str, int], ...] = ()  # a CSV file's column names and their 1-based columns
    header_line: int = 1  # the line (a workbook's row) of that header
    sheet: str = ""  # a workbook's: the name of the sheet read
    text_paths: tuple[tuple, ...] | None = None  # YAML: the values `text_problems` must report (None: look at all)
    notes: tuple[Diagnostic, ...] = ()  # how the file was read (HW-IO-004: in a code page, not UTF-8)

    def loc(self, path: tuple = ()) -> Loc:
        """Position of the value at `path` (with where it ends, in YAML), or of its nearest located ancestor."""
        if type(path) is tuple:  # the common case: one lookup
            span = getattr(self.locs, "span", None)
            found = span(path) if span is not None else self.locs.get(path)
            if found is not None:
                return _new_loc(Loc, (self.path, *found, 0, 0)[:5])
        path = tuple(path)
        while path and path not in self.locs:
            path = path[:-1]
        line, col = self.locs.get(path, (1, 1))
        return Loc(self.path, line, col)

    def item_locs(self, path: tuple, n: int) -> tuple[Loc, ...]:
        """Positions of the `n` items of the list at `path`, in one call: a scenario asks for every unit's."""
        items_of = getattr(self.locs, "items_of", None)
        found = items_of(path, n) if items_of else [self.locs.get(path + (j,)) for j in range(n)]
        file = (self.path,)
        return tuple(
            _new_loc(Loc, file + pos + (0, 0)) if pos is not None else self.loc(path + (j,))
            for j, pos in enumerate(found)
        )

    def key_loc(self, path: tuple) -> Loc:
        """Position of the mapping key that ends `path`: a CSV cell's key is its column's name in the
        header row (kept once, not once a cell); else the value's position."""
        found = self.key_locs.get(tuple(path))
        if found is None and self.header and path:
            found = next(((self.header_line, col) for name, col in self.header if name == path[-1]), None)
        if found is not None:
            return Loc(self.path, found[0], found[1])
        return self.loc(path)


class SourceError(Exception):
    def __init__(self, diag: Diagnostic):
        super().__init__(diag.message)
        self.diag = diag


def read_bytes(path: Path, display: str) -> bytes:
    """A data file's bytes; an oversized file, or one that is no regular file or cannot be read, is a
    located error (SourceError)."""
    try:
        return read_limited(path, MAX_FILE_BYTES)
    except FileRefused as exc:
        if exc.too_big:
            raise SourceError(
                HW_IO_002.at(
                    str(exc),
                    Loc(display, 1, 1),
                    help="split the data into several files (for example one counters file per side)",
                )
            ) from None
        raise SourceError(
            HW_IO_001.at(
                f"cannot read file: it {exc}",
                Loc(display),
                help="name a data file saved by an editor or spreadsheet",
            )
        ) from None
    except OSError as exc:
        raise SourceError(HW_IO_001.at(f"cannot read file: {exc.strerror}", Loc(display))) from None


def decode_text(raw: bytes, display: str, legacy: bool = False) -> tuple[str, tuple[Diagnostic, ...]]:
    """A file's text and the notes on how it was read, refusing undecodable bytes with a located error.
    YAML files are UTF-8 (a byte-order mark allowed); with `legacy` (CSV files, as spreadsheets save them)
    UTF-16 and UTF-32 with a byte-order mark and the Windows-1252 and Mac Roman code pages are read too, a
    code page with a note that says so (`authoring.textcodec`)."""
    try:
        found = decode(raw, legacy)
    except DecodeError as exc:
        line = raw.count(b"\n", 0, exc.offset) + 1
        col = exc.offset - (raw.rfind(b"\n", 0, exc.offset) + 1) + 1
        raise SourceError(HW_IO_003.at(str(exc), Loc(display, line, col), help="save the file as UTF-8")) from None
    if found.encoding != "utf-8" and not legacy:
        raise SourceError(
            HW_IO_003.at(
                f"file is {describe(found.encoding)}, not UTF-8",
                Loc(display, 1, 1),
                help="save the file as UTF-8 (hexwright reads YAML files as UTF-8)",
            )
        )
    return found.text, _legacy_note(found, raw, display)


SAVE_AS_UTF8 = (
    "check its accented letters, or save it as UTF-8 to be sure: Excel, Save As 'CSV UTF-8 (Comma "
    "delimited)'; LibreOffice, Save As Text CSV with 'Edit filter settings' and character set 'Unicode "
    "(UTF-8)'; Numbers, Export To CSV with text encoding 'Unicode (UTF-8)'"
)


def _legacy_note(found: Decoded, raw: bytes, display: str) -> tuple[Diagnostic, ...]:
    """HW-IO-004 (a note, not an error): the file was read in a code page, located at its first non-UTF-8 byte."""
    if found.legacy_at is None:
        return ()
    at = found.legacy_at  # one byte, one character in a code page
    before = re.split(r"\r\n|\r|\n", found.text[:at])
    loc = Loc(display, len(before), len(before[-1]) + 1)
    return (
        HW_IO_004.at(
            f"read as {describe(found.encoding)}, since the file is not UTF-8: byte 0x{raw[at]:02x} "
            f"is taken for {found.text[at]!r}",
            loc,
            help=SAVE_AS_UTF8,
        ),
    )


def _prescan(text: str, display: str) -> None:
    """Refuse a document of more than MAX_NODES values (aliases expanded) before composing it.

    Composing holds every node in memory (~300 bytes each) and expanding an alias bomb takes
    seconds; counting parser events takes constant memory and multiplies alias sizes instead."""
    sizes: dict[str, int] = {}
    stack: list[list] = []  # open collections: [anchor, values inside, is mapping, next node is a key]
    total = 0
    for ev in yaml.parse(text, Loader=_Loader):
        if isinstance(ev, yaml.CollectionEndEvent):
            anchor, n = stack.pop()[:2]
            if anchor:
                sizes[anchor] = n
            if stack:
                stack[-1][1] += n
            continue
        if not isinstance(ev, (yaml.ScalarEvent, yaml.AliasEvent, yaml.CollectionStartEvent)):
            continue
        key = bool(stack) and stack[-1][2] and stack[-1][3]
        if stack and stack[-1][2]:
            stack[-1][3] = not stack[-1][3]
        n = sizes.get(ev.anchor, 1) if isinstance(ev, yaml.AliasEvent) else int(not key)
        if isinstance(ev, yaml.CollectionStartEvent):
            stack.append([ev.anchor, n, isinstance(ev, yaml.MappingStartEvent), True])
        else:
            if isinstance(ev, yaml.ScalarEvent) and ev.anchor:
                sizes[ev.anchor] = n
            if stack:
                stack[-1][1] += n
        total += n
        if total > MAX_NODES:
            loc = Loc(display, ev.start_mark.line + 1, ev.start_mark.column + 1)
            raise SourceError(
                HW_YAML_005.at(
                    f"document has more than {MAX_NODES:,} values (aliases expanded)",
                    loc,
                    help="split the data into several files, or remove repeated YAML aliases",
                )
            )


def _tab_at(text: str, mark) -> bool:
    """Whether the parser stopped on a tab in a line's indentation (or just before the mark)."""
    if mark is None:
        return False
    lines = text.splitlines()
    if mark.line >= len(lines):
        return False
    line = lines[mark.line]
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    return "\t" in indent or line[mark.column : mark.column + 1] == "\t"


def compose(text: str) -> yaml.Node | None:
    """The node tree of YAML `text` hexwright itself wrote, composed by libyaml without YAML 1.1 implicit
    typing (`_Loader`): a million-scalar file in seconds, where PyYAML's resolver takes minutes."""
    return yaml.compose(text, Loader=_Loader)


def parse_yaml(text: str, display: str) -> Source:
    try:
        if len(text) > PRESCAN_BYTES or "&" in text:
            _prescan(text, display)
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = exc.problem or exc.context or "invalid YAML"
        if _tab_at(text, mark):
            raise SourceError(
                HW_YAML_010.at(
                    "tab character: YAML indents with spaces",
                    Loc(display, line, col),
                    help="replace the tab with spaces (set your editor to insert spaces for Tab)",
                )
            ) from None
        raise SourceError(
            HW_YAML_001.at(
                f"YAML syntax error: {problem}",
                Loc(display, line, col),
                help="check indentation, colons and quotes on this line",
            )
        ) from None
    except yaml.YAMLError as exc:
        raise SourceError(HW_YAML_001.at(f"YAML error: {exc}", Loc(display, 1, 1))) from None
    if node is None:
        raise SourceError(
            HW_YAML_002.at(
                "file is empty",
                Loc(display, 1, 1),
                help="a data file starts with `kind:` (game, map, counters, tables, scenario, setup-card)",
            )
        )
    builder = _Builder(display, suspect=_RAW_SUSPECT.search(text) is not None, long=len(text) > MAX_TEXT)
    data = builder.build(node, 0)
    tree = NodeTree(node)
    text_paths = tuple(path for path, n in tree.walk() if n in builder.flagged) if builder.flagged else ()
    return Source(display, data, ValuePositions(tree), KeyPositions(tree), text_paths=text_paths)


class _Builder:
    """Python values from composed nodes, refusing what `parse_yaml` promises to refuse. Positions
    are not copied: `nodes.ValuePositions` reads them off the same nodes when asked."""

    def __init__(self, display: str, suspect: bool = True, long: bool = True):
        self.display = display
        self.suspect, self.long = suspect, long  # what the raw text allows (see `text_problems`)
        self.flagged: set[yaml.Node] = set()  # values `text_problems` must report
        self.count = 0

    def _fail(self, code: CodeInfo, message: str, node, help: str = "") -> None:
        start, end = node.start_mark, node.end_mark
        loc = Loc(self.display, start.line + 1, start.column + 1, end.line + 1, end.column + 1)
        raise SourceError(code.at(message, loc, help=help))

    def build(self, node, depth: int):
        self.count += 1
        if self.count > MAX_NODES:
            self._fail(
                HW_YAML_005,
                f"document expands to more than {MAX_NODES:,} values (alias bomb?)",
                node,
                help="remove recursive or heavily repeated YAML aliases",
            )
        if depth > MAX_DEPTH:
            self._fail(HW_YAML_006, f"document is nested deeper than {MAX_DEPTH} levels", node)
        if node.tag not in _STD_TAGS:
            self._fail(HW_YAML_007, f"unsupported YAML tag {node.tag!r}", node, help="remove the tag")
        if isinstance(node, yaml.ScalarNode):
            v = node.value
            if (self.long and len(v) > MAX_TEXT) or (self.suspect and _BAD_TEXT.search(v)):
                self.flagged.add(node)
            return _scalar(node)
        if isinstance(node, yaml.SequenceNode):
            return self._sequence(node, depth)
        return self._mapping(node, depth)

    def _plain(self, node) -> bool:
        """Whether `node` is a plain string value that `_inline` may build (most values of a data file:
        hex ids, unit ids); a call per value through `build` cost as much as the rest of building it."""
        return type(node) is yaml.ScalarNode and node.tag == _STR and self.count < MAX_NODES

    def _inline(self, node):
        """`build` of a `_plain` node at an allowed depth: the same checks, in the same order."""
        self.count += 1
        v = node.value
        if (self.long and len(v) > MAX_TEXT) or (self.suspect and _BAD_TEXT.search(v)):
            self.flagged.add(node)
        return v if node.style or (v and v[0] not in _TYPED_START) else _scalar(node)

    def _sequence(self, node, depth: int) -> list:
        """Items of a list; `_plain` and `_inline` written out in the loop (a list of hex or unit ids
        builds in 2/3 of the time without the two calls an item)."""
        depth += 1
        if depth > MAX_DEPTH:
            return [self.build(child, depth) for child in node.value]
        out = []
        long, suspect, flagged = self.long, self.suspect, self.flagged
        for child in node.value:
            if type(child) is yaml.ScalarNode and child.tag == _STR and self.count < MAX_NODES:
                self.count += 1
                v = child.value
                if (long and len(v) > MAX_TEXT) or (suspect and _BAD_TEXT.search(v)):
                    flagged.add(child)
                out.append(v if child.style or (v and v[0] not in _TYPED_START) else _scalar(child))
            else:
                out.append(self.build(child, depth))
        return out

    def _mapping(self, node, depth: int) -> dict:
        out: dict = {}
        depth += 1
        inline = depth <= MAX_DEPTH
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self._fail(HW_YAML_008, "mapping keys must be plain scalars", key_node)
            if key_node.tag == "tag:yaml.org,2002:merge" or (key_node.value == "<<" and not key_node.style):
                self._fail(
                    HW_YAML_009,
                    "YAML merge keys (<<) are not supported",
                    key_node,
                    help="write the fields out, or use the counters CSV form for repeated values",
                )
            key = key_node.value
            if key in out:
                first = next(k for k, _v in node.value if k.value == key)
                self._fail(
                    HW_YAML_003,
                    f"duplicate key {key!r} (first defined at line {first.start_mark.line + 1})",
                    key_node,
                    help="remove or rename one of the two; hexwright never keeps the last one silently",
                )
            out[key] = self._inline(value_node) if inline and self._plain(value_node) else self.build(value_node, depth)
        return out


def _scalar(node: yaml.ScalarNode):
    value = node.value
    if node.style:  # quoted or block scalar: always a string
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if _INT.match(value):  # past 18 digits a float, so that the schema's range check reports it (no int() blow-up)
        return int(value) if len(value) <= MAX_INT_DIGITS else float(value)
    if _FLOAT.match(value):
        return float(value)
    return value


DELIMITERS = ",;\t"
"""What spreadsheets write: comma (English locales), semicolon (locales with a decimal comma), tab."""


def sniff_delimiter(first_line: str) -> str:
    """The delimiter of a CSV file from its header line: the candidate that splits it most, outside quotes."""
    counts, quoted = dict.fromkeys(DELIMITERS, 0), False
    for ch in first_line:
        if ch == '"':
            quoted = not quoted
        elif ch in counts and not quoted:
            counts[ch] += 1
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def parse_csv(text: str, display: str) -> Source:
    """CSV as a list of row dicts; locations are file:line:column of each cell (line 1 is the header).

    Reads what spreadsheets save: comma, semicolon or tab separated (sniffed from the header line),
    with or without a UTF-8 byte-order mark, LF, CRLF or CR line ends; empty cells after the last
    named column (a deleted column's) and empty rows are left out. Column names are kept as written
    (trimmed); `authoring.load.columns` matches them to the expected names and reports duplicates."""
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    delimiter = sniff_delimiter(lines[0] if lines else "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    try:
        prev = 0
        for row in reader:
            rows.append((prev + 1, row))  # physical line where the row starts
            prev = reader.line_num
    except csv.Error as exc:
        raise SourceError(HW_CSV_001.at(f"CSV syntax error: {exc}", Loc(display, reader.line_num, 1))) from None
    if not rows or not any(cell.strip() for cell in rows[0][1]):
        raise SourceError(HW_CSV_002.at("CSV file is empty or has no header row", Loc(display, 1, 1)))
    header = _trimmed([h.strip() for h in rows[0][1]])  # Excel keeps the cells of a deleted column: `hex;unit;;;`
    head_cols = cell_starts(lines[0], delimiter) if lines else []
    records, kept, long_cells = _records(display, header, rows[1:], len(text) > MAX_TEXT)
    src = Source(
        display,
        records,
        CsvCells(lines, delimiter, header, kept),
        header=tuple((h, head_cols[i] if i < len(head_cols) else 1) for i, h in enumerate(header)),
    )
    if not _CSV_SUSPECT.search(text):  # no cell holds a character `text_problems` reports: only lengths count
        src.text_paths = tuple(long_cells or ())
    return src


def _records(display: str, header: list[str], rows, long: bool):
    """A table's rows below its header as records (column name -> non-empty cell), the rows kept (for their
    positions) and, when `long` (the file may hold a cell over MAX_TEXT), the cells over it. Empty rows are left
    out; a cell past the last named column is an error (HW-CSV-004)."""
    records: list[dict] = []
    kept: list[tuple[int, list[str]]] = []  # each record's first line and cells, for its positions
    long_cells: list[tuple] | None = [] if long else None
    for line_no, row in rows:
        cells = list(map(str.strip, row))
        if not any(cells):
            continue
        if len(row) > len(header) and any(cells[len(header) :]):
            extra = next(i for i in range(len(header), len(row)) if cells[i])
            raise SourceError(
                HW_CSV_004.at(
                    f"row has a cell in column {extra + 1}, but the header has {len(header)} columns",
                    Loc(display, line_no, 1),
                    help="remove the extra cells or add a column header",
                )
            )
        if long_cells is not None:
            long_cells += [(len(records), name) for name, cell in zip(header, cells) if len(cell) > MAX_TEXT]
        records.append({name: cell for name, cell in zip(header, cells) if cell})  # a repeated name: its last cell
        kept.append((line_no, cells))
    return records, kept, long_cells


def parse_workbook(raw: bytes, display: str) -> Source:
    """A workbook's first sheet as a CSV's rows (`parse_csv`), each cell as the sheet shows it
    (`workbooks.read_sheet`); positions are the sheet's row and column (`cells.SheetCells`)."""
    try:
        sheet = read_sheet(raw, display)
    except WorkbookError as exc:
        raise SourceError(
            HW_CSV_001.at(
                f"the workbook {exc}", Loc(display, 0, 0), help="save it again as .xlsx or .ods, or as CSV UTF-8"
            )
        ) from None
    rows = [(number, list(cells)) for number, cells in sheet.rows if any(c.strip() for c in cells)]
    if not rows:
        raise SourceError(
            HW_CSV_002.at(f"the first sheet ({sheet.name!r}) is empty or has no header row", Loc(display, 1, 1))
        )
    header = _trimmed([h.strip() for h in rows[0][1]])
    records, kept, long_cells = _records(display, header, rows[1:], True)
    columns = tuple((h, i + 1) for i, h in enumerate(header))
    src = Source(display, records, SheetCells(header, kept), header=columns, header_line=rows[0][0], sheet=sheet.name)
    if long_cells is not None and not any(_CSV_SUSPECT.search(c) for _n, cells in kept for c in cells):
        src.text_paths = tuple(long_cells)
    return src


def _trimmed(header: list[str]) -> list[str]:
    """A header row without its trailing empty cells (interior ones stay: `columns` reports them)."""
    while header and not header[-1]:
        header.pop()
    return header


def load_source(path: Path, display: str | None = None, raw: bytes | None = None) -> Source:
    """The file at `path` parsed (`raw`: its bytes, when the caller has read them already)."""
    display = display or str(path)
    if raw is None:
        raw = read_bytes(path, display)
    if is_workbook(path.name):
        return parse_workbook(raw, display)
    is_csv = is_sheet(path.name)
    text, notes = decode_text(raw, display, legacy=is_csv)
    src = parse_csv(text, display) if is_csv else parse_yaml(text, display)
    src.notes = notes
    return src


_BAD_TEXT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]|\\\\\\Z")


def text_problems(src: Source) -> list[Diagnostic]:
    """Text no output can carry, in any value of the file (HW-TEXT-001..003): control characters (a tab, NUL
    or ESC ends or corrupts a VASSAL field and a terminal line), a trailing backslash (VASSAL's field
    encoding cannot end in one) and text over MAX_TEXT characters. One rule for every field, so a new
    field is covered without being listed."""
    out: list[Diagnostic] = []
    if src.text_paths is not None:  # YAML: the builder already picked out the values to report
        return [
            _text_problem(src, path, _at(src.data, path))
            for path in src.text_paths
            if isinstance(_at(src.data, path), str)
        ]
    stack: list[tuple[tuple, object]] = [((), src.data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((path + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((path + (i,), v) for i, v in enumerate(value))
        elif isinstance(value, str) and (len(value) > MAX_TEXT or _BAD_TEXT.search(value)):
            out.append(_text_problem(src, path, value))
    return sorted(out, key=lambda d: (d.loc.line or 0, d.loc.col or 0) if d.loc else (0, 0))


_CSV_SUSPECT = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\\\\]")
"""The same for a CSV file, whose cells hold the raw characters (a carriage return too: a quoted cell keeps it)."""
_RAW_SUSPECT = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\\\\]")
"""A YAML text without any of these (a backslash starts every escape) holds no value with a control character
or a trailing backslash, so its values need not be searched one by one."""


def _at(data, path: tuple):
    for key in path:
        data = data[key]
    return data


def _text_problem(src: Source, path: tuple, value: str) -> Diagnostic:
    where = src.loc(path)
    if len(value) > MAX_TEXT:
        return HW_TEXT_003.at(
            f"text is {len(value):,} characters long, over the limit of {MAX_TEXT:,}",
            where,
            help="shorten it, or move long prose to a file the game names (rules_summary)",
            path=path,
        )
    m = _BAD_TEXT.search(value)
    assert m is not None  # asked only about text over MAX_TEXT (answered above) or holding what _BAD_TEXT finds
    if m.group() == "\\":
        return HW_TEXT_002.at(
            "text ends in a backslash, which a VASSAL module cannot carry",
            where,
            help="remove the trailing backslash (or end the text with another character)",
            path=path,
        )
    ch = m.group()
    code = f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}"
    name = {"\t": "a tab", "\x00": "a NUL character", "\x1b": "an escape character (ESC)"}.get(
        ch, "a control character"
    )
    return HW_TEXT_001.at(
        f"text holds {name} ({code}) at character {m.start() + 1}",
        where,
        help="printed text and names are one line of plain characters: remove it (a new line is fine only in notes)",
        path=path,
    )
