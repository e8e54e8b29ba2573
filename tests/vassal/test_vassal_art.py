"""The module image cache's keys and the zip member streams it keeps beside each image."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import pytest
from PIL import Image, ImageDraw

from authoring.products.images import ImageCache
from authoring.products.keys import Memo, canonical, digest
from authoring.products.store import Entries
from authoring.vassal import archive
from authoring.workers import Workers


@dataclass(frozen=True)
class Leaf:
    name: str
    value: float
    loc: object = None


@dataclass(frozen=True)
class Tree:
    leaves: tuple[Leaf, ...]
    table: MappingProxyType
    tags: frozenset


def _tree() -> Tree:
    leaves = tuple(Leaf(f"l{i}", i / 3, loc=("file.yaml", i)) for i in range(5))
    return Tree(leaves, MappingProxyType({"b": leaves[0], "a": [1, "x"]}), frozenset({"q", "p"}))


def test_keys_walked_once_per_object_are_the_keys_walked_every_time() -> None:
    tree = _tree()
    plain = [digest("k", tree, leaf) for leaf in tree.leaves]
    memo: Memo = {}
    assert [digest("k", tree, leaf, memo=memo) for leaf in tree.leaves] == plain
    assert memo and digest("k", tree, tree.leaves[0], memo=memo) == plain[0]  # a second time, from the memo
    assert canonical(replace(tree.leaves[0], loc=("moved.yaml", 99))) == canonical(tree.leaves[0])  # no locations


def test_a_changed_object_inside_memo_gets_its_own_key() -> None:
    memo: Memo = {}
    first = digest(Leaf("a", 1.0), memo=memo)
    assert digest(Leaf("a", 2.0), memo=memo) != first


def _square(colour: str) -> Image.Image:
    return Image.new("RGB", (24, 24), colour)


def test_cached_images_carry_their_zip_streams_and_zip_to_the_same_bytes(tmp_path: Path) -> None:
    jobs = [("key-red", lambda: _square("red")), ("key-blue", lambda: [_square("blue"), _square("white")])]
    drawn = ImageCache(tmp_path, Workers(1))
    pages = drawn.pages(jobs)
    again = ImageCache(tmp_path, Workers(1))
    assert again.pages(jobs) == pages and again.hits == 2
    images = [page for job in pages for page in job]
    assert {page: archive.deflate(page) for page in images} == again.deflated
    entries = {f"images/{i}.png": page for i, page in enumerate(images)}
    assert archive.zip_bytes(entries, again.deflated) == archive.zip_bytes(entries)


def test_images_only_drawn_from_carry_no_zip_streams(tmp_path: Path) -> None:
    cache = ImageCache(tmp_path, Workers(1))
    [png] = cache.many([("map", lambda: _square("green"))], zipped=False)
    assert png not in cache.deflated
    later = ImageCache(tmp_path, Workers(1))
    assert later.many([("map", lambda: _square("green"))]) == [png] and not later.deflated


def test_images_drawn_by_workers_are_stored_and_found_next_time(tmp_path: Path) -> None:
    """What the worker processes draw is stored under each key, one file each (no temporary file left
    behind), and a later cache finds every one without drawing."""
    jobs = [(f"key-{i:02d}", lambda i=i: _square(f"#{i * 9:02x}{i * 5:02x}40")) for i in range(16)]
    drawn = ImageCache(tmp_path, Workers(2))
    pngs = drawn.many(jobs)
    assert drawn.misses == 16
    assert sorted(p.name for p in tmp_path.rglob("*")) == [key for key, _ in jobs]
    again = ImageCache(tmp_path, Workers(2))
    assert again.many([(key, lambda: None) for key, _ in jobs]) == pngs and again.hits == 16


def test_batches_drawn_ahead_in_one_pool_are_handed_out_in_order_and_counted_as_drawn(tmp_path: Path) -> None:
    """`draw_ahead` draws independent batches (heavy ones first, each its own task) in one pool; the later
    `pages` calls get exactly what they would have drawn, count it as drawn, and draw nothing more."""
    from authoring.vassal.art import Batch

    calls: list[str] = []  # in this process only: the workers' calls are not seen here
    faces = [(f"face-{i:02d}", lambda i=i: _square(f"#{i * 9:02x}2040")) for i in range(20)]
    maps = [(f"map-{i}", lambda i=i: [_square("green"), _square(f"#40{i * 60:02x}40")]) for i in range(3)]
    cached = ImageCache(tmp_path, Workers(1))
    cached.many(faces[:2])  # two faces cached beforehand: not drawn again
    cache = ImageCache(tmp_path, Workers(2))
    cache.draw_ahead([Batch(faces), Batch(maps, heavy=True, zipped=False)])
    stored = Entries(tmp_path)
    assert all(stored.has(key) for key, _ in faces + maps)
    fresh = ImageCache(tmp_path / "fresh", Workers(1))
    want_faces, want_maps = fresh.many(faces), fresh.pages(maps, zipped=False)
    got_faces = cache.many([(key, lambda key=key: calls.append(key)) for key, _ in faces])
    got_maps = cache.pages([(key, lambda key=key: calls.append(key)) for key, _ in maps], zipped=False)
    assert got_faces == want_faces and got_maps == want_maps and not calls
    assert (cache.hits, cache.misses) == (2, 21)
    assert not any(page in cache.deflated for pages in got_maps for page in pages)  # zipped=False kept


def test_a_map_key_digests_what_its_hexes_are_made_from_and_changes_with_any_hex(bfm) -> None:
    """A map's hexes are keyed by what they are made from (`HexInfos.made_from`), without making them: the
    key is the same before and after every `HexInfo` is made, and changes when one hex's terrain or
    features change, or when a hexside's hexes do."""
    from authoring.model import HexFeature, HexInfos
    from authoring.products.catalogue import map_image_key

    game = bfm
    mid = sorted(game.maps)[0]
    m = game.maps[mid]
    terrain, features, plain = m.hexes.made_from()
    fresh = HexInfos(m.grid.labels(), terrain, features, plain)
    key = map_image_key(game, mid, 64)

    def key_with(**changes) -> str:
        return map_image_key(replace(game, maps={**game.maps, mid: replace(m, **changes)}), mid, 64)

    assert key_with(hexes=fresh) == key
    dict(fresh.items())  # every HexInfo made
    assert key_with(hexes=fresh) == key
    some = next(iter(m.grid.labels()))
    other = next(t for t in game.terrain if (t.id,) != terrain.get(some, plain)).id
    assert key_with(hexes=HexInfos(m.grid.labels(), {**terrain, some: (other,)}, features, plain)) != key
    town = (*features.get(some, ()), HexFeature("city", "New town"))
    assert key_with(hexes=HexInfos(m.grid.labels(), terrain, {**features, some: town}, plain)) != key
    moved = replace(m.hexsides[0], side=m.hexsides[1].side)
    assert key_with(hexsides=(moved, *m.hexsides[1:])) != key


