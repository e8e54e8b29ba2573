"""The range aids, turn briefings and kept images, read from the data and the built module (the engine tests
in `test_map_aids_engine.py` show them at work): what each briefing says, which units get Show range, the LOS
thread counting by the grid, and which images of a replaced module a build keeps."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from conftest import Built, load

from authoring.model import reach_values
from authoring.vassal import elements as el
from authoring.vassal.art import KEPT_IMAGES
from authoring.vassal.briefing import box_turns, turn_briefing
from authoring.vassal.codec import encode
from authoring.vassal.compile import kept_files
from authoring.vmod.kept import piece_images


def test_briefings_name_the_scheduled_arrivals_withdrawals_values_weather_and_rules() -> None:
    bfm = load("bfm")
    campaign = bfm.scenarios["campaign"]
    text = turn_briefing(bfm, campaign, campaign.turns[3])
    assert text.startswith("Turn 4 (Nov I/II). Arrivals: Soviet: 1 Shock at ")
    assert "German Replacements: 1, Soviet Replacements: 5. " in text and "Weather: mud. Special: Mud:" in text
    assert "Arrivals" not in turn_briefing(bfm, campaign, campaign.turns[1])
    logistics = "With Soviet Play Balance: German Logistics Problems: German Replacements: 0"  # turns 1, 3, 5, 7-14
    assert logistics in turn_briefing(bfm, campaign, campaign.turns[2]) and "German Logistics" not in text
    assert "With Handicap: Soviet Replacements 4: Soviet Replacements: 4" in text
    typhoon = load("typhoon")
    gates = typhoon.scenarios["moscow-gates"]
    assert "Withdrawals: Axis: " in turn_briefing(typhoon, gates, gates.turns[5])
    assert "Special: +1 on the Weather die roll (5.1.2)" in turn_briefing(typhoon, gates, gates.turns[1])
    g1941 = load("1941")
    first = g1941.scenarios["campaign"]
    text = turn_briefing(g1941, first, first.turns[1])
    assert "Arrivals: German: 2 Army, 50 Corps at " in text and "German Air Points: 5" in text


def test_every_turn_with_a_box_has_a_highlight_property() -> None:
    game = load("typhoon")
    last = max(t.turn for s in game.scenarios.values() for t in s.turns)
    assert box_turns(game) == list(range(1, last + 1))


def _module(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _vsav(text: str) -> bytes:
    buffer = io.BytesIO()
    key = 0x21
    obfuscated = "!VCSK" + f"{key:02x}" + "".join(f"{b ^ key:02x}" for b in text.encode("utf-8"))
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("savedGame", obfuscated)
    return buffer.getvalue()


def test_a_build_keeps_the_piece_images_of_the_module_it_replaces(tmp_path: Path) -> None:
    """Images named by a palette piece, a prototype or a set-up's piece, and those the old module kept, are
    kept where the new build has none of that name; a board image or chart never is."""
    slot = encode(["+", "null", "emb2;;0;;;0;;;0;;;;1;false;0;0;u.a.full.png,u.a.half.png;,;true", ""], "/")
    build = (
        f'<VASSAL.build.GameModule><VASSAL.build.widget.PieceSlot gpid="1">{slot}</VASSAL.build.widget.PieceSlot>'
        "<VASSAL.build.module.PrototypeDefinition>+/null/piece;;;u.proto.png;P/null;0;0;;0"
        "</VASSAL.build.module.PrototypeDefinition></VASSAL.build.GameModule>"
    )
    old = _module(
        tmp_path / "old.vmod",
        {
            "buildFile.xml": build.encode(),
            "setup_x.vsav": _vsav("begin_save\x1b+/1000/piece;;;withdrawal.x.1.png;OUT/Map;1;2;;0\x1bend_save"),
            KEPT_IMAGES: b"u.older.png",
            **{f"images/{n}": n.encode() for n in ("u.a.full.png", "u.a.half.png", "u.proto.png", "board.png")},
            **{f"images/{n}": n.encode() for n in ("withdrawal.x.1.png", "u.older.png", "chart.png")},
        },
    )
    kept = piece_images(old, made={"u.a.full.png", "board.png"})
    assert kept == {n: n.encode() for n in ("u.a.half.png", "u.older.png", "u.proto.png", "withdrawal.x.1.png")}
    files = {"images/u.a.full.png": b"new", "buildFile.xml": b""}
    added = kept_files(files, lambda made: piece_images(old, made))
    assert added[KEPT_IMAGES] == b"u.a.half.png\nu.older.png\nu.proto.png\nwithdrawal.x.1.png"
    assert added["images/u.older.png"] == b"u.older.png" and "images/u.a.full.png" not in added
    assert kept_files(files, None) == {} and kept_files(files, lambda made: {}) == {}


def test_no_module_or_not_a_module_keeps_nothing(tmp_path: Path) -> None:
    assert piece_images(tmp_path / "none.vmod") == {}
    (tmp_path / "bad.vmod").write_bytes(b"not a zip")
    assert piece_images(tmp_path / "bad.vmod") == {}


@pytest.mark.slow  # whole module builds of the bundled games
def test_the_los_thread_counts_the_range_by_the_grid(built: Built) -> None:
    threads = list(built.tree.iter(el.LOS_THREAD))
    assert len(threads) == 1 and threads[0].get("scale") == "0" and threads[0].get("drawRange") == "true"


@pytest.mark.slow  # whole module builds of the bundled games
def test_units_with_a_reach_value_and_only_they_have_show_range(built: Built) -> None:
    game = built.game
    reach = reach_values(game)
    slots = {s.get("entryName"): s.text or "" for s in built.tree.iter(el.PIECE_SLOT)}
    with_area = {name for name, text in slots.items() if "AreaOfEffect;" in text}
    if not reach:
        assert with_area == set()
        return
    ranged = [c for c in game.counters.values() if not c.marker and any(reach[0] in f.values for f in c.faces)]
    assert ranged and len(with_area) >= len({c.type for c in ranged})
    assert all(f"false;{reach[0]};" in slots[name] for name in with_area)  # radius: the unit's own value


def test_only_a_module_this_machine_wrote_is_read_for_kept_images(tmp_path: Path) -> None:
    """A module whose sealed manifest verifies gives its bytes; one changed since, or with no manifest (copied
    or downloaded into build/), gives nothing, so no image of it reaches the new module."""
    import hashlib

    from authoring.products.stamps import previous_module, record_module

    target = _module(tmp_path / "g.vmod", {"images/u.a.png": b"a"})
    assert previous_module(target) is None
    data = target.read_bytes()
    record_module(target, "made from anything", hashlib.sha256(data).hexdigest(), len(data))
    found = previous_module(target)
    assert found is not None and found[0] == data
    _module(target, {"images/u.b.png": b"planted"})
    assert previous_module(target) is None
