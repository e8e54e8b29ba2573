"""A small but complete module built by hand with the vassal/ API (no data model involved).

One flat-top 5x5 hex board, three two-sided pieces plus one with a hostile name, a unit
prototype (Delete/Clone/SendTo/markmoved/Report), a dead-pile window with Regions, a
private map, a turn tracker, two dice, a chart and a predefined set-up.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from authoring import atomic
from authoring.vassal import archive
from authoring.vassal import elements as el
from authoring.vassal.codec import key_stroke
from authoring.vassal.traits import (
    DEST_REGION,
    BasicPiece,
    Clone,
    Delete,
    Layer,
    Marker,
    MovementMarkable,
    Piece,
    Report,
    SendTo,
    UsePrototype,
)

MODULE_NAME = "Sample & Test"
MODULE_VERSION = "0.1"
MAIN_MAP = "Main Map"
DEAD_MAP = "Dead Pile"
HOSTILE_NAME = "<\"&'>"
LOCATION_PREFIX = "Hex "
SIDE = 36
DX = 1.5 * SIDE
DY = round(math.sqrt(3) * SIDE, 2)
X0, Y0 = SIDE, round(DY / 2)
COLS = ROWS = 5
DEAD_REGIONS = (("Blue dead", 50, 50), ("Red dead", 150, 50))
DATE_MS = 1_700_000_000_000

FLIP = key_stroke(ord("F"), ctrl=True)
ELIMINATE = key_stroke(ord("E"), ctrl=True)
RESTORE = key_stroke(ord("R"), ctrl=True)
MOVED = key_stroke(ord("M"), ctrl=True)
DELETE = key_stroke(ord("D"), ctrl=True)
CLONE = key_stroke(ord("C"), ctrl=True)


@dataclass(frozen=True)
class Unit:
    name: str
    side: str
    image: str
    label: str  # intended hex, CCRR


UNITS = (
    Unit("Blue Infantry", "Blue", "blue_inf", "0203"),
    Unit("Blue Armour", "Blue", "blue_arm", "0101"),
    Unit("Red Infantry", "Red", "red_inf", "0505"),
    Unit(HOSTILE_NAME, "Red", "odd_name", "0304"),
)


def png(size: tuple[int, int], colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, "PNG")
    return buffer.getvalue()


def hex_centre(label: str) -> tuple[int, int]:
    """Pixel centre of a CCRR label on the flat-top, columns-shifted-down grid."""
    column, row = int(label[:2]) - 1, int(label[2:]) - 1
    y = Y0 + row * DY + (DY / 2 if column % 2 else 0)
    return round(X0 + column * DX), round(y)


def unit_piece(unit: Unit, gpid: int) -> Piece:
    layer = Layer(
        images=(f"{unit.image}.png", f"{unit.image}_back.png"),
        level_names=("", "+ (reduced)"),
        name="Step",
        up_command="Flip",
        increase_keystroke=FLIP,
    )
    return Piece(
        (UsePrototype("Unit"), Marker((("Side", unit.side),)), layer, BasicPiece(name=unit.name, gpid=str(gpid)))
    )


def prototype_piece() -> Piece:
    report = Report(
        keys=(ELIMINATE, RESTORE, FLIP),
        report_format="$PlayerName$: $oldPieceName$ $menuCommand$ ($oldLocation$ -> $location$)",
    )
    send = SendTo(
        command="Eliminate",
        key=ELIMINATE,
        map_name=DEAD_MAP,
        destination=DEST_REGION,
        region="$Side$ dead",
        back_command="Restore",
        back_key=RESTORE,
    )
    return Piece(
        (
            report,
            send,
            MovementMarkable(key=MOVED),
            Clone(key=CLONE),
            Delete(key=DELETE),
            Marker((("Type", "Unit"),)),
            BasicPiece(),
        )
    )


def main_map() -> el.Element:
    numbering = el.hex_grid_numbering(
        el.NumberingSpec(h_off=1, v_off=1, location_format=LOCATION_PREFIX + "$gridLocation$")
    )
    grid = el.hex_grid(el.HexGridSpec(dx=DX, dy=DY, x0=X0, y0=Y0), numbering)
    picker = el.board_picker([el.board("Main", "board.png", grid)])
    hide = el.hide_pieces_button("", "Hide pieces", key_stroke(ord("H"), ctrl=True))
    return el.map_window(MAIN_MAP, picker, (*el.standard_map_helpers(), hide))


def dead_pile_map() -> el.Element:
    picker = el.board_picker([el.board("Dead", "dead.png", el.region_grid(DEAD_REGIONS))])
    button = el.LaunchButton("Dead", "Eliminated units", "", key_stroke(ord("K"), ctrl=True))
    return el.map_window(DEAD_MAP, picker, el.standard_map_helpers(), button=button)


def blue_pool_map() -> el.Element:
    picker = el.board_picker([el.board("Pool", "dead.png", el.region_grid([("Pool", 100, 50)]))])
    return el.private_map(
        "Blue Pool",
        ["Blue"],
        picker,
        el.standard_map_helpers(),
        button=el.LaunchButton("Blue pool", "Blue's hidden pool"),
    )


def build_file() -> el.Element:
    slots = [el.piece_slot(u.name, i + 1, unit_piece(u, i + 1).slot_text(), 48, 48) for i, u in enumerate(UNITS)]
    level = el.list_turn_level(
        "Turn", "Turn", ["1", "2", "3"], [el.list_turn_level("Phase", "Phase", ["Movement", "Combat"])]
    )
    children = [
        el.basic_command_encoder(),
        el.documentation([el.about_screen("About", "about.png"), el.help_file("Rules", "rules.html")]),
        el.player_roster(["Blue", "Red"]),
        el.global_options(),
        el.chatter(),
        el.key_namer(),
        main_map(),
        dead_pile_map(),
        blue_pool_map(),
        el.piece_window(
            "Pieces",
            [el.tab_widget("Units", [el.list_widget("All", slots)])],
            el.LaunchButton("Pieces", "Piece palette", "/images/counter.gif"),
        ),
        el.prototypes_container([el.prototype_definition("Unit", prototype_piece().slot_text(), "all units")]),
        el.dice_button("1d6", 1, 6, el.LaunchButton("1d6", "Roll 1d6")),
        el.dice_button("1d10", 1, 10, el.LaunchButton("1d10", "Roll 1d10")),
        el.turn_tracker("Turn", [level], el.LaunchButton("Turn", "Turn tracker")),
        el.chart_window("Charts", [el.chart("CRT", "crt.png")], el.LaunchButton("Charts", "Charts")),
        el.predefined_setup("Scenario 1", "scenario1.vsav"),
    ]
    return el.game_module(MODULE_NAME, MODULE_VERSION, "built by tests", len(UNITS) + 1, children)


def setup_vsav() -> bytes:
    placed = []
    for index, unit in enumerate(UNITS):
        x, y = hex_centre(unit.label)
        placed.append((unit_piece(unit, index + 1).at(MAIN_MAP, x, y).definition(), str(1000 + index)))
    maps = [(MAIN_MAP, [("Main", 0, 0)]), (DEAD_MAP, [("Dead", 0, 0)])]
    return archive.saved_game(MODULE_NAME, MODULE_VERSION, maps, placed, date_saved_ms=DATE_MS)


def dead_pile_vsav() -> bytes:
    """A second game: Red Infantry already in the red dead pile region."""
    _, x, y = DEAD_REGIONS[1]
    piece = unit_piece(UNITS[2], 3).at(DEAD_MAP, x, y)
    maps = [(MAIN_MAP, [("Main", 0, 0)]), (DEAD_MAP, [("Dead", 0, 0)])]
    return archive.saved_game(MODULE_NAME, MODULE_VERSION, maps, [(piece.definition(), "2000")], date_saved_ms=DATE_MS)


def module_files() -> dict[str, bytes]:
    width = round(X0 + (COLS - 1) * DX + SIDE)
    height = round(Y0 + ROWS * DY + 1)
    files = {
        "images/board.png": png((width, height), (200, 220, 180)),
        "images/dead.png": png((200, 100), (120, 120, 120)),
        "images/crt.png": png((120, 80), (255, 255, 255)),
        "images/about.png": png((80, 40), (0, 0, 80)),
        "rules.html": b"<html><body>Sample rules.</body></html>",
        "scenario1.vsav": setup_vsav(),
    }
    for unit in UNITS:
        files[f"images/{unit.image}.png"] = png((48, 48), (30, 60, 200))
        files[f"images/{unit.image}_back.png"] = png((48, 48), (150, 160, 230))
    return files


def write_sample_module(folder: Path) -> tuple[Path, Path]:
    """Write the module and the extra saved game into `folder`; return both paths."""
    module = folder / "sample.vmod"
    moduledata = archive.module_data(MODULE_NAME, MODULE_VERSION, "built by tests", DATE_MS)
    archive.write_module(module, build_file(), moduledata, module_files())
    extra = folder / "dead.vsav"
    atomic.write_bytes(extra, dead_pile_vsav())
    return module, extra
