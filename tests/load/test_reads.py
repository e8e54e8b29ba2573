"""`load_game(files, reads)`: a memo of read files gives the same game and findings as a fresh load, re-reading
only the files whose bytes changed (issue #37: a save in `serve` re-parses one file, not the whole game)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from model_shape import shape

from authoring.load import discover, load_game
from authoring.load.reads import Reads

ROOT = Path(__file__).resolve().parents[2]


def game_files(root: Path, gid: str):
    return next(f for f in discover(root) if f.id == gid)


def same_as_fresh(root: Path, gid: str, reads: Reads):
    """The load with the memo, after checking it equals a fresh load of the same files."""
    files = game_files(root, gid)
    memo, fresh = load_game(files, reads), load_game(files)
    assert memo.diagnostics == fresh.diagnostics
    assert (memo.game is None) == (fresh.game is None)
    assert shape(memo.game) == shape(fresh.game)
    assert memo.files == fresh.files
    return memo


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The files parsed (not taken from the memo), by name, as loading goes."""
    import authoring.load.project as project

    seen: list[str] = []
    real = project.load_source

    def counted(path, *args, **kwargs):
        seen.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(project, "load_source", counted)
    return seen


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_reload_with_the_memo_equals_a_fresh_load_through_edits(mini: Path) -> None:
    """Each step changes the files (a hex moved, files broken and fixed, deleted, renamed) and then compares a
    load through the same memo with a fresh load: model, findings and files."""
    reads = Reads()
    board = mini / "maps" / "mini" / "board.yaml"
    intro = mini / "scenarios" / "mini" / "intro.yaml"
    units = mini / "counters" / "mini" / "units.yaml"
    manifest = mini / "scenarios" / "mini" / "game.yaml"
    more = mini / "counters" / "mini" / "more.csv"
    assert same_as_fresh(mini, "mini", reads).ok
    steps = [
        lambda: edit(board, '["0202", "0303"]', '["0202", "0304"]'),  # same length: a key on size would miss it
        lambda: edit(intro, "setup:", "setup: ["),  # a YAML syntax error
        lambda: edit(units, "kind: counters", "kind: counters\nbogus: 1"),  # a schema error
        lambda: edit(intro, "setup: [", "setup:"),  # fixed
        lambda: edit(units, "kind: counters\nbogus: 1", "kind: counters"),  # fixed
        lambda: edit(board, "columns: 6", 'columns: "six"'),  # a broken map: the scenario's hexes are not echoed
        lambda: edit(intro, '"0505"', '"0504"'),  # a scenario saved while the map is still broken
        lambda: edit(board, 'columns: "six"', "columns: 6"),
        lambda: edit(more, "\n", "\nred-1,red,infantry,division,1,1,4,4,2,4\n"),  # units.yaml's red-1 now repeats
        lambda: edit(more, "red-1,red,infantry,division,1,1,4,4,2,4\n", ""),
        lambda: edit(manifest, "{id: division,", "{id: corps,"),  # the counters' size is no longer declared
        lambda: edit(intro, "Day 1", "Day one"),  # the counters files' findings again, from the memo
        lambda: edit(manifest, "{id: corps,", "{id: division,"),
        lambda: more.unlink(),  # deleted: red-2 becomes unknown
        lambda: units.rename(units.with_name("renamed.yaml")),
        lambda: edit(manifest, "kind: game", "kind: game\nbogus: 1"),  # no manifest: the files read alone
        lambda: edit(manifest, "kind: game\nbogus: 1", "kind: game"),
    ]
    codes = []
    for step in steps:
        step()
        result = same_as_fresh(mini, "mini", reads)
        codes.append(sorted({d.code for d in result.diagnostics}))
    assert codes == [
        [],
        ["HW-YAML-001"],
        ["HW-SCHEMA-002", "HW-YAML-001"],
        ["HW-SCHEMA-002"],
        [],
        ["HW-SCHEMA-004"],  # and no HW-HEX-002 for the scenario's hexes, with the map remembered as broken
        ["HW-SCHEMA-004"],
        [],
        ["HW-DUP-002"],
        [],
        ["HW-REF-001"],
        ["HW-REF-001"],
        [],
        ["HW-REF-002"],
        ["HW-REF-002"],
        ["HW-SCHEMA-002"],
        ["HW-REF-002"],
    ]


def test_only_the_changed_file_is_parsed_again(mini: Path, parses: list[str]) -> None:
    reads = Reads()
    first = same_as_fresh(mini, "mini", reads).game
    parses.clear()
    load_game(game_files(mini, "mini"), reads)
    assert parses == []  # nothing changed: nothing parsed
    edit(mini / "maps" / "mini" / "board.yaml", '["0202", "0303"]', '["0202", "0304"]')
    again = load_game(game_files(mini, "mini"), reads).game
    assert parses == ["board.yaml"]
    assert first is not None and again is not None
    now = {i.label: i.terrain for i in again.maps["board"].hexes.values()}
    before = {i.label: i.terrain for i in first.maps["board"].hexes.values()}
    assert before["0303"] == now["0304"] == ("forest",) and now["0303"] == before["0304"] == ("clear",)


