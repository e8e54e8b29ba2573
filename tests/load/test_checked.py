"""A build's loaded and checked game is kept and reused only while everything it was read from is unchanged
(`authoring.checked`): its data files, the art its data names anywhere in the project, the working folder."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import authoring.load
from authoring.checked import load_checked
from authoring.cli import main
from authoring.load import discover
from authoring.vassal.art import canonical

STAR = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="{r}"/></svg>'


@pytest.fixture
def project(mini: Path) -> Path:
    """The mini game, its red unit showing an emblem kept outside the game's folders (`art/star.svg`)."""
    (mini / "art").mkdir()
    (mini / "art" / "star.svg").write_text(STAR.format(r=15))
    units = mini / "counters" / "mini" / "units.yaml"
    units.write_text(units.read_text().replace("  - id: red-1\n", "  - id: red-1\n    picture: ../../art/star.svg\n"))
    return mini


@pytest.fixture
def loads(monkeypatch) -> list:
    """The games `load_game` really loaded (read from their files, not from the cache)."""
    made: list = []
    real = authoring.load.load_game

    def counted(files):
        made.append(files.id)
        return real(files)
    monkeypatch.setattr(authoring.load, "load_game", counted)
    return made


def load(project: Path, cache: Path):
    return load_checked(discover(project)[0], cache)


def test_unchanged_files_are_read_back_as_the_same_game_and_findings(project, tmp_path, loads):
    cache = tmp_path / "cache"
    first, found = load(project, cache)
    again, found_again = load(project, cache)
    assert loads == ["mini"]
    assert (cache / "mini.pickle").is_file()
    assert first.ok and again is not first
    assert canonical(again.game) == canonical(first.game)
    assert again.files == first.files
    assert [(d.code, d.message, d.loc) for d in found_again] == [(d.code, d.message, d.loc) for d in found]
    picture = again.game.counters["red-1"].faces[0].picture
    assert picture is not None and Path(picture.path) == (project / "art" / "star.svg").resolve()


def test_a_changed_data_file_is_loaded_again(project, tmp_path, loads):
    cache = tmp_path / "cache"
    load(project, cache)
    units = project / "counters" / "mini" / "units.yaml"
    units.write_text(units.read_text().replace("{attack: 4, movement: 4}", "{attack: 6, movement: 4}"))
    result, _ = load(project, cache)
    assert loads == ["mini", "mini"]
    assert result.game.counters["red-1"].faces[0].values["attack"] == 6


def test_named_art_outside_the_game_folders_is_watched_by_its_bytes(project, tmp_path, loads):
    cache = tmp_path / "cache"
    first, _ = load(project, cache)
    (project / "art" / "star.svg").write_text(STAR.format(r=9))
    result, _ = load(project, cache)
    assert loads == ["mini", "mini"]
    digest = hashlib.sha256((project / "art" / "star.svg").read_bytes()).hexdigest()
    assert result.game.counters["red-1"].faces[0].picture.sha256 == digest
    assert first.game.counters["red-1"].faces[0].picture.sha256 != digest


def test_a_named_file_that_is_gone_fails_the_build_instead_of_coming_from_the_cache(project, tmp_path, loads):
    cache = tmp_path / "cache"
    load(project, cache)
    (project / "art" / "star.svg").unlink()
    _, found = load(project, cache)
    assert loads == ["mini", "mini"]
    assert "HW-PATH-011" in [d.code for d in found]


def test_a_symbolic_link_pointed_elsewhere_is_loaded_again_even_with_the_same_bytes(project, tmp_path, loads):
    art = project / "art"
    (art / "a.svg").write_text(STAR.format(r=15))
    (art / "b.svg").write_text(STAR.format(r=15))
    (art / "star.svg").unlink()
    (art / "star.svg").symlink_to("a.svg")
    cache = tmp_path / "cache"
    load(project, cache)
    (art / "star.svg").unlink()
    (art / "star.svg").symlink_to("b.svg")
    result, _ = load(project, cache)
    assert loads == ["mini", "mini"]
    assert Path(result.game.counters["red-1"].faces[0].picture.path) == (art / "b.svg").resolve()


