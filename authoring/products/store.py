"""The sealed store of drawn products: one file per key in a cache folder, sealed by this machine.

Every product kept between builds (a module image, a sheet page or face, a card page, a preview tile) is an
entry here under its key from `products.catalogue`, in `build/.cache/<kind>/` (`cache_dir`).

An entry is `MAGIC`, a keyed digest (`trust.seal`) of its cache key and bytes, then the bytes. It is
written atomically (`atomic.write_bytes`: a temporary file renamed over it, so any process may store
while others read: in `build all` the cards stage stores the card pages the module stage reads) and
read only when it is a regular file, not a link, of bounded size, whose seal verifies: an entry that
came with a downloaded game, a truncated one or one with a flipped byte is a miss, drawn again and
replaced. The cache is only ever a shortcut: a folder that cannot be written caches nothing, and a
build never fails for it.

Reading an entry writes nothing to it: each process keeps the keys it read in memory and, when it ends
(or the `Entries` that read them is dropped), appends them in one write to a journal of its own beside the
cache folders (`.used-<pid>`). `trim`, once per build, gathers the journals into the one record of what the
builds used (`used`: an entry's path and the time of the last build that used it) and removes the least
recently used entries of the cache folders over a size budget (a designer's edits would otherwise leave every
earlier drawing behind): an entry was last used when the record says, or when it was written if later.
"""

from __future__ import annotations

import math
import os
import re
import stat
import struct
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from authoring import atomic
from authoring.safepath import UnsafePath, confine
from authoring.trust import TAG_BYTES, read_regular, seal, verify

MAGIC = b"hexwright-image 1\n"
ENTRY_LIMIT = 1 << 30
"""The largest entry read back (a page of a huge map is a few hundred megabytes at most)."""
_KEY = re.compile(r"[0-9a-z-]{1,128}\Z")
RECORD = "used"
"""The record of what the builds used, in the cache folders' parent (`build/.cache/used`): one line an entry,
the time of the last build that used it and its path in the cache (`sheets/<key>`)."""
JOURNAL = ".used-"
"""A process's journal of the entries it read (`.used-<pid>`), until `trim` gathers it into the record."""
RECORD_LIMIT = 64 << 20
_LINE = re.compile(r"(\d+(?:\.\d+)?) ([0-9a-z-]{1,128}/[0-9a-z-]{1,128})\Z")


def cache_dir(out: Path, kind: str) -> Path:
    """Where the drawn products of `kind` of the games built into `out` (build/<game>) are kept between builds."""
    return Path(out).parent / ".cache" / kind


def pack(parts: Sequence[bytes]) -> bytes:
    """Blobs in one entry: their count and sizes, then their bytes."""
    return struct.pack(f">I{len(parts)}Q", len(parts), *map(len, parts)) + b"".join(map(bytes, parts))


def unpack(entry) -> list[bytes]:
    """The blobs of a `pack`ed entry."""
    (count,) = struct.unpack_from(">I", entry)
    sizes = struct.unpack_from(f">{count}Q", entry, 4)
    at, parts = 4 + 8 * count, []
    for size in sizes:
        parts.append(bytes(entry[at : at + size]))
        at += size
    return parts


class Entries:
    """key -> bytes, one sealed file each in `folder` (made on first use)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def get(self, key: str) -> memoryview | None:
        """The entry's bytes (a read-only view), when this machine stored them under `key` and they are whole."""
        path = self._path(key)
        if path is None:
            return None
        data = read_regular(path, ENTRY_LIMIT)
        head = len(MAGIC) + TAG_BYTES
        if data is None or len(data) < head or not data.startswith(MAGIC):
            return None
        body = memoryview(data)[head:]
        if not verify(data[len(MAGIC) : head], "image", key, body):
            return None
        self._note(key)
        return body.toreadonly()

    def has(self, key: str) -> bool:
        """An entry is stored under `key` (whether it verifies is known when it is read)."""
        path = self._path(key)
        try:
            return path is not None and stat.S_ISREG(os.lstat(path).st_mode)
        except OSError:
            return False

    def put(self, items) -> None:
        """Store these (key, bytes) entries (a failure only loses them from the cache)."""
        for key, data in items:
            path = self._path(key)
            if path is None:
                continue
            try:  # the cache's folders (`<build>/.cache/<kind>`) are hexwright's own: never a link
                confine(self.folder.parent.parent, path, "cache entry", links="none")
                atomic.write_chunks(path, (MAGIC, seal("image", key, data), data))
            except (OSError, UnsafePath):
                return
            self._note(key)  # an entry stored again with the same bytes is not rewritten: it was still used now

    def _path(self, key: str) -> Path | None:
        return self.folder / key if _KEY.match(key) else None

    def _note(self, key: str, when: float | None = None) -> None:
        """Record that this process used `key` now (or `when`): one line appended to the process's journal
        as it happens, so that the trim at the end of the build sees every use of the build, whatever reader
        is still alive or whichever worker has not yet ended. The time goes with it: a journal line an earlier
        build wrote is never taken for this build's use."""
        _journal(self.folder, [(key, time.time() if when is None else when)])


