"""The image cache's entries (`authoring.products.store`): one sealed file per key, shared by processes, used
only when this machine stored them whole, never the cause of a failed build."""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from authoring import trust
from authoring.products.images import ImageCache
from authoring.products.store import MAGIC, Entries
from authoring.workers import Workers


def _put_in_child(folder: Path, key: str, data: bytes) -> None:
    Entries(folder).put([(key, data)])


def _red() -> Image.Image:
    return Image.new("RGB", (8, 8), "red")


def test_entries_stored_by_another_process_are_found(tmp_path: Path) -> None:
    """The cards stage of `build all` stores card pages that the module stage reads."""
    entries = Entries(tmp_path)
    assert not entries.has("card") and entries.get("card") is None
    child = multiprocessing.get_context("spawn").Process(target=_put_in_child, args=(tmp_path, "card", b"page"))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert entries.has("card") and entries.get("card") == b"page"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def _flip(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[: len(data) // 2],  # truncated
        _flip,  # one bit of the image changed (a wrong CRC in its zip stream)
        lambda data: os.urandom(len(data)),  # random bytes
        lambda data: b"",  # empty
        lambda data: MAGIC,  # a header only
    ],
)
def test_a_damaged_entry_is_a_miss_drawn_again_and_replaced(tmp_path: Path, damage) -> None:
    cache = ImageCache(tmp_path, Workers(1))
    [png] = cache.many([("red", _red)])
    entry = tmp_path / "red"
    whole = entry.read_bytes()
    entry.write_bytes(damage(whole))
    again = ImageCache(tmp_path, Workers(1))
    assert again.many([("red", _red)]) == [png] and (again.hits, again.misses) == (0, 1)
    assert entry.read_bytes() == whole


def test_an_entry_stored_under_another_key_or_by_another_machine_is_not_used(tmp_path: Path, monkeypatch) -> None:
    """A planted cache (its entries sealed with another key) or an entry renamed to another key: never an input."""
    planted = tmp_path / "planted"
    Entries(planted).put([("red", b"not this machine's")])
    Entries(tmp_path).put([("blue", b"blue's bytes")])
    os.replace(tmp_path / "blue", tmp_path / "red")
    assert Entries(tmp_path).get("red") is None
    monkeypatch.setenv(trust.KEY_ENV, str(tmp_path / "other-key"))
    Entries(planted).put([("green", b"a stranger's image")])
    monkeypatch.undo()
    assert Entries(planted).get("red") == b"not this machine's"  # this machine's own: used
    assert Entries(planted).has("green") and Entries(planted).get("green") is None


def test_an_entry_that_is_a_link_or_a_fifo_is_a_miss_at_once(tmp_path: Path) -> None:
    Entries(tmp_path).put([("real", b"an image")])
    os.symlink(tmp_path / "real", tmp_path / "linked")
    os.symlink("/dev/zero", tmp_path / "zero")
    os.mkfifo(tmp_path / "fifo")
    entries = Entries(tmp_path)
    assert entries.get("real") == b"an image"
    assert entries.get("linked") is None and entries.get("zero") is None and entries.get("fifo") is None


def test_a_cache_folder_that_is_a_link_caches_nothing(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, tmp_path / "cache")
    cache = ImageCache(tmp_path / "cache", Workers(1))
    cache.many([("red", _red)])
    assert not list(elsewhere.iterdir())


def test_a_cache_that_cannot_store_still_builds(tmp_path: Path) -> None:
    """A read-only cache folder (or, as root, a folder where the entry would be): every image drawn, none kept."""
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):  # running as root: permissions do not apply
            (folder / "blue").mkdir()
        cache = ImageCache(folder, Workers(1))
        [png] = cache.many([("blue", lambda: Image.new("RGB", (8, 8), "blue"))])
        assert png and cache.misses == 1 and Entries(folder).get("blue") is None
    finally:
        folder.chmod(0o700)


