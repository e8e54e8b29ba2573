"""The preview's edits as changes to a data file's text (`yamltext.Doc`): a unit moved to a hex, box, pool or
turn, a hex painted with a terrain type, a hexside feature added or taken away (between two hexes, or on the
map's edge), two hexes joined or cut apart by a path (a road, a rail), an arrival moved to another turn. Each names what it changes by value (a unit id, a hex id), never by a position the page saw."""

from __future__ import annotations

import bisect
import copy
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
    _neighbours(mp, a, b)
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


def _neighbours(mp: Map, a: str, b: str) -> None:
    ha, hb = mp.grid.label_to_hex(a), mp.grid.label_to_hex(b)
    if ha is None or hb is None or ha.distance(hb) != 1:
        raise _refuse(f"{a} and {b} are not neighbouring hexes of map {mp.id!r}")


def edge_side(doc: Doc, game: Game, mp: Map, label: str, direction: int, kind: str, want: bool | None = None) -> bool:
    """Add the hexside feature `kind` on side `direction` (0..5) of hex `label`, a side on the map's edge,
    written `{hex, side}`, or take it away (whichever `want` says; None: the other of what it is now). Whether
    it is there now."""
    if kind not in {t.id for t in game.hexside_features}:
        raise _refuse(f"no hexside feature {kind!r} in game {game.id!r}")
    h = mp.grid.label_to_hex(label)
    if h is None or not 0 <= direction < 6 or h.neighbour(direction) in mp.grid:
        raise _refuse(f"that side of {label} is not on the edge of map {mp.id!r}")
    for i, side in enumerate((doc.expected.get("hexsides") or {}).get(kind) or ()):
        if isinstance(side, dict) and side.get("hex") == label and _direction(mp, side.get("side")) == direction:
            if want is not True:
                doc.remove_item(("hexsides", kind), i)
            return want is True
    if want is not False:
        _add_sorted(doc, ("hexsides",), kind, {"hex": label, "side": mp.grid.direction_name(direction)})
    return want is not False


def _direction(mp: Map, name) -> int | None:
    try:
        return mp.grid.direction_index(name)
    except (AttributeError, KeyError, ValueError):
        return None


def path_link(doc: Doc, game: Game, mp: Map, a: str, b: str, kind: str, want: bool | None = None) -> bool:
    """Join hexes `a` and `b` by a path of type `kind` (a road, a rail), or cut them apart: whichever `want`
    says (None: the other of what it is now). Joining extends a path that ends at either hex, else adds the
    path `{hexes: [a, b]}`; cutting splits the path that holds them one after the other. Whether they are
    joined now."""
    if kind not in {t.id for t in game.paths}:
        raise _refuse(f"no path type {kind!r} in game {game.id!r}")
    _neighbours(mp, a, b)
    lines = (doc.expected.get("paths") or {}).get(kind) or []
    for i, line in enumerate(lines):
        cells = _cells(line)
        for j in range(len(cells) - 1):
            if _is_hex(cells[j]) and _is_hex(cells[j + 1]) and {cells[j], cells[j + 1]} == {a, b}:
                if want is not True:
                    _cut(doc, kind, i, j)
                return want is True
    if want is not False:
        _link(doc, kind, lines, a, b)
    return want is not False


def _cells(line) -> list:
    found = line.get("hexes") if isinstance(line, dict) else None
    return found if isinstance(found, list) else []


def _is_hex(cell) -> bool:
    return not isinstance(cell, dict)  # a dict is an `{exit: ...}` at a path's end


def _kept(part: list) -> bool:
    """Whether a piece of a cut path is still a path: two hexes, or one leaving the map by its exit."""
    hexes = sum(1 for c in part if _is_hex(c))
    return hexes >= 2 or (hexes == 1 and len(part) > 1)


def _cut(doc: Doc, kind: str, i: int, j: int) -> None:
    """Path `i` loses its link between hexes `j` and `j + 1`: the pieces before and after stay as paths
    (the one after as a new entry with the path's other keys), a piece too short to be a path goes."""
    line = doc.expected["paths"][kind][i]
    cells = list(line["hexes"])
    before, after = _kept(cells[: j + 1]), _kept(cells[j + 1 :])
    hexes = ("paths", kind, i, "hexes")
    if not before and not after:
        doc.remove_item(("paths", kind), i)
        return
    second = {k: (cells[j + 1 :] if k == "hexes" else copy.deepcopy(v)) for k, v in line.items()}
    gone = range(len(cells) - 1, j, -1) if before else range(j, -1, -1)
    for k in gone:
        doc.remove_item(hexes, k)
    if before and after:
        doc.insert_item(("paths", kind), second, i + 1)


def _link(doc: Doc, kind: str, lines: list, a: str, b: str) -> None:
    for i, line in enumerate(lines):
        cells = _cells(line)
        for end, at in ((cells[-1:], None), (cells[:1], 0)):
            if end and _is_hex(end[0]) and end[0] in (a, b):
                doc.insert_item(("paths", kind, i, "hexes"), b if end[0] == a else a, at)
                return
    _append(doc, ("paths", kind), {"hexes": [a, b]})
