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

A read entry's modification time is set to now, so the time says when an entry was last used; `trim`
removes the least recently used entries of cache folders over a size budget (a designer's edits would
otherwise leave every earlier drawing behind).
"""

from __future__ import annotations

import os
import re
import stat
import struct
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
        _touch(path)
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
            _touch(path)  # an entry stored again with the same bytes is not rewritten: it was still used now

    def _path(self, key: str) -> Path | None:
        return self.folder / key if _KEY.match(key) else None


def _touch(path: Path) -> None:
    """Mark the entry as used now (best effort: a read-only cache is still read)."""
    try:
        os.utime(path, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass


@dataclass(frozen=True)
class Trimmed:
    """What `trim` removed: entries and their bytes, and the bytes left."""

    entries: int = 0
    freed: int = 0
    left: int = 0

    def __str__(self) -> str:
        return f"{self.entries} old cache {'entry' if self.entries == 1 else 'entries'} removed ({self.freed >> 20} MB)"


def trim(folders: Iterable[Path], budget: int, since: float) -> Trimmed:
    """Remove the least recently used entries of `folders` (one budget for all of them) until they hold at
    most `budget` bytes, never an entry used or written at or after `since` (a wall-clock time: the build's
    own entries stay even when they alone are over the budget). Only entry files are looked at: not links,
    not temporary files, not anything else a folder holds."""
    found = sorted(_entry_files(folders))
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
    return Trimmed(removed, freed, left)


def _entry_files(folders: Iterable[Path]) -> Iterator[tuple[float, int, str]]:
    """(last used, size, path) of every entry file directly in the folders."""
    for folder in folders:
        if Path(folder).is_symlink():  # a link's target is not the cache's to empty
            continue
        try:
            with os.scandir(folder) as listing:
                for item in listing:
                    if _KEY.match(item.name) and item.is_file(follow_symlinks=False):
                        info = item.stat(follow_symlinks=False)
                        yield info.st_mtime, info.st_size, item.path
        except OSError:
            continue
