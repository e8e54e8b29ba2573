"""The memo drawing a game's faces shares (its layouts, its markers' uniform label size) belongs to its caller:
nothing of a drawn game outlives the drawing, and one memo serves many faces of many loads without mixing them."""

from __future__ import annotations

import gc
import sys
from dataclasses import replace
from pathlib import Path

from authoring.load import discover, load_game
from authoring.render.counter_art import CounterMemo, face_art, render_face

ROOT = Path(__file__).resolve().parents[2]


def _game():
    files = next(f for f in discover(ROOT) if f.id == "bfm")
    result = load_game(files)
    assert result.ok, result.diagnostics
    return result.game


def _marker(game):
    return next(c for c in sorted(game.counters.values(), key=lambda c: c.id) if c.marker and c.designation)


def test_a_drawn_game_is_let_go_once_its_caller_lets_it_go() -> None:
    game = _game()
    drawn = render_face(game, _marker(game), None, 60)  # the layouts and the markers' label size worked out
    assert drawn.image.size == (60, 60)
    gc.collect()
    here = sys._getframe()
    held = [r for r in gc.get_referrers(game) if r is not here]
    assert held == []  # no process-wide cache keeps the loaded game (and its counters, maps) alive


def test_one_memo_serves_two_loads_each_with_its_own_markers() -> None:
    memo = CounterMemo()
    game = _game()
    counter = _marker(game)
    face = counter.faces[0]
    relabelled = replace(face, label="Attacking")  # a word that prints in bold only at a smaller size
    longer = replace(counter, faces=(relabelled, *counter.faces[1:]))
    edited = replace(game, counters={**game.counters, counter.id: longer})  # a reload after an edit
    assert memo.layouts(game) is memo.layouts(game)  # worked out once
    ours = face_art(game, counter, face, memo=memo)
    theirs = face_art(edited, longer, relabelled, memo=memo)
    assert ours == face_art(game, counter, face)  # the same art as drawn without a memo
    assert theirs == face_art(edited, longer, relabelled)  # the edit's own label size, not the first load's
    assert _label_pt(theirs) < _label_pt(ours)  # the longer label prints smaller on every marker of its layout


def _label_pt(art) -> float:
    return next(s.font[1] for s in art.layout.slots if s.content == "label")
