"""Issue 30: each finding on real modules, reproduced on a small module made by hand (`handmade`), imported
and checked on the written project (its YAML, its art, its validation)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import handmade as hm
import pytest
import yaml
from click.testing import CliRunner

from authoring.author.import_vmod import diagnostics, import_vmod
from authoring.cli import main
from authoring.diagnostics import has_errors
from authoring.validate import validate_path
from authoring.vassal.traits import Layer

BOARD_IMAGE = hm.png((540, 420), "#e8e4c9")


pytestmark = pytest.mark.slow  # module builds of imported games


def _import(module: Path, tmp_path: Path):
    plan = import_vmod(module, tmp_path / "project")
    _, diags, _ = validate_path(plan.dest, rules=True)
    assert not has_errors(diags), [str(d) for d in diags if d.severity.value == "error"][:3]
    return plan, {d.message for d in diagnostics(plan, module)}


def _read(plan, *parts: str) -> dict:
    return yaml.safe_load((plan.dest.joinpath(*parts)).read_text())


def _hex_module(
    tmp_path: Path, name: str, slots: list[str], images: dict, commands: list[str] | None = None, extra: str = ""
) -> Path:
    body = (
        hm.roster("Red", "Blue")
        + hm.map_window("Main Map", hm.board("Main", "board.png", hm.hex_grid()))
        + hm.palette(("Units", slots))
        + extra
        + (hm.setup("Opening", "open.vsav") if commands is not None else "")
    )
    files = {"open.vsav": hm.saved_game({"Main Map": ["Main"]}, commands)} if commands is not None else {}
    return hm.module(tmp_path, name, body, {"board.png": BOARD_IMAGE, **images}, files)


def _centre(c: int, r: int) -> tuple[int, int]:
    """Pixel centre of hex CCRR (1-based) of `hm.hex_grid`."""
    return round(30 + (c - 1) * 52), round(30 + (r - 1) * 60 + (30 if (c - 1) % 2 else 0))


def test_svg_counter_art_is_kept_as_svg(tmp_path):
    art = hm.svg((48, 48))
    module = _hex_module(tmp_path, "svg", [hm.slot("Red Inf", hm.unit("Red Inf", "inf.svg"), 1)], {"inf.svg": art})
    plan, _ = _import(module, tmp_path)
    face = _read(plan, "counters", "svg", "counters.yaml")["counters"][0]["faces"][0]
    assert face["image"] == "art/inf.svg"
    assert (plan.dest / "counters" / "svg" / "art" / "inf.svg").read_bytes() == art


def test_module_without_setups_builds_a_module_with_palette_and_boards(tmp_path):
    module = _hex_module(
        tmp_path, "nosetup", [hm.slot("Red Inf", hm.unit("Red Inf", "inf.png"), 1)], {"inf.png": hm.png((48, 48))}
    )
    r = CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")])
    assert r.exit_code == 0 and "The project validates" in r.output, r.output
    r = CliRunner().invoke(main, ["build", "module", "nosetup", "--project", str(tmp_path / "p"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output and "BrokenPipeError" not in r.output
    with zipfile.ZipFile(tmp_path / "p" / "build" / "nosetup" / "nosetup.vmod") as zf:
        build = zf.read("buildFile.xml").decode()
    assert 'mapName="Main Map"' in build or "Main" in build
    assert "PieceSlot" in build and "PredefinedSetup" not in build and "Reinforcements" not in build


def test_setup_on_a_board_without_hex_grid_puts_pieces_in_boxes_on_a_stand_in_map(tmp_path):
    inf = hm.unit("Red Inf", "inf.png")
    body = (
        hm.roster("Red")
        + hm.map_window(
            "Areas", hm.board("Europe", "board.png", hm.region_grid(("Paris", 100, 100), ("Berlin", 400, 120)))
        )
        + hm.palette(("Red", [hm.slot("Red Inf", inf, 1)]))
        + hm.setup("Start", "s.vsav")
    )
    files = {"s.vsav": hm.saved_game({"Areas": ["Europe"]}, [hm.placed(inf, "Areas", 395, 118, "7")])}
    module = hm.module(tmp_path, "areas", body, {"board.png": BOARD_IMAGE, "inf.png": hm.png((48, 48))}, files)
    plan, messages = _import(module, tmp_path)
    scenario = _read(plan, "scenarios", "areas", "start.yaml")
    assert scenario["maps"] == ["no-hex-map"]
    assert scenario["off_map"] == {"red": [{"box": "Berlin", "units": ["red-inf"]}]}
    assert any("board 'Europe' of map 'Areas' has named regions" in m for m in messages)
    assert "no board with a hex grid" in _read(plan, "maps", "areas", "no-hex-map.yaml")["note"]


def test_gridless_board_is_named_in_a_warning(tmp_path):
    body = (
        hm.map_window("Main Map", hm.board("Main", "board.png", hm.hex_grid()))
        + hm.map_window("Charts", hm.board("Terrain chart", "chart.png"))
        + hm.palette(("Units", [hm.slot("Inf", hm.unit("Inf", "inf.png"), 1)]))
    )
    module = hm.module(
        tmp_path,
        "charts",
        body,
        {"board.png": BOARD_IMAGE, "chart.png": hm.png((200, 100)), "inf.png": hm.png((48, 48))},
    )
    _, messages = _import(module, tmp_path)
    assert any(m.startswith("board 'Terrain chart' of map 'Charts' has no grid") for m in messages), messages


def test_old_engine_positions_come_from_the_enclosing_stack(tmp_path):
    red, blue = hm.unit("Red Inf", "red.png"), hm.unit("Red Art", "blue.png")
    commands = hm.stacked([(red, "11"), (blue, "12")], "Main Map", *_centre(3, 2), "s1")
    module = _hex_module(
        tmp_path,
        "oldsave",
        [hm.slot("Red Inf", red, 1), hm.slot("Red Art", blue, 2)],
        {"red.png": hm.png((48, 48)), "blue.png": hm.png((48, 48), "#4f81bd")},
        commands,
    )
    plan, messages = _import(module, tmp_path)
    setup = _read(plan, "scenarios", "oldsave", "opening.yaml")["setup"]
    assert setup == {"red": [{"hex": "0302", "units": ["red-inf", "red-art"]}]}
    assert not any("unknown map" in m for m in messages)


def test_placed_pieces_use_the_modules_own_slots_before_copies(tmp_path):
    inf = hm.unit("Red Inf", "inf.png")
    slots = [hm.slot("Red Inf", inf, 1), hm.slot("Red Inf", inf, 2)]
    commands = [hm.placed(inf, "Main Map", *_centre(c, 1), str(10 + c)) for c in (1, 2, 3)]
    module = _hex_module(tmp_path, "slots", slots, {"inf.png": hm.png((48, 48))}, commands)
    plan, _ = _import(module, tmp_path)
    ids = [c["id"] for c in _read(plan, "counters", "slots", "counters.yaml")["counters"]]
    assert ids == ["red-inf", "red-inf-2", "red-inf.2"]
    units = [u for e in _read(plan, "scenarios", "slots", "opening.yaml")["setup"]["red"] for u in e["units"]]
    assert sorted(units) == ["red-inf", "red-inf-2", "red-inf.2"]


def test_sides_from_name_parts_split_on_underscore_and_dash(tmp_path):
    body = (
        hm.roster("Moslem", "Christian")
        + hm.map_window("Main Map", hm.board("Main", "board.png", hm.hex_grid()))
        + hm.palette(
            (
                "Artillery",
                [
                    hm.slot("Moslem_Cannon_1-0", hm.unit("Moslem_Cannon_1-0", "m.png"), 1),
                    hm.slot("Christian-Cannon", hm.unit("Christian-Cannon", "c.png"), 2),
                    hm.slot("Moslemish", hm.unit("Moslemish", "x.png"), 3),
                ],
            )
        )
    )
    module = hm.module(
        tmp_path,
        "sides",
        body,
        {
            "board.png": BOARD_IMAGE,
            "m.png": hm.png((48, 48)),
            "c.png": hm.png((48, 48), "#4f81bd"),
            "x.png": hm.png((48, 48)),
        },
    )
    plan, _ = _import(module, tmp_path)
    sides = {c["name"]: c["side"] for c in _read(plan, "counters", "sides", "counters.yaml")["counters"]}
    assert sides == {"Moslem_Cannon_1-0": "moslem", "Christian-Cannon": "christian", "Moslemish": "neutral"}


def test_faces_are_the_piece_image_and_its_flip_layer_never_an_overlay_or_blank_level(tmp_path):
    flip = Layer(images=("", "inf_back.png"), level_names=("", "+ (reduced)"), name="Step", level=2)
    numbers = Layer(images=("n1.png", "n2.png", "n3.png"), level_names=("1", "2", "3"), name="Number")
    player = hm.unit(
        "Player", "player.png", Layer(images=("", "hurt.png"), level_names=("", "blizzard"), name="Weather")
    )
    inf = hm.unit("Red Inf", "inf.png", numbers, flip)
    images = {
        "inf.png": hm.png((48, 48)),
        "inf_back.png": hm.png((48, 48), "#ffffff"),
        "player.png": hm.png((48, 48)),
        "hurt.png": hm.png((48, 48), "#000000"),
        **{f"n{i}.png": hm.png((12, 12)) for i in (1, 2, 3)},
    }
    commands = [hm.placed(inf, "Main Map", *_centre(2, 2), "20")]
    module = _hex_module(
        tmp_path, "faces", [hm.slot("Red Inf", inf, 1), hm.slot("Player", player, 2)], images, commands
    )
    plan, messages = _import(module, tmp_path)
    counters = {c["name"]: c for c in _read(plan, "counters", "faces", "counters.yaml")["counters"]}
    assert counters["Red Inf"]["faces"] == [
        {"state": "face-1", "image": "art/inf.png"},
        {"state": "reduced", "image": "art/inf_back.png"},
    ]
    assert counters["Player"]["faces"] == [
        {"state": "face-1", "image": "art/player.png"},
        {"state": "blizzard", "image": "art/hurt.png"},
    ]
    assert not any("image ''" in m for m in messages)
    setup = _read(plan, "scenarios", "faces", "opening.yaml")["setup"]["red"]
    assert setup == [{"hex": "0202", "units": ["red-inf"], "state": "reduced"}]


def test_boards_with_different_art_are_different_maps_and_the_same_art_one(tmp_path):
    other = hm.png((540, 420), "#203040")
    body = hm.map_window(
        "Main Map",
        hm.board("A", "a.png", hm.hex_grid()),
        hm.board("B", "b.png", hm.hex_grid()),
        hm.board("A again", "a2.png", hm.hex_grid()),
    )
    body += hm.palette(("Units", [hm.slot("Inf", hm.unit("Inf", "inf.png"), 1)]))
    module = hm.module(
        tmp_path,
        "boards",
        body,
        {"a.png": BOARD_IMAGE, "b.png": other, "a2.png": BOARD_IMAGE, "inf.png": hm.png((48, 48))},
    )
    plan, messages = _import(module, tmp_path)
    maps = sorted(p.name for p in (plan.dest / "maps" / "boards").glob("*.yaml"))
    assert maps == ["A.yaml", "B.yaml"]
    assert _read(plan, "maps", "boards", "B.yaml")["art"]["image"] == "art/b.png"
    assert any("board 'A again' shows hexes of map 'A' with the same art" in m for m in messages)
    assert any(m.startswith("map 'B' names its hexes as map 'A' does") for m in messages)


def test_large_board_is_split_into_maps_that_validate(tmp_path):
    grid = (
        f'<{hm.HEX} dx="8.66" dy="10.0" x0="5" y0="5" sideways="false"><{hm.NUMBERING} first="H" hOff="1" '
        f'vOff="1" hLeading="2" vLeading="2" stagger="false"/></{hm.HEX}>'
    )
    body = hm.map_window("Main Map", hm.board("Huge", "huge.png", grid))
    body += hm.palette(("Units", [hm.slot("Inf", hm.unit("Inf", "inf.png"), 1)]))
    module = hm.module(tmp_path, "huge", body, {"huge.png": hm.png((1100, 700), "#e8e4c9"), "inf.png": hm.png((8, 8))})
    plan, _ = _import(module, tmp_path)
    grids = [_read(plan, "maps", "huge", p.name)["grid"] for p in (plan.dest / "maps" / "huge").glob("*.yaml")]
    assert len(grids) >= 2 and all(g["columns"] * g["rows"] <= 5000 for g in grids)
    assert sum(g["columns"] for g in grids) == 127


def test_no_false_custom_class_warnings_and_real_ones_kept(tmp_path):
    extra = (
        f'<{hm.B}module.GlobalOptions><option name="undoHotKey">90,130</option></{hm.B}module.GlobalOptions>'
        "<com.example.Refresher/>"
    )
    module = _hex_module(
        tmp_path, "custom", [hm.slot("Inf", hm.unit("Inf", "inf.png"), 1)], {"inf.png": hm.png((48, 48))}, extra=extra
    )
    _, messages = _import(module, tmp_path)
    custom = [m for m in messages if m.startswith("custom class")]
    assert custom == ["custom class 'com.example.Refresher' is not imported (code shipped in the module)"]


def test_repeated_warnings_are_summarised_and_todos_never_cut(tmp_path):
    slots = [hm.slot(f"Ghost {i}", hm.unit(f"Ghost {i}", f"missing{i}.png"), i) for i in range(9)]
    module = _hex_module(
        tmp_path, "noisy", [*slots, hm.slot("Inf", hm.unit("Inf", "inf.png"), 20)], {"inf.png": hm.png((48, 48))}
    )
    plan, messages = _import(module, tmp_path)
    missing = [m for m in messages if m.startswith("image 'missing")]
    assert len(missing) == 3
    assert any(m.startswith("6 more like the 3 above (9 in all), the next: image 'missing3.png'") for m in messages)
    note = _read(plan, "maps", "noisy", "Main.yaml")["note"]
    assert note in messages and len(note) > 110


def test_long_names_are_cut_at_a_word(tmp_path):
    name = "Al-Mutawakkil - Umar ibn Muhammad, Banu al-Aftas - Emir of Badajoz"
    module = _hex_module(tmp_path, "names", [hm.slot(name, hm.unit(name, "e.png"), 1)], {"e.png": hm.png((48, 48))})
    plan, _ = _import(module, tmp_path)
    cut = _read(plan, "counters", "names", "counters.yaml")["counters"][0]["name"]
    assert cut == "Al-Mutawakkil - Umar ibn Muhammad, Banu al-Aftas - Emir of\u2026"


def test_piece_of_an_older_module_version_matches_the_one_slot_of_its_name(tmp_path):
    old, new = hm.unit("III/266", "0172.svg"), hm.unit("III/266", "0172.f.svg")
    twins = [hm.slot("1", hm.unit("1", f"{i}.f.svg"), 10 + i) for i in (1, 2)]
    commands = [
        hm.placed(old, "Main Map", *_centre(2, 2), "1"),
        hm.placed(hm.unit("1", "1.svg"), "Main Map", *_centre(3, 3), "2"),
    ]
    images = {"0172.f.svg": hm.svg((48, 48)), "1.f.svg": hm.svg((48, 48)), "2.f.svg": hm.svg((48, 48))}
    module = _hex_module(tmp_path, "older", [hm.slot("III/266", new, 1), *twins], images, commands)
    plan, messages = _import(module, tmp_path)
    setup = _read(plan, "scenarios", "older", "opening.yaml")["setup"]
    assert [e["units"] for e in setup["neutral"]] == [["iii-266"], ["1"]]  # '1' by its image's stem
    assert not any("matches no piece slot" in m for m in messages)


def test_pieces_on_a_map_in_a_chart_window_are_in_boxes(tmp_path):
    """A WidgetMap (a map in a chart window tab) goes by its MapWidget's name in saved games."""
    inf = hm.unit("Red Inf", "inf.png")
    chart = (
        f'<{hm.B}module.ChartWindow name="Charts"><{hm.B}widget.TabWidget entryName="Tabs">'
        f'<{hm.B}widget.MapWidget entryName="Entry Schedule"><{hm.B}widget.WidgetMap edgeHeight="0" '
        f'edgeWidth="0"><{hm.B}module.map.BoardPicker>{hm.board("Schedule", "chart.png")}'
        f"</{hm.B}module.map.BoardPicker></{hm.B}widget.WidgetMap></{hm.B}widget.MapWidget>"
        f"</{hm.B}widget.TabWidget></{hm.B}module.ChartWindow>"
    )
    commands = hm.stacked([(inf, "5")], "Entry Schedule", 40, 40, "s")
    module = _hex_module(
        tmp_path,
        "widget",
        [hm.slot("Red Inf", inf, 1)],
        {"inf.png": hm.png((48, 48)), "chart.png": hm.png((300, 200))},
        commands,
        extra=chart,
    )
    plan, messages = _import(module, tmp_path)
    assert _read(plan, "scenarios", "widget", "opening.yaml")["off_map"] == {
        "red": [{"box": "Schedule", "units": ["red-inf"]}]
    }
    assert not any("unknown map" in m for m in messages)


