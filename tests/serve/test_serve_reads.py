"""`serve` reloads a game through its session's memo of read files: a map save re-parses that map alone, and the
game shown is the one a fresh load of the saved files gives (issue #37)."""

from __future__ import annotations

from pathlib import Path

import pytest
from model_shape import shape
from serve_support import copy_game, without_first_terrain

pytestmark = pytest.mark.slow  # a live server


def test_a_map_save_reparses_that_map_alone_and_shows_the_fresh_load(tmp_path, monkeypatch):
    import authoring.load.project as project
    from authoring.load import discover, load_game
    from authoring.serve.session import Session

    root = copy_game("typhoon", tmp_path)
    session = Session(root, "typhoon")
    st = session.state("typhoon")
    assert st is not None and st.good is not None and not st.errors
    before = st.good.game
    parsed: list[str] = []
    real = project.load_source
    monkeypatch.setattr(
        project, "load_source", lambda path, *a, **k: parsed.append(Path(path).name) or real(path, *a, **k)
    )
    path = root / "maps" / "typhoon" / "M.yaml"
    text, label = without_first_terrain(path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    st = session.reload("typhoon")
    assert parsed == ["M.yaml"]
    assert st is not None and st.good is not None and not st.errors and st.good.game is not before
    game = st.good.game
    fresh = load_game(next(f for f in discover(root) if f.id == "typhoon"))
    assert shape(game) == shape(fresh.game) and st.good.diagnostics == fresh.diagnostics
    cell = next(i for i in game.maps["M"].hexes.values() if i.label == label)
    old = next(i for i in before.maps["M"].hexes.values() if i.label == label)
    assert cell.terrain == (game.maps["M"].default_terrain,) != old.terrain
    assert len(session.reads) == len(st.files.all)
