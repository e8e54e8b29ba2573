"""Data accepts what the command line accepts, and explains mistakes in words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from authoring.cli import main
from authoring.lengths import parse_length


@pytest.mark.parametrize(
    "text, inches",
    [
        ("5/8", 0.625),
        ("5/8in", 0.625),
        ('5/8"', 0.625),
        ("0.625", 0.625),
        ("0.625in", 0.625),
        ("16mm", 16 / 25.4),
        ("12pt", 12 / 72),
        ("1", 1.0),
        (" 3/4 in ", 0.75),
        (0.5, 0.5),
        (1, 1.0),
    ],
)
def test_lengths_read_as_designers_write_them(text, inches):
    assert parse_length(text) == pytest.approx(inches)


@pytest.mark.parametrize("text", ["5/8x", "five-eighths", "1/0", "", "in", True, None])
def test_not_lengths(text):
    assert parse_length(text) is None


def _validate(project: Path) -> tuple[int, str]:
    r = CliRunner().invoke(main, ["validate", str(project), "--format", "concise"], catch_exceptions=False)
    return r.exit_code, r.output


def _set_counter_size(mini: Path, value: str) -> None:
    game = mini / "scenarios/mini/game.yaml"
    text = re.sub(r"(?m)^counter_size:.*\n", "", game.read_text(encoding="utf-8"))
    game.write_text(text + f"counter_size: {value}\n", encoding="utf-8")


@pytest.mark.parametrize("value, inches", [("5/8", 0.625), ("5/8in", 0.625), ("16mm", 16 / 25.4), ("0.75", 0.75)])
def test_counter_size_in_game_yaml_as_on_the_command_line(mini: Path, value: str, inches: float):
    _set_counter_size(mini, value)
    assert _validate(mini) == (0, "All checks passed.\n")
    from authoring.load import discover, load_game

    game = load_game(discover(mini)[0]).game
    assert game.counter_size_in == pytest.approx(inches)


def test_a_pattern_error_is_explained_in_words(mini: Path):
    _set_counter_size(mini, "5/8x")
    code, out = _validate(mini)
    assert code == 1
    assert 'error[HW-SCHEMA-007]: `counter_size`: "5/8x" is not a length' in out
    assert "help: write a number and a unit, e.g. '5/8in', '0.625in', '16mm' or '12pt'" in out
    assert "[0-9]" not in out and "^" not in out.replace("^^", "")


def test_a_bad_id_is_explained_in_words(mini: Path):
    game = mini / "scenarios/mini/game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("{id: red, name: Red", '{id: "red side", name: Red'))
    code, out = _validate(mini)
    assert code == 1 and 'error[HW-SCHEMA-007]: `sides[0].id`: "red side" is not an id' in out
    assert "[A-Za-z" not in out


def test_a_tab_in_yaml_is_named(mini: Path):
    (mini / "maps/mini/board.yaml").write_text(
        "kind: map\ngame: mini\nid: board\nname: B\ngrid:\n\torientation: flat\n"
    )
    code, out = _validate(mini)
    assert code == 1
    assert "board.yaml:6:1: error[HW-YAML-010]: tab character: YAML indents with spaces" in out


def test_docs_format_write_goes_into_the_current_project(tmp_path: Path, monkeypatch):
    project = tmp_path / "game"
    r = CliRunner().invoke(main, ["init", str(project), "--from", "bfm"])
    assert r.exit_code == 0, r.output
    assert "docs/format.md" in (project / "README.md").read_text(encoding="utf-8")
    assert "# Battle for Moscow" in (project / "README.md").read_text(encoding="utf-8")
    (project / "docs" / "format.md").write_text("stale\n")
    own = Path(__file__).resolve().parents[2] / "docs" / "format.md"
    stamp = own.stat().st_mtime_ns
    monkeypatch.chdir(project)
    r = CliRunner().invoke(main, ["docs", "format", "--write"])
    assert r.exit_code == 0, r.output
    assert (project / "docs" / "format.md").read_text(encoding="utf-8").startswith("# hexwright data format")
    assert own.stat().st_mtime_ns == stamp
    assert CliRunner().invoke(main, ["docs", "format", "--check"]).exit_code == 0