def test_at_start_stacks_are_a_scenario_and_name_their_side(tmp_path):
    gun, inf = hm.unit("Cannon", "gun.png"), hm.unit("Red Inf", "inf.png")
    x, y = _centre(2, 3)
    stacks = (
        f'<{hm.B}module.map.SetupStack name="Blue guns" useGridLocation="false" x="{x}" y="{y}">'
        f"{hm.slot('Cannon', gun, 1)}</{hm.B}module.map.SetupStack>"
        f'<{hm.B}module.map.SetupStack name="Reds" useGridLocation="true" location="0403" x="0" y="0">'
        f"{hm.slot('Red Inf', inf, 2)}</{hm.B}module.map.SetupStack>"
    )
    body = hm.roster("Red", "Blue") + hm.map_window("Main Map", hm.board("Main", "board.png", hm.hex_grid())).replace(
        f"<{hm.B}module.map.StackMetrics/>", f"<{hm.B}module.map.StackMetrics/>{stacks}"
    )
    module = hm.module(
        tmp_path, "atstart", body, {"board.png": BOARD_IMAGE, "gun.png": hm.png((48, 48)), "inf.png": hm.png((48, 48))}
    )
    plan, _ = _import(module, tmp_path)
    scenario = _read(plan, "scenarios", "atstart", "at-start.yaml")
    assert scenario["setup"] == {
        "blue": [{"hex": "0203", "units": ["cannon"]}],
        "red": [{"hex": "0403", "units": ["red-inf"]}],
    }


