"""Support for the `serve` tests: a copy of a bundled game, the server on a free port in a thread, headless Chromium."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENS = Path(tempfile.gettempdir()) / "hexwright-serve-screens"
"""Screenshots of the page (outside the repository), one set per game."""
BROWSER_HINT = "install Debian's chromium and chromium-driver (`make browser`, as root) to run the page in a browser"


def copy_game(gid: str, dest: Path) -> Path:
    """The game's data folders copied into a project of their own (saves there never touch the repository)."""
    for folder in ("maps", "counters", "scenarios"):
        src = ROOT / folder / gid
        if src.is_dir():
            shutil.copytree(src, dest / folder / gid)
    return dest


class Served:
    """`hexwright serve`'s app for a project, on a free loopback port, in a thread."""

    def __init__(self, root: Path, game: str | None = None, watch: bool = True):
        import uvicorn

        from authoring.serve.app import make_app
        from authoring.serve.session import Session

        self.session = Session(root, game)
        self.app = make_app(self.session, watch_files=watch)
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=0, log_level="warning", timeout_graceful_shutdown=1)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Served:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.05)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __exit__(self, *exc) -> None:
        self.app.state.loop.call_soon_threadsafe(self.app.state.hub.close)
        self.server.should_exit = True
        self.thread.join(10)


def chrome(*arguments: str):
    """A headless Chromium through Debian's chromedriver (with these command-line `arguments` too), or a skip
    saying how to install it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip(f"no chromium/chromedriver on PATH: {BROWSER_HINT}")
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = chromium
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
        *arguments,
    ):
        options.add_argument(arg)
    try:
        return webdriver.Chrome(service=Service(driver), options=options)
    except Exception as exc:  # noqa: BLE001 - a browser that cannot start here is a skip with its reason
        pytest.skip(f"chromium did not start ({type(exc).__name__}: {str(exc).splitlines()[0]}): {BROWSER_HINT}")


def wait_for(driver, script: str, timeout: float = 60.0):
    """Poll a JavaScript expression until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(f"return ({script});")
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {script}")
        time.sleep(0.05)


def without_first_terrain(text: str) -> tuple[str, str]:
    """A map file's text with the first hex of its first terrain list that is not on the map's edge taken
    out (that hex falls back to the map's default terrain), and that hex's id. An edge hex may be one another
    map shares (Typhoon's M column 01 is N column 39), which must keep the same terrain in both files."""
    import re

    columns = int(re.search(r"\n\s+columns: (\d+)", text).group(1))
    rows = int(re.search(r"\n\s+rows: (\d+)", text).group(1))

    def inside(label: str) -> bool:
        col, row = int(label[-4:-2]), int(label[-2:])
        return 1 < col < columns and 1 < row < rows

    start = text.index("\nterrain:")
    found = next((m for m in re.finditer(r'"([^"]+)",\s*', text[start:]) if inside(m.group(1))), None)
    assert found is not None, "no terrain list in the map file"
    at, end = start + found.start(), start + found.end()
    return text[:at] + text[end:], found.group(1)
