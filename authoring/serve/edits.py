"""The preview's edits as changes to a data file's text (`yamltext.Doc`): a unit moved to a hex, box, pool or
turn, a hex painted with a terrain type, a hexside feature added or taken away, an arrival moved to another
turn. Each names what it changes by value (a unit id, a hex id), never by a position the page saw."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from authoring.model import Game, Map
from authoring.serve.body import BadRequest
from authoring.serve.yamltext import Doc, Steps

GROUPS = ("setup", "off_map", "reinforcements", "pools")
"""Where a scenario lists units: `setup` and `off_map` by side, `reinforcements` and `pools` as one list."""


def _refuse(message: str) -> BadRequest:
    return BadRequest(400, message)


def _entries(data: dict) -> Iterator[tuple[Steps, str, dict]]:
    """(path, side, entry) of every entry of a scenario that lists units."""
    for group in GROUPS:
        found = data.get(group)
        if isinstance(found, dict):
            for side, items in found.items():
                for i, entry in enumerate(items or ()):
                    yield (group, side, i), side, entry
        elif isinstance(found, list):
            for i, entry in enumerate(found):
                yield (group, i), entry.get("side", ""), entry


def _find_unit(data: dict, unit: str) -> tuple[Steps, str, dict]:
    for path, side, entry in _entries(data):
        if unit in entry.get("units", ()):
            return path, side, entry
    raise _refuse(f"the scenario lists no unit {unit!r}")


def move_unit(doc: Doc, unit: str, to: dict) -> str:
    """Move `unit` to `to`: {"hex": id} (set-up), {"box": id} (off-map), {"pool": id} or {"turn": n} (an
    arrival). A unit alone in its entry, moved to the same kind of place, keeps its entry (its hex or turn
    changes); else it leaves its entry (or the entry goes) and joins a matching one or a new one."""
    path, side, entry = _find_unit(doc.expected, unit)
    kind, where = _target(to)
    alone = entry["units"] == [unit]
    same_kind = {"hex": "setup", "box": "off_map", "turn": "reinforcements"}.get(kind) == path[0]
    if alone and same_kind:
        field = {"setup": "hex", "off_map": "box", "reinforcements": "turn"}[path[0]]
        if entry.get(field) == where:
            raise _refuse(f"{unit} is already there")
        doc.set_scalar((*path, field), where)
        return f"{unit} to {kind} {where}"
    carried = {k: entry[k] for k in ("state", "at") if k in entry}
    if alone:
        doc.remove_item(path[:-1], path[-1])
    else:
        doc.remove_item((*path, "units"), entry["units"].index(unit))
    _join(doc, unit, side, kind, where, carried)
    return f"{unit} to {kind} {where}"


def _target(to: dict) -> tuple[str, object]:
    given = [(k, v) for k, v in to.items() if k in ("hex", "box", "pool", "turn")]
    if len(given) != 1:
        raise _refuse("name one place to move to: hex, box, pool or turn")
    return given[0]


def _join(doc: Doc, unit: str, side: str, kind: str, where, carried: dict) -> None:
    """Put `unit` with the entry at `where` that already holds units like it, or in a new entry."""
    data = doc.expected
    state = carried.get("state")
    if kind == "pool":
        pools = data.get("pools") or []
        i = next((i for i, p in enumerate(pools) if p.get("id") == where), None)
        if i is None:
            raise _refuse(f"the scenario has no pool {where!r}")
        doc.insert_item(("pools", i, "units"), unit)
        return
    if kind == "turn":
        group, key = ("reinforcements",), {"turn": where, "side": side}
        items = data.get("reinforcements")
        match = {"turn": where, "side": side, "at": carried.get("at"), "state": state}
    else:
        group = ("setup" if kind == "hex" else "off_map", side)
        key = {kind: where}
        items = (data.get(group[0]) or {}).get(side)
        match = {kind: where, "state": state}
    for i, e in enumerate(items or ()):
        if all(e.get(k) == v for k, v in match.items()):
            doc.insert_item((*group, i, "units"), unit)
            return
    new = {**key, "units": [unit], **({"at": carried["at"]} if kind == "turn" and "at" in carried else {})}
    if state is not None:
        new["state"] = state
    turns = [e.get("turn", 0) for e in items or ()] if kind == "turn" else []
    before = next((i for i, t in enumerate(turns) if t > where), None) if turns == sorted(turns) else None
    _append(doc, group, new, before)


def _append(doc: Doc, group: Steps, entry: dict, before: int | None = None) -> None:
    """`entry` into the list at `group` (before item `before`; None: at the end), making the list (and its
    side's mapping) when missing."""
    if doc.node(group) is not None:
        doc.insert_item(group, entry, before)
    elif len(group) == 2 and doc.node(group[:1]) is not None:
        doc.add_key(group[:1], group[1], [entry])
    elif len(group) == 2:
        doc.add_key((), group[0], {group[1]: [entry]})
    else:
        doc.add_key((), group[0], [entry])


def move_arrival(doc: Doc, units: list[str], turn: int, to_turn: int) -> str:
    """The reinforcement of turn `turn` that brings exactly `units` arrives on `to_turn` instead."""
    for i, r in enumerate(doc.expected.get("reinforcements") or ()):
        if r.get("turn") == turn and r.get("units") == units:
            if turn == to_turn:
                raise _refuse("the arrival is already on that turn")
            doc.set_scalar(("reinforcements", i, "turn"), to_turn)
            return f"arrival of {', '.join(units)} to turn {to_turn}"
    raise _refuse(f"no arrival of {', '.join(units)} on turn {turn}")


def paint(doc: Doc, game: Game, mp: Map, label: str, terrain: str) -> str | None:
    """The hex's terrain becomes `terrain` alone: taken out of every other terrain list, put in this type's
    (in its sorted place when the list is sorted); the map's default terrain is no list. None: it is so."""
    if terrain not in {t.id for t in game.terrain}:
        raise _refuse(f"no terrain type {terrain!r} in game {game.id!r}")
    if mp.grid.label_to_hex(label) is None:
        raise _refuse(f"map {mp.id!r} has no hex {label!r}")
    lists = doc.expected.get("terrain") or {}
    had = [t for t, hexes in lists.items() if label in (hexes or ())]
    want = [] if terrain == mp.default_terrain else [terrain]
    if sorted(had) == want:
        return None
    for t in had:
        if t != terrain:
            doc.remove_item(("terrain", t), doc.expected["terrain"][t].index(label))
    if want and terrain not in had:
        _add_sorted(doc, ("terrain",), terrain, label)
    return f"{label} painted {terrain}"


def _add_sorted(doc: Doc, parent: Steps, key: str, item) -> None:
    """`item` into the list `parent.key`: in its sorted place when the list is sorted, else at the end."""
    found = (doc.expected.get(parent[0]) or {}).get(key) if len(parent) == 1 else None
    if doc.node(parent) is None:
        doc.add_key((), parent[0], {key: [item]})
    elif found is None:
        doc.add_key(parent, key, [item])
    else:
        keys = [_sort_key(v) for v in found]
        at = bisect.bisect(keys, _sort_key(item)) if keys == sorted(keys) else None
        doc.insert_item((*parent, key), item, at)


def _sort_key(value) -> tuple:
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    if isinstance(value, dict):
        return tuple(str(v) for v in value.get("hexes") or (value.get("hex", ""),))
    return (str(value),)


def hexside(doc: Doc, game: Game, mp: Map, a: str, b: str, kind: str, want: bool | None = None) -> bool:
    """Add the hexside feature `kind` between hexes `a` and `b` of the map, or take it away (written as either
    pair or as `{hexes: [...]}`): whichever `want` says (None: the other of what it is now). Whether it is
    there now."""
    if kind not in {t.id for t in game.hexside_features}:
        raise _refuse(f"no hexside feature {kind!r} in game {game.id!r}")
    ha, hb = mp.grid.label_to_hex(a), mp.grid.label_to_hex(b)
    if ha is None or hb is None or ha.distance(hb) != 1:
        raise _refuse(f"{a} and {b} are not neighbouring hexes of map {mp.id!r}")
    pair = {a, b}
    for i, side in enumerate((doc.expected.get("hexsides") or {}).get(kind) or ()):
        hexes = side if isinstance(side, list) else side.get("hexes") if isinstance(side, dict) else None
        if hexes and set(hexes) == pair:
            if want is not True:
                doc.remove_item(("hexsides", kind), i)
            return want is True
    if want is not False:
        _add_sorted(doc, ("hexsides",), kind, sorted(pair))
    return want is not False
