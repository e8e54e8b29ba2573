"""The module's images kept in the sealed store under their product keys, the missing ones drawn in workers.

A cached PNG is keyed by everything that draws it (`catalogue.ModuleKeys`: the data it shows, the size, the
fingerprint); `ImageCache` (the `vassal.art.Images` the module compiler asks) only draws the missing ones,
in forked workers, and hands out the stored bytes with their zip member streams. Same key, same bytes: a
rebuild after a small data change only redraws what changed.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import cast

from PIL import Image

from authoring.products.store import Entries
from authoring.vassal.archive import Deflated, Stored, deflate
from authoring.vassal.art import Batch, Draw, jpeg_bytes, png_bytes
from authoring.workers import Workers, can_fork

Job = tuple[Draw, bool, bool, bool]
"""(drawing, JPEG rather than PNG, made into zip member streams, heavy)."""
_PARALLEL_MIN = 8


def _pack(pngs: list[bytes]) -> bytes:
    return struct.pack(f">I{len(pngs)}I", len(pngs), *map(len, pngs)) + b"".join(pngs)


def _run(job: Job) -> bytes:
    """One job's cache entry: each page's encoded image (a draw returns an image, a list of pages, or an
    iterator that draws each page when asked, so that only one is held at a time) and, after it, its zip member stream
    (`archive.deflate`), compressed here in the worker rather than serially when the module is zipped
    (empty for an image the module only draws others from, such as a map its boards are cut from).
    The parent stores it (`Entries`) while the workers draw on."""
    draw, jpeg, zipped, _heavy = job
    drawn = draw()
    blobs: list[bytes] = []
    for image in [drawn] if isinstance(drawn, (Image.Image, bytes)) else drawn:  # a list, or pages drawn one by one
        blobs += page_blobs(image, jpeg, zipped)
        del image  # encoded: the next page is drawn without this one in memory
    return _pack(blobs)


def _run_task(draws: list[Job], task: tuple[int, ...]) -> list[bytes]:
    """A pool's task: the entries of some of `draws` (which the workers have from the fork), by index."""
    return [_run(draws[i]) for i in task]


def _is_light(draws: list[Job]) -> Callable[[tuple[int, ...]], bool]:
    """A task of light jobs (counter faces) takes no token; a heavy job (a whole map, alone in its task)
    holds one of the build's tokens while it draws."""
    return lambda task: not any(draws[i][3] for i in task)


def page_blobs(image: Image.Image | bytes, jpeg: bool, zipped: bool) -> list[bytes]:
    """One page of a cache entry: its encoded image (`image` itself when it comes encoded), then its zip
    member stream (or nothing)."""
    data = image if isinstance(image, bytes) else jpeg_bytes(image) if jpeg else png_bytes(image)
    if not zipped:
        return [data, b""]
    crc, packed = deflate(data)
    return [data, crc.to_bytes(4, "big") + packed]


class PageEntry:
    """A cache entry filled page by page by another stage that draws the same pages (`ImageCache.pages`
    then finds them): the set-up cards stage hands the module each card page it draws."""

    def __init__(self, cache: ImageCache, key: str, jpeg: bool) -> None:
        self.cache, self.key, self.jpeg = cache, key, jpeg
        self.blobs: list[bytes] = []

    def add(self, page: Image.Image) -> None:
        self.blobs += self.encode(page)

    def encode(self, page: Image.Image) -> list[bytes]:
        return page_blobs(page, self.jpeg, True)

    def add_encoded(self, blobs: list[bytes]) -> None:
        self.blobs += blobs

    def close(self) -> None:
        self.cache._put(self.key, _pack(self.blobs))


def _pages(entry: bytes, deflated: Streams) -> list[memoryview]:
    """The pages of a cache entry (`_pack`ed pairs of blobs: page, zip stream), as read-only views of it
    (bytes-like: a module's entries hold twice its size, and nothing of them is copied); their zip streams
    go into `deflated`."""
    (count,) = struct.unpack_from(">I", entry)
    sizes = struct.unpack_from(f">{count}I", entry, 4)
    view = memoryview(entry)
    pages, at = [], 4 + 4 * count
    for page_size, packed_size in zip(sizes[0::2], sizes[1::2]):
        page = view[at : at + page_size]
        at += page_size
        if packed_size:
            deflated[cast(bytes, page)] = (  # a read-only view, handed out as the image's bytes
                int.from_bytes(entry[at : at + 4], "big"),
                view[at + 4 : at + packed_size],
            )
        at += packed_size
        pages.append(page)
    return pages