def _aged(entries: Entries, folder: Path, key: str, size: int, used: float) -> Path:
    """An entry stored and last used at `used`: its file's time, and the store's journal line of it dated so."""
    entries.put([(key, bytes(size))])
    path = folder / key
    os.utime(path, (used, used))
    for journal in folder.parent.glob(".used-*"):
        lines = journal.read_text().splitlines()
        journal.write_text(
            "".join(
                f"{used:.3f} {n}\n" if n.endswith(f"/{key}") else f"{t} {n}\n" for t, n in (x.split() for x in lines)
            )
        )
    return path


def test_a_read_entry_is_left_as_it_is_and_counts_as_used_by_the_next_trim(tmp_path: Path) -> None:
    """A read writes nothing to the entry; the key read is journalled as it is read, with when, and `trim`
    records them so: a build keeps what it used, and what an earlier build read does not count as this one's."""
    from authoring.products.store import last_used, trim

    folder = tmp_path / "cache" / "kind"
    entries = Entries(folder)
    path = _aged(entries, folder, "old", 10, 1000.0)  # stored by a build long ago
    other = _aged(entries, folder, "other", 10, 1000.0)
    broken = _aged(entries, folder, "broken", 10, 1000.0)
    broken.write_bytes(broken.read_bytes()[:-1])  # a broken entry is a miss: it is not marked used
    os.utime(broken, (1000.0, 1000.0))
    began = time.time() - 1  # this build
    reader = Entries(folder)
    assert reader.has("old") and reader.get("old") == bytes(10) and reader.get("broken") is None
    assert path.stat().st_mtime == 1000.0 and broken.stat().st_mtime == 1000.0  # reading wrote nothing
    assert [p.name for p in (tmp_path / "cache").iterdir() if p.name.startswith(".used-")]  # but its journal
    done = trim([folder], 0, since=began)  # the reader is still alive: what it read counts all the same
    assert done.entries == 2 and path.exists() and not other.exists() and not broken.exists()
    used = last_used(tmp_path / "cache")
    assert set(used) == {"kind/old"} and used["kind/old"] >= began
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.startswith(".used-")]  # gathered once
    later = time.time() + 1  # the next build reads nothing: "old" was this one's, not the next one's
    assert trim([folder], 0, since=later).entries == 1 and not path.exists()


def test_trim_removes_the_least_recently_used_entries_down_to_the_budget(tmp_path: Path) -> None:
    from authoring.products.store import trim

    a, b = tmp_path / "a", tmp_path / "b"
    ea, eb = Entries(a), Entries(b)
    oldest = _aged(ea, a, "k1", 1000, 100.0)
    older = _aged(eb, b, "k2", 1000, 200.0)
    newer = _aged(ea, a, "k3", 1000, 300.0)
    mine = _aged(eb, b, "k4", 1000, 5000.0)  # used by the build that trims: kept whatever the budget
    other = a / "notes.txt"  # not an entry's name: never looked at
    other.write_bytes(bytes(5000))
    os.utime(other, (1.0, 1.0))
    temp = a / ".k5.123.abc.tmp"
    temp.write_bytes(bytes(5000))
    size = oldest.stat().st_size
    done = trim([a, b], 3 * size, since=4000.0)
    assert (done.entries, done.freed, done.left) == (1, size, 3 * size)
    assert not oldest.exists() and older.exists() and newer.exists() and mine.exists()
    assert other.exists() and temp.exists()
    done = trim([a, b], 0, since=4000.0)
    assert done.entries == 2 and not older.exists() and not newer.exists() and mine.exists()
    assert trim([a, b], 0, since=4000.0).entries == 0  # what is left is the build's own


def test_trim_never_follows_a_link(tmp_path: Path) -> None:
    from authoring.products.store import trim

    elsewhere = tmp_path / "elsewhere"
    _aged(Entries(elsewhere), elsewhere, "precious", 100, 1.0)
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "linked").symlink_to(elsewhere)
    link_entry = tmp_path / "cache" / "plain"
    link_entry.mkdir()
    (link_entry / "deadbeef").symlink_to(elsewhere / "precious")
    assert trim([tmp_path / "cache" / "linked", link_entry], 0, since=1e12).entries == 0
    assert (elsewhere / "precious").exists() and (link_entry / "deadbeef").is_symlink()
