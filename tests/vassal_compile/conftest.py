"""Build every bundled game's module once per test session (small pixels: the geometry is what matters)."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from lxml import etree

from authoring.load import discover, load_game
from authoring.model import Game
from authoring.pipeline.module import write_module as build_module

ROOT = Path(__file__).resolve().parents[2]
PX_PER_HEX = 48
GAMES = [f.id for f in discover(ROOT)]


@dataclass(frozen=True)
class Built:
    game: Game
    path: Path
    tree: etree._Element
    names: frozenset[str]

    def read(self, name: str) -> bytes:
        with zipfile.ZipFile(self.path) as z:
            return z.read(name)


_BUILT: dict[str, Built] = {}


def load(game_id: str) -> Game:
    files = next(f for f in discover(ROOT) if f.id == game_id)
    result = load_game(files)
    assert result.game is not None and result.ok, [str(d) for d in result.diagnostics][:5]
    return result.game


@pytest.fixture(scope="session")
def out_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("modules")


@pytest.fixture(scope="session", params=GAMES)
def built(request: pytest.FixtureRequest, out_root: Path) -> Built:
    game_id = request.param
    if game_id not in _BUILT:
        game = load(game_id)
        path = build_module(game, out_root / game_id, px_per_hex=PX_PER_HEX, cache_dir=out_root / ".cache")
        with zipfile.ZipFile(path) as z:
            tree = etree.fromstring(z.read("buildFile.xml"))
            names = frozenset(z.namelist())
        _BUILT[game_id] = Built(game, path, tree, names)
    return _BUILT[game_id]
