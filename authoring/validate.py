"""`validate` and `list` as library functions: load every game a path names, then run the rules engine."""

from __future__ import annotations

from pathlib import Path

from authoring.diagnostics import Diagnostic
from authoring.load import LoadResult, game_for_path, load_game
from authoring.load.project import GameFiles
from authoring.render.counters.markings import printed_findings
from authoring.render.limits import stage_findings
from authoring.rules import check_game
from authoring.runtime import gc_paused


def findings(result: LoadResult, rules: bool = True) -> list[Diagnostic]:
    """Everything wrong with a loaded game: the loader's findings, then the rules engine's.

    The engine runs whenever every file loaded (`LoadResult.checkable`: it skips entries whose references
    dangle, so all findings come in one run), never on a game missing a file, whose findings would be
    echoes: a note (HW-CHECK-001) then names the files that kept it from running."""
    if not rules:
        return list(result.diagnostics)
    if not result.checkable:
        return list(result.diagnostics) + result.not_checked()
    return (
        list(result.diagnostics)
        + list(check_game(result.game))
        + printed_findings(result.game)
        + stage_findings(result.game)
    )


def validate_path(path: Path, rules: bool = True) -> tuple[Path, list[Diagnostic], int]:
    root, games = game_for_path(path)
    return root, validate_games(games, rules), len(games)


@gc_paused
def validate_games(games: list[GameFiles], rules: bool = True) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for files in games:
        diags += findings(load_game(files), rules)
    return diags


def summarize(games: list[GameFiles]) -> tuple[list[dict], list[Diagnostic]]:
    rows, diags = [], []
    for files in games:
        result = load_game(files)
        diags += result.diagnostics
        g = result.game
        if g is None:
            rows.append(
                {
                    "id": files.id,
                    "name": "(manifest has errors)",
                    "maps": [],
                    "scenarios": [],
                    "counters": 0,
                    "counter_mix": 0,
                }
            )
            continue
        rows.append(
            {
                "id": files.id,
                "name": g.name,  # the folder names the game (HW-ID-001 reports an id: that differs)
                "maps": [{"id": m.id, "name": m.name, "hexes": len(m.hexes)} for m in g.maps.values()],
                "scenarios": [
                    {"id": s.id, "name": s.name, "turns": len(s.turns), "maps": list(s.maps)}
                    for s in g.scenarios.values()
                ],
                "counters": len(g.counters),
                "counter_mix": sum(c.quantity for c in g.counters.values()),
            }
        )
    return rows, diags