def test_an_unchanged_counters_file_is_not_resolved_again_unless_what_it_names_changed(mini: Path, monkeypatch) -> None:
    import authoring.load.project as project

    calls: list[int] = []
    real = project.resolve_counters
    monkeypatch.setattr(project, "resolve_counters", lambda ctx, *a: calls.append(1) or real(ctx, *a))
    reads = Reads()
    same_as_fresh(mini, "mini", reads)  # the memo's load resolves both counters files, and so does the fresh one
    assert len(calls) == 4
    calls.clear()
    edit(mini / "maps" / "mini" / "board.yaml", "Mini Board", "Mini Board!")
    load_game(game_files(mini, "mini"), reads)
    assert calls == []
    edit(mini / "scenarios" / "mini" / "game.yaml", "{id: division,", "{id: corps,")
    load_game(game_files(mini, "mini"), reads)
    assert len(calls) == 2


def test_the_memo_keeps_the_files_of_the_latest_load_only(mini: Path) -> None:
    reads = Reads()
    files = game_files(mini, "mini")
    load_game(files, reads)
    assert len(reads) == len(files.all) == 6
    (mini / "counters" / "mini" / "more.csv").unlink()
    units = mini / "counters" / "mini" / "units.yaml"
    units.rename(units.with_name("renamed.yaml"))
    for _ in range(3):
        edit(mini / "maps" / "mini" / "board.yaml", "Mini Board", "Mini Board!")
        load_game(game_files(mini, "mini"), reads)
    assert len(reads) == 5  # the deleted and the old name gone, one entry for the map saved three times


@pytest.mark.slow
def test_two_games_share_one_memo(tmp_path: Path, mini: Path, parses: list[str]) -> None:
    project = tmp_path / "two"
    for folder in ("maps", "counters", "scenarios"):
        shutil.copytree(mini / folder / "mini", project / folder / "mini")
        shutil.copytree(ROOT / folder / "bfm", project / folder / "bfm")
    reads = Reads()
    for gid in ("mini", "bfm", "mini", "bfm"):
        same_as_fresh(project, gid, reads)
    parses.clear()
    load_game(game_files(project, "bfm"), reads)
    load_game(game_files(project, "mini"), reads)
    assert parses == []
    assert len(reads) == len(game_files(project, "bfm").all) + len(game_files(project, "mini").all)


def test_a_spreadsheet_saved_in_utf16_or_a_code_page_reads_through_the_memo(mini: Path, parses: list[str]) -> None:
    """Excel's "Unicode Text" (UTF-16 with a byte-order mark, tabs) and a Windows-1252 CSV (whose note,
    HW-IO-004, a memo hit must give again) load through the memo as they do without it."""
    from sheet_programs import excel_unicode_text, excel_windows

    more = mini / "counters" / "mini" / "more.csv"
    rows = [line.split(",") for line in more.read_text(encoding="utf-8").splitlines()]
    more.write_bytes(excel_unicode_text(rows))
    reads = Reads()
    assert same_as_fresh(mini, "mini", reads).ok
    parses.clear()
    result = same_as_fresh(mini, "mini", reads)  # the memo's (and the fresh load's: one parse each)
    assert result.ok and parses.count("more.csv") == 1
    assert "red-2" in result.valid_game.counters
    rows[1][4] = "2é"  # the designation: text in any code page
    more.write_bytes(excel_windows(rows))
    first = same_as_fresh(mini, "mini", reads)
    again = same_as_fresh(mini, "mini", reads)
    assert [d.code for d in first.diagnostics] == [d.code for d in again.diagnostics] == ["HW-IO-004"]
    assert again.valid_game.counters["red-2"].designation == "2é"


@pytest.mark.slow
def test_loading_and_checking_leave_the_remembered_files_unchanged() -> None:
    """A remembered Source is shared by later loads: loading a game and checking its rules must leave the
    values read from its files as a file read on its own gives them."""
    from authoring.load.project import read
    from authoring.rules import check_game

    reads = Reads()
    files = game_files(ROOT, "typhoon")
    check_game(load_game(files, reads).valid_game)
    first = reads.begin(str(files.manifest)).known
    check_game(load_game(files, reads).valid_game)
    entries = reads.begin(str(files.manifest)).known
    assert len(entries) == len(files.all) and all(entries[key] is first[key] for key in first)  # no file changed
    for (path, kind), entry in entries.items():
        alone = read(Path(path), kind, [])
        assert entry.src is not None and alone is not None
        assert entry.src.data == alone.data, path


def test_a_load_from_another_folder_names_files_as_seen_from_there(mini: Path, monkeypatch) -> None:
    """Findings name files relative to the working folder: a memo hit made from another folder is not reused."""
    edit(mini / "maps" / "mini" / "board.yaml", '"0303"', '"0909"')
    reads = Reads()
    monkeypatch.chdir(mini)
    near = same_as_fresh(mini, "mini", reads)
    monkeypatch.chdir(mini / "maps")
    far = same_as_fresh(mini, "mini", reads)
    assert [d.loc.file for d in near.diagnostics] == [str(Path("maps/mini/board.yaml"))]
    assert [d.loc.file for d in far.diagnostics] == [str(Path("mini/board.yaml"))]