def test_cards_of_a_deck_are_counters_and_placed_cards_match_them(tmp_path):
    card = hm.unit("Hills / Battering Ram", "card.png")
    x, y = _centre(4, 4)
    deck = (
        f'<{hm.B}module.map.DrawPile name="Muslim Deck" x="{x}" y="{y}" owningBoard="Main">'
        f"{hm.slot('Hills', card, 3).replace('widget.PieceSlot', 'widget.CardSlot')}</{hm.B}module.map.DrawPile>"
    )
    module = _hex_module(
        tmp_path,
        "deck",
        [],
        {"card.png": hm.png((48, 70))},
        [hm.placed(card, "Main Map", *_centre(2, 2), "9"), hm.placed(card, "null", x, y, "10")],
    )
    with zipfile.ZipFile(module) as zf:
        files = {n: zf.read(n) for n in zf.namelist()}
    files["buildFile.xml"] = files["buildFile.xml"].replace(
        b"<VASSAL.build.module.map.StackMetrics/>", b"<VASSAL.build.module.map.StackMetrics/>" + deck.encode()
    )
    from authoring.vassal import archive as va

    module.write_bytes(va.zip_bytes(files))
    plan, messages = _import(module, tmp_path)
    assert [c["id"] for c in _read(plan, "counters", "deck", "counters.yaml")["counters"]] == ["hills", "hills.2"]
    assert _read(plan, "scenarios", "deck", "opening.yaml")["setup"] == {  # the second card is in the deck
        "neutral": [{"hex": "0202", "units": ["hills"]}, {"hex": "0404", "units": ["hills.2"]}]
    }
    assert _read(plan, "scenarios", "deck", "at-start.yaml")["setup"] == {
        "neutral": [{"hex": "0404", "units": ["hills"]}]
    }


