"""A panel of files as the common spreadsheet programs save them (`sheet_programs`): each loads cleanly
or gives exactly one located finding.

The set-up card is Battle for Moscow's Soviet set-up (13 rows, exported by hexwright) with a note in
accented and typographic characters; the counters file is the mini game's. Each is saved as Excel
(Windows, UTF-8, Unicode text, Mac), LibreOffice, Google Sheets and Numbers write it, with a
decimal-comma locale's semicolons, trailing empty columns and rows, and ids that lost their zeros."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sheet_programs import (
    excel_mac,
    excel_unicode_text,
    excel_utf8,
    excel_windows,
    google_sheets,
    libreoffice,
    libreoffice_utf16be,
    numbers,
    with_empty_columns,
    with_empty_rows,
    without_zeros,
)

from authoring.author.setup_io import export_setup, find_scenario
from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
NOTE = "Général Koniev’s reserve, “hold”"


def _card_rows() -> list[list[str]]:
    text = export_setup(find_scenario(ROOT, "bfm/seven-turn"), "soviet")
    rows = [line.split(",") for line in text.splitlines()]
    assert rows[0] == ["hex", "unit", "state"] and len(rows) == 14
    return [rows[0] + ["note"], rows[1] + [NOTE]] + [r + [""] for r in rows[2:]]


ROWS = _card_rows()


def _note_at(data: bytes, codec: str) -> tuple[int, int]:
    """Line and column of the note's first accented letter, found in the bytes independently of hexwright."""
    lines = data.decode(codec).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    line = next(i for i, text in enumerate(lines, 1) if "é" in text)
    return line, lines[line - 1].index("é") + 1


def _with_header(rows, header):
    return [header] + rows[1:]


CARDS = {
    # name: (file name, bytes, expected findings: [(severity, code, line, col)], or a codec: one note there)
    "Excel Windows CSV (cp1252, CRLF)": ("card.csv", excel_windows(ROWS), "cp1252"),
    "Excel Windows CSV, decimal-comma locale (;)": ("card.csv", excel_windows(ROWS, ";"), "cp1252"),
    "Excel CSV UTF-8 (BOM, CRLF)": ("card.csv", excel_utf8(ROWS), []),
    "Excel CSV UTF-8, decimal-comma locale": ("card.csv", excel_utf8(ROWS, ";"), []),
    "Excel Unicode text (UTF-16LE BOM, tabs)": ("card.txt", excel_unicode_text(ROWS), []),
    "Excel Unicode text saved as .csv": ("card.csv", excel_unicode_text(ROWS), []),
    "Excel for Mac CSV (Mac Roman, CR)": ("card.csv", excel_mac(ROWS), "mac_roman"),
    "LibreOffice, text cells quoted": ("card.csv", libreoffice(ROWS), []),
    "LibreOffice, semicolons, text quoted": ("card.csv", libreoffice(ROWS, ";"), []),
    "LibreOffice UTF-16BE": ("card.csv", libreoffice_utf16be(ROWS), []),
    "UTF-16 without its byte-order mark": ("card.txt", excel_unicode_text(ROWS)[2:], []),
    "Google Sheets (CRLF, no end of line at the end)": ("card.csv", google_sheets(ROWS), []),
    "Numbers": ("card.csv", numbers(ROWS), []),
    "Numbers, decimal-comma locale": ("card.csv", numbers(ROWS, ";"), []),
    "trailing empty columns on every row": ("card.csv", excel_utf8(with_empty_columns(ROWS), ";"), []),
    "empty cells after the header's last column": (
        "card.csv",
        excel_utf8([ROWS[0]] + with_empty_columns(ROWS[1:]), ";"),
        [],
    ),
    "trailing empty columns and rows": ("card.csv", excel_utf8(with_empty_rows(with_empty_columns(ROWS))), []),
    "trailing empty columns, cp1252": ("card.csv", excel_windows(with_empty_columns(ROWS), ";"), "cp1252"),
    "hex ids without leading zeros (Excel)": (
        "card.csv",
        excel_utf8(without_zeros(ROWS, "hex")),
        [("error", "HW-HEX-001", 2, 1)],
    ),
    "hex ids without leading zeros (Google Sheets)": (
        "card.csv",
        google_sheets(without_zeros(ROWS, "hex")),
        [("error", "HW-HEX-001", 2, 1)],
    ),
    "hex ids without leading zeros, Unicode text": (
        "card.txt",
        excel_unicode_text(without_zeros(ROWS, "hex")),
        [("error", "HW-HEX-001", 2, 1)],
    ),
    "an empty header cell inside the header": (
        "card.csv",
        excel_utf8(_with_header(ROWS, ["hex", "unit", "", "note"])),
        [("error", "HW-CSV-009", 1, 10)],
    ),
    "a cell beyond the header": (
        "card.csv",
        excel_utf8([ROWS[0]] + [ROWS[1] + ["", "x"]] + ROWS[2:]),
        [("error", "HW-CSV-004", 2, 1)],
    ),
}


