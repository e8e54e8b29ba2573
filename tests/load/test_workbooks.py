"""Counter mixes and set-up cards kept as workbooks (.xlsx, .ods): read from their first sheet, each cell as
the sheet shows it, with findings that name the sheet's row, column and cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sheet_programs import ods_workbook, xlsx_workbook

from authoring.cli import main
from authoring.workbooks import WorkbookError, cell_name, read_sheet

WRITERS = {"xlsx": xlsx_workbook, "ods": ods_workbook}


def _rows(mini: Path) -> list[list]:
    lines = (mini / "counters/mini/more.csv").read_text(encoding="utf-8").splitlines()
    head, *body = (line.split(",") for line in lines)
    return [head, *[[int(c) if c.isdigit() else c for c in row] for row in body]]


def _validate(project: Path, fmt: str = "json"):
    return CliRunner().invoke(main, ["validate", str(project), "--format", fmt], catch_exceptions=False)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_counters_workbook_is_read_as_its_csv_is(kind: str, mini: Path):
    rows = _rows(mini)
    (mini / "counters/mini/more.csv").unlink()
    (mini / f"counters/mini/more.{kind}").write_bytes(WRITERS[kind](rows, sheet="Counters"))
    r = _validate(mini)
    assert (r.exit_code, json.loads(r.stdout)) == (0, [])


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_bad_cell_is_named_by_row_column_and_cell(kind: str, mini: Path):
    rows = _rows(mini)
    rows[1][6] = "x7"  # full.attack, column G
    (mini / "counters/mini/more.csv").unlink()
    (mini / f"counters/mini/more.{kind}").write_bytes(WRITERS[kind](rows, sheet="Counters"))
    r = _validate(mini)
    found = json.loads(r.stdout)
    assert r.exit_code == 1
    assert [(f["code"], f["line"], f["column"]) for f in found if f["severity"] == "error"] == [("HW-CSV-008", 2, 7)]
    full = _validate(mini, "full").output
    assert f"--> {mini / f'counters/mini/more.{kind}'}:2:7" in full or f"more.{kind}:2:7" in full
    assert "= cell: Counters!G2" in full
    assert "2 | red-2 | red | infantry | division | 2 | 1 | x7 | 4 | 2 | 4" in full  # the row, its cells parted


CARD_HEADER = ["hex", "unit", "state"]


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_card_workbook_keeps_text_ids_and_reads_padded_numbers(kind: str, mini: Path):
    """A text cell keeps its zero; a number shown as 0102 (format 0000) is read as shown; a number shown as 101
    lost its zero, which the finding says, naming the cell and the fix in a workbook's terms."""
    rows = [CARD_HEADER, ["0101", "red-1", "full"]]
    writer = WRITERS[kind]
    shown = {(2, 1): "0101"}
    padded = (
        writer([CARD_HEADER, [101, "red-1", "full"]], formats={(2, 1): "0000"})
        if kind == "xlsx"
        else writer([CARD_HEADER, [101, "red-1", "full"]], shown=shown)
    )
    for data in (writer(rows), padded):
        card = mini / f"card.{kind}"
        card.write_bytes(data)
        r = CliRunner().invoke(main, ["check", str(mini / "scenarios/mini/intro.yaml"), "--card", str(card)])
        assert r.exit_code == 0, r.output
    card.write_bytes(writer([CARD_HEADER, [101, "red-1", "full"]]))
    r = CliRunner().invoke(main, ["check", str(mini / "scenarios/mini/intro.yaml"), "--card", str(card)])
    assert r.exit_code == 1
    assert "error[HW-HEX-001]: hex '101' is not on any map in play" in r.output
    assert "= cell: Sheet1!A2" in r.output
    assert "the hex cells hold numbers, which show no leading zeros" in r.output
    assert "give it the number format 0000" in r.output


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_import_setup_reads_a_workbook_card(kind: str, mini: Path):
    card = mini / f"card.{kind}"
    card.write_bytes(WRITERS[kind]([["Hex", "Unit", "State"], ["0102", "red-1", "full"]]))
    r = CliRunner().invoke(main, ["import-setup", str(card), "--scenario", "intro", "--project", str(mini)])
    assert r.exit_code == 0, r.output
    assert '"0102"' in (mini / "scenarios/mini/intro.yaml").read_text(encoding="utf-8")


def test_an_ods_sheet_reads_repeats_spaces_and_the_empty_tail():
    """LibreOffice writes the empty rest of a sheet as a million repeated rows: read in no time, and left out."""
    sheet = read_sheet(ods_workbook([["a  b", "", "c"], [1.5, 2]], sheet="S"), "x.ods")
    assert sheet.name == "S"
    assert sheet.rows == ((1, ("a  b", "", "c")), (2, ("1.5", "2")))


def test_a_damaged_workbook_is_one_finding(mini: Path):
    (mini / "counters/mini/more.csv").unlink()
    (mini / "counters/mini/more.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    r = _validate(mini)
    found = json.loads(r.stdout)
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert [f["code"] for f in found if f["severity"] == "error"] == ["HW-CSV-001"]
    assert "save it again" in found[0]["help"] or any("save it again" in f["help"] for f in found)
    with pytest.raises(WorkbookError):
        read_sheet(b"plain text", "x.xlsx")


def test_cell_names():
    assert [cell_name(5, 2), cell_name(1, 26), cell_name(1, 27), cell_name(9, 703)] == ["B5", "Z1", "AA1", "AAA9"]


SAVED = Path(__file__).parent / "saved"
"""Workbooks saved by LibreOffice Calc 7.4 (headless, from sheets typed as a designer keeps them: numbers as
numbers, the card's hex a number formatted 0000): .ods, and its own .xlsx export."""


@pytest.mark.parametrize("kind", ["ods", "xlsx"])
def test_workbooks_a_real_spreadsheet_program_saved(kind: str, mini: Path):
    (mini / "counters/mini/more.csv").unlink()
    (mini / f"counters/mini/more.{kind}").write_bytes((SAVED / f"counters-libreoffice.{kind}").read_bytes())
    r = _validate(mini)
    assert (r.exit_code, json.loads(r.stdout)) == (0, [])
    card = mini / f"card.{kind}"
    card.write_bytes((SAVED / f"card-libreoffice.{kind}").read_bytes())
    r = CliRunner().invoke(main, ["check", str(mini / "scenarios/mini/intro.yaml"), "--card", str(card)])
    assert r.exit_code == 0, r.output  # the number 102 shown as 0102 is hex 0102
    assert read_sheet(card.read_bytes(), card.name).rows[1] == (2, ("0102", "red-1", "full"))
