"""A memo of read data files across loads of a game, for a caller that loads it again and again (`serve`).

Parsing and schema-checking a game's files is most of loading it, though a save changes one file. A
`Reads` the caller keeps (no module state) remembers what `project.read` made of each file's exact bytes;
the next load reads every file's bytes again and reuses the entry of each file whose bytes, kind and shown
name are unchanged, and with it what the pure steps after reading made of the file (a counters file's
counters), when everything else those steps read is unchanged too. A reused Source is shared between loads:
loading and checking only read a Source's data (`tests/load/test_reads.py` holds them to it). Only the
files of a game's latest load are kept.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from authoring.diagnostics import Diagnostic
from authoring.load.source import Source


@dataclass(frozen=True, eq=False)
class Read:
    """What `read` made of one file: its Source (None when the file cannot be used), the findings it
    added, and the entries it put in the caller's `failed`; with the bytes, kind and shown name it read."""

    shown: str
    kind: str | None
    raw: bytes
    src: Source | None
    diags: tuple[Diagnostic, ...]
    failed: tuple[tuple[str, str], ...]
    steps: dict[str, tuple[tuple, Any]] = field(default_factory=dict, repr=False)
    """Later steps of loading that read this file (and what else their key names): step -> (key, result), the
    latest only. A step is remembered only when it is pure, and is keyed by everything else it reads."""


@dataclass
class ReadLog:
    """One load's view of a `Reads`: the entries of the game's previous load, and those this load used."""

    known: dict[tuple[str, str | None], Read]
    used: dict[tuple[str, str | None], Read] = field(default_factory=dict)

    def get(self, path: str, shown: str, kind: str | None, raw: bytes) -> Read | None:
        """The entry for these exact bytes of `path` read as `kind` and shown as `shown`, or None."""
        found = self.known.get((path, kind))
        if found is None or found.shown != shown or found.raw != raw:
            return None
        self.used[(path, kind)] = found
        return found

    def entry(self, path: str, kind: str | None) -> Read | None:
        """The entry this load read `path` through, to remember later steps with."""
        return self.used.get((path, kind))

    def put(self, path: str, entry: Read) -> Read:
        self.used[(path, entry.kind)] = entry
        return entry


class Reads:
    """The read files of each game's latest load (games told apart by their manifest's path). Safe to
    share between threads: each load works on its own `ReadLog` and the one that ends last is kept."""

    def __init__(self) -> None:
        self._games: dict[str, dict[tuple[str, str | None], Read]] = {}
        self._lock = threading.Lock()

    def begin(self, game: str) -> ReadLog:
        with self._lock:
            return ReadLog(dict(self._games.get(game, {})))

    def end(self, game: str, log: ReadLog) -> None:
        """Keep the files `log`'s load read, and drop the rest (deleted, renamed or changed files)."""
        with self._lock:
            self._games[game] = log.used

    def __len__(self) -> int:
        with self._lock:
            return sum(len(entries) for entries in self._games.values())
