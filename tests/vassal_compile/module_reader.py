"""Read a built module back: declared grids, board positions and decoded set-up pieces (test helper)."""

from __future__ import annotations

import io
import zipfile
from collections import Counter
from dataclasses import dataclass
from typing import Any

from lxml import etree
from PIL import Image

from authoring.model import Game, Scenario
from authoring.vassal import elements as el
from authoring.vassal.codec import decode, deobfuscate, parse_add_piece_command, split_commands, unnest
from authoring.vassal.pieces import MAIN_MAP

_INTS = ("x0", "y0", "hLeading", "hOff", "vLeading", "vOff")
_FLOATS = ("dx", "dy")
_BOOLS = ("sideways", "hDescend", "vDescend", "stagger")


@dataclass(frozen=True)
class DeclaredBoard:
    name: str
    image: str
    size: tuple[int, int]
    params: dict[str, Any]


@dataclass(frozen=True)
class SetupPiece:
    id: str
    name: str
    map: str
    x: int
    y: int
    level: int
    properties: dict[str, str]


def declared_boards(tree: etree._Element, archive: zipfile.ZipFile) -> dict[str, DeclaredBoard]:
    """Main-map boards with their HexGrid + HexGridNumbering attributes parsed as VASSAL types."""
    main = next(m for m in tree.iter(el.MAP) if m.get("mapName") == MAIN_MAP)
    out = {}
    for board in main.iter(el.BOARD):
        attrs = dict(board.find(el.HEX_GRID).attrib)
        attrs.update(board.find(el.HEX_GRID).find(el.HEX_GRID_NUMBERING).attrib)
        params: dict[str, Any] = dict(attrs)
        for k in _INTS:
            params[k] = int(attrs[k])
        for k in _FLOATS:
            params[k] = float(attrs[k])
        for k in _BOOLS:
            params[k] = attrs[k] == "true"
        size = Image.open(io.BytesIO(archive.read("images/" + board.get("image")))).size
        out[board.get("name")] = DeclaredBoard(board.get("name"), board.get("image"), size, params)
    return out


def read_setup(
    archive: zipfile.ZipFile, name: str
) -> tuple[dict[str, list[tuple[str, int, int]]], list[SetupPiece], list[list[str]]]:
    """(boards per map, pieces, stacks) of a predefined set-up inside the module."""
    with zipfile.ZipFile(io.BytesIO(archive.read(name))) as vsav:
        text = deobfuscate(vsav.read("savedGame").decode("utf-8"))
    boards: dict[str, list[tuple[str, int, int]]] = {}
    pieces, stacks = [], []
    for command in split_commands(text):
        if "BoardPicker\t" in command:
            fields = decode(command, "\t")
            boards[fields[0][: -len("BoardPicker")]] = [
                (fields[i], int(fields[i + 1]), int(fields[i + 2])) for i in range(1, len(fields), 3)
            ]
        elif command.startswith("+/"):
            piece_id, definition = parse_add_piece_command(command)
            if definition.type == "stack":
                stacks.append(decode(definition.state, ";")[3:])
            else:
                pieces.append(_piece(piece_id, definition.type, definition.state))
    return boards, pieces, stacks


def _piece(piece_id: str, type_: str, state: str) -> SetupPiece:
    types, states = unnest(type_), unnest(state)
    basic_type, basic_state = decode(types[-1], ";"), decode(states[-1], ";")
    props: dict[str, str] = {}
    level = 1
    for t, s in zip(types, states):
        if t.startswith("mark;"):
            props.update(zip(decode(t[len("mark;") :], ","), decode(s, ",")))
        elif t.startswith("emb2;") and decode(t[len("emb2;") :], ";")[18] == "Step":  # the faces, not a mark
            level = int(s)
    return SetupPiece(piece_id, basic_type[4], basic_state[0], int(basic_state[1]), int(basic_state[2]), level, props)


def board_origins(
    declared: dict[str, DeclaredBoard], placements: list[tuple[str, int, int]]
) -> dict[str, tuple[int, int]]:
    """Top-left pixel of each board in play, by VASSAL's rule (sums of widths in the row, heights in the column)."""
    cells = {(c, r): declared[n].size for n, c, r in placements}
    return {
        n: (sum(cells.get((x, r), (0, 0))[0] for x in range(c)), sum(cells.get((c, y), (0, 0))[1] for y in range(r)))
        for n, c, r in placements
    }


def expected_hex_units(game: Game, scenario: Scenario) -> Counter:
    """(counter id, hex, face level) of every unit the scenario sets up on the maps, and of its markers placed at
    the start."""
    out: Counter = Counter()
    for p in (*scenario.setup, *scenario.markers):
        for unit in p.units:
            states = [f.state for f in game.counters[unit].faces]
            out[(unit, p.hex, states.index(p.state) + 1 if p.state in states else 1)] += 1
    return out
