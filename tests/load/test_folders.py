"""No file of a game's folders is skipped without a word: each is read, or named by HW-FILE-001 with what to do.

Excel's "Unicode Text" counters file (`counters.txt`, which the README says is read) was skipped, and the
scenario's units then were "unknown counter" errors that never named the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sheet_programs import excel_unicode_text

from authoring.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _validate(project: Path) -> tuple[int, list[dict]]:
    r = CliRunner().invoke(main, ["validate", str(project), "--format", "json"], catch_exceptions=False)
    return r.exit_code, json.loads(r.stdout)


def _more_rows(mini: Path) -> list[list[str]]:
    return [line.split(",") for line in (mini / "counters/mini/more.csv").read_text(encoding="utf-8").splitlines()]


def test_excel_unicode_text_counters_are_read(mini: Path):
    rows = _more_rows(mini)
    (mini / "counters/mini/more.csv").unlink()
    (mini / "counters/mini/counters.txt").write_bytes(excel_unicode_text(rows))
    assert _validate(mini) == (0, [])


def test_a_txt_counters_file_is_read_as_a_table(mini: Path):
    """It is read: a mistake in it is found there (a cell beyond the header), not skipped."""
    rows = _more_rows(mini)
    (mini / "counters/mini/more.csv").unlink()
    (mini / "counters/mini/counters.txt").write_bytes(
        excel_unicode_text([*rows, ["red-9", "red", "x", *rows[1][3:], "1"]])
    )
    code, found = _validate(mini)
    assert code == 1
    assert [(f["code"], Path(f["file"]).name, f["line"]) for f in found if f["severity"] == "error"] == [
        ("HW-CSV-004", "counters.txt", 3)
    ]


UNREAD = {
    "counters/mini/more.csv.bak": "a backup copy",
    "counters/mini/~$more.xlsx": "Excel's lock file of an open workbook",
    "counters/mini/more.xls": "a workbook of a kind hexwright does not read",
    "counters/mini/old/more.csv": "a data file in a subfolder",
    "maps/mini/board.yaml~": "a backup copy",
    "maps/mini/notes.md": "hexwright reads no .md files in maps/mini/",
    "scenarios/mini/README": "hexwright reads no files without an extension in scenarios/mini/",
    "scenarios/mini/red.csv": "set-up cards are not read from scenarios/mini/",
}


def test_every_file_nothing_reads_is_named(mini: Path):
    for rel in UNREAD:
        path = mini / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"id,side\n")
    for rel in (
        "maps/mini/.DS_Store",
        "counters/mini/Thumbs.db",
        "maps/mini/art/unused.png",
        "maps/mini/.hidden/x.csv",
    ):
        path = mini / rel  # the desktop's own files, hidden ones, and art nothing names: passed over
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    code, found = _validate(mini)
    assert code == 0  # warnings
    named = {f["file"].split("mini/", 1)[1]: f for f in found}
    assert sorted(named) == sorted(UNREAD)
    for rel, what in UNREAD.items():
        f = named[rel]
        assert (f["severity"], f["code"], f["message"]) == (
            "warning",
            "HW-FILE-001",
            f"{Path(rel).name!r} is not read: {what}",
        )
        assert f["help"], rel
    assert "move it out of the game's folders" in named["counters/mini/more.csv.bak"]["help"]
    assert "save it as .xlsx or .ods" in named["counters/mini/more.xls"]["help"]
    assert "hexwright check SCENARIO --card FILE" in named["scenarios/mini/red.csv"]["help"]


def test_files_the_data_names_are_read(mini: Path):
    """A rules summary and art named with any extension are read: nothing to say about them."""
    game = mini / "scenarios/mini/game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + "rules_summary: summary.html\n", encoding="utf-8")
    (mini / "scenarios/mini/summary.html").write_text("<p>Rules</p>", encoding="utf-8")
    assert _validate(mini) == (0, [])


@pytest.mark.parametrize("game", ["bfm", "bfm-art", "typhoon", "1941"])
def test_the_bundled_games_read_every_file_of_their_folders(game: str):
    from authoring.load import discover, load_game

    files = next(f for f in discover(ROOT) if f.id == game)
    assert [d for d in load_game(files).diagnostics if d.code == "HW-FILE-001"] == []


def test_watch_sees_a_file_it_does_not_read_come(mini: Path):
    from authoring.author.watch import Watcher

    said: list[str] = []
    w = Watcher(mini, build=False, emit=said.append)
    assert w.start().ok and said == ["All checks passed."]
    (mini / "counters/mini/more.csv.bak").write_bytes(b"x")
    cycle = w.step()
    assert cycle is not None and [d.code for d in cycle.diagnostics] == ["HW-FILE-001"]
