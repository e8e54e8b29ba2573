"""Set-up cards speak to players: arrival places by name (never a hex set's internal id or a grid edge's
name), pool labels with whole words, a strength state only under counters that have one to choose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from authoring.load import discover, load_game
from authoring.render.print.cards import _label_lines, card_sections, setup_card_pages

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("bfm", "1941", "typhoon")


def _game(game_id: str):
    return load_game(next(f for f in discover(ROOT) if f.id == game_id)).game


def _entries(game):
    for scenario in game.scenarios.values():
        for side in (s.id for s in game.sides):
            for section in card_sections(game, scenario, side):
                yield scenario, side, section, section.entries


@pytest.mark.parametrize("game_id", GAMES)
def test_no_card_prints_an_internal_hex_set_id(game_id):
    game = _game(game_id)
    seen = 0
    for _, _, _, entries in _entries(game):
        for entry in entries:
            for place in re.findall(r"(?:arrive at|enters at) (.+?)(?:,|$)", entry.detail):
                seen += 1
                head = place.split(" (")[0]
                assert head not in game.hex_sets or game.hex_sets[head].get("name") == head, entry.detail
                assert not re.search(r"\((north|south|east|west) edge\)", place), entry.detail
    assert seen


def test_a_one_hex_place_reads_as_its_name_and_hex():
    game = _game("1941")
    details = {e.detail for _, _, _, entries in _entries(game) for e in entries}
    assert "arrive at Odessa 3019" in details
    assert "arrive at east-edge supply source or friendly major city" in details


def test_pool_labels_keep_whole_words_and_say_when_and_where():
    game = _game("typhoon")
    pools = [e for _, _, s, entries in _entries(game) if s.title == "Pools" for e in entries]
    assert pools
    for entry in pools:
        size, lines = _label_lines(entry.label)
        assert " ".join(lines).split() == entry.label.split(), lines  # every word whole, none left out
        assert re.match(r"from turn \d+", entry.detail), entry.detail
        assert "enters at east edge of map M" in entry.detail


def test_state_names_only_under_counters_with_more_than_one_face():
    one_sided = _game("1941")
    texts = {
        b.text for page in setup_card_pages(one_sided, one_sided.scenarios["campaign"], "soviet") for b in page.boxes
    }
    assert "Printed side" not in texts and "16" in texts
    two_sided = _game("bfm")
    texts = {
        b.text for page in setup_card_pages(two_sided, two_sided.scenarios["seven-turn"], "german") for b in page.boxes
    }
    assert any("strength" in t.lower() for t in texts)


def test_counter_sheets_follow_natural_order():
    """Sheets run 3, 29, 30 (not 29, 3, 30) within a side, nationality and type."""
    from authoring.names import natural_key
    from authoring.pipeline.stages import _sheet_order

    assert sorted(["sov-30", "sov-3", "sov-29", "sov-3a"], key=natural_key) == ["sov-3", "sov-3a", "sov-29", "sov-30"]
    game = _game("1941")
    order = sorted(game.counters.values(), key=_sheet_order(game))
    german = [c.id for c in order if c.nationality == "german" and c.type == "infantry"]
    numbers = [int(re.sub(r"\D", "", cid)) for cid in german if re.fullmatch(r"ger-\d+", cid)]
    assert numbers == sorted(numbers) and len(numbers) > 5