class Streams(MutableMapping[bytes, Deflated]):
    """Image bytes -> their zip member stream, by the identity of the bytes object: the zip looks up the
    very objects the cache handed out, and hashing each image's bytes (tens of megabytes of set-up card
    pages) cost more than the lookups. Equal bytes held in another object are simply not found (the zip
    then deflates them itself: same bytes, slower)."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[bytes, Deflated]] = {}

    def __getitem__(self, data: bytes) -> Deflated:
        held = self._by_id.get(id(data))
        if held is None or held[0] is not data:
            raise KeyError("no zip stream for these bytes")
        return held[1]

    def __setitem__(self, data: bytes, stream: Deflated) -> None:
        self._by_id[id(data)] = (data, stream)

    def __delitem__(self, data: bytes) -> None:
        self[data]  # noqa: B018 - raises KeyError for bytes not held
        del self._by_id[id(data)]

    def __iter__(self) -> Iterator[bytes]:
        return (data for data, _ in self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)


Kept = Mapping[str, Sequence[Stored]]
"""Image key -> its pages as the previous module stores them (`pipeline.module`, from its sealed manifest)."""


class ImageCache:
    """Drawn images stored under a folder by key; no folder means no caching.

    Missing images are drawn in forked worker processes when there are enough of them. `kept()`: the pages
    the previous module holds, by key: handed out as they are stored there (`archive.Stored`: not read from
    the cache, not inflated, copied into the new module as they are).
    """

    def __init__(
        self,
        folder: Path | None,
        workers: Workers | None = None,
        map_pieces: object | None = None,
        kept: Callable[[], Kept] | None = None,
    ) -> None:
        self.folder = Path(folder) if folder and not Path(folder).is_symlink() else None  # never through a link
        self.map_pieces = map_pieces
        """Where the maps' drawings keep their tiles (`maptiles.MapPieces`), or None: every tile drawn."""
        self._entries = Entries(self.folder) if self.folder else None
        self.workers = workers or Workers.for_jobs()
        self.hits = 0
        self.misses = 0
        self.copied = 0
        """Images handed out as the previous module stores them."""
        self._kept = kept
        self._origin: dict[int, tuple[object, str, int]] = {}
        """id of each page handed out -> (the page, its key, its index among the key's pages): `origins`."""
        self.deflated = Streams()
        """Image bytes -> their zip member stream, for `archive.zip_bytes` (every image handed out)."""
        self._ahead: tuple[threading.Thread, dict[str, bytes], set[str]] | None = None
        """(reader, entries read, keys asked for) of `prefetch`."""
        self._drawn: dict[str, bytes] = {}
        """Entries `draw_ahead` drew, until `pages` asks for them."""

    def prefetch(self, keys: Sequence[str]) -> None:
        """Start reading these entries in a thread (big pages: the reads release the GIL, so they go on
        beside the build's Python work); `_get` then takes them from memory. Entries missing now are
        read (or drawn) later as usual."""
        if self._entries is None:
            return
        ready: dict[str, bytes] = {}

        def read() -> None:
            for key in keys:
                if key in self.kept():
                    continue  # the previous module holds it: never read
                data = self._read(key)
                if data is not None:
                    ready[key] = data

        reader = threading.Thread(target=read, daemon=True)
        self._ahead = (reader, ready, set(keys))
        reader.start()

    def draw_ahead(self, batches: Sequence[Batch], meanwhile: Callable[[], object] | None = None) -> None:
        """Draw the missing entries of independent batches in one pool, heavy jobs first, and keep them
        for the `pages` calls that ask for them later; `meanwhile()` runs here while the workers draw
        (once they are forked: they start without what it makes), or after the jobs when there is no pool.

        Drawn batch by batch, three maps on two workers left one worker idle for a third of the maps'
        time, and each batch waited for its slowest job; in one pool, the many light jobs (counter faces)
        fill the cores while the few heavy ones run."""
        seen: set[str] = set(self._drawn)
        todo: list[tuple[str, Job]] = []
        for b in sorted(batches, key=lambda b: not b.heavy):
            for key, draw in b.jobs:
                if key in seen or self.has(key):
                    continue  # drawn already, or cached: read when asked for, as usual
                seen.add(key)
                todo.append((key, (draw, b.jpeg, b.zipped, b.heavy)))
        if not todo:
            if meanwhile is not None:
                meanwhile()
            return
        drawn = self._draw(todo, meanwhile)
        self._drawn.update(zip([key for key, _ in todo], drawn))

    def _get(self, key: str) -> bytes | None:
        if self._ahead is not None and key in self._ahead[2]:
            reader, ready, _ = self._ahead
            reader.join()
            data = ready.pop(key, None)
            if data is not None:
                return data
        return self._read(key)

    def _read(self, key: str) -> bytes | None:
        """The entry's bytes, or None."""
        return None if self._entries is None else cast("bytes | None", self._entries.get(key))  # a read-only view

    def _put(self, key: str, data: bytes) -> None:
        if self._entries is not None:
            self._entries.put([(key, data)])

    def has(self, key: str) -> bool:
        return key in self.kept() or (self._entries is not None and self._entries.has(key))

    def kept(self) -> Kept:
        """The previous module's pages by key (none without one), asked for once."""
        if self._kept is not None:
            found = self._kept()
            self._kept = lambda: found
            return found
        return {}

    def origins(self, files: Mapping[str, object]) -> dict[str, tuple[str, int]]:
        """Of these archive members, those handed out here: (key, page index) by name, for the manifest."""
        out = {}
        for name, data in files.items():
            held = self._origin.get(id(data))
            if held is not None and held[0] is data:
                out[name] = held[1:]
        return out

    def pages(
        self, jobs: Sequence[tuple[str, Draw]], jpeg: bool = False, heavy: bool = False, zipped: bool = True
    ) -> list[list[memoryview | Stored]]:
        """PNG (or JPEG) pages of each (key, draw) job, as read-only views of the cache entries (`_pages`), or
        as the previous module stores them (`kept`); a draw returns one image or a list of pages.

        `heavy`: each draw takes long enough (a whole map) to pay for forking even when there are few.
        `zipped`: the pages go into the module, so their zip member streams are made with them."""
        kept = self.kept() if zipped else {}
        ahead = [self._drawn.pop(key, None) for key, _ in jobs]
        found = [data if data is not None or key in kept else self._get(key) for (key, _), data in zip(jobs, ahead)]
        missing = [i for i, data in enumerate(found) if data is None and jobs[i][0] not in kept]
        drawn = len(missing) + sum(data is not None for data in ahead)
        copied = sum(data is None and key in kept for (key, _), data in zip(jobs, found))
        self.hits += len(jobs) - drawn - copied
        self.misses += drawn
        self.copied += copied
        for i, data in zip(missing, self._draw([(jobs[i][0], (jobs[i][1], jpeg, zipped, heavy)) for i in missing])):
            found[i] = data
        out: list[list[memoryview | Stored]] = [
            list(kept[key]) if data is None else list(_pages(data, self.deflated))  # type: ignore[arg-type]
            for (key, _), data in zip(jobs, found)
        ]
        for (key, _), pages in zip(jobs, out):
            for index, page in enumerate(pages):
                self._origin[id(page)] = (page, key, index)
        return out

    def many(
        self, jobs: Sequence[tuple[str, Draw]], heavy: bool = False, zipped: bool = True
    ) -> list[memoryview | Stored]:
        """One PNG per (key, draw) job."""
        return [pages[0] for pages in self.pages(jobs, heavy=heavy, zipped=zipped)]

    def png(self, key: str, draw: Draw) -> memoryview | Stored:
        return self.many([(key, draw)])[0]

    def _draw(self, todo: list[tuple[str, Job]], meanwhile: Callable[[], object] | None = None) -> list[bytes]:
        """Each (key, job)'s entry (`_run`), stored under its key as it comes, in worker processes when there
        are enough jobs: two heavy ones (each a whole map, worth a fork), else `_PARALLEL_MIN`.
        `meanwhile`: see `draw_ahead`."""
        draws = [job for _, job in todo]

        def store(i: int, entry: bytes) -> None:
            self._put(todo[i][0], entry)

        workers = min(self.workers.processes, len(draws))
        few = len(draws) < (2 if any(job[3] for job in draws) else min(_PARALLEL_MIN, 2 * workers))
        if workers < 2 or few or not can_fork():
            entries = []
            for i, job in enumerate(draws):
                entries.append(_run(job))
                store(i, entries[-1])  # each kept as it is drawn, as the pool's are
            if meanwhile is not None:
                meanwhile()
            return entries
        if self._ahead is not None:  # no fork while the `prefetch` thread runs (its reads are quick beside drawing)
            self._ahead[0].join()
        return _in_pool(self.workers, draws, workers, meanwhile, store)


def _in_pool(
    pool: Workers,
    draws: list[Job],
    workers: int,
    meanwhile: Callable[[], object] | None,
    store: Callable[[int, bytes], None],
) -> list[bytes]:
    """Every job's entry, heavy jobs first and one a task, then the light ones in chunks (eight a worker):
    a chunk holding a heavy job would keep it from starting at once on a free worker. `meanwhile()` runs
    once the workers are forked; then each result is `store`d as it is collected, while the rest draw."""
    heavy = [i for i, job in enumerate(draws) if job[3]]
    light = [i for i, job in enumerate(draws) if not job[3]]
    size = max(1, len(light) // (workers * 8))
    tasks = [(i,) for i in heavy] + [tuple(light[k : k + size]) for k in range(0, len(light), size)]
    out: list[bytes] = [b""] * len(draws)
    with Workers(workers, pool.tokens).start(_run_task, draws, tasks, light=_is_light(draws)) as running:
        if meanwhile is not None:
            meanwhile()
        for task, entries in zip(tasks, running):
            for i, data in zip(task, entries):
                out[i] = data
                store(i, data)
    return out
