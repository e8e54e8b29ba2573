"""The generated buildFile.xml: the component tree a finished module needs, all from the data."""

from __future__ import annotations

import io
import re
import zipfile

import pytest
from conftest import Built
from lxml import etree
from PIL import Image
from test_numbering import all_boards_of

from authoring.names import file_name
from authoring.vassal import elements as el
from authoring.vassal.boards import board_name
from authoring.vassal.codec import decode
from authoring.vassal.compile import setup_title
from authoring.vassal.images import REPRESENTATIVE_MARK, chart_title
from authoring.vassal.pieces import DEAD_MAP, MAIN_MAP, TRACK_MAP, dead_box
from authoring.vassal.turns import turn_label
from authoring.vassal.victory import VICTORY_MAP

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


def _all(tree: etree._Element, tag: str) -> list[etree._Element]:
    return list(tree.iter(tag))


def test_root_and_moduledata_name_the_game(built: Built) -> None:
    game, tree = built.game, built.tree
    assert tree.tag == el.GAME_MODULE
    assert (tree.get("name"), tree.get("version")) == (game.name, game.version)
    assert tuple(int(x) for x in tree.get("VassalVersion").split(".")[:2]) >= (3, 6)
    data = etree.fromstring(built.read("moduledata"))
    assert (data.findtext("name"), data.findtext("version")) == (game.name, game.version)
    assert tuple(int(x) for x in data.findtext("VassalVersion").split(".")[:2]) >= (3, 6)


def test_one_main_map_with_a_numbered_board_per_map(built: Built) -> None:
    maps = {m.get("mapName"): m for m in _all(built.tree, el.MAP)}
    assert set(maps) == {MAIN_MAP, DEAD_MAP, TRACK_MAP} | ({VICTORY_MAP} if built.game.victory else set())
    boards = _all(maps[MAIN_MAP], el.BOARD)
    names = sorted(b.get("name") for b in boards)
    assert names == sorted(p.name for p in all_boards_of(built.game))
    assert {board_name(m) for m in built.game.maps.values()} <= set(names)
    for board in boards:
        grid = board.find(el.HEX_GRID)
        numbering = grid.find(el.HEX_GRID_NUMBERING)
        assert numbering.get("stagger") == "false"
        prefixes = {
            m.grid.spec.label.prefix for m in built.game.maps.values() if board.get("name").startswith(board_name(m))
        }
        assert numbering.get("locationFormat") == prefixes.pop() + "$gridLocation$"
        assert "images/" + board.get("image") in built.names
    assert maps[MAIN_MAP].get("moveWithinFormat") == "$pieceName$ moves $previousLocation$ -> $location$"


def test_leading_zeros_are_kept(built: Built) -> None:
    (options,) = _all(built.tree, el.GLOBAL_OPTIONS)
    assert options.get("storeLeadingZeroIntegersAsStrings") == "true"


def test_dead_pile_has_a_box_per_side(built: Built) -> None:
    dead = next(m for m in _all(built.tree, el.MAP) if m.get("mapName") == DEAD_MAP)
    assert [r.get("name") for r in _all(dead, el.REGION)] == [
        dead_box(s.name, box) for s in built.game.sides for _, box in built.game.loss_boxes
    ]


def test_each_loss_box_the_rules_keep_has_a_box_and_a_command(built: Built) -> None:
    """Typhoon 8.5.4: an Eliminated and a Cadre box per side, and every unit can be sent to either; a game that
    declares none has the one Eliminated box."""
    dead = next(m for m in _all(built.tree, el.MAP) if m.get("mapName") == DEAD_MAP)
    names = {r.get("name") for r in _all(dead, el.REGION)}
    if built.game.id == "typhoon":
        assert {"Axis cadre", "Soviet cadre", "Axis eliminated", "Soviet eliminated"} == names
        protos = {p.get("name"): p.text for p in _all(built.tree, el.PROTOTYPE_DEFINITION)}
        for side in ("Axis", "Soviet"):
            text = protos[f"{side} unit"]
            assert "To Cadre box" in text and f"{side} cadre" in text and "Eliminate" in text
    else:
        assert built.game.loss_boxes == (("eliminated", "Eliminated"),)
        assert names == {f"{s.name} eliminated" for s in built.game.sides}


