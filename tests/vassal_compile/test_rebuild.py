"""Deterministic bytes, the no-change skip, and the image cache."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import PX_PER_HEX, load

from authoring.pipeline.module import write_module as build_module
from authoring.progress import Recorder

pytestmark = pytest.mark.slow  # whole module builds, again


def test_rebuild_is_byte_identical_and_skipped_when_nothing_changed(tmp_path: Path) -> None:
    game = load("bfm")
    first = build_module(game, tmp_path / "a", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache")
    again = build_module(load("bfm"), tmp_path / "b", px_per_hex=PX_PER_HEX, cache_dir=None)  # no cache: redrawn
    assert first.read_bytes() == again.read_bytes()
    stamp = first.stat().st_mtime_ns
    messages = Recorder()
    assert (
        build_module(game, tmp_path / "a", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache", progress=messages)
        == first
    )
    assert first.stat().st_mtime_ns == stamp and messages.notes[-1].endswith("up to date")


def test_changed_options_or_damaged_module_rebuild(tmp_path: Path) -> None:
    game = load("bfm")
    path = build_module(game, tmp_path, px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache")
    original = path.read_bytes()
    path.write_bytes(b"damaged")
    assert build_module(game, tmp_path, px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache").read_bytes() == original
    messages = Recorder()
    build_module(game, tmp_path, px_per_hex=PX_PER_HEX + 8, cache_dir=tmp_path / "cache", progress=messages)
    assert path.read_bytes() != original and "written" in messages.notes[-1]
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*.tmp"))


def test_cached_images_are_reused(tmp_path: Path) -> None:
    game = load("bfm")
    build_module(game, tmp_path / "a", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache")
    messages = Recorder()
    build_module(game, tmp_path / "b", px_per_hex=PX_PER_HEX, cache_dir=tmp_path / "cache", progress=messages)
    assert "0 images drawn" in messages.notes[-1]
