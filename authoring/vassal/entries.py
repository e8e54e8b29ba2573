"""The image cache's entries: one file per key in the cache folder, sealed by this machine.

An entry is `MAGIC`, a keyed digest (`trust.seal`) of its cache key and bytes, then the bytes. It is
written atomically (`atomic.write_bytes`: a temporary file renamed over it, so any process may store
while others read: in `build all` the cards stage stores the card pages the module stage reads) and
read only when it is a regular file, not a link, of bounded size, whose seal verifies: an entry that
came with a downloaded game, a truncated one or one with a flipped byte is a miss, drawn again and
replaced. The cache is only ever a shortcut: a folder that cannot be written caches nothing, and a
build never fails for it.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from authoring.trust import TAG_BYTES, read_regular, seal, verify

MAGIC = b"hexwright-image 1\n"
ENTRY_LIMIT = 1 << 30
"""The largest entry read back (a page of a huge map is a few hundred megabytes at most)."""
_KEY = re.compile(r"[0-9a-z-]{1,128}\Z")


class Entries:
    """key -> bytes, one sealed file each in `folder` (made on first use)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def get(self, key: str) -> bytes | None:
        """The entry's bytes, when this machine stored them under `key` and they are whole."""
        path = self._path(key)
        data = None if path is None else read_regular(path, ENTRY_LIMIT)
        head = len(MAGIC) + TAG_BYTES
        if data is None or len(data) < head or not data.startswith(MAGIC):
            return None
        body = memoryview(data)[head:]
        if not verify(data[len(MAGIC) : head], "image", key, body):
            return None
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
        from authoring import atomic

        for key, data in items:
            path = self._path(key)
            if path is None:
                continue
            try:
                atomic.write_chunks(path, (MAGIC, seal("image", key, data), data))
            except OSError:
                return

    def _path(self, key: str) -> Path | None:
        return self.folder / key if _KEY.match(key) else None