def _check(card: Path) -> tuple[int, list[dict], str]:
    """Exit code, findings and stderr of `check --card`; a card with errors is not checked against the rules,
    which the note HW-CHECK-001 says (it is taken out of the findings returned)."""
    r = CliRunner().invoke(
        main,
        ["check", "bfm/seven-turn", "--card", str(card), "--project", str(ROOT), "--format", "json"],
        catch_exceptions=False,
    )
    found = json.loads(r.stdout)
    notes = [f for f in found if f["code"] == "HW-CHECK-001"]
    assert len(notes) == (r.exit_code == 1), found
    assert all(n["file"] == found[-1]["file"] and "were not checked" in n["message"] for n in notes)
    return r.exit_code, [f for f in found if f["code"] != "HW-CHECK-001"], r.stderr


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CARDS))
def test_card_as_saved(name: str, tmp_path: Path):
    file_name, data, expected = CARDS[name]
    card = tmp_path / file_name
    card.write_bytes(data)
    code, found, stderr = _check(card)
    if isinstance(expected, str):  # read in a code page: one note, at the first accented letter
        expected = [("info", "HW-IO-004", *_note_at(data, expected))]
    assert [(f["severity"], f["code"], f["line"], f["column"]) for f in found] == expected, found
    assert all(f["file"] == str(card) or f["file"].endswith(file_name) for f in found)
    assert code == (1 if any(s == "error" for s, *_ in expected) else 0), stderr
    if not expected or expected[0][0] == "info":
        assert stderr.startswith("checked: soviet from the card"), stderr


def test_the_note_names_the_encoding_and_how_to_save_as_utf8(tmp_path: Path):
    for writer, named in ((excel_windows, "Windows-1252"), (excel_mac, "Mac Roman")):
        card = tmp_path / "card.csv"
        card.write_bytes(writer(ROWS))
        _code, (note,), _err = _check(card)
        assert note["message"].startswith(f"read as {named}"), note
        assert "taken for 'é'" in note["message"]
        assert "CSV UTF-8" in note["help"] and "Unicode (UTF-8)" in note["help"]


def test_a_card_read_in_a_code_page_keeps_its_text(tmp_path: Path):
    """The note is what import-setup writes into the scenario: the same text whatever the program."""
    from authoring.author.setup_io import read_card

    for writer in (excel_windows, excel_mac, excel_unicode_text, libreoffice_utf16be, google_sheets):
        card = tmp_path / "card.csv"
        card.write_bytes(writer(ROWS))
        entries, _side = read_card(card)
        assert entries[0]["note"] == NOTE, writer.__name__
        assert [e["hex"] for e in entries] == [r[0] for r in ROWS[1:]], writer.__name__


def test_dropped_zeros_are_one_finding_that_counts_the_rows(tmp_path: Path):
    card = tmp_path / "card.csv"
    card.write_bytes(excel_windows(without_zeros([r[:3] for r in ROWS], "hex")))
    code, found, _err = _check(card)
    assert code == 1 and len(found) == 1
    assert found[0]["message"] == "hex '301' is not on any map in play: 13 rows lost their leading zeros (lines 2-14)"
    assert found[0]["help"].startswith(
        "did you mean '0301', '0302', '0303', ...? spreadsheets drop leading zeros: format the hex column as text"
    )


COUNTERS = [
    ["id", "side", "type", "size", "designation", "name", "setup_code", "quantity", "full.attack", "full.movement"],
    ["red-2", "red", "infantry", "division", "2", "Général Rouge", "0102", "1", "5", "4"],
    ["red-3", "red", "infantry", "division", "3", "Königsberg", "0103", "1", "5", "4"],
    ["red-4", "red", "infantry", "division", "4", "Ölberg", "0201", "1", "5", "4"],
]
GRAMMAR = "setup_codes:\n  - {pattern: '^(?P<hex>[0-9]{4})$', meaning: hex}\n"

COUNTER_FILES = {
    "Excel Windows CSV": ("more.csv", excel_windows(COUNTERS), "cp1252"),
    "Excel Windows CSV, semicolons, trailing columns": (
        "more.csv",
        excel_windows(with_empty_columns(COUNTERS), ";"),
        "cp1252",
    ),
    "Excel CSV UTF-8": ("more.csv", excel_utf8(COUNTERS), []),
    "Excel Unicode text as .csv": ("more.csv", excel_unicode_text(COUNTERS), []),
    "Excel for Mac CSV": ("more.csv", excel_mac(COUNTERS), "mac_roman"),
    "LibreOffice, quoted, semicolons": ("more.csv", libreoffice(COUNTERS, ";"), []),
    "Google Sheets": ("more.csv", google_sheets(COUNTERS), []),
    "Numbers, trailing empty rows": ("more.csv", numbers(with_empty_rows(COUNTERS)), []),
    "tab-separated .tsv": ("more.tsv", excel_unicode_text(COUNTERS), []),
    "set-up codes without leading zeros": (
        "more.csv",
        excel_utf8(without_zeros(COUNTERS, "setup_code")),
        [("error", "HW-CODE-005", 2, 45)],
    ),
}


