"""The page's scenario: who sets up where, what arrives, leaves or waits in pools on each turn, the findings
with their file:line and rule, and for each counter the hexes its set-up code allows."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from authoring.diagnostics import Diagnostic, sorted_diagnostics
from authoring.model import Game, Scenario, face_texts
from authoring.render.maps.frame import map_notice
from authoring.rules.board import Board, build_board
from authoring.rules.codes import code_target, parse_on, resolve_at
from authoring.serve.frame import scenario_maps


def _units(game: Game, units: Iterable[str], state: str | None) -> list[dict]:
    out = []
    for uid in units:
        c = game.counters.get(uid)
        face = (c.face(state) if c and state else None) or (c.faces[0] if c and c.faces else None)
        out.append({"id": uid, "state": face.state if face else (state or ""), "known": c is not None})
    return out


def _where(board: Board, at: str, side: str, known: dict[frozenset, tuple[str, ...]]) -> list[str]:
    hexes = resolve_at(board, at, side) if at else None
    return list(_labels(board, hexes, known)) if hexes else []


def schedule(game: Game, scen: Scenario, board: Board) -> dict:
    """Turns, and per side what arrives, leaves, waits off-map or in pools (the turn slider's data)."""
    known: dict[frozenset, tuple[str, ...]] = {}  # arrivals name the same few hex sets

    def timed(items) -> list[dict]:
        return [
            {
                "turn": r.turn,
                "side": r.side,
                "at": r.at,
                "hexes": _where(board, r.at, r.side, known),
                "units": _units(game, r.units, r.state),
            }
            for r in items
        ]

    return {
        "turns": [{"turn": t.turn, "date": t.date, "weather": t.weather, "notes": list(t.notes)} for t in scen.turns],
        "reinforcements": timed(scen.reinforcements),
        "withdrawals": timed(scen.withdrawals),
        "pools": [
            {
                "id": p.id,
                "name": p.name or p.id,
                "side": p.side,
                "available": p.available,
                "at": p.at,
                "hexes": _where(board, p.at, p.side, known),
                "units": _units(game, p.units, None),
            }
            for p in scen.pools
        ],
        "off_map": [{"box": o.box, "side": o.side, "units": _units(game, o.units, o.state)} for o in scen.off_map],
    }


def placements(game: Game, scen: Scenario) -> list[dict]:
    return [
        {"side": p.side, "hex": p.label, "units": _units(game, p.units, p.state), "line": p.loc.line if p.loc else 0}
        for p in scen.setup
    ]


def scenario_units(scen: Scenario) -> list[tuple[str, str]]:
    """(unit, side) of every unit the scenario names, once each, in order."""
    seen: dict[str, str] = {}
    for group in (scen.setup, scen.reinforcements, scen.withdrawals, scen.pools, scen.off_map):
        for item in group:
            for uid in item.units:
                seen.setdefault(uid, item.side)
    return list(seen.items())


def counters(game: Game, scen: Scenario, board: Board) -> tuple[dict, list[list[str]]]:
    """Each scenario counter's values, code and code meaning, and the distinct hex lists codes allow."""
    targets: dict[tuple[str, ...], int] = {}
    labelled: dict[frozenset, tuple[str, ...]] = {}  # many counters share a code, so its hexes
    out = {}
    for uid, side in scenario_units(scen):
        c = game.counters.get(uid)
        if c is None:
            continue
        match = parse_on(board, c.setup_code, c.side or side, c) if c.setup_code else None
        allowed = code_target(board, match) if match is not None else None
        key = _labels(board, allowed, labelled) if allowed is not None else None
        out[uid] = {
            "id": uid,
            "name": c.name or c.designation,
            "side": c.side or side,
            "type": c.type or "",
            "size": c.size or "",
            "code": c.setup_code,
            "meaning": match.text() if match else "",
            "faces": [{"state": f.state, "values": dict(face_texts(game, c, f))} for f in c.faces],
            "allowed": targets.setdefault(key, len(targets)) if key is not None else None,
        }
    return out, [list(k) for k in targets]


def _labels(board: Board, hexes: frozenset, known: dict[frozenset, tuple[str, ...]]) -> tuple[str, ...]:
    """The hexes' printed ids, sorted (kept in `known`: the same set is labelled once)."""
    found = known.get(hexes)
    if found is None:
        found = known[hexes] = tuple(sorted(board.label(h) for h in hexes))
    return found


def _file(root: Path, name: str) -> str:
    p = Path(name)
    try:
        return p.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return name


def findings(diags: Sequence[Diagnostic], root: Path) -> list[dict]:
    """Findings in the order of the text report, numbered as on `check --image`."""
    return [
        {
            "n": n,
            "severity": d.severity.value,
            "code": d.code,
            "message": d.message,
            "rule": d.rule,
            "help": d.help,
            "hex": d.hex,
            "file": _file(root, d.loc.file) if d.loc else "",
            "line": d.loc.line if d.loc else 0,
            "col": d.loc.col if d.loc else 0,
        }
        for n, d in enumerate(sorted_diagnostics(diags), 1)
    ]


def scenario_view(
    game: Game,
    scen: Scenario,
    diags: Sequence[Diagnostic],
    root: Path,
    units_of: Callable[[Board], tuple[dict, list]] | None = None,
    shared: dict | None = None,
) -> dict:
    """`units_of(board)` may give `counters(game, scen, board)` from a cache (it depends on the manifest, maps
    and counters, not on where the scenario sets up); `shared`: the one `check_scenario` was given for the
    findings, whose hex sets and parsed codes the view then reads rather than works out again."""
    board = build_board(game, scen, shared=shared)
    units, targets = (units_of or (lambda b: counters(game, scen, b)))(board)
    return {
        "scenario": scen.id,
        "name": scen.name,
        "sides": [{"id": s.id, "name": s.name, "color": s.color} for s in game.sides],
        "setup": placements(game, scen),
        "schedule": schedule(game, scen, board),
        "counters": units,
        "targets": targets,
        "findings": findings(diags, root),
        "notice": map_notice(scenario_maps(game, scen.maps)),
    }
