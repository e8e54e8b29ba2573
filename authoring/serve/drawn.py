"""The map picture (as tiles, `tiles`) and hex outlines of a scenario's maps, cached under the keys the build
uses for the same data; `prewarm` makes them ahead of the page (at start, and after a save that changed them)."""

from __future__ import annotations

from dataclasses import dataclass

from authoring.model import Game, Map, Scenario
from authoring.products.catalogue import preview_scale_key
from authoring.products.store import Entries
from authoring.serve.frame import preview_px, scenario_maps
from authoring.serve.mapview import map_view
from authoring.serve.session import GameState, Session
from authoring.serve.tiles import Drawer, manifest, map_keys, picture_key, store_folder


@dataclass(frozen=True)
class Frame:
    """A scenario's maps as the page draws them: settled (`Drawer.settle`), their scale, the picture's key."""

    maps: tuple[Map, ...]
    px: float
    key: str
    drawer: Drawer


def _frame(session: Session, st: GameState, game: Game, scen: Scenario) -> Frame:
    def make() -> Frame:
        maps = scenario_maps(game, scen.maps)
        ids = tuple(m.id for m in maps)
        px = session.cache.get(("px", st.files.id, ids, preview_scale_key(maps)), lambda: preview_px(maps))
        keys = map_keys(game, maps, px)
        drawer = session.drawer((st.files.id, ids, px), Drawer)
        return Frame(tuple(drawer.settle(maps, keys)), px, picture_key(keys, px, game.name), drawer)

    return session.cache.get(("frame", st.files.id, st.gen, tuple(scen.maps)), make)


def map_tiles(session: Session, st: GameState, game: Game, scen: Scenario) -> dict:
    """The picture's size, key and tiles; each tile's job is left with the session until the page asks
    for it (`tile_png`). A save that keeps the picture's key draws nothing."""
    fr = _frame(session, st, game, scen)

    def make() -> dict:
        made, jobs = manifest(fr.drawer, game, fr.maps, fr.px, game.name)
        session.tile_jobs(st.files.id, jobs)
        return {**made, "key": fr.key}

    return session.cache.get(("tiles", st.files.id, fr.key), make)


def tile_png(session: Session, gid: str, tid: str) -> bytes | None:
    """A tile's PNG: from memory, else from the sealed store, else drawn (and then stored)."""

    def make() -> bytes | None:
        store = Entries(store_folder(session.root))
        kept = store.get(f"tile-{tid}")
        if kept is not None:
            return bytes(kept)
        job = session.tile_job(gid, tid)
        if job is None:
            return None
        data = job.draw()
        store.put([(f"tile-{tid}", data)])
        return data

    return session.cache.get(("tile", gid, tid), make)


def picture_key_of(session: Session, st: GameState, game: Game, scen: Scenario) -> str:
    """The key of the scenario's map picture, which its hex outlines and panels are kept under too."""
    return _frame(session, st, game, scen).key


def hex_outlines(session: Session, st: GameState, game: Game, scen: Scenario) -> dict:
    """Every hex's outline and panel, under the picture's key (it holds the game's hex sets too)."""
    fr = _frame(session, st, game, scen)
    return session.cache.get(
        ("hexes", st.files.id, fr.key), lambda: {**map_view(game, fr.maps, fr.px, fr.drawer.view_memo), "key": fr.key}
    )


def hex_changes(session: Session, st: GameState, game: Game, scen: Scenario, since: str) -> dict:
    """`hex_outlines`, or only the hexes that changed since the outlines of key `since` when the page has
    those and the hexes are where they were (a terrain save sends a few records, not every hex)."""
    now = hex_outlines(session, st, game, scen)
    old = session.cache.peek(("hexes", st.files.id, since)) if since and since != now["key"] else None
    if old is None or old["size"] != now["size"] or len(old["hexes"]) != len(now["hexes"]):
        return now
    return session.cache.get(("hex changes", st.files.id, since, now["key"]), lambda: _changes(old, now))


def _changes(old: dict, now: dict) -> dict:
    pairs = list(zip(old["hexes"], now["hexes"]))
    if any(a["id"] != b["id"] or a["points"] != b["points"] for a, b in pairs):
        return now
    return {"key": now["key"], "since": old["key"], "changed": [[i, b] for i, (a, b) in enumerate(pairs) if a != b]}


def prewarm(session: Session, gid: str | None) -> None:
    """Make the first scenario's hex outlines and map tiles of the game, so that the page finds them made."""
    first = _first(session, gid)
    if first is not None:
        hex_outlines(session, *first)
        prewarm_picture(session, gid)


def prewarm_picture(session: Session, gid: str | None) -> None:
    """Make the first scenario's map tiles (after a save: only the tiles whose items changed are drawn)."""
    first = _first(session, gid)
    if first is not None:
        for tile in map_tiles(session, *first)["tiles"]:
            tile_png(session, first[0].files.id, tile[4])


def _first(session: Session, gid: str | None) -> tuple[GameState, Game, Scenario] | None:
    st = session.state(gid) if gid else None
    game = st.good.game if st is not None and st.good is not None else None
    if st is None or game is None or not game.scenarios:
        return None
    return st, game, next(iter(game.scenarios.values()))
