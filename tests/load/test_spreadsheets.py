"""CSV files as spreadsheets save them: each loads cleanly or gives exactly one located finding.

The panel covers counters CSVs (read by `validate`) and set-up cards (read by `check --card` and
`import-setup`): comma, semicolon and tab separators, a UTF-8 byte-order mark, CRLF line ends,
capitalised and spaced header names, a header typo, a missing header row, a word in a number
column and hex ids that lost their leading zeros."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main

HEADER = ["id", "side", "type", "size", "designation", "quantity", "full.attack", "full.movement"]
ROWS = [
    ["red-2", "red", "infantry", "division", "2", "1", "5", "4"],
    ["red-3", "red", "infantry", "division", "3", "1", "5", "4"],
]


def _csv(header: list[str], rows: list[list[str]], sep: str = ",", end: str = "\n", bom: bool = False) -> bytes:
    text = end.join(sep.join(r) for r in ([header] if header else []) + rows) + end
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8")


def _replace(cells: list[str], old: str, new: str) -> list[str]:
    return [new if c == old else c for c in cells]


COUNTERS = {
    # name: (file bytes, expected findings as "line:col code" or [] for a clean load)
    "comma": (_csv(HEADER, ROWS), []),
    "semicolon (a decimal-comma locale)": (_csv(HEADER, ROWS, sep=";"), []),
    "tab separated": (_csv(HEADER, ROWS, sep="\t"), []),
    "BOM and CRLF (Excel's CSV UTF-8)": (_csv(HEADER, ROWS, end="\r\n", bom=True), []),
    "capitalised and spaced headers": (_csv([h.title().replace("_", " ") for h in HEADER], ROWS, sep=";"), []),
    "header typo": (_csv(_replace(HEADER, "side", "sdie"), ROWS), ["1:4 HW-CSV-006"]),
    "missing header row": (_csv([], ROWS), ["1:1 HW-CSV-005"]),
    "a word in a number column": (_csv(HEADER, [ROWS[0], _replace(ROWS[1], "5", "five")]), ["3:33 HW-CSV-008"]),
    "a word in a whole-number column": (_csv(HEADER, [_replace(ROWS[0], "1", "one")], sep=";"), ["2:31 HW-CSV-008"]),
    "the same column twice, in two spellings": (
        _csv(HEADER + ["Side"], [r + ["red"] for r in ROWS]),
        ["1:66 HW-CSV-003"],
    ),
}


def _findings(output: str) -> list[str]:
    """`line:col CODE` of every finding in concise output."""
    out = []
    for line in output.splitlines():
        if ": error[" in line or ": warning[" in line:
            where, _, rest = line.partition(": ")
            out.append(f"{':'.join(where.split(':')[-2:])} {rest.split('[')[1].split(']')[0]}")
    return out


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_counters_csv(name: str, mini: Path):
    data, expected = COUNTERS[name]
    (mini / "counters/mini/more.csv").write_bytes(data)
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "concise"], catch_exceptions=False)
    assert _findings(r.output) == expected, r.output
    assert r.exit_code == (1 if expected else 0), r.output


def test_header_typo_is_one_error_with_a_did_you_mean(mini: Path):
    (mini / "counters/mini/more.csv").write_bytes(_csv(_replace(HEADER, "side", "sdie"), ROWS * 5))
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "concise"])
    assert (
        "more.csv:1:4: error[HW-CSV-006]: unknown column 'sdie' in the header row\n  help: did you mean 'side'?"
    ) in r.output
    assert r.output.count("error[") == 1


def test_missing_header_row_is_named(mini: Path):
    (mini / "counters/mini/more.csv").write_bytes(_csv([], ROWS))
    r = CliRunner().invoke(main, ["validate", str(mini), "--format", "concise"])
    assert (
        "error[HW-CSV-005]: the first row is not a header row: none of 'red-2', 'red', 'infantry', "
        "'division' is a column name" in r.output
    )
    assert "help: a counters CSV starts with a row of column names" in r.output


CARD_HEADER = ["hex", "unit", "state"]
CARD = [["0101", "red-1", "full"]]

CARDS = {
    "comma": (_csv(CARD_HEADER, CARD), []),
    "semicolon, BOM, CRLF, capitals": (_csv(["Hex", "Unit ", "STATE"], CARD, sep=";", end="\r\n", bom=True), []),
    "tab separated": (_csv(CARD_HEADER, CARD, sep="\t"), []),
    "header typo": (_csv(["hxe", "unit", "state"], CARD), ["1:1 HW-CSV-006"]),
    "missing header row": (_csv([], CARD), ["1:1 HW-CSV-005"]),
    "leading zeros dropped": (_csv(CARD_HEADER, [["101", "red-1", "full"]]), ["2:1 HW-HEX-001"]),
}


@pytest.mark.parametrize("name", sorted(CARDS))
def test_setup_card_csv(name: str, mini: Path):
    data, expected = CARDS[name]
    card = mini / "card.csv"
    card.write_bytes(data)
    scenario = mini / "scenarios/mini/intro.yaml"
    r = CliRunner().invoke(
        main, ["check", str(scenario), "--card", str(card), "--format", "concise"], catch_exceptions=False
    )
    assert _findings(r.output) == expected, r.output
    assert r.exit_code == (1 if expected else 0), r.output


def test_dropped_leading_zero_gets_the_hint_in_check(mini: Path):
    card = mini / "card.csv"
    card.write_bytes(_csv(CARD_HEADER, [["101", "red-1", "full"]]))
    r = CliRunner().invoke(main, ["check", str(mini / "scenarios/mini/intro.yaml"), "--card", str(card)])
    assert "error[HW-HEX-001]: hex '101' is not on any map in play" in r.output
    assert "did you mean '0101'? spreadsheets drop leading zeros: format the hex column as text" in r.output


def test_import_setup_reads_a_semicolon_card(mini: Path):
    card = mini / "card.csv"
    card.write_bytes(_csv(["Hex", "Unit", "State"], [["0102", "red-1", "full"]], sep=";", bom=True))
    r = CliRunner().invoke(main, ["import-setup", str(card), "--scenario", "intro", "--project", str(mini)])
    assert r.exit_code == 0, r.output
    assert '"0102"' in (mini / "scenarios/mini/intro.yaml").read_text(encoding="utf-8")
