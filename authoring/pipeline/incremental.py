"""Per-output reuse inside a stage: a stage whose inputs changed redraws only the outputs that show the change.

A stage's stamp (`products.stamps`) says whether anything it reads changed; when something did, each group of its
files (one set-up card's pages and PDFs, one map's image and print tiles) is kept when its own key is
unchanged. A group's stamp lies beside its first file (`products.stamps.stamp`): sealed with this machine's
key, bound to the files' identities, so a downloaded or replaced file is a miss. Every key is the catalogue's
(`products.catalogue`), and every drawn page is kept in its sealed store (`products.store`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from PIL import Image

from authoring.model import Game
from authoring.names import file_name, map_file_name
from authoring.products import catalogue
from authoring.products.images import ImageCache, PageEntry
from authoring.products.stamps import Group, files_key, keep, kept, stamp
from authoring.products.store import Entries, cache_dir, pack, unpack
from authoring.vassal.art import png_bytes
from authoring.workers import Workers

# --- set-up cards -------------------------------------------------------------------------


def card_group(folder: Path, sid: str, side: str) -> Group:
    """One card's files as the last build left them: its Letter PDF, the A4 PDF and its page PNGs
    (one unnumbered, or numbered from 1 while they are there)."""
    single = folder / file_name("setup", sid, side, ext="png")
    pages = [single] if single.exists() else []
    n = 1
    while not pages and (folder / file_name("setup", sid, side, str(n), ext="png")).exists():
        n += 1
    pages = pages or [folder / file_name("setup", sid, side, str(k), ext="png") for k in range(1, n)]
    files = sorted([folder / file_name("setup", sid, side, p, ext="pdf") for p in ("letter", "a4")] + pages)
    return files[0], tuple(files[1:])


def card_files(game: Game, folder: Path, workers: Workers, also, force: bool) -> tuple[list[Path], list[Path]]:
    """Every set-up card's files in `folder`, drawing only the cards whose `card_keys` changed: (the files of
    the cards drawn, those of the cards kept)."""
    from authoring.render.print.card_sides import card_sides
    from authoring.render.print.cards import DPI, write_cards

    key_of = catalogue.card_keys(game, {})  # one memo for every card's key (`keys.Memo`)
    cards = {(sid, side) for sid in game.scenarios for side in card_sides(game, game.scenarios[sid])}
    groups = {
        f"{sid}\0{side}": (card_group(folder, sid, side), catalogue.card_files_key(key_of(sid, side), DPI))
        for sid, side in sorted(cards)
    }
    todo, found = keep(groups, force)
    chosen = [(sid, side) for sid, side in (gid.split("\0") for gid in todo)]
    written = write_cards(game, folder, chosen, workers, also, CardPages(cache_dir(folder.parent, "cards"), game))
    for gid, paths in zip(todo, written):
        stamp(paths, groups[gid][1])
    return [p for paths in written for p in paths], found


def card_pages_to(game: Game, folder: Path) -> Callable[[str, str], PageEntry]:
    """Where the set-up cards stage puts each card's Letter pages for the module (`cards.write_setup_cards`'s
    `also`): the module's own image entries in `folder`, under the catalogue's card keys, so the module draws
    none of them again."""
    cache, key_of = ImageCache(folder), catalogue.card_keys(game, {})
    return lambda sid, side: PageEntry(cache, key_of(sid, side), jpeg=True)


class CardPages:
    """`cards.PageCache` in sealed entries under `folder`: a page keys on the counters' style, the card's
    header (game, scenario, side), what the page shows (`cards.card_pages`) and the counters of its entries,
    so an edited counter redraws the pages that show it, not the rest of its card."""

    def __init__(self, folder: Path, game: Game) -> None:
        self._entries = Entries(folder)
        self._key = catalogue.card_page_keys(game, {})  # one memo for its pages' keys: the model is frozen

    def key(self, game: Game, scenario, side: str, shown: tuple) -> str:
        return self._key(game, scenario, side, shown)

    def get(self, key: str) -> list[bytes] | None:
        found = self._entries.get(key)
        return None if found is None else unpack(found)

    def put(self, key: str, parts: list[bytes]) -> None:
        self._entries.put([(key, pack(parts))])


# --- charts -------------------------------------------------------------------------------


def chart_files(game: Game, folder: Path, listed: Sequence[Path], force: bool) -> tuple[list[Path], list[Path]]:
    """The charts in `folder`: the files `listed` (the stage's last index) kept when what they show is unchanged
    (`catalogue.charts_key`: a unit moved in a set-up redraws none), else every chart drawn again. (The files
    drawn, those kept.)"""
    from authoring.render.print.charts import write_charts

    key = files_key("charts", catalogue.charts_key(game))
    found = sorted(p for p in listed if p.name != "index.txt")
    if found and not force and kept((found[0], tuple(found[1:])), key):
        return [], found
    paths = write_charts(game, folder)
    stamp(paths, key)
    return paths, []


# --- maps ---------------------------------------------------------------------------------


def map_groups(game: Game, folder: Path, px_per_hex: float, papers: Sequence[str], dpi: float) -> dict:
    """Map id (and "" for the joined layout) -> (its files, their key): a map's image, registration proof
    and print tiles key on that map and the game's map style (`catalogue.map_image_key`), not on the other maps."""
    from authoring.render.maps.draw import LAYOUT_JOB, has_art

    keys = {m: catalogue.map_image_key(game, m, px_per_hex) for m in sorted(game.maps)}
    groups = {}
    for m, key in keys.items():
        files = [folder / map_file_name("tiles", m, game.maps, p, ext="pdf") for p in papers]
        if has_art(game.maps[m]):
            files.append(folder / map_file_name("registration", m, game.maps, ext="png"))
        groups[m] = ((folder / map_file_name("map", m, game.maps, ext="png"), tuple(files)), key)
    if len(game.maps) > 1 and game.layout:
        key = catalogue.layout_key(keys, game.layout)
        groups[LAYOUT_JOB] = ((folder / file_name("layout", ext="png"), ()), key)
    return {m: (group, catalogue.map_files_key(key, px_per_hex, papers, dpi)) for m, (group, key) in groups.items()}


def map_files(game: Game, folder: Path, write: Callable, px_per_hex: float, papers, dpi: float, force: bool):
    """Every map file in `folder`, drawing only the maps whose key changed: `write(only)` draws the maps
    (and layout) named in `only` and returns their files. (The files drawn, those kept.)"""
    groups = map_groups(game, folder, px_per_hex, papers, dpi)
    todo, found = keep(groups, force)
    written = write(frozenset(todo)) if todo else []
    by_group = {m: [p for p in written if p in {g[0], *g[1]}] for m, (g, _) in groups.items() if m in todo}
    for m, paths in by_group.items():
        if paths:
            stamp(paths, groups[m][1])
    return list(written), found


# --- counter sheets -----------------------------------------------------------------------

Fits = dict
"""(counter id, state) -> the text that could not be printed legibly on that face (`RenderIssue`s)."""


def sheet_cache_dir(out: Path) -> Path:
    return cache_dir(out, "sheets")


def cached_index(folder: Path) -> Callable:
    """`sheets.index_pngs` through the cache in `folder`: the index pages show the title, the options and each
    sheet's placements (names and cells), so a counter's values never redraw them."""
    from authoring.render.print.sheets import index_pngs

    entries = Entries(folder)  # one for the stage: what it read is journalled once (`store.Entries`)

    def pngs(title: str, opts, sheets: Sequence, two_sided: bool) -> list[bytes]:
        key = catalogue.sheet_index_key(title, opts, sheets, two_sided)
        found = entries.get(key)
        if found is not None:
            return unpack(found)
        drawn = index_pngs(title, opts, sheets, two_sided)
        entries.put([(key, pack(drawn))])
        return drawn

    return pngs


def sheet_face_keys(game: Game, opts) -> Callable:
    """`key(counter, state)`: a face at the sheets' size and bleed (`catalogue.sheet_face_keys`)."""
    return catalogue.sheet_face_keys(game, *_face_size(opts))


def _face_size(opts) -> tuple[int, int]:
    from authoring.render.print.sheets import mm_to_px

    return round(opts.counter_in * opts.dpi), mm_to_px(opts.bleed_mm, opts.dpi)


def sheet_faces(folder: Path, game: Game, opts) -> Callable:
    """`face(counter, state) -> (image, fit findings)` at the sheets' size and bleed, each face cached in
    `folder` (`sheet_face_keys`): a sheet redrawn for one edited counter draws that face only, and takes
    the others from the cache."""
    size, bleed = _face_size(opts)
    key_of = sheet_face_keys(game, opts)
    entries = Entries(folder)  # one for every face: what they read is journalled once (`store.Entries`)
    memo: list = []  # the faces' shared `counter_art.CounterMemo`, made with the first face drawn

    def face(counter, state: str):
        from authoring.render.counter_art import CounterMemo, render_face
        from authoring.render.counters.fit import RenderIssue

        key = key_of(counter, state)
        found = entries.get(key)
        if found is not None:
            png, text = unpack(found)
            image = Image.open(io.BytesIO(png), formats=["PNG"])
            image.load()  # decoded: the buffer it was read from is let go, with no copy of the pixels
            return image, tuple(RenderIssue(f, m) for f, m in json.loads(text))
        if not memo:
            memo.append(CounterMemo())
        drawn = render_face(game, counter, state, size, bleed, memo=memo[0])
        png = png_bytes(drawn.image)  # unfiltered rows at level 1: twice as fast as Pillow's, and smaller
        entries.put([(key, pack([png, json.dumps([[i.face, i.message] for i in drawn.issues]).encode()]))])
        return drawn.image, drawn.issues

    return face


def cached_sheets(sheets: Sequence, key_of: Callable, folder: Path, draw: Callable, fits: Fits):
    """The (front, back) PNGs of every sheet, in order: read from the cache in `folder`, else drawn by
    `draw(missing sheets)` (which yields (pngs, fits) per sheet, started at once) and stored. The faces'
    fit findings of every sheet, drawn or read, go into `fits`."""
    entries = Entries(folder)
    keys = [key_of(s) for s in sheets]
    found = [entries.get(k) for k in keys]
    missing = [s for s, entry in zip(sheets, found) if entry is None]
    drawn = iter(draw(missing)) if missing else iter(())

    def pairs():
        for key, entry in zip(keys, found):
            if entry is None:
                pngs, found_fits = next(drawn)
                entries.put([(key, _pack_sheet(pngs, found_fits))])
            else:
                pngs, found_fits = _unpack_sheet(entry)
            fits.update(found_fits)
            yield pngs
        for _ in drawn:  # the drawing ends (its workers stop)
            pass

    return pairs()


def _pack_sheet(pngs: tuple[bytes, bytes], fits: Fits) -> bytes:
    text = json.dumps(
        sorted([cid, state, [[i.face, i.message] for i in found]] for (cid, state), found in fits.items())
    )
    return pack([pngs[0], pngs[1], text.encode()])


def _unpack_sheet(entry) -> tuple[tuple[bytes, bytes], Fits]:
    from authoring.render.counters.fit import RenderIssue

    front, back, text = unpack(entry)
    found = {(cid, state): [RenderIssue(f, m) for f, m in items] for cid, state, items in json.loads(text)}
    return (front, back), found
