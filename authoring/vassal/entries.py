"""The image cache's entries, kept in one SQLite database (`images.sqlite` in the cache folder).

A clean module of a large game stores over 2,000 entries, a counter face each. As one file each,
creating the files took 0.2-1 ms of kernel time apiece on a busy disk (1-2.5 s of CPU of the large
game's module build on our machines); one database takes them as rows of a file that exists, in
short transactions appended to its write-ahead log. Its pages are 64 KiB: set-up card pages and map
images are megabytes, read and written as fast as plain files.

Each process, and each thread (the cache reads big entries ahead in one), opens its own connection:
a forked drawing worker never uses its parent's (workers hand their entries to the parent, which
stores them). Any process may write (in `build all` the cards stage stores the card pages the module
stage reads); a reader never waits for a writer, a writer waits for another (`timeout`). The cache
is only ever a shortcut: a file that is no database, or a damaged one, is set aside and the database
made again; one that is busy past the wait or cannot be opened caches nothing this time; an entry
that cannot be read or stored is drawn again; a build never fails for it.
"""
from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

DATABASE = "images.sqlite"
_SCHEMA = "create table if not exists entries (key text primary key, data blob not null)"
_WAIT_S = 60.0
"""How long a writer waits for another process's write to end."""


class Entries:
    """key -> bytes, in `folder`/images.sqlite (made on first use)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / DATABASE
        self._local = threading.local()

    def get(self, key: str) -> bytes | None:
        """The entry's bytes, read from the database's pages straight into them (`_read`)."""
        db = self._connection()
        try:
            return None if db is None else _read(db, key)
        except sqlite3.Error:
            return None

    def has(self, key: str) -> bool:
        db = self._connection()
        try:
            return db is not None and db.execute("select 1 from entries where key = ?", (key,)).fetchone() is not None
        except sqlite3.Error:
            return False

    def put(self, items: Iterable[tuple[str, bytes]]) -> None:
        """Store these entries, in one transaction (a failure only loses them from the cache)."""
        db = self._connection()
        if db is None:
            return
        try:
            with db:
                for key, data in items:
                    _write(db, key, data)
        except sqlite3.Error:
            return

    def _connection(self) -> sqlite3.Connection | None:
        """This process's and this thread's connection (a forked child opens its own); None when the
        database cannot be opened or made here (a read-only folder): nothing is cached."""
        local = self._local
        if getattr(local, "pid", None) != os.getpid():
            local.db, local.pid = self._open(), os.getpid()
        return local.db

    def _open(self) -> sqlite3.Connection | None:
        with _OPENING:   # one thread at a time makes the database (the reader thread starts beside the build)
            try:
                return _opened(self.path)
            except sqlite3.DatabaseError as exc:
                if not _damaged(exc):   # locked past the wait, or not to be opened here: nothing cached
                    return None
            except OSError:
                return None
            try:   # set aside, not removed: another process may still have it open (and mapped)
                for suffix in ("", "-wal", "-shm"):
                    if Path(f"{self.path}{suffix}").exists():
                        os.replace(f"{self.path}{suffix}", f"{self.path}{suffix}.damaged")
                return _opened(self.path)
            except (sqlite3.Error, OSError):
                return None


_OPENING = threading.Lock()


def _read(db: sqlite3.Connection, key: str) -> bytes | None:
    """An entry's bytes. Through a blob handle, the pages are copied into the bytes object once; a plain
    query first joins them in a buffer of SQLite's own (each entry of a map or set-up card page twice in
    memory: a build's peak rose by tens of megabytes)."""
    row = db.execute("select rowid, length(data) from entries where key = ?", (key,)).fetchone()
    if row is None:
        return None
    if not hasattr(db, "blobopen"):   # Python 3.10
        return db.execute("select data from entries where rowid = ?", (row[0],)).fetchone()[0]
    with db.blobopen("entries", "data", row[0], readonly=True) as blob:
        return blob.read()


def _write(db: sqlite3.Connection, key: str, data: bytes) -> None:
    """Store an entry as a zero-filled blob of its size, then its bytes written into the pages (a bound
    value is copied whole, and again into the row's record)."""
    if not hasattr(db, "blobopen"):   # Python 3.10
        db.execute("insert or replace into entries (key, data) values (?, ?)", (key, data))
        return
    rowid = db.execute("insert or replace into entries (key, data) values (?, zeroblob(?))", (key, len(data))).lastrowid
    with db.blobopen("entries", "data", rowid) as blob:
        blob.write(data)


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    """The file is no SQLite database, or a damaged one (not merely busy or out of reach)."""
    return getattr(exc, "sqlite_errorcode", 0) & 0xFF in (_NOTADB, _CORRUPT)


_NOTADB, _CORRUPT = 26, 11
"""SQLite's primary result codes (the module names them from Python 3.11 on)."""


def _opened(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, timeout=_WAIT_S, check_same_thread=False)
    try:
        db.execute("pragma page_size = 65536")        # only takes effect on a new database
        db.execute("pragma journal_mode = wal")       # falls back to a rollback journal where WAL cannot work
        db.execute("pragma synchronous = normal")     # a crash may lose the last entries, never the database
        db.execute(_SCHEMA)
    except BaseException:
        db.close()
        raise
    return db