_MEANWHILE: list[str] = []
"""What `meanwhile` made, in this process (a worker forked before it sees it empty)."""


def _waiting_square(go: Path) -> Image.Image:
    """A square drawn once `go` exists (red if it never does): blue when the caller's `meanwhile` had run
    in this process, green when not."""
    for _ in range(400):
        if go.exists():
            return _square("blue" if _MEANWHILE else "green")
        time.sleep(0.025)
    return _square("red")


def test_meanwhile_runs_in_the_parent_while_the_forked_workers_draw(tmp_path: Path) -> None:
    """`draw_ahead(..., meanwhile)`: the parent's own work runs once the workers are drawing (each job here
    waits for a file only `meanwhile` makes), and the workers, forked before, start without what it made."""
    from authoring.vassal.art import Batch

    go = tmp_path / "go"

    def meanwhile() -> None:
        _MEANWHILE.append("made")
        go.touch()

    jobs = [(f"map-{i}", lambda: _waiting_square(go)) for i in range(3)]
    cache = ImageCache(tmp_path / "cache", Workers(2))
    try:
        cache.draw_ahead([Batch(jobs, heavy=True)], meanwhile)
        assert _MEANWHILE == ["made"]
        green = ImageCache(None).png("green", lambda: _square("green"))
        assert cache.many(jobs, heavy=True) == [green] * 3
    finally:
        _MEANWHILE.clear()


def test_meanwhile_runs_after_the_jobs_without_a_pool_and_when_nothing_is_to_draw(tmp_path: Path) -> None:
    from authoring.vassal.art import Batch

    seen: list[str] = []
    jobs = [("face-0", lambda: seen.append("drawn") or _square("green"))]
    cache = ImageCache(tmp_path, Workers(1))
    cache.draw_ahead([Batch(jobs)], lambda: seen.append("meanwhile"))
    assert seen == ["drawn", "meanwhile"]
    cache.draw_ahead([Batch(jobs)], lambda: seen.append("again"))  # cached: nothing drawn, still run
    assert seen == ["drawn", "meanwhile", "again"]


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
def test_a_module_image_is_encoded_as_the_maps_are_unfiltered_rows_deflated_once(mode):
    """The module's images (counter faces, card pages, boards) are PNGs of unfiltered rows deflated at level 1,
    the maps' encoder (`pdf.png_bytes`): Pillow's per-row filter search took twice the time and came out
    larger; a palette picture keeps Pillow's encoding (and its transparency). Same pixels either way."""
    import io

    from authoring.render.shared.pdf import png_bytes as map_png
    from authoring.vassal.art import png_bytes

    image = Image.new("RGBA", (64, 48), (200, 30, 30, 255))
    ImageDraw.Draw(image).ellipse((8, 8, 40, 40), fill=(20, 20, 160, 128))
    image = image.convert(mode) if mode != "P" else image.convert("P", palette=Image.Palette.ADAPTIVE, colors=8)
    data = png_bytes(image)
    if mode != "P":
        assert data == map_png(image)
    with Image.open(io.BytesIO(data)) as back:
        assert back.mode == image.mode and back.tobytes() == image.tobytes()
