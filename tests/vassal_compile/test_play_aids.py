"""The play aids in every bundled game's module, read from the built file: phase keys wired to each side's
clear-moved button, units carrying trail, moved mark and restricted access, hidden-back units masked by their
side in every set-up, the inventory, notes and LOS thread."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

import pytest
from conftest import Built
from PIL import Image

from authoring.vassal import combat
from authoring.vassal import elements as el
from authoring.vassal.aids import INVENTORY_GROUPS, clear_key
from authoring.vassal.codec import decode, deobfuscate, parse_add_piece_command, split_commands, unnest
from authoring.vassal.pieces import hidden_back
from authoring.vassal.turns import PHASE_LEVEL

pytestmark = pytest.mark.slow  # whole module builds of the bundled games


@dataclass(frozen=True)
class Placed:
    type: str
    state: str
    props: dict[str, str]


def read_setup(archive: zipfile.ZipFile, name: str) -> tuple[None, list[Placed], None]:
    """The pieces (not stacks) a predefined set-up adds, with their type, state and Marker properties."""
    with zipfile.ZipFile(io.BytesIO(archive.read(name))) as vsav:
        text = deobfuscate(vsav.read("savedGame").decode("utf-8"))
    out = []
    for command in split_commands(text):
        if command.startswith("+/"):
            _, definition = parse_add_piece_command(command)
            if definition.type != "stack":
                props: dict[str, str] = {}
                for t, st in zip(unnest(definition.type), unnest(definition.state)):
                    if t.startswith("mark;"):
                        props.update(zip(decode(t[len("mark;") :], ","), decode(st, ",")))
                out.append(Placed(definition.type, definition.state, props))
    return None, out, None


def test_each_phase_action_fires_the_clear_button_of_each_side_it_names(built: Built) -> None:
    game, tree = built.game, built.tree
    clears = [k for k in tree.iter(el.GLOBAL_KEY_COMMAND) if k.get("name").startswith("Clear moved")]
    buttons = {k.get("buttonHotkey"): k for k in clears}
    assert len(buttons) == len(game.sides)
    for side in game.sides:
        button = buttons[clear_key(game, side.id)]
        assert button.get("filter") == f"Side={side.name} && Moved=true" and button.get("hotkey") == "77,130"
    keys = {clear_key(game, side.id) for side in game.sides}  # (the turn's briefing has hotkeys of its own)
    fired = sorted(
        (k.get("match"), k.get("hotkey")) for k in tree.iter(el.TURN_GLOBAL_HOTKEY) if k.get("hotkey") in keys
    )
    assert fired == sorted(
        (f"{PHASE_LEVEL}={a.phase}", clear_key(game, s)) for a in game.phase_actions for s in a.clear_moved
    )
    phases = next(level for level in tree.iter(el.LIST_TURN_LEVEL) if level.get("property") == PHASE_LEVEL)
    assert {a.phase for a in game.phase_actions} <= set(decode(phases.get("list"), ","))


def _traits(piece) -> list[tuple[str, str]]:
    return list(zip(unnest(piece.type), unnest(piece.state)))


def test_units_in_play_carry_trail_moved_mark_and_their_sides_access(built: Built) -> None:
    game = built.game
    with zipfile.ZipFile(built.path) as archive:
        for sid in sorted(game.scenarios):
            _, pieces, _ = read_setup(archive, f"setup_{sid}.vsav")
            units = [p for p in pieces if p.props.get("SideId") and not game.counters[p.props["CounterId"]].marker]
            assert units
            for unit in units:
                side = game.side(unit.props["SideId"]).name
                kinds = [t.split(";")[0] for t, _ in _traits(unit)]
                if kinds[0] == "AreaOfEffect":  # a unit with a range (a `reach` value): its Show range, for all
                    kinds = kinds[1:]
                assert "prototype" not in kinds and unit.props["Side"] == side  # expanded, as the engine plays them
                start = kinds.index("footprint")
                assert kinds[start : start + 3] == ["footprint", "markmoved", "restrict"], kinds
                assert [t for t, _ in _traits(unit) if t.startswith("restrict;")][0].startswith(f"restrict;{side};")
                # the combat roll and report come first, outside the restriction: the attacker resolves on an
                # enemy unit; the attacker mark and the values the report reads (computed per face, or the same
                # on every face) too
                if game.combat:
                    assert kinds[:3] == ["PROP", "report", "emb2"] and set(kinds[3:start]) in (
                        {"calcProp"},
                        {"calcProp", "mark"},
                    ), kinds
                else:
                    assert start == 0, kinds


def test_hidden_back_units_start_masked_by_their_side_in_every_setup(built: Built) -> None:
    game = built.game
    hidden = {c.id for c in game.counters.values() if hidden_back(game, c)}
    with zipfile.ZipFile(built.path) as archive:
        names = set(archive.namelist())
        seen = 0
        for sid in sorted(game.scenarios):
            _, pieces, _ = read_setup(archive, f"setup_{sid}.vsav")
            for piece in pieces:
                masks = [(t, s) for t, s in _traits(piece) if t.startswith("obs;")]
                assert bool(masks) == (piece.props.get("CounterId") in hidden)
                if masks:
                    seen += 1
                    (type_, state), side = masks[0], game.side(piece.props["SideId"]).name
                    fields = decode(type_[len("obs;") :], ";")
                    assert fields[5] == f"sides:{side}" and decode(state, ";")[0] == side
                    assert "images/" + fields[1] in names
                    types = [t for t, _ in _traits(piece)]
                    holds_type = next(
                        i
                        for i, t in enumerate(types)
                        if t.startswith("mark;") and "Type" in decode(t[len("mark;") :], ",")
                    )
                    assert types.index(type_) < holds_type  # the unit type is inside the mask: a dummy stays unknown
    assert (seen > 0) == bool(hidden)
    options = next(built.tree.iter(el.GLOBAL_OPTIONS))
    assert options.get("nonOwnerUnmaskable") == el.NEVER


def test_inventory_notes_and_los_thread(built: Built) -> None:
    tree = built.tree
    inventory = next(tree.iter(el.INVENTORY))
    assert decode(inventory.get("groupBy"), ",") == list(INVENTORY_GROUPS) and inventory.get("include") == "Side!="
    assert len(list(tree.iter(el.NOTES_WINDOW))) == 1
    main = next(m for m in tree.iter(el.MAP) if m.get("mapName") == "Map")
    assert [t.get("threadName") for t in main.iter(el.LOS_THREAD)] == ["LOS"]


def test_the_attacker_mark_sits_in_a_corner_of_the_unit(built: Built) -> None:
    """The Attacker layer's image is unit-sized (the engine centres it on the unit) and clear but for its upper
    right corner, so the unit's values stay readable while it is marked."""
    if combat.plan(built.game) is None:
        return
    mark = Image.open(io.BytesIO(built.read(f"images/{combat.ATTACKER_IMAGE}"))).convert("RGBA")
    unit = next(n for n in sorted(built.names) if n.startswith("images/u.") and n.endswith(".png"))
    assert mark.size == Image.open(io.BytesIO(built.read(unit))).size
    w, h = mark.size
    alpha = mark.getchannel("A")
    assert alpha.getpixel((w - 3, 2)) == 255 and alpha.getpixel((w - w // 6, h // 6)) == 255
    for x, y in ((w // 2, h // 2), (2, 2), (2, h - 3), (w - 3, h - 3), (w // 4, h // 2)):
        assert alpha.getpixel((x, y)) == 0, (x, y)