def test_track_has_a_box_per_turn_and_pool(built: Built) -> None:
    track = next(m for m in _all(built.tree, el.MAP) if m.get("mapName") == TRACK_MAP)
    regions = {r.get("name") for r in _all(track, el.REGION)}
    last = max(t.turn for s in built.game.scenarios.values() for t in s.turns)
    assert {f"Turn {t}" for t in range(1, last + 1)} <= regions
    for s in built.game.scenarios.values():
        for pool in s.pools:
            assert any(pool.id.split("-")[0].lower() in r.lower() or (pool.name and pool.name in r) for r in regions)


def test_palette_has_a_tab_per_side_and_every_counter(built: Built) -> None:
    (window,) = _all(built.tree, el.PIECE_WINDOW)
    panels = window.find(el.TAB_WIDGET).findall(el.PANEL_WIDGET)
    tabs = [t.get("entryName") for t in panels]
    sides_with_units = [
        s.name for s in built.game.sides if any(c.side == s.id and not c.marker for c in built.game.counters.values())
    ]
    assert tabs == [*sides_with_units, "Markers"]  # one tab level: a side's pieces in one grid, all in view
    assert not _all(window, el.LIST_WIDGET) and not window.find(el.TAB_WIDGET).findall(el.TAB_WIDGET)
    for panel in panels:
        assert panel.get("fixed") == "true" and int(panel.get("nColumns")) >= 1
        cols, n = int(panel.get("nColumns")), len(panel.findall(el.PIECE_SLOT))
        width = cols * int(panel.find(el.PIECE_SLOT).get("width")) * float(panel.get("scale"))
        rows = -(-n // cols) * int(panel.find(el.PIECE_SLOT).get("height")) * float(panel.get("scale"))
        assert width <= 1200 + 1 and (rows <= 780 + 1 or float(panel.get("scale")) == 0.5), (
            panel.get("entryName"),
            width,
            rows,
        )
    slots = _all(window, el.PIECE_SLOT)
    assert len(slots) == len(built.game.counters) + 1  # + the withdrawal reminder
    gpids = [int(s.get("gpid")) for s in slots]
    assert len(set(gpids)) == len(gpids) and int(built.tree.get("nextPieceSlotId")) > max(gpids)


def test_every_referenced_image_is_in_the_archive(built: Built) -> None:
    """Every image a piece's traits name (its faces, in the Layer's list) and every chart's is in the archive."""
    named = {name for slot in _all(built.tree, el.PIECE_SLOT) for name in re.findall(r"[^;,\t\\/]+\.png", slot.text)}
    faces = {file_name("u", c.id, f.state, ext="png") for c in built.game.counters.values() for f in c.faces}
    assert faces <= named  # the pattern finds what the traits name (a field further in than it looks)
    named.update(chart.get("fileName") for chart in _all(built.tree, el.CHART))
    assert sorted(image for image in named if "images/" + image not in built.names) == []


def test_counter_faces_are_the_print_art(built: Built) -> None:
    game = built.game
    counter = sorted(game.counters.values(), key=lambda c: c.id)[0]
    image = Image.open(
        io.BytesIO(built.read("images/" + file_name("u", counter.id, counter.faces[0].state, ext="png")))
    )
    from conftest import PX_PER_HEX

    from authoring.render.counter_art import counter_image
    from authoring.vassal.compile import default_counter_px

    expected = counter_image(game, counter, counter.faces[0].state, default_counter_px(game, PX_PER_HEX))
    assert image.size == expected.size and image.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_prototypes_per_side_and_unit_class(built: Built) -> None:
    names = {p.get("name") for p in _all(built.tree, el.PROTOTYPE_DEFINITION)}
    assert {f"{s.name} unit" for s in built.game.sides} <= names
    assert "Marker" in names


def test_turn_tracker_dice_charts_and_setups(built: Built) -> None:
    game = built.game
    (tracker,) = _all(built.tree, el.TURN_TRACKER)
    (turns,) = [decode(lvl.get("list"), ",") for lvl in tracker.findall(el.LIST_TURN_LEVEL)]
    for s in game.scenarios.values():
        labels = [turn_label(t) for t in s.turns]
        assert any(turns[i : i + len(labels)] == labels for i in range(len(turns))), s.id
    if game.phases:
        phases = [decode(p.get("list"), ",") for p in _all(built.tree, el.LIST_TURN_LEVEL) if p.get("name") == "Phase"]
        assert phases and all(p == list(game.phases) for p in phases)
    dice = {(d.get("name"), d.get("nSides")) for d in _all(built.tree, el.DICE_BUTTON)}
    assert dice == {(d.name, str(d.sides)) for d in game.dice}
    charts = {c.get("chartName") for c in _all(built.tree, el.CHART)}
    assert {chart_title(t) for t in game.tables} <= charts  # a representative table's marked (representative)
    named = [s.name + (REPRESENTATIVE_MARK if s.source.representative else "") for s in game.scenarios.values()]
    records = set(named) | {f"Turn record: {name}" for name in named}
    assert sum(1 for name in records if name in charts) == len(game.scenarios)
    setups = {p.get("name"): p.get("file") for p in _all(built.tree, el.PREDEFINED_SETUP)}
    assert set(setups) == {setup_title(game, s) for s in game.scenarios.values()}
    assert all(f in built.names for f in setups.values())
    (roster,) = _all(built.tree, el.PLAYER_ROSTER)
    assert [e.text for e in roster.findall("entry")] == [s.name for s in game.sides]


def test_archive_entries_are_sorted_with_fixed_dates(built: Built) -> None:
    with zipfile.ZipFile(built.path) as z:
        infos = z.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}


