"""buildFile.xml serializers: element names, attribute values and nesting, read back from the XML."""

from __future__ import annotations

from lxml import etree

from authoring.vassal import elements as el
from authoring.vassal.archive import xml_bytes


def reparse(node: etree._Element) -> etree._Element:
    return etree.fromstring(xml_bytes(node))


def test_hex_grid_with_numbering() -> None:
    numbering = el.hex_grid_numbering(el.NumberingSpec(h_off=1, v_off=1, location_format="A-$gridLocation$"))
    grid = reparse(el.hex_grid(el.HexGridSpec(dx=54, dy=62.35, x0=36, y0=31), numbering))
    assert grid.tag == "VASSAL.build.module.map.boardPicker.board.HexGrid"
    assert (grid.get("dx"), grid.get("dy"), grid.get("x0"), grid.get("sideways")) == ("54.0", "62.35", "36", "false")
    (child,) = grid
    assert child.tag.endswith("mapgrid.HexGridNumbering")
    assert {
        k: child.get(k) for k in ("hOff", "vOff", "hLeading", "vLeading", "first", "sep", "stagger", "locationFormat")
    } == {
        "hOff": "1",
        "vOff": "1",
        "hLeading": "1",
        "vLeading": "1",
        "first": "H",
        "sep": "",
        "stagger": "false",
        "locationFormat": "A-$gridLocation$",
    }


def test_map_window_structure_and_report_formats() -> None:
    picker = el.board_picker([el.board("Main", "board.png")])
    node = reparse(el.map_window("Main Map", picker, el.standard_map_helpers()))
    assert node.tag == "VASSAL.build.module.Map"
    assert node.get("mapName") == "Main Map" and node.get("launch") == "false"
    assert node.get("moveWithinFormat") == "$pieceName$ moves $previousLocation$ -> $location$ *"
    assert node.get("moveToFormat") == node.get("moveWithinFormat")
    tags = [child.tag.rsplit(".", 1)[-1] for child in node]
    assert tags[0] == "BoardPicker" and tags[0:2] == ["BoardPicker", "StackMetrics"]
    for needed in (
        "PieceMover",
        "KeyBufferer",
        "CounterDetailViewer",
        "Zoomer",
        "SelectionHighlighters",
        "MenuDisplayer",
        "StackExpander",
        "ForwardToChatter",
    ):
        assert needed in tags
    assert node[0][0].get("image") == "board.png"


def test_window_map_launch_button_and_private_map_sides() -> None:
    picker = el.board_picker([el.board("Dead", "dead.png", el.region_grid([("Blue dead", 50, 50)]))])
    button = el.LaunchButton("Dead", "Eliminated", "", "75,130")
    node = reparse(el.map_window("Dead Pile", picker, (), button=button))
    assert (node.get("launch"), node.get("buttonName"), node.get("hotkey")) == ("true", "Dead", "75,130")
    region = node.find(".//VASSAL.build.module.map.boardPicker.board.Region")
    assert (region.get("name"), region.get("originx"), region.get("originy")) == ("Blue dead", "50", "50")
    private = reparse(el.private_map("Pool", ["Blue", "Red,White"], picker, (), button=button))
    assert private.tag == "VASSAL.build.module.PrivateMap"
    assert (private.get("side"), private.get("visible")) == ("Blue,Red\\,White", "false")


def test_global_options_leading_zero_option() -> None:
    assert el.global_options().get("storeLeadingZeroIntegersAsStrings") == "true"
    assert el.global_options(preserve_leading_zeros=False).get("storeLeadingZeroIntegersAsStrings") is None


def test_player_roster_entries() -> None:
    node = reparse(el.player_roster(["Axis", "Allies"]))
    assert [entry.text for entry in node.findall("entry")] == ["Axis", "Allies"]


def test_turn_tracker_nests_phases_in_turns() -> None:
    phases = el.list_turn_level("Phase", "Phase", ["Move", "Fight, then rest"])
    turns = el.list_turn_level("Turn", "Turn", ["1", "2", "3"], [phases])
    node = reparse(el.turn_tracker("Turn", [turns], el.LaunchButton("Turn")))
    outer = node[0]
    assert outer.tag == "VASSAL.build.module.turn.ListTurnLevel"
    assert (outer.get("property"), outer.get("list")) == ("Turn", "1,2,3")
    assert outer[0].get("list") == "Move,Fight\\, then rest"
    assert node.get("turnFormat") == "$level1$ $level2$"


def test_piece_slot_and_prototype_text_keep_tabs_and_markup() -> None:
    text = "+/null/mark;a\tpiece;;;;<\"&'>/x\tnull;0;0;1;0"
    window = el.piece_window(
        "Pieces", [el.list_widget("All", [el.piece_slot("<\"&'>", 1, text, 48, 48)])], el.LaunchButton("Pieces")
    )
    slot = reparse(window).find(".//VASSAL.build.widget.PieceSlot")
    assert (slot.text, slot.get("entryName"), slot.get("gpid")) == (text, "<\"&'>", "1")
    proto = reparse(el.prototypes_container([el.prototype_definition("Unit", text, "all")]))[0]
    assert (proto.get("name"), proto.text) == ("Unit", text)


def test_dice_chart_setup_and_documentation() -> None:
    dice = reparse(el.dice_button("1d10", 1, 10, el.LaunchButton("1d10", "Roll")))
    assert (dice.get("nDice"), dice.get("nSides"), dice.get("text")) == ("1", "10", "1d10")
    chart = reparse(el.chart_window("Charts", [el.chart("CRT", "crt.png")], el.LaunchButton("Charts")))
    assert (chart[0].get("chartName"), chart[0].get("fileName")) == ("CRT", "crt.png")
    setup = reparse(el.predefined_setup("Scenario 1", "s1.vsav"))
    assert (setup.get("useFile"), setup.get("file"), setup.get("isMenu")) == ("true", "s1.vsav", "false")
    docs = reparse(el.documentation([el.about_screen("About", "about.png"), el.help_file("Rules", "rules.html")]))
    assert [child.tag.rsplit(".", 1)[-1] for child in docs] == ["AboutScreen", "HelpFile"]


def test_game_module_root() -> None:
    root = reparse(el.game_module("M", "1.0", "d", 5, [el.basic_command_encoder()]))
    assert root.tag == "VASSAL.build.GameModule"
    assert (root.get("VassalVersion"), root.get("nextPieceSlotId")) == ("3.6.0", "5")
    assert root[0].tag == "VASSAL.build.module.BasicCommandEncoder"
