"""Helpers for the art tests: a writable copy of the demo game with painted art (bfm-art)."""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME = "bfm-art"


def copy_demo(dst: Path) -> Path:
    for folder in ("scenarios", "maps", "counters"):
        shutil.copytree(ROOT / folder / GAME, dst / folder / GAME)
    return dst


def load(root: Path):
    from authoring.load import discover, load_game

    files = next(f for f in discover(root) if f.id == GAME)
    return load_game(files)
