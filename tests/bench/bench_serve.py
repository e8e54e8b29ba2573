"""`hexwright serve`: save-to-updated-page latency in headless Chromium, for bfm and typhoon (printed, never asserted).

The page stamps `data-updated` (browser clock, ms) when it has drawn the new data and `data-mapdrawn` when a
redrawn map picture is in; both are read against the wall-clock time of the save. A scenario save (a unit's hex,
back and forth) redraws the set-up and findings; a map save that adds a comment keeps the map picture's key
(nothing to draw); one that changes a hex's terrain (another hex each time) redraws the tiles of the picture
that show it."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))

from benchlib import repeat, scratch, spread  # noqa: E402

GAMES = (("bfm", "seven-turn"), ("typhoon", "campaign"))


def _save_and_wait(driver, path: Path, text: str, stamp: str = "updated") -> float:
    """Seconds from writing `text` to the page's `stamp`."""
    from serve_support import wait_for

    gen = int(driver.execute_script("return document.body.dataset.gen"))
    before = driver.execute_script(f"return document.body.dataset.{stamp} || '0'")
    t0 = time.time()
    path.write_text(text, encoding="utf-8")
    wait_for(driver, f"+document.body.dataset.gen > {gen}", 120)
    wait_for(driver, f"document.body.dataset.{stamp} && document.body.dataset.{stamp} !== {before!r}", 120)
    return int(driver.execute_script(f"return document.body.dataset.{stamp}")) / 1000 - t0


def _fewer_terrain(text: str, count: int):
    """Map texts each with one more hex taken out of its terrain lists: every save is new data (a save back
    to an earlier text would find its picture made)."""
    from serve_support import without_first_terrain

    for _ in range(count):
        text, _label = without_first_terrain(text)
        yield text


def _one_game(driver, tmp: Path, gid: str, sid: str, runs: int) -> None:
    from serve_support import Served, copy_game, wait_for

    root = copy_game(gid, tmp / gid)
    with Served(root, gid) as served:
        t0 = time.time()
        driver.get(served.url(f"/?game={gid}&scenario={sid}"))
        wait_for(driver, "document.body.dataset.mapdrawn", 300)
        print(f"  {gid}: first page with its map: {time.time() - t0:.2f} s")
        scen = served.session.state(gid).good.game.scenarios[sid]
        a = scen.setup[0]
        other = next(p for p in scen.setup if p.side == a.side and p.label != a.label)
        path = root / "scenarios" / gid / Path(a.loc.file).name
        good = path.read_text(encoding="utf-8")
        lines = good.splitlines(keepends=True)
        lines[a.loc.line - 1] = lines[a.loc.line - 1].replace(f'"{a.label}"', f'"{other.label}"', 1)
        moved = "".join(lines)
        times = []
        for _ in range(runs):
            times.append(_save_and_wait(driver, path, moved))
            times.append(_save_and_wait(driver, path, good))
        print(f"  {gid}: scenario save -> updated page: {spread(times, 'ms', 1000, 0)}")
        m = Path(sorted(served.session.state(gid).files.maps)[0])
        text = m.read_text(encoding="utf-8")
        saves = {"a comment": [text + f"\n# bench save {k}\n" for k in range(max(1, runs // 2))]}
        saves["one hex's terrain"] = list(_fewer_terrain(text, 2 * runs))
        for what, texts in saves.items():
            page, picture = [], []
            for t in texts:
                t0 = time.time()
                page.append(_save_and_wait(driver, m, t))
                wait_for(driver, f"+document.body.dataset.mapdrawn > {int(t0 * 1000)}", 300)
                picture.append(int(driver.execute_script("return document.body.dataset.mapdrawn")) / 1000 - t0)
            print(
                f"  {gid}: map save ({what}) -> updated page: {spread(page, 'ms', 1000, 0)}; "
                f"-> map picture of the new data: {spread(picture, 'ms', 1000, 0)}"
            )
        m.write_text(text, encoding="utf-8")
        driver.get("about:blank")


def run(synth_root: Path, tmp: Path) -> None:
    import pytest
    from serve_support import chrome

    print("serve: save to updated page (headless Chromium)")
    try:
        driver = chrome()
    except pytest.skip.Exception as exc:
        print(f"  skipped: {exc}")
        return
    try:
        with tempfile.TemporaryDirectory(dir=tmp) as work:
            for gid, sid in GAMES:
                _one_game(driver, Path(work), gid, sid, repeat(3))
    finally:
        driver.quit()


if __name__ == "__main__":
    with scratch() as tmp:
        run(Path("."), tmp)
