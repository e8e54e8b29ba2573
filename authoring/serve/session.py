"""The games a `serve` process shows: each as last loaded, with the last good load kept under a data error.

A `Session` is made by the app and lives as long as it: every reload bumps the game's generation, which the
page hears of through server-sent events. Views and pictures are cached under the keys the build uses for
the same outputs (`build.stage_digest`: hexwright's fingerprint and the bytes of the files a stage reads),
so a scenario save redraws neither the map nor the faces; the map picture is keyed finer (`tiles`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from authoring.diagnostics import Diagnostic, has_errors
from authoring.load import discover, load_game
from authoring.load.project import GameFiles, LoadResult
from authoring.load.reads import Reads
from authoring.pipeline import stage_digest
from authoring.products.stamps import Snapshot
from authoring.render.counter_art import CounterMemo

CACHE_ENTRIES = 2048
"""Pictures and views kept per session before the oldest half is dropped."""
JOBS_KEPT = 4
"""Tile jobs kept per game, in pictures' worth of the newest one (a page may still ask for the last ones)."""
T = TypeVar("T")


@dataclass
class GameState:
    """One game: its last good load, the errors of the newest load (empty when it loaded), its generation."""

    files: GameFiles
    good: LoadResult | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    gen: int = 0
    maps_key: str = ""
    """The build's maps stage digest of this load (the manifest, map files and map art): hex outlines."""
    faces_key: str = ""
    """The build's sheets stage digest (the manifest, counter files and counter art): counter faces."""
    counters: CounterMemo = field(default_factory=CounterMemo)
    """What drawing the faces of the last good load shares (its layouts, its markers' label sizes)."""


def _keys(files: GameFiles) -> tuple[str, str]:
    """The build's maps and sheets stage digests of the game, each file they share (the manifest, its
    art) hashed once."""
    snapshot = Snapshot()
    return stage_digest(files, "maps", snapshot=snapshot)[:24], stage_digest(files, "sheets", snapshot=snapshot)[:24]


class Cache:
    """A bounded memo of pictures and views (the oldest half dropped when full). A value being made is made
    once: a second request for it waits for the first (a large map takes seconds to draw)."""

    def __init__(self, entries: int = CACHE_ENTRIES):
        self.entries = entries
        self.items: dict = {}
        self.making: dict = {}
        self.lock = threading.Lock()

    def get(self, key, make: Callable):
        with self.lock:
            if key in self.items:
                return self.items[key]
            busy = self.making.get(key)
            if busy is None:
                busy = self.making[key] = threading.Lock()
                busy.acquire()
                mine = True
            else:
                mine = False
        if not mine:
            with busy:  # made by the other request (or failed there: then made here)
                pass
            return self.get(key, make)
        try:
            value = make()
            self._put(key, value)
            return value
        finally:
            with self.lock:
                del self.making[key]
            busy.release()

    def peek(self, key):
        """The value kept under `key`, or None (nothing made)."""
        with self.lock:
            return self.items.get(key)

    def _put(self, key, value) -> None:
        with self.lock:
            if len(self.items) >= self.entries:
                for old in list(self.items)[: self.entries // 2]:
                    del self.items[old]
            self.items[key] = value


class Session:
    """The project's games, loaded when first asked for and again on every save."""

    def __init__(self, root: Path, default_game: str | None = None):
        self.root = root
        self.games: dict[str, GameState] = {}
        self.default_game = default_game
        self.cache = Cache()
        self.lock = threading.Lock()
        self.drawers: dict = {}
        self.jobs: dict[str, dict] = {}
        self.reads = Reads()
        """The files of each game's latest load: a save re-reads the files that changed, not the others."""
        self.histories: dict[str, object] = {}
        """Each game's edits made from the page, for undo and redo (`editing.History`)."""

    def game_ids(self) -> list[str]:
        return [g.id for g in discover(self.root)]

    def state(self, gid: str) -> GameState | None:
        with self.lock:
            known = self.games.get(gid)
        return known if known is not None else self.reload(gid)

    def reload(self, gid: str) -> GameState | None:
        """Load the game again (a data error keeps the last good load under the new errors)."""
        files = next((g for g in discover(self.root) if g.id == gid), None)
        if files is None:
            return None
        result = load_game(files, self.reads)
        with self.lock:
            st = self.games.setdefault(gid, GameState(files))
            st.files = files
            if result.game is None or has_errors(result.diagnostics):
                st.errors = [d for d in result.diagnostics]
            else:
                st.good, st.errors = result, []
                st.maps_key, st.faces_key = _keys(files)
                st.counters = CounterMemo()  # the new load's: the old one's game is let go
            st.gen += 1
            return st

    def drawer(self, key, make: Callable[[], T]) -> T:
        """The drawing state of one picture frame (`tiles.Drawer`), made on first use."""
        with self.lock:
            found = self.drawers.get(key)
            if found is None:
                found = self.drawers[key] = make()
            return found

    def tile_jobs(self, gid: str, jobs: dict) -> None:
        """Keep a picture's tile jobs until the page asks for them (older pictures' are dropped in time)."""
        with self.lock:
            known = {**self.jobs.get(gid, {}), **jobs}
            self.jobs[gid] = jobs if len(known) > JOBS_KEPT * max(1, len(jobs)) else known

    def tile_job(self, gid: str, tid: str):
        with self.lock:
            return self.jobs.get(gid, {}).get(tid)

    def history(self, gid: str, make: Callable[[], T]) -> T:
        """The game's undo and redo history (`make()` on first use)."""
        with self.lock:
            found = self.histories.get(gid)
            if found is None:
                found = self.histories[gid] = make()
            return found  # type: ignore[return-value]

    def affected(self, path: Path) -> list[str]:
        """The loaded games a changed file belongs to (its folder under maps/, counters/ or scenarios/)."""
        try:
            parts = path.resolve().relative_to(self.root.resolve()).parts
        except ValueError:
            return []
        with self.lock:
            loaded = list(self.games)
        return [parts[1]] if len(parts) > 2 and parts[1] in loaded else []
