"""`validate` and `list` as library functions: load every game a path names, then run the rules engine."""
from __future__ import annotations

from pathlib import Path

from authoring.diagnostics import Diagnostic
from authoring.load import game_for_path, load_game


def rule_checks(result) -> list[Diagnostic]:
    try:
        from authoring.rules import check_game
    except ModuleNotFoundError:
        return []
    return list(check_game(result.game))


def validate_path(path: Path, rules: bool = True) -> tuple[Path, list[Diagnostic], int]:
    root, games = game_for_path(path)
    diags: list[Diagnostic] = []
    for files in games:
        result = load_game(files)
        diags += result.diagnostics
        if rules and result.checkable:
            # the engine skips entries the loader could not resolve, so all findings come in one run
            diags += rule_checks(result)
    return root, diags, len(games)


def summarize(path: Path) -> tuple[list[dict], list[Diagnostic]]:
    root, games = game_for_path(path)
    rows, diags = [], []
    for files in games:
        result = load_game(files)
        diags += result.diagnostics
        g = result.game
        if g is None:
            rows.append({"id": files.id, "name": "(manifest has errors)", "maps": [], "scenarios": [], "counters": 0,
                         "counter_mix": 0})
            continue
        rows.append({
            "id": g.id, "name": g.name,
            "maps": [{"id": m.id, "name": m.name, "hexes": len(m.hexes)} for m in g.maps.values()],
            "scenarios": [{"id": s.id, "name": s.name, "turns": len(s.turns), "maps": list(s.maps)}
                          for s in g.scenarios.values()],
            "counters": len(g.counters), "counter_mix": sum(c.quantity for c in g.counters.values()),
        })
    return rows, diags
