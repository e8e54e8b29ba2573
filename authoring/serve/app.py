"""The ASGI app of `hexwright serve`: pages, the JSON they draw from, pictures, card export and live events.

Every route that loads, checks or draws is a plain function, which Starlette runs in its thread pool;
the event stream is the one coroutine that waits."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from types import MappingProxyType

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from authoring.checking import scenario_findings
from authoring.serve import images
from authoring.serve.body import BadRequest
from authoring.serve.drawn import hex_changes, map_tiles, picture_key_of, prewarm, tile_png
from authoring.serve.editing import Conflict, Refused, file_digests, steps
from authoring.serve.editroutes import edit_routes
from authoring.serve.guard import Guard
from authoring.serve.live import Hub, watch
from authoring.serve.lookup import NotFound, game_of, good_of, png_response, scenario_of, state_of
from authoring.serve.pages import page_routes
from authoring.serve.session import GameState, Session
from authoring.serve.setupview import counters, findings, scenario_units, scenario_view

STATIC = Path(__file__).parent / "static"
PAGES = MappingProxyType(
    {"/": "map.html", "/counters": "counters.html", "/cards": "cards.html", "/charts": "charts.html"}
)


OPEN = ("/favicon.ico", *PAGES)
"""The pages' own files, which any page may link to: every other route is data, answered to the preview's
own pages only (`guard`)."""


def make_app(session: Session, watch_files: bool = True, listen: str = "127.0.0.1") -> Starlette:
    """The app for a server listening on the address `listen` (the names it answers to follow from it)."""
    hub = Hub()

    def page(request: Request):
        return FileResponse(STATIC / PAGES[request.url.path])

    def games(request: Request):
        out = []
        for gid in session.game_ids():
            st = session.state(gid)
            game = st.good.game if st and st.good else None
            out.append(
                {
                    "id": gid,
                    "name": game.name if game else gid,
                    "gen": st.gen if st else 0,
                    "scenarios": [{"id": s.id, "name": s.name} for s in game.scenarios.values()] if game else [],
                    "sides": [{"id": s.id, "name": s.name} for s in game.sides] if game else [],
                }
            )
        return JSONResponse({"games": out, "default": session.default_game or (out[0]["id"] if out else "")})

    def view(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        out = {
            "game": st.files.id,
            "gen": st.gen,
            "errors": findings(st.errors, session.root),
            "faces_key": st.faces_key,
            "files": file_digests(st.files, session.root),
            "steps": steps(session, st.files.id),
            "view": None,
        }
        if st.good is not None:
            game, scen = scenario_of(st, request.query_params.get("scenario", ""))
            key = ("view", st.files.id, st.gen, scen.id)
            out["view"] = session.cache.get(key, lambda: _scenario_view(session, st, game, scen))
            out["hexes_key"] = picture_key_of(session, st, game, scen)
            since = request.query_params.get("since")
            if since is not None and since != out["hexes_key"]:  # the hexes along: no second round trip
                out["hexes"] = hex_changes(session, st, game, scen, since)
        return JSONResponse(out)

    def hexes(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game, scen = scenario_of(st, request.query_params.get("scenario", ""))
        return JSONResponse(hex_changes(session, st, game, scen, request.query_params.get("since", "")))

    def tiles(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game, scen = scenario_of(st, request.query_params.get("scenario", ""))
        return JSONResponse(map_tiles(session, st, game, scen))

    def tile(request: Request):
        p = request.path_params
        return png_response(tile_png(session, p["game"], p["tile"]))

    def face(request: Request):
        p = request.path_params
        st = state_of(session, p["game"])
        game = game_of(st)
        state = p["state"] if p["state"] != "-" else None
        return png_response(
            session.cache.get(
                ("face", p["game"], st.faces_key, p["unit"], state),
                lambda: images.face_png(game, p["unit"], state, st.counters),
            )
        )

    async def events(request: Request):
        return EventSourceResponse(hub.stream(request), ping=10)

    @asynccontextmanager
    async def lifespan(app):
        app.state.loop = asyncio.get_running_loop()
        task = asyncio.create_task(watch(session, hub)) if watch_files else None
        warm = asyncio.create_task(asyncio.to_thread(prewarm, session, session.default_game))
        try:
            yield
        finally:
            warm.cancel()
            if task is not None:
                task.cancel()

    routes: list[BaseRoute] = [Route(path, page) for path in PAGES]
    routes += [
        Route("/api/games", games),
        Route("/api/view", view),
        Route("/api/hexes", hexes),
        Route("/api/tiles", tiles),
        Route("/img/tile/{game}/{tile}.png", tile),
        Route("/img/face/{game}/{key}/{unit}/{state}.png", face),
        Route("/events", events),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        *page_routes(session),
        *edit_routes(session, hub),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guard = Middleware(Guard, listen=listen, open_paths=OPEN, open_prefixes=("/static/",))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[guard],
        exception_handlers={NotFound: _not_found, BadRequest: _bad_request},
    )
    app.state.hub = hub
    return app


async def _not_found(request: Request, exc: Exception) -> Response:
    return JSONResponse({"error": str(exc)}, 404)


async def _bad_request(request: Request, exc: Exception) -> Response:
    body: dict = {"error": str(exc)}
    if isinstance(exc, Conflict):
        body["conflict"] = exc.file
    if isinstance(exc, Refused):
        body["findings"] = exc.found
    return JSONResponse(body, exc.status if isinstance(exc, BadRequest) else 400)


def _scenario_view(session: Session, st: GameState, game, scen) -> dict:
    same: dict[str, bool] = {}  # each file named by a load finding resolved once (a large game has many)
    mine = Path(scen.path).resolve()
    good = good_of(st)
    own = [d for d in good.diagnostics if d.loc and same.setdefault(d.loc.file, Path(d.loc.file).resolve() == mine)]
    key = ("units", st.files.id, st.maps_key, st.faces_key, scen.maps, tuple(scenario_units(scen)))
    shared: dict = {}  # the check's hex sets and parsed codes, read again by the view
    return scenario_view(
        game,
        scen,
        scenario_findings(good, scen, before=own, shared=shared),
        session.root,
        lambda board: session.cache.get(key, lambda: counters(game, scen, board)),
        shared,
    )
