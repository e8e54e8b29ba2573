"""Class 4 of issue 17: identity never drifts. A game's id is its folder's name; every file's `game:` names the
game it belongs to; options are named once; hex sets that contain themselves are named as a cycle."""

from __future__ import annotations

from pathlib import Path

import pytest
from hw_support import refused
from test_bounded import _edit

GAME = "scenarios/mini/game.yaml"

CASES = {
    "id-differs-from-folder": (
        lambda p: _edit(p, GAME, "\nid: mini\n", "\nid: other\n"),
        r"game\.yaml:\d+:\d+: error\[HW-ID-001\]: game id 'other' differs from its folder scenarios/mini/",
    ),
    "id-differs-in-case": (
        lambda p: _edit(p, GAME, "\nid: mini\n", "\nid: Mini\n"),
        r"error\[HW-ID-001\]: game id 'Mini' differs",
    ),
    "map-game-field": (
        lambda p: _edit(p, "maps/mini/board.yaml", "game: mini", "game: nosuch"),
        r"board\.yaml:2:\d+: error\[HW-ID-003\]: this file says `game: nosuch` but lies in the folders of game 'mini'",
    ),
    "counters-game-field": (
        lambda p: _edit(p, "counters/mini/units.yaml", "game: mini", "game: bfm"),
        r"units\.yaml:2:\d+: error\[HW-ID-003\]",
    ),
    "scenario-game-field": (
        lambda p: _edit(p, "scenarios/mini/intro.yaml", "game: mini", "game: nosuch"),
        r"intro\.yaml:2:\d+: error\[HW-ID-003\]",
    ),
    "tables-game-field": (
        lambda p: _edit(p, "scenarios/mini/tables.yaml", "game: mini", "game: minis"),
        r"tables\.yaml:2:\d+: error\[HW-ID-003\]",
    ),
    "duplicate-option": (
        lambda p: (p / "scenarios/mini/intro.yaml").write_text(
            (p / "scenarios/mini/intro.yaml").read_text()
            + "options:\n  - {id: fog, name: Fog}\n  - {id: fog, name: Fog again}\n"
        ),
        r"intro\.yaml:\d+:\d+: error\[HW-DUP-005\]: duplicate option id 'fog'",
    ),
    "union-cycle": (
        lambda p: _edit(
            p,
            GAME,
            "  west: {edge: west, map: board}",
            "  west: {edge: west, map: board}\n  a: {union: [b]}\n  b: {union: [west, a]}",
        ),
        r"game\.yaml:\d+:\d+: error\[HW-SET-001\]: hex sets form a cycle: a -> b -> a",
    ),
    "except-cycle-through-three": (
        lambda p: _edit(
            p,
            GAME,
            "  west: {edge: west, map: board}",
            "  west: {edge: west, map: board}\n  a: {edge: west, map: board, except: [c]}\n"
            "  b: {union: [a]}\n  c: {union: [b]}",
        ),
        r"error\[HW-SET-001\]: hex sets form a cycle: a -> c -> b -> a",
    ),
    "self-union": (
        lambda p: _edit(
            p, GAME, "  west: {edge: west, map: board}", "  west: {edge: west, map: board}\n  s: {union: [s]}"
        ),
        r"error\[HW-(SET-001|REF-001)\]",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_identity_errors_are_located(name: str, mini_project: Path, cli):
    make, expected = CASES[name]
    make(mini_project)
    r = refused(mini_project, expected)
    assert "no hex on the maps in play" not in r.output


def test_a_game_that_validates_is_listed_and_built_under_its_id(mini_project: Path, cli):
    r = cli("list", str(mini_project))
    assert r.output.startswith("mini: ")
    assert (
        cli("build", "charts", "mini", "--project", str(mini_project), "--out", str(mini_project / "b")).exit_code == 0
    )


@pytest.mark.parametrize("bad", ["con", "Mini_1"])
def test_a_game_id_must_be_a_plain_name(tmp_path: Path, bad: str, cli):
    from hw_support import MINI, copy_game

    project = copy_game(MINI, tmp_path / "p")
    for part in ("scenarios", "maps", "counters"):
        (project / part / "mini").rename(project / part / bad)
    for f in project.rglob("*.yaml"):
        f.write_text(f.read_text().replace("game: mini", f"game: {bad}").replace("\nid: mini\n", f"\nid: {bad}\n"))
    r = cli("validate", str(project), "--format", "concise")
    assert r.exit_code == 1 and "error[HW-ID-002]: game id" in r.output, r.output


def test_a_game_whose_id_differs_is_listed_and_built_by_its_folder(mini_project: Path, cli):
    _edit(mini_project, GAME, "\nid: mini\n", "\nid: other\n")
    r = cli("list", str(mini_project))
    assert r.output.startswith("mini: ") and "run `hexwright validate`" in r.output
    b = cli("build", "module", "mini", "--project", str(mini_project), "--out", str(mini_project / "b"))
    assert b.exit_code == 1 and "HW-ID-001" in b.output