@pytest.mark.parametrize("name", list(COUNTER_FILES))
def test_counters_as_saved(name: str, mini: Path):
    file_name, data, expected = COUNTER_FILES[name]
    (mini / "counters/mini/more.csv").unlink()
    (mini / "counters/mini" / file_name).write_bytes(data)
    game = mini / "scenarios/mini/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + GRAMMAR, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "json"], catch_exceptions=False)
    found = json.loads(r.stdout)
    if isinstance(expected, str):
        expected = [("info", "HW-IO-004", *_note_at(data, expected))]
    assert [(f["severity"], f["code"], f["line"], f["column"]) for f in found] == expected, found
    assert all(f["file"].endswith(f"counters/mini/{file_name}") for f in found)
    assert r.exit_code == (1 if any(s == "error" for s, *_ in expected) else 0)


def test_a_dropped_setup_code_zero_is_told_in_the_counters_file(mini: Path):
    (mini / "counters/mini/more.csv").write_bytes(
        excel_windows(without_zeros([r[:5] + r[6:] for r in COUNTERS], "setup_code"))
    )
    game = mini / "scenarios/mini/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + GRAMMAR, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "json"], catch_exceptions=False)
    (found,) = json.loads(r.stdout)
    assert (found["code"], found["line"], found["column"]) == ("HW-CODE-005", 2, 31)
    assert found["message"] == (
        "red-2's set-up code '102' is no code of the grammar: 3 rows lost their leading zeros (lines 2-4)"
    )
    assert found["help"].startswith(
        "did you mean '0102', '0103', '0201'? spreadsheets drop leading zeros: format the setup_code column as text"
    )


def test_yaml_numbers_without_zeros_get_the_hint_where_they_are_written(mini: Path):
    """A scenario's hex written as the number 101, and an arrival at '102': each a finding in the scenario
    file whose hint puts the zeros back (no list of hex ranges or hex sets)."""
    intro = mini / "scenarios/mini/intro.yaml"
    intro.write_text(
        intro.read_text(encoding="utf-8").replace('{hex: "0101"', "{hex: 101").replace("at: west", 'at: "102"'),
        encoding="utf-8",
    )
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "json"], catch_exceptions=False)
    found = {f["code"]: f for f in json.loads(r.stdout)}
    assert sorted(found) == ["HW-HEX-001", "HW-SCHED-002"], found
    assert found["HW-HEX-001"]["file"].endswith("intro.yaml") and found["HW-HEX-001"]["line"] == 11
    assert (
        found["HW-HEX-001"]["help"] == "did you mean '0101'? write each hex with its leading zeros, as printed "
        "('0101', not '101')"
    )
    assert found["HW-SCHED-002"]["help"].startswith("did you mean '0102'?")


def test_import_setup_of_an_excel_card_writes_its_text_and_shows_the_note(tmp_path: Path):
    for kind in ("maps", "counters", "scenarios"):
        shutil.copytree(ROOT / kind / "bfm", tmp_path / kind / "bfm")
    card = tmp_path / "card.csv"
    card.write_bytes(excel_windows(with_empty_columns(ROWS), ";"))
    r = CliRunner().invoke(
        main,
        ["import-setup", str(card), "--scenario", "bfm/seven-turn", "--project", str(tmp_path)],
        catch_exceptions=False,
    )
    assert r.exit_code == 0, r.output
    assert "info[HW-IO-004]: read as Windows-1252" in r.output
    scenario = (tmp_path / "scenarios/bfm/seven-turn.yaml").read_text(encoding="utf-8")
    assert NOTE in scenario, scenario


@pytest.mark.parametrize(
    "writer,sep,value",
    [(excel_windows, ";", "0,5"), (excel_utf8, ",", "0.5"), (libreoffice, ";", "0,5"), (numbers, ",", "+0.5")],
)
def test_a_fractional_stacking_value_as_each_locale_writes_it(writer, sep: str, value: str, mini: Path):
    """Stacking points with a decimal comma (a semicolon locale) or point: the number, not a finding."""
    from authoring.load import discover, load_game

    rows = [r[:5] + r[7:] for r in COUNTERS]
    rows = [rows[0] + ["stacking"]] + [r + [value] for r in rows[1:]]
    (mini / "counters/mini/more.csv").write_bytes(writer(rows, sep))
    result = load_game(discover(mini)[0])
    assert [d.code for d in result.diagnostics] == [], [str(d) for d in result.diagnostics]
    assert result.game.counters["red-2"].stacking == 0.5
