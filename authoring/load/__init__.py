"""Files -> validated, immutable model. The only stage that reads data files."""
from authoring.load.project import (
    LoadResult,
    discover,
    find_root,
    game_for_path,
    load_card,
    load_game,
    load_project,
)

__all__ = ["LoadResult", "discover", "find_root", "game_for_path", "load_card", "load_game", "load_project"]
