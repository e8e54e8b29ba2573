"""`export-setup --out CARD.xlsx`: a set-up card as a workbook whose cells offer drop-down lists (the side's
units, the strength states, and for each row the hexes its unit may start in), read back by `check --card`."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]
STARS = ["0301", "0302", "0303", "0304", "0405", "0504", "0505", "0506", "0507", "0508", "0509", "0510", "0803"]


def _run(*args: str):
    r = CliRunner().invoke(main, [*args, "--project", str(ROOT)] if args[0] == "export-setup" else list(args))
    assert "Traceback" not in r.output
    return r


@pytest.fixture
def card(tmp_path: Path) -> Path:
    out = tmp_path / "soviet.xlsx"
    r = _run("export-setup", "bfm/seven-turn", "--side", "soviet", "--out", str(out))
    assert r.exit_code == 0, r.output
    return out


def _lists(book) -> dict[str, list[str]]:
    """Each validated range of the card -> the values its list offers (read from the hidden sheet)."""
    sheet, lists = book.worksheets
    out = {}
    for v in sheet.data_validations.dataValidation:
        source = v.formula1.lstrip("=").split("!", 1)[1].replace("$", "")
        first, last = source.split(":")
        column = "".join(ch for ch in first if ch.isalpha())
        values = [c.value for c in lists[column][: int(last.lstrip(column))]]
        for ref in str(v.sqref).split():
            out[ref] = values
    return out


def test_each_row_offers_the_hexes_its_unit_may_start_in(card: Path):
    book = openpyxl.load_workbook(card)
    sheet, lists = book.worksheets
    assert sheet.title == "Soviet set-up" and lists.sheet_state == "hidden"
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    placed = [r for r in rows if r[0]]
    assert len(placed) == 13 and all(r[0] in STARS for r in placed)  # as the scenario sets up
    offered = _lists(book)
    for i in range(2, 2 + len(placed)):
        assert offered[f"A{i}"] == STARS  # Soviet units start only on stars (only-on-feature)
    units = offered[f"B2:B{len(placed) + 21}"]
    assert sorted(units) == sorted(r[1] for r in placed)
    assert offered[f"C2:C{len(placed) + 21}"] == ["full", "half"]
    assert all(sheet.cell(row=i, column=1).number_format == "@" for i in range(2, len(placed) + 22))  # text


def test_the_workbook_is_the_same_bytes_each_time(card: Path, tmp_path: Path):
    """No clock in it: openpyxl stamps the document's modified date as it saves, a second apart two exports
    differed."""
    with zipfile.ZipFile(card) as z:
        core = z.read("docProps/core.xml").decode()
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert "2000-01-01T00:00:00Z</dcterms:modified>" in core and "2000-01-01T00:00:00Z</dcterms:created>" in core
    again = tmp_path / "again.xlsx"
    assert _run("export-setup", "bfm/seven-turn", "--side", "soviet", "--out", str(again)).exit_code == 0
    assert again.read_bytes() == card.read_bytes()


def test_filled_in_and_read_back_it_checks_clean_and_a_wrong_hex_names_its_cell(card: Path):
    scenario = str(ROOT / "scenarios/bfm/seven-turn.yaml")
    r = _run("check", scenario, "--card", str(card))
    assert r.exit_code == 0, r.output
    book = openpyxl.load_workbook(card)
    sheet = book.worksheets[0]
    moved = sheet["B4"].value
    sheet["A4"] = "0601"  # off the stars: what a player picks against the list's warning
    data = io.BytesIO()
    book.save(data)
    card.write_bytes(data.getvalue())
    r = _run("check", scenario, "--card", str(card), "--format", "concise")
    on_card = [line for line in r.output.splitlines() if "error[" in line and "soviet.xlsx" in line]
    assert r.exit_code == 1 and len(on_card) == 1, r.output  # (and the star it left empty, in game.yaml's rule)
    assert f"soviet.xlsx:4:1: error[HW-PLACE-005]: {moved} starts in hex 0601" in on_card[0]
    full = _run("check", scenario, "--card", str(card)).output
    assert "= cell: Soviet set-up!A4" in full


def test_a_workbook_is_not_written_to_the_terminal():
    r = _run("export-setup", "bfm/seven-turn", "--side", "soviet", "--format", "xlsx")
    assert r.exit_code == 2 and "add --out CARD.xlsx" in r.output
