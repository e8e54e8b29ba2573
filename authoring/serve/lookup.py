"""What a request names (game, scenario, picture), found in the session or refused as not found."""

from __future__ import annotations

from types import MappingProxyType

from starlette.responses import Response

from authoring.load import LoadResult
from authoring.model import Game
from authoring.serve.session import GameState, Session

IMMUTABLE = MappingProxyType({"Cache-Control": "public, max-age=31536000, immutable"})
"""Pictures are addressed by the key of the files drawn from: a new drawing has a new address."""


class NotFound(LookupError):
    pass


def state_of(session: Session, gid: str) -> GameState:
    st = session.state(gid) if gid else None
    if st is None:
        raise NotFound(f"no game {gid!r}")
    return st


def good_of(st: GameState) -> LoadResult:
    """The game's last load without errors."""
    if st.good is None or st.good.game is None:
        raise NotFound(f"game {st.files.id!r} has not loaded without errors yet")
    return st.good


def game_of(st: GameState) -> Game:
    return good_of(st).valid_game


def scenario_of(st: GameState, sid: str):
    game = game_of(st)
    scen = game.scenarios.get(sid) or (next(iter(game.scenarios.values())) if game.scenarios and not sid else None)
    if scen is None:
        raise NotFound(f"no scenario {sid!r} in game {game.id!r}")
    return game, scen


def png_response(data: bytes | None) -> Response:
    if data is None:
        return Response("not found", 404)
    return Response(data, media_type="image/png", headers=IMMUTABLE)
