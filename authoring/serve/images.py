"""The page's pictures, drawn by the print renderers and encoded as PNG: the map (as `check --image` draws
it, without the findings, which the page draws over it), counter faces, set-up card pages, charts."""

from __future__ import annotations

import io

from PIL import Image

from authoring.model import Game, Scenario
from authoring.render.counter_art import CounterMemo, counter_image
from authoring.render.maps.draw import supersampling
from authoring.render.print.cards import render_setup_card
from authoring.render.print.charts import render_table, render_turn_track

FACE_PX = 96
"""Counter face size in the page (scaled by the browser; the face is laid out as printed)."""


def png(image: Image.Image) -> bytes:
    """Fast PNG (the preview is redrawn on every save; print outputs keep their own encoder)."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return out.getvalue()


SCREEN_SUPERSAMPLING = 2
"""At most this much supersampling for the screen: print's 3x for small hexes costs half as much again, and
the browser smooths the picture when it zooms."""


def screen_supersampling(px_per_hex: float) -> int:
    return min(SCREEN_SUPERSAMPLING, supersampling(px_per_hex))


def face_png(game: Game, unit: str, state: str | None, memo: CounterMemo | None = None) -> bytes | None:
    """A counter's face in the page (`memo`: what the faces of the game's load share, `counter_art.face_art`)."""
    counter = game.counters.get(unit)
    if counter is None:
        return None
    return png(counter_image(game, counter, state or None, FACE_PX, screen=True, memo=memo).convert("RGBA"))


def card_pngs(game: Game, scen: Scenario, side: str) -> list[bytes]:
    return [png(page) for page in render_setup_card(game, scen, side)]


def chart_png(game: Game, table_id: str) -> bytes | None:
    table = next((t for t in game.tables if t.id == table_id), None)
    return None if table is None else png(render_table(game, table))


def track_png(game: Game, scen: Scenario) -> bytes:
    return png(render_turn_track(game, scen))
