"""Files -> validated, immutable model. The only stage that reads data files."""

from authoring.load.project import (
    GameNotFound,
    LoadResult,
    discover,
    find_root,
    game_for_path,
    load_card,
    load_game,
    load_project,
    select_games,
)

__all__ = (
    "GameNotFound",
    "LoadResult",
    "discover",
    "find_root",
    "game_for_path",
    "load_card",
    "load_game",
    "load_project",
    "select_games",
)
