"""The module stage's writer: a game's `.vmod` from the pure compiler, its images kept and keyed by products.

`vassal.compile` makes the module's bytes from the model and two things handed in: where its images are
kept (`products.images.ImageCache`, sealed entries in `build/.cache/vassal`) and how they are keyed
(`products.catalogue.ModuleKeys`). This module hands them in, skips a module whose inputs' key matches the
manifest written next to it, and writes the bytes and the manifest.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from authoring import atomic
from authoring.model import Game
from authoring.products.catalogue import ModuleKeys, module_key
from authoring.products.images import ImageCache
from authoring.products.maptiles import KIND, MapPieces
from authoring.products.stamps import module_up_to_date, previous_module, record_module
from authoring.products.store import cache_dir as cache_dir_of
from authoring.progress import SILENT, Progress
from authoring.runtime import frozen_model
from authoring.vassal.archive import WRITER, Stored, stored_members
from authoring.vassal.compile import (
    DEFAULT_PX_PER_HEX,
    MANIFEST_VERSION,
    Options,
    help_source,
    later,
    module_chunks,
    module_options,
)
from authoring.vmod.kept import piece_images
from authoring.workers import Workers


def write_module(
    game: Game,
    out_dir: Path,
    *,
    px_per_hex: float = DEFAULT_PX_PER_HEX,
    counter_px: int | None = None,
    cache_dir: Path | None = None,
    progress: Progress = SILENT,
    workers: Workers | None = None,
    files_digest: str | None = None,
    cards_drawn: Callable[[], object] | None = None,
) -> Path:
    """Write `<out_dir>/<game id>.vmod` (atomically, deterministic bytes) and return its path.

    `cache_dir` holds rendered images (default: `.cache/vassal` next to `out_dir`, i.e.
    `build/.cache/vassal` for `build/<game>`); `workers` draw them (default: one per core).
    `cards_drawn`: see `vassal.compile.module_chunks`.
    `files_digest`: a digest the caller already made of everything the game was loaded from (the
    CLI's, of the game's files and hexwright's code), recorded in the module's manifest instead of a
    digest of the whole model (a walk of every counter, hex and placement: a tenth of a build from
    cached images).
    """
    with frozen_model():
        target = Path(out_dir) / f"{game.id}.vmod"
        options = module_options(game, px_per_hex, counter_px)
        inputs = input_hash(game, options, files_digest)
        if module_up_to_date(target, inputs):
            progress.note(f"{target.name}: up to date")
            return target
        previous = later(partial(_previous, target))  # read and checked while the game's keys are made
        folder = cache_dir if cache_dir is not None else cache_dir_of(Path(out_dir), "vassal")
        pieces = MapPieces(Path(folder).parent / KIND)  # the maps' tiles, beside the module's images
        cache = ImageCache(folder, workers, pieces, kept=lambda: previous()[1])
        kept = lambda made: piece_images(previous()[2], made)  # noqa: E731 - its pieces' images, for old saved games
        zipped, count = module_chunks(
            game, options, cache, ModuleKeys(), progress, cards_drawn, kept, lambda: previous()[0]
        )
        chunks = zipped.chunks
        sha256 = later(partial(_sha256, chunks))  # hashed while the file is written: both release the GIL
        atomic.write_chunks(target, chunks)
        size, origins = sum(map(len, chunks)), cache.origins(zipped.entries)
        record_module(target, inputs, sha256(), size, zipped.compressed, origins, WRITER)
        progress.note(
            f"{target.name}: written ({count} files, {cache.misses} images drawn, {cache.hits} from cache, "
            f"{cache.copied} as the previous module holds them; {len(zipped.compressed)} members compressed, "
            f"{len(zipped.copied)} copied from the previous module)"
        )
        return target


def input_hash(game: Game, options: Options, files_digest: str | None = None) -> str:
    """What the module is made from (`catalogue.module_key`): the model (or, when the caller has one, the
    digest of the files it was loaded from), the options and the designer's help page."""
    made_from = game if files_digest is None else ("files", files_digest)
    return module_key(MANIFEST_VERSION, made_from, options, help_source(game))


def _previous(target: Path) -> tuple[dict[str, Stored], dict[str, list[Stored]], bytes | None]:
    """The module at `target` when this machine wrote it (`stamps.previous_module`), read once: its stored
    members by name and of them the image pages by image key (each key's pages in order: only a key whose every
    page is there), none when another zlib wrote it, whose streams are never copied; and its bytes, whose
    pieces' images a new build keeps for old saved games (None: a module from elsewhere, or none)."""
    found = previous_module(target)
    if found is None:
        return {}, {}, None
    data, writer, origins = found
    if writer != WRITER:
        return {}, {}, data
    stored = stored_members(data)
    pages: dict[str, dict[int, Stored]] = {}
    for name, (key, index) in origins.items():
        if name in stored:
            pages.setdefault(key, {})[index] = stored[name]
    kept = {
        key: [found[i] for i in range(len(found))]
        for key, found in pages.items()
        if set(found) == set(range(len(found)))
    }
    return stored, kept, data


def _sha256(chunks: Sequence[bytes]) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk)
    return h.hexdigest()
