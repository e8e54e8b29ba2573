"""One answer for a face's values (issue 43, item 5): for every face of every bundled game, what the sheet
prints, what the module's piece properties hold and what the preview sends all equal `model.face_values`.

The print side is the drawing description (`FaceArt`, and the values line `layout_face` sets for Typhoon's
artillery); the module side is the piece as the buildFile's PieceSlot holds it (its `mark;` and `calcProp;`
traits decoded and evaluated at each face's level); the preview side is `serve`'s JSON over HTTP."""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from serve_support import ROOT, Served, copy_game

from authoring.load import discover, load_game
from authoring.model import Counter, Game, face_texts, face_values
from authoring.render.counter_art import face_art
from authoring.vassal.codec import decode, parse_add_piece_command, unnest
from authoring.vassal.pieces import HIDDEN, LEVEL_PROPERTY, counter_piece

GAMES = sorted(f.id for f in discover(ROOT))


pytestmark = pytest.mark.slow  # a live server


def _load(gid: str) -> Game:
    result = load_game(next(f for f in discover(ROOT) if f.id == gid))
    assert result.game is not None and result.ok
    return result.game


@pytest.fixture(scope="module", params=GAMES)
def game(request) -> Game:
    return _load(request.param)


def _literal(text: str) -> str:
    text = text.strip()
    return text[1:-1] if len(text) > 1 and text.startswith('"') and text.endswith('"') else text


_CHOICE = re.compile(rf'{LEVEL_PROPERTY}==(\d+)\?("[^"]*"|[^:]*):(.*)$', re.S)


def _evaluate(expression: str, level: int) -> str:
    """A `{Step_Level==1?a:(Step_Level==2?b:c)}` expression at `level`, as the engine reads it."""
    text = expression.strip()
    text = text[1:-1] if text.startswith("{") else text
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    m = _CHOICE.match(text)
    if m is None:
        return _literal(text)
    return _literal(m.group(2)) if int(m.group(1)) == level else _evaluate(m.group(3), level)


def module_properties(game: Game, counter: Counter) -> list[dict[str, str]]:
    """Per face (level 1, 2...): the properties the counter's piece holds, read back from its PieceSlot text."""
    images = {f.state: f"{counter.id}-{f.state}.png" for f in counter.faces} | {HIDDEN: f"{counter.id}-hidden.png"}
    _, definition = parse_add_piece_command(counter_piece(game, counter, 1, images).slot_text())
    static: dict[str, str] = {}
    calculated: dict[str, str] = {}
    for kind, state in zip(unnest(definition.type), unnest(definition.state), strict=True):
        if kind.startswith("mark;"):
            static.update(zip(decode(kind[len("mark;") :], ","), decode(state, ",")))
        elif kind.startswith("calcProp;"):
            name, expression, *_ = decode(kind[len("calcProp;") :], ";")
            calculated[name] = expression
    return [
        static | {k: _evaluate(e, level) for k, e in calculated.items()} for level in range(1, len(counter.faces) + 1)
    ]


def _values(props: dict[str, str], game: Game) -> dict[str, str]:
    """The game's value properties a piece holds with a value (an empty one is no value)."""
    return {v.id: props[v.id] for v in game.values if props.get(v.id, "") != ""}


def test_the_sheet_and_the_module_show_what_the_resolver_gives_on_every_face(game: Game) -> None:
    faces = 0
    for counter in game.counters.values():
        held = module_properties(game, counter)
        for face, props in zip(counter.faces, held, strict=True):
            want = dict(face_texts(game, counter, face))
            art = face_art(game, counter, face)
            assert dict(zip(art.value_ids, art.values, strict=True)) == want, (counter.id, face.state)
            assert _values(props, game) == want, (counter.id, face.state)
            faces += 1
    assert faces >= len(game.counters)


def _get(served: Served, path: str, **query: str) -> dict:
    with urllib.request.urlopen(served.url(f"{path}?{urllib.parse.urlencode(query)}"), timeout=120) as r:
        return json.loads(r.read())


@pytest.mark.parametrize("gid", GAMES)
def test_the_preview_shows_what_the_resolver_gives_on_every_face(gid: str, tmp_path: Path) -> None:
    root = copy_game(gid, tmp_path)
    with Served(root, gid) as served:
        listed = _get(served, "/api/counters", game=gid)["counters"]
        scenario = _get(served, "/api/games")["games"][0]["scenarios"][0]["id"]
        view = _get(served, "/api/view", game=gid, scenario=scenario)["view"]
        game = served.session.state(gid).good.game
    assert len(listed) == len(game.counters)
    for row in listed:
        counter = game.counters[row["id"]]
        want = [{"state": f.state, "values": dict(face_texts(game, counter, f))} for f in counter.faces]
        assert row["faces"] == want, row["id"]
    shown = view["counters"]
    assert shown
    for uid, row in shown.items():
        counter = game.counters[uid]
        assert row["faces"] == [{"state": f.state, "values": dict(face_texts(game, counter, f))} for f in counter.faces]


def test_typhoon_artillery_prints_and_holds_its_range_on_the_reduced_face() -> None:
    """Typhoon 10.1.3: the range is on both faces; the data gives it on the full face and declares it carried."""
    from authoring.render.counters.face import layout_face, min_text_px, safe_inset_px

    game = _load("typhoon")
    counter = game.counters["ger-art-1"]
    full, reduced = counter.faces
    assert "range" in full.values and "range" not in reduced.values  # the data: range on the full face only
    assert face_values(game, counter, reduced)["range"] == full.values["range"] == 2
    art = face_art(game, counter, reduced)
    laid = layout_face(art, 300, safe_inset_px(300, 12.7), min_text_px(300, 12.7), counter_mm=12.7)
    printed = [text for text, _x, _style in laid.values.segments if text.strip() not in ("-", "")]
    assert printed == list(face_texts(game, counter, reduced).values()) and "2" in printed
    assert module_properties(game, counter)[1]["range"] == "2"


def test_a_layout_that_still_carries_a_value_is_told_where_carried_values_went(tmp_path: Path) -> None:
    from authoring.load.schemas import validate
    from authoring.load.source import load_source

    root = copy_game("typhoon", tmp_path)
    manifest = root / "scenarios" / "typhoon" / "game.yaml"
    text = manifest.read_text(encoding="utf-8")
    old = "    when: {type: [artillery, siege-artillery]}\n"
    manifest.write_text(text.replace(old, old + "    carry: [range]\n", 1), encoding="utf-8")
    (found,) = validate(load_source(manifest), "game")
    assert found.code == "HW-SCHEMA-002" and "'carry'" in found.message and "carried: true" in found.help
    assert found.loc.line == text[: text.index(old)].count("\n") + 2
