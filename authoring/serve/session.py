"""The games a `serve` process shows: each as last loaded, with the last good load kept under a data error.

A `Session` is made by the app and lives as long as it: every reload bumps the game's generation, which the
page hears of through server-sent events. Pictures are cached under a key of the files they are drawn from
(size and modification time), so a scenario save redraws neither the map nor the faces.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from authoring.diagnostics import Diagnostic, has_errors
from authoring.load import discover, load_game
from authoring.load.project import ART_EXTS, GameFiles, LoadResult

CACHE_ENTRIES = 2048
"""Pictures and views kept per session before the oldest half is dropped."""


@dataclass
class GameState:
    """One game: its last good load, the errors of the newest load (empty when it loaded), its generation."""

    files: GameFiles
    good: LoadResult | None = None
    errors: list[Diagnostic] = field(default_factory=list)
    gen: int = 0
    maps_key: str = ""
    faces_key: str = ""


def _stamp(paths) -> str:
    """A key that changes when any of the files changes (size and modification time, in nanoseconds)."""
    h = hashlib.sha1()
    for p in sorted(set(paths)):
        try:
            st = p.stat()
            h.update(f"{p}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        except OSError:
            h.update(f"{p}\0missing\n".encode())
    return h.hexdigest()[:16]


def _art(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix.lower() in ART_EXTS] if folder.is_dir() else []


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
        result = load_game(files)
        with self.lock:
            st = self.games.setdefault(gid, GameState(files))
            st.files = files
            if result.game is None or has_errors(result.diagnostics):
                st.errors = [d for d in result.diagnostics]
            else:
                st.good, st.errors = result, []
                st.maps_key = _stamp([files.manifest, *files.maps, *_art(self.root / "maps" / gid)])
                st.faces_key = _stamp([files.manifest, *files.counters, *_art(self.root / "counters" / gid)])
            st.gen += 1
            return st

    def affected(self, path: Path) -> list[str]:
        """The loaded games a changed file belongs to (its folder under maps/, counters/ or scenarios/)."""
        try:
            parts = path.resolve().relative_to(self.root.resolve()).parts
        except ValueError:
            return []
        with self.lock:
            loaded = list(self.games)
        return [parts[1]] if len(parts) > 2 and parts[1] in loaded else []