def test_build_of_an_imported_project_summarises_repeated_warnings(tmp_path):
    """Each counter's raster art too small for print is one HW-ART-021 warning: nine of them print as the
    first three and one line that counts the rest (as the import's own findings)."""
    slots = [hm.slot(f"Inf {i}", hm.unit(f"Inf {i}", f"inf{i}.png"), i + 1) for i in range(9)]
    module = _hex_module(tmp_path, "smallart", slots, {f"inf{i}.png": hm.png((48, 48)) for i in range(9)})
    assert CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")]).exit_code == 0
    r = CliRunner().invoke(main, ["build", "module", "smallart", "--project", str(tmp_path / "p"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.output.splitlines() if "HW-ART-021" in line]
    assert len(lines) == 4, lines
    assert "6 more like the 3 above (9 in all), the next: 'art/inf3.png' is 48 x 48 px" in lines[3], lines[3]
    assert "9 warnings" in r.output  # the closing line still counts every warning


def test_board_art_goes_into_the_rebuilt_module_as_it_is(tmp_path):
    """Issue 30: a board's art was redrawn at 72 px a hex (2048x2593 came back as 562x703). Now the rebuilt
    module's board is the module's own file, byte for byte, with the engine's grid where the original had it."""
    import re

    inf = hm.unit("Red Inf", "inf.png")
    module = _hex_module(
        tmp_path,
        "native",
        [hm.slot("Red Inf", inf, 1)],
        {"inf.png": hm.png((48, 48))},
        [hm.placed(inf, "Main Map", *_centre(3, 2), "11")],
    )
    assert CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")]).exit_code == 0
    r = CliRunner().invoke(main, ["build", "module", "native", "--project", str(tmp_path / "p"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    with zipfile.ZipFile(tmp_path / "p" / "build" / "native" / "native.vmod") as z:
        boards = [n for n in z.namelist() if n.startswith("images/board")]
        assert len(boards) == 1 and boards[0].endswith(".png") and z.read(boards[0]) == BOARD_IMAGE
        build = z.read("buildFile.xml").decode()
    grid = re.search(rf"<{hm.HEX} ([^>]*)>", build).group(1)
    attrs = dict(re.findall(r'(\w+)="([^"]*)"', grid))
    assert (float(attrs["dx"]), float(attrs["dy"]), attrs["x0"], attrs["y0"]) == (52.0, 60.0, "30", "30")
    from engine import CHECKER, engine_report

    if CHECKER.exists():  # the engine puts the piece on the same hex of the same art
        before = engine_report(module)["setups"][0]["pieces"]
        after = engine_report(tmp_path / "p" / "build" / "native" / "native.vmod")["setups"][0]["pieces"]
        assert [(p["location"], p["x"], p["y"]) for p in after] == [(p["location"], p["x"], p["y"]) for p in before]


def test_stretched_board_art_keeps_every_piece_on_its_spot(tmp_path):
    """A grid whose columns are 8% wider apart than regular hexes: the board goes in as it is, the engine's
    grid is the original's, and each piece of the set-up stands where the original has it."""
    import re

    grid = (
        f'<{hm.HEX} dx="56.0" dy="60.0" x0="30" y0="30" sideways="false" snapTo="true" visible="false">'
        f'<{hm.NUMBERING} first="H" hOff="1" vOff="1" hLeading="1" vLeading="1" hType="N" vType="N" sep="" '
        f'stagger="false" locationFormat="$gridLocation$"/></{hm.HEX}>'
    )
    inf = hm.unit("Red Inf", "inf.png")
    spots = [(30 + c * 56, 30 + r * 60 + (30 if c % 2 else 0)) for c, r in ((0, 0), (3, 1), (8, 5), (5, 5))]
    body = (
        hm.roster("Red", "Blue")
        + hm.map_window("Main Map", hm.board("Main", "board.png", grid))
        + hm.palette(("Units", [hm.slot("Red Inf", inf, 1)]))
        + hm.setup("Opening", "open.vsav")
    )
    commands = [hm.placed(inf, "Main Map", x, y, str(10 + i)) for i, (x, y) in enumerate(spots)]
    module = hm.module(
        tmp_path,
        "wide",
        body,
        {"board.png": BOARD_IMAGE, "inf.png": hm.png((48, 48))},
        {"open.vsav": hm.saved_game({"Main Map": ["Main"]}, commands)},
    )
    assert CliRunner().invoke(main, ["import-vmod", str(module), "--out", str(tmp_path / "p")]).exit_code == 0
    r = CliRunner().invoke(main, ["build", "module", "wide", "--project", str(tmp_path / "p"), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    rebuilt = tmp_path / "p" / "build" / "wide" / "wide.vmod"
    with zipfile.ZipFile(rebuilt) as z:
        assert [z.read(n) for n in z.namelist() if n.startswith("images/board")] == [BOARD_IMAGE]
        attrs = dict(
            re.findall(r'(\w+)="([^"]*)"', re.search(rf"<{hm.HEX} ([^>]*)>", z.read("buildFile.xml").decode()).group(1))
        )
    assert (float(attrs["dx"]), float(attrs["dy"]), attrs["x0"], attrs["y0"]) == (56.0, 60.0, "30", "30")
    from engine import CHECKER, engine_report

    if CHECKER.exists():
        before = sorted((p["location"], p["x"], p["y"]) for p in engine_report(module)["setups"][0]["pieces"])
        after = sorted((p["location"], p["x"], p["y"]) for p in engine_report(rebuilt)["setups"][0]["pieces"])
        assert after == before and len(before) == 4
