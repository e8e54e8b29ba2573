"""A game loaded and checked for a build: the loader's findings and the rules engine's.

No copy of a loaded game is kept between builds: it helped only a forced rebuild with unchanged data,
missed after every edit, and was one more file a downloaded build folder could plant. A build with
nothing changed does not load at all (`build.fresh`).
"""

from __future__ import annotations

from authoring.diagnostics import Diagnostic
from authoring.load import load_game
from authoring.load.project import GameFiles, LoadResult
from authoring.validate import findings


def load_checked(files: GameFiles) -> tuple[LoadResult, list[Diagnostic]]:
    """The game of `files`, loaded, and its findings (the loader's and the rules engine's)."""
    result = load_game(files)
    return result, findings(result)
