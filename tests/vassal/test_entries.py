"""The image cache's database (`authoring.vassal.entries`): shared by processes, never the cause of a failed build."""
from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

from PIL import Image

from authoring.vassal.art import ImageCache
from authoring.vassal.entries import DATABASE, Entries


def _put_in_child(folder: Path, key: str, data: bytes) -> None:
    Entries(folder).put([(key, data)])


def test_entries_stored_by_another_process_are_found_by_an_open_connection(tmp_path: Path) -> None:
    """The cards stage of `build all` stores card pages that the module stage, its database already open, reads."""
    entries = Entries(tmp_path)
    assert not entries.has("card") and entries.get("card") is None
    child = multiprocessing.get_context("spawn").Process(target=_put_in_child, args=(tmp_path, "card", b"page"))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert entries.has("card") and entries.get("card") == b"page"


def test_a_forked_child_opens_its_own_connection_and_its_entries_reach_the_parent(tmp_path: Path) -> None:
    entries = Entries(tmp_path)
    entries.put([("before", b"1")])
    pid = os.fork()
    if pid == 0:   # the child: the parent's connection must not be used here
        try:
            entries.put([("from child", entries.get("before") + b"2")])
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert entries.get("from child") == b"12"


def test_a_damaged_database_is_made_again_and_the_images_drawn(tmp_path: Path) -> None:
    (tmp_path / DATABASE).write_bytes(b"these bytes were never a database" * 100)
    cache = ImageCache(tmp_path, processes=1)
    [png] = cache.many([("red", lambda: Image.new("RGB", (8, 8), "red"))])
    assert cache.misses == 1
    again = ImageCache(tmp_path, processes=1)
    assert again.many([("red", lambda: None)]) == [png] and again.hits == 1


def test_a_cache_that_cannot_store_still_builds(tmp_path: Path) -> None:
    """A read-only cache folder: every image is drawn and handed out, none kept."""
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):   # running as root: permissions do not apply
            (folder / DATABASE).mkdir()   # a folder where the database file would be
        cache = ImageCache(folder, processes=1)
        [png] = cache.many([("blue", lambda: Image.new("RGB", (8, 8), "blue"))])
        assert png and cache.misses == 1 and not cache.has("blue")
    finally:
        folder.chmod(0o700)


def test_a_busy_database_caches_nothing_this_time_and_is_left_as_it_is(tmp_path: Path, monkeypatch) -> None:
    """A lock held past the wait is no damage: the database (another build's) is neither removed nor set aside.
    (Taken for damage, it was removed under a reader thread's open map: the suite died of a bus error.)"""
    import sqlite3

    import authoring.vassal.entries as entries_module
    holder = sqlite3.connect(tmp_path / DATABASE, isolation_level=None)
    holder.execute(entries_module._SCHEMA)
    holder.execute("insert into entries values ('kept', x'01')")
    holder.execute("pragma locking_mode = exclusive")
    holder.execute("begin exclusive")
    monkeypatch.setattr(entries_module, "_WAIT_S", 0.1)
    try:
        busy = Entries(tmp_path)
        assert busy.get("kept") is None and not busy.has("kept")
        busy.put([("lost", b"2")])
        assert sorted(p.name for p in tmp_path.iterdir()) == [DATABASE]
    finally:
        holder.execute("commit")
        holder.close()
    assert Entries(tmp_path).get("kept") == b"\x01"
