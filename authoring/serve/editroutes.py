"""Routes of the page's edits: POST /api/edit (one change to a data file), /api/undo and /api/redo, and
GET /api/palette (what may be painted: the game's terrain types, hexside features and path types). Each write is
published to the open pages at once, as the file watcher would a moment later."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from authoring.serve import editing
from authoring.serve.body import json_body
from authoring.serve.live import Hub
from authoring.serve.lookup import game_of, state_of
from authoring.serve.session import Session


def edit_routes(session: Session, hub: Hub) -> list[Route]:
    def palette(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game = game_of(st)

        def kinds(defs) -> list[dict]:
            return [{"id": t.id, "name": t.name or t.id, "color": t.color or ""} for t in defs]

        return JSONResponse(
            {"terrain": kinds(game.terrain), "hexsides": kinds(game.hexside_features), "paths": kinds(game.paths)}
        )

    async def edit(request: Request):
        data = await json_body(request, "edit")
        return _published(hub, await run_in_threadpool(editing.apply, session, data))

    async def undo(request: Request):
        data = await json_body(request, "step")
        return _published(hub, await run_in_threadpool(editing.step, session, data["game"], True))

    async def redo(request: Request):
        data = await json_body(request, "step")
        return _published(hub, await run_in_threadpool(editing.step, session, data["game"], False))

    return [
        Route("/api/palette", palette),
        Route("/api/edit", edit, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/redo", redo, methods=["POST"]),
    ]


def _published(hub: Hub, answer: dict) -> JSONResponse:
    hub.publish({"game": answer["game"], "gen": answer["gen"], "ok": not answer["errors"]})
    return JSONResponse(answer)