def test_another_working_folder_loads_again_for_its_relative_paths_in_messages(project, tmp_path, loads, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.chdir(project)
    load(project, cache)
    monkeypatch.chdir(tmp_path)
    result, _ = load(project, cache)
    assert loads == ["mini", "mini"]
    assert result.game.counters["red-1"].loc.file == os.path.relpath(project / "counters" / "mini" / "units.yaml")


def test_a_game_with_errors_is_never_kept(project, tmp_path, loads):
    cache = tmp_path / "cache"
    (project / "art" / "star.svg").unlink()
    _, found = load(project, cache)
    assert "HW-PATH-011" in [d.code for d in found]
    assert not (cache / "mini.pickle").exists()


@pytest.mark.parametrize("damage", [b"", b"hexwright-loaded 1\n", b"not an entry at all"])
def test_a_damaged_entry_is_loaded_again_and_replaced(project, tmp_path, loads, damage):
    cache = tmp_path / "cache"
    load(project, cache)
    entry = cache / "mini.pickle"
    kept = entry.read_bytes()
    entry.write_bytes(damage or kept[: len(kept) // 2])
    result, _ = load(project, cache)
    assert loads == ["mini", "mini"] and result.ok
    assert entry.read_bytes() == kept


def test_a_forced_build_reads_its_game_from_the_cache_and_writes_the_same_module(project, tmp_path, loads):
    out = tmp_path / "out"
    command = ["build", "module", "--project", str(project), "--out", str(out), "--jobs", "1"]
    first = CliRunner().invoke(main, command)
    assert first.exit_code == 0, first.output
    module = (out / "mini" / "mini.vmod").read_bytes()
    again = CliRunner().invoke(main, [*command, "--force"])
    assert again.exit_code == 0, again.output
    assert loads == ["mini"]
    assert (out / "mini" / "mini.vmod").read_bytes() == module
    assert (out / ".cache" / "loaded" / "mini.pickle").is_file()


class _Planted:
    """What a stranger's pickle could hold: a call to any function it names (here `pathlib.Path.touch`)."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return Path.touch, (self.marker,)


def test_an_entry_that_would_call_a_function_is_never_run_and_the_files_are_loaded(project, tmp_path, loads):
    import pickle

    from authoring.checked import MAGIC, _key
    cache = tmp_path / "cache"
    files = discover(project)[0]
    marker = tmp_path / "ran"
    (cache).mkdir()
    (cache / "mini.pickle").write_bytes(MAGIC + _key(files) + b"\n" + pickle.dumps(([], _Planted(marker), [])))
    result, _ = load(project, cache)
    assert not marker.exists()
    assert loads == ["mini"] and result.ok


def test_a_data_file_rewritten_with_the_same_bytes_is_loaded_again(project, tmp_path, loads):
    """The key holds each file's inode: an entry made elsewhere (a build folder that came with the game)
    never matches, even for the same bytes at the same paths."""
    cache = tmp_path / "cache"
    load(project, cache)
    units = project / "counters" / "mini" / "units.yaml"
    text = units.read_bytes()
    units.unlink()
    (project / "other").write_bytes(b"x" * 64)   # the freed inode is not simply taken again
    units.write_bytes(text)
    load(project, cache)
    assert loads == ["mini", "mini"]


def test_a_file_gone_since_the_game_was_found_is_reported_by_the_load(project, tmp_path, loads):
    files = discover(project)[0]
    (project / "counters" / "mini" / "units.yaml").unlink()
    result, found = load_checked(files, tmp_path / "cache")
    assert loads == ["mini"] and not result.ok
    assert any(d.code.startswith("HW-IO") for d in found)
    assert not (tmp_path / "cache" / "mini.pickle").exists()
