"""`hexwright serve`: save-to-updated-page latency in headless Chromium, for bfm and typhoon (printed, never asserted).

The page stamps `data-updated` (browser clock, ms) when it has drawn the new data and `data-mapdrawn` when a
redrawn map picture is in; both are read against the wall-clock time of the save. A scenario save (a unit's hex,
back and forth) redraws the set-up and findings; a map save that adds a comment keeps the map picture's key
(nothing to draw); one that changes a hex's terrain (another hex each time, so no cache holds its picture)
redraws the tiles of the picture that show it: a hex inside each map (no other map shows it), and for Typhoon a
hex of the column maps M and N share (saved in both files), reported apart. The server's own state tells when it
has loaded a save (`_good_generation`). CPU: this process's (the server in its thread, loading and drawing,
and the bench's own polling of the page; the browser's is not counted)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))

from benchlib import repeat, scratch, spread  # noqa: E402
from edits import drop, interior_hexes, shared_hexes  # noqa: E402

GAMES = (("bfm", "seven-turn"), ("typhoon", "campaign"))
SHARED = {"typhoon": ("M", "N")}
"""Maps that share hexes (Typhoon's M column 01 is N column 39): one hex there is saved in both files."""


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


def _map_saves(driver, served, gid: str, what: str, saves: list[dict[Path, str]], picture: bool = True) -> None:
    """Each save (one or more files written back to back), timed to the page showing its data and to the map
    picture of it. A save of two files may be seen half done (an error: the page keeps the last good data and
    picture), so the page's time is taken at the generation the server loaded both at, and the picture's when
    the page's picture key is no longer the one before the save (`picture`: the save changes the picture)."""
    from serve_support import wait_for

    page, drawn, cpu = [], [], []
    for files in saves:
        c0 = time.process_time()
        key = driver.execute_script("return document.body.dataset.mapkey || ''")
        old_maps_key = served.session.state(gid).maps_key
        t0 = time.time()
        for path, text in files.items():
            path.write_text(text, encoding="utf-8")
        gen = _good_generation(served, gid, old_maps_key)
        wait_for(driver, f"+document.body.dataset.gen >= {gen}", 300)
        page.append(int(driver.execute_script("return document.body.dataset.updated")) / 1000 - t0)
        if picture:
            wait_for(driver, f"document.body.dataset.mapkey && document.body.dataset.mapkey !== {key!r}", 300)
            drawn.append(int(driver.execute_script("return document.body.dataset.mapdrawn")) / 1000 - t0)
        cpu.append(time.process_time() - c0)
    line = f"  {gid}: {what} -> updated page: {spread(page, 'ms', 1000, 0)}"
    line += f"; -> its map picture: {spread(drawn, 'ms', 1000, 0)}" if picture else "; (same picture)"
    print(f"{line}   CPU {_ms(cpu)}")


def _ms(seconds: list[float]) -> str:
    return spread(seconds, "ms", 1000, 0)


def _good_generation(served, gid: str, old_maps_key: str, timeout: float = 300) -> int:
    """The server's generation of the game once it has loaded the new data without errors."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = served.session.games.get(gid)
        if st is not None and not st.errors and st.maps_key != old_maps_key:
            return st.gen
        time.sleep(0.02)
    raise AssertionError(f"{gid}: the server never loaded the saved data without errors")


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
        times, cpu = [], []
        for _ in range(runs):
            for text in (moved, good):
                c0 = time.process_time()
                times.append(_save_and_wait(driver, path, text))
                cpu.append(time.process_time() - c0)
        print(f"  {gid}: scenario save -> updated page: {spread(times, 'ms', 1000, 0)}   CPU {_ms(cpu)}")
        maps = sorted(Path(m) for m in served.session.state(gid).files.maps)
        first = maps[0].read_text(encoding="utf-8")
        comments = [first + f"\n# bench save {k}\n" for k in range(max(1, runs // 2))]
        _map_saves(
            driver, served, gid, f"map {maps[0].stem}: a comment", [{maps[0]: t} for t in comments], picture=False
        )
        maps[0].write_text(first, encoding="utf-8")
        for m in maps:
            text = m.read_text(encoding="utf-8")
            saves, labels = [], iter(interior_hexes(text))
            for _ in range(2 * runs):
                text = drop(text, next(labels), "terrain")
                saves.append({m: text})
            _map_saves(driver, served, gid, f"map {m.stem}: one hex's terrain inside", saves)
        pair = SHARED.get(gid)
        if pair:
            a, b = (root / "maps" / gid / f"{name}.yaml" for name in pair)
            ta, tb = a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")
            saves = []
            for la, lb in list(shared_hexes(ta, tb))[: 2 * runs]:
                ta, tb = drop(ta, la, "terrain"), drop(tb, lb, "terrain")
                saves.append({a: ta, b: tb})
            _map_saves(driver, served, gid, f"maps {'+'.join(pair)}: one hex of the column they share", saves)
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