def test_unit_menus_flip_on_f_and_have_no_clone_or_delete(built: Built) -> None:
    """Units: Eliminate/Restore and step changes, flipped with plain F; Clone and Delete only on markers."""
    game = built.game
    protos = {p.get("name"): p.text for p in _all(built.tree, el.PROTOTYPE_DEFINITION)}
    for side in game.sides:
        text = protos[f"{side.name} unit"]
        assert "clone;" not in text and "delete;" not in text
        assert "sendto;Eliminate" in text and "Restore" in text
        assert "$oldLocation$" not in text
    assert "clone;" in protos["Marker"] and "delete;" in protos["Marker"]
    flip = "70,0"  # F, no modifier
    layered = [s.text for s in _all(built.tree, el.PIECE_SLOT) if "emb2;" in s.text]
    assert bool(layered) == any(len(c.faces) > 1 for c in game.counters.values())
    assert all(flip in text and ("Flip" in text or "Lose step" in text) for text in layered)


def test_a_chart_list_shows_its_widest_page_whole(built: Built) -> None:
    """A group of many charts (set-up card pages, tables) is a list whose chart side is as wide as its
    widest image (within a 1440 px screen), so a card page is not half hidden behind the titles."""
    from authoring.vassal.windows import MAX_CHART_WIDTH

    lists = _all(built.tree, el.LIST_WIDGET)
    if not lists:
        pytest.skip("this game's charts all fit in tabs")
    for widget in lists:
        widths = [
            Image.open(io.BytesIO(built.read("images/" + c.get("fileName")))).size[0] for c in widget.findall(el.CHART)
        ]
        chart_side = int(widget.get("divider"))
        width = int(widget.get("width"))
        assert width <= MAX_CHART_WIDTH and width - chart_side >= 180  # the titles keep their room
        assert chart_side >= max(widths) or width == MAX_CHART_WIDTH, (chart_side, max(widths))
        assert chart_side > 1000 or max(widths) < 1000


def test_withdrawal_chits_name_the_units_that_leave(built: Built) -> None:
    """Each scheduled withdrawal has its own chit image (OUT and the units), not one blank OUT square."""
    from authoring.vassal.setups import withdrawal_chits

    chits = withdrawal_chits(built.game)
    if not chits:
        pytest.skip("no withdrawals in this game")
    generic = built.read("images/" + file_name("withdrawal", ext="png"))
    for name, (_side, units) in chits.items():
        assert units and "images/" + name in built.names
        data = built.read("images/" + name)
        assert data != generic

        def ink_under_out(png: bytes) -> int:  # dark pixels between a quarter and two thirds down
            image = Image.open(io.BytesIO(png)).convert("L")
            w, h = image.size
            return sum(1 for p in image.crop((4, h // 4, w - 4, h * 2 // 3)).tobytes() if p < 170)

        assert ink_under_out(data) > 10, name  # the first unit's name, under OUT
