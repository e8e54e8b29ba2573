"""Routes of the counters, cards and charts pages, and the set-up card export."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from authoring.checking import BadChoice
from authoring.model import Game, face_texts
from authoring.render.print.card_sides import card_sides
from authoring.serve import images
from authoring.serve.body import BadRequest, json_body
from authoring.serve.cardexport import card_csv, card_findings
from authoring.serve.lookup import NotFound, game_of, good_of, png_response, scenario_of, state_of
from authoring.serve.session import Session


def card_list(game: Game) -> list[dict]:
    """The set-up cards of the page, one per scenario and side: the cards the build prints (`card_sides`),
    so a side with nothing to set up gets no empty card."""
    names = {side.id: side.name for side in game.sides}
    return [
        {"scenario": s.id, "name": s.name, "side": side, "side_name": names[side]}
        for s in game.scenarios.values()
        for side in card_sides(game, s)
    ]


def page_routes(session: Session) -> list[Route]:
    def counters(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game = game_of(st)
        sides = {s.id: s.name for s in game.sides}
        rows = [
            {
                "id": c.id,
                "name": c.name or c.designation,
                "side": sides.get(c.side or "", c.side or ""),
                "code": c.setup_code,
                "quantity": c.quantity,
                "marker": c.marker,
                "faces": [{"state": f.state, "values": dict(face_texts(game, c, f))} for f in c.faces],
            }
            for c in game.counters.values()
        ]
        return JSONResponse({"game": game.id, "gen": st.gen, "faces_key": st.faces_key, "counters": rows})

    def cards(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game = game_of(st)
        return JSONResponse({"game": game.id, "gen": st.gen, "cards": card_list(game)})

    def card_page(request: Request):
        p = request.path_params
        st = state_of(session, p["game"])
        game, scen = scenario_of(st, p["scenario"])
        pages = session.cache.get(
            ("card", p["game"], st.gen, scen.id, p["side"]), lambda: images.card_pngs(game, scen, p["side"])
        )
        return (
            JSONResponse({"pages": len(pages)})
            if p["page"] == "count"
            else png_response(pages[int(p["page"])] if p["page"].isdigit() and int(p["page"]) < len(pages) else None)
        )

    def charts(request: Request):
        st = state_of(session, request.query_params.get("game", ""))
        game = game_of(st)
        return JSONResponse(
            {
                "game": game.id,
                "gen": st.gen,
                "tables": [
                    {"id": t.id, "name": t.name, "rule": t.rule, "source": t.source.source, "label": t.source.label}
                    for t in game.tables
                ],
                "tracks": [
                    {"id": s.id, "name": s.name, "source": s.source.source, "label": s.source.label}
                    for s in game.scenarios.values()
                    if s.turns
                ],
            }
        )

    def chart(request: Request):
        p = request.path_params
        st = state_of(session, p["game"])
        game = game_of(st)
        if p["kind"] == "track":
            _, scen = scenario_of(st, p["id"])
            return png_response(
                session.cache.get(("track", p["game"], st.gen, scen.id), lambda: images.track_png(game, scen))
            )
        return png_response(
            session.cache.get(("chart", p["game"], st.gen, p["id"]), lambda: images.chart_png(game, p["id"]))
        )

    async def export(request: Request):
        data = await json_body(request, "export")

        return JSONResponse(await run_in_threadpool(_export, session, data))

    return [
        Route("/api/counters", counters),
        Route("/api/cards", cards),
        Route("/api/charts", charts),
        Route("/img/card/{game}/{gen}/{scenario}/{side}/{page}", card_page),
        Route("/img/chart/{game}/{gen}/{kind}/{id}.png", chart),
        Route("/api/export", export, methods=["POST"]),
    ]


def _export(session: Session, data: dict) -> dict:
    st = state_of(session, data["game"])
    game, scen = scenario_of(st, data["scenario"])
    side = data["side"]
    if side not in {s.id for s in game.sides}:
        raise NotFound(f"no side {side!r} in game {game.id!r}")
    rows = [r for r in data["rows"] if r["hex"] != ""]
    text = card_csv(rows)
    try:
        name, found = card_findings(good_of(st), scen, side, text, data.get("options", ()))
    except BadChoice as exc:
        raise BadRequest(400, str(exc)) from None
    return {"name": name, "csv": text, "findings": found}
