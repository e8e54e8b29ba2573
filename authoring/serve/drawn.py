"""The map picture and hex outlines of a scenario's maps, cached under the key of the files they are drawn
from; `prewarm` draws them ahead of the page (at start, and after a save that changed them)."""

from __future__ import annotations

from authoring.model import Game, Scenario
from authoring.serve import images
from authoring.serve.frame import preview_px, scenario_maps
from authoring.serve.mapview import map_view
from authoring.serve.session import GameState, Session


def map_picture(session: Session, st: GameState, game: Game, scen: Scenario) -> bytes:
    maps = scenario_maps(game, scen.maps)
    key = ("map", st.files.id, st.maps_key, tuple(m.id for m in maps))
    return session.cache.get(key, lambda: images.map_png(game, maps, preview_px(maps), game.name))


def hex_outlines(session: Session, st: GameState, game: Game, scen: Scenario) -> dict:
    maps = scenario_maps(game, scen.maps)
    key = ("hexes", st.files.id, st.maps_key, tuple(m.id for m in maps))
    return session.cache.get(key, lambda: map_view(game, maps, preview_px(maps)))


def prewarm(session: Session, gid: str | None) -> None:
    """Draw the first scenario's map picture and outlines of the game, so that the page finds them made."""
    st = session.state(gid) if gid else None
    game = st.good.game if st is not None and st.good is not None else None
    if st is None or game is None or not game.scenarios:
        return
    scen = next(iter(game.scenarios.values()))
    hex_outlines(session, st, game, scen)
    map_picture(session, st, game, scen)