def _stamp(when: float) -> str:
    """A time as the journals and the record write it: to the millisecond, rounded up, so that a use is never
    written as earlier than it was (a build's own use must not fall before its start)."""
    return f"{math.ceil(when * 1000) / 1000:.3f}"


def _journal(folder: Path, keys: list[tuple[str, float]]) -> None:
    """Append these keys of `folder`, each with when it was used, to this process's journal in one write (best
    effort: a read-only cache is still read, and only its trimming misses them)."""
    if not keys:
        return
    text = "".join(f"{_stamp(used)} {folder.name}/{key}\n" for key, used in keys).encode()
    keys.clear()
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(folder.parent / f"{JOURNAL}{os.getpid()}", flags, 0o600)
    except OSError:
        return
    try:
        os.write(fd, text)
    except OSError:
        pass
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Trimmed:
    """What `trim` removed: entries and their bytes, and the bytes left."""

    entries: int = 0
    freed: int = 0
    left: int = 0

    def __str__(self) -> str:
        return f"{self.entries} old cache {'entry' if self.entries == 1 else 'entries'} removed ({self.freed >> 20} MB)"


def trim(folders: Iterable[Path], budget: int, since: float, slack: float = 0.0) -> Trimmed:
    """Gather the journals of the entries read since the last trim into the record of use, as used now (or at
    `since`, the build's start, if that is later), then remove the least recently used entries of `folders` (one budget for all of
    them) until they hold at most `budget` bytes, never an entry used or written at or after `since` (a
    wall-clock time: the build's own entries stay even when they alone are over the budget; a file's time
    counts `slack` seconds later, since file times may be coarser than the clock, the record's times as they are). Only entry
    files are looked at: not links, not temporary files, not anything else a folder holds. The record is
    written once, with the entries that are left."""
    folders = [Path(f) for f in folders if not Path(f).is_symlink()]  # a link's target is not the cache's to empty
    now = max(since, time.time())
    records = {base: _gathered(base, now) for base in sorted({f.parent for f in folders})}
    found = sorted(_entry_files(folders, records, slack))
    left = sum(size for _, size, _ in found)
    removed = freed = 0
    for used, size, path in found:
        if left <= budget or used >= since:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        left, removed, freed = left - size, removed + 1, freed + size
    for base, record in records.items():
        _write_record(base, record)
    return Trimmed(removed, freed, left)


def last_used(base: Path) -> dict[str, float]:
    """The record of use in `base` (a build folder's `.cache`): an entry's path in it -> when a build last used it."""
    data = read_regular(base / RECORD, RECORD_LIMIT) or b""
    record: dict[str, float] = {}
    for line in data.decode("ascii", "replace").splitlines():
        match = _LINE.match(line)
        if match:
            record[match[2]] = max(float(match[1]), record.get(match[2], 0.0))
    return record


def _gathered(base: Path, now: float) -> dict[str, float]:
    """The record in `base` with every journal's keys (then removed) as used when the journal says (never
    later than `now`)."""
    record = last_used(base)
    try:
        journals = [item.path for item in os.scandir(base) if item.name.startswith(JOURNAL)]
    except OSError:
        return record
    for journal in sorted(journals):
        data = read_regular(Path(journal), RECORD_LIMIT) or b""
        try:
            os.unlink(journal)
        except OSError:
            continue  # not ours to gather (a read-only cache)
        for line in data.decode("ascii", "replace").splitlines():
            match = _LINE.match(line)
            if match:
                record[match[2]] = max(min(float(match[1]), now), record.get(match[2], 0.0))
    return record


def _write_record(base: Path, record: dict[str, float]) -> None:
    """The record of the entries still there, written only when it says something new."""
    kept = sorted((name, used) for name, used in record.items() if os.path.isfile(base / name))
    text = "".join(f"{_stamp(used)} {name}\n" for name, used in kept).encode()
    if text == (read_regular(base / RECORD, RECORD_LIMIT) or b""):
        return
    try:
        confine(base.parent, base / RECORD, "cache record", links="none")
        atomic.write_bytes(base / RECORD, text)
    except (OSError, UnsafePath):
        pass


def _entry_files(
    folders: Iterable[Path], records: dict[Path, dict[str, float]], slack: float = 0.0
) -> Iterator[tuple[float, int, str]]:
    """(last used, size, path) of every entry file directly in the folders: used when the record of its
    folder's parent says, or when written (its file time, `slack` later) if that was later."""
    for folder in folders:
        record = records.get(folder.parent, {})
        try:
            with os.scandir(folder) as listing:
                for item in listing:
                    if _KEY.match(item.name) and item.is_file(follow_symlinks=False):
                        info = item.stat(follow_symlinks=False)
                        used = max(info.st_mtime + slack, record.get(f"{folder.name}/{item.name}", 0.0))
                        yield used, info.st_size, item.path
        except OSError:
            continue
